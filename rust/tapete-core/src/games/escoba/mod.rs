//! The Escoba / Scopa family engine (docs/escoba_engine.md is the contract).

pub mod builds;
mod checks;
pub mod cicera;
pub mod elimination;
mod fidasse;
pub mod knock;
pub mod maresciallo;
pub mod notation;
pub mod options;
#[cfg(test)]
mod options_tests;
pub mod piles;
#[cfg(test)]
mod play_tests;
mod primitives;
pub mod rules;
pub mod scoring;
mod serial;
#[cfg(test)]
mod tests;
pub mod twins;
mod twins_play;
pub mod values;

use std::fmt::{self, Write as _};
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

use builds::Builds;
use knock::{Matta, DECLINED, KNOCKED, UNDECIDED};
pub use notation::{action_to_string, string_to_action, NUM_ACTIONS};
use notation::{BUILD_ON, CLAIM, DONE, DOUBT, KNOCK, NO_KNOCK, TAKE, TAKE_PILE};
pub use options::EscobaOptions;
use options::{FirstDealer, GameMode, ManoTo, Obligation, TargetMode, WinCheck, MAX_PACK};
use piles::Piles;
use rules::Beside;
use rules::{Outcome, MAX_SIDES};

pub const MAX_SEATS: usize = 6;
/// Capacity of the per-deal sweep list: at most 42 are made in a deal (40 plays + 2 de mano),
/// plus at most `MAX_PRIOR_SWEEPS` given by `setup` / JSON.
const MAX_SWEEPS: usize = 96;
/// The most sweeps `setup`'s `scope` may total (docs/escoba_engine.md §9).
pub const MAX_PRIOR_SWEEPS: usize = 40;
/// The most sweeps a state JSON's `sweeps` may list: those given by `setup` plus 42, more than a
/// deal can make (a sweep leaves an empty table, so at most every other play sweeps, plus at most
/// 3 for the initial table), so that every reachable state round-trips.
pub const MAX_JSON_SWEEPS: usize = MAX_PRIOR_SWEEPS + 42;
/// Match scores and deal points given by `setup` / JSON lie within ±10^15 (docs/escoba_engine.md §8, §9);
/// with options at most 10^9 no sum of awards can then overflow i64.
pub const MAX_SCORE: i64 = 1_000_000_000_000_000;
const KD: u8 = 25;
/// Declarations in one deal: at most a tuzzoli and a knock per hand dealt (12 hands of 3 cards).
pub const MAX_DECLS: usize = 24;

/// Options plus everything derived from them once.
#[derive(Debug)]
pub struct Config {
    pub opts: EscobaOptions,
    pub json: String,
    pub n: usize,
    pub sides: usize,
    pub side_of: [u8; MAX_SEATS],
    pub obs_size: usize,
    /// Knocks are offered (docs/rules/escoba.md §2.7).
    pub knocks: bool,
    /// Hands may be shown (knocks or `last_hand_open`): the view's `shown`, the observation's block.
    pub show: bool,
    /// The matta at its natural value (`Matta::NONE` without one).
    pub matta: Matta,
    /// Cards in the pack (`deck`): 40, 52 for `italian52`, 80 for `double_italian80`.
    pub pack: usize,
    /// The double pack (docs/escoba_engine.md §1a): multisets, kept in the state's `twin` planes.
    pub twins: bool,
}

/// A resolved Escoba game: a factory of states.
#[derive(Clone, Debug)]
pub struct EscobaGame {
    cfg: Arc<Config>,
}

/// A move as written (docs/escoba_engine.md §4) after the played card: nothing, `x` and the
/// items taken ascending (a twin twice), or `on` a build target.
#[derive(PartialEq, Eq)]
enum Written {
    Plain,
    Take(Vec<Card>),
    On(Card),
}

impl Written {
    fn text(&self, c: Card) -> String {
        match self {
            Written::Plain => c.to_string(),
            Written::Take(t) => {
                let items: Vec<String> = t.iter().map(|x| piles::item_text(x.0)).collect();
                format!("{c} x {}", items.join(" "))
            }
            Written::On(t) => format!("{c} on {t}"),
        }
    }
}

/// Summary of the outcomes of the pending (or about to be played) card that extend a selection.
#[derive(Clone, Copy)]
struct Summary {
    count: u32,
    unique: Outcome,
    next: CardSet,
    /// `Some(from_kind)` when the selection itself is a capture of `O`.
    sel_in: Option<bool>,
    trail: bool,
    /// Items the card may be built on (only with an empty selection).
    builds: CardSet,
}

#[derive(Clone, Debug)]
pub struct EscobaState {
    cfg: Arc<Config>,
    hands: [CardSet; MAX_SEATS],
    piles: [CardSet; MAX_SIDES],
    /// Top card of each side's pile, −1 when empty (kept with `steal` only; docs/rules/escoba.md §2.21).
    tops: [i8; MAX_SIDES],
    table: CardSet,
    /// Builds beside the loose `table` (docs/rules/escoba.md §2.20).
    builds: Builds,
    selection: CardSet,
    /// Stock is `stock[stock_pos..pack]`, top first.
    stock: [u8; MAX_PACK],
    stock_pos: u8,
    pending: i8,
    dealer: u8,
    to_move: i8,
    last_capturer: i8,
    winner: i8,
    loser: i8,
    terminal: bool,
    n_sweeps: u8,
    sweeps: [u8; MAX_SWEEPS],
    /// Hand declarations of this deal as (seat, kind, sweeps made before it).
    n_decls: u8,
    decls: [[u8; 3]; MAX_DECLS],
    /// Per seat, the knock decision of the current hand (`knock::UNDECIDED` …).
    knock_state: [u8; MAX_SEATS],
    /// The matta's capture value in this deal.
    matta_value: u8,
    /// Bit i: sweep i of this deal was made by playing `Ks` (maresciallo_penalty).
    ks_sweeps: u128,
    /// Seats still in the match (bit per seat); every seat unless `target_mode=eliminate`.
    in_play: u8,
    /// Fidasse (docs/rules/escoba.md §2.19): the claim card waiting for answers and its claimant, or -1; the
    /// trusted claim cards of this deal per claimant, face down to the others.
    claim: i8,
    claimant: i8,
    claimed: [CardSet; MAX_SEATS],
    /// Per side, its own consecutive plays this deal that were sweeps (kept with
    /// `max_consecutive_sweeps`, docs/rules/escoba.md §1.5).
    streak: [u32; MAX_SIDES],
    /// The second copies of the double pack (docs/escoba_engine.md §1a); empty with one pack.
    twin: twins_play::Planes,
    scores: [i64; MAX_SIDES],
    deal: u32,
    /// Flattened: `sides` points per finished deal.
    deal_points: Vec<i64>,
    rng: SplitMix64,
    history: Vec<u8>,
}

