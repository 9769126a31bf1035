//! Cards and card sets shared by every card game (docs/design.md §4).
//!
//! id = 13·suit + (rank − 1); suits c=0 d=1 h=2 s=3; ranks A=1 … 10, J=11, Q=12, K=13.

use std::fmt;

use crate::error::GameError;

pub const RANK_CHARS: &[u8; 13] = b"A23456789TJQK";
pub const SUIT_CHARS: &[u8; 4] = b"cdhs";

/// One card of the 52-card space, `0..52`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(pub u8);

impl Card {
    #[inline]
    pub const fn new(suit: u8, rank: u8) -> Card {
        Card(13 * suit + rank - 1)
    }
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }
    /// Suit 0..4 (c, d, h, s).
    #[inline]
    pub const fn suit(self) -> u8 {
        self.0 / 13
    }
    /// Rank 1..=13.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 13 + 1
    }
    /// A card id from any integer, `None` outside 0..52.
    pub fn from_index(i: i64) -> Option<Card> {
        if (0..52).contains(&i) {
            Some(Card(i as u8))
        } else {
            None
        }
    }

    /// Parses `7d`, `Ts`, `10h`, `qS`; surrounding whitespace is ignored.
    pub fn parse(text: &str) -> Result<Card, GameError> {
        let t = text.trim();
        let bad = || {
            GameError::InvalidNotation(format!(
                "{text:?} is not a card: expected a rank from A23456789TJQK (or 10) and a suit from cdhs, e.g. '7d'"
            ))
        };
        if !t.is_ascii() || t.len() < 2 {
            return Err(bad());
        }
        let (rank_text, suit_text) = t.split_at(t.len() - 1);
        let suit_c = suit_text.as_bytes()[0].to_ascii_lowercase();
        let suit = SUIT_CHARS
            .iter()
            .position(|&c| c == suit_c)
            .ok_or_else(bad)?;
        let rank = if rank_text == "10" {
            9
        } else if rank_text.len() == 1 {
            let r = rank_text.as_bytes()[0].to_ascii_uppercase();
            RANK_CHARS.iter().position(|&c| c == r).ok_or_else(bad)?
        } else {
            return Err(bad());
        };
        Ok(Card((13 * suit + rank) as u8))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = RANK_CHARS[(self.0 % 13) as usize] as char;
        let s = SUIT_CHARS[(self.0 / 13) as usize % 4] as char;
        write!(f, "{r}{s}")
    }
}

/// A set of cards as a u64 bitset; iteration is in ascending id order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);

    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }
    #[inline]
    pub const fn single(c: Card) -> CardSet {
        CardSet(1u64 << c.0)
    }
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        self.0 >> c.0 & 1 != 0
    }
    #[inline]
    pub fn insert(&mut self, c: Card) {
        self.0 |= 1u64 << c.0;
    }
    #[inline]
    pub fn remove(&mut self, c: Card) {
        self.0 &= !(1u64 << c.0);
    }
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn union(self, o: CardSet) -> CardSet {
        CardSet(self.0 | o.0)
    }
    #[inline]
    pub const fn inter(self, o: CardSet) -> CardSet {
        CardSet(self.0 & o.0)
    }
    #[inline]
    pub const fn minus(self, o: CardSet) -> CardSet {
        CardSet(self.0 & !o.0)
    }
    #[inline]
    pub const fn is_subset(self, o: CardSet) -> bool {
        self.0 & !o.0 == 0
    }
    /// Lowest card, if any.
    #[inline]
    pub fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }
    /// Highest card, if any.
    #[inline]
    pub fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(63 - self.0.leading_zeros() as u8))
        }
    }
    #[inline]
    pub fn iter(self) -> CardIter {
        CardIter(self.0)
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> Self {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardIter;
    fn into_iter(self) -> CardIter {
        CardIter(self.0)
    }
}

/// Ascending iteration by trailing zeros.
#[derive(Clone, Copy, Debug)]
pub struct CardIter(u64);

impl Iterator for CardIter {
    type Item = Card;
    #[inline]
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let c = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(c))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardIter {}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        assert_eq!(Card::parse("7d").unwrap(), Card(19));
        assert_eq!(Card::parse("10h").unwrap(), Card(35));
        assert_eq!(Card::parse("qS").unwrap(), Card(50));
        assert_eq!(Card::parse(" Ac ").unwrap(), Card(0));
        assert_eq!(Card(22).to_string(), "Td");
        assert!(Card::parse("1d").is_err());
        assert!(Card::parse("7x").is_err());
        assert!(Card::parse("").is_err());
        assert!(Card::parse("7dd").is_err());
        assert!(Card::parse("ñd").is_err());
        for i in 0..52u8 {
            assert_eq!(Card::parse(&Card(i).to_string()).unwrap(), Card(i));
        }
    }

    #[test]
    fn set_iteration() {
        let s: CardSet = [Card(5), Card(0), Card(51)].into_iter().collect();
        assert_eq!(s.iter().map(|c| c.0).collect::<Vec<_>>(), vec![0, 5, 51]);
        assert_eq!(s.len(), 3);
        assert_eq!(s.first(), Some(Card(0)));
        assert_eq!(s.last(), Some(Card(51)));
    }
}
