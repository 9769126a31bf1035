//! Canonical state JSON, `setup` and `state_from_json` (docs/burako_engine.md §10, §12).

use serde_json::{json, Map, Value};

use crate::error::Result;
use crate::game::{Game, State};
use crate::json::{self, Obj, Read};
use crate::rng::SplitMix64;
use crate::tiles::{tile_text, TileCounts, TileType, NUM_TILES, NUM_TYPES};

use super::rules::{self, Kind};
use super::{
    team, BurakoGame, BurakoState, Config, Meld, MAX_SCORE, M_MAX, NUM_ACTIONS, PHASE_DRAW,
    PHASE_MELD,
};

const ST: Read = Read::STATE;

// ----- writing -----

/// The team melds: per team, `{"kind": ..., "tiles": [...]}` in slot order.
fn melds_json(x: &BurakoState) -> String {
    let mut s = String::with_capacity(256);
    s.push('[');
    for t in 0..2 {
        if t > 0 {
            s.push(',');
        }
        s.push('[');
        for (k, m) in x.team_melds(t).iter().enumerate() {
            if k > 0 {
                s.push(',');
            }
            let mut o = Obj::new(&mut s);
            o.str("kind", m.kind.as_str())
                .ints("tiles", m.tiles.to_vec());
            o.end();
        }
        s.push(']');
    }
    s.push(']');
    s
}

/// Canonical JSON (docs/burako_engine.md §10).
pub(super) fn to_json(x: &BurakoState) -> String {
    let n = x.n();
    let mut s = String::with_capacity(2048 + 4 * x.history.len());
    let mut o = Obj::new(&mut s);
    o.ints("buffer", x.buffer.to_vec())
        .raw("cancels", x.cancels)
        .raw("drawn", x.drawn)
        .str("game", "burako")
        .raw("hand", x.hand)
        .lists("hand_scores", x.hand_scores.iter().map(|h| h.iter()))
        .ints("history", x.history.iter())
        .raw("mano", x.mano)
        .raw("melds", melds_json(x))
        .ints("muerto_status", x.muerto_status.iter())
        .ints("muerto_unplayed", x.muerto_unplayed.iter())
        .lists(
            "muertos",
            (x.muerto_first as usize..2).map(|i| x.muertos[i][..x.muerto_len[i] as usize].iter()),
        )
        .raw("must_use", x.must_use)
        .raw("no_discard", x.no_discard)
        .raw("options", &x.cfg.json)
        .str(
            "phase",
            if x.phase == PHASE_DRAW {
                "draw"
            } else {
                "meld"
            },
        )
        .ints("pozo", x.pozo().iter())
        .lists("racks", x.racks[..n].iter().map(|r| r.to_vec()))
        .u64_text("rng", x.rng.state)
        .ints("stock", x.stock[..x.stock_len as usize].iter().rev())
        .raw("terminal", x.terminal)
        .raw("to_move", if x.terminal { -1 } else { x.to_move as i64 })
        .ints("totals", x.totals.iter())
        .raw("turns", x.turns)
        .raw("version", 1)
        .raw("winner", x.winner);
    o.end();
    s
}

// ----- reading -----

/// A list of at most the 106 tiles (ids, or text when `text`), in the given order.
fn tile_list(v: &Value, what: &str, text: bool) -> Result<Vec<TileType>> {
    let l = ST.tiles(v, what, text)?;
    if l.len() > NUM_TILES {
        return Err(ST.err(format!("{what} holds {} tiles: more than 106", l.len())));
    }
    Ok(l)
}

/// The 106 tiles, each type exactly twice.
fn check_census(total: &[u8; NUM_TYPES]) -> Result<()> {
    for (t, &c) in total.iter().enumerate() {
        if c != 2 {
            return Err(ST.err(format!(
                "tile {} appears {c} times: every tile type must appear exactly twice among the 106",
                tile_text(t as u8)
            )));
        }
    }
    Ok(())
}

/// A deck given to `new_state` (a JSON list, top first): the 106 tiles.
pub(super) fn check_deck(_: &Config, deck: &Value) -> Result<[u8; NUM_TILES]> {
    let tiles = ST.tiles(deck, "deck", true)?;
    if tiles.len() != NUM_TILES {
        return Err(ST.err(format!("deck must hold the 106 tiles, got {}", tiles.len())));
    }
    let mut c = [0u8; NUM_TYPES];
    let mut out = [0u8; NUM_TILES];
    for (i, &t) in tiles.iter().enumerate() {
        c[t as usize] += 1;
        out[i] = t;
    }
    check_census(&c)?;
    Ok(out)
}

