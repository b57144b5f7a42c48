//! Safe Rust bindings of libpmc, the probabilistic model checker for
//! explicit-state Markov models (DTMCs, CTMCs, MDPs, parametric CTMCs) on
//! CPUs and NVIDIA GPUs.
//!
//! ```no_run
//! # fn main() -> pmc::Result<()> {
//! let model = pmc::Model::load("examples/die/die.tra")?; // finds die.lab, die.srew
//! let mut options = pmc::Options::new()?;
//! options.set_epsilon(1e-10)?;
//! let result = model.check("P=? [ F \"six\" ]", &options)?;
//! println!("{} ({} iterations, {})", result.initial_value(), result.iterations(), result.solver());
//! let per_state: Vec<f64> = result.values();
//! # let _ = per_state;
//! if result.is_sound() {
//!     // The default solvers are sound: the exact value lies within the bounds.
//!     let (lower, upper) = result.bounds()?;
//!     println!("in [{lower}, {upper}]");
//! }
//! # Ok(())
//! # }
//! ```
//!
//! Every fallible call returns [`Result`], whose [`Error`] carries pmc's
//! status and message (file, line, column, state). Getters that can only
//! fail for a NULL handle or out-parameter, which these bindings never
//! pass, return plain values.
//!
//! # Thread safety
//!
//! Only what `pmc.h` documents:
//! - [`Model`] is `Send + Sync`: "one pmc_model may be read (queried, saved)
//!   by many threads at once, because models are immutable", and handles
//!   are not tied to a thread. The two functions that change a model
//!   (`pmc_model_add_label`, `pmc_model_add_rewards`) need exclusive access
//!   and take `&mut self`; [`Model::release_device`] is documented
//!   thread-safe beside checks and takes `&self`.
//! - [`Options`] is `Send + Sync`: its setters need exclusive access and
//!   take `&mut self`; pmc.h allows several threads to run `pmc_check` with
//!   the same options at once, and `pmc_options_request_cancel` /
//!   `pmc_options_reset_cancel` from any thread while they do (`&self`).
//!   The progress callback may therefore run on several threads at once and
//!   must be `Send + Sync`.
//! - [`Generator`] is `Send + Sync`: `pmc_model_explore` takes a const
//!   generator; explorations of one generator take turns (the bindings'
//!   own lock, so that a closure's error reaches its own exploration). Its
//!   closure is `Send` (pmc may call it from another thread), and
//!   `Send + Sync` when built with
//!   [`build_thread_safe`](GeneratorBuilder::build_thread_safe) (pmc calls
//!   it from several threads at once). [`Expansion`] is lent to the closure
//!   for one call only.
//! - [`Properties`] is plain data copied out of libpmc (`Send + Sync`).
//! - [`CheckResult`] is `Send` only: pmc.h says different handles may be
//!   used from different threads, but does not say one result may be read
//!   by several threads at once.
//! - `pmc_last_error()` is per thread; [`Error`] copies it right after the
//!   failing call, on the same thread.
#![warn(missing_docs)]

use std::ffi::{c_char, CStr, CString};
use std::path::Path;

pub use pmc_sys as sys;

/// Calls into libpmc. Every call goes through here so that none is made
/// from inside a progress callback, which pmc.h forbids (the callback
/// "must not call pmc functions other than pmc_options_request_cancel").
macro_rules! ffi {
    ($call:expr) => {{
        $crate::progress::forbid_inside_callback();
        $crate::speak_rust();
        #[allow(unused_unsafe)]
        let value = unsafe { $call };
        value
    }};
}

/// Once per process, before the first call into pmc: its messages then
/// name settings as Rust callers set them (`Options::set_max_states`),
/// not as the C ABI does.
#[doc(hidden)]
pub fn speak_rust() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: a NUL-terminated static string; the call has no other input.
        unsafe { sys::pmc_set_caller_language(b"rust\0".as_ptr() as *const c_char) };
    });
}

mod error;
mod generator;
mod model;
mod options;
mod progress;
mod properties;
mod result;

pub use error::{Error, ErrorKind, Result};
pub use generator::{
    ExpandResult, Expansion, Generator, GeneratorBuilder, LabelId, LabelRef, RewardsId, RewardsRef, StateOrder,
};
pub use model::{Csr, Model, ModelKind, ParametricCsr, Rewards};
pub use options::Options;
pub use progress::Progress;
pub use properties::{Properties, Property};
pub use result::{CheckResult, InitialRange, Timings};

/// The version of the libpmc actually loaded, "major.minor.patch".
pub fn version() -> &'static str {
    // Static storage (pmc.h).
    unsafe { static_str(ffi!(sys::pmc_version())) }
}

