//! Optional hand declarations by knocking (`KNOCK`/`NO_KNOCK`, docs/rules/escoba.md §2.7) and the
//! matta, the wild card whose declared value stays its capture value for the rest of the deal.

use crate::cards::{Card, CardSet};

use super::options::EscobaOptions;
use super::values::{rank_mask, value, MAX_DECLS, MAX_SEATS};

/// Declaration kinds after the tuzzoli kinds 1..=4 (`[seat, kind, at]` entries,
/// docs/escoba_engine.md §5).
pub const CIRULLA: u8 = 5;
pub const DECINO: u8 = 6;
/// Both at once, only with `knocks_cumulative`.
pub const CIRULLA_DECINO: u8 = 7;
pub const KNOCK_NAMES: [&str; 3] = ["cirulla", "decino", "cirulla_decino"];

/// `knock_state` per seat: the declaration decision of this hand.
pub const UNDECIDED: u8 = 0;
pub const DECLINED: u8 = 1;
pub const KNOCKED: u8 = 2;

/// Hand declarations of a deal as `[seat, kind, sweeps made before it]`, the first `n` of `list`.
#[derive(Clone, Copy, Debug)]
pub struct Decls {
    pub n: u8,
    pub list: [[u8; 3]; MAX_DECLS],
}

impl Decls {
    pub const NONE: Decls = Decls {
        n: 0,
        list: [[0; 3]; MAX_DECLS],
    };
}

/// Per seat, the knock decision of the current hand (`UNDECIDED` …).
#[derive(Clone, Copy, Debug)]
pub struct KnockStates {
    pub states: [u8; MAX_SEATS],
}

impl KnockStates {
    pub const UNDECIDED: KnockStates = KnockStates {
        states: [UNDECIDED; MAX_SEATS],
    };
}

/// The matta's capture value in this deal.
#[derive(Clone, Copy, Debug)]
pub struct MattaValue {
    pub value: u8,
}

/// The matta of a deal with its current capture value; `bit = 0` when there is none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Matta {
    pub bit: u64,
    pub value: u8,
}

impl Matta {
    pub const NONE: Matta = Matta { bit: 0, value: 0 };

    /// The matta at its natural value (or none).
    pub fn natural(o: &EscobaOptions) -> Matta {
        match o.matta {
            Some(c) => Matta {
                bit: 1u64 << c.0,
                value: value(c),
            },
            None => Matta::NONE,
        }
    }

    /// Whether the matta is in `set`.
    #[inline]
    pub fn in_set(self, set: CardSet) -> bool {
        set.0 & self.bit != 0
    }

    /// The capture value of `c` with this matta.
    #[inline]
    pub fn val(self, c: Card) -> u8 {
        if (1u64 << c.0) & self.bit != 0 {
            self.value
        } else {
            value(c)
        }
    }

    /// `mask` (cards of value `w` at their natural values) corrected for the matta.
    #[inline]
    pub fn fix(self, mask: u64, w: u8) -> u64 {
        if self.value == w {
            mask | self.bit
        } else {
            mask & !self.bit
        }
    }
}

/// Points of a declaration kind under the options.
pub fn points(o: &EscobaOptions, kind: u8) -> i64 {
    match kind {
        CIRULLA => o.knock_cirulla,
        DECINO => o.knock_decino,
        CIRULLA_DECINO => o.knock_cirulla.saturating_add(o.knock_decino),
        _ => 0,
    }
}

/// Points of any hand declaration kind: tuzzoli 1..=4 (docs/rules/escoba.md §2.8), knocks 5..=7.
pub fn decl_points(o: &EscobaOptions, kind: u8) -> i64 {
    if kind <= NAPOLI {
        TUZZOLI_POINTS[kind as usize]
    } else {
        points(o, kind)
    }
}

/// The name of any hand declaration kind.
pub fn decl_name(kind: u8) -> &'static str {
    if kind <= NAPOLI {
        TUZZOLI_NAMES[kind as usize]
    } else {
        name(kind)
    }
}

/// The name of a knock kind.
pub fn name(kind: u8) -> &'static str {
    match kind {
        CIRULLA => KNOCK_NAMES[0],
        DECINO => KNOCK_NAMES[1],
        _ => KNOCK_NAMES[2],
    }
}

