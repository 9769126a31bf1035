//! The meld phase: team melds and the tiles that may extend them, the going-out invariant
//! (docs/burako_engine.md §6, docs/rules/burako.md §5.4), and the legal actions of a turn
//! (docs/burako_engine.md §5).

use crate::game::Action;
use crate::tiles::{TileCounts, TileType};

use super::options::{CloseMode, MeldRules};
use super::rules::{self, fit_kind, Fit, Kind};
use super::{
    team, BurakoState, A_ADD, A_CANCEL, A_DISCARD, A_DRAW, A_EXTEND, A_MELD, A_REDRAW, A_TAKE,
    M_MAX, NUM_ACTIONS, PHASE_DRAW,
};

/// A team meld: its tile multiset and what is derived from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Meld {
    pub tiles: TileCounts,
    pub len: u8,
    pub kind: Kind,
    pub pure: bool,
    pub value: i32,
    /// Types `t` for which `tiles ∪ {t}` is valid as this kind.
    pub(super) accept: u64,
    /// Those of `accept` for which the result is pure.
    pub(super) accept_pure: u64,
}

impl Meld {
    pub(super) const EMPTY: Meld = Meld {
        tiles: TileCounts::EMPTY,
        len: 0,
        kind: Kind::Run,
        pure: false,
        value: 0,
        accept: 0,
        accept_pure: 0,
    };

    pub(super) fn build(tiles: TileCounts, kind: Kind, fit: Fit, r: &MeldRules) -> Meld {
        let len = tiles.len();
        let mut m = Meld {
            tiles,
            len: len as u8,
            kind,
            pure: fit.pure,
            value: rules::meld_value(tiles, fit, r),
            accept: 0,
            accept_pure: 0,
        };
        let mut cand = candidates(tiles);
        while cand != 0 {
            let t = cand.trailing_zeros() as TileType;
            cand &= cand - 1;
            if tiles.get(t) >= 2 {
                continue;
            }
            if let Some(f) = fit_kind(kind, tiles.with(t), len + 1, r) {
                m.accept |= 1 << t;
                if f.pure {
                    m.accept_pure |= 1 << t;
                }
            }
        }
        m
    }

    pub fn is_canasta(&self, min: u32) -> bool {
        self.len as u32 >= min
    }
}

/// A superset of the types that could extend a meld: its colours, its numbers, 2s and the joker;
/// every type when the meld holds only 2s and jokers (under `unlimited`, {K2, B2, Y2} is a run
/// that R4 extends, the K2 turning wild).
fn candidates(c: TileCounts) -> u64 {
    const TWOS: u64 = (1 << 1) | (1 << 14) | (1 << 27) | (1 << 40);
    const ALL: u64 = (1u64 << 53) - 1;
    let types = c.types();
    if types & !(TWOS | (1u64 << 52)) == 0 {
        return ALL;
    }
    let mut m = TWOS | (1u64 << 52);
    for col in 0..4 {
        if (types >> (13 * col)) & 0x1FFF != 0 {
            m |= 0x1FFF << (13 * col);
        }
    }
    let mut nums = 0u64;
    for col in 0..4 {
        nums |= (types >> (13 * col)) & 0x1FFF;
    }
    for col in 0..4 {
        m |= nums << (13 * col);
    }
    m & ALL
}

impl BurakoState {
    #[inline]
    fn close_count(&self, t: usize) -> u32 {
        if self.opts().pure_canasta_to_close {
            self.pure_canastas[t] as u32
        } else {
            self.canastas[t] as u32
        }
    }

    /// docs/burako_engine.md §6 for `meld`/`extend`: `h` tiles left, `has_c` after the action;
    /// `after` tells (for `meld_required` only) whether the last tile can then close.
    fn going_out_ok(&self, t: usize, h: u32, has_c: bool, after: impl FnOnce() -> bool) -> bool {
        if h >= 2 || self.can_buy(t) {
            return true;
        }
        if !self.taken(t) || !has_c {
            return false;
        }
        match (h, self.opts().close_mode) {
            (0, CloseMode::DiscardRequired) => false,
            (1, CloseMode::MeldRequired) => after(),
            _ => true,
        }
    }

