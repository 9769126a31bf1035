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

use crate::error::{GameError, Result};
use crate::game::{Action, Game, State, MAX_DECISIONS};
use crate::rng::{mod_small, SplitMix64};

/// The most envs one batch may hold.
pub const MAX_ENVS: usize = 1 << 24;
/// Below this many envs per block, a block is not split further over threads; a batch of fewer
/// than two blocks runs on the calling thread (waking a pool costs more than it saves).
const MIN_BLOCK: usize = 16;
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

/// What a batch is built from, beside its game.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    pub num_envs: usize,
    pub seed: u64,
    pub mode: Mode,
    pub opponent: Opponent,
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

/// One env: its match and its stream.
#[derive(Clone)]
struct Slot<S> {
    state: S,
    rng: SplitMix64,
    /// The seat the caller holds in this match (multi-agent: the seat to move).
    seat: usize,
    /// Legal actions of the caller's decision, ascending (the mask, and the check of a step).
    legal: Vec<Action>,
    /// The caller's steps in this match, and every seat's decisions.
    steps: u64,
    decisions: u64,
}

/// The caller's arrays for one step, row-major, `N` rows each (docs/envs.md §1).
pub struct Buffers<'a> {
    pub obs: &'a mut [f32],
    pub mask: &'a mut [bool],
    pub player: &'a mut [i64],
    pub rewards: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    /// The seat that acted in this step (multi-agent) or the caller's seat of that match.
    pub actor: &'a mut [i64],
    /// For rows that ended: the last observation and mask of the finished match (of `actor`),
    /// its returns and its length in the caller's steps. Other rows are left as they were.
    pub final_obs: &'a mut [f32],
    pub final_mask: &'a mut [bool],
    pub episode_return: &'a mut [f32],
    pub episode_length: &'a mut [i64],
}

/// Row sizes of the buffers: observation, actions, players.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub obs: usize,
    pub actions: usize,
    pub players: usize,
}

