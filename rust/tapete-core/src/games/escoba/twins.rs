//! The 80-card double pack of `maresciallo_80` (docs/rules/escoba.md §2.18): card multisets with at
//! most two copies of each id, the capture search over a multiset table (a card may not take its
//! identical twin except to sweep), the sweep values (twin sweep 3, `Ks` onto the other `Ks` +10)
//! and the doubled scoring (per-copy settebello, maresciallo, polacca and saponaro; double napola).
//!
//! Every single-pack preset keeps its `CardSet` paths; only the double pack uses this file.

use crate::cards::{Card, CardSet};

use super::maresciallo::{self, donna, KS};
use crate::error::GameError;

use super::options::{
    AceEmpty, CourtCapture, Deck, EscobaOptions, Fewest, MarescialloSweep, Obligation,
    PrimieraMode, Scoring, TableBonus, TargetMode, KIND_MATCH, KIND_SUM,
};
use super::rules::{
    self, awarder, value, Points, ACES, COINS, MAX_SIDES, PACK, SETTEBELLO, VALUE_MASK,
};

/// What a sweep that takes the played card's twin scores (docs/rules/escoba.md §2.18).
pub const TWIN_SWEEP_POINTS: i64 = 3;
/// What `Ks` played onto the other `Ks`, alone on the table, scores instead of any sweep value.
pub const KS_ON_KS_POINTS: i64 = 10;

/// A multiset of cards, 0–2 copies per id, as two planes: `one` holds every id present, `two`
/// (a subset of `one`) the ids present twice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Multiset {
    pub one: CardSet,
    pub two: CardSet,
}

impl Multiset {
    pub const EMPTY: Multiset = Multiset {
        one: CardSet::EMPTY,
        two: CardSet::EMPTY,
    };

    /// The multiset holding one copy of each card of `set`.
    #[inline]
    pub const fn from_set(set: CardSet) -> Multiset {
        Multiset {
            one: set,
            two: CardSet::EMPTY,
        }
    }

    /// Copies of `c`: 0, 1 or 2.
    #[inline]
    pub const fn count(self, c: Card) -> u32 {
        self.one.contains(c) as u32 + self.two.contains(c) as u32
    }
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        self.one.contains(c)
    }
    /// Number of cards, twins counted twice.
    #[inline]
    pub const fn len(self) -> u32 {
        self.one.len() + self.two.len()
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.one.is_empty()
    }

    /// Adds a copy of `c`; false (and no change) when both copies are already in.
    #[inline]
    pub fn insert(&mut self, c: Card) -> bool {
        if self.two.contains(c) {
            false
        } else {
            if self.one.contains(c) {
                self.two.insert(c);
            } else {
                self.one.insert(c);
            }
            true
        }
    }

    /// Removes a copy of `c`; false (and no change) when there is none.
    #[inline]
    pub fn remove(&mut self, c: Card) -> bool {
        if self.two.contains(c) {
            self.two.remove(c);
        } else if self.one.contains(c) {
            self.one.remove(c);
        } else {
            return false;
        }
        true
    }

    /// The sum of the two multisets, `None` when some id would have three copies.
    #[inline]
    pub const fn add(self, o: Multiset) -> Option<Multiset> {
        if (self.two.0 & o.one.0) | (self.one.0 & o.two.0) != 0 {
            return None;
        }
        Some(Multiset {
            one: CardSet(self.one.0 | o.one.0),
            two: CardSet(self.two.0 | o.two.0 | (self.one.0 & o.one.0)),
        })
    }

    /// Whether every copy in `self` is in `o`.
    #[inline]
    pub const fn is_subset(self, o: Multiset) -> bool {
        self.one.is_subset(o.one) && self.two.is_subset(o.two)
    }

    /// `self` without the copies of `o`, `None` unless `o` is a sub-multiset of `self`.
    #[inline]
    pub const fn minus(self, o: Multiset) -> Option<Multiset> {
        if !o.is_subset(self) {
            return None;
        }
        Some(Multiset {
            one: CardSet((self.two.0 & !o.two.0) | (self.one.0 & !o.one.0)),
            two: CardSet(self.two.0 & !o.one.0),
        })
    }

    /// Cards in ascending id order, a twin twice in a row.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        self.one
            .iter()
            .flat_map(move |c| std::iter::repeat_n(c, self.count(c) as usize))
    }
}

