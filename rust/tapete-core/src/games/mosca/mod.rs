//! La Mosca engine (docs/mosca_engine.md is the contract). This file holds the state and the two
//! traits; the rules live in `deal.rs` (ante, deal, mosca check, declarations, exchange and the
//! turn-up) and `tricks.rs` (tricks, score, the end of a deal and of the match), what a seat sees
//! in `view.rs`, the canonical JSON and `setup` in `serial.rs`, the rule primitives in
//! `primitives.rs`.

mod deal;
mod heuristic;
pub mod notation;
pub mod options;
mod primitives;
mod resample;
pub mod rules;
mod serial;
#[cfg(test)]
mod tests;
mod tricks;
mod view;

use std::fmt;
use std::sync::Arc;

use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

pub use notation::NUM_ACTIONS;
use notation::{LEAVE, PASS, PLAY0, TAKE0};
pub use options::MoscaOptions;
use rules::{Duties, Strength};

pub const MAX_SEATS: usize = 6;
/// Chip guard (docs/mosca_engine.md §3): the match ends when a balance or the pot leaves ±10^15.
pub const MAX_CHIPS: i64 = 1_000_000_000_000_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Declare,
    Turnup,
    Trick,
    End,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Declare => "declare",
            Phase::Turnup => "turnup",
            Phase::Trick => "trick",
            Phase::End => "end",
        }
    }
}

/// Declare-phase legal actions by exchange limit 0..=5: PASS, then PLAY(mask) for every mask of
/// at most that many cards, ascending (no popcount at run time).
const DECLARE_ACTIONS: [([u8; 33], u8); 6] = {
    let mut t = [([0u8; 33], 0u8); 6];
    let mut lim = 0;
    while lim < 6 {
        t[lim].0[0] = PASS as u8;
        let mut k = 1;
        let mut m = 0u32;
        while m < 32 {
            if m.count_ones() as usize <= lim {
                t[lim].0[k] = (PLAY0 + m) as u8;
                k += 1;
            }
            m += 1;
        }
        t[lim].1 = k as u8;
        lim += 1;
    }
    t
};

/// Options plus everything derived from them once.
#[derive(Debug)]
pub struct Config {
    pub opts: MoscaOptions,
    pub json: String,
    pub n: usize,
    pub deck: CardSet,
    pub strength: Strength,
    pub duties: Duties,
    pub obs_size: usize,
}

/// A resolved Mosca game: a factory of states.
#[derive(Clone, Debug)]
pub struct MoscaGame {
    cfg: Arc<Config>,
}

#[derive(Debug)]
pub struct MoscaState {
    cfg: Arc<Config>,
    hands: [CardSet; MAX_SEATS],
    discarded: [CardSet; MAX_SEATS],
    discard_pile: CardSet,
    /// Talon is `talon[talon_pos..talon_len]`, top first.
    talon: [u8; 52],
    talon_pos: u8,
    talon_len: u8,
    balances: [i64; MAX_SEATS],
    pot: i64,
    /// −1 not declared, 0 pass, 1 play.
    declarations: [i8; MAX_SEATS],
    exchanged: [u8; MAX_SEATS],
    eliminated: [bool; MAX_SEATS],
    tricks_won: [u8; MAX_SEATS],
    played: CardSet,
    trick: [u8; MAX_SEATS],
    trick_seats: [u8; MAX_SEATS],
    trick_len: u8,
    /// Index in `trick` of the card winning it so far (meaningful when `trick_len > 0`).
    trick_win: u8,
    n_active: u8,
    leader: i8,
    trick_number: u8,
    turnup: u8,
    turnup_taken: bool,
    turnup_discard: i8,
    dealer: u8,
    to_move: i8,
    phase: Phase,
    deals_played: u32,
    rng: SplitMix64,
    history: Vec<u8>,
}

