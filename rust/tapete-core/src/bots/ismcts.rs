//! Single-observer information-set MCTS (Cowling, Powley and Whitehouse, "Information Set Monte
//! Carlo Tree Search", IEEE TCIAIG 4(2), 2012), over the `State` trait. The contract, with the
//! UCT formula in its order of operations, the tie-breaks and the random streams, is
//! docs/bots.md; `python/tapete/reference/ismcts.py` is the same algorithm in Python, and the
//! differential test holds the two to the same action and visit counts.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::error::Result;
use crate::game::{Action, Game, State};
use crate::rng::{mod_small, SplitMix64};

use super::{check_to_act, score_sign};

/// How rollouts choose their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rollout {
    /// `legal[next() mod len]`, as the random bot.
    Random,
    /// The game's `heuristic_action` with the iteration's stream.
    Heuristic,
}

/// Where an iteration stops and is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Horizon {
    /// The end of the match, scored by `returns`.
    Game,
    /// The end of the current deal (or of the match, if it ends first), scored by the deal's
    /// points scaled to [-1, 1] (docs/bots.md §3.5).
    Deal,
}

/// The options of a search (docs/bots.md §3.1).
#[derive(Clone, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations in all (split over the trees); `None`: only the time budget counts.
    pub iterations: Option<u64>,
    /// Time budget in milliseconds; the search stops at whichever budget is spent first.
    pub time_ms: Option<u64>,
    /// The exploration constant of UCT.
    pub c: f64,
    pub rollout: Rollout,
    pub horizon: Horizon,
    /// Root-parallel trees, each on a rayon worker, merged by summing root statistics.
    pub threads: usize,
}

impl Default for IsmctsConfig {
    fn default() -> Self {
        IsmctsConfig {
            iterations: Some(1000),
            time_ms: None,
            c: 0.7,
            rollout: Rollout::Random,
            horizon: Horizon::Deal,
            threads: 1,
        }
    }
}

/// One root action's statistics, summed over the trees.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootStat {
    pub action: Action,
    pub visits: u64,
    /// Iterations in which the action was legal in the determinization (its availability).
    pub avail: u64,
    /// Sum of the acting seat's rewards over the visits.
    pub reward: f64,
}

impl RootStat {
    /// Mean reward per visit (0 when unvisited).
    pub fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.0
        } else {
            self.reward / self.visits as f64
        }
    }
}

/// What a search found: the action (most visits; the lower id on a tie), the root statistics
/// ascending by action, and the iterations run. With a single legal action there is no search:
/// that action, no statistics, 0 iterations.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    pub action: Action,
    pub stats: Vec<RootStat>,
    pub iterations: u64,
}

/// The trees of one search never hold more children than this in all (at most 512 MiB), each
/// tree `MAX_CHILDREN / threads` of them; past it, iterations go on without expanding.
pub const MAX_CHILDREN: usize = 1 << 22;
const NONE: u32 = u32::MAX;
/// Children per block: a node's children live in its own blocks, so that walking them reads a
/// few cache lines rather than one scattered node per child. Five fill two cache lines.
const BLOCK: usize = 5;

/// A child of a node: its action, its statistics, and its own children (`NONE` until it has one).
#[derive(Clone, Copy)]
struct Edge {
    reward: f64,
    visits: u32,
    avail: u32,
    action: Action,
    children: u32,
}

const EMPTY: Edge = Edge {
    reward: 0.0,
    visits: 0,
    avail: 0,
    action: 0,
    children: NONE,
};

/// Up to `BLOCK` children of one node, in the order they were made, and the node's next block;
/// the count first, in the cache line of the first children.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Block {
    len: u32,
    next: u32,
    edges: [Edge; BLOCK],
}

const NEW_BLOCK: Block = Block {
    edges: [EMPTY; BLOCK],
    len: 0,
    next: NONE,
};

