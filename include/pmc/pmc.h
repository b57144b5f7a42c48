/*
 * pmc — probabilistic model checking on CPUs and NVIDIA GPUs.
 *
 * This is the whole public C interface of libpmc, with pmc/pmc_version.h
 * (generated from the build's version) which it includes. It is valid C99
 * and C++.
 *
 * Conventions
 * -----------
 * - Objects are opaque handles (pmc_model, pmc_options, pmc_result,
 *   pmc_properties, pmc_synthesis_request, pmc_synth_result). Every function
 *   that creates one has a matching *_free; passing NULL to *_free is a
 *   no-op.
 * - Every fallible function returns a pmc_status; PMC_OK is 0. On failure,
 *   pmc_last_error() returns a message saying what went wrong and where
 *   (file, line, state...). Out-parameters are left unchanged on failure,
 *   except where a function says otherwise (pmc_check on
 *   PMC_ERROR_NOT_CONVERGED, pmc_device_count on PMC_ERROR_NO_DEVICE).
 * - No C++ exception, abort or exit ever crosses this interface; running
 *   out of memory is reported as PMC_ERROR_OUT_OF_MEMORY.
 * - Counts and indices are uint64_t. Strings are NUL-terminated UTF-8.
 * - Strings returned through `const char**` are owned by the library; the
 *   comment of each function says how long they stay valid.
 *
 * Thread safety
 * -------------
 * Unless a function says otherwise: different handles may be used from
 * different threads at once; one pmc_model may be read (queried, saved,
 * checked) by many threads at once, because models are immutable, and so
 * may one pmc_result (its getters) and one pmc_options (pmc_check only
 * reads it); functions that change or free a handle need exclusive access
 * to that handle. Handles are not tied to the thread that made them: any
 * thread may use or free them. pmc_last_error() is per thread.
 *
 * How this interface grows
 * ------------------------
 * - Status codes and enumerators are only ever appended, never renumbered
 *   or reused: a value compiled into a caller keeps its meaning.
 * - New settings arrive through handles with setters (pmc_options,
 *   pmc_synthesis_request), never as new positional parameters of an
 *   existing function.
 * - A change that breaks callers compiled against an older header bumps
 *   PMC_VERSION_MAJOR, which is also the shared library's soname
 *   (libpmc.so.MAJOR). 1.0.0 was such a change: pmc_synthesize's eleven
 *   positional parameters became a pmc_synthesis_request.
 */
#ifndef PMC_PMC_H
#define PMC_PMC_H

#include <stddef.h>
#include <stdint.h>

/* PMC_VERSION_MAJOR/MINOR/PATCH, PMC_VERSION_NUMBER and PMC_VERSION_STRING,
 * generated from the version of the build. */
#include "pmc/pmc_version.h"

#if defined(__GNUC__)
#define PMC_API __attribute__((visibility("default")))
#else
#define PMC_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Status, version, errors                                                   */
/* ------------------------------------------------------------------------ */

typedef enum pmc_status {
  PMC_OK = 0,
  PMC_ERROR_INVALID_ARGUMENT = 1, /* NULL handle, bad option value, ... */
  PMC_ERROR_IO = 2,               /* a file cannot be opened or written */
  PMC_ERROR_PARSE = 3,            /* malformed file or text */
  PMC_ERROR_MODEL = 4,            /* the data do not form a valid model */
  PMC_ERROR_PROPERTY = 5,         /* malformed property, or unfit for the model */
  PMC_ERROR_UNSUPPORTED = 6,      /* valid, but not supported by pmc */
  PMC_ERROR_OUT_OF_MEMORY = 7,
  PMC_ERROR_NO_DEVICE = 8,        /* no usable GPU (or built without CUDA) */
  PMC_ERROR_DEVICE = 9,           /* a GPU operation failed */
  PMC_ERROR_NOT_CONVERGED = 10,   /* iteration limit reached */
  PMC_ERROR_CANCELLED = 11,
  PMC_ERROR_INTERNAL = 12         /* a bug in pmc: please report it */
} pmc_status;

/* "major.minor.patch" of the library actually loaded (PMC_VERSION_STRING
 * of its build). Static storage. Thread-safe. */
PMC_API const char* pmc_version(void);

/* The version of the library actually loaded as one number,
 * MAJOR * 10000 + MINOR * 100 + PATCH (PMC_VERSION_NUMBER of its build).
 * A caller compiled against PMC_VERSION_NUMBER works with a library whose
 * number has the same major part (number / 10000) and is not smaller.
 * Thread-safe. */
PMC_API int pmc_version_number(void);

/* A constant English name for a status, e.g. "parse error". Static storage.
 * Thread-safe. */
PMC_API const char* pmc_status_string(pmc_status status);

/* The message of the most recent failed call on the calling thread ("" if
 * none). Successful calls leave it unchanged. Valid until the next failing
 * call on this thread. */
PMC_API const char* pmc_last_error(void);

/* The language messages use for settings a caller may change: "c" (the
 * default: "raise it with pmc_options_set_memory_limit(options, BYTES)"),
 * "python" ("memory_limit=BYTES"), "rust", "java", "command-line"
 * ("--memory-limit BYTES") or "shell". For bindings and front ends, once at
 * start. Process-wide; thread-safe (the last call wins).
 * PMC_ERROR_INVALID_ARGUMENT for NULL or an unknown name. */
PMC_API pmc_status pmc_set_caller_language(const char* language);

/* ------------------------------------------------------------------------ */
/* Options                                                                   */
/* ------------------------------------------------------------------------ */

/* Settings for loading, building and checking. A NULL
 * options pointer wherever one is accepted means all defaults. */
typedef struct pmc_options pmc_options;

/* Creates options with the defaults: non-strict loading, row-sum tolerance
 * 1e-9. Free with pmc_options_free. */
PMC_API pmc_status pmc_options_create(pmc_options** out_options);
PMC_API void pmc_options_free(pmc_options* options);

/* strict != 0: reject states without outgoing transitions instead of giving
 * them a self-loop with a warning (PRISM's default behaviour). */
PMC_API pmc_status pmc_options_set_strict(pmc_options* options, int strict);

/* Allowed |sum - 1| of each DTMC/MDP row (default 1e-9); in [0, 0.1]. */
PMC_API pmc_status pmc_options_set_row_sum_tolerance(pmc_options* options, double tolerance);

/* The solver for pmc_check: "auto" (default: the GPU for problems of at
 * least 100000 non-zeros when a usable GPU holds them, else the CPU), "cpu"
 * or "gpu" (that device's choice for each problem), or a name from
 * pmc_solver_name(), e.g. "cpu.jacobi"; pmc_result_solver() and the
 * result's reason say what was chosen and why. A property made of several
 * problems (steady state: stationary distributions and a linear system)
 * uses the named solver for each problem it solves and "auto" for the rest;
 * pmc_result_solver() lists every solver used. Unknown names fail here; a
 * name that solves none of a property's problems makes pmc_check fail with
 * PMC_ERROR_INVALID_ARGUMENT (never a silent substitute). */
PMC_API pmc_status pmc_options_set_solver(pmc_options* options, const char* name);

/* Convergence threshold of iterative solvers, in (0, 1); default 1e-6 as
 * PRISM. Also scales the Fox-Glynn truncation error of uniformisation. */
PMC_API pmc_status pmc_options_set_epsilon(pmc_options* options, double epsilon);

/* relative != 0 (default): precision relative to the value; sound solvers
 * stop when upper - lower <= 2*epsilon*lower (the midpoint is then within
 * epsilon of the exact value, relative to it), unsound ones when
 * max_i |x_i' - x_i| / |x_i'| < epsilon. relative == 0: absolute, the same
 * tests without the division. */
PMC_API pmc_status pmc_options_set_relative(pmc_options* options, int relative);

