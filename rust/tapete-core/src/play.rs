//! Generic code over the traits: random playouts and batch simulation.

use rayon::prelude::*;

use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

/// Xored into a game's seed to seed its random bot, so bot and deal streams differ.
pub const BOT_SEED_XOR: u64 = 0xD1B5_4A32_D192_ED03;

/// A playout stops (unfinished, returns all 0) after this many decisions: options under which
/// nobody can ever score would otherwise never end.
pub const MAX_DECISIONS: u64 = 1_000_000;

/// Plays uniformly random legal actions (`legal[next() % len]`) until the end or `max_decisions`.
/// Returns the number of decisions made.
pub fn random_playout<S: State>(
    state: &mut S,
    rng: &mut SplitMix64,
    buf: &mut Vec<Action>,
    max_decisions: u64,
) -> u64 {
    let mut n = 0u64;
    while !state.is_terminal() && n < max_decisions {
        state.legal_actions(buf);
        if buf.is_empty() {
            break;
        }
        let a = buf[(rng.next_u64() % buf.len() as u64) as usize];
        state.apply_unchecked(a);
        n += 1;
    }
    n
}

/// Results of `simulate`, row-major `(games, num_players)` where per seat.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimResult {
    pub num_players: usize,
    pub returns: Vec<f64>,
    pub scores: Vec<i32>,
    pub deals: Vec<i32>,
    pub decisions: Vec<i64>,
}

struct OneGame {
    returns: [f64; 8],
    scores: [i64; 8],
    deals: u32,
    decisions: u64,
}

fn play_one<G: Game>(game: &G, game_seed: u64, buf: &mut Vec<Action>) -> OneGame {
    let n = game.num_players().min(8);
    let mut state = game.new_state(game_seed);
    let mut bot = SplitMix64::new(game_seed ^ BOT_SEED_XOR);
    let decisions = random_playout(&mut state, &mut bot, buf, MAX_DECISIONS);
    let mut g = OneGame {
        returns: [0.0; 8],
        scores: [0; 8],
        deals: state.deals(),
        decisions,
    };
    state.returns(&mut g.returns[..n]);
    state.scores(&mut g.scores[..n]);
    g
}

/// Runs `games` random playouts; game `i` uses state seed `seed + i` (wrapping) and a bot seeded
/// with `game_seed ^ BOT_SEED_XOR`, so results do not depend on the thread count.
/// `threads == 0` uses rayon's global pool.
pub fn simulate<G: Game>(game: &G, games: usize, seed: u64, threads: usize) -> SimResult {
    let run = || -> Vec<OneGame> {
        (0..games)
            .into_par_iter()
            .with_min_len(8)
            .map_init(
                || Vec::with_capacity(64),
                |buf, i| play_one(game, seed.wrapping_add(i as u64), buf),
            )
            .collect()
    };
    let rows = if threads == 0 {
        run()
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        }
    };
    let n = game.num_players();
    let mut r = SimResult {
        num_players: n,
        returns: Vec::with_capacity(games * n),
        scores: Vec::with_capacity(games * n),
        deals: Vec::with_capacity(games),
        decisions: Vec::with_capacity(games),
    };
    for g in rows {
        for s in 0..n {
            r.returns.push(g.returns[s]);
            r.scores
                .push(g.scores[s].clamp(i32::MIN as i64, i32::MAX as i64) as i32);
        }
        r.deals.push(g.deals.min(i32::MAX as u32) as i32);
        r.decisions.push(g.decisions.min(i64::MAX as u64) as i64);
    }
    r
}
