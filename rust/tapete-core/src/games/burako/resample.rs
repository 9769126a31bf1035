//! Resampling in a seat's information set (docs/burako_engine.md §15) and the seat's record of
//! the history (docs/burako_engine.md §11). The reference engine's `reference/burako/resample.py`
//! takes the same steps and the same random draws.

// Index loops keep the steps line for line with the reference's.
#![allow(clippy::needless_range_loop)]

use std::cell::RefCell;

use crate::resample::{Merged, MAX_CARDS, MAX_SLOTS};
use crate::rng::SplitMix64;
use crate::tiles::{TileCounts, TileType, NUM_TILES, NUM_TYPES};

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

/// Per entry: an add of a group that no `meld` laid down (cancelled, or still pending), into
/// `out` (cleared first).
pub(super) fn hidden_adds(h: &[u16], out: &mut Vec<bool>) {
    let n = h.len();
    out.clear();
    out.resize(n, false);
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

impl Default for HandLog {
    fn default() -> HandLog {
        HandLog {
            start: 0,
            ok: false,
            actor: Vec::new(),
            known: [[0; NT]; 4],
            pozo_seen: Vec::new(),
            muerto_at: Vec::new(),
            take_unknown: Vec::new(),
            redraw_at: -1,
        }
    }
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
    /// Reads `x`'s record into this log, its buffers reused.
    pub fn read(&mut self, x: &BurakoState) {
        let p = x.n();
        let (start, full) = find_start(x);
        self.start = start;
        self.ok = false;
        self.known = [[0; NT]; 4];
        self.redraw_at = -1;
        if full {
            self.replay(x, full, [x.opts().hand_size as i64; 4]);
            return;
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
        let ends = self.replay(x, full, [big; 4]);
        let mut base = [0i64; 4];
        for s in 0..p {
            base[s] = now[s] - (ends[s] - big);
        }
        let k_size = x.opts().muerto_size as i64;
        let mut taken = [0usize; 4];
        let mut n_taken = 0;
        for s in 0..p {
            if x.muerto_status[s % 2] != 0 {
                taken[n_taken] = s;
                n_taken += 1;
            }
        }
        for mask in 0..1usize << n_taken {
            let mut took = [false; 4];
            let mut teams = [0u8; 2];
            for (b, &s) in taken[..n_taken].iter().enumerate() {
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
            let ends = self.replay(x, full, sizes);
            let events_fit = self.muerto_at.len() == took.iter().filter(|&&t| t).count()
                && self.muerto_at.iter().all(|&(_, s)| took[s]);
            if self.ok && ends[..p] == now[..p] && events_fit {
                return;
            }
        }
        self.replay(x, full, base);
        self.ok = false;
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
        // the pending group's tiles, as counts (the record's adds since the last meld or cancel)
        let mut buffer = [0u8; NT];
        let mut buffer_len = 0i64;
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
                buffer[(a - ADD) as usize] += 1;
                buffer_len += 1;
            } else if a == CANCEL {
                buffer = [0; NT];
                buffer_len = 0;
            } else {
                let played;
                if a == MELD {
                    for (k, b) in known[s].iter_mut().zip(&buffer) {
                        *k = k.saturating_sub(*b);
                    }
                    played = buffer_len;
                    buffer = [0; NT];
                    buffer_len = 0;
                } else {
                    let t = if a < EXTEND {
                        pozo.push((a - DISCARD) as i16);
                        a - DISCARD
                    } else {
                        (a - EXTEND) % NT as u16
                    };
                    let k = &mut known[s][t as usize];
                    *k = k.saturating_sub(1);
                    played = 1;
                }
                sizes[s] -= played;
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
    let mut log = HandLog::default();
    log.read(x);
    let mut hidden = Vec::new();
    hidden_adds(&x.history, &mut hidden);
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

fn counts_of(c: TileCounts) -> [u8; NT] {
    let mut out = [0u8; NT];
    for (t, o) in out.iter_mut().enumerate() {
        *o = c.get(t as TileType);
    }
    out
}

/// What one resample reads and writes besides the states, reused from call to call so that
/// search allocates nothing (docs/design.md §6).
#[derive(Default)]
struct Scratch {
    log: HandLog,
    hidden: Vec<bool>,
    /// The entries where a hidden group of another seat starts.
    starts: Vec<usize>,
    racks: Racks,
    /// A state to try a take on.
    trial: Option<BurakoState>,
}

/// What `past_racks` reads and writes.
#[derive(Default)]
struct Racks {
    /// Per entry of the current hand, the tiles of the pozo a take took that the record shows,
    /// as a range of `take_tiles`; the pozo as the record shows it.
    take_range: Vec<(u32, u32)>,
    take_tiles: Vec<u16>,
    pozo: Vec<i16>,
    /// Each seat's holdings at each of the starts.
    held_at: Vec<[[u8; NT]; 4]>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Each seat's holdings before the actions of the current hand at `starts` (ascending) into
/// `sc.held_at`, the cancelled groups of seat `need` required (as the reference's
/// `past_racks`, with `hidden` the hidden adds); false when no past fits. The walk goes back
/// over the whole hand, as the reference's does, whichever holdings are kept.
fn past_racks(
    x: &BurakoState,
    log: &HandLog,
    need: usize,
    hidden: &[bool],
    starts: &[usize],
    sc: &mut Racks,
) -> bool {
    let h = &x.history;
    let p = x.n();
    let mut held = [[0u8; NT]; 4];
    for s in 0..p {
        held[s] = counts_of(x.racks[s]);
    }
    if !x.terminal {
        x.buffer
            .for_each(|t| held[x.to_move as usize][t as usize] += 1);
    }
    let needs = |i: usize| hidden[i] && log.actor[i] == need as i32;
    let (range, tiles, pozo) = (&mut sc.take_range, &mut sc.take_tiles, &mut sc.pozo);
    range.clear();
    range.resize(h.len(), (0, 0));
    tiles.clear();
    pozo.clear();
    let mut d_taker: i64 = -1;
    for i in log.start..h.len() {
        let a = h[i];
        if a == TAKE {
            let from = tiles.len() as u32;
            tiles.extend(pozo.iter().filter(|&&t| t >= 0).map(|&t| t as u16));
            range[i] = (from, tiles.len() as u32);
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
    let known_takes = |i: usize| &tiles[range[i].0 as usize..range[i].1 as usize];
    sc.held_at.clear();
    sc.held_at.resize(starts.len(), [[0; NT]; 4]);
    let k_size = x.opts().muerto_size;
    let xp = x.pozo();
    let mut d_value: i64 = if log.redraw_at >= 0 && d_taker < 0 && !xp.is_empty() {
        xp[0] as i64
    } else {
        -1
    };
    let safe = |held: &[[u8; NT]; 4], s: usize, t: usize, i: i64| -> bool {
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
                v -= known_takes(ju).iter().filter(|&&u| u == t as u16).count() as i64;
                if v < 0 {
                    return false;
                }
            } else if is_add(a) && needs(ju) && !(ju > log.start && is_add(h[ju - 1])) {
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
    let drop_unknown = |held: &mut [[u8; NT]; 4], s: usize, i: i64| -> i64 {
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
    let mut next_start = starts.len();
    for i in (log.start..h.len()).rev() {
        let a = h[i];
        let s = log.actor[i] as usize;
        let back = i as i64 - 1;
        if log.muerto_at.iter().any(|&(m, _)| m == i) {
            for _ in 0..k_size {
                if drop_unknown(&mut held, s, back) < 0 {
                    return false;
                }
            }
        }
        if a == DRAW {
            if i as i64 + 1 == log.redraw_at && d_value >= 0 {
                let d = d_value as usize;
                if held[s][d] == 0 {
                    return false;
                }
                held[s][d] -= 1;
            } else if x.drawn >= 0 && i == h.len() - 1 {
                if held[s][x.drawn as usize] == 0 {
                    return false;
                }
                held[s][x.drawn as usize] -= 1;
            } else if drop_unknown(&mut held, s, back) < 0 {
                return false;
            }
        } else if a == TAKE {
            for &t in known_takes(i) {
                if held[s][t as usize] == 0 {
                    return false;
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
                    return false;
                }
                if i as i64 == d_taker {
                    d_value = t;
                }
            }
        } else if a == REDRAW {
            if d_value < 0 || drop_unknown(&mut held, s, back) < 0 {
                return false;
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
        if next_start > 0 && starts[next_start - 1] == i {
            next_start -= 1;
            sc.held_at[next_start] = held;
        }
    }
    true
}

/// Placements drawn at most, for a take that must have been legal, before the last is kept.
const MAX_TRIES: usize = 64;

/// The pozo (bottom first) that the mover (not `p`) took this turn under
/// `pozo_take_requirement = must_use_top_tile_now` when it has played no tile since (its rack then
/// is its holdings less the pozo) and every tile of it is in the record, into `out`; else
/// nothing. Returns its length.
fn take_now(x: &BurakoState, log: &HandLog, p: usize, out: &mut [u8; NUM_TILES]) -> usize {
    let h = &x.history;
    if x.terminal || !x.opts().must_use_top || x.to_move as usize == p || !log.ok {
        return 0;
    }
    let mut i = h.len();
    while i > log.start && (is_add(h[i - 1]) || h[i - 1] == CANCEL) {
        i -= 1;
    }
    if i == log.start || h[i - 1] != TAKE {
        return 0;
    }
    let i = i - 1;
    if log.take_unknown.iter().any(|&(j, u)| j == i && u > 0) {
        return 0;
    }
    let mut j = i;
    while j > log.start && h[j - 1] != TAKE {
        j -= 1;
    }
    let mut len = 0;
    for &a in h[j..i].iter().filter(|&&a| is_discard(a)) {
        out[len] = (a - DISCARD) as u8;
        len += 1;
    }
    len
}

/// Whether `take pozo` was legal (docs/burako_engine.md §7) for the mover of `out` holding its
/// tiles less `taken`, with `taken` the pozo: the engine's own check on that position, tried on
/// `y` (a copy of `out`).
fn take_fits(out: &BurakoState, taken: &[u8], y: &mut BurakoState) -> bool {
    y.clone_from(out);
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
    SCRATCH.with(|sc| draw(x, p, seed, out, &mut sc.borrow_mut()));
}

fn draw(x: &BurakoState, p: usize, seed: u64, out: &mut BurakoState, sc: &mut Scratch) {
    out.clone_from(x);
    let mut rng = SplitMix64::new(seed);
    sc.log.read(x);
    hidden_adds(&x.history, &mut sc.hidden);
    let (log, hidden) = (&sc.log, &sc.hidden);
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
    let mut others = [0usize; 3];
    let mut n_others = 0;
    for s in (0..n).filter(|&s| s != p) {
        others[n_others] = s;
        n_others += 1;
    }
    let others = &others[..n_others];
    let mut caps = [0u16; MAX_SLOTS];
    let mut n_caps = 0;
    let mut cap = |c: u16| {
        caps[n_caps] = c;
        n_caps += 1;
        n_caps - 1
    };
    let mut rack_at = [usize::MAX; 4];
    let mut buf_at = [usize::MAX; 4];
    let mut drawn_at = [usize::MAX; 4];
    for &s in others {
        let d = (s == mover && x.drawn >= 0) as u32;
        rack_at[s] = cap((x.racks[s].len() - d) as u16);
        if s == mover && x.buffer_len > 0 {
            buf_at[s] = cap(x.buffer_len as u16);
        }
        if d == 1 {
            drawn_at[s] = cap(1);
        }
    }
    let stock_at = cap(x.stock_len as u16);
    let muerto_at = stock_at + 1;
    let first = x.muerto_first as usize;
    for j in first..2 {
        cap(x.muerto_len[j] as u16);
    }
    let pozo = x.pozo();
    let mut unseen = if x.opts().pozo_top_only {
        log.pozo_seen.iter().filter(|&&t| t < 0).count()
    } else {
        0
    };
    unseen = unseen.min(pozo.len().saturating_sub(1));
    let pozo_at = cap(unseen as u16);
    let caps = &caps[..n_caps];
    let mut counts = [0u16; NT];
    for &s in others {
        x.racks[s].for_each(|t| counts[t as usize] += 1);
        if s == mover {
            x.buffer.for_each(|t| counts[t as usize] += 1);
        }
    }
    for &t in &x.stock[..x.stock_len as usize] {
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
    let not_u = single_take(x, log, p);
    let mut not_mask = 0u32;
    if not_u >= 0 {
        not_mask = 1u32 << rack_at[mover];
        if buf_at[mover] != usize::MAX {
            not_mask |= 1u32 << buf_at[mover];
        }
    }
    let mut cards = [0u16; MAX_CARDS];
    let mut allowed = [0u32; MAX_CARDS];
    let mut n_cards = 0;
    let mut card = |t: usize, mask: u32| {
        if n_cards < MAX_CARDS {
            cards[n_cards] = t as u16;
            allowed[n_cards] = mask;
        }
        n_cards += 1;
    };
    for t in 0..NT {
        let mut left = counts[t] as usize;
        for &s in others {
            let k = left.min(log.known[s][t] as usize);
            let mask = (1u32 << rack_at[s])
                | if buf_at[s] != usize::MAX {
                    1u32 << buf_at[s]
                } else {
                    0
                };
            for _ in 0..k {
                card(t, mask);
            }
            left -= k;
        }
        for _ in 0..left {
            card(
                t,
                if t as i64 == not_u {
                    every & !not_mask
                } else {
                    every
                },
            );
        }
    }
    // The places merged where they admit the same cards (the same law, far fewer places).
    let merged = if n_cards <= MAX_CARDS {
        Merged::new(&allowed[..n_cards], caps)
    } else {
        None
    };
    let Some(merged) = merged else {
        out.rng = SplitMix64::new(rng.next_u64());
        return;
    };
    let cards = &cards[..n_cards];
    let mut offs = [0usize; MAX_SLOTS + 1];
    for (j, &c) in caps.iter().enumerate() {
        offs[j + 1] = offs[j] + c as usize;
    }
    let mut got = [0u16; MAX_CARDS];
    let got = &mut got[..cards.len()];
    let mut taken = [0u8; NUM_TILES];
    let taken_len = take_now(x, log, p, &mut taken);
    let taken = &taken[..taken_len];
    // docs/burako_engine.md §15: the mover's take this turn must have been legal with the rack the
    // placement gives it then; else the placement is drawn again (at most MAX_TRIES).
    for _ in 0..MAX_TRIES {
        if !merged.place(cards, &mut rng, got) {
            out.rng = SplitMix64::new(rng.next_u64());
            return;
        }
        let slot = |j: usize| -> &[u16] { &got[offs[j]..offs[j + 1]] };
        for &s in others {
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
        if taken.is_empty() {
            break;
        }
        let trial = sc.trial.get_or_insert_with(|| out.clone());
        if take_fits(out, taken, trial) {
            break;
        }
    }
    // Other seats' hidden adds: the pending group is the top of the buffer (its adds in the
    // record, ascending); a cancelled group, the lowest tiles its seat held then in a past that
    // fits, or canonical when no past fits or the group is longer than what the seat held in it.
    let mut pending = 0usize;
    if buf_at[mover] != usize::MAX {
        while pending < out.buffer_len as usize
            && n_hist > pending
            && n_hist - 1 - pending >= log.start
            && is_add(out.history[n_hist - 1 - pending])
        {
            pending += 1;
        }
        // the buffer's top `pending` tiles, ascending
        let mut top = [0u16; NUM_TILES];
        let mut k = pending;
        let mut types = out.buffer.types();
        while types != 0 && k > 0 {
            let t = 63 - types.leading_zeros() as TileType;
            for _ in 0..out.buffer.get(t) {
                if k > 0 {
                    k -= 1;
                    top[k] = t as u16;
                }
            }
            types &= !(1u64 << t);
        }
        for k in 0..pending {
            out.history[n_hist - pending + k] = ADD + top[k];
        }
    }
    // the groups to rewrite: where each starts and ends
    sc.starts.clear();
    let mut i = log.start;
    while i < n_hist - pending {
        let s = log.actor[i];
        if !hidden[i] || s == p as i32 {
            i += 1;
            continue;
        }
        sc.starts.push(i);
        let mut k = i;
        while k < n_hist - pending && hidden[k] && log.actor[k] == s && is_add(out.history[k]) {
            k += 1;
        }
        i = k;
    }
    if !sc.starts.is_empty() {
        let fits = past_racks(out, &sc.log, p, &sc.hidden, &sc.starts, &mut sc.racks);
        let (log, hidden) = (&sc.log, &sc.hidden);
        for (g, &i) in sc.starts.iter().enumerate() {
            let s = log.actor[i];
            let mut k = i;
            while k < n_hist - pending && hidden[k] && log.actor[k] == s && is_add(out.history[k]) {
                k += 1;
            }
            if !fits {
                continue;
            }
            // the lowest tiles the seat held then, if they are as many as the group
            let held = &sc.racks.held_at[g][s as usize];
            if held.iter().map(|&c| c as usize).sum::<usize>() >= k - i {
                let mut j = i;
                'fill: for (t, &c) in held.iter().enumerate() {
                    for _ in 0..c {
                        if j == k {
                            break 'fill;
                        }
                        out.history[j] = ADD + t as u16;
                        j += 1;
                    }
                }
            }
        }
    }
    out.rng = SplitMix64::new(rng.next_u64());
}
