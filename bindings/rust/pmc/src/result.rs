use std::ptr::{self, NonNull};

use pmc_sys as sys;

use crate::error::{check, Result};
use crate::{copy_str, must};

/// The value in the initial states: min and max over all of them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InitialRange {
    /// Smallest value over the initial states.
    pub min: f64,
    /// Largest value over the initial states.
    pub max: f64,
    /// How many initial states there are.
    pub count: u64,
}

/// Seconds a check spent in each phase ([`CheckResult::timings`]). The
/// phases do not overlap; `total` is their sum.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Timings {
    /// Loading the model: 0 for results of [`Model::check`](crate::Model::check), which does not load it.
    pub load: f64,
    /// Waiting for the CUDA context (0 once it exists, and on the CPU).
    pub gpu_startup: f64,
    /// Graph algorithms: prob0/prob1, Prob0A/E, 1A/E, SCCs, BSCCs.
    pub precompute: f64,
    /// Equation systems and iteration matrices, on the host or the device.
    pub build: f64,
    /// Copies between host and device.
    pub transfer: f64,
    /// The solvers' iteration loops (GPU: timed by CUDA events).
    pub solve: f64,
    /// Everything else (parsing the property, results, ...).
    pub other: f64,
    /// The sum of the seven phases; [`CheckResult::seconds`] plus `load`.
    pub total: f64,
}

/// The outcome of one [`Model::check`](crate::Model::check): a value per
/// state and how it was computed. Independent of the model (it may outlive
/// it).
///
/// `Send` but not `Sync`: pmc.h does not say one result may be read by
/// several threads at once.
///
/// ```compile_fail
/// fn sync<T: Sync>() {}
/// sync::<pmc::CheckResult>();
/// ```
pub struct CheckResult {
    raw: NonNull<sys::pmc_result>,
}

// SAFETY: pmc.h: "different handles may be used from different threads at
// once"; a result is not tied to the thread that made it.
unsafe impl Send for CheckResult {}

impl CheckResult {
    pub(crate) fn from_raw(raw: NonNull<sys::pmc_result>) -> CheckResult {
        CheckResult { raw }
    }

    /// The handle, for calling pmc-sys directly. Valid while `self` lives.
    pub fn as_ptr(&self) -> *const sys::pmc_result {
        self.raw.as_ptr()
    }

    /// The value in the first initial state (1 or 0 for a boolean property;
    /// +infinity for an infinite expected reward).
    pub fn initial_value(&self) -> f64 {
        let mut value = 0.0;
        must(check(ffi!(sys::pmc_result_initial_value(self.raw.as_ptr(), &mut value))));
        value
    }

    /// Min and max over all initial states, and how many there are.
    pub fn initial_range(&self) -> InitialRange {
        let (mut min, mut max, mut count) = (0.0, 0.0, 0);
        must(check(ffi!(sys::pmc_result_initial_range(self.raw.as_ptr(), &mut min, &mut max, &mut count))));
        InitialRange { min, max, count }
    }

    /// One value per state.
    pub fn values(&self) -> Vec<f64> {
        let mut count = 0;
        must(check(ffi!(sys::pmc_result_values(self.raw.as_ptr(), ptr::null_mut(), 0, &mut count))));
        let mut values = vec![0.0; count as usize];
        let written = self.values_into(&mut values);
        values.truncate(written);
        values
    }

    /// Copies up to `out.len()` values into `out` (state order) and returns
    /// the number of states, to reuse a buffer across checks.
    pub fn values_into(&self, out: &mut [f64]) -> usize {
        let mut count = 0;
        must(check(ffi!(sys::pmc_result_values(self.raw.as_ptr(), out.as_mut_ptr(), out.len() as u64, &mut count))));
        count as usize
    }

    /// The value in the state whose bytes are `state`, of a `model` explored
    /// from a [`Generator`](crate::Generator) (the model this result was
    /// checked on): [`Model::find_state`](crate::Model::find_state), then
    /// that state's value. For many states, [`values`](CheckResult::values)
    /// once and `find_state` per state is quicker (this copies the values up
    /// to the state's).
    pub fn value_of(&self, model: &crate::Model, state: &[u8]) -> Result<f64> {
        let index = model.find_state(state)?;
        let mut values = vec![0.0; index as usize + 1];
        let count = self.values_into(&mut values);
        if index as usize >= count {
            return Err(crate::Error::invalid_argument(format!(
                "state {index} is not in this result ({count} states): check the model the state was found in"
            )));
        }
        Ok(values[index as usize])
    }

    /// True for a boolean property (a bound such as `P>=0.9`, or a state
    /// formula): the values are then 1 (satisfied) or 0.
    pub fn is_boolean(&self) -> bool {
        let mut flag = 0;
        must(check(ffi!(sys::pmc_result_is_boolean(self.raw.as_ptr(), &mut flag))));
        flag != 0
    }

    /// Iterations of all numerical solves, summed.
    pub fn iterations(&self) -> u64 {
        let mut iterations = 0;
        must(check(ffi!(sys::pmc_result_iterations(self.raw.as_ptr(), &mut iterations))));
        iterations
    }

    /// False when some solve reached its iteration limit (only seen through
    /// [`Model::check_allow_unconverged`](crate::Model::check_allow_unconverged)).
    pub fn converged(&self) -> bool {
        let mut flag = 0;
        must(check(ffi!(sys::pmc_result_converged(self.raw.as_ptr(), &mut flag))));
        flag != 0
    }

