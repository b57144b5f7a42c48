"""pmc.Result: the outcome of one check (pmc_result)."""

import ctypes

from . import _handle
from .errors import Status, check, lib

# pmc.h's pmc_phase: the keys of Result.timings and their values.
PHASES = ("load", "gpu_startup", "precompute", "build", "transfer", "solve", "other", "total")


class Result(_handle.OwnsHandle):
    """The value of a property in every state, and how it was computed.

    Scalar attributes are read when the result is made and stay available
    after close():

    - ``value``: the value in the (first) initial state; 1.0/0.0 for a
      boolean property; ``math.inf`` for an infinite expected reward
    - ``initial_min``, ``initial_max``, ``num_initial``: over all initial states
    - ``is_boolean``: the property is a bound or state formula (values are 1 or 0)
    - ``iterations``: of all numerical solves, summed
    - ``converged``: False when a solve reached its iteration limit (only
      seen through pmc.NotConvergedError.result)
    - ``solver``: the solvers used, joined by '+' ("none": graph algorithms sufficed)
    - ``seconds``: wall-clock time of the whole check
    - ``timings``: a dict of the check's seconds by phase, keys ``load``
      (0: Model.check does not load the model), ``gpu_startup`` (waiting
      for the CUDA context), ``precompute`` (graph algorithms), ``build``
      (equation systems, iteration matrices), ``transfer`` (host <-> device
      copies), ``solve`` (the solvers' iteration loops), ``other`` and
      ``total`` (the sum of the others; ``seconds`` plus ``load``)
    - ``exact``: with Options(exact=True), the value in the first initial
      state as a rational str in lowest terms ("7/10", "3"; "Infinity" for
      an infinite reward; fractions.Fraction reads it); None otherwise
    - ``sound``: True when the result is certified: in every state the
      exact value lies within the bounds (up to floating-point rounding).
      Unbounded properties are certified by sound solvers (interval
      iteration, the default), bounded and CTMC time-bounded ones by
      construction, steady-state and long-run values by exact or bounded
      bottom-SCC solves; results of unsound solvers (e.g.
      "cpu.gauss-seidel" on a linear system) are not. A sound result
      that did not converge has valid but wider bounds.
    - ``bounds``: certified (lower, upper) in the first initial state
      (``value`` is their midpoint for unbounded properties), or None when
      the result is not ``sound``
    - ``property``: the property text checked

    ``values``, ``scheduler``, ``bound_values()`` and their NumPy forms read from the C result,
    so they need it open. A result does not depend on its model: closing
    the model first is fine. Results are read-only and may be shared between
    threads. ``close()`` frees the C result (idempotent); ``with`` and
    garbage collection do that too.
    """

    def __init__(self, ptr, property):
        native = lib()
        self._handle = _handle._Handle(ptr, native.pmc_result_free, "result")
        self.property = property
        try:
            d = ctypes.c_double()
            d2 = ctypes.c_double()
            n = ctypes.c_uint64()
            i = ctypes.c_int()
            check(native.pmc_result_initial_value(ptr, ctypes.byref(d)))
            self.value = d.value
            check(native.pmc_result_initial_range(ptr, ctypes.byref(d), ctypes.byref(d2), ctypes.byref(n)))
            self.initial_min, self.initial_max, self.num_initial = d.value, d2.value, n.value
            check(native.pmc_result_is_boolean(ptr, ctypes.byref(i)))
            self.is_boolean = bool(i.value)
            check(native.pmc_result_iterations(ptr, ctypes.byref(n)))
            self.iterations = n.value
            check(native.pmc_result_converged(ptr, ctypes.byref(i)))
            self.converged = bool(i.value)
            s = ctypes.c_char_p()
            check(native.pmc_result_solver(ptr, ctypes.byref(s)))
            self.solver = s.value.decode("utf-8", "replace")
            check(native.pmc_result_seconds(ptr, ctypes.byref(d)))
            self.seconds = d.value
            self.timings = {}
            for phase, name in enumerate(PHASES):  # PMC_PHASE_LOAD = 0 ... PMC_PHASE_TOTAL = 7
                check(native.pmc_result_phase_seconds(ptr, phase, ctypes.byref(d)))
                self.timings[name] = d.value
            self.exact = None
            if native.pmc_result_exact(ptr, ctypes.byref(s)) == Status.OK:
                self.exact = s.value.decode("utf-8")
            check(native.pmc_result_sound(ptr, ctypes.byref(i)))
            self.sound = bool(i.value)
            self.bounds = None
            if self.sound:
                check(native.pmc_result_bounds(ptr, ctypes.byref(d), ctypes.byref(d2)))
                self.bounds = (d.value, d2.value)
        except BaseException:
            self._handle.close()
            raise

    @property
    def values(self):
        """The value in every state, as a new list of floats."""
        return self._values(False)

    def values_array(self):
        """The value in every state as a NumPy float64 array (ImportError without NumPy)."""
        return self._values(True)

    def _values(self, as_numpy):
        numpy_dtype = _handle.import_numpy().float64 if as_numpy else None
        native = lib()
        with self._handle.borrow() as ptr:
            n = ctypes.c_uint64()
            check(native.pmc_result_values(ptr, None, 0, ctypes.byref(n)))

            def fill(buffer, capacity):
                check(native.pmc_result_values(ptr, buffer, capacity, ctypes.byref(n)))

            return _handle.read_array(fill, "d", ctypes.c_double, n.value, as_numpy, numpy_dtype)

    def value_of(self, model, state):
        """The value in the state whose bytes are `state` (bytes, or a
        sequence of ints) of `model`, the model checked, built by
        pmc.Generator.explore(): ``self.values[model.find_state(state)]``.
        Reads every value: for many states, read ``values`` once and index
        it with Model.find_state()."""
        index = model.find_state(state)
        return self.values[index]

    def bound_values(self):
        """Certified bounds in every state, as two new lists of floats
        ``(lower, upper)``. Raises pmc.UnsupportedError when the result is
        not ``sound``."""
        return self._bound_values(False)

    def bound_values_array(self):
        """bound_values() as two NumPy float64 arrays (ImportError without NumPy)."""
        return self._bound_values(True)

    def _bound_values(self, as_numpy):
        numpy_dtype = _handle.import_numpy().float64 if as_numpy else None
        native = lib()
        with self._handle.borrow() as ptr:
            n = ctypes.c_uint64()
            check(native.pmc_result_bound_values(ptr, None, None, 0, ctypes.byref(n)))

            def fill(lower, upper, capacity):
                check(native.pmc_result_bound_values(ptr, lower, upper, capacity, ctypes.byref(n)))

            return _handle.read_arrays(fill, 2, "d", ctypes.c_double, n.value, as_numpy, numpy_dtype)

    @property
    def has_scheduler(self):
        """True when the property has an optimal scheduler (MDP Pmin/Pmax over F
        and U, Rmin/Rmax over F)."""
        native = lib()
        with self._handle.borrow() as ptr:
            n = ctypes.c_uint64()
            status = native.pmc_result_scheduler(ptr, None, 0, ctypes.byref(n))
            if status == Status.UNSUPPORTED:
                return False
            check(status)
            return True

    @property
    def scheduler(self):
        """An optimal memoryless deterministic scheduler, as a new list: per
        state the index of the optimal choice among the state's choices
        (0-based, in file order), or -1 where every choice is optimal.
        Raises pmc.UnsupportedError when the property has none (see
        has_scheduler)."""
        return self._scheduler(False)

    def scheduler_array(self):
        """The scheduler as a NumPy int64 array (ImportError without NumPy)."""
        return self._scheduler(True)

    def _scheduler(self, as_numpy):
        numpy_dtype = _handle.import_numpy().int64 if as_numpy else None
        native = lib()
        with self._handle.borrow() as ptr:
            n = ctypes.c_uint64()
            check(native.pmc_result_scheduler(ptr, None, 0, ctypes.byref(n)))

            def fill(buffer, capacity):
                check(native.pmc_result_scheduler(ptr, buffer, capacity, ctypes.byref(n)))

            return _handle.read_array(fill, "q", ctypes.c_int64, n.value, as_numpy, numpy_dtype)

    def __float__(self):
        return self.value

    def __repr__(self):
        return (f"pmc.Result(property={self.property!r}, value={self.value!r}, solver={self.solver!r}, "
                f"iterations={self.iterations}, seconds={self.seconds:.3g}{', closed' if self.closed else ''})")
