//! Tile Burako engine (docs/burako_engine.md is the contract).

pub mod notation;
pub mod options;
pub mod rules;
mod serial;
#[cfg(test)]
mod tests;

use std::fmt::{self, Write as _};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::error::GameError;
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;
use crate::tiles::{fresh_pack, tile_text, TileCounts, TileType, NUM_TILES, NUM_TYPES};

pub use notation::{action_to_string, string_to_action, NUM_ACTIONS};
pub use options::BurakoOptions;
use options::CloseMode;
pub use rules::Kind;
use rules::{fit_kind, Fit};

type Result<T> = std::result::Result<T, GameError>;

/// Meld slots per team (docs/rules/burako.md §11).
pub const M_MAX: usize = 35;
pub const A_DRAW: Action = 0;
pub const A_TAKE: Action = 1;
pub const A_REDRAW: Action = 2;
pub const A_ADD: Action = 3;
pub const A_MELD: Action = 56;
pub const A_CANCEL: Action = 57;
pub const A_DISCARD: Action = 58;
pub const A_EXTEND: Action = 111;
/// Totals given by `setup` / JSON lie within ±10^15.
pub const MAX_SCORE: i64 = 1_000_000_000_000_000;

const PHASE_DRAW: u8 = 0;
const PHASE_MELD: u8 = 1;

/// Options plus what is derived from them once.
#[derive(Debug)]
pub struct Config {
    pub opts: BurakoOptions,
    pub json: String,
    pub value: Value,
    pub n: usize,
    pub obs_size: usize,
}

#[derive(Clone, Debug)]
pub struct BurakoGame {
    cfg: Arc<Config>,
}

/// A team meld: its tile multiset and what is derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meld {
    pub tiles: TileCounts,
    pub len: u8,
    pub kind: Kind,
    pub pure: bool,
    pub value: i32,
    /// Types `t` for which `tiles ∪ {t}` is valid as this kind.
    accept: u64,
    /// Those of `accept` for which the result is pure.
    accept_pure: u64,
}

impl Meld {
    const EMPTY: Meld = Meld {
        tiles: TileCounts::EMPTY,
        len: 0,
        kind: Kind::Run,
        pure: false,
        value: 0,
        accept: 0,
        accept_pure: 0,
    };

    fn build(tiles: TileCounts, kind: Kind, fit: Fit, r: &options::MeldRules) -> Meld {
        let len = tiles.len();
        let mut m = Meld {
            tiles,
            len: len as u8,
            kind,
            pure: fit.pure,
            value: rules::meld_value(tiles, fit, r),
            accept: 0,
            accept_pure: 0,
        };
        let mut cand = candidates(tiles);
        while cand != 0 {
            let t = cand.trailing_zeros() as TileType;
            cand &= cand - 1;
            if tiles.get(t) >= 2 {
                continue;
            }
            if let Some(f) = fit_kind(kind, tiles.with(t), len + 1, r) {
                m.accept |= 1 << t;
                if f.pure {
                    m.accept_pure |= 1 << t;
                }
            }
        }
        m
    }

    pub fn is_canasta(&self, min: u32) -> bool {
        self.len as u32 >= min
    }
}

/// A superset of the types that could extend a meld: its colours, its numbers, 2s and the joker;
/// every type when the meld holds only 2s and jokers (under `unlimited`, {K2, B2, Y2} is a run
/// that R4 extends, the K2 turning wild).
fn candidates(c: TileCounts) -> u64 {
    const TWOS: u64 = (1 << 1) | (1 << 14) | (1 << 27) | (1 << 40);
    const ALL: u64 = (1u64 << 53) - 1;
    let types = c.types();
    if types & !(TWOS | (1u64 << 52)) == 0 {
        return ALL;
    }
    let mut m = TWOS | (1u64 << 52);
    for col in 0..4 {
        if (types >> (13 * col)) & 0x1FFF != 0 {
            m |= 0x1FFF << (13 * col);
        }
    }
    let mut nums = 0u64;
    for col in 0..4 {
        nums |= (types >> (13 * col)) & 0x1FFF;
    }
    for col in 0..4 {
        m |= nums << (13 * col);
    }
    m & ALL
}

/// Every window of positions a run can fill, `(a, b)` for positions `a..=b`: inside 1..14 (the
/// 1 at 1 or 14), and with `run_wrap` the windows turning the corner 13-1-2, `a ≤ 13`, `b ≥ 15`,
/// at most 13 long, where a position `q > 14` holds the number `q − 13` (docs/burako_engine.md §3).
fn run_windows(r: &options::MeldRules) -> impl Iterator<Item = (u8, u8)> {
    let max_len = if r.ace_to_ace { 14u8 } else { 13 };
    let straight =
        (1..=14u8).flat_map(move |a| (a + 2..=14u8.min(a + max_len - 1)).map(move |b| (a, b)));
    let wrap = r.run_wrap;
    let wrapped = (3..=13u8)
        .filter(move |_| wrap)
        .flat_map(|a| (15..=a + 12).map(move |b| (a, b)));
    straight.chain(wrapped)
}