/* sound != 0 (default): "auto", "cpu" and "gpu" pick sound solvers
 * (interval iteration), whose results carry certified bounds
 * (pmc_result_sound, pmc_result_bounds). sound == 0: they may pick faster
 * unsound solvers (PRISM's stopping rule, no error bound). A solver named
 * with pmc_options_set_solver runs either way; its result says whether it
 * is sound. Same thread-safety as the other setters. */
PMC_API pmc_status pmc_options_set_sound(pmc_options* options, int sound);

/* exact != 0: exact results (pmc_result_exact), computed by the solver
 * "cpu.exact-pi" in rational arithmetic from the model's numbers as its
 * source defines them (a PRISM-language source's expressions: 0.7 is
 * 7/10, 1/3 a third; a model read from files: each number as the shortest
 * decimal that reads back as its double). It computes unbounded
 * reachability and reachability rewards at the top of the property
 * (P=? [F psi], P=? [phi U psi], R=? [F psi], T=? [F psi]; min/max on
 * MDPs) and bounds on them (P>=0.5 [F psi]: the verdict decided on the
 * rationals, the bound as written: 0.3 is 3/10; pmc_result_exact gives
 * the value it rests on); pmc_check gives PMC_ERROR_UNSUPPORTED for other properties, for
 * parametric CTMCs and in builds without GMP, and PMC_ERROR_INVALID_ARGUMENT
 * with a solver other than "auto", "cpu" or "cpu.exact-pi" (naming that
 * solver is the same as this setting). Default 0. Same thread-safety as
 * the other setters. */
PMC_API pmc_status pmc_options_set_exact(pmc_options* options, int exact);

/* Iteration limit of each solve (default 1000000); reaching it makes
 * pmc_check return PMC_ERROR_NOT_CONVERGED. It bounds step-bounded
 * iteration too (U<=k, F<=k, C<=k, I=k, and CTMC uniformisation): a bound
 * of more steps than the limit runs until the iterate is stationary (then
 * the result is exact, as if every step had run) or until the limit, with
 * PMC_ERROR_NOT_CONVERGED and the values after the steps done (not
 * certified). A CTMC time bound whose Poisson weights start beyond the
 * limit is refused with PMC_ERROR_UNSUPPORTED unless the iterate becomes
 * stationary first. */
PMC_API pmc_status pmc_options_set_max_iterations(pmc_options* options, uint64_t max_iterations);

/* PRISM-language sources (pmc_model_build_prism, or pmc_model_load of a
 * .pm/.sm/.nm/.prism file): exploration stops with PMC_ERROR_MODEL once the
 * model has more than max_states reachable states; 0 (default) means no
 * limit beyond pmc's 32-bit state indices. Loads of other formats ignore
 * it. */
PMC_API pmc_status pmc_options_set_max_states(pmc_options* options, uint64_t max_states);

/* PRISM-language sources: which explorer builds the state space. "cpu":
 * the CPU's threads; "gpu": the first GPU's explorer (PMC_ERROR_NO_DEVICE
 * from the build when there is none; a model the GPU explorer cannot run or
 * hold is built on the CPU, with a warning on the model); "auto" (default):
 * the CPU's, which hands a model of more than 2^21 states over to a GPU
 * that can run it (the CPU's partial work discarded).
 * Both give the same model, bit for bit.
 * Anything else (or NULL) is PMC_ERROR_INVALID_ARGUMENT. Loads of other
 * formats ignore it. Not thread-safe against other calls on `options`. */
PMC_API pmc_status pmc_options_set_build(pmc_options* options, const char* build);

/* CPU threads for the solvers (and for exploring PRISM-language sources);
 * 0 (default) uses every core. */
PMC_API pmc_status pmc_options_set_threads(pmc_options* options, uint64_t threads);

/* GPU solvers: the device to use, an index below pmc_device_count()
 * (default 0). An index with no device fails in pmc_check with
 * PMC_ERROR_NO_DEVICE; here only absurd values (> 1024) are refused. */
PMC_API pmc_status pmc_options_set_device(pmc_options* options, uint64_t device);

/* gpu.jacobi and gpu.vi on several GPUs: the rows are split over the
 * `count` devices listed (distinct indices below pmc_device_count()), each
 * holding its share of the matrix and the whole iterate; slices travel
 * between them after every iteration (through NCCL where libnccl is found,
 * else by peer copies). The first listed device is also the one the
 * single-GPU solvers use (it overrides pmc_options_set_device).
 * count == 0 (default): automatic, the pmc_options_set_device device while
 * the problem fits its memory and every usable GPU when it does not.
 * `devices` is read during the call only (NULL allowed when count == 0).
 * Repeated indices and indices or counts above 1024 fail here; an index
 * with no device fails in pmc_check (PMC_ERROR_INVALID_ARGUMENT, or
 * PMC_ERROR_NO_DEVICE when there is no usable GPU at all). */
PMC_API pmc_status pmc_options_set_devices(pmc_options* options, const uint64_t* devices, uint64_t count);

/* all != 0: gpu.jacobi and gpu.vi split the rows over every usable GPU,
 * whatever the problem's size (a device list set with
 * pmc_options_set_devices still wins); 0 (default): automatic. */
PMC_API pmc_status pmc_options_set_all_devices(pmc_options* options, int all);

/* GPU solvers: device memory pmc may use, in bytes; 0 (default) = the
 * device's free memory. A limit smaller than the model makes gpu.topo-vi
 * split the model into SCC blocks that fit, solving a block that does not
 * fit on the CPU; other GPU solvers fail with PMC_ERROR_OUT_OF_MEMORY. */
PMC_API pmc_status pmc_options_set_gpu_memory_limit(pmc_options* options, uint64_t bytes);

/* Host memory pmc may use, in bytes, for loading, building and checking
 * with these options. 0 (default) = what the machine has: its physical
 * memory (sysconf), or the process's cgroup memory limit when lower.
 * Before allocating, pmc compares its estimate of what is about to be
 * allocated with the limit, and fails with PMC_ERROR_OUT_OF_MEMORY, the
 * message (pmc_last_error) giving the bytes needed, the limit and how to
 * raise it, instead of being killed or running out midway:
 * - pmc_model_load_files and pmc_model_build_prism: a file's header counts
 *   (states, choices, transitions: what they claim must fit), the state
 *   store of a PRISM-language exploration as it grows (the message says
 *   how many states were explored); pmc_model_build_csr: the copy.
 *   pmc_model_load takes no options and uses the default limit.
 * - pmc_check: each computation of the property (the model, derived
 *   matrices such as the transposed graph or a CTMC's embedded DTMC, the
 *   equation system or iteration matrix, the solver's vectors, the
 *   uniformisation weights, the result), estimated before it is built,
 *   and each solve's working vectors before it starts; GPU solvers count
 *   their host-side buffers (the limit on device memory is
 *   pmc_options_set_gpu_memory_limit's).
 * The estimates are upper-ish (within about 2x of the peak; README
 * "Memory limit" lists them), not exact: a limit close to a check's real
 * need may refuse it. Same thread-safety as the other setters. */
PMC_API pmc_status pmc_options_set_memory_limit(pmc_options* options, uint64_t bytes);

/* Parametric CTMCs at a point (PMC_MODEL_PCTMC): pmc_check with these
 * options checks the CTMC whose rates are c + sum_k a_k * p_k at the values
 * set here, like any CTMC (every property, every solver, certified bounds).
 * pmc_options_set_parameter sets (or replaces) the value of the parameter
 * called `name` (copied; pmc_model_parameter_name lists a model's names);
 * `value` must be finite, else PMC_ERROR_INVALID_ARGUMENT here.
 * The point is checked against the model in pmc_check, which fails with
 * PMC_ERROR_INVALID_ARGUMENT, naming the parameter, when a parameter of the
 * model has no value, a name is not one of the model's parameters, a value
 * lies outside the parameter's declared range, or values are set but the
 * model has no parameters. pmc_check on a pCTMC without any value set
 * fails the same way. pmc_options_clear_parameters removes every value.
 * Both need exclusive access to the options (not while a check runs with
 * them); pmc_synthesize ignores the point. */
