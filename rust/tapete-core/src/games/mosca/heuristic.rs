//! The `heuristic` bot of La Mosca (docs/mosca_engine.md, "The heuristic bot"): keep the trumps
//! and the top cards, exchange the rest, play when the hand promises a trick; in the tricks,
//! follow cheaply and win with the cheapest card that wins when the trick is worth it.
//!
//! It reads only what the seat to act sees: its hand and own discards, the turn-up, the cards
//! played and the declarations. No heap allocation.

use crate::bots::heuristic::least_by_key;
use crate::cards::{Card, CardSet};
use crate::game::Action;
use crate::rng::SplitMix64;

use super::notation::{LEAVE, PASS, PLAY0, TAKE0};
use super::options::LonePlayer;
use super::rules::suit_mask;
use super::{MoscaState, Phase};

impl MoscaState {
    /// The heuristic bot's action for the seat to act (see the module doc).
    pub(super) fn heuristic(&self, rng: &mut SplitMix64) -> Action {
        match self.phase {
            Phase::Declare => self.declare_choice(),
            Phase::Turnup => self.turnup_choice(),
            Phase::Trick => self.trick_choice(rng),
            Phase::End => PASS,
        }
    }

    fn trump_set(&self) -> CardSet {
        CardSet(suit_mask(self.trump()))
    }

    /// Cards the seat to act cannot place: the deck less its hand, its discards, the cards
    /// played and the turn-up while it lies on the table.
    fn unseen(&self) -> CardSet {
        let s = self.to_move as usize;
        let mut known = self.hands[s].union(self.discarded[s]).union(self.played);
        if !self.turnup_taken {
            known.insert(Card(self.turnup));
        }
        self.cfg.deck.minus(known)
    }

    /// Stronger cards of `c`'s suit among `unseen`.
    fn above(&self, c: Card, unseen: CardSet) -> u32 {
        (self.cfg.strength.above[c.0 as usize] & unseen.0).count_ones()
    }

    /// Tricks a card may be expected to take: a trump by its rank among the trumps still out,
    /// a plain card only near the top of its suit.
    fn trick_worth(&self, c: Card, unseen: CardSet) -> f32 {
        let k = self.above(c, unseen);
        if c.suit() == self.trump() {
            [1.0, 0.85, 0.7, 0.6][k.min(3) as usize]
        } else {
            [0.7, 0.4, 0.2, 0.05][k.min(3) as usize]
        }
    }

    /// Exchange the cards worth less than a quarter of a trick (as many as the talon allows, the
    /// weakest first); play when what is kept, with what the talon may bring, promises about a
    /// trick, or when nobody has played yet and the dealer's lone play takes the pot.
    fn declare_choice(&self) -> Action {
        let s = self.to_move as usize;
        let hand = self.hands[s];
        let unseen = self.unseen();
        let mut worth = [(0f32, 0usize); 5];
        for (slot, c) in hand.iter().enumerate().take(5) {
            worth[slot] = (self.trick_worth(c, unseen), slot);
        }
        let k = hand.len().min(5) as usize;
        worth[..k].sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let limit = self.exchange_limit() as usize;
        let mut mask = 0u32;
        let mut promise = 0.0;
        for (i, &(w, slot)) in worth[..k].iter().enumerate() {
            if w < 0.25 && i < limit {
                mask |= 1 << slot;
                promise += 0.15;
            } else {
                promise += w;
            }
        }
        let o = &self.cfg.opts;
        let lone = s == self.dealer as usize
            && o.lone_player == LonePlayer::WinsPot
            && !self.declarations[..self.cfg.n].contains(&1);
        if promise >= 0.9 || lone {
            PLAY0 + mask
        } else {
            PASS
        }
    }

    /// Take the turn-up (a trump) for the weakest card, unless every card is worth more.
    fn turnup_choice(&self) -> Action {
        let hand = self.hands[self.to_move as usize];
        let unseen = self.unseen();
        let up = self.trick_worth(Card(self.turnup), unseen);
        let mut best: Option<(f32, usize)> = None;
        for (slot, c) in hand.iter().enumerate().take(5) {
            let w = self.trick_worth(c, unseen);
            if best.is_none_or(|(bw, _)| w < bw) {
                best = Some((w, slot));
            }
        }
        match best {
            Some((w, slot)) if w < up => TAKE0 + slot as Action,
            _ => LEAVE,
        }
    }

