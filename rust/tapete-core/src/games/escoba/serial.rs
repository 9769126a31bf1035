//! Canonical state JSON, views, `setup` and `state_from_json` (docs/escoba_engine.md §8–§10).

use std::fmt::Write as _;

use serde_json::{Map, Value};

use super::builds::{build_value, Builds, MAX_BUILDS, MAX_BUILD_VALUE};
use super::elimination;
use super::knock;
use super::maresciallo;
use super::options::TargetMode;
use super::options::{Deck, MAX_PACK};
use super::rules;
use super::twins;
use super::{
    EscobaGame, EscobaState, MAX_DECLS, MAX_JSON_SWEEPS, MAX_PRIOR_SWEEPS, MAX_SCORE, MAX_SEATS,
    MAX_SWEEPS,
};
use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::game::{Game, State};
use crate::json::{push_ints, state_object, Obj, Read};

/// State JSON and `setup` refuse bad values as `InvalidStateError`.
const ST: Read = Read::STATE;

// ----- writing -----

/// A multiset of the double pack (docs/escoba_engine.md §1a): `set` ascending, an id of `two` written twice.
pub(super) fn push_ids2(s: &mut String, set: CardSet, two: CardSet) {
    s.push('[');
    for (i, c) in set.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{}", c.0);
        if two.contains(c) {
            let _ = write!(s, ",{}", c.0);
        }
    }
    s.push(']');
}

pub(super) fn push_texts2(s: &mut String, set: CardSet, two: CardSet) {
    s.push('[');
    for (i, c) in set.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{c}\"");
        if two.contains(c) {
            let _ = write!(s, ",\"{c}\"");
        }
    }
    s.push(']');
}

pub(super) fn push_texts(s: &mut String, set: CardSet) {
    s.push('[');
    for (i, c) in set.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{c}\"");
    }
    s.push(']');
}

pub(super) fn eliminate(st: &EscobaState) -> bool {
    st.cfg.opts.target_mode == TargetMode::Eliminate
}

/// A multiset of the double pack (docs/escoba_engine.md §1a) as JSON text: `set` ascending, an id of `two`
/// written twice.
pub(super) fn multiset(set: CardSet, two: CardSet) -> String {
    let mut s = String::new();
    push_ids2(&mut s, set, two);
    s
}

/// A list of multisets, as JSON text.
pub(super) fn multisets(sets: &[CardSet], twos: &[CardSet]) -> String {
    let mut s = String::from("[");
    for (i, (set, two)) in sets.iter().zip(twos).enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_ids2(&mut s, *set, *two);
    }
    s.push(']');
    s
}

/// Canonical JSON (docs/escoba_engine.md §8): keys sorted, compact.
pub(super) fn to_json(st: &EscobaState) -> String {
    let n = st.cfg.n;
    let ns = st.cfg.sides;
    let o = &st.cfg.opts;
    let mut s = String::with_capacity(1500 + st.history.len() * 4);
    let mut j = Obj::new(&mut s);
    if o.builds {
        j.card_sets("builds", st.builds.as_slice());
    }
    if o.fidasse {
        j.raw("claim", st.claim)
            .raw("claimant", st.claimant)
            .card_sets("claimed", &st.claimed[..n]);
    }
    j.raw("deal", st.deal)
        .lists("deal_points", st.deal_points.chunks(ns))
        .raw("dealer", st.dealer);
    if has_decls(o.tuzzoli, st.cfg.knocks) {
        j.lists("declarations", st.declarations());
    }
    j.str("game", "escoba")
        .raw("hands", multisets(&st.hands[..n], &st.twin.hands[..n]))
        .ints("history", st.history.iter());
    if eliminate(st) {
        j.raw("in_play", st.in_play);
    }
    if st.cfg.knocks {
        j.ints("knock_state", &st.knock_state[..n]);
    }
    if o.maresciallo_penalty {
        j.ints("ks_sweeps", st.ks_sweeps());
    }
    j.raw("last_capturer", st.last_capturer)
        .raw("loser", st.loser);
    if st.cfg.matta.bit != 0 {
        j.raw("matta_value", st.matta_value);
    }
    j.raw("options", &st.cfg.json).raw("pending", st.pending);
    if o.steal {
        j.ints("pile_tops", &st.tops[..ns]);
    }
    j.raw("piles", multisets(&st.piles[..ns], &st.twin.piles[..ns]))
        .u64_text("rng", st.rng.state)
        .ints("scores", &st.scores[..ns])
        .raw("selection", multiset(st.selection, st.twin.selection))
        .ints("stock", st.stock());
    if o.max_consecutive_sweeps.is_some() {
        j.ints("sweep_streak", &st.streak[..ns]);
    }
    j.ints("sweeps", st.sweeps())
        .raw("table", multiset(st.table, st.twin.table))
        .raw("terminal", st.terminal)
        .raw("to_move", st.to_move);
    if st.cfg.twins {
        j.ints("twin_sweeps", st.twin_sweeps());
    }
    j.raw("version", 1).raw("winner", st.winner);
    j.end();
    s
}