impl FromIterator<Card> for Multiset {
    /// Copies beyond the second of an id are dropped; callers check counts first.
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut m = Multiset::EMPTY;
        for c in iter {
            m.insert(c);
        }
        m
    }
}

/// The unshuffled 80-card pack: ascending ids, the two copies adjacent (docs/design.md §5, as for
/// tiles).
pub fn pack_ids() -> [u8; 80] {
    let mut p = [0u8; 80];
    for (i, c) in PACK.iter().enumerate() {
        p[2 * i] = c.0;
        p[2 * i + 1] = c.0;
    }
    p
}

/// Whether the capture search below covers these options: the kinds `match` and `sum` only,
/// natural values (no modulus, no matta), no fewest-cards filter, no piles. The double pack is
/// to be refused with anything else.
pub fn supported(o: &EscobaOptions) -> bool {
    o.capture_kinds & !(KIND_MATCH | KIND_SUM) == 0
        && o.value_modulus.is_none()
        && o.matta.is_none()
        && o.fewest_cards == Fewest::None
        && !o.steal
}

/// Table ids by capture value with their copy counts, for the sum search.
struct Items {
    v: [u8; 40],
    c: [u8; 40],
    k: [u8; 40],
    n: usize,
}

impl Items {
    fn new(table: Multiset, max_value: u8) -> Items {
        let mut it = Items {
            v: [0; 40],
            c: [0; 40],
            k: [0; 40],
            n: 0,
        };
        for val in 1..=max_value.min(10) {
            for c in CardSet(table.one.0 & VALUE_MASK[val as usize]) {
                if it.n < 40 {
                    it.v[it.n] = val;
                    it.c[it.n] = c.0;
                    it.k[it.n] = table.count(c) as u8;
                    it.n += 1;
                }
            }
        }
        it
    }
}

/// Every sub-multiset of `items[start..]` with value sum `remaining` and at least 2 cards
/// overall; each id is taken 0, 1 or (when both copies lie there) 2 times, so sets that differ
/// only in which copy is taken are found once.
fn dfs_sum<F: FnMut(Multiset)>(
    items: &Items,
    start: usize,
    remaining: u8,
    set: Multiset,
    size: u32,
    f: &mut F,
) {
    for j in start..items.n {
        let v = items.v[j];
        if v > remaining {
            break;
        }
        let mut s = set;
        let mut left = remaining;
        for taken in 1..=items.k[j] as u32 {
            if v > left {
                break;
            }
            s.insert(Card(items.c[j]));
            left -= v;
            if left == 0 {
                if size + taken >= 2 {
                    f(s);
                }
                break;
            }
            dfs_sum(items, j + 1, left, s, size + taken, f);
        }
    }
}

/// `Captures(p, T)` on a multiset table (docs/rules/escoba.md §2.18, docs/escoba_engine.md §3 steps
/// 1 and 3): calls `f(X, from_kind)` once per distinct sub-multiset X. A capture that holds `p`'s
/// twin is legal only when it is the whole table, and an illegal twin match gives no match
/// priority. Only for [`supported`] options.
pub fn for_each_capture<F: FnMut(Multiset, bool)>(
    o: &EscobaOptions,
    p: Card,
    table: Multiset,
    mut f: F,
) {
    if table.is_empty() {
        return;
    }
    let vp = value(p);
    let twin_ok = |x: Multiset| !x.contains(p) || x == table;
    let mut t_seen = false;
    let mut matched = false;
    if o.capture_kinds & KIND_MATCH != 0 {
        for c in CardSet(table.one.0 & VALUE_MASK[vp as usize]) {
            let x = Multiset::from_set(CardSet::single(c));
            if twin_ok(x) {
                matched = true;
                t_seen |= x == table;
                f(x, true);
            }
        }
    }
    let priority = matched && o.match_priority && o.match_priority_kinds & KIND_SUM != 0;
    if o.capture_kinds & KIND_SUM != 0 && !priority {
        let items = Items::new(table, vp);
        dfs_sum(&items, 0, vp, Multiset::EMPTY, 0, &mut |x| {
            if twin_ok(x) {
                t_seen |= x == table;
                f(x, true);
            }
        });
    }
    let ace_all =
        o.ace_takes_all && vp == 1 && (!o.ace_blocked_by_table_ace || table.one.0 & ACES.0 == 0);
    if ace_all && !t_seen {
        f(table, false);
    }
}

