//! Dealing, the stock, the pozo and the two muertos: the deal (docs/burako_engine.md §8), taking
//! the pozo and its requirements (docs/burako_engine.md §7), buying a muerto directly or
//! indirectly (docs/rules/burako.md §5.5) and the end of a turn (docs/burako_engine.md §5).

use crate::tiles::{fresh_pack, is_two, tile, TileCounts, TileType, JOKER, NUM_TILES};

use super::options::{AcePos, MeldRules};
use super::rules;
use super::{team, BurakoState, PHASE_DRAW, PHASE_MELD};

/// Every window of positions a run can fill, `(a, b)` for positions `a..=b`: inside 1..14 (the
/// 1 at 1 or 14), and with `run_wrap` the windows turning the corner 13-1-2, `a ≤ 13`, `b ≥ 15`,
/// at most 13 long, where a position `q > 14` holds the number `q − 13` (docs/burako_engine.md §3).
fn run_windows(r: &MeldRules) -> impl Iterator<Item = (u8, u8)> {
    let max_len = if r.ace_to_ace { 14u8 } else { 13 };
    let straight =
        (1..=14u8).flat_map(move |a| (a + 2..=14u8.min(a + max_len - 1)).map(move |b| (a, b)));
    let wrap = r.run_wrap;
    let wrapped = (3..=13u8)
        .filter(move |_| wrap)
        .flat_map(|a| (15..=a + 12).map(move |b| (a, b)));
    straight.chain(wrapped)
}

/// For each colour and window of positions, the run holding `u` that uses the rack's naturals
/// wherever it can and wilds elsewhere (`u` forced in as a wild when it is one), handed to
/// `found` in turn until it returns true; whether it did.
fn greedy_runs(
    rack: TileCounts,
    u: TileType,
    r: &MeldRules,
    mut found: impl FnMut(TileCounts) -> bool,
) -> bool {
    let u_wild = u == JOKER || (r.twos_wild && is_two(u));
    for col in 0..4u8 {
        if !u_wild && u / 13 != col {
            continue;
        }
        for (a, b) in run_windows(r) {
            let mut sub = TileCounts::EMPTY;
            let mut avail = rack;
            let mut missing = 0u32;
            for pos in a..=b {
                let nat = match pos {
                    1 if r.ace != AcePos::HighOnly => Some(tile(col, 1)),
                    // the corner of a wrapped run needs both ace positions
                    14 if b > 14 && r.ace == AcePos::LowOrHigh => Some(tile(col, 1)),
                    14 if b == 14 && r.ace != AcePos::LowOnly => Some(tile(col, 1)),
                    1 | 14 => None,
                    n if n > 14 => Some(tile(col, n - 13)),
                    n => Some(tile(col, n)),
                };
                match nat {
                    Some(x) if avail.contains(x) => {
                        avail.remove(x);
                        sub.add(x);
                    }
                    _ => missing += 1,
                }
            }
            if !u_wild && !sub.contains(u) {
                continue;
            }
            // the wild pool: jokers, then 2s (u first when it is a wild), 2 copies a type at most
            let mut pool = [0 as TileType; 11];
            let mut n_pool = 0;
            if u_wild && avail.contains(u) {
                pool[0] = u;
                n_pool = 1;
                avail.remove(u);
            }
            for x in [JOKER, tile(0, 2), tile(1, 2), tile(2, 2), tile(3, 2)] {
                if x == JOKER || r.twos_wild {
                    for _ in 0..avail.get(x) {
                        pool[n_pool] = x;
                        n_pool += 1;
                    }
                }
            }
            let pool = &pool[..n_pool];
            if (pool.len() as u32) < missing {
                continue;
            }
            for &x in &pool[..missing as usize] {
                sub.add(x);
            }
            if u_wild && !sub.contains(u) {
                // replace one natural by u (same length)
                if pool.first().is_none_or(|&x| x != u) {
                    continue;
                }
                let nat = sub.types() & !(1u64 << JOKER);
                let Some(x) = (0..53u8)
                    .find(|&x| nat & (1 << x) != 0 && x != JOKER && !(r.twos_wild && is_two(x)))
                else {
                    continue;
                };
                sub.remove(x);
                sub.add(u);
            }
            if found(sub) {
                return true;
            }
        }
    }
    false
}

impl BurakoState {
    // ----- dealing -----

