//! The `heuristic` bot of the Escoba family (docs/escoba_engine.md, "The heuristic bot"): each
//! playable card's outcomes are valued by the preset's scoring (sweeps, then the settebello,
//! coins, sevens and the cards), less the chance that the table left behind gives the next seat
//! a sweep; misère presets (`target_mode` lose or eliminate) value the same points as losses.
//!
//! It reads only what the seat to act sees: its hand, the table, the piles (less the face-down
//! claims of others), the hand sizes and the stock size. No heap allocation.

use crate::cards::{Card, CardSet};
use crate::game::{Action, State};
use crate::rng::SplitMix64;

use super::knock::Matta;
use super::notation::{BUILD_ON, CLAIM, DONE, DOUBT, KNOCK, NO_KNOCK, TAKE, TRUST};
use super::options::{PrimieraMode, Scoring, TargetMode};
use super::piles::{CARD_BITS, PILE_BIT};
use super::rules::{self, Outcome};
use super::EscobaState;

/// What the bot knows of the deal's scoring, in points.
struct Weights {
    /// Per card id: what taking it is worth.
    card: [f32; 52],
    /// A sweep.
    sweep: f32,
    /// +1 plays for points, −1 plays to avoid them (misère).
    sign: f32,
}

const COINS: u8 = 1;
const SWORDS: u8 = 3;

impl Weights {
    fn of(st: &EscobaState) -> Weights {
        let o = st.opts();
        let pack = o.deck.len() as f32;
        let frac = o.scoring == Scoring::Frac;
        // a share of a majority award per card: roughly what one more card moves it
        let per_card = if frac {
            0.1
        } else {
            o.cards as f32 * 2.0 / pack
        };
        let per_coin = o.coins as f32 * 8.0 / pack + o.coin_card_points as f32;
        let per_sword = o.swords as f32 * 8.0 / pack;
        let mut card = [0f32; 52];
        for (id, w) in card.iter_mut().enumerate() {
            let c = Card(id as u8);
            if !o.deck.contains(c) {
                continue;
            }
            *w = per_card;
            if c.suit() == COINS {
                *w += per_coin;
            }
            if c.suit() == SWORDS {
                *w += per_sword;
            }
            if o.primiera_mode != PrimieraMode::None {
                let p = o.primiera as f32;
                *w += p * match c.rank() {
                    7 => 0.3,
                    6 => 0.12,
                    1 => 0.08,
                    _ => 0.0,
                };
            }
            if c == Card::new(COINS, 7) {
                *w += o.settebello as f32;
            }
            if o.re_bello && c == Card::new(COINS, 13) {
                *w += 1.0;
            }
            if o.napola && c.suit() == COINS && c.rank() <= 3 {
                *w += 0.2;
            }
        }
        for &(c, pts) in &o.special_cards {
            card[c.0 as usize] += pts as f32;
        }
        let sweep = if frac && !o.frac_counts_scope {
            0.0
        } else {
            o.scopa_value as f32
        };
        let sign = if o.target_mode == TargetMode::Win {
            1.0
        } else {
            -1.0
        };
        Weights { card, sweep, sign }
    }

    fn of_set(&self, s: CardSet) -> f32 {
        s.iter().map(|c| self.card[c.0 as usize]).sum()
    }
}

/// The best candidate so far, ties broken uniformly by `rng` (reservoir of one).
struct Best {
    action: Option<Action>,
    value: f32,
    ties: u64,
}

impl Best {
    const NONE: Best = Best {
        action: None,
        value: f32::NEG_INFINITY,
        ties: 0,
    };
    fn offer(&mut self, a: Action, v: f32, rng: &mut SplitMix64) {
        if v > self.value + 1e-6 {
            (self.action, self.value, self.ties) = (Some(a), v, 1);
        } else if (v - self.value).abs() <= 1e-6 && self.action != Some(a) {
            self.ties += 1;
            if rng.below(self.ties) == 0 {
                self.action = Some(a);
            }
        }
    }
}

/// The chance that a hand of `h` of `u` unseen cards holds one of `k` given ones.
fn holds_any(k: u32, u: u32, h: u32) -> f32 {
    if k == 0 || u == 0 {
        return 0.0;
    }
    let mut none = 1.0f32;
    for i in 0..h.min(u) {
        none *= (((u - i) as f32 - k as f32) / (u - i) as f32).max(0.0);
    }
    1.0 - none
}

