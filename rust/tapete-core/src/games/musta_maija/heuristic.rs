//! The `heuristic` bot of Musta Maija (docs/musta_maija_engine.md, "The heuristic bot"): shed
//! cheap cards, beat with the lowest sufficient card, keep the trumps, pass Maija on.
//!
//! It reads only what the seat to act sees: its hand, the trump, the table and the stock size.

use crate::bots::heuristic::least_by_key;
use crate::cards::{Card, CardSet};
use crate::game::{Action, State};
use crate::rng::SplitMix64;

use super::notation::{DONE, TAKE_ALL};
use super::rules::{strength, MAIJA};
use super::{MustaMaijaState, Phase};

/// What a card is worth keeping: its strength, a trump above every plain card, Maija below all
/// (nothing beats it and it beats nothing: it is only ever passed on).
#[inline]
fn keep(c: Card, trump: Option<u8>) -> i32 {
    if c == MAIJA {
        return -100;
    }
    strength(c) as i32 + if trump == Some(c.suit()) { 20 } else { 0 }
}

/// The card of `mask` with the least `keep`, ties broken by `rng`.
fn cheapest(mask: u64, trump: Option<u8>, rng: &mut SplitMix64) -> Option<Card> {
    least_by_key(CardSet(mask), rng, |&c| keep(c, trump))
}

impl MustaMaijaState {
    /// The heuristic bot's action for the seat to act (see the module doc).
    pub(super) fn heuristic(&self, rng: &mut SplitMix64) -> Action {
        let (mut cards, mut done, mut take_all) = (0u64, false, false);
        self.for_each_legal(|a| match a {
            DONE => done = true,
            TAKE_ALL => take_all = true,
            c => cards |= 1u64 << c,
        });
        let trump = self.trump_suit();
        let choice = match self.phase {
            Phase::Attack => self.attack_choice(cards, trump, rng),
            Phase::Defend => self.defence_choice(cards, trump, rng),
            Phase::End => None,
        };
        match choice {
            Some(a) if a == DONE && done => a,
            Some(a) if a == TAKE_ALL && take_all => a,
            Some(a) if a < 52 && cards >> a & 1 != 0 => a,
            // a mandatory defence (beat_optional=false) may refuse the wish: the cheapest legal
            _ => match cheapest(cards, trump, rng) {
                Some(c) => c.0 as Action,
                None if done => DONE,
                None => TAKE_ALL,
            },
        }
    }

    /// Attack: Maija whenever it may go (nobody can beat it), else open with the cheapest card
    /// and add cheap cards of its suit; once the stock is out, shed every plain card.
    fn attack_choice(&self, cards: u64, trump: Option<u8>, rng: &mut SplitMix64) -> Option<Action> {
        if cards >> MAIJA.0 & 1 != 0 {
            return Some(MAIJA.0 as Action);
        }
        let c = cheapest(cards, trump, rng);
        if self.attack.is_empty() {
            return c.map(|c| c.0 as Action);
        }
        match c {
            Some(c) if trump != Some(c.suit()) && (strength(c) <= 10 || self.stock_len == 0) => {
                Some(c.0 as Action)
            }
            _ => Some(DONE),
        }
    }

