//! The rule primitives of docs/escoba_engine.md §7 on JSON arguments (`Game::primitive`): `capture_options`,
//! `score_deal`, `tuzzoli` and `knock`. Cards are text or ids; an unreadable card or one outside
//! the game's pack is `InvalidNotation`, a card given too often and any other bad argument
//! `InvalidState`, a bad `seat` `InvalidPlayer`.

use serde_json::{json, Map, Value};

use super::builds::{build_value, Builds, MAX_BUILD_VALUE};
use super::options::{Deck, EscobaOptions};
use super::twins::{self, Multiset};
use super::{knock, piles, rules, EscobaGame};
use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::game::Game;
use crate::json::{as_int, shown, Read};

const NOTATION: Read = Read::NOTATION;
const ST: Read = Read::STATE;

pub(super) fn call(game: &EscobaGame, name: &str, args: &Value) -> Result<Value> {
    match name {
        "capture_options" => {
            let known = ["card", "table", "pile_tops", "seat", "table_builds", "hand"];
            let a = ST.object_with(args, name, &known, &["card", "table"])?;
            capture_options(game, a)
        }
        "score_deal" => {
            let known = ["piles", "scope", "declared", "ks_sweeps", "twin_sweeps", "ks_on_ks"];
            let a = ST.object_with(args, name, &known, &["piles", "scope"])?;
            score_deal(game.options(), a)
        }
        "tuzzoli" => {
            let a = ST.object_with(args, name, &["hand"], &["hand"])?;
            let set = hand_set(&a["hand"], game.options().deck)?;
            let kind = rules::tuzzoli(set, game.options().tuzzoli_hybrids) as usize;
            Ok(json!([rules::TUZZOLI_NAMES[kind], rules::TUZZOLI_POINTS[kind]]))
        }
        "knock" => {
            let a = ST.object_with(args, name, &["hand"], &["hand"])?;
            let o = game.options();
            let set = hand_set(&a["hand"], o.deck)?;
            let (kind, value) = knock::best(o, set);
            if kind == 0 {
                return Ok(json!(["none", 0, null]));
            }
            let wild = knock::Matta::natural(o).in_set(set).then_some(value);
            Ok(json!([knock::name(kind), knock::points(o, kind), wild]))
        }
        _ => Err(GameError::InvalidOption(format!(
            "escoba has no rule primitive {:?}: expected capture_options, score_deal, tuzzoli or knock",
            crate::json::excerpt(name)
        ))),
    }
}

/// An argument that is given and not null.
fn given<'a>(a: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    a.get(key).filter(|v| !v.is_null())
}

/// A card of the game's pack, as text or id.
fn card(v: &Value, what: &str, pack: Deck) -> Result<Card> {
    let c = NOTATION.card(v, what, true)?;
    if !pack.contains(c) {
        return Err(NOTATION.err(format!(
            "{what}: {c} is not a card of the {}",
            pack.pack_name()
        )));
    }
    Ok(c)
}

/// A list of cards of the pack; a non-list is `err`.
fn cards(v: &Value, what: &str, err: Read, pack: Deck) -> Result<Vec<Card>> {
    err.list(v, what)?
        .iter()
        .map(|c| card(c, what, pack))
        .collect()
}

/// A hand's cards as a set; a card given twice is `InvalidState`.
fn hand_set(v: &Value, pack: Deck) -> Result<CardSet> {
    let mut set = CardSet::EMPTY;
    for c in cards(v, "hand", NOTATION, pack)? {
        if set.contains(c) {
            return Err(ST.err(format!("card {c} appears more than once in the hand")));
        }
        set.insert(c);
    }
    Ok(set)
}

