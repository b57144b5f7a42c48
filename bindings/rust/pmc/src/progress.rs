//! The progress callback: a Rust closure behind pmc's `pmc_progress_fn`.
use std::any::Any;
use std::cell::Cell;
use std::ffi::{c_char, c_void, CStr};
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

use pmc_sys as sys;

/// A report from a long solve, given to the closure of
/// [`Options::set_progress`](crate::Options::set_progress).
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Progress<'a> {
    /// The solver's name, e.g. "cpu.jacobi".
    pub solver: &'a str,
    /// Iterations done so far in the current solve.
    pub iteration: u64,
    /// The convergence test's quantity of the last iteration: the largest
    /// change (relative or absolute as set); for the sound interval solvers
    /// the widest gap between the bounds, infinity before an upper bound
    /// exists; NaN for solvers without one.
    pub residual: f64,
    /// Seconds since the solve began.
    pub seconds: f64,
}

pub(crate) type Callback = dyn Fn(&Progress<'_>) -> ControlFlow<()> + Send + Sync;

/// What `user_data` points at. Owned (boxed, so it does not move) by the
/// Options whose handle has it installed.
pub(crate) struct ProgressState {
    pub(crate) callback: Box<Callback>,
    pub(crate) options: *mut sys::pmc_options,
    /// A panic of the callback, re-raised by the check that ran it.
    pub(crate) panic: Mutex<Option<Box<dyn Any + Send>>>,
}

impl ProgressState {
    pub(crate) fn take_panic(&self) -> Option<Box<dyn Any + Send>> {
        self.panic.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

thread_local! {
    // While this thread runs a callback pmc called: the panic message for a
    // pmc call made from it.
    static INSIDE_CALLBACK: Cell<Option<&'static str>> = const { Cell::new(None) };
}

const PROGRESS: &str =
    "pmc functions must not be called from a progress callback (return ControlFlow::Break to cancel)";

/// Panics when called from inside a progress callback or a generator's
/// expand closure: pmc.h allows no pmc call there but
/// pmc_options_request_cancel (and, in an expand callback, the
/// pmc_expansion_* functions, which the Expansion calls directly). The panic
/// reaches the trampoline, which stops the check or exploration and
/// re-raises it after pmc returns.
pub(crate) fn forbid_inside_callback() {
    if let Some(message) = INSIDE_CALLBACK.with(Cell::get) {
        // A &'static str payload, as panic!("literal") gives.
        std::panic::panic_any(message);
    }
}

/// Marks this thread as inside a callback until dropped.
pub(crate) struct InsideCallback(Option<&'static str>);

impl InsideCallback {
    /// `message`: what a pmc call made from the callback panics with.
    pub(crate) fn enter(message: &'static str) -> InsideCallback {
        InsideCallback(INSIDE_CALLBACK.with(|inside| inside.replace(Some(message))))
    }
}

impl Drop for InsideCallback {
    fn drop(&mut self) {
        INSIDE_CALLBACK.with(|inside| inside.set(self.0));
    }
}

/// The `pmc_progress_fn` installed for every Rust callback. It must not
/// unwind into C++, so it catches panics; a panic or `Break` cancels the
/// check through pmc_options_request_cancel, the one pmc call allowed here.
pub(crate) unsafe extern "C" fn trampoline(
    solver: *const c_char,
    iteration: u64,
    residual: f64,
    seconds: f64,
    user_data: *mut c_void,
) {
    // user_data is the ProgressState the Options installed; it outlives the
    // installation, which outlives every check (set_progress and drop need
    // &mut / ownership, so no check runs while it is replaced or freed).
    let state = &*(user_data as *const ProgressState);
    let solver = if solver.is_null() { "".into() } else { CStr::from_ptr(solver).to_string_lossy() };
    let progress = Progress { solver: &solver, iteration, residual, seconds };
    let outcome = {
        let _inside = InsideCallback::enter(PROGRESS);
        panic::catch_unwind(AssertUnwindSafe(|| (state.callback)(&progress)))
    };
    let cancel = match outcome {
        Ok(ControlFlow::Continue(())) => false,
        Ok(ControlFlow::Break(())) => true,
        Err(payload) => {
            let mut slot = state.panic.lock().unwrap_or_else(|e| e.into_inner());
            slot.get_or_insert(payload);
            true
        }
    };
    if cancel {
        // Fails only for NULL, and the handle is live.
        sys::pmc_options_request_cancel(state.options);
    }
}
