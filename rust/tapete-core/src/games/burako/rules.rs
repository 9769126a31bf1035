//! Pure rule functions: meld validity, purity, values (docs/burako_engine.md §3) and the team score
//! (docs/burako_engine.md §9).

use crate::tiles::{is_two, number, tile, TileCounts, TileType, JOKER};

use super::options::{AcePos, MaxWilds, MeldRules};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Run,
    Pierna,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Run => "run",
            Kind::Pierna => "pierna",
        }
    }
}

/// The result of checking a multiset as one kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fit {
    pub pure: bool,
    /// Natural 2s in a valid assignment with the fewest wilds.
    pub natural_twos: u8,
}

/// The value of one tile outside a meld (2 → 20).
#[inline]
pub fn tile_value(t: TileType, r: &MeldRules) -> i32 {
    if t == JOKER {
        return r.joker_value;
    }
    match number(t) {
        1 => 15,
        2 => 20,
        3..=7 => 5,
        _ => 10,
    }
}

/// Sum of the values of a multiset (2s at 20).
pub fn counts_value(c: TileCounts, r: &MeldRules) -> i32 {
    let mut v = 0;
    c.for_each(|t| v += tile_value(t, r));
    v
}

#[inline]
fn wilds_ok(w: u32, len: u32, r: &MeldRules) -> bool {
    match r.max_wilds {
        MaxWilds::One => w <= 1,
        MaxWilds::Two => w <= 2,
        MaxWilds::FewerThanNaturals => w < len - w,
        MaxWilds::Unlimited => true,
    }
}

