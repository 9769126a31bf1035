//! The rule primitives of docs/burako_engine.md §3 and §9, on JSON arguments (`Game::primitive`):
//! `classify_meld` and `score_team`.
//!
//! Tiles come as lists of text or ids. A list that is not a list is `InvalidState`, an unreadable
//! tile `InvalidNotation`, a tile type given more than twice over all the lists of one call
//! `InvalidState` (the pack holds two of each).

use serde_json::{json, Map, Value};

use super::rules::{self, TeamTally};
use super::BurakoGame;
use crate::error::{GameError, Result};
use crate::json::Read;
use crate::tiles::{tile_text, TileCounts, TileType};

const NOTATION: Read = Read::NOTATION;
const ST: Read = Read::STATE;

pub(super) fn call(game: &BurakoGame, name: &str, args: &Value) -> Result<Value> {
    match name {
        "classify_meld" => {
            let a = ST.object_with(args, "classify_meld", &["tiles"], &["tiles"])?;
            classify_meld(game, a)
        }
        "score_team" => {
            let keys = &["melds", "racks", "closed", "muerto_taken"];
            let a = ST.object_with(args, "score_team", keys, keys)?;
            score_team(game, a)
        }
        _ => Err(GameError::InvalidOption(format!(
            "burako has no rule primitive {:?}: expected classify_meld or score_team",
            crate::json::excerpt(name)
        ))),
    }
}

/// A list of tiles, added to the call's running `census`.
fn tiles(v: &Value, what: &str, census: &mut TileCounts) -> Result<TileCounts> {
    let list: Vec<TileType> = ST
        .list(v, what)?
        .iter()
        .map(|x| NOTATION.tile(x, what, true))
        .collect::<Result<_>>()?;
    let mut own = TileCounts::EMPTY;
    for t in list {
        if census.get(t) >= 2 {
            return Err(ST.err(format!(
                "tile {} appears more than twice (each tile type has 2 copies)",
                tile_text(t)
            )));
        }
        census.add(t);
        own.add(t);
    }
    Ok(own)
}

/// `classify_meld(tiles)`: `{kind, pure, canasta, value}`, or null when not a meld.
fn classify_meld(game: &BurakoGame, a: &Map<String, Value>) -> Result<Value> {
    let mut census = TileCounts::EMPTY;
    let c = tiles(&a["tiles"], "tiles", &mut census)?;
    Ok(match rules::classify_meld(c, &game.options().meld) {
        Some(m) => json!({
            "kind": m.kind.as_str(),
            "pure": m.pure,
            "canasta": m.canasta,
            "value": m.value,
        }),
        None => Value::Null,
    })
}

/// `score_team(melds, racks, closed, muerto_taken)`: one team's hand score
/// (docs/rules/burako.md §7), every meld classified as a new meld would be.
fn score_team(game: &BurakoGame, a: &Map<String, Value>) -> Result<Value> {
    let o = game.options();
    let closed = ST.bool(&a["closed"], "closed")?;
    let taken = ST.bool(&a["muerto_taken"], "muerto_taken")?;
    let mut census = TileCounts::EMPTY;
    let mut tally = TeamTally {
        meld_points: 0,
        pure_canastas: 0,
        impure_canastas: 0,
    };
    for (i, m) in ST.list(&a["melds"], "melds")?.iter().enumerate() {
        let what = format!("melds[{i}]");
        let c = tiles(m, &what, &mut census)?;
        let info = rules::classify_meld(c, &o.meld)
            .ok_or_else(|| ST.err(format!("{what} is not a valid meld")))?;
        tally.meld_points += info.value as i64;
        if info.canasta {
            if info.pure {
                tally.pure_canastas += 1;
            } else {
                tally.impure_canastas += 1;
            }
        }
    }
    let mut rack_points = 0i64;
    for (i, r) in ST.list(&a["racks"], "racks")?.iter().enumerate() {
        let c = tiles(r, &format!("racks[{i}]"), &mut census)?;
        rack_points += rules::counts_value(c, &o.meld) as i64;
    }
    Ok(Value::from(rules::team_score(
        &tally,
        rack_points,
        closed,
        taken,
        o.no_canasta_negative,
    )))
}

#[cfg(test)]
mod tests {
    //! Expected values by hand from docs/rules/burako.md §1, §3, §7 and §12 (the tile values,
    //! the melds, the scoring and the test vectors).
    use serde_json::{json, Value};