/// One tree and every buffer its iterations reuse, so that an iteration allocates nothing but
/// its new child.
struct Tree<S: State> {
    /// Block 0 holds the root's first children.
    blocks: Vec<Block>,
    children: usize,
    /// Per action: `stamp` when legal in the current node's determinization, `stamp + 1` once
    /// matched by a child.
    mark: Vec<u32>,
    stamp: u32,
    legal: Vec<Action>,
    untried: Vec<Action>,
    /// The children the iteration went through (block, slot), each with the seat that chose it.
    path: Vec<(u32, u32, usize)>,
    det: S,
    root_scores: Vec<i64>,
    scores: Vec<i64>,
    rewards: Vec<f64>,
    c: f64,
    rollout: Rollout,
    horizon: Horizon,
    sign: i64,
    max_children: usize,
}

impl<S: State> Tree<S> {
    fn new(root: &S, cfg: &IsmctsConfig) -> Self {
        let n = root.num_players();
        let mut root_scores = vec![0; n];
        root.scores_into(&mut root_scores);
        Tree {
            blocks: vec![NEW_BLOCK],
            children: 0,
            mark: vec![0; <S::Game as Game>::NUM_ACTIONS as usize],
            stamp: 0,
            legal: Vec::with_capacity(64),
            untried: Vec::with_capacity(64),
            path: Vec::with_capacity(64),
            det: root.clone(),
            root_scores,
            scores: vec![0; n],
            rewards: vec![0.0; n],
            c: cfg.c,
            rollout: cfg.rollout,
            horizon: cfg.horizon,
            sign: score_sign(&root.game()),
            max_children: (MAX_CHILDREN / cfg.threads.max(1)).max(2),
        }
    }

    /// The iteration stops here: the match is over, or (horizon `deal`) a new deal has begun.
    #[inline]
    fn stopped(&self, root_deals: u32) -> bool {
        self.det.is_over() || (self.horizon == Horizon::Deal && self.det.deals() != root_deals)
    }

    /// Runs iterations until `budget` (if any) or `deadline` (if any) is spent.
    fn run(&mut self, root: &S, seed: u64, budget: Option<u64>, deadline: Option<Instant>) -> u64 {
        let observer = root.player_to_act().unwrap_or(0);
        let root_deals = root.deals();
        let mut master = SplitMix64::new(seed);
        let mut done = 0u64;
        loop {
            if budget.is_some_and(|b| done >= b) {
                break;
            }
            if let Some(d) = deadline {
                if done > 0 && done % 16 == 0 && Instant::now() >= d {
                    break;
                }
            }
            let det_seed = master.next_u64();
            let mut rng = SplitMix64::new(master.next_u64());
            root.resample_into(observer, det_seed, &mut self.det);
            self.iterate(root_deals, &mut rng);
            done += 1;
        }
        done
    }

    fn next_stamp(&mut self) -> u32 {
        if self.stamp >= u32::MAX - 4 {
            self.mark.fill(0);
            self.stamp = 0;
        }
        self.stamp += 2;
        self.stamp
    }

    fn iterate(&mut self, root_deals: u32, rng: &mut SplitMix64) {
        self.path.clear();
        // the current node: its first block (NONE: no children yet) and the edge that leads to it
        let mut head = 0u32;
        let mut parent: Option<(u32, u32)> = None;
        while !self.stopped(root_deals) {
            let seat = match self.det.player_to_act() {
                Some(p) => p,
                None => break,
            };
            self.det.legal_actions_into(&mut self.legal);
            let s = self.next_stamp();
            for &a in &self.legal {
                self.mark[a as usize] = s;
            }
            let mut compatible = 0usize;
            let mut last = NONE;
            let mut b = head;
            while b != NONE {
                let block = &self.blocks[b as usize];
                for e in &block.edges[..block.len as usize] {
                    let a = e.action as usize;
                    if self.mark[a] == s {
                        self.mark[a] = s + 1;
                        compatible += 1;
                    }
                }
                last = b;
                b = block.next;
            }
            if compatible < self.legal.len() && self.children < self.max_children {
                // expansion: an untried action, uniformly, the untried ones ascending
                self.untried.clear();
                for &a in &self.legal {
                    if self.mark[a as usize] == s {
                        self.untried.push(a);
                    }
                }
                let a = self.untried[mod_small(rng.next_u64(), self.untried.len() as u64) as usize];
                self.bump_avail(head, s + 1);
                let (b, slot) = self.add_child(head, last, parent, a);
                self.path.push((b, slot, seat));
                self.det.apply_unchecked(a);
                break;
            }
            if compatible == 0 {
                break; // the tree is full and no child fits this determinization
            }
            let (b, slot) = self.select(head, s + 1);
            self.bump_avail(head, s + 1);
            self.path.push((b, slot, seat));
            let e = self.blocks[b as usize].edges[slot as usize];
            self.det.apply_unchecked(e.action);
            parent = Some((b, slot));
            head = e.children;
        }
        self.play_out(root_deals, rng);
        self.score();
        for &(b, slot, seat) in &self.path {
            let e = &mut self.blocks[b as usize].edges[slot as usize];
            e.visits += 1;
            e.reward += self.rewards[seat];
        }
    }

