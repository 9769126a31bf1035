//! Scopa a fidasse (docs/rules/escoba.md §2.19): a sweep claimed with a face-down card, on trust.
//!
//! `CLAIM(c)` plays `c` face down and takes the question to the opponents in play order;
//! `TRUST` passes it on, the first `DOUBT` shows the card. A trusted claim card stays face down
//! (hidden from every other seat) in the claimant's pile until the end-of-deal scoring.

use super::notation::{CLAIM, DOUBT, TRUST};
use super::options::{refuse_clashes, EscobaOptions};
use super::{rules, EscobaState};
use crate::cards::{Card, CardSet};
use crate::error::GameError;
use crate::game::Action;

/// Option clashes: a claim is a face-down sweep, which the public pile tops of `steal`, the shown
/// hands of knocks and the public `Ks` sweeps of `maresciallo_penalty` would give away.
pub fn validate(o: &EscobaOptions) -> Result<(), GameError> {
    if !o.fidasse {
        return Ok(());
    }
    refuse_clashes(
        "fidasse=true (docs/rules/escoba.md §2.19)",
        &[
            ("steal", o.steal),
            ("knocks", super::knock::enabled(o)),
            ("last_hand_open", o.last_hand_open),
            ("maresciallo_penalty", o.maresciallo_penalty),
        ],
    )
}

impl EscobaState {
    /// The play about to be made is the last of the deal: the stock is empty and the mover's
    /// card (in hand or pending) is the only one left.
    pub(super) fn is_last_play(&self) -> bool {
        let mover = self.to_move as usize;
        let held = self.hands[mover].len() + u32::from(self.pending >= 0);
        self.stock_pos as usize == self.cfg.pack
            && held == 1
            && (0..self.n()).all(|s| s == mover || self.hands[s].is_empty())
    }

    /// With fidasse, `O(c)` drops the capture of the whole (non-empty) table except on the last
    /// play (docs/rules/escoba.md §2.19): that table, else `None`.
    #[inline]
    pub(super) fn sweep_filter(&self) -> Option<CardSet> {
        (self.opts().fidasse && !self.table.is_empty() && !self.is_last_play())
            .then_some(self.table)
    }

    /// `CLAIM(c)` is legal for every card in hand when the table is not empty and this is not
    /// the last play.
    pub(super) fn claims_allowed(&self) -> bool {
        self.opts().fidasse && self.pending < 0 && self.claim < 0 && self.sweep_filter().is_some()
    }

    /// The next opponent of the claimant after `seat` in play order, before coming back round
    /// to the claimant.
    fn next_asked(&self, seat: usize) -> Option<usize> {
        let n = self.n();
        let claimant = self.claimant as usize;
        let side = self.side(claimant);
        (1..n)
            .map(|k| (seat + k) % n)
            .take_while(|&s| s != claimant)
            .find(|&s| self.side(s) != side && self.in_play >> s & 1 != 0)
    }

    /// Cards `p` may not see: the other seats' trusted claims and an open claim of another seat.
    pub(super) fn hidden_from(&self, p: usize) -> CardSet {
        let mut h = CardSet::EMPTY;
        for s in (0..self.n()).filter(|&s| s != p) {
            h = h.union(self.claimed[s]);
        }
        if self.claim >= 0 && self.claimant as usize != p {
            h.insert(Card(self.claim as u8));
        }
        h
    }

    /// A claim is real iff the whole table is one of `Captures(c, T)` (docs/rules/escoba.md §2.19).
    fn claim_is_real(&self, c: Card) -> bool {
        let mut real = false;
        rules::for_each_capture(self.opts(), self.matta(), c, self.table, |cards, _| {
            real |= cards == self.table;
        });
        real
    }

    /// Applies `CLAIM(c)`, `TRUST` or `DOUBT` (known legal; the history is already written).
    pub(super) fn apply_fidasse(&mut self, a: Action) {
        if (CLAIM..TRUST).contains(&a) {
            let seat = self.to_move as usize;
            let c = Card((a - CLAIM) as u8);
            self.hands[seat].remove(c);
            self.claim = c.0 as i8;
            self.claimant = seat as i8;
            self.to_move = self.next_asked(seat).unwrap_or(seat) as i8;
            return;
        }
        let c = Card(self.claim as u8);
        let claimant = self.claimant as usize;
        let side = self.side(claimant);
        if a == TRUST {
            if let Some(next) = self.next_asked(self.to_move as usize) {
                self.to_move = next as i8;
                return;
            }
            self.claimed[claimant].insert(c);
            self.claim_stands(c, side);
        } else if a == DOUBT {
            let doubter = self.side(self.to_move as usize);
            if self.claim_is_real(c) {
                self.scores[doubter] = self.scores[doubter].saturating_sub(1);
                self.claim_stands(c, side);
            } else {
                // cancelled: the card is shown and trails, the claimant's side loses a point
                self.table.insert(c);
                self.scores[side] = self.scores[side].saturating_sub(1);
                self.no_sweep(side);
            }
        }
        self.claim = -1;
        self.claimant = -1;
        self.to_move = claimant as i8;
        self.advance();
    }

    fn claim_stands(&mut self, c: Card, side: usize) {
        self.piles[side] = self.piles[side].union(self.table);
        self.piles[side].insert(c);
        self.table = CardSet::EMPTY;
        self.last_capturer = side as i8;
        self.sweep(side, c, false);
    }

    /// Legal actions while a claim waits for an answer.
    pub(super) fn answer_actions() -> [Action; 2] {
        [TRUST, DOUBT]
    }

    /// `TRUST` or `DOUBT`.
    pub(super) fn is_answer(a: Action) -> bool {
        a == TRUST || a == DOUBT
    }
}
