//! Argument conversions shared by the game bindings: text, seeds, seats. Every bad input becomes
//! the typed error the contract names, never a TypeError.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

use tapete_core::GameError;

use crate::errors::to_py;

pub type Bad = fn(String) -> GameError;

/// User text: a `str` that encodes to UTF-8. Anything else (None, bytes, an int) or a str with
/// lone surrogates is the typed error `bad`, never a TypeError or UnicodeEncodeError.
pub fn text_arg<'a, 'py>(
    v: &'a Bound<'py, PyAny>,
    what: &str,
    bad: Bad,
) -> Result<&'a str, GameError> {
    let s = v.cast::<PyString>().map_err(|_| {
        let ty = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_else(|_| "?".into());
        bad(format!("{what} must be a str, got {ty}"))
    })?;
    s.to_str().map_err(|_| {
        bad(format!(
            "{what} is not valid text (it holds lone surrogates)"
        ))
    })
}

/// Any Python int, reduced mod 2^64 (negative seeds wrap).
pub fn seed_arg(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    if !v.is_instance_of::<PyInt>() || v.is_instance_of::<PyBool>() {
        return Err(to_py(GameError::InvalidState(format!(
            "seed must be an int, got {}",
            v.repr().map(|r| r.to_string()).unwrap_or_default()
        ))));
    }
    v.bitand(u64::MAX)?.extract::<u64>()
}

/// An int, or an integer-like object such as a numpy integer (via `__index__`); bools are not.
pub fn int_like<'py>(v: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if v.is_instance_of::<PyBool>() {
        return None;
    }
    if v.is_instance_of::<PyInt>() {
        return Some(v.clone());
    }
    if v.is_instance_of::<PyString>() || v.is_instance_of::<pyo3::types::PyFloat>() {
        return None;
    }
    let type_name = v
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_default();
    if type_name.starts_with("bool") {
        return None;
    }
    v.call_method0("__index__")
        .ok()
        .filter(|i| i.is_instance_of::<PyInt>())
}

/// A seat number; anything else is `InvalidPlayer`.
pub fn player_arg(v: &Bound<'_, PyAny>, n: usize) -> Result<i64, GameError> {
    if let Some(i) = int_like(v) {
        if let Ok(i) = i.extract::<i64>() {
            return Ok(i);
        }
    }
    Err(GameError::InvalidPlayer(format!(
        "{} is not a seat of this game: expected an int in 0..{}",
        v.repr().map(|r| r.to_string()).unwrap_or_default(),
        n - 1
    )))
}
