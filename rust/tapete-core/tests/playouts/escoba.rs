//! Random playouts of every preset and player count and of option sets off the presets' paths:
//! the generic invariants of `tapete_core::testing::random_sim_test` (docs/design.md §7.3), plus this
//! game's own: the pack's cards are conserved during a deal (each once, or twice with the double
//! pack), and with `steal` a pile has a top iff it is not empty, one of its cards (docs/rules/escoba.md §2.21).
//! Each configuration plays 2,000 games in the full sweep (`TAPETE_PLAYOUTS=full`; CI plays a
//! tenth, `tapete_core::testing::games_from_env`), `TAPETE_PLAYOUTS_ONLY` a text the options must
//! hold.

use rayon::prelude::*;
use tapete_core::games::escoba::{EscobaGame, EscobaState};
use tapete_core::testing::{games_from_env, random_sim_test, sampled, Sweep};
use tapete_core::{Card, CardSet, Game, State};

const CONFIGS: &[(&str, u32)] = &[
    ("scopa", 2),
    ("scopa", 3),
    ("scopa", 4),
    ("scopa", 6),
    ("escoba", 2),
    ("escoba", 3),
    ("escoba", 4),
    ("escoba", 6),
    ("scopa_15", 2),
    ("scopa_15", 3),
    ("scopa_15", 4),
    ("scopa_15", 6),
    ("scopa_11", 2),
    ("scopa_11", 3),
    ("scopa_11", 4),
    ("scopa_11", 6),
    ("asso_piglia_tutto", 2),
    ("asso_piglia_tutto", 3),
    ("asso_piglia_tutto", 4),
    ("asso_piglia_tutto", 6),
    ("scopa_d_assi", 2),
    ("scopa_d_assi", 3),
    ("scopa_d_assi", 4),
    ("scopa_d_assi", 6),
    ("sbarazzina", 2),
    ("sbarazzina", 3),
    ("sbarazzina", 4),
    ("sbarazzina", 6),
    ("scopone_9", 4),
    ("scopone_10", 4),
];

/// The issue-6 presets as (variant, players, divisor): each configuration plays games/divisor,
/// so that every preset gets 1,000 games in the full sweep (2,000).
const MORE_PRESETS: &[(&str, u32, usize)] = &[
    ("differenze", 2, 4),
    ("differenze", 4, 4),
    ("inversa", 3, 4),
    ("inversa", 2, 4),
    ("somma_e_differenza", 2, 4),
    ("somma_e_differenza", 6, 4),
    ("modulo_sette", 2, 4),
    ("modulo_sette", 4, 4),
    ("punti_a_denari", 2, 4),
    ("punti_a_denari", 3, 4),
    ("non_prendere", 4, 4),
    ("non_prendere", 6, 4),
    ("assi_non_prendere", 4, 2),
    ("scopone_romano", 4, 2),
    ("frac", 2, 4),
    ("frac", 3, 4),
    ("tuzzulicchio", 2, 4),
    ("tuzzulicchio", 4, 4),
    ("cocchiaundici", 3, 4),
    ("cocchiaundici", 6, 4),
    ("rubamazzo", 2, 4),
    ("rubamazzo", 4, 4),
    ("rubamazzo_somma", 3, 4),
    ("rubamazzo_somma", 6, 4),
    ("cirulla", 2, 2),
    ("cirulla", 3, 4),
    ("cirulla", 4, 4),
    ("bazzica", 2, 1),
    ("maresciallo", 2, 4),
    ("maresciallo", 4, 4),
    ("granja", 2, 2),
    ("granja", 4, 4),
    ("scopone_romano_contrario", 4, 2),
    ("scopone_romano_contrario", 5, 2),
    ("cicera", 4, 2),
    ("maresciallo_80", 4, 2),
];

