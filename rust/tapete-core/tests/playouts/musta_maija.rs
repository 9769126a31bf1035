//! Random playouts of Musta Maija for 2..6 players and the option sets off the default path:
//! the generic invariants of `tapete_core::testing::random_sim_test`, plus this game's own
//! (docs/rules/musta_maija.md §4): the 52 cards are conserved at every step (hands + stock +
//! table + out of play), and a hand not stopped by the attack cap ends with exactly one seat
//! holding cards, holding Qs. Each player count plays 2,000 games in the full sweep
//! (`TAPETE_PLAYOUTS=full`; CI plays a tenth, `tapete_core::testing::games_from_env`).

use rayon::prelude::*;
use tapete_core::games::musta_maija::{MustaMaijaGame, MustaMaijaState};
use tapete_core::testing::{games_from_env, random_sim_test, Sweep};
use tapete_core::{Card, CardSet, Game, State};

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

fn own_invariants(s: &MustaMaijaState, seats: usize, cap: Option<u32>) {
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
    assert!(
        count == 52 && all.len() == 52,
        "a card is missing or in two places\n{}",
        s.to_json()
    );
    if s.is_terminal() && Some(s.attacks()) != cap {
        let holders: Vec<usize> = (0..seats).filter(|&p| !s.hand(p).is_empty()).collect();
        assert_eq!(
            holders.len(),
            1,
            "one seat holds cards at the end\n{}",
            s.to_json()
        );
        assert!(
            s.hand(holders[0]).contains(Card(50)),
            "the last holder holds Maija"
        );
        assert!(s.losses()[holders[0]] > 0, "the last holder lost the hand");
    }
}

fn sweep(options: &str, games: usize) {
    let game =
        MustaMaijaGame::from_options_json(options).unwrap_or_else(|e| panic!("{options}: {e}"));
    let seats = game.num_players();
    let cap = game.options().max_attacks;
    let seed = 0x5EED ^ seats as u64 ^ (options.len() as u64) << 8;
    random_sim_test(&game, Sweep::new(games, seed), |s| {
        own_invariants(s, seats, cap)
    });
}

#[test]
fn random_playouts_keep_the_invariants() {
    let games = games_from_env(2000);
    let mut jobs: Vec<(String, usize)> = (2..=6)
        .map(|players| (format!(r#"{{"players":{players}}}"#), games))
        .collect();
    for options in EXOTIC {
        jobs.push((options.to_string(), games.div_ceil(10)));
    }
    // configurations are independent: spread them over the cores (CI has two)
    jobs.par_iter()
        .for_each(|(options, count)| sweep(options, *count));
}
