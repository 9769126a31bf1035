//! Rule vectors of docs/rules/escoba.md §3 (expected values written from the rules file) and
//! state-machine invariants.

use serde_json::{json, Value};

use super::options::EscobaOptions;
use super::rules::{self, Outcome};
use super::test_support::*;
use super::*;
use crate::cards::{Card, CardSet};
use crate::game::{Game, State};

/// "⇒ none": the only outcome is the trail, written `[]`.
const TRAIL: &[&str] = &[""];

fn base() -> EscobaOptions {
    opts(json!({}))
}

/// The position `spec` (a `setup` spec) of a game with `options`.
fn position(options: Value, spec: Value) -> EscobaState {
    EscobaGame::from_options(&options)
        .unwrap()
        .setup(&spec)
        .unwrap()
}

/// Whether `r` failed with `IllegalAction`.
fn illegal<T>(r: Result<T>) -> bool {
    matches!(r, Err(GameError::IllegalAction(_)))
}

/// Capture rule vectors under the options `o`, one test each: the card played on the table
/// and the capture options the rules give (as sets, in any order).
macro_rules! capture_vectors {
    ($o:expr; $($name:ident: $played:literal on $table:literal => $want:expr;)+) => {
        $(
            #[test]
            fn $name() {
                assert_eq!(caps(&$o, $played, $table), expect($want));
            }
        )+
    };
}

// ----- 3.1 base capture legality -----

capture_vectors! { base();
    tv01_match_forbids_sum: "Jd" on "3h 5s Jc" => &["Jc"];
    tv02_free_choice_among_sums: "Qh" on "Ah 3s 4c 5d" => &["Ah 3s 5d", "4c 5d"];
    tv03_match_priority: "7d" on "7h 4s 3c" => &["7h"];
    tv04_one_card_only_choose_which: "5d" on "5h 5s 2c" => &["5h", "5s"];
    tv05_no_subset_totals_ten: "Kd" on "2h 3s 4c" => TRAIL;
    tv06_king_sweeps_four_cards: "Kh" on "Ah 2s 3c 4d" => &["Ah 2s 3c 4d"];
    tv07_two_sums: "6h" on "Ah 2s 3c 4d" => &["2s 4d", "Ah 2s 3c"];
    tv08_ace_takes_only_ace: "Ad" on "Kh" => TRAIL;
    tv09_two_aces_sum: "2d" on "Ah Ac" => &["Ah Ac"];
    tv10_suits_make_distinct_moves: "Qd" on "6h 6s 3c 3d" => &["6h 3c", "6h 3d", "6s 3c", "6s 3d"];
    tv11_no_fewest_cards_in_base: "6d" on "Ah 2h 3h 4h 5h" => &["Ah 5h", "2h 4h", "Ah 2h 3h"];
}

#[test]
fn tv12_empty_table_trails() {
    for p in ["Ad", "7s", "Kc", "Jh"] {
        assert_eq!(caps(&base(), p, ""), expect(TRAIL), "{p}");
    }
}

/// Moves of a hand as (card, outcome) pairs.
fn moves(o: &EscobaOptions, hand: &str, table: &str) -> Vec<(Card, Outcome)> {
    let h = set(hand);
    let mut v = Vec::new();
    for p in h {
        rules::for_each_outcome(o, p, set(table), h, false, |x| v.push((p, x)));
    }
    v
}

#[test]
fn tv13_capture_obligation() {
    let cap = |cards: &str| Outcome::Capture {
        cards: set(cards),
        from_kind: true,
    };
    let played = moves(&base(), "7d Kc", "4h 3s");
    // hand in ascending id order (Kc = 12, 7d = 19)
    assert_eq!(
        played,
        vec![(c("Kc"), Outcome::Trail), (c("7d"), cap("4h 3s"))]
    );
    let any = moves(
        &opts(json!({"capture_obligation": "any_card"})),
        "7d Kc",
        "4h 3s",
    );
    assert_eq!(any, vec![(c("7d"), cap("4h 3s"))]);
    let optional = moves(
        &opts(json!({"capture_obligation": "optional"})),
        "7d Kc",
        "4h 3s",
    );
    assert_eq!(
        optional,
        vec![
            (c("Kc"), Outcome::Trail),
            (c("7d"), cap("4h 3s")),
            (c("7d"), Outcome::Trail)
        ]
    );
}

