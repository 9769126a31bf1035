//! A batch of matches stepped together for learning (docs/envs.md): N games of one option set,
//! written over the `Game` / `State` traits alone, so every game has it.
//!
//! Two modes. Multi-agent: the caller acts for whoever is to move in each game. Single-agent: the
//! caller holds one seat per game (fixed, or drawn at every deal of a new match) and the
//! opponents play the other seats inside the same step. Finished matches are dealt again in the
//! same step ("same-step" auto-reset, as Gymnasium 1.1 names it): the step's observation is the
//! new match's first, and the finished match's last observation is kept apart (`final_obs`).
//!
//! Every env draws its deals and its opponents' choices from a random stream of its own, seeded
//! from the batch seed and its index, so results do not depend on how the batch is split over
//! threads.

use serde_json::Value;

use std::cell::RefCell;

use crate::error::{GameError, Result};
use crate::game::{Action, Game, State, MAX_DECISIONS};
use crate::obs::Entries;
use crate::rng::{mod_small, SplitMix64};

/// The most envs one batch may hold.
pub const MAX_ENVS: usize = 1 << 24;
/// Fewer envs than this per thread are not worth a thread: waking one, and its idling after,
/// cost more CPU than it saves (docs/envs.md §4).
pub const MIN_SLICE: usize = 256;
/// A fresh match that ends before the learner's first turn is dealt again, at most this often.
const MAX_REDEALS: u32 = 1000;

/// Who plays the seats the caller does not hold. Native bots join this list as they come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// Uniform among the legal actions, from the env's own stream.
    Random,
    /// The game's heuristic bot (`State::heuristic_action`), ties broken from the env's stream.
    Heuristic,
}

impl Opponent {
    pub fn from_name(name: &str) -> Result<Opponent> {
        match name {
            "random" => Ok(Opponent::Random),
            "heuristic" => Ok(Opponent::Heuristic),
            _ => Err(GameError::InvalidOption(format!(
                "unknown opponents {:?}: expected 'random' or 'heuristic'",
                crate::json::excerpt(name)
            ))),
        }
    }

    /// The action this opponent takes in `state` (whose legal actions are `legal`, not empty).
    fn choose<S: State>(self, state: &S, legal: &[Action], rng: &mut SplitMix64) -> Action {
        match self {
            Opponent::Random => legal[mod_small(rng.next_u64(), legal.len() as u64) as usize],
            Opponent::Heuristic => state.heuristic_action(rng),
        }
    }
}

/// Which seat the caller holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every seat: the caller acts for whoever is to move.
    MultiAgent,
    /// This one seat in every match.
    Seat(usize),
    /// One seat drawn per match from the env's stream.
    RandomSeat,
}

/// How observations reach the caller (docs/envs.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObsFormat {
    /// The contract's float32 row.
    Float32,
    /// The row's nonzero entries, ascending by index: an index row and a value row of the
    /// arrays' width, padded with the observation size as index and 0 as value.
    Index,
}

/// How legal-action masks reach the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskFormat {
    /// One bool per action.
    Bool,
    /// One bit per action, 8 to a byte, action `a` at bit `a % 8` of byte `a / 8` (numpy's
    /// `packbits(..., bitorder="little")`).
    Bits,
}

impl ObsFormat {
    pub fn from_name(name: &str) -> Result<ObsFormat> {
        match name {
            "float32" => Ok(ObsFormat::Float32),
            "index" => Ok(ObsFormat::Index),
            _ => Err(GameError::InvalidOption(format!(
                "unknown obs_format {:?}: expected 'float32' or 'index'",
                crate::json::excerpt(name)
            ))),
        }
    }
}

impl MaskFormat {
    pub fn from_name(name: &str) -> Result<MaskFormat> {
        match name {
            "bool" => Ok(MaskFormat::Bool),
            "bits" => Ok(MaskFormat::Bits),
            _ => Err(GameError::InvalidOption(format!(
                "unknown mask_format {:?}: expected 'bool' or 'bits'",
                crate::json::excerpt(name)
            ))),
        }
    }
}

/// What a batch is built from, beside its game.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub num_envs: usize,
    pub seed: u64,
    pub mode: Mode,
    pub opponent: Opponent,
    pub obs_format: ObsFormat,
    pub mask_format: MaskFormat,
    /// A match with this many decisions (every seat's) unfinished is cut: `truncated`. `None`
    /// and anything larger mean the layer's cap, [`MAX_DECISIONS`].
    pub max_decisions: Option<u64>,
    /// 0: rayon's global pool; 1: the calling thread; else a pool of that many threads.
    pub threads: usize,
}

impl Config {
    /// Decisions after which a match is cut.
    fn decision_cap(&self) -> u64 {
        self.max_decisions
            .map_or(MAX_DECISIONS, |m| m.min(MAX_DECISIONS))
    }
}

/// The game's own deal cap, read from its resolved options: a match that the cap ended rather
/// than the rules' normal end is `truncated`. (Burako's `max_hands` under `match=to_target`,
/// Escoba's `max_deals`: docs/envs.md §3.)
#[derive(Clone, Copy, Debug, Default)]
struct DealCap {
    deals: Option<u32>,
    target: Option<i64>,
}

impl DealCap {
    fn of<G: Game>(game: &G) -> DealCap {
        let options: Value = serde_json::from_str(game.options_json()).unwrap_or(Value::Null);
        let int = |k: &str| options.get(k).and_then(Value::as_i64);
        let deals = match options.get("match").and_then(Value::as_str) {
            Some("single_hand") => None,
            _ => int("max_hands").or_else(|| int("max_deals")),
        };
        DealCap {
            deals: deals.map(|d| d.clamp(0, u32::MAX as i64) as u32),
            target: int("target"),
        }
    }

