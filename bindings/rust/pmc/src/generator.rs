//! Model generators: a Rust closure expands one state at a time, pmc
//! explores the reachable states and builds the [`Model`]
//! (`pmc_generator`, `pmc_model_explore`).
use std::any::Any;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CString};
use std::mem::ManuallyDrop;
use std::panic::{self, AssertUnwindSafe};
use std::ptr::{self, NonNull};
use std::sync::{Mutex, PoisonError};

use pmc_sys as sys;

use crate::error::{check, Result};
use crate::progress::InsideCallback;
use crate::{c_string, Model, ModelKind, Options};

/// What an expand closure returns: `Ok(())`, or an error that stops the
/// exploration (any error type converts with `?` or `.into()`, as do
/// `String` and `&str`).
pub type ExpandResult = std::result::Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// How an explored model's states are numbered (`pmc_state_order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum StateOrder {
    /// Ascending by bytes (a shorter state before the longer ones it
    /// begins), the default: the same numbering whatever the threads, and
    /// PRISM's when each state encodes the variables of a PRISM program in
    /// declaration order, each as a big-endian unsigned number of its value
    /// minus the variable's lower bound (a byte for up to 256 values).
    #[default]
    Bytes,
    /// Breadth-first: the initial states in the order added, then each
    /// state's new successors in the order the closure gave them (also with
    /// several threads).
    Bfs,
}

impl StateOrder {
    fn to_raw(self) -> sys::pmc_state_order {
        match self {
            StateOrder::Bytes => sys::PMC_STATE_ORDER_BYTES,
            StateOrder::Bfs => sys::PMC_STATE_ORDER_BFS,
        }
    }
}

/// A label declared with [`GeneratorBuilder::add_label`], for
/// [`Expansion::label`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LabelId(u64);

impl LabelId {
    /// Its index among the generator's labels (0, 1, 2, ... in the order
    /// declared; the model's labels are "init", "deadlock", then these).
    pub fn index(self) -> u64 {
        self.0
    }
}

/// A reward structure declared with [`GeneratorBuilder::add_rewards`], for
/// the reward methods of [`Expansion`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RewardsId(u64);

impl RewardsId {
    /// Its index among the generator's (and the model's) reward structures,
    /// in the order declared.
    pub fn index(self) -> u64 {
        self.0
    }
}

/// A label for [`Expansion::label`]: its [`LabelId`] or its name (looked up
/// on each call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LabelRef<'n> {
    /// As [`GeneratorBuilder::add_label`] returned it.
    Id(LabelId),
    /// The name it was declared with.
    Name(&'n str),
}

impl From<LabelId> for LabelRef<'_> {
    fn from(id: LabelId) -> Self {
        LabelRef::Id(id)
    }
}

impl<'n> From<&'n str> for LabelRef<'n> {
    fn from(name: &'n str) -> Self {
        LabelRef::Name(name)
    }
}

impl<'n> From<&'n String> for LabelRef<'n> {
    fn from(name: &'n String) -> Self {
        LabelRef::Name(name)
    }
}

/// A reward structure for the reward methods of [`Expansion`]: its
/// [`RewardsId`] or its name (looked up on each call).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardsRef<'n> {
    /// As [`GeneratorBuilder::add_rewards`] returned it.
    Id(RewardsId),
    /// The name it was declared with ("" for an unnamed one).
    Name(&'n str),
}

impl From<RewardsId> for RewardsRef<'_> {
    fn from(id: RewardsId) -> Self {
        RewardsRef::Id(id)
    }
}

impl<'n> From<&'n str> for RewardsRef<'n> {
    fn from(name: &'n str) -> Self {
        RewardsRef::Name(name)
    }
}

impl<'n> From<&'n String> for RewardsRef<'n> {
    fn from(name: &'n String) -> Self {
        RewardsRef::Name(name)
    }
}

type SerialFn<'a> = dyn FnMut(&[u8], &mut Expansion<'_>) -> ExpandResult + Send + 'a;
type ParallelFn<'a> = dyn Fn(&[u8], &mut Expansion<'_>) -> ExpandResult + Send + Sync + 'a;