/// Whether the options offer knocks at all.
#[inline]
pub fn enabled(o: &EscobaOptions) -> bool {
    o.knock_cirulla > 0 || o.knock_decino > 0
}

/// The declaration of three cards with these values: cirulla (total ≤ 9), decino (one value,
/// i.e. one rank); the higher of the two (decino on equal points) or both if cumulative.
fn kind_of(o: &EscobaOptions, vals: [u8; 3]) -> u8 {
    let low = o.knock_cirulla > 0 && vals.iter().map(|&v| v as u32).sum::<u32>() <= 9;
    let three = o.knock_decino > 0 && vals[0] == vals[1] && vals[1] == vals[2];
    match (low, three) {
        (true, true) if o.knocks_cumulative => CIRULLA_DECINO,
        (true, true) if o.knock_cirulla > o.knock_decino => CIRULLA,
        (_, true) => DECINO,
        (true, false) => CIRULLA,
        _ => 0,
    }
}

/// The best declaration of a hand (docs/rules/escoba.md §2.7, TV-56): `(kind, matta value)`, kind 0
/// when the hand has nothing to declare. A matta in the hand takes the value 1..=10 giving the most
/// points, the highest such value on a tie; otherwise its natural value is returned.
pub fn best(o: &EscobaOptions, hand: CardSet) -> (u8, u8) {
    let m = Matta::natural(o);
    if hand.len() != 3 || !enabled(o) {
        return (0, m.value);
    }
    let mut vals = [0u8; 3];
    let mut wild = None;
    for (i, c) in hand.iter().enumerate() {
        vals[i] = value(c);
        if m.in_set(CardSet::single(c)) {
            wild = Some(i);
        }
    }
    let Some(w) = wild else {
        return (kind_of(o, vals), m.value);
    };
    let (mut kind, mut mv, mut best_pts) = (0u8, m.value, 0i64);
    for v in 1..=10u8 {
        vals[w] = v;
        let k = kind_of(o, vals);
        let p = points(o, k);
        if k != 0 && p >= best_pts {
            (kind, mv, best_pts) = (k, v, p);
        }
    }
    (kind, mv)
}

/// Tuzzoli declaration kinds (docs/rules/escoba.md §2.8); the points of kind `k` are
/// `TUZZOLI_POINTS[k]`.
pub const TUZZOLO: u8 = 1;
pub const TWO_TUZZOLI: u8 = 2;
pub const BUONGIOCO: u8 = 3;
pub const NAPOLI: u8 = 4;
pub const TUZZOLI_POINTS: [i64; 5] = [0, 3, 6, 6, 7];
pub const TUZZOLI_NAMES: [&str; 5] = ["none", "tuzzolo", "two_tuzzoli", "buongioco", "napoli"];

/// The tuzzoli declaration of a hand (docs/rules/escoba.md §2.8, TV-67): its A, 2 and 3 are `L`;
/// three of one rank = buongioco, three of one suit = napoli, else one tuzzolo per pair of `L`
/// sharing rank or suit (at most one without `hybrids`). Returns the kind (0 = nothing to declare).
pub fn tuzzoli(hand: CardSet, hybrids: bool) -> u8 {
    let low = hand.inter(CardSet(rank_mask(1) | rank_mask(2) | rank_mask(3)));
    let mut l = [Card(0); 40];
    let mut n = 0;
    for c in low {
        l[n] = c;
        n += 1;
    }
    let l = &l[..n];
    if n == 3 && l.iter().all(|c| c.rank() == l[0].rank()) {
        return BUONGIOCO;
    }
    if n == 3 && l.iter().all(|c| c.suit() == l[0].suit()) {
        return NAPOLI;
    }
    let mut pairs = 0u8;
    for i in 0..n {
        for j in i + 1..n {
            if l[i].rank() == l[j].rank() || l[i].suit() == l[j].suit() {
                pairs += 1;
            }
        }
    }
    if !hybrids {
        pairs = pairs.min(1);
    }
    pairs.min(TWO_TUZZOLI)
}