    /// A terminal state ended by the cap: at the cap, and not decided by reaching the target
    /// (with no target, by a non-zero result).
    fn ended<S: State>(&self, state: &S, returns: &[f64], scores: &mut [i64]) -> bool {
        let Some(cap) = self.deals else { return false };
        if state.deals() < cap {
            return false;
        }
        let decided = returns.iter().any(|&r| r != 0.0);
        match self.target {
            None => !decided,
            Some(t) => {
                state.scores_into(scores);
                !(decided && scores.iter().any(|&s| s >= t))
            }
        }
    }
}

/// One env: its match and its streams.
#[derive(Clone)]
struct Slot<S> {
    state: S,
    rng: SplitMix64,
    /// The stream of `sample_actions`, apart so that sampling changes no deal.
    sampler: SplitMix64,
    /// The seat the caller holds in this match (multi-agent: the seat to move).
    seat: usize,
    /// Legal actions of the caller's decision, ascending (the mask, and the check of a step).
    legal: Vec<Action>,
    /// The caller's steps in this match, and every seat's decisions.
    steps: u64,
    decisions: u64,
    /// Index form: the entries in the row's observation and final observation (past them the
    /// row holds padding), and the entries of either that outgrew the arrays' width.
    lens: [usize; 2],
    spill: Option<Box<[Entries; 2]>>,
}

/// A batch's observation rows.
pub enum ObsRows<'a> {
    Float32(&'a mut [f32]),
    /// Rows of `width` entries (docs/envs.md §1).
    Index {
        index: &'a mut [i32],
        value: &'a mut [f32],
        width: usize,
    },
}

/// A batch's mask rows.
pub enum MaskRows<'a> {
    Bool(&'a mut [bool]),
    Bits(&'a mut [u8]),
}

impl<'a> ObsRows<'a> {
    fn len(&self) -> usize {
        match self {
            ObsRows::Float32(x) => x.len(),
            ObsRows::Index { index, value, .. } => index.len().max(value.len()),
        }
    }
    fn width(&self, size: usize) -> usize {
        match self {
            ObsRows::Float32(_) => size,
            ObsRows::Index { width, .. } => *width,
        }
    }
    fn well_formed(&self) -> bool {
        match self {
            ObsRows::Float32(_) => true,
            ObsRows::Index { index, value, .. } => index.len() == value.len(),
        }
    }
    fn split(self, k: usize, size: usize) -> (ObsRows<'a>, ObsRows<'a>) {
        match self {
            ObsRows::Float32(x) => {
                let (a, b) = x.split_at_mut(k * size);
                (ObsRows::Float32(a), ObsRows::Float32(b))
            }
            ObsRows::Index {
                index,
                value,
                width,
            } => {
                let (i0, i1) = index.split_at_mut(k * width);
                let (v0, v1) = value.split_at_mut(k * width);
                (
                    ObsRows::Index {
                        index: i0,
                        value: v0,
                        width,
                    },
                    ObsRows::Index {
                        index: i1,
                        value: v1,
                        width,
                    },
                )
            }
        }
    }
}

impl<'a> MaskRows<'a> {
    fn len(&self) -> usize {
        match self {
            MaskRows::Bool(x) => x.len(),
            MaskRows::Bits(x) => x.len(),
        }
    }
    fn split(self, k: usize, width: usize) -> (MaskRows<'a>, MaskRows<'a>) {
        match self {
            MaskRows::Bool(x) => {
                let (a, b) = x.split_at_mut(k * width);
                (MaskRows::Bool(a), MaskRows::Bool(b))
            }
            MaskRows::Bits(x) => {
                let (a, b) = x.split_at_mut(k * width);
                (MaskRows::Bits(a), MaskRows::Bits(b))
            }
        }
    }
    /// Row `i` (of `width` values) marks the actions of `legal`.
    #[inline]
    fn write(&mut self, i: usize, width: usize, legal: &[Action]) {
        match self {
            MaskRows::Bool(x) => {
                let row = &mut x[i * width..(i + 1) * width];
                row.fill(false);
                for &a in legal {
                    row[a as usize] = true;
                }
            }
            MaskRows::Bits(x) => {
                let row = &mut x[i * width..(i + 1) * width];
                row.fill(0);
                for &a in legal {
                    row[a as usize >> 3] |= 1 << (a & 7);
                }
            }
        }
    }
}

/// Bytes in a mask row of `actions` actions.
pub fn mask_width(format: MaskFormat, actions: usize) -> usize {
    match format {
        MaskFormat::Bool => actions,
        MaskFormat::Bits => actions.div_ceil(8),
    }
}

/// The caller's arrays for one step, row-major, `N` rows each (docs/envs.md §1).
pub struct Buffers<'a> {
    pub obs: ObsRows<'a>,
    pub mask: MaskRows<'a>,
    pub player: &'a mut [i64],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// The seat that acted in this step (multi-agent) or the caller's seat of that match.
    pub actor: &'a mut [i64],
    /// For rows that ended: the last observation and mask of the finished match (of `actor`),
    /// its returns and its length in the caller's steps. Other rows are left as they were.
    pub final_obs: ObsRows<'a>,
    pub final_mask: MaskRows<'a>,
    pub episode_return: &'a mut [f32],
    pub episode_length: &'a mut [i64],
}

/// Row sizes of the buffers: observation (the game's size), actions, players.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub obs: usize,
    pub actions: usize,
    pub players: usize,
}

