"""pmc.Options: settings for loading, building and checking (pmc_options)."""

import collections
import ctypes
import threading

from . import _handle
from ._native import PROGRESS_FN
from .errors import check, lib

#: What a progress callback receives: the solver's name, the iterations of
#: the current solve so far, the residual of the last iteration (the largest
#: change; for the sound interval solvers the widest gap between the bounds,
#: inf before an upper bound exists; NaN for solvers without one) and the
#: seconds since the solve began.
Progress = collections.namedtuple("Progress", "solver iteration residual seconds")

_SETTINGS = ("solver", "sound", "exact", "epsilon", "relative", "max_iterations", "threads", "device", "devices",
             "all_devices", "gpu_memory_limit", "memory_limit", "strict", "row_sum_tolerance", "max_states", "build", "parameters",
             "constants", "progress")


def constants_arg(constants):
    """Constant values for C: "N=3,K=2" from a str or a dict (None stays None)."""
    if constants is None:
        return None
    if isinstance(constants, str):
        return constants.encode("utf-8")
    if isinstance(constants, dict):
        def value(v):
            return ("true" if v else "false") if isinstance(v, bool) else str(v)
        return ",".join(f"{k}={value(v)}" for k, v in constants.items()).encode("utf-8")
    raise TypeError(f"constants must be a str, a dict or None, not {type(constants).__name__}")