impl EscobaGame {
    /// A game from typed options and their canonical JSON.
    fn from_typed(opts: EscobaOptions, json: String) -> EscobaGame {
        let n = opts.players as usize;
        let sides = opts.num_sides();
        let mut side_of = [0u8; MAX_SEATS];
        for (s, slot) in side_of.iter_mut().enumerate().take(n) {
            *slot = opts.side_of(s) as u8;
        }
        let knocks = knock::enabled(&opts);
        let decl_slots = if opts.tuzzoli || knocks { sides } else { 0 };
        let elim_slots = if opts.target_mode == TargetMode::Eliminate {
            n
        } else {
            0
        };
        let show = knocks || opts.last_hand_open;
        let twins = opts.deck.copies() == 2;
        // the observation has one slot per card of the pack (docs/escoba_engine.md §10)
        let c = opts.deck.slots();
        let knock_slots = if show { c * n + 1 } else { 0 };
        let cfg = Config {
            obs_size: 4 * c
                + 1
                + (c + 2) * sides
                + 4 * n
                + decl_slots
                + elim_slots
                + knock_slots
                + if opts.steal { (c + 1) * sides } else { 0 }
                + if opts.maresciallo_penalty { sides } else { 0 }
                + if opts.fidasse { sides + n } else { 0 }
                + if opts.builds { c } else { 0 }
                + if twins { sides } else { 0 }
                + if opts.max_consecutive_sweeps.is_some() {
                    sides
                } else {
                    0
                },
            pack: opts.deck.len(),
            twins,
            knocks,
            show,
            matta: Matta::natural(&opts),
            opts,
            json,
            n,
            sides,
            side_of,
        };
        EscobaGame { cfg: Arc::new(cfg) }
    }

    pub fn options(&self) -> &EscobaOptions {
        &self.cfg.opts
    }
    pub fn num_sides(&self) -> usize {
        self.cfg.sides
    }
    fn blank(&self, seed: u64) -> EscobaState {
        EscobaState {
            cfg: self.cfg.clone(),
            hands: [CardSet::EMPTY; MAX_SEATS],
            piles: [CardSet::EMPTY; MAX_SIDES],
            tops: [-1; MAX_SIDES],
            table: CardSet::EMPTY,
            builds: Builds::EMPTY,
            selection: CardSet::EMPTY,
            stock: [0; MAX_PACK],
            stock_pos: self.cfg.pack as u8,
            pending: -1,
            dealer: 0,
            to_move: 0,
            last_capturer: -1,
            winner: -1,
            loser: -1,
            terminal: false,
            n_sweeps: 0,
            sweeps: [0; MAX_SWEEPS],
            n_decls: 0,
            decls: [[0; 3]; MAX_DECLS],
            knock_state: [UNDECIDED; MAX_SEATS],
            matta_value: self.cfg.matta.value,
            ks_sweeps: 0,
            in_play: ((1u32 << self.cfg.n) - 1) as u8,
            claim: -1,
            claimant: -1,
            claimed: [CardSet::EMPTY; MAX_SEATS],
            streak: [0; MAX_SIDES],
            twin: twins_play::Planes::default(),
            scores: [0; MAX_SIDES],
            deal: 1,
            deal_points: Vec::new(),
            rng: SplitMix64::new(seed),
            history: Vec::with_capacity(64),
        }
    }

    /// A new match: the first dealer chosen, the first deal from `deck` or shuffled.
    fn deal_match(&self, seed: u64, deck: Option<[u8; MAX_PACK]>) -> EscobaState {
        let mut s = self.blank(seed);
        s.choose_first_dealer();
        s.start_deal(deck);
        s
    }
}

impl Game for EscobaGame {
    crate::game_folder!(EscobaState, "escoba");

    /// The input aliases first (docs/escoba_engine.md §2), then the table's scheme.
    fn from_options(options: &Value) -> Result<Self> {
        Self::from_resolved(Self::spec().resolve(&options::expand_aliases(options)?)?)
    }
    fn from_resolved(mut options: Map<String, Value>) -> Result<Self> {
        let opts = EscobaOptions::from_resolved(&mut options)?;
        Ok(EscobaGame::from_typed(
            opts,
            Value::Object(options).to_string(),
        ))
    }
    /// A new match dealt with the seeded RNG (docs/escoba_engine.md §5).
    fn new_state(&self, seed: u64) -> EscobaState {
        self.deal_match(seed, None)
    }
    /// A new match whose first deal uses `deck` (top first; a permutation of the pack).
    fn new_state_with_deck(&self, seed: u64, deck: &Value) -> Result<EscobaState> {
        Ok(self.deal_match(seed, Some(serial::check_deck(deck, self.cfg.opts.deck)?)))
    }
}

impl EscobaState {
    #[inline]
    fn opts(&self) -> &EscobaOptions {
        &self.cfg.opts
    }
    #[inline]
    fn n(&self) -> usize {
        self.cfg.n
    }
    #[inline]
    fn side(&self, seat: usize) -> usize {
        self.cfg.side_of[seat] as usize
    }