    /// Defence of the current target: the cheapest plain card that beats it; a trump only when
    /// it is a low one, the target is worth it, or the stock is nearly out; else leave it.
    fn defence_choice(
        &self,
        cards: u64,
        trump: Option<u8>,
        rng: &mut SplitMix64,
    ) -> Option<Action> {
        let t = self.target()?;
        let plain = match trump {
            Some(s) => cards & !super::rules::suit_mask(s),
            None => cards,
        };
        if let Some(c) = cheapest(plain, trump, rng) {
            return Some(c.0 as Action);
        }
        let c = cheapest(cards, trump, rng)?;
        let late = (self.stock_len as usize) <= 2 * self.n();
        if strength(c) <= 9 || strength(t) >= 10 || trump == Some(t.suit()) || late {
            Some(c.0 as Action)
        } else {
            Some(DONE)
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::games::musta_maija::MustaMaijaGame;
    use crate::testing::{heuristic_plays_legal_to_the_end, setup};

    fn c(s: &str) -> Action {
        Card::parse(s).unwrap().0 as Action
    }

    fn state(opts: serde_json::Value, spec: serde_json::Value) -> MustaMaijaState {
        setup::<MustaMaijaGame>(opts, spec)
    }

    fn act(s: &MustaMaijaState) -> Action {
        s.heuristic_action(&mut SplitMix64::new(1))
    }

    #[test]
    fn attacks_with_maija_when_held() {
        // docs/rules/musta_maija.md §1: Maija can never be beaten, so an attack with it passes it
        // to the defender for sure; a club player leads it at once.
        let s = state(
            json!({}),
            json!({"hands": [["Qs", "2c", "3d"], ["Ks", "As", "2h"], ["3c"], ["4c"]], "trump": "3h"}),
        );
        assert_eq!(act(&s), c("Qs"));
    }

    #[test]
    fn opens_with_the_lowest_plain_card_and_keeps_trumps() {
        // Trump hearts: 2h is a trump and Ac/Kd are high; the cheapest card to shed is 4c.
        let s = state(
            json!({}),
            json!({"hands": [["Ac", "4c", "2h", "Kd"], ["5s", "6s", "7s"], ["3c"], ["4s", "Qs"]],
                   "trump": "3h", "stock": ["8d", "9d", "Td", "Jd", "3h"]}),
        );
        assert_eq!(act(&s), c("4c"));
    }

    #[test]
    fn beats_with_the_lowest_sufficient_plain_card() {
        // Attack 5c on seat 1, trump hearts: 6c, 9c and 2h all beat 5c
        // (docs/rules/musta_maija.md §4.2); the lowest plain beater is 6c, the trump is saved.
        let mut s = state(
            json!({}),
            json!({"hands": [["5c", "2d"], ["9c", "6c", "2h", "Kd"], ["3s", "Qs"], ["4s"]],
                   "trump": "3h", "stock": ["8d", "9d", "Td", "Jd", "3h"]}),
        );
        s.apply(c("5c")).unwrap();
        s.apply(DONE).unwrap();
        assert_eq!(act(&s), c("6c"));
    }

    #[test]
    fn keeps_a_high_trump_against_a_low_card_while_the_stock_lasts() {
        // Attack 3c, trump hearts, only Ah beats it: a club player keeps the ace of trumps and
        // picks the 3 up (leaves it: `done`), the stock still being long.
        let mut s = state(
            json!({"players": 2}),
            json!({"hands": [["3c", "2d", "Qs"], ["Ah", "4d", "5s"]], "trump": "3h",
                   "stock": ["8d", "9d", "Td", "Jd", "Qd", "Kd", "2s", "3s", "3h"]}),
        );
        s.apply(c("3c")).unwrap();
        s.apply(DONE).unwrap();
        assert_eq!(act(&s), DONE);
    }

    #[test]
    fn leaves_maija_since_nothing_beats_it() {
        // Attack Qs: no card beats Maija (docs/rules/musta_maija.md §1), `done` leaves it.
        let mut s = state(
            json!({}),
            json!({"hands": [["Qs", "2c"], ["Ks", "As", "2h"], ["3c"], ["4c"]], "trump": "3h"}),
        );
        s.apply(c("Qs")).unwrap();
        s.apply(DONE).unwrap();
        assert_eq!(act(&s), DONE);
    }

    #[test]
    fn equal_views_give_equal_actions() {
        // Seat 0 sees the same in both: the other hands and the stock order differ.
        let a = state(
            json!({"players": 2}),
            json!({"hands": [["4c", "9d", "Kh"], ["5s", "6s", "7s", "Qs"]], "trump": "3h",
                   "stock": ["8d", "Td", "Jd", "3h"]}),
        );
        let b = state(
            json!({"players": 2}),
            json!({"hands": [["4c", "9d", "Kh"], ["5s", "8d", "7s", "Qs"]], "trump": "3h",
                   "stock": ["Jd", "Td", "6s", "3h"]}),
        );
        assert_eq!(a.view_json(0), b.view_json(0));
        assert_eq!(act(&a), act(&b));
    }

    #[test]
    fn plays_legal_actions_to_the_end() {
        // The bot in every seat, under the options that change what is legal: each action it
        // picks is legal.
        let option_sets = [
            json!({"players": 2}),
            json!({"players": 5, "beat_optional": false}),
            json!({"players": 3, "trump_reveal": "after_first_lead", "attack_limit": "unlimited"}),
            json!({"players": 6, "match": "first_to_losses", "match_losses": 2}),
        ];
        heuristic_plays_legal_to_the_end::<MustaMaijaGame>(&option_sets, 13, 5);
    }
}