impl EscobaState {
    /// The heuristic bot's action for the seat to act (see the module doc).
    pub(super) fn heuristic(&self, rng: &mut SplitMix64) -> Action {
        let mut legal = [0 as Action; 64];
        let mut n = 0;
        let mut extra = false;
        self.for_each_legal(|a| {
            if n < legal.len() {
                legal[n] = a;
                n += 1;
            } else {
                extra = true;
            }
        });
        let legal = &legal[..n];
        let w = Weights::of(self);
        let wish = if legal.contains(&KNOCK) {
            // a declaration scores for its side: made when points are wanted
            Some(if w.sign > 0.0 { KNOCK } else { NO_KNOCK })
        } else if legal.contains(&TRUST) {
            Some(self.answer_claim())
        } else if self.cfg.twins {
            self.twin_choice(&w, legal, rng)
        } else if self.pending >= 0 {
            self.pending_choice(&w, rng)
        } else {
            self.play_choice(&w, legal, rng)
        };
        match wish {
            Some(a) if legal.contains(&a) || (extra && self.is_legal(a)) => a,
            // nothing valued is legal: the first legal action
            _ => legal[0],
        }
    }

    /// Cards `p` (the seat to act) has not seen: the pack less its hand, the table, the piles it
    /// sees and the hands shown to all.
    fn unseen(&self, p: usize) -> CardSet {
        let mut seen = self.hands[p].union(self.table);
        for side in 0..self.cfg.sides {
            seen = seen.union(self.piles[side]);
        }
        for b in self.builds.as_slice() {
            seen = seen.union(*b);
        }
        for s in 0..self.n() {
            if s != p {
                seen = seen.union(self.shown(s));
            }
        }
        seen = seen.minus(self.hidden_from(p));
        self.opts().deck.mask().minus(seen)
    }

    /// The hand size of the next seat to play when it is an opponent (a full hand when the
    /// stock deals next); `None` when a partner plays next or nobody does in this deal.
    fn next_opponent_hand(&self) -> Option<u32> {
        let n = self.n();
        let mover = self.to_move as usize;
        if self.deal_played_out_after_mover() {
            return None;
        }
        let next = (1..n)
            .map(|k| (mover + k) % n)
            .find(|&s| self.hand_len(s) > 0);
        match next {
            Some(s) if self.side(s) != self.side(mover) => Some(self.hand_len(s)),
            Some(_) => None,
            None => Some(self.opts().cards_per_hand as u32),
        }
    }

    /// The chance that the next seat to play can sweep `table` (none when nobody plays after the
    /// mover in this deal), from the unseen cards and that seat's hand size.
    fn sweep_risk(&self, table: CardSet, unseen: CardSet) -> f32 {
        if table.is_empty() {
            return 0.0;
        }
        let Some(h) = self.next_opponent_hand() else {
            return 0.0;
        };
        let o = self.opts();
        let mv = self.matta();
        // one capture search per rank (and one for the matta): the rest only repeat it
        let mut by_rank = [-1i8; 14];
        let mut k = 0u32;
        for q in unseen.iter() {
            let key = if mv.in_set(CardSet::single(q)) {
                0
            } else {
                q.rank() as usize
            };
            if by_rank[key] < 0 {
                let mut sweeps = false;
                rules::for_each_capture(o, mv, q, table, |cards, from_kind| {
                    sweeps |= cards == table && (from_kind || o.ace_takes_all_is_scopa);
                });
                by_rank[key] = sweeps as i8;
            }
            k += by_rank[key] as u32;
        }
        holds_any(k, unseen.len(), h)
    }

    /// With `steal`: the worth of the mover's pile `pile` times the chance that the next seat
    /// holds a card of its top's rank and takes it (docs/rules/escoba.md §2.21).
    fn pile_risk(&self, w: &Weights, top: Option<Card>, pile: CardSet, unseen: CardSet) -> f32 {
        let (Some(top), true) = (top, self.opts().steal) else {
            return 0.0;
        };
        let Some(h) = self.next_opponent_hand() else {
            return 0.0;
        };
        let k = unseen.iter().filter(|q| q.rank() == top.rank()).count() as u32;
        holds_any(k, unseen.len(), h) * (w.of_set(pile) + 0.5)
    }