    /// Canasta count for closing after replacing `old` by `new` in team `t` (`old` may be none).
    fn close_count_after(&self, t: usize, old: Option<&Meld>, new: &Meld) -> u32 {
        let min = self.opts().meld.canasta_min;
        let pure_req = self.opts().pure_canasta_to_close;
        let counts = |m: &Meld| m.is_canasta(min) && (!pure_req || m.pure);
        let mut c = self.close_count(t);
        if let Some(o) = old {
            if counts(o) {
                c -= 1;
            }
        }
        if counts(new) {
            c += 1;
        }
        c
    }

    /// Under `meld_required`: after the team's melds become `melds`, can the single tile `u`
    /// extend one of them with a closing canasta then owned?
    fn last_tile_closes<'m>(
        &self,
        melds: impl Iterator<Item = &'m Meld> + Clone,
        u: TileType,
    ) -> bool {
        let min = self.opts().meld.canasta_min;
        let pure_req = self.opts().pure_canasta_to_close;
        let counts = |m: &Meld| m.is_canasta(min) && (!pure_req || m.pure);
        let base = melds.clone().filter(|m| counts(m)).count();
        melds.into_iter().any(|m| {
            if m.accept & (1 << u) == 0 {
                return false;
            }
            let grown_pure = m.accept_pure & (1 << u) != 0;
            let grown_counts = (m.len as u32 + 1) >= min && (!pure_req || grown_pure);
            base - counts(m) as usize + grown_counts as usize > 0
        })
    }

    /// The single tile of a one-tile multiset.
    fn only_tile(c: TileCounts) -> TileType {
        c.types().trailing_zeros() as TileType
    }

    /// `single_tile_pozo_rediscard`: a meld/extend may not leave only tiles of the retaken type.
    fn no_discard_blocks(&self, rest: TileCounts) -> bool {
        self.no_discard >= 0 && !rest.is_empty() && rest.types() == 1u64 << self.no_discard
    }

    /// `meld`: the buffer is a valid meld and committing it keeps the invariants.
    pub(super) fn commit_ok(&self) -> bool {
        let p = self.to_move as usize;
        let t = team(p);
        if self.n_melds[t] as usize >= M_MAX {
            return false;
        }
        if self.must_use >= 0 && !self.buffer.contains(self.must_use as u8) {
            return false;
        }
        let r = &self.opts().meld;
        let Some((kind, fit)) = rules::classify(self.buffer, r) else {
            return false;
        };
        let rest = self.racks[p];
        if self.no_discard_blocks(rest) {
            return false;
        }
        let h = self.rack_len[p] as u32;
        if h >= 2 || self.can_buy(t) {
            return true;
        }
        let new = Meld::build(self.buffer, kind, fit, r);
        let has_c = self.close_count_after(t, None, &new) > 0;
        self.going_out_ok(t, h, has_c, || {
            let ms = self.team_melds(t).iter().chain(std::iter::once(&new));
            self.last_tile_closes(ms, Self::only_tile(rest))
        })
    }

    /// `extend m x`, once `x` is known to be accepted by meld slot `m`.
    pub(super) fn extend_ok(&self, m: usize, x: TileType) -> bool {
        let p = self.to_move as usize;
        let t = team(p);
        if self.must_use >= 0 && x as i8 != self.must_use {
            return false;
        }
        let meld = &self.melds[t][m];
        let mut rest = self.racks[p];
        rest.remove(x);
        if self.no_discard_blocks(rest) {
            return false;
        }
        let h = self.rack_len[p] as u32 - 1;
        if h >= 2 || self.can_buy(t) {
            return true;
        }
        let r = &self.opts().meld;
        let tiles = meld.tiles.with(x);
        let Some(fit) = fit_kind(meld.kind, tiles, meld.len as u32 + 1, r) else {
            return false;
        };
        let grown = Meld::build(tiles, meld.kind, fit, r);
        let has_c = self.close_count_after(t, Some(meld), &grown) > 0;
        self.going_out_ok(t, h, has_c, || {
            let ms = (self.team_melds(t).iter().enumerate())
                .map(|(k, x)| if k == m { &grown } else { x });
            self.last_tile_closes(ms, Self::only_tile(rest))
        })
    }

    /// `discard x` of a tile in the rack.
    fn discard_ok(&self, x: TileType) -> bool {
        if self.must_use >= 0 || self.no_discard == x as i8 {
            return false;
        }
        let p = self.to_move as usize;
        if self.rack_len[p] > 1 {
            return true;
        }
        let t = team(p);
        self.can_buy(t)
            || (self.taken(t)
                && self.close_count(t) > 0
                && self.opts().close_mode != CloseMode::MeldRequired)
    }

    /// Recounts team `t`'s canastas after its melds changed.
    pub(super) fn recount(&mut self, t: usize) {
        let min = self.opts().meld.canasta_min;
        let (mut c, mut pc) = (0, 0);
        for m in self.team_melds(t) {
            if m.is_canasta(min) {
                c += 1;
                if m.pure {
                    pc += 1;
                }
            }
        }
        self.canastas[t] = c;
        self.pure_canastas[t] = pc;
    }

    // ----- legal actions -----

    /// Calls `f` for every legal action, ascending (docs/burako_engine.md §5).
    #[inline]
    pub(super) fn legal(&self, mut f: impl FnMut(Action)) {
        if self.terminal {
            return;
        }
        let p = self.to_move as usize;
        if self.phase == PHASE_DRAW {
            if self.stock_len > 0 {
                f(A_DRAW);
            }
            if self.take_ok() {
                f(A_TAKE);
            }
            return;
        }
        if self.drawn >= 0 && self.stock_len > 0 && self.opts().redraw {
            f(A_REDRAW);
        }
        let rack = self.racks[p];
        let types = rack.types();
        if self.cancels < self.opts().max_cancels {
            let lo = if self.buffer_max < 0 {
                0
            } else {
                self.buffer_max as u32
            };
            let mut m = types & (u64::MAX << lo);
            while m != 0 {
                f(A_ADD + m.trailing_zeros());
                m &= m - 1;
            }
        }
        if self.buffer_len > 0 {
            if self.commit_ok() {
                f(A_MELD);
            }
            f(A_CANCEL);
            return;
        }
        let mut m = types;
        while m != 0 {
            let x = m.trailing_zeros();
            if self.discard_ok(x as TileType) {
                f(A_DISCARD + x);
            }
            m &= m - 1;
        }
        let t = team(p);
        for slot in 0..self.n_melds[t] as usize {
            let mut m = self.melds[t][slot].accept & types;
            while m != 0 {
                let x = m.trailing_zeros();
                if self.extend_ok(slot, x as TileType) {
                    f(A_EXTEND + 53 * slot as u32 + x);
                }
                m &= m - 1;
            }
        }
    }

    /// Is `a` legal here? (Without enumerating the others.)
    pub(super) fn legal_one(&self, a: Action) -> bool {
        if self.terminal || a >= NUM_ACTIONS {
            return false;
        }
        let p = self.to_move as usize;
        if self.phase == PHASE_DRAW {
            return match a {
                A_DRAW => self.stock_len > 0,
                A_TAKE => self.take_ok(),
                _ => false,
            };
        }
        let rack = self.racks[p];
        match a {
            A_REDRAW => self.drawn >= 0 && self.stock_len > 0 && self.opts().redraw,
            x if (A_ADD..A_MELD).contains(&x) => {
                let t = (x - A_ADD) as TileType;
                rack.contains(t)
                    && t as i8 >= self.buffer_max
                    && self.cancels < self.opts().max_cancels
            }
            A_MELD => self.buffer_len > 0 && self.commit_ok(),
            A_CANCEL => self.buffer_len > 0,
            x if (A_DISCARD..A_EXTEND).contains(&x) => {
                let t = (x - A_DISCARD) as TileType;
                self.buffer_len == 0 && rack.contains(t) && self.discard_ok(t)
            }
            _ => {
                let slot = ((a - A_EXTEND) / 53) as usize;
                let t = ((a - A_EXTEND) % 53) as TileType;
                let tm = team(p);
                self.buffer_len == 0
                    && slot < self.n_melds[tm] as usize
                    && rack.contains(t)
                    && self.melds[tm][slot].accept & (1 << t) != 0
                    && self.extend_ok(slot, t)
            }
        }
    }
}
