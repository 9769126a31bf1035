//! `play(text)` (docs/escoba_engine.md §4) against the step protocol: a written move is accepted
//! iff it is one of the outcomes the legal actions can step to, and it leaves the same state.

use std::collections::BTreeSet;

use serde_json::json;

use super::options;
use super::*;
use crate::game::{Game, State};
use crate::rng::SplitMix64;

fn game(v: serde_json::Value) -> EscobaGame {
    EscobaGame::from_options(&v).unwrap()
}

/// The double pack (docs/rules/escoba.md §2.18): a card may take its identical twin only to
/// sweep. Table 5s 2c 3c, 5s played: 5s x 2c 3c (2 + 3 = 5) is the one capture, the twin 5s is
/// not takeable (it is not the whole table).
#[test]
fn maresciallo_80_play_follows_the_twin_rule() {
    let g = game(json!({"variant": "maresciallo_80"}));
    let spec = json!({
        "hands": [["5s","Kc","Kh","Qc","Qh"],["Jc","Jh","Js","Jd","Qs"],
                  ["6c","6h","6s","6d","7c"],["7h","7s","4c","4h","4s"]],
        "table": ["5s","2c","3c"], "dealer": 3, "to_move": 0,
    });
    let s = g.setup(&spec).unwrap();
    let mut a = s.clone();
    a.play("5s x 2c 3c").unwrap();
    // pile 0 = 2c 3c 5s; the table keeps the other 5s
    assert_eq!(
        a.table_copies()
            .iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>(),
        ["5s"]
    );
    assert_eq!(a.pile_copies(0).len(), 3);
    let mut b = s.clone();
    let err = b.play("5s x 5s").unwrap_err();
    assert!(matches!(err, GameError::IllegalAction(_)), "{err:?}");
    assert_eq!(b.to_json(), s.to_json(), "a refused move changes nothing");
    // a twin written three times is no multiset of the pack
    assert!(matches!(
        s.clone().play("5s x 2c 2c 3c"),
        Err(GameError::IllegalAction(_))
    ));
}

/// The items a move could name from this state: loose table ids (a twin twice), build names,
/// piles.
fn items(s: &EscobaState) -> Vec<String> {
    let mut v: Vec<String> = s.table_copies().iter().map(|c| c.to_string()).collect();
    v.extend(
        s.builds()
            .as_slice()
            .iter()
            .filter_map(|b| b.first())
            .map(|c| c.to_string()),
    );
    if s.game().options().steal {
        v.extend((0..s.game().num_sides()).map(|k| format!("pile{k}")));
    }
    v
}

/// Every state the mover can reach by legal actions until the played card is resolved.
fn step_leaves(s: &EscobaState, out: &mut BTreeSet<String>) {
    for a in s.legal_actions() {
        if a >= notation::CLAIM {
            continue;
        }
        let mut t = s.clone();
        t.apply(a).unwrap();
        if t.pending().is_some() {
            step_leaves(&t, out);
        } else {
            out.insert(t.to_json());
        }
    }
}

/// Texts written from the position alone: each hand card alone, on each item, and taking each
/// sub-list of the items (only for small tables), independent of the engine's search.
fn candidates(s: &EscobaState) -> Vec<String> {
    let seat = s.current_player().unwrap();
    let its = items(s);
    let mut v = Vec::new();
    for c in s.hand_copies(seat).one {
        v.push(c.to_string());
        for it in its.iter().filter(|it| !it.starts_with("pile")) {
            v.push(format!("{c} on {it}"));
        }
        if its.len() <= 7 {
            for mask in 1u32..(1 << its.len()) {
                let taken: Vec<&str> = (0..its.len())
                    .filter(|i| mask >> i & 1 != 0)
                    .map(|i| its[i].as_str())
                    .collect();
                v.push(format!("{c} x {}", taken.join(" ")));
            }
        }
    }
    v
}

/// Accepted texts lead exactly to the states the step protocol reaches; refused ones change
/// nothing and raise IllegalAction. Random playouts of every preset.
#[test]
fn play_text_matches_the_step_protocol_for_every_preset() {
    let spec = options::spec();
    for preset in spec.presets() {
        for players in spec.players_of(Some(preset)) {
            let g = game(json!({"variant": preset, "players": players, "game": "single_deal"}));
            let mut bot = SplitMix64::new(5);
            for seed in 0..3u64 {
                let mut s = g.new_state(seed);
                let mut plies = 0;
                while !s.is_terminal() && plies < 60 {
                    let plain =
                        s.pending().is_none() && !s.knock_turn() && s.claim_card().is_none();
                    if plain && items(&s).len() <= 7 {
                        let mut leaves = BTreeSet::new();
                        step_leaves(&s, &mut leaves);
                        let mut reached = BTreeSet::new();
                        let before = s.to_json();
                        for text in candidates(&s) {
                            let mut t = s.clone();
                            match t.play(&text) {
                                Ok(()) => {
                                    let j = t.to_json();
                                    assert!(leaves.contains(&j), "{preset}/{players} seed {seed}: {text:?} accepted, no step leads there");
                                    reached.insert(j);
                                }
                                Err(GameError::IllegalAction(_)) => assert_eq!(t.to_json(), before),
                                Err(e) => panic!("{preset}: {text:?} gave {e:?}"),
                            }
                        }
                        assert_eq!(
                            reached, leaves,
                            "{preset}/{players} seed {seed}: a legal move has no accepted text"
                        );
                    }
                    let legal = s.legal_actions();
                    s.apply(legal[bot.below(legal.len() as u64) as usize])
                        .unwrap();
                    plies += 1;
                }
            }
        }
    }
}