    // ----- accessors -----

    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands.get(seat).copied().unwrap_or_default()
    }
    pub fn table(&self) -> CardSet {
        self.table
    }
    /// The builds on the table, ascending by lowest card (docs/rules/escoba.md §2.20).
    pub fn builds(&self) -> &Builds {
        &self.builds
    }
    /// Every table item: the loose cards and each build's name.
    #[inline]
    fn items(&self) -> CardSet {
        self.table.union(self.builds.names())
    }
    pub fn pile(&self, side: usize) -> CardSet {
        self.piles.get(side).copied().unwrap_or_default()
    }
    /// Top card of a side's pile (kept with `steal` only).
    pub fn pile_top(&self, side: usize) -> Option<Card> {
        self.tops
            .get(side)
            .filter(|&&t| t >= 0)
            .map(|&t| Card(t as u8))
    }
    /// The piles as the capture rules see them from the mover's seat.
    #[inline]
    fn piles_ctx(&self) -> Piles {
        if !self.cfg.opts.steal || self.to_move < 0 {
            return Piles::NONE;
        }
        let seat = self.to_move as usize;
        Piles {
            tops: self.tops,
            side: self.side(seat) as u8,
            next: self.side((seat + 1) % self.n()) as u8,
        }
    }
    /// Stock, top first.
    pub fn stock(&self) -> &[u8] {
        &self.stock[self.stock_pos as usize..self.cfg.pack]
    }
    pub fn pending(&self) -> Option<Card> {
        (self.pending >= 0).then_some(Card(self.pending as u8))
    }
    /// Fidasse: the card of a claim waiting for answers.
    pub fn claim_card(&self) -> Option<Card> {
        (self.claim >= 0).then_some(Card(self.claim as u8))
    }
    pub fn selection(&self) -> CardSet {
        self.selection
    }
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }
    pub fn deal(&self) -> u32 {
        self.deal
    }
    /// Sides of the sweeps of this deal, in the order made.
    pub fn sweeps(&self) -> &[u8] {
        &self.sweeps[..self.n_sweeps as usize]
    }
    /// The matta with its value in this deal.
    #[inline]
    pub fn matta(&self) -> Matta {
        Matta {
            bit: self.cfg.matta.bit,
            value: self.matta_value,
        }
    }
    /// The cards a seat holds face up: a knocked hand (docs/rules/escoba.md §2.7), or any hand of the last hand
    /// (the stock is empty) with `last_hand_open` (docs/rules/escoba.md §2.23).
    pub fn shown(&self, seat: usize) -> CardSet {
        let last_open = self.opts().last_hand_open && self.stock().is_empty();
        if last_open || self.knock_state.get(seat) == Some(&KNOCKED) {
            self.hands[seat]
        } else {
            CardSet::EMPTY
        }
    }
    /// Whether the mover must first choose `KNOCK` or `NO_KNOCK` (docs/rules/escoba.md §2.7): the first turn of
    /// a hand that has something to declare.
    #[inline]
    pub fn knock_turn(&self) -> bool {
        if !self.cfg.knocks || self.terminal || self.pending >= 0 {
            return false;
        }
        let s = self.to_move as usize;
        self.knock_state[s] == UNDECIDED
            && self.hands[s].len() == 3
            && knock::best(self.opts(), self.hands[s]).0 != 0
    }
    /// Indices in `sweeps` of the sweeps made by playing `Ks` (maresciallo_penalty), ascending.
    /// Indices in `sweeps` of the sweeps that took the played card's twin (docs/escoba_engine.md §1a).
    pub fn twin_sweeps(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n_sweeps as usize).filter(|&i| i < 128 && self.twin.sweeps >> i & 1 != 0)
    }
    pub fn ks_sweeps(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n_sweeps as usize).filter(|&i| self.ks_sweeps >> i & 1 != 0)
    }
    /// Sides that made a sweep by playing `Ks` this deal, as a bit mask.
    fn ks_sides(&self) -> u32 {
        self.ks_sweeps().fold(0, |m, i| m | 1 << self.sweeps[i])
    }
    /// Hand declarations of this deal as (seat, kind, sweeps made before it), in order.
    pub fn declarations(&self) -> &[[u8; 3]] {
        &self.decls[..self.n_decls as usize]
    }
    /// Seats still in the match, as a bit per seat.
    pub fn in_play(&self) -> u8 {
        self.in_play
    }
    /// Match totals per side.
    pub fn side_scores(&self) -> &[i64] {
        &self.scores[..self.cfg.sides]
    }
    /// Points per finished deal, per side.
    pub fn deal_points(&self) -> Vec<Vec<i64>> {
        self.deal_points
            .chunks(self.cfg.sides)
            .map(|c| c.to_vec())
            .collect()
    }
    pub fn winner(&self) -> Option<usize> {
        (self.winner >= 0).then_some(self.winner as usize)
    }
    pub fn loser(&self) -> Option<usize> {
        (self.loser >= 0).then_some(self.loser as usize)
    }
    pub fn last_capturer(&self) -> Option<usize> {
        (self.last_capturer >= 0).then_some(self.last_capturer as usize)
    }
    pub fn rng_state(&self) -> u64 {
        self.rng.state
    }
    fn write_returns(&self, out: &mut [f64]) {
        let n = self.n();
        out.iter_mut().for_each(|x| *x = 0.0);
        let (side, inside, outside) = if self.winner >= 0 {
            (self.winner as usize, 1.0, -1.0)
        } else if self.loser >= 0 {
            (self.loser as usize, -1.0, 1.0)
        } else {
            return;
        };
        let w = (0..n).filter(|&s| self.side(s) == side).count();
        if w == 0 || w >= n {
            return;
        }
        let share = outside * w as f64 / (n - w) as f64;
        for (s, x) in out.iter_mut().enumerate().take(n) {
            *x = if self.side(s) == side { inside } else { share };
        }
    }

    /// The first play of the deal (docs/escoba_engine.md §3).
    fn is_first_play(&self) -> bool {
        let (itc, cph) = self.deal_shape();
        let k = self.in_play.count_ones() as usize;
        self.pending < 0
            && self.stock().len() == self.cfg.pack.saturating_sub(itc + k * cph)
            && (0..self.n()).all(|s| self.in_play >> s & 1 == 0 || self.hand_len(s) == cph as u32)
    }

    /// `(initial_table_cards, cards_per_hand)` of this deal: the options' with every seat in
    /// play, else the elimination shape for the players left (docs/rules/escoba.md §2.11).
    fn deal_shape(&self) -> (usize, usize) {
        let o = self.opts();
        let k = self.in_play.count_ones() as usize;
        if k < self.n() {
            let (t, c) = elimination::deal_shape(o.elimination_deal, k as u8);
            (t as usize, c as usize)
        } else {
            (o.initial_table_cards as usize, o.cards_per_hand as usize)
        }
    }

    // ----- dealing -----

    fn choose_first_dealer(&mut self) {
        let n = self.n() as u64;
        self.dealer = match self.opts().first_dealer {
            FirstDealer::Random => self.rng.below(n) as u8,
            FirstDealer::DealUntilKd => {
                let len = self.cfg.pack;
                let mut p = self.opts().deck.ids();
                self.rng.shuffle(&mut p[..len]);
                let i = p[..len].iter().position(|&c| c == KD).unwrap_or(0);
                (i as u64 % n) as u8
            }
        };
    }

    /// Steps 2–5 of docs/escoba_engine.md §5 with the current dealer.
    fn start_deal(&mut self, deck: Option<[u8; MAX_PACK]>) {
        let len = self.cfg.pack;
        let n = self.n();
        let (itc, cph) = self.deal_shape();
        let d = self.dealer as usize;
        let in_play = self.in_play;
        // docs/rules/escoba.md §2.11: under elimination the void check reads the first 4 table cards only
        let void_cards = if self.opts().target_mode == TargetMode::Eliminate {
            itc.min(4)
        } else {
            itc
        };
        let mut given = deck;
        loop {
            let pack = match given.take() {
                Some(p) => p,
                None => {
                    let mut p = self.opts().deck.ids();
                    self.rng.shuffle(&mut p[..len]);
                    p
                }
            };
            self.hands = [CardSet::EMPTY; MAX_SEATS];
            self.table = CardSet::EMPTY;
            self.twin = twins_play::Planes::default();
            self.builds.clear();
            let mut i = 0usize;
            for _ in 0..cph {
                for seat in elimination::seats_after(in_play, d, n) {
                    if i < len {
                        self.give_card(seat, Card(pack[i]));
                        i += 1;
                    }
                }
            }
            let first_table = i;
            for _ in 0..itc {
                if i < len {
                    let c = Card(pack[i]);
                    if self.table.contains(c) {
                        self.twin.table.insert(c);
                    }
                    self.table.insert(c);
                    i += 1;
                }
            }
            self.stock = pack;
            self.stock_pos = i as u8;
            let checked: CardSet = pack[first_table..(first_table + void_cards).min(len)]
                .iter()
                .map(|&c| Card(c))
                .collect();
            let o = self.opts();
            let void = o
                .void_deal_min_kings
                .is_some_and(|k| checked.inter(rules::KINGS).len() >= k as u32)
                || o.void_deal_min_aces
                    .is_some_and(|k| checked.inter(rules::ACES).len() >= k as u32);
            if !void {
                break;
            }
        }
        self.piles = [CardSet::EMPTY; MAX_SIDES];
        self.tops = [-1; MAX_SIDES];
        self.claimed = [CardSet::EMPTY; MAX_SEATS];
        self.streak = [0; MAX_SIDES];
        self.n_sweeps = 0;
        self.n_decls = 0;
        self.knock_state = [UNDECIDED; MAX_SEATS];
        self.matta_value = self.cfg.matta.value;
        self.ks_sweeps = 0;
        self.last_capturer = -1;
        self.pending = -1;
        self.selection = CardSet::EMPTY;
        let k = rules::escoba_de_mano_sweeps(self.opts(), self.table);
        if k > 0 {
            let seat = match self.opts().escoba_de_mano_to {
                ManoTo::Dealer => d,
                ManoTo::Eldest => elimination::next_in(in_play, d, n),
            };
            let side = self.side(seat);
            self.piles[side] = self.piles[side].union(self.table);
            self.table = CardSet::EMPTY;
            self.last_capturer = side as i8;
            for _ in 0..k {
                self.push_sweep(side);
            }
        }
        self.to_move = elimination::next_in(in_play, d, n) as i8;
        self.declare_hands();
    }

    /// The mandatory tuzzoli of every hand just dealt, in play order (docs/escoba_engine.md §5).
    fn declare_hands(&mut self) {
        if !self.opts().tuzzoli {
            return;
        }
        let n = self.n();
        let d = self.dealer as usize;
        let hybrids = self.opts().tuzzoli_hybrids;
        for k in 1..=n {
            let seat = (d + k) % n;
            let kind = rules::tuzzoli(self.hands[seat], hybrids);
            if kind > 0 && (self.n_decls as usize) < MAX_DECLS {
                self.decls[self.n_decls as usize] = [seat as u8, kind, self.n_sweeps];
                self.n_decls += 1;
            }
        }
    }

    /// A play of `side` with `c` made a sweep that scores (docs/rules/escoba.md §1.5); `twin`: it
    /// took `c`'s twin. Beyond `max_consecutive_sweeps` in a row it scores nothing.
    pub(super) fn sweep(&mut self, side: usize, c: Card, twin: bool) {
        let o = &self.cfg.opts;
        if let Some(cap) = o.max_consecutive_sweeps {
            self.streak[side] += 1;
            if self.streak[side] > cap {
                return;
            }
        }
        if (self.n_sweeps as usize) < MAX_SWEEPS {
            let bit = 1u128 << self.n_sweeps;
            if maresciallo::is_ks_sweep(o, c) {
                self.ks_sweeps |= bit;
            }
            if twin {
                self.twin.sweeps |= bit;
            }
        }
        self.push_sweep(side);
    }

    /// A play of `side` that made no sweep that scores: its streak starts again.
    #[inline]
    pub(super) fn no_sweep(&mut self, side: usize) {
        if self.cfg.opts.max_consecutive_sweeps.is_some() {
            self.streak[side] = 0;
        }
    }

    /// The last play of the deal was just made: no stock, every hand empty.
    #[inline]
    fn deal_played_out(&self) -> bool {
        self.stock_pos as usize == self.cfg.pack
            && self.hands[..self.n()].iter().all(|h| h.is_empty())
    }

    #[inline]
    fn push_sweep(&mut self, side: usize) {
        if (self.n_sweeps as usize) < MAX_SWEEPS {
            self.sweeps[self.n_sweeps as usize] = side as u8;
            self.n_sweeps += 1;
        }
    }

    // ----- the step protocol -----

    /// Outcomes of `p` from `hand` (including `p`) extending `sel`.
    #[inline(always)]
    fn summarize(&self, p: Card, hand: CardSet, first_play: bool, sel: CardSet) -> Summary {
        let mut sum = Summary {
            count: 0,
            unique: Outcome::Trail,
            next: CardSet::EMPTY,
            sel_in: None,
            trail: false,
            builds: CardSet::EMPTY,
        };
        // bits at or below max(sel): an extension may only add cards above it
        let low = match sel.last() {
            Some(c) => u64::MAX >> (63 - c.0),
            None => 0,
        };
        self.for_each_outcome(p, hand, first_play, |x| match x {
            Outcome::Trail | Outcome::SelfCapture => {
                if sel.is_empty() {
                    sum.count += 1;
                    sum.unique = x;
                    sum.trail |= x == Outcome::Trail;
                }
            }
            Outcome::Build { on } => {
                if sel.is_empty() {
                    sum.count += 1;
                    sum.unique = x;
                    sum.builds.insert(on);
                }
            }
            Outcome::Capture { cards, from_kind } => {
                if sel.is_subset(cards) && cards.minus(sel).0 & low == 0 {
                    sum.count += 1;
                    sum.unique = x;
                    match cards.minus(sel).first() {
                        Some(t) => sum.next.insert(t),
                        None => sum.sel_in = Some(from_kind),
                    }
                }
            }
        });
        sum
    }

    /// `O(p)` (docs/escoba_engine.md §3) with the deal's matta value, the piles (docs/rules/escoba.md §2.7, §2.21) and the
    /// fidasse sweep filter (docs/rules/escoba.md §2.19).
    #[inline(always)]
    fn for_each_outcome<F: FnMut(Outcome)>(&self, p: Card, hand: CardSet, first: bool, mut f: F) {
        let (o, mv, ctx) = (self.opts(), self.matta(), self.piles_ctx());
        let beside = self.beside(&ctx);
        match self.sweep_filter() {
            None => rules::for_each_outcome_in(o, mv, p, self.table, beside, hand, first, f),
            Some(t) => rules::for_each_outcome_in(o, mv, p, self.table, beside, hand, first, |x| {
                if !matches!(x, Outcome::Capture { cards, .. } if cards == t) {
                    f(x)
                }
            }),
        }
    }

    /// The capture items beside the loose table: the builds, and the piles of `ctx`.
    #[inline]
    fn beside<'a>(&'a self, ctx: &'a Piles) -> Beside<'a> {
        Beside {
            builds: &self.builds,
            piles: ctx,
        }
    }

    fn pending_summary(&self, sel: CardSet) -> Summary {
        let p = Card(self.pending as u8);
        let hand = self.hands[self.to_move as usize].union(CardSet::single(p));
        self.summarize(p, hand, false, sel)
    }

    /// `O(c) ≠ ∅` for `c` in the mover's hand; `playable` = the hand without the Aces that
    /// `forbid_ace_first_play` forbids; `any_captures` = some card of `playable` captures (only
    /// consulted under `any_card`, docs/escoba_engine.md §3).
    #[inline]
    fn play_allowed(&self, c: Card, playable: CardSet, any_captures: bool) -> bool {
        if !playable.contains(c) {
            return false;
        }
        let o = self.opts();
        if o.fidasse && self.sweep_filter().is_some() {
            // the sweep is no outcome of a play: a card that only sweeps is not playable
            let first = o.forbid_ace_first_play && self.is_first_play();
            let mut some = false;
            self.for_each_outcome(c, self.hands[self.to_move as usize], first, |_| some = true);
            if !some {
                return false;
            }
        }
        if o.capture_obligation != Obligation::AnyCard {
            return true;
        }
        if o.ace_takes_all
            && self.matta().val(c) == 1
            && self.table.is_empty()
            && o.ace_on_empty_table == options::AceEmpty::SelfCapture
        {
            return true;
        }
        let ctx = self.piles_ctx();
        !any_captures
            || rules::has_capture_in(o, self.matta(), c, self.table, self.beside(&ctx))
            || (o.builds && {
                // a build is no capture: the obligation leaves it open (docs/rules/escoba.md §2.20)
                let mut any = false;
                let hand = self.hands[self.to_move as usize];
                builds::for_each_build(o, c, self.table, &self.builds, hand, false, |_| any = true);
                any
            })
    }

    /// The mover's playable cards and whether one of them captures (under `any_card` only).
    #[inline]
    fn playable_and_any(&self, hand: CardSet) -> (CardSet, bool) {
        let o = self.opts();
        let first = o.forbid_ace_first_play && self.is_first_play();
        let playable = rules::playable_cards(o, hand, first);
        let ctx = self.piles_ctx();
        let any = o.capture_obligation == Obligation::AnyCard
            && playable
                .iter()
                .any(|q| rules::has_capture_in(o, self.matta(), q, self.table, self.beside(&ctx)));
        (playable, any)
    }

    fn done_allowed(&self, sum: &Summary) -> bool {
        if self.selection.is_empty() {
            sum.trail
        } else {
            sum.sel_in.is_some()
        }
    }

    /// The highest action id this game can make legal (`TAKE_PILE`s only with `steal`).
    #[inline]
    pub(crate) fn max_action(&self) -> Action {
        if self.cfg.opts.builds {
            BUILD_ON + 51
        } else if self.cfg.opts.steal {
            TAKE_PILE + MAX_SIDES as Action - 1
        } else {
            DONE
        }
    }

    /// `KNOCK` records the hand's best declaration, fixes the matta's value if the hand holds it
    /// and shows the hand; `NO_KNOCK` only records the decision. The same seat then plays.
    fn decide_knock(&mut self, knock: bool) {
        let seat = self.to_move as usize;
        if !knock {
            self.knock_state[seat] = DECLINED;
            return;
        }
        let (kind, value) = knock::best(self.opts(), self.hands[seat]);
        if kind != 0 && (self.n_decls as usize) < MAX_DECLS {
            self.decls[self.n_decls as usize] = [seat as u8, kind, self.n_sweeps];
            self.n_decls += 1;
        }
        if self.matta().in_set(self.hands[seat]) {
            self.matta_value = value;
        }
        self.knock_state[seat] = KNOCKED;
    }

    /// Applies an outcome of playing `c` (already out of the hand), then passes the turn.
    fn resolve(&mut self, c: Card, out: Outcome) {
        let seat = self.to_move as usize;
        let side = self.side(seat);
        let before = self.items();
        // a sweep that scores, before max_consecutive_sweeps
        let mut swept = false;
        match out {
            Outcome::Trail => self.table.insert(c),
            Outcome::SelfCapture => {
                self.piles[side].insert(c);
                self.last_capturer = side as i8;
                // docs/rules/escoba.md §2.1: never on the deal's last play
                swept = self.cfg.opts.ace_self_capture_is_scopa && !self.deal_played_out();
            }
            Outcome::Build { on } => self.builds.build(&mut self.table, c, on),
            Outcome::Capture { cards, from_kind } => {
                // pile items (docs/rules/escoba.md §2.21): the whole pile moves under the played card
                let mut stolen = cards.0 >> piles::PILE_BIT;
                while stolen != 0 {
                    let victim = stolen.trailing_zeros() as usize;
                    self.piles[side] = self.piles[side].union(self.piles[victim]);
                    self.piles[victim] = CardSet::EMPTY;
                    self.tops[victim] = -1;
                    stolen &= stolen - 1;
                }
                let cards = CardSet(cards.0 & piles::CARD_BITS);
                if self.cfg.opts.steal {
                    self.tops[side] = c.0 as i8;
                }
                // build items (docs/rules/escoba.md §2.20): a build is named by its lowest card
                let loose = cards.inter(self.table);
                let built = self.builds.take(cards.minus(loose));
                self.table = self.table.minus(loose);
                self.piles[side] = self.piles[side]
                    .union(loose)
                    .union(built)
                    .union(CardSet::single(c));
                self.last_capturer = side as i8;
                if cards == before && !before.is_empty() {
                    let o = &self.cfg.opts;
                    swept = (from_kind || o.ace_takes_all_is_scopa)
                        && (o.scopa_on_last_play || !self.deal_played_out());
                }
            }
        }
        if swept {
            self.sweep(side, c, false);
        } else {
            self.no_sweep(side);
        }
        self.pending = -1;
        self.selection = CardSet::EMPTY;
        self.advance();
    }

    fn advance(&mut self) {
        let n = self.n();
        if self.hands[..n].iter().all(|h| h.is_empty()) {
            if (self.stock_pos as usize) < self.cfg.pack {
                let d = self.dealer as usize;
                let in_play = self.in_play;
                'deal: for _ in 0..self.deal_shape().1 {
                    for seat in elimination::seats_after(in_play, d, n) {
                        if self.stock_pos as usize >= self.cfg.pack {
                            break 'deal;
                        }
                        self.give_card(seat, Card(self.stock[self.stock_pos as usize]));
                        self.stock_pos += 1;
                    }
                }
                self.to_move = elimination::next_in(in_play, d, n) as i8;
                self.knock_state = [UNDECIDED; MAX_SEATS];
                self.declare_hands();
            } else {
                self.end_deal();
            }
        } else {
            let mut s = (self.to_move as usize + 1) % n;
            while self.hands[s].is_empty() {
                s = (s + 1) % n;
            }
            self.to_move = s as i8;
        }
    }

    /// docs/escoba_engine.md §6: the rest of the table, scoring, and the match decision.
    fn end_deal(&mut self) {
        let cfg = self.cfg.clone();
        let o = &cfg.opts;
        let ns = cfg.sides;
        // the trusted claim cards are shown at the scoring (docs/rules/escoba.md §2.19)
        self.claimed = [CardSet::EMPTY; MAX_SEATS];
        if cfg.twins {
            self.twin_take_rest();
        } else if o.last_capturer_takes_rest && self.last_capturer >= 0 {
            let lc = self.last_capturer as usize;
            self.piles[lc] = self.piles[lc].union(self.table).union(self.builds.cards());
        }
        self.table = CardSet::EMPTY;
        self.builds.clear();
        let before = self.scores;
        let target = o.target;
        // Count-out replay runs alongside the scoring; used only if ≥ 2 sides end at the target.
        let mut run = before;
        let mut count_out: Option<Option<usize>> = None;
        let mut decls = [rules::Decl::default(); MAX_DECLS];
        for (slot, &[seat, kind, at]) in decls.iter_mut().zip(self.declarations()) {
            *slot = rules::Decl {
                side: self.side(seat as usize) as u8,
                points: knock::decl_points(o, kind),
                at,
            };
        }
        let decls = &decls[..self.n_decls as usize];
        let n = cfg.n;
        let sides_in: u32 = (0..n)
            .filter(|&s| self.in_play >> s & 1 != 0)
            .fold(0, |m, s| m | 1 << self.side(s));
        let count = |a: &rules::Points| {
            if count_out.is_some() {
                return;
            }
            let mut cross = 0u32;
            for s in 0..ns {
                run[s] = run[s].saturating_add(a[s]);
                if run[s] >= target {
                    cross |= 1 << s;
                }
            }
            if cross != 0 {
                count_out = Some(if cross.count_ones() == 1 {
                    Some(cross.trailing_zeros() as usize)
                } else {
                    None
                });
            }
        };
        let pts = if sides_in != (1u32 << ns) - 1 {
            self.score_sides_in(sides_in, decls)
        } else if cfg.twins {
            let piles = self.twin_piles();
            twins::score_deal_awards(
                o,
                &piles[..ns],
                self.sweeps(),
                self.ks_sweeps,
                self.twin.sweeps,
                count,
            )
        } else {
            let (ks_at, ks_sides) = (self.ks_sweeps, self.ks_sides());
            rules::score_deal_awards(
                o,
                &self.piles[..ns],
                self.sweeps(),
                decls,
                ks_at,
                ks_sides,
                count,
            )
        };
        for (s, &p) in pts.iter().enumerate().take(ns) {
            self.deal_points.push(p);
            self.scores[s] = self.scores[s].saturating_add(p);
        }
        let scores = &self.scores[..ns];
        let unique_max = |v: &[i64]| -> Option<(usize, i64, i64)> {
            let m = *v.iter().max()?;
            let mut at = v.iter().enumerate().filter(|(_, &x)| x == m);
            let (i, _) = at.next()?;
            if at.next().is_some() {
                return None;
            }
            let second = v
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &x)| x)
                .max();
            Some((i, m, second.unwrap_or(i64::MIN)))
        };
        let mut winner: Option<usize> = None;
        let mut loser: Option<usize> = None;
        let mut in_play = self.in_play;
        if o.napola_all_coins_wins {
            winner = (0..ns).find(|&s| o.deck.suit(1).is_subset(self.piles[s]));
        }
        if winner.is_none() && o.all_swords_wins {
            winner = cicera::all_swords(o, &self.piles[..ns]);
        }
        if winner.is_none() {
            if o.game == GameMode::SingleDeal {
                winner = unique_max(&pts[..ns]).map(|(i, _, _)| i);
                if winner.is_none() && o.frac_single_deal {
                    // docs/rules/escoba.md §2.16: a tie for the most goes to the tied side holding Kd
                    let best = pts[..ns].iter().copied().max().unwrap_or(0);
                    winner = (0..ns).find(|&s| pts[s] == best && self.piles[s].contains(Card(KD)));
                }
            } else if o.target_mode == TargetMode::Eliminate {
                let side_of = cfg.side_of;
                (winner, in_play) =
                    elimination::decide(scores, target, self.in_play, sides_in, |set| {
                        (0..n)
                            .filter(|&s| set >> side_of[s] & 1 != 0)
                            .fold(0u8, |m, s| m | 1 << s)
                    });
            } else if o.target_mode == TargetMode::Lose {
                if let Some((i, m, _)) = unique_max(scores) {
                    if m >= target {
                        loser = Some(i);
                    }
                }
            } else {
                let at = scores.iter().filter(|&&x| x >= target).count();
                if at >= 2 && o.win_check == WinCheck::CountOut {
                    winner = count_out.flatten();
                }
                // several sides crossing at one award fall through to the highest-unique test
                if winner.is_none() {
                    if let Some((i, m, second)) = unique_max(scores) {
                        let margin_ok = o
                            .win_margin
                            .is_none_or(|w| (m as i128 - second as i128) >= w as i128);
                        if m >= target && margin_ok {
                            winner = Some(i);
                        }
                    }
                }
            }
        }
        let drawn = winner.is_none()
            && loser.is_none()
            && o.max_deals.is_some_and(|m| self.deal as i64 >= m);
        if let (Some(w), TargetMode::Eliminate) = (winner, o.target_mode) {
            // whatever decided it, only the winner's seats are left in the match
            in_play = (0..n)
                .filter(|&s| cfg.side_of[s] as usize == w)
                .fold(0u8, |m, s| m | 1 << s);
        }
        self.in_play = in_play;
        if winner.is_some() || loser.is_some() || drawn {
            self.winner = winner.map_or(-1, |w| w as i8);
            self.loser = loser.map_or(-1, |l| l as i8);
            self.terminal = true;
            self.to_move = -1;
            return;
        }
        self.dealer = elimination::next_in(self.in_play, self.dealer as usize, n) as u8;
        self.deal = self.deal.saturating_add(1);
        self.start_deal(None);
    }

    /// Scores the deal among the sides still in play only (docs/rules/escoba.md §2.11: the players out take no
    /// part, so they tie for nothing); points per side, 0 for the others.
    fn score_sides_in(&self, sides_in: u32, decls: &[rules::Decl]) -> rules::Points {
        let ns = self.cfg.sides;
        let mut idx = [0u8; MAX_SIDES];
        let mut piles = Vec::with_capacity(ns);
        for s in (0..ns).filter(|&s| sides_in >> s & 1 != 0) {
            idx[s] = piles.len() as u8;
            piles.push(self.piles[s]);
        }
        let inside = |s: u8| sides_in >> s & 1 != 0;
        let sweeps: Vec<u8> = self
            .sweeps()
            .iter()
            .filter(|&&s| inside(s))
            .map(|&s| idx[s as usize])
            .collect();
        // the Ks sweeps (maresciallo) renumbered like the sweeps kept
        let (mut ks_at, mut ks_sides, mut j) = (0u128, 0u32, 0usize);
        for (i, &s) in self.sweeps().iter().enumerate() {
            if inside(s) {
                if self.ks_sweeps >> i & 1 != 0 {
                    ks_at |= 1u128 << j;
                    ks_sides |= 1 << idx[s as usize];
                }
                j += 1;
            }
        }
        let decls: Vec<rules::Decl> = decls
            .iter()
            .filter(|d| inside(d.side))
            .map(|d| rules::Decl {
                side: idx[d.side as usize],
                ..*d
            })
            .collect();
        let part = rules::score_deal_awards(
            self.opts(),
            &piles,
            &sweeps,
            &decls,
            ks_at,
            ks_sides,
            |_| {},
        );
        let mut pts: rules::Points = [0; MAX_SIDES];
        for s in (0..ns).filter(|&s| sides_in >> s & 1 != 0) {
            pts[s] = part[idx[s] as usize];
        }
        pts
    }

    /// A full move `Qh x Ah 3s 5d` / `Kc` (docs/escoba_engine.md §4), applied atomically.
    fn play_move(&mut self, text: &str) -> Result<()> {
        if text.trim_start().to_ascii_lowercase().starts_with("claim") {
            // a fidasse claim is one action (docs/escoba_engine.md §4)
            return self.apply_str(text);
        }
        let (c, taken, on) = notation::parse_move(text)?;
        if self.terminal {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: the game is over"
            )));
        }
        if self.pending >= 0 {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: {} is already played and waits for take/done",
                Card(self.pending as u8)
            )));
        }
        if self.knock_turn() {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: the hand's declaration comes first (knock or no knock)"
            )));
        }
        if self.claim >= 0 {
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: a claim waits for trust or doubt"
            )));
        }
        // the written move against the outcomes of the one search that `legal_actions` steps
        // through (docs/escoba_engine.md §4): trail/self-capture, a build, or a capture of items
        let mut taken = taken;
        taken.sort_unstable_by_key(|t| t.0);
        let wanted = match on {
            Some(t) => Written::On(t),
            None if taken.is_empty() => Written::Plain,
            None => Written::Take(taken.clone()),
        };
        let hand = self.hands[self.to_move as usize];
        let mut found = false;
        if hand.contains(c) && (c.0 as usize) < 52 && self.is_legal(c.0 as Action) {
            self.for_each_written(c, |w| found |= w == wanted);
        }
        if !found {
            let mut legal: Vec<String> = Vec::new();
            for a in self.legal_actions().into_iter().filter(|&a| a < TAKE) {
                let q = Card(a as u8);
                self.for_each_written(q, |w| legal.push(w.text(q)));
            }
            return Err(GameError::IllegalAction(format!(
                "move {text:?} is not legal: legal moves are {}",
                legal.join(", ")
            )));
        }
        self.apply_unchecked(c.0 as Action);
        if let Some(t) = on {
            if self.pending >= 0 {
                self.apply_unchecked(BUILD_ON + t.0 as Action);
            }
            return Ok(());
        }
        for t in taken {
            if self.pending < 0 {
                break;
            }
            self.apply_unchecked(TAKE + t.0 as Action);
        }
        if self.pending >= 0 && !self.terminal {
            self.apply_unchecked(DONE);
        }
        Ok(())
    }

    /// Each outcome of playing `c` now, as a written move: the capture search of the step
    /// protocol (the multiset one on the double pack), so that `play` accepts what it steps.
    fn for_each_written<F: FnMut(Written)>(&self, c: Card, mut f: F) {
        if self.cfg.twins {
            self.twin_outcomes(c, |out| match out {
                twins::TwinOutcome::Capture { cards, .. } => {
                    f(Written::Take(cards.iter().collect()))
                }
                _ => f(Written::Plain),
            });
            return;
        }
        let hand = self.hands[self.to_move as usize];
        let first = self.opts().forbid_ace_first_play && self.is_first_play();
        self.for_each_outcome(c, hand, first, |out| match out {
            Outcome::Trail | Outcome::SelfCapture => f(Written::Plain),
            Outcome::Capture { cards, .. } => f(Written::Take(cards.iter().collect())),
            Outcome::Build { on } => f(Written::On(on)),
        });
    }

    // ----- observation -----

    /// Writes the observation of `player` (docs/escoba_engine.md §10) into `out`.
    fn fill_observation(&self, p: usize, out: &mut [f32]) {
        let n = self.n();
        let ns = self.cfg.sides;
        // C slots per card block: 10·suit + rank index in a 40-card pack, the id in 52 cards
        let cn = self.opts().deck.slots();
        let slot = |c: Card| -> usize {
            if cn == 52 {
                return c.0 as usize;
            }
            let r = c.0 % 13;
            10 * (c.0 / 13) as usize + if r < 7 { r as usize } else { r as usize - 3 }
        };
        let put = |out: &mut [f32], base: usize, set: CardSet| {
            for c in set {
                out[base + slot(c)] = 1.0;
            }
        };
        put(out, 0, self.hands[p]);
        put(out, cn, self.table);
        let hidden = self.hidden_from(p);
        for s in 0..ns {
            put(out, 2 * cn + cn * s, self.piles[s].minus(hidden));
        }
        let b = 2 * cn + cn * ns;
        for &s in self.sweeps() {
            if (s as usize) < ns {
                out[b + s as usize] += 1.0;
            }
        }
        out[b + ns] = self.stock().len() as f32;
        if self.pending >= 0 {
            out[b + ns + 1 + slot(Card(self.pending as u8))] = 1.0;
        }
        if self.claim >= 0 && self.claimant as usize == p {
            // the claimant knows the card it claimed with: in the pending slots
            out[b + ns + 1 + slot(Card(self.claim as u8))] = 1.0;
        }
        put(
            out,
            b + ns + 1 + cn,
            CardSet(self.selection.0 & piles::CARD_BITS),
        );
        if self.cfg.twins {
            // the double pack (docs/escoba_engine.md §1a): a card slot counts the copies
            let t = &self.twin;
            let planes = [
                (0, t.hands[p]),
                (cn, t.table),
                (b + ns + 1 + cn, t.selection),
            ];
            for (base, set) in planes
                .into_iter()
                .chain((0..ns).map(|s| (2 * cn + cn * s, t.piles[s])))
            {
                for c in set {
                    out[base + slot(c)] += 1.0;
                }
            }
        }
        let b = b + ns + 1 + 2 * cn;
        out[b + p] = 1.0;
        out[b + n + self.dealer as usize] = 1.0;
        if !self.terminal {
            out[b + 2 * n + self.to_move as usize] = 1.0;
        }
        for s in 0..n {
            out[b + 3 * n + s] = self.hand_len(s) as f32;
        }
        for s in 0..ns {
            out[b + 4 * n + s] = self.scores[s] as f32;
        }
        let mut b = b + 4 * n + ns;
        if self.opts().tuzzoli || self.cfg.knocks {
            for &[seat, kind, _] in self.declarations() {
                out[b + self.side(seat as usize)] += knock::decl_points(self.opts(), kind) as f32;
            }
            b += ns;
        }
        if self.opts().target_mode == TargetMode::Eliminate {
            for s in 0..n {
                out[b + s] = (self.in_play >> s & 1) as f32;
            }
            b += n;
        }
        if self.cfg.show {
            for s in 0..n {
                put(out, b + cn * s, self.shown(s));
            }
            out[b + cn * n] = if self.cfg.matta.bit != 0 {
                self.matta_value as f32
            } else {
                0.0
            };
            b += cn * n + 1;
        }
        if self.opts().steal {
            // docs/rules/escoba.md §2.21: the top of every pile is public; then the piles selected so far
            for s in 0..ns {
                if let Some(t) = self.pile_top(s) {
                    out[b + cn * s + slot(t)] = 1.0;
                }
            }
            let mut sel = self.selection.0 >> piles::PILE_BIT;
            while sel != 0 {
                out[b + cn * ns + sel.trailing_zeros() as usize] = 1.0;
                sel &= sel - 1;
            }
            b += (cn + 1) * ns;
        }
        if self.opts().maresciallo_penalty {
            for i in self.ks_sweeps() {
                out[b + self.sweeps[i] as usize] += 1.0;
            }
            b += ns;
        }
        if self.cfg.twins {
            // the double pack refuses fidasse and builds, so this block is the last
            for i in self.twin_sweeps() {
                out[b + self.sweeps[i] as usize] += 1.0;
            }
            b += ns;
        }
        if self.opts().fidasse {
            // face-down cards per side as `p` sees them, then the seat of an open claim
            for s in 0..ns {
                out[b + s] = self.piles[s].inter(hidden).len() as f32;
            }
            if self.claim >= 0 {
                out[b + ns + self.claimant as usize] = 1.0;
            }
            b += ns + n;
        }
        if self.opts().builds {
            // each card in a build carries the build's value (public, docs/rules/escoba.md §2.20)
            for &bl in self.builds.as_slice() {
                let v = builds::build_value(bl) as f32;
                for c in bl {
                    out[b + slot(c)] = v;
                }
            }
            b += cn;
        }
        if let Some(cap) = self.opts().max_consecutive_sweeps {
            // each side's streak against the cap, at most 1 (docs/rules/escoba.md §1.5)
            for s in 0..ns {
                out[b + s] = (self.streak[s] as f64 / cap as f64).min(1.0) as f32;
            }
        }
    }
}