// ----- 3.5 ace variants -----

#[test]
fn tv35_ace_takes_all() {
    for v in ["asso_piglia_tutto", "scopa_d_assi", "sbarazzina"] {
        let o = opts(json!({ "variant": v }));
        assert_eq!(caps(&o, "As", "5h 3s Kc"), expect(&["5h 3s Kc"]), "{v}");
    }
    // scopa or not: played through the state machine
    for (v, scopa) in [
        ("asso_piglia_tutto", 1),
        ("scopa_d_assi", 0),
        ("sbarazzina", 0),
    ] {
        let mut s = position(
            json!({ "variant": v }),
            json!({"hands": [["As", "2c"], ["4d", "6c"]], "table": ["5h", "3s", "Kc"], "to_move": 0}),
        );
        s.apply_str("As").unwrap();
        assert!(s.table().is_empty());
        assert_eq!(s.sweeps().len(), scopa, "{v}");
        assert_eq!(s.pile(0), set("As 5h 3s Kc"));
    }
}

#[test]
fn tv36_ace_blocked_by_table_ace() {
    let o = opts(json!({"variant": "asso_piglia_tutto"}));
    assert_eq!(caps(&o, "Ad", "Ah 5s"), expect(&["Ah"]));
    let o = opts(json!({"variant": "asso_piglia_tutto", "ace_blocked_by_table_ace": false}));
    assert_eq!(caps(&o, "Ad", "Ah 5s"), expect(&["Ah", "Ah 5s"]));
}

#[test]
fn tv37_ace_on_empty_table() {
    let o = opts(json!({"variant": "asso_piglia_tutto"}));
    assert_eq!(
        rules::capture_options(&o, c("Ad"), CardSet::EMPTY),
        vec![vec![c("Ad")]]
    );
    let mut s = position(
        json!({"variant": "asso_piglia_tutto"}),
        json!({"hands": [["Ad", "2c"], ["4d", "6c"]], "to_move": 0}),
    );
    s.apply_str("Ad").unwrap();
    assert_eq!(s.pile(0), set("Ad"));
    assert_eq!(s.last_capturer(), Some(0));
    assert!(s.sweeps().is_empty() && s.table().is_empty());
    let o = opts(json!({"variant": "asso_piglia_tutto", "ace_on_empty_table": "trail"}));
    assert_eq!(caps(&o, "Ad", ""), expect(TRAIL));
}

// ----- 3.6 scopa a 15 and scopa a 11 -----

capture_vectors! { opts(json!({"variant": "scopa_15"}));
    tv39_scopa15_fewest_cards: "6d" on "Ah 3s 4c 5d Jh" => &["Ah 5d", "Ah Jh", "4c 5d"];
    tv40_scopa15_match_and_fifteen: "7d" on "7h Jc" => &["7h", "Jc"];
}

#[test]
fn tv41_fewest_all_vs_sum15_only() {
    let o = opts(json!({"variant": "scopa_15"}));
    assert_eq!(caps(&o, "3d", "Kh 2s 3c"), expect(&["3c"]));
    let o = opts(json!({"variant": "scopa_15", "fewest_cards": "sum15_only"}));
    assert_eq!(caps(&o, "3d", "Kh 2s 3c"), expect(&["3c", "Kh 2s"]));
}

capture_vectors! { opts(json!({"variant": "scopa_11"}));
    tv42_scopa11_jack_takes_three: "Jd" on "3h" => &["3h"];
    tv43_scopa11_ignores_match_priority: "Jd" on "Jh 3s" => &["Jh", "3s"];
}

#[test]
fn tv44_scopa11_ace_takes_king() {
    let o = opts(json!({"variant": "scopa_11"}));
    assert_eq!(caps(&o, "Ad", "Kh 4s 6c"), expect(&["Kh", "4s 6c"]));
    assert_eq!(caps(&base(), "Ad", "Kh 4s 6c"), expect(TRAIL));
}

