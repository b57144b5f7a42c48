"""pmc.Model (pmc_model), pmc.load and checking."""

import concurrent.futures
import contextlib
import ctypes
import enum
import os
import threading

from . import _handle
from .errors import ClosedError, NotConvergedError, Status, check, error_for, invalid_argument, \
    last_error_message, lib
from .options import Options, constants_arg  # noqa: F401 (properties.py imports it from here)
from .result import Result


class ModelType(str, enum.Enum):
    """pmc_model_kind; compares equal to its name ("dtmc", ...)."""

    DTMC = "dtmc"
    CTMC = "ctmc"
    MDP = "mdp"
    PCTMC = "pctmc"  # CTMC with rates affine in parameters

    def __str__(self):
        return self.value


_KIND_TO_TYPE = {0: ModelType.DTMC, 1: ModelType.CTMC, 2: ModelType.MDP, 3: ModelType.PCTMC}
_TYPE_TO_KIND = {v: k for k, v in _KIND_TO_TYPE.items()}


def _model_type(value):
    try:
        return ModelType(value.lower() if isinstance(value, str) else value)
    except ValueError:
        raise invalid_argument(f"unknown model type {value!r} (use dtmc, ctmc or mdp)") from None


def fs_path(path):
    """A path for C: str/bytes/PathLike, encoded as the OS wants it."""
    return os.fsencode(path)


def _format_arg(format):
    if format is None:
        return None
    if not isinstance(format, str):
        raise TypeError(f"format must be a str or None, not {type(format).__name__}")
    return format.encode("utf-8")


def _loading_options(strict, row_sum_tolerance, memory_limit):
    if strict is None and row_sum_tolerance is None and memory_limit is None:
        return None
    return Options(strict=strict, row_sum_tolerance=row_sum_tolerance, memory_limit=memory_limit)


def load(path, format=None, *, strict=None, row_sum_tolerance=None, memory_limit=None):
    """Loads a model file and returns a pmc.Model.

    `path` is a str or path-like object, or a list of them: a PRISM explicit
    .tra plus any of its .lab, .srew, .trew, .sta files (a single .tra finds
    its siblings by stem; reward files of several structures are numbered,
    foo1.srew, foo2.srew...). `format` None picks by extension (.tra, .drn,
    .pmcb, optionally .gz; .pm, .sm, .nm, .prism: a PRISM-language source
    defining all its constants, see build_prism); else one of "prism",
    "prism-dtmc", "prism-ctmc", "prism-mdp", "drn", "pmcb", "prism-language". `strict` rejects states without transitions
    instead of giving them a self-loop; `row_sum_tolerance` is the allowed
    |sum - 1| of each DTMC/MDP row (default 1e-9); `memory_limit` the host
    memory in bytes the model may need (None/0: the machine's).

    Raises pmc.FileError (an OSError) for a file that cannot be read,
    pmc.ParseError or pmc.ModelError (ValueErrors) for bad contents,
    pmc.OutOfMemoryError (a MemoryError) when the file's header or the
    exploration of a source needs more than the memory limit.
    """
    native = lib()
    fmt = _format_arg(format)
    if isinstance(path, (str, bytes, os.PathLike)):
        paths = [path]
        single = True
    else:
        paths = list(path)
        single = False
        if not paths:
            raise invalid_argument("no model file given")
    encoded = [fs_path(p) for p in paths]
    out = ctypes.c_void_p()
    options = _loading_options(strict, row_sum_tolerance, memory_limit)
    try:
        if single and options is None:
            check(native.pmc_model_load(encoded[0], fmt, ctypes.byref(out)))
        else:
            array = (ctypes.c_char_p * len(encoded))(*encoded)
            with (options._handle.borrow() if options else contextlib.nullcontext()) as optr:
                check(native.pmc_model_load_files(array, len(encoded), fmt, optr, ctypes.byref(out)))
    finally:
        if options is not None:
            options.close()
    return Model._adopt(out.value)


