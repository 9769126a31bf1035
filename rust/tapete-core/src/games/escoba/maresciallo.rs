//! Maresciallo's penalty and bonus cards (docs/rules/escoba.md §2.18): −1 for holding `Ks`, −4 for
//! a sweep made by playing it, +1 for the polacca (the coin *donna* with `7d`), −1 for the saponaro
//! (the sword *donna* with `Ks`).

use crate::cards::{Card, CardSet};

use super::options::{DonnaRank, EscobaOptions, MarescialloSweep};

/// Bit i: sweep i of this deal was made by playing `Ks` (maresciallo_penalty).
#[derive(Clone, Copy, Debug)]
pub struct KsSweeps {
    pub ks_sweeps: u128,
}

impl KsSweeps {
    pub const NONE: KsSweeps = KsSweeps { ks_sweeps: 0 };
}

/// Il maresciallo.
pub const KS: Card = Card(3 * 13 + 12);
const SEVEN_D: Card = Card(13 + 6);
/// What a sweep made by playing `Ks` scores (instead of `scopa_value`).
pub const KS_SWEEP_POINTS: i64 = -4;

/// The *donna* of `suit` (docs/rules/escoba.md §2.18: the 8, `J`, by default; the 9, `Q`, as an
/// option).
pub(super) fn donna(rank: DonnaRank, suit: u8) -> Card {
    Card::new(
        suit,
        match rank {
            DonnaRank::J => 11,
            DonnaRank::Q => 12,
        },
    )
}

/// Whether a sweep made by playing `c` is a maresciallo sweep.
#[inline]
pub fn is_ks_sweep(o: &EscobaOptions, c: Card) -> bool {
    o.maresciallo_penalty && c == KS
}

/// The points of one sweep: `scopa_value`, or −4 when made by playing `Ks`.
#[inline]
pub fn sweep_points(o: &EscobaOptions, ks: bool) -> i64 {
    if ks && o.maresciallo_penalty {
        KS_SWEEP_POINTS
    } else {
        o.scopa_value
    }
}

/// The maresciallo awards in count-out order (docs/escoba_engine.md §7 item 9c), each
/// `(side, points)`: the `Ks` holder −1 (not under `maresciallo_sweep=total` when that side swept
/// with `Ks`, bit in `ks_sides`), the polacca +1, the saponaro −1.
pub fn awards<F: FnMut(usize, i64)>(
    o: &EscobaOptions,
    piles: &[CardSet],
    ks_sides: u32,
    mut give: F,
) {
    let holder = |c: Card| piles.iter().position(|p| p.contains(c));
    let both = |a: Card, b: Card| piles.iter().position(|p| p.contains(a) && p.contains(b));
    if o.maresciallo_penalty {
        if let Some(s) = holder(KS) {
            let replaced = o.maresciallo_sweep == MarescialloSweep::Total && ks_sides >> s & 1 != 0;
            if !replaced {
                give(s, -1);
            }
        }
    }
    if o.polacca {
        if let Some(s) = both(donna(o.polacca_card, 1), SEVEN_D) {
            give(s, 1);
        }
    }
    if o.saponaro {
        if let Some(s) = both(donna(o.saponaro_card, 3), KS) {
            give(s, -1);
        }
    }
}
