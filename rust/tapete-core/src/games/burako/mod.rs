//! Tile Burako engine (docs/burako_engine.md is the contract; docs/rules/burako.md the rules).
//!
//! The files follow the rules: `rules.rs` (meld validity, values, the team score), `melding.rs`
//! (team melds, the going-out invariant, the legal actions of a turn), `pozo.rs` (the deal, the
//! stock, the pozo and the muertos), `scoring.rs` (the end of a hand and of the match),
//! `observe.rs` (views, observations, the picture for people), `serial.rs` (canonical JSON,
//! `setup`), `primitives.rs` (the rule primitives), `notation.rs` and `options.rs`.

mod heuristic;
mod melding;
pub mod notation;
mod observe;
pub mod options;
mod pozo;
mod primitives;
mod resample;
pub mod rules;
mod scoring;
mod serial;
#[cfg(test)]
mod tests;

use std::sync::Arc;

use crate::error::{GameError, Result};
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;
use crate::tiles::{TileCounts, TileType, NUM_TILES};

pub use melding::Meld;
pub use notation::{action_to_string, string_to_action, NUM_ACTIONS};
pub use options::BurakoOptions;
use rules::fit_kind;
pub use rules::Kind;

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
    pub n: usize,
    pub obs_size: usize,
}

/// A resolved Burako game: a factory of states.
#[derive(Clone, Debug)]
pub struct BurakoGame {
    cfg: Arc<Config>,
}

/// A position of a match.
#[derive(Debug)]
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

crate::clone_reusing!(BurakoState; hand_scores, history; racks,
    rack_len,
    buffer,
    buffer_len,
    buffer_max,
    melds,
    n_melds,
    canastas,
    pure_canastas,
    stock,
    stock_len,
    pozo,
    pozo_len,
    pozo_counts,
    muertos,
    muerto_len,
    muerto_first,
    muerto_status,
    muerto_unplayed,
    mano,
    to_move,
    phase,
    drawn,
    must_use,
    no_discard,
    cancels,
    turns,
    hand,
    totals,
    terminal,
    winner,
    rng
);

impl PartialEq for BurakoState {
    fn eq(&self, o: &Self) -> bool {
        self.to_json() == o.to_json()
    }
}

/// Teams: seats 0 and 2 against 1 and 3; with two players each seat is a team.
#[inline]
fn team(seat: usize) -> usize {
    seat & 1
}

impl BurakoGame {
    fn from_typed(opts: BurakoOptions, json: String) -> BurakoGame {
        let n = opts.players;
        BurakoGame {
            cfg: Arc::new(Config {
                obs_size: 4217 + 2 * n,
                opts,
                json,
                n,
            }),
        }
    }

    pub fn options(&self) -> &BurakoOptions {
        &self.cfg.opts
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

    /// A new match: the first mano drawn (unless fixed), the first hand dealt from `deck` (a
    /// permutation of the 106 tiles, top first) or shuffled (docs/burako_engine.md §8).
    fn deal_match(&self, seed: u64, deck: Option<[u8; NUM_TILES]>) -> BurakoState {
        let mut s = self.blank(seed);
        s.choose_first_mano();
        s.deal(deck);
        s
    }
}

impl Game for BurakoGame {
    crate::game_folder!(BurakoState, "burako", BurakoOptions);

    /// Scores are team totals (docs/burako_engine.md §9).
    fn score_sign(&self) -> i64 {
        1
    }
}

crate::config_accessors!(BurakoState, BurakoOptions);

impl BurakoState {
    // ----- accessors -----

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

    // ----- transitions (docs/burako_engine.md §5) -----

    fn step(&mut self, a: Action) {
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
            self.put_on_pozo(p, self.drawn as TileType);
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
                self.put_on_pozo(p, (x - A_DISCARD) as TileType);
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
}

impl State for BurakoState {
    crate::state_folder!(BurakoGame);

    fn current_player(&self) -> Option<usize> {
        (!self.terminal).then_some(self.to_move as usize)
    }
    #[inline]
    fn for_each_legal<F: FnMut(Action)>(&self, f: F) {
        self.legal(f)
    }
    #[inline]
    fn is_legal(&self, action: Action) -> bool {
        self.legal_one(action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        self.step(action)
    }
    fn illegal(&self, a: Action) -> GameError {
        if self.terminal {
            return GameError::IllegalAction(format!("action {a} is not legal: the match is over"));
        }
        let text = action_to_string(a).unwrap_or_default();
        let legal: Vec<String> = self
            .legal_actions()
            .iter()
            .take(12)
            .map(|&x| action_to_string(x).unwrap_or_default())
            .collect();
        GameError::IllegalAction(format!(
            "action {a} ({text}) is not legal now: seat {} in the {} phase may play e.g. {}",
            self.to_move,
            if self.phase == PHASE_DRAW {
                "draw"
            } else {
                "meld"
            },
            legal.join(", ")
        ))
    }
    crate::id_notation!();
    /// Burako has no full-move form (docs/burako_engine.md §4): `play` applies one action given
    /// in its notation.
    fn play(&mut self, text: &str) -> Result<()> {
        self.apply_str(text)
    }
    fn is_terminal(&self) -> bool {
        self.terminal
    }
    fn returns_into(&self, out: &mut [f64]) {
        self.write_returns(out)
    }
    /// Each seat's team's match total.
    fn scores_into(&self, out: &mut [i64]) {
        for (s, x) in out.iter_mut().enumerate() {
            *x = self.totals[team(s)];
        }
    }
    /// Hands started.
    fn deals(&self) -> u32 {
        self.hand
    }
    fn view_json(&self, seat: usize) -> String {
        observe::view_json(self, Some(seat))
    }
    fn public_view_json(&self) -> String {
        observe::view_json(self, None)
    }
    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        self.fill_observation(seat, out)
    }
    fn write_observation_entries(&self, seat: usize, _size: usize, out: &mut crate::obs::Entries) {
        self.fill_observation(seat, out)
    }
}