/// The version of the libpmc actually loaded as MAJOR * 10000 + MINOR * 100
/// + PATCH: compare with [`sys::PMC_VERSION_NUMBER`], the header these
/// bindings were written against (same major number, not smaller).
pub fn version_number() -> u32 {
    ffi!(sys::pmc_version_number()) as u32
}

/// The names of the registered solvers, e.g. "cpu.jacobi", "gpu.vi": the
/// values [`Options::set_solver`] accepts besides "auto", "cpu" and "gpu".
pub fn solvers() -> Vec<&'static str> {
    let mut count = 0u64;
    must(error::check(ffi!(sys::pmc_solver_count(&mut count))));
    (0..count)
        .map(|i| {
            let mut name = std::ptr::null();
            must(error::check(ffi!(sys::pmc_solver_name(i, &mut name))));
            // Static storage (pmc.h).
            unsafe { static_str(name) }
        })
        .collect()
}

/// A CUDA device pmc can use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Device {
    /// The index to pass to [`Options::set_device`].
    pub index: u64,
    /// E.g. "NVIDIA H100 80GB HBM3".
    pub name: &'static str,
    /// E.g. (9, 0) for Hopper.
    pub compute_capability: (i32, i32),
}

impl Device {
    /// Free and total device memory in bytes, measured now.
    pub fn memory(&self) -> Result<(u64, u64)> {
        let (mut free, mut total) = (0u64, 0u64);
        error::check(ffi!(sys::pmc_device_memory(self.index, &mut free, &mut total)))?;
        Ok((free, total))
    }
}

/// The usable CUDA devices. With none, an [`ErrorKind::NoDevice`] error says
/// why (built without CUDA, no driver, driver too old, no GPU).
pub fn devices() -> Result<Vec<Device>> {
    let mut count = 0u64;
    error::check(ffi!(sys::pmc_device_count(&mut count)))?;
    (0..count)
        .map(|index| {
            let mut name = std::ptr::null();
            let (mut major, mut minor) = (0, 0);
            error::check(ffi!(sys::pmc_device_name(index, &mut name)))?;
            error::check(ffi!(sys::pmc_device_compute_capability(index, &mut major, &mut minor)))?;
            // Static storage (pmc.h).
            Ok(Device { index, name: unsafe { static_str(name) }, compute_capability: (major, minor) })
        })
        .collect()
}

/// Copies a string owned by libpmc ("" for NULL).
///
/// # Safety
/// `p` is NULL or a NUL-terminated string valid for the duration of the call.
pub(crate) unsafe fn copy_str(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// # Safety
/// `p` is NULL or a NUL-terminated string with static storage.
pub(crate) unsafe fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        ""
    } else {
        // pmc's static strings are ASCII; a non-UTF-8 one would be a bug in pmc.
        CStr::from_ptr(p).to_str().unwrap_or("?")
    }
}

/// A C string for libpmc, or an invalid-argument error naming `what`.
pub(crate) fn c_string(text: &str, what: &str) -> Result<CString> {
    CString::new(text).map_err(|_| Error::invalid_argument(format!("{what} {text:?} contains a NUL byte")))
}

pub(crate) fn c_path(path: &Path) -> Result<CString> {
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path
        .to_str()
        .ok_or_else(|| Error::invalid_argument(format!("path {} is not valid UTF-8", path.display())))?
        .as_bytes()
        .to_vec();
    CString::new(bytes)
        .map_err(|_| Error::invalid_argument(format!("path {:?} contains a NUL byte", path.display().to_string())))
}

/// For calls that fail only on a NULL handle or out-parameter, or an index
/// out of range, none of which these bindings pass: failing is a bug.
#[track_caller]
pub(crate) fn must<T>(result: Result<T>) -> T {
    match result {
        Ok(value) => value,
        Err(e) => panic!("libpmc failed where it cannot: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send<T: Send>() {}
    fn sync<T: Sync>() {}

    #[test]
    fn thread_safety_is_what_the_header_documents() {
        send::<Model>();
        sync::<Model>();
        send::<Options>();
        sync::<Options>();
        send::<CheckResult>();
        send::<Error>();
        sync::<Error>();
        send::<Generator<'static>>();
        sync::<Generator<'static>>();
        send::<GeneratorBuilder>();
        sync::<GeneratorBuilder>();
    }

    #[test]
    fn version_matches_the_declarations() {
        assert_eq!(version_number() / 10000, sys::PMC_VERSION_NUMBER / 10000);
        assert!(version_number() >= sys::PMC_VERSION_NUMBER);
    }
}