PMC_API pmc_status pmc_options_set_parameter(pmc_options* options, const char* name, double value);
PMC_API pmc_status pmc_options_clear_parameters(pmc_options* options);

/* Values of the constants properties name (PRISM's `P=? [ F<=T "a" ]`,
 * `P>=p [ ... ]`, `x=K`) for pmc_check with these options, as "T=10,p=0.5,
 * b=true"; each is typed as written (10 an int, 10.0 or 0.5 a double, true
 * a bool: a step bound of a DTMC or MDP must be an int). Replaces the values
 * set before; NULL or "" clears them. A model built from a PRISM-language
 * source knows its own constants without this. Read during the call only.
 * PMC_ERROR_INVALID_ARGUMENT (nothing changed) for text that is not
 * NAME=VALUE pairs, a name given twice, or a value that is no number, true
 * or false. pmc_check fails with PMC_ERROR_PROPERTY naming a constant a
 * property needs and neither these values nor the model give. Needs
 * exclusive access to the options, like pmc_options_set_parameter. */
PMC_API pmc_status pmc_options_set_constants(pmc_options* options, const char* constants);

/* Cancellation. Each options handle carries a cancel flag, clear when
 * created. pmc_options_request_cancel sets it: every pmc_check running with
 * these options stops at its solver's next iteration (CPU and GPU solvers
 * poll the flag between iterations) and returns PMC_ERROR_CANCELLED without
 * a result; the model stays valid and can be checked again. The flag stays
 * set, so checks started later with these options are cancelled at once,
 * until pmc_options_reset_cancel clears it.
 *
 * Thread safety: pmc_options_request_cancel may be called from any thread
 * while other threads run pmc_check with the same options, and from a
 * signal handler (it only stores to a lock-free atomic flag; it reports
 * nothing through pmc_last_error and returns PMC_ERROR_INVALID_ARGUMENT
 * only for a NULL handle). pmc_options_reset_cancel is thread-safe the same
 * way; reset only while no check you did not mean to cancel is running. */
PMC_API pmc_status pmc_options_request_cancel(pmc_options* options);
PMC_API pmc_status pmc_options_reset_cancel(pmc_options* options);

/* Progress of long solves. `solver` is the solver's name (valid only during
 * the call), `iteration` the iterations done so far in the current solve,
 * `residual` the convergence test's quantity of the last iteration: the
 * largest change (relative or absolute as set) for unsound solvers; for the
 * sound interval solvers (names with "interval") the widest gap upper −
 * lower between the bounds, +infinity while no upper bound is known yet;
 * NaN for solvers that have none, such as bounded steps. `seconds` is the
 * time since the solve began. */
typedef void (*pmc_progress_fn)(const char* solver, uint64_t iteration, double residual, double seconds,
                                void* user_data);

/* Calls `fn(..., user_data)` during pmc_check with these options at most
 * every 0.2 s of a solve (never for a solve shorter than that; a check may
 * run several solves). NULL fn removes the callback. The callback runs on
 * the thread that called pmc_check (several at once if several threads
 * check with these options), must return quickly and must not call pmc
 * functions other than pmc_options_request_cancel. user_data is not owned
 * by pmc. Needs exclusive access to the options (not while a check runs
 * with them). */
PMC_API pmc_status pmc_options_set_progress(pmc_options* options, pmc_progress_fn fn, void* user_data);

/* ------------------------------------------------------------------------ */
/* Models                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct pmc_model pmc_model;

typedef enum pmc_model_kind {
  PMC_MODEL_DTMC = 0,
  PMC_MODEL_CTMC = 1,
  PMC_MODEL_MDP = 2,
  PMC_MODEL_PCTMC = 3 /* CTMC with rates affine in parameters */
} pmc_model_kind;

/* Loads a model file. `format` NULL means: by extension, and a .tra's
 * dialect by its first line (Storm's names the model type). Formats:
 *   "prism"       PRISM explicit .tra (type from its "# Transitions (X)"
 *                 comment or header); .lab, .srew, .trew, .sta files with
 *                 the same stem are read too (foo1.srew, foo2.srew, ...
 *                 for several reward structures). Files may be gzip- or
 *                 xz-compressed, or a tar of one file.
 *   "prism-dtmc", "prism-ctmc", "prism-mdp"   the same, forcing the type.
 *   "storm-explicit"  Storm's explicit dialect: a .tra starting with dtmc,
 *                 ctmc or mdp; foo.lab (#DECLARATION ... #END),
 *                 foo.state.rew, foo.trans.rew (an unnamed structure) and
 *                 foo.NAME.state.rew / foo.NAME.trans.rew (named) are read
 *                 too. Files may be gzip- or xz-compressed, or a tar of
 *                 one file.
 *   "drn"         Storm DRN, including parametric CTMCs with affine rates.
 *   "pmcb"        pmc's binary format (formats/pmc.proto).
 *   "umb"         UMB, PRISM's and Storm's binary interchange format (.umb:
 *                 a tar, plain, gzip or xz, of index.json and arrays):
 *                 DTMCs, CTMCs and MDPs with double values; other types
 *                 give PMC_ERROR_UNSUPPORTED.
 *   "prism-language"  a PRISM modelling-language source (.pm, .sm, .nm,
 *                 .prism by extension), built by exploring its reachable
 *                 states; every constant must be defined in the source
 *                 (else PMC_ERROR_PARSE naming them: use
 *                 pmc_model_build_prism to give their values).
 * Loading takes the default options, memory limit included (the machine's
 * memory, see pmc_options_set_memory_limit; a header or exploration that
 * needs more fails with PMC_ERROR_OUT_OF_MEMORY): pmc_model_load_files
 * takes options.
 * On success *out_model owns a new model; free it with pmc_model_free. */
PMC_API pmc_status pmc_model_load(const char* path, const char* format, pmc_model** out_model);

/* Like pmc_model_load, with options, and for PRISM explicit files a list
 * of files (.tra plus any of .lab, .srew, .trew, .sta) instead of siblings
 * found by stem. A single .tra path finds its siblings as above. */
PMC_API pmc_status pmc_model_load_files(const char* const* paths, uint64_t num_paths, const char* format,
                                        const pmc_options* options, pmc_model** out_model);

/* Builds a model from a PRISM-language source (`dtmc`, `ctmc` or `mdp`;
 * .pm, .sm, .nm or .prism, whatever the name) by exploring its reachable
 * states, as PRISM's explicit engine does: same states in the same order,
 * same transitions, with the source's labels (plus "init" and "deadlock")
 * and reward structures. A JANI model (a path ending .jani, or .jani.gz/.xz;
 * types dtmc, ctmc, mdp) is built the same way, after its translation
 * (transient booleans as labels, transient numbers as reward structures;
 * errors name the JSON place, "m.jani: automata[0] \"main\", edges[3],
 * guard: ...").
 *   path       the source file; read during the call only.
 *   constants  values of the constants the source leaves undefined, as
 *              "K=2,N=4,p=0.5,flag=true"; NULL or "" when it defines them
 *              all. Read during the call only.
 *   options    may be NULL (defaults). Used: strict (deadlocks are errors
 *              instead of self-loops), row-sum tolerance, max_states
 *              (pmc_options_set_max_states), threads (exploration threads),
 *              memory limit (pmc_options_set_memory_limit).
 * On success *out_model owns a new model; free it with pmc_model_free.
 * Errors: PMC_ERROR_IO (unreadable file); PMC_ERROR_PARSE (syntax, type or
 * undefined constants: pmc_last_error() gives file:line:column, or lists
 * every undefined constant and how to set it); PMC_ERROR_INVALID_ARGUMENT
 * (NULL path or out_model, malformed `constants`, a constant the source
 * does not declare or already defines); PMC_ERROR_MODEL (probabilities not
 * summing to one, negative rates, a value leaving a variable's range, more
 * than max_states states); PMC_ERROR_OUT_OF_MEMORY (the state store or the
 * model would exceed the memory limit: the message gives the states
 * explored so far).
 * Thread safety: may run in several threads at once (each exploring its
 * own source; `options` is only read). The exploration itself uses the
 * threads set in `options` (0: every core). */
