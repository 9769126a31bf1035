//! Resampling (docs/musta_maija_engine.md §11): the public record of the current hand, what it
//! tells of where each hidden card may be, and the draw of a consistent placement.

use super::options::{DrawOrder, NextDealer};
use super::rules::{beaters, max_matching, MAIJA};
use super::{MustaMaijaState, Phase, MAX_SEATS};
use crate::cards::{Card, CardSet};
use crate::game::Action;
use crate::resample::place;
use crate::rng::SplitMix64;

const DONE: Action = 52;
const TAKE_ALL: Action = 53;
/// Refills of one seat in one hand, the deal included: each takes at least one unseen card.
const MAX_ARRIVALS: usize = 53;
/// Pending replays of earlier hands whose loser the record leaves open (the attack cap).
const MAX_BRANCHES: usize = 64;
/// Placements drawn before the record is given up.
const MAX_ROUNDS: usize = 10_000;
/// No card's time is later.
const NEVER: i64 = i64::MAX;

/// The current hand's public record, per seat (docs/musta_maija_engine.md §11).
#[derive(Clone)]
struct Line {
    start: i64,
    /// `(time, count)` of each batch of unseen cards that entered the seat's hand, in time order.
    arrivals: [[(i64, u8); MAX_ARRIVALS]; MAX_SEATS],
    n_arrivals: [usize; MAX_SEATS],
    /// Cards the seat played that nobody had seen enter its hand, and when.
    gone: [CardSet; MAX_SEATS],
    gone_at: [[i64; 52]; MAX_SEATS],
    /// Per card, the latest time it cannot have been in the seat's hand (it entered after).
    lo: [[i64; 52]; MAX_SEATS],
    /// The loser of a hand that ended at the attack cap.
    cap_loser: Option<usize>,
}

/// Public counts of a replay.
#[derive(Clone, Copy)]
struct Branch {
    index: usize,
    hand_no: u32,
    dealer: usize,
    losses: [u32; MAX_SEATS],
}

fn forbidden(pairs: &[[u8; 2]], left: CardSet, trump: Option<u8>) -> u64 {
    let mut reach = left;
    let mut grew = true;
    while grew {
        grew = false;
        for &[t, c] in pairs {
            let t = Card(t);
            if !reach.contains(t) && reach.iter().any(|z| beaters(z, trump) >> c & 1 != 0) {
                reach.insert(t);
                grew = true;
            }
        }
    }
    reach.iter().fold(0, |m, z| m | beaters(z, trump))
}