// ----- 3.7 escoba -----

fn escoba() -> EscobaOptions {
    opts(json!({"variant": "escoba"}))
}

capture_vectors! { escoba();
    tv45_escoba_fifteen: "7h" on "Ah 3s 4c 5d" => &["3s 5d", "Ah 3s 4c"];
    tv46_escoba_king_takes_fives_not_king: "Kd" on "Kh 5s 5c" => &["5s", "5c"];
    tv47_escoba_two_ways: "4c" on "2h 3s Jc Qd" => &["2h Qd", "3s Jc"];
}

#[test]
fn tv48_escoba_sweep() {
    assert_eq!(caps(&escoba(), "5d", "Kh"), expect(&["Kh"]));
    let mut s = position(
        json!({"variant": "escoba"}),
        json!({"hands": [["5d", "2c"], ["4d", "6c"]], "table": ["Kh"], "to_move": 0}),
    );
    s.apply_str("5d").unwrap();
    assert_eq!(s.sweeps(), &[0]);
}

#[test]
fn tv06_sweep_scores_scopa_and_tv14_last_play_does_not() {
    let mut s = position(
        json!({}),
        json!({"hands": [["Kh", "2c"], ["4h", "6c"]], "table": ["Ah", "2s", "3c", "4d"], "to_move": 0}),
    );
    s.apply_str("Kh").unwrap();
    assert_eq!(s.sweeps(), &[0]);

    // TV-14: the last card of the deal sweeps: no scopa (and a scopa with scopa_on_last_play).
    for (on_last, sweeps) in [(false, 0i64), (true, 1)] {
        let g = EscobaGame::from_options(&json!({"scopa_on_last_play": on_last, "target": 100}))
            .unwrap();
        let rest: Vec<String> = rules::PACK
            .iter()
            .filter(|&&x| !set("7d 4h 3s").contains(x))
            .map(|x| x.to_string())
            .collect();
        let mut s = g
            .setup(
                &json!({"hands": [["7d"], []], "table": ["4h", "3s"], "stock": [],
                           "piles": [rest, []], "dealer": 0, "to_move": 0}),
            )
            .unwrap();
        s.apply_str("7d").unwrap();
        // side 0 holds all 40: cards, coins, settebello, primiera = 4, plus the sweep if it counts
        assert_eq!(s.deal_points(), vec![vec![4 + sweeps, 0]]);
        assert_eq!(s.deal(), 2);
    }
}

// ----- options -----

#[test]
fn options_resolution() {
    let o = base();
    assert_eq!(o.target, 11);
    assert_eq!(opts(json!({"players": 3})).target, 16);
    assert_eq!(opts(json!({"players": 4})).target, 21);
    assert_eq!(
        opts(json!({"players": 4, "partnership": "none"})).target,
        16
    );
    assert_eq!(escoba().target, 21);
    let apt4 = opts(json!({"variant": "asso_piglia_tutto", "players": 4}));
    assert_eq!((apt4.initial_table_cards, apt4.cards_per_hand), (0, 10));
    let n = opts(json!({"variant": "scopa_15", "normal_captures": false}));
    assert_eq!(n.capture_kinds, options::KIND_SUM15);
    let sm = opts(json!({"setenta_mode": "most_sevens_tiebreak"}));
    assert_eq!(sm.milan_tiebreak, vec![7, 6, 1, 5]);
    assert_eq!(opts(json!({"variant": "scopone_9"})).players, 4);
    let bad = [
        json!({"players": 5}),
        json!({"players": true}),
        json!({"cards": false}),
        json!({"normal_captures": 1}),
        json!({"foo": 1}),
        json!({"variant": "scopone_10", "players": 2}),
        json!({"capture_kinds": ["match", "match"]}),
        json!({"milan_tiebreak": []}),
        json!({"setenta_mode": "primiera", "primiera_mode": "veneto"}),
        json!({"cards_per_hand": 5}),
        json!({"initial_table_cards": 37}),
        json!({"special_cards": {"8h": 1}}),
        json!({"target": 0}),
        json!({"scopa_value": 1.5}),
        json!([1]),
    ];
    for b in bad {
        assert!(
            matches!(EscobaOptions::resolve(&b), Err(GameError::InvalidOption(_))),
            "{b} should be rejected"
        );
    }
    let g = EscobaGame::from_options(
        &json!({"special_cards": {"kd": 2, "2D": 1}, "milan_tiebreak": ["7", "A", "J"]}),
    )
    .unwrap();
    let v: Value = serde_json::from_str(g.options_json()).unwrap();
    assert_eq!(v["special_cards"], json!({"2d": 1, "Kd": 2}));
    assert_eq!(v["milan_tiebreak"], json!(["7", "A", "J"]));
    // resolving the resolved options again is the identity
    assert_eq!(
        EscobaGame::from_options(&v).unwrap().options_json(),
        g.options_json()
    );
    assert!(g
        .options_json()
        .starts_with("{\"ace_blocked_by_table_ace\":true,"));
}