/// `O(card)` against `table` (docs/escoba_engine.md §7): ascending card lists, sorted; with builds
/// (`table_builds`, card lists) and the rest of the `hand`, then `["on", t]` per build move.
fn capture_options(game: &EscobaGame, a: &Map<String, Value>) -> Result<Value> {
    let o = game.options();
    let pack = o.deck;
    // every argument read first, then checked (as the reference does)
    let tops_given = match given(a, "pile_tops") {
        Some(v) => Some(ST.list(v, "pile_tops")?),
        None => None,
    };
    let mut build_cards: Vec<Vec<Card>> = Vec::new();
    if let Some(bs) = given(a, "table_builds") {
        for b in ST.list(bs, "table_builds")? {
            build_cards.push(cards(b, "a build", NOTATION, pack)?);
        }
    }
    let hand_cards = match given(a, "hand") {
        Some(h) => cards(h, "hand", NOTATION, pack)?,
        None => Vec::new(),
    };
    let table_cards = cards(&a["table"], "table", NOTATION, pack)?;
    let c = card(&a["card"], "card", pack)?;
    // each card once, or twice with the double pack (docs/escoba_engine.md §1a)
    let twin = pack.copies() == 2;
    let mut seen = Multiset::from_set(CardSet::single(c));
    let mut add = |x: Card| -> Result<()> {
        if (seen.contains(x) && !twin) || !seen.insert(x) {
            return Err(ST.err(format!(
                "card {x} appears more than {} among the played card, the table, the builds, \
                 the hand and the pile tops",
                if twin { "twice" } else { "once" }
            )));
        }
        Ok(())
    };
    let claim = |cards: &[Card], add: &mut dyn FnMut(Card) -> Result<()>| -> Result<CardSet> {
        let mut set = CardSet::EMPTY;
        for &x in cards {
            add(x)?;
            set.insert(x);
        }
        Ok(set)
    };
    let set = claim(&table_cards, &mut add)?;
    let build_sets = build_cards
        .iter()
        .map(|b| claim(b, &mut add))
        .collect::<Result<Vec<CardSet>>>()?;
    let held = claim(&hand_cards, &mut add)?.union(CardSet::single(c));
    if !build_sets.is_empty() && !o.builds {
        return Err(ST.err("table_builds needs option builds".into()));
    }
    let mut builds = Builds::EMPTY;
    for bset in build_sets {
        if bset.len() < 2 || build_value(bset) > MAX_BUILD_VALUE || !builds.insert(bset) {
            return Err(ST.err(format!(
                "a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all, got [{bset}]"
            )));
        }
    }
    // docs/rules/escoba.md §2.21: each side's pile top (None: empty pile), seen from `seat`
    let n = game.num_players();
    let seat = match given(a, "seat") {
        Some(v) => match as_int(v) {
            Some(p) if (0..n as i64).contains(&p) => p as usize,
            _ => {
                return Err(GameError::InvalidPlayer(format!(
                    "seat {} is not a seat of this game: expected an int in 0..{}",
                    shown(v),
                    n - 1
                )))
            }
        },
        None => 0,
    };
    let mut ctx = piles::Piles {
        tops: [-1; rules::MAX_SIDES],
        side: o.side_of(seat) as u8,
        next: o.side_of((seat + 1) % n) as u8,
    };
    if let Some(items) = tops_given {
        let ns = game.num_sides();
        if items.len() != ns {
            return Err(ST.err(format!(
                "pile_tops must be a list of {ns} entries (one per side): a card or None"
            )));
        }
        for (side, x) in items.iter().enumerate() {
            if x.is_null() {
                continue;
            }
            let top = card(x, "pile_tops", pack)?;
            add(top)?;
            ctx.tops[side] = top.0 as i8;
        }
    }
    if !o.steal {
        ctx = piles::Piles::NONE;
    }
    if twin {
        // the double pack refuses builds and piles: the table is the only item (docs/escoba_engine.md §1a)
        let table: Multiset = table_cards.iter().copied().collect();
        let outs: Vec<Vec<String>> = twins::capture_options(o, c, table)
            .into_iter()
            .map(|x| x.into_iter().map(|i| i.to_string()).collect())
            .collect();
        return Ok(json!(outs));
    }
    let beside = rules::Beside {
        builds: &builds,
        piles: &ctx,
    };
    let (outs, ons) = rules::capture_options_in(o, c, set, beside, held);
    let mut res: Vec<Vec<String>> = outs
        .into_iter()
        .map(|x| x.into_iter().map(|i| piles::item_text(i.0)).collect())
        .collect();
    res.extend(
        ons.into_iter()
            .map(|t| vec!["on".to_string(), t.to_string()]),
    );
    Ok(json!(res))
}

/// A list with one entry per side (`ns`).
fn per_side<'a>(v: &'a Value, what: &str, ns: usize) -> Result<&'a Vec<Value>> {
    let items = ST.list(v, what)?;
    if items.len() != ns {
        return Err(ST.err(format!(
            "{what} must have one entry per pile ({ns}), got {}",
            items.len()
        )));
    }
    Ok(items)
}

