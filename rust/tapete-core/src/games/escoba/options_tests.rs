//! Rule vectors of the options `napola_flat`, `max_consecutive_sweeps`,
//! `ace_self_capture_is_scopa` and `ace_may_trail` (docs/rules/escoba.md §1.5, §1.8, §2.1);
//! expected values by hand from the rules text.

use serde_json::{json, Value};

use super::options::EscobaOptions;
use super::rules;
use super::test_support::*;
use super::*;
use crate::cards::CardSet;
use crate::game::{Game, State};

fn game(v: Value) -> EscobaGame {
    EscobaGame::from_options(&v).unwrap()
}
fn refused(v: Value) -> bool {
    matches!(
        EscobaGame::from_options(&v),
        Err(GameError::InvalidOption(_))
    )
}
fn score(o: &EscobaOptions, ps: &[&str], sweeps: &[u8]) -> Vec<i64> {
    let piles: Vec<CardSet> = ps.iter().map(|p| set(p)).collect();
    rules::score_deal(o, &piles, sweeps)[..ps.len()].to_vec()
}
fn coins(ranks: &str) -> String {
    ranks
        .split_whitespace()
        .map(|r| format!("{r}d"))
        .collect::<Vec<_>>()
        .join(" ")
}

// ----- napola_flat (docs/rules/escoba.md §1.8) -----

const TV26_A: &str = "7d 7h 7s 6d 6c Ad 2d 3d 4d Kd Jh Qh Kh 5s 4s 3s 2s As Jc Qc Kc 5c";
const TV26_B: &str = "2c 2h 3c 3h 4c 4h 5d 5h 6h 6s 7c Ac Ah Jd Js Ks Qd Qs";

#[test]
fn napola_flat_scores_the_flat_value() {
    // TV-27's piles and scope (A 1, B 2): A = 4 categories + 1 scopa + napola + re bello, the
    // run A-2-3-4 (L = 4) scoring 3 instead of 4: A = 5 + 3 + 1 = 9; B = its 2 scope
    let o = opts(json!({"napola": true, "re_bello": true, "napola_flat": 3}));
    assert_eq!(score(&o, &[TV26_A, TV26_B], &[1, 0, 1]), vec![9, 2]);
    let o = opts(json!({"napola": true, "napola_flat": 3,
                        "cards": 0, "coins": 0, "settebello": 0, "primiera": 0}));
    assert_eq!(score(&o, &[&coins("A 2 3 4 5 J"), ""], &[]), vec![3, 0]);
    // L = 2 still scores nothing
    assert_eq!(score(&o, &[&coins("A 2 7"), &coins("3")], &[]), vec![0, 0]);
    assert_eq!(
        score(&o, &[&coins("A 2 3 4 5 6 7 J Q K"), ""], &[]),
        vec![3, 0]
    );
    // without the option the run's length
    let o = opts(json!({"napola": true, "cards": 0, "coins": 0, "settebello": 0, "primiera": 0}));
    assert_eq!(score(&o, &[&coins("A 2 3 4 5 J"), ""], &[]), vec![5, 0]);
}

#[test]
fn napola_flat_on_the_double_pack_scores_each_run() {
    use super::twins::{napola_points, Multiset};
    let ms = |s: &str| -> Multiset { s.split_whitespace().map(c).collect() };
    // L1 = 5, L2 = 4: each reaches 3, 3 + 3
    assert_eq!(napola_points(ms("Ad Ad 2d 2d 3d 3d 4d 4d 5d"), Some(3)), 6);
    // L1 = 4, L2 = 2: only the first
    assert_eq!(napola_points(ms("Ad Ad 2d 2d 3d 4d"), Some(3)), 3);
    assert_eq!(napola_points(ms("2d 2d 3d 3d"), Some(3)), 0);
}

// ----- max_consecutive_sweeps (docs/rules/escoba.md §1.5) -----

fn tv77(cap: Value) -> EscobaState {
    let g = game(json!({"max_consecutive_sweeps": cap, "game": "single_deal"}));
    let spec = json!({"hands": [["5c", "4d", "Kc"], ["4h", "6h", "Qs"]], "table": ["2s", "3s"],
                      "dealer": 1, "to_move": 0});
    let mut s = g.setup(&spec).unwrap();
    for m in ["5c x 2s 3s", "4h", "4d x 4h"] {
        s.play(m).unwrap();
    }
    s
}