PMC_API pmc_status pmc_model_build_prism(const char* path, const char* constants, const pmc_options* options,
                                         pmc_model** out_model);

/* Builds a model from CSR arrays, which are copied.
 *   row_offsets  num_rows+1 entries; row r holds entries
 *                [row_offsets[r], row_offsets[r+1]).
 *   columns      target state of each entry (< num_states).
 *   values       probability (DTMC, MDP) or rate (CTMC) of each entry.
 *   row_groups   MDP: num_states+1 entries, the first row (choice) of each
 *                state. DTMC/CTMC: NULL (one row per state, so num_rows
 *                must equal num_states).
 * Rows need not be sorted by column. Entries with value 0 are dropped;
 * duplicate (row, column) entries are rejected. A DTMC/MDP state without
 * transitions gets a self-loop and a warning (an error when strict).
 * type must not be PMC_MODEL_PCTMC (see pmc_model_build_parametric_csr). */
PMC_API pmc_status pmc_model_build_csr(pmc_model_kind type, uint64_t num_states, uint64_t num_rows,
                                       const uint64_t* row_groups, const uint64_t* row_offsets,
                                       const uint64_t* columns, const double* values, const pmc_options* options,
                                       pmc_model** out_model);

/* Builds a parametric CTMC: the rate of entry e is
 *   constants[e] + sum_k coefficients[e * num_parameters + k] * p_k.
 * lower/upper give each parameter's range (NULL: [0, +inf)); every rate
 * must be >= 0 over the whole range. Arrays are copied. */
PMC_API pmc_status pmc_model_build_parametric_csr(uint64_t num_states, const uint64_t* row_offsets,
                                                  const uint64_t* columns, const double* constants,
                                                  uint64_t num_parameters, const char* const* parameter_names,
                                                  const double* coefficients, const double* lower,
                                                  const double* upper, const pmc_options* options,
                                                  pmc_model** out_model);

/* Adds a label (named set of states; "init" marks the initial states).
 * The state indices are copied; duplicates are allowed. Invalidates
 * strings previously returned for this model. Needs exclusive access.
 * PMC_ERROR_INVALID_ARGUMENT for a NULL, empty or unwritable name (a
 * double quote, a control character, a leading or trailing blank), a name
 * the model already has, or a state out of range. */
PMC_API pmc_status pmc_model_add_label(pmc_model* model, const char* name, const uint64_t* states,
                                       uint64_t num_states);

/* Adds a reward structure named `name` ("" for unnamed). Each array may be
 * NULL:
 *   state_rewards       num_states values, earned per state (per time unit
 *                       in a CTMC);
 *   choice_rewards      num_rows values, earned when the row (DTMC/CTMC
 *                       state, MDP choice) is taken;
 *   transition_rewards  num_transitions values in matrix-entry order (as the
 *                       model stores it: rows sorted by column), earned per
 *                       transition.
 * choice_rewards and transition_rewards are added together. Invalidates
 * strings previously returned for this model. Needs exclusive access.
 * PMC_ERROR_INVALID_ARGUMENT for a name the model already has or cannot
 * write, no array given, or a negative or non-finite reward. */
PMC_API pmc_status pmc_model_add_rewards(pmc_model* model, const char* name, const double* state_rewards,
                                         const double* choice_rewards, const double* transition_rewards);

/* Writes the model. `format` NULL: by extension (.pmcb, .umb (gzip'd),
 * .drn, .tra in PRISM's dialect; a .gz suffix compresses text formats); "storm-explicit"
 * writes Storm's dialect (no actions, state valuations or parameters). A failed save removes the file it was
 * writing (PRISM files completed before it stay). Thread-safe. */
PMC_API pmc_status pmc_model_save(const pmc_model* model, const char* path, const char* format);

/* Frees the model (NULL is a no-op), its GPU-resident copies included. */
PMC_API void pmc_model_free(pmc_model* model);

/* Frees the model's GPU-resident copies. A check on a GPU solver copies the
 * model's matrix to the device once and keeps the copy on the model, so
 * that later checks of the same model skip the transfer; the copies are
 * otherwise kept until the model is freed. Call this to give the device
 * memory back sooner; the next GPU check makes a new copy. Returns PMC_OK
 * also when there were none, and in a build without CUDA; a NULL model is
 * PMC_ERROR_INVALID_ARGUMENT.
 * Thread-safe, unlike the other functions that take a non-const model: it
 * may be called while other threads check or query the same model; a check
 * in flight keeps the copy it uses alive until it finishes, and the copy is
 * freed then. */
PMC_API pmc_status pmc_model_release_device(pmc_model* model);

PMC_API pmc_status pmc_model_type(const pmc_model* model, pmc_model_kind* out_type);
PMC_API pmc_status pmc_model_num_states(const pmc_model* model, uint64_t* out_count);
/* Rows of the matrix: choices of an MDP, states otherwise. */
PMC_API pmc_status pmc_model_num_choices(const pmc_model* model, uint64_t* out_count);
/* Non-zero matrix entries. */
PMC_API pmc_status pmc_model_num_transitions(const pmc_model* model, uint64_t* out_count);

/* Labels, in the order they were loaded or added. Returned names stay valid
 * until the model is changed or freed. */
PMC_API pmc_status pmc_model_num_labels(const pmc_model* model, uint64_t* out_count);
PMC_API pmc_status pmc_model_label_name(const pmc_model* model, uint64_t index, const char** out_name);
/* Writes up to `capacity` states of label `name`, ascending, into `states`
 * (may be NULL when capacity is 0) and the label's total number of states
 * into *out_count. PMC_ERROR_INVALID_ARGUMENT for an unknown label. */
PMC_API pmc_status pmc_model_label_states(const pmc_model* model, const char* name, uint64_t* states,
                                          uint64_t capacity, uint64_t* out_count);

/* Reward structures ("" for an unnamed one). */
PMC_API pmc_status pmc_model_num_rewards(const pmc_model* model, uint64_t* out_count);
PMC_API pmc_status pmc_model_reward_name(const pmc_model* model, uint64_t index, const char** out_name);

/* Parameters of a parametric CTMC (0 for other models). */
PMC_API pmc_status pmc_model_num_parameters(const pmc_model* model, uint64_t* out_count);
PMC_API pmc_status pmc_model_parameter_name(const pmc_model* model, uint64_t index, const char** out_name);

/* Warnings raised while loading or building (deadlocks fixed, zero entries
 * dropped, ...). */
PMC_API pmc_status pmc_model_num_warnings(const pmc_model* model, uint64_t* out_count);
PMC_API pmc_status pmc_model_warning(const pmc_model* model, uint64_t index, const char** out_message);

/* ------------------------------------------------------------------------ */
/* Model generators: the caller supplies states and successors, pmc explores */
/* ------------------------------------------------------------------------ */