#[test]
fn notation_round_trip() {
    for a in 0..NUM_ACTIONS {
        let t = action_to_string(a).unwrap();
        assert_eq!(string_to_action(&t).unwrap(), a, "{t}");
        assert_eq!(string_to_action(&t.to_uppercase()).unwrap(), a, "{t}");
    }
    assert!(illegal(action_to_string(219)));
    for bad in [
        "",
        "take",
        "take pile 6",
        "7x",
        "done now",
        "no",
        "take 10",
        "build 3h",
    ] {
        assert!(
            matches!(string_to_action(bad), Err(GameError::InvalidNotation(_))),
            "{bad}"
        );
    }
    assert_eq!(string_to_action("  TAKE   10h ").unwrap(), 52 + 35);
}

// ----- state machine -----

#[test]
fn step_protocol_selection() {
    // TV-02 through the step protocol: Qh on Ah 3s 4c 5d has two outcomes.
    let spec = json!({"hands": [["Qh", "2c"], ["4d", "6c"]], "table": ["Ah", "3s", "4c", "5d"], "to_move": 0});
    let mut s = position(json!({}), spec.clone());
    s.apply_str("Qh").unwrap();
    assert_eq!(s.pending(), Some(c("Qh")));
    let names = |s: &EscobaState| -> Vec<String> {
        s.legal_actions()
            .into_iter()
            .map(|a| action_to_string(a).unwrap())
            .collect()
    };
    // {Ah,3s,5d} starts with Ah; {4c,5d} with 4c
    assert_eq!(names(&s), vec!["take 4c", "take 5d"]);
    let before = s.to_json();
    assert!(illegal(s.apply_str("take 3s")));
    assert!(illegal(s.apply_str("done")));
    assert_eq!(s.to_json(), before);
    s.apply_str("take 5d").unwrap(); // only {5d,Ah,3s} extends [5d]: applied at once
    assert_eq!(s.pending(), None);
    assert_eq!(s.pile(0), set("Qh Ah 3s 5d"));
    assert_eq!(s.table(), set("4c"));
    assert_eq!(s.current_player(), Some(1));
    assert_eq!(s.history(), vec![c("Qh").0 as u32, 52 + c("5d").0 as u32]);

    // a full move
    let mut s = position(json!({}), spec);
    let before = s.to_json();
    assert!(illegal(s.play_move("Qh x Ah 4c")));
    assert!(illegal(s.play_move("Qh")));
    assert!(matches!(
        s.play_move("Qh x"),
        Err(GameError::InvalidNotation(_))
    ));
    assert_eq!(s.to_json(), before);
    s.play_move("Qh x 5d 4c").unwrap();
    assert_eq!(s.table(), set("Ah 3s"));
}