impl<'a> Buffers<'a> {
    /// Checks that every array holds `n` rows of the formats of `cfg`.
    pub fn check(&self, n: usize, s: Shape, cfg: &Config) -> Result<()> {
        let mw = mask_width(cfg.mask_format, s.actions);
        let formats = [&self.obs, &self.final_obs].iter().all(|o| {
            o.well_formed()
                && matches!(
                    (o, cfg.obs_format),
                    (ObsRows::Float32(_), ObsFormat::Float32)
                        | (ObsRows::Index { .. }, ObsFormat::Index)
                )
        }) && [&self.mask, &self.final_mask].iter().all(|m| {
            matches!(
                (m, cfg.mask_format),
                (MaskRows::Bool(_), MaskFormat::Bool) | (MaskRows::Bits(_), MaskFormat::Bits)
            )
        });
        if !formats {
            return Err(GameError::InvalidState(
                "buffers of another format than the batch's".into(),
            ));
        }
        let sizes = [
            ("obs", self.obs.len(), n * self.obs.width(s.obs)),
            ("mask", self.mask.len(), n * mw),
            ("player", self.player.len(), n),
            ("rewards", self.rewards.len(), n * s.players),
            ("terminated", self.terminated.len(), n),
            ("truncated", self.truncated.len(), n),
            ("actor", self.actor.len(), n),
            (
                "final_obs",
                self.final_obs.len(),
                n * self.final_obs.width(s.obs),
            ),
            ("final_mask", self.final_mask.len(), n * mw),
            ("episode_return", self.episode_return.len(), n * s.players),
            ("episode_length", self.episode_length.len(), n),
        ];
        for (name, got, want) in sizes {
            if got != want {
                return Err(GameError::InvalidState(format!(
                    "buffer {name} has {got} values, expected {want}"
                )));
            }
        }
        Ok(())
    }

    /// The first `k` rows, and the rest.
    fn split(self, k: usize, s: Shape, mw: usize) -> (Buffers<'a>, Buffers<'a>) {
        let (obs0, obs1) = self.obs.split(k, s.obs);
        let (mask0, mask1) = self.mask.split(k, mw);
        let (player0, player1) = self.player.split_at_mut(k);
        let (rew0, rew1) = self.rewards.split_at_mut(k * s.players);
        let (term0, term1) = self.terminated.split_at_mut(k);
        let (trunc0, trunc1) = self.truncated.split_at_mut(k);
        let (actor0, actor1) = self.actor.split_at_mut(k);
        let (fobs0, fobs1) = self.final_obs.split(k, s.obs);
        let (fmask0, fmask1) = self.final_mask.split(k, mw);
        let (eret0, eret1) = self.episode_return.split_at_mut(k * s.players);
        let (elen0, elen1) = self.episode_length.split_at_mut(k);
        (
            Buffers {
                obs: obs0,
                mask: mask0,
                player: player0,
                rewards: rew0,
                terminated: term0,
                truncated: trunc0,
                actor: actor0,
                final_obs: fobs0,
                final_mask: fmask0,
                episode_return: eret0,
                episode_length: elen0,
            },
            Buffers {
                obs: obs1,
                mask: mask1,
                player: player1,
                rewards: rew1,
                terminated: term1,
                truncated: trunc1,
                actor: actor1,
                final_obs: fobs1,
                final_mask: fmask1,
                episode_return: eret1,
                episode_length: elen1,
            },
        )
    }
}

/// A batch of one game's matches.
pub struct VecEnv<G: Game> {
    game: G,
    cfg: Config,
    cap: DealCap,
    shape: Shape,
    slots: Vec<Slot<G::State>>,
    pool: Option<rayon::ThreadPool>,
}

/// The stream of env `i` under batch seed `seed`.
fn env_rng(seed: u64, i: usize) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed ^ (i as u64).wrapping_mul(0xD605_BBB5_8C8A_BE97));
    SplitMix64::new(mix.next_u64() ^ i as u64)
}

/// The stream of env `i`'s `sample_actions` under batch seed `seed`.
fn sampler_rng(seed: u64, i: usize) -> SplitMix64 {
    env_rng(seed ^ 0x5A3F_17E1_C0DE_D1CE, i)
}