impl State for EscobaState {
    type Game = EscobaGame;

    fn game(&self) -> EscobaGame {
        EscobaGame {
            cfg: self.cfg.clone(),
        }
    }
    fn num_players(&self) -> usize {
        self.n()
    }
    #[inline]
    fn current_player(&self) -> Option<usize> {
        if self.terminal {
            None
        } else {
            Some(self.to_move as usize)
        }
    }
    /// Calls `f` with each legal action, ascending.
    #[inline]
    fn for_each_legal<F: FnMut(Action)>(&self, mut f: F) {
        if self.terminal {
            return;
        }
        if self.knock_turn() {
            f(KNOCK);
            f(NO_KNOCK);
            return;
        }
        if self.cfg.twins {
            self.twin_legal(f);
            return;
        }
        let seat = self.to_move as usize;
        if self.claim >= 0 {
            Self::answer_actions().into_iter().for_each(f);
        } else if self.pending < 0 {
            let hand = self.hands[seat];
            let o = self.opts();
            if o.capture_obligation != Obligation::AnyCard && !o.forbid_ace_first_play && !o.fidasse
            {
                hand.iter().for_each(|c| f(c.0 as Action));
                return;
            }
            let (playable, any) = self.playable_and_any(hand);
            for c in playable {
                if self.play_allowed(c, playable, any) {
                    f(c.0 as Action);
                }
            }
            if self.claims_allowed() {
                hand.iter().for_each(|c| f(CLAIM + c.0 as Action));
            }
        } else {
            let sum = self.pending_summary(self.selection);
            // ascending ids: TAKE(card) < DONE < TAKE_PILE (docs/rules/escoba.md §6.2)
            let cards = CardSet(sum.next.0 & piles::CARD_BITS);
            cards.iter().for_each(|t| f(TAKE + t.0 as Action));
            if self.done_allowed(&sum) {
                f(DONE);
            }
            sum.next
                .minus(cards)
                .iter()
                .for_each(|t| f(TAKE + t.0 as Action));
            sum.builds.iter().for_each(|t| f(BUILD_ON + t.0 as Action));
        }
    }

