//! Resampling in a seat's information set (docs/burako_engine.md §15) and the seat's record of
//! the history (docs/burako_engine.md §11). The reference engine's `reference/burako/resample.py`
//! takes the same steps and the same random draws.

// Index loops keep the steps line for line with the reference's.
#![allow(clippy::needless_range_loop)]

use crate::resample::{Merged, MAX_CARDS, MAX_SLOTS};
use crate::rng::SplitMix64;
use crate::tiles::{TileCounts, TileType, NUM_TYPES};

use super::{
    BurakoState, A_ADD, A_CANCEL, A_DISCARD, A_DRAW, A_EXTEND, A_MELD, A_REDRAW, A_TAKE, PHASE_DRAW,
};

const ADD: u16 = A_ADD as u16;
const MELD: u16 = A_MELD as u16;
const DISCARD: u16 = A_DISCARD as u16;
const EXTEND: u16 = A_EXTEND as u16;
const TAKE: u16 = A_TAKE as u16;
const DRAW: u16 = A_DRAW as u16;
const REDRAW: u16 = A_REDRAW as u16;
const CANCEL: u16 = A_CANCEL as u16;
const NT: usize = NUM_TYPES;

fn is_add(a: u16) -> bool {
    (ADD..MELD).contains(&a)
}
fn is_discard(a: u16) -> bool {
    (DISCARD..EXTEND).contains(&a)
}

