use std::fmt;
use std::sync::Arc;

use pmc_sys as sys;

/// What kind of failure a [`Error`] is: one per `pmc_status` of pmc.h.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[allow(missing_docs)] // one per PMC_ERROR_* constant; pmc.h says what each means
pub enum ErrorKind {
    InvalidArgument,
    Io,
    Parse,
    Model,
    Property,
    Unsupported,
    OutOfMemory,
    NoDevice,
    Device,
    NotConverged,
    Cancelled,
    Internal,
    /// A status this version of the bindings does not know.
    Other(i32),
}

impl ErrorKind {
    fn from_status(status: sys::pmc_status) -> ErrorKind {
        match status {
            sys::PMC_ERROR_INVALID_ARGUMENT => ErrorKind::InvalidArgument,
            sys::PMC_ERROR_IO => ErrorKind::Io,
            sys::PMC_ERROR_PARSE => ErrorKind::Parse,
            sys::PMC_ERROR_MODEL => ErrorKind::Model,
            sys::PMC_ERROR_PROPERTY => ErrorKind::Property,
            sys::PMC_ERROR_UNSUPPORTED => ErrorKind::Unsupported,
            sys::PMC_ERROR_OUT_OF_MEMORY => ErrorKind::OutOfMemory,
            sys::PMC_ERROR_NO_DEVICE => ErrorKind::NoDevice,
            sys::PMC_ERROR_DEVICE => ErrorKind::Device,
            sys::PMC_ERROR_NOT_CONVERGED => ErrorKind::NotConverged,
            sys::PMC_ERROR_CANCELLED => ErrorKind::Cancelled,
            sys::PMC_ERROR_INTERNAL => ErrorKind::Internal,
            other => ErrorKind::Other(other),
        }
    }
}

/// A failed pmc call: its status and pmc's message (what went wrong and
/// where: file, line, column, state).
///
/// An exploration stopped by the error of a generator's expand closure
/// ([`Generator::explore`](crate::Generator::explore)) has that error as its
/// [`source`](std::error::Error::source); two errors are equal when their
/// kind, status and message are (whatever their sources).
#[derive(Debug, Clone)]
pub struct Error {
    kind: ErrorKind,
    status: i32,
    // pmc_status_string(status), read when the error is made: Display must
    // not call into pmc (it may run inside a progress callback).
    name: &'static str,
    message: String,
    source: Option<Arc<dyn std::error::Error + Send + Sync>>,
}

impl PartialEq for Error {
    fn eq(&self, other: &Error) -> bool {
        (self.kind, self.status, &self.message) == (other.kind, other.status, &other.message)
    }
}

impl Eq for Error {}

impl Error {
    fn new(status: sys::pmc_status, message: String) -> Error {
        // Static storage (pmc.h).
        let name = unsafe { crate::static_str(ffi!(sys::pmc_status_string(status))) };
        Error { kind: ErrorKind::from_status(status), status, name, message, source: None }
    }

    /// Reads pmc_last_error() for `status`; must run on the thread that made
    /// the failing call, right after it (the message is per thread).
    pub(crate) fn from_last(status: sys::pmc_status) -> Error {
        // Valid until the next failing call on this thread: copied at once.
        let message = unsafe { crate::copy_str(ffi!(sys::pmc_last_error())) };
        Error::new(status, message)
    }

    /// An error raised by these bindings before calling pmc (e.g. a string
    /// with a NUL byte, or arrays of inconsistent lengths).
    pub(crate) fn invalid_argument(message: impl Into<String>) -> Error {
        Error::new(sys::PMC_ERROR_INVALID_ARGUMENT, message.into())
    }

    /// The error that caused this one (an expand closure's).
    pub(crate) fn with_source(mut self, source: Option<Box<dyn std::error::Error + Send + Sync>>) -> Error {
        self.source = source.map(Arc::from);
        self
    }

    /// What kind of failure this is.
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The raw `pmc_status` value.
    pub fn status(&self) -> i32 {
        self.status
    }

    /// pmc's message, e.g. `model.tra:17: column index 7 out of range (model has 3 states)`.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.name, self.message)
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.source.as_deref().map(|source| source as &(dyn std::error::Error + 'static))
    }
}

/// `Result` with [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

/// Turns a status into `Ok(())` or the error with the calling thread's message.
pub(crate) fn check(status: sys::pmc_status) -> Result<()> {
    if status == sys::PMC_OK {
        Ok(())
    } else {
        Err(Error::from_last(status))
    }
}