    #[inline]
    fn is_legal(&self, a: Action) -> bool {
        if self.knock_turn() {
            return a == KNOCK || a == NO_KNOCK;
        }
        if self.terminal {
            return false;
        }
        if self.claim >= 0 {
            return Self::is_answer(a);
        }
        if self.cfg.twins {
            return a <= DONE && self.twin_is_legal(a);
        }
        if a >= CLAIM {
            return (CLAIM..CLAIM + 52).contains(&a)
                && self.claims_allowed()
                && self.hands[self.to_move as usize].contains(Card((a - CLAIM) as u8));
        }
        if a > self.max_action() {
            return false;
        }
        if a >= BUILD_ON {
            return self.pending >= 0
                && self.selection.is_empty()
                && self
                    .pending_summary(self.selection)
                    .builds
                    .contains(Card((a - BUILD_ON) as u8));
        }
        let seat = self.to_move as usize;
        if self.pending < 0 {
            if a >= TAKE {
                return false;
            }
            let c = Card(a as u8);
            let hand = self.hands[seat];
            if !hand.contains(c) {
                return false;
            }
            let (playable, any) = self.playable_and_any(hand);
            self.play_allowed(c, playable, any)
        } else if a == DONE {
            self.done_allowed(&self.pending_summary(self.selection))
        } else if a >= TAKE {
            self.pending_summary(self.selection)
                .next
                .contains(Card((a - TAKE) as u8))
        } else {
            false
        }
    }

