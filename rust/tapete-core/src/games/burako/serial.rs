//! Canonical JSON, views, `setup` and `state_from_json` (docs/burako_engine.md §10–§12).

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use crate::error::GameError;
use crate::rng::SplitMix64;
use crate::tiles::{parse_tile, tile_text, TileCounts, TileType, NUM_TILES};

use super::rules::{self, Kind};
use super::{
    team, BurakoGame, BurakoState, Meld, Result, MAX_SCORE, M_MAX, PHASE_DRAW, PHASE_MELD,
};

fn st(msg: String) -> GameError {
    GameError::InvalidState(msg)
}

fn push_list(s: &mut String, xs: impl IntoIterator<Item = i64>) {
    s.push('[');
    let mut first = true;
    for x in xs {
        if !first {
            s.push(',');
        }
        first = false;
        let _ = write!(s, "{x}");
    }
    s.push(']');
}

fn counts_list(c: TileCounts) -> impl Iterator<Item = i64> {
    c.to_vec().into_iter().map(|t| t as i64)
}

pub(super) fn to_json(st: &BurakoState) -> String {
    let n = st.n();
    let mut s = String::with_capacity(2048);
    s.push_str("{\"buffer\":");
    push_list(&mut s, counts_list(st.buffer));
    let _ = write!(s, ",\"cancels\":{},\"drawn\":{}", st.cancels, st.drawn);
    let _ = write!(
        s,
        ",\"game\":\"burako\",\"hand\":{},\"hand_scores\":[",
        st.hand
    );
    for (i, h) in st.hand_scores.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "[{},{}]", h[0], h[1]);
    }
    s.push_str("],\"history\":");
    push_list(&mut s, st.history.iter().map(|&a| a as i64));
    let _ = write!(s, ",\"mano\":{},\"melds\":[", st.mano);
    for t in 0..2 {
        if t > 0 {
            s.push(',');
        }
        s.push('[');
        for (k, m) in st.team_melds(t).iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            let _ = write!(s, "{{\"kind\":\"{}\",\"tiles\":", m.kind.as_str());
            push_list(&mut s, counts_list(m.tiles));
            s.push('}');
        }
        s.push(']');
    }
    s.push_str("],\"muerto_status\":");
    push_list(&mut s, st.muerto_status.iter().map(|&x| x as i64));
    s.push_str(",\"muerto_unplayed\":");
    push_list(&mut s, st.muerto_unplayed.iter().map(|&x| x as i64));
    s.push_str(",\"muertos\":[");
    for (k, i) in (st.muerto_first as usize..2).enumerate() {
        if k > 0 {
            s.push(',');
        }
        push_list(
            &mut s,
            st.muertos[i][..st.muerto_len[i] as usize]
                .iter()
                .map(|&x| x as i64),
        );
    }
    let _ = write!(
        s,
        "],\"must_use\":{},\"no_discard\":{},\"options\":{},\"phase\":\"{}\",\"pozo\":",
        st.must_use,
        st.no_discard,
        st.cfg.json,
        if st.phase == PHASE_DRAW {
            "draw"
        } else {
            "meld"
        }
    );
    push_list(&mut s, st.pozo().iter().map(|&x| x as i64));
    s.push_str(",\"racks\":[");
    for p in 0..n {
        if p > 0 {
            s.push(',');
        }
        push_list(&mut s, counts_list(st.racks[p]));
    }
    let _ = write!(s, "],\"rng\":\"{}\",\"stock\":", st.rng.state);
    push_list(
        &mut s,
        st.stock[..st.stock_len as usize]
            .iter()
            .rev()
            .map(|&x| x as i64),
    );
    let _ = write!(
        s,
        ",\"terminal\":{},\"to_move\":{},\"totals\":[{},{}],\"turns\":{},\"version\":1,\"winner\":{}}}",
        st.terminal,
        if st.terminal { -1 } else { st.to_move as i64 },
        st.totals[0],
        st.totals[1],
        st.turns,
        st.winner
    );
    s
}

fn texts(c: TileCounts) -> Vec<String> {
    c.to_vec().into_iter().map(tile_text).collect()
}

fn opt_tile(x: i8) -> Value {
    if x < 0 {
        Value::Null
    } else {
        Value::from(tile_text(x as u8))
    }
}