impl<G: Game> VecEnv<G> {
    /// A batch, every env dealt its first match (written by the first `reset`).
    pub fn new(game: G, cfg: Config) -> Result<VecEnv<G>> {
        if cfg.num_envs == 0 || cfg.num_envs > MAX_ENVS {
            return Err(GameError::InvalidOption(format!(
                "num_envs must be an int in 1..{MAX_ENVS}, got {}",
                cfg.num_envs
            )));
        }
        let n = game.num_players();
        if let Mode::Seat(s) = cfg.mode {
            game.seat(s as i64)?;
        }
        if cfg.max_decisions == Some(0) {
            return Err(GameError::InvalidOption(
                "max_decisions must be at least 1".into(),
            ));
        }
        let pool = match cfg.threads {
            0 | 1 => None,
            t if t > crate::play::MAX_SIM_THREADS as usize => {
                return Err(GameError::InvalidOption(format!(
                    "threads must be at most {}, got {t}",
                    crate::play::MAX_SIM_THREADS
                )))
            }
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .map_err(|e| GameError::InvalidOption(format!("threads={t}: {e}")))?,
            ),
        };
        let shape = Shape {
            obs: game.observation_size(),
            actions: game.num_distinct_actions(),
            players: n,
        };
        let first = game.new_state(0);
        let slots = (0..cfg.num_envs)
            .map(|i| Slot {
                state: first.clone(),
                rng: env_rng(cfg.seed, i),
                sampler: sampler_rng(cfg.seed, i),
                seat: 0,
                legal: Vec::with_capacity(32),
                steps: 0,
                decisions: 0,
                lens: [0; 2],
                spill: None,
            })
            .collect();
        Ok(VecEnv {
            cap: DealCap::of(&game),
            game,
            cfg,
            shape,
            slots,
            pool,
        })
    }

    pub fn game(&self) -> &G {
        &self.game
    }
    pub fn shape(&self) -> Shape {
        self.shape
    }
    pub fn num_envs(&self) -> usize {
        self.cfg.num_envs
    }
    pub fn config(&self) -> Config {
        self.cfg
    }
    /// The match of env `i` (for inspection: its JSON, its views).
    pub fn state(&self, i: usize) -> Option<&G::State> {
        self.slots.get(i).map(|s| &s.state)
    }

    /// Deals every env a new match (with `seed`: the streams start again from it) and writes
    /// the first observations. `rewards`, `terminated`, `truncated` are zeroed; the episode
    /// arrays are left alone. Returns the index width the observations need (0 for float32):
    /// past the arrays' width, the rows that did not fit wait for [`VecEnv::refill`].
    pub fn reset(&mut self, seed: Option<u64>, bufs: Buffers<'_>) -> Result<usize> {
        bufs.check(self.cfg.num_envs, self.shape, &self.cfg)?;
        if let Some(seed) = seed {
            self.cfg.seed = seed;
            for (i, slot) in self.slots.iter_mut().enumerate() {
                slot.rng = env_rng(seed, i);
                slot.sampler = sampler_rng(seed, i);
            }
        }
        let ctx = Ctx::of(&self.game, &self.cfg, &self.cap, self.shape);
        Ok(run(&self.pool, &mut self.slots, bufs, None, &ctx))
    }

    /// Applies `actions[i]` in env `i`, then (single-agent) the opponents' moves up to the
    /// caller's next turn, and deals a new match wherever one ended. An action that is out of
    /// range or not legal in its env is refused before any env changes. Returns what
    /// [`VecEnv::reset`] returns.
    pub fn step(&mut self, actions: &[i64], bufs: Buffers<'_>) -> Result<usize> {
        let n = self.cfg.num_envs;
        if actions.len() != n {
            return Err(GameError::IllegalAction(format!(
                "expected {n} actions (one per env), got {}",
                actions.len()
            )));
        }
        bufs.check(n, self.shape, &self.cfg)?;
        for (i, (&a, slot)) in actions.iter().zip(&self.slots).enumerate() {
            let ok = u32::try_from(a).is_ok_and(|a| slot.legal.binary_search(&a).is_ok());
            if !ok {
                let why = match u32::try_from(a) {
                    Ok(a) if (a as usize) < self.shape.actions => {
                        let text = slot.state.action_to_string(a).unwrap_or_default();
                        format!("action {a} ({text}) is not legal there")
                    }
                    _ => format!(
                        "action id {a} is out of range: expected 0..{}",
                        self.shape.actions - 1
                    ),
                };
                return Err(GameError::IllegalAction(format!(
                    "env {i}: {why}; no env was stepped"
                )));
            }
        }
        let ctx = Ctx::of(&self.game, &self.cfg, &self.cap, self.shape);
        Ok(run(&self.pool, &mut self.slots, bufs, Some(actions), &ctx))
    }

    /// Index form, after a `reset` or `step` that needed a wider row than its arrays had:
    /// writes the rows that did not fit into `bufs`, arrays at least that wide whose rows
    /// begin with the narrower arrays' (and are padded after them).
    pub fn refill(&mut self, bufs: Buffers<'_>) -> Result<()> {
        bufs.check(self.cfg.num_envs, self.shape, &self.cfg)?;
        let size = self.shape.obs;
        let Buffers { obs, final_obs, .. } = bufs;
        for (k, mut rows) in [obs, final_obs].into_iter().enumerate() {
            for (i, slot) in self.slots.iter_mut().enumerate() {
                let Some(spill) = slot.spill.as_mut() else {
                    continue;
                };
                if !spill[k].is_empty() {
                    if !put_entries(&mut rows, i, size, &spill[k], &mut slot.lens[k]) {
                        return Err(GameError::InvalidState(format!(
                            "index rows of width {} are narrower than a row's {} entries",
                            rows.width(size),
                            spill[k].len()
                        )));
                    }
                    spill[k].clear();
                }
            }
        }
        Ok(())
    }

    /// Writes into `out` a uniformly random legal action of each env, from the env's sampler
    /// stream (seeded like its own; drawing changes no deal).
    pub fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        if out.len() != self.slots.len() {
            return Err(GameError::InvalidState(format!(
                "buffer actions has {} values, expected {}",
                out.len(),
                self.slots.len()
            )));
        }
        for (o, slot) in out.iter_mut().zip(&mut self.slots) {
            let k = mod_small(slot.sampler.next_u64(), slot.legal.len() as u64) as usize;
            *o = slot.legal[k] as i64;
        }
        Ok(())
    }
}

struct Ctx<'g, G> {
    game: &'g G,
    cfg: &'g Config,
    cap: &'g DealCap,
    shape: Shape,
    mask_width: usize,
}

impl<'g, G> Ctx<'g, G> {
    fn of(game: &'g G, cfg: &'g Config, cap: &'g DealCap, shape: Shape) -> Self {
        Ctx {
            game,
            cfg,
            cap,
            shape,
            mask_width: mask_width(cfg.mask_format, shape.actions),
        }
    }
}

/// Runs `reset` (no actions) or `step` over the batch: on the calling thread, or cut into one
/// slice per thread of at least [`MIN_SLICE`] envs. Returns the index width needed.
fn run<G: Game>(
    pool: &Option<rayon::ThreadPool>,
    slots: &mut [Slot<G::State>],
    bufs: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
) -> usize {
    let n = slots.len();
    let threads = match (ctx.cfg.threads, pool) {
        (1, _) => 1,
        (_, Some(pool)) => pool.current_num_threads(),
        _ => rayon::current_num_threads(),
    };
    let slices = threads.min(n / MIN_SLICE).max(1);
    if slices == 1 {
        return block(slots, bufs, actions, ctx);
    }
    let go = || split(slots, bufs, actions, ctx, n.div_ceil(slices));
    match pool {
        Some(pool) => pool.install(go),
        None => go(),
    }
}