/// Option sets off the presets' paths, each played for a tenth of the games.
const EXOTIC: &[&str] = &[
    r#"{"capture_obligation":"any_card","variant":"asso_piglia_tutto","players":4,"forbid_ace_first_play":true}"#,
    r#"{"capture_kinds":["match","sum","sum15","sum11","diff"],"match_priority_kinds":["sum","diff"],"fewest_cards":"simple_only"}"#,
    r#"{"capture_obligation":"played_card_numerals","ace_takes_all":true,"ace_on_empty_table":"trail"}"#,
    r#"{"win_check":"count_out","category_tie_policy":"all_tied","players":3,"coin_card_points":1}"#,
    r#"{"target_mode":"lose","players":4,"partnership":"none","max_deals":3}"#,
    r#"{"game":"single_deal","last_capturer_takes_rest":false,"first_dealer":"deal_until_Kd"}"#,
    r#"{"variant":"escoba","escoba_de_mano_30":"partition","escoba_de_mano_to":"eldest","players":6}"#,
    r#"{"napola":true,"napola_all_coins_wins":true,"re_bello":true,"win_margin":2,"void_deal_min_aces":1}"#,
    r#"{"primiera_mode":"veneto","primiera_requires_all_suits":false,"settanta_bonus":true,"players":6,"partnership":"none"}"#,
    r#"{"variant":"frac","frac_single_deal":true,"frac_counts_scope":true,"players":4}"#,
    r#"{"variant":"modulo_sette","capture_kinds":["match","sum","sum15","diff"],"capture_obligation":"optional","players":3}"#,
    r#"{"variant":"non_prendere","partnership":"auto","capture_obligation":"played_card","value_modulus":5}"#,
    r#"{"variant":"tuzzulicchio","tuzzoli_hybrids":false,"win_check":"count_out","players":6,"partnership":"none"}"#,
    r#"{"variant":"rubamazzo","players":4,"partnership":"auto","ace_steals_all":true,"steal_and_table":true,"capture_obligation":"any_card"}"#,
    r#"{"variant":"rubamazzo_somma","players":3,"table_match_first":true,"match_priority":false,"game":"match","max_deals":3}"#,
    r#"{"variant":"cirulla","knocks_cumulative":true,"grande_extends":true,"piccola_max":7,"initial_table_le9":3,"win_check":"count_out"}"#,
    r#"{"variant":"cocchiaundici","knocks":{"decino":4,"cirulla":2},"matta":"Ac","capture_obligation":"any_card","players":3}"#,
    r#"{"variant":"bazzica","knocks":{"decino":3},"matta":"Kd","cards_per_hand":3}"#,
    r#"{"variant":"maresciallo","maresciallo_sweep":"total","saponaro":true,"saponaro_card":"Qs","polacca_card":"Qd","players":3,"win_check":"count_out","scopa_on_last_play":true}"#,
    r#"{"variant":"granja","capture_obligation":"any_card","ace_takes_all":true,"build_only_if_no_capture":true,"players":4,"partnership":"none"}"#,
    r#"{"variant":"scopa_15","builds":true,"match_priority":false,"last_capturer_takes_rest":false,"players":3}"#,
    r#"{"variant":"scopone_romano_contrario","elimination_deal":"no_table","players":5,"forbid_ace_first_play":true}"#,
    r#"{"target_mode":"eliminate","players":6,"partnership":"none","target":11,"initial_table_bonus":"sum15_30"}"#,
    r#"{"variant":"asso_piglia_tutto","ace_self_capture_is_scopa":true,"ace_may_trail":true,"max_consecutive_sweeps":1,"napola":true,"napola_flat":3,"players":4}"#,
    r#"{"variant":"maresciallo_80","max_consecutive_sweeps":2,"napola_flat":3,"ace_may_trail":true,"ace_self_capture_is_scopa":true}"#,
    r#"{"variant":"fidasse","players":3,"max_consecutive_sweeps":1,"max_deals":4}"#,
    r#"{"variant":"cicera","cicera_deal":"13+0","partnership":"none","court_capture":"value","capture_kinds":["match","sum","sum15"],"special_cards":{"2s":1,"Td":1,"Jc":1},"max_deals":3}"#,
];

