//! Canonical state JSON, views, `setup` and `state_from_json` (docs/escoba_engine.md §8–§10).

use serde_json::{Map, Value};

use super::elimination;
use super::feature::{ReadAt, SetupAt, Spec};
use super::options::{Deck, MAX_PACK};
use super::text::{
    ascending_ms, card_list, card_of, claim, in_pack, ints, lists, multiset, multisets, score_of,
    Seen, ST,
};
use super::twins;
use super::{
    Config, EscobaGame, EscobaState, MAX_JSON_SWEEPS, MAX_PRIOR_SWEEPS, MAX_SEATS, MAX_SWEEPS,
};
use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::game::{Game, State};
use crate::json::{push_ints, state_object, Obj};

// ----- writing -----

/// Canonical JSON (docs/escoba_engine.md §8): keys sorted, compact.
pub(super) fn to_json(st: &EscobaState) -> String {
    let n = st.cfg.n;
    let ns = st.cfg.sides;
    let mut keys: Vec<(&'static str, String)> = vec![
        ("deal", st.deal.to_string()),
        ("deal_points", lists(st.deal_points.chunks(ns))),
        ("dealer", st.dealer.to_string()),
        ("game", "\"escoba\"".into()),
        ("hands", multisets(&st.hands[..n], &st.twin.hands[..n])),
        ("history", ints(st.history.iter())),
        ("last_capturer", st.last_capturer.to_string()),
        ("loser", st.loser.to_string()),
        ("options", st.cfg.json.clone()),
        ("pending", st.pending.to_string()),
        ("piles", multisets(&st.piles[..ns], &st.twin.piles[..ns])),
        ("rng", format!("\"{}\"", st.rng.state)),
        ("scores", ints(&st.scores[..ns])),
        ("selection", multiset(st.selection, st.twin.selection)),
        ("stock", ints(st.stock())),
        ("sweeps", ints(st.sweeps())),
        ("table", multiset(st.table, st.twin.table)),
        ("terminal", st.terminal.to_string()),
        ("to_move", st.to_move.to_string()),
        ("version", "1".into()),
        ("winner", st.winner.to_string()),
    ];
    for f in &st.cfg.parts.keys {
        f.to_json(st, &mut keys);
    }
    keys.sort_unstable_by_key(|k| k.0);
    let mut s = String::with_capacity(1500 + st.history.len() * 4);
    let mut j = Obj::new(&mut s);
    for (k, v) in keys {
        j.raw(k, v);
    }
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

// ----- reading helpers -----

/// A deck given to `new_state` (top first): a permutation of the pack, as text or ids.
pub(super) fn check_deck(cfg: &Config, deck: &Value) -> Result<[u8; MAX_PACK]> {
    let pack = cfg.opts.deck;
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
    // card_list refused any card not of the pack
    for (i, &c) in deck.iter().enumerate() {
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

/// Every part reads its `setup` keys at `at`, those it does not play refusing them.
fn setup_parts<'a>(
    s: &mut EscobaState,
    at: SetupAt,
    spec: &Spec<'a>,
    seen: &mut Seen,
) -> Result<()> {
    let cfg = s.cfg.clone();
    for f in cfg.parts.all.iter().filter(|f| f.setup_at() == at) {
        f.setup(f.enabled(&cfg.opts), s, spec, seen)?;
    }
    Ok(())
}

/// Every part the game plays reads its state JSON keys at `at`.
fn read_parts(
    s: &mut EscobaState,
    at: ReadAt,
    m: &Map<String, Value>,
    seen: &mut Seen,
) -> Result<()> {
    let cfg = s.cfg.clone();
    for f in cfg.parts.read.iter().filter(|f| f.read_at() == at) {
        f.read(s, m, seen)?;
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
    setup_parts(&mut s, SetupAt::Table, &get, &mut seen)?;
    if let Some(p) = get("piles") {
        for (side, pv) in ST.list_of(p, "piles", ns)?.iter().enumerate() {
            let cards = card_list(pv, &format!("piles[{side}]"), true, pack)?;
            claim(&mut seen, &cards, &format!("piles[{side}]"))?;
            let m: twins::Multiset = cards.into_iter().collect();
            (s.piles[side], s.twin.piles[side]) = (m.one, m.two);
        }
    }
    setup_parts(&mut s, SetupAt::Piles, &get, &mut seen)?;
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
    setup_parts(&mut s, SetupAt::Seats, &get, &mut seen)?;
    let all: Vec<u32> = (0..n).map(|seat| s.hand_len(seat)).collect();
    let (sizes, dealer, to_move) =
        elimination::compact(&all, s.elimination.in_play, dealer, to_move);
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
    let parts = game
        .cfg
        .parts
        .keys
        .iter()
        .flat_map(|f| f.keys().iter().copied());
    let keys: Vec<&str> = STATE_KEYS.iter().copied().chain(parts).collect();
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
    read_parts(&mut s, ReadAt::Table, m, &mut seen)?;
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
        let c = in_pack(Card(s.pending as u8), "pending", pack)?;
        claim(&mut seen, &[c], "pending")?;
    }
    read_parts(&mut s, ReadAt::Cards, m, &mut seen)?;
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
    read_parts(&mut s, ReadAt::Sweeps, m, &mut seen)?;
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
    read_parts(&mut s, ReadAt::Late, m, &mut seen)?;
    if terminal {
        if s.to_move != -1
            || s.fidasse.claim >= 0
            || s.fidasse.claimed.iter().any(|c| !c.is_empty())
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
    if s.fidasse.claim >= 0 {
        // an open claim: the claimant played it, an opponent later in the round is asked
        let c = s.fidasse.claimant as usize;
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
    let (sizes, dealer, mover) =
        elimination::compact(&sizes, s.elimination.in_play, s.dealer as usize, mover);
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
    Ok(s)
}
