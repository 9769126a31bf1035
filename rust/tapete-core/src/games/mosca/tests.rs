//! Unit tests of the Mosca state machine. Expected values come from the vectors of
//! docs/rules/mosca.md §9 (ids cited) or from hand calculations written here.

use serde_json::{json, Value};

use super::notation::{LEAVE, PASS, PLAY0, TAKE0};
use super::*;
use crate::game::Game;
use crate::testing::{assert_bad_notation, json_round_trip};

fn game(opts: Value) -> MoscaGame {
    MoscaGame::from_options(&opts).unwrap()
}

fn card(t: &str) -> Card {
    Card::parse(t).unwrap()
}

fn set(t: &str) -> CardSet {
    t.split_whitespace().map(card).collect()
}

/// A 3-seat position from its setup spec.
fn three_seats(spec: Value) -> MoscaState {
    game(json!({"players": 3})).setup(&spec).unwrap()
}

fn act(s: &mut MoscaState, text: &str) {
    s.apply_str(text).unwrap_or_else(|e| panic!("{text}: {e}"));
}

fn legal_cards_text(s: &MoscaState) -> CardSet {
    s.legal_cards()
}

#[test]
fn deck_sizes_tv_m01() {
    // TV-M01
    for (n, deck, talon) in [
        (3, 32, 16),
        (4, 36, 15),
        (5, 44, 18),
        (6, 52, 21),
        (2, 32, 21),
    ] {
        let g = game(json!({"players": n}));
        assert_eq!(g.options().deck, deck);
        let s = g.new_state(1);
        let fresh =
            s.deals_played == 0 && s.phase == Phase::Declare && s.exchanged.iter().all(|&e| e == 0);
        if fresh {
            assert_eq!(s.talon().len(), talon);
        }
    }
    let g = game(json!({"players": 6, "deck": 32}));
    let s = g.new_state(3);
    if s.deals_played == 0 && s.phase == Phase::Declare {
        assert_eq!(s.talon().len(), 1);
    }
}

#[test]
fn deal_order_tv_m02() {
    // TV-M02: N=3, dealer 0; the stacked pack d0..d31 (here the deck in ascending order)
    let g = game(json!({"players": 3, "first_dealer": 0}));
    let d: Vec<Card> = g.cfg.deck.iter().collect();
    let ids: Vec<u8> = d.iter().map(|c| c.0).collect();
    let s = g.new_state_with_deck(5, &json!(ids)).unwrap();
    let h = |idx: &[usize]| -> CardSet { idx.iter().map(|&i| d[i]).collect() };
    assert_eq!(s.hand(1), h(&[0, 1, 6, 7, 8]));
    assert_eq!(s.hand(2), h(&[2, 3, 9, 10, 11]));
    assert_eq!(s.hand(0), h(&[4, 5, 12, 13, 14]));
    assert_eq!(s.turnup(), d[15]);
    let talon: Vec<u8> = d[16..].iter().map(|c| c.0).collect();
    assert_eq!(s.talon(), &talon[..]);
    assert_eq!(s.current_player(), Some(1));
}

#[test]
fn ante_tv_m03() {
    // TV-M03: N=4, 3 carried, dealer balance 100 -> pot 7, dealer 96
    let g = game(json!({"players": 4}));
    let s = g
        .setup(&json!({"hands": [["Ac","7c","Kd","8h","Qs"],["Kc","Qc","Jd","9h","Js"],["Jc","Td","Th","Ks","9s"],["Tc","9c","Ad","Ah","As"]],
                      "turnup": "7d", "dealer": 0, "pot": 3}))
        .unwrap();
    assert_eq!(s.pot(), 7);
    assert_eq!(s.balances(), &[96, 100, 100, 100]);
}

#[test]
fn single_mosca_tv_m04() {
    // TV-M04: seat 2 dealt 7D 9D TD JD KD, trump S: seat 2 takes the pot of 4 at once
    let g = game(json!({"players": 4, "match_deals": 1}));
    let s = g
        .setup(&json!({"hands": [["Ac","7c","Kh","8h","Qs"],["Kc","Qc","Jh","9h","Js"],["7d","9d","Td","Jd","Kd"],["Tc","9c","Ad","Ah","As"]],
                      "turnup": "7s", "dealer": 0}))
        .unwrap();
    assert!(s.is_terminal());
    assert_eq!(s.balances(), &[96, 100, 104, 100]);
    assert_eq!(s.pot(), 0);
    assert!(s.history().is_empty());
}

