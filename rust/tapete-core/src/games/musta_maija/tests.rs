//! Unit tests of the state machine, from the rules' vectors (cited) and hand calculations.

use serde_json::json;

use super::notation::{DONE, TAKE_ALL};
use super::*;
use crate::testing::json_round_trip;

fn c(s: &str) -> Action {
    Card::parse(s).unwrap().0 as Action
}

fn set(cards: &[&str]) -> CardSet {
    cards.iter().map(|s| Card::parse(s).unwrap()).collect()
}

fn game(opts: serde_json::Value) -> MustaMaijaGame {
    MustaMaijaGame::from_options(&opts).unwrap()
}

fn setup(g: &MustaMaijaGame, spec: serde_json::Value) -> MustaMaijaState {
    g.setup(&spec).unwrap()
}

#[test]
fn tv_mm09_maija_cannot_be_beaten() {
    let g = game(json!({}));
    let mut s = setup(
        &g,
        json!({"hands": [["Qs", "2c"], ["Ks", "As", "2h"], ["3c"], ["4c"]], "trump": "3h"}),
    );
    s.apply(c("Qs")).unwrap();
    s.apply(DONE).unwrap();
    assert_eq!(s.legal_actions(), vec![DONE, TAKE_ALL]);
    s.apply(DONE).unwrap();
    assert!(s.hand(1).contains(Card(50)));
    assert_eq!(s.attacker(), Some(2)); // next_active(1)
    assert_eq!(s.known(1), set(&["Qs"]));
}

#[test]
fn tv_mm12_one_card_beats_one_card() {
    let g = game(json!({}));
    let mut s = setup(
        &g,
        json!({"hands": [["5h", "6h", "2c"], ["Ah", "3c", "4c", "7s", "9s"], ["5c", "Qs"], ["6c"]], "trump": "2d"}),
    );
    s.apply(c("5h")).unwrap();
    s.apply(c("6h")).unwrap();
    s.apply(DONE).unwrap();
    assert_eq!(s.legal_actions(), vec![26, 52, 53]);
    s.apply(26).unwrap();
    assert_eq!(s.legal_actions(), vec![52, 53]);
    s.apply(DONE).unwrap();
    assert_eq!(
        s.out_of_play().inter(set(&["5h", "Ah"])),
        set(&["5h", "Ah"])
    );
    assert!(s.hand(1).contains(Card(31)));
}

#[test]
fn tv_mm13_14_15_next_attacker() {
    let g = game(json!({}));
    let spec = json!({"hands": [["4c", "5h", "9h", "2d"], ["9c", "6h", "Kd"], ["3s", "4s"], ["5s", "6s", "Qs"]], "trump": "2s", "stock": ["7d", "8d", "2s"]});
    // TV-MM13: full beat -> seat 1 attacks seat 2
    let mut s = setup(&g, spec.clone());
    s.play_move("attack 4c").unwrap();
    s.play_move("defend 9c").unwrap();
    assert_eq!((s.attacker(), s.defender()), (Some(1), Some(2)));
    // TV-MM15: voluntary refusal -> seat 1 picks up 4c, seat 2 attacks
    let mut s = setup(&g, spec.clone());
    s.play_move("attack 4c").unwrap();
    assert!(s.legal_actions().contains(&c("9c")));
    s.apply(DONE).unwrap();
    assert!(s.hand(1).contains(Card(3)));
    assert_eq!(s.attacker(), Some(2));
    // TV-MM14: partial beat: 5h <- 6h, 9h left -> seat 2 attacks seat 3
    let mut s = setup(&g, spec);
    s.play_move("attack 5h 9h").unwrap();
    s.play_move("defend 6h -").unwrap();
    assert!(s.hand(1).contains(Card(34)));
    assert_eq!((s.attacker(), s.defender()), (Some(2), Some(3)));
}

#[test]
fn tv_mm16_17_refill_order() {
    let g = game(json!({}));
    // TV-MM16: stock 3; attacker 5 cards attacks with 3, draws 3; defender 5 - 2 + 1 = 4
    let mut s = setup(
        &g,
        json!({"hands": [["2h", "3h", "4h", "Kc", "Qc"], ["Ah", "Kh", "2c", "3c", "4c"], ["5c", "Qs"], ["6c"]],
               "stock": ["7c", "8c", "9d"]}),
    );
    s.play_move("attack 2h 3h 4h").unwrap();
    assert_eq!(s.hand(0).len(), 5);
    assert_eq!(s.stock_len(), 0);
    s.play_move("defend Ah Kh -").unwrap();
    assert_eq!(s.hand(1).len(), 4);
    // TV-MM17: stock [5C, 8D], trump D: attacker draws 5C then 8D (known, face up)
    let mut s = setup(
        &g,
        json!({"hands": [["2h", "3h", "4h", "Kc", "Qc"], ["Ah", "Kh", "2c", "3c", "4c"], ["6c", "Qs"], ["7c"]],
               "stock": ["5c", "8d"]}),
    );
    assert!(s.trump_in_stock());
    s.play_move("attack 2h 3h 4h").unwrap();
    assert_eq!(s.hand(0), set(&["Kc", "Qc", "5c", "8d"]));
    assert_eq!(s.known(0), set(&["8d"]));
    assert!(!s.trump_in_stock());
    s.apply(TAKE_ALL).unwrap();
    assert_eq!(s.hand(1).len(), 8);
}