/// An int `>= 0` as a u64 (never a bool or a float).
fn count(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) if !n.is_f64() => n.as_u64(),
        _ => None,
    }
}

/// Points per side of a deal (docs/escoba_engine.md §7); the sides are the piles given, whatever the players
/// option says. `declared`: hand-declaration points per side; `ks_sweeps`: per side, how many of
/// its sweeps were made by playing `Ks`; with the double pack `twin_sweeps` and `ks_on_ks`.
fn score_deal(o: &EscobaOptions, a: &Map<String, Value>) -> Result<Value> {
    let pile_items = ST.list(&a["piles"], "piles")?;
    let ns = pile_items.len();
    if ns == 0 || ns > 6 {
        return Err(ST.err(format!(
            "piles must hold one card list per side (1 to 6 sides), got {ns}"
        )));
    }
    let twin = o.deck.copies() == 2;
    let mut seen = Multiset::EMPTY;
    let mut sets = Vec::with_capacity(ns);
    let mut multisets = Vec::with_capacity(ns);
    for (i, p) in pile_items.iter().enumerate() {
        let what = format!("piles[{i}]");
        let mut set = Multiset::EMPTY;
        for c in cards(p, &what, ST, o.deck)? {
            if (seen.contains(c) && !twin) || !seen.insert(c) {
                let place = if twin {
                    "more than twice"
                } else {
                    "in more than one place"
                };
                return Err(ST.err(format!("card {c} appears {place}")));
            }
            set.insert(c);
        }
        sets.push(set.one);
        multisets.push(set);
    }
    let mut counts = Vec::with_capacity(ns);
    // a sweep needs a card played, and a deal plays at most the pack (docs/escoba_engine.md §7)
    let most = o.deck.len() as u64;
    for (i, x) in per_side(&a["scope"], "scope", ns)?.iter().enumerate() {
        counts.push(
            count(x)
                .filter(|&k| k <= most)
                .ok_or_else(|| {
                    ST.err(format!(
                        "scope[{i}] must be an int in 0..{most}: a deal plays at most the {most} cards of the pack"
                    ))
                })?,
        );
    }
    let mut points = Vec::with_capacity(ns);
    if let Some(d) = given(a, "declared") {
        for (i, x) in per_side(d, "declared", ns)?.iter().enumerate() {
            points.push(ST.int(x, &format!("declared[{i}]"), 0, 1_000_000_000)?);
        }
    }
    // per side, how many of its `scope` sweeps were of one kind (empty when not given)
    let sweep_counts = |key: &str| -> Result<Vec<u64>> {
        let mut out = Vec::with_capacity(ns);
        if let Some(k) = given(a, key) {
            for (i, x) in per_side(k, key, ns)?.iter().enumerate() {
                match count(x) {
                    Some(v) if v <= counts[i] => out.push(v),
                    _ => return Err(ST.err(format!("{key}[{i}] must be an int in 0..scope[{i}]"))),
                }
            }
        }
        Ok(out)
    };
    let ks = sweep_counts("ks_sweeps")?;
    let mut twins_n = Vec::new();
    let mut both: Option<usize> = None;
    if given(a, "twin_sweeps").is_some() || given(a, "ks_on_ks").is_some() {
        if !twin {
            return Err(ST.err(
                "twin_sweeps and ks_on_ks need deck=double_italian80 (docs/escoba_engine.md §1a)"
                    .into(),
            ));
        }
        twins_n = sweep_counts("twin_sweeps")?;
        if let Some(k) = given(a, "ks_on_ks") {
            let s = match as_int(k) {
                Some(s) if (0..ns as i64).contains(&s) => s as usize,
                _ => {
                    return Err(ST.err(format!("ks_on_ks must be a side: an int in 0..{}", ns - 1)))
                }
            };
            let at = |v: &[u64]| v.get(s).copied().unwrap_or(0);
            if at(&ks) < 1 || at(&twins_n) < 1 {
                return Err(ST.err(
                    "the ks_on_ks sweep counts in its side's ks_sweeps and twin_sweeps".into(),
                ));
            }
            both = Some(s);
        }
    }
    for (s, &scope_s) in counts.iter().enumerate() {
        let at = |v: &[u64]| v.get(s).copied().unwrap_or(0);
        if at(&ks).saturating_add(at(&twins_n)) - u64::from(both == Some(s)) > scope_s {
            return Err(ST.err(
                "a side's ks_sweeps and twin_sweeps (ks_on_ks counted once) exceed its scope"
                    .into(),
            ));
        }
    }
    let pts = if twin {
        twins::score_deal_counts(o, &multisets, &counts, &points, &ks, &twins_n, both)
    } else {
        rules::score_deal_counts(o, &sets, &counts, &points, &ks)
    };
    Ok(json!(pts[..ns]))
}

