//! Scoring vectors of docs/rules/escoba.md §3.3, §3.9 and §3.10 (expected values written from the
//! rules file).

use serde_json::{json, Value};

use super::options::EscobaOptions;
use super::rules;
use super::test_support::*;
use super::*;
use crate::cards::{Card, CardSet};
use crate::game::{Game, State};

fn base() -> EscobaOptions {
    opts(json!({}))
}

// ----- 3.3 scoring -----

fn piles(ps: &[&str]) -> Vec<CardSet> {
    ps.iter().map(|p| set(p)).collect()
}
fn score(o: &EscobaOptions, ps: &[&str], sweeps: &[u8]) -> Vec<i64> {
    let pts = rules::score_deal(o, &piles(ps), sweeps);
    pts[..ps.len()].to_vec()
}
fn only_primiera() -> Value {
    json!({"cards": 0, "coins": 0, "settebello": 0})
}

#[test]
fn tv19_primiera_seventy() {
    assert_eq!(
        rules::primiera_total(&base(), set("7d 6h As 5c 2c Kh")),
        Some(70)
    );
}

#[test]
fn tv20_standard_vs_veneto() {
    let x = "7d 7h Js Jc";
    let y = "6d 6h 2s 2c";
    assert_eq!(rules::primiera_total(&base(), set(x)), Some(62));
    assert_eq!(rules::primiera_total(&base(), set(y)), Some(60));
    let ven = opts(json!({"primiera_mode": "veneto", "cards": 0, "coins": 0, "settebello": 0}));
    assert_eq!(rules::primiera_total(&ven, set(x)), Some(30));
    assert_eq!(rules::primiera_total(&ven, set(y)), Some(32));
    assert_eq!(score(&opts(only_primiera()), &[x, y], &[]), vec![1, 0]);
    assert_eq!(score(&ven, &[x, y], &[]), vec![0, 1]);
}

#[test]
fn tv21_primiera_tie_to_nobody() {
    assert_eq!(
        score(&opts(only_primiera()), &["7d 6h As 5c", "7h 6d Ac 5s"], &[]),
        vec![0, 0]
    );
}

#[test]
fn tv22_missing_suit_ineligible() {
    let a = "7d 6d Ad 5d 4d 7h 6h Ah 5h 4h 7s 6s As 5s 4s";
    let b: String = rules::PACK
        .iter()
        .filter(|&&x| !set(a).contains(x))
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(rules::primiera_total(&base(), set(a)), None);
    assert_eq!(rules::primiera_total(&base(), set(&b)), Some(60));
    assert_eq!(score(&opts(only_primiera()), &[a, &b], &[]), vec![0, 1]);
    let free = opts(
        json!({"primiera_requires_all_suits": false, "cards": 0, "coins": 0, "settebello": 0}),
    );
    assert_eq!(rules::primiera_total(&free, set(a)), Some(63));
    assert_eq!(score(&free, &[a, &b], &[]), vec![1, 0]);
}

#[test]
fn tv23_milan_sixes_break_tie() {
    let o = opts(json!({"primiera_mode": "milan", "cards": 0, "coins": 0, "settebello": 0}));
    assert_eq!(score(&o, &["7d 7h 6d 6h 6s", "7s 7c 6c"], &[]), vec![1, 0]);
}

#[test]
fn tv24_milan_full_tie() {
    let o = opts(json!({"primiera_mode": "milan", "cards": 0, "coins": 0, "settebello": 0}));
    assert_eq!(
        score(&o, &["7d 7h 6d 6h Ad Ah", "7s 7c 6s 6c As Ac"], &[]),
        vec![0, 0]
    );
}

#[test]
fn tv25_settanta_bonus() {
    let o = opts(json!({"settanta_bonus": true, "cards": 0, "coins": 0, "settebello": 0}));
    assert_eq!(rules::primiera_total(&o, set("7d 7h 7s 7c")), Some(84));
    assert_eq!(score(&o, &["7d 7h 7s 7c", "6d 6h 6s 6c"], &[]), vec![2, 0]);
}

const TV26_A: &str = "7d 7h 7s 6d 6c Ad 2d 3d 4d Kd Jh Qh Kh 5s 4s 3s 2s As Jc Qc Kc 5c";
const TV26_B: &str = "2c 2h 3c 3h 4c 4h 5d 5h 6h 6s 7c Ac Ah Jd Js Ks Qd Qs";

