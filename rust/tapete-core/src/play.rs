//! Generic code over the traits: random playouts and batch simulation.

use rayon::prelude::*;

use crate::error::GameError;
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
        state.legal_actions_into(buf);
        if buf.is_empty() {
            break;
        }
        let a = buf[crate::rng::mod_small(rng.next_u64(), buf.len() as u64) as usize];
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
    /// False when the match hit [`MAX_DECISIONS`] unfinished (its returns are then all 0).
    pub finished: Vec<bool>,
}

struct OneGame {
    returns: [f64; 8],
    scores: [i64; 8],
    deals: u32,
    decisions: u64,
    finished: bool,
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
        finished: state.is_terminal(),
    };
    state.returns_into(&mut g.returns[..n]);
    state.scores_into(&mut g.scores[..n]);
    g
}

/// The most games one `simulate` call may play.
pub const MAX_SIM_GAMES: u64 = 1 << 32;
/// The most worker threads one `simulate` call may ask for.
pub const MAX_SIM_THREADS: u64 = 1024;

/// Checks `simulate`'s batch size and thread count (`InvalidOptionError` when out of range).
pub fn check_simulate_args(games: u64, threads: u64) -> Result<(), GameError> {
    if games > MAX_SIM_GAMES {
        return Err(GameError::InvalidOption(format!(
            "games must be at most {MAX_SIM_GAMES} (2**32), got {games}"
        )));
    }
    if threads > MAX_SIM_THREADS {
        return Err(GameError::InvalidOption(format!(
            "threads must be at most {MAX_SIM_THREADS}, got {threads}"
        )));
    }
    Ok(())
}

/// A zero-filled vector of `len` items, or `InvalidOptionError` when it cannot be allocated.
fn zeroed<T: Clone + Default>(len: usize, games: usize) -> Result<Vec<T>, GameError> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| {
        GameError::InvalidOption(format!(
            "games={games}: not enough memory for the results of that many games"
        ))
    })?;
    v.resize(len, T::default());
    Ok(v)
}

/// Runs `games` random playouts; game `i` uses state seed `seed + i` (wrapping) and a bot seeded
/// with `game_seed ^ BOT_SEED_XOR`, so results do not depend on the thread count.
/// `threads == 0` uses rayon's global pool. `games` is at most [`MAX_SIM_GAMES`] and `threads`
/// at most [`MAX_SIM_THREADS`] (else `InvalidOption`); results are written straight into the
/// output arrays, whose sizes are computed with checked arithmetic.
pub fn simulate<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    threads: usize,
) -> Result<SimResult, GameError> {
    check_simulate_args(games as u64, threads as u64)?;
    let n = game.num_players();
    let per_seat = games.checked_mul(n.max(1)).ok_or_else(|| {
        GameError::InvalidOption(format!("games={games} is too many for this machine"))
    })?;
    let mut r = SimResult {
        num_players: n,
        returns: zeroed(per_seat, games)?,
        scores: zeroed(per_seat, games)?,
        deals: zeroed(games, games)?,
        decisions: zeroed(games, games)?,
        finished: zeroed(games, games)?,
    };
    if games == 0 || n == 0 {
        return Ok(r);
    }
    let m = n.min(8);
    let SimResult {
        returns,
        scores,
        deals,
        decisions,
        finished,
        ..
    } = &mut r;
    let mut run = move || {
        returns
            .par_chunks_mut(n)
            .zip(scores.par_chunks_mut(n))
            .zip(deals.par_iter_mut())
            .zip(decisions.par_iter_mut())
            .zip(finished.par_iter_mut())
            .enumerate()
            .with_min_len(8)
            .for_each_init(
                || Vec::with_capacity(64),
                |buf, (i, ((((ret, sc), dl), dc), fin))| {
                    let g = play_one(game, seed.wrapping_add(i as u64), buf);
                    ret[..m].copy_from_slice(&g.returns[..m]);
                    for (out, &x) in sc[..m].iter_mut().zip(&g.scores[..m]) {
                        *out = x.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                    }
                    *dl = g.deals.min(i32::MAX as u32) as i32;
                    *dc = g.decisions.min(i64::MAX as u64) as i64;
                    *fin = g.finished;
                },
            )
    };
    if threads == 0 {
        run();
    } else {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(run),
            Err(_) => run(),
        }
    }
    Ok(r)
}
