//! The one sampler behind every game's `resample` (docs/design.md §10): hidden cards placed
//! again into hidden places, uniformly among the placements that respect what each card may be.
//!
//! A game turns what a seat has seen into three lists: the hidden cards (ascending ids), for each
//! card the mask of places it may occupy, and each place's size. [`place`] draws one placement,
//! exactly uniform over all placements that fit, with the draws the design document fixes so that
//! the reference engine (`tapete.reference._resample`) draws the same.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use crate::rng::SplitMix64;

/// The most hidden places one resample may have (a mask is a `u32`).
pub const MAX_SLOTS: usize = 32;
/// The most hidden cards one resample may place.
pub const MAX_CARDS: usize = 128;

/// A uniform float in [0, 1) from the top 53 bits of one draw (docs/design.md §10).
#[inline]
pub fn unit_f64(rng: &mut SplitMix64) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / 9_007_199_254_740_992.0)
}

/// `C(n, k)` as a float, multiplied in the order the design document fixes.
const fn binomial_by_loop(n: usize, k: usize) -> f64 {
    let mut r = 1.0;
    let mut i = 1;
    while i <= k {
        r = r * (n - k + i) as f64 / i as f64;
        i += 1;
    }
    r
}

/// Up to this many cards, `C(n, k)` is read from a table built by the same loop at compile time
/// (floating-point arithmetic in constants is IEEE's, as at run time).
const BINOMIAL_TABLE_N: usize = 64;