    /// True when the mover's card is the deal's last: then nobody plays after it.
    fn deal_played_out_after_mover(&self) -> bool {
        let mover = self.to_move as usize;
        let held = self.hand_len(mover) + u32::from(self.pending >= 0);
        self.stock_pos as usize == self.cfg.pack
            && held <= 1
            && (0..self.n()).all(|s| s == mover || self.hand_len(s) == 0)
    }

    /// The value of playing `p` with outcome `out`, for the side to move.
    fn value_of(&self, w: &Weights, p: Card, out: Outcome, unseen: CardSet) -> f32 {
        let o = self.opts();
        let items = self.items();
        let last = self.deal_played_out_after_mover();
        let side = self.side(self.to_move as usize);
        let (mut pile, mut top) = (self.piles[side], self.pile_top(side));
        let (gain, left, exposed) = match out {
            Outcome::Trail => (
                0.0,
                self.table.union(CardSet::single(p)),
                w.card[p.0 as usize],
            ),
            Outcome::SelfCapture => {
                let sweep = o.ace_self_capture_is_scopa && !last;
                pile.insert(p);
                (
                    w.card[p.0 as usize] + sweep as u8 as f32 * w.sweep,
                    CardSet::EMPTY,
                    0.0,
                )
            }
            Outcome::Build { .. } => (0.05, self.table.union(CardSet::single(p)), 0.0),
            Outcome::Capture { cards, from_kind } => {
                let loose = CardSet(cards.0 & CARD_BITS);
                let mut taken = loose.minus(self.builds.names()).union(CardSet::single(p));
                for b in self.builds.as_slice() {
                    if b.first().is_some_and(|name| loose.contains(name)) {
                        taken = taken.union(*b);
                    }
                }
                let mut gain = w.of_set(taken);
                let mut piles = cards.0 >> PILE_BIT;
                while piles != 0 {
                    let victim = piles.trailing_zeros() as usize;
                    piles &= piles - 1;
                    gain += w.of_set(self.piles[victim]) + 0.5;
                    taken = taken.union(self.piles[victim]);
                }
                let sweep = cards == items
                    && !items.is_empty()
                    && (from_kind || o.ace_takes_all_is_scopa)
                    && (o.scopa_on_last_play || !last);
                if sweep {
                    gain += w.sweep;
                }
                (pile, top) = (pile.union(taken), Some(p));
                (gain, self.table.minus(loose), 0.0)
            }
        };
        let risk = self.sweep_risk(left, unseen) * w.sweep + self.pile_risk(w, top, pile, unseen);
        // a card left on the table may be taken by the next seat: half its worth; in misère
        // every point is a loss for its taker, so the signs turn
        w.sign * (gain - risk - 0.5 * exposed)
    }

    /// A card to play (or a sweep to claim, fidasse): the best outcome over the legal cards.
    fn play_choice(&self, w: &Weights, legal: &[Action], rng: &mut SplitMix64) -> Option<Action> {
        let seat = self.to_move as usize;
        let hand = self.hands[seat];
        let unseen = self.unseen(seat);
        let first = self.opts().forbid_ace_first_play && self.is_first_play();
        let mut best = Best::NONE;
        for &a in legal {
            if a < 52 {
                let p = Card(a as u8);
                self.for_each_outcome(p, hand, first, |out| {
                    best.offer(a, self.value_of(w, p, out, unseen), rng);
                });
            } else if (CLAIM..CLAIM + 52).contains(&a) {
                // a claim only when it is real: the whole table is a capture of the card
                let p = Card((a - CLAIM) as u8);
                let mut real = false;
                rules::for_each_capture(self.opts(), self.matta(), p, self.table, |cards, _| {
                    real |= cards == self.table;
                });
                if real {
                    let out = Outcome::Capture {
                        cards: self.table,
                        from_kind: true,
                    };
                    best.offer(a, self.value_of(w, p, out, unseen), rng);
                }
            }
        }
        best.action
    }

