use std::ffi::{c_char, CString};
use std::path::Path;
use std::ptr::{self, NonNull};

use pmc_sys as sys;

use crate::error::{check, Error, Result};
use crate::{c_path, c_string, copy_str, must, CheckResult, Options};

/// The type of a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelKind {
    /// Discrete-time Markov chain.
    Dtmc,
    /// Continuous-time Markov chain.
    Ctmc,
    /// Markov decision process.
    Mdp,
    /// CTMC with rates affine in parameters.
    Pctmc,
}

impl ModelKind {
    pub(crate) fn to_raw(self) -> sys::pmc_model_kind {
        match self {
            ModelKind::Dtmc => sys::PMC_MODEL_DTMC,
            ModelKind::Ctmc => sys::PMC_MODEL_CTMC,
            ModelKind::Mdp => sys::PMC_MODEL_MDP,
            ModelKind::Pctmc => sys::PMC_MODEL_PCTMC,
        }
    }

    fn from_raw(raw: sys::pmc_model_kind) -> Option<ModelKind> {
        match raw {
            sys::PMC_MODEL_DTMC => Some(ModelKind::Dtmc),
            sys::PMC_MODEL_CTMC => Some(ModelKind::Ctmc),
            sys::PMC_MODEL_MDP => Some(ModelKind::Mdp),
            sys::PMC_MODEL_PCTMC => Some(ModelKind::Pctmc),
            _ => None,
        }
    }
}

/// A sparse matrix in CSR form for [`Model::from_csr`]; the arrays are copied.
///
/// Row `r` holds the entries `row_offsets[r]..row_offsets[r + 1]` of
/// `columns` (target states) and `values` (probabilities, or rates in a
/// CTMC). An MDP also has `row_groups`: one entry per state plus one, the
/// first row (choice) of each state. Entries with value 0 are dropped;
/// duplicate (row, column) entries are rejected.
#[derive(Debug, Clone, Copy)]
pub struct Csr<'a> {
    /// MDPs only: num_states + 1 entries.
    pub row_groups: Option<&'a [u64]>,
    /// num_rows + 1 entries, the last being the number of entries.
    pub row_offsets: &'a [u64],
    /// Target state of each entry.
    pub columns: &'a [u64],
    /// Probability or rate of each entry.
    pub values: &'a [f64],
}

impl<'a> Csr<'a> {
    /// A DTMC or CTMC matrix: one row per state.
    pub fn new(row_offsets: &'a [u64], columns: &'a [u64], values: &'a [f64]) -> Csr<'a> {
        Csr { row_groups: None, row_offsets, columns, values }
    }

    /// Groups rows into states, for an MDP.
    pub fn with_row_groups(self, row_groups: &'a [u64]) -> Csr<'a> {
        Csr { row_groups: Some(row_groups), ..self }
    }
}

/// A parametric CTMC for [`Model::from_parametric_csr`]: the rate of entry
/// `e` is `constants[e] + sum_k coefficients[e * K + k] * p_k` for the K
/// parameters `p_k`, each in `[lower[k], upper[k]]` (default `[0, +inf)`).
#[derive(Debug, Clone, Copy)]
pub struct ParametricCsr<'a> {
    /// num_states + 1 entries.
    pub row_offsets: &'a [u64],
    /// Target state of each entry.
    pub columns: &'a [u64],
    /// Constant part of each entry's rate.
    pub constants: &'a [f64],
    /// The parameters' names (at least one).
    pub parameter_names: &'a [&'a str],
    /// entries × parameters coefficients, entry-major.
    pub coefficients: &'a [f64],
    /// Lower bound of each parameter, or `None` for 0.
    pub lower: Option<&'a [f64]>,
    /// Upper bound of each parameter, or `None` for +infinity.
    pub upper: Option<&'a [f64]>,
}

