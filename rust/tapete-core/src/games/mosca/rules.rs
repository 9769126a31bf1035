//! Pure Mosca rule functions on bitsets (docs/rules/mosca.md §4.3, §4.4, §5.1;
//! docs/mosca_engine.md §1, §6).

use crate::cards::{Card, CardSet};

use super::options::{AceRank, MoscaOptions};

/// The 13 ids of a suit.
#[inline]
pub const fn suit_mask(suit: u8) -> u64 {
    0x1FFFu64 << (13 * suit as u32)
}

/// The deck of `size` cards (32..52): ranks K Q J A T 9 8 7, then the 6s, 5s, 4s, 3s, 2s.
pub fn deck_mask(size: u8) -> CardSet {
    // ranks (1-based) in the order they join the deck
    let mut ranks: Vec<u8> = vec![13, 12, 11, 1, 10, 9, 8, 7];
    let extra = (size.saturating_sub(32) / 4) as usize;
    ranks.extend([6u8, 5, 4, 3, 2].iter().take(extra));
    let mut m = CardSet::EMPTY;
    for suit in 0..4 {
        for &r in &ranks {
            m.insert(Card::new(suit, r));
        }
    }
    m
}

/// Strength of a card within its suit (docs/mosca_engine.md §1); only the order matters.
#[inline]
pub fn strength(ace: AceRank, c: Card) -> u8 {
    let r = c.rank();
    match (ace, r) {
        (AceRank::BetweenJackAndTen, 1) => 10,
        (AceRank::BetweenJackAndTen, 11..=13) => r,
        (AceRank::BetweenJackAndTen, _) => r - 1,
        (AceRank::High, 1) => 14,
        _ => r,
    }
}

/// Per card: the cards of its suit that are stronger, for one `ace_rank`.
#[derive(Clone, Debug)]
pub struct Strength {
    pub ace: AceRank,
    pub above: [u64; 52],
    pub value: [u8; 52],
}

impl Strength {
    pub fn new(ace: AceRank) -> Strength {
        let mut above = [0u64; 52];
        let mut value = [0u8; 52];
        for i in 0..52u8 {
            value[i as usize] = strength(ace, Card(i));
        }
        for i in 0..52u8 {
            let c = Card(i);
            for j in 0..52u8 {
                if Card(j).suit() == c.suit() && value[j as usize] > value[i as usize] {
                    above[i as usize] |= 1u64 << j;
                }
            }
        }
        Strength { ace, above, value }
    }

    /// The cards that beat `w` (docs/rules/mosca.md §4.3): stronger of its suit, or any trump if
    /// `w` is not one.
    #[inline]
    pub fn beating(&self, w: Card, trump: u8) -> u64 {
        let mut m = self.above[w.0 as usize];
        if w.suit() != trump {
            m |= suit_mask(trump);
        }
        m
    }

    /// Index in `trick` of the winning card (docs/rules/mosca.md §4.4); `trick` is non-empty.
    #[inline]
    pub fn trick_winner(&self, trick: &[Card], trump: u8) -> usize {
        let mut w = 0;
        for (i, &c) in trick.iter().enumerate().skip(1) {
            if self.beating(trick[w], trump) >> c.0 & 1 != 0 {
                w = i;
            }
        }
        w
    }

    /// Mosca comparison key (higher wins; equal keys tie): trump flag, then the strengths
    /// sorted high to low. `None` unless `hand` is exactly 5 cards of one suit.
    pub fn mosca_key(&self, hand: CardSet, trump: u8) -> Option<u32> {
        if hand.len() != 5 {
            return None;
        }
        let suit = hand.first()?.suit();
        if hand.bits() & !suit_mask(suit) != 0 {
            return None;
        }
        let mut v: [u8; 5] = [0; 5];
        for (k, c) in hand.iter().enumerate() {
            v[k] = self.value[c.0 as usize];
        }
        v.sort_unstable_by(|a, b| b.cmp(a));
        let mut key = (suit == trump) as u32;
        for x in v {
            key = key << 4 | x as u32;
        }
        Some(key)
    }
}

/// The obligations of docs/rules/mosca.md §4.3 (the `must_*` options).
#[derive(Clone, Copy, Debug)]
pub struct Duties {
    pub head: bool,
    pub trump: bool,
    pub overtrump: bool,
    pub undertrump: bool,
}