pub(super) fn view_json(st: &BurakoState, p: usize) -> String {
    let n = st.n();
    let min = st.opts().meld.canasta_min;
    let mover = !st.terminal && st.to_move as usize == p;
    let melds: Vec<Value> = (0..2)
        .map(|t| {
            Value::from(
                st.team_melds(t)
                    .iter()
                    .map(|m| {
                        json!({"kind": m.kind.as_str(), "tiles": texts(m.tiles), "pure": m.pure,
                               "canasta": m.is_canasta(min)})
                    })
                    .collect::<Vec<_>>(),
            )
        })
        .collect();
    let pozo: Vec<String> = if st.opts().pozo_top_only {
        st.pozo()
            .last()
            .map(|&t| vec![tile_text(t)])
            .unwrap_or_default()
    } else {
        st.pozo().iter().map(|&t| tile_text(t)).collect()
    };
    const STATUS: [&str; 3] = ["untaken", "direct", "indirect"];
    let v = json!({
        "player": p,
        "current_player": if st.terminal { -1 } else { st.to_move as i64 },
        "mano": st.mano,
        "hand": st.hand,
        "phase": if st.phase == PHASE_DRAW { "draw" } else { "meld" },
        "turns": st.turns,
        "rack": texts(st.racks[p]),
        "buffer": if mover { texts(st.buffer) } else { Vec::new() },
        "rack_sizes": (0..n).map(|s| st.rack_len[s] as u32 + if !st.terminal && s == st.to_move as usize { st.buffer_len as u32 } else { 0 }).collect::<Vec<_>>(),
        "melds": melds,
        "pozo": pozo,
        "pozo_size": st.pozo_len,
        "stock_size": st.stock_len,
        "muertos_left": st.muertos_left(),
        "muerto_status": st.muerto_status.iter().map(|&x| STATUS[x as usize]).collect::<Vec<_>>(),
        "drawn": if mover { opt_tile(st.drawn) } else { Value::Null },
        "must_use": opt_tile(st.must_use),
        "no_discard": opt_tile(st.no_discard),
        "cancels": st.cancels,
        "totals": st.totals,
        "hand_scores": st.hand_scores,
        "terminal": st.terminal,
        "winner": st.winner,
    });
    v.to_string()
}

// ----- reading -----

fn int_of(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Number(n) if !n.is_f64() => n
            .as_i64()
            .ok_or_else(|| st(format!("{what} is out of range: {v}"))),
        _ => Err(st(format!("{what} must be an int, got {v}"))),
    }
}

fn int_in(v: &Value, what: &str, lo: i64, hi: i64) -> Result<i64> {
    let x = int_of(v, what)?;
    if x < lo || x > hi {
        return Err(st(format!("{what} must be in {lo}..{hi}, got {x}")));
    }
    Ok(x)
}

fn array<'a>(v: &'a Value, what: &str) -> Result<&'a Vec<Value>> {
    v.as_array()
        .ok_or_else(|| st(format!("{what} must be a list, got {v}")))
}

fn array_len<'a>(v: &'a Value, what: &str, len: usize) -> Result<&'a Vec<Value>> {
    let a = array(v, what)?;
    if a.len() != len {
        return Err(st(format!(
            "{what} must have {len} entries, got {}",
            a.len()
        )));
    }
    Ok(a)
}

fn tile_of(v: &Value, what: &str, allow_text: bool) -> Result<TileType> {
    match v {
        Value::String(s) if allow_text => parse_tile(s).map_err(|e| st(format!("{what}: {e}"))),
        Value::Number(_) => Ok(int_in(v, what, 0, 52)? as TileType),
        _ => Err(st(format!(
            "{what}: {v} is not a tile (expected a type id 0..52{})",
            if allow_text { " or text like R5" } else { "" }
        ))),
    }
}

fn tile_list(v: &Value, what: &str, allow_text: bool) -> Result<Vec<TileType>> {
    let a = array(v, what)?;
    if a.len() > NUM_TILES {
        return Err(st(format!("{what} holds {} tiles: more than 106", a.len())));
    }
    a.iter().map(|x| tile_of(x, what, allow_text)).collect()
}

/// A multiset from a list, refusing a type more than twice (2 bits per type cannot hold more).
fn counts_of(l: &[TileType], what: &str) -> Result<TileCounts> {
    let mut c = TileCounts::EMPTY;
    for &t in l {
        if c.get(t) >= 2 {
            return Err(st(format!(
                "{what} holds the tile {} more than twice",
                tile_text(t)
            )));
        }
        c.add(t);
    }
    Ok(c)
}