/// `[[..],[..]]`: the points of each finished deal, per side.
pub(super) fn push_deal_points(s: &mut String, st: &EscobaState) {
    s.push('[');
    for (i, d) in st.deal_points.chunks(st.cfg.sides).enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_ints(s, d);
    }
    s.push(']');
}

/// Whether states carry `declarations` (tuzzoli or knocks).
pub(super) fn has_decls(tuzzoli: bool, knocks: bool) -> bool {
    tuzzoli || knocks
}

// ----- reading helpers -----

/// Builds given as a list of card lists (docs/rules/escoba.md §2.20): each of at least 2 cards worth at most
/// 10 in all. `canonical` (state JSON) also asks for ascending ids and builds ascending by their
/// lowest card.
fn read_builds(v: &Value, seen: &mut Seen, canonical: bool, pack: Deck) -> Result<Builds> {
    let list = ST.list(v, "builds")?;
    if list.len() > MAX_BUILDS {
        return Err(ST.err(format!(
            "builds may list at most {MAX_BUILDS} builds, got {}",
            list.len()
        )));
    }
    let mut out = Builds::EMPTY;
    let mut last: Option<Card> = None;
    for (i, b) in list.iter().enumerate() {
        let what = format!("builds[{i}]");
        let cards = if canonical {
            let set = ascending_set(b, &what, pack)?;
            set.iter().collect::<Vec<_>>()
        } else {
            card_list(b, &what, true, pack)?
        };
        claim(seen, &cards, &what)?;
        let set: CardSet = cards.into_iter().collect();
        if set.len() < 2 || build_value(set) > MAX_BUILD_VALUE {
            return Err(ST.err(format!(
                "{what} must hold at least 2 cards worth at most {MAX_BUILD_VALUE} in all, got [{set}]"
            )));
        }
        if canonical && last >= set.first() {
            return Err(ST.err("builds must be ascending by their lowest card".into()));
        }
        last = set.first();
        out.insert(set);
    }
    Ok(out)
}

/// A match score or deal points: an int within ±[`MAX_SCORE`] (docs/escoba_engine.md §8, §9).
fn score_of(v: &Value, what: &str) -> Result<i64> {
    ST.int(v, what, -MAX_SCORE, MAX_SCORE)
}

/// A card given as an id (or, when `text`, as text) that must be one of the pack's.
fn card_of(v: &Value, what: &str, text: bool, pack: Deck) -> Result<Card> {
    let c = ST.card(v, what, text)?;
    if !pack.contains(c) {
        return Err(ST.err(format!(
            "{what}: {c} is not a card of the {}",
            pack.pack_name()
        )));
    }
    Ok(c)
}

fn card_list(v: &Value, what: &str, text: bool, pack: Deck) -> Result<Vec<Card>> {
    ST.list(v, what)?
        .iter()
        .map(|x| card_of(x, what, text, pack))
        .collect()
}

/// An ascending list of distinct ids as a set.
fn ascending_set(v: &Value, what: &str, pack: Deck) -> Result<CardSet> {
    let cards = card_list(v, what, false, pack)?;
    if cards.windows(2).any(|w| w[0] >= w[1]) {
        return Err(ST.err(format!("{what} must be ascending card ids without repeats")));
    }
    Ok(cards.into_iter().collect())
}

/// The cards met so far while reading a state: each id once, or with the double pack
/// (docs/escoba_engine.md §1a) up to twice, the second copies in `two`.
struct Seen {
    one: CardSet,
    two: CardSet,
    twins: bool,
}

