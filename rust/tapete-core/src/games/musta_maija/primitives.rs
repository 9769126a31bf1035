//! The rule primitives of docs/musta_maija_engine.md §5, on JSON arguments (`Game::primitive`):
//! `can_beat`, `legal_attacks` and `trump_from_stock`.

use serde_json::{json, Map, Value};

use super::{rules, MustaMaijaGame};
use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::json::{as_int, shown, Read};
use crate::rng::SplitMix64;

const NOTATION: Read = Read::NOTATION;
const ST: Read = Read::STATE;

pub(super) fn call(game: &MustaMaijaGame, name: &str, args: &Value) -> Result<Value> {
    match name {
        "can_beat" => {
            let a = ST.object_with(args, "can_beat", &["attack_card", "defence_card", "trump"], &["attack_card", "defence_card"])?;
            can_beat(a)
        }
        "legal_attacks" => {
            let a = ST.object_with(args, "legal_attacks", &["hand", "defender_hand_size"], &["hand", "defender_hand_size"])?;
            legal_attacks(game, a)
        }
        "trump_from_stock" => {
            let a = ST.object_with(args, "trump_from_stock", &["stock", "seed"], &["stock"])?;
            trump_from_stock(game, a)
        }
        _ => Err(GameError::InvalidOption(format!(
            "musta_maija has no rule primitive {name:?}: expected can_beat, legal_attacks or trump_from_stock"
        ))),
    }
}

/// Distinct cards given as text or ids: a non-list is `InvalidState`, a bad card
/// `InvalidNotation`, a repeated one `InvalidState`.
fn distinct(v: &Value, what: &str) -> Result<Vec<Card>> {
    let cards = ST
        .list(v, what)?
        .iter()
        .map(|c| NOTATION.card(c, what, true))
        .collect::<Result<Vec<Card>>>()?;
    let mut seen = CardSet::EMPTY;
    for c in &cards {
        if seen.contains(*c) {
            return Err(ST.err(format!("{what}: card {c} appears twice")));
        }
        seen.insert(*c);
    }
    Ok(cards)
}

fn can_beat(a: &Map<String, Value>) -> Result<Value> {
    let t = NOTATION.card(&a["attack_card"], "attack_card", true)?;
    let c = NOTATION.card(&a["defence_card"], "defence_card", true)?;
    let trump = a.get("trump").unwrap_or(&Value::Null);
    let bad = || {
        NOTATION.err(format!(
            "trump {} is not a suit: expected one of c d h s, a suit index 0..3, or None",
            shown(trump)
        ))
    };
    let suit = match trump {
        Value::Null => None,
        Value::String(s) => Some(
            ["c", "d", "h", "s"]
                .iter()
                .position(|x| *x == s.to_ascii_lowercase())
                .ok_or_else(bad)? as u8,
        ),
        v => match as_int(v) {
            Some(i @ 0..=3) => Some(i as u8),
            _ => return Err(bad()),
        },
    };
    if t == c {
        return Err(ST.err(format!(
            "the attack and defence cards are the same card {t}"
        )));
    }
    Ok(Value::Bool(rules::can_beat(t, c, suit)))
}

fn legal_attacks(game: &MustaMaijaGame, a: &Map<String, Value>) -> Result<Value> {
    let hand: CardSet = distinct(&a["hand"], "hand")?.into_iter().collect();
    let d = a["defender_hand_size"].as_u64();
    // a hand holds at most the 52 cards of the pack
    let d = d.filter(|&d| d <= 52).ok_or_else(|| {
        ST.err(format!(
            "defender_hand_size must be an int in 0..52, got {}",
            shown(&a["defender_hand_size"])
        ))
    })? as u32;
    let attacks = rules::legal_attacks(game.options(), hand, d);
    Ok(json!(attacks
        .into_iter()
        .map(|x| x.into_iter().map(|c| c.to_string()).collect::<Vec<_>>())
        .collect::<Vec<_>>()))
}

fn trump_from_stock(game: &MustaMaijaGame, a: &Map<String, Value>) -> Result<Value> {
    let cards = distinct(&a["stock"], "stock")?;
    let seed = match a.get("seed") {
        None => 0,
        Some(v) => v.as_u64().ok_or_else(|| {
            ST.err(format!(
                "seed {} is not valid: expected an int in 0..2**64-1",
                shown(v)
            ))
        })?,
    };
    if cards.is_empty() {
        return Err(ST.err("stock must hold at least one card".into()));
    }
    let mut ids: Vec<u8> = cards.iter().map(|c| c.0).collect();
    let mut rng = SplitMix64::new(seed);
    let (t, _) = rules::determine_trump(game.options(), &mut ids, &mut rng);
    Ok(json!([
        t.to_string(),
        ids.into_iter()
            .map(|c| Card(c).to_string())
            .collect::<Vec<_>>()
    ]))
}