#[test]
fn mosca_tie_tv_m07() {
    // TV-M07: N=6, trump S; seats 1 and 4 tie; pot 6 + 1 carried -> 3 each, 1 stays;
    // next deal: pot 1 + 6 = 7 (seat 1 deals).
    let g = game(json!({"players": 6}));
    let s = g
        .setup(&json!({"hands": [["5c","7c","2d","8d","Qs"],["Kh","Qh","Jh","Ah","Th"],["2c","3c","4c","5d","Js"],["6c","8c","9c","3d","4d"],["Kc","Qc","Jc","Ac","Tc"],["9h","8h","7h","6h","Ks"]],
                      "turnup": "2s", "dealer": 0, "pot": 1, "seed": 11}))
        .unwrap();
    assert_eq!(s.deals_played(), 1);
    assert_eq!(s.phase(), Phase::Declare);
    assert_eq!(s.dealer(), 1);
    assert_eq!(s.pot(), 7);
    // seat 1 won 3 and anted 6 for the next deal
    assert_eq!(s.balances(), &[94, 97, 100, 100, 103, 100]);
}

fn n5_no_mosca() -> MoscaState {
    let g = game(json!({"players": 5, "first_dealer": 0}));
    g.setup(&json!({"hands": [["Ac","7c","Kd","8h","Qs"],["Kc","Qc","Jd","9h","Js"],["Jc","Td","Th","Ks","9s"],["Tc","9c","Ad","Ah","As"],["8c","8d","Jh","Qh","7s"]],
                   "turnup": "7d", "dealer": 0}))
        .unwrap()
}

#[test]
fn talon_exhaustion_tv_m08() {
    // TV-M08: N=5, deck 44, talon 18
    let mut s = n5_no_mosca();
    assert_eq!(s.talon().len(), 18);
    act(&mut s, "play slots 0 1 2 3 4");
    assert_eq!(s.talon().len(), 13);
    act(&mut s, "play slots 0 1 2 3 4");
    assert_eq!(s.talon().len(), 8);
    act(&mut s, "play slots 0 1 2 3 4");
    assert_eq!(s.talon().len(), 3);
    // fourth declarer: popcount 4 illegal, 3 legal
    let before = s.to_json();
    assert!(s.apply(PLAY0 + 0b01111).is_err());
    assert_eq!(s.to_json(), before);
    assert!(s.is_legal(PLAY0 + 0b00111));
    act(&mut s, "play slots 0 1 2");
    assert_eq!(s.talon().len(), 0);
    // dealer: only PASS and PLAY(0)
    assert_eq!(s.current_player(), Some(0));
    assert_eq!(s.legal_actions(), vec![PASS, PLAY0]);
    act(&mut s, "play");
    // the turn-up is still offered
    assert_eq!(s.phase(), Phase::Turnup);
    assert_eq!(s.legal_actions(), (TAKE0..=LEAVE).collect::<Vec<_>>());
    assert!(s.cards_conserved());
}

#[test]
fn mask_mapping_tv_m09() {
    // TV-M09: hand {KS, 7H, AC, 9D, TD}; id 72 = mask 19 discards AC, 9D, KS
    let mut s = three_seats(
        json!({"hands": [["Kc","Qc","Jd","9h","Js"],["Ks","7h","Ac","9d","Td"],["Jc","Tc","Th","Qs","9s"]],
               "turnup": "Qd", "dealer": 0}),
    );
    assert_eq!(s.current_player(), Some(1));
    assert_eq!(s.action_to_string(72).unwrap(), "play x Ac 9d Ks");
    assert_eq!(s.action_to_string(53).unwrap(), "play");
    assert_eq!(s.string_to_action("play x Ks 9d Ac").unwrap(), 72);
    let top: CardSet = s.talon()[..3].iter().map(|&c| Card(c)).collect();
    s.apply(72).unwrap();
    assert_eq!(s.hand(1), set("7h Td").union(top));
    assert_eq!(s.exchanged[1], 3);
}

#[test]
fn throw_in_tv_m10() {
    // TV-M10: N=3, pot 3, everyone passes -> pot stays 3; seat 1 deals next, pot 6
    let mut s = three_seats(
        json!({"hands": [["Kc","Qc","Jd","9h","Js"],["Ks","7h","Ac","9d","Td"],["Jc","Tc","Th","Qs","9s"]],
               "turnup": "Qd", "dealer": 0, "seed": 4}),
    );
    assert_eq!(s.pot(), 3);
    for _ in 0..3 {
        act(&mut s, "pass");
    }
    assert_eq!(s.deals_played(), 1);
    assert_eq!(s.balances()[0], 97);
    if s.phase() == Phase::Declare {
        assert_eq!(s.dealer(), 1);
        assert_eq!(s.pot(), 6);
        assert_eq!(s.balances(), &[97, 97, 100]);
    }
}