    /// UCT over the children marked `m` (those legal in this determinization): the greatest
    /// value, the lower action on a tie (docs/bots.md §3.3: the first maximum in ascending order).
    #[inline]
    fn select(&self, head: u32, m: u32) -> (u32, u32) {
        let mut best = (NONE, 0);
        let mut best_value = f64::NEG_INFINITY;
        let mut best_action = Action::MAX;
        let mut b = head;
        while b != NONE {
            let block = &self.blocks[b as usize];
            for (slot, e) in block.edges[..block.len as usize].iter().enumerate() {
                if self.mark[e.action as usize] == m {
                    let n = e.visits as f64;
                    let value = e.reward / n + self.c * ((e.avail as f64).ln() / n).sqrt();
                    if value > best_value || (value == best_value && e.action < best_action) {
                        best_value = value;
                        best_action = e.action;
                        best = (b, slot as u32);
                    }
                }
            }
            b = block.next;
        }
        best
    }

    /// One more availability for every child marked `m` of the node whose first block is `head`.
    #[inline]
    fn bump_avail(&mut self, head: u32, m: u32) {
        let mut b = head;
        while b != NONE {
            let block = &mut self.blocks[b as usize];
            let len = block.len as usize;
            for e in &mut block.edges[..len] {
                if self.mark[e.action as usize] == m {
                    e.avail += 1;
                }
            }
            b = block.next;
        }
    }

    /// A new child for `a`, available once, appended to the node's last block `last` (a new
    /// block when full, or the node's first block, linked from `parent`'s edge, when it has none).
    fn add_child(
        &mut self,
        head: u32,
        last: u32,
        parent: Option<(u32, u32)>,
        a: Action,
    ) -> (u32, u32) {
        let fresh = self.blocks.len() as u32;
        let b = if head == NONE {
            self.blocks.push(NEW_BLOCK);
            if let Some((pb, ps)) = parent {
                self.blocks[pb as usize].edges[ps as usize].children = fresh;
            }
            fresh
        } else if self.blocks[last as usize].len as usize == BLOCK {
            self.blocks.push(NEW_BLOCK);
            self.blocks[last as usize].next = fresh;
            fresh
        } else {
            last
        };
        let block = &mut self.blocks[b as usize];
        let slot = block.len;
        block.edges[slot as usize] = Edge {
            avail: 1,
            action: a,
            ..EMPTY
        };
        block.len += 1;
        self.children += 1;
        (b, slot)
    }

    fn play_out(&mut self, root_deals: u32, rng: &mut SplitMix64) {
        while !self.stopped(root_deals) {
            let a = match self.rollout {
                Rollout::Random => {
                    self.det.legal_actions_into(&mut self.legal);
                    self.legal[mod_small(rng.next_u64(), self.legal.len() as u64) as usize]
                }
                Rollout::Heuristic => self.det.heuristic_action(rng),
            };
            self.det.apply_unchecked(a);
        }
    }