enum Expander<'a> {
    /// Called by one thread at a time (the lock makes FnMut safe even when
    /// that thread is not the caller's, or explorations overlap).
    Serial(Mutex<Box<SerialFn<'a>>>),
    /// Called by several threads at once.
    Parallel(Box<ParallelFn<'a>>),
}

#[derive(Default)]
struct Names {
    labels: HashMap<String, u64>,
    rewards: HashMap<String, u64>,
}

/// What went wrong in the closure during one exploration (the first of each).
#[derive(Default)]
struct Failure {
    panic: Option<Box<dyn Any + Send>>,
    error: Option<Box<dyn std::error::Error + Send + Sync>>,
}

/// What `user_data` points at: allocated by [`Generator::builder`], freed
/// after the pmc_generator. Changed only through `&mut` of the builder (the
/// names) or by `build` (the expander), never while pmc calls the closure.
struct Shared<'a> {
    expander: Option<Expander<'a>>,
    names: Names,
    /// Explorations of one generator take turns, so that `failure` is theirs.
    turn: Mutex<()>,
    failure: Mutex<Failure>,
}

impl Shared<'_> {
    /// Keeps the first error and the first panic; a later one is dropped.
    fn record(&self, failure: Failure) {
        let later = {
            let mut kept = self.failure.lock().unwrap_or_else(PoisonError::into_inner);
            Failure {
                panic: failure.panic.and_then(|p| if kept.panic.is_none() { kept.panic.replace(p) } else { Some(p) }),
                error: failure.error.and_then(|e| if kept.error.is_none() { kept.error.replace(e) } else { Some(e) }),
            }
        };
        // Outside the lock, and not unwinding into pmc should a Drop panic.
        if let Err(payload) = panic::catch_unwind(AssertUnwindSafe(move || drop(later))) {
            std::mem::forget(payload);
        }
    }

    fn take_failure(&self) -> Failure {
        std::mem::take(&mut *self.failure.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// The pmc_generator and its Shared; frees both.
struct Handle<'a> {
    raw: NonNull<sys::pmc_generator>,
    shared: NonNull<Shared<'a>>,
}

impl Drop for Handle<'_> {
    fn drop(&mut self) {
        ffi!(sys::pmc_generator_free(self.raw.as_ptr()));
        // SAFETY: allocated by Box::into_raw in Generator::builder; pmc no
        // longer points at it.
        drop(unsafe { Box::from_raw(self.shared.as_ptr()) });
    }
}

const INSIDE_EXPAND: &str = "pmc functions must not be called from a generator's expand closure \
     (only the Expansion's methods and Options::request_cancel)";

/// A model described by a closure that expands one state at a time instead
/// of a file (`pmc_generator`): pmc explores the states reachable from the
/// initial states, numbers them and builds the [`Model`], as PRISM's
/// `ModelGenerator`. A state is a byte string of at most `max_state_size`
/// bytes; two states are the same state when their bytes are equal. The
/// model keeps each state's bytes ([`Model::state_bytes`],
/// [`Model::find_state`], [`CheckResult::value_of`](crate::CheckResult::value_of)),
/// so results map back to the closure's states.
///
/// Declare the initial states, labels and reward structures with a
/// [`GeneratorBuilder`], then give it the closure:
///
/// ```
/// # fn main() -> pmc::Result<()> {
/// use pmc::{Generator, ModelKind};
/// // Gambler's ruin: x units, bets one per round, wins with probability 2/5.
/// let mut builder = Generator::builder(ModelKind::Dtmc, 1)?;
/// builder.add_initial_state(&[5])?;
/// let win = builder.add_label("win")?;
/// let generator = builder.build(move |state, e| {
///     let x = state[0];
///     if x > 0 && x < 10 {
///         e.choice("bet").transition(0.4, &[x + 1]).transition(0.6, &[x - 1]);
///     } else {
///         e.transition(1.0, state);
///     }
///     if x == 10 {
///         e.label(win);
///     }
///     Ok(())
/// });
/// let model = generator.explore(None)?;
/// assert_eq!(model.num_states(), 11);
/// let result = model.check("P=? [ F \"win\" ]", None)?;
/// // The value in state [10] (she has won already), wherever pmc numbered it.
/// assert!((result.value_of(&model, &[10])? - 1.0).abs() < 1e-9);
/// # Ok(())
/// # }
/// ```
///
/// The model is built as a PRISM-language source's is: labels "init" and
/// "deadlock" first, then the declared labels in their order; a state
/// without transitions gets a self-loop and a warning (an error with
/// [`Options::set_strict`]).
///
/// `Send + Sync`: [`explore`](Generator::explore) takes `&self`, and
/// explorations of one generator take turns (make one generator per thread
/// to explore at once). The closure may borrow (`'a`): the generator cannot
/// outlive what it borrows.
pub struct Generator<'a> {
    handle: Handle<'a>,
    kind: ModelKind,
    max_state_size: u64,
}

