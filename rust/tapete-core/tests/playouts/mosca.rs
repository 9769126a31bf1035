//! Random playouts of La Mosca for every player count 3..6 (and 2) under several option sets:
//! the generic invariants of `tapete_core::testing::random_sim_test` (docs/design.md §7.3), plus
//! this game's own (docs/mosca_engine.md §4): every card of the deck is in exactly one place at
//! every step, and chips are conserved (balances + pot constant). Each player count plays 2,000
//! games in the full sweep (`TAPETE_PLAYOUTS=full`; CI plays a tenth,
//! `tapete_core::testing::games_from_env`).

use rayon::prelude::*;
use tapete_core::games::mosca::MoscaGame;
use tapete_core::testing::{games_from_env, random_sim_test, Sweep};
use tapete_core::{Game, State};

/// Option sets, each played for every player count 3..6.
const OPTIONS: &[&str] = &[
    r#"{}"#,
    r#"{"exchange_limit":"reshuffle_discards_when_empty","mosca_after_exchange":true,"lone_player":"must_play_tricks"}"#,
    r#"{"pot_award":"per_trick","ante":"dealer_pays_5","no_trick_penalty":"pot","deal_packets":"3_then_2"}"#,
    r#"{"bankruptcy":"eliminate_at_zero","initial_chips":6,"match_deals":30,"ante":"each_player_pays_1","leftover_pot":"split_equally_among_all"}"#,
    r#"{"must_head":false,"must_trump":false,"trick_tie":"split_equally","penalty_timing":"next_pot","mosca_tie":"eldest_wins","mosca_bonus":"each_other_player_pays_penalty","deck":52,"ace_rank":"high"}"#,
    r#"{"must_overtrump":false,"must_undertrump":false,"exchange_limit":"max_3","dealer_may_take_turnup":false,"lone_player":"pot_carries","deal_packets":"1_at_a_time","ace_rank":"low","first_dealer":1}"#,
];

fn sweep(options: &str, players: usize, games: usize) {
    let opts = if options == "{}" {
        format!(r#"{{"players":{players}}}"#)
    } else {
        format!(r#"{{"players":{players},{}"#, &options[1..])
    };
    let game = MoscaGame::from_options_json(&opts).unwrap_or_else(|e| panic!("{opts}: {e}"));
    let chips = players as i64 * game.options().initial_chips;
    let seed = 0x5EED ^ players as u64 ^ (opts.len() as u64) << 8;
    let sweep = Sweep {
        max_actions: 100_000,
        ..Sweep::new(games, seed)
    };
    random_sim_test(&game, sweep, |s| {
        assert!(
            s.cards_conserved(),
            "{opts}: cards not conserved\n{}",
            s.to_json()
        );
        assert_eq!(
            s.total_chips(),
            chips,
            "{opts}: chips not conserved\n{}",
            s.to_json()
        );
    });
}

#[test]
fn random_playouts_keep_the_invariants() {
    let games = games_from_env(2000);
    let mut jobs: Vec<(&str, usize, usize)> = Vec::new();
    for players in 3..=6 {
        for (i, &options) in OPTIONS.iter().enumerate() {
            // per player count: half the games with the defaults, a tenth with each other set
            let count = if i == 0 {
                games.div_ceil(2)
            } else {
                games.div_ceil(10)
            };
            jobs.push((options, players, count));
        }
    }
    jobs.push(("{}", 2, games.div_ceil(10)));
    // configurations are independent: spread them over the cores (CI has two)
    jobs.par_iter()
        .for_each(|&(options, players, count)| sweep(options, players, count));
}
