//! The Musta Maija engine (docs/musta_maija_engine.md is the contract).

mod heuristic;
pub mod notation;
pub mod options;
mod primitives;
mod resample;
pub mod rules;
mod serial;
#[cfg(test)]
mod tests;

use std::fmt;
use std::sync::Arc;

use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::game::{Action, Game, State};
use crate::obs::Sink;
use crate::rng::{mod_small, SplitMix64};

pub use notation::{action_to_string, string_to_action, NUM_ACTIONS};
use notation::{Move, DONE, TAKE_ALL};
pub use options::MustaMaijaOptions;
use options::{DrawOrder, MatchMode, NextDealer, TrumpReveal};
use rules::{beaters, max_matching, MAIJA};

pub const MAX_SEATS: usize = 6;
/// At most 13 cards of one suit can be attacked at once.
const MAX_PAIRS: usize = 13;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    Attack,
    Defend,
    End,
}

impl Phase {
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Attack => "attack",
            Phase::Defend => "defend",
            Phase::End => "end",
        }
    }
}

/// Options plus what is derived from them once.
#[derive(Debug)]
pub struct Config {
    pub opts: MustaMaijaOptions,
    pub json: String,
    pub n: usize,
    pub obs_size: usize,
}

/// A resolved Musta Maija game: a factory of states.
#[derive(Clone, Debug)]
pub struct MustaMaijaGame {
    cfg: Arc<Config>,
}

#[derive(Debug)]
pub struct MustaMaijaState {
    cfg: Arc<Config>,
    hands: [CardSet; MAX_SEATS],
    /// Cards everybody saw enter each hand (docs/musta_maija_engine.md §3).
    known: [CardSet; MAX_SEATS],
    /// The stock bottom first: the top card is `stock[stock_len - 1]`.
    stock: [u8; 52],
    stock_len: u8,
    out_of_play: CardSet,
    attack: CardSet,
    /// Pairs `(target, defence)` beaten in this defence, ascending target.
    pairs: [[u8; 2]; MAX_PAIRS],
    n_pairs: u8,
    beaten_t: CardSet,
    beaten_c: CardSet,
    left: CardSet,
    turned: CardSet,
    /// The trump card id, −1 before it is turned.
    trump: i8,
    phase: Phase,
    attacker: i8,
    defender: i8,
    dealer: u8,
    attacks: u32,
    hand_no: u32,
    losses: [u32; MAX_SEATS],
    rng: SplitMix64,
    history: Vec<u8>,
}

crate::clone_reusing!(MustaMaijaState; history; hands, known, stock, stock_len, out_of_play,
    attack, pairs, n_pairs, beaten_t, beaten_c, left, turned, trump, phase, attacker, defender,
    dealer, attacks, hand_no, losses, rng);

impl PartialEq for MustaMaijaState {
    fn eq(&self, o: &Self) -> bool {
        self.cfg.json == o.cfg.json && self.to_json() == o.to_json()
    }
}

impl MustaMaijaGame {
    fn from_typed(opts: MustaMaijaOptions, json: String) -> MustaMaijaGame {
        let n = opts.players as usize;
        MustaMaijaGame {
            cfg: Arc::new(Config {
                obs_size: 370 + 57 * n,
                opts,
                json,
                n,
            }),
        }
    }

    pub fn options(&self) -> &MustaMaijaOptions {
        &self.cfg.opts
    }

    fn blank(&self, seed: u64) -> MustaMaijaState {
        MustaMaijaState {
            cfg: self.cfg.clone(),
            hands: [CardSet::EMPTY; MAX_SEATS],
            known: [CardSet::EMPTY; MAX_SEATS],
            stock: [0; 52],
            stock_len: 0,
            out_of_play: CardSet::EMPTY,
            attack: CardSet::EMPTY,
            pairs: [[0; 2]; MAX_PAIRS],
            n_pairs: 0,
            beaten_t: CardSet::EMPTY,
            beaten_c: CardSet::EMPTY,
            left: CardSet::EMPTY,
            turned: CardSet::EMPTY,
            trump: -1,
            phase: Phase::Attack,
            attacker: 0,
            defender: 1,
            dealer: 0,
            attacks: 0,
            hand_no: 1,
            losses: [0; MAX_SEATS],
            rng: SplitMix64::new(seed),
            history: Vec::with_capacity(128),
        }
    }

