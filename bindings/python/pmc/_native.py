"""Finding libpmc and declaring the C functions of pmc.h for ctypes.

Discovery order (the first rule that applies decides; an explicit setting
that does not work is an error, never silently skipped):

1. ``PMC_LIBRARY``: the full path of the shared library (``libpmc.so``).
2. ``PMC_LIB_DIR``: a directory holding it (``libpmc.so``, ``libpmc.so.1``,
   ``libpmc.dylib`` or ``pmc.dll``).
3. ``pkg-config --variable=libdir pmc`` (an installed pmc), when pkg-config
   is on ``PATH`` and knows pmc.
4. ``ctypes.util.find_library('pmc')``, then the dynamic loader's own
   search (``LD_LIBRARY_PATH``, the ld.so cache).

The library is loaded on first use, not at ``import pmc``.
"""

import ctypes
import ctypes.util
import os
import shutil
import subprocess
import sys
import threading
from ctypes import POINTER, c_char_p, c_double, c_int, c_int64, c_uint64, c_void_p

# pmc.h's enums are C ints.
c_status = c_int
c_model_kind = c_int
c_phase = c_int
c_state_order = c_int

#: typedef void (*pmc_progress_fn)(const char* solver, uint64_t iteration,
#:                                double residual, double seconds, void* user_data);
PROGRESS_FN = ctypes.CFUNCTYPE(None, c_char_p, c_uint64, c_double, c_double, c_void_p)

#: typedef int (*pmc_expand_fn)(const void* state, uint64_t size, pmc_expansion* expansion,
#:                             void* user_data);
EXPAND_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_uint64, c_void_p, c_void_p)

_handle_p = c_void_p
_out_handle = POINTER(c_void_p)
_out_u64 = POINTER(c_uint64)
_out_f64 = POINTER(c_double)
_out_int = POINTER(c_int)
_out_str = POINTER(c_char_p)
_u64_array = POINTER(c_uint64)
_f64_array = POINTER(c_double)

