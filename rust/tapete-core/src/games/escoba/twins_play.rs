//! The step protocol and the deal on the double pack (`deck=double_italian80`,
//! docs/escoba_engine.md §1a): the state keeps each multiset as its usual `CardSet` (the ids held
//! at least once) plus a second plane in [`Planes`] (the ids held twice), so the single-pack
//! presets never read it.

use crate::cards::{Card, CardSet};
use crate::game::Action;

use super::notation::{DONE, TAKE};
use super::rules::MAX_SIDES;
use super::twins::{self, Multiset, TwinOutcome};
use super::{EscobaState, MAX_SEATS};

/// The second copies of the double pack: per hand, per pile, on the table, in the selection;
/// and which sweeps of the deal took the played card's twin (bit per index in `sweeps`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Planes {
    pub hands: [CardSet; MAX_SEATS],
    pub piles: [CardSet; MAX_SIDES],
    pub table: CardSet,
    pub selection: CardSet,
    pub sweeps: u128,
}

/// The outcomes extending a selection, as `Summary` is for one pack.
struct TwinSummary {
    count: u32,
    unique: TwinOutcome,
    next: CardSet,
    sel_in: Option<bool>,
    trail: bool,
}

#[inline]
fn ms(one: CardSet, two: CardSet) -> Multiset {
    Multiset { one, two }
}

impl EscobaState {
    /// A seat's hand as a multiset (the double pack's second copies in `two`, else empty).
    pub fn hand_copies(&self, seat: usize) -> Multiset {
        self.twin_hand(seat.min(MAX_SEATS - 1))
    }
    pub fn table_copies(&self) -> Multiset {
        self.twin_table()
    }
    pub fn pile_copies(&self, side: usize) -> Multiset {
        self.twin_pile(side.min(MAX_SIDES - 1))
    }
    pub fn selection_copies(&self) -> Multiset {
        self.twin_selection()
    }

    pub(super) fn twin_hand(&self, seat: usize) -> Multiset {
        ms(self.hands[seat], self.twin.hands[seat])
    }
    pub(super) fn twin_table(&self) -> Multiset {
        ms(self.table, self.twin.table)
    }
    pub(super) fn twin_pile(&self, side: usize) -> Multiset {
        ms(self.piles[side], self.twin.piles[side])
    }
    pub(super) fn twin_selection(&self) -> Multiset {
        ms(self.selection, self.twin.selection)
    }
    fn set_hand(&mut self, seat: usize, m: Multiset) {
        (self.hands[seat], self.twin.hands[seat]) = (m.one, m.two);
    }
    fn set_table(&mut self, m: Multiset) {
        (self.table, self.twin.table) = (m.one, m.two);
    }
    fn set_pile(&mut self, side: usize, m: Multiset) {
        (self.piles[side], self.twin.piles[side]) = (m.one, m.two);
    }
    fn set_selection(&mut self, m: Multiset) {
        (self.selection, self.twin.selection) = (m.one, m.two);
    }

    /// Deals a card to a hand: a second copy goes to the twin plane.
    #[inline]
    pub(super) fn give_card(&mut self, seat: usize, c: Card) {
        if self.hands[seat].contains(c) {
            self.twin.hands[seat].insert(c);
        } else {
            self.hands[seat].insert(c);
        }
    }

    /// Cards in a hand, twins counted twice.
    #[inline]
    pub(super) fn hand_len(&self, seat: usize) -> u32 {
        self.hands[seat].len() + self.twin.hands[seat].len()
    }

    /// `O(p)` on the multiset table (docs/escoba_engine.md §3, §1a).
    #[inline]
    pub(super) fn twin_outcomes<F: FnMut(TwinOutcome)>(&self, p: Card, f: F) {
        twins::for_each_outcome(self.opts(), p, self.twin_table(), f);
    }

    fn twin_summary(&self, p: Card, sel: Multiset) -> TwinSummary {
        let mut sum = TwinSummary {
            count: 0,
            unique: TwinOutcome::Trail,
            next: CardSet::EMPTY,
            sel_in: None,
            trail: false,
        };
        self.twin_outcomes(p, |x| match x {
            TwinOutcome::Trail | TwinOutcome::SelfCapture => {
                if sel.is_empty() {
                    sum.count += 1;
                    sum.unique = x;
                    sum.trail |= x == TwinOutcome::Trail;
                }
            }
            TwinOutcome::Capture { cards, from_kind } => {
                if let Some(step) = twins::next_item(cards, sel) {
                    sum.count += 1;
                    sum.unique = x;
                    match step {
                        Some(t) => sum.next.insert(t),
                        None => sum.sel_in = Some(from_kind),
                    }
                }
            }
        });
        sum
    }