/// `run_wrap` (docs/burako_engine.md §3): do the natural numbers `nums` (bit n for number n) fit a wrapped
/// run of `len` ≤ 13 tiles? Its numbers are `a..=13` then `1..=a+len−14` for a start `a` in
/// `16−len..=13`, so that it holds 13, 1 and 2; the numbers `a+len−13..=a−1` are left out.
#[inline]
pub fn wrap_fits(nums: u32, len: u32) -> bool {
    if !(3..=13).contains(&len) {
        return false;
    }
    (16 - len..=13).any(|a| {
        let (lo, hi) = (a + len - 13, a - 1);
        // bits lo..=hi (empty when len = 13)
        let out = if hi < lo {
            0
        } else {
            ((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)
        };
        nums & out == 0
    })
}

/// The 2-bit field of colour `col`, numbers 1..13 (26 bits).
#[inline]
fn colour_field(c: TileCounts, col: u8) -> u32 {
    ((c.0 >> (26 * col as u32)) & 0x3FF_FFFF) as u32
}

/// Mask of the count fields of the 2 (number 2 → field 1 → bits 2..3).
const TWO_FIELD: u32 = 0b1100;

/// Checks `c` (`len` tiles) as a run (docs/rules/burako.md §3.2).
pub fn fit_run(c: TileCounts, len: u32, r: &MeldRules) -> Option<Fit> {
    let max_len = if r.ace_to_ace { 14 } else { 13 };
    if !(3..=max_len).contains(&len) {
        return None;
    }
    // colours holding a natural that is not a wild-capable 2
    let mut nat_colours = 0u8;
    let mut two_colours = 0u8;
    for col in 0..4u8 {
        let f = colour_field(c, col);
        let nat = if r.twos_wild { f & !TWO_FIELD } else { f };
        if nat != 0 {
            nat_colours |= 1 << col;
        }
        if f & TWO_FIELD != 0 {
            two_colours |= 1 << col;
        }
    }
    let candidates = match nat_colours.count_ones() {
        0 if r.twos_wild => two_colours,
        1 => nat_colours,
        _ => return None,
    };
    let jokers = c.get(JOKER) as u32;
    let mut best: Option<Fit> = None;
    let mut best_w = u32::MAX;
    let mut cs = candidates;
    while cs != 0 {
        let col = cs.trailing_zeros() as u8;
        cs &= cs - 1;
        let mut other_twos = 0u32;
        if r.twos_wild {
            for o in 0..4u8 {
                if o != col {
                    other_twos += c.get(tile(o, 2)) as u32;
                }
            }
        }
        // positions 3..13 of the naturals; a repeat is fatal
        let mut pos: u32 = 0;
        let mut dup = false;
        for n in 3..=13u8 {
            match c.get(tile(col, n)) {
                0 => {}
                1 => pos |= 1 << n,
                _ => dup = true,
            }
        }
        if dup {
            continue;
        }
        let ones = c.get(tile(col, 1));
        let k2 = c.get(tile(col, 2)) as u32;
        let ace_opts: &[u32] = match (ones, r.ace) {
            (0, _) => &[0],
            (1, AcePos::LowOrHigh) => &[1 << 1, 1 << 14],
            (1, AcePos::LowOnly) => &[1 << 1],
            (1, AcePos::HighOnly) => &[1 << 14],
            (2, AcePos::LowOrHigh) if r.ace_to_ace => &[(1 << 1) | (1 << 14)],
            _ => continue,
        };
        let two_opts: &[u32] = if r.twos_wild {
            if k2 == 0 {
                &[0]
            } else {
                &[1, 0]
            }
        } else {
            match k2 {
                0 => &[0],
                1 => &[1],
                _ => continue,
            }
        };
        // a wrapped run holds no number twice (so one 1 at most); a natural 1 there follows
        // the 13 and precedes the 2, so it needs both ace positions
        let wrap = r.run_wrap && (ones == 0 || (ones == 1 && r.ace == AcePos::LowOrHigh));
        for &n2 in two_opts {
            let w = jokers + other_twos + if r.twos_wild { k2 - n2 } else { 0 };
            if w >= len || !wilds_ok(w, len, r) || w >= best_w {
                continue;
            }
            let two = if n2 == 1 { 1 << 2 } else { 0 };
            let straight = ace_opts.iter().any(|&a| {
                let p = pos | a | two;
                32 - p.leading_zeros() - p.trailing_zeros() <= len
            });
            if straight || (wrap && wrap_fits(pos | two | if ones == 1 { 1 << 1 } else { 0 }, len))
            {
                best_w = w;
                best = Some(Fit {
                    pure: w == 0,
                    natural_twos: n2 as u8,
                });
            }
        }
    }
    best
}

/// Checks `c` (`len` tiles) as a pierna (docs/rules/burako.md §3.3).
pub fn fit_pierna(c: TileCounts, len: u32, r: &MeldRules) -> Option<Fit> {
    if len < 3 {
        return None;
    }
    let jokers = c.get(JOKER) as u32;
    // which numbers are present (jokers excluded)
    let types = c.types() & !(1u64 << JOKER);
    let mut numbers = 0u16;
    let mut t = types;
    while t != 0 {
        let x = t.trailing_zeros() as TileType;
        numbers |= 1 << number(x);
        t &= t - 1;
    }
    let twos: u32 = (0..4).map(|col| c.get(tile(col, 2)) as u32).sum();
    let (naturals, natural_twos) = if !r.twos_wild {
        if numbers.count_ones() != 1 {
            return None;
        }
        (len - jokers, twos as u8)
    } else {
        let others = numbers & !(1 << 2);
        match others.count_ones() {
            0 if r.pierna_of_twos && twos > 0 => (twos, twos as u8),
            1 => (len - jokers - twos, 0),
            _ => return None,
        }
    };
    let w = len - naturals;
    if naturals == 0 || !wilds_ok(w, len, r) {
        return None;
    }
    Some(Fit {
        pure: w == 0,
        natural_twos,
    })
}

/// The kind of a new meld: a pierna if it is one, else a run (docs/rules/burako.md §3.4).
pub fn classify(c: TileCounts, r: &MeldRules) -> Option<(Kind, Fit)> {
    let len = c.len();
    if let Some(f) = fit_pierna(c, len, r) {
        return Some((Kind::Pierna, f));
    }
    fit_run(c, len, r).map(|f| (Kind::Run, f))
}

#[inline]
pub fn fit_kind(kind: Kind, c: TileCounts, len: u32, r: &MeldRules) -> Option<Fit> {
    match kind {
        Kind::Run => fit_run(c, len, r),
        Kind::Pierna => fit_pierna(c, len, r),
    }
}

/// Value of a valid meld (docs/burako_engine.md §1, `two_value`).
pub fn meld_value(c: TileCounts, fit: Fit, r: &MeldRules) -> i32 {
    let v = counts_value(c, r);
    if r.two_natural_5 {
        v - 15 * fit.natural_twos as i32
    } else {
        v
    }
}

/// The result of `classify_meld`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldInfo {
    pub kind: Kind,
    pub pure: bool,
    pub canasta: bool,
    pub value: i32,
}

pub fn classify_meld(c: TileCounts, r: &MeldRules) -> Option<MeldInfo> {
    let (kind, fit) = classify(c, r)?;
    Some(MeldInfo {
        kind,
        pure: fit.pure,
        canasta: c.len() >= r.canasta_min,
        value: meld_value(c, fit, r),
    })
}

/// Scoring inputs of docs/rules/burako.md §7 once the melds are classified.
pub struct TeamTally {
    pub meld_points: i64,
    pub pure_canastas: u32,
    pub impure_canastas: u32,
}

/// One team's hand score (docs/rules/burako.md §7): `M + C + X + U − R`, or `∓M + U − R` without a
/// canasta.
pub fn team_score(
    t: &TeamTally,
    rack_points: i64,
    closed: bool,
    muerto: bool,
    no_canasta_negative: bool,
) -> i64 {
    let u = if muerto { 100 } else { -100 };
    if t.pure_canastas + t.impure_canastas > 0 {
        let c = 200 * t.pure_canastas as i64 + 100 * t.impure_canastas as i64;
        t.meld_points + c + if closed { 100 } else { 0 } + u - rack_points
    } else if no_canasta_negative {
        -t.meld_points + u - rack_points
    } else {
        t.meld_points + u - rack_points
    }
}

#[inline]
pub fn is_wild_capable(t: TileType, r: &MeldRules) -> bool {
    t == JOKER || (r.twos_wild && is_two(t))
}