/// Presets whose random playouts need a deal cap, as (options, divisor): in fidasse random
/// claims and doubts drive the scores down without end.
const CAPPED: &[(&str, usize)] = &[
    (r#"{"variant":"fidasse","players":2,"max_deals":4}"#, 2),
    (r#"{"variant":"fidasse","players":4,"max_deals":4}"#, 2),
];

const MAX_ACTIONS: usize = 50_000;

/// Copies in play per card id (hands, table, builds, stock, piles, pending, claim): with one pack
/// each card once, with the double pack each id twice.
fn cards_in_play(state: &EscobaState, seats: usize, sides: usize) -> [u32; 64] {
    let mut k = [0u32; 64];
    let mut add = |set: CardSet| set.iter().for_each(|c| k[c.0 as usize] += 1);
    for seat in 0..seats {
        add(state.hand(seat));
        add(state.hand_copies(seat).two);
    }
    add(state.table());
    add(state.table_copies().two);
    add(state.builds().cards());
    for side in 0..sides {
        add(state.pile(side));
        add(state.pile_copies(side).two);
    }
    for &c in state.stock() {
        k[c as usize] += 1;
    }
    for card in [state.pending(), state.claim_card()].into_iter().flatten() {
        k[card.0 as usize] += 1;
    }
    k
}

fn check_config(options: &str, games: usize) {
    let game = EscobaGame::from_options_json(options).unwrap_or_else(|e| panic!("{options}: {e}"));
    let seats = game.num_players();
    let sides = game.num_sides();
    let pack = game.options().deck.mask();
    let copies = game.options().deck.copies() as u32;
    let steal = game.options().steal;
    let seed = 0x5EED ^ seats as u64 ^ (options.len() as u64) << 8;
    let sweep = Sweep {
        deep_games: sampled(25),
        deep_every: 16,
        max_actions: MAX_ACTIONS,
        ..Sweep::new(games, seed)
    };
    random_sim_test(&game, sweep, |state| {
        let k = cards_in_play(state, seats, sides);
        assert!(
            k.iter().all(|&x| x <= copies),
            "{options}: a card is in two places\n{}",
            state.to_json()
        );
        if !state.is_terminal() {
            let whole =
                (0..64u8).all(|c| k[c as usize] == if pack.contains(Card(c)) { copies } else { 0 });
            assert!(
                whole,
                "{options}: cards lost during a deal\n{}",
                state.to_json()
            );
        }
        if steal {
            for s in 0..sides {
                let (pile, top) = (state.pile(s), state.pile_top(s));
                assert_eq!(pile.is_empty(), top.is_none(), "{options}: pile {s} top");
                assert!(
                    top.is_none_or(|t| pile.contains(t)),
                    "{options}: top outside pile {s}"
                );
            }
        }
    });
}

#[test]
fn random_playouts_keep_the_invariants() {
    let games = games_from_env(2000);
    let mut jobs: Vec<(String, usize)> = Vec::new();
    for &(variant, players) in CONFIGS {
        jobs.push((
            format!(r#"{{"variant":"{variant}","players":{players}}}"#),
            games,
        ));
    }
    for &(variant, players, divisor) in MORE_PRESETS {
        let options = format!(r#"{{"variant":"{variant}","players":{players}}}"#);
        jobs.push((options, games.div_ceil(divisor)));
    }
    for options in EXOTIC {
        jobs.push((options.to_string(), games.div_ceil(10)));
    }
    for &(options, divisor) in CAPPED {
        jobs.push((options.to_string(), games.div_ceil(divisor)));
    }
    // `TAPETE_PLAYOUTS_ONLY=<text>` keeps the configurations whose options hold it (one preset's row)
    if let Ok(only) = std::env::var("TAPETE_PLAYOUTS_ONLY") {
        jobs.retain(|(options, _)| options.contains(&only));
    }
    // configurations are independent: spread them over the cores (CI has two)
    jobs.par_iter()
        .for_each(|(options, n)| check_config(options, *n));
}