fn ascending(v: &Value, what: &str) -> Result<TileCounts> {
    let l = tile_list(v, what, false)?;
    if l.windows(2).any(|w| w[0] > w[1]) {
        return Err(st(format!("{what} must be in ascending type order")));
    }
    counts_of(&l, what)
}

fn bool_of(v: &Value, what: &str) -> Result<bool> {
    v.as_bool()
        .ok_or_else(|| st(format!("{what} must be a bool, got {v}")))
}

/// The 106 tiles, each type exactly twice.
fn check_census(total: &[u8; 53]) -> Result<()> {
    for (t, &c) in total.iter().enumerate() {
        if c != 2 {
            return Err(st(format!(
                "tile {} appears {c} times: every tile type must appear exactly twice among the 106",
                tile_text(t as u8)
            )));
        }
    }
    Ok(())
}

pub(super) fn check_deck(deck: &[TileType]) -> Result<[u8; NUM_TILES]> {
    if deck.len() != NUM_TILES {
        return Err(st(format!(
            "deck must hold the 106 tiles, got {}",
            deck.len()
        )));
    }
    let mut c = [0u8; 53];
    let mut out = [0u8; NUM_TILES];
    for (i, &t) in deck.iter().enumerate() {
        if t > 52 {
            return Err(st(format!("deck: {t} is not a tile type 0..52")));
        }
        c[t as usize] += 1;
        out[i] = t;
    }
    check_census(&c)?;
    Ok(out)
}

fn build_meld(
    tiles: &[TileType],
    kind: Option<Kind>,
    game: &BurakoGame,
    what: &str,
) -> Result<Meld> {
    let c = counts_of(tiles, what)?;
    let r = &game.options().meld;
    let (kind, fit) = match kind {
        Some(k) => (k, rules::fit_kind(k, c, c.len(), r)),
        None => match rules::classify(c, r) {
            Some((k, f)) => (k, Some(f)),
            None => (Kind::Run, None),
        },
    };
    let fit = fit.ok_or_else(|| {
        st(format!(
            "{what}: {} is not a valid {}",
            tiles
                .iter()
                .map(|&t| tile_text(t))
                .collect::<Vec<_>>()
                .join(" "),
            if kind == Kind::Pierna {
                "pierna"
            } else {
                "meld"
            }
        ))
    })?;
    Ok(Meld::build(c, kind, fit, r))
}

fn status_of(v: &Value, what: &str) -> Result<u8> {
    match v {
        Value::String(s) => match s.as_str() {
            "untaken" => Ok(0),
            "direct" => Ok(1),
            "indirect" => Ok(2),
            _ => Err(st(format!(
                "{what} must be 0, 1, 2 or untaken, direct, indirect; got {v}"
            ))),
        },
        _ => Ok(int_in(v, what, 0, 2)? as u8),
    }
}

impl BurakoState {
    fn set_stock_top_first(&mut self, top_first: &[TileType]) {
        self.stock_len = top_first.len() as u8;
        for (k, &t) in top_first.iter().rev().enumerate() {
            self.stock[k] = t;
        }
    }
    fn set_pozo(&mut self, pozo: &[TileType]) {
        self.pozo_len = pozo.len() as u8;
        self.pozo[..pozo.len()].copy_from_slice(pozo);
        self.pozo_counts = TileCounts::from_slice(pozo);
    }
    fn set_muertos(&mut self, ms: &[Vec<TileType>]) {
        self.muerto_first = (2 - ms.len()) as u8;
        for (k, m) in ms.iter().enumerate() {
            let i = self.muerto_first as usize + k;
            self.muertos[i][..m.len()].copy_from_slice(m);
            self.muerto_len[i] = m.len() as u8;
        }
    }
    fn set_buffer(&mut self, b: TileCounts) {
        self.buffer = b;
        self.buffer_len = b.len() as u8;
        self.buffer_max = b.to_vec().last().map_or(-1, |&t| t as i8);
    }
    /// Counts every tile one by one (no 2-bit packing, so a list with a type 4 times is seen).
    fn add_census(&self, c: &mut [u8; 53]) {
        let mut put =
            |m: TileCounts| m.for_each(|t| c[t as usize] = c[t as usize].saturating_add(1));
        put(self.buffer);
        for p in 0..self.n() {
            put(self.racks[p]);
        }
        for t in 0..2 {
            for m in self.team_melds(t) {
                put(m.tiles);
            }
        }
        let lists = self
            .pozo()
            .iter()
            .chain(&self.stock[..self.stock_len as usize])
            .chain(
                (self.muerto_first as usize..2)
                    .flat_map(|i| &self.muertos[i][..self.muerto_len[i] as usize]),
            );
        for &t in lists {
            c[t as usize] = c[t as usize].saturating_add(1);
        }
    }
}