#[test]
fn tv26_full_deal() {
    assert_eq!(set(TV26_A).len(), 22);
    assert_eq!(set(TV26_B).len(), 18);
    assert_eq!(rules::primiera_total(&base(), set(TV26_A)), Some(81));
    assert_eq!(rules::primiera_total(&base(), set(TV26_B)), Some(72));
    // scope A 1, B 2
    assert_eq!(score(&base(), &[TV26_A, TV26_B], &[1, 0, 1]), vec![5, 2]);
}

#[test]
fn tv27_napola_and_re_bello() {
    let o = opts(json!({"napola": true, "re_bello": true}));
    assert_eq!(score(&o, &[TV26_A, TV26_B], &[1, 0, 1]), vec![10, 2]);
}

#[test]
fn tv28_napola_runs() {
    let coins = |ranks: &str| -> CardSet {
        ranks
            .split_whitespace()
            .map(|r| c(&format!("{r}d")))
            .collect()
    };
    assert_eq!(rules::napola_run(coins("A 2 3 4 5 J")), 5);
    assert_eq!(rules::napola_run(coins("2 3 4 5 6 7 J Q K")), 0);
    assert_eq!(rules::napola_run(coins("A 2 7")), 2);
    assert_eq!(rules::napola_run(coins("A 2 3 5 6")), 3);
    assert_eq!(rules::napola_run(coins("A 2 3 4 5 6 7 J Q K")), 10);
    let o = opts(json!({"napola": true, "cards": 0, "coins": 0, "settebello": 0, "primiera": 0}));
    assert_eq!(score(&o, &["Ad 2d 7d", "3d"], &[]), vec![0, 0]); // L = 2 scores nothing
    assert_eq!(score(&o, &["Ad 2d 3d 5d 6d", ""], &[]), vec![3, 0]);
    // all ten coins wins the match at once with napola_all_coins_wins
    let g =
        EscobaGame::from_options(&json!({"napola_all_coins_wins": true, "target": 100})).unwrap();
    let mut rest2: Vec<String> = rules::PACK
        .iter()
        .filter(|&&x| !rules::COINS.contains(x) && !set("Kh 2c").contains(x))
        .map(|x| x.to_string())
        .collect();
    rest2.sort();
    let mut s = g
        .setup(&json!({"hands": [["Kh"], []], "table": ["2c"], "stock": [],
                       "piles": [rules::COINS.iter().map(|x| x.to_string()).collect::<Vec<_>>(), rest2],
                       "dealer": 0, "to_move": 0, "last_capturer": 1}))
        .unwrap();
    s.apply_str("Kh").unwrap();
    assert!(s.is_terminal());
    assert_eq!(s.winner(), Some(0));
    assert_eq!(s.returns(), vec![1.0, -1.0]);
}

#[test]
fn tv29_three_players_ties() {
    // card counts 14/14/12, coins 4/3/3
    let p0 = "Ad 2d 3d 4d Ac 2c 3c 4c 5c 6c 7c Jc Qc Kc";
    let p1 = "5d 6d 7d Ah 2h 3h 4h 5h 6h 7h Jh Qh Kh As";
    let p2 = "Jd Qd Kd 2s 3s 4s 5s 6s 7s Js Qs Ks";
    assert_eq!((set(p0).len(), set(p1).len(), set(p2).len()), (14, 14, 12));
    let o = opts(json!({"players": 3, "settebello": 0, "primiera": 0}));
    assert_eq!(score(&o, &[p0, p1, p2], &[]), vec![1, 0, 0]);
}

#[test]
fn tv30_team_sides_and_the_cards_point() {
    // seat-to-team pooling through play is tested in tests/rules/test_escoba.py::test_tv30 via setup
    let o = opts(json!({"players": 4}));
    assert_eq!(o.num_sides(), 2);
    assert_eq!(
        (0..4).map(|s| o.side_of(s)).collect::<Vec<_>>(),
        vec![0, 1, 0, 1]
    );
    // team {0,2}: 11 + 10 = 21 cards, team {1,3}: 9 + 10 = 19
    let team0: Vec<Card> = rules::PACK[..21].to_vec();
    let team1: Vec<Card> = rules::PACK[21..].to_vec();
    let o = opts(json!({"players": 4, "coins": 0, "settebello": 0, "primiera": 0}));
    let pts = rules::score_deal(
        &o,
        &[team0.into_iter().collect(), team1.into_iter().collect()],
        &[],
    );
    assert_eq!(&pts[..2], &[1, 0]);
}

