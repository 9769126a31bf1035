#![cfg(any())] // LAYER-PENDING: compiled again once this game implements the new traits
//! docs/design.md §7.3 invariants over random Mosca playouts (OpenSpiel's RandomSimTest), for every
//! player count 3..6 and several option sets: legal actions sorted, unique and non-empty until
//! the end; every legal action applies; illegal ones fail and change nothing; clones are
//! independent; the JSON round trip is exact; the deck's cards are conserved; chips are
//! conserved (balances + pot constant); returns are 0 until the end and zero-sum at it; every
//! match ends. `TAPETE_PLAYOUTS` sets the games per configuration (default 2000).

use tapete_core::games::mosca::{MoscaGame, MoscaState, NUM_ACTIONS};
use tapete_core::{Action, SplitMix64, State};

/// Option sets, each played for every player count 3..6.
const OPTIONS: &[&str] = &[
    r#"{}"#,
    r#"{"exchange_limit":"reshuffle_discards_when_empty","mosca_after_exchange":true,"lone_player":"must_play_tricks"}"#,
    r#"{"pot_award":"per_trick","ante":"dealer_pays_5","no_trick_penalty":"pot","deal_packets":"3_then_2"}"#,
    r#"{"bankruptcy":"eliminate_at_zero","initial_chips":6,"match_deals":30,"ante":"each_player_pays_1","leftover_pot":"split_equally_among_all"}"#,
    r#"{"must_head":false,"must_trump":false,"trick_tie":"split_equally","penalty_timing":"next_pot","mosca_tie":"eldest_wins","mosca_bonus":"each_other_player_pays_penalty","deck":52,"ace_rank":"high"}"#,
    r#"{"must_overtrump":false,"must_undertrump":false,"exchange_limit":"max_3","dealer_may_take_turnup":false,"lone_player":"pot_carries","deal_packets":"1_at_a_time","ace_rank":"low","first_dealer":1}"#,
];

const MAX_ACTIONS: usize = 100_000;

fn games_per_config() -> usize {
    std::env::var("TAPETE_PLAYOUTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2000)
}

fn check(state: &MoscaState, game: &MoscaGame, total: i64, what: &str) {
    assert!(
        state.cards_conserved(),
        "{what}: cards not conserved\n{}",
        state.to_json()
    );
    assert_eq!(
        state.total_chips(),
        total,
        "{what}: chips not conserved\n{}",
        state.to_json()
    );
    let json = state.to_json();
    let back = game
        .state_from_json(&json)
        .unwrap_or_else(|e| panic!("{what}: round trip: {e}\n{json}"));
    assert_eq!(back.to_json(), json, "{what}: JSON round trip");
    assert!(back == *state, "{what}: the parsed state differs");
}

fn check_config(options: &str, players: usize, games: usize) {
    let opts = if options == "{}" {
        format!(r#"{{"players":{players}}}"#)
    } else {
        format!(r#"{{"players":{players},{}"#, &options[1..])
    };
    let game = MoscaGame::from_json_options(&opts).unwrap_or_else(|e| panic!("{opts}: {e}"));
    let mut rng = SplitMix64::new(0x5EED ^ players as u64 ^ (opts.len() as u64) << 8);
    let mut obs = vec![0.0f32; game.observation_size()];
    let mut legal: Vec<Action> = Vec::new();
    for g in 0..games {
        let mut state = game.new_state(rng.next_u64());
        let total = players as i64 * game.options().initial_chips;
        let mut steps = 0;
        loop {
            let what = format!("{opts} game {g} step {steps}");
            if g < 20 || steps % 16 == 0 || state.is_terminal() {
                check(&state, &game, total, &what);
                for p in 0..players {
                    state
                        .observation_into(p as i64, &mut obs)
                        .expect("an observation");
                    let seen = obs[..52].iter().filter(|&&x| x == 1.0).count();
                    assert_eq!(
                        seen,
                        state.hand(p).len() as usize,
                        "{what}: own hand in the observation"
                    );
                    state.view_json(p as i64).expect("a view");
                }
            } else {
                assert_eq!(state.total_chips(), total, "{what}: chips not conserved");
            }
            State::legal_actions(&state, &mut legal);
            if state.is_terminal() {
                assert!(legal.is_empty());
                let r = state.returns();
                assert!(
                    r.iter().sum::<f64>().abs() < 1e-6,
                    "{what}: returns are zero-sum: {r:?}"
                );
                break;
            }
            assert!(
                !legal.is_empty(),
                "{what}: no legal action\n{}",
                state.to_json()
            );
            assert!(
                legal.windows(2).all(|w| w[0] < w[1]),
                "{what}: legal actions sorted and unique"
            );
            assert!(
                state.returns().iter().all(|&r| r == 0.0),
                "{what}: returns are 0 until the end"
            );
            let before = state.clone();
            for &a in &legal {
                let mut child = state.clone();
                child
                    .apply(a)
                    .unwrap_or_else(|e| panic!("{what}: legal action {a} failed: {e}"));
                assert_eq!(child.total_chips(), total, "{what}: chips after {a}");
            }
            assert!(
                state == before,
                "{what}: applying to a clone changed the original"
            );
            for probe in [
                rng.next_u64() % NUM_ACTIONS as u64,
                rng.next_u64() % NUM_ACTIONS as u64,
                NUM_ACTIONS as u64,
                1_000_000,
            ] {
                let a = probe as Action;
                if !legal.contains(&a) {
                    assert!(
                        state.apply(a).is_err(),
                        "{what}: illegal action {a} was accepted"
                    );
                    assert!(
                        state == before,
                        "{what}: an illegal action changed the state"
                    );
                }
            }
            let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
            state.apply_unchecked(a);
            steps += 1;
            assert!(
                steps < MAX_ACTIONS,
                "{what}: no end after {MAX_ACTIONS} actions"
            );
        }
    }
}

#[test]
fn random_playouts_keep_the_invariants() {
    let games = games_per_config();
    for players in 3..=6 {
        for (i, options) in OPTIONS.iter().enumerate() {
            // per player count: half the games with the defaults, a tenth with each other set
            let count = if i == 0 {
                games.div_ceil(2)
            } else {
                games.div_ceil(10)
            };
            let t = std::time::Instant::now();
            check_config(options, players, count);
            if std::env::var("TAPETE_PLAYOUTS_VERBOSE").is_ok() {
                eprintln!(
                    "players {players} options {i}: {count} games in {:?}",
                    t.elapsed()
                );
            }
        }
    }
    check_config("{}", 2, games.div_ceil(10));
}