/// An outcome of a play on the double pack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TwinOutcome {
    Trail,
    SelfCapture,
    Capture { cards: Multiset, from_kind: bool },
}

/// `O(p)` on a multiset table (docs/escoba_engine.md §3, §1a); the double pack allows only the
/// obligations `played_card` and `optional`.
pub fn for_each_outcome<F: FnMut(TwinOutcome)>(
    o: &EscobaOptions,
    p: Card,
    table: Multiset,
    mut f: F,
) {
    if o.ace_takes_all
        && value(p) == 1
        && table.is_empty()
        && o.ace_on_empty_table == AceEmpty::SelfCapture
    {
        f(TwinOutcome::SelfCapture);
        return;
    }
    let mut any = false;
    for_each_capture(o, p, table, |cards, from_kind| {
        any = true;
        f(TwinOutcome::Capture { cards, from_kind });
    });
    // docs/rules/escoba.md §2.1: with ace_may_trail only the Ace is freed from the obligation
    if !any || o.capture_obligation == Obligation::Optional || (o.ace_may_trail && value(p) == 1) {
        f(TwinOutcome::Trail);
    }
}

/// `capture_options(card, table)` of docs/escoba_engine.md §7 on the double pack: every outcome as
/// its ascending card list, a twin listed twice (trail `[]`, self-capture `[card]`), sorted.
pub fn capture_options(o: &EscobaOptions, card: Card, table: Multiset) -> Vec<Vec<Card>> {
    let mut out: Vec<Vec<Card>> = Vec::new();
    for_each_outcome(o, card, table, |x| match x {
        TwinOutcome::Trail => out.push(Vec::new()),
        TwinOutcome::SelfCapture => out.push(vec![card]),
        TwinOutcome::Capture { cards, .. } => out.push(cards.iter().collect()),
    });
    out.sort();
    out
}

/// Whether `p` has some capture on `table` (the filters never empty a non-empty union).
pub fn has_capture(o: &EscobaOptions, p: Card, table: Multiset) -> bool {
    let mut any = false;
    for_each_capture(o, p, table, |_, _| any = true);
    any
}

/// The step protocol on multisets (docs/rules/escoba.md §6.2, "ascending" read as non-decreasing):
/// how capture `x` extends the selection `sel`, taken in non-decreasing id order. `None`: `x` does
/// not start with `sel`; `Some(None)`: `x` is `sel`; `Some(Some(t))`: the next `TAKE` is `t`, which
/// may equal the last id chosen when `x` takes both copies.
pub fn next_item(x: Multiset, sel: Multiset) -> Option<Option<Card>> {
    let rest = x.minus(sel)?;
    // the items still to take must not sort below the last one chosen
    let below = sel.one.last().map_or(0, |c| (1u64 << c.0) - 1);
    if rest.one.0 & below != 0 {
        return None;
    }
    Some(rest.one.first())
}

/// What a sweep made by playing `p` scores (docs/rules/escoba.md §2.18), `twin` saying it took
/// `p`'s twin: with `maresciallo_penalty`, `Ks` onto the other `Ks` +10 and any other `Ks` sweep
/// −4; else a twin sweep 3 and any other `scopa_value`.
pub fn sweep_points(o: &EscobaOptions, p: Card, twin: bool) -> i64 {
    match (maresciallo::is_ks_sweep(o, p), twin) {
        (true, true) => KS_ON_KS_POINTS,
        (true, false) => maresciallo::KS_SWEEP_POINTS,
        (false, true) => TWIN_SWEEP_POINTS,
        (false, false) => o.scopa_value,
    }
}

/// The double napola (docs/rules/escoba.md §2.18): run `L1` over the first copies of the coins, run
/// `L2` over the second copies; each scores its length when at least 3 (`flat` instead, with
/// `napola_flat`).
pub fn napola_points(pile: Multiset, flat: Option<i64>) -> i64 {
    let pts = |l: u32| if l >= 3 { flat.unwrap_or(l as i64) } else { 0 };
    pts(rules::napola_run(pile.one)) + pts(rules::napola_run(pile.two))
}

