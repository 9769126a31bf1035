//! The one place where core errors become the pure-Python classes of `tapete.errors`.
//!
//! Methods return `Result<T, Error>`; `?` takes both a `GameError` and a `PyErr`, and PyO3 turns
//! an `Error` into the Python exception through `From<Error> for PyErr`.

use pyo3::PyErr;
use tapete_core::GameError;

pyo3::import_exception!(tapete.errors, IllegalActionError);
pyo3::import_exception!(tapete.errors, InvalidNotationError);
pyo3::import_exception!(tapete.errors, InvalidOptionError);
pyo3::import_exception!(tapete.errors, InvalidStateError);
pyo3::import_exception!(tapete.errors, InvalidPlayerError);

/// Looks up every exception class above once, at module init: a lookup that failed later (say,
/// interrupted by Ctrl-C) would be a panic instead of the error.
pub fn init(py: pyo3::Python<'_>) -> pyo3::PyResult<()> {
    use pyo3::PyTypeInfo;
    py.import("tapete.errors")?;
    IllegalActionError::type_object(py);
    InvalidNotationError::type_object(py);
    InvalidOptionError::type_object(py);
    InvalidStateError::type_object(py);
    InvalidPlayerError::type_object(py);
    Ok(())
}

pub enum Error {
    Game(GameError),
    Py(PyErr),
}

pub type Result<T> = std::result::Result<T, Error>;

impl From<GameError> for Error {
    fn from(e: GameError) -> Error {
        Error::Game(e)
    }
}

impl From<PyErr> for Error {
    fn from(e: PyErr) -> Error {
        Error::Py(e)
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        match e {
            Error::Py(e) => e,
            Error::Game(GameError::IllegalAction(m)) => IllegalActionError::new_err(m),
            Error::Game(GameError::InvalidNotation(m)) => InvalidNotationError::new_err(m),
            Error::Game(GameError::InvalidOption(m)) => InvalidOptionError::new_err(m),
            Error::Game(GameError::InvalidState(m)) => InvalidStateError::new_err(m),
            Error::Game(GameError::InvalidPlayer(m)) => InvalidPlayerError::new_err(m),
        }
    }
}

fn in_use() -> Error {
    Error::Game(GameError::InvalidState(
        "this state is in use by another call (a state is not shared between threads)".into(),
    ))
}

impl From<pyo3::pycell::PyBorrowError> for Error {
    fn from(_: pyo3::pycell::PyBorrowError) -> Error {
        in_use()
    }
}

impl From<pyo3::pycell::PyBorrowMutError> for Error {
    fn from(_: pyo3::pycell::PyBorrowMutError) -> Error {
        in_use()
    }
}