fn n4_setup(extra: Value) -> MoscaState {
    let mut spec = json!({"hands": [["Ac","7c","Kd","8h","Qs"],["Kc","Qc","Jd","9h","Js"],["Jc","Td","Th","Ks","9s"],["Tc","9c","Ad","Ah","As"]],
                          "turnup": "9d", "dealer": 0, "seed": 9});
    if let (Value::Object(m), Value::Object(e)) = (&mut spec, extra) {
        for (k, v) in e {
            m.insert(k, v);
        }
    }
    game(json!({"players": 4})).setup(&spec).unwrap()
}

#[test]
fn lone_player_tv_m11() {
    // TV-M11: seats 1, 2, 3 pass; dealer plays, leaves the turn-up, wins 4: balances unchanged
    let mut s = n4_setup(json!({}));
    for _ in 0..3 {
        act(&mut s, "pass");
    }
    act(&mut s, "play");
    assert_eq!(s.phase(), Phase::Turnup);
    act(&mut s, "leave turnup");
    assert_eq!(s.deals_played(), 1);
    // dealer -4 +4; seat 1 has anted the next deal
    assert_eq!(s.balances()[0], 100);
    assert_eq!(&s.balances()[2..], &[100, 100]);
}

#[test]
fn take_turnup_tv_m12() {
    // TV-M12: dealer hand AC 7C KD 8H QS, turn-up 9D; TAKE_TURNUP(1) gives up 7C
    let mut s = n4_setup(json!({}));
    // a non-dealer has no turn-up step
    assert!(s.apply(TAKE0 + 1).is_err());
    for _ in 0..3 {
        act(&mut s, "play");
    }
    act(&mut s, "play");
    assert_eq!(s.action_to_string(TAKE0 + 1).unwrap(), "take turnup 7c");
    s.apply(TAKE0 + 1).unwrap();
    assert_eq!(s.hand(0), set("Ac Kd 8h Qs 9d"));
    assert_eq!(s.trump(), 1);
    assert!(s.turnup_taken);
    assert_eq!(s.turnup_discard, card("7c").0 as i8);
    assert_eq!(s.phase(), Phase::Trick);
    assert!(s.cards_conserved());
    // a dealer who passes has no turn-up step
    let mut s = n4_setup(json!({}));
    for _ in 0..3 {
        act(&mut s, "play");
    }
    act(&mut s, "pass");
    assert_eq!(s.phase(), Phase::Trick);
}

#[test]
fn complete_deal_tv_m24() {
    // TV-M24
    let mut s = three_seats(
        json!({"hands": [["Ah","9h","Ks","Qc","Td"],["Kh","7h","Qs","As","9c"],["Jh","Ts","8s","Kc","7d"]],
               "turnup": "8h", "dealer": 0, "seed": 2}),
    );
    for _ in 0..3 {
        act(&mut s, "play");
    }
    act(&mut s, "leave turnup");
    let steps: [(&str, &str); 15] = [
        ("9c", ""),
        ("Kc", "Kc"),
        ("Qc", "Qc"),
        ("7d", ""),
        ("Td", "Td"),
        ("7h", "7h Kh"),
        ("Qs", ""),
        ("8s", "Ts 8s"),
        ("Ks", "Ks"),
        ("Ah", ""),
        ("Kh", "Kh"),
        ("Jh", "Jh"),
        ("As", ""),
        ("Ts", "Ts"),
        ("9h", "9h"),
    ];
    let leaders = [1usize, 2, 1, 0, 1];
    for (i, (c, legal)) in steps.iter().enumerate() {
        if i % 3 == 0 {
            assert_eq!(s.leader as usize, leaders[i / 3], "trick {}", i / 3 + 1);
        }
        if !legal.is_empty() {
            assert_eq!(legal_cards_text(&s), set(legal), "step {i}");
        }
        act(&mut s, c);
    }
    // tricks 2/2/1: tie, pot 3 carried; next deal dealer 1 antes 3 -> pot 6
    assert_eq!(s.deals_played(), 1);
    assert_eq!(s.balances()[0], 97);
    if s.phase() == Phase::Declare {
        assert_eq!(s.dealer(), 1);
        assert_eq!(s.pot(), 6);
    }
}

