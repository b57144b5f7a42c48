"""pmc.Generator: a model described by a Python callable that expands one
state at a time, explored by pmc (pmc_generator, pmc_model_explore).

    def expand(state, e):                 # state: bytes; e: pmc.Expansion
        x = state[0]
        if 0 < x < 10:
            e.choice("bet")
            e.transition(0.4, [x + 1])
            e.transition(0.6, [x - 1])
            e.state_reward("rounds", 1)
        else:
            e.transition(1, state)
            e.label("done")

    generator = pmc.Generator("dtmc", 1, expand, initial_states=[[5]], labels=["done"], rewards=["rounds"])
    with generator.explore() as model:
        print(model.check('P=? [ F "done" ]').value)
"""

import builtins
import contextlib
import ctypes
import enum
import threading

from . import _handle
from ._native import EXPAND_FN
from .errors import ClosedError, Status, check, error_for, invalid_argument, last_error_message, lib
from .model import Model, _TYPE_TO_KIND, _model_type, _text
from .options import Options


class StateOrder(str, enum.Enum):
    """pmc_state_order: how an explored model's states are numbered; compares
    equal to its name ("bytes", "bfs")."""

    #: Ascending by bytes (a shorter state before the longer ones it begins):
    #: PRISM's order when each byte (or big-endian group of bytes) is a
    #: variable's value minus its lower bound, in declaration order. The default.
    BYTES = "bytes"
    #: Breadth-first from the initial states, in the order the callback gives
    #: the successors (whatever the threads).
    BFS = "bfs"

    def __str__(self):
        return self.value


_ORDER_VALUES = {StateOrder.BYTES: 0, StateOrder.BFS: 1}

# The status the trampoline returns when the callable raised or called
# Expansion.fail(): pmc_model_explore then reports PMC_ERROR_MODEL.
_FAILED = -1

# Set while this thread runs an expand callable: explore() may not be called then.
_in_callback = threading.local()


def _state_order(value):
    try:
        return StateOrder(value.lower() if isinstance(value, str) else value)
    except ValueError:
        raise invalid_argument(f"unknown state order {value!r} (use \"bytes\" or \"bfs\")") from None


def _number(name, value):
    if type(value) is float or type(value) is int:
        return value
    if isinstance(value, bool):
        raise TypeError(f"{name} must be a number, not bool")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be a number, not {type(value).__name__}") from None


def _index(what, value, names, declare):
    """A label's or reward structure's index from its index or its name."""
    if isinstance(value, str):
        try:
            return names[value]
        except KeyError:
            raise invalid_argument(f"unknown {what} {value!r}: declare it with Generator.{declare}() "
                                   "before exploring") from None
    return _handle.uint64(what, value)


class Expansion:
    """What an expand callable writes one state's choices, transitions, labels
    and rewards into (pmc_expansion). Valid only during that call: a method
    called later raises pmc.ClosedError.

    Labels and reward structures are named by the index Generator.add_label()
    / add_rewards() returned, or by their name. A bad argument (a target
    longer than the generator's states, a negative or non-finite value, an
    unknown label...) raises pmc.InvalidArgumentError at once; the
    exploration fails with it.
    """

    __slots__ = ("_ptr", "_labels", "_rewards", "_failure")

    def __init__(self, ptr, labels, rewards):
        self._ptr = ptr
        self._labels = labels
        self._rewards = rewards
        self._failure = None

    def _call(self, function, *args):
        ptr = self._ptr
        if ptr is None:
            raise ClosedError("the expansion is only valid during the expand call it was given to")
        status = function(ptr, *args)
        if status != Status.OK:
            raise error_for(status)

    def choice(self, action=None):
        """Starts a new choice of the state, named `action` (None or "" for
        none). Transitions added before any choice start one without an
        action, so a DTMC or CTMC needs no call to this (but a DTMC's action
        names are kept, as a PRISM-language source's are); an MDP's choices
        are its rows, in the order given."""
        self._call(lib().pmc_expansion_add_choice, None if action is None else _text("action", action))

    def transition(self, value, target):
        """Adds a transition of the current choice to the state `target`
        (bytes, or a sequence of ints in [0, 255]) with probability (DTMC,
        MDP) or rate (CTMC) `value`. A choice's probabilities must sum to 1
        (within the row-sum tolerance); a value of 0 is dropped; transitions
        of one choice to one target are added up."""
        target = _handle.state_arg("target", target)
        self._call(lib().pmc_expansion_add_transition, _number("value", value), target, len(target))

    def transition_reward(self, rewards, value):
        """Reward structure `rewards` (index or name) earns `value` when the
        last transition added is taken."""
        self._call(lib().pmc_expansion_set_transition_reward,
                   _index("reward structure", rewards, self._rewards, "add_rewards"), _number("value", value))

    def choice_reward(self, rewards, value):
        """Reward structure `rewards` earns `value` whenever the current choice
        is taken (PRISM's ``[a] guard : value``)."""
        self._call(lib().pmc_expansion_set_choice_reward,
                   _index("reward structure", rewards, self._rewards, "add_rewards"), _number("value", value))

    def label(self, label):
        """The state satisfies label `label` (index or name)."""
        self._call(lib().pmc_expansion_set_label, _index("label", label, self._labels, "add_label"))

    def state_reward(self, rewards, value):
        """Reward structure `rewards` earns `value` in this state (per time
        unit in a CTMC)."""
        self._call(lib().pmc_expansion_set_state_reward,
                   _index("reward structure", rewards, self._rewards, "add_rewards"), _number("value", value))

    def fail(self, message):
        """Fails the exploration once the callable returns: explore() then
        raises pmc.ModelError with `message` and the state's bytes. (Raising
        an exception instead stops it too, and explore() re-raises that.)"""
        self._call(lib().pmc_expansion_fail, _text("message", message))
        self._failure = message