/// One side's counts for the card categories over the 80 cards (docs/rules/escoba.md §2.18): cards,
/// coins (of 20), settebelli (one point per `7d` copy), and the primiera with the best card per
/// suit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tally {
    pub cards: i64,
    pub coins: i64,
    pub settebelli: i64,
    pub primiera: Option<i64>,
}

pub fn tally(o: &EscobaOptions, pile: Multiset) -> Tally {
    let coins = |s: CardSet| s.inter(COINS).len() as i64;
    Tally {
        cards: pile.len() as i64,
        coins: coins(pile.one) + coins(pile.two),
        settebelli: pile.count(SETTEBELLO) as i64,
        primiera: rules::primiera_total(o, pile.one),
    }
}

/// The doubled maresciallo awards per side (docs/rules/escoba.md §2.18), as `give(side, points)` in
/// the order maresciallo, polacca, saponaro: −1 per `Ks` copy held, +1 per polacca pair
/// (`Jd`+`7d`), −1 per saponaro pair (`Js`+`Ks`). `ks_minus4[s]` counts side s's −4 `Ks` sweeps:
/// under `maresciallo_sweep=total` each replaces the −1 of one copy held.
pub fn awards<F: FnMut(usize, i64)>(
    o: &EscobaOptions,
    piles: &[Multiset],
    ks_minus4: &[u32],
    mut give: F,
) {
    let pairs = |p: &Multiset, a: Card, b: Card| p.count(a).min(p.count(b)) as i64;
    if o.maresciallo_penalty {
        for (s, p) in piles.iter().enumerate() {
            let mut held = p.count(KS);
            if o.maresciallo_sweep == MarescialloSweep::Total {
                held = held.saturating_sub(ks_minus4.get(s).copied().unwrap_or(0));
            }
            if held > 0 {
                give(s, -(held as i64));
            }
        }
    }
    if o.polacca {
        let jd = donna(o.polacca_card, 1);
        for (s, p) in piles.iter().enumerate() {
            let k = pairs(p, jd, SETTEBELLO);
            if k > 0 {
                give(s, k);
            }
        }
    }
    if o.saponaro {
        let js = donna(o.saponaro_card, 3);
        for (s, p) in piles.iter().enumerate() {
            let k = pairs(p, js, KS);
            if k > 0 {
                give(s, -k);
            }
        }
    }
}

/// Option combinations the double pack refuses (docs/escoba_engine.md §1a): what [`supported`] does
/// not cover, the mechanics defined for one pack (builds, claims, declarations, piles, elimination,
/// shown hands) and the scoring awards that read a single copy per id.
pub fn validate(o: &EscobaOptions) -> Result<(), GameError> {
    if o.deck != Deck::DoubleItalian80 {
        return Ok(());
    }
    let mut clash: Vec<&str> = Vec::new();
    if !supported(o) {
        clash.push("capture_kinds other than match/sum, value_modulus, matta, fewest_cards, steal");
    }
    let flags: [(bool, &str); 22] = [
        (o.players != 4, "players other than 4"),
        (o.builds, "builds"),
        (o.fidasse, "fidasse"),
        (o.tuzzoli, "tuzzoli"),
        (super::knock::enabled(o), "knocks"),
        (o.last_hand_open, "last_hand_open"),
        (
            o.target_mode == TargetMode::Eliminate,
            "target_mode=eliminate",
        ),
        (
            o.initial_table_bonus != TableBonus::None,
            "initial_table_bonus",
        ),
        (
            o.court_capture != CourtCapture::Value,
            "court_capture=same_rank",
        ),
        (
            o.capture_obligation != Obligation::PlayedCard
                && o.capture_obligation != Obligation::Optional,
            "capture_obligation",
        ),
        (o.forbid_ace_first_play, "forbid_ace_first_play"),
        (o.scoring != Scoring::Standard, "scoring=frac"),
        (
            !matches!(
                o.primiera_mode,
                PrimieraMode::Standard | PrimieraMode::Veneto | PrimieraMode::None
            ),
            "primiera_mode milan or three_sevens",
        ),
        (o.settanta_bonus, "settanta_bonus"),
        (
            o.all_sevens_bonus != 0 || o.all_oros_bonus != 0,
            "all_sevens_bonus, all_oros_bonus",
        ),
        (o.coin_card_points != 0, "coin_card_points"),
        (
            !o.special_cards.is_empty() || o.re_bello,
            "special_cards, re_bello",
        ),
        (o.napola_all_coins_wins, "napola_all_coins_wins"),
        (o.piccola || o.grande != 0, "piccola, grande"),
        (
            o.swords != 0 || o.sword_napula || o.all_swords_wins,
            "swords, sword_napula, all_swords_wins",
        ),
        (o.cards_tie_points.is_some(), "cards_tie_points"),
        (
            o.void_deal_min_kings.is_some() || o.void_deal_min_aces.is_some(),
            "void_deal_min_kings, void_deal_min_aces",
        ),
    ];
    clash.extend(flags.iter().filter(|(on, _)| *on).map(|(_, name)| *name));
    if clash.is_empty() {
        return Ok(());
    }
    Err(GameError::InvalidOption(format!(
        "option deck=double_italian80 (docs/rules/escoba.md §2.18, docs/escoba_engine.md §1a) cannot be combined with {}",
        clash.join(", ")
    )))
}

