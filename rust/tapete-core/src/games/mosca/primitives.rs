//! The rule primitives of docs/mosca_engine.md §6, on JSON arguments (`Game::primitive`):
//! `legal_cards`, `trick_winner` and `mosca_winner`. Cards as text or ids, any of the 52 whatever
//! the deck; a bad card or trump is `InvalidNotation`, a non-list or a card twice `InvalidState`
//! (docs/mosca_engine.md §7).

use serde_json::{Map, Value};

use super::options::MoscaTie;
use super::{rules, MoscaGame};
use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::json::{shown, Read};

const NOTATION: Read = Read::NOTATION;
const ST: Read = Read::STATE;

pub(super) fn call(game: &MoscaGame, name: &str, args: &Value) -> Result<Value> {
    match name {
        "legal_cards" => {
            let keys = &["hand", "trick", "trump"];
            legal_cards(game, ST.object_with(args, "legal_cards", keys, keys)?)
        }
        "trick_winner" => {
            let keys = &["trick", "trump"];
            trick_winner(game, ST.object_with(args, "trick_winner", keys, keys)?)
        }
        "mosca_winner" => {
            let keys = &["hands", "trump"];
            mosca_winner(game, ST.object_with(args, "mosca_winner", keys, keys)?)
        }
        _ => Err(GameError::InvalidOption(format!(
            "mosca has no rule primitive {:?}: expected legal_cards, trick_winner or mosca_winner",
            crate::json::excerpt(name)
        ))),
    }
}

/// A list of cards: a non-list is `InvalidState`, a bad card `InvalidNotation`.
fn cards(v: &Value, what: &str) -> Result<Vec<Card>> {
    ST.list(v, what)?
        .iter()
        .map(|c| NOTATION.card(c, what, true))
        .collect()
}

/// The cards as a set; a card given twice is `InvalidState`.
fn distinct(cards: impl IntoIterator<Item = Card>, what: &str) -> Result<CardSet> {
    let mut set = CardSet::EMPTY;
    for c in cards {
        if set.contains(c) {
            return Err(ST.err(format!("{what}: card {c} appears twice")));
        }
        set.insert(c);
    }
    Ok(set)
}

/// A trump: one suit letter `c d h s`, either case.
fn trump(v: &Value) -> Result<u8> {
    let suit = v.as_str().and_then(|s| match s {
        "c" | "C" => Some(0),
        "d" | "D" => Some(1),
        "h" | "H" => Some(2),
        "s" | "S" => Some(3),
        _ => None,
    });
    suit.ok_or_else(|| {
        NOTATION.err(format!(
            "trump {} is not a suit: expected one of c, d, h, s",
            shown(v)
        ))
    })
}

fn texts(set: CardSet) -> Value {
    crate::json::card_texts(set)
}

/// docs/rules/mosca.md §4.3: the cards of `hand` the actor may play to `trick`, ascending.
fn legal_cards(game: &MoscaGame, a: &Map<String, Value>) -> Result<Value> {
    let hand = cards(&a["hand"], "hand")?;
    let trick = cards(&a["trick"], "trick")?;
    let suit = trump(&a["trump"])?;
    distinct(hand.iter().chain(&trick).copied(), "hand and trick")?;
    let hand: CardSet = hand.into_iter().collect();
    let legal = rules::legal_cards_for_trick(game.strength(), game.duties(), hand, &trick, suit);
    Ok(texts(legal))
}

/// docs/rules/mosca.md §4.4: the index in `trick` of the card that wins it.
fn trick_winner(game: &MoscaGame, a: &Map<String, Value>) -> Result<Value> {
    let trick = cards(&a["trick"], "trick")?;
    let suit = trump(&a["trump"])?;
    distinct(trick.iter().copied(), "trick")?;
    if trick.is_empty() {
        return Err(ST.err("trick_winner needs at least one card".into()));
    }
    Ok(Value::from(game.strength().trick_winner(&trick, suit)))
}

/// docs/rules/mosca.md §5.1: the indexes of `hands` that take the pot, ascending (under
/// `eldest_wins` the first of a tie in list order, index 0 being the mano).
fn mosca_winner(game: &MoscaGame, a: &Map<String, Value>) -> Result<Value> {
    let hands = ST
        .list(&a["hands"], "hands")?
        .iter()
        .enumerate()
        .map(|(i, h)| cards(h, &format!("hands[{i}]")))
        .collect::<Result<Vec<_>>>()?;
    let suit = trump(&a["trump"])?;
    distinct(hands.iter().flatten().copied(), "hands")?;
    let sets: Vec<CardSet> = hands.into_iter().map(|h| h.into_iter().collect()).collect();
    let eldest = game.options().mosca_tie == MoscaTie::EldestWins;
    Ok(Value::from(rules::mosca_winner(
        game.strength(),
        &sets,
        suit,
        eldest,
    )))
}

#[cfg(test)]
mod tests {
    //! Expected values from the rules' vectors (docs/rules/mosca.md §9, ids cited) and from hand
    //! calculations on docs/mosca_engine.md §1 and §6, never from the code's output.

    use serde_json::json;

    use super::*;
    use crate::game::Game;

    fn call(opts: Value, name: &str, args: Value) -> Result<Value> {
        crate::testing::primitive::<MoscaGame>(opts, name, args)
    }

