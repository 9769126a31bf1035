//! Python argument checks shared by every game's bindings: each bad input becomes the typed
//! `GameError` the contracts name, never a TypeError.

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyString};

use tapete_core::cards::Card;
use tapete_core::game::Action;
use tapete_core::GameError;

use crate::errors::to_py;

pub type Bad = fn(String) -> GameError;

pub fn repr(v: &Bound<'_, PyAny>) -> String {
    v.repr().map(|r| r.to_string()).unwrap_or_default()
}

/// User text: a `str` that encodes to UTF-8, else the typed error `bad`.
pub fn text_arg<'a>(v: &'a Bound<'_, PyAny>, what: &str, bad: Bad) -> Result<&'a str, GameError> {
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
            repr(v)
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

/// A seat number; anything else is `InvalidPlayer` (the range is checked by the engine).
pub fn player_arg(v: &Bound<'_, PyAny>, n: usize) -> Result<i64, GameError> {
    if let Some(i) = int_like(v) {
        if let Ok(i) = i.extract::<i64>() {
            return Ok(i);
        }
    }
    Err(GameError::InvalidPlayer(format!(
        "{} is not a seat of this game: expected an int in 0..{}",
        repr(v),
        n - 1
    )))
}

/// An action id of `0..num`; non-ints, bools and out-of-range ints are `IllegalAction`.
pub fn action_id(v: &Bound<'_, PyAny>, num: Action) -> Result<Action, GameError> {
    if let Some(v) = int_like(v) {
        if let Ok(i) = v.extract::<i64>() {
            if (0..num as i64).contains(&i) {
                return Ok(i as Action);
            }
        }
        return Err(GameError::IllegalAction(format!(
            "action id {v} is out of range: expected 0..{}",
            num - 1
        )));
    }
    Err(GameError::IllegalAction(format!(
        "{} is not an action: expected an int id 0..{} or notation text",
        repr(v),
        num - 1
    )))
}

/// The items of a list (or any iterable but a str, bytes or dict); anything else is `bad`.
pub fn list_arg<'py>(
    v: &Bound<'py, PyAny>,
    what: &str,
    bad: Bad,
) -> Result<Vec<Bound<'py, PyAny>>, GameError> {
    let not_list = || bad(format!("{what} must be a list"));
    if v.is_instance_of::<PyString>()
        || v.is_instance_of::<PyBytes>()
        || v.is_instance_of::<PyDict>()
    {
        return Err(not_list());
    }
    v.try_iter()
        .and_then(|it| it.collect::<PyResult<Vec<_>>>())
        .map_err(|_| not_list())
}

/// A card of the 52-card space given as text or id; anything else is `bad`. (Games with a
/// partial pack check membership on top of this.)
pub fn card52_arg(v: &Bound<'_, PyAny>, what: &str, bad: Bad) -> Result<Card, GameError> {
    if let Ok(s) = v.cast::<PyString>() {
        let text = s
            .to_str()
            .map_err(|_| bad(format!("{what}: not valid text")))?;
        return Card::parse(text).map_err(|e| bad(format!("{what}: {e}")));
    }
    if v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>() {
        let i: i64 = v.extract().unwrap_or(-1);
        return Card::from_index(i).ok_or_else(|| {
            bad(format!(
                "{what}: card id {v} is out of range: expected 0..51"
            ))
        });
    }
    Err(bad(format!(
        "{what}: {} is not a card: expected text like '7d' or an id 0..51",
        repr(v)
    )))
}

/// A list of 52-space cards (as `list_arg`: a str is not a list, that is `not_list`); a bad
/// card is `bad`.
pub fn cards52_arg(
    v: &Bound<'_, PyAny>,
    what: &str,
    bad: Bad,
    not_list: Bad,
) -> Result<Vec<Card>, GameError> {
    list_arg(v, what, not_list)?
        .iter()
        .map(|x| card52_arg(x, what, bad))
        .collect()
}

/// A count in `0..=max` for batch calls (`games`, `threads`); anything else is `InvalidOptionError`.
pub fn count_arg(v: &Bound<'_, PyAny>, what: &str, max: u64) -> PyResult<usize> {
    let bad = || {
        to_py(GameError::InvalidOption(format!(
            "{what} must be an int in 0..{max}, got {}",
            repr(v)
        )))
    };
    if !v.is_instance_of::<PyInt>() || v.is_instance_of::<PyBool>() {
        return Err(bad());
    }
    match v.extract::<u64>() {
        Ok(x) if x <= max => usize::try_from(x).map_err(|_| bad()),
        _ => Err(bad()),
    }
}