/// `score_deal` over multiset piles (docs/escoba_engine.md §1a, §7), the items the double pack
/// allows in count-out order: cards, coins, settebello (per `7d` copy), primiera, double napola,
/// the doubled maresciallo awards, then the sweeps in the order made: `sweep_points` with bit `i`
/// of `ks_at` (made by playing `Ks`) and of `twin_at` (took the played card's twin).
pub fn score_deal_awards<F: FnMut(&Points)>(
    o: &EscobaOptions,
    piles: &[Multiset],
    sweeps: &[u8],
    ks_at: u128,
    twin_at: u128,
    award: F,
) -> Points {
    let ns = piles.len().min(MAX_SIDES);
    let piles = &piles[..ns];
    let mut total: Points = [0; MAX_SIDES];
    let mut give = awarder(ns, &mut total, award);
    let mut ks_minus4 = [0u32; MAX_SIDES];
    for (i, &s) in sweeps.iter().enumerate().take(128) {
        if ks_at >> i & 1 != 0 && twin_at >> i & 1 == 0 && (s as usize) < ns {
            ks_minus4[s as usize] += 1;
        }
    }
    categories(o, piles, &ks_minus4[..ns], &mut give);
    for (i, &s) in sweeps.iter().enumerate() {
        if (s as usize) < ns {
            let bit = |m: u128| i < 128 && m >> i & 1 != 0;
            let pts = match (bit(ks_at), bit(twin_at)) {
                (true, true) => KS_ON_KS_POINTS,
                (true, false) => maresciallo::KS_SWEEP_POINTS,
                (false, true) => TWIN_SWEEP_POINTS,
                (false, false) => o.scopa_value,
            };
            give(1 << s, &|_| pts);
        }
    }
    drop(give);
    total
}

/// The awards before the sweeps, in count-out order (docs/escoba_engine.md §7, §1a): cards, coins,
/// settebello, primiera, double napola, the doubled maresciallo awards; `ks_minus4[s]`: side
/// `s`'s −4 `Ks` sweeps. `give(sides, points_of_side)`.
fn categories<G: FnMut(u32, &dyn Fn(usize) -> i64)>(
    o: &EscobaOptions,
    piles: &[Multiset],
    ks_minus4: &[u32],
    give: &mut G,
) {
    let ns = piles.len();
    let all = (1u32 << ns) - 1;
    let mut t = [Tally {
        cards: 0,
        coins: 0,
        settebelli: 0,
        primiera: None,
    }; MAX_SIDES];
    for (s, p) in piles.iter().enumerate() {
        t[s] = tally(o, *p);
    }
    let mut vals = [0i64; MAX_SIDES];
    for s in 0..ns {
        vals[s] = t[s].cards;
    }
    give(rules::most(o, &vals[..ns], all), &|_| o.cards);
    for s in 0..ns {
        vals[s] = t[s].coins;
    }
    give(rules::most(o, &vals[..ns], all), &|_| o.coins);
    give(all, &|s| o.settebello.saturating_mul(t[s].settebelli));
    if o.primiera_mode != PrimieraMode::None {
        let mut elig = 0u32;
        for s in 0..ns {
            vals[s] = t[s].primiera.unwrap_or(0);
            if t[s].primiera.is_some() {
                elig |= 1 << s;
            }
        }
        give(rules::most(o, &vals[..ns], elig), &|_| o.primiera);
    }
    if o.napola {
        for (s, p) in piles.iter().enumerate() {
            let l = napola_points(*p, o.napola_flat);
            if l > 0 {
                give(1 << s, &|_| l);
            }
        }
    }
    awards(o, piles, ks_minus4, |s, p| give(1 << s, &|_| p));
}