# Every function of pmc.h: name -> (restype, argtypes). Keep in the header's order.
_PROTOTYPES = {
    # Status, version, errors
    "pmc_version": (c_char_p, []),
    "pmc_version_number": (c_int, []),
    "pmc_status_string": (c_char_p, [c_status]),
    "pmc_last_error": (c_char_p, []),
    "pmc_set_caller_language": (c_status, [c_char_p]),
    # Options
    "pmc_options_create": (c_status, [_out_handle]),
    "pmc_options_free": (None, [_handle_p]),
    "pmc_options_set_strict": (c_status, [_handle_p, c_int]),
    "pmc_options_set_row_sum_tolerance": (c_status, [_handle_p, c_double]),
    "pmc_options_set_solver": (c_status, [_handle_p, c_char_p]),
    "pmc_options_set_build": (c_status, [_handle_p, c_char_p]),
    "pmc_options_set_epsilon": (c_status, [_handle_p, c_double]),
    "pmc_options_set_relative": (c_status, [_handle_p, c_int]),
    "pmc_options_set_sound": (c_status, [_handle_p, c_int]),
    "pmc_options_set_exact": (c_status, [_handle_p, c_int]),
    "pmc_options_set_max_iterations": (c_status, [_handle_p, c_uint64]),
    "pmc_options_set_threads": (c_status, [_handle_p, c_uint64]),
    "pmc_options_set_max_states": (c_status, [_handle_p, c_uint64]),
    "pmc_options_set_device": (c_status, [_handle_p, c_uint64]),
    "pmc_options_set_gpu_memory_limit": (c_status, [_handle_p, c_uint64]),
    "pmc_options_set_memory_limit": (c_status, [_handle_p, c_uint64]),
    "pmc_options_set_devices": (c_status, [_handle_p, ctypes.POINTER(c_uint64), c_uint64]),
    "pmc_options_set_all_devices": (c_status, [_handle_p, c_int]),
    "pmc_options_set_parameter": (c_status, [_handle_p, c_char_p, c_double]),
    "pmc_options_clear_parameters": (c_status, [_handle_p]),
    "pmc_options_set_constants": (c_status, [_handle_p, c_char_p]),
    "pmc_options_request_cancel": (c_status, [_handle_p]),
    "pmc_options_reset_cancel": (c_status, [_handle_p]),
    "pmc_options_set_progress": (c_status, [_handle_p, PROGRESS_FN, c_void_p]),
    # Models
    "pmc_model_load": (c_status, [c_char_p, c_char_p, _out_handle]),
    "pmc_model_load_files": (c_status, [POINTER(c_char_p), c_uint64, c_char_p, _handle_p, _out_handle]),
    "pmc_model_build_prism": (c_status, [c_char_p, c_char_p, _handle_p, _out_handle]),
    "pmc_model_build_csr": (
        c_status,
        [c_model_kind, c_uint64, c_uint64, _u64_array, _u64_array, _u64_array, _f64_array, _handle_p, _out_handle],
    ),
    "pmc_model_build_parametric_csr": (
        c_status,
        [c_uint64, _u64_array, _u64_array, _f64_array, c_uint64, POINTER(c_char_p), _f64_array, _f64_array,
         _f64_array, _handle_p, _out_handle],
    ),
    "pmc_model_add_label": (c_status, [_handle_p, c_char_p, _u64_array, c_uint64]),
    "pmc_model_add_rewards": (c_status, [_handle_p, c_char_p, _f64_array, _f64_array, _f64_array]),
    "pmc_model_save": (c_status, [_handle_p, c_char_p, c_char_p]),
    "pmc_model_free": (None, [_handle_p]),
    "pmc_model_release_device": (c_status, [_handle_p]),
    "pmc_model_type": (c_status, [_handle_p, POINTER(c_model_kind)]),
    "pmc_model_num_states": (c_status, [_handle_p, _out_u64]),
    "pmc_model_num_choices": (c_status, [_handle_p, _out_u64]),
    "pmc_model_num_transitions": (c_status, [_handle_p, _out_u64]),
    "pmc_model_num_labels": (c_status, [_handle_p, _out_u64]),
    "pmc_model_label_name": (c_status, [_handle_p, c_uint64, _out_str]),
    "pmc_model_label_states": (c_status, [_handle_p, c_char_p, _u64_array, c_uint64, _out_u64]),
    "pmc_model_num_rewards": (c_status, [_handle_p, _out_u64]),
    "pmc_model_reward_name": (c_status, [_handle_p, c_uint64, _out_str]),
    "pmc_model_num_parameters": (c_status, [_handle_p, _out_u64]),
    "pmc_model_parameter_name": (c_status, [_handle_p, c_uint64, _out_str]),
    "pmc_model_num_warnings": (c_status, [_handle_p, _out_u64]),
    "pmc_model_warning": (c_status, [_handle_p, c_uint64, _out_str]),
    # Model generators (states are byte strings: c_void_p takes a bytes object)
    "pmc_generator_create": (c_status, [c_model_kind, c_uint64, EXPAND_FN, c_void_p, _out_handle]),
    "pmc_generator_free": (None, [_handle_p]),
    "pmc_generator_set_fixed_size": (c_status, [_handle_p, c_int]),
    "pmc_generator_set_thread_safe": (c_status, [_handle_p, c_int]),
    "pmc_generator_set_order": (c_status, [_handle_p, c_state_order]),
    "pmc_generator_add_initial_state": (c_status, [_handle_p, c_void_p, c_uint64]),
    "pmc_generator_add_label": (c_status, [_handle_p, c_char_p, _out_u64]),
    "pmc_generator_add_rewards": (c_status, [_handle_p, c_char_p, _out_u64]),
    "pmc_expansion_add_choice": (c_status, [_handle_p, c_char_p]),
    "pmc_expansion_add_transition": (c_status, [_handle_p, c_double, c_void_p, c_uint64]),
    "pmc_expansion_set_transition_reward": (c_status, [_handle_p, c_uint64, c_double]),
    "pmc_expansion_set_choice_reward": (c_status, [_handle_p, c_uint64, c_double]),
    "pmc_expansion_set_label": (c_status, [_handle_p, c_uint64]),
    "pmc_expansion_set_state_reward": (c_status, [_handle_p, c_uint64, c_double]),
    "pmc_expansion_fail": (c_status, [_handle_p, c_char_p]),
    "pmc_model_explore": (c_status, [_handle_p, _handle_p, _out_handle]),
    "pmc_model_state_bytes": (c_status, [_handle_p, c_uint64, c_void_p, c_uint64, _out_u64]),
    "pmc_model_find_state": (c_status, [_handle_p, c_void_p, c_uint64, _out_u64]),
    # Model checking
    "pmc_check": (c_status, [_handle_p, c_char_p, _handle_p, _out_handle]),
    "pmc_result_free": (None, [_handle_p]),
    "pmc_result_initial_value": (c_status, [_handle_p, _out_f64]),
    "pmc_result_initial_range": (c_status, [_handle_p, _out_f64, _out_f64, _out_u64]),
    "pmc_result_values": (c_status, [_handle_p, _f64_array, c_uint64, _out_u64]),
    "pmc_result_is_boolean": (c_status, [_handle_p, _out_int]),
    "pmc_result_iterations": (c_status, [_handle_p, _out_u64]),
    "pmc_result_converged": (c_status, [_handle_p, _out_int]),
    "pmc_result_solver": (c_status, [_handle_p, _out_str]),
    "pmc_result_scheduler": (c_status, [_handle_p, POINTER(c_int64), c_uint64, _out_u64]),
    "pmc_result_sound": (c_status, [_handle_p, _out_int]),
    "pmc_result_exact": (c_status, [_handle_p, _out_str]),
    "pmc_result_bounds": (c_status, [_handle_p, _out_f64, _out_f64]),
    "pmc_result_bound_values": (c_status, [_handle_p, _f64_array, _f64_array, c_uint64, _out_u64]),
    "pmc_result_seconds": (c_status, [_handle_p, _out_f64]),
    "pmc_result_phase_seconds": (c_status, [_handle_p, c_phase, _out_f64]),
    "pmc_solver_count": (c_status, [_out_u64]),
    # Properties files
    "pmc_properties_read": (c_status, [c_char_p, c_char_p, _out_handle]),
    "pmc_properties_parse": (c_status, [c_char_p, c_char_p, c_char_p, _out_handle]),
    "pmc_properties_free": (None, [_handle_p]),
    "pmc_properties_count": (c_status, [_handle_p, _out_u64]),
    "pmc_properties_name": (c_status, [_handle_p, c_uint64, _out_str]),
    "pmc_properties_text": (c_status, [_handle_p, c_uint64, _out_str]),
    "pmc_properties_line": (c_status, [_handle_p, c_uint64, _out_u64]),
    "pmc_solver_name": (c_status, [c_uint64, _out_str]),
    # GPU devices
    "pmc_device_count": (c_status, [_out_u64]),
    "pmc_device_name": (c_status, [c_uint64, _out_str]),
    "pmc_device_memory": (c_status, [c_uint64, _out_u64, _out_u64]),
    "pmc_device_compute_capability": (c_status, [c_uint64, _out_int, _out_int]),
}