/// Replays `x`'s actions on public counts from `b`; the current hand's record, or `None`.
fn replay(x: &MustaMaijaState, first: Branch, line: &mut Line) -> bool {
    let o = x.opts();
    let n = x.n();
    let hs = o.hand_size as usize;
    let h = &x.history;
    let strict = !o.beat_optional;
    let trump = x.trump_suit();
    let mut stack = [first; MAX_BRANCHES];
    let mut depth = 1;
    while depth > 0 {
        depth -= 1;
        let b = stack[depth];
        let current = b.hand_no == x.hand_no;
        let mut i = b.index;
        line.start = i as i64;
        let mut sizes = [hs; MAX_SEATS];
        let mut stock = 52 - n * hs;
        let mut known = [CardSet::EMPTY; MAX_SEATS];
        for s in 0..n {
            line.arrivals[s][0] = (i as i64 - 1, hs as u8);
            line.n_arrivals[s] = 1;
            line.gone[s] = CardSet::EMPTY;
            line.lo[s] = [i as i64 - 2; 52];
            for c in x
                .turned
                .minus(CardSet::single(Card(x.trump.max(0) as u8)))
                .iter()
            {
                line.lo[s][c.0 as usize] = i as i64 - 1; // back into the stock: never dealt
            }
        }
        let mut attacks = 0u32;
        let active = |sizes: &[usize; MAX_SEATS], stock: usize, s: usize| sizes[s] > 0 || stock > 0;
        let next_active = |sizes: &[usize; MAX_SEATS], stock: usize, s: usize| {
            (1..=n)
                .map(|k| (s + k) % n)
                .find(|&t| active(sizes, stock, t))
                .unwrap_or(s)
        };
        let refill = |sizes: &mut [usize; MAX_SEATS],
                      stock: &mut usize,
                      known: &mut [CardSet; MAX_SEATS],
                      line: &mut Line,
                      s: usize,
                      at: usize| {
            let mut got = 0u8;
            while sizes[s] < hs && *stock > 0 {
                *stock -= 1;
                sizes[s] += 1;
                if *stock == 0 && current {
                    known[s].insert(Card(x.trump as u8)); // the face-up trump card, drawn last
                } else {
                    got += 1;
                }
            }
            if got > 0 {
                line.arrivals[s][line.n_arrivals[s]] = (at as i64, got);
                line.n_arrivals[s] += 1;
            }
        };
        let leave = |sizes: &mut [usize; MAX_SEATS],
                     known: &mut [CardSet; MAX_SEATS],
                     line: &mut Line,
                     s: usize,
                     c: Card,
                     at: usize| {
            sizes[s] -= 1;
            if known[s].contains(c) {
                known[s].remove(c);
            } else {
                line.gone[s].insert(c);
                line.gone_at[s][c.0 as usize] = at as i64;
            }
        };
        let mut a = (b.dealer + 1) % n;
        let mut d = next_active(&sizes, stock, a);
        let mut defending = false;
        let mut attack = CardSet::EMPTY;
        let mut pairs = [[0u8; 2]; 13];
        let mut n_pairs = 0;
        let mut beaten = CardSet::EMPTY;
        let mut left = CardSet::EMPTY;
        let mut commit = 0usize;
        let mut ended: Option<(u64, bool)> = None; // candidate losers; natural end
        let mut bad = false;
        while i < h.len() && ended.is_none() {
            let act = h[i] as Action;
            if !defending {
                if act == DONE {
                    attacks += 1;
                    if o.draw_order == DrawOrder::AttackerThenDefender {
                        refill(&mut sizes, &mut stock, &mut known, line, a, i);
                    }
                    defending = true;
                    commit = i;
                } else if act < 52 && !attack.contains(Card(act as u8)) && attack.len() < 13 {
                    leave(&mut sizes, &mut known, line, a, Card(act as u8), i);
                    attack.insert(Card(act as u8));
                } else {
                    bad = true;
                    break;
                }
            } else {
                let undecided = attack.minus(beaten).minus(left);
                let Some(t) = undecided.first() else {
                    bad = true;
                    break;
                };
                if act == TAKE_ALL {
                    left = left.union(undecided);
                } else if act == DONE {
                    left.insert(t);
                } else {
                    leave(&mut sizes, &mut known, line, d, Card(act as u8), i);
                    pairs[n_pairs] = [t.0, act as u8];
                    n_pairs += 1;
                    beaten.insert(t);
                }
                if beaten.len() + left.len() == attack.len() {
                    if strict && current {
                        let f = forbidden(&pairs[..n_pairs], left, trump);
                        let used: CardSet = pairs[..n_pairs].iter().map(|p| Card(p[1])).collect();
                        for c in CardSet(f).minus(used).iter() {
                            if !line.gone[d].contains(c) {
                                line.lo[d][c.0 as usize] = commit as i64;
                            }
                        }
                    }
                    sizes[d] += left.len() as usize;
                    known[d] = known[d].union(left);
                    refill(&mut sizes, &mut stock, &mut known, line, d, i);
                    if o.draw_order == DrawOrder::DefenderThenAttacker {
                        refill(&mut sizes, &mut stock, &mut known, line, a, i);
                    }
                    let holders = (0..n)
                        .filter(|&s| sizes[s] > 0)
                        .fold(0u64, |m, s| m | 1 << s);
                    let all_beaten = left.is_empty();
                    defending = false;
                    attack = CardSet::EMPTY;
                    n_pairs = 0;
                    beaten = CardSet::EMPTY;
                    left = CardSet::EMPTY;
                    if holders.count_ones() <= 1 && stock == 0 {
                        ended = Some((holders, true));
                    } else if o.max_attacks.is_some_and(|m| attacks >= m) {
                        // the loser holds Qs (docs/musta_maija_engine.md §4): known, or any holder
                        let maija = (0..n)
                            .filter(|&s| known[s].contains(MAIJA))
                            .fold(0u64, |m, s| m | 1 << s);
                        ended = Some((if maija != 0 { maija } else { holders }, false));
                    } else {
                        a = if all_beaten && active(&sizes, stock, d) {
                            d
                        } else {
                            next_active(&sizes, stock, d)
                        };
                        d = next_active(&sizes, stock, a);
                    }
                }
            }
            i += 1;
        }
        if bad {
            continue;
        }
        match ended {
            None => {
                let phase = if defending {
                    Phase::Defend
                } else {
                    Phase::Attack
                };
                if current
                    && i == h.len()
                    && phase == x.phase
                    && a as i8 == x.attacker
                    && d as i8 == x.defender
                    && (0..n)
                        .all(|s| sizes[s] == x.hands[s].len() as usize && known[s] == x.known[s])
                    && stock == x.stock_len as usize
                    && b.dealer == x.dealer as usize
                    && b.losses[..n] == x.losses[..n]
                {
                    return true;
                }
            }
            Some((losers, natural)) => {
                if current {
                    let lost =
                        |s: usize| (0..n).all(|t| b.losses[t] + (t == s) as u32 == x.losses[t]);
                    let loser = (0..n).find(|&s| losers >> s & 1 != 0 && lost(s));
                    if i == h.len() && x.phase == Phase::End && b.dealer == x.dealer as usize {
                        if let Some(s) = loser {
                            line.cap_loser = (!natural).then_some(s);
                            return true;
                        }
                    }
                    continue;
                }
                // explored in ascending seat order
                for s in (0..n).rev().filter(|&s| losers >> s & 1 != 0) {
                    if depth == MAX_BRANCHES {
                        break;
                    }
                    let mut losses = b.losses;
                    losses[s] += 1;
                    let dealer = match o.next_dealer {
                        NextDealer::Loser => s,
                        NextDealer::RotateLeft => (b.dealer + 1) % n,
                    };
                    stack[depth] = Branch {
                        index: i,
                        hand_no: b.hand_no + 1,
                        dealer,
                        losses,
                    };
                    depth += 1;
                }
            }
        }
    }
    false
}