/// `score_deal` with sweep counts per side on the double pack (docs/escoba_engine.md §7, §1a):
/// `ks_sweeps` per side made by playing `Ks`, `twin_sweeps` per side took the played card's twin,
/// and the `Ks` onto `Ks` sweep of side `ks_on_ks` counts in both. The counts are checked by the
/// caller (`ks + twin − [ks_on_ks] ≤ scope`); `Ks` sweeps count only with `maresciallo_penalty`.
pub fn score_deal_counts(
    o: &EscobaOptions,
    piles: &[Multiset],
    scope: &[u64],
    declarations: &[i64],
    ks_sweeps: &[u64],
    twin_sweeps: &[u64],
    ks_on_ks: Option<usize>,
) -> Points {
    let ns = piles.len().min(MAX_SIDES);
    let penalty = o.maresciallo_penalty;
    let count = |v: &[u64], s: usize| v.get(s).copied().unwrap_or(0);
    let mut total: Points = [0; MAX_SIDES];
    let mut ks_minus4 = [0u32; MAX_SIDES];
    for (s, minus4) in ks_minus4.iter_mut().enumerate().take(ns) {
        let kk = u64::from(ks_on_ks == Some(s));
        let ks = if penalty { count(ks_sweeps, s) } else { 0 };
        *minus4 = u32::try_from(ks.saturating_sub(kk)).unwrap_or(u32::MAX);
    }
    categories(o, &piles[..ns], &ks_minus4[..ns], &mut |sides, pts| {
        for (s, slot) in total.iter_mut().enumerate().take(ns) {
            if sides >> s & 1 != 0 {
                *slot = slot.saturating_add(pts(s));
            }
        }
    });
    let times = |n: u64, pts: i64| i64::try_from(n).unwrap_or(i64::MAX).saturating_mul(pts);
    for s in 0..ns {
        let kk = u64::from(ks_on_ks == Some(s));
        let (ks, twin) = (count(ks_sweeps, s), count(twin_sweeps, s));
        let (ks_only, twin_only, both) = if penalty {
            (ks.saturating_sub(kk), twin.saturating_sub(kk), kk)
        } else {
            // without the penalty a Ks sweep is any sweep and Ks onto Ks any twin sweep
            (0, twin, 0)
        };
        let plain = scope[s].saturating_sub(ks_only + twin_only + both);
        total[s] = total[s]
            .saturating_add(declarations.get(s).copied().unwrap_or(0))
            .saturating_add(times(plain, o.scopa_value))
            .saturating_add(times(ks_only, maresciallo::KS_SWEEP_POINTS))
            .saturating_add(times(twin_only, TWIN_SWEEP_POINTS))
            .saturating_add(times(both, KS_ON_KS_POINTS));
    }
    total
}

#[cfg(test)]
mod tests {
    //! Hand-calculated from docs/rules/escoba.md §2.18 (no docs/rules/escoba.md §3 vector exists
    //! for the 80-card rules).
    use super::*;
    use crate::games::escoba::options::EscobaOptions;

    fn c(t: &str) -> Card {
        Card::parse(t).unwrap()
    }
    fn ms(t: &str) -> Multiset {
        let mut m = Multiset::EMPTY;
        for w in t.split_whitespace() {
            assert!(m.insert(c(w)), "three copies of {w}");
        }
        m
    }
    /// maresciallo's options (docs/rules/escoba.md §2.18: scopa d'assi captures, napola, Ks
    /// penalty, polacca).
    fn mar() -> EscobaOptions {
        EscobaOptions::resolve(&serde_json::json!({"variant": "maresciallo"})).unwrap()
    }
    /// The captures of `p` on `table` under maresciallo's options.
    fn caps(p: &str, table: &str) -> Vec<(Vec<Card>, bool)> {
        let mut v = Vec::new();
        for_each_capture(&mar(), c(p), ms(table), |x, k| {
            v.push((x.iter().collect(), k))
        });
        v.sort();
        v
    }
    fn list(t: &str) -> Vec<Card> {
        t.split_whitespace().map(c).collect()
    }

