//! Generic code over the traits: random playouts and batch simulation.

use rayon::prelude::*;

use crate::bots::{self, BotSpec};
use crate::error::GameError;
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

/// Xored into a game's seed to seed its random bot, so bot and deal streams differ.
pub const BOT_SEED_XOR: u64 = 0xD1B5_4A32_D192_ED03;

pub use crate::game::MAX_DECISIONS;

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

/// Seat `seat`'s bot stream in game `game_seed` when each seat has a bot of its own: seeded with
/// the `seat + 1`-th output of a stream seeded with `game_seed ^ BOT_SEED_XOR` (docs/bots.md §7).
pub fn seat_seed(game_seed: u64, seat: usize) -> u64 {
    let mut seeds = SplitMix64::new(game_seed ^ BOT_SEED_XOR);
    for _ in 0..seat {
        seeds.next_u64();
    }
    seeds.next_u64()
}

/// Plays the match with `bots[p]` for each seat `p` (each on its own stream, [`seat_seed`]) until
/// no seat acts. Returns the number of decisions made.
fn bots_playout<S: State>(state: &mut S, bots: &[BotSpec], game_seed: u64) -> u64 {
    let mut rngs = [SplitMix64::new(0); 8];
    for (p, rng) in rngs.iter_mut().enumerate().take(bots.len()) {
        *rng = SplitMix64::new(seat_seed(game_seed, p));
    }
    let mut n = 0u64;
    while let Some(p) = state.player_to_act() {
        // A seat is to act, so a bot always has a move (`act_with_rng` refuses only the end).
        let Ok(a) = bots::act_with_rng(&bots[p], state, &mut rngs[p]) else {
            break;
        };
        state.apply_unchecked(a);
        n += 1;
    }
    n
}

fn play_one<G: Game>(game: &G, game_seed: u64, bots: &[BotSpec], buf: &mut Vec<Action>) -> OneGame {
    let n = game.num_players().min(8);
    let mut state = game.new_state(game_seed);
    let decisions = if bots.is_empty() {
        let mut bot = SplitMix64::new(game_seed ^ BOT_SEED_XOR);
        random_playout(&mut state, &mut bot, buf, MAX_DECISIONS)
    } else {
        bots_playout(&mut state, bots, game_seed)
    };
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

/// Bytes of result arrays per game of an `n`-seat game: returns (f64) and scores (i32) per seat,
/// deals (i32), decisions (i64), finished (bool).
pub fn result_bytes_per_game(n: usize) -> u64 {
    n as u64 * 12 + 13
}

/// Memory the system can still give, in bytes (`MemAvailable`), where the platform says.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// `bytes` for people: "1.9 GB".
pub fn human_bytes(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KB", "MB", "GB", "TB"];
    let mut x = bytes as f64;
    let mut unit = 0;
    while x >= 1000.0 && unit + 1 < UNITS.len() {
        x /= 1000.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{bytes} bytes")
    } else {
        format!("{x:.1} {}", UNITS[unit])
    }
}

/// Checks, before anything is allocated, that the result arrays of `games` games fit: in the
/// address space, and in the memory the system reports available. The error says how much the
/// batch needs and points at the aggregate mode, which needs none.
pub fn check_result_memory(games: usize, n: usize) -> Result<(), GameError> {
    let need = (games as u64).saturating_mul(result_bytes_per_game(n));
    let too_big = |avail: String| {
        GameError::InvalidOption(format!(
            "games={games}: the per-game result arrays need {} of memory, {avail}; ask for \
             fewer games, or for the totals only (aggregate mode), which need no per-game memory",
            human_bytes(need)
        ))
    };
    if need > isize::MAX as u64 {
        return Err(too_big("more than this machine can address".into()));
    }
    if let Some(avail) = available_memory() {
        if need > avail {
            return Err(too_big(format!("{} available", human_bytes(avail))));
        }
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

/// Totals of a batch (the aggregate mode): what a results table needs, in constant memory.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SimTotals {
    pub num_players: usize,
    pub games: u64,
    /// Per seat: sums of returns and scores, games won (return > 0) and lost (return < 0).
    pub returns_sum: Vec<f64>,
    pub scores_sum: Vec<i64>,
    pub wins: Vec<u64>,
    pub losses: Vec<u64>,
    /// Finished games whose returns are all 0.
    pub draws: u64,
    /// Games cut off at [`MAX_DECISIONS`].
    pub unfinished: u64,
    pub deals_sum: u64,
    pub decisions_sum: u64,
}

impl SimTotals {
    pub fn new(n: usize) -> SimTotals {
        SimTotals {
            num_players: n,
            returns_sum: vec![0.0; n],
            scores_sum: vec![0; n],
            wins: vec![0; n],
            losses: vec![0; n],
            ..SimTotals::default()
        }
    }

    /// Adds the games of `r` in order (sums in game order, so totals are the same for every
    /// thread count and chunking).
    fn add(&mut self, r: &SimResult, games: usize) {
        let n = self.num_players;
        for g in 0..games {
            let ret = &r.returns[g * n..(g + 1) * n];
            for (s, &x) in ret.iter().enumerate() {
                self.returns_sum[s] += x;
                self.scores_sum[s] = self.scores_sum[s].saturating_add(r.scores[g * n + s] as i64);
                self.wins[s] += (x > 0.0) as u64;
                self.losses[s] += (x < 0.0) as u64;
            }
            let fin = r.finished[g];
            self.draws += (fin && ret.iter().all(|&x| x == 0.0)) as u64;
            self.unfinished += (!fin) as u64;
            self.deals_sum = self.deals_sum.saturating_add(r.deals[g] as u64);
            self.decisions_sum = self.decisions_sum.saturating_add(r.decisions[g] as u64);
        }
        self.games += games as u64;
    }
}

/// Plays games `first..first + count` of a batch into `out`'s slices (one row per game).
#[allow(clippy::too_many_arguments)]
fn play_range<G: Game>(
    game: &G,
    seed: u64,
    bots: &[BotSpec],
    first: usize,
    returns: &mut [f64],
    scores: &mut [i32],
    deals: &mut [i32],
    decisions: &mut [i64],
    finished: &mut [bool],
) {
    let n = game.num_players();
    let m = n.min(8);
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
                let g = play_one(game, seed.wrapping_add((first + i) as u64), bots, buf);
                ret[..m].copy_from_slice(&g.returns[..m]);
                for (out, &x) in sc[..m].iter_mut().zip(&g.scores[..m]) {
                    *out = x.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
                }
                *dl = g.deals.min(i32::MAX as u32) as i32;
                *dc = g.decisions.min(i64::MAX as u64) as i64;
                *fin = g.finished;
            },
        );
}

