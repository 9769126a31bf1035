//! Deal scoring of docs/escoba_engine.md §7: the category counts, the coin runs and the list of
//! awards (`score_deal_awards`), each step an award built from the options.

use crate::cards::{Card, CardSet};

use super::cicera;
use super::maresciallo;
use super::options::*;
use super::values::*;

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

/// One step of a deal's scoring (docs/escoba_engine.md §7); a game's steps are built once from
/// its options (`awards`) and every deal walks them in count-out order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Award {
    /// docs/rules/escoba.md §2.16: one point per A, J, Q, K held (the whole scoring under `frac`,
    /// with `FracSweeps`).
    Frac,
    /// Under `frac` with `frac_counts_scope`: the sweeps, each `scopa_value`.
    FracSweeps,
    /// 1. the most cards (`cards_tie_points` on a tie, docs/rules/escoba.md §2.24).
    Cards,
    /// 2. the most coins.
    Coins,
    /// 3. the settebello.
    Settebello,
    /// 4. primiera, by `primiera_mode`.
    Primiera,
    /// 5. the four sevens (`settanta_bonus`).
    Settanta,
    /// 6. `coin_card_points` per coin held.
    CoinCardPoints,
    /// 7. a special card, ascending id (`re_bello`'s `Kd` among them).
    Special(Card, i64),
    /// 8. napola, the coin run.
    Napola,
    /// 9. all sevens, all coins.
    AllSevens,
    AllOros,
    /// 9a. piccola, 9b. grande (docs/rules/escoba.md §2.7).
    Piccola,
    Grande,
    /// 9c. maresciallo, polacca, saponaro.
    Maresciallo,
    /// 9d. cicera (docs/rules/escoba.md §2.24): the most swords, then the sword napula.
    Swords,
    SwordNapula,
    /// 10. sweeps in the order made, each hand declaration at the moment it was made.
    Sweeps,
}

/// The scoring steps of options `o`, in count-out order.
pub fn awards(o: &EscobaOptions) -> Vec<Award> {
    if o.scoring == Scoring::Frac {
        let mut list = vec![Award::Frac];
        if o.frac_counts_scope {
            list.push(Award::FracSweeps);
        }
        return list;
    }
    let mut list = vec![
        Award::Cards,
        Award::Coins,
        Award::Settebello,
        Award::Primiera,
    ];
    let mut step = |on: bool, a: Award| {
        if on {
            list.push(a);
        }
    };
    step(o.settanta_bonus, Award::Settanta);
    step(o.coin_card_points > 0, Award::CoinCardPoints);
    // re_bello adds Kd: 1 unless Kd is listed
    let kd = Card::new(1, 13);
    let mut kd_done = !o.re_bello || o.special_cards.iter().any(|(c, _)| *c == kd);
    for &(c, pts) in &o.special_cards {
        if !kd_done && c.0 > kd.0 {
            step(true, Award::Special(kd, 1));
            kd_done = true;
        }
        step(true, Award::Special(c, pts));
    }
    step(!kd_done, Award::Special(kd, 1));
    step(o.napola, Award::Napola);
    step(o.all_sevens_bonus > 0, Award::AllSevens);
    step(o.all_oros_bonus > 0, Award::AllOros);
    step(o.piccola, Award::Piccola);
    step(o.grande > 0, Award::Grande);
    step(
        o.maresciallo_penalty || o.polacca || o.saponaro,
        Award::Maresciallo,
    );
    step(o.swords > 0, Award::Swords);
    step(o.sword_napula, Award::SwordNapula);
    step(true, Award::Sweeps);
    list
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
    let deal = Deal {
        piles,
        sweeps,
        decls,
        ks_at,
        ks_sides,
    };
    score_steps(&awards(o), o, &deal, award)
}

/// What a deal's scoring reads: the piles per side, the sweeps (sides, in the order made), the
/// hand declarations, the `Ks` sweeps (bit per sweep) and the sides that made one.
pub struct Deal<'a> {
    pub piles: &'a [CardSet],
    pub sweeps: &'a [u8],
    pub decls: &'a [Decl],
    pub ks_at: u128,
    pub ks_sides: u32,
}