/// For each colour and window of positions, the run holding `u` that uses the rack's naturals
/// wherever it can and wilds elsewhere (`u` forced in as a wild when it is one).
fn greedy_runs(rack: TileCounts, u: TileType, r: &options::MeldRules) -> Vec<TileCounts> {
    use crate::tiles::{is_two, tile, JOKER};
    use options::AcePos;
    let mut out = Vec::new();
    let u_wild = u == JOKER || (r.twos_wild && is_two(u));
    for col in 0..4u8 {
        if !u_wild && u / 13 != col {
            continue;
        }
        for (a, b) in run_windows(r) {
            let mut sub = TileCounts::EMPTY;
            let mut avail = rack;
            let mut missing = 0u32;
            for pos in a..=b {
                let nat = match pos {
                    1 if r.ace != AcePos::HighOnly => Some(tile(col, 1)),
                    // the corner of a wrapped run needs both ace positions
                    14 if b > 14 && r.ace == AcePos::LowOrHigh => Some(tile(col, 1)),
                    14 if b == 14 && r.ace != AcePos::LowOnly => Some(tile(col, 1)),
                    1 | 14 => None,
                    n if n > 14 => Some(tile(col, n - 13)),
                    n => Some(tile(col, n)),
                };
                match nat {
                    Some(x) if avail.contains(x) => {
                        avail.remove(x);
                        sub.add(x);
                    }
                    _ => missing += 1,
                }
            }
            if !u_wild && !sub.contains(u) {
                continue;
            }
            // the wild pool: jokers, then 2s (u first when it is a wild)
            let mut pool: Vec<TileType> = Vec::new();
            if u_wild && avail.contains(u) {
                pool.push(u);
                avail.remove(u);
            }
            for x in [JOKER, tile(0, 2), tile(1, 2), tile(2, 2), tile(3, 2)] {
                if x == JOKER || r.twos_wild {
                    for _ in 0..avail.get(x) {
                        pool.push(x);
                    }
                }
            }
            if (pool.len() as u32) < missing {
                continue;
            }
            for &x in &pool[..missing as usize] {
                sub.add(x);
            }
            if u_wild && !sub.contains(u) {
                // replace one natural by u (same length)
                if pool.first().is_none_or(|&x| x != u) {
                    continue;
                }
                let nat = sub.types() & !(1u64 << JOKER);
                let Some(x) = (0..53u8)
                    .find(|&x| nat & (1 << x) != 0 && x != JOKER && !(r.twos_wild && is_two(x)))
                else {
                    continue;
                };
                sub.remove(x);
                sub.add(u);
            }
            out.push(sub);
        }
    }
    out
}

#[derive(Clone, Debug)]
pub struct BurakoState {
    cfg: Arc<Config>,
    racks: [TileCounts; 4],
    rack_len: [u8; 4],
    buffer: TileCounts,
    buffer_len: u8,
    /// Largest type in the buffer, −1 when empty.
    buffer_max: i8,
    melds: [[Meld; M_MAX]; 2],
    n_melds: [u8; 2],
    canastas: [u8; 2],
    pure_canastas: [u8; 2],
    /// Stock with the top at the end (`stock[stock_len-1]` is drawn next).
    stock: [u8; NUM_TILES],
    stock_len: u8,
    /// Pozo bottom first.
    pozo: [u8; NUM_TILES],
    pozo_len: u8,
    pozo_counts: TileCounts,
    /// Muertos not taken yet, `muertos[muerto_first..2]`, each in dealt order.
    muertos: [[u8; NUM_TILES]; 2],
    muerto_len: [u8; 2],
    muerto_first: u8,
    muerto_status: [u8; 2],
    muerto_unplayed: [i8; 2],
    mano: u8,
    to_move: u8,
    phase: u8,
    drawn: i8,
    must_use: i8,
    no_discard: i8,
    cancels: u32,
    turns: u32,
    hand: u32,
    hand_scores: Vec<[i64; 2]>,
    totals: [i64; 2],
    terminal: bool,
    winner: i8,
    rng: SplitMix64,
    history: Vec<u16>,
}

impl PartialEq for BurakoState {
    fn eq(&self, o: &Self) -> bool {
        self.to_json() == o.to_json()
    }
}

impl BurakoGame {
    pub fn new(options: &Value) -> Result<BurakoGame> {
        let (opts, map) = BurakoOptions::resolve(options)?;
        Ok(BurakoGame::from_parts(opts, map))
    }

    pub fn from_json_options(text: &str) -> Result<BurakoGame> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| GameError::InvalidOption(format!("options are not valid JSON: {e}")))?;
        BurakoGame::new(&v)
    }

    fn from_parts(opts: BurakoOptions, map: Map<String, Value>) -> BurakoGame {
        let value = Value::Object(map);
        let json = value.to_string();
        let n = opts.players;
        BurakoGame {
            cfg: Arc::new(Config {
                obs_size: 4217 + 2 * n,
                opts,
                json,
                value,
                n,
            }),
        }
    }

    pub fn options(&self) -> &BurakoOptions {
        &self.cfg.opts
    }
    pub fn options_json(&self) -> &str {
        &self.cfg.json
    }
    pub fn options_value(&self) -> &Value {
        &self.cfg.value
    }
    pub fn num_players(&self) -> usize {
        self.cfg.n
    }
    pub fn observation_size(&self) -> usize {
        self.cfg.obs_size
    }

    fn blank(&self, seed: u64) -> BurakoState {
        BurakoState {
            cfg: self.cfg.clone(),
            racks: [TileCounts::EMPTY; 4],
            rack_len: [0; 4],
            buffer: TileCounts::EMPTY,
            buffer_len: 0,
            buffer_max: -1,
            melds: [[Meld::EMPTY; M_MAX]; 2],
            n_melds: [0; 2],
            canastas: [0; 2],
            pure_canastas: [0; 2],
            stock: [0; NUM_TILES],
            stock_len: 0,
            pozo: [0; NUM_TILES],
            pozo_len: 0,
            pozo_counts: TileCounts::EMPTY,
            muertos: [[0; NUM_TILES]; 2],
            muerto_len: [0; 2],
            muerto_first: 2,
            muerto_status: [0; 2],
            muerto_unplayed: [-1; 2],
            mano: 0,
            to_move: 0,
            phase: PHASE_DRAW,
            drawn: -1,
            must_use: -1,
            no_discard: -1,
            cancels: 0,
            turns: 0,
            hand: 1,
            hand_scores: Vec::new(),
            totals: [0; 2],
            terminal: false,
            winner: -1,
            rng: SplitMix64::new(seed),
            history: Vec::with_capacity(256),
        }
    }

    /// A new match dealt with the seeded RNG (docs/burako_engine.md §8).
    pub fn new_state(&self, seed: u64) -> BurakoState {
        let mut s = self.blank(seed);
        s.choose_first_mano();
        s.deal(None);
        s
    }

    /// A new match whose first hand uses `deck` (top first, a permutation of the 106 tiles).
    pub fn new_state_with_deck(&self, seed: u64, deck: &[TileType]) -> Result<BurakoState> {
        let pack = serial::check_deck(deck)?;
        let mut s = self.blank(seed);
        s.choose_first_mano();
        s.deal(Some(pack));
        Ok(s)
    }

    pub fn setup(&self, spec: &Value) -> Result<BurakoState> {
        serial::setup(self, spec)
    }

    pub fn setup_json(&self, text: &str) -> Result<BurakoState> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| GameError::InvalidState(format!("setup spec is not valid JSON: {e}")))?;
        self.setup(&v)
    }

    pub fn state_from_json(&self, text: &str) -> Result<BurakoState> {
        serial::state_from_json(self, text)
    }
}