/// The largest chunk an aggregate batch plays at once (its scratch arrays are this many rows).
pub const MAX_CHUNK: usize = 1 << 16;

/// What a batch keeps: every game's row, or only the totals.
enum Output {
    Arrays(SimResult),
    Totals {
        totals: SimTotals,
        scratch: SimResult,
    },
}

/// A batch of random playouts played chunk by chunk, so that the caller can look up between
/// chunks (signals, progress) and stop after any of them with the games finished so far.
/// Game `i` uses state seed `seed + i` (wrapping) and a bot seeded with `game_seed ^
/// BOT_SEED_XOR`, so results depend neither on the thread count nor on the chunking.
pub struct Simulation<'g, G: Game> {
    game: &'g G,
    seed: u64,
    /// One bot per seat, or none: every seat random on the game's one stream.
    bots: Vec<BotSpec>,
    total: usize,
    done: usize,
    pool: Option<rayon::ThreadPool>,
    out: Output,
}

impl<'g, G: Game> Simulation<'g, G> {
    /// A batch of `games` games on `threads` threads (0: rayon's global pool). With `aggregate`
    /// it keeps only [`SimTotals`]; otherwise every game's row, whose memory is checked (and
    /// refused with `InvalidOption` saying how much it needs) before it is allocated.
    pub fn new(
        game: &'g G,
        games: usize,
        seed: u64,
        threads: usize,
        aggregate: bool,
    ) -> Result<Self, GameError> {
        check_simulate_args(games as u64, threads as u64)?;
        let n = game.num_players();
        let arrays = |rows: usize| -> Result<SimResult, GameError> {
            let per_seat = rows.checked_mul(n.max(1)).ok_or_else(|| {
                GameError::InvalidOption(format!("games={games} is too many for this machine"))
            })?;
            Ok(SimResult {
                num_players: n,
                returns: zeroed(per_seat, games)?,
                scores: zeroed(per_seat, games)?,
                deals: zeroed(rows, games)?,
                decisions: zeroed(rows, games)?,
                finished: zeroed(rows, games)?,
            })
        };
        let out = if aggregate {
            Output::Totals {
                totals: SimTotals::new(n),
                scratch: arrays(games.min(MAX_CHUNK))?,
            }
        } else {
            check_result_memory(games, n)?;
            Output::Arrays(arrays(games)?)
        };
        let pool = match threads {
            0 => None,
            t => rayon::ThreadPoolBuilder::new().num_threads(t).build().ok(),
        };
        Ok(Simulation {
            game,
            seed,
            bots: Vec::new(),
            total: games,
            done: 0,
            pool,
            out,
        })
    }

    /// Plays seat `p` with `bots[p]`, each seat on a stream of its own ([`seat_seed`]); one bot
    /// per seat, else `InvalidOption`. Without it every seat is random on the game's one stream.
    pub fn with_bots(mut self, bots: Vec<BotSpec>) -> Result<Self, GameError> {
        let n = self.game.num_players();
        if bots.len() != n || n > 8 {
            return Err(GameError::InvalidOption(format!(
                "bots: expected one bot per seat ({n}), got {}",
                bots.len()
            )));
        }
        self.bots = bots;
        Ok(self)
    }

    pub fn total(&self) -> usize {
        self.total
    }
    /// Games played so far (always the first `done()` games of the batch).
    pub fn done(&self) -> usize {
        self.done
    }
    pub fn is_done(&self) -> bool {
        self.done >= self.total
    }