    #[test]
    fn multiset_planes() {
        let mut m = ms("5s 5s 2c");
        assert_eq!((m.count(c("5s")), m.count(c("2c")), m.len()), (2, 1, 3));
        assert!(!m.insert(c("5s")), "a third copy is refused");
        assert_eq!(m.iter().collect::<Vec<_>>(), list("2c 5s 5s"));
        assert_eq!(m.add(ms("2c")), Some(ms("2c 2c 5s 5s")));
        assert_eq!(m.add(ms("5s")), None);
        assert_eq!(m.minus(ms("5s 2c")), Some(ms("5s")));
        assert_eq!(m.minus(ms("2c 2c")), None);
        assert!(m.remove(c("5s")) && m.remove(c("5s")) && !m.remove(c("5s")));
        assert_eq!(m, ms("2c"));
    }

    #[test]
    fn pack_has_two_adjacent_copies() {
        let p = pack_ids();
        assert_eq!(&p[..4], &[0, 0, 1, 1]); // Ac Ac 2c 2c
        assert_eq!(p[79], c("Ks").0);
        let all: Multiset = p.iter().map(|&x| Card(x)).collect();
        assert_eq!(
            (all.len(), all.one, all.two),
            (80, rules::PACK_MASK, rules::PACK_MASK)
        );
    }

    #[test]
    fn twin_may_not_be_captured_except_to_sweep() {
        let o = mar();
        // docs/rules/escoba.md §2.18: 5s may not take the other 5s; the twin is no match, so no
        // match priority and the sum 2c + 3d = 5 is the only capture
        assert_eq!(caps("5s", "5s 2c 3d"), vec![(list("2c 3d"), true)]);
        // another 5 is a match (and has priority over the sum)
        assert_eq!(caps("5s", "5s 5c 2c 3d"), vec![(list("5c"), true)]);
        // the twin alone: a twin sweep, 3 points
        assert_eq!(caps("5s", "5s"), vec![(list("5s"), true)]);
        assert_eq!(sweep_points(&o, c("5s"), true), 3);
        assert_eq!(sweep_points(&o, c("5s"), false), 1);
    }

    #[test]
    fn both_copies_and_copy_blind_captures() {
        // 4h: Ac + 3d = 4 and 2c + 2c = 4 (both copies: TAKE 2c twice); Ac + 2c = 3 ≠ 4
        assert_eq!(
            caps("4h", "Ac 2c 2c 3d"),
            vec![(list("Ac 3d"), true), (list("2c 2c"), true)]
        );
        // 5h on 2c 2c 3d: 2c + 3d is one move whichever 2c is taken
        assert_eq!(caps("5h", "2c 2c 3d"), vec![(list("2c 3d"), true)]);
        // a twin pair of matches is one move too
        assert_eq!(caps("5h", "5c 5c"), vec![(list("5c"), true)]);
    }

    #[test]
    fn non_decreasing_takes() {
        // docs/rules/escoba.md §6.2, §2.18: a capture of both copies lists TAKE 2c twice, so TAKE
        // 2c is legal again right after TAKE 2c
        let x = ms("2c 2c");
        assert_eq!(next_item(x, Multiset::EMPTY), Some(Some(c("2c"))));
        assert_eq!(next_item(x, ms("2c")), Some(Some(c("2c"))));
        assert_eq!(next_item(x, ms("2c 2c")), Some(None));
        // Ac 3d does not start with 2c; 2c 3d after 3d alone is out of order
        assert_eq!(next_item(ms("Ac 3d"), ms("2c")), None);
        assert_eq!(next_item(ms("2c 3d"), ms("3d")), None);
        assert_eq!(next_item(ms("2c 3d"), ms("2c")), Some(Some(c("3d"))));
    }

