//! The one place where core errors become the pure-Python classes of `tapete.errors`.

use pyo3::PyErr;
use tapete_core::GameError;

pyo3::import_exception!(tapete.errors, IllegalActionError);
pyo3::import_exception!(tapete.errors, InvalidNotationError);
pyo3::import_exception!(tapete.errors, InvalidOptionError);
pyo3::import_exception!(tapete.errors, InvalidStateError);
pyo3::import_exception!(tapete.errors, InvalidPlayerError);

pub fn to_py(e: GameError) -> PyErr {
    match e {
        GameError::IllegalAction(m) => IllegalActionError::new_err(m),
        GameError::InvalidNotation(m) => InvalidNotationError::new_err(m),
        GameError::InvalidOption(m) => InvalidOptionError::new_err(m),
        GameError::InvalidState(m) => InvalidStateError::new_err(m),
        GameError::InvalidPlayer(m) => InvalidPlayerError::new_err(m),
    }
}
