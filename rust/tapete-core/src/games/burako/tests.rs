//! Unit tests of the Burako rules; expected values from docs/rules/burako.md §12 (vector ids
//! cited).

use serde_json::json;

use super::rules::{classify_meld, team_score, Kind, MeldInfo, TeamTally};
use super::*;
use crate::testing::{assert_bad_notation, json_round_trip};
use crate::tiles::{fresh_pack, parse_tile};

fn tiles(s: &str) -> TileCounts {
    TileCounts::from_slice(
        &s.split_whitespace()
            .map(|t| parse_tile(t).unwrap())
            .collect::<Vec<_>>(),
    )
}

fn rules_with(opts: serde_json::Value) -> options::MeldRules {
    BurakoGame::from_options(&opts).unwrap().options().meld
}

fn cm(s: &str) -> Option<MeldInfo> {
    classify_meld(tiles(s), &rules_with(json!({})))
}

fn run(pure: bool, value: i32, len: u32) -> Option<MeldInfo> {
    Some(MeldInfo {
        kind: Kind::Run,
        pure,
        canasta: len >= 7,
        value,
    })
}

#[test]
fn meld_vectors() {
    assert_eq!(cm("R3 R4 R5"), run(true, 15, 3)); // TV-B03
    assert_eq!(cm("R3 R5 J*"), run(false, 60, 3)); // TV-B04
    assert_eq!(cm("R12 R13 R1"), run(true, 35, 3)); // TV-B05
    assert_eq!(cm("R13 R1 R2 R3"), None); // TV-B06
    assert_eq!(cm("R13 R1 R2"), run(false, 45, 3)); // TV-B07: 10 + 15 + 20
    assert_eq!(cm("R2 R3 R4"), run(true, 30, 3)); // TV-B08
    assert_eq!(cm("R2 R3 R5"), run(false, 30, 3)); // TV-B09
    assert_eq!(cm("R2 R2 R3"), run(false, 45, 3)); // TV-B10
    assert_eq!(cm("R3 R4 B5"), None); // TV-B11
    assert_eq!(
        cm("R5 B5 B5"),
        Some(MeldInfo {
            kind: Kind::Pierna,
            pure: true,
            canasta: false,
            value: 15
        })
    ); // TV-B12
    assert_eq!(
        cm("R9 K9 J*"),
        Some(MeldInfo {
            kind: Kind::Pierna,
            pure: false,
            canasta: false,
            value: 70
        })
    ); // TV-B13
    assert_eq!(cm("R9 J* B2"), None); // TV-B14
    assert_eq!(cm("R2 B2 Y2"), None); // TV-B15
    assert_eq!(
        cm("R7 B7 K7 J*").map(|m| (m.kind, m.pure)),
        Some((Kind::Pierna, false))
    ); // TV-B16
    assert_eq!(cm("R7 B7 K7 J* R2"), None); // TV-B16
    let full = "R1 R2 R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13 R1";
    assert_eq!(
        cm(full),
        Some(MeldInfo {
            kind: Kind::Run,
            pure: true,
            canasta: true,
            value: 135
        })
    ); // TV-B17
    assert_eq!(cm(&format!("{full} J*")), None); // TV-B17
    assert_eq!(cm("B2 B3 B4 B6").map(|m| m.pure), Some(false)); // TV-B18
    assert_eq!(cm("B2 B3 B4 B5 B6").map(|m| m.pure), Some(true)); // TV-B18
    assert_eq!(cm("R2 R3 R4 R6").map(|m| m.pure), Some(false)); // TV-B19
    assert_eq!(cm("R5 R6 R7 R8 R9 R10 R11"), run(true, 55, 7)); // TV-B20
    assert_eq!(
        cm("R10 R10 K10 K10 B10 B10 J*"),
        Some(MeldInfo {
            kind: Kind::Pierna,
            pure: false,
            canasta: true,
            value: 110
        })
    ); // TV-B20
    assert_eq!(cm("R4 R5 R6 J* J*"), None); // TV-B21
    assert_eq!(cm("K5 K6 K7 B2"), run(false, 35, 4)); // TV-B22
    assert!(cm("R4 R5 R6 J* R7").is_some()); // TV-B23
    assert!(cm("R3 R4 R5 R6 R7 J*").is_some()); // TV-B23
}

