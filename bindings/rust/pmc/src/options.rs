use std::ffi::c_void;
use std::ops::ControlFlow;
use std::ptr::NonNull;
use std::sync::Mutex;

use pmc_sys as sys;

use crate::error::{check, Result};
use crate::progress::{trampoline, Progress, ProgressState};

/// Settings for loading, building and checking: strictness, solver,
/// convergence, threads, GPU; a cancel flag and a progress callback.
///
/// ```no_run
/// # fn main() -> pmc::Result<()> {
/// let mut options = pmc::Options::new()?;
/// options.set_solver("cpu.gauss-seidel")?.set_epsilon(1e-10)?;
/// # Ok(())
/// # }
/// ```
pub struct Options {
    raw: NonNull<sys::pmc_options>,
    // The closure behind the installed progress callback; freed after the
    // handle (fields drop after Drop::drop).
    progress: Option<Box<ProgressState>>,
}

// SAFETY: pmc.h: handles are not tied to a thread; setters need exclusive
// access (&mut self); pmc_check may run with the same options on several
// threads at once; request/reset_cancel may be called from any thread while
// checks run (&self). The progress closure is Send + Sync because it then
// runs on whichever threads check.
unsafe impl Send for Options {}
unsafe impl Sync for Options {}

impl Options {
    /// The defaults: non-strict loading, row-sum tolerance 1e-9, solver
    /// "auto" (sound), epsilon 1e-6 relative, 1000000 iterations, every core.
    pub fn new() -> Result<Options> {
        let mut raw = std::ptr::null_mut();
        check(ffi!(sys::pmc_options_create(&mut raw)))?;
        let raw = NonNull::new(raw).expect("pmc_options_create returned PMC_OK and NULL");
        Ok(Options { raw, progress: None })
    }

    /// The handle, for calling pmc-sys directly. Valid while `self` lives.
    pub fn as_ptr(&self) -> *const sys::pmc_options {
        self.raw.as_ptr()
    }

    fn set(&mut self, status: sys::pmc_status) -> Result<&mut Options> {
        check(status)?;
        Ok(self)
    }