/// A reward structure for [`Model::add_rewards`]; each part is optional
/// (but not all of them).
#[derive(Debug, Clone, Copy, Default)]
pub struct Rewards<'a> {
    /// One per state, earned per state (per time unit in a CTMC).
    pub state: Option<&'a [f64]>,
    /// One per row ([`Model::num_choices`]), earned when the row is taken.
    pub choice: Option<&'a [f64]>,
    /// One per matrix entry ([`Model::num_transitions`]), in the model's
    /// entry order (rows sorted by column).
    pub transition: Option<&'a [f64]>,
}

/// A loaded or built model: matrix, labels, reward structures. Immutable
/// except for adding labels and rewards; may be checked by many threads at
/// once.
pub struct Model {
    raw: NonNull<sys::pmc_model>,
}

// SAFETY: pmc.h: handles are not tied to a thread, and "one pmc_model may be
// read (queried, saved) by many threads at once, because models are
// immutable"; pmc_check takes a const model and "may be checked by several
// threads at once". The changing calls (add_label, add_rewards) take
// &mut self, Drop owns the model.
unsafe impl Send for Model {}
unsafe impl Sync for Model {}

fn length_error(what: &str, expected: u64, found: usize) -> Error {
    Error::invalid_argument(format!("{what} has {found} entries, expected {expected}"))
}

impl Model {
    pub(crate) fn from_out(status: sys::pmc_status, raw: *mut sys::pmc_model) -> Result<Model> {
        check(status)?;
        Ok(Model { raw: NonNull::new(raw).expect("libpmc returned PMC_OK and a NULL model") })
    }