#[test]
fn two_value_option() {
    // TV-B38: Y1..Y7 is 60 by default, 45 with natural 2s at 5
    let r = rules_with(json!({"two_value": "natural_5_wild_20"}));
    assert_eq!(
        classify_meld(tiles("Y1 Y2 Y3 Y4 Y5 Y6 Y7"), &r).map(|m| m.value),
        Some(45)
    );
    assert_eq!(cm("Y1 Y2 Y3 Y4 Y5 Y6 Y7").map(|m| m.value), Some(60));
    // a wild 2 keeps 20 (TV-B09: R2 stands for 4): 20 + 5 + 5
    assert_eq!(
        classify_meld(tiles("R2 R3 R5"), &r).map(|m| m.value),
        Some(30)
    );
}

#[test]
fn non_default_meld_options() {
    // docs/rules/burako.md §3.4: {R5, J*, J*} is valid as both kinds with 2 wilds and is a pierna
    let r = rules_with(json!({"max_wilds_per_meld": 2}));
    assert_eq!(
        classify_meld(tiles("R5 J* J*"), &r).map(|m| m.kind),
        Some(Kind::Pierna)
    );
    let r = rules_with(json!({"pierna_of_twos": "allowed_as_naturals"}));
    assert_eq!(
        classify_meld(tiles("R2 B2 Y2"), &r).map(|m| (m.kind, m.pure)),
        Some((Kind::Pierna, true))
    );
    let r = rules_with(json!({"ace_position": "low_only"}));
    assert_eq!(classify_meld(tiles("R12 R13 R1"), &r), None);
    let r = rules_with(json!({"twos_wild": false}));
    assert_eq!(classify_meld(tiles("R2 R3 R5"), &r), None);
    assert_eq!(classify_meld(tiles("R9 K9 B2"), &r), None);
}

fn tally(melds: &[&str]) -> TeamTally {
    let mut t = TeamTally {
        meld_points: 0,
        pure_canastas: 0,
        impure_canastas: 0,
    };
    for m in melds {
        let i = cm(m).unwrap();
        t.meld_points += i.value as i64;
        if i.canasta {
            if i.pure {
                t.pure_canastas += 1
            } else {
                t.impure_canastas += 1
            }
        }
    }
    t
}

#[test]
fn scoring_vectors() {
    // TV-B37
    let a = tally(&["R3 R4 R5 R6 R7 R8 R9", "R1 B1 K1", "B10 B11 B12 J*"]);
    assert_eq!(team_score(&a, 30, true, true, true), 540);
    let b = tally(&["R8 B8 B8 Y8", "K5 K6 K7 B2"]);
    assert_eq!(team_score(&b, 110, false, false, true), -285);
    assert_eq!(team_score(&b, 110, false, false, false), -135);
    // TV-B38
    let a = tally(&["R7 R7 K7 K7 B7 B7 J*"]);
    assert_eq!(team_score(&a, 25, false, true, true), 255);
    let b = tally(&["Y1 Y2 Y3 Y4 Y5 Y6 Y7"]);
    assert_eq!(team_score(&b, 25, false, false, true), 135);
}

fn game(opts: serde_json::Value) -> BurakoGame {
    BurakoGame::from_options(&opts).unwrap()
}

fn act(s: &mut BurakoState, text: &str) {
    s.apply_str(text)
        .unwrap_or_else(|e| panic!("{text}: {e}\n{s}"));
}

fn legal_texts(s: &BurakoState) -> Vec<String> {
    s.legal_actions()
        .into_iter()
        .map(|a| action_to_string(a).unwrap())
        .collect()
}

#[test]
fn setup_counts() {
    // TV-B01 / TV-B02
    let g = game(json!({}));
    let s = g.new_state(1);
    assert_eq!(s.stock_len(), 40);
    assert_eq!(
        s.muertos().iter().map(|m| m.len()).collect::<Vec<_>>(),
        vec![11, 11]
    );
    assert!((0..4).all(|p| s.rack(p).len() == 11));
    assert_eq!(s.tile_census(), TileCounts::FULL);
    let g = game(json!({"players": 2}));
    assert_eq!(g.new_state(1).stock_len(), 60);
    let g = game(json!({"players": 2, "two_player_hand": 15}));
    assert_eq!(g.new_state(1).stock_len(), 54);
}