/* For frontends with their own modelling language: instead of writing files
 * or building the CSR arrays themselves, they describe the model through a
 * callback that expands one state, and pmc_model_explore finds every
 * reachable state, stores and numbers them, and builds the model (as PRISM's
 * ModelGenerator and Storm's NextStateGenerator).
 *
 * A state is an opaque byte string of at most `max_state_size` bytes (of
 * exactly that many with pmc_generator_set_fixed_size); two states are the
 * same state when their bytes are equal. pmc keeps each state's bytes with
 * the model (pmc_model_state_bytes, pmc_model_find_state), so results and
 * schedulers map back to the caller's states. A model saved to a file
 * keeps no state bytes.
 *
 * The model is built as a PRISM-language source's is: labels "init" (the
 * initial states) and "deadlock" first, then the generator's labels in the
 * order they were added; a state without transitions (a deadlock) gets a
 * self-loop and a warning, or fails the exploration when the options are
 * strict; an MDP's choices are its rows, in the order the callback gives
 * them; a DTMC state with several choices takes each with equal
 * probability and a CTMC state adds their rates (with a warning for the
 * DTMC, as PRISM). Transitions of one choice (DTMC, CTMC: of one state) to
 * the same target are one entry, probabilities or rates added. */
typedef struct pmc_generator pmc_generator;

/* What the expand callback writes one state's choices, transitions, labels
 * and rewards into; valid only during that call. */
typedef struct pmc_expansion pmc_expansion;

/* The order of the explored model's states (their indices). */
typedef enum pmc_state_order {
  /* Ascending by bytes (memcmp order, a shorter state before the longer
   * ones it begins). The default: deterministic whatever the threads, and
   * PRISM's order when each state encodes the variables of a PRISM program
   * in declaration order, each as a big-endian unsigned number of its value
   * minus the variable's lower bound (a byte for ranges up to 256 values). */
  PMC_STATE_ORDER_BYTES = 0,
  /* Breadth-first: the initial states in the order added, then each state's
   * new successors in the order the callback gave them, as a one-threaded
   * breadth-first search finds them (also with several threads). */
  PMC_STATE_ORDER_BFS = 1
} pmc_state_order;

/* Expands the state `state` (`size` bytes; valid during the call) into
 * `expansion` with the pmc_expansion_* functions, and returns 0. Any other
 * return value stops the exploration: pmc_model_explore returns
 * PMC_ERROR_CANCELLED or PMC_ERROR_OUT_OF_MEMORY when the callback
 * returned that value (a frontend's own interrupt or allocation failure),
 * else PMC_ERROR_MODEL, with the message given to pmc_expansion_fail (or
 * one saying what the callback returned) and the state's bytes in
 * pmc_last_error().
 * The callback is called once per reachable state. It may be called from
 * several threads at once only when the generator is marked thread-safe
 * (pmc_generator_set_thread_safe); otherwise from one thread at a time,
 * which need not be the thread that called pmc_model_explore (the threads
 * pmc starts for an exploration end before pmc_model_explore returns;
 * a generator that is not thread-safe is called on the caller's thread,
 * which is not promised for later versions). It must not
 * throw (C++) or unwind across pmc, and may call no pmc function but the
 * pmc_expansion_* ones on its own expansion and
 * pmc_options_request_cancel. */
typedef int (*pmc_expand_fn)(const void* state, uint64_t size, pmc_expansion* expansion, void* user_data);

/* Creates a generator of a model of `type` (PMC_MODEL_DTMC, _CTMC or _MDP;
 * other types are PMC_ERROR_UNSUPPORTED) whose states take at most
 * `max_state_size` bytes (1 to 4096), expanded by `expand` with
 * `user_data` (not owned by pmc; it must stay valid while the generator
 * is explored). Defaults: states of any size up to max_state_size, not
 * thread-safe, PMC_STATE_ORDER_BYTES, no initial state, no labels or
 * rewards. Free with pmc_generator_free. The generator's setters need
 * exclusive access to it; one generator may be explored by several
 * threads at once when its callback allows that. */
PMC_API pmc_status pmc_generator_create(pmc_model_kind type, uint64_t max_state_size, pmc_expand_fn expand,
                                        void* user_data, pmc_generator** out_generator);
PMC_API void pmc_generator_free(pmc_generator* generator);

/* fixed != 0: every state has exactly max_state_size bytes (an initial
 * state or target of another size is an error naming it). */
PMC_API pmc_status pmc_generator_set_fixed_size(pmc_generator* generator, int fixed);

/* thread_safe != 0: the callback may run on several threads at once (the
 * threads of pmc_options_set_threads; 0, the default, means every core).
 * Default 0: one thread calls it at a time. */
PMC_API pmc_status pmc_generator_set_thread_safe(pmc_generator* generator, int thread_safe);

/* How the explored states are numbered (see pmc_state_order). */
PMC_API pmc_status pmc_generator_set_order(pmc_generator* generator, pmc_state_order order);

/* Adds an initial state (copied). At least one is needed; adding a state
 * twice is allowed (it is one state). PMC_ERROR_INVALID_ARGUMENT for NULL
 * bytes with size > 0, or a size above max_state_size (or other than it
 * when fixed). */
PMC_API pmc_status pmc_generator_add_initial_state(pmc_generator* generator, const void* state, uint64_t size);

/* Declares a label (its name is copied) and returns its index for
 * pmc_expansion_set_label in *out_index (0, 1, 2, ... in the order added;
 * out_index may be NULL). PMC_ERROR_INVALID_ARGUMENT for a name already
 * declared, "init", "deadlock", or a name a properties file could not
 * write (empty, a double quote, a control character, blanks at an end). */
PMC_API pmc_status pmc_generator_add_label(pmc_generator* generator, const char* name, uint64_t* out_index);

/* Declares a reward structure ("" for PRISM's unnamed one; names are
 * unique) and returns its index for the pmc_expansion_*_reward functions
 * in *out_index (may be NULL). */
PMC_API pmc_status pmc_generator_add_rewards(pmc_generator* generator, const char* name, uint64_t* out_index);

/* Starts a new choice of the state being expanded, named `action` (NULL or
 * "" for none; copied). Transitions added before any choice start one
 * without an action, so a DTMC or CTMC needs no call to this. */
PMC_API pmc_status pmc_expansion_add_choice(pmc_expansion* expansion, const char* action);

/* Adds a transition of the current choice to the state `target` (`size`
 * bytes, copied) with probability (DTMC, MDP) or rate (CTMC) `value`. A
 * DTMC's or MDP's choice must sum to 1 within the options' row-sum
 * tolerance (pmc_options_set_row_sum_tolerance); values must be finite and
 * not negative (0 is dropped). */
PMC_API pmc_status pmc_expansion_add_transition(pmc_expansion* expansion, double value, const void* target,
                                                uint64_t size);

/* Reward structure `rewards` earns `value` when the last transition added
 * is taken (added to its choice's reward, below). */
PMC_API pmc_status pmc_expansion_set_transition_reward(pmc_expansion* expansion, uint64_t rewards, double value);

/* Reward structure `rewards` earns `value` whenever the current choice is
 * taken (PRISM's `[a] guard : value` items). */
PMC_API pmc_status pmc_expansion_set_choice_reward(pmc_expansion* expansion, uint64_t rewards, double value);

/* The state being expanded satisfies label `label` (an index from
 * pmc_generator_add_label). */
PMC_API pmc_status pmc_expansion_set_label(pmc_expansion* expansion, uint64_t label);

/* Reward structure `rewards` earns `value` in the state being expanded
 * (per time unit in a CTMC). */
PMC_API pmc_status pmc_expansion_set_state_reward(pmc_expansion* expansion, uint64_t rewards, double value);

/* Records why the callback is about to return non-zero (copied); the
 * exploration's error message includes it. */
PMC_API pmc_status pmc_expansion_fail(pmc_expansion* expansion, const char* message);