#[test]
fn tv_mm18_attack_with_maija_fails() {
    let g = game(json!({}));
    let mut s = setup(
        &g,
        json!({"hands": [["7s", "Qs", "2c"], ["9s", "Ah", "3c"], ["4c"], ["5c"]], "trump": "2h"}),
    );
    s.play_move("attack 7s Qs").unwrap();
    assert_eq!(s.legal_actions(), vec![c("Ah"), c("9s"), DONE, TAKE_ALL]);
    s.apply(c("9s")).unwrap();
    assert_eq!(s.legal_actions(), vec![DONE, TAKE_ALL]);
    s.apply(DONE).unwrap();
    assert!(s.hand(1).contains(Card(50)));
    assert_eq!(s.attacker(), Some(2));
}

#[test]
fn tv_mm19_skip_out_seat() {
    let g = game(json!({}));
    let mut s = setup(
        &g,
        json!({"hands": [["2c", "Qs"], [], ["3d"], ["4h"]], "trump": "2h"}),
    );
    assert_eq!(s.defender(), Some(2));
    s.play_move("attack 2c").unwrap();
    s.apply(DONE).unwrap();
    assert_eq!(s.attacker(), Some(3));
}

#[test]
fn tv_mm20_21_endgame() {
    let g = game(json!({"players": 3}));
    let mut s = setup(
        &g,
        json!({"hands": [["5c", "9c", "Qs"], ["6c", "2h"], ["Kd", "3s"]], "trump": "3h"}),
    );
    // step 1 (TV-MM20 too)
    s.play_move("attack 5c 9c").unwrap();
    s.play_move("defend 6c 2h").unwrap();
    assert!(s.hand(1).is_empty());
    assert_eq!((s.attacker(), s.defender()), (Some(2), Some(0)));
    // step 2
    s.play_move("attack 3s").unwrap();
    assert_eq!(s.legal_actions(), vec![DONE, TAKE_ALL]);
    s.apply(DONE).unwrap();
    assert_eq!(s.hand(0), set(&["Qs", "3s"]));
    assert_eq!((s.attacker(), s.defender()), (Some(2), Some(0)));
    // step 3
    s.play_move("attack Kd").unwrap();
    assert_eq!(s.legal_actions(), vec![DONE, TAKE_ALL]);
    s.apply(DONE).unwrap();
    // step 4
    assert!(s.is_terminal());
    assert_eq!(s.hand(0), set(&["Qs", "3s", "Kd"]));
    assert_eq!(s.returns(), vec![-1.0, 0.5, 0.5]);
    assert_eq!(s.scores(), vec![1, 0, 0]);
}

#[test]
fn tv_mm22_defence_order() {
    let g = game(json!({}));
    let spec = json!({"hands": [["3d", "5d", "Qs"], ["4d", "6d", "2c", "3c"], ["4c"], ["5c"]], "trump": "2d"});
    let mut a = setup(&g, spec.clone());
    a.play_move("attack 3d 5d").unwrap();
    a.play_move("defend 4d 6d").unwrap();
    assert_eq!(a.attacker(), Some(1));
    let mut b = setup(&g, spec);
    b.play_move("attack 3d 5d").unwrap();
    b.apply(c("6d")).unwrap();
    assert_eq!(b.legal_actions(), vec![DONE, TAKE_ALL]);
}

#[test]
fn tv_mm23_empty_hand_nonempty_stock() {
    let g = game(json!({}));
    let stock = ["2h", "3h", "4h", "5h", "6h", "7h", "8h", "9h", "Th", "Jh"];
    let mut s = setup(
        &g,
        json!({"hands": [["2d", "3d", "4d", "5d", "6d"], ["2c", "3c", "4c", "5c", "6c"], ["7c", "Qs"], ["8c"]], "stock": stock}),
    );
    s.play_move("attack 2d 3d 4d 5d 6d").unwrap();
    assert_eq!(s.hand(0).len(), 5);
    assert_eq!(s.stock_len(), 5);
}

#[test]
fn tv_mm24_encoding_order() {
    let g = game(json!({}));
    let mut s = setup(
        &g,
        json!({"hands": [["5h", "7h", "9h", "8d"], ["2c", "3c"], ["4c", "Qs"], ["5c"]], "trump": "2d"}),
    );
    s.apply(c("7h")).unwrap();
    assert!(s.apply(c("5h")).is_err());
    assert!(s.apply(c("8d")).is_err());
    assert!(s.legal_actions().contains(&c("9h")));
}