/// Per entry: an add of a group that no `meld` laid down (cancelled, or still pending).
pub(super) fn hidden_adds(h: &[u16]) -> Vec<bool> {
    let n = h.len();
    let mut out = vec![false; n];
    let mut i = 0;
    while i < n {
        if is_add(h[i]) {
            let mut j = i;
            while j < n && is_add(h[j]) {
                j += 1;
            }
            if j == n || h[j] != MELD {
                out[i..j].iter_mut().for_each(|x| *x = true);
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The current hand's actions read on public facts (as the reference's `HandLog`).
pub(super) struct HandLog {
    pub start: usize,
    pub ok: bool,
    pub actor: Vec<i32>,
    pub known: [[u8; NT]; 4],
    pub pozo_seen: Vec<i16>,
    pub muerto_at: Vec<(usize, usize)>,
    pub take_unknown: Vec<(usize, usize)>,
    pub redraw_at: i64,
}

fn find_start(x: &BurakoState) -> (usize, bool) {
    let h = &x.history;
    if x.terminal {
        return (h.len(), false);
    }
    let mut j = h.len();
    let mut need = x.turns;
    while need > 0 && j > 0 {
        j -= 1;
        if is_discard(h[j]) {
            need -= 1;
        }
    }
    if need > 0 {
        return (0, false);
    }
    if x.turns == 0 && x.phase == PHASE_DRAW {
        return (h.len(), true);
    }
    let mut k: i64 = if x.turns > 0 {
        j as i64 - 1
    } else {
        h.len() as i64 - 1
    };
    while k >= 0 && h[k as usize] != DRAW && h[k as usize] != TAKE {
        k -= 1;
    }
    if k < 0 || h[k as usize] != DRAW {
        return (0, false);
    }
    (k as usize, true)
}

fn pozo_added(h: &[u16]) -> usize {
    let mut n = 0;
    for &a in h {
        if a == TAKE {
            n = 0;
        } else if a == REDRAW || is_discard(a) {
            n += 1;
        }
    }
    n
}

impl HandLog {
    pub fn new(x: &BurakoState) -> HandLog {
        let p = x.n();
        let (start, full) = find_start(x);
        let mut log = HandLog {
            start,
            ok: false,
            actor: Vec::new(),
            known: [[0; NT]; 4],
            pozo_seen: Vec::new(),
            muerto_at: Vec::new(),
            take_unknown: Vec::new(),
            redraw_at: -1,
        };
        if full {
            log.replay(x, full, [x.opts().hand_size as i64; 4]);
            return log;
        }
        // A record that starts before its hand's start (a `setup` state): the rack sizes at the
        // record's start are undone from now, each seat of a team whose muerto is taken having
        // taken it before the record or (when that does not fit) within it, the first choice that
        // fits.
        let mut now = [0i64; 4];
        for s in 0..p {
            now[s] = x.racks[s].len() as i64;
        }
        if !x.terminal {
            now[x.to_move as usize] += x.buffer_len as i64;
        }
        let big = 1i64 << 20;
        let ends = log.replay(x, full, [big; 4]);
        let mut base = [0i64; 4];
        for s in 0..p {
            base[s] = now[s] - (ends[s] - big);
        }
        let k_size = x.opts().muerto_size as i64;
        let taken: Vec<usize> = (0..p).filter(|&s| x.muerto_status[s % 2] != 0).collect();
        for mask in 0..1usize << taken.len() {
            let mut took = [false; 4];
            let mut teams = [0u8; 2];
            for (b, &s) in taken.iter().enumerate() {
                if mask >> b & 1 == 1 {
                    took[s] = true;
                    teams[s % 2] += 1;
                }
            }
            if teams.iter().any(|&c| c > 1) {
                continue;
            }
            let mut sizes = base;
            for s in 0..p {
                if took[s] {
                    sizes[s] -= k_size;
                }
            }
            let ends = log.replay(x, full, sizes);
            let events_fit = log.muerto_at.len() == took.iter().filter(|&&t| t).count()
                && log.muerto_at.iter().all(|&(_, s)| took[s]);
            if log.ok && ends[..p] == now[..p] && events_fit {
                return log;
            }
        }
        log.replay(x, full, base);
        log.ok = false;
        log
    }

    /// Reads the record from rack sizes (rack and buffer) `sizes` at its start; returns the sizes
    /// at its end.
    fn replay(&mut self, x: &BurakoState, full: bool, mut sizes: [i64; 4]) -> [i64; 4] {
        let h = &x.history;
        let p = x.n();
        let start = self.start;
        let discards = h[start..].iter().filter(|&&a| is_discard(a)).count();
        self.ok = !x.terminal;
        let first = if x.terminal { 0 } else { x.to_move as usize };
        self.actor.clear();
        self.actor.resize(h.len(), -1);
        self.known = [[0u8; NT]; 4];
        self.pozo_seen.clear();
        if !full {
            let unseen = (x.pozo_len as usize).saturating_sub(pozo_added(&h[start..]));
            self.pozo_seen.resize(unseen, -1);
        }
        let k_size = x.opts().muerto_size;
        self.muerto_at.clear();
        self.take_unknown.clear();
        self.redraw_at = -1;
        let mut s = (first + p * 64 - discards % p) % p;
        let mut buffer: Vec<u16> = Vec::new();
        let known = &mut self.known;
        let pozo = &mut self.pozo_seen;
        for (i, &a) in h.iter().enumerate().skip(start) {
            self.actor[i] = s as i32;
            if a == DRAW {
                sizes[s] += 1;
            } else if a == TAKE {
                sizes[s] += pozo.len() as i64;
                self.take_unknown
                    .push((i, pozo.iter().filter(|&&t| t < 0).count()));
                for &t in pozo.iter() {
                    if t >= 0 {
                        known[s][t as usize] += 1;
                    }
                }
                pozo.clear();
            } else if a == REDRAW {
                pozo.push(-1);
                self.redraw_at = i as i64;
            } else if a < MELD {
                buffer.push(a - ADD);
            } else if a == CANCEL {
                buffer.clear();
            } else {
                let mut played: Vec<u16> = Vec::new();
                if a == MELD {
                    played.append(&mut buffer);
                } else if a < EXTEND {
                    played.push(a - DISCARD);
                    pozo.push((a - DISCARD) as i16);
                } else {
                    played.push((a - EXTEND) % NT as u16);
                }
                for &t in &played {
                    let k = &mut known[s][t as usize];
                    *k = k.saturating_sub(1);
                }
                sizes[s] -= played.len() as i64;
                if sizes[s] < 0 {
                    self.ok = false;
                    break;
                }
                if sizes[s] == 0 {
                    self.muerto_at.push((i, s));
                    sizes[s] = k_size as i64;
                }
                if is_discard(a) {
                    s = (s + 1) % p;
                }
            }
        }
        let real = x.pozo();
        if pozo.len() != real.len()
            || pozo
                .iter()
                .zip(real)
                .any(|(&t, &u)| t >= 0 && t != u as i16)
            || s != x.to_move as usize
        {
            self.ok = false;
        }
        sizes
    }
}

/// `p`'s record of the history as JSON entries: ids, or `"add ?"` for a hidden add (every one
/// for `None`, the public view).
pub(super) fn view_history(x: &BurakoState, p: Option<usize>) -> Vec<serde_json::Value> {
    let log = HandLog::new(x);
    let hidden = hidden_adds(&x.history);
    x.history
        .iter()
        .enumerate()
        .map(|(i, &a)| {
            if hidden[i] && (i < log.start || p.is_none_or(|p| log.actor[i] != p as i32)) {
                serde_json::Value::from("add ?")
            } else {
                serde_json::Value::from(a)
            }
        })
        .collect()
}

fn listed(c: &[u8; NT]) -> Vec<u16> {
    let mut v = Vec::new();
    for (t, &k) in c.iter().enumerate() {
        for _ in 0..k {
            v.push(t as u16);
        }
    }
    v
}

fn counts_of(c: TileCounts) -> [u8; NT] {
    let mut out = [0u8; NT];
    for (t, o) in out.iter_mut().enumerate() {
        *o = c.get(t as TileType);
    }
    out
}

/// Each seat's holdings before each action of the current hand, the cancelled groups of seat
/// `need` required (as the reference's `past_racks`).
pub(super) fn past_racks(
    x: &BurakoState,
    log: &HandLog,
    seats: &[usize],
    need: usize,
) -> Option<Vec<Vec<[u8; NT]>>> {
    let h = &x.history;
    let p = x.n();
    let mut held: Vec<[u8; NT]> = (0..p).map(|s| counts_of(x.racks[s])).collect();
    if !x.terminal {
        x.buffer
            .for_each(|t| held[x.to_move as usize][t as usize] += 1);
    }
    let hidden = hidden_adds(h);
    let needs: Vec<bool> = (0..h.len())
        .map(|i| hidden[i] && log.actor[i] == need as i32)
        .collect();
    let mut known_takes: Vec<Vec<u16>> = vec![Vec::new(); h.len()];
    let mut pozo: Vec<i16> = Vec::new();
    let mut d_taker: i64 = -1;
    for i in log.start..h.len() {
        let a = h[i];
        if a == TAKE {
            known_takes[i] = pozo
                .iter()
                .filter(|&&t| t >= 0)
                .map(|&t| t as u16)
                .collect();
            if pozo.contains(&-1) && log.redraw_at >= 0 {
                d_taker = i as i64;
            }
            pozo.clear();
        } else if a == REDRAW {
            pozo.push(-1);
        } else if is_discard(a) {
            pozo.push((a - DISCARD) as i16);
        }
    }
    let mut out: Vec<Vec<[u8; NT]>> = vec![Vec::new(); h.len() - log.start];
    let k_size = x.opts().muerto_size;
    let xp = x.pozo();
    let mut d_value: i64 = if log.redraw_at >= 0 && d_taker < 0 && !xp.is_empty() {
        xp[0] as i64
    } else {
        -1
    };
    let safe = |held: &Vec<[u8; NT]>, s: usize, t: usize, i: i64| -> bool {
        let mut v = held[s][t] as i64 - 1;
        let mut j = i;
        while j >= log.start as i64 {
            let ju = j as usize;
            j -= 1;
            if log.actor[ju] != s as i32 {
                continue;
            }
            let a = h[ju];
            if a == MELD {
                let mut k = ju as i64 - 1;
                while k >= log.start as i64 && is_add(h[k as usize]) {
                    v += (h[k as usize] - ADD == t as u16) as i64;
                    k -= 1;
                }
            } else if is_discard(a) {
                v += (a - DISCARD == t as u16) as i64;
            } else if a >= EXTEND {
                v += ((a - EXTEND) % NT as u16 == t as u16) as i64;
            } else if a == TAKE {
                v -= known_takes[ju].iter().filter(|&&u| u == t as u16).count() as i64;
                if v < 0 {
                    return false;
                }
            } else if is_add(a) && needs[ju] && !(ju > log.start && is_add(h[ju - 1])) {
                let mut k = ju;
                let mut c = 0i64;
                while k < h.len() && is_add(h[k]) {
                    c += (h[k] - ADD == t as u16) as i64;
                    k += 1;
                }
                if v < c {
                    return false;
                }
            }
        }
        true
    };
    let drop_unknown = |held: &mut Vec<[u8; NT]>, s: usize, i: i64| -> i64 {
        for t in 0..NT {
            if held[s][t] > 0 && safe(held, s, t, i) {
                held[s][t] -= 1;
                return t as i64;
            }
        }
        for t in 0..NT {
            if held[s][t] > 0 {
                held[s][t] -= 1;
                return t as i64;
            }
        }
        -1
    };
    for i in (log.start..h.len()).rev() {
        let a = h[i];
        let s = log.actor[i] as usize;
        let back = i as i64 - 1;
        if log.muerto_at.iter().any(|&(m, _)| m == i) {
            for _ in 0..k_size {
                if drop_unknown(&mut held, s, back) < 0 {
                    return None;
                }
            }
        }
        if a == DRAW {
            if i as i64 + 1 == log.redraw_at && d_value >= 0 {
                let d = d_value as usize;
                if held[s][d] == 0 {
                    return None;
                }
                held[s][d] -= 1;
            } else if x.drawn >= 0 && i == h.len() - 1 {
                if held[s][x.drawn as usize] == 0 {
                    return None;
                }
                held[s][x.drawn as usize] -= 1;
            } else if drop_unknown(&mut held, s, back) < 0 {
                return None;
            }
        } else if a == TAKE {
            for &t in &known_takes[i] {
                if held[s][t as usize] == 0 {
                    return None;
                }
                held[s][t as usize] -= 1;
            }
            let unk = log
                .take_unknown
                .iter()
                .find(|&&(j, _)| j == i)
                .map_or(0, |&(_, u)| u);
            for _ in 0..unk {
                let t = drop_unknown(&mut held, s, back);
                if t < 0 {
                    return None;
                }
                if i as i64 == d_taker {
                    d_value = t;
                }
            }
        } else if a == REDRAW {
            if d_value < 0 || drop_unknown(&mut held, s, back) < 0 {
                return None;
            }
            held[s][d_value as usize] += 1;
        } else if is_discard(a) {
            held[s][(a - DISCARD) as usize] += 1;
        } else if a >= EXTEND {
            held[s][((a - EXTEND) % NT as u16) as usize] += 1;
        } else if a == MELD {
            let mut j = i as i64 - 1;
            while j >= log.start as i64 && is_add(h[j as usize]) {
                held[s][(h[j as usize] - ADD) as usize] += 1;
                j -= 1;
            }
        }
        out[i - log.start] = seats.iter().map(|&q| held[q]).collect();
    }
    Some(out)
}

/// Placements drawn at most, for a take that must have been legal, before the last is kept.
const MAX_TRIES: usize = 64;

/// The pozo (bottom first) that the mover (not `p`) took this turn under
/// `pozo_take_requirement = must_use_top_tile_now` when it has played no tile since (its rack then
/// is its holdings less the pozo) and every tile of it is in the record; else empty.
fn take_now(x: &BurakoState, log: &HandLog, p: usize) -> Vec<u8> {
    let h = &x.history;
    if x.terminal || !x.opts().must_use_top || x.to_move as usize == p || !log.ok {
        return Vec::new();
    }
    let mut i = h.len();
    while i > log.start && (is_add(h[i - 1]) || h[i - 1] == CANCEL) {
        i -= 1;
    }
    if i == log.start || h[i - 1] != TAKE {
        return Vec::new();
    }
    let i = i - 1;
    if log.take_unknown.iter().any(|&(j, u)| j == i && u > 0) {
        return Vec::new();
    }
    let mut j = i;
    while j > log.start && h[j - 1] != TAKE {
        j -= 1;
    }
    h[j..i]
        .iter()
        .filter(|&&a| is_discard(a))
        .map(|&a| (a - DISCARD) as u8)
        .collect()
}

/// Whether `take pozo` was legal (docs/burako_engine.md §7) for the mover of `out` holding its
/// tiles less `taken`, with `taken` the pozo: the engine's own check on that position.
fn take_fits(out: &BurakoState, taken: &[u8]) -> bool {
    let mut y = out.clone();
    let m = y.to_move as usize;
    let mut held = y.racks[m].plus(y.buffer);
    for &t in taken {
        if held.get(t) == 0 {
            return false;
        }
        held.remove(t);
    }
    y.racks[m] = held;
    y.rack_len[m] = held.len() as u8;
    y.buffer = TileCounts::EMPTY;
    y.buffer_len = 0;
    y.buffer_max = -1;
    y.pozo[..taken.len()].copy_from_slice(taken);
    y.pozo_len = taken.len() as u8;
    y.pozo_counts = TileCounts::from_slice(taken);
    y.phase = PHASE_DRAW;
    y.must_use = -1;
    y.no_discard = -1;
    y.drawn = -1;
    y.cancels = 0;
    y.take_ok()
}

/// The type `u` of a 1-tile pozo that the mover (not `p`) took this turn under
/// `single_tile_pozo_rediscard = forbidden` holding one tile, which was then not a `u`
/// (docs/burako_engine.md §7) and which it still holds (no muerto since); the `u` a discard in
/// the record; else -1.
fn single_take(x: &BurakoState, log: &HandLog, p: usize) -> i64 {
    let h = &x.history;
    if x.terminal || x.no_discard < 0 || x.to_move as usize == p || !log.ok {
        return -1;
    }
    let Some(i) = (log.start..h.len()).rev().find(|&j| h[j] == TAKE) else {
        return -1;
    };
    // the taken tile must be in the record (a discard), else the seat's known tiles miss it
    if i == log.start || !is_discard(h[i - 1]) || log.muerto_at.iter().any(|&(m, _)| m > i) {
        return -1;
    }
    let mut played = h[i + 1..].iter().filter(|&&a| a >= EXTEND).count();
    for j in i + 1..h.len() {
        if h[j] == MELD {
            let mut k = j - 1;
            while is_add(h[k]) {
                played += 1;
                k -= 1;
            }
        }
    }
    let held = x.racks[x.to_move as usize].len() as usize + x.buffer_len as usize;
    if held + played == 2 {
        x.no_discard as i64
    } else {
        -1
    }
}

/// docs/burako_engine.md §15, written into `out` (a clone of `x`).
pub(super) fn resample_into(x: &BurakoState, p: usize, seed: u64, out: &mut BurakoState) {
    out.clone_from(x);
    let mut rng = SplitMix64::new(seed);
    let log = HandLog::new(x);
    let hidden = hidden_adds(&x.history);
    let n_hist = x.history.len();
    // Every add the seat's record masks is canonical first, so that no hidden id can stay: those
    // of other seats in the current hand are then rewritten from the placement alone.
    for i in 0..n_hist {
        if hidden[i] && (i < log.start || log.actor[i] != p as i32) {
            out.history[i] = ADD;
        }
    }
    if !log.ok {
        out.rng = SplitMix64::new(rng.next_u64());
        return;
    }
    let n = x.n();
    let mover = x.to_move as usize;
    let others: Vec<usize> = (0..n).filter(|&s| s != p).collect();
    let mut caps: Vec<u16> = Vec::new();
    let mut rack_at = [usize::MAX; 4];
    let mut buf_at = [usize::MAX; 4];
    let mut drawn_at = [usize::MAX; 4];
    for &s in &others {
        let d = (s == mover && x.drawn >= 0) as u32;
        rack_at[s] = caps.len();
        caps.push((x.racks[s].len() - d) as u16);
        if s == mover && x.buffer_len > 0 {
            buf_at[s] = caps.len();
            caps.push(x.buffer_len as u16);
        }
        if d == 1 {
            drawn_at[s] = caps.len();
            caps.push(1);
        }
    }
    let stock_at = caps.len();
    caps.push(x.stock_len as u16);
    let muerto_at = caps.len();
    let first = x.muerto_first as usize;
    for j in first..2 {
        caps.push(x.muerto_len[j] as u16);
    }
    let pozo = x.pozo();
    let mut unseen = if x.opts().pozo_top_only {
        log.pozo_seen.iter().filter(|&&t| t < 0).count()
    } else {
        0
    };
    unseen = unseen.min(pozo.len().saturating_sub(1));
    let pozo_at = caps.len();
    caps.push(unseen as u16);
    let mut counts = [0u16; NT];
    for &s in &others {
        x.racks[s].for_each(|t| counts[t as usize] += 1);
        if s == mover {
            x.buffer.for_each(|t| counts[t as usize] += 1);
        }
    }
    for t in x.stock() {
        counts[t as usize] += 1;
    }
    for j in first..2 {
        for &t in &x.muertos[j][..x.muerto_len[j] as usize] {
            counts[t as usize] += 1;
        }
    }
    for &t in &pozo[..unseen] {
        counts[t as usize] += 1;
    }
    let every: u32 = (1u32 << caps.len()) - 1;
    let not_u = single_take(x, &log, p);
    let mut not_mask = 0u32;
    if not_u >= 0 {
        not_mask = 1u32 << rack_at[mover];
        if buf_at[mover] != usize::MAX {
            not_mask |= 1u32 << buf_at[mover];
        }
    }
    let mut cards: Vec<u16> = Vec::new();
    let mut allowed: Vec<u32> = Vec::new();
    for t in 0..NT {
        let mut left = counts[t] as usize;
        for &s in &others {
            let k = left.min(log.known[s][t] as usize);
            let mask = (1u32 << rack_at[s])
                | if buf_at[s] != usize::MAX {
                    1u32 << buf_at[s]
                } else {
                    0
                };
            for _ in 0..k {
                cards.push(t as u16);
                allowed.push(mask);
            }
            left -= k;
        }
        for _ in 0..left {
            cards.push(t as u16);
            allowed.push(if t as i64 == not_u {
                every & !not_mask
            } else {
                every
            });
        }
    }
    // The places merged where they admit the same cards (the same law, far fewer places).
    let Some(merged) = Merged::new(&allowed, &caps) else {
        out.rng = SplitMix64::new(rng.next_u64());
        return;
    };
    let mut offs = [0usize; MAX_SLOTS + 1];
    for (j, &c) in caps.iter().enumerate() {
        offs[j + 1] = offs[j] + c as usize;
    }
    let mut got = [0u16; MAX_CARDS];
    let got = &mut got[..cards.len()];
    let taken = take_now(x, &log, p);
    // docs/burako_engine.md §15: the mover's take this turn must have been legal with the rack the
    // placement gives it then; else the placement is drawn again (at most MAX_TRIES).
    for _ in 0..MAX_TRIES {
        if !merged.place(&cards, &mut rng, got) {
            out.rng = SplitMix64::new(rng.next_u64());
            return;
        }
        let slot = |j: usize| -> &[u16] { &got[offs[j]..offs[j + 1]] };
        for &s in &others {
            let mut r = TileCounts::EMPTY;
            for &t in slot(rack_at[s]) {
                r.add(t as TileType);
            }
            if drawn_at[s] != usize::MAX {
                let d = slot(drawn_at[s])[0];
                out.drawn = d as i8;
                r.add(d as TileType);
            }
            out.racks[s] = r;
            out.rack_len[s] = r.len() as u8;
            if buf_at[s] != usize::MAX {
                let mut b = TileCounts::EMPTY;
                let mut mx: i8 = -1;
                for &t in slot(buf_at[s]) {
                    b.add(t as TileType);
                    mx = mx.max(t as i8);
                }
                out.buffer = b;
                out.buffer_len = b.len() as u8;
                out.buffer_max = mx;
            }
        }
        // The stock is kept top last.
        let st = slot(stock_at);
        for (k, &t) in st.iter().enumerate() {
            out.stock[st.len() - 1 - k] = t as u8;
        }
        for j in first..2 {
            for (k, &t) in slot(muerto_at + j - first).iter().enumerate() {
                out.muertos[j][k] = t as u8;
            }
        }
        for (k, &t) in slot(pozo_at).iter().enumerate() {
            out.pozo[k] = t as u8;
        }
        let mut pc = TileCounts::EMPTY;
        for &t in &out.pozo[..out.pozo_len as usize] {
            pc.add(t);
        }
        out.pozo_counts = pc;
        if taken.is_empty() || take_fits(out, &taken) {
            break;
        }
    }
    // Other seats' hidden adds: the pending group is the top of the buffer (its adds in the
    // record, ascending); a cancelled group, the lowest tiles its seat held then in a past that
    // fits, or canonical when no past fits or the group is longer than what the seat held in it.
    let mut pending = 0usize;
    if buf_at[mover] != usize::MAX {
        let b = out.buffer.to_vec();
        while pending < b.len()
            && n_hist > pending
            && n_hist - 1 - pending >= log.start
            && is_add(out.history[n_hist - 1 - pending])
        {
            pending += 1;
        }
        for k in 0..pending {
            out.history[n_hist - pending + k] = ADD + b[b.len() - pending + k] as u16;
        }
    }
    let racks = past_racks(out, &log, &others, p);
    let mut i = log.start;
    while i < n_hist - pending {
        let s = log.actor[i];
        if !hidden[i] || s == p as i32 {
            i += 1;
            continue;
        }
        let mut k = i;
        while k < n_hist - pending && hidden[k] && log.actor[k] == s && is_add(out.history[k]) {
            k += 1;
        }
        let q = others.iter().position(|&o| o as i32 == s).unwrap_or(0);
        let tiles = racks
            .as_ref()
            .map_or_else(Vec::new, |r| listed(&r[i - log.start][q]));
        if tiles.len() >= k - i {
            for j in 0..k - i {
                out.history[i + j] = ADD + tiles[j];
            }
        }
        i = k;
    }
    out.rng = SplitMix64::new(rng.next_u64());
}
