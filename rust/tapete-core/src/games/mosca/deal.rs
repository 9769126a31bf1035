//! A deal up to its tricks (docs/mosca_engine.md §3, §4): the seats, the ante, the deal in
//! packets, the mosca check, the declarations with their exchange, the dealer's turn-up step and
//! RESOLVE (throw-in, lone player, or tricks).

use super::notation::{mask_cards, slot_card, LEAVE, PASS, PLAY0, TAKE0};
use super::options::{Ante, DealPackets, ExchangeLimit, LonePlayer, MoscaBonus, MoscaTie};
use super::{MoscaState, Phase, MAX_SEATS};
use crate::cards::{Card, CardSet};
use crate::game::Action;

impl MoscaState {
    // ----- seats -----

    /// The next seat after `s` still in the match; `s` itself when no other seat is left.
    #[inline]
    pub(super) fn next_seat(&self, s: usize) -> usize {
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
    /// The next seat after `s` that chose PLAY (there is one).
    #[inline]
    pub(super) fn next_active(&self, s: usize) -> usize {
        let n = self.cfg.n;
        let mut t = (s + 1) % n;
        while self.declarations[t] != 1 {
            t = (t + 1) % n;
        }
        t
    }
    #[inline]
    pub(super) fn mano(&self) -> usize {
        self.next_seat(self.dealer as usize)
    }
    pub(super) fn seats_in_match(&self) -> usize {
        self.eliminated[..self.cfg.n]
            .iter()
            .filter(|&&e| !e)
            .count()
    }

    // ----- the deal -----

    pub(super) fn begin_match(&mut self, deck: Option<&[u8]>) {
        if self.start_deal(deck) {
            self.finish_deal();
        }
    }

    /// DEAL_START (ante, deal, mosca check). True when the deal already ended (a mosca).
    pub(super) fn start_deal(&mut self, deck: Option<&[u8]>) -> bool {
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
    pub(super) fn deal_pack(&mut self, pack: &[u8]) {
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

    // ----- chips -----

    #[inline]
    pub(super) fn pay(&mut self, seat: usize, chips: i64) {
        self.balances[seat] -= chips;
        self.pot += chips;
    }
    #[inline]
    pub(super) fn take(&mut self, seat: usize, chips: i64) {
        self.balances[seat] += chips;
        self.pot -= chips;
    }

    /// The penalty of a zero-trick player (or a mosca's other players): an int, or the pot now.
    #[inline]
    pub(super) fn penalty(&self, pot_now: i64) -> i64 {
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

    // ----- declarations -----

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

    /// The most cards the declaring seat may exchange now (docs/rules/mosca.md §4.1).
    #[inline]
    pub(super) fn exchange_limit(&self) -> u32 {
        let t = (self.talon_len - self.talon_pos) as u32;
        if self.cfg.opts.exchange_limit == ExchangeLimit::Max3 {
            t.min(3)
        } else {
            t.min(5)
        }
    }

    /// PASS, or PLAY(mask): the masked slots of the sorted hand go to the discard pile and as many
    /// cards come from the top of the talon. The dealer's declaration ends the round.
    #[inline]
    pub(super) fn declare(&mut self, a: Action) {
        let s = self.to_move as usize;
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

    /// TAKE_TURNUP(slot): the slot's card goes out face down, the turn-up joins the hand; or
    /// LEAVE_TURNUP. Then RESOLVE.
    pub(super) fn turnup_step(&mut self, a: Action) {
        let s = self.to_move as usize;
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
}