fn split<G: Game>(
    slots: &mut [Slot<G::State>],
    bufs: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
    slice: usize,
) -> usize {
    if slots.len() <= slice {
        return block(slots, bufs, actions, ctx);
    }
    // whole slices to each side
    let k = slots.len().div_ceil(slice) / 2 * slice;
    let (s0, s1) = slots.split_at_mut(k);
    let (b0, b1) = bufs.split(k, ctx.shape, ctx.mask_width);
    let (a0, a1) = match actions {
        Some(a) => {
            let (a0, a1) = a.split_at(k);
            (Some(a0), Some(a1))
        }
        None => (None, None),
    };
    let (w0, w1) = rayon::join(
        || split(s0, b0, a0, ctx, slice),
        || split(s1, b1, a1, ctx, slice),
    );
    w0.max(w1)
}

thread_local! {
    // The entries of the observation being written, reused across rows and steps.
    static ENTRIES: RefCell<Entries> = RefCell::new(Entries::default());
}

/// Writes `e` into row `i` of index rows, padding up to the row's former length `len`; false
/// (and nothing written) when `e` is wider than the rows.
fn put_entries(
    rows: &mut ObsRows<'_>,
    i: usize,
    size: usize,
    e: &Entries,
    len: &mut usize,
) -> bool {
    let ObsRows::Index {
        index,
        value,
        width,
    } = rows
    else {
        return false;
    };
    let (w, c) = (*width, e.len());
    if c > w {
        return false;
    }
    let (ir, vr) = (
        &mut index[i * w..(i + 1) * w],
        &mut value[i * w..(i + 1) * w],
    );
    for (o, &x) in ir.iter_mut().zip(e.index()) {
        *o = x as i32;
    }
    vr[..c].copy_from_slice(e.value());
    let old = (*len).min(w);
    if old > c {
        ir[c..old].fill(size as i32);
        vr[c..old].fill(0.0);
    }
    *len = c;
    true
}

/// Writes seat `seat`'s observation of `state` into row `i` of `rows` (`which`: 0 the
/// observation, 1 the final one); returns the entries it has (0 for float32).
#[inline]
#[allow(clippy::too_many_arguments)]
fn observe<S: State>(
    rows: &mut ObsRows<'_>,
    i: usize,
    size: usize,
    state: &S,
    seat: usize,
    lens: &mut [usize; 2],
    spill: &mut Option<Box<[Entries; 2]>>,
    which: usize,
    e: &mut Entries,
) -> usize {
    match rows {
        ObsRows::Float32(x) => {
            let row = &mut x[i * size..(i + 1) * size];
            row.fill(0.0);
            state.write_observation(seat, row);
            0
        }
        ObsRows::Index { .. } => {
            e.clear();
            state.write_observation_entries(seat, size, e);
            e.finish();
            if put_entries(rows, i, size, e, &mut lens[which]) {
                if let Some(s) = spill {
                    s[which].clear();
                }
            } else {
                // kept for `refill` once the arrays are wider
                spill.get_or_insert_with(Default::default)[which].clone_from(e);
            }
            e.len()
        }
    }
}

fn block<G: Game>(
    slots: &mut [Slot<G::State>],
    b: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
) -> usize {
    ENTRIES.with(|e| block_with(slots, b, actions, ctx, &mut e.borrow_mut()))
}

fn block_with<G: Game>(
    slots: &mut [Slot<G::State>],
    mut b: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
    e: &mut Entries,
) -> usize {
    let Shape {
        obs: o,
        players: np,
        ..
    } = ctx.shape;
    let mw = ctx.mask_width;
    let mut returns = [0.0f64; 8];
    let mut scores = [0i64; 8];
    let np8 = np.min(8);
    let mut need = 0;
    for (i, slot) in slots.iter_mut().enumerate() {
        let rew = &mut b.rewards[i * np..(i + 1) * np];
        rew.fill(0.0);
        b.terminated[i] = false;
        b.truncated[i] = false;
        match actions {
            None => new_match(slot, ctx),
            Some(actions) => {
                let actor = slot.seat;
                b.actor[i] = actor as i64;
                slot.state.apply_unchecked(actions[i] as Action);
                slot.steps += 1;
                slot.decisions += 1;
                opponents_move(slot, ctx);
                let terminal = slot.state.is_terminal();
                let cut = !terminal && slot.decisions >= ctx.cfg.decision_cap();
                if terminal || cut {
                    if terminal {
                        slot.state.returns_into(&mut returns[..np8]);
                        for (r, &x) in rew.iter_mut().zip(&returns[..np8]) {
                            *r = x as f32;
                        }
                    }
                    let capped = terminal
                        && ctx
                            .cap
                            .ended(&slot.state, &returns[..np8], &mut scores[..np8]);
                    b.terminated[i] = terminal && !capped;
                    b.truncated[i] = cut || capped;
                    b.episode_return[i * np..(i + 1) * np].copy_from_slice(rew);
                    b.episode_length[i] = slot.steps as i64;
                    // the finished match as its last actor sees it
                    let w = observe(
                        &mut b.final_obs,
                        i,
                        o,
                        &slot.state,
                        actor,
                        &mut slot.lens,
                        &mut slot.spill,
                        1,
                        e,
                    );
                    need = need.max(w);
                    if terminal {
                        slot.legal.clear();
                    } else {
                        slot.state.legal_actions_into(&mut slot.legal);
                    }
                    b.final_mask.write(i, mw, &slot.legal);
                    new_match(slot, ctx);
                }
            }
        }
        // the caller's next decision
        if let Mode::MultiAgent = ctx.cfg.mode {
            slot.seat = slot.state.current_player().unwrap_or(0);
        }
        slot.state.legal_actions_into(&mut slot.legal);
        b.player[i] = slot.seat as i64;
        b.mask.write(i, mw, &slot.legal);
        let w = observe(
            &mut b.obs,
            i,
            o,
            &slot.state,
            slot.seat,
            &mut slot.lens,
            &mut slot.spill,
            0,
            e,
        );
        need = need.max(w);
        if actions.is_none() {
            b.actor[i] = slot.seat as i64;
        }
    }
    need
}