#[test]
fn first_turn_and_redraw() {
    // TV-B24, TV-B25, TV-B26 with a stacked deck: mano 0, stock R7 then K3
    let g = game(json!({"first_mano": 0}));
    let mut deck: Vec<u8> = fresh_pack().to_vec();
    let r7 = parse_tile("R7").unwrap();
    let k3 = parse_tile("K3").unwrap();
    let b9 = parse_tile("B9").unwrap();
    // move one R7, one K3 to positions 66, 67 (first two stock tiles) and one B9 into seat 0's rack
    for (pos, t) in [(66usize, r7), (67, k3), (0, b9)] {
        let i = deck
            .iter()
            .enumerate()
            .position(|(k, &x)| x == t && k != 66 && k != 67 && (pos != 0 || k > 0))
            .unwrap();
        deck.swap(i, pos);
    }
    let mut s = g.new_state_with_deck(0, &json!(deck)).unwrap();
    assert_eq!(legal_texts(&s), vec!["draw"]); // TV-B24
    act(&mut s, "draw");
    assert!(s.legal_actions().contains(&A_REDRAW));
    act(&mut s, "redraw");
    assert_eq!(s.pozo(), &[r7]);
    assert!(!s.legal_actions().contains(&A_REDRAW)); // second REDRAW illegal
    assert!(s.rack(0).contains(k3));
    act(&mut s, "discard B9");
    assert_eq!(s.pozo(), &[r7, b9]);
    assert_eq!(legal_texts(&s), vec!["draw", "take pozo"]);
    act(&mut s, "take pozo");
    assert!(s.pozo().is_empty());
    assert!(s.rack(1).contains(r7) && s.rack(1).contains(b9));
    assert!(!s.legal_actions().contains(&A_REDRAW)); // TV-B26
}