    /// A new match: the first dealer drawn, the first hand dealt from `deck` or shuffled
    /// (docs/musta_maija_engine.md §5).
    fn deal_match(&self, seed: u64, deck: Option<[u8; 52]>) -> MustaMaijaState {
        let mut s = self.blank(seed);
        s.choose_first_dealer();
        s.start_hand(deck);
        s
    }
}

impl Game for MustaMaijaGame {
    crate::game_folder!(MustaMaijaState, "musta_maija", MustaMaijaOptions);

    /// Scores count losses (docs/musta_maija_engine.md §4).
    fn score_sign(&self) -> i64 {
        -1
    }
}

crate::config_accessors!(MustaMaijaState, MustaMaijaOptions);

impl MustaMaijaState {
    // ----- accessors -----

    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn hand(&self, seat: usize) -> CardSet {
        self.hands[seat]
    }
    pub fn known(&self, seat: usize) -> CardSet {
        self.known[seat]
    }
    /// The stock, top first.
    pub fn stock(&self) -> Vec<u8> {
        self.stock[..self.stock_len as usize]
            .iter()
            .rev()
            .copied()
            .collect()
    }
    pub fn stock_len(&self) -> usize {
        self.stock_len as usize
    }
    pub fn out_of_play(&self) -> CardSet {
        self.out_of_play
    }
    pub fn attack(&self) -> CardSet {
        self.attack
    }
    pub fn beaten_pairs(&self) -> &[[u8; 2]] {
        &self.pairs[..self.n_pairs as usize]
    }
    pub fn left(&self) -> CardSet {
        self.left
    }
    pub fn turned(&self) -> CardSet {
        self.turned
    }
    pub fn trump_card(&self) -> Option<Card> {
        (self.trump >= 0).then_some(Card(self.trump as u8))
    }
    #[inline]
    pub fn trump_suit(&self) -> Option<u8> {
        (self.trump >= 0).then_some(self.trump as u8 / 13)
    }
    /// The trump card is still the bottom card of the stock.
    pub fn trump_in_stock(&self) -> bool {
        self.trump >= 0 && self.stock_len > 0 && self.stock[0] == self.trump as u8
    }
    pub fn attacker(&self) -> Option<usize> {
        (self.attacker >= 0).then_some(self.attacker as usize)
    }
    pub fn defender(&self) -> Option<usize> {
        (self.defender >= 0).then_some(self.defender as usize)
    }
    pub fn dealer(&self) -> usize {
        self.dealer as usize
    }
    pub fn attacks(&self) -> u32 {
        self.attacks
    }
    pub fn hand_number(&self) -> u32 {
        self.hand_no
    }
    pub fn losses(&self) -> &[u32] {
        &self.losses[..self.n()]
    }
    /// The current target in DEFEND.
    #[inline]
    pub fn target(&self) -> Option<Card> {
        if self.phase != Phase::Defend {
            return None;
        }
        self.undecided().first()
    }
    #[inline]
    fn undecided(&self) -> CardSet {
        self.attack.minus(self.beaten_t).minus(self.left)
    }
    /// Match losers (docs/musta_maija_engine.md §4): the seats with the most losses, once terminal.
    pub fn losers(&self) -> Vec<usize> {
        if !self.is_terminal() {
            return Vec::new();
        }
        let m = *self.losses().iter().max().unwrap_or(&0);
        (0..self.n()).filter(|&s| self.losses[s] == m).collect()
    }

    fn write_returns(&self, out: &mut [f64]) {
        out.iter_mut().for_each(|x| *x = 0.0);
        if !self.is_terminal() {
            return;
        }
        let n = self.n();
        let losers = self.losers();
        let k = losers.len();
        if k == 0 || k == n {
            return;
        }
        for (s, x) in out.iter_mut().enumerate().take(n) {
            *x = if losers.contains(&s) {
                -1.0 / k as f64
            } else {
                1.0 / (n - k) as f64
            };
        }
    }

    #[inline]
    fn active(&self, s: usize) -> bool {
        !self.hands[s].is_empty() || self.stock_len > 0
    }

