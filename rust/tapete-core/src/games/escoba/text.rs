//! Cards as JSON text, written and read: the lists and multisets of the state JSON, view and
//! `setup` (docs/escoba_engine.md §8–§10), and the check that each copy of the pack is met once.

use std::fmt::Write as _;

use serde_json::Value;

use super::options::Deck;
use super::twins;
use super::MAX_SCORE;
use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::json::{push_ints, Quoted, Read};

/// State JSON and `setup` refuse bad values as `InvalidStateError`.
pub(super) const ST: Read = Read::STATE;

// ----- writing -----

/// A multiset of the double pack (docs/escoba_engine.md §1a): `set` ascending, an id of `two` written twice.
pub(super) fn push_ids2(s: &mut String, set: CardSet, two: CardSet) {
    s.push('[');
    for (i, c) in set.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{}", c.0);
        if two.contains(c) {
            let _ = write!(s, ",{}", c.0);
        }
    }
    s.push(']');
}

pub(super) fn push_texts2(s: &mut String, set: CardSet, two: CardSet) {
    s.push('[');
    for (i, c) in set.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{c}\"");
        if two.contains(c) {
            let _ = write!(s, ",\"{c}\"");
        }
    }
    s.push(']');
}

pub(super) fn push_texts(s: &mut String, set: CardSet) {
    push_ints(s, set.iter().map(Quoted));
}

/// A multiset of the double pack (docs/escoba_engine.md §1a) as JSON text: `set` ascending, an id of `two`
/// written twice.
pub(super) fn multiset(set: CardSet, two: CardSet) -> String {
    let mut s = String::new();
    push_ids2(&mut s, set, two);
    s
}

/// A list of multisets, as JSON text.
pub(super) fn multisets(sets: &[CardSet], twos: &[CardSet]) -> String {
    let mut s = String::from("[");
    for (i, (set, two)) in sets.iter().zip(twos).enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_ids2(&mut s, *set, *two);
    }
    s.push(']');
    s
}

// ----- reading -----

/// A match score or deal points: an int within ±[`MAX_SCORE`] (docs/escoba_engine.md §8, §9).
pub(super) fn score_of(v: &Value, what: &str) -> Result<i64> {
    ST.int(v, what, -MAX_SCORE, MAX_SCORE)
}

/// A card given as an id (or, when `text`, as text) that must be one of the pack's.
pub(super) fn card_of(v: &Value, what: &str, text: bool, pack: Deck) -> Result<Card> {
    in_pack(ST.card(v, what, text)?, what, pack)
}

/// `c`, refused unless it is a card of the pack.
pub(super) fn in_pack(c: Card, what: &str, pack: Deck) -> Result<Card> {
    if !pack.contains(c) {
        return Err(ST.err(format!(
            "{what}: {c} is not a card of the {}",
            pack.pack_name()
        )));
    }
    Ok(c)
}

pub(super) fn card_list(v: &Value, what: &str, text: bool, pack: Deck) -> Result<Vec<Card>> {
    ST.list(v, what)?
        .iter()
        .map(|x| card_of(x, what, text, pack))
        .collect()
}

/// An ascending list of distinct ids as a set.
pub(super) fn ascending_set(v: &Value, what: &str, pack: Deck) -> Result<CardSet> {
    let cards = card_list(v, what, false, pack)?;
    if cards.windows(2).any(|w| w[0] >= w[1]) {
        return Err(ST.err(format!("{what} must be ascending card ids without repeats")));
    }
    Ok(cards.into_iter().collect())
}

/// The cards met so far while reading a state: each id once, or with the double pack
/// (docs/escoba_engine.md §1a) up to twice, the second copies in `two`.
pub struct Seen {
    pub(super) one: CardSet,
    pub(super) two: CardSet,
    pub(super) twins: bool,
}

impl Seen {
    pub(super) fn new(pack: Deck) -> Seen {
        Seen {
            one: CardSet::EMPTY,
            two: CardSet::EMPTY,
            twins: pack.copies() == 2,
        }
    }
    /// Every card of the pack met (both copies with the double pack).
    pub(super) fn full(&self, pack: Deck) -> bool {
        self.one == pack.mask() && (!self.twins || self.two == pack.mask())
    }
    /// The copies not met, as text.
    pub(super) fn missing(&self, pack: Deck) -> String {
        let once = pack.mask().minus(self.one);
        if !self.twins {
            return once.to_string();
        }
        let mut m = twins::Multiset::from_set(once);
        m = m
            .add(twins::Multiset::from_set(pack.mask().minus(self.two)))
            .unwrap_or(m);
        m.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Adds cards to `seen`, failing on a card seen before (seen twice, with the double pack).
pub(super) fn claim(seen: &mut Seen, cards: &[Card], what: &str) -> Result<()> {
    for &c in cards {
        if seen.one.contains(c) {
            if seen.twins && !seen.two.contains(c) {
                seen.two.insert(c);
                continue;
            }
            let limit = if seen.twins { "twice" } else { "once" };
            return Err(ST.err(format!("card {c} appears more than {limit} ({what})")));
        }
        seen.one.insert(c);
    }
    Ok(())
}

/// An ascending list of ids as a multiset: distinct ids, or with the double pack at most two
/// copies of an id, adjacent (docs/escoba_engine.md §1a).
pub(super) fn ascending_ms(v: &Value, what: &str, pack: Deck) -> Result<twins::Multiset> {
    if pack.copies() == 1 {
        return ascending_set(v, what, pack).map(twins::Multiset::from_set);
    }
    let cards = card_list(v, what, false, pack)?;
    if cards.windows(2).any(|w| w[0] > w[1]) || cards.windows(3).any(|w| w[0] == w[2]) {
        return Err(ST.err(format!(
            "{what} must be ascending card ids, each at most twice"
        )));
    }
    Ok(cards.into_iter().collect())
}

/// `[a,b,c]` as a string.
pub(super) fn ints<T: std::fmt::Display>(xs: impl IntoIterator<Item = T>) -> String {
    let mut s = String::new();
    crate::json::push_ints(&mut s, xs);
    s
}

/// `[[..],[..]]`: a list of int lists as a string.
pub(super) fn lists<I, T>(rows: impl IntoIterator<Item = I>) -> String
where
    I: IntoIterator<Item = T>,
    T: std::fmt::Display,
{
    let mut s = String::from("[");
    for (i, row) in rows.into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        crate::json::push_ints(&mut s, row);
    }
    s.push(']');
    s
}