/// Declares a [`Generator`]'s settings, initial states, labels and reward
/// structures, then takes its closure ([`build`](GeneratorBuilder::build),
/// [`build_thread_safe`](GeneratorBuilder::build_thread_safe)). Made by
/// [`Generator::builder`]; each call is checked by pmc at once.
pub struct GeneratorBuilder {
    handle: ManuallyDrop<Handle<'static>>,
    kind: ModelKind,
    max_state_size: u64,
}

// SAFETY: pmc.h: handles are not tied to a thread; the setters need
// exclusive access (&mut self); pmc_model_explore takes a const generator
// and may run on several threads at once (the closures are Send, and Sync
// when called by several threads at once; a Mutex serializes FnMut ones).
unsafe impl Send for Generator<'_> {}
unsafe impl Sync for Generator<'_> {}
unsafe impl Send for GeneratorBuilder {}
unsafe impl Sync for GeneratorBuilder {}

impl Generator<'_> {
    /// Starts a generator of a model of `kind` (DTMC, CTMC or MDP; a
    /// parametric CTMC is an [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported)
    /// error) whose states take at most `max_state_size` bytes (1 to 4096).
    /// Defaults: states of any size up to that, [`StateOrder::Bytes`], no
    /// initial state, no labels or rewards.
    pub fn builder(kind: ModelKind, max_state_size: u64) -> Result<GeneratorBuilder> {
        let shared = NonNull::from(Box::leak(Box::new(Shared {
            expander: None,
            names: Names::default(),
            turn: Mutex::new(()),
            failure: Mutex::new(Failure::default()),
        })));
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_generator_create(
            kind.to_raw(),
            max_state_size,
            Some(expand_trampoline),
            shared.as_ptr().cast(),
            &mut raw,
        ));
        if let Err(e) = check(status) {
            // SAFETY: from Box::leak above; pmc kept no pointer to it.
            drop(unsafe { Box::from_raw(shared.as_ptr()) });
            return Err(e);
        }
        let raw = NonNull::new(raw).expect("pmc_generator_create returned PMC_OK and NULL");
        Ok(GeneratorBuilder { handle: ManuallyDrop::new(Handle { raw, shared }), kind, max_state_size })
    }

    /// The handle, for calling pmc-sys directly. Valid while `self` lives.
    pub fn as_ptr(&self) -> *const sys::pmc_generator {
        self.handle.raw.as_ptr()
    }

    /// Explores the states reachable from the initial states and builds the
    /// model. `options` (`&options` or `None`) may set threads (for a
    /// [thread-safe](GeneratorBuilder::build_thread_safe) generator),
    /// strictness (deadlocks are errors), the row-sum tolerance,
    /// [`set_max_states`](Options::set_max_states), the memory limit and
    /// cancellation ([`Options::request_cancel`], which the closure may call).
    ///
    /// Errors name the state by its bytes (hexadecimal):
    /// [`ErrorKind::Model`](crate::ErrorKind::Model) when the closure returned
    /// an error (its message is in pmc's, and the error is this one's
    /// [`source`](std::error::Error::source)), when probabilities do not sum
    /// to 1, a value is negative or not finite, a target is too long (or of
    /// the wrong size when fixed), a label or reward structure is unknown, a
    /// choice has no transitions, there are more states than `max_states`,
    /// or a state deadlocks under strict options;
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) without an
    /// initial state; [`ErrorKind::OutOfMemory`](crate::ErrorKind::OutOfMemory),
    /// [`ErrorKind::Cancelled`](crate::ErrorKind::Cancelled).
    ///
    /// A panic of the closure stops the exploration the same way (its message
    /// goes to pmc) and is then resumed here, as `std::thread::scope` does.
    /// Explorations of one generator take turns.
    pub fn explore<'o>(&self, options: impl Into<Option<&'o Options>>) -> Result<Model> {
        let options = options.into();
        // Before taking the turn: a closure exploring its own generator
        // would wait for itself.
        crate::progress::forbid_inside_callback();
        // SAFETY: freed only by Drop; shared access (see Shared).
        let shared = unsafe { self.handle.shared.as_ref() };
        let turn = shared.turn.lock().unwrap_or_else(PoisonError::into_inner);
        shared.take_failure(); // nothing left from an earlier exploration
        let mut raw = ptr::null_mut();
        let status = ffi!(sys::pmc_model_explore(
            self.handle.raw.as_ptr(),
            options.map_or(ptr::null(), Options::as_ptr),
            &mut raw,
        ));
        // pmc_last_error() is read on this thread before any other pmc call.
        let result = Model::from_out(status, raw);
        let failure = shared.take_failure();
        drop(turn);
        if let Some(payload) = failure.panic {
            drop(result);
            panic::resume_unwind(payload);
        }
        result.map_err(|e| e.with_source(failure.error))
    }

    /// The model type given to [`Generator::builder`].
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// The largest state, in bytes, given to [`Generator::builder`].
    pub fn max_state_size(&self) -> u64 {
        self.max_state_size
    }
}