    fn illegal(&self, a: Action) -> GameError {
        let name = action_to_string(a).unwrap_or_else(|_| a.to_string());
        if self.terminal {
            return GameError::IllegalAction(format!(
                "action {name} is not legal: the game is over"
            ));
        }
        let legal: Vec<String> = self
            .legal_actions()
            .into_iter()
            .filter_map(|x| action_to_string(x).ok())
            .collect();
        GameError::IllegalAction(format!(
            "action {name} is not legal: legal actions are {}",
            legal.join(", ")
        ))
    }

    /// Applies an action known to be legal.
    #[inline]
    fn apply_unchecked(&mut self, a: Action) {
        if !self.terminal && self.cfg.knocks && (a == KNOCK || a == NO_KNOCK) {
            self.history.push(a as u8);
            self.decide_knock(a == KNOCK);
            return;
        }
        let claim_step = self.opts().fidasse && (CLAIM..=DOUBT).contains(&a);
        if self.terminal || (a > self.max_action() && !claim_step) {
            return;
        }
        self.history.push(a as u8);
        if claim_step {
            self.apply_fidasse(a);
            return;
        }
        if self.cfg.twins {
            self.twin_apply(a);
            return;
        }
        let seat = self.to_move as usize;
        if self.pending < 0 {
            let c = Card(a as u8);
            let hand = self.hands[seat];
            let first = self.opts().forbid_ace_first_play && self.is_first_play();
            let sum = self.summarize(c, hand, first, CardSet::EMPTY);
            self.hands[seat].remove(c);
            if sum.count == 1 {
                self.resolve(c, sum.unique);
            } else {
                self.pending = c.0 as i8;
                self.selection = CardSet::EMPTY;
            }
        } else if a >= BUILD_ON {
            let on = Card((a - BUILD_ON) as u8);
            self.resolve(Card(self.pending as u8), Outcome::Build { on });
        } else if a == DONE {
            let c = Card(self.pending as u8);
            let sel = self.selection;
            if sel.is_empty() {
                self.resolve(c, Outcome::Trail);
            } else {
                // from_kind only matters for a sweep
                let from_kind =
                    sel != self.items() || self.pending_summary(sel).sel_in.unwrap_or(true);
                self.resolve(
                    c,
                    Outcome::Capture {
                        cards: sel,
                        from_kind,
                    },
                );
            }
        } else {
            let c = Card(self.pending as u8);
            let sel = self
                .selection
                .union(CardSet::single(Card((a - TAKE) as u8)));
            let sum = self.pending_summary(sel);
            if sum.count == 1 {
                self.resolve(c, sum.unique);
            } else {
                self.selection = sel;
            }
        }
    }