    /// First active seat after `s` (may be `s` itself when nobody else is).
    #[inline]
    fn next_active(&self, s: usize) -> usize {
        let n = self.n();
        let mut x = s;
        for _ in 0..n {
            x = if x + 1 == n { 0 } else { x + 1 };
            if self.active(x) {
                return x;
            }
        }
        s
    }

    // ----- dealing -----

    fn choose_first_dealer(&mut self) {
        self.dealer = match self.opts().first_dealer {
            Some(d) => d,
            None => mod_small(self.rng.next_u64(), self.n() as u64) as u8,
        };
    }

    fn start_hand(&mut self, deck: Option<[u8; 52]>) {
        let pack = deck.unwrap_or_else(|| {
            let mut p = [0u8; 52];
            for (i, x) in p.iter_mut().enumerate() {
                *x = i as u8;
            }
            self.rng.shuffle(&mut p);
            p
        });
        let n = self.n();
        let hs = self.opts().hand_size as usize;
        self.hands = [CardSet::EMPTY; MAX_SEATS];
        self.known = [CardSet::EMPTY; MAX_SEATS];
        self.out_of_play = CardSet::EMPTY;
        self.clear_table();
        self.turned = CardSet::EMPTY;
        self.trump = -1;
        self.attacks = 0;
        for k in 0..n {
            let seat = (self.dealer as usize + 1 + k) % n;
            for j in 0..hs {
                self.hands[seat].insert(Card(pack[k + j * n]));
            }
        }
        let rest = &pack[n * hs..];
        self.stock_len = rest.len() as u8;
        for (i, &c) in rest.iter().rev().enumerate() {
            self.stock[i] = c;
        }
        if self.opts().trump_reveal == TrumpReveal::AtDeal {
            self.turn_trump();
        }
        self.start_attack((self.dealer as usize + 1) % n);
    }

    /// Trump determination on the current stock (docs/musta_maija_engine.md §5 step 3).
    fn turn_trump(&mut self) {
        let len = self.stock_len as usize;
        if len == 0 {
            return;
        }
        let mut top_first = [0u8; 52];
        for (dst, &src) in top_first.iter_mut().zip(self.stock[..len].iter().rev()) {
            *dst = src;
        }
        let cfg = self.cfg.clone();
        let (t, turned) = rules::determine_trump(&cfg.opts, &mut top_first[..len], &mut self.rng);
        for (dst, &src) in self.stock[..len].iter_mut().rev().zip(&top_first[..len]) {
            *dst = src;
        }
        self.trump = t.0 as i8;
        self.turned = turned;
    }

    fn clear_table(&mut self) {
        self.attack = CardSet::EMPTY;
        self.n_pairs = 0;
        self.beaten_t = CardSet::EMPTY;
        self.beaten_c = CardSet::EMPTY;
        self.left = CardSet::EMPTY;
    }

    #[inline]
    fn start_attack(&mut self, a: usize) {
        self.phase = Phase::Attack;
        self.attacker = a as i8;
        self.defender = self.next_active(a) as i8;
    }

    #[inline]
    fn refill(&mut self, seat: usize) {
        let hs = self.opts().hand_size;
        while self.hands[seat].len() < hs && self.stock_len > 0 {
            self.stock_len -= 1;
            let c = Card(self.stock[self.stock_len as usize]);
            self.hands[seat].insert(c);
            if c.0 as i8 == self.trump {
                // the face-up trump card: everybody sees who takes it
                self.known[seat].insert(c);
            }
        }
    }

    // ----- legal actions -----

    /// Cards legal in ATTACK, as a mask.
    #[inline]
    fn attack_mask(&self) -> u64 {
        let a = self.attacker as usize;
        let d = self.defender as usize;
        let cap = self.opts().attack_cap(self.hands[d].len());
        if self.attack.len() >= cap {
            return 0;
        }
        let hand = self.hands[a].0;
        match self.attack.last() {
            None => hand,
            Some(top) => {
                let above = !((2u64 << top.0) - 1);
                hand & rules::suit_mask(top.suit()) & above
            }
        }
    }