fn streak_of(s: &EscobaState) -> Value {
    let j: Value = serde_json::from_str(&s.to_json()).unwrap();
    j["sweep_streak"].clone()
}

#[test]
fn tv77_a_sweep_beyond_the_cap_scores_nothing() {
    // 5c x 2s 3s sweeps (streak 1), 4h trails onto the empty table, 4d x 4h sweeps again:
    // streak 2 > 1, no scopa; both sweeps' cards are in side 0's pile
    let s = tv77(json!(1));
    assert_eq!(s.sweeps(), &[0]);
    assert_eq!(streak_of(&s), json!([2, 0]));
    assert_eq!(s.pile(0), set("2s 3s 5c 4h 4d"));
    assert!(s.table().is_empty());
    // public: in every seat's view, and the observation's last block (streak / cap, at most 1)
    let v: Value = serde_json::from_str(&s.view_json(1)).unwrap();
    assert_eq!(v["sweep_streak"], json!([2, 0]));
    let g = s.game();
    let obs = s.observation(1).unwrap();
    assert_eq!(obs.len(), g.observation_size());
    assert_eq!(&obs[obs.len() - 2..], &[1.0, 0.0]);
    // the cap 2, or none: both are scope
    assert_eq!(tv77(json!(2)).sweeps(), &[0, 0]);
    let s3 = tv77(json!(3));
    let obs = s3.observation(0).unwrap();
    assert_eq!(&obs[obs.len() - 2..], &[2.0 / 3.0, 0.0]);
    let none = tv77(Value::Null);
    assert_eq!(none.sweeps(), &[0, 0]);
    assert!(!none.to_json().contains("sweep_streak"));
    assert!(!none.view_json(0).contains("sweep_streak"));
    assert_eq!(
        game(json!({})).observation_size() + 2,
        game(json!({"max_consecutive_sweeps": 1})).observation_size()
    );
}

#[test]
fn tv78_a_play_without_a_sweep_resets_the_streak() {
    // 5c x 2s 3s (streak 1), 4h trails, Kc trails (streak 0), Ks x Kc leaves 4h (no sweep),
    // 4d x 4h sweeps: streak 1, a scopa
    let g = game(json!({"max_consecutive_sweeps": 1, "game": "single_deal"}));
    let spec = json!({"hands": [["5c", "Kc", "4d"], ["4h", "Ks", "6h"]], "table": ["2s", "3s"],
                      "dealer": 1, "to_move": 0});
    let mut s = g.setup(&spec).unwrap();
    for m in ["5c x 2s 3s", "4h", "Kc", "Ks x Kc", "4d x 4h"] {
        s.play(m).unwrap();
    }
    assert_eq!(s.sweeps(), &[0, 0]);
    assert_eq!(streak_of(&s), json!([1, 0]));
}

#[test]
fn sweep_streak_json_round_trips_and_is_checked() {
    let s = tv77(json!(1));
    let g = s.game();
    let j = s.to_json();
    assert_eq!(g.state_from_json(&j).unwrap().to_json(), j);
    let bad = |from: &str, to: &str| {
        let t = j.replace(from, to);
        assert_ne!(t, j);
        matches!(g.state_from_json(&t), Err(GameError::InvalidState(_)))
    };
    assert!(bad("\"sweep_streak\":[2,0]", "\"sweep_streak\":[2]"));
    assert!(bad("\"sweep_streak\":[2,0]", "\"sweep_streak\":[-1,0]"));
    assert!(bad("\"sweep_streak\":[2,0]", "\"sweep_streak\":[41,0]"));
    assert!(bad("\"sweep_streak\":[2,0],", ""));
    // without the option the key is unknown
    let plain = tv77(Value::Null);
    let t = plain
        .to_json()
        .replace("\"sweeps\"", "\"sweep_streak\":[0,0],\"sweeps\"");
    assert!(matches!(
        plain.game().state_from_json(&t),
        Err(GameError::InvalidState(_))
    ));
}

// ----- ace_self_capture_is_scopa (docs/rules/escoba.md §2.1) -----

