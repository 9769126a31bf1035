//! The tricks and what follows them (docs/mosca_engine.md §3, §4): a card played, the trick won,
//! SCORE after the fifth, DEAL_END (bankruptcies, the end of the match or the next deal) and the
//! end of the match.

use super::options::{Bankruptcy, LeftoverPot, PenaltyTiming, PotAward, TrickTie};
use super::{MoscaState, Phase, MAX_CHIPS, MAX_SEATS};
use crate::cards::Card;

impl MoscaState {
    /// The actor plays `c` (legal) to the trick; a complete trick goes to its winner, who leads
    /// the next; after the fifth, SCORE and DEAL_END.
    #[inline]
    pub(super) fn play_card(&mut self, c: Card) {
        let s = self.to_move as usize;
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

    /// SCORE (docs/rules/mosca.md §5.3 / §5.4).
    pub(super) fn score(&mut self) {
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
    pub(super) fn finish_deal(&mut self) {
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

    /// The end of the match: the leftover pot (an option), then terminal.
    pub(super) fn end_match(&mut self) {
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
}