    /// Legal actions on the double pack, ascending: every id in the hand, or the `TAKE`s and
    /// `DONE` of the pending card (the capture obligations allowed never forbid a play).
    pub(super) fn twin_legal<F: FnMut(Action)>(&self, mut f: F) {
        let seat = self.to_move as usize;
        if self.pending < 0 {
            self.hands[seat].iter().for_each(|c| f(c.0 as Action));
            return;
        }
        let sel = self.twin_selection();
        let sum = self.twin_summary(Card(self.pending as u8), sel);
        sum.next.iter().for_each(|t| f(TAKE + t.0 as Action));
        let done = if sel.is_empty() {
            sum.trail
        } else {
            sum.sel_in.is_some()
        };
        if done {
            f(DONE);
        }
    }

    /// How many outcomes of the pending card extend the selection (state checks).
    pub(super) fn twin_unresolved(&self) -> u32 {
        self.twin_summary(Card(self.pending as u8), self.twin_selection())
            .count
    }

    pub(super) fn twin_is_legal(&self, a: Action) -> bool {
        let mut legal = false;
        self.twin_legal(|x| legal |= x == a);
        legal
    }

    /// Applies a legal action on the double pack (history already recorded).
    pub(super) fn twin_apply(&mut self, a: Action) {
        let seat = self.to_move as usize;
        if self.pending < 0 {
            let c = Card(a as u8);
            let sum = self.twin_summary(c, Multiset::EMPTY);
            let mut hand = self.twin_hand(seat);
            hand.remove(c);
            self.set_hand(seat, hand);
            if sum.count == 1 {
                self.twin_resolve(c, sum.unique);
            } else {
                self.pending = c.0 as i8;
                self.set_selection(Multiset::EMPTY);
            }
            return;
        }
        let c = Card(self.pending as u8);
        if a == DONE {
            let sel = self.twin_selection();
            if sel.is_empty() {
                self.twin_resolve(c, TwinOutcome::Trail);
            } else {
                let from_kind = self.twin_summary(c, sel).sel_in.unwrap_or(true);
                let out = TwinOutcome::Capture {
                    cards: sel,
                    from_kind,
                };
                self.twin_resolve(c, out);
            }
        } else {
            let mut sel = self.twin_selection();
            sel.insert(Card((a - TAKE) as u8));
            let sum = self.twin_summary(c, sel);
            if sum.count == 1 {
                self.twin_resolve(c, sum.unique);
            } else {
                self.set_selection(sel);
            }
        }
    }

    /// Applies an outcome of playing `c` (already out of the hand), then passes the turn.
    fn twin_resolve(&mut self, c: Card, out: TwinOutcome) {
        let side = self.side(self.to_move as usize);
        let before = self.twin_table();
        let mut pile = self.twin_pile(side);
        // a sweep that scores, before max_consecutive_sweeps; whether it took `c`'s twin
        let (mut swept, mut twin) = (false, false);
        match out {
            TwinOutcome::Trail => {
                let mut t = before;
                t.insert(c);
                self.set_table(t);
            }
            TwinOutcome::SelfCapture => {
                pile.insert(c);
                self.set_pile(side, pile);
                self.last_capturer = side as i8;
                // docs/rules/escoba.md §2.1: never on the deal's last play
                swept = self.cfg.opts.ace_self_capture_is_scopa && !self.deal_played_out();
            }
            TwinOutcome::Capture { cards, from_kind } => {
                self.set_table(before.minus(cards).unwrap_or(Multiset::EMPTY));
                pile = pile.add(cards).unwrap_or(pile);
                pile.insert(c);
                self.set_pile(side, pile);
                self.last_capturer = side as i8;
                if cards == before {
                    let o = &self.cfg.opts;
                    swept = (from_kind || o.ace_takes_all_is_scopa)
                        && (o.scopa_on_last_play || !self.deal_played_out());
                    twin = cards.contains(c);
                }
            }
        }
        if swept {
            self.sweep(side, c, twin);
        } else {
            self.no_sweep(side);
        }
        self.pending = -1;
        self.set_selection(Multiset::EMPTY);
        self.advance();
    }

    /// The end of a deal on the double pack: the rest of the table to the last capturer.
    pub(super) fn twin_take_rest(&mut self) {
        if self.cfg.opts.last_capturer_takes_rest && self.last_capturer >= 0 {
            let lc = self.last_capturer as usize;
            let pile = self.twin_pile(lc);
            let joined = pile.add(self.twin_table()).unwrap_or(pile);
            self.set_pile(lc, joined);
        }
        self.set_table(Multiset::EMPTY);
    }