fn muertos_of(v: &Value, what: &str) -> Result<Vec<Vec<TileType>>> {
    let a = array(v, what)?;
    if a.len() > 2 {
        return Err(st(format!(
            "{what} holds at most 2 muertos, got {}",
            a.len()
        )));
    }
    a.iter()
        .enumerate()
        .map(|(i, m)| tile_list(m, &format!("{what}[{i}]"), false))
        .collect()
}

pub(super) fn state_from_json(game: &BurakoGame, text: &str) -> Result<BurakoState> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| st(format!("state is not valid JSON: {e}")))?;
    let Value::Object(m) = &v else {
        return Err(st("a state JSON must be an object".into()));
    };
    read_state(game, m)
}

const KEYS: [&str; 26] = [
    "buffer",
    "cancels",
    "drawn",
    "game",
    "hand",
    "hand_scores",
    "history",
    "mano",
    "melds",
    "muerto_status",
    "muerto_unplayed",
    "muertos",
    "must_use",
    "no_discard",
    "options",
    "phase",
    "pozo",
    "racks",
    "rng",
    "stock",
    "terminal",
    "to_move",
    "totals",
    "turns",
    "version",
    "winner",
];

fn read_state(game: &BurakoGame, m: &Map<String, Value>) -> Result<BurakoState> {
    for k in KEYS {
        if !m.contains_key(k) {
            return Err(st(format!("state JSON lacks the key {k:?}")));
        }
    }
    if let Some(k) = m.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(st(format!("state JSON has an unknown key {k:?}")));
    }
    if m["game"] != "burako" {
        return Err(st(format!(
            "state JSON is for game {}, not burako",
            m["game"]
        )));
    }
    if m["version"] != 1 {
        return Err(st(format!(
            "state JSON version must be 1, got {}",
            m["version"]
        )));
    }
    if &m["options"] != game.options_value() {
        return Err(st(
            "state JSON options differ from this game's resolved options".into(),
        ));
    }
    let n = game.num_players();
    let mut s = game.blank(0);
    let rng = m["rng"].as_str().and_then(|x| {
        if x.is_empty()
            || !x.bytes().all(|b| b.is_ascii_digit())
            || (x.len() > 1 && x.starts_with('0'))
        {
            None
        } else {
            x.parse::<u64>().ok()
        }
    });
    s.rng = SplitMix64::new(rng.ok_or_else(|| {
        st(format!(
            "rng must be a decimal u64 string, got {}",
            m["rng"]
        ))
    })?);
    s.hand = int_in(&m["hand"], "hand", 1, 1_000_000_000)? as u32;
    let hs = array(&m["hand_scores"], "hand_scores")?;
    for (i, h) in hs.iter().enumerate() {
        let a = array_len(h, &format!("hand_scores[{i}]"), 2)?;
        s.hand_scores.push([
            int_in(&a[0], "hand_scores entry", -MAX_SCORE, MAX_SCORE)?,
            int_in(&a[1], "hand_scores entry", -MAX_SCORE, MAX_SCORE)?,
        ]);
    }
    let tt = array_len(&m["totals"], "totals", 2)?;
    if s.hand_scores.len() + 1
        != s.hand as usize + m["terminal"].as_bool().unwrap_or(false) as usize
    {
        return Err(st(format!(
            "hand_scores must hold one entry per finished hand: {} for hand {}",
            s.hand_scores.len(),
            s.hand
        )));
    }
    s.totals = [
        int_in(&tt[0], "totals[0]", -MAX_SCORE, MAX_SCORE)?,
        int_in(&tt[1], "totals[1]", -MAX_SCORE, MAX_SCORE)?,
    ];
    let hist = array(&m["history"], "history")?;
    for x in hist {
        s.history.push(int_in(x, "history entry", 0, 1965)? as u16);
    }
    s.terminal = bool_of(&m["terminal"], "terminal")?;
    s.winner = int_in(&m["winner"], "winner", -1, 1)? as i8;
    s.mano = int_in(&m["mano"], "mano", 0, n as i64 - 1)? as u8;
    let tm = int_in(&m["to_move"], "to_move", -1, n as i64 - 1)?;
    if (tm < 0) != s.terminal {
        return Err(st("to_move must be -1 exactly when terminal".into()));
    }
    if !s.terminal && s.winner >= 0 {
        return Err(st("a state that is not terminal has no winner".into()));
    }
    common(game, &mut s, m, tm.max(0) as usize, false)?;
    read_rest(game, &mut s, m)?;
    finish(&mut s)?;
    Ok(s)
}

