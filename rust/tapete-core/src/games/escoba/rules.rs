//! Pure rule functions of the Escoba family: capture outcomes (docs/escoba_engine.md §3) and deal
//! scoring (docs/escoba_engine.md §7).
//!
//! Capture search never allocates: the table is bucket-sorted by value into a stack array and
//! subsets are found by DFS with pruning on the running sum; results go to a visitor.

use crate::cards::{Card, CardSet};

pub use super::knock::Matta;

use super::builds::Builds;
use super::cicera;
use super::maresciallo;
use super::options::{
    AceEmpty, EscobaOptions, Fewest, Obligation, PrimieraMode, Scoring, TiePolicy, KIND_DIFF,
    KIND_MATCH, KIND_SUM, KIND_SUM11, KIND_SUM15, MAX_IDS,
};
use super::piles::Piles;

pub const MAX_SIDES: usize = 6;
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

const fn rank_mask(rank: u8) -> u64 {
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

/// Table cards bucket-sorted by capture value (then id).
struct Items {
    v: [u8; MAX_IDS],
    c: [u8; MAX_IDS],
    n: usize,
}

const fn build_value_le() -> [u64; 11] {
    let mut m = [0u64; 11];
    let mut v = 1;
    while v <= 10 {
        m[v] = m[v - 1] | VALUE_MASK[v];
        v += 1;
    }
    m
}
/// Cards of capture value ≤ v.
const VALUE_LE: [u64; 11] = build_value_le();

impl Items {
    /// Only cards of value ≤ `max_value` are kept: larger ones never fit a sum.
    #[inline]
    fn new(table: CardSet, max_value: u8, mv: Matta) -> Items {
        let mut it = Items {
            v: [0; MAX_IDS],
            c: [0; MAX_IDS],
            n: 0,
        };
        let max = max_value.min(10);
        let le = if mv.value <= max {
            VALUE_LE[max as usize] | mv.bit
        } else {
            VALUE_LE[max as usize] & !mv.bit
        };
        let mut rest = table.0 & le;
        let mut val = 1usize;
        while rest != 0 && val <= 10 {
            let mut m = rest & mv.fix(VALUE_MASK[val], val as u8);
            rest &= !m;
            while m != 0 && it.n < MAX_IDS {
                it.v[it.n] = val as u8;
                it.c[it.n] = m.trailing_zeros() as u8;
                it.n += 1;
                m &= m - 1;
            }
            val += 1;
        }
        it
    }

    /// Every table card with its capture value under `value_modulus = k`, sorted by that value.
    fn new_mod(table: CardSet, k: u8, mv: Matta) -> Items {
        let mut it = Items {
            v: [0; MAX_IDS],
            c: [0; MAX_IDS],
            n: 0,
        };
        for w in 1..=k {
            let mut m = table.0 & wmask(Some(k), w, mv);
            while m != 0 && it.n < MAX_IDS {
                it.v[it.n] = w;
                it.c[it.n] = m.trailing_zeros() as u8;
                it.n += 1;
                m &= m - 1;
            }
        }
        it
    }
}

/// `((v − 1) mod k) + 1`: a value under `value_modulus = k` (docs/rules/escoba.md §2.15).
#[inline]
pub const fn modv(v: u8, k: u8) -> u8 {
    (v + k - 1) % k + 1
}

/// Cards whose capture value is `w` (under the modulus when set), the matta at its value.
#[inline]
fn wmask(modulus: Option<u8>, w: u8, mv: Matta) -> u64 {
    let m = wmask_natural(modulus, w);
    if mv.bit == 0 {
        return m;
    }
    let wm = match modulus {
        None => mv.value,
        Some(k) => modv(mv.value, k),
    };
    if wm == w {
        m | mv.bit
    } else {
        m & !mv.bit
    }
}

#[inline]
fn wmask_natural(modulus: Option<u8>, w: u8) -> u64 {
    match modulus {
        None => VALUE_MASK[w.min(10) as usize],
        Some(k) => {
            let mut m = 0u64;
            let mut v = w;
            while v <= 10 {
                m |= VALUE_MASK[v as usize];
                v += k;
            }
            m
        }
    }
}

/// The capture value of a card: `V`, or `W` under `value_modulus` (docs/escoba_engine.md §3).
#[inline]
pub fn cvalue(o: &EscobaOptions, c: Card, mv: Matta) -> u8 {
    match o.value_modulus {
        None => mv.val(c),
        Some(k) => modv(mv.val(c), k),
    }
}

/// Every subset of `items[start..]` with at least 2 cards in all whose value sum is `target`
/// modulo `k` (the modular sum of docs/rules/escoba.md §2.15); no pruning is possible.
#[allow(clippy::too_many_arguments)]
fn dfs_mod<F: FnMut(u64, u32)>(
    items: &Items,
    start: usize,
    k: u8,
    res: u8,
    target: u8,
    set: u64,
    size: u32,
    f: &mut F,
) {
    for j in start..items.n {
        let s = set | 1u64 << items.c[j];
        let r = (res + items.v[j]) % k;
        if size + 1 >= 2 && r == target {
            f(s, size + 1);
        }
        dfs_mod(items, j + 1, k, r, target, s, size + 1, f);
    }
}

/// Whether some subset of at least 2 items sums to `target` modulo `k`.
fn exists_mod(items: &Items, k: u8, target: u8) -> bool {
    let full = (1u32 << k) - 1;
    let rot = |m: u32, w: u8| ((m << w) | (m >> (k - w))) & full;
    let (mut one, mut two) = (0u32, 0u32);
    for j in 0..items.n {
        let w = items.v[j] % k;
        two |= rot(two, w) | rot(one, w);
        one |= 1 << w;
    }
    two >> target & 1 != 0
}

/// Every subset of `items[start..]` with value sum `remaining`, size ≥ `min_size` overall.
fn dfs_sum<F: FnMut(u64, u32)>(
    items: &Items,
    start: usize,
    remaining: u8,
    set: u64,
    size: u32,
    min_size: u32,
    f: &mut F,
) {
    let mut j = start;
    while j < items.n {
        let v = items.v[j];
        if v > remaining {
            break;
        }
        let s = set | 1u64 << items.c[j];
        if v == remaining {
            if size + 1 >= min_size {
                f(s, size + 1);
            }
        } else if remaining - v >= v {
            // later items are ≥ v, so they can only fit if remaining - v ≥ v
            dfs_sum(items, j + 1, remaining - v, s, size + 1, min_size, f);
        }
        j += 1;
    }
}

fn exists_sum(items: &Items, start: usize, remaining: u8, size: u32, min_size: u32) -> bool {
    let mut j = start;
    while j < items.n {
        let v = items.v[j];
        if v > remaining {
            return false;
        }
        if v == remaining {
            if size + 1 >= min_size {
                return true;
            }
        } else if remaining - v >= v && exists_sum(items, j + 1, remaining - v, size + 1, min_size)
        {
            return true;
        }
        j += 1;
    }
    false
}

/// Enumerates the sets of the enabled `kinds` (no filters), calling `f(set, size, kind)`.
#[allow(clippy::too_many_arguments)]
fn enum_kinds<F: FnMut(u64, u32, u8)>(
    modulus: Option<u8>,
    kinds: u8,
    vp: u8,
    table: CardSet,
    build_match: CardSet,
    items: &Items,
    mv: Matta,
    f: &mut F,
) {
    if kinds & KIND_MATCH != 0 && !build_match.is_empty() {
        // docs/rules/escoba.md §2.20: with a build of the value, equality takes every item of it at
        // once
        let all = build_match.union(CardSet(table.0 & wmask(modulus, vp, mv)));
        f(all.0, all.len(), KIND_MATCH);
    } else if kinds & KIND_MATCH != 0 {
        let mut m = table.0 & wmask(modulus, vp, mv);
        while m != 0 {
            f(m & m.wrapping_neg(), 1, KIND_MATCH);
            m &= m - 1;
        }
    }
    if kinds & KIND_SUM != 0 {
        match modulus {
            None => dfs_sum(items, 0, vp, 0, 0, 2, &mut |s, n| f(s, n, KIND_SUM)),
            Some(k) => dfs_mod(items, 0, k, 0, vp % k, 0, 0, &mut |s, n| f(s, n, KIND_SUM)),
        }
    }
    if kinds & KIND_SUM15 != 0 && vp < 15 {
        dfs_sum(items, 0, 15 - vp, 0, 0, 1, &mut |s, n| f(s, n, KIND_SUM15));
    }
    if kinds & KIND_SUM11 != 0 && vp < 11 {
        dfs_sum(items, 0, 11 - vp, 0, 0, 1, &mut |s, n| f(s, n, KIND_SUM11));
    }
    if kinds & KIND_DIFF != 0 {
        // X = {m} ∪ R with V(m) − ΣR = V(p); R's values are then all below V(m), so m is unique.
        for j in 0..items.n {
            let vm = items.v[j];
            if vm <= vp {
                continue;
            }
            let mbit = 1u64 << items.c[j];
            dfs_sum(items, 0, vm - vp, 0, 0, 1, &mut |s, n| {
                f(s | mbit, n + 1, KIND_DIFF)
            });
        }
    }
}

/// Whether the set `x` (of `n` cards) was already reported by one of the `earlier` kinds, under
/// `value_modulus = m`: it qualifies for that kind and survived the fewest-cards filter there.
#[allow(clippy::too_many_arguments)]
fn reported_earlier(
    m: u8,
    earlier: u8,
    group: u8,
    fewest: bool,
    min: u32,
    vp: u8,
    x: u64,
    n: u32,
    mv: Matta,
) -> bool {
    let (mut sum, mut max) = (0u32, 0u32);
    for c in CardSet(x) {
        let w = modv(mv.val(c), m) as u32;
        sum += w;
        max = max.max(w);
    }
    let vp = vp as u32;
    [KIND_MATCH, KIND_SUM, KIND_SUM15, KIND_SUM11, KIND_DIFF]
        .into_iter()
        .filter(|&k| earlier & k != 0)
        .any(|k| {
            let qualifies = match k {
                KIND_MATCH => n == 1 && sum == vp,
                KIND_SUM => n >= 2 && sum % m as u32 == vp % m as u32,
                KIND_SUM15 => vp + sum == 15,
                KIND_SUM11 => vp + sum == 11,
                _ => n >= 2 && 2 * max == sum + vp,
            };
            qualifies && (!fewest || k & group == 0 || n == min)
        })
}

/// The builds that `Match` takes for a played value `vp` (docs/rules/escoba.md §2.20), by name.
#[inline]
fn build_match(o: &EscobaOptions, builds: &Builds, vp: u8) -> CardSet {
    if builds.is_empty() || o.capture_kinds & KIND_MATCH == 0 {
        CardSet::EMPTY
    } else {
        builds.names_of_value(vp as u32)
    }
}

/// The kinds left after match priority (step 1).
#[inline]
fn active_kinds(o: &EscobaOptions, vp: u8, table: CardSet, build_match: CardSet, mv: Matta) -> u8 {
    let mut kinds = o.capture_kinds;
    if o.match_priority
        && kinds & KIND_MATCH != 0
        && (table.0 & wmask(o.value_modulus, vp, mv) != 0 || !build_match.is_empty())
    {
        kinds &= !o.match_priority_kinds;
    }
    kinds
}

#[inline]
fn ace_all_applies(o: &EscobaOptions, p: Card, table: CardSet, items: CardSet, mv: Matta) -> bool {
    o.ace_takes_all
        && mv.val(p) == 1
        && !items.is_empty()
        && (!o.ace_blocked_by_table_ace || table.0 & mv.fix(ACES.0, 1) == 0)
}

/// `Captures(p, T)` of docs/escoba_engine.md §3: calls `f(X, from_kind)` once per distinct set,
/// where `from_kind` says X survived in some capture kind after steps 1–2 (false: only `AceAll`).
/// A matta declared at another value (docs/escoba_engine.md §3) counts at that value, also as an
/// Ace.
pub fn for_each_capture<F: FnMut(CardSet, bool)>(
    o: &EscobaOptions,
    mv: Matta,
    p: Card,
    table: CardSet,
    f: F,
) {
    for_each_capture_built(o, mv, p, table, &Builds::EMPTY, f)
}

/// [`for_each_capture`] with builds beside the loose `table` (docs/escoba_engine.md §3a): a build
/// is one item named by its lowest card, taken only by equality; the sets hold item names.
pub fn for_each_capture_built<F: FnMut(CardSet, bool)>(
    o: &EscobaOptions,
    mv: Matta,
    p: Card,
    table: CardSet,
    builds: &Builds,
    mut f: F,
) {
    let all_items = table.union(builds.names());
    if all_items.is_empty() {
        return;
    }
    if cicera::rank_only(o, p) {
        // docs/rules/escoba.md §2.24: a court takes one court of its rank, nothing else
        if o.capture_kinds & KIND_MATCH != 0 {
            for c in table.inter(rank_cards(p.rank())) {
                f(CardSet::single(c), true);
            }
        }
        return;
    }
    let table = cicera::valued(o, table);
    let vp = cvalue(o, p, mv);
    let build_match = build_match(o, builds, vp);
    let kinds = active_kinds(o, vp, table, build_match, mv);
    let mut t_seen = false;
    if kinds != 0 {
        let max_v = if kinds & (KIND_SUM15 | KIND_SUM11 | KIND_DIFF) != 0 {
            14
        } else {
            vp
        };
        // a lone match needs no sorted table
        let items = if kinds == KIND_MATCH || table.is_empty() {
            Items {
                v: [0; MAX_IDS],
                c: [0; MAX_IDS],
                n: 0,
            }
        } else if let Some(k) = o.value_modulus {
            Items::new_mod(table, k, mv)
        } else {
            Items::new(table, max_v, mv)
        };
        let simple = KIND_MATCH | KIND_SUM;
        let (group, fewest) = match o.fewest_cards {
            Fewest::None => (0u8, false),
            Fewest::All => (0xFF, true),
            Fewest::SimpleOnly => (simple, true),
            Fewest::Sum15Only => (KIND_SUM15, true),
        };
        let mut min = u32::MAX;
        if fewest {
            enum_kinds(
                o.value_modulus,
                kinds & group,
                vp,
                table,
                build_match,
                &items,
                mv,
                &mut |_, n, _| min = min.min(n),
            );
        }
        enum_kinds(
            o.value_modulus,
            kinds,
            vp,
            table,
            build_match,
            &items,
            mv,
            &mut |s, n, k| {
                if fewest && k & group != 0 && n != min {
                    return;
                }
                // Plain values never put one set in two kinds; reduced ones can
                // (docs/escoba_engine.md §3: a set reached by several kinds is one outcome), so it
                // is reported by its first kind.
                if let Some(m) = o.value_modulus {
                    let earlier = kinds & (k - 1);
                    if earlier != 0
                        && reported_earlier(m, earlier, group, fewest, min, vp, s, n, mv)
                    {
                        return;
                    }
                }
                if s == all_items.0 {
                    t_seen = true;
                }
                f(CardSet(s), true);
            },
        );
    }
    if !t_seen && ace_all_applies(o, p, table, all_items, mv) {
        f(all_items, false);
    }
}

/// Whether `Captures(p, T)` is non-empty (filters never empty a non-empty union).
pub fn has_capture(o: &EscobaOptions, mv: Matta, p: Card, table: CardSet) -> bool {
    has_capture_built(o, mv, p, table, &Builds::EMPTY)
}

/// [`has_capture`] with builds beside the loose `table`.
pub fn has_capture_built(
    o: &EscobaOptions,
    mv: Matta,
    p: Card,
    table: CardSet,
    builds: &Builds,
) -> bool {
    let all_items = table.union(builds.names());
    if all_items.is_empty() {
        return false;
    }
    if ace_all_applies(o, p, table, all_items, mv) {
        return true;
    }
    if cicera::rank_only(o, p) {
        return o.capture_kinds & KIND_MATCH != 0 && !table.inter(rank_cards(p.rank())).is_empty();
    }
    let table = cicera::valued(o, table);
    let vp = cvalue(o, p, mv);
    let build_match = build_match(o, builds, vp);
    let kinds = active_kinds(o, vp, table, build_match, mv);
    if kinds & KIND_MATCH != 0
        && (table.0 & wmask(o.value_modulus, vp, mv) != 0 || !build_match.is_empty())
    {
        return true;
    }
    if kinds & !KIND_MATCH == 0 {
        return false;
    }
    let (items, sum_exists) = match o.value_modulus {
        None => {
            let items = Items::new(table, 14, mv);
            let e = kinds & KIND_SUM != 0 && exists_sum(&items, 0, vp, 0, 2);
            (items, e)
        }
        Some(k) => {
            let items = Items::new_mod(table, k, mv);
            let e = kinds & KIND_SUM != 0 && exists_mod(&items, k, vp % k);
            (items, e)
        }
    };
    sum_exists
        || (kinds & KIND_SUM15 != 0 && vp < 15 && exists_sum(&items, 0, 15 - vp, 0, 1))
        || (kinds & KIND_SUM11 != 0 && vp < 11 && exists_sum(&items, 0, 11 - vp, 0, 1))
        || (kinds & KIND_DIFF != 0
            && (0..items.n)
                .any(|j| items.v[j] > vp && exists_sum(&items, 0, items.v[j] - vp, 0, 1)))
}

/// One legal outcome of playing a card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The card joins the table.
    Trail,
    /// An Ace onto an empty table goes to the mover's pile (no scopa).
    SelfCapture,
    /// Takes these table items; `from_kind` as in [`for_each_capture`].
    Capture { cards: CardSet, from_kind: bool },
    /// Puts the card on table item `on` (a loose card or a build's name),
    /// docs/rules/escoba.md §2.20.
    Build { on: Card },
}