#[test]
fn first_lead_when_mano_folds_tv_m27() {
    // TV-M27: seat 1 passes, 2 and 3 play, dealer plays and leaves: trick 1 led by 2, order 2 3 0
    let mut s = n4_setup(json!({}));
    act(&mut s, "pass");
    act(&mut s, "play");
    act(&mut s, "play");
    act(&mut s, "play");
    act(&mut s, "leave turnup");
    assert_eq!(s.leader, 2);
    assert_eq!(s.current_player(), Some(2));
    let c = s.legal_cards().first().unwrap();
    s.apply(c.0 as Action).unwrap();
    assert_eq!(s.current_player(), Some(3));
    let c = s.legal_cards().first().unwrap();
    s.apply(c.0 as Action).unwrap();
    assert_eq!(s.current_player(), Some(0));
}

/// Direct scoring: sets tricks and declarations, then runs SCORE.
fn scored(opts: Value, n: usize, pot: i64, tricks: &[(usize, u8)]) -> MoscaState {
    let g = game(opts);
    let mut s = g.blank(0);
    s.pot = pot;
    for &(seat, t) in tricks {
        s.declarations[seat] = 1;
        s.tricks_won[seat] = t;
    }
    for seat in 0..n {
        if s.declarations[seat] != 1 {
            s.declarations[seat] = 0;
        }
    }
    s.n_active = tricks.len() as u8;
    s.score();
    s
}

#[test]
fn scoring_with_penalty_tv_m25() {
    // TV-M25: pot 4; seats 1,2,3 took 3,2,0 -> seat 3 pays 2, seat 1 wins 6
    let s = scored(json!({"players": 4}), 4, 4, &[(1, 3), (2, 2), (3, 0)]);
    assert_eq!(s.balances(), &[100, 106, 100, 98]);
    assert_eq!(s.pot(), 0);
}

#[test]
fn tie_plus_penalty_tv_m26() {
    // TV-M26: N=5, pot 5; 2,2,1,0 -> pot 7 carried
    let s = scored(
        json!({"players": 5}),
        5,
        5,
        &[(0, 2), (1, 2), (2, 1), (3, 0)],
    );
    assert_eq!(s.pot(), 7);
    assert_eq!(s.balances(), &[100, 100, 100, 98, 100]);
    // hand calculation: split_equally gives 3 each to the two leaders, 1 stays
    let s = scored(
        json!({"players": 5, "trick_tie": "split_equally"}),
        5,
        5,
        &[(0, 2), (1, 2), (2, 1), (3, 0)],
    );
    assert_eq!(s.pot(), 1);
    assert_eq!(s.balances(), &[103, 103, 100, 98, 100]);
}

#[test]
fn per_trick_tv_m28() {
    // TV-M28: pot 12 -> 2 a trick; 3,2,0 -> +6 +4, then the 0-trick player pays 2: pot 4
    let s = scored(
        json!({"players": 4, "pot_award": "per_trick"}),
        4,
        12,
        &[(0, 3), (1, 2), (2, 0)],
    );
    assert_eq!(s.balances(), &[106, 104, 98, 100]);
    assert_eq!(s.pot(), 4);
}

#[test]
fn next_pot_tv_m29() {
    // TV-M29: as TV-M25, seat 1 wins 4, then seat 3 pays 2: pot 2
    let s = scored(
        json!({"players": 4, "penalty_timing": "next_pot"}),
        4,
        4,
        &[(1, 3), (2, 2), (3, 0)],
    );
    assert_eq!(s.balances(), &[100, 104, 100, 98]);
    assert_eq!(s.pot(), 2);
    // hand calculation: no_trick_penalty = pot pays the pot as it stood (4)
    let s = scored(
        json!({"players": 4, "no_trick_penalty": "pot"}),
        4,
        4,
        &[(1, 3), (2, 2), (3, 0)],
    );
    assert_eq!(s.balances(), &[100, 108, 100, 96]);
}

#[test]
fn end_of_match_returns_tv_m30() {
    // TV-M30: balances 112, 95, 91, pot 2 -> returns 12 + 2/3, -5 + 2/3, -9 + 2/3
    let g = game(json!({"players": 3, "match_deals": 6}));
    let mut s = g.blank(0);
    s.balances[..3].copy_from_slice(&[112, 95, 91]);
    s.pot = 2;
    s.end_match();
    let r = s.returns();
    assert_eq!(
        r,
        vec![12.0 + 2.0 / 3.0, -5.0 + 2.0 / 3.0, -9.0 + 2.0 / 3.0]
    );
    assert!((r.iter().sum::<f64>()).abs() < 1e-9);
    // leftover_pot split: each seat gets floor(2/3) = 0, pot stays 2
    let g = game(json!({"players": 3, "leftover_pot": "split_equally_among_all"}));
    let mut s = g.blank(0);
    s.pot = 7;
    s.end_match();
    assert_eq!(s.balances(), &[102, 102, 102]);
    assert_eq!(s.pot(), 1);
}

