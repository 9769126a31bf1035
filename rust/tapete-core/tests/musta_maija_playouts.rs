//! docs/design.md §7.3 invariants over random playouts of Musta Maija for 2..6 players (OpenSpiel's
//! RandomSimTest): legal actions sorted, unique and non-empty until the end; every legal action
//! applies; illegal ones fail and change nothing; clones are independent; the JSON round trip is
//! exact; the 52 cards are conserved at every step (hands + stock + table + out of play); every
//! hand ends with exactly one seat holding cards, and it holds Qs (unless the attack cap ended it);
//! returns are 0 until the end and zero-sum at it. `TAPETE_PLAYOUTS` sets the games per player count.

use tapete_core::games::musta_maija::{MustaMaijaGame, MustaMaijaState, Phase};
use tapete_core::{Action, Card, CardSet, SplitMix64};

/// Option sets off the default path, each played for a tenth of the games.
const EXOTIC: &[&str] = &[
    r#"{"variant":"pagat","players":3}"#,
    r#"{"spades_can_be_trump":true,"spade_reinsert":"random_position","players":5}"#,
    r#"{"spade_reinsert":"random_position","draw_order":"defender_then_attacker","players":4}"#,
    r#"{"beat_optional":false,"attack_limit":"unlimited","players":3}"#,
    r#"{"attack_limit":"defender_hand_size_max_5","hand_size":7,"players":6}"#,
    r#"{"match":"fixed_hands","match_hands":3,"next_dealer":"rotate_left","players":4}"#,
    r#"{"match":"first_to_losses","match_losses":2,"max_attacks":40,"players":2}"#,
    r#"{"hand_size":1,"players":2,"max_attacks":null}"#,
];

const MAX_ACTIONS: usize = 2_000_000;

fn games_per_config() -> usize {
    std::env::var("TAPETE_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

/// Every card exactly once: (union, count).
fn cards_in_play(s: &MustaMaijaState, seats: usize) -> (CardSet, u32) {
    let mut all = CardSet::EMPTY;
    let mut count = 0;
    let mut add = |set: CardSet| {
        count += set.len();
        all = all.union(set);
    };
    for p in 0..seats {
        add(s.hand(p));
    }
    add(s.stock().iter().map(|&c| Card(c)).collect());
    add(s.attack());
    add(s.beaten_pairs().iter().map(|p| Card(p[1])).collect());
    add(s.out_of_play());
    (all, count)
}

fn check_config(options: &str, games: usize) {
    let game =
        MustaMaijaGame::from_json_options(options).unwrap_or_else(|e| panic!("{options}: {e}"));
    let seats = game.num_players();
    let cap = game.options().max_attacks;
    let mut rng = SplitMix64::new(0x5EED ^ seats as u64 ^ (options.len() as u64) << 8);
    let mut obs = vec![0.0f32; game.observation_size()];
    let mut legal: Vec<Action> = Vec::new();
    for g in 0..games {
        let mut state = game.new_state(rng.next_u64());
        let mut steps = 0;
        let mut hand_no = state.hand_number();
        let mut last_losses = state.losses().to_vec();
        let mut prev_attacks = 0u32;
        loop {
            let (cards, count) = cards_in_play(&state, seats);
            assert_eq!(count, 52, "{options} game {g}: a card is missing or twice");
            assert_eq!(
                cards.len(),
                52,
                "{options} game {g}: a card is in two places"
            );
            // a hand ended: exactly one new loss; the loser is the only holder and holds Qs,
            // unless the attack cap ended the hand
            let lost: Vec<usize> = (0..seats)
                .filter(|&p| state.losses()[p] != last_losses[p])
                .collect();
            if !lost.is_empty() {
                assert_eq!(lost.len(), 1, "{options} game {g}: one loser per hand");
                assert_eq!(state.losses()[lost[0]], last_losses[lost[0]] + 1);
                if state.is_terminal() && Some(prev_attacks) != cap {
                    let holders: Vec<usize> =
                        (0..seats).filter(|&p| !state.hand(p).is_empty()).collect();
                    assert_eq!(
                        holders, lost,
                        "{options} game {g}: the loser is the only holder"
                    );
                    assert!(
                        state.hand(lost[0]).contains(Card(50)),
                        "the loser holds Maija"
                    );
                }
                if !state.is_terminal() {
                    assert_eq!(state.hand_number(), hand_no + 1);
                }
                hand_no = state.hand_number();
                last_losses = state.losses().to_vec();
            }
            if g < 10 || steps % 64 == 0 || state.is_terminal() {
                let json = state.to_json();
                let back = game
                    .state_from_json(&json)
                    .unwrap_or_else(|e| panic!("round trip: {e}\n{json}"));
                assert_eq!(back.to_json(), json, "JSON round trip");
                for p in 0..seats {
                    state
                        .write_observation(p, &mut obs)
                        .expect("an observation");
                    let seen = obs[..52].iter().filter(|&&x| x == 1.0).count();
                    assert_eq!(
                        seen,
                        state.hand(p).len() as usize,
                        "the observation shows the hand"
                    );
                    let view: serde_json::Value =
                        serde_json::from_str(&state.view_json(p as i64).expect("a view"))
                            .expect("JSON");
                    assert_eq!(
                        view["hand"].as_array().map(|h| h.len()),
                        Some(state.hand(p).len() as usize)
                    );
                }
            }
            state.legal_actions_into(&mut legal);
            if state.is_terminal() {
                assert!(legal.is_empty());
                assert_eq!(state.phase(), Phase::End);
                let r = state.returns();
                assert!(r.iter().sum::<f64>().abs() < 1e-9, "returns are zero-sum");
                assert!(r.iter().any(|&x| x != 0.0) || state.losers().len() == seats);
                break;
            }
            assert!(
                !legal.is_empty(),
                "{options} game {g}: no legal action\n{}",
                state.to_json()
            );
            assert!(
                legal.windows(2).all(|w| w[0] < w[1]),
                "legal actions sorted and unique"
            );
            assert!(
                state.returns().iter().all(|&r| r == 0.0),
                "returns are 0 until the end"
            );
            let json = if g < 20 {
                state.to_json()
            } else {
                String::new()
            };
            if g < 20 {
                for &a in &legal {
                    let mut child = state.clone();
                    child
                        .apply(a)
                        .unwrap_or_else(|e| panic!("legal action {a} failed: {e}"));
                }
                assert_eq!(
                    state.to_json(),
                    json,
                    "applying to a clone changed the original"
                );
            }
            if g < 200 || steps % 8 == 0 {
                for probe in [rng.next_u64() % 54, 54, 1_000_000] {
                    let a = probe as Action;
                    if !legal.contains(&a) {
                        assert!(state.apply(a).is_err(), "illegal action {a} was accepted");
                    }
                }
            }
            if g < 20 {
                assert_eq!(state.to_json(), json, "an illegal action changed the state");
            }
            let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
            prev_attacks = state.attacks();
            state.apply_unchecked(a);
            steps += 1;
            assert!(
                steps < MAX_ACTIONS,
                "{options} game {g}: no end after {MAX_ACTIONS} actions"
            );
        }
    }
}

#[test]
fn random_playouts_keep_the_invariants() {
    let games = games_per_config();
    for players in 2..=6 {
        check_config(&format!(r#"{{"players":{players}}}"#), games);
    }
    for options in EXOTIC {
        check_config(options, games.div_ceil(10));
    }
}