/// Deals the env a new match from its stream and plays the opponents up to the caller's first
/// turn (a match that ends before it is dealt again).
fn new_match<G: Game>(slot: &mut Slot<G::State>, ctx: &Ctx<'_, G>) {
    let n = ctx.game.num_players() as u64;
    for _ in 0..MAX_REDEALS {
        slot.state = ctx.game.new_state(slot.rng.next_u64());
        slot.steps = 0;
        slot.decisions = 0;
        slot.seat = match ctx.cfg.mode {
            Mode::MultiAgent => slot.state.current_player().unwrap_or(0),
            Mode::Seat(s) => s,
            Mode::RandomSeat => mod_small(slot.rng.next_u64(), n) as usize,
        };
        opponents_move(slot, ctx);
        if !slot.state.is_terminal() {
            return;
        }
    }
}

/// Single-agent: the opponents move until it is the caller's turn or the match is over.
fn opponents_move<G: Game>(slot: &mut Slot<G::State>, ctx: &Ctx<'_, G>) {
    if let Mode::MultiAgent = ctx.cfg.mode {
        slot.seat = slot.state.current_player().unwrap_or(slot.seat);
        return;
    }
    while let Some(p) = slot.state.current_player() {
        if p == slot.seat || slot.decisions >= ctx.cfg.decision_cap() {
            return;
        }
        slot.state.legal_actions_into(&mut slot.legal);
        if slot.legal.is_empty() {
            return;
        }
        let a = ctx
            .cfg
            .opponent
            .choose(&slot.state, &slot.legal, &mut slot.rng);
        slot.state.apply_unchecked(a);
        slot.decisions += 1;
    }
}