    /// The multiset piles of the sides, for the scoring.
    pub(super) fn twin_piles(&self) -> [Multiset; MAX_SIDES] {
        let mut p = [Multiset::EMPTY; MAX_SIDES];
        for (s, slot) in p.iter_mut().enumerate() {
            *slot = self.twin_pile(s);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, State};
    use crate::games::escoba::EscobaGame;
    use crate::rng::SplitMix64;

    fn game(extra: serde_json::Value) -> EscobaGame {
        let mut o = serde_json::json!({"variant": "maresciallo_80"});
        if let (Some(m), serde_json::Value::Object(x)) = (o.as_object_mut(), extra) {
            m.extend(x);
        }
        EscobaGame::from_options(&o).unwrap()
    }

    /// Every id twice across hands, table, piles, stock and pending (docs/escoba_engine.md §1a).
    fn census(s: &EscobaState) -> [u32; 64] {
        let mut k = [0u32; 64];
        let mut add = |m: Multiset| m.iter().for_each(|c| k[c.0 as usize] += 1);
        (0..4).for_each(|i| add(s.twin_hand(i)));
        (0..2).for_each(|i| add(s.twin_pile(i)));
        add(s.twin_table());
        s.stock().iter().for_each(|&c| k[c as usize] += 1);
        if s.pending >= 0 {
            k[s.pending as usize] += 1;
        }
        k
    }

    #[test]
    fn deal_is_four_hands_of_five_from_eighty() {
        // docs/rules/escoba.md §2.18: 2 packs, 5 cards each to 4 players, no table: 80 = 4 hands x
        // 20 cards
        let s = game(serde_json::json!({})).new_state(7);
        assert_eq!(
            (0..4).map(|i| s.hand_len(i)).collect::<Vec<_>>(),
            [5, 5, 5, 5]
        );
        assert!(s.twin_table().is_empty());
        assert_eq!(s.stock().len(), 60);
        let k = census(&s);
        assert!(rules_ids().all(|c| k[c] == 2));
    }

    fn rules_ids() -> impl Iterator<Item = usize> {
        super::super::rules::PACK.iter().map(|c| c.0 as usize)
    }

    #[test]
    fn random_playouts_keep_eighty_cards() {
        let g = game(serde_json::json!({"game": "single_deal"}));
        let mut bot = SplitMix64::new(11);
        for seed in 0..200 {
            let mut s = g.new_state(seed);
            let mut steps = 0;
            while !s.is_terminal() {
                let legal = s.legal_actions();
                assert!(!legal.is_empty());
                let a = legal[bot.below(legal.len() as u64) as usize];
                s.apply(a).unwrap();
                if !s.is_terminal() {
                    let k = census(&s);
                    assert!(rules_ids().all(|c| k[c] == 2), "seed {seed}");
                }
                steps += 1;
                assert!(steps < 400);
            }
            let cards: u32 = (0..2).map(|i| s.twin_pile(i).len()).sum();
            assert_eq!(cards, 80, "seed {seed}: the last capturer takes the rest");
        }
    }

    #[test]
    fn json_round_trips_and_counts_copies() {
        // docs/escoba_engine.md §1a: a twin is listed twice; state_from_json reads back the same
        // bytes
        let g = game(serde_json::json!({}));
        let mut bot = SplitMix64::new(3);
        for seed in 0..40 {
            let mut s = g.new_state(seed);
            while !s.is_terminal() {
                let j = s.to_json();
                let back = g.state_from_json(&j).unwrap();
                assert_eq!(back.to_json(), j);
                assert_eq!(back.legal_actions(), s.legal_actions());
                let obs = s.observation(0).unwrap();
                assert_eq!(obs.len(), g.observation_size());
                // own hand slots hold the copies: their sum is the hand size
                let held: f32 = obs[..40].iter().sum();
                assert_eq!(held as u32, s.hand_len(0));
                let legal = s.legal_actions();
                s.apply(legal[bot.below(legal.len() as u64) as usize])
                    .unwrap();
            }
            let j = s.to_json();
            assert_eq!(g.state_from_json(&j).unwrap().to_json(), j);
        }
    }

    #[test]
    fn setup_reads_twins_and_takes_both_copies() {
        // docs/escoba_engine.md §1a: table 2c 2c 3d, 7h played: its one capture is 2c 2c 3d (2 + 2
        // + 3 = 7), both copies of 2c, a sweep; pile 0 = 2c 2c 3d 7h = ids 1, 1, 15, 32
        let g = game(serde_json::json!({}));
        let spec = serde_json::json!({
            "hands": [["7h"], ["Ah"], ["Ad"], ["Ac"]],
            "table": ["2c", "2c", "3d"],
            "dealer": 3,
        });
        let mut s = g.setup(&spec).unwrap();
        // one outcome only (the whole table), applied at once by PLAY(7h)
        s.apply_str("7h").unwrap();
        assert_eq!(s.twin_pile(0).len(), 4);
        assert_eq!(s.sweeps(), &[0]);
        assert!(s.to_json().contains("\"piles\":[[1,1,15,32],[]]"));
    }
}