    pub(super) fn choose_first_mano(&mut self) {
        self.mano = match self.opts().first_mano {
            Some(m) => m as u8,
            None => self.rng.below(self.n() as u64) as u8,
        };
    }

    /// Deals a hand with the current mano (docs/burako_engine.md §8): racks of H in blocks from
    /// the mano, then muerto #1, muerto #2, the rest the stock.
    pub(super) fn deal(&mut self, deck: Option<[u8; NUM_TILES]>) {
        let pack = match deck {
            Some(p) => p,
            None => {
                let mut p = fresh_pack();
                self.rng.shuffle(&mut p);
                p
            }
        };
        let n = self.n();
        let h = self.opts().hand_size;
        let ms = self.opts().muerto_size;
        let mut i = 0;
        for k in 0..n {
            let seat = (self.mano as usize + k) % n;
            self.racks[seat] = TileCounts::from_slice(&pack[i..i + h]);
            self.rack_len[seat] = h as u8;
            i += h;
        }
        for m in 0..2 {
            self.muertos[m][..ms].copy_from_slice(&pack[i..i + ms]);
            self.muerto_len[m] = ms as u8;
            i += ms;
        }
        self.muerto_first = 0;
        let rest = &pack[i..];
        self.stock_len = rest.len() as u8;
        for (k, &t) in rest.iter().rev().enumerate() {
            self.stock[k] = t;
        }
        self.buffer = TileCounts::EMPTY;
        self.buffer_len = 0;
        self.buffer_max = -1;
        self.n_melds = [0; 2];
        self.canastas = [0; 2];
        self.pure_canastas = [0; 2];
        self.pozo_len = 0;
        self.pozo_counts = TileCounts::EMPTY;
        self.muerto_status = [0; 2];
        self.muerto_unplayed = [-1; 2];
        self.to_move = self.mano;
        self.phase = PHASE_DRAW;
        self.drawn = -1;
        self.must_use = -1;
        self.no_discard = -1;
        self.cancels = 0;
        self.turns = 0;
    }

    // ----- the muertos -----

    #[inline]
    pub(super) fn taken(&self, t: usize) -> bool {
        self.muerto_status[t] != 0
    }
    #[inline]
    pub(super) fn muertos_left(&self) -> usize {
        2 - self.muerto_first as usize
    }
    /// May team `t` still buy a muerto by emptying a rack?
    #[inline]
    pub(super) fn can_buy(&self, t: usize) -> bool {
        !self.taken(t) && self.muertos_left() > 0
    }

    pub(super) fn take_muerto(&mut self, p: usize) {
        let i = self.muerto_first as usize;
        let c = TileCounts::from_slice(&self.muertos[i][..self.muerto_len[i] as usize]);
        self.racks[p] = self.racks[p].plus(c);
        self.rack_len[p] += self.muerto_len[i];
        self.muerto_len[i] = 0;
        self.muerto_first += 1;
    }

    /// After `meld` / `extend`: close or take the muerto directly when the rack is empty.
    pub(super) fn after_meld(&mut self, p: usize) {
        if self.rack_len[p] != 0 {
            return;
        }
        let t = team(p);
        if self.taken(t) {
            self.end_hand(Some(t));
        } else {
            self.take_muerto(p);
            self.muerto_status[t] = 1;
        }
    }

    // ----- the stock and the pozo -----

    pub(super) fn draw_stock(&mut self) -> TileType {
        self.stock_len -= 1;
        let x = self.stock[self.stock_len as usize];
        let p = self.to_move as usize;
        self.racks[p].add(x);
        self.rack_len[p] += 1;
        x
    }

    /// `take pozo` (docs/burako_engine.md §7 for its requirements).
    pub(super) fn take_ok(&self) -> bool {
        if self.pozo_len == 0 {
            return false;
        }
        let p = self.to_move as usize;
        let top = self.pozo[self.pozo_len as usize - 1];
        if self.opts().no_rediscard && self.pozo_len == 1 {
            let others = self.racks[p].types() & !(1u64 << top);
            if others == 0 {
                return false;
            }
        }
        if self.opts().must_use_top {
            return self.take_usable(top);
        }
        true
    }