#[test]
fn done_when_selection_is_itself_a_capture() {
    // scopa_15 without fewest cards: 5d on 5c 5h: matches {5c}, {5h} and the 15 {5c 5h}.
    let g =
        EscobaGame::from_options(&json!({"variant": "scopa_15", "fewest_cards": "none"})).unwrap();
    let names = |s: &EscobaState| -> Vec<String> {
        s.legal_actions()
            .into_iter()
            .map(|a| action_to_string(a).unwrap())
            .collect()
    };
    let spec = json!({"hands": [["5d", "2c"], ["4d", "6d"]], "table": ["5c", "5h"], "to_move": 0});
    let mut s = g.setup(&spec).unwrap();
    s.apply_str("5d").unwrap();
    assert_eq!(names(&s), vec!["take 5c", "take 5h"]);
    s.apply_str("take 5c").unwrap();
    assert_eq!(names(&s), vec!["take 5h", "done"]);
    let mut t = s.clone();
    s.apply_str("done").unwrap();
    assert_eq!(s.pile(0), set("5d 5c"));
    assert!(s.sweeps().is_empty());
    t.apply_str("take 5h").unwrap();
    assert_eq!(t.pile(0), set("5d 5c 5h"));
    assert_eq!(t.sweeps(), &[0]);
    // escoba: 2d on 3h 4s 6c 7d Kc needs 13: {Kc 3h}, {6c 7d}, {6c 3h 4s}
    let mut s = position(
        json!({"variant": "escoba"}),
        json!({"hands": [["2d", "2c"], ["4d", "6d"]], "table": ["3h", "4s", "6c", "7d", "Kc"], "to_move": 0}),
    );
    s.apply_str("2d").unwrap();
    assert_eq!(names(&s), vec!["take 6c", "take Kc"]);
    s.apply_str("take 6c").unwrap();
    assert_eq!(names(&s), vec!["take 7d", "take 3h"]);
    s.apply_str("take 3h").unwrap();
    assert_eq!(s.pile(0), set("2d 6c 3h 4s"));
    assert_eq!(s.table(), set("7d Kc"));
}

#[test]
fn same_seed_same_game() {
    let g = EscobaGame::from_options(&json!({})).unwrap();
    let r1 = crate::play::simulate(&g, 40, 9, 1).unwrap();
    let r2 = crate::play::simulate(&g, 40, 9, 2).unwrap();
    assert_eq!(r1, r2);
    assert!(r1.deals.iter().all(|&d| d >= 1));
}

#[test]
fn new_state_with_deck_deals_in_order() {
    let g = EscobaGame::from_options(&json!({"first_dealer": "random"})).unwrap();
    let deck: Vec<Card> = rules::PACK.iter().rev().copied().collect();
    let s = g
        .new_state_with_deck(5, &json!(deck.iter().map(|c| c.0).collect::<Vec<_>>()))
        .unwrap();
    // first draw picks the dealer
    let d = (SplitMix64::new(5).next_u64() % 2) as usize;
    assert_eq!(s.dealer(), d);
    let eldest = (d + 1) % 2;
    // one card at a time from the eldest: deck[0], deck[2], deck[4] to the eldest
    let top3: CardSet = [deck[0], deck[2], deck[4]].into_iter().collect();
    // the table is deck[6..10] = 4s 3s 2s As: no King, so the deal is not void
    assert_eq!(s.hand(eldest), top3);
    assert_eq!(s.table(), deck[6..10].iter().copied().collect());
    assert!(g
        .new_state_with_deck(
            5,
            &json!(deck[..39].iter().map(|c| c.0).collect::<Vec<_>>())
        )
        .is_err());
}

#[test]
fn tampered_json_is_rejected() {
    let g = EscobaGame::from_options(&json!({})).unwrap();
    let s = g.new_state(3);
    let j = s.to_json();
    let v: Value = serde_json::from_str(&j).unwrap();
    let mutate = |f: &dyn Fn(&mut Value)| -> String {
        let mut w = v.clone();
        f(&mut w);
        w.to_string()
    };
    let bad = [
        mutate(&|w| w["hands"][0] = json!([])),
        mutate(&|w| w["version"] = json!(2)),
        mutate(&|w| w["options"]["target"] = json!(12)),
        mutate(&|w| w["rng"] = json!(5)),
        mutate(&|w| w["dealer"] = json!(true)),
        mutate(&|w| w["pending"] = json!(3)),
        mutate(&|w| w["terminal"] = json!(true)),
        mutate(&|w| w["extra"] = json!(1)),
        "{".to_string(),
        "[]".to_string(),
    ];
    for b in bad {
        assert!(
            matches!(g.state_from_json(&b), Err(GameError::InvalidState(_))),
            "{b}"
        );
    }
}