# The ABI this binding was written against: pmc.h's PMC_VERSION_NUMBER
# (MAJOR * 10000 + MINOR * 100 + PATCH). A library of the same major number
# keeps every function and value of it (pmc.h: "How this interface grows"),
# and a later minor may add some, so the loaded library's
# pmc_version_number() must have this major and be at least this number.
ABI_VERSION_NUMBER = 10000
ABI_MAJOR = ABI_VERSION_NUMBER // 10000


class LibraryNotFound(ImportError):
    """Raised (as pmc.LibraryError) when libpmc cannot be found or loaded."""


def _library_file_names():
    if sys.platform == "darwin":
        return ["libpmc.dylib", f"libpmc.{ABI_MAJOR}.dylib"]
    if sys.platform == "win32":
        return ["pmc.dll", "libpmc.dll"]
    return ["libpmc.so", f"libpmc.so.{ABI_MAJOR}"]


def _in_directory(directory, origin):
    for name in _library_file_names():
        candidate = os.path.join(directory, name)
        if os.path.exists(candidate):
            return candidate
    raise LibraryNotFound(
        f"{origin}: no {' or '.join(_library_file_names())} in {directory!r}")


def _pkg_config_libdir():
    pkg_config = shutil.which("pkg-config")
    if pkg_config is None:
        return None
    try:
        done = subprocess.run([pkg_config, "--variable=libdir", "pmc"], capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    libdir = done.stdout.strip()
    return libdir if done.returncode == 0 and libdir else None


def _open(path):
    try:
        return ctypes.CDLL(path)
    except OSError as e:
        raise LibraryNotFound(f"cannot load libpmc from {path!r}: {e}") from e


def _locate_and_open():
    """Returns (CDLL, the path or name it was loaded from)."""
    explicit = os.environ.get("PMC_LIBRARY")
    if explicit:
        return _open(explicit), explicit
    lib_dir = os.environ.get("PMC_LIB_DIR")
    if lib_dir:
        path = _in_directory(lib_dir, "PMC_LIB_DIR")
        return _open(path), path
    tried = []
    libdir = _pkg_config_libdir()
    if libdir:
        try:
            path = _in_directory(libdir, "pkg-config --variable=libdir pmc")
            return _open(path), path
        except LibraryNotFound as e:
            tried.append(str(e))
    else:
        tried.append("pkg-config does not know pmc")
    names = []
    found = ctypes.util.find_library("pmc")
    if found:
        names.append(found)
    else:
        tried.append("ctypes.util.find_library('pmc') found nothing")
    names += _library_file_names()
    for name in names:
        try:
            return ctypes.CDLL(name), name
        except OSError as e:
            tried.append(f"{name}: {e}")
    raise LibraryNotFound(
        "libpmc not found; set PMC_LIBRARY to the path of libpmc.so (or PMC_LIB_DIR to its directory). Tried: "
        + "; ".join(tried))


def _declare(lib, path):
    for name, (restype, argtypes) in _PROTOTYPES.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise LibraryNotFound(
                f"{path} lacks {name}: it is an older libpmc than these bindings need "
                f"({_version_text(ABI_VERSION_NUMBER)})") from None
        function.restype = restype
        function.argtypes = argtypes
    number = lib.pmc_version_number()
    if number // 10000 != ABI_MAJOR or number < ABI_VERSION_NUMBER:
        raise LibraryNotFound(
            f"{path} is libpmc {_version_text(number)}, but these bindings need {ABI_MAJOR}.x.x from "
            f"{_version_text(ABI_VERSION_NUMBER)} on")


def _version_text(number):
    """"major.minor.patch" of a PMC_VERSION_NUMBER."""
    return f"{number // 10000}.{number // 100 % 100}.{number % 100}"


_lock = threading.Lock()
_lib = None
_lib_path = None


def lib():
    """The loaded libpmc (ctypes.CDLL) with every prototype declared."""
    global _lib, _lib_path
    if _lib is not None:
        return _lib
    with _lock:
        if _lib is None:
            loaded, path = _locate_and_open()
            _declare(loaded, path)
            # Messages then name settings as Python callers give them
            # (max_states=, constants=...), not as the C ABI does.
            loaded.pmc_set_caller_language(b"python")
            _lib_path = path
            _lib = loaded
    return _lib


def library_path():
    """The path (or loader name) libpmc was loaded from; loads it if needed."""
    lib()
    return _lib_path