def build_prism(path, constants=None, *, max_states=None, threads=None, strict=None, memory_limit=None, build=None):
    """Builds a pmc.Model from a PRISM-language source (.pm, .sm, .nm, .prism)
    or a JANI model (.jani) by exploring its reachable states, as PRISM's
    explicit engine does.

    `constants` sets the constants the source leaves undefined: a str
    "K=2,N=4" or a dict {"K": 2, "N": 4} (bools as true/false); None when
    the source defines them all. `max_states` stops the exploration with
    pmc.ModelError above that many states (None/0: no limit); `threads`
    explores with that many threads (None/0: every core); `strict` rejects
    deadlock states instead of giving them a self-loop; `memory_limit`
    (bytes, None/0: the machine's memory) stops the exploration with
    pmc.OutOfMemoryError, naming the states explored so far, before the
    state store or the model would outgrow it. `build` picks the explorer:
    "cpu", "gpu" (the first GPU; pmc.NoDeviceError without one) or "auto"
    (None, the default: the CPU's, handing models of more than 2^21 states to
    a GPU when there is one); both give the same model.

    Raises pmc.FileError for an unreadable file, pmc.ParseError for syntax,
    type or undefined-constant errors (the message names file:line:column,
    or lists the undefined constants and how to set them),
    pmc.InvalidArgumentError for malformed or unknown constants and
    pmc.ModelError for an invalid model or too many states.
    """
    native = lib()
    text = constants_arg(constants)
    out = ctypes.c_void_p()
    options = None
    if any(v is not None for v in (max_states, threads, strict, memory_limit, build)):
        options = Options(max_states=max_states, threads=threads, strict=strict, memory_limit=memory_limit,
                          build=build)
    try:
        with (options._handle.borrow() if options else contextlib.nullcontext()) as optr:
            check(native.pmc_model_build_prism(fs_path(path), text, optr, ctypes.byref(out)))
    finally:
        if options is not None:
            options.close()
    return Model._adopt(out.value)