    /// Reject states without outgoing transitions instead of giving them a
    /// self-loop with a warning (PRISM's default).
    pub fn set_strict(&mut self, strict: bool) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_strict(self.raw.as_ptr(), strict.into()));
        self.set(status)
    }

    /// Allowed |sum - 1| of each DTMC/MDP row, in [0, 0.1] (default 1e-9).
    pub fn set_row_sum_tolerance(&mut self, tolerance: f64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_row_sum_tolerance(self.raw.as_ptr(), tolerance));
        self.set(status)
    }

    /// "auto" (default), "cpu", "gpu" or a name from [`crate::solvers`],
    /// e.g. "cpu.jacobi". Unknown names fail here.
    pub fn set_solver(&mut self, name: &str) -> Result<&mut Options> {
        let name = crate::c_string(name, "solver name")?;
        let status = ffi!(sys::pmc_options_set_solver(self.raw.as_ptr(), name.as_ptr()));
        self.set(status)
    }

    /// Convergence threshold of iterative solvers, in (0, 1) (default 1e-6).
    pub fn set_epsilon(&mut self, epsilon: f64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_epsilon(self.raw.as_ptr(), epsilon));
        self.set(status)
    }

    /// Relative (default) or absolute convergence test.
    pub fn set_relative(&mut self, relative: bool) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_relative(self.raw.as_ptr(), relative.into()));
        self.set(status)
    }

    /// `true` (default): "auto", "cpu" and "gpu" pick sound solvers
    /// (interval iteration), whose results carry certified bounds
    /// ([`CheckResult::is_sound`](crate::CheckResult::is_sound),
    /// [`CheckResult::bounds`](crate::CheckResult::bounds)). `false`: they
    /// may pick faster unsound solvers (PRISM's stopping rule, no error
    /// bound). A solver named with [`set_solver`](Options::set_solver) runs
    /// either way; its result says whether it is sound.
    pub fn set_sound(&mut self, sound: bool) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_sound(self.raw.as_ptr(), sound.into()));
        self.set(status)
    }

    /// `true`: the value as a rational
    /// ([`CheckResult::exact`](crate::CheckResult::exact), "7/10"), computed
    /// by "cpu.exact-pi" from the numbers as the model's source defines
    /// them; unbounded `P=? [F ...]`, `P=? [... U ...]` and `R=?`/`T=? [F ...]`
    /// only (other properties give an
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) error).
    /// Default `false`.
    pub fn set_exact(&mut self, exact: bool) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_exact(self.raw.as_ptr(), exact.into()));
        self.set(status)
    }

    /// Iteration limit of each solve (default 1000000).
    pub fn set_max_iterations(&mut self, max_iterations: u64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_max_iterations(self.raw.as_ptr(), max_iterations));
        self.set(status)
    }

    /// PRISM-language sources ([`Model::build_prism`](crate::Model::build_prism)):
    /// exploration fails with [`ErrorKind::Model`](crate::ErrorKind) above
    /// this many reachable states; 0 (default) means no limit.
    pub fn set_max_states(&mut self, max_states: u64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_max_states(self.raw.as_ptr(), max_states));
        self.set(status)
    }

    /// PRISM-language sources: which explorer builds the state space, "cpu",
    /// "gpu" (the first GPU; the same model bit for bit) or "auto" (default:
    /// the CPU's, handing models of more than 2^21 states to a GPU when there
    /// is one). Other names fail here.
    pub fn set_build(&mut self, build: &str) -> Result<&mut Options> {
        let build = crate::c_string(build, "build")?;
        let status = ffi!(sys::pmc_options_set_build(self.raw.as_ptr(), build.as_ptr()));
        self.set(status)
    }

    /// CPU threads of the solvers; 0 (default) uses every core.
    pub fn set_threads(&mut self, threads: u64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_threads(self.raw.as_ptr(), threads));
        self.set(status)
    }

    /// The GPU to use (an index of [`crate::devices`]; default 0).
    pub fn set_device(&mut self, device: u64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_device(self.raw.as_ptr(), device));
        self.set(status)
    }

    /// The GPUs gpu.jacobi and gpu.vi split the rows over (distinct indices
    /// of [`crate::devices`]); empty (default): automatic, all GPUs only when
    /// the problem does not fit one. The slice is read during the call only.
    pub fn set_devices(&mut self, devices: &[u64]) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_devices(self.raw.as_ptr(), devices.as_ptr(), devices.len() as u64));
        self.set(status)
    }

    /// `true`: gpu.jacobi and gpu.vi use every usable GPU whatever the size.
    pub fn set_all_devices(&mut self, all: bool) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_all_devices(self.raw.as_ptr(), all as core::ffi::c_int));
        self.set(status)
    }

    /// Parametric CTMCs: checks run on the CTMC at this point; sets (or
    /// replaces) the value of the parameter `name` (see
    /// [`Model::parameter_names`](crate::Model::parameter_names)). Every
    /// parameter needs a value within its range, else the check fails with
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind) naming it; a
    /// non-finite value fails here.
    pub fn set_parameter(&mut self, name: &str, value: f64) -> Result<&mut Options> {
        let name = crate::c_string(name, "parameter name")?;
        let status = ffi!(sys::pmc_options_set_parameter(self.raw.as_ptr(), name.as_ptr(), value));
        self.set(status)
    }

    /// Forgets every value set with [`set_parameter`](Options::set_parameter).
    pub fn clear_parameters(&mut self) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_clear_parameters(self.raw.as_ptr()));
        self.set(status)
    }

    /// Values of the constants properties name (`F<=T`, `P>=p`), as
    /// "T=10,p=0.5", replacing those set before ("" clears them); each is
    /// typed as written (`10` an int, `10.0` a double: a DTMC's or MDP's
    /// step bound must be an int). Malformed text fails here with
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind); a check whose
    /// property names a constant with no value fails naming it.
    pub fn set_constants(&mut self, constants: &str) -> Result<&mut Options> {
        let constants = crate::c_string(constants, "constants")?;
        let status = ffi!(sys::pmc_options_set_constants(self.raw.as_ptr(), constants.as_ptr()));
        self.set(status)
    }

    /// Device memory pmc may use, in bytes; 0 (default) = all free memory.
    pub fn set_gpu_memory_limit(&mut self, bytes: u64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_gpu_memory_limit(self.raw.as_ptr(), bytes));
        self.set(status)
    }

    /// Host memory loading, building and checking with these options may
    /// use, in bytes; 0 (default) = the machine's (its physical memory, or
    /// the cgroup's limit when lower). A model or property that would need
    /// more fails with [`ErrorKind::OutOfMemory`](crate::ErrorKind) before
    /// allocating, the message giving the need and the limit.
    /// [`Model::load`](crate::Model::load) takes no options: the default.
    pub fn set_memory_limit(&mut self, bytes: u64) -> Result<&mut Options> {
        let status = ffi!(sys::pmc_options_set_memory_limit(self.raw.as_ptr(), bytes));
        self.set(status)
    }

    /// Calls `callback` during checks with these options, at most every
    /// 0.2 s of a solve (never for shorter solves). It runs on the thread
    /// that checks (several at once if several threads check), must return
    /// quickly and must not call pmc (doing so panics).
    ///
    /// Returning `ControlFlow::Break(())` cancels, as
    /// [`request_cancel`](Options::request_cancel) does: this and every
    /// running check with these options fail with
    /// [`ErrorKind::Cancelled`](crate::ErrorKind::Cancelled), and later ones
    /// too until [`reset_cancel`](Options::reset_cancel). A panic in the
    /// callback cancels the same way and is then re-raised by the
    /// [`Model::check`](crate::Model::check) that ran it (or, when several
    /// threads check with these options at once, by one of them).
    pub fn set_progress<F>(&mut self, callback: F) -> Result<&mut Options>
    where
        F: Fn(&Progress<'_>) -> ControlFlow<()> + Send + Sync + 'static,
    {
        let state = Box::new(ProgressState {
            callback: Box::new(callback),
            options: self.raw.as_ptr(),
            panic: Mutex::new(None),
        });
        let user_data = &*state as *const ProgressState as *mut c_void;
        check(ffi!(sys::pmc_options_set_progress(self.raw.as_ptr(), Some(trampoline), user_data)))?;
        // The handle no longer points at the previous state: free it.
        self.progress = Some(state);
        Ok(self)
    }

    /// Removes the progress callback.
    pub fn clear_progress(&mut self) -> Result<&mut Options> {
        check(ffi!(sys::pmc_options_set_progress(self.raw.as_ptr(), None, std::ptr::null_mut())))?;
        self.progress = None;
        Ok(self)
    }

    /// Sets the cancel flag: every check running with these options stops at
    /// its solver's next iteration with [`ErrorKind::Cancelled`](crate::ErrorKind::Cancelled)
    /// (the model stays usable), and later checks are cancelled at once
    /// until [`reset_cancel`](Options::reset_cancel). Callable from any
    /// thread while other threads check with these options.
    pub fn request_cancel(&self) {
        // Not through ffi!: the one pmc call pmc.h allows inside a progress
        // callback (it only stores to an atomic flag). Fails only for NULL.
        unsafe { sys::pmc_options_request_cancel(self.raw.as_ptr()) };
    }

    /// Clears the cancel flag. Thread-safe like
    /// [`request_cancel`](Options::request_cancel); reset only while no check
    /// you did not mean to cancel is running.
    pub fn reset_cancel(&self) {
        ffi!(sys::pmc_options_reset_cancel(self.raw.as_ptr()));
    }

    /// A panic of the progress callback, if one is waiting to be re-raised.
    pub(crate) fn take_callback_panic(&self) -> Option<Box<dyn std::any::Any + Send>> {
        self.progress.as_ref().and_then(|state| state.take_panic())
    }
}

impl Default for Options {
    /// [`Options::new`]; panics only when out of memory.
    fn default() -> Options {
        Options::new().unwrap_or_else(|e| panic!("pmc_options_create: {e}"))
    }
}

impl std::fmt::Debug for Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Options").field("raw", &self.raw).field("progress", &self.progress.is_some()).finish()
    }
}

impl Drop for Options {
    fn drop(&mut self) {
        ffi!(sys::pmc_options_free(self.raw.as_ptr()));
    }
}