    /// Loads a model file, its format chosen by extension: PRISM explicit
    /// `.tra` (with the `.lab`, `.srew`, `.trew`, `.sta` files of the same
    /// stem), Storm `.drn`, pmc's `.pmcb`; text files may be `.gz`. A
    /// PRISM-language source (`.pm`, `.sm`, `.nm`, `.prism`) defining all
    /// its constants is built; see [`build_prism`](Model::build_prism) to
    /// give constants.
    pub fn load(path: impl AsRef<Path>) -> Result<Model> {
        let path = c_path(path.as_ref())?;
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_load(path.as_ptr(), ptr::null(), &mut raw));
        Model::from_out(status, raw)
    }

    /// Like [`load`](Model::load) with a format: "prism", "prism-dtmc",
    /// "prism-ctmc", "prism-mdp", "drn", "pmcb" or "prism-language".
    pub fn load_with_format(path: impl AsRef<Path>, format: &str) -> Result<Model> {
        let path = c_path(path.as_ref())?;
        let format = c_string(format, "format")?;
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_load(path.as_ptr(), format.as_ptr(), &mut raw));
        Model::from_out(status, raw)
    }

    /// Builds a model from a PRISM-language source (`.pm`, `.sm`, `.nm`,
    /// `.prism`), or a JANI model (`.jani`), by exploring its reachable
    /// states as PRISM does.
    /// `constants` gives the values of the constants the source leaves
    /// undefined, as `"K=2,N=4"` (`None` or `""` when it defines them all);
    /// `options` (`&options` or `None`) may set strictness, threads and
    /// [`set_max_states`](Options::set_max_states). Errors carry the
    /// parser's message (file:line:column, or the undefined constants and
    /// how to set them).
    pub fn build_prism<'o>(
        path: impl AsRef<Path>,
        constants: Option<&str>,
        options: impl Into<Option<&'o Options>>,
    ) -> Result<Model> {
        let options = options.into();
        let path = c_path(path.as_ref())?;
        let constants = constants.map(|c| c_string(c, "constants")).transpose()?;
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_build_prism(
            path.as_ptr(),
            constants.as_ref().map_or(ptr::null(), |c| c.as_ptr()),
            options.map_or(ptr::null(), Options::as_ptr),
            &mut raw,
        ));
        Model::from_out(status, raw)
    }

    /// Loads a model from several files (PRISM explicit: the `.tra` plus
    /// any of `.lab`, `.srew`, `.trew`, `.sta`), with options (strictness,
    /// row-sum tolerance; `&options` or `None`). `format` `None`: by extension.
    pub fn load_files<'o, P: AsRef<Path>>(
        paths: &[P],
        format: Option<&str>,
        options: impl Into<Option<&'o Options>>,
    ) -> Result<Model> {
        let options = options.into();
        let paths = paths.iter().map(|p| c_path(p.as_ref())).collect::<Result<Vec<CString>>>()?;
        let pointers: Vec<*const c_char> = paths.iter().map(|p| p.as_ptr()).collect();
        let format = format.map(|f| c_string(f, "format")).transpose()?;
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_load_files(
            pointers.as_ptr(),
            pointers.len() as u64,
            format.as_ref().map_or(ptr::null(), |f| f.as_ptr()),
            options.map_or(ptr::null(), Options::as_ptr),
            &mut raw,
        ));
        Model::from_out(status, raw)
    }

    /// Builds a DTMC, CTMC or MDP from CSR arrays (copied). Label the
    /// initial states "init" with [`add_label`](Model::add_label) before
    /// checking.
    ///
    /// ```
    /// # fn main() -> pmc::Result<()> {
    /// use pmc::{Csr, Model, ModelKind};
    /// // State 0 moves to the absorbing state 1 with probability 0.25 a step.
    /// let csr = Csr::new(&[0, 2, 3], &[0, 1, 1], &[0.75, 0.25, 1.0]);
    /// let mut model = Model::from_csr(ModelKind::Dtmc, &csr, None)?;
    /// model.add_label("init", &[0])?;
    /// model.add_label("done", &[1])?;
    /// let within_two = model.check("P=? [ F<=2 \"done\" ]", None)?.initial_value();
    /// assert!((within_two - (1.0 - 0.75 * 0.75)).abs() < 1e-12);
    /// # Ok(())
    /// # }
    /// ```
    pub fn from_csr<'o>(kind: ModelKind, csr: &Csr<'_>, options: impl Into<Option<&'o Options>>) -> Result<Model> {
        let options = options.into();
        // pmc reads as many entries as the counts say: make the slices hold them.
        let num_rows =
            csr.row_offsets.len().checked_sub(1).ok_or_else(|| {
                Error::invalid_argument("row_offsets is empty: it needs num_rows + 1 entries".to_owned())
            })? as u64;
        let entries = csr.row_offsets[csr.row_offsets.len() - 1];
        if csr.columns.len() as u64 != entries {
            return Err(length_error("columns (row_offsets' last entry)", entries, csr.columns.len()));
        }
        if csr.values.len() as u64 != entries {
            return Err(length_error("values (row_offsets' last entry)", entries, csr.values.len()));
        }
        let num_states = match (kind, csr.row_groups) {
            (ModelKind::Mdp, Some(groups)) => groups.len().checked_sub(1).ok_or_else(|| {
                Error::invalid_argument("row_groups is empty: it needs num_states + 1 entries".to_owned())
            })? as u64,
            (ModelKind::Mdp, None) => return Err(Error::invalid_argument("an MDP needs row_groups".to_owned())),
            (_, Some(_)) => {
                return Err(Error::invalid_argument(
                    "row_groups are for MDPs only (a DTMC or CTMC has one row per state)".to_owned(),
                ))
            }
            (_, None) => num_rows,
        };
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_build_csr(
            kind.to_raw(),
            num_states,
            num_rows,
            csr.row_groups.map_or(ptr::null(), <[u64]>::as_ptr),
            csr.row_offsets.as_ptr(),
            csr.columns.as_ptr(),
            csr.values.as_ptr(),
            options.map_or(ptr::null(), Options::as_ptr),
            &mut raw,
        ));
        Model::from_out(status, raw)
    }

    /// Builds a parametric CTMC (arrays copied).
    pub fn from_parametric_csr<'o>(csr: &ParametricCsr<'_>, options: impl Into<Option<&'o Options>>) -> Result<Model> {
        let options = options.into();
        let num_states = csr.row_offsets.len().checked_sub(1).ok_or_else(|| {
            Error::invalid_argument("row_offsets is empty: it needs num_states + 1 entries".to_owned())
        })? as u64;
        let entries = csr.row_offsets[csr.row_offsets.len() - 1];
        let num_parameters = csr.parameter_names.len() as u64;
        if csr.columns.len() as u64 != entries {
            return Err(length_error("columns (row_offsets' last entry)", entries, csr.columns.len()));
        }
        if csr.constants.len() as u64 != entries {
            return Err(length_error("constants (row_offsets' last entry)", entries, csr.constants.len()));
        }
        let coefficients = entries.checked_mul(num_parameters).ok_or_else(|| {
            Error::invalid_argument(format!("{entries} entries × {num_parameters} parameters overflow"))
        })?;
        if csr.coefficients.len() as u64 != coefficients {
            return Err(length_error("coefficients (entries × parameters)", coefficients, csr.coefficients.len()));
        }
        for (what, bounds) in [("lower", csr.lower), ("upper", csr.upper)] {
            if let Some(b) = bounds.filter(|b| b.len() as u64 != num_parameters) {
                return Err(length_error(what, num_parameters, b.len()));
            }
        }
        let names = csr.parameter_names.iter().map(|n| c_string(n, "parameter name")).collect::<Result<Vec<_>>>()?;
        let name_pointers: Vec<*const c_char> = names.iter().map(|n| n.as_ptr()).collect();
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_build_parametric_csr(
            num_states,
            csr.row_offsets.as_ptr(),
            csr.columns.as_ptr(),
            csr.constants.as_ptr(),
            num_parameters,
            name_pointers.as_ptr(),
            csr.coefficients.as_ptr(),
            csr.lower.map_or(ptr::null(), <[f64]>::as_ptr),
            csr.upper.map_or(ptr::null(), <[f64]>::as_ptr),
            options.map_or(ptr::null(), Options::as_ptr),
            &mut raw,
        ));
        Model::from_out(status, raw)
    }

    /// The handle, for calling pmc-sys directly. Valid while `self` lives.
    pub fn as_ptr(&self) -> *const sys::pmc_model {
        self.raw.as_ptr()
    }

    /// Adds a label (a named set of states; "init" marks the initial states).
    pub fn add_label(&mut self, name: &str, states: &[u64]) -> Result<()> {
        let name = c_string(name, "label name")?;
        check(ffi!(sys::pmc_model_add_label(self.raw.as_ptr(), name.as_ptr(), states.as_ptr(), states.len() as u64)))
    }

    /// Adds a reward structure (`name` "" for an unnamed one).
    pub fn add_rewards(&mut self, name: &str, rewards: &Rewards<'_>) -> Result<()> {
        // pmc reads one value per state / row / entry: check the lengths.
        let parts = [
            ("state rewards", rewards.state, self.num_states()),
            ("choice rewards", rewards.choice, self.num_choices()),
            ("transition rewards", rewards.transition, self.num_transitions()),
        ];
        for (what, part, expected) in parts {
            if let Some(values) = part.filter(|v| v.len() as u64 != expected) {
                return Err(length_error(what, expected, values.len()));
            }
        }
        let name = c_string(name, "reward structure name")?;
        let pointer = |part: Option<&[f64]>| part.map_or(ptr::null(), <[f64]>::as_ptr);
        check(ffi!(sys::pmc_model_add_rewards(
            self.raw.as_ptr(),
            name.as_ptr(),
            pointer(rewards.state),
            pointer(rewards.choice),
            pointer(rewards.transition),
        )))
    }

    /// Frees the model's GPU-resident copies. A GPU check copies the matrix
    /// to the device once and keeps the copy on the model for later checks
    /// until the model is dropped; this gives the device memory back sooner
    /// (the next GPU check copies again). Fine when there are none and
    /// without CUDA. Thread-safe beside checks of the same model: a check in
    /// flight keeps its copy until it finishes.
    pub fn release_device(&self) -> Result<()> {
        check(ffi!(sys::pmc_model_release_device(self.raw.as_ptr())))
    }

    /// Writes the model, the format chosen by extension (`.pmcb`, `.drn`,
    /// `.tra`; a `.gz` suffix compresses text formats).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let path = c_path(path.as_ref())?;
        check(ffi!(sys::pmc_model_save(self.raw.as_ptr(), path.as_ptr(), ptr::null())))
    }

    /// Writes the model in a format: "pmcb", "drn" or "prism".
    pub fn save_with_format(&self, path: impl AsRef<Path>, format: &str) -> Result<()> {
        let path = c_path(path.as_ref())?;
        let format = c_string(format, "format")?;
        check(ffi!(sys::pmc_model_save(self.raw.as_ptr(), path.as_ptr(), format.as_ptr())))
    }

    /// DTMC, CTMC, MDP or parametric CTMC.
    pub fn kind(&self) -> ModelKind {
        let mut raw = 0;
        must(check(ffi!(sys::pmc_model_type(self.raw.as_ptr(), &mut raw))));
        ModelKind::from_raw(raw)
            .unwrap_or_else(|| panic!("libpmc returned model type {raw}, unknown to these bindings"))
    }

    fn count(&self, query: unsafe extern "C" fn(*const sys::pmc_model, *mut u64) -> sys::pmc_status) -> u64 {
        let mut count = 0;
        must(check(ffi!(query(self.raw.as_ptr(), &mut count))));
        count
    }

    /// Number of states.
    pub fn num_states(&self) -> u64 {
        self.count(sys::pmc_model_num_states)
    }

    /// Rows of the matrix: choices of an MDP, states otherwise.
    pub fn num_choices(&self) -> u64 {
        self.count(sys::pmc_model_num_choices)
    }

    /// Non-zero matrix entries.
    pub fn num_transitions(&self) -> u64 {
        self.count(sys::pmc_model_num_transitions)
    }

    fn names(
        &self,
        count: unsafe extern "C" fn(*const sys::pmc_model, *mut u64) -> sys::pmc_status,
        name: unsafe extern "C" fn(*const sys::pmc_model, u64, *mut *const c_char) -> sys::pmc_status,
    ) -> Vec<String> {
        (0..self.count(count))
            .map(|i| {
                let mut text = ptr::null();
                must(check(ffi!(name(self.raw.as_ptr(), i, &mut text))));
                // Valid until the model changes, which &self rules out: copied now.
                unsafe { copy_str(text) }
            })
            .collect()
    }

    /// Label names, in the order they were loaded or added.
    pub fn labels(&self) -> Vec<String> {
        self.names(sys::pmc_model_num_labels, sys::pmc_model_label_name)
    }

    /// The states of a label, ascending; an error for an unknown label.
    pub fn label_states(&self, name: &str) -> Result<Vec<u64>> {
        let name = c_string(name, "label name")?;
        let mut count = 0;
        check(ffi!(sys::pmc_model_label_states(self.raw.as_ptr(), name.as_ptr(), ptr::null_mut(), 0, &mut count)))?;
        let mut states = vec![0u64; count as usize];
        check(ffi!(sys::pmc_model_label_states(
            self.raw.as_ptr(),
            name.as_ptr(),
            states.as_mut_ptr(),
            count,
            &mut count
        )))?;
        states.truncate(count as usize);
        Ok(states)
    }

    /// Reward structure names ("" for an unnamed one).
    pub fn reward_names(&self) -> Vec<String> {
        self.names(sys::pmc_model_num_rewards, sys::pmc_model_reward_name)
    }

    /// Parameter names of a parametric CTMC (empty for other models).
    pub fn parameter_names(&self) -> Vec<String> {
        self.names(sys::pmc_model_num_parameters, sys::pmc_model_parameter_name)
    }

    /// Warnings raised while loading or building (deadlocks fixed, zero
    /// entries dropped, ...).
    pub fn warnings(&self) -> Vec<String> {
        self.names(sys::pmc_model_num_warnings, sys::pmc_model_warning)
    }

    /// The bytes of state `state` of a model explored from a
    /// [`Generator`](crate::Generator): the state as the expand closure gave
    /// it. An [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) error
    /// for a model without state bytes (loaded or built otherwise; saving
    /// does not keep them), [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument)
    /// for a state out of range.
    pub fn state_bytes(&self, state: u64) -> Result<Vec<u8>> {
        // Most states are short: one call with a small buffer, a second one
        // with the size the first gave for longer states.
        let mut bytes = vec![0u8; 64];
        let mut size = 0u64;
        let raw = self.raw.as_ptr();
        check(ffi!(sys::pmc_model_state_bytes(raw, state, bytes.as_mut_ptr().cast(), bytes.len() as u64, &mut size)))?;
        if size > bytes.len() as u64 {
            bytes.resize(size as usize, 0);
            check(ffi!(sys::pmc_model_state_bytes(raw, state, bytes.as_mut_ptr().cast(), size, &mut size)))?;
        }
        bytes.truncate(size as usize);
        Ok(bytes)
    }

    /// The index of the state whose bytes are `state` in a model explored
    /// from a [`Generator`](crate::Generator), e.g. for
    /// [`CheckResult::values`] or [`CheckResult::scheduler`] (or see
    /// [`CheckResult::value_of`]). An
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) error
    /// when no state has these bytes,
    /// [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported) for a model
    /// without state bytes. The first call builds an index (4 bytes a
    /// state), kept with the model.
    pub fn find_state(&self, state: &[u8]) -> Result<u64> {
        let mut index = 0u64;
        check(ffi!(sys::pmc_model_find_state(
            self.raw.as_ptr(),
            state.as_ptr().cast(),
            state.len() as u64,
            &mut index
        )))?;
        Ok(index)
    }

    /// Checks a property in PRISM syntax, e.g. `P=? [ F "goal" ]`,
    /// `R{"time"}=? [ C<=10 ]`, `S=? [ "up" ]`, `Pmax=? [ F "done" ]`.
    /// `options`: `&options` or `None` for the defaults. Reaching the
    /// iteration limit is an [`ErrorKind::NotConverged`](crate::ErrorKind::NotConverged)
    /// error; see [`check_allow_unconverged`](Model::check_allow_unconverged)
    /// to get those values anyway.
    pub fn check<'o>(&self, property: &str, options: impl Into<Option<&'o Options>>) -> Result<CheckResult> {
        match self.check_raw(property, options.into())? {
            (sys::PMC_OK, result) => Ok(result),
            (status, result) => {
                let error = Error::from_last(status);
                drop(result);
                Err(error)
            }
        }
    }

    /// Like [`check`](Model::check), but a check that reached the iteration
    /// limit returns its values (with [`CheckResult::converged`] false).
    pub fn check_allow_unconverged<'o>(
        &self,
        property: &str,
        options: impl Into<Option<&'o Options>>,
    ) -> Result<CheckResult> {
        self.check_raw(property, options.into()).map(|(_, result)| result)
    }

    /// PMC_OK or PMC_ERROR_NOT_CONVERGED with the result pmc_check gave.
    fn check_raw(&self, property: &str, options: Option<&Options>) -> Result<(sys::pmc_status, CheckResult)> {
        let property = c_string(property, "property")?;
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_check(
            self.raw.as_ptr(),
            property.as_ptr(),
            options.map_or(ptr::null(), Options::as_ptr),
            &mut raw,
        ));
        // pmc_check sets a result on PMC_OK and on PMC_ERROR_NOT_CONVERGED only.
        let result = NonNull::new(raw).map(CheckResult::from_raw);
        if let Some(payload) = options.and_then(Options::take_callback_panic) {
            drop(result);
            std::panic::resume_unwind(payload);
        }
        match (status, result) {
            (sys::PMC_OK | sys::PMC_ERROR_NOT_CONVERGED, Some(result)) => Ok((status, result)),
            (sys::PMC_OK, None) => panic!("pmc_check returned PMC_OK and no result"),
            _ => Err(Error::from_last(status)),
        }
    }
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("kind", &self.kind())
            .field("states", &self.num_states())
            .field("choices", &self.num_choices())
            .field("transitions", &self.num_transitions())
            .finish()
    }
}

impl Drop for Model {
    fn drop(&mut self) {
        ffi!(sys::pmc_model_free(self.raw.as_ptr()));
    }
}