class _Callback:
    """The expand callable, the names of the labels and reward structures, and
    the first exception the callable raised during the current exploration.
    The ctypes trampoline holds this, not the Generator (no reference cycle)."""

    def __init__(self, expand):
        self.expand = expand
        self.labels = {}
        self.rewards = {}
        self.lock = threading.Lock()
        self.error = None

    def record(self, error):
        with self.lock:
            if self.error is None:
                self.error = error

    def take_error(self):
        with self.lock:
            error, self.error = self.error, None
        return error


def _trampoline(callback):
    native = lib()

    def expand_state(state, size, expansion, _user_data):
        # Runs on a pmc thread holding the GIL (ctypes takes it). Nothing may
        # escape: ctypes would print an exception and return 0 to pmc.
        view = None
        try:
            _in_callback.active = True
            view = Expansion(expansion, callback.labels, callback.rewards)
            callback.expand(ctypes.string_at(state, size) if size else b"", view)
            return _FAILED if view._failure is not None else 0
        except BaseException as error:  # noqa: B036 - KeyboardInterrupt must stop the exploration too
            callback.record(error)
            try:
                text = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
                native.pmc_expansion_fail(expansion, text.encode("utf-8", "replace"))
            except BaseException:  # noqa: B036 - the status returned still stops it
                pass
            return _FAILED
        finally:
            _in_callback.active = False
            if view is not None:
                view._ptr = None

    return EXPAND_FN(expand_state)