impl Duties {
    pub fn of(o: &MoscaOptions) -> Duties {
        Duties {
            head: o.must_head,
            trump: o.must_trump,
            overtrump: o.must_overtrump,
            undertrump: o.must_undertrump,
        }
    }
}

/// The legal cards of `hand` given the cards already in the trick (docs/rules/mosca.md §4.3).
/// `winning` is the card currently winning the trick (`None` when leading).
#[inline]
pub fn legal_cards(
    st: &Strength,
    d: Duties,
    hand: CardSet,
    led: u8,
    winning: Option<Card>,
    trump: u8,
) -> CardSet {
    let Some(w) = winning else {
        return hand;
    };
    let h = hand.bits();
    let follow = h & suit_mask(led);
    if follow != 0 {
        if d.head {
            let b = follow & st.beating(w, trump);
            if b != 0 {
                return CardSet(b);
            }
        }
        return CardSet(follow);
    }
    let trumps = h & suit_mask(trump);
    if trumps == 0 || !d.trump {
        return hand;
    }
    let b = trumps & st.beating(w, trump);
    if b != 0 {
        return CardSet(if d.overtrump { b } else { trumps });
    }
    if d.undertrump {
        CardSet(trumps)
    } else {
        hand
    }
}

/// `legal_cards` from a whole trick in play order.
pub fn legal_cards_for_trick(
    st: &Strength,
    d: Duties,
    hand: CardSet,
    trick: &[Card],
    trump: u8,
) -> CardSet {
    if trick.is_empty() {
        return hand;
    }
    let w = trick[st.trick_winner(trick, trump)];
    legal_cards(st, d, hand, trick[0].suit(), Some(w), trump)
}

