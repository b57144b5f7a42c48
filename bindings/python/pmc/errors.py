"""pmc's exceptions: one class per pmc_status, all derived from pmc.Error.

Where a status has an obvious Python counterpart the class derives from it
too, so generic handlers work: ``except OSError`` catches a file that cannot
be read (FileError), ``except ValueError`` a malformed file, model, property
or option value, ``except MemoryError`` PMC_ERROR_OUT_OF_MEMORY.
"""

import enum

from . import _native


class Status(enum.IntEnum):
    """pmc_status of pmc.h."""

    OK = 0
    INVALID_ARGUMENT = 1
    IO = 2
    PARSE = 3
    MODEL = 4
    PROPERTY = 5
    UNSUPPORTED = 6
    OUT_OF_MEMORY = 7
    NO_DEVICE = 8
    DEVICE = 9
    NOT_CONVERGED = 10
    CANCELLED = 11
    INTERNAL = 12


class Error(Exception):
    """Base of every pmc error.

    ``status`` is the pmc.Status the C call returned (None for a problem
    found before any call, such as a missing libpmc); ``message`` is
    pmc_last_error()'s text (file, line, column... of what went wrong) and
    is also ``str(error)``.
    """

    def __init__(self, message, status=None):
        super().__init__(message)
        self.message = message
        self.status = Status(status) if status is not None else None

    def __reduce__(self):
        # Keeps the status across pickling (multiprocessing); OSError's own
        # __reduce__ would pass the message alone.
        return (_rebuild, (type(self), self.message, self.status))


class InvalidArgumentError(Error, ValueError):
    """PMC_ERROR_INVALID_ARGUMENT: a bad option value, unknown label, format or solver name..."""


class ClosedError(InvalidArgumentError):
    """A model, result or options object was used after close()."""

    def __init__(self, message):
        super().__init__(message, Status.INVALID_ARGUMENT)


class FileError(Error, OSError):
    """PMC_ERROR_IO: a file cannot be opened, read or written."""


class ParseError(Error, ValueError):
    """PMC_ERROR_PARSE: a malformed model file."""


class ModelError(Error, ValueError):
    """PMC_ERROR_MODEL: the data do not form a valid model (row sums, indices...)."""


class PropertyError(Error, ValueError):
    """PMC_ERROR_PROPERTY: a malformed property, or one unfit for the model."""


class UnsupportedError(Error):
    """PMC_ERROR_UNSUPPORTED: valid, but not supported by pmc."""


class OutOfMemoryError(Error, MemoryError):
    """PMC_ERROR_OUT_OF_MEMORY."""


class NoDeviceError(Error):
    """PMC_ERROR_NO_DEVICE: no usable GPU, or libpmc built without CUDA."""


class DeviceError(Error):
    """PMC_ERROR_DEVICE: a GPU operation failed."""


class NotConvergedError(Error):
    """PMC_ERROR_NOT_CONVERGED: a solve reached its iteration limit.

    ``result`` holds the unconverged pmc.Result (values, iterations...), or
    None; it is freed with the exception, or by ``error.result.close()``.
    """

    def __init__(self, message, status=Status.NOT_CONVERGED, result=None):
        super().__init__(message, status)
        self.result = result


class CancelledError(Error):
    """PMC_ERROR_CANCELLED: the check was cancelled (Options.cancel())."""


class InternalError(Error):
    """PMC_ERROR_INTERNAL: a bug in pmc; please report it with the message."""


class LibraryError(Error, ImportError):
    """libpmc cannot be found or loaded, or is too old (status None)."""


def _rebuild(cls, message, status):
    error = cls.__new__(cls, message)
    Error.__init__(error, message, status)
    return error


_BY_STATUS = {
    Status.INVALID_ARGUMENT: InvalidArgumentError,
    Status.IO: FileError,
    Status.PARSE: ParseError,
    Status.MODEL: ModelError,
    Status.PROPERTY: PropertyError,
    Status.UNSUPPORTED: UnsupportedError,
    Status.OUT_OF_MEMORY: OutOfMemoryError,
    Status.NO_DEVICE: NoDeviceError,
    Status.DEVICE: DeviceError,
    Status.NOT_CONVERGED: NotConvergedError,
    Status.CANCELLED: CancelledError,
    Status.INTERNAL: InternalError,
}


def lib():
    """libpmc, turning a discovery failure into pmc.LibraryError."""
    try:
        return _native.lib()
    except _native.LibraryNotFound as e:
        raise LibraryError(str(e)) from None


def last_error_message():
    """pmc_last_error() of the calling thread, as text."""
    return lib().pmc_last_error().decode("utf-8", "replace")


def error_for(status, message=None):
    """The exception for a failed call's status; reads pmc_last_error() of
    the calling thread unless `message` is given, so call it right after the
    failed C call, on the same thread."""
    if message is None:
        message = last_error_message()
    try:
        status = Status(status)
    except ValueError:
        return Error(f"{message} (unknown pmc status {status})", None)
    if not message:
        message = lib().pmc_status_string(status).decode("utf-8", "replace")
    return _BY_STATUS.get(status, Error)(message, status)


def check(status):
    """Raises the matching pmc.Error unless `status` is PMC_OK."""
    if status != 0:
        raise error_for(status)


def invalid_argument(message):
    """An InvalidArgumentError found by the bindings before calling pmc."""
    return InvalidArgumentError(message, Status.INVALID_ARGUMENT)