// ----- issue 6 presets: 3.9, 3.10 (expected values from the rules file) -----

fn variant(v: &str) -> EscobaOptions {
    opts(json!({ "variant": v }))
}

#[test]
fn tv58_tv59_tv60_differences() {
    for v in ["differenze", "inversa"] {
        assert_eq!(caps(&variant(v), "6d", "Jh 2s"), expect(&["Jh 2s"]));
        assert_eq!(caps(&variant(v), "2d", "Ah Ks 7c"), expect(&["Ah Ks 7c"]));
        assert_eq!(caps(&variant(v), "7d", "4h 3s Kc"), expect(&["Kc 3s"]));
    }
    assert_eq!(
        caps(&variant("somma_e_differenza"), "7d", "4h 3s Kc"),
        expect(&["4h 3s", "Kc 3s"])
    );
}

#[test]
fn tv61_tv62_modulo_sette() {
    let o = variant("modulo_sette");
    assert_eq!(caps(&o, "6d", "5h Jc"), expect(&["5h Jc"]));
    assert_eq!(caps(&o, "Jd", "Ah"), expect(&["Ah"]));
    assert_eq!(caps(&o, "Ad", "4h 4s"), expect(&["4h 4s"]));
    assert_eq!(caps(&o, "7d", "Kh 4s"), expect(&["Kh 4s"]));
    assert_eq!(caps(&o, "Jd", "Ah Jc 4s 4c"), expect(&["Ah", "Jc"]));
    let free = opts(json!({"variant": "modulo_sette", "match_priority": false}));
    assert_eq!(
        caps(&free, "Jd", "Ah Jc 4s 4c"),
        expect(&["Ah", "Jc", "4s 4c"])
    );
}

#[test]
fn modulo_kinds_reaching_one_set_give_one_outcome() {
    // 4h (W 4) on 4d 7h: the modular sum 4 + 7 = 11 = 4 and the 15-capture 4 + 4 + 7 = 15 are the
    // same set, one outcome (docs/escoba_engine.md §3)
    let o = opts(json!({"value_modulus": 7, "capture_kinds": ["sum", "sum15"]}));
    assert_eq!(caps(&o, "4h", "4d 7h"), expect(&["4d 7h"]));
}

#[test]
fn tv63_tv64_frac() {
    assert_eq!(
        caps(&variant("frac"), "5d", "5h 3s 2c"),
        expect(&["5h", "3s 2c"])
    );
    assert_eq!(
        score(&variant("frac"), &[TV26_A, TV26_B], &[0, 1, 1]),
        vec![9, 7]
    );
    let scope = opts(json!({"variant": "frac", "frac_counts_scope": true}));
    assert_eq!(score(&scope, &[TV26_A, TV26_B], &[0, 1, 1]), vec![10, 9]);
}

#[test]
fn tv65_tv66_scoring_variants() {
    assert_eq!(
        score(&variant("scopone_romano"), &[TV26_A, TV26_B], &[]),
        vec![10, 3]
    );
    assert_eq!(
        score(&variant("punti_a_denari"), &[TV26_A, TV26_B], &[]),
        vec![4, 2]
    );
}

#[test]
fn tv67_tuzzoli() {
    let cases = [
        ("Ac Ad 7s", 3, 3),
        ("Ac Ad As", 6, 6),
        ("Ad 2d 3d", 7, 7),
        ("Ac Ad 2d", 6, 3),
        ("2c 2d 3d", 6, 3),
        ("Ad 2c 3s", 0, 0),
        ("2d 3d Kc", 3, 3),
        ("Ac 2d 3d", 3, 3),
    ];
    for (hand, hybrid, plain) in cases {
        let pts = |h| rules::TUZZOLI_POINTS[rules::tuzzoli(set(hand), h) as usize];
        assert_eq!(pts(true), hybrid, "{hand}");
        assert_eq!(pts(false), plain, "{hand}");
    }
}
