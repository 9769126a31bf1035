//! Rubamazzo piles (docs/rules/escoba.md §2.21, §2.22): the top card of each captured pile is
//! public, a card equal to an opponent's top steals that whole pile, and in rubamazzo a somma a
//! pile is a sum item worth its top card.
//!
//! A pile is a capture item like a table card: bit `PILE_BIT + side` of a capture set, so that
//! `TAKE + bit` is its `TAKE_PILE(side)` action id (a side's pile is named by its lowest seat,
//! which is the side number) and piles sort after every table card, as the protocol wants.

use crate::cards::{Card, CardSet};
use crate::error::GameError;

use super::options::{
    refuse_clashes, EscobaOptions, Fewest, TableBonus, TargetMode, KIND_MATCH, KIND_SUM,
};
use super::values::{value, MAX_SIDES, VALUE_MASK};

/// Bit of side 0's pile in a capture set.
pub const PILE_BIT: u8 = 53;
/// The table-card bits of a capture set.
pub const CARD_BITS: u64 = (1u64 << 52) - 1;

/// Top card of each side's pile, −1 when empty (kept with `steal` only; docs/rules/escoba.md §2.21).
#[derive(Clone, Copy, Debug)]
pub struct Tops {
    pub tops: [i8; MAX_SIDES],
}

impl Tops {
    pub const EMPTY: Tops = Tops {
        tops: [-1; MAX_SIDES],
    };
}

/// What the capture rules need to know about the piles: each side's top card (−1: empty
/// pile), the mover's side and the side of the next seat in play order (`ace_steals_all`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piles {
    pub tops: [i8; MAX_SIDES],
    pub side: u8,
    pub next: u8,
}

impl Piles {
    /// No pile to take.
    pub const NONE: Piles = Piles {
        tops: [-1; MAX_SIDES],
        side: 0,
        next: 0,
    };
}

/// Whether capture-set bit `b` is a pile, and whose.
#[inline]
pub fn pile_of_bit(b: u8) -> Option<usize> {
    (b >= PILE_BIT).then(|| (b - PILE_BIT) as usize)
}

/// Text of a capture item: a card, or `pile2` (the full-move notation of
/// docs/rules/escoba.md §6.2).
pub fn item_text(b: u8) -> String {
    match pile_of_bit(b) {
        Some(s) => format!("pile{s}"),
        None => Card(b).to_string(),
    }
}

/// Text of a capture set, items ascending and space-separated.
pub fn set_text(x: CardSet) -> String {
    x.iter()
        .map(|c| item_text(c.0))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Options that have no meaning together with `steal` (InvalidOptionError).
pub fn validate(o: &EscobaOptions) -> Result<(), GameError> {
    if !o.steal {
        return Ok(());
    }
    refuse_clashes(
        "steal=true (rubamazzo, docs/rules/escoba.md §2.21)",
        &[
            (
                "capture_kinds other than match and sum",
                o.capture_kinds & !(KIND_MATCH | KIND_SUM) != 0,
            ),
            ("value_modulus", o.value_modulus.is_some()),
            (
                "fewest_cards other than none",
                o.fewest_cards != Fewest::None,
            ),
            ("ace_takes_all (use ace_steals_all)", o.ace_takes_all),
            (
                "target_mode=eliminate",
                o.target_mode == TargetMode::Eliminate,
            ),
            ("matta", o.matta.is_some()),
            (
                "initial_table_bonus (a pile would have no top card)",
                o.initial_table_bonus != TableBonus::None,
            ),
        ],
    )
}

/// Every subset of `items[start..]` (value, bit), sorted by value, of at least 2 items in all
/// whose values add up to `left`.
fn sums<F: FnMut(u64)>(items: &[(u8, u8)], start: usize, left: u8, set: u64, size: u32, f: &mut F) {
    for j in start..items.len() {
        let (v, b) = items[j];
        if v > left {
            break;
        }
        let s = set | 1u64 << b;
        if v == left {
            if size + 1 >= 2 {
                f(s);
            }
        } else {
            sums(items, j + 1, left - v, s, size + 1, f);
        }
    }
}

/// `Captures(p, T)` with `steal` (docs/rules/escoba.md §2.21, §2.22): calls `f(X, from_kind)` once
/// per distinct set of items (table cards and pile bits); `from_kind` is false only for the Ace's
/// take of the whole table under `ace_steals_all`.
pub fn for_each_capture<F: FnMut(CardSet, bool)>(
    o: &EscobaOptions,
    p: Card,
    table: CardSet,
    piles: &Piles,
    mut f: F,
) {
    let vp = value(p);
    let same = table.0 & VALUE_MASK[vp as usize];
    let matches = if o.capture_kinds & KIND_MATCH != 0 {
        same
    } else {
        0
    };
    let mut steals = 0u64;
    let mut pile_items = [(0u8, 0u8); MAX_SIDES];
    let mut np = 0;
    for (s, &top) in piles.tops.iter().enumerate() {
        if top < 0 || s == piles.side as usize {
            continue;
        }
        let bit = PILE_BIT + s as u8;
        let v = value(Card(top as u8));
        if v == vp {
            steals |= 1u64 << bit;
        }
        pile_items[np] = (v, bit);
        np += 1;
    }
    // one source forbids stealing with a value that is also on the table [X 38]
    if o.table_match_first && same != 0 {
        steals = 0;
    }
    let mut emitted_single = 0u64;
    for m in [matches, steals] {
        let mut b = m;
        while b != 0 {
            f(CardSet(b & b.wrapping_neg()), true);
            b &= b - 1;
        }
        emitted_single |= m;
    }
    if o.steal_and_table {
        // one table match and one steal together
        let mut t = matches;
        while t != 0 {
            let tb = t & t.wrapping_neg();
            let mut s = steals;
            while s != 0 {
                let sb = s & s.wrapping_neg();
                f(CardSet(tb | sb), true);
                s &= s - 1;
            }
            t &= t - 1;
        }
    }
    // a steal is a match for match priority: the pile counts as an item worth its top card
    let priority =
        o.match_priority && o.match_priority_kinds & KIND_SUM != 0 && (matches | steals) != 0;
    if o.capture_kinds & KIND_SUM != 0 && !priority {
        let mut items: Vec<(u8, u8)> = Vec::with_capacity(48);
        for c in table {
            let v = value(c);
            if v < vp {
                items.push((v, c.0));
            }
        }
        if o.pile_in_sums {
            items.extend(pile_items[..np].iter().filter(|(v, _)| *v < vp));
        }
        items.sort_unstable();
        sums(&items, 0, vp, 0, 0, &mut |s| f(CardSet(s), true));
    }
    if o.ace_steals_all && p.rank() == 1 {
        // docs/rules/escoba.md §2.21 [X 6]: an Ace takes the table or the next opponent's pile
        // (a lone table card already taken as a match is the same outcome)
        if !table.is_empty() && (table.len() != 1 || matches != table.0) {
            f(table, false);
        }
        let next = piles.next as usize;
        if next != piles.side as usize && piles.tops[next] >= 0 {
            let bit = 1u64 << (PILE_BIT as usize + next);
            if emitted_single & bit == 0 {
                f(CardSet(bit), true);
            }
        }
    }
}

/// Whether `Captures(p, T)` is non-empty with `steal`.
pub fn has_capture(o: &EscobaOptions, p: Card, table: CardSet, piles: &Piles) -> bool {
    let mut any = false;
    for_each_capture(o, p, table, piles, |_, _| any = true);
    any
}
