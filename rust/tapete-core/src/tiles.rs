//! Burako tiles (docs/design.md §4): type `13·colour + (n − 1)`, colours R K B Y, joker 52; a
//! multiset of tiles is packed as 2 bits per type in one u128 (each type has 2 physical copies).

use std::fmt;

/// A tile type 0..=52.
pub type TileType = u8;

pub const NUM_TYPES: usize = 53;
pub const JOKER: TileType = 52;
/// Physical tiles: 2 per type.
pub const NUM_TILES: usize = 106;
pub const COLOURS: [char; 4] = ['R', 'K', 'B', 'Y'];

/// Even bits of each 2-bit field.
const LOW: u128 = {
    let mut m = 0u128;
    let mut i = 0;
    while i < NUM_TYPES {
        m |= 1u128 << (2 * i);
        i += 1;
    }
    m
};

#[inline]
pub const fn colour(t: TileType) -> u8 {
    t / 13
}
/// The number 1..=13 (0 for the joker).
#[inline]
pub const fn number(t: TileType) -> u8 {
    if t == JOKER {
        0
    } else {
        t % 13 + 1
    }
}
#[inline]
pub const fn tile(colour: u8, number: u8) -> TileType {
    13 * colour + number - 1
}
#[inline]
pub const fn is_two(t: TileType) -> bool {
    t != JOKER && t % 13 == 1
}

/// Tile text: `R5`, `K13`, `J*`.
pub fn tile_text(t: TileType) -> String {
    if t == JOKER {
        "J*".to_string()
    } else {
        format!("{}{}", COLOURS[colour(t) as usize], number(t))
    }
}

/// Parses tile text, case-insensitively (`R5`, `k13`, `J*`).
pub fn parse_tile(s: &str) -> Result<TileType, String> {
    let t = s.trim();
    if t.eq_ignore_ascii_case("J*") {
        return Ok(JOKER);
    }
    let mut chars = t.chars();
    let c = chars.next().map(|c| c.to_ascii_uppercase());
    let col = match c {
        Some('R') => 0,
        Some('K') => 1,
        Some('B') => 2,
        Some('Y') => 3,
        _ => {
            return Err(format!(
                "{s:?} is not a tile: expected a colour R, K, B or Y and a number 1..13 (e.g. R5), or J*"
            ))
        }
    };
    let rest = chars.as_str();
    let ok = !rest.is_empty()
        && rest.len() <= 2
        && rest.bytes().all(|b| b.is_ascii_digit())
        && !rest.starts_with('0');
    match rest.parse::<u8>() {
        Ok(n) if ok && (1..=13).contains(&n) => Ok(tile(col, n)),
        _ => Err(format!(
            "{s:?} is not a tile: expected a colour R, K, B or Y and a number 1..13 (e.g. R5), or J*"
        )),
    }
}

/// Gathers the even bits of `x` into the low 32 bits.
#[inline]
const fn compress_even(x: u64) -> u32 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333_3333_3333;
    x = (x | (x >> 2)) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | (x >> 4)) & 0x00FF_00FF_00FF_00FF;
    x = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF;
    x = (x | (x >> 16)) & 0x0000_0000_FFFF_FFFF;
    x as u32
}

/// A multiset of tiles: count 0..=3 per type, 2 bits each.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct TileCounts(pub u128);

impl TileCounts {
    pub const EMPTY: TileCounts = TileCounts(0);

    /// Every tile of the pack: 2 of each type.
    pub const FULL: TileCounts = TileCounts(LOW << 1);

    #[inline]
    pub fn get(self, t: TileType) -> u8 {
        ((self.0 >> (2 * t as u32)) & 3) as u8
    }
    #[inline]
    pub fn add(&mut self, t: TileType) {
        self.0 += 1u128 << (2 * t as u32);
    }
    /// Removes one copy; the caller knows one is there.
    #[inline]
    pub fn remove(&mut self, t: TileType) {
        debug_assert!(self.get(t) > 0);
        self.0 -= 1u128 << (2 * t as u32);
    }
    #[inline]
    pub fn with(mut self, t: TileType) -> TileCounts {
        self.add(t);
        self
    }
    #[inline]
    pub fn contains(self, t: TileType) -> bool {
        self.get(t) > 0
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Number of tiles.
    #[inline]
    pub fn len(self) -> u32 {
        (self.0 & LOW).count_ones() + 2 * ((self.0 >> 1) & LOW).count_ones()
    }
    /// Bit `t` set iff type `t` is present.
    #[inline]
    pub fn types(self) -> u64 {
        let m = (self.0 | (self.0 >> 1)) & LOW;
        compress_even(m as u64) as u64 | ((compress_even((m >> 64) as u64) as u64) << 32)
    }
    /// Sum of counts as a multiset union (the caller keeps counts within 3).
    #[inline]
    pub fn plus(self, o: TileCounts) -> TileCounts {
        TileCounts(self.0 + o.0)
    }
    /// Tiles in ascending type order, repeats adjacent.
    pub fn to_vec(self) -> Vec<TileType> {
        let mut v = Vec::with_capacity(self.len() as usize);
        self.for_each(|t| v.push(t));
        v
    }
    #[inline]
    pub fn for_each(self, mut f: impl FnMut(TileType)) {
        let mut m = self.types();
        while m != 0 {
            let t = m.trailing_zeros() as TileType;
            for _ in 0..self.get(t) {
                f(t);
            }
            m &= m - 1;
        }
    }
    pub fn from_slice(ts: &[TileType]) -> TileCounts {
        let mut c = TileCounts::EMPTY;
        for &t in ts {
            c.add(t);
        }
        c
    }
}

impl fmt::Debug for TileCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self.to_vec().into_iter().map(tile_text).collect();
        write!(f, "[{}]", v.join(" "))
    }
}

/// The fresh pack: ascending types, the two copies adjacent.
pub fn fresh_pack() -> [TileType; NUM_TILES] {
    let mut p = [0u8; NUM_TILES];
    for (i, x) in p.iter_mut().enumerate() {
        *x = (i / 2) as TileType;
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip() {
        for t in 0..NUM_TYPES as u8 {
            assert_eq!(parse_tile(&tile_text(t)), Ok(t));
        }
        assert_eq!(parse_tile("r5"), Ok(4));
        assert_eq!(parse_tile("K13"), Ok(25));
        assert_eq!(parse_tile("j*"), Ok(JOKER));
        for bad in ["", "R0", "R14", "X5", "R05", "R", "J", "R+5"] {
            assert!(parse_tile(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn counts() {
        let mut c = TileCounts::EMPTY;
        c.add(52);
        c.add(52);
        c.add(0);
        assert_eq!(c.len(), 3);
        assert_eq!(c.get(52), 2);
        assert_eq!(c.types(), (1 << 52) | 1);
        assert_eq!(c.to_vec(), vec![0, 52, 52]);
        assert_eq!(TileCounts::FULL.len(), 106);
        c.remove(52);
        assert_eq!(c.len(), 2);
    }
}