    #[test]
    fn legal_cards_follow_head_and_trump() {
        let g = json!({});
        // TV-M14: trump s, led 9h, hand 7h Jh Kc -> Jh (heads the trick)
        let r = call(
            g.clone(),
            "legal_cards",
            json!({"hand": ["7h", "Jh", "Kc"], "trick": ["9h"], "trump": "s"}),
        );
        assert_eq!(r, Ok(json!(["Jh"])));
        // TV-M18: void in hearts, must trump: 7s
        let r = call(
            g.clone(),
            "legal_cards",
            json!({"hand": ["7s", "Kc"], "trick": ["8h"], "trump": "S"}),
        );
        assert_eq!(r, Ok(json!(["7s"])));
        // leading: the whole hand, ascending by id (Kc 12, 7h 32, Jh 36); ids accepted
        let r = call(
            g.clone(),
            "legal_cards",
            json!({"hand": [36, "7h", "Kc"], "trick": [], "trump": "s"}),
        );
        assert_eq!(r, Ok(json!(["Kc", "7h", "Jh"])));
        // must_head off: any heart (hand calculation from docs/rules/mosca.md §4.3)
        let r = call(
            json!({"must_head": false}),
            "legal_cards",
            json!({"hand": ["7h", "Jh", "Kc"], "trick": ["9h"], "trump": "s"}),
        );
        assert_eq!(r, Ok(json!(["7h", "Jh"])));
        // an empty hand gives []; a card of no deck size (2c) is accepted
        let r = call(
            g.clone(),
            "legal_cards",
            json!({"hand": [], "trick": ["2c"], "trump": "d"}),
        );
        assert_eq!(r, Ok(json!([])));
    }

    #[test]
    fn trick_winner_by_trump_then_led_suit() {
        // TV-M23: trump s, Qd Kd 7s Ad -> the 7s, index 2
        let r = call(
            json!({}),
            "trick_winner",
            json!({"trick": ["Qd", "Kd", "7s", "Ad"], "trump": "s"}),
        );
        assert_eq!(r, Ok(json!(2)));
        // the ace between the jack and the ten by default, above the king when high
        let trick = json!({"trick": ["Td", "Kd", "Ad"], "trump": "c"});
        assert_eq!(call(json!({}), "trick_winner", trick.clone()), Ok(json!(1)));
        assert_eq!(
            call(json!({"ace_rank": "high"}), "trick_winner", trick),
            Ok(json!(2))
        );
    }

    #[test]
    fn mosca_winner_trump_first_then_strength() {
        // TV-M05: trump h; a trump mosca beats a stronger plain one
        let hands = json!([
            ["Ad", "7d", "8s", "9s", "Ts"],
            ["Kc", "Qc", "Jc", "Ac", "Tc"],
            ["7h", "8h", "9h", "Th", "Ah"]
        ]);
        assert_eq!(
            call(
                json!({}),
                "mosca_winner",
                json!({"hands": hands, "trump": "h"})
            ),
            Ok(json!([2]))
        );
        // TV-M07: an exact tie splits, or goes to the first under eldest_wins
        let hands = json!([
            ["Kh", "Qh", "Jh", "Ah", "Th"],
            [],
            ["Kc", "Qc", "Jc", "Ac", "Tc"]
        ]);
        let args = json!({"hands": hands, "trump": "s"});
        assert_eq!(
            call(json!({}), "mosca_winner", args.clone()),
            Ok(json!([0, 2]))
        );
        assert_eq!(
            call(json!({"mosca_tie": "eldest_wins"}), "mosca_winner", args),
            Ok(json!([0]))
        );
        // nobody holds five of a suit
        let r = call(
            json!({}),
            "mosca_winner",
            json!({"hands": [["Ac", "Kc"]], "trump": "s"}),
        );
        assert_eq!(r, Ok(json!([])));
    }

    #[test]
    fn bad_arguments_raise_the_contracts_errors() {
        let notation = |r: Result<Value>| matches!(r, Err(GameError::InvalidNotation(_)));
        let state = |r: Result<Value>| matches!(r, Err(GameError::InvalidState(_)));
        let g = json!({});
        assert!(notation(call(
            g.clone(),
            "legal_cards",
            json!({"hand": ["7x"], "trick": [], "trump": "s"})
        )));
        assert!(notation(call(
            g.clone(),
            "legal_cards",
            json!({"hand": [52], "trick": [], "trump": "s"})
        )));
        for bad in [json!("x"), json!(3), json!(null), json!("cd"), json!(" s")] {
            assert!(notation(call(
                g.clone(),
                "trick_winner",
                json!({"trick": ["Qd"], "trump": bad})
            )));
        }
        assert!(state(call(
            g.clone(),
            "legal_cards",
            json!({"hand": ["7h", "9h"], "trick": ["9h"], "trump": "s"})
        )));
        assert!(state(call(
            g.clone(),
            "legal_cards",
            json!({"hand": "7h 9h", "trick": [], "trump": "s"})
        )));
        assert!(state(call(
            g.clone(),
            "trick_winner",
            json!({"trick": [], "trump": "s"})
        )));
        assert!(state(call(
            g.clone(),
            "mosca_winner",
            json!({"hands": [["Kc"], ["Kc"]], "trump": "s"})
        )));
        assert!(state(call(
            g.clone(),
            "mosca_winner",
            json!({"hands": ["Kc"], "trump": "s"})
        )));
        assert!(matches!(
            call(g, "nope", json!({})),
            Err(GameError::InvalidOption(_))
        ));
        assert!(matches!(
            MoscaGame::from_options(&json!({"must_head": "yes"})),
            Err(GameError::InvalidOption(_))
        ));
    }
}