    use super::super::BurakoGame;
    use crate::error::GameError;

    fn prim(options: Value, name: &str, args: Value) -> Result<Value, GameError> {
        crate::testing::primitive::<BurakoGame>(options, name, args)
    }

    fn classify(tiles: Value) -> Value {
        prim(json!({}), "classify_meld", json!({ "tiles": tiles })).unwrap()
    }

    #[test]
    fn classify_meld_by_hand() {
        // TV-B04: R3 R5 and the joker as R4: 5 + 5 + 50
        assert_eq!(
            classify(json!(["R3", "R5", "J*"])),
            json!({"kind": "run", "pure": false, "canasta": false, "value": 60})
        );
        // TV-B12: a pure pierna of 5s, 5 each; ids work as text does (R5 = 4, B5 = 30)
        assert_eq!(
            classify(json!([4, 30, "b5"])),
            json!({"kind": "pierna", "pure": true, "canasta": false, "value": 15})
        );
        // TV-B06: no wrap-around by default; TV-B15: 2s alone are no meld
        assert_eq!(classify(json!(["R13", "R1", "R2", "R3"])), Value::Null);
        assert_eq!(classify(json!(["R2", "B2", "Y2"])), Value::Null);
        // R7..R13: seven naturals, a pure canasta: 5 + 6 * 10
        let run: Vec<String> = (7..=13).map(|n| format!("R{n}")).collect();
        assert_eq!(
            classify(json!(run)),
            json!({"kind": "run", "pure": true, "canasta": true, "value": 65})
        );
        // under run_wrap the corner 13-1-2 is a run: 10 + 15 + 20 + 5
        assert_eq!(
            prim(
                json!({"run_wrap": true}),
                "classify_meld",
                json!({"tiles": ["R13", "R1", "R2", "R3"]})
            )
            .unwrap(),
            json!({"kind": "run", "pure": true, "canasta": false, "value": 50})
        );
    }

    #[test]
    fn score_team_by_hand() {
        // TV-B37: a pure canasta R3..R9 (5 * 5 + 2 * 10 = 45), a closing team with its muerto
        // and an empty rack: 45 + 200 + 100 + 100
        let args = json!({
            "melds": [["R3", "R4", "R5", "R6", "R7", "R8", "R9"]],
            "racks": [[]],
            "closed": true,
            "muerto_taken": true,
        });
        assert_eq!(prim(json!({}), "score_team", args), Ok(json!(445)));
        // no canasta: the melds count negative (docs/rules/burako.md §7): −(5+5+5) − 100 − (50+10)
        let args = json!({
            "melds": [["K5", "B5", "Y5"]],
            "racks": [["J*"], ["K10"]],
            "closed": false,
            "muerto_taken": false,
        });
        assert_eq!(prim(json!({}), "score_team", args.clone()), Ok(json!(-175)));
        let kept = prim(
            json!({"no_canasta_melds_negative": false}),
            "score_team",
            args,
        );
        assert_eq!(kept, Ok(json!(-145)));
    }

    #[test]
    fn bad_arguments_raise_their_typed_errors() {
        let state = |r: Result<Value, GameError>| matches!(r, Err(GameError::InvalidState(_)));
        let notation =
            |r: Result<Value, GameError>| matches!(r, Err(GameError::InvalidNotation(_)));
        let cm = |tiles: Value| prim(json!({}), "classify_meld", json!({ "tiles": tiles }));
        assert!(state(cm(json!("R5"))));
        assert!(notation(cm(json!(["R5", "Z9"]))));
        assert!(notation(cm(json!([53]))));
        assert!(notation(cm(json!([1.0]))));
        assert!(state(cm(json!(["R5", "R5", "R5"]))));
        let st = |melds: Value, racks: Value, closed: Value| {
            let args =
                json!({"melds": melds, "racks": racks, "closed": closed, "muerto_taken": false});
            prim(json!({}), "score_team", args)
        };
        assert!(state(st(json!([]), json!([]), json!(1))));
        assert!(state(st(json!([["R3", "R4"]]), json!([]), json!(false))));
        // a tile three times over the melds and the racks together
        assert!(state(st(
            json!([["R3", "R4", "R5"]]),
            json!([["R3", "R3"]]),
            json!(false)
        )));
        assert!(notation(st(json!([]), json!([["x"]]), json!(false))));
        assert!(matches!(
            prim(json!({}), "no_such", json!({})),
            Err(GameError::InvalidOption(_))
        ));
    }
}