/// The object-safe face of a batch, so that bindings hold any game's batch behind one type.
pub trait AnyVecEnv: Send + Sync {
    fn shape(&self) -> Shape;
    fn num_envs(&self) -> usize;
    fn config(&self) -> Config;
    fn reset(&mut self, seed: Option<u64>, bufs: Buffers<'_>) -> Result<usize>;
    fn step(&mut self, actions: &[i64], bufs: Buffers<'_>) -> Result<usize>;
    fn refill(&mut self, bufs: Buffers<'_>) -> Result<()>;
    fn sample_actions(&mut self, out: &mut [i64]) -> Result<()>;
    /// Canonical JSON of env `i`'s match.
    fn state_json(&self, i: usize) -> Option<String>;
}

impl<G: Game> AnyVecEnv for VecEnv<G> {
    fn shape(&self) -> Shape {
        self.shape
    }
    fn num_envs(&self) -> usize {
        self.cfg.num_envs
    }
    fn config(&self) -> Config {
        self.cfg
    }
    fn reset(&mut self, seed: Option<u64>, bufs: Buffers<'_>) -> Result<usize> {
        VecEnv::reset(self, seed, bufs)
    }
    fn step(&mut self, actions: &[i64], bufs: Buffers<'_>) -> Result<usize> {
        VecEnv::step(self, actions, bufs)
    }
    fn refill(&mut self, bufs: Buffers<'_>) -> Result<()> {
        VecEnv::refill(self, bufs)
    }
    fn sample_actions(&mut self, out: &mut [i64]) -> Result<()> {
        VecEnv::sample_actions(self, out)
    }
    fn state_json(&self, i: usize) -> Option<String> {
        self.state(i).map(|s| s.to_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::escoba::EscobaGame;
    use serde_json::json;

    /// A batch's arrays, in the formats of its config.
    struct Owned {
        v: [Vec<f32>; 2],
        idx: [Vec<i32>; 2],
        m: [Vec<bool>; 2],
        bits: [Vec<u8>; 2],
        width: usize,
        p: Vec<i64>,
        r: Vec<f32>,
        t: [Vec<bool>; 2],
        a: Vec<i64>,
        er: Vec<f32>,
        el: Vec<i64>,
        cfg: Config,
        s: Shape,
    }

    impl Owned {
        fn new(n: usize, s: Shape, cfg: Config, width: usize) -> Owned {
            let (ow, iw) = match cfg.obs_format {
                ObsFormat::Float32 => (s.obs, 0),
                ObsFormat::Index => (width, width),
            };
            let mw = mask_width(cfg.mask_format, s.actions);
            let (bw, mbw) = match cfg.mask_format {
                MaskFormat::Bool => (mw, 0),
                MaskFormat::Bits => (0, mw),
            };
            Owned {
                v: [vec![0.0; n * ow], vec![0.0; n * ow]],
                idx: [vec![s.obs as i32; n * iw], vec![s.obs as i32; n * iw]],
                m: [vec![false; n * bw], vec![false; n * bw]],
                bits: [vec![0; n * mbw], vec![0; n * mbw]],
                width,
                p: vec![0; n],
                r: vec![0.0; n * s.players],
                t: [vec![false; n], vec![false; n]],
                a: vec![0; n],
                er: vec![0.0; n * s.players],
                el: vec![0; n],
                cfg,
                s,
            }
        }
        /// Wider index rows, the old rows copied in.
        fn widen(&mut self, need: usize) {
            let (n, w) = (self.p.len(), self.width);
            for k in 0..2 {
                let mut i2 = vec![self.s.obs as i32; n * need];
                let mut v2 = vec![0.0; n * need];
                for i in 0..n {
                    i2[i * need..i * need + w].copy_from_slice(&self.idx[k][i * w..(i + 1) * w]);
                    v2[i * need..i * need + w].copy_from_slice(&self.v[k][i * w..(i + 1) * w]);
                }
                self.idx[k] = i2;
                self.v[k] = v2;
            }
            self.width = need;
        }
        fn bufs(&mut self) -> Buffers<'_> {
            let [obs, final_obs] = &mut self.v;
            let [index, final_index] = &mut self.idx;
            let [mask, final_mask] = &mut self.m;
            let [bits, final_bits] = &mut self.bits;
            let [terminated, truncated] = &mut self.t;
            let (obs, final_obs) = match self.cfg.obs_format {
                ObsFormat::Float32 => (ObsRows::Float32(obs), ObsRows::Float32(final_obs)),
                ObsFormat::Index => (
                    ObsRows::Index {
                        index,
                        value: obs,
                        width: self.width,
                    },
                    ObsRows::Index {
                        index: final_index,
                        value: final_obs,
                        width: self.width,
                    },
                ),
            };
            let (mask, final_mask) = match self.cfg.mask_format {
                MaskFormat::Bool => (MaskRows::Bool(mask), MaskRows::Bool(final_mask)),
                MaskFormat::Bits => (MaskRows::Bits(bits), MaskRows::Bits(final_bits)),
            };
            Buffers {
                obs,
                mask,
                player: &mut self.p,
                rewards: &mut self.r,
                terminated,
                truncated,
                actor: &mut self.a,
                final_obs,
                final_mask,
                episode_return: &mut self.er,
                episode_length: &mut self.el,
            }
        }
        /// Row `i` of the observation (`k` 0) or the final one (1) as float32.
        fn dense(&self, k: usize, i: usize) -> Vec<f32> {
            let size = self.s.obs;
            match self.cfg.obs_format {
                ObsFormat::Float32 => self.v[k][i * size..(i + 1) * size].to_vec(),
                ObsFormat::Index => {
                    let w = self.width;
                    let mut out = vec![0.0; size];
                    let (ir, vr) = (
                        &self.idx[k][i * w..(i + 1) * w],
                        &self.v[k][i * w..(i + 1) * w],
                    );
                    let used = ir.iter().position(|&x| x == size as i32).unwrap_or(w);
                    assert!(ir[used..].iter().all(|&x| x == size as i32));
                    assert!(vr[used..].iter().all(|&x| x == 0.0));
                    assert!(ir[..used].windows(2).all(|p| p[0] < p[1]), "ascending");
                    for (&x, &v) in ir[..used].iter().zip(&vr[..used]) {
                        assert!(v != 0.0, "only nonzero entries");
                        out[x as usize] = v;
                    }
                    out
                }
            }
        }
        /// Row `i` of the mask (`k` 0) or the final one (1) as bools.
        fn mask(&self, k: usize, i: usize) -> Vec<bool> {
            let na = self.s.actions;
            match self.cfg.mask_format {
                MaskFormat::Bool => self.m[k][i * na..(i + 1) * na].to_vec(),
                MaskFormat::Bits => {
                    let w = mask_width(MaskFormat::Bits, na);
                    let row = &self.bits[k][i * w..(i + 1) * w];
                    assert!(row[na / 8..].iter().enumerate().all(|(j, &b)| {
                        // bits past the last action stay clear
                        j > 0 || na % 8 == 0 || b >> (na % 8) == 0
                    }));
                    (0..na).map(|a| row[a / 8] >> (a % 8) & 1 == 1).collect()
                }
            }
        }
    }

    fn cfg(n: usize, mode: Mode, threads: usize) -> Config {
        Config {
            num_envs: n,
            seed: 5,
            mode,
            opponent: Opponent::Random,
            obs_format: ObsFormat::Float32,
            mask_format: MaskFormat::Bool,
            max_decisions: None,
            threads,
        }
    }

    /// A batch and its arrays, reset.
    fn batch<G: Game>(game: G, cfg: Config, width: usize) -> (VecEnv<G>, Owned) {
        let mut env = VecEnv::new(game, cfg).unwrap();
        let mut o = Owned::new(cfg.num_envs, env.shape(), cfg, width);
        let need = env.reset(None, o.bufs()).unwrap();
        refill(&mut env, &mut o, need);
        (env, o)
    }

    fn refill<G: Game>(env: &mut VecEnv<G>, o: &mut Owned, need: usize) {
        if o.cfg.obs_format == ObsFormat::Index && need > o.width {
            o.widen(need);
            env.refill(o.bufs()).unwrap();
        }
    }

    fn trace(threads: usize, mode: Mode) -> (Vec<f32>, Vec<bool>, Vec<f32>, Vec<String>) {
        // enough envs for three slices of MIN_SLICE
        let n = 3 * MIN_SLICE + 11;
        let game = EscobaGame::from_options(&json!({"game": "single_deal"})).unwrap();
        let (mut env, mut o) = batch(game, cfg(n, mode, threads), 0);
        let (mut rewards, mut done) = (vec![], vec![]);
        for _ in 0..60 {
            let mut a = vec![0; n];
            env.sample_actions(&mut a).unwrap();
            env.step(&a, o.bufs()).unwrap();
            rewards.extend_from_slice(&o.r);
            done.extend_from_slice(&o.t[0]);
        }
        let states = (0..n).map(|i| env.state(i).unwrap().to_json()).collect();
        (o.v[0].clone(), done, rewards, states)
    }

    #[test]
    fn results_do_not_depend_on_threads() {
        for mode in [Mode::MultiAgent, Mode::RandomSeat] {
            let one = trace(1, mode);
            assert_eq!(one, trace(2, mode));
            assert_eq!(one, trace(3, mode));
            assert!(
                one.1.iter().any(|&d| d),
                "60 steps finish some 2-player scopa deal"
            );
        }
    }

    /// Steps a float32 batch and a compact one of the same seed side by side with sampled
    /// actions: every row and every finished match's last row must read the same.
    fn compact_matches_float32<G: Game>(game: G, steps: usize) {
        let n = 9;
        let mut full = cfg(n, Mode::MultiAgent, 1);
        full.seed = 17;
        let compact = Config {
            obs_format: ObsFormat::Index,
            mask_format: MaskFormat::Bits,
            ..full
        };
        let (mut a, mut oa) = batch(game.clone(), full, 0);
        // one entry a row: every early row outgrows the arrays, which widen
        let (mut b, mut ob) = batch(game, compact, 1);
        let mut ended = 0;
        for step in 0..steps {
            for i in 0..n {
                assert_eq!(oa.dense(0, i), ob.dense(0, i), "step {step} env {i}");
                assert_eq!(oa.mask(0, i), ob.mask(0, i), "step {step} env {i}");
            }
            let mut acts = vec![0; n];
            a.sample_actions(&mut acts).unwrap();
            let mut same = vec![0; n];
            b.sample_actions(&mut same).unwrap();
            assert_eq!(acts, same, "the samplers follow the seed alone");
            a.step(&acts, oa.bufs()).unwrap();
            let need = b.step(&acts, ob.bufs()).unwrap();
            refill(&mut b, &mut ob, need);
            for i in 0..n {
                if oa.t[0][i] || oa.t[1][i] {
                    ended += 1;
                    assert_eq!(oa.dense(1, i), ob.dense(1, i), "final, step {step} env {i}");
                    assert_eq!(oa.mask(1, i), ob.mask(1, i), "final, step {step} env {i}");
                }
            }
        }
        assert!(ob.width > 1, "the index rows widened");
        assert!(ended > 0, "some match ended in {steps} steps");
    }

    #[test]
    fn compact_formats_read_as_float32_in_every_game() {
        use crate::games::{burako::BurakoGame, mosca::MoscaGame, musta_maija::MustaMaijaGame};
        let game = EscobaGame::from_options(&json!({"cards_per_hand": 1, "game": "single_deal"}));
        compact_matches_float32(game.unwrap(), 300);
        compact_matches_float32(MoscaGame::from_options(&json!({})).unwrap(), 300);
        compact_matches_float32(MustaMaijaGame::from_options(&json!({})).unwrap(), 400);
        let burako = BurakoGame::from_options(&json!({"match": "single_hand", "players": 2}));
        compact_matches_float32(burako.unwrap(), 600);
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let game = EscobaGame::from_options(&json!({})).unwrap();
        let (mut env, mut o) = batch(game, cfg(4, Mode::MultiAgent, 1), 0);
        let s = env.shape();
        let before: Vec<String> = (0..4).map(|i| env.state(i).unwrap().to_json()).collect();
        let mut a = vec![0; 4];
        env.sample_actions(&mut a).unwrap();
        let illegal = o.m[0][2 * s.actions..3 * s.actions]
            .iter()
            .position(|&x| !x)
            .unwrap();
        a[2] = illegal as i64;
        let e = env.step(&a, o.bufs()).unwrap_err();
        assert!(matches!(e, GameError::IllegalAction(ref m) if m.starts_with("env 2:")));
        a[2] = -1;
        assert!(env.step(&a, o.bufs()).is_err());
        let after: Vec<String> = (0..4).map(|i| env.state(i).unwrap().to_json()).collect();
        assert_eq!(before, after);
    }

    #[test]
    fn single_agent_acts_only_at_its_seat() {
        let game = EscobaGame::from_options(&json!({"players": 3})).unwrap();
        let (mut env, mut o) = batch(game, cfg(8, Mode::Seat(2), 1), 0);
        for _ in 0..200 {
            assert!(o.p.iter().all(|&p| p == 2));
            for i in 0..8 {
                assert_eq!(env.state(i).unwrap().current_player(), Some(2));
            }
            let mut a = vec![0; 8];
            env.sample_actions(&mut a).unwrap();
            env.step(&a, o.bufs()).unwrap();
        }
    }

    #[test]
    fn sampled_actions_are_uniform_among_the_legal() {
        // one position many times: the sampler's draws over its legal actions, chi-square
        let game = EscobaGame::from_options(&json!({})).unwrap();
        let (mut env, o) = batch(game, cfg(2000, Mode::MultiAgent, 1), 0);
        let na = env.shape().actions;
        let mut counts = vec![vec![0u32; na]; 2000];
        let mut a = vec![0; 2000];
        for _ in 0..40 {
            env.sample_actions(&mut a).unwrap();
            for (i, &x) in a.iter().enumerate() {
                assert!(o.m[0][i * na + x as usize], "env {i}: {x} is legal");
                counts[i][x as usize] += 1;
            }
        }
        // pooled over envs with the same number of legal actions (scopa deals 3 cards a hand)
        let legal = env.state(0).unwrap().legal_actions().len();
        let (mut stat, mut cells) = (0.0, 0usize);
        for (i, c) in counts.iter().enumerate() {
            let row = &o.m[0][i * na..(i + 1) * na];
            if row.iter().filter(|&&x| x).count() != legal {
                continue;
            }
            let e = 40.0 / legal as f64;
            for (x, &k) in c.iter().enumerate() {
                if row[x] {
                    stat += (k as f64 - e).powi(2) / e;
                    cells += 1;
                }
            }
        }
        let df = (cells - cells / legal) as f64;
        // a chi-square of df degrees (thousands) lies within 5 standard deviations of df
        assert!(
            (stat - df).abs() < 5.0 * (2.0 * df).sqrt(),
            "chi-square {stat} on {df} degrees"
        );
    }
}
