"""Owning wrappers of C handles, and conversions of Python sequences to C arrays.

A _Handle frees its C object exactly once. Because ctypes releases the GIL
during every C call, another Python thread may call close() while a call on
the same handle is still running; freeing then would be a use after free.
So each C call *borrows* the handle (a use count under a lock), and close()
only marks the handle closed when it is borrowed: the last borrower frees
it. Calls that need exclusive access in C (pmc_model_add_label...) hold the
lock for their duration and refuse to run while the handle is borrowed.
"""

import array
import contextlib
import ctypes
import operator
import threading

from .errors import ClosedError, Error, Status, invalid_argument

_U64_MAX = (1 << 64) - 1


class _Handle:
    __slots__ = ("_ptr", "_free", "_what", "_lock", "_users", "_closed")

    def __init__(self, ptr, free, what):
        self._ptr = ptr
        self._free = free
        self._what = what
        self._lock = threading.Lock()
        self._users = 0
        self._closed = False

    @property
    def closed(self):
        return self._closed

    def acquire(self):
        """Borrows the pointer; pair with release()."""
        with self._lock:
            if self._closed:
                raise ClosedError(f"the {self._what} is closed")
            self._users += 1
            return self._ptr

    def release(self):
        with self._lock:
            self._users -= 1
            if not (self._closed and self._users == 0 and self._ptr is not None):
                return
            ptr, self._ptr = self._ptr, None
        self._free(ptr)

    @contextlib.contextmanager
    def borrow(self):
        ptr = self.acquire()
        try:
            yield ptr
        finally:
            self.release()

    @contextlib.contextmanager
    def exclusive(self):
        with self._lock:
            if self._closed:
                raise ClosedError(f"the {self._what} is closed")
            if self._users:
                raise Error(f"the {self._what} is in use by another thread; changing it needs exclusive access",
                            Status.INVALID_ARGUMENT)
            yield self._ptr

    def close(self):
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._users:
                return  # the last borrower frees it
            ptr, self._ptr = self._ptr, None
        if ptr is not None:
            self._free(ptr)


def uint64(name, value):
    """`value` as an int in [0, 2^64) (ctypes would silently wrap a negative one)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None
    if not 0 <= value <= _U64_MAX:
        raise invalid_argument(f"{name} {value} is out of range [0, 2^64)")
    return value


def state_arg(name, value):
    """A state of a model generator as bytes: a bytes object as it is, else
    any bytes-like object or sequence of ints in [0, 255] (b"\\x01\\x02",
    bytearray, memoryview, [1, 2], (s, d)); not a str or an int."""
    if type(value) is bytes:
        return value
    if isinstance(value, (str, int)):
        # bytes(3) would be three zero bytes: almost never what was meant.
        raise TypeError(f"{name} must be bytes or a sequence of ints in [0, 255], not {type(value).__name__}")
    try:
        return bytes(value)
    except TypeError as e:
        raise TypeError(f"{name} must be bytes or a sequence of ints in [0, 255]: {e}") from None
    except ValueError as e:
        raise invalid_argument(f"{name}: {e}") from None


class OwnsHandle:
    """Lifetime of an object that owns a _Handle in self._handle: close()
    (idempotent), closed, a context manager, and freeing when collected."""

    def close(self):
        """Frees the C object (idempotent); values already read stay valid."""
        handle = getattr(self, "_handle", None)
        if handle is not None:
            handle.close()

    @property
    def closed(self):
        return self._handle.closed

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass


_BUFFER_FORMATS = {"Q": ("Q", "L"), "d": ("d",)}


class CArray:
    """A contiguous C copy of a Python sequence, NumPy array or buffer.

    ``ptr`` is what to pass to C, ``len(self)`` the number of elements, and
    indexing reads the copy. Keep the object alive for the C call.
    """

    __slots__ = ("_storage", "_buffer", "ptr")

    def __init__(self, values, typecode, ctype, name):
        if isinstance(values, (str, bytes, bytearray)):
            raise TypeError(f"{name} must be a sequence of numbers, not {type(values).__name__}")
        try:
            view = memoryview(values)
        except TypeError:
            view = None
        if view is not None and view.ndim == 1 and view.c_contiguous and view.itemsize == ctypes.sizeof(ctype) \
                and view.format.lstrip("@=<") in _BUFFER_FORMATS[typecode]:
            storage = array.array(typecode, view.tobytes())  # NumPy arrays of the exact type: a memcpy
        else:
            try:
                storage = array.array(typecode, values)
            except OverflowError:
                raise invalid_argument(f"{name}: a value is out of range for {ctype.__name__}") from None
            except TypeError as e:
                raise TypeError(f"{name}: {e}") from None
        self._storage = storage
        # A zero-length ctypes array cannot be made from a buffer; C never reads it anyway.
        self._buffer = (ctype * len(storage)).from_buffer(storage) if storage else (ctype * 1)()
        self.ptr = ctypes.cast(self._buffer, ctypes.POINTER(ctype))

    def __len__(self):
        return len(self._storage)

    def __getitem__(self, index):
        return self._storage[index]


def u64_array(name, values):
    return CArray(values, "Q", ctypes.c_uint64, name)


def f64_array(name, values):
    return CArray(values, "d", ctypes.c_double, name)


def read_array(fill, typecode, ctype, count, as_numpy, numpy_dtype):
    """Calls fill(pointer, capacity) to copy `count` elements, into a list or a NumPy array."""
    (out,) = read_arrays(fill, 1, typecode, ctype, count, as_numpy, numpy_dtype)
    return out


def read_arrays(fill, number, typecode, ctype, count, as_numpy, numpy_dtype):
    """Calls fill(pointer_1, ..., pointer_number, capacity) to copy `count` elements into
    each of `number` arrays at once (pmc_result_bound_values fills two); a tuple of
    lists or NumPy arrays."""
    if as_numpy:
        numpy = import_numpy()
        outs = tuple(numpy.empty(count, dtype=numpy_dtype) for _ in range(number))
    else:
        outs = tuple(array.array(typecode, [0]) * count for _ in range(number))
    if count:
        fill(*(ctypes.cast((ctype * count).from_buffer(out), ctypes.POINTER(ctype)) for out in outs), count)
    return outs if as_numpy else tuple(out.tolist() for out in outs)


def import_numpy():
    try:
        import numpy
    except ImportError as e:
        raise ImportError("this needs NumPy, which is not installed; use the list form (e.g. result.values) "
                          "or install numpy") from e
    return numpy