/// The cards of `hand` whose play is not forbidden by `forbid_ace_first_play`
/// (docs/escoba_engine.md §3): on the first play of the deal the Aces are dropped unless the hand
/// holds nothing but Aces.
#[inline]
pub fn playable_cards(o: &EscobaOptions, hand: CardSet, first_play: bool) -> CardSet {
    let rest = hand.minus(ACES);
    if o.forbid_ace_first_play && first_play && !rest.is_empty() {
        rest
    } else {
        hand
    }
}

/// `O(p)` of docs/escoba_engine.md §3 for `p` from `hand` (which includes `p`); `first_play` says
/// the state is the first play of the deal.
pub fn for_each_outcome<F: FnMut(Outcome)>(
    o: &EscobaOptions,
    p: Card,
    table: CardSet,
    hand: CardSet,
    first_play: bool,
    f: F,
) {
    for_each_outcome_in(o, Matta::NONE, p, table, Beside::NONE, hand, first_play, f)
}

/// The capture items beside the loose table cards: the builds (docs/rules/escoba.md §2.20) and,
/// with `steal`, the opponents' piles (docs/rules/escoba.md §2.21). `builds` refuses `steal`, so at
/// most one kind is present.
#[derive(Clone, Copy)]
pub struct Beside<'a> {
    pub builds: &'a Builds,
    pub piles: &'a Piles,
}