    fn action_to_string(&self, action: Action) -> Result<String> {
        action_to_string(action)
    }
    fn string_to_action(&self, text: &str) -> Result<Action> {
        string_to_action(text)
    }
    /// A full move `Qh x Ah 3s 5d` / `Kc` (docs/escoba_engine.md §4), applied atomically.
    fn play(&mut self, text: &str) -> Result<()> {
        self.play_move(text)
    }
    #[inline]
    fn is_terminal(&self) -> bool {
        self.terminal
    }
    fn returns_into(&self, out: &mut [f64]) {
        self.write_returns(out)
    }
    /// Match total of each seat's side.
    fn scores_into(&self, out: &mut [i64]) {
        for (s, x) in out.iter_mut().enumerate().take(self.n()) {
            *x = self.scores[self.side(s)];
        }
    }
    fn history(&self) -> Vec<Action> {
        self.history.iter().map(|&a| a as Action).collect()
    }
    fn deals(&self) -> u32 {
        self.deal
    }
    /// What `seat` may see (docs/escoba_engine.md §10), as JSON text.
    fn view_json(&self, seat: usize) -> String {
        serial::view_json(self, seat)
    }
    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        self.fill_observation(seat, out)
    }
    /// Canonical JSON (docs/escoba_engine.md §8).
    fn to_json(&self) -> String {
        serial::to_json(self)
    }
}