/// A team meld from its tiles: of `kind` when given (state JSON), else classified (setup).
fn build_meld(c: TileCounts, kind: Option<Kind>, game: &BurakoGame, what: &str) -> Result<Meld> {
    let r = &game.options().meld;
    let (kind, fit) = match kind {
        Some(k) => (k, rules::fit_kind(k, c, c.len(), r)),
        None => match rules::classify(c, r) {
            Some((k, f)) => (k, Some(f)),
            None => (Kind::Run, None),
        },
    };
    let fit = fit.ok_or_else(|| {
        let tiles: Vec<String> = c.to_vec().into_iter().map(tile_text).collect();
        ST.err(format!(
            "{what}: {} is not a valid {}",
            tiles.join(" "),
            if kind == Kind::Pierna {
                "pierna"
            } else {
                "meld"
            }
        ))
    })?;
    Ok(Meld::build(c, kind, fit, r))
}

/// A muerto status: 0, 1, 2 or its word.
fn status_of(v: &Value, what: &str) -> Result<u8> {
    match v {
        Value::String(s) => match s.as_str() {
            "untaken" => Ok(0),
            "direct" => Ok(1),
            "indirect" => Ok(2),
            _ => Err(ST.err(format!(
                "{what} must be 0, 1, 2 or untaken, direct, indirect; got {}",
                json::shown(v)
            ))),
        },
        _ => Ok(ST.int(v, what, 0, 2)? as u8),
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
    fn add_census(&self, c: &mut [u8; NUM_TYPES]) {
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

fn muertos_of(v: &Value, what: &str, text: bool) -> Result<Vec<Vec<TileType>>> {
    let a = ST.list(v, what)?;
    if a.len() > 2 {
        return Err(ST.err(format!("{what} holds at most 2 muertos, got {}", a.len())));
    }
    a.iter()
        .enumerate()
        .map(|(i, m)| tile_list(m, &format!("{what}[{i}]"), text))
        .collect()
}

const STATE_KEYS: &[&str] = &[
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

/// `state_from_json` (docs/burako_engine.md §10): every field checked, and the position must be
/// one play can reach.
pub(super) fn state_from_json(game: &BurakoGame, text: &str) -> Result<BurakoState> {
    let m = json::state_object(text, "burako", STATE_KEYS, game.options_json())?;
    let n = game.num_players();
    let mut s = game.blank(0);
    s.rng = SplitMix64::new(ST.u64_text(&m["rng"], "rng")?);
    s.hand = ST.int(&m["hand"], "hand", 1, 1_000_000_000)? as u32;
    for (i, h) in ST
        .list(&m["hand_scores"], "hand_scores")?
        .iter()
        .enumerate()
    {
        let a = ST.list_of(h, &format!("hand_scores[{i}]"), 2)?;
        s.hand_scores.push([
            ST.int(&a[0], "hand_scores entry", -MAX_SCORE, MAX_SCORE)?,
            ST.int(&a[1], "hand_scores entry", -MAX_SCORE, MAX_SCORE)?,
        ]);
    }
    let tt = ST.list_of(&m["totals"], "totals", 2)?;
    if s.hand_scores.len() + 1
        != s.hand as usize + m["terminal"].as_bool().unwrap_or(false) as usize
    {
        return Err(ST.err(format!(
            "hand_scores must hold one entry per finished hand: {} for hand {}",
            s.hand_scores.len(),
            s.hand
        )));
    }
    s.totals = [
        ST.int(&tt[0], "totals[0]", -MAX_SCORE, MAX_SCORE)?,
        ST.int(&tt[1], "totals[1]", -MAX_SCORE, MAX_SCORE)?,
    ];
    for x in ST.list(&m["history"], "history")? {
        s.history
            .push(ST.int(x, "history entry", 0, NUM_ACTIONS as i64 - 1)? as u16);
    }
    s.terminal = ST.bool(&m["terminal"], "terminal")?;
    s.winner = ST.int(&m["winner"], "winner", -1, 1)? as i8;
    s.mano = ST.int(&m["mano"], "mano", 0, n as i64 - 1)? as u8;
    let tm = ST.int(&m["to_move"], "to_move", -1, n as i64 - 1)?;
    if (tm < 0) != s.terminal {
        return Err(ST.err("to_move must be -1 exactly when terminal".into()));
    }
    if !s.terminal && s.winner >= 0 {
        return Err(ST.err("a state that is not terminal has no winner".into()));
    }
    common(game, &mut s, &m, tm.max(0) as usize, false)?;
    let stock = tile_list(&m["stock"], "stock", false)?;
    s.set_stock_top_first(&stock);
    let muertos = muertos_of(&m["muertos"], "muertos", false)?;
    let taken = s.muerto_status.iter().filter(|&&st| st != 0).count();
    if muertos.len() > 2 - taken {
        return Err(ST.err("muertos must list at most the muertos not yet taken".into()));
    }
    s.set_muertos(&muertos);
    if s.terminal && s.buffer_len > 0 {
        return Err(ST.err("a terminal state has an empty buffer".into()));
    }
    tail(game, &mut s, &m)?;
    finish(&mut s)?;
    Ok(s)
}

/// The parts shared by JSON and setup: racks, melds, pozo, phase, buffer, muerto status, the
/// cancel and turn counters. `text`: tiles may be given as text, melds as bare tile lists.
fn common(
    game: &BurakoGame,
    s: &mut BurakoState,
    m: &Map<String, Value>,
    to_move: usize,
    text: bool,
) -> Result<()> {
    let n = game.num_players();
    let o = game.options();
    s.to_move = to_move as u8;
    s.phase = match ST.word(&m["phase"], "phase", &["draw", "meld"])? {
        0 => PHASE_DRAW,
        _ => PHASE_MELD,
    };
    for (p, r) in ST.list_of(&m["racks"], "racks", n)?.iter().enumerate() {
        let c = ST.tile_counts(r, &format!("racks[{p}]"), text, !text)?;
        s.racks[p] = c;
        s.rack_len[p] = c.len() as u8;
    }
    s.set_buffer(ST.tile_counts(&m["buffer"], "buffer", text, !text)?);
    if s.buffer_len > 0 && s.phase != PHASE_MELD {
        return Err(ST.err("a pending buffer exists only in the meld phase".into()));
    }
    for (t, tl) in ST.list_of(&m["melds"], "melds", 2)?.iter().enumerate() {
        let list = ST.list(tl, &format!("melds[{t}]"))?;
        if list.len() > M_MAX {
            return Err(ST.err(format!("melds[{t}] holds more than {M_MAX} melds")));
        }
        for (k, md) in list.iter().enumerate() {
            let what = format!("melds[{t}][{k}]");
            s.melds[t][k] = if text {
                build_meld(ST.tile_counts(md, &what, true, false)?, None, game, &what)?
            } else {
                let keys = &["kind", "tiles"];
                let obj = ST.object_with(md, &what, keys, keys)?;
                let kind =
                    match ST.word(&obj["kind"], &format!("{what}.kind"), &["run", "pierna"])? {
                        0 => Kind::Run,
                        _ => Kind::Pierna,
                    };
                let c = ST.tile_counts(&obj["tiles"], &what, false, true)?;
                build_meld(c, Some(kind), game, &what)?
            };
        }
        s.n_melds[t] = list.len() as u8;
        s.recount(t);
    }
    s.set_pozo(&tile_list(&m["pozo"], "pozo", text)?);
    let ms = ST.list_of(&m["muerto_status"], "muerto_status", 2)?;
    for (status, v) in s.muerto_status.iter_mut().zip(ms) {
        *status = status_of(v, "muerto_status entry")?;
    }
    s.cancels = ST.int(&m["cancels"], "cancels", 0, o.max_cancels as i64)? as u32;
    if s.phase == PHASE_DRAW && s.cancels != 0 {
        return Err(ST.err("cancels must be 0 in the draw phase".into()));
    }
    if s.cancels >= o.max_cancels && s.buffer_len > 0 {
        return Err(ST.err("no buffer can exist once the cancel cap is reached".into()));
    }
    s.turns = ST.int(&m["turns"], "turns", 0, 1_000_000_000)? as u32;
    if !s.terminal && s.turns >= o.max_turns {
        return Err(ST.err(format!("turns must be below max_turns={}", o.max_turns)));
    }
    Ok(())
}

/// The turn's flags and the unplayed indirect muertos (state JSON only).
fn tail(game: &BurakoGame, s: &mut BurakoState, m: &Map<String, Value>) -> Result<()> {
    let n = game.num_players();
    s.drawn = ST.int(&m["drawn"], "drawn", -1, 52)? as i8;
    s.must_use = ST.int(&m["must_use"], "must_use", -1, 52)? as i8;
    s.no_discard = ST.int(&m["no_discard"], "no_discard", -1, 52)? as i8;
    let p = s.to_move as usize;
    if s.drawn >= 0
        && (s.phase != PHASE_MELD || s.turns != 0 || !s.racks[p].contains(s.drawn as u8))
    {
        return Err(ST.err(
            "drawn must be -1 unless the first-turn drawn tile is in the mover's rack in the meld phase"
                .into(),
        ));
    }
    if (s.must_use >= 0 || s.no_discard >= 0) && s.phase != PHASE_MELD {
        return Err(ST.err("must_use and no_discard are set only in the meld phase".into()));
    }
    let mu = ST.list_of(&m["muerto_unplayed"], "muerto_unplayed", 2)?;
    for (t, v) in mu.iter().enumerate() {
        let x = ST.int(v, "muerto_unplayed entry", -1, n as i64 - 1)?;
        if x >= 0 && (team(x as usize) != t || s.muerto_status[t] != 2) {
            return Err(ST.err(format!(
                "muerto_unplayed[{t}] must be -1 or a seat of team {t} that took its muerto indirectly"
            )));
        }
        s.muerto_unplayed[t] = x as i8;
    }
    Ok(())
}

/// The checks of a whole position: the 106 tiles, and a mover who can act.
fn finish(s: &mut BurakoState) -> Result<()> {
    let mut c = [0u8; NUM_TYPES];
    s.add_census(&mut c);
    check_census(&c)?;
    if !s.terminal && s.phase == PHASE_DRAW && s.stock_len == 0 && s.pozo_len == 0 {
        return Err(ST.err("the mover must be able to draw: stock and pozo are both empty".into()));
    }
    if !s.terminal && s.phase == PHASE_MELD && s.legal_actions().is_empty() {
        return Err(ST.err("the mover would have no legal action in this position".into()));
    }
    Ok(())
}

/// `setup` (docs/burako_engine.md §12).
pub(super) fn setup(game: &BurakoGame, spec: &Value) -> Result<BurakoState> {
    const KEYS: &[&str] = &[
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
    let n = game.num_players();
    let get = ST.setup_spec(spec, KEYS)?;
    let seed = match get("seed") {
        Some(v) => v.as_u64().ok_or_else(|| {
            ST.err(format!(
                "seed must be an int in 0..2**64-1, got {}",
                json::shown(v)
            ))
        })?,
        None => 0,
    };
    let mut s = game.blank(seed);
    let to_move = match get("to_move") {
        Some(v) => ST.int(v, "to_move", 0, n as i64 - 1)? as usize,
        None => 0,
    };
    s.mano = match get("mano") {
        Some(v) => ST.int(v, "mano", 0, n as i64 - 1)? as u8,
        None => to_move as u8,
    };
    s.hand = match get("hand") {
        Some(v) => ST.int(v, "hand", 1, game.options().max_hands as i64)? as u32,
        None => 1,
    };
    s.hand_scores = vec![[0, 0]; s.hand as usize - 1];
    if let Some(v) = get("totals") {
        let a = ST.list_of(v, "totals", 2)?;
        s.totals = [
            ST.int(&a[0], "totals[0]", -MAX_SCORE, MAX_SCORE)?,
            ST.int(&a[1], "totals[1]", -MAX_SCORE, MAX_SCORE)?,
        ];
    }
    // normalised into the JSON-like map `common` reads
    let mut mm = Map::new();
    let racks =
        get("racks").ok_or_else(|| ST.err("setup needs racks (one tile list per seat)".into()))?;
    mm.insert("racks".into(), racks.clone());
    let or = |k: &str, default: Value| get(k).cloned().unwrap_or(default);
    mm.insert("buffer".into(), or("buffer", json!([])));
    mm.insert("melds".into(), or("melds", json!([[], []])));
    mm.insert("pozo".into(), or("pozo", json!([])));
    mm.insert("muerto_status".into(), or("muerto_status", json!([0, 0])));
    mm.insert("phase".into(), or("phase", json!("draw")));
    mm.insert("cancels".into(), or("cancels", json!(0)));
    mm.insert("turns".into(), or("turns", json!(1)));
    common(game, &mut s, &mm, to_move, true)?;
    // the census of what is listed so far
    let mut listed = s.tile_census();
    let over = |c: TileCounts| (0..NUM_TYPES as u8).find(|&t| c.get(t) > 2);
    let stock = match get("stock") {
        Some(v) => Some(tile_list(v, "stock", true)?),
        None => None,
    };
    let muertos = match get("muertos") {
        Some(v) => Some(muertos_of(v, "muertos", true)?),
        None => None,
    };
    for l in stock.iter().chain(muertos.iter().flatten()) {
        for &t in l {
            listed.add(t);
        }
    }
    if let Some(t) = over(listed) {
        return Err(ST.err(format!("tile {} is listed more than twice", tile_text(t))));
    }
    let mut left: Vec<TileType> = TileCounts(TileCounts::FULL.0 - listed.0).to_vec();
    let muertos = match muertos {
        Some(ms) => ms,
        None => {
            let k = s.muerto_status.iter().filter(|&&x| x == 0).count().min(2);
            let size = game.options().muerto_size;
            let mut ms = Vec::new();
            for _ in 0..k {
                if left.len() < size {
                    return Err(ST.err(format!(
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
                        return Err(ST.err(format!(
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
        Some(given) => {
            if !left.is_empty() {
                return Err(ST.err(format!(
                    "{} tiles are not placed: list all 106 when both stock and muertos are given",
                    left.len()
                )));
            }
            given
        }
        None => std::mem::take(&mut left),
    };
    s.set_stock_top_first(&stock);
    s.set_muertos(&muertos);
    finish(&mut s)?;
    Ok(s)
}