    /// The solvers used, joined by '+', e.g. "cpu.gauss-seidel" ("none"
    /// when graph algorithms sufficed).
    pub fn solver(&self) -> String {
        let mut name = ptr::null();
        must(check(ffi!(sys::pmc_result_solver(self.raw.as_ptr(), &mut name))));
        // Valid until the result is freed: copied now.
        unsafe { copy_str(name) }
    }

    /// With [`Options::set_exact`](crate::Options::set_exact): the value in
    /// the first initial state as a rational in lowest terms ("7/10", "3";
    /// "Infinity" for an infinite reward); `None` for a result not computed
    /// exactly.
    pub fn exact(&self) -> Option<String> {
        let mut text = ptr::null();
        if ffi!(sys::pmc_result_exact(self.raw.as_ptr(), &mut text)) != sys::PMC_OK {
            return None;
        }
        // Valid until the result is freed: copied now.
        Some(unsafe { copy_str(text) })
    }

    /// For MDPs (Pmin/Pmax over F and U, Rmin/Rmax over F): an optimal
    /// memoryless deterministic scheduler, per state the index of the
    /// optimal choice among the state's choices (0-based, in file order), or
    /// `None` where every choice is optimal. An
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) error when
    /// the property has no scheduler.
    pub fn scheduler(&self) -> Result<Vec<Option<u64>>> {
        let mut count = 0;
        check(ffi!(sys::pmc_result_scheduler(self.raw.as_ptr(), ptr::null_mut(), 0, &mut count)))?;
        let mut choices = vec![0i64; count as usize];
        check(ffi!(sys::pmc_result_scheduler(self.raw.as_ptr(), choices.as_mut_ptr(), count, &mut count)))?;
        choices.truncate(count as usize);
        Ok(choices.into_iter().map(|c| u64::try_from(c).ok()).collect())
    }

    /// True when the result is certified: in every state the exact value
    /// lies within [`bounds`](CheckResult::bounds) /
    /// [`bound_values`](CheckResult::bound_values) (up to floating-point
    /// rounding). Unbounded properties are certified by sound solvers
    /// (interval iteration, the default), bounded and CTMC time-bounded ones
    /// by construction, steady-state and long-run values by exact or bounded
    /// bottom-SCC solves; results of unsound solvers (e.g. "cpu.gauss-seidel"
    /// on a linear system) are not. A certified
    /// result that did not [converge](CheckResult::converged) has valid but
    /// wider bounds.
    pub fn is_sound(&self) -> bool {
        let mut flag = 0;
        must(check(ffi!(sys::pmc_result_sound(self.raw.as_ptr(), &mut flag))));
        flag != 0
    }

    /// Certified bounds `(lower, upper)` on the value in the first initial
    /// state; [`initial_value`](CheckResult::initial_value) is their midpoint
    /// for unbounded properties. An
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) error when
    /// the result is not [sound](CheckResult::is_sound).
    pub fn bounds(&self) -> Result<(f64, f64)> {
        let (mut lower, mut upper) = (0.0, 0.0);
        check(ffi!(sys::pmc_result_bounds(self.raw.as_ptr(), &mut lower, &mut upper)))?;
        Ok((lower, upper))
    }

    /// Certified bounds in every state, `(lower, upper)`, one entry per state
    /// each. An [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported)
    /// error when the result is not [sound](CheckResult::is_sound).
    pub fn bound_values(&self) -> Result<(Vec<f64>, Vec<f64>)> {
        let mut count = 0;
        let raw = self.raw.as_ptr();
        check(ffi!(sys::pmc_result_bound_values(raw, ptr::null_mut(), ptr::null_mut(), 0, &mut count)))?;
        let (mut lower, mut upper) = (vec![0.0; count as usize], vec![0.0; count as usize]);
        check(ffi!(sys::pmc_result_bound_values(raw, lower.as_mut_ptr(), upper.as_mut_ptr(), count, &mut count)))?;
        lower.truncate(count as usize);
        upper.truncate(count as usize);
        Ok((lower, upper))
    }

    /// Wall-clock seconds of the whole check.
    pub fn seconds(&self) -> f64 {
        let mut seconds = 0.0;
        must(check(ffi!(sys::pmc_result_seconds(self.raw.as_ptr(), &mut seconds))));
        seconds
    }

    /// The check's seconds by phase (pmc_result_phase_seconds).
    pub fn timings(&self) -> Timings {
        let phase = |phase: sys::pmc_phase| {
            let mut seconds = 0.0;
            must(check(ffi!(sys::pmc_result_phase_seconds(self.raw.as_ptr(), phase, &mut seconds))));
            seconds
        };
        Timings {
            load: phase(sys::PMC_PHASE_LOAD),
            gpu_startup: phase(sys::PMC_PHASE_GPU_STARTUP),
            precompute: phase(sys::PMC_PHASE_PRECOMPUTE),
            build: phase(sys::PMC_PHASE_BUILD),
            transfer: phase(sys::PMC_PHASE_TRANSFER),
            solve: phase(sys::PMC_PHASE_SOLVE),
            other: phase(sys::PMC_PHASE_OTHER),
            total: phase(sys::PMC_PHASE_TOTAL),
        }
    }
}

impl std::fmt::Debug for CheckResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CheckResult")
            .field("initial_value", &self.initial_value())
            .field("solver", &self.solver())
            .field("iterations", &self.iterations())
            .field("converged", &self.converged())
            .field("sound", &self.is_sound())
            .finish()
    }
}

impl Drop for CheckResult {
    fn drop(&mut self) {
        ffi!(sys::pmc_result_free(self.raw.as_ptr()));
    }
}