/// The parts shared by JSON and setup: racks, melds, pozo, stock, muertos, flags, census.
fn common(
    game: &BurakoGame,
    s: &mut BurakoState,
    m: &Map<String, Value>,
    to_move: usize,
    text: bool,
) -> Result<()> {
    let n = game.num_players();
    s.to_move = to_move as u8;
    s.phase = match m["phase"].as_str() {
        Some("draw") => PHASE_DRAW,
        Some("meld") => PHASE_MELD,
        _ => {
            return Err(st(format!(
                "phase must be \"draw\" or \"meld\", got {}",
                m["phase"]
            )))
        }
    };
    let racks = array_len(&m["racks"], "racks", n)?;
    for (p, r) in racks.iter().enumerate() {
        let c = if text {
            counts_of(&tile_list(r, &format!("racks[{p}]"), true)?, "a rack")?
        } else {
            ascending(r, &format!("racks[{p}]"))?
        };
        if c.len() > NUM_TILES as u32 || (0..53).any(|t| c.get(t) > 2) {
            return Err(st(format!("racks[{p}] holds a tile type more than twice")));
        }
        s.racks[p] = c;
        s.rack_len[p] = c.len() as u8;
    }
    let buffer = if text {
        counts_of(&tile_list(&m["buffer"], "buffer", true)?, "buffer")?
    } else {
        ascending(&m["buffer"], "buffer")?
    };
    if (0..53).any(|t| buffer.get(t) > 2) {
        return Err(st("buffer holds a tile type more than twice".into()));
    }
    s.set_buffer(buffer);
    if s.buffer_len > 0 && s.phase != PHASE_MELD {
        return Err(st("a pending buffer exists only in the meld phase".into()));
    }
    let melds = array_len(&m["melds"], "melds", 2)?;
    for (t, tl) in melds.iter().enumerate() {
        let list = array(tl, &format!("melds[{t}]"))?;
        if list.len() > M_MAX {
            return Err(st(format!("melds[{t}] holds more than {M_MAX} melds")));
        }
        for (k, md) in list.iter().enumerate() {
            let what = format!("melds[{t}][{k}]");
            let meld = if text {
                let tiles = tile_list(md, &what, true)?;
                build_meld(&tiles, None, game, &what)?
            } else {
                let Some(o) = md.as_object() else {
                    return Err(st(format!("{what} must be an object with kind and tiles")));
                };
                if o.len() != 2 || !o.contains_key("kind") || !o.contains_key("tiles") {
                    return Err(st(format!(
                        "{what} must have exactly the keys kind and tiles"
                    )));
                }
                let kind = match o["kind"].as_str() {
                    Some("run") => Kind::Run,
                    Some("pierna") => Kind::Pierna,
                    _ => return Err(st(format!("{what}.kind must be run or pierna"))),
                };
                let c = ascending(&o["tiles"], &what)?;
                build_meld(&c.to_vec(), Some(kind), game, &what)?
            };
            s.melds[t][k] = meld;
        }
        s.n_melds[t] = list.len() as u8;
        s.recount(t);
    }
    let pozo = tile_list(&m["pozo"], "pozo", text)?;
    s.set_pozo(&pozo);
    let ms = array_len(&m["muerto_status"], "muerto_status", 2)?;
    for (status, v) in s.muerto_status.iter_mut().zip(ms) {
        *status = status_of(v, "muerto_status entry")?;
    }
    s.cancels = int_in(
        &m["cancels"],
        "cancels",
        0,
        game.options().max_cancels as i64,
    )? as u32;
    if s.phase == PHASE_DRAW && s.cancels != 0 {
        return Err(st("cancels must be 0 in the draw phase".into()));
    }
    if s.cancels >= game.options().max_cancels && s.buffer_len > 0 {
        return Err(st(
            "no buffer can exist once the cancel cap is reached".into()
        ));
    }
    s.turns = int_in(&m["turns"], "turns", 0, 1_000_000_000)? as u32;
    if !s.terminal && s.turns >= game.options().max_turns {
        return Err(st(format!(
            "turns must be below max_turns={}",
            game.options().max_turns
        )));
    }
    Ok(())
}