impl<'a> Beside<'a> {
    pub const NONE: Beside<'static> = Beside {
        builds: &Builds::EMPTY,
        piles: &Piles::NONE,
    };

    /// Builds only, no pile items.
    pub fn of_builds(builds: &'a Builds) -> Beside<'a> {
        Beside {
            builds,
            piles: &Piles::NONE,
        }
    }
}

/// `Captures(p, T)` with the deal's matta value and the items beside the table.
#[inline]
pub fn for_each_capture_in<F: FnMut(CardSet, bool)>(
    o: &EscobaOptions,
    mv: Matta,
    p: Card,
    table: CardSet,
    beside: Beside,
    f: F,
) {
    if o.steal {
        super::piles::for_each_capture(o, p, table, beside.piles, f)
    } else {
        for_each_capture_built(o, mv, p, table, beside.builds, f)
    }
}

/// [`has_capture`] with the deal's matta value and the items beside the table.
#[inline]
pub fn has_capture_in(
    o: &EscobaOptions,
    mv: Matta,
    p: Card,
    table: CardSet,
    beside: Beside,
) -> bool {
    if o.steal {
        super::piles::has_capture(o, p, table, beside.piles)
    } else {
        has_capture_built(o, mv, p, table, beside.builds)
    }
}

/// [`for_each_outcome`] with the deal's matta value and the items beside the table
/// (docs/escoba_engine.md §3; docs/rules/escoba.md §2.7, §2.20, §2.21); build outcomes come last.
#[allow(clippy::too_many_arguments)]
pub fn for_each_outcome_in<F: FnMut(Outcome)>(
    o: &EscobaOptions,
    mv: Matta,
    p: Card,
    table: CardSet,
    beside: Beside,
    hand: CardSet,
    first_play: bool,
    mut f: F,
) {
    let builds = beside.builds;
    let vp = mv.val(p);
    let playable = playable_cards(o, hand, first_play);
    if !playable.contains(p) {
        return;
    }
    if o.ace_takes_all
        && vp == 1
        && table.is_empty()
        && builds.is_empty()
        && o.ace_on_empty_table == AceEmpty::SelfCapture
    {
        f(Outcome::SelfCapture);
        return;
    }
    let mut any = false;
    for_each_capture_in(o, mv, p, table, beside, |cards, from_kind| {
        any = true;
        f(Outcome::Capture { cards, from_kind });
    });
    let trail = match o.capture_obligation {
        Obligation::Optional => true,
        Obligation::PlayedCard => !any,
        Obligation::PlayedCardNumerals => p.rank() >= 11 || !any,
        // only cards whose play is not forbidden count (docs/escoba_engine.md §3)
        Obligation::AnyCard => {
            !any && playable
                .iter()
                .all(|q| q == p || !has_capture_in(o, mv, q, table, beside))
        }
    };
    // docs/rules/escoba.md §2.1: with ace_may_trail only the Ace is freed from the obligation
    if trail || (o.ace_may_trail && vp == 1) {
        f(Outcome::Trail);
    }
    super::builds::for_each_build(o, p, table, builds, hand, any, |on| {
        f(Outcome::Build { on })
    });
}