impl Seen {
    fn new(pack: Deck) -> Seen {
        Seen {
            one: CardSet::EMPTY,
            two: CardSet::EMPTY,
            twins: pack.copies() == 2,
        }
    }
    /// Every card of the pack met (both copies with the double pack).
    fn full(&self, pack: Deck) -> bool {
        self.one == pack.mask() && (!self.twins || self.two == pack.mask())
    }
    /// The copies not met, as text.
    fn missing(&self, pack: Deck) -> String {
        let once = pack.mask().minus(self.one);
        if !self.twins {
            return once.to_string();
        }
        let mut m = twins::Multiset::from_set(once);
        m = m
            .add(twins::Multiset::from_set(pack.mask().minus(self.two)))
            .unwrap_or(m);
        m.iter()
            .map(|c| c.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Adds cards to `seen`, failing on a card seen before (seen twice, with the double pack).
fn claim(seen: &mut Seen, cards: &[Card], what: &str) -> Result<()> {
    for &c in cards {
        if seen.one.contains(c) {
            if seen.twins && !seen.two.contains(c) {
                seen.two.insert(c);
                continue;
            }
            let limit = if seen.twins { "twice" } else { "once" };
            return Err(ST.err(format!("card {c} appears more than {limit} ({what})")));
        }
        seen.one.insert(c);
    }
    Ok(())
}

/// An ascending list of ids as a multiset: distinct ids, or with the double pack at most two
/// copies of an id, adjacent (docs/escoba_engine.md §1a).
fn ascending_ms(v: &Value, what: &str, pack: Deck) -> Result<twins::Multiset> {
    if pack.copies() == 1 {
        return ascending_set(v, what, pack).map(twins::Multiset::from_set);
    }
    let cards = card_list(v, what, false, pack)?;
    if cards.windows(2).any(|w| w[0] > w[1]) || cards.windows(3).any(|w| w[0] == w[2]) {
        return Err(ST.err(format!(
            "{what} must be ascending card ids, each at most twice"
        )));
    }
    Ok(cards.into_iter().collect())
}

/// A deck given to `new_state` (top first): a permutation of the pack, as text or ids.
pub(super) fn check_deck(deck: &Value, pack: Deck) -> Result<[u8; MAX_PACK]> {
    let deck = card_list(deck, "deck", true, pack)?;
    if deck.len() != pack.len() {
        return Err(ST.err(format!(
            "deck must list the {} cards, got {} cards",
            pack.len(),
            deck.len()
        )));
    }
    let mut seen = Seen::new(pack);
    let mut out = [0u8; MAX_PACK];
    for (i, &c) in deck.iter().enumerate() {
        if !pack.contains(c) {
            return Err(ST.err(format!(
                "deck: {c} is not a card of the {}",
                pack.pack_name()
            )));
        }
        claim(&mut seen, &[c], "deck")?;
        out[i] = c.0;
    }
    Ok(out)
}

/// Hand sizes of a real round: from the mover up to the dealer `k`, from `D+1` up to the mover
/// `k − 1`; `None` if they are not.
fn real_round(sizes: &[u32], dealer: usize, mover: usize) -> bool {
    let n = sizes.len();
    let k = sizes[mover];
    if k == 0 {
        return false;
    }
    let j = (mover + n - dealer - 1) % n;
    (0..n).all(|i| {
        let seat = (dealer + 1 + i) % n;
        sizes[seat] == if i >= j { k } else { k - 1 }
    })
}

/// Sizes after a short last hand (stock ran out): non-increasing in play order from the mover,
/// at most one apart, mover ≥ 1.
fn short_round(sizes: &[u32], mover: usize) -> bool {
    let n = sizes.len();
    let seq: Vec<u32> = (0..n).map(|i| sizes[(mover + i) % n]).collect();
    seq[0] >= 1 && seq.windows(2).all(|w| w[0] >= w[1]) && seq[0] - seq[n - 1] <= 1
}

// ----- setup -----

/// `pile_tops` (docs/rules/escoba.md §2.21): with `steal`, one entry per side, the top card of a non-empty pile
/// (one of its cards) and null (−1 in a state JSON) for an empty one; without `steal` absent.
fn read_pile_tops(s: &mut EscobaState, v: Option<&Value>, allow_text: bool) -> Result<()> {
    let ns = s.cfg.sides;
    let Some(v) = v else {
        if s.cfg.opts.steal && s.piles[..ns].iter().any(|p| !p.is_empty()) {
            return Err(ST.err(
                "pile_tops must name the top card of every non-empty pile (option steal)".into(),
            ));
        }
        return Ok(());
    };
    if !s.cfg.opts.steal {
        return Err(ST.err("pile_tops is only kept with option steal".into()));
    }
    for (side, x) in ST.list_of(v, "pile_tops", ns)?.iter().enumerate() {
        let what = format!("pile_tops[{side}]");
        let empty = x.is_null() || (!allow_text && ST.int(x, &what, -1, 51)? == -1);
        if empty {
            if !s.piles[side].is_empty() {
                return Err(ST.err(format!(
                    "{what}: the non-empty pile {side} needs its top card"
                )));
            }
            continue;
        }
        let c = card_of(x, &what, allow_text, s.cfg.opts.deck)?;
        if !s.piles[side].contains(c) {
            return Err(ST.err(format!("{what}: {c} is not a card of pile {side}")));
        }
        s.tops[side] = c.0 as i8;
    }
    Ok(())
}

pub(super) fn setup(game: &EscobaGame, spec: &Value) -> Result<EscobaState> {
    const KEYS: [&str; 13] = [
        "in_play",
        "hands",
        "table",
        "builds",
        "stock",
        "piles",
        "pile_tops",
        "dealer",
        "to_move",
        "scores",
        "scope",
        "last_capturer",
        "seed",
    ];
    let m = ST.object_with(spec, "setup spec", &KEYS, &[])?;
    let get = |k: &str| m.get(k).filter(|v| !v.is_null());
    let cfg = &game.cfg;
    let n = cfg.n;
    let ns = cfg.sides;
    let pack = cfg.opts.deck;
    let hands_v =
        get("hands").ok_or_else(|| ST.err("setup needs hands: one card list per seat".into()))?;
    let hands_a = ST.list_of(hands_v, "hands", n)?;
    let mut seen = Seen::new(pack);
    let mut s = game.blank(0);
    for (seat, h) in hands_a.iter().enumerate() {
        let cards = card_list(h, &format!("hands[{seat}]"), true, pack)?;
        claim(&mut seen, &cards, &format!("hands[{seat}]"))?;
        let m: twins::Multiset = cards.into_iter().collect();
        (s.hands[seat], s.twin.hands[seat]) = (m.one, m.two);
    }
    if let Some(t) = get("table") {
        let cards = card_list(t, "table", true, pack)?;
        claim(&mut seen, &cards, "table")?;
        let m: twins::Multiset = cards.into_iter().collect();
        (s.table, s.twin.table) = (m.one, m.two);
    }
    if let Some(b) = get("builds") {
        if !cfg.opts.builds {
            return Err(ST.err("setup key builds needs option builds".into()));
        }
        s.builds = read_builds(b, &mut seen, false, pack)?;
    }
    if let Some(p) = get("piles") {
        for (side, pv) in ST.list_of(p, "piles", ns)?.iter().enumerate() {
            let cards = card_list(pv, &format!("piles[{side}]"), true, pack)?;
            claim(&mut seen, &cards, &format!("piles[{side}]"))?;
            let m: twins::Multiset = cards.into_iter().collect();
            (s.piles[side], s.twin.piles[side]) = (m.one, m.two);
        }
    }
    read_pile_tops(&mut s, get("pile_tops"), true)?;
    let stock: Vec<Card> = match get("stock") {
        Some(sv) => {
            let cards = card_list(sv, "stock", true, pack)?;
            claim(&mut seen, &cards, "stock")?;
            if !seen.full(pack) {
                let missing = seen.missing(pack);
                return Err(ST.err(format!(
                    "with stock given, hands, table, piles and stock must hold the {} cards; missing: {missing}",
                    pack.len()
                )));
            }
            cards
        }
        None => {
            // the copies not listed elsewhere, ascending (a twin twice in a row)
            let once = twins::Multiset::from_set(pack.mask().minus(seen.one));
            let left = if seen.twins {
                once.add(twins::Multiset::from_set(pack.mask().minus(seen.two)))
                    .unwrap_or(once)
            } else {
                once
            };
            left.iter().collect()
        }
    };
    s.stock_pos = (pack.len() - stock.len()) as u8;
    for (i, c) in stock.iter().enumerate() {
        s.stock[s.stock_pos as usize + i] = c.0;
    }
    let seat_of = |k: &str| -> Result<Option<usize>> {
        get(k)
            .map(|v| ST.int(v, k, 0, n as i64 - 1).map(|x| x as usize))
            .transpose()
    };
    let (dealer, to_move) = match (seat_of("dealer")?, seat_of("to_move")?) {
        (Some(d), Some(t)) => (d, t),
        (Some(d), None) => (d, (d + 1) % n),
        (None, Some(t)) => ((t + n - 1) % n, t),
        (None, None) => (n - 1, 0),
    };
    s.dealer = dealer as u8;
    s.to_move = to_move as i8;
    if let Some(v) = get("in_play") {
        if cfg.opts.target_mode != TargetMode::Eliminate {
            return Err(ST.err("setup key in_play needs target_mode=eliminate".into()));
        }
        let mut mask = 0u8;
        for x in ST.list(v, "in_play")? {
            mask |= 1 << ST.int(x, "in_play entry", 0, n as i64 - 1)?;
        }
        s.in_play = check_in_play(&s, mask, dealer, to_move)?;
    }
    let all: Vec<u32> = (0..n).map(|seat| s.hand_len(seat)).collect();
    let (sizes, dealer, to_move) = elimination::compact(&all, s.in_play, dealer, to_move);
    if !real_round(&sizes, dealer, to_move) {
        return Err(ST.err(format!(
            "hand sizes {sizes:?} are not those of a round with dealer {dealer} and seat {to_move} to move: \
             seats from the mover to the dealer hold k >= 1 cards, seats from the dealer's next up to the mover k - 1"
        )));
    }
    if let Some(v) = get("scores") {
        for (side, x) in ST.list_of(v, "scores", ns)?.iter().enumerate() {
            s.scores[side] = score_of(x, &format!("scores[{side}]"))?;
        }
    }
    if let Some(v) = get("scope") {
        let counts = ST
            .list_of(v, "scope", ns)?
            .iter()
            .enumerate()
            .map(|(side, x)| ST.int(x, &format!("scope[{side}]"), 0, MAX_PRIOR_SWEEPS as i64))
            .collect::<Result<Vec<_>>>()?;
        if counts.iter().sum::<i64>() > MAX_PRIOR_SWEEPS as i64 {
            return Err(ST.err(format!("scope may total at most {MAX_PRIOR_SWEEPS} sweeps")));
        }
        for (side, &k) in counts.iter().enumerate() {
            for _ in 0..k {
                s.push_sweep(side);
            }
        }
    }
    if let Some(v) = get("last_capturer") {
        s.last_capturer = ST.int(v, "last_capturer", -1, ns as i64 - 1)? as i8;
    }
    if let Some(v) = get("seed") {
        s.rng.state = match v {
            Value::Number(x) if x.is_u64() => x.as_u64().unwrap_or(0),
            Value::Number(x) if x.is_i64() => x.as_i64().unwrap_or(0) as u64,
            _ => return Err(ST.err(format!("seed must be an int, got {v}"))),
        };
    }
    Ok(s)
}

/// `mask` as the seats in play: at least two, holding the dealer and the mover, the others
/// without cards.
fn check_in_play(s: &EscobaState, mask: u8, dealer: usize, mover: usize) -> Result<u8> {
    let n = s.cfg.n;
    if mask.count_ones() < 2 || mask >> dealer & 1 == 0 || mask >> mover & 1 == 0 {
        return Err(ST.err(format!(
            "in_play must hold at least 2 seats, the dealer {dealer} and the seat to move {mover}"
        )));
    }
    if (0..n).any(|p| mask >> p & 1 == 0 && !s.hands[p].is_empty()) {
        return Err(ST.err("a seat out of play holds cards".into()));
    }
    Ok(mask)
}

// ----- state_from_json -----

const STATE_KEYS: [&str; 21] = [
    "deal",
    "deal_points",
    "dealer",
    "game",
    "hands",
    "history",
    "last_capturer",
    "loser",
    "options",
    "pending",
    "piles",
    "rng",
    "scores",
    "selection",
    "stock",
    "sweeps",
    "table",
    "terminal",
    "to_move",
    "version",
    "winner",
];

pub(super) fn state_from_json(game: &EscobaGame, text: &str) -> Result<EscobaState> {
    let o = &game.cfg.opts;
    let optional = [
        ("declarations", has_decls(o.tuzzoli, game.cfg.knocks)),
        ("in_play", o.target_mode == TargetMode::Eliminate),
        ("knock_state", game.cfg.knocks),
        ("matta_value", game.cfg.matta.bit != 0),
        ("pile_tops", o.steal),
        ("ks_sweeps", o.maresciallo_penalty),
        ("claim", o.fidasse),
        ("claimant", o.fidasse),
        ("claimed", o.fidasse),
        ("builds", o.builds),
        ("twin_sweeps", game.cfg.twins),
        ("sweep_streak", o.max_consecutive_sweeps.is_some()),
    ];
    let keys: Vec<&str> = STATE_KEYS
        .iter()
        .copied()
        .chain(optional.iter().filter(|k| k.1).map(|k| k.0))
        .collect();
    let m = state_object(text, "escoba", &keys, game.options_json())?;
    read_state(game, &m)
}

/// The selection: ascending item ids, table cards and, with `steal`, piles (`PILE_BIT + side`).
fn selection_of(v: &Value, ns: usize, steal: bool, pack: Deck) -> Result<CardSet> {
    let mut set = CardSet::EMPTY;
    let mut last = -1i64;
    for x in ST.list(v, "selection")? {
        let id = ST.int(x, "selection", 0, 63)?;
        let pile = steal
            && (super::piles::PILE_BIT as i64..(super::piles::PILE_BIT as usize + ns) as i64)
                .contains(&id);
        if !pile {
            card_of(x, "selection", false, pack)?;
        }
        if id <= last {
            return Err(ST.err("selection must be ascending item ids without repeats".into()));
        }
        last = id;
        set.insert(Card(id as u8));
    }
    Ok(set)
}

fn read_state(game: &EscobaGame, m: &Map<String, Value>) -> Result<EscobaState> {
    let cfg = &game.cfg;
    let o = &cfg.opts;
    let n = cfg.n;
    let ns = cfg.sides;
    let pack = o.deck;
    let f = |k: &str| &m[k];
    let mut s = game.blank(0);
    let terminal = match f("terminal") {
        Value::Bool(b) => *b,
        x => return Err(ST.err(format!("terminal must be a bool, got {x}"))),
    };
    s.terminal = terminal;
    s.dealer = ST.int(f("dealer"), "dealer", 0, n as i64 - 1)? as u8;
    let deal_hi = o.max_deals.unwrap_or(u32::MAX as i64).min(u32::MAX as i64);
    s.deal = ST.int(f("deal"), "deal", 1, deal_hi)? as u32;
    s.to_move = ST.int(f("to_move"), "to_move", -1, n as i64 - 1)? as i8;
    s.last_capturer = ST.int(f("last_capturer"), "last_capturer", -1, ns as i64 - 1)? as i8;
    s.winner = ST.int(f("winner"), "winner", -1, ns as i64 - 1)? as i8;
    s.loser = ST.int(f("loser"), "loser", -1, ns as i64 - 1)? as i8;
    s.pending = ST.int(f("pending"), "pending", -1, 51)? as i8;

    let mut seen = Seen::new(pack);
    for (seat, h) in ST.list_of(f("hands"), "hands", n)?.iter().enumerate() {
        let what = format!("hands[{seat}]");
        let h = ascending_ms(h, &what, pack)?;
        claim(&mut seen, &h.iter().collect::<Vec<_>>(), &what)?;
        (s.hands[seat], s.twin.hands[seat]) = (h.one, h.two);
    }
    let t = ascending_ms(f("table"), "table", pack)?;
    claim(&mut seen, &t.iter().collect::<Vec<_>>(), "table")?;
    (s.table, s.twin.table) = (t.one, t.two);
    if o.builds {
        s.builds = read_builds(f("builds"), &mut seen, true, pack)?;
    }
    for (side, p) in ST.list_of(f("piles"), "piles", ns)?.iter().enumerate() {
        let what = format!("piles[{side}]");
        let p = ascending_ms(p, &what, pack)?;
        claim(&mut seen, &p.iter().collect::<Vec<_>>(), &what)?;
        (s.piles[side], s.twin.piles[side]) = (p.one, p.two);
    }
    let stock = card_list(f("stock"), "stock", false, pack)?;
    claim(&mut seen, &stock, "stock")?;
    s.stock_pos = (pack.len() - stock.len()) as u8;
    for (i, c) in stock.iter().enumerate() {
        s.stock[s.stock_pos as usize + i] = c.0;
    }
    if s.pending >= 0 {
        let c = Card(s.pending as u8);
        if !pack.contains(c) {
            return Err(ST.err(format!(
                "pending: {c} is not a card of the {}",
                pack.pack_name()
            )));
        }
        claim(&mut seen, &[c], "pending")?;
    }
    if o.fidasse {
        s.claim = ST.int(&m["claim"], "claim", -1, 51)? as i8;
        s.claimant = ST.int(&m["claimant"], "claimant", -1, n as i64 - 1)? as i8;
        if (s.claim >= 0) != (s.claimant >= 0) {
            return Err(ST.err("claim and claimant are both set or both -1".into()));
        }
        if s.claim >= 0 {
            let c = Card(s.claim as u8);
            if !pack.contains(c) {
                return Err(ST.err(format!(
                    "claim: {c} is not a card of the {}",
                    pack.pack_name()
                )));
            }
            claim(&mut seen, &[c], "claim")?;
        }
        for (seat, h) in ST.list_of(&m["claimed"], "claimed", n)?.iter().enumerate() {
            let set = ascending_set(h, &format!("claimed[{seat}]"), pack)?;
            if !set.is_subset(s.piles[cfg.side_of[seat] as usize]) {
                return Err(ST.err(format!(
                    "claimed[{seat}] must be cards of the pile of seat {seat}'s side"
                )));
            }
            if (0..seat).any(|t| !s.claimed[t].inter(set).is_empty()) {
                return Err(ST.err(format!("claimed[{seat}] repeats another seat's card")));
            }
            s.claimed[seat] = set;
        }
    }
    if o.steal {
        read_pile_tops(&mut s, m.get("pile_tops"), false)?;
    }
    if cfg.twins {
        let sel = ascending_ms(f("selection"), "selection", pack)?;
        if !sel.is_subset(s.twin_table()) {
            return Err(ST.err("selection must be cards of the table".into()));
        }
        (s.selection, s.twin.selection) = (sel.one, sel.two);
    } else {
        s.selection = selection_of(f("selection"), ns, o.steal, pack)?;
    }
    if !CardSet(s.selection.0 & super::piles::CARD_BITS).is_subset(s.items()) {
        return Err(ST.err("selection must be items of the table".into()));
    }
    if !seen.full(pack) {
        let vanished_ok = terminal && (!o.last_capturer_takes_rest || s.last_capturer < 0);
        if !vanished_ok {
            return Err(ST.err(format!(
                "hands, table, stock, piles and pending must hold each of the {} cards once; missing: {}",
                pack.len(),
                seen.missing(pack)
            )));
        }
    }

    let sw = ST.list(f("sweeps"), "sweeps")?;
    if sw.len() > MAX_JSON_SWEEPS {
        return Err(ST.err(format!(
            "sweeps may list at most {MAX_JSON_SWEEPS} sweeps, got {}",
            sw.len()
        )));
    }
    for x in sw {
        let side = ST.int(x, "sweeps entry", 0, ns as i64 - 1)?;
        s.push_sweep(side as usize);
    }
    if o.maresciallo_penalty {
        // each Ks makes at most one sweep, and it lies in the sweeper's pile
        let ks = ST.list(f("ks_sweeps"), "ks_sweeps")?;
        let copies = pack.copies();
        if ks.len() > copies {
            return Err(ST.err(format!(
                "ks_sweeps may list at most {copies} sweep(s) (one per Ks), got {}",
                ks.len()
            )));
        }
        for x in ks {
            let i = ST.int(x, "ks_sweeps entry", 0, s.n_sweeps as i64 - 1)? as usize;
            if !s.piles[s.sweeps[i] as usize].contains(maresciallo::KS) {
                return Err(ST.err(format!(
                    "ks_sweeps: sweep {i} was made by playing Ks, so Ks must be in side {}'s pile",
                    s.sweeps[i]
                )));
            }
            s.ks_sweeps |= 1u128 << i;
        }
    }
    if o.max_consecutive_sweeps.is_some() {
        // docs/rules/escoba.md §1.5: a side's streak counts its plays, at most the pack
        let v = ST.list_of(f("sweep_streak"), "sweep_streak", cfg.sides)?;
        for (side, x) in v.iter().enumerate() {
            s.streak[side] = ST.int(x, "sweep_streak entry", 0, cfg.pack as i64)? as u32;
        }
    }
    if cfg.twins {
        // docs/escoba_engine.md §1a: ascending indices of the sweeps that took the played card's twin
        let mut last = -1i64;
        for x in ST.list(f("twin_sweeps"), "twin_sweeps")? {
            let i = ST.int(x, "twin_sweeps entry", last + 1, s.n_sweeps as i64 - 1)?;
            s.twin.sweeps |= 1u128 << i;
            last = i;
        }
    }
    if has_decls(o.tuzzoli, cfg.knocks) {
        let ds = ST.list(f("declarations"), "declarations")?;
        if ds.len() > MAX_DECLS {
            return Err(ST.err(format!(
                "declarations may list at most {MAX_DECLS} entries, got {}",
                ds.len()
            )));
        }
        let mut last_at = 0;
        for (i, d) in ds.iter().enumerate() {
            let what = format!("declarations[{i}]");
            let e = ST.list_of(d, &what, 3)?;
            let seat = ST.int(&e[0], &what, 0, n as i64 - 1)? as u8;
            let lo = if o.tuzzoli { 1 } else { knock::CIRULLA as i64 };
            let hi = if cfg.knocks {
                knock::CIRULLA_DECINO
            } else {
                rules::NAPOLI
            };
            let kind = ST.int(&e[1], &what, lo, hi as i64)? as u8;
            let at = ST.int(&e[2], &what, last_at, s.n_sweeps as i64)?;
            last_at = at;
            s.decls[i] = [seat, kind, at as u8];
            s.n_decls += 1;
        }
    }
    for (side, x) in ST.list_of(f("scores"), "scores", ns)?.iter().enumerate() {
        s.scores[side] = score_of(x, &format!("scores[{side}]"))?;
    }
    let dp = ST.list(f("deal_points"), "deal_points")?;
    let want = if terminal { s.deal } else { s.deal - 1 } as usize;
    if dp.len() != want {
        return Err(ST.err(format!(
            "deal_points must have one entry per finished deal ({want}), got {}",
            dp.len()
        )));
    }
    for (i, d) in dp.iter().enumerate() {
        for x in ST.list_of(d, &format!("deal_points[{i}]"), ns)? {
            s.deal_points
                .push(score_of(x, &format!("deal_points[{i}]"))?);
        }
    }
    s.rng.state = match f("rng") {
        Value::String(t) => match t.parse::<u64>() {
            Ok(x) if x.to_string() == *t => x,
            _ => return Err(ST.err(format!("rng must be a u64 as a decimal string, got {t:?}"))),
        },
        x => return Err(ST.err(format!("rng must be a decimal string, got {x}"))),
    };
    let last_action = if cfg.knocks {
        super::notation::NO_KNOCK
    } else if o.fidasse {
        super::notation::DOUBT
    } else {
        s.max_action()
    };
    for x in ST.list(f("history"), "history")? {
        s.history
            .push(ST.int(x, "history entry", 0, last_action as i64)? as u8);
    }
    if cfg.knocks {
        for (seat, x) in ST
            .list_of(f("knock_state"), "knock_state", n)?
            .iter()
            .enumerate()
        {
            s.knock_state[seat] =
                ST.int(x, &format!("knock_state[{seat}]"), 0, knock::KNOCKED as i64)? as u8;
        }
    }
    if cfg.matta.bit != 0 {
        s.matta_value = ST.int(f("matta_value"), "matta_value", 1, 10)? as u8;
    }

    if o.target_mode == TargetMode::Eliminate {
        let mask = ST.int(&m["in_play"], "in_play", 1, (1i64 << n) - 1)? as u8;
        if terminal {
            // the winner's seats, or (a draw) at least two seats
            let ok = if s.winner >= 0 {
                (0..n).all(|p| (mask >> p & 1 != 0) == (cfg.side_of[p] as i8 == s.winner))
            } else {
                mask.count_ones() >= 2
            };
            if !ok {
                return Err(ST.err(format!(
                    "in_play {mask} does not fit a finished match (the winner's seats, else 2 or more)"
                )));
            }
            s.in_play = mask;
        } else {
            let mover = s.to_move.max(0) as usize;
            s.in_play = check_in_play(&s, mask, s.dealer as usize, mover)?;
        }
    }
    if terminal {
        if s.to_move != -1
            || s.claim >= 0
            || s.claimed.iter().any(|c| !c.is_empty())
            || s.hands[..n].iter().any(|h| !h.is_empty())
            || !s.table.is_empty()
            || !s.builds.is_empty()
            || !stock.is_empty()
            || s.pending >= 0
        {
            return Err(ST.err(
                "a terminal state has to_move -1, no pending card and empty hands, table and stock"
                    .into(),
            ));
        }
        if s.winner >= 0 && s.loser >= 0 {
            return Err(ST.err("a match cannot have both a winner and a loser".into()));
        }
        if s.winner < 0 && s.loser < 0 && o.max_deals.is_none_or(|md| (s.deal as i64) < md) {
            return Err(ST.err("a drawn match needs max_deals deals played".into()));
        }
        return Ok(s);
    }
    if s.winner >= 0 || s.loser >= 0 {
        return Err(ST.err("winner and loser must be -1 before the end".into()));
    }
    if s.to_move < 0 {
        return Err(ST.err("to_move must be a seat before the end".into()));
    }
    let mut mover = s.to_move as usize;
    let mut sizes: Vec<u32> = (0..n).map(|seat| s.hand_len(seat)).collect();
    if s.pending >= 0 {
        sizes[mover] += 1;
    }
    if s.claim >= 0 {
        // an open claim: the claimant played it, an opponent later in the round is asked
        let c = s.claimant as usize;
        let asked_ok = cfg.side_of[c] != cfg.side_of[mover]
            && s.pending < 0
            && !s.table.is_empty()
            && s.selection.is_empty();
        if !asked_ok {
            return Err(ST.err(
                "an open claim is answered by an opponent of the claimant, with no pending card and cards on the table"
                    .into(),
            ));
        }
        sizes[c] += 1;
        mover = c;
    }
    let (sizes, dealer, mover) = elimination::compact(&sizes, s.in_play, s.dealer as usize, mover);
    if !(real_round(&sizes, dealer, mover) || (stock.is_empty() && short_round(&sizes, mover))) {
        return Err(ST.err(format!(
            "hand sizes {sizes:?} are impossible with dealer {dealer} and seat {mover} to move"
        )));
    }
    if s.pending >= 0 {
        // a pending card has at least two outcomes extending the selection, else it would
        // have been applied
        let count = if cfg.twins {
            s.twin_unresolved()
        } else {
            s.pending_summary(s.selection).count
        };
        if count < 2 {
            return Err(ST.err(format!(
                "pending card {} with selection [{}] is not an unresolved choice",
                Card(s.pending as u8),
                s.selection
            )));
        }
    } else if !s.selection.is_empty() {
        return Err(ST.err("selection must be empty when no card is pending".into()));
    }
    if s.legal_actions().is_empty() {
        return Err(ST.err("the player to move has no legal action".into()));
    }
    debug_assert!(s.n_sweeps as usize <= MAX_SWEEPS && n <= MAX_SEATS);
    let _ = rules::value;
    Ok(s)
}
