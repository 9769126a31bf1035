//! The observation of a seat (docs/escoba_engine.md §10): fixed blocks, then one block per
//! optional part in the contract's order. One walk of the layout both sizes and writes it.

use super::feature::{Layout, Parts};
use super::piles;
use super::EscobaState;
use crate::cards::{Card, CardSet};

impl EscobaState {
    /// Writes the observation of `player` (docs/escoba_engine.md §10) into `out`.
    pub(super) fn fill_observation(&self, p: usize, out: &mut [f32]) {
        let cfg = &self.cfg;
        let cn = cfg.opts.deck.slots();
        let mut w = Layout::writing(cn, cfg.n, cfg.sides, out, self, p);
        Self::lay_out(&cfg.parts, &mut w);
    }

    /// The observation's length for a game of `parts` with these dimensions.
    pub(super) fn observation_len(
        parts: &Parts<EscobaState>,
        cards: usize,
        n: usize,
        sides: usize,
    ) -> usize {
        let mut w = Layout::sizing(cards, n, sides);
        Self::lay_out(parts, &mut w);
        w.len()
    }

    fn lay_out(parts: &Parts<EscobaState>, w: &mut Layout<'_, EscobaState>) {
        let (cn, n, ns) = (w.cards, w.seats, w.sides);
        // hand, table, each side's pile, sweeps per side, stock size, pending, selection
        if let Some(mut b) = w.block(2 * cn + cn * ns + ns + 1 + 2 * cn) {
            let (st, p) = (b.st, b.p);
            let hidden = st.hidden_from(p);
            b.put(0, st.hands[p]);
            b.put(cn, st.table);
            for s in 0..ns {
                b.put(2 * cn + cn * s, st.piles[s].minus(hidden));
            }
            let at = 2 * cn + cn * ns;
            for &s in st.sweeps() {
                if (s as usize) < ns {
                    b.out[at + s as usize] += 1.0;
                }
            }
            b.out[at + ns] = st.stock().len() as f32;
            let pending = at + ns + 1;
            if st.pending >= 0 {
                b.out[pending + b.slot(Card(st.pending as u8))] = 1.0;
            }
            for f in &parts.obs {
                if let Some(c) = f.held(st, p) {
                    b.out[pending + b.slot(c)] = 1.0;
                }
            }
            b.put(pending + cn, CardSet(st.selection.0 & piles::CARD_BITS));
            if st.cfg.twins {
                // the double pack (docs/escoba_engine.md §1a): a card slot counts the copies
                let t = &st.twin;
                let planes = [(0, t.hands[p]), (cn, t.table), (pending + cn, t.selection)];
                for (base, set) in planes
                    .into_iter()
                    .chain((0..ns).map(|s| (2 * cn + cn * s, t.piles[s])))
                {
                    for c in set {
                        b.out[base + b.slot(c)] += 1.0;
                    }
                }
            }
        }
        // the seat, the dealer, the mover, hand sizes per seat, scores per side
        if let Some(b) = w.block(4 * n + ns) {
            let (st, p) = (b.st, b.p);
            b.out[p] = 1.0;
            b.out[n + st.dealer as usize] = 1.0;
            if !st.terminal {
                b.out[2 * n + st.to_move as usize] = 1.0;
            }
            for s in 0..n {
                b.out[3 * n + s] = st.hand_len(s) as f32;
            }
            for s in 0..ns {
                b.out[4 * n + s] = st.scores[s] as f32;
            }
        }
        for f in &parts.obs {
            f.observe(w);
        }
    }
}