/// `capture_options(card, table)` of docs/escoba_engine.md §7: every outcome with hand `{card}` as
/// its ascending card list (trail `[]`, self-capture `[card]`), sorted by those lists.
pub fn capture_options(o: &EscobaOptions, card: Card, table: CardSet) -> Vec<Vec<Card>> {
    capture_options_in(o, card, table, Beside::NONE, CardSet::single(card)).0
}

/// [`capture_options`] with the items beside the table and a hand (holding `card`): the
/// outcomes as above, a capture listing item names (a build by its lowest card; with `steal` a
/// pile is the item `Card(PILE_BIT + side)`, after every table card), and apart, ascending, the
/// items `card` may be built on (docs/escoba_engine.md §7).
pub fn capture_options_in(
    o: &EscobaOptions,
    card: Card,
    table: CardSet,
    beside: Beside,
    hand: CardSet,
) -> (Vec<Vec<Card>>, Vec<Card>) {
    let mut out: Vec<Vec<Card>> = Vec::new();
    let mut ons: Vec<Card> = Vec::new();
    for_each_outcome_in(
        o,
        Matta::NONE,
        card,
        table,
        beside,
        hand,
        false,
        |x| match x {
            Outcome::Trail => out.push(Vec::new()),
            Outcome::SelfCapture => out.push(vec![card]),
            Outcome::Capture { cards, .. } => out.push(cards.iter().collect()),
            Outcome::Build { on } => ons.push(on),
        },
    );
    out.sort();
    ons.sort();
    (out, ons)
}