class Generator(_handle.OwnsHandle):
    """A model described by a callable, explored by pmc into a pmc.Model.

    ``pmc.Generator(type, max_state_size, expand, *, fixed_size=False,
    thread_safe=False, order="bytes", initial_states=(), labels=(),
    rewards=())``:

    - `type`: "dtmc", "ctmc" or "mdp" (or a pmc.ModelType)
    - `max_state_size`: the most bytes a state has (1 to 4096); with
      `fixed_size` every state has exactly that many
    - `expand(state, expansion)`: called once per reachable state with the
      state's bytes and a pmc.Expansion to write its choices, transitions
      (with their targets' bytes), labels and rewards into; its return value
      is ignored. An exception it raises stops the exploration, and
      explore() re-raises that exception (a note names the state, on
      Python 3.11+); Expansion.fail(message) stops it with pmc.ModelError
      instead
    - `thread_safe`: pmc may call `expand` from several threads at once
      (Options threads=...). The calls still take turns on the GIL, but
      pmc's hashing, storing and building run in parallel beside them
    - `order`: "bytes" (default: states numbered by ascending bytes, PRISM's
      order when each byte is a variable's value minus its lower bound, in
      declaration order) or "bfs" (breadth-first from the initial states), or a
      pmc.StateOrder
    - `initial_states`, `labels`, `rewards`: as add_initial_state(),
      add_label() and add_rewards() for each item

    States are byte strings (bytes, or sequences of ints in [0, 255] such as
    ``[s, d]``); two states are the same when their bytes are. The model
    built keeps each state's bytes: Model.state_bytes(i), Model.find_state(b)
    and Result.value_of(model, b) map results back to states.

    The model is built as pmc.build_prism builds a PRISM-language source's:
    labels "init" and "deadlock" first, then the generator's in the order
    added; a state without transitions gets a self-loop and a warning (an
    error with strict=True).

    Threads: add_* need exclusive access (they raise pmc.Error while an
    exploration runs); explorations of one Generator take turns (make one
    Generator per thread to explore at once). ctypes releases the GIL
    during pmc_model_explore, so other Python threads run meanwhile. A
    KeyboardInterrupt raised in `expand` (Ctrl-C while it runs on the main
    thread) stops the exploration and is re-raised. ``close()``, ``with``
    and garbage collection free the C generator.
    """

    def __init__(self, type, max_state_size, expand, *, fixed_size=False, thread_safe=False, order="bytes",
                 initial_states=(), labels=(), rewards=()):
        if not callable(expand):
            raise TypeError(f"expand must be callable, not {builtins.type(expand).__name__}")
        kind = _TYPE_TO_KIND[_model_type(type)]
        size = _handle.uint64("max_state_size", max_state_size)
        state_order = _state_order(order)
        native = lib()
        self._callback = _Callback(expand)
        self._function = _trampoline(self._callback)  # alive as long as the C generator
        self._explore_lock = threading.Lock()
        out = ctypes.c_void_p()
        check(native.pmc_generator_create(kind, size, self._function, None, ctypes.byref(out)))
        self._handle = _handle._Handle(out.value, native.pmc_generator_free, "generator")
        try:
            ptr = out.value
            check(native.pmc_generator_set_fixed_size(ptr, 1 if fixed_size else 0))
            check(native.pmc_generator_set_thread_safe(ptr, 1 if thread_safe else 0))
            check(native.pmc_generator_set_order(ptr, _ORDER_VALUES[state_order]))
            for state in initial_states:
                self.add_initial_state(state)
            for name in labels:
                self.add_label(name)
            for name in rewards:
                self.add_rewards(name)
        except BaseException:
            self._handle.close()
            raise
        self.type = _model_type(type)
        self.max_state_size = size
        self.fixed_size = bool(fixed_size)
        self.thread_safe = bool(thread_safe)
        self.order = state_order

    def add_initial_state(self, state):
        """Adds an initial state (bytes, or a sequence of ints). At least one
        is needed; adding one twice is allowed (it is one state)."""
        state = _handle.state_arg("state", state)
        with self._handle.exclusive() as ptr:
            check(lib().pmc_generator_add_initial_state(ptr, state, len(state)))

    def add_label(self, name):
        """Declares a label and returns its index (0, 1, 2... in the order
        added) for Expansion.label(), which also takes the name. Raises
        pmc.InvalidArgumentError for a name declared already, "init",
        "deadlock" or one a properties file could not write."""
        index = ctypes.c_uint64()
        encoded = _text("name", name)
        with self._handle.exclusive() as ptr:
            check(lib().pmc_generator_add_label(ptr, encoded, ctypes.byref(index)))
            self._callback.labels[name] = index.value
        return index.value

    def add_rewards(self, name=""):
        """Declares a reward structure ("" for PRISM's unnamed one) and returns
        its index for the Expansion's reward methods, which also take the
        name."""
        index = ctypes.c_uint64()
        encoded = _text("name", name)
        with self._handle.exclusive() as ptr:
            check(lib().pmc_generator_add_rewards(ptr, encoded, ctypes.byref(index)))
            self._callback.rewards[name] = index.value
        return index.value

    @property
    def labels(self):
        """The labels declared, in order (a new list)."""
        return sorted(self._callback.labels, key=self._callback.labels.get)

    @property
    def rewards(self):
        """The reward structures declared, in order (a new list)."""
        return sorted(self._callback.rewards, key=self._callback.rewards.get)

    def explore(self, options=None, **settings):
        """Explores the states reachable from the initial states and returns
        the pmc.Model.

        Pass either `options` (a pmc.Options) or its keywords; those used
        here are ``threads`` (for a thread-safe generator; 0: every core),
        ``strict`` (a state without transitions is an error),
        ``row_sum_tolerance``, ``max_states`` and ``memory_limit``;
        Options.cancel() from another thread stops the exploration with
        pmc.CancelledError.

        Raises what `expand` raised (the same exception object), pmc.ModelError
        (probabilities not summing to 1, a target of the wrong size, a
        choice without transitions, Expansion.fail(), more than max_states
        states...), pmc.InvalidArgumentError (no initial state),
        pmc.OutOfMemoryError; pmc's messages name the state by its bytes.
        """
        if options is not None and settings:
            raise TypeError("pass either options or option keywords, not both")
        if options is not None and not isinstance(options, Options):
            raise TypeError(f"options must be a pmc.Options, not {builtins.type(options).__name__}")
        if getattr(_in_callback, "active", False):
            raise invalid_argument("explore() cannot be called from an expand callable")
        own = Options(**settings) if settings else None
        if own is not None:
            options = own
        try:
            with self._explore_lock, self._handle.borrow() as ptr, \
                    (options._handle.borrow() if options is not None else contextlib.nullcontext()) as optr:
                return self._explore(ptr, optr)
        finally:
            if own is not None:
                own.close()

    def _explore(self, ptr, optr):
        native = lib()
        out = ctypes.c_void_p()
        self._callback.take_error()
        status = native.pmc_model_explore(ptr, optr, ctypes.byref(out))
        error = self._callback.take_error()
        if status == Status.OK:
            return Model._adopt(out.value)
        message = last_error_message()
        if error is None:
            raise error_for(status, message)
        # The callable's own exception, with its own traceback; pmc's
        # message (which names the state) as a note.
        if message and hasattr(error, "add_note"):
            error.add_note(message)
        try:
            raise error
        finally:
            error = None  # no cycle through this frame

    def __repr__(self):
        if self.closed:
            return "pmc.Generator(closed)"
        return (f"pmc.Generator(type={self.type.value!r}, max_state_size={self.max_state_size}, "
                f"fixed_size={self.fixed_size}, thread_safe={self.thread_safe}, order={self.order.value!r}, "
                f"labels={self.labels}, rewards={self.rewards})")