fn tail(game: &BurakoGame, s: &mut BurakoState, m: &Map<String, Value>) -> Result<()> {
    let n = game.num_players();
    s.drawn = int_in(&m["drawn"], "drawn", -1, 52)? as i8;
    s.must_use = int_in(&m["must_use"], "must_use", -1, 52)? as i8;
    s.no_discard = int_in(&m["no_discard"], "no_discard", -1, 52)? as i8;
    let p = s.to_move as usize;
    if s.drawn >= 0
        && (s.phase != PHASE_MELD || s.turns != 0 || !s.racks[p].contains(s.drawn as u8))
    {
        return Err(st("drawn must be -1 unless the first-turn drawn tile is in the mover's rack in the meld phase".into()));
    }
    if (s.must_use >= 0 || s.no_discard >= 0) && s.phase != PHASE_MELD {
        return Err(st(
            "must_use and no_discard are set only in the meld phase".into()
        ));
    }
    let mu = array_len(&m["muerto_unplayed"], "muerto_unplayed", 2)?;
    for (t, v) in mu.iter().enumerate() {
        let x = int_in(v, "muerto_unplayed entry", -1, n as i64 - 1)?;
        if x >= 0 && (team(x as usize) != t || s.muerto_status[t] != 2) {
            return Err(st(format!("muerto_unplayed[{t}] must be -1 or a seat of team {t} that took its muerto indirectly")));
        }
        s.muerto_unplayed[t] = x as i8;
    }
    Ok(())
}

fn finish(s: &mut BurakoState) -> Result<()> {
    let mut c = [0u8; 53];
    s.add_census(&mut c);
    check_census(&c)?;
    if !s.terminal && s.phase == PHASE_DRAW && s.stock_len == 0 && s.pozo_len == 0 {
        return Err(st(
            "the mover must be able to draw: stock and pozo are both empty".into(),
        ));
    }
    if !s.terminal && s.phase == PHASE_MELD && s.legal_actions_vec().is_empty() {
        return Err(st(
            "the mover would have no legal action in this position".into()
        ));
    }
    Ok(())
}

fn read_rest(game: &BurakoGame, s: &mut BurakoState, m: &Map<String, Value>) -> Result<()> {
    let stock = tile_list(&m["stock"], "stock", false)?;
    s.set_stock_top_first(&stock);
    let ms = muertos_of(&m["muertos"], "muertos")?;
    s.set_muertos(&ms);
    tail(game, s, m)
}