impl PartialEq for EscobaState {
    fn eq(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }
}

/// A readable picture of the table for people.
impl fmt::Display for EscobaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.opts();
        let n = self.n();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "escoba ({}) - deal {}, dealer seat {}, target {}",
            o.variant.as_str(),
            self.deal,
            self.dealer,
            o.target
        );
        for seat in 0..n {
            let mark = if !self.terminal && self.to_move as usize == seat {
                " <- to move"
            } else {
                ""
            };
            let h = self.hands[seat];
            let _ = writeln!(
                s,
                "  seat {seat} (side {}): {}{mark}",
                self.side(seat),
                if h.is_empty() {
                    "-".to_string()
                } else {
                    h.to_string()
                }
            );
        }
        let _ = writeln!(
            s,
            "  table: {}",
            if self.table.is_empty() {
                "-".to_string()
            } else {
                self.table.to_string()
            }
        );
        for &bl in self.builds.as_slice() {
            let _ = writeln!(s, "  build of {}: {bl}", builds::build_value(bl));
        }
        if let Some(p) = self.pending() {
            let _ = writeln!(s, "  playing {p}, taking so far: {}", self.selection);
        }
        let _ = writeln!(s, "  stock: {} cards", self.stock().len());
        for side in 0..self.cfg.sides {
            let sw = self
                .sweeps()
                .iter()
                .filter(|&&x| x as usize == side)
                .count();
            let _ = writeln!(
                s,
                "  side {side}: pile {} cards, sweeps {sw}, score {}",
                self.piles[side].len(),
                self.scores[side]
            );
        }
        if self.terminal {
            let end = match (self.winner(), self.loser()) {
                (Some(w), _) => format!("side {w} wins"),
                (_, Some(l)) => format!("side {l} loses"),
                _ => "drawn".to_string(),
            };
            let _ = writeln!(s, "  match over: {end}");
        }
        f.write_str(s.trim_end())
    }
}