impl std::fmt::Debug for Generator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: as in explore.
        let shared = unsafe { self.handle.shared.as_ref() };
        let thread_safe = matches!(shared.expander, Some(Expander::Parallel(_)));
        f.debug_struct("Generator")
            .field("kind", &self.kind)
            .field("max_state_size", &self.max_state_size)
            .field("thread_safe", &thread_safe)
            .finish()
    }
}

impl GeneratorBuilder {
    fn set(&mut self, status: sys::pmc_status) -> Result<&mut GeneratorBuilder> {
        check(status)?;
        Ok(self)
    }

    fn names(&mut self) -> &mut Names {
        // SAFETY: &mut self: no exploration runs (there is no Generator yet)
        // and no other reference to the Shared exists.
        unsafe { &mut (*self.handle.shared.as_ptr()).names }
    }

    /// The handle, for calling pmc-sys directly. Valid while `self` lives.
    pub fn as_ptr(&self) -> *const sys::pmc_generator {
        self.handle.raw.as_ptr()
    }

    /// `true`: every state has exactly `max_state_size` bytes (an initial
    /// state or target of another size is an error naming it). Default false.
    pub fn set_fixed_size(&mut self, fixed: bool) -> Result<&mut GeneratorBuilder> {
        let status = ffi!(sys::pmc_generator_set_fixed_size(self.handle.raw.as_ptr(), fixed.into()));
        self.set(status)
    }

    /// How the explored states are numbered; default [`StateOrder::Bytes`].
    pub fn set_order(&mut self, order: StateOrder) -> Result<&mut GeneratorBuilder> {
        let status = ffi!(sys::pmc_generator_set_order(self.handle.raw.as_ptr(), order.to_raw()));
        self.set(status)
    }

    /// Adds an initial state (copied). At least one is needed; adding a
    /// state twice is allowed (it is one state). An
    /// [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument) error
    /// for a state longer than `max_state_size` (or of another size when fixed).
    pub fn add_initial_state(&mut self, state: &[u8]) -> Result<&mut GeneratorBuilder> {
        let status = ffi!(sys::pmc_generator_add_initial_state(
            self.handle.raw.as_ptr(),
            state.as_ptr().cast(),
            state.len() as u64
        ));
        self.set(status)
    }

