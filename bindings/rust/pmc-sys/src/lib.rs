//! Raw declarations of libpmc's C ABI, written by hand from
//! `include/pmc/pmc.h` (see that header for what each function does, who
//! owns what, and which functions are thread-safe).
//!
//! `tests/header_drift.rs` parses the header and this file and fails when a
//! function, parameter type, enum constant or version macro differs, so the
//! two cannot drift apart. Keep one declaration per line group in the form
//! `pub fn name(arg: Type, ...) -> Ret;`, which that test reads.
//!
//! C enums are declared as `c_int` aliases with constants rather than Rust
//! enums: a value the library adds later must not be undefined behaviour.
#![no_std]
#![allow(non_camel_case_types)]

use core::ffi::{c_char, c_double, c_int, c_void};
use core::marker::{PhantomData, PhantomPinned};

/// Makes the handle types !Send, !Sync and !Unpin (the Rustonomicon's
/// pattern for opaque C types): thread safety is the safe crate's decision.
type Opaque = PhantomData<(*mut u8, PhantomPinned)>;

// pmc_version.h (generated from the build's version, included by pmc.h).
pub const PMC_VERSION_MAJOR: u32 = 1;
pub const PMC_VERSION_MINOR: u32 = 0;
pub const PMC_VERSION_PATCH: u32 = 0;
pub const PMC_VERSION_NUMBER: u32 = 10000;

pub type pmc_status = c_int;
pub const PMC_OK: pmc_status = 0;
pub const PMC_ERROR_INVALID_ARGUMENT: pmc_status = 1;
pub const PMC_ERROR_IO: pmc_status = 2;
pub const PMC_ERROR_PARSE: pmc_status = 3;
pub const PMC_ERROR_MODEL: pmc_status = 4;
pub const PMC_ERROR_PROPERTY: pmc_status = 5;
pub const PMC_ERROR_UNSUPPORTED: pmc_status = 6;
pub const PMC_ERROR_OUT_OF_MEMORY: pmc_status = 7;
pub const PMC_ERROR_NO_DEVICE: pmc_status = 8;
pub const PMC_ERROR_DEVICE: pmc_status = 9;
pub const PMC_ERROR_NOT_CONVERGED: pmc_status = 10;
pub const PMC_ERROR_CANCELLED: pmc_status = 11;
pub const PMC_ERROR_INTERNAL: pmc_status = 12;

pub type pmc_model_kind = c_int;
pub const PMC_MODEL_DTMC: pmc_model_kind = 0;
pub const PMC_MODEL_CTMC: pmc_model_kind = 1;
pub const PMC_MODEL_MDP: pmc_model_kind = 2;
pub const PMC_MODEL_PCTMC: pmc_model_kind = 3;

pub type pmc_synth_mode = c_int;
pub const PMC_SYNTH_THRESHOLD: pmc_synth_mode = 0;
pub const PMC_SYNTH_MIN: pmc_synth_mode = 1;
pub const PMC_SYNTH_MAX: pmc_synth_mode = 2;

pub type pmc_region_class = c_int;
pub const PMC_REGION_TRUE: pmc_region_class = 0;
pub const PMC_REGION_FALSE: pmc_region_class = 1;
pub const PMC_REGION_UNDECIDED: pmc_region_class = 2;
pub const PMC_REGION_OPTIMUM: pmc_region_class = 3;

pub type pmc_phase = c_int;
pub const PMC_PHASE_LOAD: pmc_phase = 0;
pub const PMC_PHASE_GPU_STARTUP: pmc_phase = 1;
pub const PMC_PHASE_PRECOMPUTE: pmc_phase = 2;
pub const PMC_PHASE_BUILD: pmc_phase = 3;
pub const PMC_PHASE_TRANSFER: pmc_phase = 4;
pub const PMC_PHASE_SOLVE: pmc_phase = 5;
pub const PMC_PHASE_OTHER: pmc_phase = 6;
pub const PMC_PHASE_TOTAL: pmc_phase = 7;

pub type pmc_state_order = c_int;
pub const PMC_STATE_ORDER_BYTES: pmc_state_order = 0;
pub const PMC_STATE_ORDER_BFS: pmc_state_order = 1;

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_properties {
    _private: [u8; 0],
    _marker: Opaque,
}

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_synthesis_request {
    _private: [u8; 0],
    _marker: Opaque,
}

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_synth_result {
    _private: [u8; 0],
    _marker: Opaque,
}

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_options {
    _private: [u8; 0],
    _marker: Opaque,
}