impl<'a> Buffers<'a> {
    /// Checks that every array holds `n` rows.
    pub fn check(&self, n: usize, s: Shape) -> Result<()> {
        let sizes = [
            ("obs", self.obs.len(), n * s.obs),
            ("mask", self.mask.len(), n * s.actions),
            ("player", self.player.len(), n),
            ("rewards", self.rewards.len(), n * s.players),
            ("terminated", self.terminated.len(), n),
            ("truncated", self.truncated.len(), n),
            ("actor", self.actor.len(), n),
            ("final_obs", self.final_obs.len(), n * s.obs),
            ("final_mask", self.final_mask.len(), n * s.actions),
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
    fn split(self, k: usize, s: Shape) -> (Buffers<'a>, Buffers<'a>) {
        let (obs0, obs1) = self.obs.split_at_mut(k * s.obs);
        let (mask0, mask1) = self.mask.split_at_mut(k * s.actions);
        let (player0, player1) = self.player.split_at_mut(k);
        let (rew0, rew1) = self.rewards.split_at_mut(k * s.players);
        let (term0, term1) = self.terminated.split_at_mut(k);
        let (trunc0, trunc1) = self.truncated.split_at_mut(k);
        let (actor0, actor1) = self.actor.split_at_mut(k);
        let (fobs0, fobs1) = self.final_obs.split_at_mut(k * s.obs);
        let (fmask0, fmask1) = self.final_mask.split_at_mut(k * s.actions);
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

impl<G: Game> VecEnv<G> {
    /// A batch, every env dealt its first match.
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
                seat: 0,
                legal: Vec::with_capacity(32),
                steps: 0,
                decisions: 0,
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
    /// arrays are left alone.
    pub fn reset(&mut self, seed: Option<u64>, bufs: Buffers<'_>) -> Result<()> {
        bufs.check(self.cfg.num_envs, self.shape)?;
        if let Some(seed) = seed {
            self.cfg.seed = seed;
            for (i, slot) in self.slots.iter_mut().enumerate() {
                slot.rng = env_rng(seed, i);
            }
        }
        let ctx = Ctx {
            game: &self.game,
            cfg: &self.cfg,
            cap: &self.cap,
            shape: self.shape,
        };
        run(&self.pool, &mut self.slots, bufs, None, &ctx)
    }

    /// Applies `actions[i]` in env `i`, then (single-agent) the opponents' moves up to the
    /// caller's next turn, and deals a new match wherever one ended. An action that is out of
    /// range or not legal in its env is refused before any env changes.
    pub fn step(&mut self, actions: &[i64], bufs: Buffers<'_>) -> Result<()> {
        let n = self.cfg.num_envs;
        if actions.len() != n {
            return Err(GameError::IllegalAction(format!(
                "expected {n} actions (one per env), got {}",
                actions.len()
            )));
        }
        bufs.check(n, self.shape)?;
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
        let ctx = Ctx {
            game: &self.game,
            cfg: &self.cfg,
            cap: &self.cap,
            shape: self.shape,
        };
        run(&self.pool, &mut self.slots, bufs, Some(actions), &ctx)
    }
}

struct Ctx<'g, G> {
    game: &'g G,
    cfg: &'g Config,
    cap: &'g DealCap,
    shape: Shape,
}

/// Runs `reset` (no actions) or `step` over the batch, split into blocks over the pool.
fn run<G: Game>(
    pool: &Option<rayon::ThreadPool>,
    slots: &mut [Slot<G::State>],
    bufs: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
) -> Result<()> {
    let n = slots.len();
    if ctx.cfg.threads == 1 || n < 2 * MIN_BLOCK {
        block(slots, bufs, actions, ctx);
        return Ok(());
    }
    let go = || {
        // a few blocks per thread: matches that end and are dealt again even out
        let min = (n / (8 * rayon::current_num_threads())).max(MIN_BLOCK);
        split(slots, bufs, actions, ctx, min)
    };
    match pool {
        Some(pool) => pool.install(go),
        None => go(),
    }
    Ok(())
}

fn split<G: Game>(
    slots: &mut [Slot<G::State>],
    bufs: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
    min: usize,
) {
    if slots.len() < 2 * min {
        return block(slots, bufs, actions, ctx);
    }
    let k = slots.len() / 2;
    let (s0, s1) = slots.split_at_mut(k);
    let (b0, b1) = bufs.split(k, ctx.shape);
    let (a0, a1) = match actions {
        Some(a) => {
            let (a0, a1) = a.split_at(k);
            (Some(a0), Some(a1))
        }
        None => (None, None),
    };
    rayon::join(
        || split(s0, b0, a0, ctx, min),
        || split(s1, b1, a1, ctx, min),
    );
}

fn block<G: Game>(
    slots: &mut [Slot<G::State>],
    b: Buffers<'_>,
    actions: Option<&[i64]>,
    ctx: &Ctx<'_, G>,
) {
    let Shape {
        obs: o,
        actions: na,
        players: np,
    } = ctx.shape;
    let mut returns = [0.0f64; 8];
    let mut scores = [0i64; 8];
    let np8 = np.min(8);
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
                    let fobs = &mut b.final_obs[i * o..(i + 1) * o];
                    fobs.fill(0.0);
                    slot.state.write_observation(actor, fobs);
                    let fmask = &mut b.final_mask[i * na..(i + 1) * na];
                    if terminal {
                        fmask.fill(false);
                    } else {
                        slot.state.legal_mask(fmask);
                    }
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
        let mask = &mut b.mask[i * na..(i + 1) * na];
        mask.fill(false);
        for &a in &slot.legal {
            mask[a as usize] = true;
        }
        let obs = &mut b.obs[i * o..(i + 1) * o];
        obs.fill(0.0);
        slot.state.write_observation(slot.seat, obs);
        if actions.is_none() {
            b.actor[i] = slot.seat as i64;
        }
    }
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
    fn reset(&mut self, seed: Option<u64>, bufs: Buffers<'_>) -> Result<()>;
    fn step(&mut self, actions: &[i64], bufs: Buffers<'_>) -> Result<()>;
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
    fn reset(&mut self, seed: Option<u64>, bufs: Buffers<'_>) -> Result<()> {
        VecEnv::reset(self, seed, bufs)
    }
    fn step(&mut self, actions: &[i64], bufs: Buffers<'_>) -> Result<()> {
        VecEnv::step(self, actions, bufs)
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

    struct Owned {
        v: [Vec<f32>; 2],
        m: [Vec<bool>; 2],
        p: Vec<i64>,
        r: Vec<f32>,
        t: [Vec<bool>; 2],
        a: Vec<i64>,
        er: Vec<f32>,
        el: Vec<i64>,
    }

    impl Owned {
        fn new(n: usize, s: Shape) -> Owned {
            Owned {
                v: [vec![0.0; n * s.obs], vec![0.0; n * s.obs]],
                m: [vec![false; n * s.actions], vec![false; n * s.actions]],
                p: vec![0; n],
                r: vec![0.0; n * s.players],
                t: [vec![false; n], vec![false; n]],
                a: vec![0; n],
                er: vec![0.0; n * s.players],
                el: vec![0; n],
            }
        }
        fn bufs(&mut self) -> Buffers<'_> {
            let [obs, final_obs] = &mut self.v;
            let [mask, final_mask] = &mut self.m;
            let [terminated, truncated] = &mut self.t;
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
    }

    fn cfg(n: usize, mode: Mode, threads: usize) -> Config {
        Config {
            num_envs: n,
            seed: 5,
            mode,
            opponent: Opponent::Random,
            max_decisions: None,
            threads,
        }
    }

    /// First legal action of each row of the mask.
    fn first_legal(mask: &[bool], na: usize) -> Vec<i64> {
        mask.chunks(na)
            .map(|row| row.iter().position(|&x| x).unwrap() as i64)
            .collect()
    }

    fn trace(threads: usize, mode: Mode) -> (Vec<f32>, Vec<bool>, Vec<f32>, Vec<String>) {
        let game = EscobaGame::from_options(&json!({})).unwrap();
        let mut env = VecEnv::new(game, cfg(37, mode, threads)).unwrap();
        let s = env.shape();
        let mut o = Owned::new(37, s);
        env.reset(None, o.bufs()).unwrap();
        let (mut rewards, mut done) = (vec![], vec![]);
        for _ in 0..400 {
            let a = first_legal(&o.m[0], s.actions);
            env.step(&a, o.bufs()).unwrap();
            rewards.extend_from_slice(&o.r);
            done.extend_from_slice(&o.t[0]);
        }
        let states = (0..37).map(|i| env.state(i).unwrap().to_json()).collect();
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
                "400 steps finish some 2-player scopa match"
            );
        }
    }

    #[test]
    fn an_illegal_action_changes_nothing() {
        let game = EscobaGame::from_options(&json!({})).unwrap();
        let mut env = VecEnv::new(game, cfg(4, Mode::MultiAgent, 1)).unwrap();
        let s = env.shape();
        let mut o = Owned::new(4, s);
        env.reset(None, o.bufs()).unwrap();
        let before: Vec<String> = (0..4).map(|i| env.state(i).unwrap().to_json()).collect();
        let mut a = first_legal(&o.m[0], s.actions);
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
        let mut env = VecEnv::new(game, cfg(8, Mode::Seat(2), 1)).unwrap();
        let s = env.shape();
        let mut o = Owned::new(8, s);
        env.reset(None, o.bufs()).unwrap();
        for _ in 0..200 {
            assert!(o.p.iter().all(|&p| p == 2));
            for i in 0..8 {
                assert_eq!(env.state(i).unwrap().current_player(), Some(2));
            }
            let a = first_legal(&o.m[0], s.actions);
            env.step(&a, o.bufs()).unwrap();
        }
    }
}