impl Game for BurakoGame {
    type State = BurakoState;
    fn name(&self) -> &'static str {
        "burako"
    }
    fn num_players(&self) -> usize {
        self.cfg.n
    }
    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS as usize
    }
    fn observation_size(&self) -> usize {
        self.cfg.obs_size
    }
    fn new_state(&self, seed: u64) -> BurakoState {
        BurakoGame::new_state(self, seed)
    }
}

#[inline]
fn team(seat: usize) -> usize {
    seat & 1
}

impl BurakoState {
    #[inline]
    fn opts(&self) -> &BurakoOptions {
        &self.cfg.opts
    }
    #[inline]
    fn n(&self) -> usize {
        self.cfg.n
    }

    // ----- accessors -----

    pub fn game(&self) -> BurakoGame {
        BurakoGame {
            cfg: self.cfg.clone(),
        }
    }
    pub fn current_player(&self) -> Option<usize> {
        (!self.terminal).then_some(self.to_move as usize)
    }
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }
    pub fn rack(&self, seat: usize) -> TileCounts {
        self.racks[seat]
    }
    pub fn buffer(&self) -> TileCounts {
        self.buffer
    }
    pub fn team_melds(&self, team: usize) -> &[Meld] {
        &self.melds[team][..self.n_melds[team] as usize]
    }
    /// Stock, top first.
    pub fn stock(&self) -> Vec<TileType> {
        self.stock[..self.stock_len as usize]
            .iter()
            .rev()
            .copied()
            .collect()
    }
    pub fn stock_len(&self) -> usize {
        self.stock_len as usize
    }
    /// Pozo, bottom first.
    pub fn pozo(&self) -> &[TileType] {
        &self.pozo[..self.pozo_len as usize]
    }
    pub fn muertos(&self) -> Vec<Vec<TileType>> {
        (self.muerto_first as usize..2)
            .map(|i| self.muertos[i][..self.muerto_len[i] as usize].to_vec())
            .collect()
    }
    pub fn muerto_status(&self) -> [u8; 2] {
        self.muerto_status
    }
    pub fn totals(&self) -> [i64; 2] {
        self.totals
    }
    pub fn hand_scores(&self) -> &[[i64; 2]] {
        &self.hand_scores
    }
    pub fn hand_number(&self) -> u32 {
        self.hand
    }
    pub fn mano(&self) -> usize {
        self.mano as usize
    }
    pub fn turns(&self) -> u32 {
        self.turns
    }
    pub fn winner(&self) -> Option<usize> {
        (self.winner >= 0).then_some(self.winner as usize)
    }
    pub fn history(&self) -> Vec<Action> {
        self.history.iter().map(|&a| a as Action).collect()
    }
    pub fn scores(&self) -> Vec<i64> {
        (0..self.n()).map(|s| self.totals[team(s)]).collect()
    }
    pub fn returns(&self) -> Vec<f64> {
        let mut r = vec![0.0; self.n()];
        self.write_returns(&mut r);
        r
    }
    fn write_returns(&self, out: &mut [f64]) {
        for (s, x) in out.iter_mut().enumerate() {
            *x = if !self.terminal || self.winner < 0 {
                0.0
            } else if team(s) == self.winner as usize {
                1.0
            } else {
                -1.0
            };
        }
    }

    /// Every tile in the state, counted (the 106 must always be there).
    pub fn tile_census(&self) -> TileCounts {
        let mut c = self.buffer;
        for s in 0..self.n() {
            c = c.plus(self.racks[s]);
        }
        for t in 0..2 {
            for m in self.team_melds(t) {
                c = c.plus(m.tiles);
            }
        }
        for &x in self.pozo() {
            c.add(x);
        }
        for &x in &self.stock[..self.stock_len as usize] {
            c.add(x);
        }
        for i in self.muerto_first as usize..2 {
            for &x in &self.muertos[i][..self.muerto_len[i] as usize] {
                c.add(x);
            }
        }
        c
    }

    // ----- dealing -----

    fn choose_first_mano(&mut self) {
        self.mano = match self.opts().first_mano {
            Some(m) => m as u8,
            None => self.rng.below(self.n() as u64) as u8,
        };
    }

    /// Deals a hand with the current mano (docs/burako_engine.md §8).
    fn deal(&mut self, deck: Option<[u8; NUM_TILES]>) {
        let pack = match deck {
            Some(p) => p,
            None => {
                let mut p = fresh_pack();
                self.rng.shuffle(&mut p);
                p
            }
        };
        let n = self.n();
        let h = self.opts().hand_size;
        let ms = self.opts().muerto_size;
        let mut i = 0;
        for k in 0..n {
            let seat = (self.mano as usize + k) % n;
            self.racks[seat] = TileCounts::from_slice(&pack[i..i + h]);
            self.rack_len[seat] = h as u8;
            i += h;
        }
        for m in 0..2 {
            self.muertos[m][..ms].copy_from_slice(&pack[i..i + ms]);
            self.muerto_len[m] = ms as u8;
            i += ms;
        }
        self.muerto_first = 0;
        let rest = &pack[i..];
        self.stock_len = rest.len() as u8;
        for (k, &t) in rest.iter().rev().enumerate() {
            self.stock[k] = t;
        }
        self.buffer = TileCounts::EMPTY;
        self.buffer_len = 0;
        self.buffer_max = -1;
        self.n_melds = [0; 2];
        self.canastas = [0; 2];
        self.pure_canastas = [0; 2];
        self.pozo_len = 0;
        self.pozo_counts = TileCounts::EMPTY;
        self.muerto_status = [0; 2];
        self.muerto_unplayed = [-1; 2];
        self.to_move = self.mano;
        self.phase = PHASE_DRAW;
        self.drawn = -1;
        self.must_use = -1;
        self.no_discard = -1;
        self.cancels = 0;
        self.turns = 0;
    }

    // ----- rule helpers -----

    #[inline]
    fn taken(&self, t: usize) -> bool {
        self.muerto_status[t] != 0
    }
    #[inline]
    fn muertos_left(&self) -> usize {
        2 - self.muerto_first as usize
    }
    #[inline]
    fn can_buy(&self, t: usize) -> bool {
        !self.taken(t) && self.muertos_left() > 0
    }
    #[inline]
    fn close_count(&self, t: usize) -> u32 {
        if self.opts().pure_canasta_to_close {
            self.pure_canastas[t] as u32
        } else {
            self.canastas[t] as u32
        }
    }

    /// docs/burako_engine.md §6 for `meld`/`extend`: `h` tiles left, `has_c` after the action;
    /// `rest` = the rack after the action and `after` the team's melds after it (for
    /// `meld_required` only).
    fn going_out_ok(&self, t: usize, h: u32, has_c: bool, after: impl FnOnce() -> bool) -> bool {
        if h >= 2 || self.can_buy(t) {
            return true;
        }
        if !self.taken(t) || !has_c {
            return false;
        }
        match (h, self.opts().close_mode) {
            (0, CloseMode::DiscardRequired) => false,
            (1, CloseMode::MeldRequired) => after(),
            _ => true,
        }
    }

    /// Canasta count for closing after replacing `old` by `new` in team `t` (either may be none).
    fn close_count_after(&self, t: usize, old: Option<&Meld>, new: &Meld) -> u32 {
        let min = self.opts().meld.canasta_min;
        let pure_req = self.opts().pure_canasta_to_close;
        let counts = |m: &Meld| m.is_canasta(min) && (!pure_req || m.pure);
        let mut c = self.close_count(t);
        if let Some(o) = old {
            if counts(o) {
                c -= 1;
            }
        }
        if counts(new) {
            c += 1;
        }
        c
    }

    /// Under `meld_required`: after the team's melds become `melds`, can the single tile `u`
    /// extend one of them with a closing canasta then owned?
    fn last_tile_closes(&self, melds: &[Meld], u: TileType) -> bool {
        let r = &self.opts().meld;
        let min = r.canasta_min;
        let pure_req = self.opts().pure_canasta_to_close;
        let counts = |m: &Meld| m.is_canasta(min) && (!pure_req || m.pure);
        let base = melds.iter().filter(|m| counts(m)).count();
        melds.iter().any(|m| {
            if m.accept & (1 << u) == 0 {
                return false;
            }
            let grown_pure = m.accept_pure & (1 << u) != 0;
            let grown_counts = (m.len as u32 + 1) >= min && (!pure_req || grown_pure);
            base - counts(m) as usize + grown_counts as usize > 0
        })
    }

    /// The single tile of a one-tile multiset.
    fn only_tile(c: TileCounts) -> TileType {
        c.types().trailing_zeros() as TileType
    }

    fn no_discard_blocks(&self, rest: TileCounts) -> bool {
        self.no_discard >= 0 && !rest.is_empty() && rest.types() == 1u64 << self.no_discard
    }

    fn commit_ok(&self) -> bool {
        let p = self.to_move as usize;
        let t = team(p);
        if self.n_melds[t] as usize >= M_MAX {
            return false;
        }
        if self.must_use >= 0 && !self.buffer.contains(self.must_use as u8) {
            return false;
        }
        let r = &self.opts().meld;
        let Some((kind, fit)) = rules::classify(self.buffer, r) else {
            return false;
        };
        let rest = self.racks[p];
        if self.no_discard_blocks(rest) {
            return false;
        }
        let h = self.rack_len[p] as u32;
        if h >= 2 || self.can_buy(t) {
            return true;
        }
        let new = Meld::build(self.buffer, kind, fit, r);
        let has_c = self.close_count_after(t, None, &new) > 0;
        self.going_out_ok(t, h, has_c, || {
            let mut ms: Vec<Meld> = self.team_melds(t).to_vec();
            ms.push(new);
            self.last_tile_closes(&ms, Self::only_tile(rest))
        })
    }

    fn extend_ok(&self, m: usize, x: TileType) -> bool {
        let p = self.to_move as usize;
        let t = team(p);
        if self.must_use >= 0 && x as i8 != self.must_use {
            return false;
        }
        let meld = &self.melds[t][m];
        let mut rest = self.racks[p];
        rest.remove(x);
        if self.no_discard_blocks(rest) {
            return false;
        }
        let h = self.rack_len[p] as u32 - 1;
        if h >= 2 || self.can_buy(t) {
            return true;
        }
        let r = &self.opts().meld;
        let tiles = meld.tiles.with(x);
        let Some(fit) = fit_kind(meld.kind, tiles, meld.len as u32 + 1, r) else {
            return false;
        };
        let grown = Meld::build(tiles, meld.kind, fit, r);
        let has_c = self.close_count_after(t, Some(meld), &grown) > 0;
        self.going_out_ok(t, h, has_c, || {
            let mut ms: Vec<Meld> = self.team_melds(t).to_vec();
            ms[m] = grown;
            self.last_tile_closes(&ms, Self::only_tile(rest))
        })
    }

    fn discard_ok(&self, x: TileType) -> bool {
        if self.must_use >= 0 || self.no_discard == x as i8 {
            return false;
        }
        let p = self.to_move as usize;
        if self.rack_len[p] > 1 {
            return true;
        }
        let t = team(p);
        self.can_buy(t)
            || (self.taken(t)
                && self.close_count(t) > 0
                && self.opts().close_mode != CloseMode::MeldRequired)
    }

    fn take_ok(&self) -> bool {
        if self.pozo_len == 0 {
            return false;
        }
        let p = self.to_move as usize;
        let top = self.pozo[self.pozo_len as usize - 1];
        if self.opts().no_rediscard && self.pozo_len == 1 {
            let others = self.racks[p].types() & !(1u64 << top);
            if others == 0 {
                return false;
            }
        }
        if self.opts().must_use_top {
            return self.take_usable(top);
        }
        true
    }

    /// `must_use_top_tile_now`: after the take, some `extend m top` or some `meld` of a valid
    /// sub-multiset holding `top` would be legal (docs/burako_engine.md §7). A meld leaving ≥ 2
    /// tiles is always legal, so the search covers: every 3-tile set (a pierna holding `top` always
    /// has a 3-tile sub-pierna holding it), the greedy run of every window (fewest wilds for that
    /// window), and exactly every set of size N−1 and N.
    fn take_usable(&self, top: TileType) -> bool {
        let mut s = self.clone();
        s.do_take();
        let p = s.to_move as usize;
        let t = team(p);
        for m in 0..s.n_melds[t] as usize {
            if s.melds[t][m].accept & (1 << top) != 0 && s.extend_ok(m, top) {
                return true;
            }
        }
        let rack = s.racks[p];
        let n = rack.len();
        let r = s.opts().meld;
        let try_set = |sub: TileCounts, s: &mut BurakoState| -> bool {
            if !sub.contains(top) || sub.len() < 3 || rules::classify(sub, &r).is_none() {
                return false;
            }
            let saved = (
                s.racks[p],
                s.rack_len[p],
                s.buffer,
                s.buffer_len,
                s.buffer_max,
            );
            s.racks[p] = TileCounts(rack.0 - sub.0);
            s.rack_len[p] = (n - sub.len()) as u8;
            s.buffer = sub;
            s.buffer_len = sub.len() as u8;
            let ok = s.commit_ok();
            (
                s.racks[p],
                s.rack_len[p],
                s.buffer,
                s.buffer_len,
                s.buffer_max,
            ) = saved;
            ok
        };
        let mut rest = rack;
        rest.remove(top);
        let others = rest.to_vec();
        for i in 0..others.len() {
            for j in i + 1..others.len() {
                if try_set(
                    TileCounts::EMPTY.with(top).with(others[i]).with(others[j]),
                    &mut s,
                ) {
                    return true;
                }
            }
        }
        if try_set(rack, &mut s) {
            return true;
        }
        let mut ty = rack.types();
        while ty != 0 {
            let x = ty.trailing_zeros() as TileType;
            ty &= ty - 1;
            let mut sub = rack;
            sub.remove(x);
            if try_set(sub, &mut s) {
                return true;
            }
        }
        for sub in greedy_runs(rack, top, &r) {
            if sub.len() + 2 <= n && try_set(sub, &mut s) {
                return true;
            }
        }
        false
    }

    // ----- legal actions -----

    /// Calls `f` for every legal action, ascending.
    #[inline]
    pub fn for_each_legal(&self, mut f: impl FnMut(Action)) {
        if self.terminal {
            return;
        }
        let p = self.to_move as usize;
        if self.phase == PHASE_DRAW {
            if self.stock_len > 0 {
                f(A_DRAW);
            }
            if self.take_ok() {
                f(A_TAKE);
            }
            return;
        }
        if self.drawn >= 0 && self.stock_len > 0 && self.opts().redraw {
            f(A_REDRAW);
        }
        let rack = self.racks[p];
        let types = rack.types();
        if self.cancels < self.opts().max_cancels {
            let lo = if self.buffer_max < 0 {
                0
            } else {
                self.buffer_max as u32
            };
            let mut m = types & (u64::MAX << lo);
            while m != 0 {
                f(A_ADD + m.trailing_zeros());
                m &= m - 1;
            }
        }
        if self.buffer_len > 0 {
            if self.commit_ok() {
                f(A_MELD);
            }
            f(A_CANCEL);
            return;
        }
        let mut m = types;
        while m != 0 {
            let x = m.trailing_zeros();
            if self.discard_ok(x as TileType) {
                f(A_DISCARD + x);
            }
            m &= m - 1;
        }
        let t = team(p);
        for slot in 0..self.n_melds[t] as usize {
            let mut m = self.melds[t][slot].accept & types;
            while m != 0 {
                let x = m.trailing_zeros();
                if self.extend_ok(slot, x as TileType) {
                    f(A_EXTEND + 53 * slot as u32 + x);
                }
                m &= m - 1;
            }
        }
    }

    pub fn legal_actions_vec(&self) -> Vec<Action> {
        let mut v = Vec::with_capacity(64);
        self.for_each_legal(|a| v.push(a));
        v
    }

    pub fn is_legal(&self, a: Action) -> bool {
        if self.terminal || a >= NUM_ACTIONS {
            return false;
        }
        let p = self.to_move as usize;
        if self.phase == PHASE_DRAW {
            return match a {
                A_DRAW => self.stock_len > 0,
                A_TAKE => self.take_ok(),
                _ => false,
            };
        }
        let rack = self.racks[p];
        match a {
            A_REDRAW => self.drawn >= 0 && self.stock_len > 0 && self.opts().redraw,
            x if (A_ADD..A_MELD).contains(&x) => {
                let t = (x - A_ADD) as TileType;
                rack.contains(t)
                    && t as i8 >= self.buffer_max
                    && self.cancels < self.opts().max_cancels
            }
            A_MELD => self.buffer_len > 0 && self.commit_ok(),
            A_CANCEL => self.buffer_len > 0,
            x if (A_DISCARD..A_EXTEND).contains(&x) => {
                let t = (x - A_DISCARD) as TileType;
                self.buffer_len == 0 && rack.contains(t) && self.discard_ok(t)
            }
            _ => {
                let slot = ((a - A_EXTEND) / 53) as usize;
                let t = ((a - A_EXTEND) % 53) as TileType;
                let tm = team(p);
                self.buffer_len == 0
                    && slot < self.n_melds[tm] as usize
                    && rack.contains(t)
                    && self.melds[tm][slot].accept & (1 << t) != 0
                    && self.extend_ok(slot, t)
            }
        }
    }

    pub fn apply(&mut self, a: Action) -> Result<()> {
        if self.terminal {
            return Err(GameError::IllegalAction(format!(
                "action {a} is not legal: the match is over"
            )));
        }
        if a >= NUM_ACTIONS {
            return Err(GameError::IllegalAction(format!(
                "action id {a} is out of range: expected 0..{}",
                NUM_ACTIONS - 1
            )));
        }
        if !self.is_legal(a) {
            let text = action_to_string(a).unwrap_or_default();
            let legal: Vec<String> = self
                .legal_actions_vec()
                .iter()
                .take(12)
                .map(|&x| action_to_string(x).unwrap_or_default())
                .collect();
            return Err(GameError::IllegalAction(format!(
                "action {a} ({text}) is not legal now: seat {} in the {} phase may play e.g. {}",
                self.to_move,
                if self.phase == PHASE_DRAW {
                    "draw"
                } else {
                    "meld"
                },
                legal.join(", ")
            )));
        }
        self.apply_unchecked(a);
        Ok(())
    }

    pub fn apply_str(&mut self, text: &str) -> Result<()> {
        let a = string_to_action(text)?;
        self.apply(a)
    }

    // ----- transitions -----

    fn draw_stock(&mut self) -> TileType {
        self.stock_len -= 1;
        let x = self.stock[self.stock_len as usize];
        let p = self.to_move as usize;
        self.racks[p].add(x);
        self.rack_len[p] += 1;
        x
    }

    fn do_take(&mut self) {
        let p = self.to_move as usize;
        let top = self.pozo[self.pozo_len as usize - 1];
        if self.opts().no_rediscard && self.pozo_len == 1 {
            self.no_discard = top as i8;
        }
        if self.opts().must_use_top {
            self.must_use = top as i8;
        }
        self.racks[p] = self.racks[p].plus(self.pozo_counts);
        self.rack_len[p] += self.pozo_len;
        self.pozo_len = 0;
        self.pozo_counts = TileCounts::EMPTY;
        self.phase = PHASE_MELD;
    }

    fn take_muerto(&mut self, p: usize) {
        let i = self.muerto_first as usize;
        let c = TileCounts::from_slice(&self.muertos[i][..self.muerto_len[i] as usize]);
        self.racks[p] = self.racks[p].plus(c);
        self.rack_len[p] += self.muerto_len[i];
        self.muerto_len[i] = 0;
        self.muerto_first += 1;
    }

    fn recount(&mut self, t: usize) {
        let min = self.opts().meld.canasta_min;
        let (mut c, mut pc) = (0, 0);
        for m in self.team_melds(t) {
            if m.is_canasta(min) {
                c += 1;
                if m.pure {
                    pc += 1;
                }
            }
        }
        self.canastas[t] = c;
        self.pure_canastas[t] = pc;
    }

    /// After `meld` / `extend`: close or direct muerto when the rack is empty.
    fn after_meld(&mut self, p: usize) {
        if self.rack_len[p] != 0 {
            return;
        }
        let t = team(p);
        if self.taken(t) {
            self.end_hand(Some(t));
        } else {
            self.take_muerto(p);
            self.muerto_status[t] = 1;
        }
    }

    pub fn apply_unchecked(&mut self, a: Action) {
        self.history.push(a as u16);
        let p = self.to_move as usize;
        let t = team(p);
        if self.phase == PHASE_DRAW {
            if self.muerto_unplayed[t] == p as i8 {
                self.muerto_unplayed[t] = -1;
            }
            if a == A_DRAW {
                let x = self.draw_stock();
                if self.turns == 0 {
                    self.drawn = x as i8;
                }
                self.phase = PHASE_MELD;
            } else {
                self.do_take();
            }
            return;
        }
        if a == A_REDRAW {
            let x = self.drawn as TileType;
            self.racks[p].remove(x);
            self.rack_len[p] -= 1;
            self.pozo[self.pozo_len as usize] = x;
            self.pozo_len += 1;
            self.pozo_counts.add(x);
            self.draw_stock();
            self.drawn = -1;
            return;
        }
        self.drawn = -1;
        match a {
            x if x < A_MELD => {
                let x = (x - A_ADD) as TileType;
                self.racks[p].remove(x);
                self.rack_len[p] -= 1;
                self.buffer.add(x);
                self.buffer_len += 1;
                self.buffer_max = x as i8;
            }
            A_MELD => {
                let r = self.opts().meld;
                if let Some((kind, fit)) = rules::classify(self.buffer, &r) {
                    if self.must_use >= 0 && self.buffer.contains(self.must_use as u8) {
                        self.must_use = -1;
                    }
                    let slot = self.n_melds[t] as usize;
                    self.melds[t][slot] = Meld::build(self.buffer, kind, fit, &r);
                    self.n_melds[t] += 1;
                    self.recount(t);
                }
                self.buffer = TileCounts::EMPTY;
                self.buffer_len = 0;
                self.buffer_max = -1;
                self.after_meld(p);
            }
            A_CANCEL => {
                self.racks[p] = self.racks[p].plus(self.buffer);
                self.rack_len[p] += self.buffer_len;
                self.buffer = TileCounts::EMPTY;
                self.buffer_len = 0;
                self.buffer_max = -1;
                self.cancels += 1;
                if self.cancels >= self.opts().max_cancels {
                    self.must_use = -1;
                }
            }
            x if x < A_EXTEND => {
                let x = (x - A_DISCARD) as TileType;
                self.racks[p].remove(x);
                self.rack_len[p] -= 1;
                self.pozo[self.pozo_len as usize] = x;
                self.pozo_len += 1;
                self.pozo_counts.add(x);
                if self.rack_len[p] == 0 {
                    if self.taken(t) {
                        self.end_hand(Some(t));
                        return;
                    }
                    self.take_muerto(p);
                    self.muerto_status[t] = 2;
                    self.muerto_unplayed[t] = p as i8;
                }
                self.turn_end();
            }
            _ => {
                let slot = ((a - A_EXTEND) / 53) as usize;
                let x = ((a - A_EXTEND) % 53) as TileType;
                let r = self.opts().meld;
                self.racks[p].remove(x);
                self.rack_len[p] -= 1;
                let m = self.melds[t][slot];
                let tiles = m.tiles.with(x);
                if let Some(fit) = fit_kind(m.kind, tiles, m.len as u32 + 1, &r) {
                    self.melds[t][slot] = Meld::build(tiles, m.kind, fit, &r);
                }
                if self.must_use == x as i8 {
                    self.must_use = -1;
                }
                self.recount(t);
                self.after_meld(p);
            }
        }
    }

    fn turn_end(&mut self) {
        self.turns += 1;
        self.cancels = 0;
        self.must_use = -1;
        self.no_discard = -1;
        self.drawn = -1;
        if self.stock_len == 0 {
            if self.opts().muerto_to_stock && self.muertos_left() > 0 {
                let i = self.muerto_first as usize;
                let len = self.muerto_len[i] as usize;
                for k in 0..len {
                    self.stock[k] = self.muertos[i][len - 1 - k];
                }
                self.stock_len = len as u8;
                self.muerto_len[i] = 0;
                self.muerto_first += 1;
            } else {
                self.end_hand(None);
                return;
            }
        }
        if self.turns >= self.opts().max_turns {
            self.end_hand(None);
            return;
        }
        self.to_move = ((self.to_move as usize + 1) % self.n()) as u8;
        self.phase = PHASE_DRAW;
    }

    /// Hand score of team `t` (docs/burako_engine.md §9).
    pub fn hand_score(&self, t: usize, closer: Option<usize>) -> i64 {
        let o = self.opts();
        let r = &o.meld;
        let mut tally = rules::TeamTally {
            meld_points: 0,
            pure_canastas: 0,
            impure_canastas: 0,
        };
        for m in self.team_melds(t) {
            tally.meld_points += m.value as i64;
            if m.is_canasta(r.canasta_min) {
                if m.pure {
                    tally.pure_canastas += 1;
                } else {
                    tally.impure_canastas += 1;
                }
            }
        }
        let unplayed = self.muerto_unplayed[t];
        let skip = if o.unplayed_not_taken && unplayed >= 0 {
            unplayed as usize
        } else {
            usize::MAX
        };
        let mut rack_points = 0i64;
        for s in (0..self.n()).filter(|&s| team(s) == t && s != skip) {
            rack_points += rules::counts_value(self.racks[s], r) as i64;
            if s == self.to_move as usize {
                rack_points += rules::counts_value(self.buffer, r) as i64;
            }
        }
        let muerto = self.taken(t) && skip == usize::MAX;
        rules::team_score(
            &tally,
            rack_points,
            closer == Some(t),
            muerto,
            o.no_canasta_negative,
        )
    }

    fn end_hand(&mut self, closer: Option<usize>) {
        let sc = [self.hand_score(0, closer), self.hand_score(1, closer)];
        self.hand_scores.push(sc);
        self.totals[0] += sc[0];
        self.totals[1] += sc[1];
        let cfg = self.cfg.clone();
        let o = &cfg.opts;
        let over = if o.single_hand {
            self.winner = if sc[0] > sc[1] {
                0
            } else if sc[1] > sc[0] {
                1
            } else {
                -1
            };
            true
        } else {
            let tt = self.totals;
            if (tt[0] >= o.target || tt[1] >= o.target) && tt[0] != tt[1] {
                self.winner = if tt[0] > tt[1] { 0 } else { 1 };
                true
            } else if self.hand >= o.max_hands {
                self.winner = if tt[0] > tt[1] {
                    0
                } else if tt[1] > tt[0] {
                    1
                } else {
                    -1
                };
                true
            } else {
                false
            }
        };
        if over {
            self.terminal = true;
            return;
        }
        let n = self.n();
        let next = (self.mano as usize + 1) % n;
        self.mano = if o.loser_starts && sc[0] != sc[1] {
            let loser = if sc[0] < sc[1] { 0 } else { 1 };
            (0..n)
                .map(|k| (next + k) % n)
                .find(|&s| team(s) == loser)
                .unwrap_or(next) as u8
        } else {
            next as u8
        };
        self.hand += 1;
        self.deal(None);
    }

    // ----- observation -----

    pub fn write_observation(&self, p: usize, out: &mut [f32]) -> Result<()> {
        let n = self.n();
        if p >= n {
            return Err(GameError::InvalidPlayer(format!(
                "seat {p} is not a seat of this game: expected 0..{}",
                n - 1
            )));
        }
        if out.len() != self.cfg.obs_size {
            return Err(GameError::InvalidState(format!(
                "observation buffer has {} values, expected {}",
                out.len(),
                self.cfg.obs_size
            )));
        }
        out.iter_mut().for_each(|x| *x = 0.0);
        let counts = |out: &mut [f32], c: TileCounts| c.for_each(|t| out[t as usize] += 1.0);
        counts(&mut out[0..53], self.racks[p]);
        if self.to_move as usize == p && !self.terminal {
            counts(&mut out[53..106], self.buffer);
        }
        let my = team(p);
        let min = self.opts().meld.canasta_min;
        for (bi, tm) in [my, 1 - my].into_iter().enumerate() {
            let base = 106 + bi * M_MAX * 57;
            for (k, m) in self.team_melds(tm).iter().enumerate() {
                let o = base + k * 57;
                out[o] = (m.kind == Kind::Run) as u8 as f32;
                out[o + 1] = (m.kind == Kind::Pierna) as u8 as f32;
                counts(&mut out[o + 2..o + 55], m.tiles);
                out[o + 55] = m.pure as u8 as f32;
                out[o + 56] = m.is_canasta(min) as u8 as f32;
            }
        }
        if !self.opts().pozo_top_only {
            counts(&mut out[4096..4149], self.pozo_counts);
        }
        if self.pozo_len > 0 {
            out[4149 + self.pozo[self.pozo_len as usize - 1] as usize] = 1.0;
        }
        out[4202] = self.pozo_len as f32;
        out[4203] = self.stock_len as f32;
        for j in 0..n {
            let s = (p + j) % n;
            let mut size = self.rack_len[s] as u32;
            if s == self.to_move as usize {
                size += self.buffer_len as u32;
            }
            out[4204 + j] = size as f32;
        }
        let b = 4204 + n;
        for (bi, tm) in [my, 1 - my].into_iter().enumerate() {
            out[b + 3 * bi + self.muerto_status[tm] as usize] = 1.0;
        }
        out[b + 6] = (self.turns == 0) as u8 as f32;
        out[b + 7] =
            (!self.terminal && self.phase == PHASE_MELD && self.is_legal(A_REDRAW)) as u8 as f32;
        out[b + 8] = self.cancels as f32;
        out[b + 9] = self.turns as f32;
        out[b + 10] = self.hand_scores.len() as f32;
        out[b + 11] = self.totals[my] as f32;
        out[b + 12] = self.totals[1 - my] as f32;
        out[b + 13 + (self.mano as usize + n - p) % n] = 1.0;
        Ok(())
    }

    pub fn observation(&self, p: usize) -> Result<Vec<f32>> {
        let mut v = vec![0.0; self.cfg.obs_size];
        self.write_observation(p, &mut v)?;
        Ok(v)
    }

    pub fn to_json(&self) -> String {
        serial::to_json(self)
    }

    pub fn view_json(&self, p: i64) -> Result<String> {
        let n = self.n() as i64;
        if !(0..n).contains(&p) {
            return Err(GameError::InvalidPlayer(format!(
                "seat {p} is not a seat of this game: expected an int in 0..{}",
                n - 1
            )));
        }
        Ok(serial::view_json(self, p as usize))
    }
}