#[test]
fn tv79_the_aces_self_capture_is_a_scopa_but_on_the_last_play() {
    let apt = |extra: Value| {
        let mut o = json!({"variant": "asso_piglia_tutto", "game": "single_deal"});
        o.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        game(o)
    };
    let spec = json!({"hands": [["Ad", "4d", "Kc"], ["4h", "6h", "Qs"]], "table": [],
                      "dealer": 1, "to_move": 0});
    // (a) not the last play: a scopa for side 0
    let mut s = apt(json!({"ace_self_capture_is_scopa": true}))
        .setup(&spec)
        .unwrap();
    s.play("Ad").unwrap();
    assert_eq!(s.sweeps(), &[0]);
    assert_eq!(s.pile(0), set("Ad"));
    let mut plain = apt(json!({})).setup(&spec).unwrap();
    plain.play("Ad").unwrap();
    assert_eq!(plain.sweeps(), &[] as &[u8]);
    // (b) the deal's last play: seat 1 holds Ad alone, side 0's pile the other 39 cards: no
    // scopa; side 0 takes cards, coins (9 of 10), settebello and primiera (side 1 holds one
    // suit only): [4, 0], whatever scopa_on_last_play says
    let rest: Vec<String> = rules::PACK
        .iter()
        .filter(|&&x| x != c("Ad"))
        .map(|x| x.to_string())
        .collect();
    let last = json!({"hands": [[], ["Ad"]], "table": [], "piles": [rest, []], "stock": [],
                      "dealer": 1, "to_move": 1});
    for on_last in [false, true] {
        let g = apt(json!({"ace_self_capture_is_scopa": true, "scopa_on_last_play": on_last}));
        let mut s = g.setup(&last).unwrap();
        s.play("Ad").unwrap();
        assert!(s.is_terminal());
        assert_eq!(s.deal_points(), vec![vec![4, 0]]);
    }
    // refused without the self-capture on an empty table
    assert!(refused(
        json!({"variant": "asso_piglia_tutto", "ace_self_capture_is_scopa": true,
                           "ace_on_empty_table": "trail"})
    ));
    assert!(refused(json!({"ace_self_capture_is_scopa": true})));
}

// ----- ace_may_trail (docs/rules/escoba.md §2.1) -----

#[test]
fn tv80_only_the_ace_may_trail() {
    let o = opts(json!({"variant": "asso_piglia_tutto", "ace_may_trail": true}));
    let outs = |p: &str, t: &str| -> Vec<CardSet> {
        rules::capture_options(&o, c(p), set(t))
            .into_iter()
            .map(|v| v.into_iter().collect())
            .collect()
    };
    // As takes the whole table, or trails
    let mut got = outs("As", "5h 3s Kc");
    got.sort_by_key(|x| x.0);
    assert_eq!(got, vec![CardSet::EMPTY, set("5h 3s Kc")]);
    // 5c keeps its obligation: only 5h
    assert_eq!(outs("5c", "5h 3s Kc"), vec![set("5h")]);
    // a table Ace blocks the take-all: Ad takes Ah, or trails
    let mut got = outs("Ad", "Ah 5s");
    got.sort_by_key(|x| x.0);
    assert_eq!(got, vec![CardSet::EMPTY, set("Ah")]);
    // an empty table: only the self-capture
    assert_eq!(outs("Ad", ""), vec![set("Ad")]);
    // without the option the Ace must take
    let plain = opts(json!({"variant": "asso_piglia_tutto"}));
    assert_eq!(
        rules::capture_options(&plain, c("As"), set("5h 3s Kc")).len(),
        1
    );
    assert!(refused(json!({"ace_may_trail": true})));
}

#[test]
fn ace_may_trail_under_any_card_still_obliges_the_others() {
    // any_card: As can capture, so 4c (which cannot) may not be played; As may take or trail
    let g = game(
        json!({"variant": "asso_piglia_tutto", "ace_may_trail": true,
                        "capture_obligation": "any_card"}),
    );
    let spec = json!({"hands": [["As", "4c", "Kc"], ["4h", "6h", "Qs"]], "table": ["5h"],
                      "dealer": 1, "to_move": 0});
    let s = g.setup(&spec).unwrap();
    let plays: Vec<String> = s
        .legal_actions()
        .into_iter()
        .map(|a| s.action_to_string(a).unwrap())
        .collect();
    assert_eq!(plays, vec!["As".to_string()]);
    let mut t = s.clone();
    t.play("As").unwrap();
    assert_eq!(t.table(), set("5h As"));
    let mut t = s.clone();
    t.play("As x 5h").unwrap();
    assert!(t.table().is_empty());
}
