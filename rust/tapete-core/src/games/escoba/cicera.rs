//! Cicera bigia (docs/rules/escoba.md §2.24): the courts that take only their own rank
//! (`court_capture`), the sword awards (`swords`, `sword_napula`, `all_swords_wins`) and the checks
//! of the 52-card pack.

use crate::cards::{Card, CardSet};
use crate::error::GameError;

use super::options::{refuse_clashes, CourtCapture, Deck, EscobaOptions, TableBonus, TargetMode};

const SWORDS: u8 = 3;
/// Every J, Q and K.
pub const COURTS: CardSet = CardSet(0x1C00 | 0x1C00 << 13 | 0x1C00 << 26 | 0x1C00 << 39);

/// Whether `p` is a court that captures by rank only (`court_capture=same_rank`).
#[inline]
pub fn rank_only(o: &EscobaOptions, p: Card) -> bool {
    o.court_capture == CourtCapture::SameRank && p.rank() >= 11
}

/// The table cards that have a capture value: with `same_rank` the courts have none.
#[inline]
pub fn valued(o: &EscobaOptions, table: CardSet) -> CardSet {
    if o.court_capture == CourtCapture::SameRank {
        table.minus(COURTS)
    } else {
        table
    }
}

/// Length of the unbroken sword run A 2 3 … 10 (numerals only: the courts have no value).
pub fn sword_run(pile: CardSet) -> u32 {
    (1..=10u8)
        .take_while(|&r| pile.contains(Card::new(SWORDS, r)))
        .count() as u32
}

/// The side holding every sword of the pack, if any (`all_swords_wins`).
pub fn all_swords(o: &EscobaOptions, piles: &[CardSet]) -> Option<usize> {
    let swords = o.deck.suit(SWORDS);
    piles.iter().position(|p| swords.is_subset(*p))
}

/// Per side count of swords, for the `swords` award.
pub fn sword_counts(piles: &[CardSet], out: &mut [i64]) {
    let all = CardSet(0x1FFFu64 << (13 * SWORDS as u64));
    for (s, p) in piles.iter().enumerate() {
        out[s] = p.inter(all).len() as i64;
    }
}

/// The sword napula of each side with a run of at least 3: `give(side, points)`.
pub fn napula_awards(o: &EscobaOptions, piles: &[CardSet], mut give: impl FnMut(usize, i64)) {
    if !o.sword_napula {
        return;
    }
    for (s, p) in piles.iter().enumerate() {
        let l = sword_run(*p);
        if l >= 3 {
            give(s, l as i64);
        }
    }
}

/// Option combinations these rules refuse (docs/escoba_engine.md §2).
pub fn validate(o: &EscobaOptions) -> Result<(), GameError> {
    let pack = o.deck;
    for (c, _) in &o.special_cards {
        if !pack.contains(*c) {
            return Err(GameError::InvalidOption(format!(
                "option special_cards: {c} is not a card of the {}",
                pack.pack_name()
            )));
        }
    }
    if let Some(c) = o.matta {
        if !pack.contains(c) {
            return Err(GameError::InvalidOption(format!(
                "option matta must be null or a card of the {}, got {c}",
                pack.pack_name()
            )));
        }
    }
    if o.court_capture == CourtCapture::SameRank {
        // these count the courts' values, which same_rank takes away
        refuse_clashes(
            "court_capture=same_rank (docs/rules/escoba.md §2.24)",
            &[
                ("matta", o.matta.is_some()),
                ("knocks", super::knock::enabled(o)),
                (
                    "initial_table_bonus",
                    o.initial_table_bonus != TableBonus::None,
                ),
                ("steal", o.steal),
                ("builds", o.builds),
            ],
        )?;
    }
    if pack == Deck::Italian52 {
        // the pile items, the elimination deal shapes and the declarations' bounds (at most 24 a
        // deal) are defined for 40 cards only, and so are builds and claims
        refuse_clashes(
            "deck=italian52 (docs/rules/escoba.md §2.24)",
            &[
                ("steal", o.steal),
                ("tuzzoli", o.tuzzoli),
                ("knocks", super::knock::enabled(o)),
                (
                    "target_mode=eliminate",
                    o.target_mode == TargetMode::Eliminate,
                ),
                ("builds", o.builds),
                ("fidasse", o.fidasse),
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::escoba::rules;

    fn set(text: &str) -> CardSet {
        text.split_whitespace()
            .map(|t| Card::parse(t).unwrap())
            .collect()
    }

    #[test]
    fn sword_run_stops_at_ten() {
        // docs/rules/escoba.md §2.24: A-2-3 = 3, A..6 = 6, A..T = 10 (J Q K add nothing), a gap
        // stops the run
        assert_eq!(sword_run(set("As 2s 3s")), 3);
        assert_eq!(sword_run(set("As 2s 3s 4s 5s 6s 8s")), 6);
        assert_eq!(sword_run(set("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")), 10);
        assert_eq!(sword_run(set("2s 3s 4s")), 0);
    }

    #[test]
    fn courts_have_no_value_with_same_rank() {
        let o = EscobaOptions::resolve(&serde_json::json!({"variant": "cicera"})).unwrap();
        assert!(rank_only(&o, Card::parse("Qh").unwrap()));
        assert!(!rank_only(&o, Card::parse("Th").unwrap()));
        assert_eq!(valued(&o, set("Jc 3s Kd 9h")), set("3s 9h"));
        // 8h onto Jc 3s 5d: only 3 + 5 (the Jc is no 8)
        let opts = rules::capture_options(&o, Card::parse("8h").unwrap(), set("Jc 3s 5d"));
        assert_eq!(opts, vec![set("3s 5d").iter().collect::<Vec<_>>()]);
        assert_eq!(rules::value(Card::parse("Tc").unwrap()), 10);
    }
}