    /// Declares a label, for [`Expansion::label`] (by the id returned or by
    /// name). An [`ErrorKind::InvalidArgument`](crate::ErrorKind::InvalidArgument)
    /// error for a name already declared, "init", "deadlock", or a name a
    /// properties file could not write (empty, a double quote, a control
    /// character, blanks at an end).
    pub fn add_label(&mut self, name: &str) -> Result<LabelId> {
        let c_name = c_string(name, "label name")?;
        let mut index = 0u64;
        check(ffi!(sys::pmc_generator_add_label(self.handle.raw.as_ptr(), c_name.as_ptr(), &mut index)))?;
        self.names().labels.insert(name.to_owned(), index);
        Ok(LabelId(index))
    }

    /// Declares a reward structure ("" for PRISM's unnamed one; names are
    /// unique), for the reward methods of [`Expansion`] (by the id returned
    /// or by name).
    pub fn add_rewards(&mut self, name: &str) -> Result<RewardsId> {
        let c_name = c_string(name, "reward structure name")?;
        let mut index = 0u64;
        check(ffi!(sys::pmc_generator_add_rewards(self.handle.raw.as_ptr(), c_name.as_ptr(), &mut index)))?;
        self.names().rewards.insert(name.to_owned(), index);
        Ok(RewardsId(index))
    }

    /// The generator, whose `expand` closure pmc calls once per reachable
    /// state, one call at a time (not necessarily on the thread that
    /// explores, hence `Send`). It writes the state's choices, transitions,
    /// labels and rewards into the [`Expansion`] and returns `Ok(())`; an
    /// error (or a panic) stops the exploration (see [`Generator::explore`]).
    /// It must not call pmc but through the `Expansion` and
    /// [`Options::request_cancel`] (other pmc calls panic).
    pub fn build<'a, F>(self, expand: F) -> Generator<'a>
    where
        F: FnMut(&[u8], &mut Expansion<'_>) -> ExpandResult + Send + 'a,
    {
        self.finish(Expander::Serial(Mutex::new(Box::new(expand))))
    }

    /// Like [`build`](GeneratorBuilder::build), for a closure that may run on
    /// several threads at once: pmc then explores with the threads of
    /// [`Options::set_threads`] (0, the default, means every core). The
    /// model is the same as with one thread, numbered by the
    /// [order](GeneratorBuilder::set_order) whatever the threads.
    pub fn build_thread_safe<'a, F>(self, expand: F) -> Result<Generator<'a>>
    where
        F: Fn(&[u8], &mut Expansion<'_>) -> ExpandResult + Send + Sync + 'a,
    {
        check(ffi!(sys::pmc_generator_set_thread_safe(self.handle.raw.as_ptr(), 1)))?;
        Ok(self.finish(Expander::Parallel(Box::new(expand))))
    }

    fn finish<'a>(self, expander: Expander<'a>) -> Generator<'a> {
        // The builder's handle moves into the generator: neither is dropped here.
        let builder = ManuallyDrop::new(self);
        let (raw, shared) = (builder.handle.raw, builder.handle.shared);
        // The Shared was made with room for an expander of any lifetime; it
        // holds one of 'a from now on, and lives no longer than the Generator<'a>.
        let shared: NonNull<Shared<'a>> = shared.cast();
        // SAFETY: no exploration has run and no reference to the Shared exists.
        unsafe { (*shared.as_ptr()).expander = Some(expander) };
        Generator { handle: Handle { raw, shared }, kind: builder.kind, max_state_size: builder.max_state_size }
    }
}

impl Drop for GeneratorBuilder {
    fn drop(&mut self) {
        // SAFETY: dropped once, here (finish does not drop the builder).
        unsafe { ManuallyDrop::drop(&mut self.handle) };
    }
}

impl std::fmt::Debug for GeneratorBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GeneratorBuilder")
            .field("kind", &self.kind)
            .field("max_state_size", &self.max_state_size)
            .finish()
    }
}

/// What an expand closure writes one state's choices, transitions, labels
/// and rewards into (`pmc_expansion`); lent to the closure for one call.
///
/// The methods chain (`e.choice("bet").transition(0.4, &[6])`). A bad
/// argument (a negative or non-finite value, a target longer than the
/// generator's states, an unknown label or reward structure, a reward
/// before any transition or choice) does not stop the closure: pmc
/// remembers the first, and the exploration then fails with an
/// [`ErrorKind::Model`](crate::ErrorKind::Model) error saying what it was and
/// naming the state.
pub struct Expansion<'e> {
    raw: *mut sys::pmc_expansion,
    names: &'e Names,
    /// The first bad argument these bindings found themselves (a name with
    /// a NUL byte, an unknown name): reported when the closure returns.
    problem: Option<String>,
}