    /// Lead a sure trick, else a low plain card; follow with the cheapest winner when the seat
    /// plays last or the winner is safe (no unseen card beats it) or a trick is still needed,
    /// else with the cheapest card.
    fn trick_choice(&self, rng: &mut SplitMix64) -> Action {
        let legal = self.legal_cards();
        let unseen = self.unseen();
        let trumps = self.trump_set();
        let st = &self.cfg.strength;
        // cheapness: plain cards before trumps, then by strength
        let cheap =
            |&c: &Card| st.value[c.0 as usize] as f32 + if trumps.contains(c) { 20.0 } else { 0.0 };
        // a card no unseen card can beat (trumps only beat a plain card)
        let safe = |c: Card| {
            let beaters = CardSet(st.beating(c, self.trump()) & unseen.0);
            beaters.is_empty()
        };
        let pick = if self.trick_len == 0 {
            let sure = CardSet(legal.0 & trumps.0).iter().filter(|&c| safe(c));
            let sure: CardSet = sure.collect();
            if !sure.is_empty() {
                least_by_key(sure, rng, cheap)
            } else {
                least_by_key(legal, rng, cheap)
            }
        } else {
            let w = Card(self.trick[self.trick_win as usize]);
            let winners = CardSet(legal.0 & st.beating(w, self.trump()));
            let last = self.trick_len as usize + 1 >= self.n_active as usize;
            let seat = self.to_move as usize;
            let needy = self.tricks_won[seat] == 0 && self.trick_number >= 3;
            let good: CardSet = winners
                .iter()
                .filter(|&c| last || needy || safe(c))
                .collect();
            if !good.is_empty() {
                least_by_key(good, rng, cheap)
            } else {
                least_by_key(legal, rng, cheap)
            }
        };
        pick.map_or(PASS, |c| c.0 as Action)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::game::State;
    use crate::games::mosca::MoscaGame;
    use crate::testing::{heuristic_plays_legal_to_the_end, setup};

    /// The 3-player position `spec` after `moves`.
    fn state(spec: Value, moves: &[&str]) -> MoscaState {
        let mut s = setup::<MoscaGame>(json!({"players": 3}), spec);
        for m in moves {
            s.apply_str(m).unwrap();
        }
        s
    }

    fn act(s: &MoscaState) -> Action {
        s.heuristic_action(&mut SplitMix64::new(5))
    }

    fn card(t: &str) -> Action {
        Card::parse(t).unwrap().0 as Action
    }

    #[test]
    fn exchanges_the_low_plain_cards_and_plays() {
        // Seat 1 (mano) holds Kd Qd (trumps, turn-up 7d), Kc and the low 8h 9s. Keeping the two
        // top trumps and the top club promises two tricks: it plays, exchanging 8h and 9s,
        // sorted slots 3 and 4 of Kc Qd Kd 8h 9s (ids 12, 24, 25, 33, 47).
        let s = state(
            json!({"hands": [["Ac", "7c", "Jh", "Th", "Qs"], ["Kc", "Qd", "Kd", "8h", "9s"],
                             ["Jc", "Td", "Kh", "Ks", "Ts"]], "turnup": "7d", "dealer": 0}),
            &[],
        );
        assert_eq!(s.current_player(), Some(1));
        assert_eq!(act(&s), PLAY0 + 0b11000);
    }

    #[test]
    fn folds_a_hand_without_a_trick() {
        // Seat 1 holds no trump (turn-up 7d) and no top card: 7c 8c 9h 8s 9s. Passing costs
        // nothing; playing risks the no-trick penalty (docs/rules/mosca.md §5.4). Seat 0 deals
        // last, so seat 1 is not the lone dealer.
        let s = state(
            json!({"hands": [["Ac", "Jc", "Jh", "Th", "Qs"], ["7c", "8c", "9h", "8s", "9s"],
                             ["Kc", "Td", "Kh", "Ks", "Ts"]], "turnup": "7d", "dealer": 0}),
            &[],
        );
        assert_eq!(act(&s), PASS);
    }

    #[test]
    fn plays_last_with_the_cheapest_winner() {
        // All stand (docs/rules/mosca.md §4.1); mano seat 1 leads 9h, seat 2 plays Th, and
        // seat 0, last, holds Jh and Kh: Jh is the cheapest card that beats Th.
        let s = state(
            json!({"hands": [["Kh", "Jh", "7c", "8c", "9c"], ["9h", "Qc", "Kd", "8s", "9s"],
                             ["Th", "Td", "Ks", "Qs", "Ts"]], "turnup": "7d", "dealer": 0}),
            &["play", "play", "play", "leave turnup", "9h", "Th"],
        );
        assert_eq!(s.current_player(), Some(0));
        assert_eq!(act(&s), card("Jh"));
    }

    #[test]
    fn follows_cheaply_when_the_trick_is_lost() {
        // Seat 2 leads 9h; seat 0 holds 7h and 8h, neither beats 9h, and seat 1 plays after
        // it: the cheapest, 7h. (Mano is seat 2, then seat 0.)
        let s = state(
            json!({"hands": [["8h", "7h", "7c", "8c", "9c"], ["Th", "Qc", "Kd", "8s", "9s"],
                             ["9h", "Td", "Ks", "Qs", "Ts"]], "turnup": "7d", "dealer": 1}),
            &["play", "play", "play", "leave turnup", "9h"],
        );
        assert_eq!(s.current_player(), Some(0));
        assert_eq!(act(&s), card("7h"));
    }

    #[test]
    fn the_dealer_takes_the_turnup_for_the_weakest_card() {
        // Seat 0 deals and stands; the turn-up Kd is the top trump. Its weakest card is 7c, with
        // every other club above it unseen: slot 0 of 7c Jh As Qs Ks (ids 6, 36, 39, 50, 51).
        let s = state(
            json!({"hands": [["7c", "Jh", "As", "Qs", "Ks"], ["Kc", "Qd", "Jd", "8h", "9s"],
                             ["Jc", "Td", "Kh", "9h", "Ts"]], "turnup": "Kd", "dealer": 0}),
            &["play", "play", "play"],
        );
        assert_eq!(act(&s), TAKE0);
    }

    #[test]
    fn plays_legal_actions_to_the_end() {
        // The bot in every seat, under the options that change what is legal: each action it
        // picks is legal.
        let option_sets = [
            json!({"players": 2}),
            json!({"players": 6, "exchange_limit": "max_3"}),
            json!({"players": 5, "exchange_limit": "reshuffle_discards_when_empty",
                   "must_head": false, "must_overtrump": false}),
            json!({"players": 3, "lone_player": "must_play_tricks", "ace_rank": "high"}),
        ];
        heuristic_plays_legal_to_the_end::<MoscaGame>(&option_sets, 19, 5);
    }
}