    #[test]
    fn ks_on_ks_and_other_ks_sweeps() {
        let o = mar();
        // docs/rules/escoba.md §2.18: Ks onto the only other Ks: +10 instead of any sweep value
        // (not 3, not −4)
        assert_eq!(caps("Ks", "Ks"), vec![(list("Ks"), true)]);
        assert_eq!(sweep_points(&o, c("Ks"), true), 10);
        // Ks sweeping Kc: the usual −4
        assert_eq!(caps("Ks", "Kc"), vec![(list("Kc"), true)]);
        assert_eq!(sweep_points(&o, c("Ks"), false), -4);
        // Ks with the other Ks and more on the table: the twin is refused, Kc taken
        assert_eq!(caps("Ks", "Ks Kc 3d"), vec![(list("Kc"), true)]);
        assert!(!has_capture(&o, c("Ks"), ms("Ks 3d")));
    }

    #[test]
    fn ace_takes_all_with_twins() {
        // the Ace takes the whole table (no scopa), both copies included
        assert_eq!(caps("Ah", "2c 2c 5d"), vec![(list("2c 2c 5d"), false)]);
        // blocked by a table Ace (ace_blocked_by_table_ace): Ac is a match; the twin Ah alone is
        // refused because it is not the whole table
        assert_eq!(caps("Ah", "Ah Ac 5d"), vec![(list("Ac"), true)]);
        // the twin Ace alone: a twin sweep by match
        assert_eq!(caps("Ah", "Ah"), vec![(list("Ah"), true)]);
    }

    #[test]
    fn double_napola() {
        // docs/rules/escoba.md §2.18 [D]: L1 over first copies, L2 needs both; (L1 if ≥ 3) + (L2 if
        // ≥ 3) A–5 of coins once, A–4 twice: L1 = 5, L2 = 4 → 5 + 4 = 9
        assert_eq!(napola_points(ms("Ad Ad 2d 2d 3d 3d 4d 4d 5d"), None), 9);
        // A–4 once, A–2 twice: L1 = 4, L2 = 2 (< 3) → 4
        assert_eq!(napola_points(ms("Ad Ad 2d 2d 3d 4d"), None), 4);
        // no Ad: nothing
        assert_eq!(napola_points(ms("2d 2d 3d 3d 4d 4d"), None), 0);
    }

    #[test]
    fn doubled_awards() {
        let mut o = mar();
        o.saponaro = true;
        let run = |o: &EscobaOptions, piles: &[Multiset], k: &[u32]| {
            let mut v = Vec::new();
            awards(o, piles, k, |s, p| v.push((s, p)));
            v
        };
        // side 0: Jd Jd 7d 7d = 2 polacche (+2); side 1: Ks Ks Js = −2 maresciallo, 1 saponaro (−1)
        let piles = [ms("Jd Jd 7d 7d"), ms("Ks Ks Js")];
        assert_eq!(run(&o, &piles, &[0, 0]), vec![(1, -2), (0, 2), (1, -1)]);
        // Jd Jd 7d: one pair → +1; the other 7d elsewhere
        let piles = [ms("Jd Jd 7d"), ms("7d Ks")];
        assert_eq!(run(&o, &piles, &[0, 0]), vec![(1, -1), (0, 1)]);
        // total: side 1 made one −4 Ks sweep, which replaces the −1 of one of its two Ks → −1
        o.maresciallo_sweep = MarescialloSweep::Total;
        o.saponaro = false;
        let piles = [ms("2c"), ms("Ks Ks")];
        assert_eq!(run(&o, &piles, &[0, 1]), vec![(1, -1)]);
    }

    #[test]
    fn tallies_over_80_cards() {
        let o = mar();
        // 7d twice: 2 settebelli; coins 7d 7d Ad = 3; 6 cards; primiera best per suit 7d (21) +
        // 7c (21) + 6h (18) + Ks (10) = 70
        let t = tally(&o, ms("7d 7d Ad 7c 6h Ks"));
        assert_eq!(
            t,
            Tally {
                cards: 6,
                coins: 3,
                settebelli: 2,
                primiera: Some(70)
            }
        );
        // missing a suit: no primiera (primiera_requires_all_suits)
        assert_eq!(tally(&o, ms("7d 7d")).primiera, None);
    }
}
