//! The `heuristic` bot of Burako (docs/burako_engine.md, "The heuristic bot"): take the pozo when
//! its top tile fits, extend the team's melds towards canastas with naturals, lay down the
//! longest meld the rack holds (naturals first, one wild to finish a pair), and discard the
//! least useful tile, never a wild, the highest first, not one the opponents' melds accept.
//!
//! It reads only what the seat to act sees: its rack and the buffer, the melds on the table, the
//! pozo's top and size. No heap allocation.

use crate::bots::heuristic::least_by_key;
use crate::game::Action;
use crate::rng::SplitMix64;
use crate::tiles::{colour, is_two, number, tile, TileCounts, TileType, JOKER, NUM_TYPES};

use super::rules::{classify, tile_value};
use super::{
    team, BurakoState, A_ADD, A_CANCEL, A_DISCARD, A_DRAW, A_EXTEND, A_MELD, A_TAKE, PHASE_DRAW,
};

/// The most candidate melds looked at (runs per colour, piernas per number, with one wild).
const MAX_PLANS: usize = 64;

/// A meld the rack could lay down and its worth.
#[derive(Clone, Copy)]
struct Plan {
    tiles: TileCounts,
    score: i32,
}

impl BurakoState {
    /// The heuristic bot's action for the seat to act (see the module doc).
    pub(super) fn heuristic(&self, rng: &mut SplitMix64) -> Action {
        let wish = if self.phase == PHASE_DRAW {
            Some(self.draw_choice())
        } else if self.buffer_len > 0 {
            Some(self.continue_meld())
        } else {
            self.meld_choice(rng)
        };
        match wish {
            Some(a) if self.legal_one(a) => a,
            // what the rules refuse here: the first legal action
            _ => {
                let mut first = None;
                self.legal(|a| {
                    first.get_or_insert(a);
                });
                first.unwrap_or(A_DRAW)
            }
        }
    }

    fn is_wild(&self, t: TileType) -> bool {
        t == JOKER || (self.opts().meld.twos_wild && is_two(t))
    }

    /// Whether `x` with tiles of `rack` makes a meld of three (a pair of its type or number, or
    /// two neighbours of its colour), or one of the team's melds accepts it.
    fn fits(&self, x: TileType, rack: TileCounts) -> bool {
        let t = team(self.to_move as usize);
        let melds = &self.melds[t][..self.n_melds[t] as usize];
        if melds.iter().any(|m| m.accept >> x & 1 != 0) {
            return true;
        }
        if self.is_wild(x) {
            return true;
        }
        let r = &self.opts().meld;
        let (c, n) = (colour(x), number(x));
        let mut tries = [TileCounts::EMPTY; 6];
        let mut k = 0;
        let mut three = |a: Option<TileType>, b: Option<TileType>| {
            if let (Some(a), Some(b)) = (a, b) {
                let mut m = TileCounts::EMPTY.with(x);
                m.add(a);
                m.add(b);
                tries[k] = m;
                k += 1;
            }
        };
        let at = |d: i32| {
            let m = n as i32 + d;
            (1..=13).contains(&m).then(|| tile(c, m as u8))
        };
        three(at(-2), at(-1));
        three(at(-1), at(1));
        three(at(1), at(2));
        // a pierna: two more of its number in other colours
        let mut same = [0u8; 2];
        let mut j = 0;
        for col in 0..4 {
            let y = tile(col, n);
            if col != c && rack.contains(y) && j < 2 {
                same[j] = y;
                j += 1;
            }
        }
        if j == 2 {
            three(Some(same[0]), Some(same[1]));
        }
        tries[..k].iter().any(|m| {
            let need = TileCounts(m.0 - TileCounts::EMPTY.with(x).0);
            let mut ok = true;
            need.for_each(|y| ok &= rack.get(y) >= need.get(y));
            ok && classify(*m, r).is_some()
        })
    }

    /// Take the pozo when its top tile fits the rack or the team's melds (and, with
    /// `must_use_top`, can be used at once), or when it holds many tiles; else draw.
    fn draw_choice(&self) -> Action {
        if self.pozo_len == 0 || !self.take_ok() {
            return A_DRAW;
        }
        let top = self.pozo[self.pozo_len as usize - 1];
        let rack = self.racks[self.to_move as usize];
        let fits = self.fits(top, rack);
        if fits || (self.pozo_len >= 5 && !self.opts().must_use_top) || self.stock_len == 0 {
            A_TAKE
        } else {
            A_DRAW
        }
    }