/// `C(n, k)` at `n * (n + 1) / 2 + k`.
static BINOMIALS: [f64; (BINOMIAL_TABLE_N + 1) * (BINOMIAL_TABLE_N + 2) / 2] = {
    let mut t = [0.0; (BINOMIAL_TABLE_N + 1) * (BINOMIAL_TABLE_N + 2) / 2];
    let mut n = 0;
    while n <= BINOMIAL_TABLE_N {
        let mut k = 0;
        while k <= n {
            t[n * (n + 1) / 2 + k] = binomial_by_loop(n, k);
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)` for `k <= n`, as [`binomial_by_loop`] computes it.
#[inline]
fn binomial(n: usize, k: usize) -> f64 {
    if n <= BINOMIAL_TABLE_N {
        BINOMIALS[n * (n + 1) / 2 + k]
    } else {
        binomial_by_loop(n, k)
    }
}

/// One group: the cards sharing one mask, `cards[start..start + len]` of the sorted order.
#[derive(Clone, Copy)]
struct Group {
    mask: u32,
    start: usize,
    len: usize,
}

type Caps = [u16; MAX_SLOTS];

/// A memo key: a group and the places' remaining sizes. It hashes the sizes as four words, with
/// a multiply-rotate hash: the memo sits on the hot path, where SipHash over 66 bytes dominated.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key(usize, Caps);

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        h.write_usize(self.0);
        for chunk in self.1.chunks_exact(4) {
            let word = chunk.iter().fold(0u64, |w, &c| w << 16 | c as u64);
            h.write_u64(word);
        }
    }
}

/// The multiply-rotate hash of `Key` (as rustc's FxHasher).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type Memo = HashMap<Key, f64, BuildHasherDefault<WordHasher>>;

struct Scratch {
    order: Vec<u16>,
    groups: Vec<Group>,
    memo: Memo,
    /// One group's splits with their terms, in split order.
    splits: Vec<(Caps, f64)>,
}

thread_local! {
    // Reused across calls: after the first few resamples nothing is allocated.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch {
        order: Vec::with_capacity(MAX_CARDS),
        groups: Vec::with_capacity(MAX_SLOTS),
        memo: Memo::default(),
        splits: Vec::new(),
    });
}

/// Places `cards` (ascending ids) into places of sizes `caps`, card `i` only into a place of
/// mask `allowed[i]`, uniformly among all such placements, and writes each place's cards into
/// `out`, place after place (place 0's `caps[0]` cards first), each place in a uniform order.
///
/// Returns false, leaving `out` unspecified, when the arguments do not fit (lengths differ,
/// `sum(caps) != cards.len()`, more than [`MAX_SLOTS`] places or [`MAX_CARDS`] cards) or when no
/// placement respects the masks; a reachable state's own placement always fits.
pub fn place(
    cards: &[u16],
    allowed: &[u32],
    caps: &[u16],
    rng: &mut SplitMix64,
    out: &mut [u16],
) -> bool {
    let n = cards.len();
    if allowed.len() != n
        || out.len() != n
        || n > MAX_CARDS
        || caps.len() > MAX_SLOTS
        || caps.iter().map(|&c| c as usize).sum::<usize>() != n
    {
        return false;
    }
    SCRATCH.with(|cell| {
        let s = &mut *cell.borrow_mut();
        let slots = caps.len();
        group(cards, allowed, slots, s);
        let mut left: Caps = [0; MAX_SLOTS];
        left[..slots].copy_from_slice(caps);
        let groups = s.groups.len();
        let mut count = Count {
            groups: &s.groups,
            slots,
            memo: &mut s.memo,
        };
        if !count.memo.is_empty() {
            count.memo.clear();
        }
        // Per place, where its next card goes in `out`.
        let mut fill: [usize; MAX_SLOTS] = [0; MAX_SLOTS];
        let mut at = 0;
        for (j, &c) in caps.iter().enumerate() {
            fill[j] = at;
            at += c as usize;
        }
        for g in 0..groups {
            let group = count.groups[g];
            let mut take: Caps = [0; MAX_SLOTS];
            if g + 1 == groups {
                // The last group fills what is left: its split is forced.
                for j in 0..slots {
                    if left[j] > 0 && group.mask >> j & 1 == 0 {
                        return false;
                    }
                    take[j] = left[j];
                }
            } else {
                // W(g, left) summed once with its terms kept for the draw: the memo's value, as
                // the same terms are added in the same order.
                let total = count.splits(g, &left, &mut s.splits);
                if total <= 0.0 {
                    return false;
                }
                let u = unit_f64(rng) * total;
                if !choose(&s.splits, u, &mut take) {
                    return false;
                }
            }
            let members = &mut s.order[group.start..group.start + group.len];
            rng.shuffle(members);
            let mut k = 0;
            for j in 0..slots {
                let t = take[j] as usize;
                out[fill[j]..fill[j] + t].copy_from_slice(&members[k..k + t]);
                fill[j] += t;
                k += t;
                left[j] -= take[j];
            }
        }
        let mut at = 0;
        for &c in caps {
            rng.shuffle(&mut out[at..at + c as usize]);
            at += c as usize;
        }
        true
    })
}

/// The places of [`place`] merged where they admit the same cards (docs/mosca_engine.md §12):
/// the count grows with the places, and places no card tells apart need not be counted apart.
/// Built once, it places as often as a rejection loop asks (`tapete.reference._resample`'s
/// `place_merged`): the same law as `place` on the places given, not the same draws.
pub struct Merged {
    /// Each card's mask over the merged places.
    allowed: [u32; MAX_CARDS],
    /// The merged places' sizes.
    caps: [u16; MAX_SLOTS],
    /// Each place given: its merged place and its size.
    places: [(u8, u16); MAX_SLOTS],
    /// How many cards, places given and merged places.
    counts: (usize, usize, usize),
}

impl Merged {
    /// Merges the places of sizes `caps` where card `i` may go to the places of `allowed[i]`;
    /// `None` when they do not fit (more than [`MAX_SLOTS`] places or [`MAX_CARDS`] cards).
    pub fn new(allowed: &[u32], caps: &[u16]) -> Option<Merged> {
        let n = allowed.len();
        let m = caps.len();
        if n > MAX_CARDS || m > MAX_SLOTS {
            return None;
        }
        let d = distinct_masks(allowed, m);
        let (masks, of) = (&d.masks[..d.count], &d.of);
        // The cards of each distinct mask, as a set of card indices.
        let mut members = [0u128; MAX_CARDS];
        for (i, &q) in of[..n].iter().enumerate() {
            members[q as usize] |= 1 << i;
        }
        // The cards each place admits.
        let mut column = [0u128; MAX_SLOTS];
        for (&a, &cards_of) in masks.iter().zip(&members) {
            let mut bits = a;
            while bits != 0 {
                column[bits.trailing_zeros() as usize] |= cards_of;
                bits &= bits - 1;
            }
        }
        let mut merged = Merged {
            allowed: [0; MAX_CARDS],
            caps: [0; MAX_SLOTS],
            places: [(0, 0); MAX_SLOTS],
            counts: (n, m, 0),
        };
        let mut first = [0usize; MAX_SLOTS];
        let mut mm = 0;
        for j in 0..m {
            let q = match (0..mm).find(|&q| column[first[q]] == column[j]) {
                Some(q) => q,
                None => {
                    first[mm] = j;
                    mm += 1;
                    mm - 1
                }
            };
            merged.places[j] = (q as u8, caps[j]);
            merged.caps[q] += caps[j];
        }
        merged.counts.2 = mm;
        let mut merged_mask = [0u32; MAX_CARDS];
        for (mq, &a) in merged_mask.iter_mut().zip(masks) {
            let mut bits = a;
            while bits != 0 {
                *mq |= 1 << merged.places[bits.trailing_zeros() as usize].0;
                bits &= bits - 1;
            }
        }
        for (ma, &q) in merged.allowed.iter_mut().zip(&of[..n]) {
            *ma = merged_mask[q as usize];
        }
        Some(merged)
    }

    /// One placement of `cards` (ascending ids, one a mask), uniform as [`place`]'s, written
    /// into `out` as `place` writes it for the places given: a merged place's uniform order is
    /// cut back into its places, in place order. False when nothing fits.
    pub fn place(&self, cards: &[u16], rng: &mut SplitMix64, out: &mut [u16]) -> bool {
        let (n, m, mm) = self.counts;
        if cards.len() != n || out.len() != n {
            return false;
        }
        if mm == m {
            // Nothing merged: the merged places are the places.
            return place(cards, &self.allowed[..n], &self.caps[..m], rng, out);
        }
        let mut got = [0u16; MAX_CARDS];
        if !place(
            cards,
            &self.allowed[..n],
            &self.caps[..mm],
            rng,
            &mut got[..n],
        ) {
            return false;
        }
        let mut start = [0usize; MAX_SLOTS + 1];
        for q in 0..mm {
            start[q + 1] = start[q] + self.caps[q] as usize;
        }
        let mut o = 0;
        for &(q, c) in &self.places[..m] {
            let (q, c) = (q as usize, c as usize);
            out[o..o + c].copy_from_slice(&got[start[q]..start[q] + c]);
            start[q] += c;
            o += c;
        }
        true
    }
}

/// The distinct masks of `allowed` over the first `places` places, in order of first
/// appearance, and each card's among them.
struct Distinct {
    masks: [u32; MAX_CARDS],
    of: [u8; MAX_CARDS],
    count: usize,
}

fn distinct_masks(allowed: &[u32], places: usize) -> Distinct {
    let every = if places == MAX_SLOTS {
        u32::MAX
    } else {
        (1u32 << places) - 1
    };
    let mut d = Distinct {
        masks: [0; MAX_CARDS],
        of: [0; MAX_CARDS],
        count: 0,
    };
    for (i, &a) in allowed.iter().enumerate() {
        let a = a & every;
        let q = match d.masks[..d.count].iter().position(|&x| x == a) {
            Some(q) => q,
            None => {
                d.masks[d.count] = a;
                d.count += 1;
                d.count - 1
            }
        };
        d.of[i] = q as u8;
    }
    d
}

/// Groups the cards by mask into `s.groups` and `s.order`: groups from the most constrained
/// (fewest places) to the least, ties by mask; a group keeps the cards' order.
fn group(cards: &[u16], allowed: &[u32], slots: usize, s: &mut Scratch) {
    let d = distinct_masks(allowed, slots);
    let (masks, of, distinct) = (&d.masks, &d.of, d.count);
    let mut sizes = [0usize; MAX_CARDS];
    for &q in &of[..cards.len()] {
        sizes[q as usize] += 1;
    }
    // The masks sorted by (places, mask): distinct, so the order is strict.
    let mut by_key = [0u8; MAX_CARDS];
    for q in 0..distinct {
        let mut r = q;
        while r > 0 && key(masks[by_key[r - 1] as usize]) > key(masks[q]) {
            by_key[r] = by_key[r - 1];
            r -= 1;
        }
        by_key[r] = q as u8;
    }
    let mut next = [0usize; MAX_CARDS];
    s.groups.clear();
    let mut start = 0;
    for &q in &by_key[..distinct] {
        let q = q as usize;
        next[q] = start;
        s.groups.push(Group {
            mask: masks[q],
            start,
            len: sizes[q],
        });
        start += sizes[q];
    }
    s.order.clear();
    s.order.resize(cards.len(), 0);
    for (&c, &q) in cards.iter().zip(of) {
        let q = q as usize;
        s.order[next[q]] = c;
        next[q] += 1;
    }
}

/// Groups are placed from the most constrained (fewest places) to the least, ties by mask.
fn key(mask: u32) -> (u32, u32) {
    (mask.count_ones(), mask)
}

/// The counts `W(g, left)` of docs/design.md §10 over `slots` places, memoized.
struct Count<'a> {
    groups: &'a [Group],
    slots: usize,
    memo: &'a mut Memo,
}

impl Count<'_> {
    /// The number of placements of groups `g..` into `left` (as a float).
    fn ways(&mut self, g: usize, left: &Caps) -> f64 {
        if g == self.groups.len() {
            return if left[..self.slots].iter().all(|&l| l == 0) {
                1.0
            } else {
                0.0
            };
        }
        if g + 1 == self.groups.len() {
            return self.last_ways(left);
        }
        if let Some(&w) = self.memo.get(&Key(g, *left)) {
            return w;
        }
        let mut total = 0.0;
        let group = self.groups[g];
        for_each_split(group.mask, group.len, left, self.slots, |take, m| {
            total += m * self.ways(g + 1, &minus(left, take));
            true
        });
        self.memo.insert(Key(g, *left), total);
        total
    }

    /// `ways` of the last group, without walking its splits: only the split that fills `left`
    /// exactly counts (every other split's term is `m * 0.0`, and adding `0.0` changes no sum),
    /// so the sum is that split's multinomial, built as `for_each_split` builds it.
    fn last_ways(&self, left: &Caps) -> f64 {
        let group = self.groups[self.groups.len() - 1];
        let mut weight = 1.0;
        let mut rest = group.len;
        let mut prev: Option<usize> = None;
        for (j, &l) in left[..self.slots].iter().enumerate() {
            if l == 0 {
                continue;
            }
            if group.mask >> j & 1 == 0 {
                return 0.0;
            }
            if let Some(p) = prev {
                let x = left[p] as usize;
                if x > rest {
                    return 0.0;
                }
                weight *= binomial(rest, x);
                rest -= x;
            }
            prev = Some(j);
        }
        match prev {
            Some(p) if rest == left[p] as usize => weight,
            Some(_) => 0.0,
            None if group.len == 0 => 1.0,
            None => 0.0,
        }
    }

    /// Group `g`'s splits at `left` with their terms `m(x) · W(g + 1, left − x)`, into `out`;
    /// returns their sum, `W(g, left)`.
    fn splits(&mut self, g: usize, left: &Caps, out: &mut Vec<(Caps, f64)>) -> f64 {
        out.clear();
        let mut total = 0.0;
        let group = self.groups[g];
        for_each_split(group.mask, group.len, left, self.slots, |take, m| {
            let w = m * self.ways(g + 1, &minus(left, take));
            total += w;
            out.push((*take, w));
            true
        });
        total
    }
}

/// The split whose cumulative weight first exceeds `u` (the last split of positive weight when
/// rounding leaves `u` above them all).
fn choose(splits: &[(Caps, f64)], u: f64, take: &mut Caps) -> bool {
    let mut cum = 0.0;
    let mut found = false;
    for (t, w) in splits {
        if *w > 0.0 {
            cum += w;
            *take = *t;
            found = true;
            if cum > u {
                break;
            }
        }
    }
    found
}

/// Calls `f(take, multinomial)` for every split of `len` cards over the places of `mask` (among
/// the first `slots`) within `left`, in the design document's order: the lowest place's count
/// outermost, ascending; the highest allowed place takes the rest.
fn for_each_split(
    mask: u32,
    len: usize,
    left: &Caps,
    slots: usize,
    mut f: impl FnMut(&Caps, f64) -> bool,
) {
    let mut places = [0u8; MAX_SLOTS];
    let mut k = 0;
    for (j, &l) in left[..slots].iter().enumerate() {
        if mask >> j & 1 == 1 && l > 0 {
            places[k] = j as u8;
            k += 1;
        }
    }
    if k == 0 {
        if len == 0 {
            f(&[0; MAX_SLOTS], 1.0);
        }
        return;
    }
    let mut take: Caps = [0; MAX_SLOTS];
    split_rec(&places[..k], 0, len, left, &mut take, 1.0, &mut f);
}

fn split_rec(
    places: &[u8],
    i: usize,
    rest: usize,
    left: &Caps,
    take: &mut Caps,
    weight: f64,
    f: &mut impl FnMut(&Caps, f64) -> bool,
) -> bool {
    let j = places[i] as usize;
    if i + 1 == places.len() {
        if rest > left[j] as usize {
            return true;
        }
        take[j] = rest as u16;
        let go_on = f(take, weight);
        take[j] = 0;
        return go_on;
    }
    for x in 0..=rest.min(left[j] as usize) {
        take[j] = x as u16;
        if !split_rec(
            places,
            i + 1,
            rest - x,
            left,
            take,
            weight * binomial(rest, x),
            f,
        ) {
            take[j] = 0;
            return false;
        }
    }
    take[j] = 0;
    true
}

/// `left` less `take`.
fn minus(left: &Caps, take: &Caps) -> Caps {
    let mut rest = *left;
    for (r, t) in rest.iter_mut().zip(take) {
        *r -= t;
    }
    rest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(cards: &[u16], allowed: &[u32], caps: &[u16], seed: u64) -> Vec<u16> {
        let mut rng = SplitMix64::new(seed);
        let mut out = vec![0; cards.len()];
        assert!(place(cards, allowed, caps, &mut rng, &mut out));
        out
    }

    #[test]
    fn every_card_once_and_masks_respected() {
        // Cards 0..6; cards 0 and 1 may not go to place 0 (a void), card 5 only to place 2.
        let cards = [0, 1, 2, 3, 4, 5];
        let allowed = [0b110, 0b110, 0b111, 0b111, 0b111, 0b100];
        let caps = [2, 2, 2];
        for seed in 0..500 {
            let out = draw(&cards, &allowed, &caps, seed);
            let mut sorted = out.clone();
            sorted.sort();
            assert_eq!(sorted, cards);
            for (pos, &c) in out.iter().enumerate() {
                let slot = pos / 2;
                assert!(
                    allowed[c as usize] >> slot & 1 == 1,
                    "card {c} in place {slot}"
                );
            }
        }
    }

    #[test]
    fn uniform_over_the_placements_that_fit() {
        // By hand: card 0 may not go to place 0; places of 1 and 2 cards; cards 0, 1, 2.
        // Placements (place 0 = one card): {1} or {2} -> 2 set placements, each with place 1's
        // two cards in 2 orders: 4 outcomes, each 1/4.
        let mut counts: HashMap<Vec<u16>, u32> = HashMap::new();
        for seed in 0..8000 {
            *counts
                .entry(draw(&[0, 1, 2], &[0b10, 0b11, 0b11], &[1, 2], seed))
                .or_default() += 1;
        }
        assert_eq!(counts.len(), 4);
        for (k, &c) in &counts {
            assert!(k[0] != 0);
            // 2000 expected; 4 sigma of a binomial(8000, 1/4) is about 155.
            assert!((1845..=2155).contains(&c), "{k:?}: {c}");
        }
    }

    #[test]
    fn binomial_table_is_the_loop() {
        for n in 0..=BINOMIAL_TABLE_N + 2 {
            for k in 0..=n {
                assert_eq!(binomial(n, k).to_bits(), binomial_by_loop(n, k).to_bits());
            }
        }
    }

    #[test]
    fn impossible_masks_are_refused() {
        let mut rng = SplitMix64::new(1);
        let mut out = [0u16; 2];
        assert!(!place(&[0, 1], &[0b10, 0b10], &[1, 1], &mut rng, &mut out));
        assert!(!place(
            &[0, 1],
            &[0b11, 0b11],
            &[1, 2],
            &mut rng,
            &mut [0u16; 2]
        ));
    }
}