#[test]
fn notation_round_trips_every_id() {
    let mut s = n4_setup(json!({}));
    for phase in 0..3 {
        for a in 0..NUM_ACTIONS {
            let t = s.action_to_string(a).unwrap();
            assert_eq!(s.string_to_action(&t).unwrap(), a, "{t}");
        }
        match phase {
            0 => {
                for _ in 0..4 {
                    act(&mut s, "play");
                }
            }
            _ => {
                act(&mut s, "leave turnup");
            }
        }
        if s.phase() == Phase::Trick {
            break;
        }
    }
    assert!(s.action_to_string(91).is_err());
    assert_bad_notation(|t| s.string_to_action(t), &["play x 2c", "fly"]);
}

#[test]
fn json_round_trip_and_options() {
    let g = game(json!({"players": 5, "exchange_limit": "reshuffle_discards_when_empty"}));
    let mut s = g.new_state(42);
    let mut bot = SplitMix64::new(7);
    let mut buf = Vec::new();
    for _ in 0..200 {
        if s.is_terminal() {
            break;
        }
        json_round_trip(&g, &s);
        s.legal_actions_into(&mut buf);
        let a = buf[(bot.next_u64() % buf.len() as u64) as usize];
        s.apply(a).unwrap();
        assert!(s.cards_conserved());
    }
    for bad in [
        json!({"players": 7}),
        json!({"deck": 33}),
        json!({"first_dealer": 4}),
        json!({"must_head": 1}),
        json!({"bogus": 1}),
        json!({"match_deals": null}),
    ] {
        assert!(
            matches!(
                MoscaGame::from_options(&bad),
                Err(GameError::InvalidOption(_))
            ),
            "{bad}"
        );
    }
    assert_eq!(game(json!({"players": 6})).options().match_deals, 12);
}

#[test]
fn every_seat_eliminated_at_once_ends_the_match() {
    // hand calculation: initial_chips 0, dealer 0 antes 3 and everyone passes (throw-in):
    // balances -3, 0, 0 are all <= 0, so every seat is eliminated and the match ends
    let g = game(json!({"players": 3, "initial_chips": 0, "bankruptcy": "eliminate_at_zero"}));
    let mut s = g
        .setup(&json!({"hands": [["Kc","Qc","Jd","9h","Js"],["Ks","7h","Ac","9d","Td"],["Jc","Tc","Th","Qs","9s"]],
                      "turnup": "Qd", "dealer": 0}))
        .unwrap();
    for _ in 0..3 {
        act(&mut s, "pass");
    }
    assert!(s.is_terminal());
    assert_eq!(s.balances(), &[-3, 0, 0]);
    assert_eq!(s.pot(), 3);
    // next(s) is total: the view (which names the mano) does not hang; mano = dealer
    let v: Value = serde_json::from_str(&s.view(1).unwrap()).unwrap();
    assert_eq!(v["mano"], 0);
    let back = g.state_from_json(&s.to_json()).unwrap();
    assert_eq!(back.to_json(), s.to_json());
    assert_eq!(s.returns(), vec![-3.0 + 1.0, 1.0, 1.0]);
}

/// Time of one `resample_into` into a reused state from the mid-deal positions of
/// `bench/resample.py` (12 random decisions), per position: a report, not a check.
/// `cargo test --release -p tapete-core resample_speed -- --ignored --nocapture`
#[test]
#[ignore]
fn resample_speed() {
    use crate::rng::SplitMix64;
    use std::time::Instant;
    let g = game(json!({}));
    let mut total = 0.0;
    let mut count = 0;
    for seed in 0..64u64 {
        let mut s = g.new_state(seed);
        let mut rng = SplitMix64::new(seed ^ 0x5EED);
        for _ in 0..12 {
            if s.is_terminal() {
                break;
            }
            let legal = s.legal_actions();
            s.apply_unchecked(legal[(rng.next_u64() % legal.len() as u64) as usize]);
        }
        if s.is_terminal() {
            continue;
        }
        let mut out = s.clone();
        let n = 20_000;
        let start = Instant::now();
        for i in 0..n {
            s.resample_into(i % 4, i as u64, &mut out);
            std::hint::black_box(&out);
        }
        let ns = start.elapsed().as_secs_f64() * 1e9 / n as f64;
        println!(
            "seed {seed:2} phase {:?} played {:2}: {ns:.0} ns",
            s.phase(),
            s.played.len()
        );
        total += ns;
        count += 1;
    }
    println!(
        "mean over {count} positions: {:.0} ns",
        total / count as f64
    );
}