    /// `must_use_top_tile_now`: after the take, some `extend m top` or some `meld` of a valid
    /// sub-multiset holding `top` would be legal (docs/burako_engine.md §7). A meld leaving ≥ 2
    /// tiles is always legal, so the search covers: every 3-tile set (a pierna holding `top` always
    /// has a 3-tile sub-pierna holding it), the greedy run of every window (fewest wilds for that
    /// window), and exactly every set of size N−1 and N.
    fn take_usable(&self, top: TileType) -> bool {
        let mut s = self.position();
        s.do_take();
        let p = s.to_move as usize;
        let t = team(p);
        for m in 0..s.n_melds[t] as usize {
            if s.melds[t][m].accept & (1 << top) != 0 && s.extend_ok(m, top) {
                return true;
            }
        }
        let rack = s.racks[p];
        let n = rack.len();
        let r = s.opts().meld;
        let try_set = |sub: TileCounts, s: &mut BurakoState| -> bool {
            if !sub.contains(top) || sub.len() < 3 || rules::classify(sub, &r).is_none() {
                return false;
            }
            let saved = (
                s.racks[p],
                s.rack_len[p],
                s.buffer,
                s.buffer_len,
                s.buffer_max,
            );
            s.racks[p] = TileCounts(rack.0 - sub.0);
            s.rack_len[p] = (n - sub.len()) as u8;
            s.buffer = sub;
            s.buffer_len = sub.len() as u8;
            let ok = s.commit_ok();
            (
                s.racks[p],
                s.rack_len[p],
                s.buffer,
                s.buffer_len,
                s.buffer_max,
            ) = saved;
            ok
        };
        let mut rest = rack;
        rest.remove(top);
        let mut others = [0 as TileType; NUM_TILES];
        let mut n_others = 0;
        rest.for_each(|x| {
            others[n_others] = x;
            n_others += 1;
        });
        let others = &others[..n_others];
        for i in 0..others.len() {
            for j in i + 1..others.len() {
                if try_set(
                    TileCounts::EMPTY.with(top).with(others[i]).with(others[j]),
                    &mut s,
                ) {
                    return true;
                }
            }
        }
        if try_set(rack, &mut s) {
            return true;
        }
        let mut ty = rack.types();
        while ty != 0 {
            let x = ty.trailing_zeros() as TileType;
            ty &= ty - 1;
            let mut sub = rack;
            sub.remove(x);
            if try_set(sub, &mut s) {
                return true;
            }
        }
        greedy_runs(rack, top, &r, |sub| {
            sub.len() + 2 <= n && try_set(sub, &mut s)
        })
    }

    pub(super) fn do_take(&mut self) {
        let p = self.to_move as usize;
        let top = self.pozo[self.pozo_len as usize - 1];
        if self.opts().no_rediscard && self.pozo_len == 1 {
            self.no_discard = top as i8;
        }
        if self.opts().must_use_top {
            self.must_use = top as i8;
        }
        self.racks[p] = self.racks[p].plus(self.pozo_counts);
        self.rack_len[p] += self.pozo_len;
        self.pozo_len = 0;
        self.pozo_counts = TileCounts::EMPTY;
        self.phase = PHASE_MELD;
    }

    /// Puts tile `x` from the mover's rack on the pozo.
    pub(super) fn put_on_pozo(&mut self, p: usize, x: TileType) {
        self.racks[p].remove(x);
        self.rack_len[p] -= 1;
        self.pozo[self.pozo_len as usize] = x;
        self.pozo_len += 1;
        self.pozo_counts.add(x);
    }

    /// TURN_END (docs/burako_engine.md §5): stock exhaustion, the turn cap, or the next seat.
    pub(super) fn turn_end(&mut self) {
        self.turns += 1;
        self.cancels = 0;
        self.must_use = -1;
        self.no_discard = -1;
        self.drawn = -1;
        if self.stock_len == 0 {
            if self.opts().muerto_to_stock && self.muertos_left() > 0 {
                let i = self.muerto_first as usize;
                let len = self.muerto_len[i] as usize;
                for k in 0..len {
                    self.stock[k] = self.muertos[i][len - 1 - k];
                }
                self.stock_len = len as u8;
                self.muerto_len[i] = 0;
                self.muerto_first += 1;
            } else {
                self.end_hand(None);
                return;
            }
        }
        if self.turns >= self.opts().max_turns {
            self.end_hand(None);
            return;
        }
        self.to_move = ((self.to_move as usize + 1) % self.n()) as u8;
        self.phase = PHASE_DRAW;
    }
}