fn setup(g: &BurakoGame, spec: serde_json::Value) -> BurakoState {
    g.setup(&spec).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn team_melds_and_muertos() {
    let g = game(json!({}));
    // TV-B27: seat 0 may extend seat 2's meld (team 0), not team 1's
    let s = setup(
        &g,
        json!({"racks": [["R6", "K9", "B1"], ["Y1"], ["Y2"], ["Y3"]],
        "melds": [[["R3", "R4", "R5"]], [["B3", "B4", "B5"]]], "phase": "meld"}),
    );
    let l = legal_texts(&s);
    assert!(l.contains(&"extend 0 R6".to_string()));
    assert!(!l.iter().any(|x| x.starts_with("extend") && x.contains("B")));
    // TV-B28: direct muerto after a meld that empties the rack
    let mut s = setup(
        &g,
        json!({"racks": [["R7", "R8", "R9"], ["Y1"], ["Y2"], ["Y3"]], "phase": "meld"}),
    );
    for t in ["add R7", "add R8", "add R9", "meld"] {
        act(&mut s, t);
    }
    assert_eq!(s.rack(0).len(), 11);
    assert_eq!(s.muerto_status(), [1, 0]);
    assert_eq!(s.current_player(), Some(0));
    // TV-B29: indirect muerto
    let mut s = setup(
        &g,
        json!({"racks": [["K4"], ["Y1"], ["Y2"], ["Y3"]], "phase": "meld"}),
    );
    act(&mut s, "discard K4");
    assert_eq!(s.rack(0).len(), 11);
    assert_eq!(s.muerto_status(), [2, 0]);
    assert_eq!(s.current_player(), Some(1));
}

#[test]
fn invariant_vectors() {
    let g = game(json!({"match": "single_hand"}));
    // TV-B30
    let s = setup(
        &g,
        json!({"racks": [["Y3", "R10"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y4", "Y5", "Y6"]], []], "muerto_status": [1, 0]}),
    );
    let l = legal_texts(&s);
    assert!(!l.contains(&"extend 0 Y3".to_string()));
    assert!(l.contains(&"discard Y3".to_string()) && l.contains(&"discard R10".to_string()));
    // TV-B31: partner took the muerto, no canasta
    let s = setup(
        &g,
        json!({"racks": [["R3", "R4", "R5", "K9"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y11", "Y12", "Y13"]], []], "muerto_status": [1, 0]}),
    );
    assert_eq!(s.legal_actions(), vec![5, 6, 7, 24, 60, 61, 62, 79]);
    let mut s2 = s.clone();
    for t in ["add R3", "add R4", "add R5"] {
        act(&mut s2, t);
    }
    assert!(!s2.legal_actions().contains(&A_MELD));
    // TV-B32: close by discard (+100)
    let canasta = json!(["B5", "B6", "B7", "B8", "B9", "B10", "B11"]);
    let mut s = setup(
        &g,
        json!({"racks": [["R9", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y6", "Y7", "Y8"], canasta], []], "muerto_status": [1, 0]}),
    );
    act(&mut s, "extend 0 Y5");
    act(&mut s, "discard R9");
    assert!(s.is_terminal());
    // team 0 by hand: Y5 Y6 Y7 Y8 = 5+5+5+10 = 25; B5..B11 = 5+5+5+10+10+10+10 = 55; M = 80,
    // C = 200, X = 100, U = 100, R = seat 2's Y2 = 20 → 460
    assert_eq!(s.hand_scores()[0][0], 460);
    // TV-B33: close by melding out
    let mut s = setup(
        &g,
        json!({"racks": [["B5", "B6", "B7"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["R5", "R6", "R7", "R8", "R9", "R10", "R11"]], []], "muerto_status": [1, 0]}),
    );
    for t in ["add B5", "add B6", "add B7", "meld"] {
        act(&mut s, t);
    }
    assert!(s.is_terminal());
    // TV-B34: the closing canasta is completed by the action itself
    let mut s = setup(
        &g,
        json!({"racks": [["R9", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["R3", "R4", "R5", "R6", "R7", "R8"]], []], "muerto_status": [1, 0]}),
    );
    act(&mut s, "extend 0 R9");
    act(&mut s, "discard Y5");
    assert!(s.is_terminal());
    // TV-B35: the buffer must be empty to discard
    let mut s = setup(
        &g,
        json!({"racks": [["R3", "R4", "K9", "B1"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld"}),
    );
    act(&mut s, "add R3");
    assert!(s.apply_str("discard K9").is_err());
    act(&mut s, "cancel");
    act(&mut s, "discard K9");
}

#[test]
fn stock_exhaustion() {
    // TV-B36: 2 players, one stock tile left at the start of seat 1's turn
    let g = game(json!({"players": 2, "match": "single_hand"}));
    let mut s = setup(
        &g,
        json!({"racks": [["R3"], ["K4", "K9"]], "to_move": 1, "stock": ["B9"]}),
    );
    act(&mut s, "draw");
    act(&mut s, "discard B9");
    assert!(s.is_terminal());
    // no canasta, no close: -0 + U - R; seat 0: -100 - 5; seat 1: -100 - (5 + 10)
    assert_eq!(s.hand_scores(), &[[-105, -115]]);
}

#[test]
fn indirect_muerto_unplayed() {
    // TV-B39 structure: seat 1 buys indirectly, seat 2 closes next turn
    for (opt, with_muerto) in [("counts_as_taken", true), ("counts_as_not_taken", false)] {
        let g = game(json!({"indirect_muerto_unplayed": opt, "match": "single_hand"}));
        let mut s = setup(
            &g,
            json!({"racks": [["Y1"], ["K4"], ["B5", "B6", "B7"], ["Y13"]], "to_move": 1,
            "phase": "meld", "melds": [[["R5", "R6", "R7", "R8", "R9", "R10", "R11"]], []],
            "muerto_status": [1, 0], "muertos": [["K5", "K6", "K7", "K8", "K9", "K10", "K11", "K12", "K13", "B1", "B3"]]}),
        );
        act(&mut s, "discard K4");
        act(&mut s, "draw");
        for t in ["add B5", "add B6", "add B7"] {
            act(&mut s, t);
        }
        act(&mut s, "meld");
        // seat 2 drew a tile, so the meld leaves 1 tile: discard it to close
        let l = s.legal_actions();
        let d = *l
            .iter()
            .find(|&&a| (A_DISCARD..A_EXTEND).contains(&a))
            .unwrap();
        s.apply(d).unwrap();
        assert!(s.is_terminal());
        // team 1: no canasta, no melds; muerto = 5*5 + 10*4 + 15 + 5 = 85... racks: K5..K7 (15),
        // K8..K13 (60), B1 15, B3 5 = 95 for seat 1; seat 3 Y13 = 10
        let expect = if with_muerto {
            100 - 95 - 10
        } else {
            -100 - 10
        };
        assert_eq!(s.hand_scores()[0][1], expect, "{opt}");
    }
}

#[test]
fn notation_round_trip() {
    for a in 0..NUM_ACTIONS {
        let t = action_to_string(a).unwrap();
        assert_eq!(string_to_action(&t).unwrap(), a, "{t}");
    }
    assert_eq!(
        string_to_action("  EXTEND   3  b7 ").unwrap(),
        111 + 53 * 3 + 32
    );
    assert_bad_notation(
        string_to_action,
        &[
            "",
            "take",
            "add",
            "add R14",
            "extend 35 R5",
            "extend -1 R5",
            "discard J",
            "draw draw",
        ],
    );
}

#[test]
fn json_round_trip_and_census() {
    let g = game(json!({"players": 2}));
    let mut s = g.new_state(3);
    let mut rng = SplitMix64::new(9);
    for _ in 0..400 {
        if s.is_terminal() {
            break;
        }
        let l = s.legal_actions();
        s.apply(l[(rng.next_u64() % l.len() as u64) as usize])
            .unwrap();
        assert_eq!(s.tile_census(), TileCounts::FULL);
        let back = json_round_trip(&g, &s);
        assert_eq!(back.legal_actions(), s.legal_actions());
    }
}

#[test]
fn must_use_top_searches_every_size() {
    // reviewer's case: {R3, J*, J*, R6, R7} is the only meld holding R3 (w=2 < 3 naturals)
    let g = game(
        json!({"max_wilds_per_meld": "fewer_than_naturals", "pozo_take_requirement": "must_use_top_tile_now"}),
    );
    let s = setup(
        &g,
        json!({"racks": [["J*", "J*", "R6", "R7", "K9", "B11", "Y13", "K1"],
        ["B9", "Y9", "R9"], ["K4", "K5", "B6"], ["Y4", "Y5", "B7"]], "pozo": ["R3"], "to_move": 0}),
    );
    assert!(s.legal_actions().contains(&A_TAKE));
    // without the jokers no meld holds R3: take illegal
    let s = setup(
        &g,
        json!({"racks": [["B1", "B3", "R6", "R7", "K9", "B11", "Y13", "K1"],
        ["B9", "Y9", "R9"], ["K4", "K5", "B6"], ["Y4", "Y5", "B7"]], "pozo": ["R3"], "to_move": 0}),
    );
    assert!(!s.legal_actions().contains(&A_TAKE));
}

/// TV-B32's closing position (team 0 scores 460 by hand; team 1: no melds, U = −100, racks
/// Y1 + K3 = 20 → −120), with the given totals before the hand.
fn closing_position(g: &BurakoGame, totals: [i64; 2]) -> BurakoState {
    let canasta = json!(["B5", "B6", "B7", "B8", "B9", "B10", "B11"]);
    let mut s = setup(
        g,
        json!({"racks": [["R9", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y6", "Y7", "Y8"], canasta], []], "muerto_status": [1, 0], "totals": totals}),
    );
    act(&mut s, "extend 0 Y5");
    act(&mut s, "discard R9");
    s
}

#[test]
fn match_end() {
    // TV-B40 with this hand's scores (+460, −120): A 2950 → 3410, B 3100 → 2980 → A wins
    let g = game(json!({}));
    let s = closing_position(&g, [2950, 3100]);
    assert!(s.is_terminal());
    assert_eq!(s.totals(), [3410, 2980]);
    assert_eq!(s.returns(), vec![1.0, -1.0, 1.0, -1.0]);
    // equal totals at or above the target: another hand is dealt (TV-B40)
    let s = closing_position(&g, [2550, 3130]);
    assert!(!s.is_terminal());
    assert_eq!(s.hand_number(), 2);
    assert_eq!(s.tile_census(), TileCounts::FULL);
    // ... unless that was hand max_hands: a draw, returns 0
    let g = game(json!({"max_hands": 1}));
    let s = closing_position(&g, [2550, 3130]);
    assert!(s.is_terminal());
    assert_eq!(s.returns(), vec![0.0; 4]);
}

#[test]
fn next_mano_options() {
    // rotate: mano 0 → 1; loser_starts: team 1 lost (−120 < 460), first seat of team 1 from seat 1 → 1;
    // with mano 1 the first seat of team 1 counting from seat 2 is 3
    let s = closing_position(&game(json!({})), [0, 0]);
    assert_eq!(s.mano(), 1);
    let g = game(json!({"next_mano": "loser_starts"}));
    let canasta = json!(["B5", "B6", "B7", "B8", "B9", "B10", "B11"]);
    let mut s = setup(
        &g,
        json!({"racks": [["R9", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y6", "Y7", "Y8"], canasta], []], "muerto_status": [1, 0], "mano": 1}),
    );
    act(&mut s, "extend 0 Y5");
    act(&mut s, "discard R9");
    assert_eq!(s.mano(), 3);
}

#[test]
fn close_requirement_and_modes() {
    // docs/rules/burako.md §10 close_requirement = pure_canasta: an impure canasta does not allow
    // going out
    let g = game(json!({"close_requirement": "pure_canasta", "match": "single_hand"}));
    let s = setup(
        &g,
        json!({"racks": [["R9", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y6", "Y7", "Y8"], ["B5", "B6", "B7", "B8", "B9", "B10", "J*"]], []], "muerto_status": [1, 0]}),
    );
    assert!(!legal_texts(&s).contains(&"extend 0 Y5".to_string()));
    // discard_required: melding out (h' = 0) is illegal once the muerto is taken (TV-B33 position)
    let g = game(json!({"close_mode": "discard_required", "match": "single_hand"}));
    let mut s = setup(
        &g,
        json!({"racks": [["B5", "B6", "B7"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["R5", "R6", "R7", "R8", "R9", "R10", "R11"]], []], "muerto_status": [1, 0]}),
    );
    for t in ["add B5", "add B6", "add B7"] {
        act(&mut s, t);
    }
    assert!(!s.legal_actions().contains(&A_MELD));
    // meld_required: the last discard is illegal; h' = 1 only if the last tile then extends
    let g = game(json!({"close_mode": "meld_required", "match": "single_hand"}));
    let s = setup(
        &g,
        json!({"racks": [["R12", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y6", "Y7", "Y8"], ["R5", "R6", "R7", "R8", "R9", "R10", "R11"]], []], "muerto_status": [1, 0]}),
    );
    let l = legal_texts(&s);
    assert!(l.contains(&"extend 0 Y5".to_string())); // leaves R12, which extends the canasta
    assert!(l.contains(&"extend 1 R12".to_string())); // leaves Y5, which extends Y6-Y8
    let s = setup(
        &g,
        json!({"racks": [["K1", "Y5"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["Y6", "Y7", "Y8"], ["R5", "R6", "R7", "R8", "R9", "R10", "R11"]], []], "muerto_status": [1, 0]}),
    );
    assert!(!legal_texts(&s).contains(&"extend 0 Y5".to_string())); // K1 could not follow
    let s = setup(
        &g,
        json!({"racks": [["K1"], ["Y1"], ["Y2"], ["K3"]], "phase": "meld",
        "melds": [[["R5", "R6", "R7", "R8", "R9", "R10", "R11"]], []], "muerto_status": [1, 0]}),
    );
    assert!(!legal_texts(&s).contains(&"discard K1".to_string()));
}

#[test]
fn muerto_becomes_stock() {
    // docs/rules/burako.md §6.2 option: the stock runs out, the untaken muerto #1 becomes the
    // stock, in dealt order
    let g = game(
        json!({"players": 2, "stock_exhausted": "muerto_becomes_stock", "match": "single_hand"}),
    );
    let mut s = setup(
        &g,
        json!({"racks": [["R3", "R4"], ["K4", "K9"]], "to_move": 1, "stock": ["B9"],
        "muerto_status": [0, 1]}),
    );
    // docs/burako_engine.md §12: the one untaken muerto is filled with the leftover tiles in
    // ascending order
    act(&mut s, "draw");
    act(&mut s, "discard B9");
    assert!(!s.is_terminal());
    assert_eq!(s.stock()[..3], [0, 0, 1]); // R1 R1 R2, the muerto's dealt order
    assert!(s.muertos().is_empty());
    // seat 0's team has no muerto left to buy: it can no longer empty its rack
    act(&mut s, "draw");
    let l = legal_texts(&s);
    assert!(l.contains(&"discard R3".to_string()));
}

#[test]
fn single_tile_rediscard_forbidden() {
    let g = game(json!({"single_tile_pozo_rediscard": "forbidden"}));
    let mut s = setup(
        &g,
        json!({"racks": [["R3", "K9"], ["Y1"], ["Y2"], ["K3"]], "pozo": ["B7"]}),
    );
    act(&mut s, "take pozo");
    let l = legal_texts(&s);
    assert!(!l.contains(&"discard B7".to_string()));
    assert!(l.contains(&"discard R3".to_string()));
    // every rack tile of the pozo's type: taking it would leave nothing to discard
    let s = setup(
        &g,
        json!({"racks": [["B7"], ["Y1"], ["Y2"], ["K3"]], "pozo": ["B7"]}),
    );
    assert_eq!(legal_texts(&s), vec!["draw"]);
}

fn cmw(s: &str, opts: serde_json::Value) -> Option<MeldInfo> {
    classify_meld(tiles(s), &rules_with(opts))
}

fn pierna(pure: bool, value: i32, len: u32) -> Option<MeldInfo> {
    Some(MeldInfo {
        kind: Kind::Pierna,
        pure,
        canasta: len >= 7,
        value,
    })
}

#[test]
fn unlimited_wilds() {
    // docs/burako_engine.md §2 (v3); values by hand from docs/rules/burako.md §1
    let u = || json!({"max_wilds_per_meld": "unlimited"});
    let u5 = || json!({"max_wilds_per_meld": "unlimited", "two_value": "natural_5_wild_20"});
    // 2 naturals + 3 wilds: 5 + 5 + 50 + 50 + 20
    assert_eq!(cmw("R5 R6 J* J* B2", u()), run(false, 130, 5));
    assert_eq!(
        cmw("R5 R6 J* J* B2", json!({"max_wilds_per_meld": 2})),
        None
    );
    assert_eq!(
        cmw(
            "R5 R6 J* J* B2",
            json!({"max_wilds_per_meld": "fewer_than_naturals"})
        ),
        None
    );
    assert_eq!(cmw("R9 K9 J* B2 Y2", u()), pierna(false, 110, 5));
    // R2 natural at 2 in the fewest-wilds assignment: 130, 115 with natural 2s at 5
    assert_eq!(cmw("R2 R5 R6 J* J*", u()), run(false, 130, 5));
    assert_eq!(cmw("R2 R5 R6 J* J*", u5()), run(false, 115, 5));
    // valid as both kinds -> pierna; a pierna's 2s are all wild
    assert_eq!(cmw("R5 J* J*", u()), pierna(false, 105, 3));
    assert_eq!(cmw("R2 R3 K2 B2 Y2", u5()), pierna(false, 85, 5));
    // only 2s and jokers: a run on the B2's natural 2
    assert_eq!(cmw("B2 J* J*", u()), run(false, 120, 3));
    assert_eq!(cmw("B2 J* J*", u5()), run(false, 105, 3));
    assert_eq!(cmw("K2 B2 Y2", u()), run(false, 60, 3));
    // the longest pierna: 8 naturals + 10 wilds = 18 tiles, 40 + 100 + 160
    assert_eq!(
        cmw("R5 R5 K5 K5 B5 B5 Y5 Y5 J* J* R2 R2 K2 K2 B2 B2 Y2 Y2", u()),
        pierna(false, 300, 18)
    );
    // a run still spans at most 14 positions
    let r3_13 = "R3 R4 R5 R6 R7 R8 R9 R10 R11 R12 R13";
    assert_eq!(cmw(&format!("{r3_13} J* J* B2"), u()), run(false, 205, 14));
    assert_eq!(cmw(&format!("{r3_13} J* J* B2 Y2"), u()), None);
    assert_eq!(cmw("R4 R5 K7 J* J*", u()), None);
}

#[test]
fn unlimited_extension_candidates() {
    // {K2, B2, Y2} is a run whose extension candidates are every type: R4 makes it a red run
    let g = game(json!({"max_wilds_per_meld": "unlimited"}));
    let s = setup(
        &g,
        json!({"racks": [["R4", "K9", "Y11"], ["K3"], ["K4"], ["K6"]],
        "melds": [[["K2", "B2", "Y2"]], []], "phase": "meld"}),
    );
    let l = legal_texts(&s);
    for a in ["extend 0 R4", "extend 0 K9", "extend 0 Y11"] {
        assert!(l.contains(&a.to_string()), "{a}: {l:?}");
    }
    let g = game(json!({"max_wilds_per_meld": 2}));
    let s = setup(
        &g,
        json!({"racks": [["R4", "K9", "Y11"], ["K3"], ["K4"], ["K6"]],
        "melds": [[["K2", "B2", "Y2"]], []], "phase": "meld"}),
    );
    assert!(!legal_texts(&s).iter().any(|a| a.starts_with("extend")));
}

#[test]
fn wrap_window() {
    use super::rules::wrap_fits;
    let bits = |ns: &[u32]| ns.iter().fold(0u32, |m, &n| m | 1 << n);
    assert!(wrap_fits(bits(&[13, 1, 2]), 3));
    assert!(wrap_fits(bits(&[13, 2]), 3)); // a wild for the 1
    assert!(!wrap_fits(bits(&[12, 1]), 3)); // 12-13-1 is straight, not a wrap
    assert!(!wrap_fits(bits(&[3, 13]), 3));
    assert!(wrap_fits(bits(&[3, 13]), 4)); // 13-1-2-3
    assert!(wrap_fits(
        bits(&[4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2]),
        12
    ));
    assert!(!wrap_fits(
        bits(&[3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1]),
        12
    ));
    assert!(wrap_fits(bits(&[7]), 13)); // 13 tiles: every number
    assert!(!wrap_fits(bits(&[13, 1, 2]), 14)); // a wrap holds no number twice
    assert!(!wrap_fits(bits(&[13, 1, 2]), 2));
}

#[test]
fn run_wrap_vectors() {
    let w = || json!({"run_wrap": true});
    let w5 = || json!({"run_wrap": true, "two_value": "natural_5_wild_20"});
    assert_eq!(cmw("R13 R1 R2 R3", w()), run(true, 50, 4)); // TV-B06 wrapped
    assert_eq!(cm("R13 R1 R2 R3"), None); // TV-B06 by default
    assert_eq!(cmw("R13 R1 R2", w()), run(true, 45, 3)); // TV-B07: now pure
    assert_eq!(cmw("R13 R1 R2", w5()), run(true, 30, 3));
    assert_eq!(cmw("R11 R12 J* R1 R2", w()), run(false, 105, 5)); // J* = 13
    assert_eq!(cm("R11 R12 J* R1 R2"), None);
    assert_eq!(cmw("R12 R13 J* R2 R3", w()), run(false, 95, 5)); // J* = 1
    let r4_13 = "R4 R5 R6 R7 R8 R9 R10 R11 R12 R13";
    assert_eq!(cmw(&format!("{r4_13} R1 R2"), w()), run(true, 115, 12));
    assert_eq!(cm(&format!("{r4_13} R1 R2")), run(false, 115, 12));
    assert_eq!(cmw("R9 R10 R11 R12 R13 R1 R2", w()), run(true, 85, 7));
    // 2s of other colours stay wild
    assert_eq!(cmw("R12 R13 R1 B2", w5()), run(false, 55, 4));
    assert_eq!(cmw("R12 R13 R1 R2", w5()), run(true, 40, 4));
    assert_eq!(
        cmw(
            "R13 R1 B2 Y2 R3",
            json!({"run_wrap": true, "max_wilds_per_meld": "unlimited", "two_value": "natural_5_wild_20"})
        ),
        run(false, 70, 5)
    );
    // no number twice, at most 13 tiles
    assert_eq!(
        cmw("R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2 R3 R4 R5", w()),
        None
    );
    assert_eq!(cmw("R13 R1 R1 R2", w()), None);
    assert_eq!(
        cmw(
            "R5 R6 R7 R8 R9 R10 R11 R12 R13 R1 R2 R3 R4 J*",
            json!({"run_wrap": true, "ace_to_ace_run": "forbidden"})
        ),
        None
    );
    // ace_position: a natural 1 at the corner needs low_or_high; a wild may stand there
    let hi = || json!({"run_wrap": true, "ace_position": "high_only"});
    let lo = || json!({"run_wrap": true, "ace_position": "low_only"});
    assert_eq!(cmw("R13 R1 R2 R3", hi()), None);
    assert_eq!(cmw("R13 R1 R2 R3", lo()), None);
    assert_eq!(cmw("R13 J* R2 R3", hi()), run(false, 85, 4));
    assert_eq!(cmw("R12 R13 J* R2 R3", lo()), run(false, 95, 5));
    assert_eq!(cmw("R13 R1 R2", hi()), run(false, 45, 3));
    assert_eq!(cmw("R13 R1 R2", lo()), None);
    // twos_wild = false: 2s are ordinary naturals
    assert_eq!(
        cmw("R13 R1 R2", json!({"run_wrap": true, "twos_wild": false})),
        run(true, 45, 3)
    );
    assert_eq!(
        cmw("R13 R1 B2", json!({"run_wrap": true, "twos_wild": false})),
        None
    );
    assert_eq!(cmw("R12 R13 J* B2 R3", w()), None); // two wilds
}

#[test]
fn run_wrap_in_play() {
    // the pozo-take search walks wrapped windows: with 2s ordinary, the top R2 fits only 13-1-2
    let spec = json!({"racks": [["R13", "R1", "K9", "B11", "Y5"], ["K3"], ["K4"], ["K6"]],
        "pozo": ["R2"]});
    let g = game(json!({"pozo_take_requirement": "must_use_top_tile_now", "twos_wild": false}));
    assert!(!setup(&g, spec.clone()).legal_actions().contains(&A_TAKE));
    let g = game(
        json!({"pozo_take_requirement": "must_use_top_tile_now", "twos_wild": false, "run_wrap": true}),
    );
    let mut s = setup(&g, spec);
    assert!(s.legal_actions().contains(&A_TAKE));
    for a in ["take pozo", "add R1", "add R2", "add R13", "meld"] {
        act(&mut s, a);
    }
    // a closing hand with a wrapped pure canasta: team 0 scores
    // (15 + 50 + 15 + 20) + 200 + 100 + 100 − 5 = 495, team 1 −110 (docs/rules/burako.md §7, by hand)
    let g = game(json!({"run_wrap": true, "match": "single_hand"}));
    let mut s = setup(
        &g,
        json!({"racks": [["K9", "K10", "K11", "K12", "K13", "K1", "K2", "Y5"], ["K3"], ["K4"], ["K6"]],
        "melds": [[["R3", "R4", "R5"]], []], "muerto_status": [1, 0], "phase": "meld"}),
    );
    for a in [
        "add K1",
        "add K2",
        "add K9",
        "add K10",
        "add K11",
        "add K12",
        "add K13",
        "meld",
        "discard Y5",
    ] {
        act(&mut s, a);
    }
    assert!(s.is_terminal());
    assert_eq!(s.hand_scores(), &[[495, -110]]);
}