/* The pmc_expansion_* functions return PMC_ERROR_INVALID_ARGUMENT for a
 * bad argument (a NULL expansion, an unknown label or reward index, a
 * negative, NaN or infinite value, a target longer than max_state_size, a
 * reward before any transition or choice) and remember the first such
 * error: the exploration then fails with PMC_ERROR_MODEL and that message
 * after the callback returns, even if the callback ignored the status. Rewards must be finite and not
 * negative; setting one twice keeps the last value. */

/* Explores `generator` from its initial states and builds the model in
 * *out_model (owned by the caller; free with pmc_model_free).
 * `options` may be NULL (defaults); used: threads (for a thread-safe
 * generator), strict (deadlocks are errors), row-sum tolerance,
 * max_states, memory limit, and cancellation (pmc_options_request_cancel
 * stops it with PMC_ERROR_CANCELLED).
 * Errors, each naming the state by its bytes (hexadecimal) where there is
 * one: PMC_ERROR_INVALID_ARGUMENT (NULL generator or out_model, no initial
 * state); PMC_ERROR_MODEL (a non-zero return from the callback,
 * probabilities not summing to 1, a negative or non-finite value, a
 * target of the wrong size, a choice without transitions, more than
 * max_states states, a deadlock when strict, or a bad argument to a
 * pmc_expansion_* call); PMC_ERROR_OUT_OF_MEMORY (the memory limit, saying
 * how many states were explored, or the callback returned it);
 * PMC_ERROR_CANCELLED (pmc_options_request_cancel, or the callback
 * returned it).
 * No model is made on failure. Thread-safe: several explorations may run at
 * once (of one generator too, if its callback allows). */
PMC_API pmc_status pmc_model_explore(const pmc_generator* generator, const pmc_options* options,
                                     pmc_model** out_model);

/* The bytes of state `state` of a model built by pmc_model_explore: up to
 * `capacity` of them are written to `buffer` (may be NULL when capacity is
 * 0) and the state's size to *out_size. PMC_ERROR_UNSUPPORTED for a model
 * without state bytes (one loaded or built otherwise);
 * PMC_ERROR_INVALID_ARGUMENT for a state out of range. Thread-safe. */
PMC_API pmc_status pmc_model_state_bytes(const pmc_model* model, uint64_t state, void* buffer, uint64_t capacity,
                                         uint64_t* out_size);

/* The index of the state whose bytes are `state` (`size` bytes) in
 * *out_state, e.g. to read its value from pmc_result_values or its choice
 * from pmc_result_scheduler. PMC_ERROR_INVALID_ARGUMENT when no state has
 * these bytes; PMC_ERROR_UNSUPPORTED for a model without state bytes. The
 * first call builds an index (4 bytes a state), kept with the model.
 * Thread-safe. */
PMC_API pmc_status pmc_model_find_state(const pmc_model* model, const void* state, uint64_t size,
                                        uint64_t* out_state);

/* ------------------------------------------------------------------------ */
/* Model checking                                                            */
/* ------------------------------------------------------------------------ */

/* The outcome of one pmc_check: a value per state and how it was computed. */
typedef struct pmc_result pmc_result;

/* Checks one property in PRISM syntax, e.g. P=? [ F "goal" ],
 * R{"time"}=? [ C<=10 ], S=? [ "up" ], P>=0.9 [ "a" U<=5 "b" ], and over
 * state variables where the model has them (a .sta file, a PRISM-language
 * source): P=? [ F s=7 & d=6 ], and a source's constants and formulas
 * (P=? [ F x=N ], P=? [ F num_tokens=1 ]) on a model built from it; Storm's
 * expected time T=? [ F "goal" ] and PRISM's filters,
 * filter(max, R=? [ F "done" ], "init"), whose value is then the same in every
 * state (but for print, printall and range, which keep the formula's values,
 * and argmin/argmax, a boolean result naming the states). `options`
 * may be NULL (defaults). On PMC_OK, *out_result owns a new result (free it
 * with pmc_result_free). When an iteration limit was reached the call
 * returns PMC_ERROR_NOT_CONVERGED and still sets *out_result, so the
 * caller can inspect (and must free) the unconverged values. Other errors:
 * PMC_ERROR_PROPERTY (syntax, unknown label, variable or reward structure,
 * a value undefined in some state such as mod by zero,
 * a type error, a bound that does not fit the model; the message gives the
 * column),
 * PMC_ERROR_UNSUPPORTED, PMC_ERROR_INVALID_ARGUMENT. The model may be
 * checked by several threads at once. */
PMC_API pmc_status pmc_check(const pmc_model* model, const char* property, const pmc_options* options,
                             pmc_result** out_result);

/* Frees the result (NULL is a no-op). */
PMC_API void pmc_result_free(pmc_result* result);

/* The value in the first initial state (for a boolean property: 1 or 0;
 * +infinity for an expected reward that is infinite). */
PMC_API pmc_status pmc_result_initial_value(const pmc_result* result, double* out_value);

/* Minimum and maximum over all initial states, and how many there are. */
PMC_API pmc_status pmc_result_initial_range(const pmc_result* result, double* out_min, double* out_max,
                                            uint64_t* out_num_initial);

/* Copies up to `capacity` values (one per state) into `values` (may be NULL
 * when capacity is 0) and sets *out_count to the number of states. */
PMC_API pmc_status pmc_result_values(const pmc_result* result, double* values, uint64_t capacity,
                                     uint64_t* out_count);

/* 1 when the property is boolean (a bound such as P>=0.9, or a state
 * formula): the values are then 1 (satisfied) or 0. */
PMC_API pmc_status pmc_result_is_boolean(const pmc_result* result, int* out_is_boolean);

/* Iterations of all numerical solves, summed. */
PMC_API pmc_status pmc_result_iterations(const pmc_result* result, uint64_t* out_iterations);

/* 0 when some solve reached its iteration limit. */
PMC_API pmc_status pmc_result_converged(const pmc_result* result, int* out_converged);

/* The solvers used, joined by '+', e.g. "cpu.gauss-seidel" or
 * "cpu.steps+cpu.jacobi" ("none" when graph algorithms sufficed). Valid
 * until the result is freed. */
PMC_API pmc_status pmc_result_solver(const pmc_result* result, const char** out_name);

/* MDPs (Pmin/Pmax over F and U, Rmin/Rmax over F): an optimal memoryless
 * deterministic scheduler. Writes up to `capacity` entries into `choices`
 * (may be NULL when capacity is 0): per state, the index of the optimal
 * choice among the state's choices (0-based, in file order), or -1 where
 * every choice is optimal; *out_count is the number of states.
 * PMC_ERROR_UNSUPPORTED when the property has no scheduler. */
PMC_API pmc_status pmc_result_scheduler(const pmc_result* result, int64_t* choices, uint64_t capacity,
                                        uint64_t* out_count);

/* *out_sound = 1 when the result is certified: in every state the exact
 * value lies within the bounds of pmc_result_bounds/pmc_result_bound_values
 * (up to floating-point rounding). Unbounded properties are certified by
 * sound solvers (interval iteration: the default), bounded and CTMC
 * time-bounded ones by construction (uniformisation: Fox-Glynn's truncation
 * bound), steady-state and long-run values by exact or bounded bottom-SCC
 * solves (an MDP's: bounded end-component gains) unless the options are
 * unsound; results of unsound solvers are
 * not (*out_sound = 0). A certified result whose solver hit its
 * iteration limit has valid but wider bounds (pmc_result_converged = 0). */
PMC_API pmc_status pmc_result_sound(const pmc_result* result, int* out_sound);

/* A result checked with pmc_options_set_exact: the value in the first
 * initial state as a rational in lowest terms, "7/10" ("3" for an
 * integer, "Infinity" for an infinite reward). The text stays owned by
 * the result, valid until it is freed. PMC_ERROR_UNSUPPORTED for a result
 * not computed exactly. */