/// Escoba de mano (docs/escoba_engine.md §5 step 4): how many sweeps the initial table scores (0,
/// 1, 2, or `initial_table_le9`). A matta on the table takes the value 1..=10 that scores the most.
pub fn escoba_de_mano_sweeps(o: &EscobaOptions, table: CardSet) -> u32 {
    use super::options::TableBonus;
    if o.initial_table_bonus != TableBonus::Sum15_30 || table.is_empty() {
        return 0;
    }
    let m = Matta::natural(o);
    if !m.in_set(table) {
        return table_sweeps(o, table, m);
    }
    (1..=10)
        .map(|v| {
            table_sweeps(
                o,
                table,
                Matta {
                    bit: m.bit,
                    value: v,
                },
            )
        })
        .max()
        .unwrap_or(0)
}

fn table_sweeps(o: &EscobaOptions, table: CardSet, mv: Matta) -> u32 {
    use super::options::Mano30;
    let total: u32 = table.iter().map(|c| mv.val(c) as u32).sum();
    match total {
        15 => 1,
        30 if o.escoba_de_mano_30 == Mano30::Total => 2,
        30 => {
            let items = Items::new(table, 10, mv);
            if exists_sum(&items, 0, 15, 0, 1) {
                2
            } else {
                0
            }
        }
        t if t <= 9 => o.initial_table_le9.map_or(0, |k| k.clamp(0, 3) as u32),
        _ => 0,
    }
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

/// Length of the unbroken coin run A 2 3 4 5 6 7 J Q K held in `pile`.
pub fn napola_run(pile: CardSet) -> u32 {
    const RUN: [u8; 10] = [1, 2, 3, 4, 5, 6, 7, 11, 12, 13];
    RUN.iter()
        .take_while(|&&r| pile.contains(Card::new(1, r)))
        .count() as u32
}

/// Grande (docs/rules/escoba.md §2.7): `grande` for J-Q-K of coins, with `grande_extends` +1 per
/// further coin of the unbroken run 7, 6, 5, … downward.
pub fn grande_points(o: &EscobaOptions, pile: CardSet) -> Option<i64> {
    const DOWN: [u8; 7] = [7, 6, 5, 4, 3, 2, 1];
    let jqk = [11u8, 12, 13]
        .iter()
        .all(|&r| pile.contains(Card::new(1, r)));
    if !jqk {
        return None;
    }
    let more = if o.grande_extends {
        DOWN.iter()
            .take_while(|&&r| pile.contains(Card::new(1, r)))
            .count() as i64
    } else {
        0
    };
    Some(o.grande.saturating_add(more))
}

/// Primiera value table by rank index 0..13 (standard or veneto ×2).
fn primiera_values(mode: PrimieraMode) -> [i64; 13] {
    match mode {
        PrimieraMode::Veneto => [11, 4, 6, 8, 10, 12, 14, 0, 0, 0, 1, 1, 1],
        _ => [16, 12, 13, 14, 15, 18, 21, 0, 0, 0, 10, 10, 10],
    }
}

/// Per side primiera total (standard/veneto): sum over suits of the best card; `None` when a
/// suit is missing and `primiera_requires_all_suits`.
pub fn primiera_total(o: &EscobaOptions, pile: CardSet) -> Option<i64> {
    let vals = primiera_values(o.primiera_mode);
    let mut total = 0i64;
    for suit in 0..4u8 {
        let mut best: Option<i64> = None;
        let mut m = (pile.0 >> (13 * suit)) & 0x1FFF & (PACK_MASK.0 >> (13 * suit));
        while m != 0 {
            let r = m.trailing_zeros() as usize;
            best = Some(best.map_or(vals[r], |b: i64| b.max(vals[r])));
            m &= m - 1;
        }
        match best {
            Some(b) => total += b,
            None if o.primiera_requires_all_suits => return None,
            None => {}
        }
    }
    Some(total)
}

/// Every side at the maximum (bitmask), however many.
fn most_tied(vals: &[i64]) -> u32 {
    let best = vals.iter().copied().max().unwrap_or(0);
    vals.iter()
        .enumerate()
        .filter(|&(_, &v)| v == best)
        .fold(0, |m, (s, _)| m | 1 << s)
}

/// Sides with the strict maximum among `eligible` (bitmask); a tie at the top gives the tied
/// sides under `all_tied` and nobody under `nobody`.
pub(super) fn most(o: &EscobaOptions, vals: &[i64], eligible: u32) -> u32 {
    let mut best = i64::MIN;
    let mut at = 0u32;
    for (s, &v) in vals.iter().enumerate() {
        if eligible >> s & 1 == 0 {
            continue;
        }
        if v > best {
            best = v;
            at = 1 << s;
        } else if v == best {
            at |= 1 << s;
        }
    }
    if at.count_ones() > 1 && o.category_tie_policy == TiePolicy::Nobody {
        0
    } else {
        at
    }
}

/// The award step of a deal's scoring (docs/escoba_engine.md §7): `give(sides, points_of_side)`
/// adds one award to `total` and reports it to `award` when it gives someone a point; the count-out
/// order is the order of the calls.
pub(super) fn awarder<'a, F: FnMut(&Points) + 'a>(
    ns: usize,
    total: &'a mut Points,
    mut award: F,
) -> impl FnMut(u32, &dyn Fn(usize) -> i64) + 'a {
    move |sides, pts| {
        let mut a: Points = [0; MAX_SIDES];
        let mut any = false;
        for (s, slot) in a.iter_mut().enumerate().take(ns) {
            if sides >> s & 1 != 0 {
                *slot = pts(s);
                any |= *slot != 0;
            }
        }
        if any {
            for (t, x) in total.iter_mut().zip(a).take(ns) {
                *t = t.saturating_add(x);
            }
            award(&a);
        }
    }
}

