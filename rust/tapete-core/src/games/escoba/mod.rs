//! The Escoba / Scopa family engine (docs/escoba_engine.md is the contract).

mod access;
pub mod builds;
mod checks;
pub mod cicera;
mod deal;
mod display;
pub mod elimination;
mod end_deal;
mod feature;
mod features;
mod heuristic;
pub mod knock;
pub mod maresciallo;
pub mod notation;
mod observation;
pub mod options;
#[cfg(test)]
mod options_tests;
mod parts_state;
pub mod piles;
mod play;
#[cfg(test)]
mod play_tests;
mod primitives;
mod resample;
pub mod rules;
pub mod scoring;
#[cfg(test)]
mod scoring_tests;
mod serial;
mod sweeps;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
mod text;
pub mod twins;
mod twins_play;
pub mod values;
mod view;

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

use builds::Builds;
use elimination::InPlay;
use feature::Parts;
use knock::{Decls, KnockStates, Matta, MattaValue};
use maresciallo::KsSweeps;
pub use notation::{action_to_string, string_to_action, NUM_ACTIONS};
use notation::{BUILD_ON, CLAIM, DONE, DOUBT, KNOCK, NO_KNOCK, TAKE, TAKE_PILE};
pub use options::EscobaOptions;
use options::{FirstDealer, GameMode, ManoTo, Obligation, TargetMode, WinCheck, MAX_PACK};
use parts_state::{Claims, Streaks};
use piles::{Piles, Tops};
use rules::Beside;
use rules::{Outcome, MAX_SIDES};

pub use values::{MAX_DECLS, MAX_SEATS};
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
    /// The matta at its natural value (`Matta::NONE` without one).
    pub matta: Matta,
    /// Cards in the pack (`deck`): 40, 52 for `italian52`, 80 for `double_italian80`.
    pub pack: usize,
    /// The double pack (docs/escoba_engine.md §1a): multisets, kept in the state's `twin` planes.
    pub twins: bool,
    /// The optional parts the game plays.
    pub parts: Parts<EscobaState>,
    /// The deal's scoring steps, in count-out order (docs/escoba_engine.md §7).
    pub awards: Vec<rules::Award>,
}

/// A resolved Escoba game: a factory of states.
#[derive(Clone, Debug)]
pub struct EscobaGame {
    cfg: Arc<Config>,
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
    /// Pile tops (`steal`).
    steal: Tops,
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
    /// Hand declarations of this deal (tuzzoli and knocks).
    decls: Decls,
    knocks: KnockStates,
    matta: MattaValue,
    maresciallo: KsSweeps,
    elimination: InPlay,
    /// Fidasse (docs/rules/escoba.md §2.19).
    fidasse: Claims,
    /// `max_consecutive_sweeps` (docs/rules/escoba.md §1.5).
    streak: Streaks,
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
        let twins = opts.deck.copies() == 2;
        let parts = Parts::of(&opts);
        // the observation has one slot per card of the pack (docs/escoba_engine.md §10)
        let obs_size = EscobaState::observation_len(&parts, opts.deck.slots(), n, sides);
        let cfg = Config {
            obs_size,
            parts,
            awards: rules::awards(&opts),
            pack: opts.deck.len(),
            twins,
            knocks,
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
            steal: Tops::EMPTY,
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
            decls: Decls::NONE,
            knocks: KnockStates::UNDECIDED,
            matta: MattaValue {
                value: self.cfg.matta.value,
            },
            maresciallo: KsSweeps::NONE,
            elimination: InPlay::all(self.cfg.n),
            fidasse: Claims::NONE,
            streak: Streaks::ZERO,
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

    /// Reaching the target loses or eliminates in the misère presets (docs/escoba_engine.md §6).
    fn score_sign(&self) -> i64 {
        match self.cfg.opts.target_mode {
            TargetMode::Lose | TargetMode::Eliminate => -1,
            _ => 1,
        }
    }

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
    // A new match dealt with the seeded RNG (docs/escoba_engine.md §5), or from a given deck.
    crate::deal_folder!(EscobaState);
}

crate::config_accessors!(EscobaState, EscobaOptions);

impl EscobaState {
    #[inline]
    fn side(&self, seat: usize) -> usize {
        self.cfg.side_of[seat] as usize
    }

    /// Every table item: the loose cards and each build's name.
    #[inline]
    fn items(&self) -> CardSet {
        self.table.union(self.builds.names())
    }
    /// The piles as the capture rules see them from the mover's seat.
    #[inline]
    fn piles_ctx(&self) -> Piles {
        if !self.cfg.opts.steal || self.to_move < 0 {
            return Piles::NONE;
        }
        let seat = self.to_move as usize;
        Piles {
            tops: self.steal.tops,
            side: self.side(seat) as u8,
            next: self.side((seat + 1) % self.n()) as u8,
        }
    }
    /// The matta with its value in this deal.
    #[inline]
    pub fn matta(&self) -> Matta {
        Matta {
            bit: self.cfg.matta.bit,
            value: self.matta.value,
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
                    self.steal.tops[victim] = -1;
                    stolen &= stolen - 1;
                }
                let cards = CardSet(cards.0 & piles::CARD_BITS);
                if self.cfg.opts.steal {
                    self.steal.tops[side] = c.0 as i8;
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
                let in_play = self.elimination.in_play;
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
                for i in 0..self.cfg.parts.read.len() {
                    let f = self.cfg.parts.read[i];
                    f.new_hand(self);
                }
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
}

impl State for EscobaState {
    crate::state_folder!(EscobaGame);

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
        if self.fidasse.claim >= 0 {
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
        if self.fidasse.claim >= 0 {
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
        GameError::IllegalAction(format!(
            "action {name} is not legal: legal actions are {}",
            self.legal_actions_text()
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

    crate::id_notation!();
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
    fn deals(&self) -> u32 {
        self.deal
    }
    /// What `seat` may see (docs/escoba_engine.md §10), as JSON text.
    fn view_json(&self, seat: usize) -> String {
        view::view_json(self, seat)
    }
    fn public_view_json(&self) -> String {
        view::view_json(self, view::NOBODY)
    }
    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        self.fill_observation(seat, out)
    }
}

impl PartialEq for EscobaState {
    fn eq(&self, other: &Self) -> bool {
        self.to_json() == other.to_json()
    }
}
