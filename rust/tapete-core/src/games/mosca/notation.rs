//! Action ids and notation (docs/rules/mosca.md §8, docs/mosca_engine.md §5).

use std::fmt::Write as _;

use crate::cards::{Card, CardSet};
use crate::error::GameError;
use crate::game::{out_of_range, Action};

pub const NUM_ACTIONS: Action = 91;
pub const PASS: Action = 52;
pub const PLAY0: Action = 53;
pub const TAKE0: Action = 85;
pub const LEAVE: Action = 90;

/// The card of `hand` in sorted slot `slot` (0-based), if any.
#[inline]
pub fn slot_card(hand: CardSet, slot: u32) -> Option<Card> {
    hand.iter().nth(slot as usize)
}

/// The cards of `hand` selected by `mask` over its sorted slots.
#[inline]
pub fn mask_cards(hand: CardSet, mask: u32) -> CardSet {
    let mut out = CardSet::EMPTY;
    for (i, c) in hand.iter().enumerate() {
        if mask >> i & 1 != 0 {
            out.insert(c);
        }
    }
    out
}

/// `hand` is the actor's hand when the phase resolves masks / slots to cards
/// (`declare` for 53..84, `turnup` for 85..89), else `None`.
pub fn action_to_string(
    a: Action,
    declare_hand: Option<CardSet>,
    turnup_hand: Option<CardSet>,
) -> Result<String, GameError> {
    Ok(match a {
        0..=51 => Card(a as u8).to_string(),
        PASS => "pass".into(),
        PLAY0 => "play".into(),
        54..=84 => {
            let mask = a - PLAY0;
            let mut s = String::new();
            match declare_hand {
                Some(h) if h.len() == 5 => {
                    s.push_str("play x");
                    for c in mask_cards(h, mask) {
                        let _ = write!(s, " {c}");
                    }
                }
                _ => {
                    s.push_str("play slots");
                    for i in 0..5 {
                        if mask >> i & 1 != 0 {
                            let _ = write!(s, " {i}");
                        }
                    }
                }
            }
            s
        }
        85..=89 => {
            let slot = a - TAKE0;
            match turnup_hand.and_then(|h| {
                if h.len() == 5 {
                    slot_card(h, slot)
                } else {
                    None
                }
            }) {
                Some(c) => format!("take turnup {c}"),
                None => format!("take turnup slot {slot}"),
            }
        }
        LEAVE => "leave turnup".into(),
        _ => return Err(out_of_range(a, NUM_ACTIONS as usize)),
    })
}

fn bad(text: &str, why: &str) -> GameError {
    GameError::InvalidNotation(format!(
        "{text:?} is not a mosca action{why}: expected a card ('Qh'), 'pass', 'play', 'play x 9d Ks', \
         'play slots 0 4', 'take turnup 7c', 'take turnup slot 1' or 'leave turnup'"
    ))
}

/// Parses notation (case-insensitive); card forms are resolved against the given hands.
pub fn string_to_action(
    text: &str,
    declare_hand: Option<CardSet>,
    turnup_hand: Option<CardSet>,
) -> Result<Action, GameError> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    match words.as_slice() {
        [] => Err(bad(text, "")),
        ["pass"] => Ok(PASS),
        ["play"] => Ok(PLAY0),
        ["leave", "turnup"] => Ok(LEAVE),
        ["play", "slots", rest @ ..] if !rest.is_empty() => {
            let mut mask = 0u32;
            for w in rest {
                let i = match *w {
                    "0" => 0,
                    "1" => 1,
                    "2" => 2,
                    "3" => 3,
                    "4" => 4,
                    _ => return Err(bad(text, ": slots are 0..4")),
                };
                if mask >> i & 1 != 0 {
                    return Err(bad(text, ": a slot is repeated"));
                }
                mask |= 1 << i;
            }
            Ok(PLAY0 + mask)
        }
        ["play", "x", rest @ ..] if !rest.is_empty() => {
            let Some(hand) = declare_hand.filter(|h| h.len() == 5) else {
                return Err(bad(text, ": 'play x <cards>' needs a player declaring"));
            };
            let mut mask = 0u32;
            for w in rest {
                let c = Card::parse(w).map_err(|_| bad(text, &format!(": {w:?} is not a card")))?;
                let Some(slot) = hand.iter().position(|x| x == c) else {
                    return Err(bad(
                        text,
                        &format!(": {c} is not in the hand of the player to act"),
                    ));
                };
                if mask >> slot & 1 != 0 {
                    return Err(bad(text, &format!(": {c} is repeated")));
                }
                mask |= 1 << slot;
            }
            Ok(PLAY0 + mask)
        }
        ["take", "turnup", "slot", i] => match *i {
            "0" | "1" | "2" | "3" | "4" => Ok(TAKE0 + i.parse::<u32>().unwrap_or(0)),
            _ => Err(bad(text, ": slots are 0..4")),
        },
        ["take", "turnup", w] => {
            let c = Card::parse(w).map_err(|_| bad(text, &format!(": {w:?} is not a card")))?;
            let Some(hand) = turnup_hand.filter(|h| h.len() == 5) else {
                return Err(bad(
                    text,
                    ": 'take turnup <card>' needs the dealer at the turn-up",
                ));
            };
            match hand.iter().position(|x| x == c) {
                Some(slot) => Ok(TAKE0 + slot as u32),
                None => Err(bad(text, &format!(": {c} is not in the dealer's hand"))),
            }
        }
        [w] => Card::parse(w)
            .map(|c| c.0 as Action)
            .map_err(|_| bad(text, "")),
        _ => Err(bad(text, "")),
    }
}