impl Clone for MoscaState {
    fn clone(&self) -> Self {
        MoscaState {
            cfg: self.cfg.clone(),
            hands: self.hands,
            discarded: self.discarded,
            discard_pile: self.discard_pile,
            talon: self.talon,
            talon_pos: self.talon_pos,
            talon_len: self.talon_len,
            balances: self.balances,
            pot: self.pot,
            declarations: self.declarations,
            exchanged: self.exchanged,
            eliminated: self.eliminated,
            tricks_won: self.tricks_won,
            played: self.played,
            trick: self.trick,
            trick_seats: self.trick_seats,
            trick_len: self.trick_len,
            trick_win: self.trick_win,
            n_active: self.n_active,
            leader: self.leader,
            trick_number: self.trick_number,
            turnup: self.turnup,
            turnup_taken: self.turnup_taken,
            turnup_discard: self.turnup_discard,
            dealer: self.dealer,
            to_move: self.to_move,
            phase: self.phase,
            deals_played: self.deals_played,
            rng: self.rng,
            history: self.history.clone(),
        }
    }
    /// Field by field, so that the history's buffer is reused (resampling into a buffer state).
    fn clone_from(&mut self, o: &Self) {
        self.cfg.clone_from(&o.cfg);
        self.hands = o.hands;
        self.discarded = o.discarded;
        self.discard_pile = o.discard_pile;
        self.talon = o.talon;
        self.talon_pos = o.talon_pos;
        self.talon_len = o.talon_len;
        self.balances = o.balances;
        self.pot = o.pot;
        self.declarations = o.declarations;
        self.exchanged = o.exchanged;
        self.eliminated = o.eliminated;
        self.tricks_won = o.tricks_won;
        self.played = o.played;
        self.trick = o.trick;
        self.trick_seats = o.trick_seats;
        self.trick_len = o.trick_len;
        self.trick_win = o.trick_win;
        self.n_active = o.n_active;
        self.leader = o.leader;
        self.trick_number = o.trick_number;
        self.turnup = o.turnup;
        self.turnup_taken = o.turnup_taken;
        self.turnup_discard = o.turnup_discard;
        self.dealer = o.dealer;
        self.to_move = o.to_move;
        self.phase = o.phase;
        self.deals_played = o.deals_played;
        self.rng = o.rng;
        self.history.clone_from(&o.history);
    }
}

impl MoscaGame {
    fn from_typed(opts: MoscaOptions, json: String) -> MoscaGame {
        let n = opts.players as usize;
        let cfg = Config {
            n,
            deck: rules::deck_mask(opts.deck),
            strength: Strength::new(opts.ace_rank),
            duties: Duties::of(&opts),
            obs_size: 216 + 60 * n,
            json,
            opts,
        };
        MoscaGame { cfg: Arc::new(cfg) }
    }

    pub fn options(&self) -> &MoscaOptions {
        &self.cfg.opts
    }
    pub fn strength(&self) -> &Strength {
        &self.cfg.strength
    }
    pub fn duties(&self) -> Duties {
        self.cfg.duties
    }

    fn blank(&self, seed: u64) -> MoscaState {
        let n = self.cfg.n;
        let mut balances = [0i64; MAX_SEATS];
        for b in balances.iter_mut().take(n) {
            *b = self.cfg.opts.initial_chips;
        }
        MoscaState {
            cfg: self.cfg.clone(),
            hands: [CardSet::EMPTY; MAX_SEATS],
            discarded: [CardSet::EMPTY; MAX_SEATS],
            discard_pile: CardSet::EMPTY,
            talon: [0; 52],
            talon_pos: 0,
            talon_len: 0,
            balances,
            pot: 0,
            declarations: [-1; MAX_SEATS],
            exchanged: [0; MAX_SEATS],
            eliminated: [false; MAX_SEATS],
            tricks_won: [0; MAX_SEATS],
            played: CardSet::EMPTY,
            trick: [0; MAX_SEATS],
            trick_seats: [0; MAX_SEATS],
            trick_len: 0,
            trick_win: 0,
            n_active: 0,
            leader: -1,
            trick_number: 0,
            turnup: 0,
            turnup_taken: false,
            turnup_discard: -1,
            dealer: 0,
            to_move: -1,
            phase: Phase::Declare,
            deals_played: 0,
            rng: SplitMix64::new(seed),
            history: Vec::with_capacity(64),
        }
    }

    /// A new match (docs/mosca_engine.md §3): the first dealer (one draw unless a seat is given),
    /// then the first deal from `pack` (top first) or a shuffled one.
    fn deal_match(&self, seed: u64, pack: Option<Vec<u8>>) -> MoscaState {
        let mut s = self.blank(seed);
        s.dealer = match self.cfg.opts.first_dealer {
            Some(d) => d,
            None => s.rng.below(self.cfg.n as u64) as u8,
        };
        s.begin_match(pack.as_deref());
        s
    }
}

impl Game for MoscaGame {
    crate::game_folder!(MoscaState, "mosca", MoscaOptions);

    /// Scores are chip balances (docs/mosca_engine.md §4).
    fn score_sign(&self) -> i64 {
        1
    }
}

