//! Action notation (docs/musta_maija_engine.md §3): `7h`, `done`, `take all`; full moves `attack 5h 9h`,
//! `defend 6h -`, `take all`.

use crate::cards::Card;
use crate::error::GameError;
use crate::game::{out_of_range, Action};

pub const NUM_ACTIONS: u32 = 54;
pub const DONE: Action = 52;
pub const TAKE_ALL: Action = 53;

/// Text of an action id; ids outside 0..54 are `IllegalAction`.
pub fn action_to_string(a: Action) -> Result<String, GameError> {
    Ok(match a {
        0..=51 => Card(a as u8).to_string(),
        DONE => "done".into(),
        TAKE_ALL => "take all".into(),
        _ => return Err(out_of_range(a, NUM_ACTIONS as usize)),
    })
}

/// Action id of a notation text (case-insensitive, any whitespace between words).
pub fn string_to_action(text: &str) -> Result<Action, GameError> {
    let lower = text.to_ascii_lowercase();
    let w: Vec<&str> = lower.split_whitespace().collect();
    match w.as_slice() {
        ["done"] => Ok(DONE),
        ["take", "all"] => Ok(TAKE_ALL),
        [c] => Card::parse(c)
            .map(|c| c.0 as Action)
            .map_err(|_| bad_action(text)),
        _ => Err(bad_action(text)),
    }
}

fn bad_action(text: &str) -> GameError {
    GameError::InvalidNotation(format!(
        "{text:?} is not an action: expected a card ('7h'), 'done' or 'take all'"
    ))
}

/// A parsed full move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    /// The attack cards as written.
    Attack(Vec<Card>),
    /// One entry per target: `Some(card)` beats it, `None` (`-`) leaves it.
    Defend(Vec<Option<Card>>),
    TakeAll,
}

/// Parses `attack 5h 9h`, `defend 6h -`, `take all` (case-insensitive).
pub fn parse_move(text: &str) -> Result<Move, GameError> {
    let bad = || {
        GameError::InvalidNotation(format!(
            "{text:?} is not a move: expected 'attack <cards>', 'defend <card or -> ...' or 'take all'"
        ))
    };
    let lower = text.to_ascii_lowercase();
    let w: Vec<&str> = lower.split_whitespace().collect();
    match w.as_slice() {
        ["take", "all"] => Ok(Move::TakeAll),
        ["attack", cards @ ..] if !cards.is_empty() => cards
            .iter()
            .map(|c| Card::parse(c).map_err(|_| bad()))
            .collect::<Result<Vec<_>, _>>()
            .map(Move::Attack),
        ["defend", toks @ ..] if !toks.is_empty() => toks
            .iter()
            .map(|t| {
                if *t == "-" {
                    Ok(None)
                } else {
                    Card::parse(t).map(Some).map_err(|_| bad())
                }
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Move::Defend),
        _ => Err(bad()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_id() {
        for a in 0..NUM_ACTIONS {
            assert_eq!(string_to_action(&action_to_string(a).unwrap()).unwrap(), a);
        }
        assert_eq!(string_to_action("  TAKE   All ").unwrap(), TAKE_ALL);
        assert_eq!(string_to_action("10H").unwrap(), 35);
        assert!(string_to_action("take").is_err());
        assert!(string_to_action("").is_err());
        assert!(action_to_string(54).is_err());
    }

    #[test]
    fn moves() {
        assert_eq!(
            parse_move("attack 9h 5h").unwrap(),
            Move::Attack(vec![Card(34), Card(30)])
        );
        assert_eq!(
            parse_move("Defend 6H -").unwrap(),
            Move::Defend(vec![Some(Card(31)), None])
        );
        assert_eq!(parse_move("take all").unwrap(), Move::TakeAll);
        assert!(parse_move("attack").is_err());
        assert!(parse_move("defend 6h x").is_err());
        assert!(parse_move("done").is_err());
    }
}