class Options(_handle.OwnsHandle):
    """Settings for pmc.load, Model.from_csr and Model.check.

    Every keyword left at None keeps pmc's default:

    - ``solver``: "auto" (default), "cpu", "gpu" or a name from pmc.solvers()
    - ``sound``: True (default): "auto", "cpu" and "gpu" pick sound solvers
      (interval iteration), whose results carry certified bounds
      (Result.sound, Result.bounds, Result.bound_values()); False: they may
      pick faster unsound solvers (PRISM's stopping rule, no error bound).
      A named solver runs either way; its result says whether it is sound.
    - ``exact``: True computes the value as a rational (Result.exact,
      "7/10") with the solver "cpu.exact-pi", from the numbers as the
      model's source defines them; unbounded P=? [F ...], P=? [... U ...]
      and R=?/T=? [F ...] only (other properties raise
      pmc.UnsupportedError). Default False
    - ``epsilon``: convergence threshold in (0, 1), default 1e-6
    - ``relative``: True (default) for precision relative to the value, False for absolute
    - ``max_iterations``: iteration limit of each solve (default 1000000);
      reaching it raises pmc.NotConvergedError
    - ``threads``: CPU threads for the solvers, 0 (default) = every core
    - ``device``: GPU index (default 0); ``gpu_memory_limit``: bytes, 0 = free memory
    - ``memory_limit``: host memory (bytes) loading, building and checking
      may use; 0 (default) = the machine's (physical memory, or the cgroup's
      limit). What would need more raises pmc.OutOfMemoryError (a
      MemoryError) before allocating, saying what it needed
    - ``devices``: GPU indices (distinct) that gpu.jacobi and gpu.vi split the
      rows over; empty (default): automatic, every GPU only when one is too
      small. ``all_devices``: True splits over every usable GPU whatever the
      size (``devices`` still wins)
    - ``parameters``: a dict {name: value}: a parametric CTMC is checked as
      the CTMC at this point (every parameter needs a value within its range,
      else Model.check raises pmc.InvalidArgumentError naming it)
    - ``constants``: values of the constants properties name (``F<=T``,
      ``P>=p``), a str "T=10,p=0.5" or a dict {"T": 10, "p": 0.5}; each is
      typed as written (10 an int, 10.0 a double: a DTMC's or MDP's step
      bound must be an int). A model built from a PRISM-language source
      knows its own constants without this
    - ``strict``: loading/building rejects states without transitions
      instead of adding a self-loop; ``row_sum_tolerance``: in [0, 0.1], default 1e-9
    - ``max_states``: building a PRISM-language source (pmc.build_prism)
      raises pmc.ModelError above this many reachable states; 0 (default) = no limit
    - ``build``: which explorer builds a PRISM-language source: "cpu", "gpu"
      (the first GPU; the same model bit for bit) or "auto" (default: the CPU's,
      handing models of more than 2^21 states to a GPU when there is one)
    - ``progress``: a callable receiving a pmc.Progress at most every 0.2 s
      of a long solve, on the thread running the check (a helper thread
      for checks called from the main thread, see Model.check). It must return
      quickly. If it raises, the check is cancelled (with any other check
      running with these options) and re-raises that exception; the
      cancel flag is cleared again afterwards.

    A bad value raises pmc.InvalidArgumentError with pmc's message.

    Options are immutable once made, so one object may be shared by any
    number of threads and checks. ``cancel()`` and ``reset_cancel()`` may be
    called from any thread at any time. ``close()`` frees the C object
    (once the checks using it have finished); ``with Options(...) as o:``
    does that on exit, and garbage collection does it otherwise.
    """

    def __init__(self, *, solver=None, sound=None, exact=None, epsilon=None, relative=None, max_iterations=None, threads=None,
                 device=None, devices=None, all_devices=None, gpu_memory_limit=None, memory_limit=None, strict=None,
                 row_sum_tolerance=None, max_states=None, build=None, parameters=None, constants=None, progress=None):
        native = lib()
        self._settings = {}
        self._callback = None
        self._callback_errors = threading.local()
        out = ctypes.c_void_p()
        check(native.pmc_options_create(ctypes.byref(out)))
        self._handle = _handle._Handle(out.value, native.pmc_options_free, "options")
        try:
            ptr = out.value
            if solver is not None:
                if not isinstance(solver, str):
                    raise TypeError(f"solver must be a str, not {type(solver).__name__}")
                check(native.pmc_options_set_solver(ptr, solver.encode("utf-8")))
            if sound is not None:
                check(native.pmc_options_set_sound(ptr, 1 if sound else 0))
            if exact is not None:
                check(native.pmc_options_set_exact(ptr, 1 if exact else 0))
            if epsilon is not None:
                check(native.pmc_options_set_epsilon(ptr, _real("epsilon", epsilon)))
            if relative is not None:
                check(native.pmc_options_set_relative(ptr, 1 if relative else 0))
            if max_iterations is not None:
                check(native.pmc_options_set_max_iterations(ptr, _handle.uint64("max_iterations", max_iterations)))
            if threads is not None:
                check(native.pmc_options_set_threads(ptr, _handle.uint64("threads", threads)))
            if device is not None:
                check(native.pmc_options_set_device(ptr, _handle.uint64("device", device)))
            if devices is not None:
                indices = [_handle.uint64("devices", d) for d in devices]
                array = (ctypes.c_uint64 * len(indices))(*indices)
                check(native.pmc_options_set_devices(ptr, array, len(indices)))
            if all_devices is not None:
                check(native.pmc_options_set_all_devices(ptr, 1 if all_devices else 0))
            if parameters is not None:
                if not isinstance(parameters, dict):
                    raise TypeError(f"parameters must be a dict {{name: value}}, not {type(parameters).__name__}")
                for name, value in parameters.items():
                    if not isinstance(name, str):
                        raise TypeError(f"parameter names must be str, not {type(name).__name__}")
                    check(native.pmc_options_set_parameter(ptr, name.encode("utf-8"), _real(name, value)))
            if constants is not None:
                check(native.pmc_options_set_constants(ptr, constants_arg(constants)))
            if gpu_memory_limit is not None:
                check(native.pmc_options_set_gpu_memory_limit(ptr, _handle.uint64("gpu_memory_limit",
                                                                                  gpu_memory_limit)))
            if memory_limit is not None:
                check(native.pmc_options_set_memory_limit(ptr, _handle.uint64("memory_limit", memory_limit)))
            if strict is not None:
                check(native.pmc_options_set_strict(ptr, 1 if strict else 0))
            if row_sum_tolerance is not None:
                check(native.pmc_options_set_row_sum_tolerance(ptr, _real("row_sum_tolerance",
                                                                          row_sum_tolerance)))
            if max_states is not None:
                check(native.pmc_options_set_max_states(ptr, _handle.uint64("max_states", max_states)))
            if build is not None:
                if not isinstance(build, str):
                    raise TypeError(f"build must be a str (\"auto\", \"cpu\" or \"gpu\"), not {type(build).__name__}")
                check(native.pmc_options_set_build(ptr, build.encode()))
            if progress is not None:
                if not callable(progress):
                    raise TypeError("progress must be callable")
                self._callback = _handle_progress_callback(self, progress)
                check(native.pmc_options_set_progress(ptr, self._callback, None))
        except BaseException:
            self._handle.close()
            raise
        for name in _SETTINGS:
            value = locals()[name]
            if value is not None:
                self._settings[name] = value

    @property
    def settings(self):
        """The keywords given at construction (a new dict)."""
        return dict(self._settings)

    def cancel(self):
        """Asks every check running with these options to stop at its next
        iteration (it raises pmc.CancelledError); checks started later with
        them are cancelled at once until reset_cancel(). Thread-safe."""
        with self._handle.borrow() as ptr:
            check(lib().pmc_options_request_cancel(ptr))

    def reset_cancel(self):
        """Clears the cancel flag. Thread-safe."""
        with self._handle.borrow() as ptr:
            check(lib().pmc_options_reset_cancel(ptr))

    def __repr__(self):
        inner = ", ".join(f"{k}={v!r}" for k, v in self._settings.items())
        return f"pmc.Options({inner}){' (closed)' if self.closed else ''}"

    # The progress callback's exception of the check running on this thread.
    def _take_callback_error(self):
        error = getattr(self._callback_errors, "error", None)
        self._callback_errors.error = None
        return error


def _real(name, value):
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not bool")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}") from None


def _handle_progress_callback(options, progress):
    # The C function pointer may only call pmc_options_request_cancel. An
    # exception cannot cross the C frames, so it is parked in a thread-local
    # slot (the callback runs on the checking thread) and re-raised by
    # Model.check once pmc_check has returned.
    handle = options._handle
    native = lib()
    slot = options._callback_errors

    def trampoline(solver, iteration, residual, seconds, _user_data):
        if getattr(slot, "error", None) is not None:
            return  # already cancelling
        try:
            progress(Progress(solver.decode("utf-8", "replace") if solver else "", iteration, residual, seconds))
        except BaseException as e:  # noqa: B036 - KeyboardInterrupt must stop the check too
            slot.error = e
            native.pmc_options_request_cancel(handle._ptr)

    return PROGRESS_FN(trampoline)
