//! Action notation (docs/burako_engine.md §4): `draw`, `take pozo`, `redraw`, `add R5`, `meld`,
//! `cancel`, `discard K13`, `extend 3 B7`.

use crate::error::GameError;
use crate::game::{out_of_range, Action};
use crate::tiles::{parse_tile, tile_text};

use super::M_MAX;

pub const NUM_ACTIONS: Action = 1966;

pub fn action_to_string(a: Action) -> Result<String, GameError> {
    Ok(match a {
        0 => "draw".into(),
        1 => "take pozo".into(),
        2 => "redraw".into(),
        3..=55 => format!("add {}", tile_text((a - 3) as u8)),
        56 => "meld".into(),
        57 => "cancel".into(),
        58..=110 => format!("discard {}", tile_text((a - 58) as u8)),
        111..=1965 => {
            let k = a - 111;
            format!("extend {} {}", k / 53, tile_text((k % 53) as u8))
        }
        _ => return Err(out_of_range(a, NUM_ACTIONS as usize)),
    })
}

fn bad(text: &str, why: &str) -> GameError {
    GameError::InvalidNotation(format!(
        "{text:?} is not a Burako action ({why}): expected draw, take pozo, redraw, add R5, meld, cancel, \
         discard K13 or extend 3 B7"
    ))
}

pub fn string_to_action(text: &str) -> Result<Action, GameError> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let w: Vec<&str> = words.iter().map(|s| s.as_str()).collect();
    let tile = |s: &str| {
        parse_tile(s)
            .map(|t| t as Action)
            .map_err(|e| bad(text, &e))
    };
    match w.as_slice() {
        ["draw"] => Ok(0),
        ["take", "pozo"] => Ok(1),
        ["redraw"] => Ok(2),
        ["add", t] => Ok(3 + tile(t)?),
        ["meld"] => Ok(56),
        ["cancel"] => Ok(57),
        ["discard", t] => Ok(58 + tile(t)?),
        ["extend", m, t] => {
            let slot_ok = !m.is_empty() && m.len() <= 2 && m.bytes().all(|b| b.is_ascii_digit());
            let slot: usize = match m.parse() {
                Ok(x) if slot_ok && x < M_MAX => x,
                _ => {
                    return Err(bad(
                        text,
                        &format!("the meld slot must be 0..{}", M_MAX - 1),
                    ))
                }
            };
            Ok(111 + 53 * slot as Action + tile(t)?)
        }
        _ => Err(bad(text, "unknown form")),
    }
}