    /// The iteration's reward per seat into `rewards` (docs/bots.md §3.5).
    fn score(&mut self) {
        match self.horizon {
            Horizon::Game => self.det.returns_into(&mut self.rewards),
            Horizon::Deal => {
                self.det.scores_into(&mut self.scores);
                deal_rewards(
                    &self.root_scores,
                    &self.scores,
                    self.sign,
                    &mut self.rewards,
                );
            }
        }
    }

    fn root_stats(&self) -> Vec<RootStat> {
        let mut out = Vec::new();
        let mut b = 0u32;
        while b != NONE {
            let block = &self.blocks[b as usize];
            for e in &block.edges[..block.len as usize] {
                out.push(RootStat {
                    action: e.action,
                    visits: e.visits as u64,
                    avail: e.avail as u64,
                    reward: e.reward,
                });
            }
            b = block.next;
        }
        out.sort_by_key(|st| st.action);
        out
    }
}

/// A deal's points as rewards in [-1, 1]: with `d` the score changes since the root, seat `i`'s
/// margin over the others is `e_i = sign * (n * d_i − Σ_j d_j)` (an integer: `n − 1` times its
/// lead on the others' mean), divided by the largest `|e_j|` (all 0 when every margin is 0).
pub fn deal_rewards(root: &[i64], now: &[i64], sign: i64, out: &mut [f64]) {
    let n = root.len() as i128;
    let d = |i: usize| now[i] as i128 - root[i] as i128;
    let total: i128 = (0..root.len()).map(d).sum();
    let margin = |i: usize| sign as i128 * (n * d(i) - total);
    let m = (0..root.len()).map(|i| margin(i).abs()).max().unwrap_or(0);
    for (i, o) in out.iter_mut().enumerate().take(root.len()) {
        *o = if m == 0 {
            0.0
        } else {
            margin(i) as f64 / m as f64
        };
    }
}

/// Searches for the seat to act in `state` with `cfg`, seeded by `seed` (the streams of
/// docs/bots.md §3.6). The state is only read.
pub fn search<S: State>(cfg: &IsmctsConfig, state: &S, seed: u64) -> Result<SearchResult> {
    check_to_act(state)?;
    let legal = state.legal_actions();
    if legal.len() == 1 {
        return Ok(SearchResult {
            action: legal[0],
            stats: Vec::new(),
            iterations: 0,
        });
    }
    let trees = cfg.threads.max(1);
    let seeds: Vec<u64> = if trees == 1 {
        vec![seed]
    } else {
        let mut m = SplitMix64::new(seed);
        (0..trees).map(|_| m.next_u64()).collect()
    };
    let deadline = cfg
        .time_ms
        .map(|ms| Instant::now() + Duration::from_millis(ms));
    let budget = |t: usize| {
        cfg.iterations
            .map(|n| n / trees as u64 + ((t as u64) < n % trees as u64) as u64)
    };
    let grow = |t: usize, seed: u64| {
        let mut tree = Tree::new(state, cfg);
        let done = tree.run(state, seed, budget(t), deadline);
        (tree.root_stats(), done)
    };
    let per_tree: Vec<(Vec<RootStat>, u64)> = if trees == 1 {
        vec![grow(0, seeds[0])]
    } else {
        seeds
            .into_par_iter()
            .enumerate()
            .map(|(t, s)| grow(t, s))
            .collect()
    };
    // merged in tree order, so that the sums do not depend on scheduling
    let mut merged: BTreeMap<Action, RootStat> = BTreeMap::new();
    let mut iterations = 0;
    for (stats, done) in per_tree {
        iterations += done;
        for st in stats {
            let e = merged.entry(st.action).or_insert(RootStat {
                action: st.action,
                visits: 0,
                avail: 0,
                reward: 0.0,
            });
            e.visits += st.visits;
            e.avail += st.avail;
            e.reward += st.reward;
        }
    }
    let stats: Vec<RootStat> = merged.into_values().collect();
    let mut action = legal[0];
    let mut most = 0;
    for st in &stats {
        if st.visits > most {
            most = st.visits;
            action = st.action;
        }
    }
    Ok(SearchResult {
        action,
        stats,
        iterations,
    })
}
