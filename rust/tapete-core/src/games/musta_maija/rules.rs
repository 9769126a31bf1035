//! Pure rule functions of Musta Maija (docs/rules/musta_maija.md §2, §4; docs/musta_maija_engine.md §1, §5).

use crate::cards::{Card, CardSet};
use crate::rng::{mod_small, SplitMix64};

use super::options::{MustaMaijaOptions, SpadeReinsert};

/// Maija, the queen of spades.
pub const MAIJA: Card = Card(50);
pub const SPADES: u8 = 3;
const SUIT_BITS: u64 = 0x1FFF;

/// All cards of suit `s`.
#[inline]
pub const fn suit_mask(s: u8) -> u64 {
    SUIT_BITS << (13 * s as u32)
}

/// Strength: A = 14, else the rank (docs/rules/musta_maija.md §1).
#[inline]
pub const fn strength(c: Card) -> u8 {
    let r = c.rank();
    if r == 1 {
        14
    } else {
        r
    }
}

/// Every card that may beat `t` with trump suit `trump` (`None` before trumps are known):
/// higher cards of its suit, every trump when `t` is not a trump; never Maija, nothing beats Maija.
#[inline]
pub fn beaters(t: Card, trump: Option<u8>) -> u64 {
    if t == MAIJA {
        return 0;
    }
    let s = t.suit();
    let r = t.rank() as u32; // index of the rank above t's within the suit
    let higher = if r == 1 {
        0
    } else {
        ((SUIT_BITS >> r) << r) | 1
    };
    let mut m = higher << (13 * s as u32);
    if let Some(tr) = trump {
        if tr != s {
            m |= suit_mask(tr);
        }
    }
    m & !(1u64 << MAIJA.0)
}

/// docs/rules/musta_maija.md §4.2: may `c` beat attack card `t`?
#[inline]
pub fn can_beat(t: Card, c: Card, trump: Option<u8>) -> bool {
    beaters(t, trump) >> c.0 & 1 != 0
}

/// Size of a maximum matching between `targets` and `hand` (edges: `can_beat`).
pub fn max_matching(targets: CardSet, hand: CardSet, trump: Option<u8>) -> u32 {
    // Kuhn's augmenting paths; at most 13 targets in one suit, tiny graphs. No allocation: the
    // mandatory defence and resampling call this in their hot paths.
    let mut buf = [Card(0); 52];
    let mut len = 0;
    for t in targets.iter() {
        buf[len] = t;
        len += 1;
    }
    let ts = &buf[..len];
    let mut owner: [i8; 52] = [-1; 52];
    fn augment(
        i: usize,
        ts: &[Card],
        hand: u64,
        trump: Option<u8>,
        seen: &mut u64,
        owner: &mut [i8; 52],
    ) -> bool {
        let mut m = beaters(ts[i], trump) & hand & !*seen;
        while m != 0 {
            let c = m.trailing_zeros() as usize;
            m &= m - 1;
            *seen |= 1u64 << c;
            if owner[c] < 0 || augment(owner[c] as usize, ts, hand, trump, seen, owner) {
                owner[c] = i as i8;
                return true;
            }
        }
        false
    }
    let mut n = 0;
    for i in 0..ts.len() {
        let mut seen = 0u64;
        if augment(i, ts, hand.0, trump, &mut seen, &mut owner) {
            n += 1;
        }
    }
    n
}

/// Every legal attack set (docs/musta_maija_engine.md §5): non-empty single-suit subsets of `hand` of at most the
/// cap, each ascending, sorted by their id lists.
pub fn legal_attacks(
    opts: &MustaMaijaOptions,
    hand: CardSet,
    defender_hand_size: u32,
) -> Vec<Vec<Card>> {
    let cap = opts.attack_cap(defender_hand_size) as usize;
    let mut out: Vec<Vec<Card>> = Vec::new();
    if cap == 0 {
        return out;
    }
    for s in 0..4u8 {
        let cards: Vec<Card> = CardSet(hand.0 & suit_mask(s)).iter().collect();
        let k = cards.len();
        for mask in 1u32..(1u32 << k) {
            if mask.count_ones() as usize <= cap {
                out.push(
                    (0..k)
                        .filter(|i| mask >> i & 1 != 0)
                        .map(|i| cards[i])
                        .collect(),
                );
            }
        }
    }
    out.sort_by(|a, b| a.iter().map(|c| c.0).cmp(b.iter().map(|c| c.0)));
    out
}