impl Expansion<'_> {
    fn note(&mut self, problem: impl FnOnce() -> String) {
        if self.problem.is_none() {
            self.problem = Some(problem());
        }
    }

    /// Starts a new choice of the state, named `action` (`None` or `""` for
    /// none): `e.choice("east")`, `e.choice(None)`. Transitions added before
    /// any choice start one without an action, so a DTMC or CTMC needs no
    /// call to this (but a DTMC's actions are kept, as a PRISM-language
    /// source's are); an MDP's choices are its rows, in the order given. A
    /// DTMC state with several choices takes each with equal probability, a
    /// CTMC state adds their rates.
    pub fn choice<'n>(&mut self, action: impl Into<Option<&'n str>>) -> &mut Self {
        let raw = self.raw;
        match action.into() {
            None => {
                // SAFETY: the expansion pmc lent for this call.
                unsafe { sys::pmc_expansion_add_choice(raw, ptr::null()) };
            }
            Some(action) => {
                // SAFETY: as above; the string lives during the call (copied by pmc).
                let done = with_c_str(action, |p| unsafe { sys::pmc_expansion_add_choice(raw, p) });
                if done.is_none() {
                    // A choice all the same, so that the transitions after it are its own.
                    // SAFETY: as above.
                    unsafe { sys::pmc_expansion_add_choice(raw, ptr::null()) };
                    self.note(|| format!("action {action:?} contains a NUL byte"));
                }
            }
        }
        self
    }

    /// Adds a transition of the current choice to the state `target`
    /// (copied) with probability (DTMC, MDP) or rate (CTMC) `value`. A
    /// choice's probabilities must sum to 1 (within the options' row-sum
    /// tolerance); a value of 0 is dropped; transitions of one choice to one
    /// target are added up.
    pub fn transition(&mut self, value: f64, target: &[u8]) -> &mut Self {
        // SAFETY: the expansion pmc lent for this call; target is read during it.
        unsafe { sys::pmc_expansion_add_transition(self.raw, value, target.as_ptr().cast(), target.len() as u64) };
        self
    }

    /// Reward structure `rewards` (its id or name) earns `value` when the
    /// last transition added is taken (added to its choice's reward).
    pub fn transition_reward<'n>(&mut self, rewards: impl Into<RewardsRef<'n>>, value: f64) -> &mut Self {
        if let Some(index) = self.rewards_index(rewards.into()) {
            // SAFETY: the expansion pmc lent for this call.
            unsafe { sys::pmc_expansion_set_transition_reward(self.raw, index, value) };
        }
        self
    }

    /// Reward structure `rewards` earns `value` whenever the current choice
    /// is taken (PRISM's `[a] guard : value` items).
    pub fn choice_reward<'n>(&mut self, rewards: impl Into<RewardsRef<'n>>, value: f64) -> &mut Self {
        if let Some(index) = self.rewards_index(rewards.into()) {
            // SAFETY: the expansion pmc lent for this call.
            unsafe { sys::pmc_expansion_set_choice_reward(self.raw, index, value) };
        }
        self
    }

    /// Reward structure `rewards` earns `value` in this state (per time unit
    /// in a CTMC).
    pub fn state_reward<'n>(&mut self, rewards: impl Into<RewardsRef<'n>>, value: f64) -> &mut Self {
        if let Some(index) = self.rewards_index(rewards.into()) {
            // SAFETY: the expansion pmc lent for this call.
            unsafe { sys::pmc_expansion_set_state_reward(self.raw, index, value) };
        }
        self
    }

    /// The state satisfies `label` (its id or name).
    pub fn label<'n>(&mut self, label: impl Into<LabelRef<'n>>) -> &mut Self {
        let index = match label.into() {
            LabelRef::Id(id) => Some(id.0),
            LabelRef::Name(name) => {
                let index = self.names.labels.get(name).copied();
                if index.is_none() {
                    self.note(|| format!("unknown label {name:?}: declare it with GeneratorBuilder::add_label"));
                }
                index
            }
        };
        if let Some(index) = index {
            // SAFETY: the expansion pmc lent for this call.
            unsafe { sys::pmc_expansion_set_label(self.raw, index) };
        }
        self
    }

    fn rewards_index(&mut self, rewards: RewardsRef<'_>) -> Option<u64> {
        match rewards {
            RewardsRef::Id(id) => Some(id.0),
            RewardsRef::Name(name) => {
                let index = self.names.rewards.get(name).copied();
                if index.is_none() {
                    self.note(|| {
                        format!("unknown reward structure {name:?}: declare it with GeneratorBuilder::add_rewards")
                    });
                }
                index
            }
        }
    }
}