class Model(_handle.OwnsHandle):
    """A loaded or built Markov model (DTMC, CTMC, MDP or parametric CTMC).

    Make one with pmc.load(), Model.from_csr() or pmc.Generator.explore(). Use it as a context
    manager, or call close() (idempotent) to free it at once; garbage
    collection frees it otherwise. Any use after close() raises
    pmc.ClosedError.

    Thread safety (pmc.h): a model is immutable once built, so any number of
    threads may query, save and check it at once (ctypes releases the GIL
    during pmc calls, so checks really run in parallel). add_label() and
    add_rewards() need exclusive access: they raise pmc.Error if another
    thread is using the model at that moment. close() may be called at any
    time; the model is freed when the last running call on it returns.
    """

    def __init__(self):
        raise TypeError("use pmc.load(), Model.from_csr(), Model.from_parametric_csr() or pmc.Generator.explore() "
                        "to make a Model")

    @classmethod
    def _adopt(cls, ptr):
        model = cls.__new__(cls)
        model._handle = _handle._Handle(ptr, lib().pmc_model_free, "model")
        return model

    # ------------------------------------------------------------------ building

    @classmethod
    def from_csr(cls, type, row_offsets, columns, values, row_groups=None, *, labels=None, strict=None,
                 row_sum_tolerance=None, memory_limit=None):
        """Builds a model from CSR arrays (copied; lists, arrays or NumPy arrays).

        - `type`: "dtmc", "ctmc" or "mdp" (or a pmc.ModelType)
        - `row_offsets`: num_rows+1 entries; row r is entries [row_offsets[r], row_offsets[r+1])
        - `columns`, `values`: target state and probability (rate for a CTMC) of each entry
        - `row_groups`: MDP only, num_states+1 entries: the first row (choice) of each state
        - `labels`: optional {name: [state, ...]}; "init" marks the initial states

        Entries with value 0 are dropped; duplicate (row, column) entries are
        rejected with pmc.ModelError. Rows need not be sorted. `memory_limit`
        (bytes, None/0: the machine's) refuses a model that would need more
        with pmc.OutOfMemoryError before copying.
        """
        model_type = _model_type(type)
        if model_type == ModelType.PCTMC:
            raise invalid_argument("use Model.from_parametric_csr() for a parametric CTMC")
        offsets = _handle.u64_array("row_offsets", row_offsets)
        cols = _handle.u64_array("columns", columns)
        vals = _handle.f64_array("values", values)
        if len(offsets) < 1:
            raise invalid_argument("row_offsets needs num_rows+1 entries (at least one)")
        num_rows = len(offsets) - 1
        _check_entries(offsets, cols, vals, "values")
        if model_type == ModelType.MDP:
            if row_groups is None:
                raise invalid_argument("an MDP needs row_groups (the first choice of each state)")
            groups = _handle.u64_array("row_groups", row_groups)
            if len(groups) < 1:
                raise invalid_argument("row_groups needs num_states+1 entries (at least one)")
            num_states = len(groups) - 1
            groups_ptr = groups.ptr
        else:
            if row_groups is not None:
                raise invalid_argument(f"row_groups is only for MDPs, not a {model_type.value.upper()}")
            num_states = num_rows
            groups_ptr = None
        native = lib()
        out = ctypes.c_void_p()
        options = _loading_options(strict, row_sum_tolerance, memory_limit)
        try:
            with (options._handle.borrow() if options else contextlib.nullcontext()) as optr:
                check(native.pmc_model_build_csr(_TYPE_TO_KIND[model_type], num_states, num_rows, groups_ptr,
                                                 offsets.ptr, cols.ptr, vals.ptr, optr, ctypes.byref(out)))
        finally:
            if options is not None:
                options.close()
        model = cls._adopt(out.value)
        try:
            for name, states in (labels or {}).items():
                model.add_label(name, states)
        except BaseException:
            model.close()
            raise
        return model

    @classmethod
    def from_parametric_csr(cls, row_offsets, columns, constants, parameters, coefficients, lower=None,
                            upper=None, *, labels=None, strict=None, row_sum_tolerance=None, memory_limit=None):
        """Builds a parametric CTMC: the rate of entry e is
        constants[e] + sum_k coefficients[e * len(parameters) + k] * p_k.

        `parameters` are the names; `coefficients` is flat (entries x
        parameters, row-major); `lower`/`upper` give each parameter's range
        (None: [0, +inf)). Every rate must be >= 0 over the whole range.
        `memory_limit` as for from_csr.
        """
        offsets = _handle.u64_array("row_offsets", row_offsets)
        cols = _handle.u64_array("columns", columns)
        consts = _handle.f64_array("constants", constants)
        if len(offsets) < 1:
            raise invalid_argument("row_offsets needs num_states+1 entries (at least one)")
        _check_entries(offsets, cols, consts, "constants")
        names = [str(p).encode("utf-8") for p in parameters]
        num_parameters = len(names)
        coeffs = _handle.f64_array("coefficients", coefficients)
        if len(coeffs) != len(cols) * num_parameters:
            raise invalid_argument(f"coefficients has {len(coeffs)} entries, expected {len(cols)} entries x "
                                   f"{num_parameters} parameters = {len(cols) * num_parameters}")
        bounds = []
        for name, given in (("lower", lower), ("upper", upper)):
            if given is None:
                bounds.append(None)
                continue
            arr = _handle.f64_array(name, given)
            if len(arr) != num_parameters:
                raise invalid_argument(f"{name} has {len(arr)} entries, expected one per parameter ({num_parameters})")
            bounds.append(arr)
        names_array = (ctypes.c_char_p * max(num_parameters, 1))(*names)
        native = lib()
        out = ctypes.c_void_p()
        options = _loading_options(strict, row_sum_tolerance, memory_limit)
        try:
            with (options._handle.borrow() if options else contextlib.nullcontext()) as optr:
                check(native.pmc_model_build_parametric_csr(
                    len(offsets) - 1, offsets.ptr, cols.ptr, consts.ptr, num_parameters, names_array, coeffs.ptr,
                    bounds[0].ptr if bounds[0] else None, bounds[1].ptr if bounds[1] else None, optr,
                    ctypes.byref(out)))
        finally:
            if options is not None:
                options.close()
        model = cls._adopt(out.value)
        try:
            for name, states in (labels or {}).items():
                model.add_label(name, states)
        except BaseException:
            model.close()
            raise
        return model

    def add_label(self, name, states):
        """Adds a label (a named set of states; "init" marks the initial
        states). Needs exclusive access to the model."""
        arr = _handle.u64_array("states", states)
        with self._handle.exclusive() as ptr:
            check(lib().pmc_model_add_label(ptr, _text("name", name), arr.ptr, len(arr)))

    def add_rewards(self, name="", state_rewards=None, choice_rewards=None, transition_rewards=None):
        """Adds a reward structure ("" for unnamed). Each array may be None:
        `state_rewards` has one value per state (per time unit in a CTMC),
        `choice_rewards` one per row (state, or MDP choice), earned when it
        is taken, `transition_rewards` one per matrix entry in the model's
        stored order (rows sorted by column); the last two add up. Needs
        exclusive access to the model."""
        sizes = {"state_rewards": self.states, "choice_rewards": self.choices,
                 "transition_rewards": self.transitions}
        arrays = {}
        for key, given in (("state_rewards", state_rewards), ("choice_rewards", choice_rewards),
                           ("transition_rewards", transition_rewards)):
            if given is None:
                arrays[key] = None
                continue
            arr = _handle.f64_array(key, given)
            if len(arr) != sizes[key]:
                raise invalid_argument(f"{key} has {len(arr)} values, the model needs {sizes[key]}")
            arrays[key] = arr
        ptrs = [a.ptr if a is not None else None for a in arrays.values()]
        with self._handle.exclusive() as ptr:
            check(lib().pmc_model_add_rewards(ptr, _text("name", name), *ptrs))

    # ------------------------------------------------------------------ queries

    def _count(self, function):
        n = ctypes.c_uint64()
        with self._handle.borrow() as ptr:
            check(function(ptr, ctypes.byref(n)))
        return n.value

    def _names(self, count_function, name_function):
        out = []
        s = ctypes.c_char_p()
        with self._handle.borrow() as ptr:
            n = ctypes.c_uint64()
            check(count_function(ptr, ctypes.byref(n)))
            for index in range(n.value):
                check(name_function(ptr, index, ctypes.byref(s)))
                out.append(s.value.decode("utf-8", "replace"))
        return out

    @property
    def type(self):
        """The pmc.ModelType (a str enum: "dtmc", "ctmc", "mdp" or "pctmc")."""
        kind = ctypes.c_int()
        with self._handle.borrow() as ptr:
            check(lib().pmc_model_type(ptr, ctypes.byref(kind)))
        return _KIND_TO_TYPE[kind.value]

    @property
    def states(self):
        """Number of states."""
        return self._count(lib().pmc_model_num_states)

    @property
    def choices(self):
        """Rows of the matrix: choices of an MDP, states otherwise."""
        return self._count(lib().pmc_model_num_choices)

    @property
    def transitions(self):
        """Non-zero matrix entries."""
        return self._count(lib().pmc_model_num_transitions)

    @property
    def labels(self):
        """Label names, in the order they were loaded or added."""
        native = lib()
        return self._names(native.pmc_model_num_labels, native.pmc_model_label_name)

    def label_states(self, name):
        """The states of label `name`, ascending (pmc.InvalidArgumentError if unknown)."""
        native = lib()
        encoded = _text("name", name)
        n = ctypes.c_uint64()
        with self._handle.borrow() as ptr:
            check(native.pmc_model_label_states(ptr, encoded, None, 0, ctypes.byref(n)))

            def fill(buffer, capacity):
                check(native.pmc_model_label_states(ptr, encoded, buffer, capacity, ctypes.byref(n)))

            return _handle.read_array(fill, "Q", ctypes.c_uint64, n.value, False, None)

    @property
    def initial_states(self):
        """The states of the "init" label."""
        return self.label_states("init")

    @property
    def rewards(self):
        """Reward structure names ("" for an unnamed one)."""
        native = lib()
        return self._names(native.pmc_model_num_rewards, native.pmc_model_reward_name)

    @property
    def parameters(self):
        """Parameter names of a parametric CTMC ([] otherwise)."""
        native = lib()
        return self._names(native.pmc_model_num_parameters, native.pmc_model_parameter_name)

    @property
    def warnings(self):
        """Warnings raised while loading or building (deadlocks fixed, zero entries dropped...)."""
        native = lib()
        return self._names(native.pmc_model_num_warnings, native.pmc_model_warning)

    def state_bytes(self, state):
        """The bytes of state `state` (an index) of a model built by
        pmc.Generator.explore(). Raises pmc.UnsupportedError for a model
        without state bytes (loaded or built otherwise),
        pmc.InvalidArgumentError for an index out of range. Thread-safe."""
        index = _handle.uint64("state", state)
        native = lib()
        size = ctypes.c_uint64()
        buffer = ctypes.create_string_buffer(_STATE_BUFFER)
        with self._handle.borrow() as ptr:
            check(native.pmc_model_state_bytes(ptr, index, buffer, _STATE_BUFFER, ctypes.byref(size)))
            if size.value > _STATE_BUFFER:
                buffer = ctypes.create_string_buffer(size.value)
                check(native.pmc_model_state_bytes(ptr, index, buffer, size.value, ctypes.byref(size)))
        return buffer.raw[:size.value]

    def find_state(self, state):
        """The index of the state whose bytes are `state` (bytes, or a
        sequence of ints in [0, 255]), e.g. to read its value from
        Result.values or its choice from Result.scheduler, in a model built
        by pmc.Generator.explore(). Raises pmc.InvalidArgumentError when no
        state has these bytes, pmc.UnsupportedError for a model without
        state bytes. The first call builds an index (4 bytes a state), kept
        with the model. Thread-safe."""
        state = _handle.state_arg("state", state)
        index = ctypes.c_uint64()
        with self._handle.borrow() as ptr:
            check(lib().pmc_model_find_state(ptr, state, len(state), ctypes.byref(index)))
        return index.value

    def release_device(self):
        """Frees the model's GPU-resident copies. A GPU check copies the
        matrix to the device once and keeps the copy on the model for later
        checks until the model is closed; this gives the device memory back
        sooner (the next GPU check copies again). Fine when there are none
        and without CUDA. Thread-safe beside checks of the same model: a
        check in flight keeps its copy until it finishes."""
        with self._handle.borrow() as ptr:
            check(lib().pmc_model_release_device(ptr))

    def save(self, path, format=None):
        """Writes the model; `format` None picks by extension (.pmcb, .drn,
        .tra; a .gz suffix compresses text formats). A .tra also writes its
        .lab/.srew/.trew siblings. Thread-safe."""
        with self._handle.borrow() as ptr:
            check(lib().pmc_model_save(ptr, fs_path(path), _format_arg(format)))

    # ------------------------------------------------------------------ checking

    def check(self, property, options=None, **settings):
        """Checks one property in PRISM syntax and returns a pmc.Result.

        Either pass `options` (a pmc.Options) or its keywords directly, e.g.
        ``model.check('P=? [ F "goal" ]', solver="cpu.gauss-seidel",
        epsilon=1e-8)``; see pmc.Options for them all.

        Raises pmc.PropertyError (a ValueError; the message gives the
        column), pmc.UnsupportedError, pmc.NotConvergedError (its ``result``
        holds the unconverged values), pmc.CancelledError, pmc.NoDeviceError...

        Ctrl-C: called from the main thread, the check runs on a (reused)
        helper thread while the main thread waits, so that a
        KeyboardInterrupt (or any exception a signal handler raises) cancels
        it at the solver's next iteration (pmc_options_request_cancel) and
        is raised once it has stopped. With shared `options`, that also cancels
        the other checks running with them; the flag is cleared again
        afterwards. Called from other threads, the check runs on the calling
        thread; cancel it with Options.cancel().
        """
        if not isinstance(property, str):
            raise TypeError(f"property must be a str, not {type(property).__name__}")
        if options is not None and settings:
            raise TypeError("pass either options or option keywords, not both")
        if options is not None and not isinstance(options, Options):
            raise TypeError(f"options must be a pmc.Options, not {type(options).__name__}")
        interruptible = threading.current_thread() is threading.main_thread()
        own = None
        if options is None and (settings or interruptible):
            own = options = Options(**settings)
        try:
            return _run_check(self, property, options, interruptible)
        finally:
            if own is not None:
                own.close()

    # ------------------------------------------------------------------ lifetime (close, with, del: _handle.OwnsHandle)

    def __repr__(self):
        if self.closed:
            return "pmc.Model(closed)"
        return (f"pmc.Model(type={self.type.value!r}, states={self.states}, choices={self.choices}, "
                f"transitions={self.transitions})")