    /// The melds `tiles` could lay down: runs of a colour's consecutive naturals and piernas of
    /// a number's naturals, each also as a pair finished by one wild; only valid ones, scored by
    /// length, purity and points.
    fn plans(&self, tiles: TileCounts, out: &mut [Plan; MAX_PLANS]) -> usize {
        let r = &self.opts().meld;
        let mut k = 0;
        let wild = (0..=JOKER).find(|&t| tiles.contains(t) && self.is_wild(t));
        let mut push = |m: TileCounts, out: &mut [Plan; MAX_PLANS]| {
            if k < MAX_PLANS && m.len() >= 3 {
                if let Some((_, fit)) = classify(m, r) {
                    let pure = fit.pure as i32;
                    let pts: i32 = {
                        let mut v = 0;
                        m.for_each(|t| v += tile_value(t, r));
                        v
                    };
                    out[k] = Plan {
                        tiles: m,
                        score: 100 * m.len() as i32 + 60 * pure + pts,
                    };
                    k += 1;
                }
            }
        };
        let natural = |t: TileType| tiles.contains(t) && !self.is_wild(t);
        for c in 0..4u8 {
            // maximal runs of consecutive naturals
            let mut n = 1u8;
            while n <= 13 {
                if !natural(tile(c, n)) {
                    n += 1;
                    continue;
                }
                let start = n;
                let mut m = TileCounts::EMPTY;
                while n <= 13 && natural(tile(c, n)) {
                    m.add(tile(c, n));
                    n += 1;
                }
                let len = n - start;
                if len >= 3 {
                    push(m, out);
                } else if let Some(w) = wild {
                    // a pair (or a pair with a gap of one) finished by the wild
                    push(m.with(w), out);
                    if n < 13 && natural(tile(c, n + 1)) && len == 1 {
                        push(m.with(tile(c, n + 1)).with(w), out);
                    }
                }
            }
        }
        for n in 1..=13u8 {
            let mut m = TileCounts::EMPTY;
            for c in 0..4u8 {
                let t = tile(c, n);
                if natural(t) {
                    for _ in 0..tiles.get(t) {
                        m.add(t);
                    }
                }
            }
            if m.len() >= 3 {
                push(m, out);
            } else if m.len() == 2 {
                if let Some(w) = wild {
                    push(m.with(w), out);
                }
            }
        }
        k
    }

    /// The best plan within `tiles` that holds `base` and adds only types from `from` up, keeps
    /// at least two tiles in the rack (or a muerto to buy) and uses the `must_use` tile if any.
    fn best_plan(&self, tiles: TileCounts, base: TileCounts, from: TileType) -> Option<Plan> {
        let mut plans = [Plan {
            tiles: TileCounts::EMPTY,
            score: 0,
        }; MAX_PLANS];
        let k = self.plans(tiles, &mut plans);
        let p = self.to_move as usize;
        let total = self.rack_len[p] as u32 + self.buffer_len as u32;
        let can_buy = self.can_buy(team(p));
        let mut best: Option<Plan> = None;
        for plan in &plans[..k] {
            let mut holds = true;
            base.for_each(|t| holds &= plan.tiles.get(t) >= base.get(t));
            if !holds {
                continue;
            }
            let rest = TileCounts(plan.tiles.0 - base.0);
            if rest.types() & ((1u64 << from) - 1) != 0 {
                continue;
            }
            if total - plan.tiles.len() < 2 && !can_buy {
                continue;
            }
            if self.must_use >= 0 && !plan.tiles.contains(self.must_use as TileType) {
                continue;
            }
            if best.is_none_or(|b| plan.score > b.score) {
                best = Some(*plan);
            }
        }
        best
    }

    /// The next tile of the meld being built, `meld` once it is all there, else `cancel`.
    fn continue_meld(&self) -> Action {
        let p = self.to_move as usize;
        let all = self.racks[p].plus(self.buffer);
        let from = self.buffer_max.max(0) as TileType;
        match self.best_plan(all, self.buffer, from) {
            Some(plan) if plan.tiles == self.buffer => A_MELD,
            Some(plan) => {
                let rest = TileCounts(plan.tiles.0 - self.buffer.0);
                A_ADD + rest.types().trailing_zeros()
            }
            None => A_CANCEL,
        }
    }

    /// With an empty buffer: a natural extension (the longest meld first), a new meld, a wild
    /// that completes a canasta, else the discard.
    fn meld_choice(&self, rng: &mut SplitMix64) -> Option<Action> {
        let p = self.to_move as usize;
        let t = team(p);
        let rack = self.racks[p];
        let min = self.opts().meld.canasta_min;
        let mut natural: Option<(u8, Action)> = None;
        let mut wild: Option<Action> = None;
        for slot in 0..self.n_melds[t] as usize {
            let m = &self.melds[t][slot];
            let mut acc = m.accept & rack.types();
            while acc != 0 {
                let x = acc.trailing_zeros() as TileType;
                acc &= acc - 1;
                let a = A_EXTEND + 53 * slot as Action + x as Action;
                if !self.legal_one(a) {
                    continue;
                }
                if !self.is_wild(x) {
                    if natural.is_none_or(|(len, _)| m.len > len) {
                        natural = Some((m.len, a));
                    }
                } else if m.len as u32 + 1 == min && wild.is_none() {
                    wild = Some(a);
                }
            }
        }
        if let Some((_, a)) = natural {
            return Some(a);
        }
        if self.cancels < self.opts().max_cancels {
            if let Some(plan) = self.best_plan(rack, TileCounts::EMPTY, 0) {
                return Some(A_ADD + plan.tiles.types().trailing_zeros());
            }
        }
        if wild.is_some() {
            return wild;
        }
        self.discard_choice(rng)
    }