    /// DEFEND legality with `beat_optional=false` (docs/musta_maija_engine.md §3): the beaten count must still be
    /// able to reach the maximum matching. Kept out of line: the default path never comes here.
    #[cold]
    #[inline(never)]
    fn mandatory_defence<F: FnMut(Action)>(&self, t: Card, mut m: u64, f: &mut F) {
        let hand = self.hands[self.defender as usize];
        let tr = self.trump_suit();
        let need = max_matching(self.attack, hand.union(self.beaten_c), tr);
        let b = self.n_pairs as u32;
        let later = CardSet(self.attack.0 & !((2u64 << t.0) - 1));
        while m != 0 {
            let c = m.trailing_zeros();
            m &= m - 1;
            let h = CardSet(hand.0 & !(1u64 << c));
            if b + 1 + max_matching(later, h, tr) >= need {
                f(c);
            }
        }
        if b + max_matching(later, hand, tr) >= need {
            f(DONE);
        }
        if b >= need {
            f(TAKE_ALL);
        }
    }

    fn step(&mut self, a: Action) {
        self.history.push(a as u8);
        match self.phase {
            Phase::Attack => {
                if a == DONE {
                    self.commit_attack();
                } else {
                    let c = Card(a as u8);
                    let s = self.attacker as usize;
                    self.hands[s].remove(c);
                    self.known[s].remove(c);
                    self.attack.insert(c);
                }
            }
            Phase::Defend => {
                let Some(t) = self.target() else { return };
                match a {
                    DONE => self.left.insert(t),
                    TAKE_ALL => self.left = self.left.union(self.undecided()),
                    _ => {
                        let c = Card(a as u8);
                        let d = self.defender as usize;
                        self.hands[d].remove(c);
                        self.known[d].remove(c);
                        self.pairs[self.n_pairs as usize] = [t.0, c.0];
                        self.n_pairs += 1;
                        self.beaten_t.insert(t);
                        self.beaten_c.insert(c);
                    }
                }
                if self.undecided().is_empty() {
                    self.resolve();
                }
            }
            Phase::End => {}
        }
    }

    fn commit_attack(&mut self) {
        self.attacks += 1;
        if self.trump < 0 {
            self.turn_trump();
        }
        if self.opts().draw_order == DrawOrder::AttackerThenDefender {
            self.refill(self.attacker as usize);
        }
        self.phase = Phase::Defend;
    }

    fn resolve(&mut self) {
        let a = self.attacker as usize;
        let d = self.defender as usize;
        self.out_of_play = self.out_of_play.union(self.beaten_t).union(self.beaten_c);
        let picked = self.left;
        self.hands[d] = self.hands[d].union(picked);
        self.known[d] = self.known[d].union(picked);
        let all_beaten = picked.is_empty();
        self.clear_table();
        self.refill(d);
        if self.opts().draw_order == DrawOrder::DefenderThenAttacker {
            self.refill(a);
        }
        // NEXT (docs/rules/musta_maija.md §3)
        let n = self.n();
        if self.stock_len == 0 {
            let mut holders = 0;
            let mut last = 0;
            for s in 0..n {
                if !self.hands[s].is_empty() {
                    holders += 1;
                    last = s;
                }
            }
            if holders <= 1 {
                let loser = if holders == 1 { last } else { self.cap_loser() };
                self.end_hand(loser);
                return;
            }
        }
        if self.opts().max_attacks == Some(self.attacks) {
            let loser = self.cap_loser();
            self.end_hand(loser);
            return;
        }
        let next = if all_beaten && self.active(d) {
            d
        } else {
            self.next_active(d)
        };
        self.start_attack(next);
    }

    /// The loser at the cap: the Maija holder, else (Maija in the stock) the seat with the most
    /// cards, lowest on a tie (docs/musta_maija_engine.md §4).
    fn cap_loser(&self) -> usize {
        let n = self.n();
        if let Some(s) = (0..n).find(|&s| self.hands[s].contains(MAIJA)) {
            return s;
        }
        let mut best = 0;
        for s in 1..n {
            if self.hands[s].len() > self.hands[best].len() {
                best = s;
            }
        }
        best
    }

