//! The observation of a seat (docs/escoba_engine.md §10): fixed blocks, then one block per
//! optional part in the contract's order.

use super::{builds, knock, piles, EscobaState, TargetMode};
use crate::cards::{Card, CardSet};

impl EscobaState {
    /// Writes the observation of `player` (docs/escoba_engine.md §10) into `out`.
    pub(super) fn fill_observation(&self, p: usize, out: &mut [f32]) {
        let n = self.n();
        let ns = self.cfg.sides;
        // C slots per card block: 10·suit + rank index in a 40-card pack, the id in 52 cards
        let cn = self.opts().deck.slots();
        let slot = |c: Card| -> usize {
            if cn == 52 {
                return c.0 as usize;
            }
            let r = c.0 % 13;
            10 * (c.0 / 13) as usize + if r < 7 { r as usize } else { r as usize - 3 }
        };
        let put = |out: &mut [f32], base: usize, set: CardSet| {
            for c in set {
                out[base + slot(c)] = 1.0;
            }
        };
        put(out, 0, self.hands[p]);
        put(out, cn, self.table);
        let hidden = self.hidden_from(p);
        for s in 0..ns {
            put(out, 2 * cn + cn * s, self.piles[s].minus(hidden));
        }
        let b = 2 * cn + cn * ns;
        for &s in self.sweeps() {
            if (s as usize) < ns {
                out[b + s as usize] += 1.0;
            }
        }
        out[b + ns] = self.stock().len() as f32;
        if self.pending >= 0 {
            out[b + ns + 1 + slot(Card(self.pending as u8))] = 1.0;
        }
        if self.claim >= 0 && self.claimant as usize == p {
            // the claimant knows the card it claimed with: in the pending slots
            out[b + ns + 1 + slot(Card(self.claim as u8))] = 1.0;
        }
        put(
            out,
            b + ns + 1 + cn,
            CardSet(self.selection.0 & piles::CARD_BITS),
        );
        if self.cfg.twins {
            // the double pack (docs/escoba_engine.md §1a): a card slot counts the copies
            let t = &self.twin;
            let planes = [
                (0, t.hands[p]),
                (cn, t.table),
                (b + ns + 1 + cn, t.selection),
            ];
            for (base, set) in planes
                .into_iter()
                .chain((0..ns).map(|s| (2 * cn + cn * s, t.piles[s])))
            {
                for c in set {
                    out[base + slot(c)] += 1.0;
                }
            }
        }
        let b = b + ns + 1 + 2 * cn;
        out[b + p] = 1.0;
        out[b + n + self.dealer as usize] = 1.0;
        if !self.terminal {
            out[b + 2 * n + self.to_move as usize] = 1.0;
        }
        for s in 0..n {
            out[b + 3 * n + s] = self.hand_len(s) as f32;
        }
        for s in 0..ns {
            out[b + 4 * n + s] = self.scores[s] as f32;
        }
        let mut b = b + 4 * n + ns;
        if self.opts().tuzzoli || self.cfg.knocks {
            for &[seat, kind, _] in self.declarations() {
                out[b + self.side(seat as usize)] += knock::decl_points(self.opts(), kind) as f32;
            }
            b += ns;
        }
        if self.opts().target_mode == TargetMode::Eliminate {
            for s in 0..n {
                out[b + s] = (self.in_play >> s & 1) as f32;
            }
            b += n;
        }
        if self.cfg.show {
            for s in 0..n {
                put(out, b + cn * s, self.shown(s));
            }
            out[b + cn * n] = if self.cfg.matta.bit != 0 {
                self.matta_value as f32
            } else {
                0.0
            };
            b += cn * n + 1;
        }
        if self.opts().steal {
            // docs/rules/escoba.md §2.21: the top of every pile is public; then the piles selected so far
            for s in 0..ns {
                if let Some(t) = self.pile_top(s) {
                    out[b + cn * s + slot(t)] = 1.0;
                }
            }
            let mut sel = self.selection.0 >> piles::PILE_BIT;
            while sel != 0 {
                out[b + cn * ns + sel.trailing_zeros() as usize] = 1.0;
                sel &= sel - 1;
            }
            b += (cn + 1) * ns;
        }
        if self.opts().maresciallo_penalty {
            for i in self.ks_sweeps() {
                out[b + self.sweeps[i] as usize] += 1.0;
            }
            b += ns;
        }
        if self.cfg.twins {
            // the double pack refuses fidasse and builds, so this block is the last
            for i in self.twin_sweeps() {
                out[b + self.sweeps[i] as usize] += 1.0;
            }
            b += ns;
        }
        if self.opts().fidasse {
            // face-down cards per side as `p` sees them, then the seat of an open claim
            for s in 0..ns {
                out[b + s] = self.piles[s].inter(hidden).len() as f32;
            }
            if self.claim >= 0 {
                out[b + ns + self.claimant as usize] = 1.0;
            }
            b += ns + n;
        }
        if self.opts().builds {
            // each card in a build carries the build's value (public, docs/rules/escoba.md §2.20)
            for &bl in self.builds.as_slice() {
                let v = builds::build_value(bl) as f32;
                for c in bl {
                    out[b + slot(c)] = v;
                }
            }
            b += cn;
        }
        if let Some(cap) = self.opts().max_consecutive_sweeps {
            // each side's streak against the cap, at most 1 (docs/rules/escoba.md §1.5)
            for s in 0..ns {
                out[b + s] = (self.streak[s] as f64 / cap as f64).min(1.0) as f32;
            }
        }
    }
}