impl MoscaState {
    // ----- accessors -----

    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }
    pub fn pot(&self) -> i64 {
        self.pot
    }
    pub fn balances(&self) -> &[i64] {
        &self.balances[..self.cfg.n]
    }
    pub fn deals_played(&self) -> u32 {
        self.deals_played
    }
    pub fn talon(&self) -> &[u8] {
        &self.talon[self.talon_pos as usize..self.talon_len as usize]
    }
    pub fn turnup(&self) -> Card {
        Card(self.turnup)
    }
    pub fn trump(&self) -> u8 {
        self.turnup / 13
    }
    pub fn tricks_won(&self) -> &[u8] {
        &self.tricks_won[..self.cfg.n]
    }
    pub fn declarations(&self) -> &[i8] {
        &self.declarations[..self.cfg.n]
    }
    /// Chips in play: balances plus pot (constant over a match).
    pub fn total_chips(&self) -> i64 {
        self.balances[..self.cfg.n].iter().sum::<i64>() + self.pot
    }
    /// Every card of the deck is in exactly one place (hands, talon, discard pile, tricks,
    /// turn-up, turn-up discard).
    pub fn cards_conserved(&self) -> bool {
        let mut seen = 0u64;
        let mut add = |m: u64| -> bool {
            let ok = seen & m == 0;
            seen |= m;
            ok
        };
        let mut ok = true;
        for h in &self.hands[..self.cfg.n] {
            ok &= add(h.bits());
        }
        for &c in self.talon() {
            ok &= add(1u64 << c);
        }
        ok &= add(self.discard_pile.bits());
        ok &= add(self.played.bits());
        if !self.turnup_taken {
            ok &= add(1u64 << self.turnup);
        }
        if self.turnup_discard >= 0 {
            ok &= add(1u64 << self.turnup_discard);
        }
        ok && seen == self.cfg.deck.bits()
    }

    /// The cards the player to act may play (phase `trick`).
    #[inline]
    pub fn legal_cards(&self) -> CardSet {
        let hand = self.hands[self.to_move as usize];
        if self.trick_len == 0 {
            return hand;
        }
        let w = Card(self.trick[self.trick_win as usize]);
        let led = Card(self.trick[0]).suit();
        rules::legal_cards(
            &self.cfg.strength,
            self.cfg.duties,
            hand,
            led,
            Some(w),
            self.trump(),
        )
    }

    /// The actor's hand when the phase resolves exchange masks to cards.
    fn declare_hand(&self) -> Option<CardSet> {
        (self.phase == Phase::Declare).then(|| self.hands[self.to_move as usize])
    }
    /// The dealer's hand when the phase resolves turn-up slots to cards.
    fn turnup_hand(&self) -> Option<CardSet> {
        (self.phase == Phase::Turnup).then(|| self.hands[self.to_move as usize])
    }
}

impl State for MoscaState {
    crate::state_folder!(MoscaGame);