/// Trump determination (docs/rules/musta_maija.md §2 step 3, docs/musta_maija_engine.md §5 step 3) on `stock[..len]` (top first), in place.
/// Returns the trump card and the set of turned cards (trump card included).
pub fn determine_trump(
    opts: &MustaMaijaOptions,
    stock: &mut [u8],
    rng: &mut SplitMix64,
) -> (Card, CardSet) {
    let len = stock.len();
    debug_assert!(len > 0);
    let mut turned = CardSet::EMPTY;
    let pick: usize = loop {
        let c = Card(stock[0]);
        let again = turned.contains(c);
        turned.insert(c);
        if opts.spades_can_be_trump || c.suit() != SPADES {
            break 0;
        }
        if again {
            break stock.iter().position(|&x| x / 13 != SPADES).unwrap_or(0);
        }
        // remove the top card; re-insert it into the rest R (len - 1 cards) at `idx`
        let rest = len - 1;
        let idx = match opts.spade_reinsert {
            SpadeReinsert::Middle => rest / 2,
            SpadeReinsert::RandomPosition => mod_small(rng.next_u64(), rest as u64 + 1) as usize,
        };
        stock.copy_within(1..=idx, 0);
        stock[idx] = c.0;
    };
    let t = stock[pick];
    stock.copy_within(pick + 1..len, pick);
    stock[len - 1] = t;
    turned.insert(Card(t));
    (Card(t), turned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(s: &str) -> Card {
        Card::parse(s).unwrap()
    }

    #[test]
    fn beaters_match_can_beat_definition() {
        for tr in [None, Some(0u8), Some(1), Some(2), Some(3)] {
            for t in 0..52u8 {
                for d in 0..52u8 {
                    let (t, d) = (Card(t), Card(d));
                    let want = t != MAIJA
                        && d != MAIJA
                        && ((d.suit() == t.suit() && strength(d) > strength(t))
                            || (tr == Some(d.suit()) && tr != Some(t.suit())));
                    assert_eq!(can_beat(t, d, tr), want, "{t} {d} {tr:?}");
                }
            }
        }
    }

    #[test]
    fn tv_mm07_08_10_11() {
        let d = Some(1u8);
        // TV-MM07: trump D, target 9H
        assert!(can_beat(c("9h"), c("Jh"), d));
        assert!(!can_beat(c("9h"), c("8h"), d));
        assert!(can_beat(c("9h"), c("2d"), d));
        assert!(!can_beat(c("9h"), c("Ks"), d));
        // TV-MM08: trump D, target 9D
        assert!(can_beat(c("9d"), c("Td"), d));
        assert!(!can_beat(c("9d"), c("Ah"), d));
        assert!(!can_beat(c("9d"), c("2d"), d));
        // TV-MM10: trump H, target JS
        let h = Some(2u8);
        assert!(!can_beat(c("Js"), c("Qs"), h));
        assert!(can_beat(c("Js"), c("Ks"), h));
        assert!(can_beat(c("Js"), c("3h"), h));
        // TV-MM11: trump S
        let s = Some(3u8);
        assert!(!can_beat(c("Js"), c("Qs"), s));
        assert!(can_beat(c("Js"), c("Ks"), s));
        assert!(!can_beat(c("Js"), c("Ah"), s));
        assert_eq!(beaters(c("Qs"), s), 0);
    }

    #[test]
    fn tv_mm01_spade_reinsertion() {
        // TV-MM01: [QS, 4S, 8D, x1..x29], x = the 29 non-spade cards other than 8D, in id order
        let xs: Vec<u8> = (0..39u8).filter(|&i| i != 20).take(29).collect();
        let mut stock = vec![50u8, 42, 20];
        stock.extend(&xs);
        let o = MustaMaijaOptions::default();
        let mut rng = SplitMix64::new(0);
        let (t, turned) = determine_trump(&o, &mut stock, &mut rng);
        assert_eq!(t, c("8d"));
        let mut want: Vec<u8> = xs[..13].to_vec();
        want.extend([50, 42]);
        want.extend(&xs[13..]);
        want.push(20);
        assert_eq!(stock, want);
        assert_eq!(turned.len(), 3);
        assert_eq!(rng.state, 0, "middle draws nothing");
    }

    #[test]
    fn tv_mm02_direct() {
        // TV-MM02: [7H, y1..y26] -> [y1..y26, 7H]
        let mut stock = vec![32u8];
        stock.extend(0..26u8);
        let (t, _) = determine_trump(
            &MustaMaijaOptions::default(),
            &mut stock,
            &mut SplitMix64::new(1),
        );
        assert_eq!(t, c("7h"));
        let mut want: Vec<u8> = (0..26).collect();
        want.push(32);
        assert_eq!(stock, want);
    }

    #[test]
    fn all_spades_stock_falls_back_to_a_spade() {
        // hand computation: [2s, 3s]: 2s -> R=[3s], idx 0 -> [2s, 3s]; 2s again, no non-spade -> 2s
        let mut stock = vec![40u8, 41];
        let (t, _) = determine_trump(
            &MustaMaijaOptions::default(),
            &mut stock,
            &mut SplitMix64::new(1),
        );
        assert_eq!(t, c("2s"));
        assert_eq!(stock, vec![41, 40]);
        // [2s, 3s, 4c]: 2s -> R=[3s,4c] idx 1 -> [3s,2s,4c]; 3s -> R=[2s,4c] -> [2s,3s,4c];
        // 2s again -> first non-spade 4c
        let mut stock = vec![40u8, 41, 3];
        let (t, turned) = determine_trump(
            &MustaMaijaOptions::default(),
            &mut stock,
            &mut SplitMix64::new(1),
        );
        assert_eq!(t, c("4c"));
        assert_eq!(stock, vec![40, 41, 3]);
        assert_eq!(turned.len(), 3);
    }

    #[test]
    fn tv_mm03_to_06_attack_sets() {
        let o = MustaMaijaOptions::default();
        let hand: CardSet = [c("7h"), c("7d"), c("9h")].into_iter().collect();
        let sets = legal_attacks(&o, hand, 2);
        // TV-MM03: {7H,7D} illegal, {7H,9H} legal with >= 2 defender cards
        assert!(!sets.contains(&vec![c("7d"), c("7h")]));
        assert!(sets.contains(&vec![c("7h"), c("9h")]));
        assert_eq!(sets.len(), 4); // 7d, 7h, 9h, 7h9h
                                   // TV-MM04: {QS, 9S} legal, {QS, 9H} not
        let hand: CardSet = [c("Qs"), c("9s"), c("9h")].into_iter().collect();
        let sets = legal_attacks(&o, hand, 2);
        assert!(sets.contains(&vec![c("9s"), c("Qs")]));
        assert!(!sets.contains(&vec![c("9h"), c("Qs")]));
        // TV-MM05: defender 2 cards, {3H,5H,9H} illegal, {5H,9H} legal
        let hand: CardSet = [c("3h"), c("5h"), c("9h")].into_iter().collect();
        let sets = legal_attacks(&o, hand, 2);
        assert!(!sets.contains(&vec![c("3h"), c("5h"), c("9h")]));
        assert!(sets.contains(&vec![c("5h"), c("9h")]));
        // TV-MM06: six clubs against 7 cards
        let hand: CardSet = ["2c", "4c", "6c", "8c", "Tc", "Qc", "3d"]
            .iter()
            .map(|s| c(s))
            .collect();
        let sets = legal_attacks(&o, hand, 7);
        assert!(sets.contains(
            &["2c", "4c", "6c", "8c", "Tc", "Qc"]
                .iter()
                .map(|s| c(s))
                .collect::<Vec<_>>()
        ));
    }

    #[test]
    fn matching_sizes() {
        // TV-MM22: trump D, attack {3D,5D}, hand 4D 6D + 2 clubs: both can be beaten
        let a: CardSet = [c("3d"), c("5d")].into_iter().collect();
        let h: CardSet = [c("4d"), c("6d"), c("2c"), c("3c")].into_iter().collect();
        assert_eq!(max_matching(a, h, Some(1)), 2);
        // TV-MM12: attack {5H,6H}, hand AH 3C 4C 7S 9S, trump D: AH beats one only
        let a: CardSet = [c("5h"), c("6h")].into_iter().collect();
        let h: CardSet = ["Ah", "3c", "4c", "7s", "9s"]
            .iter()
            .map(|s| c(s))
            .collect();
        assert_eq!(max_matching(a, h, Some(1)), 1);
    }
}