    /// The next step towards the best outcome of the pending card that extends the selection.
    fn pending_choice(&self, w: &Weights, rng: &mut SplitMix64) -> Option<Action> {
        let seat = self.to_move as usize;
        let p = Card(self.pending as u8);
        let hand = self.hands[seat].union(CardSet::single(p));
        let sel = self.selection;
        let unseen = self.unseen(seat);
        // as `summarize`: an extension adds only items above the selection's highest
        let low = sel.last().map_or(0, |c| u64::MAX >> (63 - c.0));
        let mut best = Best::NONE;
        self.for_each_outcome(p, hand, false, |out| {
            let step = match out {
                Outcome::Trail if sel.is_empty() => DONE,
                Outcome::Build { on } if sel.is_empty() => BUILD_ON + on.0 as Action,
                Outcome::Capture { cards, .. }
                    if sel.is_subset(cards) && cards.minus(sel).0 & low == 0 =>
                {
                    match cards.minus(sel).first() {
                        Some(t) => TAKE + t.0 as Action,
                        None => DONE,
                    }
                }
                _ => return,
            };
            best.offer(step, self.value_of(w, p, out, unseen), rng);
        });
        best.action
    }

    /// The double pack (docs/escoba_engine.md §1a): the card is chosen on the loose cards as one
    /// pack sees them; then the most valuable legal take, and `done` when none is left.
    fn twin_choice(&self, w: &Weights, legal: &[Action], rng: &mut SplitMix64) -> Option<Action> {
        if self.pending >= 0 {
            let mut best = Best::NONE;
            for &a in legal {
                if (TAKE..TAKE + 52).contains(&a) {
                    best.offer(a, w.card[(a - TAKE) as usize] * w.sign, rng);
                }
            }
            return best.action.or(Some(DONE));
        }
        let seat = self.to_move as usize;
        let unseen = self.unseen(seat);
        let o = self.opts();
        let mut best = Best::NONE;
        for &a in legal.iter().filter(|&&a| a < 52) {
            let p = Card(a as u8);
            let hand = self.hands[seat];
            let beside = rules::Beside::of_builds(&self.builds);
            rules::for_each_outcome_in(o, Matta::NONE, p, self.table, beside, hand, false, |out| {
                best.offer(a, self.value_of(w, p, out, unseen), rng);
            });
        }
        best.action
    }