    /// Plays the next `count` games (fewer at the end of the batch, at least 1).
    pub fn step(&mut self, count: usize) {
        let first = self.done;
        let count = count.max(1).min(self.total - first);
        if count == 0 || self.game.num_players() == 0 {
            self.done = self.total;
            return;
        }
        let n = self.game.num_players();
        let (game, seed, bots) = (self.game, self.seed, &self.bots[..]);
        let (r, off, count) = match &mut self.out {
            Output::Arrays(r) => (r, first, count),
            Output::Totals { scratch, .. } => (scratch, 0, count.min(MAX_CHUNK)),
        };
        let SimResult {
            returns,
            scores,
            deals,
            decisions,
            finished,
            ..
        } = r;
        let rows = off..off + count;
        let mut run = || {
            play_range(
                game,
                seed,
                bots,
                first,
                &mut returns[rows.start * n..rows.end * n],
                &mut scores[rows.start * n..rows.end * n],
                &mut deals[rows.clone()],
                &mut decisions[rows.clone()],
                &mut finished[rows.clone()],
            )
        };
        match &self.pool {
            Some(pool) => pool.install(run),
            None => run(),
        }
        if let Output::Totals { totals, scratch } = &mut self.out {
            totals.add(scratch, count);
        }
        self.done = first + count;
    }

    /// Plays what is left in one go.
    pub fn run(&mut self) {
        while !self.is_done() {
            self.step(MAX_CHUNK);
        }
    }

    /// The rows of the games played so far (`None` in aggregate mode).
    pub fn into_arrays(self) -> Option<SimResult> {
        let done = self.done;
        match self.out {
            Output::Arrays(mut r) => {
                let n = r.num_players;
                r.returns.truncate(done * n);
                r.scores.truncate(done * n);
                r.deals.truncate(done);
                r.decisions.truncate(done);
                r.finished.truncate(done);
                Some(r)
            }
            Output::Totals { .. } => None,
        }
    }

    /// The totals of the games played so far.
    pub fn totals(&self) -> SimTotals {
        match &self.out {
            Output::Totals { totals, .. } => totals.clone(),
            Output::Arrays(r) => {
                let mut t = SimTotals::new(r.num_players);
                t.add(r, self.done);
                t
            }
        }
    }
}

/// Runs `games` random playouts at once (see [`Simulation`]); `threads == 0` uses rayon's global
/// pool. `games` is at most [`MAX_SIM_GAMES`] and `threads` at most [`MAX_SIM_THREADS`] (else
/// `InvalidOption`).
pub fn simulate<G: Game>(
    game: &G,
    games: usize,
    seed: u64,
    threads: usize,
) -> Result<SimResult, GameError> {
    let mut sim = Simulation::new(game, games, seed, threads, false)?;
    sim.run();
    sim.into_arrays()
        .ok_or_else(|| GameError::InvalidState("internal: no arrays".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::mosca::MoscaGame;

    fn game() -> MoscaGame {
        MoscaGame::from_options(&serde_json::json!({})).unwrap()
    }

    #[test]
    fn chunks_and_totals_agree_with_one_batch() {
        let g = game();
        let whole = simulate(&g, 37, 5, 2).unwrap();
        let mut sim = Simulation::new(&g, 37, 5, 1, false).unwrap();
        for size in [1, 3, 10, 100] {
            sim.step(size);
        }
        assert!(sim.is_done());
        let totals = sim.totals();
        assert_eq!(sim.into_arrays().unwrap(), whole);
        let mut agg = Simulation::new(&g, 37, 5, 2, true).unwrap();
        agg.step(4);
        agg.run();
        assert_eq!(agg.totals(), totals);
        assert_eq!(totals.games, 37);
        let n = whole.num_players;
        let wins0 = (0..37).filter(|&i| whole.returns[i * n] > 0.0).count() as u64;
        assert_eq!(totals.wins[0], wins0);
        let decisions: i64 = whole.decisions.iter().sum();
        assert_eq!(totals.decisions_sum, decisions as u64);
    }

    #[test]
    fn a_stopped_batch_keeps_the_games_it_finished() {
        let g = game();
        let mut sim = Simulation::new(&g, 50, 9, 1, false).unwrap();
        sim.step(7);
        let part = sim.into_arrays().unwrap();
        assert_eq!(part.deals.len(), 7);
        assert_eq!(part, simulate(&g, 7, 9, 1).unwrap());
    }

    #[test]
    fn results_that_cannot_fit_are_refused_before_allocation() {
        let g = game();
        // 2**32 games of 4 seats: 61 bytes each, about 262 GB
        let e = check_result_memory(1 << 32, 4).unwrap_err();
        assert!(
            matches!(&e, GameError::InvalidOption(m) if m.contains("262.0 GB")),
            "{e}"
        );
        assert!(Simulation::new(&g, 1 << 32, 0, 1, false).is_err());
        // the totals need no per-game memory
        let mut agg = Simulation::new(&g, 1 << 32, 0, 1, true).unwrap();
        agg.step(3);
        assert_eq!(agg.totals().games, 3);
    }
}