/// `fn(solver, iteration, residual, seconds, user_data)`; `None` is C's NULL.
/// Must not unwind: a Rust callback has to catch panics itself.
pub type pmc_progress_fn = Option<
    unsafe extern "C" fn(
        solver: *const c_char,
        iteration: u64,
        residual: c_double,
        seconds: c_double,
        user_data: *mut c_void,
    ),
>;

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_model {
    _private: [u8; 0],
    _marker: Opaque,
}

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_result {
    _private: [u8; 0],
    _marker: Opaque,
}

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_generator {
    _private: [u8; 0],
    _marker: Opaque,
}

/// Opaque; only ever handled through pointers.
#[repr(C)]
pub struct pmc_expansion {
    _private: [u8; 0],
    _marker: Opaque,
}

/// `fn(state, size, expansion, user_data) -> status`; `None` is C's NULL.
/// Must not unwind: a Rust callback has to catch panics itself.
pub type pmc_expand_fn = Option<
    unsafe extern "C" fn(
        state: *const c_void,
        size: u64,
        expansion: *mut pmc_expansion,
        user_data: *mut c_void,
    ) -> c_int,
>;

extern "C" {
    // Status, version, errors
    pub fn pmc_version() -> *const c_char;
    pub fn pmc_version_number() -> c_int;
    pub fn pmc_status_string(status: pmc_status) -> *const c_char;
    pub fn pmc_last_error() -> *const c_char;
    pub fn pmc_set_caller_language(language: *const c_char) -> pmc_status;

    // Options
    pub fn pmc_options_create(out_options: *mut *mut pmc_options) -> pmc_status;
    pub fn pmc_options_free(options: *mut pmc_options);
    pub fn pmc_options_set_strict(options: *mut pmc_options, strict: c_int) -> pmc_status;
    pub fn pmc_options_set_row_sum_tolerance(options: *mut pmc_options, tolerance: c_double) -> pmc_status;
    pub fn pmc_options_set_solver(options: *mut pmc_options, name: *const c_char) -> pmc_status;
    pub fn pmc_options_set_epsilon(options: *mut pmc_options, epsilon: c_double) -> pmc_status;
    pub fn pmc_options_set_relative(options: *mut pmc_options, relative: c_int) -> pmc_status;
    pub fn pmc_options_set_sound(options: *mut pmc_options, sound: c_int) -> pmc_status;
    pub fn pmc_options_set_exact(options: *mut pmc_options, exact: c_int) -> pmc_status;
    pub fn pmc_options_set_max_iterations(options: *mut pmc_options, max_iterations: u64) -> pmc_status;
    pub fn pmc_options_set_threads(options: *mut pmc_options, threads: u64) -> pmc_status;
    pub fn pmc_options_set_max_states(options: *mut pmc_options, max_states: u64) -> pmc_status;
    pub fn pmc_options_set_build(options: *mut pmc_options, build: *const c_char) -> pmc_status;
    pub fn pmc_options_set_device(options: *mut pmc_options, device: u64) -> pmc_status;
    pub fn pmc_options_set_devices(options: *mut pmc_options, devices: *const u64, count: u64) -> pmc_status;
    pub fn pmc_options_set_all_devices(options: *mut pmc_options, all: c_int) -> pmc_status;
    pub fn pmc_options_set_gpu_memory_limit(options: *mut pmc_options, bytes: u64) -> pmc_status;
    pub fn pmc_options_set_memory_limit(options: *mut pmc_options, bytes: u64) -> pmc_status;
    pub fn pmc_options_set_parameter(options: *mut pmc_options, name: *const c_char, value: c_double) -> pmc_status;
    pub fn pmc_options_clear_parameters(options: *mut pmc_options) -> pmc_status;
    pub fn pmc_options_set_constants(options: *mut pmc_options, constants: *const c_char) -> pmc_status;
    // Async-signal-safe and callable while checks run with the same options.
    pub fn pmc_options_request_cancel(options: *mut pmc_options) -> pmc_status;
    pub fn pmc_options_reset_cancel(options: *mut pmc_options) -> pmc_status;
    pub fn pmc_options_set_progress(
        options: *mut pmc_options,
        fn_: pmc_progress_fn,
        user_data: *mut c_void,
    ) -> pmc_status;

    // Models
    pub fn pmc_model_load(path: *const c_char, format: *const c_char, out_model: *mut *mut pmc_model) -> pmc_status;
    pub fn pmc_model_load_files(
        paths: *const *const c_char,
        num_paths: u64,
        format: *const c_char,
        options: *const pmc_options,
        out_model: *mut *mut pmc_model,
    ) -> pmc_status;
    pub fn pmc_model_build_prism(
        path: *const c_char,
        constants: *const c_char,
        options: *const pmc_options,
        out_model: *mut *mut pmc_model,
    ) -> pmc_status;
    pub fn pmc_model_build_csr(
        type_: pmc_model_kind,
        num_states: u64,
        num_rows: u64,
        row_groups: *const u64,
        row_offsets: *const u64,
        columns: *const u64,
        values: *const c_double,
        options: *const pmc_options,
        out_model: *mut *mut pmc_model,
    ) -> pmc_status;
    pub fn pmc_model_build_parametric_csr(
        num_states: u64,
        row_offsets: *const u64,
        columns: *const u64,
        constants: *const c_double,
        num_parameters: u64,
        parameter_names: *const *const c_char,
        coefficients: *const c_double,
        lower: *const c_double,
        upper: *const c_double,
        options: *const pmc_options,
        out_model: *mut *mut pmc_model,
    ) -> pmc_status;
    pub fn pmc_model_add_label(
        model: *mut pmc_model,
        name: *const c_char,
        states: *const u64,
        num_states: u64,
    ) -> pmc_status;
    pub fn pmc_model_add_rewards(
        model: *mut pmc_model,
        name: *const c_char,
        state_rewards: *const c_double,
        choice_rewards: *const c_double,
        transition_rewards: *const c_double,
    ) -> pmc_status;
    pub fn pmc_model_save(model: *const pmc_model, path: *const c_char, format: *const c_char) -> pmc_status;
    pub fn pmc_model_free(model: *mut pmc_model);
    // Thread-safe beside checks of the same model.
    pub fn pmc_model_release_device(model: *mut pmc_model) -> pmc_status;
    pub fn pmc_model_type(model: *const pmc_model, out_type: *mut pmc_model_kind) -> pmc_status;
    pub fn pmc_model_num_states(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_num_choices(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_num_transitions(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_num_labels(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_label_name(model: *const pmc_model, index: u64, out_name: *mut *const c_char) -> pmc_status;
    pub fn pmc_model_label_states(
        model: *const pmc_model,
        name: *const c_char,
        states: *mut u64,
        capacity: u64,
        out_count: *mut u64,
    ) -> pmc_status;
    pub fn pmc_model_num_rewards(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_reward_name(model: *const pmc_model, index: u64, out_name: *mut *const c_char) -> pmc_status;
    pub fn pmc_model_num_parameters(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_parameter_name(model: *const pmc_model, index: u64, out_name: *mut *const c_char) -> pmc_status;
    pub fn pmc_model_num_warnings(model: *const pmc_model, out_count: *mut u64) -> pmc_status;
    pub fn pmc_model_warning(model: *const pmc_model, index: u64, out_message: *mut *const c_char) -> pmc_status;

    // Model generators
    pub fn pmc_generator_create(
        type_: pmc_model_kind,
        max_state_size: u64,
        expand: pmc_expand_fn,
        user_data: *mut c_void,
        out_generator: *mut *mut pmc_generator,
    ) -> pmc_status;
    pub fn pmc_generator_free(generator: *mut pmc_generator);
    pub fn pmc_generator_set_fixed_size(generator: *mut pmc_generator, fixed: c_int) -> pmc_status;
    pub fn pmc_generator_set_thread_safe(generator: *mut pmc_generator, thread_safe: c_int) -> pmc_status;
    pub fn pmc_generator_set_order(generator: *mut pmc_generator, order: pmc_state_order) -> pmc_status;
    pub fn pmc_generator_add_initial_state(
        generator: *mut pmc_generator,
        state: *const c_void,
        size: u64,
    ) -> pmc_status;
    pub fn pmc_generator_add_label(
        generator: *mut pmc_generator,
        name: *const c_char,
        out_index: *mut u64,
    ) -> pmc_status;
    pub fn pmc_generator_add_rewards(
        generator: *mut pmc_generator,
        name: *const c_char,
        out_index: *mut u64,
    ) -> pmc_status;
    // Only during the expand callback, on its own expansion.
    pub fn pmc_expansion_add_choice(expansion: *mut pmc_expansion, action: *const c_char) -> pmc_status;
    pub fn pmc_expansion_add_transition(
        expansion: *mut pmc_expansion,
        value: c_double,
        target: *const c_void,
        size: u64,
    ) -> pmc_status;
    pub fn pmc_expansion_set_transition_reward(
        expansion: *mut pmc_expansion,
        rewards: u64,
        value: c_double,
    ) -> pmc_status;
    pub fn pmc_expansion_set_choice_reward(expansion: *mut pmc_expansion, rewards: u64, value: c_double) -> pmc_status;
    pub fn pmc_expansion_set_label(expansion: *mut pmc_expansion, label: u64) -> pmc_status;
    pub fn pmc_expansion_set_state_reward(expansion: *mut pmc_expansion, rewards: u64, value: c_double) -> pmc_status;
    pub fn pmc_expansion_fail(expansion: *mut pmc_expansion, message: *const c_char) -> pmc_status;
    // Thread-safe: several explorations may run at once.
    pub fn pmc_model_explore(
        generator: *const pmc_generator,
        options: *const pmc_options,
        out_model: *mut *mut pmc_model,
    ) -> pmc_status;
    pub fn pmc_model_state_bytes(
        model: *const pmc_model,
        state: u64,
        buffer: *mut c_void,
        capacity: u64,
        out_size: *mut u64,
    ) -> pmc_status;
    pub fn pmc_model_find_state(
        model: *const pmc_model,
        state: *const c_void,
        size: u64,
        out_state: *mut u64,
    ) -> pmc_status;

    // Model checking
    pub fn pmc_check(
        model: *const pmc_model,
        property: *const c_char,
        options: *const pmc_options,
        out_result: *mut *mut pmc_result,
    ) -> pmc_status;
    pub fn pmc_result_free(result: *mut pmc_result);
    pub fn pmc_result_initial_value(result: *const pmc_result, out_value: *mut c_double) -> pmc_status;
    pub fn pmc_result_initial_range(
        result: *const pmc_result,
        out_min: *mut c_double,
        out_max: *mut c_double,
        out_num_initial: *mut u64,
    ) -> pmc_status;
    pub fn pmc_result_values(
        result: *const pmc_result,
        values: *mut c_double,
        capacity: u64,
        out_count: *mut u64,
    ) -> pmc_status;
    pub fn pmc_result_is_boolean(result: *const pmc_result, out_is_boolean: *mut c_int) -> pmc_status;
    pub fn pmc_result_iterations(result: *const pmc_result, out_iterations: *mut u64) -> pmc_status;
    pub fn pmc_result_converged(result: *const pmc_result, out_converged: *mut c_int) -> pmc_status;
    pub fn pmc_result_solver(result: *const pmc_result, out_name: *mut *const c_char) -> pmc_status;
    pub fn pmc_result_scheduler(
        result: *const pmc_result,
        choices: *mut i64,
        capacity: u64,
        out_count: *mut u64,
    ) -> pmc_status;
    pub fn pmc_result_sound(result: *const pmc_result, out_sound: *mut c_int) -> pmc_status;
    pub fn pmc_result_exact(result: *const pmc_result, out_text: *mut *const c_char) -> pmc_status;
    pub fn pmc_result_bounds(
        result: *const pmc_result,
        out_lower: *mut c_double,
        out_upper: *mut c_double,
    ) -> pmc_status;
    pub fn pmc_result_bound_values(
        result: *const pmc_result,
        lower: *mut c_double,
        upper: *mut c_double,
        capacity: u64,
        out_count: *mut u64,
    ) -> pmc_status;
    pub fn pmc_result_seconds(result: *const pmc_result, out_seconds: *mut c_double) -> pmc_status;
    pub fn pmc_result_phase_seconds(
        result: *const pmc_result,
        phase: pmc_phase,
        out_seconds: *mut c_double,
    ) -> pmc_status;
    pub fn pmc_solver_count(out_count: *mut u64) -> pmc_status;
    pub fn pmc_solver_name(index: u64, out_name: *mut *const c_char) -> pmc_status;

    // Properties files
    pub fn pmc_properties_read(
        path: *const c_char,
        constants: *const c_char,
        out_properties: *mut *mut pmc_properties,
    ) -> pmc_status;
    pub fn pmc_properties_parse(
        text: *const c_char,
        source_name: *const c_char,
        constants: *const c_char,
        out_properties: *mut *mut pmc_properties,
    ) -> pmc_status;
    pub fn pmc_properties_free(properties: *mut pmc_properties);
    pub fn pmc_properties_count(properties: *const pmc_properties, out_count: *mut u64) -> pmc_status;
    pub fn pmc_properties_name(
        properties: *const pmc_properties,
        index: u64,
        out_name: *mut *const c_char,
    ) -> pmc_status;
    pub fn pmc_properties_text(
        properties: *const pmc_properties,
        index: u64,
        out_text: *mut *const c_char,
    ) -> pmc_status;
    pub fn pmc_properties_line(properties: *const pmc_properties, index: u64, out_line: *mut u64) -> pmc_status;

    // Parameter synthesis (parametric CTMCs)
    pub fn pmc_synthesis_request_create(
        property: *const c_char,
        out_request: *mut *mut pmc_synthesis_request,
    ) -> pmc_status;
    pub fn pmc_synthesis_request_free(request: *mut pmc_synthesis_request);
    pub fn pmc_synthesis_request_set_mode(request: *mut pmc_synthesis_request, mode: pmc_synth_mode) -> pmc_status;
    pub fn pmc_synthesis_request_set_threshold(
        request: *mut pmc_synthesis_request,
        threshold: *const c_char,
    ) -> pmc_status;
    pub fn pmc_synthesis_request_set_epsilon(request: *mut pmc_synthesis_request, epsilon: c_double) -> pmc_status;
    pub fn pmc_synthesis_request_set_parameter_range(
        request: *mut pmc_synthesis_request,
        name: *const c_char,
        lower: c_double,
        upper: c_double,
    ) -> pmc_status;
    pub fn pmc_synthesis_request_clear_parameter_ranges(request: *mut pmc_synthesis_request) -> pmc_status;
    pub fn pmc_synthesize(
        model: *const pmc_model,
        request: *const pmc_synthesis_request,
        options: *const pmc_options,
        out_result: *mut *mut pmc_synth_result,
    ) -> pmc_status;
    pub fn pmc_synth_result_free(result: *mut pmc_synth_result);
    pub fn pmc_synth_result_num_parameters(result: *const pmc_synth_result, out_count: *mut u64) -> pmc_status;
    pub fn pmc_synth_result_parameter_name(
        result: *const pmc_synth_result,
        index: u64,
        out_name: *mut *const c_char,
    ) -> pmc_status;
    pub fn pmc_synth_result_num_regions(result: *const pmc_synth_result, out_count: *mut u64) -> pmc_status;
    pub fn pmc_synth_result_region(
        result: *const pmc_synth_result,
        index: u64,
        lower: *mut c_double,
        upper: *mut c_double,
        capacity: u64,
        out_class: *mut pmc_region_class,
        out_value_lower: *mut c_double,
        out_value_upper: *mut c_double,
    ) -> pmc_status;
    pub fn pmc_synth_result_optimum(
        result: *const pmc_synth_result,
        out_lower: *mut c_double,
        out_upper: *mut c_double,
    ) -> pmc_status;
    pub fn pmc_synth_result_undecided_fraction(
        result: *const pmc_synth_result,
        out_fraction: *mut c_double,
    ) -> pmc_status;
    pub fn pmc_synth_result_converged(result: *const pmc_synth_result, out_converged: *mut c_int) -> pmc_status;
    pub fn pmc_synth_result_stats(
        result: *const pmc_synth_result,
        out_regions_analysed: *mut u64,
        out_seconds: *mut c_double,
        out_solver: *mut *const c_char,
    ) -> pmc_status;

    // GPU devices
    pub fn pmc_device_count(out_count: *mut u64) -> pmc_status;
    pub fn pmc_device_name(index: u64, out_name: *mut *const c_char) -> pmc_status;
    pub fn pmc_device_memory(index: u64, out_free_bytes: *mut u64, out_total_bytes: *mut u64) -> pmc_status;
    pub fn pmc_device_compute_capability(index: u64, out_major: *mut c_int, out_minor: *mut c_int) -> pmc_status;
}