    fn end_hand(&mut self, loser: usize) {
        self.losses[loser] += 1;
        let cfg = self.cfg.clone();
        let o = &cfg.opts;
        let over = match o.match_mode {
            MatchMode::SingleHand => true,
            MatchMode::FirstToLosses => self.losses[loser] >= o.match_losses,
            MatchMode::FixedHands => self.hand_no >= o.match_hands,
        };
        if over {
            self.phase = Phase::End;
            self.attacker = -1;
            self.defender = -1;
            return;
        }
        self.hand_no += 1;
        self.dealer = match o.next_dealer {
            NextDealer::Loser => loser as u8,
            NextDealer::RotateLeft => ((self.dealer as usize + 1) % self.n()) as u8,
        };
        self.start_hand(None);
    }

    /// A full move (docs/musta_maija_engine.md §3): atomic; the state is unchanged on error.
    fn play_move(&mut self, text: &str) -> Result<()> {
        let mv = notation::parse_move(text)?;
        let illegal =
            |why: String| GameError::IllegalAction(format!("move {text:?} is not legal: {why}"));
        let mut actions: Vec<Action> = Vec::new();
        match mv {
            Move::Attack(cards) => {
                if self.phase != Phase::Attack || !self.attack.is_empty() {
                    return Err(illegal(
                        "an attack is written only at the start of an attack".into(),
                    ));
                }
                let mut set = CardSet::EMPTY;
                for c in &cards {
                    if set.contains(*c) {
                        return Err(illegal(format!("{c} is written twice")));
                    }
                    set.insert(*c);
                }
                actions.extend(set.iter().map(|c| c.0 as Action));
                actions.push(DONE);
            }
            Move::Defend(toks) => {
                if self.phase != Phase::Defend || self.n_pairs > 0 || !self.left.is_empty() {
                    return Err(illegal(
                        "a defence is written only at the start of a defence".into(),
                    ));
                }
                if toks.len() != self.attack.len() as usize {
                    return Err(illegal(format!(
                        "it needs one card or '-' per attack card ({}), got {}",
                        self.attack.len(),
                        toks.len()
                    )));
                }
                actions.extend(toks.iter().map(|t| t.map_or(DONE, |c| c.0 as Action)));
            }
            Move::TakeAll => {
                if self.phase != Phase::Defend || self.n_pairs > 0 || !self.left.is_empty() {
                    return Err(illegal(
                        "'take all' is written only at the start of a defence".into(),
                    ));
                }
                actions.push(TAKE_ALL);
            }
        }
        let mut s = self.clone();
        for a in actions {
            s.apply(a).map_err(|e| illegal(e.message().to_string()))?;
        }
        *self = s;
        Ok(())
    }

    // ----- observation -----

    /// Writes the observation of seat `p` (docs/musta_maija_engine.md §8) into `out`.
    fn fill_observation<O: Sink + ?Sized>(&self, p: usize, out: &mut O) {
        let n = self.n();
        fn set<O: Sink + ?Sized>(out: &mut O, off: usize, s: CardSet) {
            for c in s.iter() {
                out.set(off + c.0 as usize, 1.0);
            }
        }
        let seat = |j: usize| (p + j) % n;
        set(out, 0, self.hands[p]);
        if let Some(t) = self.trump_card() {
            out.set(52 + t.suit() as usize, 1.0);
            out.set(56 + t.0 as usize, 1.0);
        }
        out.set(108, self.trump_in_stock() as u8 as f32);
        out.set(109, self.stock_len as f32);
        for j in 0..n {
            out.set(110 + j, self.hands[seat(j)].len() as f32);
            out.set(110 + n + j, (!self.active(seat(j))) as u8 as f32);
        }
        let b = 110 + 2 * n;
        set(out, b, self.out_of_play);
        set(out, b + 52, self.attack);
        set(out, b + 104, self.beaten_t);
        set(out, b + 156, self.beaten_c);
        if let Some(t) = self.target() {
            out.set(b + 208 + t.0 as usize, 1.0);
        }
        let k = b + 260;
        for j in 1..n {
            set(out, k + 52 * (j - 1), self.known[seat(j)]);
        }
        let t = 318 + 54 * n;
        set(out, t, self.turned);
        let r = 370 + 54 * n;
        for j in 0..n {
            let s = seat(j);
            if self.attacker == s as i8 {
                out.set(r + j, 1.0);
            }
            if self.defender == s as i8 {
                out.set(r + n + j, 1.0);
            }
            out.set(r + 2 * n + j, self.losses[s] as f32);
        }
    }
}