PMC_API pmc_status pmc_result_exact(const pmc_result* result, const char** out_text);

/* Certified bounds in the first initial state: the exact value lies in
 * [*out_lower, *out_upper]; pmc_result_initial_value is their midpoint for
 * unbounded properties. PMC_ERROR_UNSUPPORTED when the result is not sound. */
PMC_API pmc_status pmc_result_bounds(const pmc_result* result, double* out_lower, double* out_upper);

/* Certified bounds in every state, as pmc_result_values: up to `capacity`
 * entries into `lower` and `upper` (both may be NULL when capacity is 0);
 * *out_count is the number of states. PMC_ERROR_UNSUPPORTED when the
 * result is not sound. The arrays stay owned by the caller. */
PMC_API pmc_status pmc_result_bound_values(const pmc_result* result, double* lower, double* upper,
                                           uint64_t capacity, uint64_t* out_count);

/* Wall-clock seconds of the whole check (the sum of the phases of
 * pmc_result_phase_seconds other than PMC_PHASE_LOAD). */
PMC_API pmc_status pmc_result_seconds(const pmc_result* result, double* out_seconds);

/* The phases of a check, for pmc_result_phase_seconds. */
typedef enum pmc_phase {
  PMC_PHASE_LOAD = 0,        /* loading the model: always 0 here (pmc_check does not load it) */
  PMC_PHASE_GPU_STARTUP = 1, /* waiting for the CUDA context (0 once it exists, and on the CPU) */
  PMC_PHASE_PRECOMPUTE = 2,  /* graph algorithms: prob0/prob1, Prob0A/E, 1A/E, SCCs, BSCCs */
  PMC_PHASE_BUILD = 3,       /* equation systems and iteration matrices, on the host or the device */
  PMC_PHASE_TRANSFER = 4,    /* copies between host and device */
  PMC_PHASE_SOLVE = 5,       /* the solvers' iteration loops (GPU: timed by CUDA events) */
  PMC_PHASE_OTHER = 6,       /* everything else (parsing the property, results, ...) */
  PMC_PHASE_TOTAL = 7        /* the sum of the seven phases above */
} pmc_phase;

/* Wall-clock seconds the check spent in `phase` (>= 0). The phases do not
 * overlap: PMC_PHASE_TOTAL is their sum and, since LOAD is 0 for results of
 * pmc_check, equals pmc_result_seconds. A `phase` that is not one of the
 * values above fails with PMC_ERROR_INVALID_ARGUMENT (the message names
 * it); so does a NULL result or out_seconds. *out_seconds is a copy: no
 * storage is handed out. Thread safety as the other pmc_result_* getters
 * (see the top of this file). */
PMC_API pmc_status pmc_result_phase_seconds(const pmc_result* result, pmc_phase phase, double* out_seconds);

/* The registered solvers, by their stable names (e.g. "cpu.jacobi"). Names have
 * static storage. Thread-safe. */
PMC_API pmc_status pmc_solver_count(uint64_t* out_count);
PMC_API pmc_status pmc_solver_name(uint64_t index, const char** out_name);

/* ------------------------------------------------------------------------ */
/* Properties files                                                          */
/* ------------------------------------------------------------------------ */

/* The properties of a properties file (PRISM's .props/.pctl layout), each
 * with its name and its text ready for pmc_check, as `pmc check
 * --property-file` reads them. Immutable once made: any number of threads
 * may query one at once. */
typedef struct pmc_properties pmc_properties;

/* Reads the properties file at `path`: one property per line or several
 * separated by ';' (a line break inside (), [] or {} continues one);
 * comments (`//` to the end of the line, block comments, lines starting
 * with '#'); `"name": P=? [ ... ]` names a property; PRISM's declarations
 * `const int|double|bool NAME [= EXPRESSION];` (an expression over the
 * file's other constants and those given here), `formula NAME = ...;` and
 * `label "NAME" = ...;`. `constants` ("N=3,K=2", or NULL) gives the values
 * of constants the file declares without one (`const int N;`, typed by the
 * declaration); values of names the file does not declare may be read by
 * its constants' expressions (the model's constants, given as they are) and
 * are otherwise ignored, as are values of constants the file defines. Each
 * property that uses the file's constants, formulas or labels comes with
 * them put in (pmc_properties_text, in canonical form: `F<=T` with T=10
 * reads `F<=10`); the others keep their text. The properties themselves
 * are parsed by pmc_check, not here. On PMC_OK, *out_properties owns a new
 * handle (free it with pmc_properties_free). Errors, whose message
 * (pmc_last_error) starts with the file and line ("p.props:3: ..."):
 * PMC_ERROR_IO (the file cannot be read), PMC_ERROR_PARSE (an unterminated
 * string or comment, a malformed declaration or one of a name declared
 * twice, a constant's value that is no constant expression or of the wrong
 * type, a property using a constant without a value, two properties of the
 * same name, no property at all), PMC_ERROR_INVALID_ARGUMENT (NULL
 * pointers, malformed `constants`, a value of the wrong type for the
 * declared constant). A JANI model (`.jani`, plain or compressed) gives its
 * properties, named as in the file and translated to PRISM syntax (their
 * constants are the model's, which pmc_check reads from the model built
 * from the same file; `constants` is not used); one pmc cannot translate is
 * still listed, and pmc_properties_text answers PMC_ERROR_UNSUPPORTED or
 * PMC_ERROR_PARSE for it with the reason. Thread-safe. */
PMC_API pmc_status pmc_properties_read(const char* path, const char* constants, pmc_properties** out_properties);

/* As pmc_properties_read, from the file's contents `text`; `source_name`
 * names it in messages (NULL: "<text>"). */
PMC_API pmc_status pmc_properties_parse(const char* text, const char* source_name, const char* constants,
                                        pmc_properties** out_properties);

/* Frees the properties (NULL is a no-op); the strings they handed out go
 * with them. */
PMC_API void pmc_properties_free(pmc_properties* properties);

/* How many properties the file holds (at least 1). */
PMC_API pmc_status pmc_properties_count(const pmc_properties* properties, uint64_t* out_count);

/* Property `index`, in file order: its name ("" when unnamed), its text with
 * the file's constants put in (the argument pmc_check takes), and the line it
 * starts on (from 1; 0 for a JANI model's). Strings stay valid until the
 * properties are freed. PMC_ERROR_INVALID_ARGUMENT for an index out of
 * range or NULL pointers; pmc_properties_text fails as pmc_properties_read
 * says for a JANI property pmc cannot translate. */
PMC_API pmc_status pmc_properties_name(const pmc_properties* properties, uint64_t index, const char** out_name);
PMC_API pmc_status pmc_properties_text(const pmc_properties* properties, uint64_t index, const char** out_text);
PMC_API pmc_status pmc_properties_line(const pmc_properties* properties, uint64_t index, uint64_t* out_line);

/* ------------------------------------------------------------------------ */
/* Parameter synthesis (parametric CTMCs)                                    */
/* ------------------------------------------------------------------------ */

/* The outcome of one pmc_synthesize: a partition of the parameter space into
 * rectangular regions, each with its classification and safe bounds of the
 * property's value (in the first initial state) over the region. */
typedef struct pmc_synth_result pmc_synth_result;

typedef enum pmc_synth_mode {
  PMC_SYNTH_THRESHOLD = 0, /* regions where the threshold surely holds / fails */
  PMC_SYNTH_MIN = 1,       /* regions that may hold the minimum */
  PMC_SYNTH_MAX = 2        /* regions that may hold the maximum */
} pmc_synth_mode;

typedef enum pmc_region_class {
  PMC_REGION_TRUE = 0,      /* threshold: holds at every point of the region */
  PMC_REGION_FALSE = 1,     /* threshold: fails everywhere; min/max: cannot hold the optimum */
  PMC_REGION_UNDECIDED = 2, /* threshold: neither could be shown */
  PMC_REGION_OPTIMUM = 3    /* min/max: may hold the optimum (value within epsilon of it) */
} pmc_region_class;

