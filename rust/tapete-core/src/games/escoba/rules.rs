//! Pure rule functions of the Escoba family: capture outcomes (docs/escoba_engine.md §3) and deal
//! scoring (docs/escoba_engine.md §7).
//!
//! Capture search never allocates: the table is bucket-sorted by value into a stack array and
//! subsets are found by DFS with pruning on the running sum; results go to a visitor.

use crate::cards::{Card, CardSet};

pub use super::knock::Matta;

use super::builds::Builds;
use super::cicera;
use super::options::{
    AceEmpty, EscobaOptions, Fewest, Obligation, KIND_DIFF, KIND_MATCH, KIND_SUM, KIND_SUM11,
    KIND_SUM15, MAX_IDS,
};
use super::piles::Piles;

pub use super::knock::{
    tuzzoli, BUONGIOCO, NAPOLI, TUZZOLI_NAMES, TUZZOLI_POINTS, TUZZOLO, TWO_TUZZOLI,
};
pub use super::scoring::*;
pub use super::values::*;

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
