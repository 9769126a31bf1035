//! The end of a hand and of the match: each team's hand score (docs/burako_engine.md §9,
//! docs/rules/burako.md §7), the next mano, the winner and the returns.

use super::rules;
use super::{team, BurakoState};

impl BurakoState {
    /// Hand score of team `t` (docs/burako_engine.md §9); `closer` is the team that closed.
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

    /// Scores the hand; ends the match or deals the next hand (docs/burako_engine.md §9).
    pub(super) fn end_hand(&mut self, closer: Option<usize>) {
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

    /// +1 for the winning team's seats, −1 for the others, 0 before the end or on a draw.
    pub(super) fn write_returns(&self, out: &mut [f64]) {
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
}