/* What to synthesise: a property, parameter ranges, the mode, and the
 * threshold and precision. Created with the property, set through the
 * setters below (each may be called any number of times, the last call
 * wins), passed to pmc_synthesize (which only reads it: one request may
 * serve several calls, also at once from several threads), and freed with
 * pmc_synthesis_request_free. Setters need exclusive access to the request.
 * New settings will arrive as new setters. */
typedef struct pmc_synthesis_request pmc_synthesis_request;

/* A request for `property` (copied), a time-bounded property of a
 * parametric CTMC: P=? [ phi U[t1,t2] psi ], P=? [ F<=t psi ] (U<=t,
 * F[t1,t2] too) or R=? [ C<=t ] (state rewards), phi and psi made of labels.
 * Defaults: mode PMC_SYNTH_THRESHOLD with the bound of a property written
 * P>=0.9 [...], epsilon 0.01, and every parameter over the range the model
 * declares. The property is parsed by pmc_synthesize, not here. On PMC_OK,
 * *out_request owns a new request. PMC_ERROR_INVALID_ARGUMENT for NULL
 * pointers. */
PMC_API pmc_status pmc_synthesis_request_create(const char* property, pmc_synthesis_request** out_request);

/* Frees the request (NULL is a no-op). Results made with it stay valid. */
PMC_API void pmc_synthesis_request_free(pmc_synthesis_request* request);

/* PMC_SYNTH_THRESHOLD (default), PMC_SYNTH_MIN or PMC_SYNTH_MAX; another
 * value fails with PMC_ERROR_INVALID_ARGUMENT. */
PMC_API pmc_status pmc_synthesis_request_set_mode(pmc_synthesis_request* request, pmc_synth_mode mode);

/* Threshold mode: a comparison such as ">=0.9", "<0.2" (copied); NULL
 * (default) takes the bound of a property written P>=0.9 [...]. A malformed
 * comparison fails here with PMC_ERROR_INVALID_ARGUMENT; a threshold with
 * mode min/max makes pmc_synthesize fail the same way. */
PMC_API pmc_status pmc_synthesis_request_set_threshold(pmc_synthesis_request* request, const char* threshold);

/* Threshold mode: the largest undecided fraction of the volume; min/max:
 * the largest width of the optimum's bounds. 0 or less: the default, 0.01.
 * NaN fails with PMC_ERROR_INVALID_ARGUMENT. */
PMC_API pmc_status pmc_synthesis_request_set_epsilon(pmc_synthesis_request* request, double epsilon);

/* Parameter `name` (copied) ranges over [lower, upper] (equal bounds fix
 * it); setting a name again replaces its range. Parameters without a range
 * keep the one the model declares, which must then be finite. Names and
 * bounds are checked against the model by pmc_synthesize. */
PMC_API pmc_status pmc_synthesis_request_set_parameter_range(pmc_synthesis_request* request, const char* name,
                                                             double lower, double upper);

/* Forgets every range set with pmc_synthesis_request_set_parameter_range. */
PMC_API pmc_status pmc_synthesis_request_clear_parameter_ranges(pmc_synthesis_request* request);

/* Synthesises parameter regions of a parametric CTMC (PMC_MODEL_PCTMC) as
 * `request` says. `options` may be NULL; its solver ("auto", "cpu", "gpu",
 * "cpu.param-bounds", "gpu.param-bounds"), threads, device and cancel flag
 * apply. On PMC_OK *out_result owns a new result (free it with
 * pmc_synth_result_free). When the refinement stopped at its region limit
 * the call returns PMC_ERROR_NOT_CONVERGED and still sets *out_result.
 * Errors: PMC_ERROR_INVALID_ARGUMENT (NULL pointer, unknown parameter
 * name, lower > upper, a non-finite bound, a range that makes a rate
 * negative, a threshold with mode min/max), PMC_ERROR_UNSUPPORTED (the
 * model is not parametric, or the property is outside the fragment of
 * pmc_synthesis_request_create), PMC_ERROR_PROPERTY, PMC_ERROR_PARSE,
 * PMC_ERROR_CANCELLED. The message of pmc_last_error() says which. The
 * model and the request may be used by several threads at once; one
 * options handle must not be shared by concurrent calls. (Before 1.0.0
 * this function took the request's settings as eleven positional
 * parameters.) */
PMC_API pmc_status pmc_synthesize(const pmc_model* model, const pmc_synthesis_request* request,
                                  const pmc_options* options, pmc_synth_result** out_result);

/* Frees the result (NULL is a no-op). */
PMC_API void pmc_synth_result_free(pmc_synth_result* result);

/* The model's parameters, in the order region bounds use. Names are valid
 * until the result is freed. */
PMC_API pmc_status pmc_synth_result_num_parameters(const pmc_synth_result* result, uint64_t* out_count);
PMC_API pmc_status pmc_synth_result_parameter_name(const pmc_synth_result* result, uint64_t index,
                                                   const char** out_name);

/* The final regions (a partition of the parameter space). */
PMC_API pmc_status pmc_synth_result_num_regions(const pmc_synth_result* result, uint64_t* out_count);

/* Region `index`: writes its bounds per parameter into lower[0..n) and
 * upper[0..n) (n = the number of parameters; `capacity` must be at least
 * n), its class, and safe bounds of the property's value over it. Any out
 * pointer may be NULL when not wanted (lower/upper only with capacity 0). */
PMC_API pmc_status pmc_synth_result_region(const pmc_synth_result* result, uint64_t index, double* lower,
                                           double* upper, uint64_t capacity, pmc_region_class* out_class,
                                           double* out_value_lower, double* out_value_upper);

/* Min/max: the optimum lies in [*out_lower, *out_upper].
 * PMC_ERROR_UNSUPPORTED for a threshold result. */
PMC_API pmc_status pmc_synth_result_optimum(const pmc_synth_result* result, double* out_lower, double* out_upper);

/* Threshold: the undecided fraction of the parameter space's volume. */
PMC_API pmc_status pmc_synth_result_undecided_fraction(const pmc_synth_result* result, double* out_fraction);

/* 0 when the refinement stopped at its region limit before reaching epsilon. */
PMC_API pmc_status pmc_synth_result_converged(const pmc_synth_result* result, int* out_converged);

/* Regions whose bounds were computed, wall-clock seconds, and the solver
 * used ("cpu.param-bounds" or "gpu.param-bounds"; valid until freed). */
PMC_API pmc_status pmc_synth_result_stats(const pmc_synth_result* result, uint64_t* out_regions_analysed,
                                          double* out_seconds, const char** out_solver);

/* ------------------------------------------------------------------------ */
/* GPU devices                                                               */
/* ------------------------------------------------------------------------ */

/* Number of usable CUDA devices. When there is none, returns
 * PMC_ERROR_NO_DEVICE with *out_count = 0 and pmc_last_error() saying why
 * (built without CUDA, no driver, driver too old, no GPU). Thread-safe. */
PMC_API pmc_status pmc_device_count(uint64_t* out_count);

/* The device's name (e.g. "NVIDIA H100 80GB HBM3"); static storage.
 * Thread-safe. */
PMC_API pmc_status pmc_device_name(uint64_t index, const char** out_name);

/* Free and total device memory in bytes, measured now. Thread-safe. */
PMC_API pmc_status pmc_device_memory(uint64_t index, uint64_t* out_free_bytes, uint64_t* out_total_bytes);

/* Compute capability, e.g. 9.0 for Hopper. Thread-safe. */
PMC_API pmc_status pmc_device_compute_capability(uint64_t index, int* out_major, int* out_minor);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PMC_PMC_H */
