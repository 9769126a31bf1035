//! The cards of the Escoba packs as the rules read them: the 40-card pack, capture values, and the
//! sets of ranks and suits the scoring names (docs/rules/escoba.md §0.1, §0.2).

use crate::cards::{Card, CardSet};

pub const MAX_SIDES: usize = 6;
pub const MAX_SEATS: usize = 6;
/// Declarations in one deal: at most a tuzzoli and a knock per hand dealt (12 hands of 3 cards).
pub const MAX_DECLS: usize = 24;
/// Points per side.
pub type Points = [i64; MAX_SIDES];

const fn build_pack() -> [Card; 40] {
    let mut a = [Card(0); 40];
    let mut i = 0;
    let mut suit = 0;
    while suit < 4 {
        let mut r = 0;
        while r < 13 {
            if r < 7 || r >= 10 {
                a[i] = Card(13 * suit + r);
                i += 1;
            }
            r += 1;
        }
        suit += 1;
    }
    a
}

/// The 40-card pack, ascending id.
pub const PACK: [Card; 40] = build_pack();

const fn build_pack_mask() -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < 40 {
        m |= 1u64 << PACK[i].0;
        i += 1;
    }
    m
}
pub const PACK_MASK: CardSet = CardSet(build_pack_mask());

#[inline]
pub fn is_pack_card(c: Card) -> bool {
    c.0 < 52 && PACK_MASK.contains(c)
}

/// Capture value: A..7 = 1..7, J = 8, Q = 9, K = 10; the 52-card pack's 8, 9, 10 = 8, 9, 10.
#[inline]
pub const fn value(c: Card) -> u8 {
    const V: [u8; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 8, 9, 10];
    V[(c.0 % 13) as usize]
}

const fn build_value_masks() -> [u64; 11] {
    let mut m = [0u64; 11];
    let mut i = 0;
    while i < 52 {
        m[value(Card(i)) as usize] |= 1u64 << i;
        i += 1;
    }
    m
}
/// Cards of each capture value 1..=10 (a 40-card pack never holds the 8, 9 and 10).
pub const VALUE_MASK: [u64; 11] = build_value_masks();

pub const fn rank_mask(rank: u8) -> u64 {
    let mut m = 0u64;
    let mut s = 0;
    while s < 4 {
        m |= 1u64 << (13 * s + rank - 1);
        s += 1;
    }
    m
}
pub const ACES: CardSet = CardSet(rank_mask(1));
pub const SEVENS: CardSet = CardSet(rank_mask(7));
pub const KINGS: CardSet = CardSet(rank_mask(13));
/// The ten coins (suit d) of the pack.
pub const COINS: CardSet = CardSet(PACK_MASK.0 & (0x1FFFu64 << 13));
pub const SETTEBELLO: Card = Card(13 + 6);
/// The FRAC scoring cards: every A, J, Q, K (docs/rules/escoba.md §2.16).
pub const FRAC_CARDS: CardSet =
    CardSet(rank_mask(1) | rank_mask(11) | rank_mask(12) | rank_mask(13));

/// The same-rank cards of rank `r` (1..=13).
#[inline]
pub const fn rank_cards(r: u8) -> CardSet {
    CardSet(rank_mask(r))
}