    /// The least useful legal discard: wilds kept, tiles that pair or neighbour others kept,
    /// tiles the opponents' melds accept kept, the highest valued let go first.
    fn discard_choice(&self, rng: &mut SplitMix64) -> Option<Action> {
        let p = self.to_move as usize;
        let rack = self.racks[p];
        let r = &self.opts().meld;
        let them = 1 - team(p);
        let theirs = &self.melds[them][..self.n_melds[them] as usize];
        let types = rack.types();
        let discards = (0..NUM_TYPES as TileType)
            .filter(|&x| types >> x & 1 != 0 && self.legal_one(A_DISCARD + x as Action));
        let x = least_by_key(discards, rng, |&x| {
            let mut key = -tile_value(x, r);
            if self.is_wild(x) {
                key += 1000;
            } else {
                let (c, n) = (colour(x), number(x));
                key += 30 * (rack.get(x) >= 2) as i32;
                for d in [-2i32, -1, 1, 2] {
                    let y = n as i32 + d;
                    if (1..=13).contains(&y) && rack.contains(tile(c, y as u8)) {
                        key += if d.abs() == 1 { 15 } else { 6 };
                    }
                }
                for col in (0..4).filter(|&col| col != c) {
                    key += 8 * rack.contains(tile(col, n)) as i32;
                }
            }
            if theirs.iter().any(|m| m.accept >> x & 1 != 0) {
                key += 25;
            }
            key
        })?;
        Some(A_DISCARD + x as Action)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::game::State;
    use crate::games::burako::BurakoGame;
    use crate::testing::{heuristic_plays_legal_to_the_end, setup};

    fn state(spec: Value) -> BurakoState {
        setup::<BurakoGame>(json!({}), spec)
    }

    fn act(s: &BurakoState) -> String {
        s.action_to_string(s.heuristic_action(&mut SplitMix64::new(9)))
            .unwrap()
    }

    #[test]
    fn lays_down_the_run_it_holds() {
        // R7 R8 R9 is a run (docs/rules/burako.md §3.2); K4 B11 stay. Tiles go in ascending
        // order, then `meld`.
        let mut s = state(
            json!({"racks": [["R7", "R8", "R9", "K4", "B11"], ["Y1"], ["Y2"], ["Y3"]],
                                 "phase": "meld"}),
        );
        let mut done = Vec::new();
        for _ in 0..4 {
            let a = act(&s);
            s.apply_str(&a).unwrap();
            done.push(a);
        }
        assert_eq!(done, ["add R7", "add R8", "add R9", "meld"]);
    }

    #[test]
    fn extends_the_team_meld_with_a_natural() {
        // R6 extends R3 R4 R5 towards a canasta; K9 B1 Y12 fit nothing.
        let s = state(
            json!({"racks": [["R6", "K9", "B1", "Y12"], ["Y1"], ["Y2"], ["Y3"]],
                             "melds": [[["R3", "R4", "R5"]], []], "phase": "meld"}),
        );
        assert_eq!(act(&s), "extend 0 R6");
    }

    #[test]
    fn discards_the_highest_isolated_tile() {
        // No meld: R5 R6 are neighbours and stay; K13 (10 points) and B4 (5) are alone, and the
        // 13 costs more if it stays in the rack (docs/rules/burako.md §7).
        let s = state(
            json!({"racks": [["R5", "R6", "K13", "B4"], ["Y1"], ["Y2"], ["Y3"]],
                             "phase": "meld"}),
        );
        assert_eq!(act(&s), "discard K13");
    }

    #[test]
    fn does_not_feed_the_opponents_melds() {
        // K13 and B13 are both isolated 10-point tiles, but the opponents' run B10 B11 B12
        // takes B13: K13 goes.
        let s = state(
            json!({"racks": [["R5", "R6", "K13", "B13"], ["Y1"], ["Y2"], ["Y3"]],
                             "melds": [[], [["B10", "B11", "B12"]]], "phase": "meld"}),
        );
        assert_eq!(act(&s), "discard K13");
    }

    #[test]
    fn takes_the_pozo_when_its_top_fits() {
        // Top R7 makes R5 R6 R7 with the rack: take the pozo; a top B11 fits nothing: draw.
        let fits = state(
            json!({"racks": [["R5", "R6", "K13", "B4"], ["Y1"], ["Y2"], ["Y3"]],
                                "pozo": ["Y9", "R7"]}),
        );
        assert_eq!(act(&fits), "take pozo");
        let idle = state(
            json!({"racks": [["R5", "R6", "K13", "B4"], ["Y1"], ["Y2"], ["Y3"]],
                                "pozo": ["Y9", "B11"]}),
        );
        assert_eq!(act(&idle), "draw");
    }

    #[test]
    fn plays_legal_actions_to_the_end() {
        // The bot in every seat, 2 and 4 players: each action it picks is legal.
        heuristic_plays_legal_to_the_end::<BurakoGame>(
            &[json!({"players": 2}), json!({"players": 4})],
            17,
            3,
        );
    }
}
