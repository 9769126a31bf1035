//! Random playouts of Burako for 2 and 4 players and the option sets off the default path: the
//! generic invariants of `tapete_core::testing::random_sim_test` (docs/design.md §7.3), plus this
//! game's own: the 106 tiles are conserved at every step (docs/rules/burako.md §1), every hand
//! ends within `max_turns` turns and every match within `max_hands` hands. Each configuration
//! plays 1,000 single hands in the full sweep (`TAPETE_PLAYOUTS=full`; CI plays a tenth,
//! `tapete_core::testing::games_from_env`); whole matches get a tenth of that.

use rayon::prelude::*;
use tapete_core::games::burako::{BurakoGame, BurakoState};
use tapete_core::testing::{games_from_env, random_sim_test, Sweep};
use tapete_core::tiles::TileCounts;
use tapete_core::{Game, State};

/// Single-hand option sets (2 and 4 players, defaults and variants).
const SINGLE: &[&str] = &[
    r#"{"players":4,"match":"single_hand"}"#,
    r#"{"players":2,"match":"single_hand"}"#,
    r#"{"players":2,"match":"single_hand","two_player_hand":22,"muerto_size":"hand_size","max_wilds_per_meld":2,"close_mode":"discard_required"}"#,
    r#"{"players":4,"match":"single_hand","twos_wild":false,"close_requirement":"pure_canasta","stock_exhausted":"muerto_becomes_stock","max_turns":200}"#,
    r#"{"players":4,"match":"single_hand","pozo_take_requirement":"must_use_top_tile_now","single_tile_pozo_rediscard":"forbidden","close_mode":"meld_required","canasta_min":4}"#,
    r#"{"players":2,"match":"single_hand","max_wilds_per_meld":"fewer_than_naturals","pierna_of_twos":"allowed_as_naturals","ace_position":"high_only","ace_to_ace_run":"forbidden","two_value":"natural_5_wild_20","indirect_muerto_unplayed":"counts_as_not_taken","canasta_min":3}"#,
    r#"{"players":4,"match":"single_hand","max_wilds_per_meld":"unlimited","run_wrap":true,"pozo_take_requirement":"must_use_top_tile_now","canasta_min":5}"#,
    r#"{"players":2,"match":"single_hand","max_wilds_per_meld":"unlimited","run_wrap":true,"ace_position":"high_only","pierna_of_twos":"allowed_as_naturals","two_value":"natural_5_wild_20"}"#,
];

/// Whole matches, bounded by max_turns and max_hands.
const MATCHES: &[&str] = &[
    r#"{"players":4,"max_turns":60,"max_hands":4,"target":500}"#,
    r#"{"players":2,"max_turns":80,"max_hands":5,"target":400,"next_mano":"loser_starts"}"#,
];

/// The 106 tiles at every step; the turn and hand bounds.
fn own_invariants(s: &BurakoState, max_turns: u32, max_hands: u32) {
    assert_eq!(
        s.tile_census(),
        TileCounts::FULL,
        "the 106 tiles, each in one place\n{s}"
    );
    assert!(
        s.turns() <= max_turns,
        "a hand went past max_turns={max_turns}\n{s}"
    );
    assert!(
        s.hand_number() <= max_hands,
        "a match went past max_hands={max_hands}\n{s}"
    );
    assert!(
        !s.is_terminal() || s.hand_scores().len() == s.hand_number() as usize,
        "a finished match has a score for every hand it played\n{s}"
    );
}

fn sweep(options: &str, games: usize) {
    let game = BurakoGame::from_options_json(options).unwrap_or_else(|e| panic!("{options}: {e}"));
    let o = game.options().clone();
    let max_hands = if o.single_hand { 1 } else { o.max_hands };
    let seed = 0xB0_2A_C0 ^ (options.len() as u64) << 8;
    let mut sweep = Sweep::new(games, seed);
    // a turn holds at most ~(rack + 2) * (cancels + 1) + 40 actions; a generous bound
    sweep.max_actions = o.max_turns as usize * max_hands as usize * 2000;
    random_sim_test(&game, sweep, |s| own_invariants(s, o.max_turns, max_hands));
}

#[test]
fn single_hand_playouts() {
    let games = games_from_env(1000);
    // configurations are independent: spread them over the cores (CI has two)
    SINGLE.par_iter().for_each(|options| sweep(options, games));
}

#[test]
fn whole_match_playouts() {
    let games = (games_from_env(1000) / 10).max(10);
    MATCHES.par_iter().for_each(|options| sweep(options, games));
}