/// Walks the scoring steps `steps` of options `o` over `deal`, as `score_deal_awards`.
pub fn score_steps<F: FnMut(&Points)>(
    steps: &[Award],
    o: &EscobaOptions,
    deal: &Deal<'_>,
    award: F,
) -> Points {
    let ns = deal.piles.len().min(MAX_SIDES);
    let piles = &deal.piles[..ns];
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
    let coins = o.deck.suit(1);
    for &step in steps {
        match step {
            Award::Frac => give(all, &|s| piles[s].inter(FRAC_CARDS).len() as i64),
            Award::FracSweeps => {
                for &s in deal.sweeps {
                    if (s as usize) < ns {
                        give(1 << s, &|_| o.scopa_value);
                    }
                }
            }
            Award::Cards => {
                for (s, p) in piles.iter().enumerate() {
                    vals[s] = p.len() as i64;
                }
                match o.cards_tie_points {
                    Some(t) if most_tied(&vals[..ns]).count_ones() > 1 => {
                        give(most_tied(&vals[..ns]), &|_| t)
                    }
                    _ => give(most(o, &vals[..ns], all), &|_| o.cards),
                }
            }
            Award::Coins => {
                for (s, p) in piles.iter().enumerate() {
                    vals[s] = p.inter(coins).len() as i64;
                }
                give(most(o, &vals[..ns], all), &|_| o.coins);
            }
            Award::Settebello => give(holder(SETTEBELLO), &|_| o.settebello),
            Award::Primiera => give(primiera_sides(o, piles, &mut vals), &|_| o.primiera),
            Award::Settanta => give(holder_all(SEVENS), &|_| 1),
            Award::CoinCardPoints => give(all, &|s| {
                o.coin_card_points
                    .saturating_mul(piles[s].inter(coins).len() as i64)
            }),
            Award::Special(c, pts) => give(holder(c), &|_| pts),
            Award::Napola => {
                for (s, p) in piles.iter().enumerate() {
                    let l = napola_run(*p);
                    if l >= 3 {
                        give(1 << s, &|_| o.napola_flat.unwrap_or(l as i64));
                    }
                }
            }
            Award::AllSevens => give(holder_all(SEVENS), &|_| o.all_sevens_bonus),
            Award::AllOros => give(holder_all(coins), &|_| o.all_oros_bonus),
            Award::Piccola => {
                for (s, p) in piles.iter().enumerate() {
                    let l = napola_run(*p).min(o.piccola_max as u32);
                    if l >= 3 {
                        give(1 << s, &|_| l as i64);
                    }
                }
            }
            Award::Grande => {
                for (s, p) in piles.iter().enumerate() {
                    if let Some(pts) = grande_points(o, *p) {
                        give(1 << s, &|_| pts);
                    }
                }
            }
            Award::Maresciallo => {
                maresciallo::awards(o, piles, deal.ks_sides, |s, p| give(1 << s, &|_| p))
            }
            Award::Swords => {
                cicera::sword_counts(piles, &mut vals);
                give(most(o, &vals[..ns], all), &|_| o.swords);
            }
            Award::SwordNapula => cicera::napula_awards(o, piles, |s, p| give(1 << s, &|_| p)),
            Award::Sweeps => {
                let decls = deal.decls;
                let mut d = 0;
                for (i, &s) in deal.sweeps.iter().enumerate() {
                    while d < decls.len() && decls[d].at as usize <= i {
                        let x = decls[d];
                        if (x.side as usize) < ns {
                            give(1 << x.side, &|_| x.points);
                        }
                        d += 1;
                    }
                    if (s as usize) < ns {
                        let ks = i < 128 && deal.ks_at >> i & 1 != 0;
                        let pts = maresciallo::sweep_points(o, ks);
                        give(1 << s, &|_| pts);
                    }
                }
                for x in &decls[d..] {
                    if (x.side as usize) < ns {
                        give(1 << x.side, &|_| x.points);
                    }
                }
            }
        }
    }
    drop(give);
    total
}

/// 4. The sides that win the primiera under `primiera_mode` (`vals`: scratch per side).
fn primiera_sides(o: &EscobaOptions, piles: &[CardSet], vals: &mut [i64; MAX_SIDES]) -> u32 {
    let ns = piles.len();
    let all = (1u32 << ns) - 1;
    match o.primiera_mode {
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
    }
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