/// Which hands take the pot on a mosca (docs/mosca_engine.md §6): ascending indexes; an exact tie
/// gives all tied indexes (`split`) or the first (`eldest`, list order being the order from the
/// mano).
pub fn mosca_winner(st: &Strength, hands: &[CardSet], trump: u8, eldest: bool) -> Vec<usize> {
    let keys: Vec<Option<u32>> = hands.iter().map(|&h| st.mosca_key(h, trump)).collect();
    let Some(best) = keys.iter().flatten().copied().max() else {
        return Vec::new();
    };
    let mut out: Vec<usize> = (0..hands.len())
        .filter(|&i| keys[i] == Some(best))
        .collect();
    if eldest {
        out.truncate(1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Cards from their text (`"Ac 7d"`), as a set or a list.
    fn cards<C: FromIterator<Card>>(text: &str) -> C {
        text.split_whitespace()
            .map(|t| Card::parse(t).unwrap())
            .collect()
    }
    fn cs(text: &str) -> CardSet {
        cards(text)
    }
    fn cv(text: &str) -> Vec<Card> {
        cards(text)
    }
    /// Three seats' hands from their text.
    fn hands3(texts: [&str; 3]) -> [CardSet; 3] {
        texts.map(cs)
    }
    const S: u8 = 3;
    const ALL: Duties = Duties {
        head: true,
        trump: true,
        overtrump: true,
        undertrump: true,
    };

    fn legal(hand: &str, trick: &str, trump: u8, d: Duties) -> CardSet {
        let st = Strength::new(AceRank::BetweenJackAndTen);
        legal_cards_for_trick(&st, d, cs(hand), &cv(trick), trump)
    }

    #[test]
    fn deck_sizes() {
        // TV-M01: 32/36/44/52 cards
        for (size, n) in [
            (32u8, 32u32),
            (36, 36),
            (40, 40),
            (44, 44),
            (48, 48),
            (52, 52),
        ] {
            assert_eq!(deck_mask(size).len(), n);
        }
        assert!(deck_mask(32).contains(Card::parse("7c").unwrap()));
        assert!(!deck_mask(32).contains(Card::parse("6c").unwrap()));
        assert!(deck_mask(36).contains(Card::parse("6s").unwrap()));
    }

    #[test]
    fn follow_head_trump_vectors() {
        assert_eq!(legal("7h Kc", "9h", S, ALL), cs("7h")); // TV-M13
        assert_eq!(legal("7h Jh Kc", "9h", S, ALL), cs("Jh")); // TV-M14
        assert_eq!(legal("Ah 9h", "Th", S, ALL), cs("Ah")); // TV-M15
        assert_eq!(legal("Ah 7h", "Jh", S, ALL), cs("Ah 7h")); // TV-M16
        assert_eq!(legal("7h Kh Qs", "8h 7s", S, ALL), cs("7h Kh")); // TV-M17
        assert_eq!(legal("7s Kc", "8h", S, ALL), cs("7s")); // TV-M18
        assert_eq!(legal("Ks 7s Ac", "8h Qs", S, ALL), cs("Ks")); // TV-M19
        assert_eq!(legal("7s Ac", "8h Ks", S, ALL), cs("7s")); // TV-M20
        let no_under = Duties {
            undertrump: false,
            ..ALL
        };
        assert_eq!(legal("7s Ac", "8h Ks", S, no_under), cs("7s Ac")); // TV-M20 option
        assert_eq!(legal("Ac 9d", "8h", S, ALL), cs("Ac 9d")); // TV-M21
        assert_eq!(legal("7s Js Ah", "9s", S, ALL), cs("Js")); // TV-M22

        // switched off: hand calculation from docs/rules/mosca.md §4.3
        let no_head = Duties { head: false, ..ALL };
        assert_eq!(legal("7h Jh Kc", "9h", S, no_head), cs("7h Jh"));
        let no_trump = Duties {
            trump: false,
            ..ALL
        };
        assert_eq!(legal("7s Kc", "8h", S, no_trump), cs("7s Kc"));
        let no_over = Duties {
            overtrump: false,
            ..ALL
        };
        assert_eq!(legal("Ks 7s Ac", "8h Qs", S, no_over), cs("Ks 7s"));
    }

    #[test]
    fn trick_winner_vector() {
        // TV-M23: QD KD 7S AD, trump S -> the 7S (index 2)
        let st = Strength::new(AceRank::BetweenJackAndTen);
        assert_eq!(st.trick_winner(&cv("Qd Kd 7s Ad"), S), 2);
        // hand calculation: no trump, strongest of the led suit (A below J)
        assert_eq!(st.trick_winner(&cv("Td Jd Ad"), S), 1);
        let high = Strength::new(AceRank::High);
        assert_eq!(high.trick_winner(&cv("Td Kd Ad"), S), 2);
        let low = Strength::new(AceRank::Low);
        assert_eq!(low.trick_winner(&cv("Ad 2d"), S), 1);
    }

    #[test]
    fn mosca_vectors() {
        let st = Strength::new(AceRank::BetweenJackAndTen);
        // TV-M05: trump H; seat 1 KC QC JC AC TC, seat 2 7H 8H 9H TH AH -> seat 2
        let hands = hands3(["Ac 7d 8s 9s Ts", "Kc Qc Jc Ac Tc", "7h 8h 9h Th Ah"]);
        assert_eq!(mosca_winner(&st, &hands, 2, false), vec![2]);
        // TV-M06: trump D; seat 1 KH QH JH AH 7H beats seat 2 KC QC JC TC 9C
        let hands = hands3(["Ad 7d 8s 9s Ts", "Kh Qh Jh Ah 7h", "Kc Qc Jc Tc 9c"]);
        assert_eq!(mosca_winner(&st, &hands, 1, false), vec![1]);
        // TV-M07: exact tie between seats 1 and 4 (trump S)
        let mut hands = vec![CardSet::EMPTY; 6];
        hands[1] = cs("Kh Qh Jh Ah Th");
        hands[4] = cs("Kc Qc Jc Ac Tc");
        assert_eq!(mosca_winner(&st, &hands, 3, false), vec![1, 4]);
        assert_eq!(mosca_winner(&st, &hands, 3, true), vec![1]);
        // TV-M04: a single mosca
        let hands = hands3(["Ac 7c 8s 9s Ts", "Kc Qc 8h Jh Th", "7d 9d Td Jd Kd"]);
        assert_eq!(mosca_winner(&st, &hands, 3, false), vec![2]);
        assert!(mosca_winner(&st, &hands[..2], 3, false).is_empty());
    }
}