#[test]
fn tv_mm25_end_condition() {
    let g = game(json!({"players": 3}));
    let mut s = setup(
        &g,
        json!({"hands": [["Qs"], [], ["4h"]], "attacker": 2, "trump": "2d"}),
    );
    assert!(!s.is_terminal());
    assert_eq!(s.defender(), Some(0));
    s.play_move("attack 4h").unwrap();
    assert_eq!(s.legal_actions(), vec![DONE, TAKE_ALL]);
    s.apply(DONE).unwrap();
    assert!(s.is_terminal());
    assert_eq!(s.losers(), vec![0]);
}

#[test]
fn mandatory_beating_limits_actions() {
    // beat_optional=false: attack {5h,6h}, defender AH only beater (TV-MM12 hand): max matching 1
    let g = game(json!({"beat_optional": false}));
    let mut s = setup(
        &g,
        json!({"hands": [["5h", "6h", "2c"], ["Ah", "3c", "4c", "7s", "9s"], ["5c", "Qs"], ["6c"]], "trump": "2d"}),
    );
    s.play_move("attack 5h 6h").unwrap();
    // target 5h: AH keeps M=1 reachable; DONE too (AH can still beat 6h); TAKE_ALL not (0 < 1)
    assert_eq!(s.legal_actions(), vec![26, DONE]);
    s.apply(26).unwrap();
    assert_eq!(s.legal_actions(), vec![DONE, TAKE_ALL]);
}

#[test]
fn deal_one_at_a_time_and_trump_at_bottom() {
    let g = game(json!({"first_dealer": 3}));
    let deck: Vec<u8> = (0..52u8).collect();
    let s = g.new_state_with_deck(9, &json!(deck)).unwrap();
    // dealer 3: seat 0 gets d[0], d[4], ..., d[16]; seat 1 d[1], d[5], ...
    assert_eq!(
        s.hand(0),
        [0u8, 4, 8, 12, 16].iter().map(|&i| Card(i)).collect()
    );
    assert_eq!(
        s.hand(1),
        [1u8, 5, 9, 13, 17].iter().map(|&i| Card(i)).collect()
    );
    // stock d[20..52]: top 20 (8d) is not a spade -> trump 8d at the bottom (TV-MM02 pattern)
    let stock = s.stock();
    assert_eq!(stock.len(), 32);
    assert_eq!(stock[0], 21);
    assert_eq!(*stock.last().unwrap(), 20);
    assert_eq!(s.trump_suit(), Some(1));
    assert_eq!(s.attacker(), Some(0));
    assert_eq!(s.rng.state, 9, "a seat dealer draws nothing");
}

#[test]
fn after_first_lead_turns_at_commit() {
    let g = game(json!({"variant": "pagat", "first_dealer": 0}));
    let mut s = g.new_state(5);
    assert_eq!(s.trump_card(), None);
    let a = s.legal_actions()[0];
    s.apply(a).unwrap();
    assert_eq!(s.trump_card(), None);
    s.apply(DONE).unwrap();
    assert!(s.trump_card().is_some());
}

#[test]
fn json_round_trip_and_errors_leave_state() {
    let g = game(json!({"players": 3}));
    let mut s = g.new_state(3);
    for _ in 0..40 {
        if s.is_terminal() {
            break;
        }
        let j = s.to_json();
        json_round_trip(&g, &s);
        assert!(s.apply(60).is_err());
        assert_eq!(s.to_json(), j);
        let a = *s.legal_actions().last().unwrap();
        s.apply(a).unwrap();
    }
    assert!(g.state_from_json("{}").is_err());
    assert!(g.state_from_json("[").is_err());
}

#[test]
fn options_resolve_and_refuse() {
    let g = game(json!({}));
    assert_eq!(
        g.options_json(),
        "{\"attack_limit\":\"defender_hand_size\",\"beat_optional\":true,\"draw_order\":\"attacker_then_defender\",\"first_dealer\":\"random\",\"hand_size\":5,\"match\":\"single_hand\",\"match_hands\":5,\"match_losses\":3,\"max_attacks\":1000,\"next_dealer\":\"loser\",\"players\":4,\"spade_reinsert\":\"middle\",\"spades_can_be_trump\":false,\"trump_reveal\":\"at_deal\",\"variant\":\"standard\"}"
    );
    for bad in [
        json!({"players": 7}),
        json!({"players": true}),
        json!({"hand_size": 13}),
        json!({"first_dealer": 4}),
        json!({"nope": 1}),
        json!({"max_attacks": 0}),
        json!({"beat_optional": 1}),
    ] {
        assert!(
            matches!(
                MustaMaijaGame::from_options(&bad),
                Err(GameError::InvalidOption(_))
            ),
            "{bad}"
        );
    }
    assert!(MustaMaijaGame::from_options(&json!({"players": 6, "hand_size": 8})).is_ok());
}