#[cfg(test)]
mod tests {
    //! Expected values from the contract (docs/escoba_engine.md §7) and the rules' test vectors, worked by hand.
    use super::*;

    fn prim(options: Value, name: &str, args: Value) -> Result<Value> {
        crate::testing::primitive::<EscobaGame>(options, name, args)
    }

    #[test]
    fn capture_options_match_sum_and_trail() {
        // a match beats the sums (match_priority): 7d takes only 7h
        let r = prim(
            json!({}),
            "capture_options",
            json!({"card": "7d", "table": ["3c", "4h", "7h"]}),
        );
        assert_eq!(r.unwrap(), json!([["7h"]]));
        // two sums of 7, each an ascending id list (3c=2, 4h=29; 5c=4, 2s=40), sorted
        let r = prim(
            json!({}),
            "capture_options",
            json!({"card": 19, "table": ["5c", "2s", "3c", "4h"]}),
        );
        assert_eq!(r.unwrap(), json!([["3c", "4h"], ["5c", "2s"]]));
        // nothing to take: the trail
        let r = prim(
            json!({}),
            "capture_options",
            json!({"card": "Kd", "table": ["3c"]}),
        );
        assert_eq!(r.unwrap(), json!([[]]));
        // escoba: sum15 with the played card: 5d + Jc (8) + 2s = 15 (ids 10, 40), 5d + Kh (10)
        let r = prim(
            json!({"variant": "escoba"}),
            "capture_options",
            json!({"card": "5d", "table": ["Jc", "2s", "Kh"]}),
        );
        assert_eq!(r.unwrap(), json!([["Jc", "2s"], ["Kh"]]));
    }

    #[test]
    fn capture_options_refusals_name_the_error_kind() {
        let call = |args: Value| prim(json!({}), "capture_options", args).unwrap_err();
        let notation = |e: GameError| matches!(e, GameError::InvalidNotation(_));
        let state = |e: GameError| matches!(e, GameError::InvalidState(_));
        assert!(notation(call(json!({"card": "Zz", "table": []}))));
        assert!(notation(call(json!({"card": "8c", "table": []})))); // not in the 40-card pack
        assert!(notation(call(json!({"card": "7d", "table": "7h"}))));
        assert!(state(call(json!({"card": "7d", "table": ["7d"]}))));
        assert!(state(call(
            json!({"card": "7d", "table": [], "pile_tops": [null]})
        )));
        assert!(state(call(
            json!({"card": "7d", "table": [], "table_builds": [["Ac", "2c"]]})
        )));
        assert!(matches!(
            call(json!({"card": "7d", "table": [], "seat": 2})),
            GameError::InvalidPlayer(_)
        ));
    }

    #[test]
    fn capture_options_steal_and_double_pack() {
        // rubamazzo (docs/rules/escoba.md §2.21): 5d takes the opponent's pile topped by 5c, after the cards
        let r = prim(
            json!({"variant": "rubamazzo"}),
            "capture_options",
            json!({"card": "5d", "table": ["5h"], "pile_tops": [null, "5c"], "seat": 0}),
        );
        assert_eq!(r.unwrap(), json!([["5h"], ["pile1"]]));
        // the double pack lists a twin twice, and may take both copies (docs/escoba_engine.md §1a)
        let g = json!({"variant": "maresciallo_80"});
        let r = prim(
            g.clone(),
            "capture_options",
            json!({"card": "5d", "table": ["5c", "5c"]}),
        );
        assert_eq!(r.unwrap(), json!([["5c"]]));
        let r = prim(
            g,
            "capture_options",
            json!({"card": "5d", "table": ["5d", "5d"]}),
        );
        assert!(matches!(r, Err(GameError::InvalidState(_)))); // a third 5d
    }

