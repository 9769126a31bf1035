//! Action notation (docs/escoba_engine.md §4): `7d`, `take 5d`, `done`, `take pile 2`,
//! `build on 3h`, `claim 7d`, `trust`, `doubt`, `knock`, `no knock`; and full moves
//! `Qh x Ah 3s 5d`.

use crate::cards::Card;
use crate::error::GameError;
use crate::game::{out_of_range, Action};

pub const NUM_ACTIONS: u32 = 219;
pub const TAKE: u32 = 52;
pub const DONE: u32 = 104;
pub const TAKE_PILE: u32 = 105;
pub const BUILD_ON: u32 = 111;
pub const CLAIM: u32 = 163;
pub const TRUST: u32 = 215;
pub const DOUBT: u32 = 216;
pub const KNOCK: u32 = 217;
pub const NO_KNOCK: u32 = 218;

/// Text of an action id; ids outside 0..219 are `IllegalAction`.
pub fn action_to_string(a: Action) -> Result<String, GameError> {
    Ok(match a {
        0..=51 => Card(a as u8).to_string(),
        52..=103 => format!("take {}", Card((a - TAKE) as u8)),
        DONE => "done".into(),
        105..=110 => format!("take pile {}", a - TAKE_PILE),
        111..=162 => format!("build on {}", Card((a - BUILD_ON) as u8)),
        163..=214 => format!("claim {}", Card((a - CLAIM) as u8)),
        TRUST => "trust".into(),
        DOUBT => "doubt".into(),
        KNOCK => "knock".into(),
        NO_KNOCK => "no knock".into(),
        _ => return Err(out_of_range(a, NUM_ACTIONS as usize)),
    })
}

/// Action id of a notation text (case-insensitive, any whitespace between words).
pub fn string_to_action(text: &str) -> Result<Action, GameError> {
    let bad = || {
        GameError::InvalidNotation(format!(
            "{text:?} is not an action: expected a card ('7d'), 'take 5d', 'done', 'take pile 2', \
             'build on 3h', 'claim 7d', 'trust', 'doubt', 'knock' or 'no knock'"
        ))
    };
    let lower = text.to_ascii_lowercase();
    let w: Vec<&str> = lower.split_whitespace().collect();
    let card = |s: &str| Card::parse(s).map(|c| c.0 as u32).map_err(|_| bad());
    match w.as_slice() {
        [c] if !["done", "trust", "doubt", "knock"].contains(c) => card(c),
        ["done"] => Ok(DONE),
        ["trust"] => Ok(TRUST),
        ["doubt"] => Ok(DOUBT),
        ["knock"] => Ok(KNOCK),
        ["no", "knock"] => Ok(NO_KNOCK),
        ["take", "pile", n] => match n.parse::<u32>() {
            Ok(k) if k < 6 && n.bytes().all(|b| b.is_ascii_digit()) => Ok(TAKE_PILE + k),
            _ => Err(bad()),
        },
        ["take", c] => Ok(TAKE + card(c)?),
        ["build", "on", c] => Ok(BUILD_ON + card(c)?),
        ["claim", c] => Ok(CLAIM + card(c)?),
        _ => Err(bad()),
    }
}

/// A parsed full move: the played card, the written capture (empty = bare card) and the item
/// of a build move (`2d on 3h`).
pub type ParsedMove = (Card, Vec<Card>, Option<Card>);

pub fn parse_move(text: &str) -> Result<ParsedMove, GameError> {
    let bad = || {
        GameError::InvalidNotation(format!(
            "{text:?} is not a move: expected a card ('Kc'), a capture ('Qh x Ah 3s 5d', '6d x pile1') or a build ('2d on 3h')"
        ))
    };
    let w: Vec<&str> = text.split_whitespace().collect();
    let Some((first, rest)) = w.split_first() else {
        return Err(bad());
    };
    let played = Card::parse(first).map_err(|_| bad())?;
    if rest.is_empty() {
        return Ok((played, Vec::new(), None));
    }
    if rest[0].eq_ignore_ascii_case("on") {
        return match rest {
            [_, t] => Ok((played, Vec::new(), Some(Card::parse(t).map_err(|_| bad())?))),
            _ => Err(bad()),
        };
    }
    if !rest[0].eq_ignore_ascii_case("x") || rest.len() < 2 {
        return Err(bad());
    }
    // `pile2` names a pile (docs/rules/escoba.md §6.2) as the capture item `PILE_BIT + 2`
    let item = |s: &str| -> Result<Card, GameError> {
        let l = s.to_ascii_lowercase();
        match l.strip_prefix("pile") {
            Some(d) if d.len() == 1 && (b'0'..b'6').contains(&d.as_bytes()[0]) => {
                Ok(Card(super::piles::PILE_BIT + d.as_bytes()[0] - b'0'))
            }
            _ => Card::parse(s).map_err(|_| bad()),
        }
    };
    let taken = rest[1..]
        .iter()
        .map(|s| item(s))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((played, taken, None))
}
