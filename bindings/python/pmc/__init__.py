"""Python bindings of pmc, probabilistic model checking on CPUs and NVIDIA GPUs.

    import pmc
    with pmc.load("consensus.tra") as model:          # .lab/.srew/.trew found by stem
        result = model.check('Pmax=? [ F "finished" & !"agree" ]', epsilon=1e-8)
        print(result.value, result.solver, result.iterations)
        choices = result.scheduler                     # MDPs: optimal choice per state

A model may also be described by a Python callable that expands one state
(its bytes) at a time; pmc explores it (see pmc.Generator):

    def expand(state, e):
        e.transition(0.5, [min(state[0] + 1, 3)])
        e.transition(0.5, state)
    model = pmc.Generator("dtmc", 1, expand, initial_states=[[0]]).explore()
    model.find_state([3]), model.state_bytes(0)       # state index <-> bytes

Only the standard library (ctypes) is needed; libpmc.so is found through
PMC_LIBRARY (its path), PMC_LIB_DIR (its directory), pkg-config or the
dynamic loader (see pmc._native). Values come back as lists; with NumPy
installed, Result.values_array() and Result.scheduler_array() give arrays.

Errors raise pmc.Error subclasses carrying pmc's status and message; see
pmc.errors.

Thread safety follows pmc.h: models are immutable and may be queried,
saved and checked by many threads at once (the GIL is released during pmc
calls); add_label/add_rewards need exclusive access; Options are immutable
once made and cancel()/reset_cancel() work from any thread; results are
read-only; pmc.version(), pmc.solvers() and pmc.devices() are thread-safe.
Generator.explore() releases the GIL too: a thread-safe generator's expand
callable is called from several pmc threads, taking turns on the GIL.
Error messages are read on the thread that made the failing call, since
pmc_last_error() is per thread. close() is safe at any time: a handle still
in use by a running call is freed when that call returns.
"""

import collections
import ctypes

from . import _native, errors
from .errors import (CancelledError, ClosedError, DeviceError, Error, FileError, InternalError,
                     InvalidArgumentError, LibraryError, ModelError, NoDeviceError, NotConvergedError,
                     OutOfMemoryError, ParseError, PropertyError, Status, UnsupportedError, check, lib)
from .generator import Expansion, Generator, StateOrder
from .model import Model, ModelType, build_prism, load
from .options import Options, Progress
from .properties import Properties
from .result import Result

__version__ = "1.0.0"

__all__ = [
    "load", "build_prism", "Model", "ModelType", "Generator", "Expansion", "StateOrder", "Options", "Progress",
    "Properties", "Result", "Device",
    "version", "version_number", "solvers", "devices", "library_path",
    "Status", "Error", "ClosedError", "InvalidArgumentError", "FileError", "ParseError", "ModelError",
    "PropertyError", "UnsupportedError", "OutOfMemoryError", "NoDeviceError", "DeviceError",
    "NotConvergedError", "CancelledError", "InternalError", "LibraryError",
]

#: A CUDA device as pmc sees it; memory in bytes, measured when listed.
Device = collections.namedtuple("Device", "index name free_memory total_memory compute_capability")


def version():
    """"major.minor.patch" of the libpmc actually loaded."""
    return lib().pmc_version().decode("ascii")


def version_number():
    """The loaded libpmc's version as MAJOR * 10000 + MINOR * 100 + PATCH."""
    return lib().pmc_version_number()


def library_path():
    """Where libpmc was loaded from (a path, or a name the loader resolved)."""
    lib()
    return _native.library_path()


def solvers():
    """Names of the registered solvers, e.g. ["cpu.jacobi", ..., "gpu.vi"]. Thread-safe."""
    native = lib()
    n = ctypes.c_uint64()
    check(native.pmc_solver_count(ctypes.byref(n)))
    names = []
    s = ctypes.c_char_p()
    for index in range(n.value):
        check(native.pmc_solver_name(index, ctypes.byref(s)))
        names.append(s.value.decode("utf-8"))
    return names


def devices():
    """The usable CUDA devices, as a list of pmc.Device; an empty list when
    there is none, whose ``reason`` attribute then gives pmc's explanation
    (built without CUDA, no driver, no GPU). Thread-safe."""
    native = lib()
    n = ctypes.c_uint64()
    status = native.pmc_device_count(ctypes.byref(n))
    if status == Status.NO_DEVICE:
        return _NoDevices(errors.last_error_message())
    check(status)
    out = _NoDevices("")
    s = ctypes.c_char_p()
    free, total = ctypes.c_uint64(), ctypes.c_uint64()
    major, minor = ctypes.c_int(), ctypes.c_int()
    for index in range(n.value):
        check(native.pmc_device_name(index, ctypes.byref(s)))
        check(native.pmc_device_memory(index, ctypes.byref(free), ctypes.byref(total)))
        check(native.pmc_device_compute_capability(index, ctypes.byref(major), ctypes.byref(minor)))
        out.append(Device(index, s.value.decode("utf-8", "replace"), free.value, total.value,
                          (major.value, minor.value)))
    return out


class _NoDevices(list):
    """A list of devices with the reason why it is empty (or "")."""

    def __init__(self, reason):
        super().__init__()
        self.reason = reason
