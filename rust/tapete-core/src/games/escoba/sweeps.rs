//! The sweeps of a deal as they score (docs/rules/escoba.md §1.5): the list per side, the `Ks` and
//! twin sweeps among them, and the streak that `max_consecutive_sweeps` caps.

use super::*;

impl EscobaState {
    /// A play of `side` with `c` made a sweep that scores (docs/rules/escoba.md §1.5); `twin`: it
    /// took `c`'s twin. Beyond `max_consecutive_sweeps` in a row it scores nothing.
    pub(super) fn sweep(&mut self, side: usize, c: Card, twin: bool) {
        let o = &self.cfg.opts;
        if let Some(cap) = o.max_consecutive_sweeps {
            self.streak.runs[side] += 1;
            if self.streak.runs[side] > cap {
                return;
            }
        }
        if (self.n_sweeps as usize) < MAX_SWEEPS {
            let bit = 1u128 << self.n_sweeps;
            if maresciallo::is_ks_sweep(o, c) {
                self.maresciallo.ks_sweeps |= bit;
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
            self.streak.runs[side] = 0;
        }
    }

    /// The last play of the deal was just made: no stock, every hand empty.
    #[inline]
    pub(super) fn deal_played_out(&self) -> bool {
        self.stock_pos as usize == self.cfg.pack
            && self.hands[..self.n()].iter().all(|h| h.is_empty())
    }

    /// Per side, how many of this deal's sweeps `marked` lists (indices into `sweeps`).
    pub(super) fn sweeps_per_side(&self, marked: impl Iterator<Item = usize>) -> [u32; MAX_SIDES] {
        let mut per = [0; MAX_SIDES];
        for i in marked {
            per[self.sweeps[i] as usize] += 1;
        }
        per
    }

    #[inline]
    pub(super) fn push_sweep(&mut self, side: usize) {
        if (self.n_sweeps as usize) < MAX_SWEEPS {
            self.sweeps[self.n_sweeps as usize] = side as u8;
            self.n_sweeps += 1;
        }
    }
}