/// Scores a deal (docs/escoba_engine.md §7), calling `award` once per award that gives points, in
/// count-out order, with the points per side of that award. `sweeps` lists the side of each sweep
/// in the order made; bit `i` of `ks_at` marks sweep `i` as made by playing `Ks`, and `ks_sides`
/// the sides that made such a sweep (docs/rules/escoba.md §2.18). Returns the total per side.
pub fn score_deal_awards<F: FnMut(&Points)>(
    o: &EscobaOptions,
    piles: &[CardSet],
    sweeps: &[u8],
    decls: &[Decl],
    ks_at: u128,
    ks_sides: u32,
    award: F,
) -> Points {
    let ns = piles.len().min(MAX_SIDES);
    let piles = &piles[..ns];
    let all = (1u32 << ns) - 1;
    let mut total: Points = [0; MAX_SIDES];
    let mut give = awarder(ns, &mut total, award);
    let holder = |c: Card| -> u32 {
        piles
            .iter()
            .position(|p| p.contains(c))
            .map_or(0, |s| 1 << s)
    };
    let holder_all = |set: CardSet| -> u32 {
        piles
            .iter()
            .position(|p| set.is_subset(*p))
            .map_or(0, |s| 1 << s)
    };
    let mut vals = [0i64; MAX_SIDES];

    if o.scoring == Scoring::Frac {
        // docs/rules/escoba.md §2.16: one point per A, J, Q, K held; the sweeps only with
        // frac_counts_scope
        give(all, &|s| piles[s].inter(FRAC_CARDS).len() as i64);
        if o.frac_counts_scope {
            for &s in sweeps {
                if (s as usize) < ns {
                    give(1 << s, &|_| o.scopa_value);
                }
            }
        }
        drop(give);
        return total;
    }

    // 1. cards, 2. coins
    for (s, p) in piles.iter().enumerate() {
        vals[s] = p.len() as i64;
    }
    match o.cards_tie_points {
        // docs/rules/escoba.md §2.24: a tie for the most cards gives each tied side these points
        Some(t) if most_tied(&vals[..ns]).count_ones() > 1 => give(most_tied(&vals[..ns]), &|_| t),
        _ => give(most(o, &vals[..ns], all), &|_| o.cards),
    }
    let coins = o.deck.suit(1);
    for (s, p) in piles.iter().enumerate() {
        vals[s] = p.inter(coins).len() as i64;
    }
    give(most(o, &vals[..ns], all), &|_| o.coins);
    // 3. settebello
    give(holder(SETTEBELLO), &|_| o.settebello);
    // 4. primiera
    let prim_sides = match o.primiera_mode {
        PrimieraMode::Standard | PrimieraMode::Veneto => {
            let mut elig = 0u32;
            for (s, p) in piles.iter().enumerate() {
                if let Some(t) = primiera_total(o, *p) {
                    vals[s] = t;
                    elig |= 1 << s;
                } else {
                    vals[s] = 0;
                }
            }
            most(o, &vals[..ns], elig)
        }
        PrimieraMode::Milan => {
            let mut cand = all;
            let mut decided = None;
            for &r in &o.milan_tiebreak {
                let rc = rank_cards(r);
                let mut best = -1i64;
                for (s, p) in piles.iter().enumerate() {
                    if cand >> s & 1 != 0 {
                        best = best.max(p.inter(rc).len() as i64);
                    }
                }
                for (s, p) in piles.iter().enumerate() {
                    if p.inter(rc).len() as i64 != best {
                        cand &= !(1 << s);
                    }
                }
                if cand.count_ones() == 1 {
                    decided = Some(cand);
                    break;
                }
            }
            match decided {
                Some(c) => c,
                None if o.category_tie_policy == TiePolicy::AllTied => cand,
                None => 0,
            }
        }
        PrimieraMode::ThreeSevens => {
            let mut c = 0u32;
            for (s, p) in piles.iter().enumerate() {
                if p.inter(SEVENS).len() >= 3 {
                    c |= 1 << s;
                }
            }
            c
        }
        PrimieraMode::None => 0,
    };
    give(prim_sides, &|_| o.primiera);
    // 5. settanta
    if o.settanta_bonus {
        give(holder_all(SEVENS), &|_| 1);
    }
    // 6. coin card points
    if o.coin_card_points > 0 {
        give(all, &|s| {
            o.coin_card_points
                .saturating_mul(piles[s].inter(coins).len() as i64)
        });
    }
    // 7. special cards, ascending id; re_bello adds Kd: 1 unless Kd is listed
    let kd = Card::new(1, 13);
    let mut kd_done = !o.re_bello || o.special_cards.iter().any(|(c, _)| *c == kd);
    for &(c, pts) in &o.special_cards {
        if !kd_done && c.0 > kd.0 {
            give(holder(kd), &|_| 1);
            kd_done = true;
        }
        give(holder(c), &|_| pts);
    }
    if !kd_done {
        give(holder(kd), &|_| 1);
    }
    // 8. napola
    if o.napola {
        for (s, p) in piles.iter().enumerate() {
            let l = napola_run(*p);
            if l >= 3 {
                give(1 << s, &|_| o.napola_flat.unwrap_or(l as i64));
            }
        }
    }
    // 9. all sevens, all coins
    if o.all_sevens_bonus > 0 {
        give(holder_all(SEVENS), &|_| o.all_sevens_bonus);
    }
    if o.all_oros_bonus > 0 {
        give(holder_all(coins), &|_| o.all_oros_bonus);
    }
    // 9a. piccola, 9b. grande (docs/rules/escoba.md §2.7)
    if o.piccola {
        for (s, p) in piles.iter().enumerate() {
            let l = napola_run(*p).min(o.piccola_max as u32);
            if l >= 3 {
                give(1 << s, &|_| l as i64);
            }
        }
    }
    if o.grande > 0 {
        for (s, p) in piles.iter().enumerate() {
            if let Some(pts) = grande_points(o, *p) {
                give(1 << s, &|_| pts);
            }
        }
    }
    // 9c. maresciallo, polacca, saponaro
    maresciallo::awards(o, piles, ks_sides, |s, p| give(1 << s, &|_| p));
    // 9d. cicera (docs/rules/escoba.md §2.24): the most swords, then the sword napula
    if o.swords > 0 {
        cicera::sword_counts(piles, &mut vals);
        give(most(o, &vals[..ns], all), &|_| o.swords);
    }
    cicera::napula_awards(o, piles, |s, p| give(1 << s, &|_| p));
    // 10. sweeps in the order made, each hand declaration at the moment it was made
    let mut d = 0;
    for (i, &s) in sweeps.iter().enumerate() {
        while d < decls.len() && decls[d].at as usize <= i {
            let x = decls[d];
            if (x.side as usize) < ns {
                give(1 << x.side, &|_| x.points);
            }
            d += 1;
        }
        if (s as usize) < ns {
            let pts = maresciallo::sweep_points(o, i < 128 && ks_at >> i & 1 != 0);
            give(1 << s, &|_| pts);
        }
    }
    for x in &decls[d..] {
        if (x.side as usize) < ns {
            give(1 << x.side, &|_| x.points);
        }
    }
    drop(give);
    total
}

