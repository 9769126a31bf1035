//! What a state holds, read from outside: hands, table, piles, sweeps, declarations, the match.

use super::*;

impl EscobaState {
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

    pub fn pile(&self, side: usize) -> CardSet {
        self.piles.get(side).copied().unwrap_or_default()
    }

    /// Top card of a side's pile (kept with `steal` only).
    pub fn pile_top(&self, side: usize) -> Option<Card> {
        self.steal
            .tops
            .get(side)
            .filter(|&&t| t >= 0)
            .map(|&t| Card(t as u8))
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
        (self.fidasse.claim >= 0).then_some(Card(self.fidasse.claim as u8))
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

    /// The cards of `seat`'s hand that every seat sees: a knocked hand (docs/rules/escoba.md §2.7),
    /// or any hand of the last hand with `last_hand_open` (docs/rules/escoba.md §2.23).
    pub fn shown(&self, seat: usize) -> CardSet {
        let parts = self.cfg.parts.view.iter();
        parts.fold(CardSet::EMPTY, |a, f| a.union(f.shown(self, seat)))
    }

    /// Cards of the piles or the table that `p` may not see: the other seats' trusted fidasse
    /// claims (docs/rules/escoba.md §2.19).
    pub fn hidden_from(&self, p: usize) -> CardSet {
        let parts = self.cfg.parts.view.iter();
        parts.fold(CardSet::EMPTY, |a, f| a.union(f.hidden_from(self, p)))
    }

    /// Indices in `sweeps` of the sweeps that took the played card's twin (docs/escoba_engine.md §1a).
    pub fn twin_sweeps(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n_sweeps as usize).filter(|&i| i < 128 && self.twin.sweeps >> i & 1 != 0)
    }

    /// Indices in `sweeps` of the sweeps made by playing `Ks` (maresciallo_penalty), ascending.
    pub fn ks_sweeps(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n_sweeps as usize).filter(|&i| self.maresciallo.ks_sweeps >> i & 1 != 0)
    }

    /// Sides that made a sweep by playing `Ks` this deal, as a bit mask.
    pub(super) fn ks_sides(&self) -> u32 {
        self.ks_sweeps().fold(0, |m, i| m | 1 << self.sweeps[i])
    }

    /// Hand declarations of this deal as (seat, kind, sweeps made before it), in order.
    pub fn declarations(&self) -> &[[u8; 3]] {
        &self.decls.list[..self.decls.n as usize]
    }

    /// Seats still in the match, as a bit per seat.
    pub fn in_play(&self) -> u8 {
        self.elimination.in_play
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

    pub(super) fn write_returns(&self, out: &mut [f64]) {
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
}