/// The current hand's record of `x` (a reachable state's history always replays).
fn timeline(x: &MustaMaijaState, line: &mut Line) {
    let n = x.n();
    let dealer = x.dealer as usize;
    let hand = x.hand_no as usize;
    let firsts = if hand == 1 {
        dealer..dealer + 1
    } else if x.opts().next_dealer == NextDealer::RotateLeft {
        let f = (dealer + n * hand - (hand - 1)) % n;
        f..f + 1
    } else {
        0..n
    };
    for first in firsts {
        let b = Branch {
            index: 0,
            hand_no: 1,
            dealer: first,
            losses: [0; MAX_SEATS],
        };
        if replay(x, b, line) {
            return;
        }
    }
    no_record(x, line);
}

/// No replay explains the state (one made by `setup`, whose history starts at a position the
/// state does not keep): the record starts now, every unseen card as if dealt.
fn no_record(x: &MustaMaijaState, line: &mut Line) {
    let start = x.history.len() as i64;
    line.start = start;
    line.cap_loser = None;
    for s in 0..x.n() {
        line.arrivals[s][0] = (start - 1, x.hands[s].minus(x.known[s]).len() as u8);
        line.n_arrivals[s] = 1;
        line.gone[s] = CardSet::EMPTY;
        line.lo[s] = [start - 2; 52];
    }
}

/// Cards of seat `s` (`cards`, those it played unseen and those it holds unseen) can each be
/// given a refill that brought it, every refill its count: earliest deadline first.
fn arrivals_fit(line: &Line, s: usize, cards: CardSet) -> bool {
    let mut todo = cards;
    for &(at, count) in &line.arrivals[s][..line.n_arrivals[s]] {
        for _ in 0..count {
            let mut best: Option<(i64, Card)> = None;
            for c in todo.iter() {
                if line.lo[s][c.0 as usize] >= at {
                    continue;
                }
                let hi = hi_of(line, s, c);
                if best.is_none_or(|(h, _)| hi < h) {
                    best = Some((hi, c));
                }
            }
            match best {
                Some((hi, c)) if hi > at => todo.remove(c),
                _ => return false,
            }
        }
    }
    todo.is_empty()
}

#[inline]
fn hi_of(line: &Line, s: usize, c: Card) -> i64 {
    if line.gone[s].contains(c) {
        line.gone_at[s][c.0 as usize]
    } else {
        NEVER
    }
}

/// The defence under way could have been played so far by a defender holding `hand` under
/// `beat_optional=false` (docs/musta_maija_engine.md §3).
fn defence_so_far_legal(x: &MustaMaijaState, hand: CardSet) -> bool {
    let trump = x.trump_suit();
    let need = max_matching(x.attack, hand.union(x.beaten_c), trump);
    x.n_pairs as u32 + max_matching(x.undecided(), hand, trump) >= need
}