/// A hand declaration as scored: the side, its points, and `at` = how many sweeps of the deal
/// were made before it (its place in the count-out order).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decl {
    pub side: u8,
    pub points: i64,
    pub at: u8,
}

/// Total points per side of a deal.
pub fn score_deal(o: &EscobaOptions, piles: &[CardSet], sweeps: &[u8]) -> Points {
    score_deal_awards(o, piles, sweeps, &[], 0, 0, |_| {})
}

/// `score_deal(piles, scope)` with sweep counts per side (side 0's first, then side 1's, …).
/// `declarations` are hand-declaration points per side, added after the categories
/// (docs/escoba_engine.md §7); `ks_sweeps` per side: how many of its `scope` were made by playing
/// `Ks` (at most `scope`).
pub fn score_deal_counts(
    o: &EscobaOptions,
    piles: &[CardSet],
    scope: &[u64],
    declarations: &[i64],
    ks_sweeps: &[u64],
) -> Points {
    let mut decls = [Decl::default(); MAX_SIDES];
    let mut nd = 0;
    for (s, &p) in declarations.iter().enumerate().take(MAX_SIDES) {
        decls[nd] = Decl {
            side: s as u8,
            points: p,
            at: 0,
        };
        nd += 1;
    }
    let ks = |s: usize| -> u64 {
        if o.maresciallo_penalty {
            ks_sweeps.get(s).copied().unwrap_or(0).min(scope[s])
        } else {
            0
        }
    };
    let mut ks_sides = 0u32;
    for s in 0..scope.len().min(piles.len()).min(MAX_SIDES) {
        if ks(s) > 0 {
            ks_sides |= 1 << s;
        }
    }
    let mut t = score_deal_awards(o, piles, &[], &decls[..nd], 0, ks_sides, |_| {});
    if o.scoring == Scoring::Frac && !o.frac_counts_scope {
        return t;
    }
    for (s, &k) in scope.iter().enumerate().take(piles.len().min(MAX_SIDES)) {
        let m = i64::try_from(ks(s)).unwrap_or(i64::MAX);
        let k = i64::try_from(k - ks(s)).unwrap_or(i64::MAX);
        t[s] = t[s]
            .saturating_add(k.saturating_mul(o.scopa_value))
            .saturating_add(m.saturating_mul(maresciallo::KS_SWEEP_POINTS));
    }
    t
}
