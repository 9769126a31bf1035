//! La Mosca engine (docs/mosca_engine.md is the contract).

pub mod notation;
pub mod options;
pub mod rules;
mod serial;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::cards::{Card, CardSet};
use crate::error::GameError;
use crate::game::{Action, Game, State};
use crate::rng::SplitMix64;

pub use notation::NUM_ACTIONS;
use notation::{mask_cards, slot_card, LEAVE, PASS, PLAY0, TAKE0};
pub use options::MoscaOptions;
use options::{
    Ante, Bankruptcy, DealPackets, ExchangeLimit, LeftoverPot, LonePlayer, MoscaBonus, MoscaTie,
    PenaltyTiming, PotAward, TrickTie,
};
use rules::{suit_mask, Duties, Strength};

type Result<T> = std::result::Result<T, GameError>;

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

#[derive(Clone, Debug)]
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

impl MoscaGame {
    pub fn new(options: &Value) -> Result<MoscaGame> {
        Ok(MoscaGame::from_options(MoscaOptions::resolve(options)?))
    }

    pub fn from_json_options(text: &str) -> Result<MoscaGame> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| GameError::InvalidOption(format!("options are not valid JSON: {e}")))?;
        MoscaGame::new(&v)
    }

    pub fn from_options(opts: MoscaOptions) -> MoscaGame {
        let n = opts.players as usize;
        let json = opts.to_value().to_string();
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
    pub fn options_json(&self) -> &str {
        &self.cfg.json
    }
    pub fn num_players(&self) -> usize {
        self.cfg.n
    }
    pub fn observation_size(&self) -> usize {
        self.cfg.obs_size
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

    fn first_dealer(&self, s: &mut MoscaState) {
        s.dealer = match self.cfg.opts.first_dealer {
            Some(d) => d,
            None => s.rng.below(self.cfg.n as u64) as u8,
        };
    }

    /// A new match dealt with the seeded RNG (docs/mosca_engine.md §3).
    pub fn new_state(&self, seed: u64) -> MoscaState {
        let mut s = self.blank(seed);
        self.first_dealer(&mut s);
        s.begin_match(None);
        s
    }

    /// A new match whose first deal uses `deck` (top first; a permutation of the deck).
    pub fn new_state_with_deck(&self, seed: u64, deck: Option<&[Card]>) -> Result<MoscaState> {
        let Some(deck) = deck else {
            return Ok(self.new_state(seed));
        };
        let pack = serial::check_deck(&self.cfg, deck)?;
        let mut s = self.blank(seed);
        self.first_dealer(&mut s);
        s.begin_match(Some(&pack));
        Ok(s)
    }

    pub fn setup(&self, spec: &Value) -> Result<MoscaState> {
        serial::setup(self, spec)
    }

    pub fn setup_json(&self, text: &str) -> Result<MoscaState> {
        let v: Value = serde_json::from_str(text)
            .map_err(|e| GameError::InvalidState(format!("setup spec is not valid JSON: {e}")))?;
        self.setup(&v)
    }

    pub fn state_from_json(&self, text: &str) -> Result<MoscaState> {
        serial::state_from_json(self, text)
    }
}

impl Game for MoscaGame {
    type State = MoscaState;
    fn name(&self) -> &'static str {
        "mosca"
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
    fn new_state(&self, seed: u64) -> MoscaState {
        MoscaGame::new_state(self, seed)
    }
}

impl MoscaState {
    pub fn game(&self) -> MoscaGame {
        MoscaGame {
            cfg: self.cfg.clone(),
        }
    }
    #[inline]
    pub fn current_player(&self) -> Option<usize> {
        if self.phase == Phase::End {
            None
        } else {
            Some(self.to_move as usize)
        }
    }
    #[inline]
    pub fn is_terminal(&self) -> bool {
        self.phase == Phase::End
    }
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
    pub fn history(&self) -> Vec<Action> {
        self.history.iter().map(|&a| a as Action).collect()
    }
    pub fn scores(&self) -> Vec<i64> {
        self.balances[..self.cfg.n].to_vec()
    }
    pub fn returns(&self) -> Vec<f64> {
        let mut r = vec![0.0; self.cfg.n];
        State::returns(self, &mut r);
        r
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

    // ----- seats -----

    /// The next seat after `s` still in the match; `s` itself when no other seat is left.
    #[inline]
    fn next_seat(&self, s: usize) -> usize {
        let n = self.cfg.n;
        let mut t = (s + 1) % n;
        for _ in 0..n {
            if !self.eliminated[t] {
                return t;
            }
            t = (t + 1) % n;
        }
        s
    }
    #[inline]
    fn next_active(&self, s: usize) -> usize {
        let n = self.cfg.n;
        let mut t = (s + 1) % n;
        while self.declarations[t] != 1 {
            t = (t + 1) % n;
        }
        t
    }
    #[inline]
    fn mano(&self) -> usize {
        self.next_seat(self.dealer as usize)
    }
    fn seats_in_match(&self) -> usize {
        self.eliminated[..self.cfg.n]
            .iter()
            .filter(|&&e| !e)
            .count()
    }

    // ----- the deal -----

    fn begin_match(&mut self, deck: Option<&[u8]>) {
        if self.start_deal(deck) {
            self.finish_deal();
        }
    }

    /// DEAL_START (ante, deal, mosca check). True when the deal already ended (a mosca).
    fn start_deal(&mut self, deck: Option<&[u8]>) -> bool {
        let n = self.cfg.n;
        let dealer = self.dealer as usize;
        for s in 0..n {
            self.declarations[s] = -1;
            self.exchanged[s] = 0;
            self.tricks_won[s] = 0;
            self.discarded[s] = CardSet::EMPTY;
            self.hands[s] = CardSet::EMPTY;
        }
        self.discard_pile = CardSet::EMPTY;
        self.played = CardSet::EMPTY;
        self.trick_len = 0;
        self.trick_number = 0;
        self.leader = -1;
        self.n_active = 0;
        self.turnup_taken = false;
        self.turnup_discard = -1;
        // ante
        let m = self.seats_in_match();
        match self.cfg.opts.ante {
            Ante::DealerPaysN => self.pay(dealer, m as i64),
            Ante::DealerPays5 => self.pay(dealer, 5),
            Ante::EachPlayerPays1 => {
                for s in 0..n {
                    if !self.eliminated[s] {
                        self.pay(s, 1);
                    }
                }
            }
        }
        // the pack
        let size = self.cfg.opts.deck as usize;
        let mut pack = [0u8; 52];
        match deck {
            Some(d) => pack[..size].copy_from_slice(&d[..size]),
            None => {
                for (i, c) in self.cfg.deck.iter().enumerate() {
                    pack[i] = c.0;
                }
                self.rng.shuffle(&mut pack[..size]);
            }
        }
        self.deal_pack(&pack[..size]);
        // MOSCA_CHECK
        if self.mosca_check(false) {
            return true;
        }
        self.phase = Phase::Declare;
        self.to_move = self.mano() as i8;
        self.begin_declare_turn();
        false
    }

    /// Hands, turn-up and talon from a pack (top first), by `deal_packets`.
    fn deal_pack(&mut self, pack: &[u8]) {
        let n = self.cfg.n;
        let mut order = [0usize; MAX_SEATS];
        let mut m = 0;
        let mut s = self.mano();
        loop {
            order[m] = s;
            m += 1;
            s = self.next_seat(s);
            if s == order[0] {
                break;
            }
        }
        let _ = n;
        for (k, &seat) in order[..m].iter().enumerate() {
            let idx: [usize; 5] = match self.cfg.opts.deal_packets {
                DealPackets::TwoThenThree => [
                    2 * k,
                    2 * k + 1,
                    2 * m + 3 * k,
                    2 * m + 3 * k + 1,
                    2 * m + 3 * k + 2,
                ],
                DealPackets::ThreeThenTwo => [
                    3 * k,
                    3 * k + 1,
                    3 * k + 2,
                    3 * m + 2 * k,
                    3 * m + 2 * k + 1,
                ],
                DealPackets::OneAtATime => [k, k + m, k + 2 * m, k + 3 * m, k + 4 * m],
            };
            for i in idx {
                self.hands[seat].insert(Card(pack[i]));
            }
        }
        self.turnup = pack[5 * m];
        let rest = &pack[5 * m + 1..];
        self.talon[..rest.len()].copy_from_slice(rest);
        self.talon_pos = 0;
        self.talon_len = rest.len() as u8;
    }

    #[inline]
    fn pay(&mut self, seat: usize, chips: i64) {
        self.balances[seat] -= chips;
        self.pot += chips;
    }
    #[inline]
    fn take(&mut self, seat: usize, chips: i64) {
        self.balances[seat] += chips;
        self.pot -= chips;
    }

    /// The penalty of a zero-trick player (or a mosca's other players): an int, or the pot now.
    #[inline]
    fn penalty(&self, pot_now: i64) -> i64 {
        self.cfg.opts.no_trick_penalty.unwrap_or(pot_now)
    }

    /// docs/rules/mosca.md §5.1 among the seats in the match (`active_only`: the active seats).
    /// True when it fired.
    fn mosca_check(&mut self, active_only: bool) -> bool {
        let n = self.cfg.n;
        let trump = self.trump();
        let mut best: Option<u32> = None;
        let mut keys = [None::<u32>; MAX_SEATS];
        for (s, key) in keys.iter_mut().enumerate().take(n) {
            if self.eliminated[s] || (active_only && self.declarations[s] != 1) {
                continue;
            }
            *key = self.cfg.strength.mosca_key(self.hands[s], trump);
            best = best.max(*key);
        }
        let Some(best) = best else {
            return false;
        };
        // winners in order from the mano
        let mut winners = [0usize; MAX_SEATS];
        let mut w = 0;
        let mano = self.mano();
        let mut s = mano;
        loop {
            if keys[s] == Some(best) {
                winners[w] = s;
                w += 1;
            }
            s = self.next_seat(s);
            if s == mano {
                break;
            }
        }
        if self.cfg.opts.mosca_tie == MoscaTie::EldestWins {
            w = 1;
        }
        let winners = &winners[..w];
        if self.cfg.opts.mosca_bonus == MoscaBonus::EachOtherPays {
            let pen = self.penalty(self.pot);
            for s in 0..n {
                if !self.eliminated[s] && !winners.contains(&s) {
                    self.pay(s, pen);
                }
            }
        }
        let share = self.pot / w as i64;
        for &s in winners {
            self.take(s, share);
        }
        true
    }

    /// A DECLARE turn begins: the Bourré reshuffle of the discards into an empty talon.
    #[inline]
    fn begin_declare_turn(&mut self) {
        if self.cfg.opts.exchange_limit == ExchangeLimit::Reshuffle
            && self.talon_pos == self.talon_len
            && !self.discard_pile.is_empty()
        {
            let mut k = 0;
            for c in self.discard_pile {
                self.talon[k] = c.0;
                k += 1;
            }
            self.rng.shuffle(&mut self.talon[..k]);
            self.talon_pos = 0;
            self.talon_len = k as u8;
            self.discard_pile = CardSet::EMPTY;
        }
    }

    #[inline]
    fn exchange_limit(&self) -> u32 {
        let t = (self.talon_len - self.talon_pos) as u32;
        if self.cfg.opts.exchange_limit == ExchangeLimit::Max3 {
            t.min(3)
        } else {
            t.min(5)
        }
    }

    /// RESOLVE_DECLARE (docs/rules/mosca.md §3).
    fn resolve(&mut self) {
        if self.cfg.opts.mosca_after_exchange && self.mosca_check(true) {
            self.finish_deal();
            return;
        }
        let n = self.cfg.n;
        let active = self.declarations[..n].iter().filter(|&&d| d == 1).count();
        self.n_active = active as u8;
        let mano = self.mano();
        let first = if self.declarations[mano] == 1 {
            mano
        } else if active > 0 {
            self.next_active(mano)
        } else {
            mano
        };
        match active {
            0 => self.finish_deal(),
            1 => match self.cfg.opts.lone_player {
                LonePlayer::WinsPot => {
                    let pot = self.pot;
                    self.take(first, pot);
                    self.finish_deal();
                }
                LonePlayer::PotCarries => self.finish_deal(),
                LonePlayer::MustPlayTricks => self.start_tricks(first),
            },
            _ => self.start_tricks(first),
        }
    }

    fn start_tricks(&mut self, leader: usize) {
        self.phase = Phase::Trick;
        self.trick_number = 1;
        self.trick_len = 0;
        self.leader = leader as i8;
        self.to_move = leader as i8;
    }

    /// SCORE (docs/rules/mosca.md §5.3 / §5.4).
    fn score(&mut self) {
        let n = self.cfg.n;
        let cfg = self.cfg.clone();
        let o = &cfg.opts;
        let decl = self.declarations;
        let active = |s: usize| decl[s] == 1;
        if self.n_active == 1 {
            let lone = (0..n).find(|&s| active(s)).unwrap_or(0);
            let pot = self.pot;
            self.take(lone, pot);
            return;
        }
        let p = self.pot;
        let pen = self.penalty(p);
        let per_trick = o.pot_award == PotAward::PerTrick;
        let before = o.penalty_timing == PenaltyTiming::BeforeAward;
        let split = o.trick_tie == TrickTie::SplitEqually;
        let mut zero = [false; MAX_SEATS];
        let mut best = 0u8;
        for (s, z) in zero.iter_mut().enumerate().take(n) {
            if active(s) {
                *z = self.tricks_won[s] == 0;
                best = best.max(self.tricks_won[s]);
            }
        }
        let pay_penalties = |st: &mut MoscaState| {
            for (s, &z) in zero.iter().enumerate().take(n) {
                if z {
                    st.pay(s, pen);
                }
            }
        };
        if per_trick {
            let v = p / 5;
            for s in 0..n {
                if active(s) {
                    let t = self.tricks_won[s] as i64;
                    self.take(s, v * t);
                }
            }
            pay_penalties(self);
            return;
        }
        if before {
            pay_penalties(self);
        }
        let mut winners = [0usize; MAX_SEATS];
        let mut w = 0;
        for s in 0..n {
            if active(s) && self.tricks_won[s] == best {
                winners[w] = s;
                w += 1;
            }
        }
        if w == 1 || split {
            let share = self.pot / w as i64;
            for &s in &winners[..w] {
                self.take(s, share);
            }
        }
        if !before {
            pay_penalties(self);
        }
    }

    /// DEAL_END and the next deals, until a decision or the end of the match.
    fn finish_deal(&mut self) {
        loop {
            self.deals_played += 1;
            let n = self.cfg.n;
            if self.cfg.opts.bankruptcy == Bankruptcy::EliminateAtZero {
                for s in 0..n {
                    if self.balances[s] <= 0 {
                        self.eliminated[s] = true;
                    }
                }
            }
            let overflow = self.pot.abs() > MAX_CHIPS
                || self.balances[..n].iter().any(|b| b.abs() > MAX_CHIPS);
            if self.deals_played as i64 >= self.cfg.opts.match_deals
                || self.seats_in_match() < 2
                || overflow
            {
                self.end_match();
                return;
            }
            self.dealer = self.next_seat(self.dealer as usize) as u8;
            if !self.start_deal(None) {
                return;
            }
        }
    }

    fn end_match(&mut self) {
        let n = self.cfg.n;
        if self.cfg.opts.leftover_pot == LeftoverPot::SplitEquallyAmongAll {
            let share = self.pot / n as i64;
            for s in 0..n {
                self.take(s, share);
            }
        }
        self.phase = Phase::End;
        self.to_move = -1;
        self.leader = -1;
        self.trick_number = 0;
    }

    // ----- actions -----

    /// Calls `f` for every legal action, ascending.
    #[inline]
    pub fn for_each_legal<F: FnMut(Action)>(&self, mut f: F) {
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

    /// Legal actions into a fixed buffer; returns how many.
    pub fn legal_actions_array(&self, buf: &mut [Action; 64]) -> usize {
        let mut k = 0;
        self.for_each_legal(|a| {
            buf[k] = a;
            k += 1;
        });
        k
    }

    pub fn legal_actions(&self) -> Vec<Action> {
        let mut v = Vec::with_capacity(33);
        self.for_each_legal(|a| v.push(a));
        v
    }

    pub fn is_legal(&self, a: Action) -> bool {
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

    fn declare_hand(&self) -> Option<CardSet> {
        (self.phase == Phase::Declare).then(|| self.hands[self.to_move as usize])
    }
    fn turnup_hand(&self) -> Option<CardSet> {
        (self.phase == Phase::Turnup).then(|| self.hands[self.to_move as usize])
    }

    pub fn action_to_string(&self, a: Action) -> Result<String> {
        notation::action_to_string(a, self.declare_hand(), self.turnup_hand())
    }

    pub fn string_to_action(&self, text: &str) -> Result<Action> {
        notation::string_to_action(text, self.declare_hand(), self.turnup_hand())
    }

    /// Applies a legal action; an illegal one is an error and changes nothing.
    pub fn apply(&mut self, a: Action) -> Result<()> {
        if a >= NUM_ACTIONS {
            return Err(GameError::IllegalAction(format!(
                "action id {a} is out of range: expected 0..{}",
                NUM_ACTIONS - 1
            )));
        }
        if !self.is_legal(a) {
            let text = self.action_to_string(a).unwrap_or_default();
            let why = match self.phase {
                Phase::End => "the match is over".to_string(),
                Phase::Declare => format!(
                    "seat {} declares: pass, or play exchanging at most {} cards",
                    self.to_move,
                    self.exchange_limit()
                ),
                Phase::Turnup => {
                    "the dealer takes the turn-up (85..89) or leaves it (90)".to_string()
                }
                Phase::Trick => format!(
                    "seat {} plays a card of {}",
                    self.to_move,
                    self.legal_cards()
                ),
            };
            return Err(GameError::IllegalAction(format!(
                "action {a} ({text}) is not legal in phase {}: {why}",
                self.phase.as_str()
            )));
        }
        self.apply_unchecked(a);
        Ok(())
    }

    pub fn apply_str(&mut self, text: &str) -> Result<()> {
        let a = self.string_to_action(text)?;
        self.apply(a)
    }

    /// Applies an action known to be legal.
    pub fn apply_unchecked(&mut self, a: Action) {
        self.history.push(a as u8);
        let s = self.to_move as usize;
        match self.phase {
            Phase::Declare => {
                if a == PASS {
                    self.declarations[s] = 0;
                } else {
                    self.declarations[s] = 1;
                    let out = mask_cards(self.hands[s], a - PLAY0);
                    if !out.is_empty() {
                        let k = out.len() as u8;
                        self.hands[s] = self.hands[s].minus(out);
                        self.discard_pile = self.discard_pile.union(out);
                        self.discarded[s] = self.discarded[s].union(out);
                        for _ in 0..k {
                            let c = self.talon[self.talon_pos as usize];
                            self.talon_pos += 1;
                            self.hands[s].insert(Card(c));
                        }
                        self.exchanged[s] += k;
                    }
                }
                if s == self.dealer as usize {
                    if self.declarations[s] == 1 && self.cfg.opts.dealer_may_take_turnup {
                        self.phase = Phase::Turnup;
                    } else {
                        self.resolve();
                    }
                } else {
                    self.to_move = self.next_seat(s) as i8;
                    self.begin_declare_turn();
                }
            }
            Phase::Turnup => {
                if a != LEAVE {
                    if let Some(c) = slot_card(self.hands[s], a - TAKE0) {
                        self.hands[s].remove(c);
                        self.hands[s].insert(Card(self.turnup));
                        self.turnup_taken = true;
                        self.turnup_discard = c.0 as i8;
                        self.discarded[s].insert(c);
                    }
                }
                self.resolve();
            }
            Phase::Trick => {
                let c = Card(a as u8);
                self.hands[s].remove(c);
                self.played.insert(c);
                let k = self.trick_len as usize;
                self.trick[k] = c.0;
                self.trick_seats[k] = s as u8;
                self.trick_len += 1;
                if k == 0 {
                    self.trick_win = 0;
                } else {
                    let w = Card(self.trick[self.trick_win as usize]);
                    if self.cfg.strength.beating(w, self.trump()) >> c.0 & 1 != 0 {
                        self.trick_win = k as u8;
                    }
                }
                if self.trick_len == self.n_active {
                    let ws = self.trick_seats[self.trick_win as usize] as usize;
                    self.tricks_won[ws] += 1;
                    self.trick_len = 0;
                    if self.trick_number == 5 {
                        self.score();
                        self.finish_deal();
                    } else {
                        self.trick_number += 1;
                        self.leader = ws as i8;
                        self.to_move = ws as i8;
                    }
                } else {
                    self.to_move = self.next_active(s) as i8;
                }
            }
            Phase::End => {}
        }
    }

    // ----- observation, view, JSON -----

    /// Writes the observation of `player` (docs/mosca_engine.md §10) into `out`.
    pub fn observation_into(&self, player: i64, out: &mut [f32]) -> Result<()> {
        let n = self.cfg.n;
        if player < 0 || player >= n as i64 {
            return Err(GameError::InvalidPlayer(format!(
                "seat {player} is not a seat of this game: expected 0..{}",
                n - 1
            )));
        }
        if out.len() != self.cfg.obs_size {
            return Err(GameError::InvalidState(format!(
                "observation buffer has {} floats, expected {}",
                out.len(),
                self.cfg.obs_size
            )));
        }
        let p = player as usize;
        out.fill(0.0);
        let rot = |j: usize| (p + j) % n;
        for c in self.hands[p] {
            out[c.0 as usize] = 1.0;
        }
        for c in self.discarded[p] {
            out[52 + c.0 as usize] = 1.0;
        }
        out[104 + self.turnup as usize] = 1.0;
        out[156 + self.trump() as usize] = 1.0;
        out[160] = self.turnup_taken as u8 as f32;
        for j in 0..n {
            let s = rot(j);
            let b = 161 + 3 * j;
            match self.declarations[s] {
                1 => out[b] = 1.0,
                0 => out[b + 1] = 1.0,
                _ => {}
            }
            if self.eliminated[s] {
                out[b + 2] = 1.0;
            }
            out[161 + 3 * n + j] = self.exchanged[s] as f32;
        }
        out[161 + 4 * n] = (self.talon_len - self.talon_pos) as f32;
        let tb = 162 + 4 * n;
        for k in 0..self.trick_len as usize {
            let s = self.trick_seats[k] as usize;
            let j = (s + n - p) % n;
            out[tb + 52 * j + self.trick[k] as usize] = 1.0;
        }
        if self.phase == Phase::Trick && self.leader >= 0 {
            let j = (self.leader as usize + n - p) % n;
            out[162 + 56 * n + j] = 1.0;
        }
        for c in self.played {
            out[162 + 57 * n + c.0 as usize] = 1.0;
        }
        for j in 0..n {
            let s = rot(j);
            out[214 + 57 * n + j] = self.tricks_won[s] as f32;
            out[215 + 58 * n + j] = self.balances[s] as f32;
        }
        out[214 + 58 * n] = self.pot as f32;
        out[215 + 59 * n + (self.dealer as usize + n - p) % n] = 1.0;
        out[215 + 60 * n] = self.deals_played as f32;
        Ok(())
    }

    pub fn observation(&self, player: i64) -> Result<Vec<f32>> {
        let mut v = vec![0.0; self.cfg.obs_size];
        self.observation_into(player, &mut v)?;
        Ok(v)
    }

    pub fn view_json(&self, player: i64) -> Result<String> {
        let n = self.cfg.n;
        if player < 0 || player >= n as i64 {
            return Err(GameError::InvalidPlayer(format!(
                "seat {player} is not a seat of this game: expected 0..{}",
                n - 1
            )));
        }
        Ok(serial::view_json(self, player as usize))
    }

    pub fn to_json(&self) -> String {
        serial::to_json(self)
    }
}

impl State for MoscaState {
    fn num_players(&self) -> usize {
        self.cfg.n
    }
    fn current_player(&self) -> Option<usize> {
        MoscaState::current_player(self)
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| out.push(a));
    }
    fn apply(&mut self, action: Action) -> Result<()> {
        MoscaState::apply(self, action)
    }
    fn apply_unchecked(&mut self, action: Action) {
        MoscaState::apply_unchecked(self, action)
    }
    fn is_terminal(&self) -> bool {
        self.phase == Phase::End
    }
    fn returns(&self, out: &mut [f64]) {
        let n = self.cfg.n;
        for (s, r) in out.iter_mut().enumerate().take(n) {
            *r = if self.phase == Phase::End {
                (self.balances[s] - self.cfg.opts.initial_chips) as f64 + self.pot as f64 / n as f64
            } else {
                0.0
            };
        }
    }
    fn scores(&self, out: &mut [i64]) {
        let n = self.cfg.n;
        out[..n].copy_from_slice(&self.balances[..n]);
    }
    fn deals(&self) -> u32 {
        self.deals_played + (self.phase != Phase::End) as u32
    }
    fn observation(&self, player: usize, out: &mut [f32]) -> Result<()> {
        self.observation_into(player as i64, out)
    }
    fn to_json(&self) -> String {
        serial::to_json(self)
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
            self.deals_played + (self.phase != Phase::End) as u32,
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
        let _ = suit_mask(0);
        Ok(())
    }
}