impl State for BurakoState {
    fn num_players(&self) -> usize {
        self.n()
    }
    fn current_player(&self) -> Option<usize> {
        BurakoState::current_player(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| out.push(a));
    }
    fn apply(&mut self, action: Action) -> Result<()> {
        BurakoState::apply(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        BurakoState::apply_unchecked(self, action)
    }
    fn is_terminal(&self) -> bool {
        self.terminal
    }
    fn returns(&self, out: &mut [f64]) {
        self.write_returns(out)
    }
    fn scores(&self, out: &mut [i64]) {
        for (s, x) in out.iter_mut().enumerate() {
            *x = self.totals[team(s)];
        }
    }
    fn deals(&self) -> u32 {
        self.hand
    }
    fn observation(&self, player: usize, out: &mut [f32]) -> Result<()> {
        self.write_observation(player, out)
    }
    fn to_json(&self) -> String {
        serial::to_json(self)
    }
}

fn tiles_text(c: TileCounts) -> String {
    let v: Vec<String> = c.to_vec().into_iter().map(tile_text).collect();
    v.join(" ")
}

impl fmt::Display for BurakoState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "Burako, hand {} (mano seat {}), turn {}, totals {} / {}{}",
            self.hand,
            self.mano,
            self.turns + 1,
            self.totals[0],
            self.totals[1],
            if self.terminal {
                match self.winner {
                    -1 => ", over: a draw".to_string(),
                    w => format!(", over: team {w} wins"),
                }
            } else {
                format!(
                    ", seat {} to {}",
                    self.to_move,
                    if self.phase == PHASE_DRAW {
                        "draw"
                    } else {
                        "meld or discard"
                    }
                )
            }
        );
        for p in 0..self.n() {
            let _ = writeln!(
                s,
                "  seat {p} (team {}) rack: {}",
                team(p),
                tiles_text(self.racks[p])
            );
        }
        if self.buffer_len > 0 {
            let _ = writeln!(
                s,
                "  pending meld of seat {}: {}",
                self.to_move,
                tiles_text(self.buffer)
            );
        }
        let min = self.opts().meld.canasta_min;
        const MUERTO: [&str; 3] = [
            "muerto not taken",
            "muerto taken directly",
            "muerto taken indirectly",
        ];
        for t in 0..2 {
            let _ = writeln!(
                s,
                "  team {t} melds ({}):",
                MUERTO[self.muerto_status[t] as usize]
            );
            for (k, m) in self.team_melds(t).iter().enumerate() {
                let _ = writeln!(
                    s,
                    "    [{k}] {} {}{}: {}",
                    if m.pure { "pure" } else { "impure" },
                    m.kind.as_str(),
                    if m.is_canasta(min) { " CANASTA" } else { "" },
                    tiles_text(m.tiles)
                );
            }
        }
        let pozo: Vec<String> = self.pozo().iter().map(|&t| tile_text(t)).collect();
        let _ = writeln!(s, "  pozo (top last): {}", pozo.join(" "));
        let _ = write!(
            s,
            "  stock: {} tiles, muertos left: {}",
            self.stock_len,
            self.muertos_left()
        );
        f.write_str(&s)
    }
}

pub fn num_types() -> usize {
    NUM_TYPES
}