// ----- review regressions -----

#[test]
fn any_card_ignores_forbidden_first_aces() {
    // Ac could capture Ad but may not be played first: 5d and 6h trail (docs/escoba_engine.md §3).
    let g = EscobaGame::from_options(
        &json!({"forbid_ace_first_play": true, "capture_obligation": "any_card"}),
    )
    .unwrap();
    let s = g
        .setup(&json!({"hands": [["Ac", "5d", "6h"], ["2c", "3c", "4c"]],
                       "table": ["Ad", "Kc", "Qs", "Jh"]}))
        .unwrap();
    assert_eq!(s.legal_actions(), vec![17, 31]);
    assert!(s.is_legal(17) && s.is_legal(31) && !s.is_legal(c("Ac").0 as Action));
    // the JSON round trip accepts the position (the mover has a legal action)
    let back = g.state_from_json(&s.to_json()).unwrap();
    assert_eq!(back.legal_actions(), vec![17, 31]);
    let mut t = s.clone();
    t.apply_str("5d").unwrap();
    assert_eq!(t.table(), set("Ad Kc Qs Jh 5d"));
    // the outcome primitive agrees: 5d and 6h trail, Ac has no outcome
    let o = g.options();
    let hand = set("Ac 5d 6h");
    let table = set("Ad Kc Qs Jh");
    let outs = |p: &str| {
        let mut v = Vec::new();
        rules::for_each_outcome(o, c(p), table, hand, true, |x| v.push(x));
        v
    };
    assert_eq!(outs("5d"), vec![Outcome::Trail]);
    assert_eq!(outs("6h"), vec![Outcome::Trail]);
    assert!(outs("Ac").is_empty());
    // after the first play the Ace counts again: 5d must not trail while Ac captures
    let mut v = Vec::new();
    rules::for_each_outcome(o, c("5d"), table, hand, false, |x| v.push(x));
    assert!(v.is_empty());
}

/// The error message of resolving options given as JSON text.
fn option_error(text: &str) -> String {
    match EscobaGame::from_options_json(text) {
        Err(GameError::InvalidOption(m)) => m,
        other => panic!(
            "{text}: expected InvalidOption, got {:?}",
            other.map(|_| ())
        ),
    }
}