# Model.state_bytes reads a state into a buffer of this size first (most
# states are small), and again into one of the state's size when longer.
_STATE_BUFFER = 64


def _text(name, value):
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value.encode("utf-8")


def _check_entries(offsets, cols, vals, values_name):
    # pmc reads row_offsets[num_rows] entries of columns and values: a
    # shorter Python array would be read out of bounds.
    if len(cols) != len(vals):
        raise invalid_argument(f"columns has {len(cols)} entries but {values_name} has {len(vals)}")
    if offsets[len(offsets) - 1] != len(cols):
        raise invalid_argument(f"row_offsets ends at {offsets[len(offsets) - 1]}, but there are {len(cols)} "
                               f"entries in columns and {values_name}")


def _check_call(model_ptr, property, options, options_ptr):
    """pmc_check on this thread; returns a Result or raises (reading
    pmc_last_error on this same thread)."""
    native = lib()
    out = ctypes.c_void_p()
    status = native.pmc_check(model_ptr, property.encode("utf-8"), options_ptr, ctypes.byref(out))
    callback_error = options._take_callback_error() if options is not None else None
    if status == Status.OK:
        return Result(out.value, property)
    message = last_error_message()
    result = Result(out.value, property) if status == Status.NOT_CONVERGED and out.value else None
    if callback_error is not None:
        # The trampoline cancelled the check to stop it; clear the flag so
        # these options keep working (the pointer is still borrowed here).
        native.pmc_options_reset_cancel(options_ptr)
        if result is not None:
            result.close()
        raise callback_error
    if status == Status.NOT_CONVERGED:
        raise NotConvergedError(message, status, result)
    raise error_for(status, message)


