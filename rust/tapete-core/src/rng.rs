//! SplitMix64 and the shuffle of docs/design.md §5, identical in every engine.

/// The single random stream of a state; serialized as its `x` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SplitMix64 {
    pub state: u64,
}

impl SplitMix64 {
    #[inline]
    pub const fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// `next() mod n`; n must be > 0.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// Fisher–Yates from the back: `j = next() mod (i+1)`; `a[0]` ends up the top.
    pub fn shuffle<T>(&mut self, a: &mut [T]) {
        for i in (1..a.len()).rev() {
            let j = mod_small(self.next_u64(), i as u64 + 1) as usize;
            a.swap(i, j);
        }
    }
}

/// `ceil(2^128 / d)` for `d` in 2..=64 (index 0 and 1 unused).
const MAGIC: [u128; 65] = {
    let mut m = [0u128; 65];
    let mut d = 2;
    while d <= 64 {
        m[d] = u128::MAX / d as u128 + 1;
        d += 1;
    }
    m
};

/// `x mod d`, exactly, without a division when `d <= 64` (Lemire, Kaser and Kurz, "Faster
/// remainder by direct computation", 2019: exact for every 64-bit `x`). Shuffles and random bots
/// take a remainder by a small count at every draw; a 64-bit division costs tens of cycles.
#[inline]
pub fn mod_small(x: u64, d: u64) -> u64 {
    if d > 64 || d == 0 {
        return x % d.max(1);
    }
    if d == 1 {
        return 0;
    }
    let low = MAGIC[d as usize].wrapping_mul(x as u128);
    let bottom = ((low as u64) as u128 * d as u128) >> 64;
    let top = (low >> 64) * d as u128;
    ((bottom + top) >> 64) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_values() {
        // Published SplitMix64 outputs for seed 1234567.
        let mut r = SplitMix64::new(1234567);
        assert_eq!(r.next_u64(), 6457827717110365317);
        assert_eq!(r.next_u64(), 3203168211198807973);
        assert_eq!(r.next_u64(), 9817491932198370423);
    }

    #[test]
    fn mod_small_is_the_remainder() {
        let mut r = SplitMix64::new(99);
        let edge = [
            0u64,
            1,
            2,
            63,
            64,
            65,
            u64::MAX,
            u64::MAX - 1,
            1 << 63,
            (1 << 63) - 1,
        ];
        for d in 0..=70u64 {
            for &x in &edge {
                assert_eq!(mod_small(x, d), x % d.max(1), "{x} mod {d}");
            }
            for _ in 0..20_000 {
                let x = r.next_u64();
                assert_eq!(mod_small(x, d), x % d.max(1), "{x} mod {d}");
            }
        }
    }

    #[test]
    fn shuffle_is_permutation() {
        let mut r = SplitMix64::new(7);
        let mut a: Vec<u8> = (0..40).collect();
        r.shuffle(&mut a);
        let mut b = a.clone();
        b.sort();
        assert_eq!(b, (0..40).collect::<Vec<u8>>());
    }
}