    #[test]
    fn score_deal_of_a_scopa_deal() {
        // side 0: the ten coins and the other three 7s; side 1: the other 27 cards
        let coins = ["Ad", "2d", "3d", "4d", "5d", "6d", "7d", "Jd", "Qd", "Kd"];
        let mut side0: Vec<&str> = coins.to_vec();
        side0.extend(["7c", "7h", "7s"]);
        let side1: Vec<String> = super::super::rules::PACK
            .iter()
            .map(|c| c.to_string())
            .filter(|c| !side0.contains(&c.as_str()))
            .collect();
        // cards: side 1 (27); coins, settebello and primiera (side 1 has no coin): side 0; scope 2 + 1
        let r = prim(
            json!({}),
            "score_deal",
            json!({"piles": [side0, side1], "scope": [2, 1]}),
        );
        assert_eq!(r.unwrap(), json!([5, 2]));
        // declared points come on top
        let r = prim(
            json!({}),
            "score_deal",
            json!({"piles": [side0, side1], "scope": [0, 0], "declared": [0, 7]}),
        );
        assert_eq!(r.unwrap(), json!([3, 8]));
        let bad = |args: Value| {
            matches!(
                prim(json!({}), "score_deal", args),
                Err(GameError::InvalidState(_))
            )
        };
        assert!(bad(json!({"piles": [side0, side1], "scope": [1]})));
        assert!(bad(json!({"piles": [side0, side1], "scope": [-1, 0]})));
        assert!(bad(json!({"piles": [["7d"], ["7d"]], "scope": [0, 0]})));
        assert!(bad(
            json!({"piles": [side0, side1], "scope": [1, 0], "ks_sweeps": [2, 0]})
        ));
        assert!(bad(
            json!({"piles": [side0, side1], "scope": [1, 0], "twin_sweeps": [0, 0]})
        ));
        assert!(bad(json!({"piles": [], "scope": []})));
    }

    #[test]
    fn tuzzoli_and_knock_follow_the_rules_vectors() {
        // a primitive of one hand, under a preset's options
        let of_hand = |variant: &str, name: &str, hand: Value| {
            prim(json!({ "variant": variant }), name, json!({ "hand": hand })).unwrap()
        };
        let tuz = |hand: Value| of_hand("tuzzulicchio", "tuzzoli", hand);
        // docs/rules/escoba.md §2.8: A-2-3 of one suit is napoli (7), three of a rank buongioco (6), else 3 per pair
        assert_eq!(tuz(json!(["Ac", "2c", "3c"])), json!(["napoli", 7]));
        assert_eq!(tuz(json!(["Ac", "Ad", "Ah"])), json!(["buongioco", 6]));
        assert_eq!(tuz(json!(["Ac", "Ad", "5s"])), json!(["tuzzolo", 3]));
        assert_eq!(tuz(json!(["Ac", "Ad", "2d"])), json!(["two_tuzzoli", 6]));
        assert_eq!(tuz(json!(["Kc", "Qd", "5s"])), json!(["none", 0]));
        // TV-56 (docs/rules/escoba.md §3.8)
        let knock = |hand: Value| of_hand("cirulla", "knock", hand);
        assert_eq!(
            knock(json!(["Ac", "2d", "5s"])),
            json!(["cirulla", 3, null])
        );
        assert_eq!(
            knock(json!(["4c", "4d", "4s"])),
            json!(["decino", 10, null])
        );
        assert_eq!(knock(json!(["7h", "2c", "2d"])), json!(["decino", 10, 2]));
        assert_eq!(knock(json!(["7h", "Kc", "Qd"])), json!(["none", 0, null]));
        assert_eq!(
            knock(json!(["Ac", "Ad", "Ah"])),
            json!(["decino", 10, null])
        );
        let r = prim(json!({}), "knock", json!({"hand": ["Ac", "Ac"]}));
        assert!(matches!(r, Err(GameError::InvalidState(_))));
        let r = prim(json!({}), "tuzzoli", json!({"hand": "Ac"}));
        assert!(matches!(r, Err(GameError::InvalidNotation(_))));
        let r = prim(json!({}), "nope", json!({}));
        assert!(matches!(r, Err(GameError::InvalidOption(_))));
    }
}