/// docs/musta_maija_engine.md §11.
pub(super) fn resample_into(
    x: &MustaMaijaState,
    seat: usize,
    seed: u64,
    out: &mut MustaMaijaState,
) {
    out.clone_from(x);
    let n = x.n();
    let mut rng = SplitMix64::new(seed);
    let mut line = Line {
        start: 0,
        arrivals: [[(0, 0); MAX_ARRIVALS]; MAX_SEATS],
        n_arrivals: [0; MAX_SEATS],
        gone: [CardSet::EMPTY; MAX_SEATS],
        gone_at: [[0; 52]; MAX_SEATS],
        lo: [[0; 52]; MAX_SEATS],
        cap_loser: None,
    };
    timeline(x, &mut line);
    let bottom = x.trump_in_stock() as usize;
    let stock_hidden = x.stock_len as usize - bottom;
    let mut others = [0usize; MAX_SEATS];
    let mut k = 0;
    let mut hidden = CardSet::EMPTY;
    let mut caps = [0u16; MAX_SEATS + 1];
    for s in (0..n).filter(|&s| s != seat) {
        let unseen = x.hands[s].minus(x.known[s]);
        hidden = hidden.union(unseen);
        caps[k] = unseen.len() as u16;
        others[k] = s;
        k += 1;
    }
    caps[k] = stock_hidden as u16;
    for &c in &x.stock[bottom..x.stock_len as usize] {
        hidden.insert(Card(c));
    }
    let mut cards = [0u16; 52];
    let mut allowed = [0u32; 52];
    let m = hidden.len() as usize;
    for (i, c) in hidden.iter().enumerate() {
        cards[i] = c.0 as u16;
        allowed[i] = 1 << k;
        for (j, &s) in others[..k].iter().enumerate() {
            // some refill of s came after the last time c could not have been there
            let last = line.arrivals[s][line.n_arrivals[s] - 1].0;
            if line.lo[s][c.0 as usize] < last {
                allowed[i] |= 1 << j;
            }
        }
    }
    if let (Some(loser), true) = (line.cap_loser, hidden.contains(MAIJA)) {
        // the hand ended at the cap: its loser holds Qs, or Qs is in the stock and the loser has
        // the most cards, the lowest such seat (docs/musta_maija_engine.md §4)
        let most = (0..n).fold(0, |b, s| {
            if x.hands[s].len() > x.hands[b].len() {
                s
            } else {
                b
            }
        });
        let mut mask = if most == loser { 1 << k } else { 0 };
        if let Some(j) = others[..k].iter().position(|&s| s == loser) {
            mask |= 1 << j;
        }
        let i = hidden.iter().position(|c| c == MAIJA).unwrap_or(0);
        allowed[i] = mask;
    }
    // a seat none of whose unseen cards has a bound fits its refills as the true past did
    let mut bound = [CardSet::EMPTY; MAX_SEATS];
    for (s, b) in bound.iter_mut().enumerate().take(n) {
        for c in 0..52u8 {
            if line.lo[s][c as usize] > line.start - 2 {
                b.insert(Card(c));
            }
        }
    }
    let mut placed = [0u16; 52];
    for round in 0..=MAX_ROUNDS {
        if round == MAX_ROUNDS {
            // the record explains no placement drawn (a state whose history it misreads): any
            allowed[..m].fill((1 << (k + 1)) - 1);
        }
        if !place(
            &cards[..m],
            &allowed[..m],
            &caps[..=k],
            &mut rng,
            &mut placed[..m],
        ) {
            return; // only an unreachable state gets here: out stays a copy
        }
        let mut at = 0;
        let last = round == MAX_ROUNDS;
        let mut ok = true;
        for (j, &s) in others[..k].iter().enumerate() {
            let mut hand = CardSet::EMPTY;
            for &c in &placed[at..at + caps[j] as usize] {
                hand.insert(Card(c as u8));
            }
            at += caps[j] as usize;
            ok = ok
                && (last
                    || (line.gone[s].union(hand).inter(bound[s]).is_empty()
                        || arrivals_fit(&line, s, line.gone[s].union(hand)))
                        && (x.phase != Phase::Defend
                            || s != x.defender as usize
                            || x.opts().beat_optional
                            || defence_so_far_legal(x, hand.union(x.known[s]))));
            out.hands[s] = hand.union(x.known[s]);
        }
        if ok {
            // the stock, top first in `placed`, is held bottom first
            for (dst, &c) in out.stock[bottom..x.stock_len as usize]
                .iter_mut()
                .rev()
                .zip(&placed[at..m])
            {
                *dst = c as u8;
            }
            break;
        }
    }
    out.rng = SplitMix64::new(rng.next_u64());
}