impl State for MustaMaijaState {
    crate::state_folder!(MustaMaijaGame);

    fn current_player(&self) -> Option<usize> {
        match self.phase {
            Phase::Attack => Some(self.attacker as usize),
            Phase::Defend => Some(self.defender as usize),
            Phase::End => None,
        }
    }
    #[inline]
    fn for_each_legal<F: FnMut(Action)>(&self, mut f: F) {
        match self.phase {
            Phase::End => {}
            Phase::Attack => {
                let mut m = self.attack_mask();
                while m != 0 {
                    f(m.trailing_zeros());
                    m &= m - 1;
                }
                if !self.attack.is_empty() {
                    f(DONE);
                }
            }
            Phase::Defend => {
                let Some(t) = self.target() else { return };
                let d = self.defender as usize;
                let hand = self.hands[d];
                let mut m = beaters(t, self.trump_suit()) & hand.0;
                if self.opts().beat_optional {
                    while m != 0 {
                        f(m.trailing_zeros());
                        m &= m - 1;
                    }
                    f(DONE);
                    f(TAKE_ALL);
                } else {
                    self.mandatory_defence(t, m, &mut f);
                }
            }
        }
    }

    fn apply_unchecked(&mut self, action: Action) {
        self.step(action)
    }
    fn illegal(&self, a: Action) -> GameError {
        let text = action_to_string(a).unwrap_or_default();
        if self.is_terminal() {
            return GameError::IllegalAction(format!(
                "action {text} is not legal: the match is over"
            ));
        }
        GameError::IllegalAction(format!(
            "action {text} is not legal for seat {} in the {} phase: legal are {}",
            self.current_player().unwrap_or(0),
            self.phase.as_str(),
            self.legal_actions_text()
        ))
    }
    crate::id_notation!();
    /// A full move (docs/musta_maija_engine.md §3): atomic; the state is unchanged on error.
    fn play(&mut self, text: &str) -> Result<()> {
        self.play_move(text)
    }
    fn is_terminal(&self) -> bool {
        self.phase == Phase::End
    }
    fn returns_into(&self, out: &mut [f64]) {
        self.write_returns(out)
    }
    fn scores_into(&self, out: &mut [i64]) {
        for (o, &l) in out.iter_mut().zip(self.losses()) {
            *o = l as i64;
        }
    }
    fn deals(&self) -> u32 {
        self.hand_no
    }
    fn view_json(&self, seat: usize) -> String {
        serial::view_json(self, Some(seat))
    }
    fn public_view_json(&self) -> String {
        serial::view_json(self, None)
    }
    fn write_observation(&self, seat: usize, out: &mut [f32]) {
        self.fill_observation(seat, out)
    }
    fn write_observation_entries(&self, seat: usize, _size: usize, out: &mut crate::obs::Entries) {
        self.fill_observation(seat, out)
    }
}

impl fmt::Display for MustaMaijaState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let trump = self
            .trump_card()
            .map_or("not turned".to_string(), |c| c.to_string());
        writeln!(
            f,
            "Musta Maija, hand {} (dealer {}), trump {trump}, stock {} cards, {} attacks",
            self.hand_no, self.dealer, self.stock_len, self.attacks
        )?;
        for s in 0..self.n() {
            let role = if self.attacker == s as i8 {
                " attacker"
            } else if self.defender == s as i8 {
                " defender"
            } else {
                ""
            };
            writeln!(
                f,
                "  seat {s}{role}: {} (losses {})",
                self.hands[s], self.losses[s]
            )?;
        }
        if !self.attack.is_empty() {
            write!(f, "  table: attack {}", self.attack)?;
            for [t, c] in self.beaten_pairs() {
                write!(f, "; {} beaten by {}", Card(*t), Card(*c))?;
            }
            if !self.left.is_empty() {
                write!(f, "; left {}", self.left)?;
            }
            writeln!(f)?;
        }
        match self.phase {
            Phase::End => write!(f, "  match over, losers {:?}", self.losers()),
            _ => write!(
                f,
                "  {} to {}",
                self.current_player().unwrap_or(0),
                self.phase.as_str()
            ),
        }
    }
}
