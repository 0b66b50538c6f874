//! Rust failures as Python exceptions with places.
//!
//! The classes live in `kifu/errors.py` (plain Python, several bases
//! each: `kifu.ParseError` is also a `ValueError`, `kifu.ReadError` an
//! `OSError`); this module builds them with their attributes.

use kifu::io::input::OpenError;
use kifu::record::source::ReadError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// What went wrong, held without the GIL and raised with it.
#[derive(Debug)]
pub enum Failure {
    /// A bad argument: which one, and why.
    Usage { argument: String, message: String },
    /// An input could not be opened.
    Open(OpenError),
    /// An input stopped being readable.
    Read { path: String, error: ReadError },
    /// A board operation the rules refuse.
    Illegal { message: String },
    /// Anything else (an output buffer, a worker pool).
    Other(String),
}

impl Failure {
    /// A usage error of `argument`.
    pub fn usage(argument: &str, message: impl Into<String>) -> Failure {
        Failure::Usage {
            argument: argument.to_owned(),
            message: message.into(),
        }
    }

    /// The Python exception.
    pub fn into_py(self, py: Python<'_>) -> PyErr {
        match make(py, self) {
            Ok(err) => err,
            Err(err) => err,
        }
    }
}

fn make(py: Python<'_>, failure: Failure) -> PyResult<PyErr> {
    let errors = py.import("kifu.errors")?;
    let kwargs = PyDict::new(py);
    let (class, message) = match failure {
        Failure::Usage { argument, message } => {
            kwargs.set_item("argument", &argument)?;
            ("UsageError", format!("{argument}: {message}"))
        }
        Failure::Open(err) => {
            kwargs.set_item("path", err.name())?;
            ("ReadError", err.to_string())
        }
        Failure::Read { path, error } => {
            kwargs.set_item("path", &path)?;
            match error {
                ReadError::Io(e) => ("ReadError", format!("{path}: {e}")),
                ReadError::Syntax(e) => {
                    let span = e.span;
                    if span.line > 0 {
                        kwargs.set_item("line", span.line)?;
                        kwargs.set_item("column", span.column)?;
                    }
                    kwargs.set_item("byte", span.byte)?;
                    kwargs.set_item("reason", &e.message)?;
                    ("ParseError", format!("{path}: {e}"))
                }
            }
        }
        Failure::Illegal { message } => ("IllegalMoveError", message),
        Failure::Other(message) => ("KifuError", message),
    };
    let class = errors.getattr(class)?;
    let value = class.call((message,), Some(&kwargs))?;
    Ok(PyErr::from_value(value))
}

impl From<kifu::jobs::JobError> for Failure {
    fn from(e: kifu::jobs::JobError) -> Failure {
        match e {
            kifu::jobs::JobError::Open(error) => Failure::Open(error),
            kifu::jobs::JobError::Input { path, error } => {
                crate::inputs::batch_failure(&path, error)
            }
        }
    }
}

/// A result whose failure becomes a Python exception.
pub trait OrRaise<T> {
    /// The value, or the exception.
    fn or_raise(self, py: Python<'_>) -> PyResult<T>;
}

impl<T> OrRaise<T> for Result<T, Failure> {
    fn or_raise(self, py: Python<'_>) -> PyResult<T> {
        self.map_err(|f| f.into_py(py))
    }
}
