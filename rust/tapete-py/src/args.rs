//! Python arguments read once for every game: each bad input becomes the typed `GameError` the
//! contracts name, never a TypeError. Structured inputs (options, setup specs, decks, rule
//! primitives' arguments) arrive as JSON text and are read by the core's JSON layer.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyInt, PyString};

use tapete_core::game::Action;
use tapete_core::json::excerpt;
use tapete_core::GameError;

/// A short `repr` of a Python value for messages.
pub fn repr(v: &Bound<'_, PyAny>) -> String {
    v.repr()
        .map(|r| excerpt(&r.to_string()))
        .unwrap_or_default()
}

/// User text: a `str` that encodes to UTF-8, else the typed error `bad`.
pub fn text_arg<'a>(
    v: &'a Bound<'_, PyAny>,
    what: &str,
    bad: fn(String) -> GameError,
) -> Result<&'a str, GameError> {
    let s = v.cast::<PyString>().map_err(|_| {
        let ty = v
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        bad(format!("{what} must be a str, got {ty}"))
    })?;
    s.to_str().map_err(|_| {
        bad(format!(
            "{what} is not valid text (it holds lone surrogates)"
        ))
    })
}

/// An int, or an integer-like object such as a numpy integer (via `__index__`); bools are not.
pub fn int_like<'py>(v: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if v.is_instance_of::<PyBool>() {
        return None;
    }
    if v.is_instance_of::<PyInt>() {
        return Some(v.clone());
    }
    if v.is_instance_of::<PyString>() || v.is_instance_of::<PyFloat>() {
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

/// A seed: an int in `0..2**64` (`InvalidStateError` otherwise).
pub fn seed_arg(v: &Bound<'_, PyAny>) -> Result<u64, GameError> {
    int_like(v)
        .and_then(|i| i.extract::<u64>().ok())
        .ok_or_else(|| {
            GameError::InvalidState(format!(
                "seed {} is not valid: expected an int in 0..2**64-1",
                repr(v)
            ))
        })
}

/// A seat number as an int; anything else is `InvalidPlayer` (the range is checked by the game).
pub fn player_arg(v: &Bound<'_, PyAny>, n: usize) -> Result<i64, GameError> {
    int_like(v)
        .and_then(|i| i.extract::<i64>().ok())
        .ok_or_else(|| {
            GameError::InvalidPlayer(format!(
                "{} is not a seat of this game: expected an int in 0..{}",
                repr(v),
                n.saturating_sub(1)
            ))
        })
}

/// An action id of `0..num`; non-ints, bools and out-of-range ints are `IllegalAction`.
pub fn action_id(v: &Bound<'_, PyAny>, num: Action) -> Result<Action, GameError> {
    if let Some(i) = int_like(v) {
        if let Ok(i) = i.extract::<i64>() {
            if (0..num as i64).contains(&i) {
                return Ok(i as Action);
            }
        }
        return Err(GameError::IllegalAction(format!(
            "action id {} is out of range: expected 0..{}",
            repr(&i),
            num - 1
        )));
    }
    Err(GameError::IllegalAction(format!(
        "{} is not an action: expected an int id 0..{} or notation text",
        repr(v),
        num - 1
    )))
}

/// A count in `0..=max` for batch calls (`games`, `threads`); anything else is `InvalidOption`.
pub fn count_arg(v: &Bound<'_, PyAny>, what: &str, max: u64) -> Result<usize, GameError> {
    int_like(v)
        .and_then(|i| i.extract::<u64>().ok())
        .filter(|&x| x <= max)
        .and_then(|x| usize::try_from(x).ok())
        .ok_or_else(|| {
            GameError::InvalidOption(format!(
                "{what} must be an int in 0..{max}, got {}",
                repr(v)
            ))
        })
}
