//! `target_mode=eliminate` (docs/rules/escoba.md §2.11, scopone romano al contrario): players at or
//! above the target leave at the end of a deal, the others deal on by the shape for the players
//! left.

use super::options::ElimDeal;

/// Seats still in the match (bit per seat); every seat unless `target_mode=eliminate`.
#[derive(Clone, Copy, Debug)]
pub struct InPlay {
    pub in_play: u8,
}

impl InPlay {
    /// All `n` seats.
    pub fn all(n: usize) -> InPlay {
        InPlay {
            in_play: ((1u32 << n) - 1) as u8,
        }
    }
}

/// `(initial_table_cards, cards_per_hand)` for `k` players in play (docs/escoba_engine.md §6a).
/// `table`: 5 → 5 + 7 each, 4 → 4 + 9 each, 3 and 2 → 4 + hands of 6 (2 and 3 hands).
/// `no_table`: every card at once; 3 players (40 is no multiple of 3) keep 4 on the table.
pub fn deal_shape(mode: ElimDeal, k: u8) -> (u8, u8) {
    match (mode, k) {
        (ElimDeal::Table, 5) => (5, 7),
        (ElimDeal::Table, 4) => (4, 9),
        (ElimDeal::NoTable, 5) => (0, 8),
        (ElimDeal::NoTable, 4) => (0, 10),
        (ElimDeal::NoTable, 3) => (4, 12),
        (ElimDeal::NoTable, 2) => (0, 20),
        _ => (4, 6),
    }
}

/// The seats of `mask` in order, starting after `from` (exclusive) and ending with `from` when
/// it is in the mask.
pub fn seats_after(mask: u8, from: usize, n: usize) -> impl Iterator<Item = usize> {
    (1..=n)
        .map(move |k| (from + k) % n)
        .filter(move |&s| mask >> s & 1 != 0)
}

/// The first seat of `mask` after `from` (exclusive), `from` itself when it is the only one.
pub fn next_in(mask: u8, from: usize, n: usize) -> usize {
    seats_after(mask, from, n).next().unwrap_or(from)
}

/// The match decision after a deal (docs/escoba_engine.md §6 rule 3a). `side_mask` maps a set of
/// sides to the seats they hold. Returns `(winner side, seats still in play)`; `None` plays on.
pub fn decide(
    scores: &[i64],
    target: i64,
    in_play: u8,
    sides_in: u32,
    side_seats: impl Fn(u32) -> u8,
) -> (Option<usize>, u8) {
    let ns = scores.len();
    let cross: u32 = (0..ns)
        .filter(|&s| sides_in >> s & 1 != 0 && scores[s] >= target)
        .fold(0, |m, s| m | 1 << s);
    if cross == 0 {
        return (None, in_play);
    }
    let left = sides_in & !cross;
    match left.count_ones() {
        0 => {
            // everyone crossed: the lowest total wins; a tie plays on among the tied
            let low = (0..ns)
                .filter(|&s| cross >> s & 1 != 0)
                .map(|s| scores[s])
                .min()
                .unwrap_or(0);
            let tied: u32 = (0..ns)
                .filter(|&s| cross >> s & 1 != 0 && scores[s] == low)
                .fold(0, |m, s| m | 1 << s);
            let seats = side_seats(tied);
            if tied.count_ones() == 1 {
                (Some(tied.trailing_zeros() as usize), seats)
            } else {
                (None, seats)
            }
        }
        1 => (Some(left.trailing_zeros() as usize), side_seats(left)),
        _ => (None, side_seats(left)),
    }
}

/// Sizes of the in-play seats (seat order) and the positions of `dealer` and `mover` among
/// them, so that the round-shape checks see only the players in play.
pub fn compact(
    sizes: &[u32],
    in_play: u8,
    dealer: usize,
    mover: usize,
) -> (Vec<u32>, usize, usize) {
    let mut out = Vec::with_capacity(sizes.len());
    let (mut d, mut m) = (0, 0);
    for (s, &k) in sizes.iter().enumerate() {
        if in_play >> s & 1 != 0 {
            if s == dealer {
                d = out.len();
            }
            if s == mover {
                m = out.len();
            }
            out.push(k);
        }
    }
    (out, d, m)
}