    #[inline]
    fn current_player(&self) -> Option<usize> {
        if self.phase == Phase::End {
            None
        } else {
            Some(self.to_move as usize)
        }
    }
    #[inline]
    fn for_each_legal<F: FnMut(Action)>(&self, mut f: F) {
        match self.phase {
            Phase::Declare => {
                let (acts, k) = &DECLARE_ACTIONS[self.exchange_limit() as usize];
                for &a in &acts[..*k as usize] {
                    f(a as Action);
                }
            }
            Phase::Turnup => {
                for a in TAKE0..=LEAVE {
                    f(a);
                }
            }
            Phase::Trick => {
                for c in self.legal_cards() {
                    f(c.0 as Action);
                }
            }
            Phase::End => {}
        }
    }
    fn is_legal(&self, a: Action) -> bool {
        match self.phase {
            Phase::Declare => {
                let (acts, k) = &DECLARE_ACTIONS[self.exchange_limit() as usize];
                a < 256 && acts[..*k as usize].contains(&(a as u8))
            }
            Phase::Turnup => (TAKE0..=LEAVE).contains(&a),
            Phase::Trick => a < 52 && self.legal_cards().contains(Card(a as u8)),
            Phase::End => false,
        }
    }
    fn illegal(&self, a: Action) -> GameError {
        let text = self.action_to_string(a).unwrap_or_default();
        let why = match self.phase {
            Phase::End => "the match is over".to_string(),
            Phase::Declare => format!(
                "seat {} declares: pass, or play exchanging at most {} cards",
                self.to_move,
                self.exchange_limit()
            ),
            Phase::Turnup => "the dealer takes the turn-up (85..89) or leaves it (90)".to_string(),
            Phase::Trick => format!(
                "seat {} plays a card of {}",
                self.to_move,
                self.legal_cards()
            ),
        };
        GameError::IllegalAction(format!(
            "action {a} ({text}) is not legal in phase {}: {why}",
            self.phase.as_str()
        ))
    }
    /// Applies an action known to be legal. (Not `#[inline]`: inlined into the playout loop it
    /// costs about 3% per decision.)
    fn apply_unchecked(&mut self, a: Action) {
        self.history.push(a as u8);
        match self.phase {
            Phase::Declare => self.declare(a),
            Phase::Turnup => self.turnup_step(a),
            Phase::Trick => self.play_card(Card(a as u8)),
            Phase::End => {}
        }
    }
    fn action_to_string(&self, a: Action) -> Result<String> {
        notation::action_to_string(a, self.declare_hand(), self.turnup_hand())
    }
    fn string_to_action(&self, text: &str) -> Result<Action> {
        notation::string_to_action(text, self.declare_hand(), self.turnup_hand())
    }
    /// Another seat than the mover's reads exchanges and turn-up steps in their slot forms.
    fn seat_action_to_string(&self, seat: usize, a: Action) -> Result<String> {
        if self.current_player() == Some(seat) {
            self.action_to_string(a)
        } else {
            notation::action_to_string(a, None, None)
        }
    }
    fn seat_string_to_action(&self, seat: usize, text: &str) -> Result<Action> {
        if self.current_player() == Some(seat) {
            self.string_to_action(text)
        } else {
            notation::string_to_action(text, None, None)
        }
    }
    /// Every action is a whole move (docs/mosca_engine.md §5): `play` applies one, as notation.
    fn play(&mut self, text: &str) -> Result<()> {
        self.apply_str(text)
    }
    #[inline]
    fn is_terminal(&self) -> bool {
        self.phase == Phase::End
    }
    /// 0 until the end; then the net chips plus an equal share of the pot (docs/mosca_engine.md §4).
    fn returns_into(&self, out: &mut [f64]) {
        let n = self.cfg.n;
        for (s, r) in out.iter_mut().enumerate().take(n) {
            *r = if self.phase == Phase::End {
                (self.balances[s] - self.cfg.opts.initial_chips) as f64 + self.pot as f64 / n as f64
            } else {
                0.0
            };
        }
    }
    /// The chip balances.
    fn scores_into(&self, out: &mut [i64]) {
        let n = self.cfg.n;
        out[..n].copy_from_slice(&self.balances[..n]);
    }
    fn deals(&self) -> u32 {
        self.deals_played + (self.phase != Phase::End) as u32
    }
    fn view_json(&self, seat: usize) -> String {
        view::view_json(self, Some(seat))
    }
    fn public_view_json(&self) -> String {
        view::view_json(self, None)
    }
    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        view::write_observation(self, seat, out)
    }
    fn write_observation_entries(&self, seat: usize, _size: usize, out: &mut crate::obs::Entries) {
        view::write_observation(self, seat, out)
    }
}

impl PartialEq for MoscaState {
    /// Same options and same position (every serialized field), without serializing.
    fn eq(&self, o: &Self) -> bool {
        let n = self.cfg.n;
        self.cfg.json == o.cfg.json
            && self.hands[..n] == o.hands[..n]
            && self.discarded[..n] == o.discarded[..n]
            && self.discard_pile == o.discard_pile
            && self.talon() == o.talon()
            && self.balances[..n] == o.balances[..n]
            && self.pot == o.pot
            && self.declarations[..n] == o.declarations[..n]
            && self.exchanged[..n] == o.exchanged[..n]
            && self.eliminated[..n] == o.eliminated[..n]
            && self.tricks_won[..n] == o.tricks_won[..n]
            && self.played == o.played
            && self.trick[..self.trick_len as usize] == o.trick[..o.trick_len as usize]
            && self.leader == o.leader
            && self.trick_number == o.trick_number
            && self.turnup == o.turnup
            && self.turnup_taken == o.turnup_taken
            && self.turnup_discard == o.turnup_discard
            && self.dealer == o.dealer
            && self.to_move == o.to_move
            && self.phase == o.phase
            && self.deals_played == o.deals_played
            && self.rng == o.rng
            && self.history == o.history
    }
}

impl fmt::Display for MoscaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.cfg.n;
        writeln!(
            f,
            "mosca  deal {}/{}  dealer {}  pot {}  turn-up {} (trump {})  phase {}",
            self.deals(),
            self.cfg.opts.match_deals,
            self.dealer,
            self.pot,
            Card(self.turnup),
            crate::cards::SUIT_CHARS[self.trump() as usize] as char,
            self.phase.as_str()
        )?;
        for s in 0..n {
            let decl = match self.declarations[s] {
                1 => "play",
                0 => "pass",
                _ => "-",
            };
            writeln!(
                f,
                "{}seat {s}: {:>5} chips  {decl:<4}  tricks {}  hand {}",
                if self.to_move == s as i8 { "> " } else { "  " },
                self.balances[s],
                self.tricks_won[s],
                self.hands[s]
            )?;
        }
        if self.trick_len > 0 {
            write!(f, "trick {}:", self.trick_number)?;
            for k in 0..self.trick_len as usize {
                write!(f, " {}", Card(self.trick[k]))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