def _quietly(method):
    try:
        method()
    except ClosedError:  # closed meanwhile by another thread: nothing left to cancel
        pass


_pool = None
_pool_lock = threading.Lock()


def _helper_pool():
    # Reused helper threads rather than one per check: libgomp keeps an
    # OpenMP thread team per calling thread, so a new thread would also start
    # and stop a team for every check (measured on a busy 2-core machine,
    # small model: 2 ms per check with a new thread each time, 0.1 ms with
    # this pool, 0.02 ms on the calling thread).
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="pmc-check")
        return _pool


def _forget_pool_after_fork():
    # A forked child has none of the parent's threads: a pool copied from the
    # parent would wait forever for its idle workers.
    global _pool, _pool_lock
    _pool = None
    _pool_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)


def _run_check(model, property, options, interruptible):
    def work():
        # The borrows are taken and returned on the thread calling pmc_check,
        # so even a caller that stopped waiting cannot get a handle freed
        # under a running check.
        with model._handle.borrow() as model_ptr, \
                (options._handle.borrow() if options is not None else contextlib.nullcontext()) as options_ptr:
            return _check_call(model_ptr, property, options, options_ptr)

    if not interruptible:
        return work()
    future = _helper_pool().submit(work)
    try:
        while True:
            # Wait with a timeout: a process-directed signal may land on any
            # thread, and Python runs its handlers only when the main thread
            # comes back to the interpreter.
            try:
                return future.result(timeout=0.1)
            except concurrent.futures.TimeoutError:
                continue
    except BaseException:
        if future.done():
            raise  # the check's own outcome
        # A signal handler raised (KeyboardInterrupt...): stop the check.
        _quietly(options.cancel)
        concurrent.futures.wait([future])
        _quietly(options.reset_cancel)
        raise