pub(super) fn setup(game: &BurakoGame, spec: &Value) -> Result<BurakoState> {
    let Value::Object(sp) = spec else {
        return Err(st("setup spec must be an object".into()));
    };
    const ALLOWED: [&str; 15] = [
        "racks",
        "melds",
        "pozo",
        "stock",
        "muertos",
        "muerto_status",
        "to_move",
        "mano",
        "phase",
        "buffer",
        "turns",
        "cancels",
        "totals",
        "hand",
        "seed",
    ];
    if let Some(k) = sp.keys().find(|k| !ALLOWED.contains(&k.as_str())) {
        return Err(st(format!("setup got an unknown argument {k:?}")));
    }
    let n = game.num_players();
    let get = |k: &str| sp.get(k).filter(|v| !v.is_null());
    let seed = match get("seed") {
        Some(v) => match v {
            Value::Number(x) if !x.is_f64() => x
                .as_u64()
                .ok_or_else(|| st(format!("seed must be 0..2**64-1, got {v}")))?,
            _ => return Err(st(format!("seed must be an int, got {v}"))),
        },
        None => 0,
    };
    let mut s = game.blank(seed);
    let to_move = match get("to_move") {
        Some(v) => int_in(v, "to_move", 0, n as i64 - 1)? as usize,
        None => 0,
    };
    s.mano = match get("mano") {
        Some(v) => int_in(v, "mano", 0, n as i64 - 1)? as u8,
        None => to_move as u8,
    };
    s.hand = match get("hand") {
        Some(v) => int_in(v, "hand", 1, game.options().max_hands as i64)? as u32,
        None => 1,
    };
    s.hand_scores = vec![[0, 0]; s.hand as usize - 1];
    if let Some(v) = get("totals") {
        let a = array_len(v, "totals", 2)?;
        s.totals = [
            int_in(&a[0], "totals[0]", -MAX_SCORE, MAX_SCORE)?,
            int_in(&a[1], "totals[1]", -MAX_SCORE, MAX_SCORE)?,
        ];
    }
    // normalise into the JSON-like map `common` reads
    let mut mm = Map::new();
    let racks =
        get("racks").ok_or_else(|| st("setup needs racks (one tile list per seat)".into()))?;
    mm.insert("racks".into(), racks.clone());
    mm.insert("buffer".into(), get("buffer").cloned().unwrap_or(json!([])));
    mm.insert(
        "melds".into(),
        get("melds").cloned().unwrap_or(json!([[], []])),
    );
    mm.insert("pozo".into(), get("pozo").cloned().unwrap_or(json!([])));
    mm.insert(
        "muerto_status".into(),
        get("muerto_status").cloned().unwrap_or(json!([0, 0])),
    );
    mm.insert(
        "phase".into(),
        get("phase").cloned().unwrap_or(json!("draw")),
    );
    mm.insert(
        "cancels".into(),
        get("cancels").cloned().unwrap_or(json!(0)),
    );
    mm.insert("turns".into(), get("turns").cloned().unwrap_or(json!(1)));
    common(game, &mut s, &mm, to_move, true)?;
    // census of what is listed so far
    let mut listed = s.tile_census();
    let over = |c: TileCounts| (0..53u8).find(|&t| c.get(t) > 2);
    let stock = match get("stock") {
        Some(v) => Some(tile_list(v, "stock", true)?),
        None => None,
    };
    let muertos = match get("muertos") {
        Some(v) => {
            let a = array(v, "muertos")?;
            if a.len() > 2 {
                return Err(st("muertos holds at most 2 muertos".into()));
            }
            Some(
                a.iter()
                    .enumerate()
                    .map(|(i, x)| tile_list(x, &format!("muertos[{i}]"), true))
                    .collect::<Result<Vec<_>>>()?,
            )
        }
        None => None,
    };
    for l in stock.iter().chain(muertos.iter().flatten()) {
        for &t in l {
            listed.add(t);
        }
    }
    if let Some(t) = over(listed) {
        return Err(st(format!(
            "tile {} is listed more than twice",
            tile_text(t)
        )));
    }
    let mut left: Vec<TileType> = TileCounts(TileCounts::FULL.0 - listed.0).to_vec();
    let muertos = match muertos {
        Some(ms) => ms,
        None => {
            let k = s.muerto_status.iter().filter(|&&x| x == 0).count();
            let k = k.min(2);
            let size = game.options().muerto_size;
            let mut ms = Vec::new();
            for _ in 0..k {
                if left.len() < size {
                    return Err(st(format!(
                        "only {} tiles are left for {k} untaken muerto(s) of {size}: list fewer tiles or give muertos",
                        left.len()
                    )));
                }
                ms.push(left.drain(..size).collect::<Vec<_>>());
            }
            if stock.is_some() && !left.is_empty() {
                match ms.last_mut() {
                    Some(last) => last.append(&mut left),
                    None => {
                        return Err(st(format!(
                            "{} tiles are not placed: with stock given and no muerto left, every tile must be listed",
                            left.len()
                        )))
                    }
                }
            }
            ms
        }
    };
    let stock = match stock {
        Some(st_) => {
            if !left.is_empty() {
                return Err(st(format!(
                    "{} tiles are not placed: list all 106 when both stock and muertos are given",
                    left.len()
                )));
            }
            st_
        }
        None => std::mem::take(&mut left),
    };
    s.set_stock_top_first(&stock);
    s.set_muertos(&muertos);
    if s.phase == PHASE_DRAW && s.buffer_len > 0 {
        return Err(st("buffer is only allowed in the meld phase".into()));
    }
    finish(&mut s)?;
    Ok(s)
}