#[test]
fn integer_options_are_at_most_1e9() {
    let keys = [
        "target",
        "scopa_value",
        "cards",
        "coins",
        "settebello",
        "primiera",
        "all_sevens_bonus",
        "all_oros_bonus",
        "coin_card_points",
        "win_margin",
        "max_deals",
        "cards_per_hand",
    ];
    let huge = format!("1{}", "0".repeat(5000));
    for key in keys {
        for bad in [
            "1000000001",
            "9223372036854775807",
            "9223372036854775808",
            "1180591620717411303424",
            huge.as_str(),
        ] {
            let m = option_error(&format!("{{\"{key}\":{bad}}}"));
            assert!(
                m.contains("1000000000") && m.contains(key),
                "{key}={bad}: {m}"
            );
            assert!(!m.contains("float"), "{key}={bad}: {m}");
        }
        // a huge negative int is below the minimum, not a float
        let m = option_error(&format!("{{\"{key}\":-{huge}}}"));
        assert!(!m.contains("float") && m.contains(key), "{m}");
    }
    let m = option_error(r#"{"special_cards":{"Kd":1000000001}}"#);
    assert!(m.contains("1000000000"), "{m}");
    let m = option_error(r#"{"special_cards":{"Kd":100000000000000000000000}}"#);
    assert!(m.contains("1000000000"), "{m}");
    // the bound itself is fine, and a real float is still "a float"
    for ok in [
        r#"{"target":1000000000}"#,
        r#"{"scopa_value":1000000000}"#,
        r#"{"special_cards":{"Kd":1000000000}}"#,
        r#"{"max_deals":1000000000}"#,
    ] {
        EscobaGame::from_options_json(ok).unwrap();
    }
    assert!(option_error(r#"{"target":1.5}"#).contains("a float"));
    assert!(option_error(r#"{"target":1e30}"#).contains("a float"));
    // bounded options keep their own ranges
    assert!(option_error(r#"{"initial_table_cards":37}"#).contains("0..36"));
    assert!(option_error(r#"{"void_deal_min_kings":99999999999999999999}"#).contains("1..4"));
    // with every option at most 1e9 the largest award fits easily: no overflow in a playout
    let big = json!({"target": 1_000_000_000, "scopa_value": 1_000_000_000, "cards": 1_000_000_000,
                     "coins": 1_000_000_000, "settebello": 1_000_000_000, "primiera": 1_000_000_000,
                     "coin_card_points": 1_000_000_000, "all_sevens_bonus": 1_000_000_000,
                     "all_oros_bonus": 1_000_000_000, "special_cards": {"Kd": 1_000_000_000},
                     "max_deals": 3});
    let g = EscobaGame::from_options(&big).unwrap();
    let r = crate::play::simulate(&g, 16, 1, 1).unwrap();
    assert!(r.deals.iter().all(|&d| d >= 1));
}

#[test]
fn milan_tiebreak_takes_upper_case_ranks_only() {
    for bad in [
        r#"["a"]"#,
        r#"["7","a"]"#,
        r#"["j"]"#,
        r#"["k"]"#,
        r#"["q"]"#,
        r#"["AA"]"#,
        r#"[8]"#,
        r#"[0]"#,
        r#"[]"#,
    ] {
        let m = option_error(&format!("{{\"milan_tiebreak\":{bad}}}"));
        assert!(m.contains("milan_tiebreak"), "{m}");
    }
    let o = opts(json!({"primiera_mode": "milan", "milan_tiebreak": ["A", "J", "Q", "K", 7, "2"]}));
    assert_eq!(o.milan_tiebreak, vec![1, 11, 12, 13, 7, 2]);
}

#[test]
fn every_deal_void_is_refused_with_the_reason() {
    let m = option_error(
        r#"{"void_deal_min_kings":1,"void_deal_min_aces":1,"initial_table_cards":36,"cards_per_hand":2}"#,
    );
    assert!(m.contains("every deal would be void"), "{m}");
    assert!(m.contains("initial_table_cards=36"), "{m}");
    // 32 + (k-1) + (a-1) cards can avoid both: allowed
    EscobaGame::from_options(&json!({"void_deal_min_kings": 2, "void_deal_min_aces": 2,
                            "initial_table_cards": 34, "cards_per_hand": 3}))
    .unwrap();
    assert!(option_error(
        r#"{"void_deal_min_kings":1,"void_deal_min_aces":2,"initial_table_cards":34,"cards_per_hand":3}"#
    )
    .contains("every deal would be void"));
    // one minimum alone never makes every deal void (the other counts as 5)
    EscobaGame::from_options(
        &json!({"void_deal_min_kings": 1, "initial_table_cards": 36, "cards_per_hand": 2}),
    )
    .unwrap();
}

fn state_error(r: Result<EscobaState>) -> String {
    match r {
        Err(GameError::InvalidState(m)) => m,
        other => panic!(
            "expected InvalidState, got {:?}",
            other.map(|s| s.to_json())
        ),
    }
}

#[test]
fn setup_scores_and_scope_are_bounded() {
    let g = EscobaGame::from_options(&json!({})).unwrap();
    let spec = |extra: Value| {
        let mut v = json!({"hands": [["7d"], ["7c"]]});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    // negative scores are allowed (docs/rules/escoba.md §1.9), down to -10^15
    let s = g.setup(&spec(json!({"scores": [-5, 3]}))).unwrap();
    assert_eq!(s.scores(), vec![-5, 3]);
    let lim = 1_000_000_000_000_000i64;
    let s = g.setup(&spec(json!({"scores": [-lim, lim]}))).unwrap();
    assert_eq!(
        g.state_from_json(&s.to_json()).unwrap().scores(),
        vec![-lim, lim]
    );
    for bad in [
        json!([lim + 1, 0]),
        json!([0, -lim - 1]),
        json!([i64::MAX, 0]),
        json!([u64::MAX, 0]),
    ] {
        state_error(g.setup(&spec(json!({"scores": bad}))));
    }
    let huge = format!("1{}", "0".repeat(400));
    state_error(g.setup_json(&format!(
        r#"{{"hands":[["7d"],["7c"]],"scores":[{huge},0]}}"#
    )));
    // scope: at most 40 sweeps in all
    let s = g.setup(&spec(json!({"scope": [30, 10]}))).unwrap();
    assert_eq!(s.sweeps().len(), 40);
    assert_eq!(g.state_from_json(&s.to_json()).unwrap().sweeps().len(), 40);
    for bad in [json!([30, 11]), json!([41, 0]), json!([0, 1000])] {
        let m = state_error(g.setup(&spec(json!({"scope": bad}))));
        assert!(m.contains("40"), "{m}");
    }
}

#[test]
fn state_json_scores_deal_points_and_sweeps_are_bounded() {
    let g = EscobaGame::from_options(&json!({"target": 1000})).unwrap();
    // play into deal 2, so that deal_points holds an entry
    let mut s = g.new_state(4);
    let mut bot = SplitMix64::new(4);
    while s.deal() < 2 {
        let legal = s.legal_actions();
        s.apply(legal[(bot.next_u64() % legal.len() as u64) as usize])
            .unwrap();
    }
    let v: Value = serde_json::from_str(&s.to_json()).unwrap();
    let lim = 1_000_000_000_000_000i64;
    let with = |f: &dyn Fn(&mut Value)| {
        let mut w = v.clone();
        f(&mut w);
        w.to_string()
    };
    // in range, negative included: accepted
    g.state_from_json(&with(&|w| w["scores"] = json!([-lim, lim])))
        .unwrap();
    g.state_from_json(&with(&|w| w["deal_points"][0] = json!([-lim, lim])))
        .unwrap();
    // 40 sweeps from setup plus the 42 a deal can make (docs/escoba_engine.md §8)
    g.state_from_json(&with(&|w| w["sweeps"] = json!(vec![1; 82])))
        .unwrap();
    for bad in [
        with(&|w| w["scores"] = json!([lim + 1, 0])),
        with(&|w| w["scores"] = json!([0, -lim - 1])),
        with(&|w| w["scores"] = json!([u64::MAX, 0])),
        with(&|w| w["deal_points"][0] = json!([lim + 1, 0])),
        with(&|w| w["deal_points"][0] = json!([i64::MIN, 0])),
        with(&|w| w["sweeps"] = json!(vec![1; 83])),
    ] {
        state_error(g.state_from_json(&bad));
    }
}

#[test]
fn simulate_rejects_huge_batches() {
    let g = EscobaGame::from_options(&json!({})).unwrap();
    for (games, threads, what) in [
        ((1usize << 32) + 1, 1, "games must be at most 4294967296"),
        (1usize << 60, 0, "games must be at most 4294967296"),
        (usize::MAX, 0, "games must be at most"),
        (1, 1025, "threads must be at most 1024"),
        (1, 1usize << 40, "threads must be at most 1024"),
    ] {
        match crate::play::simulate(&g, games, 0, threads) {
            Err(GameError::InvalidOption(m)) => assert!(m.contains(what), "{m}"),
            other => panic!("games={games} threads={threads}: {:?}", other.map(|_| ())),
        }
    }
    let r = crate::play::simulate(&g, 0, 0, 1024).unwrap();
    assert!(r.returns.is_empty() && r.deals.is_empty());
    let r = crate::play::simulate(&g, 3, 0, 2).unwrap();
    assert_eq!(r.returns.len(), 6);
    assert_eq!(r.scores.len(), 6);
}