impl std::fmt::Debug for Expansion<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Expansion").field("raw", &self.raw).finish()
    }
}

/// Calls `f` with `text` NUL-terminated (on the stack when short); `None`
/// when `text` holds a NUL byte.
fn with_c_str<R>(text: &str, f: impl FnOnce(*const c_char) -> R) -> Option<R> {
    let bytes = text.as_bytes();
    if bytes.contains(&0) {
        return None;
    }
    let mut buffer = [0u8; 64];
    if bytes.len() < buffer.len() {
        buffer[..bytes.len()].copy_from_slice(bytes);
        Some(f(buffer.as_ptr().cast()))
    } else {
        let owned = CString::new(bytes).ok()?;
        Some(f(owned.as_ptr()))
    }
}

/// The text of a panic's payload (`panic!("...")` gives a `&str` or a `String`).
fn panic_message(payload: &(dyn Any + Send)) -> &str {
    payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("a panic payload that is not a string")
}

/// Gives pmc the reason for the non-zero return that follows.
///
/// # Safety
/// `expansion` is the one pmc lent for the current call.
unsafe fn fail(expansion: *mut sys::pmc_expansion, message: &str) {
    let message = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    sys::pmc_expansion_fail(expansion, message.as_ptr());
}

/// The `pmc_expand_fn` of every Rust generator. It must not unwind into
/// C++, so it catches panics; a panic or an error of the closure gives pmc
/// its message and returns non-zero, and is kept for explore.
unsafe extern "C" fn expand_trampoline(
    state: *const c_void,
    size: u64,
    expansion: *mut sys::pmc_expansion,
    user_data: *mut c_void,
) -> c_int {
    // user_data is the generator's Shared, which lives while pmc_model_explore
    // runs; only shared references to it exist then.
    let shared = &*(user_data as *const Shared<'_>);
    let state: &[u8] = if size == 0 { &[] } else { std::slice::from_raw_parts(state.cast(), size as usize) };
    let mut e = Expansion { raw: expansion, names: &shared.names, problem: None };
    let outcome = {
        let _inside = InsideCallback::enter(INSIDE_EXPAND);
        panic::catch_unwind(AssertUnwindSafe(|| {
            let result = match &shared.expander {
                Some(Expander::Serial(expand)) => {
                    (expand.lock().unwrap_or_else(PoisonError::into_inner))(state, &mut e)
                }
                Some(Expander::Parallel(expand)) => expand(state, &mut e),
                None => unreachable!("a generator explored before it had a closure"),
            };
            // The error's Display is the closure's code too: inside catch_unwind.
            result.map_err(|error| (error.to_string(), error))
        }))
    };
    match outcome {
        Ok(Ok(())) => match e.problem {
            None => 0,
            Some(problem) => {
                fail(expansion, &problem);
                sys::PMC_ERROR_MODEL
            }
        },
        Ok(Err((message, error))) => {
            fail(expansion, &message);
            shared.record(Failure { panic: None, error: Some(error) });
            sys::PMC_ERROR_MODEL
        }
        Err(payload) => {
            fail(expansion, &format!("the expand closure panicked: {}", panic_message(&*payload)));
            shared.record(Failure { panic: Some(payload), error: None });
            sys::PMC_ERROR_MODEL
        }
    }
}