    /// Trust or doubt a claimed sweep: doubt when fewer than a third of the cards the answerer
    /// has not seen could make it real.
    fn answer_claim(&self) -> Action {
        let unseen = self.unseen(self.to_move as usize);
        let (o, mv) = (self.opts(), self.matta());
        let mut real = 0u32;
        for q in unseen.iter() {
            let mut sweeps = false;
            rules::for_each_capture(o, mv, q, self.table, |cards, _| {
                sweeps |= cards == self.table;
            });
            real += sweeps as u32;
        }
        if 3 * real < unseen.len() {
            DOUBT
        } else {
            TRUST
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::game::Game;
    use crate::games::escoba::test_support::c;
    use crate::games::escoba::EscobaGame;

    fn state(opts: Value, spec: Value) -> EscobaState {
        crate::testing::setup::<EscobaGame>(opts, spec)
    }

    fn act(s: &EscobaState) -> Action {
        s.heuristic_action(&mut SplitMix64::new(3))
    }

    fn card(s: &str) -> Action {
        c(s).0 as Action
    }

    #[test]
    fn takes_the_sweep() {
        // 7c takes 3c + 4h, the whole table: a scopa (docs/rules/escoba.md §1.4, §1.5); 5s takes
        // nothing.
        let s = state(
            json!({"players": 2}),
            json!({"hands": [["5s", "7c"], ["4d", "6c"]], "table": ["3c", "4h"], "to_move": 0}),
        );
        assert_eq!(act(&s), card("7c"));
    }

    #[test]
    fn takes_the_settebello_over_a_king() {
        // Kh takes Kc, 7s takes 7d (a match, docs/rules/escoba.md §1.4); 7d is the settebello,
        // a coin and a seven, and taking Kc would leave 7d + 3c = 10 for a king to sweep.
        let s = state(
            json!({"players": 2}),
            json!({"hands": [["Kh", "7s"], ["4d", "6c"]], "table": ["7d", "Kc", "3c"], "to_move": 0}),
        );
        assert_eq!(act(&s), card("7s"));
    }

    #[test]
    fn trails_so_as_to_leave_no_sweep() {
        // Neither card takes (Kh is 10, 4c is 4, the table a 5). 4c would leave 5 + 4 = 9, swept
        // by any 9; Kh leaves 15, which no single card makes in scopa.
        let s = state(
            json!({"players": 2}),
            json!({"hands": [["Kh", "4c"], ["Ad", "6c"]], "table": ["5s"], "to_move": 0}),
        );
        assert_eq!(act(&s), card("Kh"));
    }

    #[test]
    fn chooses_the_capture_with_the_coin() {
        // 7s takes 2c + 5h or 3d + 4s (docs/rules/escoba.md §1.4); both leave a table of 7 for a
        // seven to sweep, so the coin 3d decides: the first step takes 3d, the lower of the two.
        let mut s = state(
            json!({"players": 2}),
            json!({"hands": [["7s", "Kc"], ["Ad", "6c"]], "table": ["2c", "5h", "3d", "4s"], "to_move": 0}),
        );
        s.apply(card("7s")).unwrap();
        assert_eq!(act(&s), TAKE + c("3d").0 as Action);
    }

    #[test]
    fn misere_avoids_the_coin_that_scopa_wants() {
        // Kh takes Kd (a coin), Qh takes Qc. Scopa wants the coin; non_prendere, where points
        // lose (docs/rules/escoba.md §2.12), takes the plain queen instead.
        let spec = json!({"hands": [["Kh", "Qh"], ["4d", "6c"], ["5c", "6h"], ["2s", "3s"]],
                          "table": ["Kd", "Qc"], "to_move": 0});
        let scopa = state(json!({"players": 4}), spec.clone());
        assert_eq!(act(&scopa), card("Kh"));
        let misere = state(json!({"variant": "non_prendere", "players": 4}), spec);
        assert_eq!(act(&misere), card("Qh"));
    }

    #[test]
    fn claims_only_a_real_sweep() {
        // fidasse: a sweep is claimed face down (docs/rules/escoba.md §2.19). 6h makes 2c + 4h;
        // a claim with Ks would be false and cost a point.
        let s = state(
            json!({"variant": "fidasse", "players": 2}),
            json!({"hands": [["6h", "Ks"], ["4d", "6c"]], "table": ["2c", "4h"], "to_move": 0}),
        );
        assert_eq!(act(&s), CLAIM + c("6h").0 as Action);
    }

    #[test]
    fn equal_views_give_equal_actions() {
        // Seat 0 sees the same in both positions; the other hand differs.
        let a = state(
            json!({"players": 2}),
            json!({"hands": [["Kh", "4c", "2d"], ["Ad", "6c", "7c"]], "table": ["5s", "3h"], "to_move": 0}),
        );
        let b = state(
            json!({"players": 2}),
            json!({"hands": [["Kh", "4c", "2d"], ["Jd", "2s", "7h"]], "table": ["5s", "3h"], "to_move": 0}),
        );
        assert_eq!(a.view_json(0), b.view_json(0));
        for seed in 0..20 {
            let mut r1 = SplitMix64::new(seed);
            let mut r2 = SplitMix64::new(seed);
            assert_eq!(a.heuristic_action(&mut r1), b.heuristic_action(&mut r2));
        }
    }

    #[test]
    fn every_preset_plays_legal_actions_to_the_end() {
        // The bot in every seat of every preset: each action it picks is legal.
        let mut rng = SplitMix64::new(11);
        for name in EscobaGame::spec().presets() {
            for players in 2..=6 {
                let opts = json!({ "variant": name, "players": players });
                let Ok(g) = EscobaGame::from_options(&opts) else {
                    continue;
                };
                let mut s = g.new_state(rng.next_u64());
                while s.player_to_act().is_some() {
                    let a = s.heuristic_action(&mut rng);
                    assert!(s.is_legal(a), "{name}: {a} is not legal in {}", s.to_json());
                    s.apply_unchecked(a);
                }
            }
        }
    }
}

/// Strength against random play, for the four games' bots alike (over the traits only):
/// `cargo test --release -p tapete-core heuristic_strength -- --ignored --nocapture`.
#[cfg(test)]
mod strength {
    use serde_json::json;

    use crate::game::{Action, Game, State};
    use crate::games::burako::BurakoGame;
    use crate::games::escoba::EscobaGame;
    use crate::games::mosca::MoscaGame;
    use crate::games::musta_maija::MustaMaijaGame;
    use crate::rng::{mod_small, SplitMix64};

    /// Wins, draws and losses (by the sign of the return) of the seat played by the heuristic
    /// (`heuristic`) or by random (as a baseline), seats rotated, over `games` matches; every
    /// other seat plays at random.
    fn versus_random<G: Game>(g: &G, games: u64, heuristic: bool) -> [u64; 3] {
        let n = g.num_players();
        let mut rng = SplitMix64::new(20261204);
        let mut legal: Vec<Action> = Vec::new();
        let mut ret = vec![0.0; n];
        let mut out = [0u64; 3];
        for i in 0..games {
            let seat = i as usize % n;
            let mut s = g.new_state(rng.next_u64());
            while let Some(p) = s.player_to_act() {
                let a = if p == seat && heuristic {
                    let a = s.heuristic_action(&mut rng);
                    assert!(s.is_legal(a), "{a} is not legal in {}", s.to_json());
                    a
                } else {
                    s.legal_actions_into(&mut legal);
                    legal[mod_small(rng.next_u64(), legal.len() as u64) as usize]
                };
                s.apply_unchecked(a);
            }
            s.returns_into(&mut ret);
            let k = if ret[seat] > 0.0 {
                0
            } else if ret[seat] == 0.0 {
                1
            } else {
                2
            };
            out[k] += 1;
        }
        out
    }

    /// The Wilson 95% interval of `k` successes in `n`.
    fn wilson(k: u64, n: u64) -> (f64, f64) {
        let (p, n, z) = (k as f64 / n as f64, n as f64, 1.96f64);
        let mid = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        (mid - half, mid + half)
    }

    /// Prints the heuristic's and the random baseline's win rates; returns the heuristic's
    /// interval.
    fn report<G: Game>(label: &str, g: &G, games: u64) -> (f64, f64) {
        let h = versus_random(g, games, true);
        let r = versus_random(g, games, false);
        let (lo, hi) = wilson(h[0], games);
        let (rlo, rhi) = wilson(r[0], games);
        println!(
            "{label}: heuristic wins {}/{games} = {:.3} [{lo:.3}, {hi:.3}] (draws {}, losses {}); \
             random in its seat wins {:.3} [{rlo:.3}, {rhi:.3}]",
            h[0],
            h[0] as f64 / games as f64,
            h[1],
            h[2],
            r[0] as f64 / games as f64,
        );
        (lo, hi)
    }

    fn games() -> u64 {
        std::env::var("TAPETE_STRENGTH_GAMES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000)
    }

    #[test]
    #[ignore]
    fn heuristic_strength_escoba() {
        let n = games();
        let scopa = EscobaGame::from_options(&json!({"variant": "scopa", "players": 2})).unwrap();
        let (lo, _) = report("escoba scopa 2p", &scopa, n);
        for (v, p) in [
            ("escoba", 2),
            ("scopone_10", 4),
            ("non_prendere", 4),
            ("rubamazzo", 2),
        ] {
            let g = EscobaGame::from_options(&json!({"variant": v, "players": p})).unwrap();
            report(&format!("escoba {v} {p}p"), &g, n);
        }
        assert!(lo > 0.5, "the heuristic should beat random at scopa");
    }

    #[test]
    #[ignore]
    fn heuristic_strength_musta_maija() {
        let n = games();
        let two = MustaMaijaGame::from_options(&json!({"players": 2})).unwrap();
        let (lo, _) = report("musta_maija 2p", &two, n);
        let four = MustaMaijaGame::from_options(&json!({"players": 4})).unwrap();
        report("musta_maija 4p", &four, n);
        assert!(lo > 0.5, "the heuristic should beat random at Musta Maija");
    }

    /// Reports the game `G`, named `name`, at 4 players and then at 2.
    fn report_4_and_2<G: Game>(name: &str) {
        let n = games();
        for p in [4, 2] {
            let g = G::from_options(&json!({ "players": p })).unwrap();
            report(&format!("{name} {p}p"), &g, n);
        }
    }

    #[test]
    #[ignore]
    fn heuristic_strength_mosca() {
        report_4_and_2::<MoscaGame>("mosca");
    }

    #[test]
    #[ignore]
    fn heuristic_strength_burako() {
        report_4_and_2::<BurakoGame>("burako");
    }
}
