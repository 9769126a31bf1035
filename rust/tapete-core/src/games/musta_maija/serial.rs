//! Canonical state JSON, views, `setup` and `state_from_json` (contract §6–§8).

use std::fmt::Write as _;

use serde_json::{json, Map, Value};

use super::options::TrumpReveal;
use super::rules::{can_beat, MAIJA};
use super::{MustaMaijaGame, MustaMaijaState, Phase, MAX_PAIRS, MAX_SEATS};
use crate::cards::{Card, CardSet};
use crate::error::GameError;
use crate::rng::SplitMix64;

type Result<T> = std::result::Result<T, GameError>;

fn st(msg: String) -> GameError {
    GameError::InvalidState(msg)
}

const ALL: u64 = (1u64 << 52) - 1;

// ----- writing -----

fn push_ints<T: std::fmt::Display>(s: &mut String, xs: impl IntoIterator<Item = T>) {
    s.push('[');
    for (i, x) in xs.into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "{x}");
    }
    s.push(']');
}

fn push_sets(s: &mut String, sets: &[CardSet]) {
    s.push('[');
    for (i, set) in sets.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_ints(s, set.iter().map(|c| c.0));
    }
    s.push(']');
}

/// Canonical JSON: keys sorted, compact (Python's `json.dumps(sort_keys=True, separators=(",", ":"))`).
pub(super) fn to_json(x: &MustaMaijaState) -> String {
    let n = x.n();
    let mut s = String::with_capacity(1200 + x.history.len() * 3);
    s.push_str("{\"attack\":");
    push_ints(&mut s, x.attack.iter().map(|c| c.0));
    let _ = write!(
        s,
        ",\"attacker\":{},\"attacks\":{},\"beaten\":[",
        x.attacker, x.attacks
    );
    for (i, [t, c]) in x.beaten_pairs().iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "[{t},{c}]");
    }
    let _ = write!(
        s,
        "],\"dealer\":{},\"defender\":{},\"game\":\"musta_maija\",\"hand\":{},\"hands\":",
        x.dealer, x.defender, x.hand_no
    );
    push_sets(&mut s, &x.hands[..n]);
    s.push_str(",\"history\":");
    push_ints(&mut s, x.history.iter());
    s.push_str(",\"known\":");
    push_sets(&mut s, &x.known[..n]);
    s.push_str(",\"left\":");
    push_ints(&mut s, x.left.iter().map(|c| c.0));
    s.push_str(",\"losses\":");
    push_ints(&mut s, x.losses[..n].iter());
    let _ = write!(s, ",\"options\":{},\"out_of_play\":", x.cfg.json);
    push_ints(&mut s, x.out_of_play.iter().map(|c| c.0));
    let _ = write!(
        s,
        ",\"phase\":\"{}\",\"rng\":\"{}\",\"stock\":",
        x.phase.as_str(),
        x.rng.state
    );
    push_ints(&mut s, x.stock[..x.stock_len as usize].iter().rev());
    let to_move = x.current_player().map_or(-1, |p| p as i64);
    let _ = write!(
        s,
        ",\"terminal\":{},\"to_move\":{},\"trump\":{},\"turned\":",
        x.is_terminal(),
        to_move,
        x.trump
    );
    push_ints(&mut s, x.turned.iter().map(|c| c.0));
    s.push_str(",\"version\":1}");
    s
}

fn texts(set: CardSet) -> Value {
    Value::Array(set.iter().map(|c| Value::String(c.to_string())).collect())
}

/// View of seat `p` (contract §8).
pub(super) fn view_json(x: &MustaMaijaState, p: usize) -> String {
    let n = x.n();
    let cp = x.current_player().map_or(-1, |s| s as i64);
    let v = json!({
        "player": p,
        "current_player": cp,
        "phase": x.phase.as_str(),
        "hand_number": x.hand_no,
        "dealer": x.dealer,
        "attacker": x.attacker,
        "defender": x.defender,
        "hand": texts(x.hands[p]),
        "hand_sizes": (0..n).map(|s| x.hands[s].len()).collect::<Vec<_>>(),
        "known": (0..n).map(|s| texts(x.known[s])).collect::<Vec<_>>(),
        "out": (0..n).map(|s| !x.active(s)).collect::<Vec<_>>(),
        "stock_size": x.stock_len,
        "trump": x.trump_suit().map(|t| ["c", "d", "h", "s"][t as usize]),
        "trump_card": x.trump_card().map(|c| c.to_string()),
        "trump_in_stock": x.trump_in_stock(),
        "turned": texts(x.turned),
        "out_of_play": texts(x.out_of_play),
        "attack": texts(x.attack),
        "beaten": x.beaten_pairs().iter().map(|[t, c]| vec![Card(*t).to_string(), Card(*c).to_string()]).collect::<Vec<_>>(),
        "left": texts(x.left),
        "target": x.target().map(|c| c.to_string()),
        "attacks": x.attacks,
        "losses": x.losses(),
        "terminal": x.is_terminal(),
        "losers": x.losers(),
    });
    v.to_string()
}

// ----- reading -----

fn int_in(v: &Value, what: &str, lo: i64, hi: i64) -> Result<i64> {
    match v {
        Value::Number(n) if !n.is_f64() => match n.as_i64() {
            Some(x) if (lo..=hi).contains(&x) => Ok(x),
            _ => Err(st(format!("{what} must be an int in {lo}..{hi}, got {v}"))),
        },
        _ => Err(st(format!("{what} must be an int in {lo}..{hi}, got {v}"))),
    }
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

/// A card: an id 0..51, or (setup only) card text.
fn card_of(v: &Value, what: &str, allow_text: bool) -> Result<Card> {
    match v {
        Value::String(s) if allow_text => Card::parse(s).map_err(|e| st(format!("{what}: {e}"))),
        Value::Number(_) => Ok(Card(int_in(v, what, 0, 51)? as u8)),
        _ => Err(st(format!(
            "{what}: {v} is not a card: expected {}",
            if allow_text {
                "text like '7h' or an id 0..51"
            } else {
                "an id 0..51"
            }
        ))),
    }
}

fn card_list(v: &Value, what: &str, allow_text: bool) -> Result<Vec<Card>> {
    array(v, what)?
        .iter()
        .map(|c| card_of(c, what, allow_text))
        .collect()
}

/// A list of distinct cards (ascending when `ascending`).
fn card_set(v: &Value, what: &str, allow_text: bool, ascending: bool) -> Result<CardSet> {
    let cards = card_list(v, what, allow_text)?;
    let mut set = CardSet::EMPTY;
    for (i, c) in cards.iter().enumerate() {
        if set.contains(*c) {
            return Err(st(format!("{what}: card {c} appears twice")));
        }
        if ascending && i > 0 && cards[i - 1] > *c {
            return Err(st(format!("{what} must be in ascending id order")));
        }
        set.insert(*c);
    }
    Ok(set)
}

fn claim(seen: &mut CardSet, set: CardSet, what: &str) -> Result<()> {
    if !seen.inter(set).is_empty() {
        return Err(st(format!(
            "{what}: card {} is also elsewhere",
            seen.inter(set)
                .first()
                .map(|c| c.to_string())
                .unwrap_or_default()
        )));
    }
    *seen = seen.union(set);
    Ok(())
}

/// A deck given to `new_state`: the 52 cards once each, top first.
pub(super) fn check_deck(deck: &[Card]) -> Result<[u8; 52]> {
    if deck.len() != 52 {
        return Err(st(format!(
            "deck must hold the 52 cards, got {} cards",
            deck.len()
        )));
    }
    let mut out = [0u8; 52];
    let mut seen = CardSet::EMPTY;
    for (i, c) in deck.iter().enumerate() {
        if seen.contains(*c) {
            return Err(st(format!("deck: card {c} appears twice")));
        }
        seen.insert(*c);
        out[i] = c.0;
    }
    Ok(out)
}

fn rng_of(v: &Value) -> Result<u64> {
    match v {
        Value::String(s)
            if !s.is_empty()
                && s.bytes().all(|b| b.is_ascii_digit())
                && (s == "0" || !s.starts_with('0')) =>
        {
            s.parse::<u64>()
                .map_err(|_| st(format!("rng {s:?} does not fit in 64 bits")))
        }
        _ => Err(st(format!(
            "rng must be a decimal string of a u64, got {v}"
        ))),
    }
}

fn set_stock(x: &mut MustaMaijaState, top_first: &[Card]) {
    x.stock_len = top_first.len() as u8;
    for (i, c) in top_first.iter().rev().enumerate() {
        x.stock[i] = c.0;
    }
}

/// `setup` (contract §7).
pub(super) fn setup(game: &MustaMaijaGame, spec: &Value) -> Result<MustaMaijaState> {
    let Value::Object(m) = spec else {
        return Err(st("setup spec must be a JSON object".into()));
    };
    const KEYS: &[&str] = &[
        "hands",
        "stock",
        "trump",
        "out_of_play",
        "attacker",
        "dealer",
        "known",
        "losses",
        "attacks",
        "seed",
    ];
    for k in m.keys() {
        if !KEYS.contains(&k.as_str()) {
            return Err(st(format!(
                "unknown setup argument {k:?}: expected {}",
                KEYS.join(", ")
            )));
        }
    }
    let get = |k: &str| m.get(k).filter(|v| !v.is_null());
    let n = game.num_players();
    let o = game.options();
    let mut x = game.blank(0);
    let hands_v = array_len(
        get("hands").ok_or_else(|| st("setup needs hands".into()))?,
        "hands",
        n,
    )?;
    let mut seen = CardSet::EMPTY;
    for (s, h) in hands_v.iter().enumerate() {
        let set = card_set(h, &format!("hands[{s}]"), true, false)?;
        claim(&mut seen, set, &format!("hands[{s}]"))?;
        x.hands[s] = set;
    }
    let stock = match get("stock") {
        Some(v) => card_list(v, "stock", true)?,
        None => Vec::new(),
    };
    let mut stock_set = CardSet::EMPTY;
    for c in &stock {
        if stock_set.contains(*c) {
            return Err(st(format!("stock: card {c} appears twice")));
        }
        stock_set.insert(*c);
    }
    claim(&mut seen, stock_set, "stock")?;
    set_stock(&mut x, &stock);
    let oop = match get("out_of_play") {
        Some(v) => {
            let set = card_set(v, "out_of_play", true, false)?;
            claim(&mut seen, set, "out_of_play")?;
            if seen.0 != ALL {
                return Err(st(format!(
                    "hands, stock and out_of_play must hold the 52 cards; missing {}",
                    CardSet(ALL & !seen.0)
                )));
            }
            set
        }
        None => CardSet(ALL & !seen.0),
    };
    if oop.contains(MAIJA) {
        return Err(st("Qs (Maija) can never be out of play".into()));
    }
    x.out_of_play = oop;
    let trump = match get("trump") {
        Some(v) => Some(card_of(v, "trump", true)?),
        None => None,
    };
    let trump = match (stock.last(), trump) {
        (Some(&last), None) => last,
        (Some(&last), Some(t)) if t == last => t,
        (Some(&last), Some(t)) => {
            return Err(st(format!(
                "trump {t} must be the last stock card ({last}) while the stock is not empty"
            )))
        }
        (None, Some(t)) => t,
        (None, None) => return Err(st("with an empty stock the trump card must be given".into())),
    };
    x.trump = trump.0 as i8;
    if !stock.is_empty() && (0..n).any(|s| x.hands[s].is_empty()) {
        return Err(st(
            "every seat holds cards while the stock is not empty".into()
        ));
    }
    let seat = |k: &str, def: i64| -> Result<usize> {
        match get(k) {
            Some(v) => Ok(int_in(v, k, 0, n as i64 - 1)? as usize),
            None => Ok(def as usize),
        }
    };
    let a = seat("attacker", 0)?;
    x.dealer = seat("dealer", ((a + n - 1) % n) as i64)? as u8;
    if x.hands[a].is_empty() {
        return Err(st(format!("the attacker (seat {a}) must hold cards")));
    }
    x.start_attack(a);
    let d = x.defender as usize;
    if d == a || x.hands[d].is_empty() {
        return Err(st("the hand is over: no other seat holds cards".into()));
    }
    if let Some(v) = get("known") {
        for (s, k) in array_len(v, "known", n)?.iter().enumerate() {
            let set = card_set(k, &format!("known[{s}]"), true, false)?;
            if !set.is_subset(x.hands[s]) {
                return Err(st(format!("known[{s}] must be cards of hands[{s}]")));
            }
            x.known[s] = set;
        }
    }
    if let Some(v) = get("losses") {
        for (s, l) in array_len(v, "losses", n)?.iter().enumerate() {
            x.losses[s] = int_in(l, &format!("losses[{s}]"), 0, 1_000_000_000)? as u32;
        }
    }
    let total: u64 = x.losses[..n].iter().map(|&l| l as u64).sum();
    let ended = match o.match_mode {
        super::MatchMode::SingleHand => total > 0,
        super::MatchMode::FirstToLosses => x.losses[..n].iter().any(|&l| l >= o.match_losses),
        super::MatchMode::FixedHands => total >= o.match_hands as u64,
    };
    if ended {
        return Err(st("losses already end the match".into()));
    }
    x.hand_no = total as u32 + 1;
    let max_a = o.max_attacks.map_or(1_000_000_000, |m| m as i64 - 1);
    x.attacks = match get("attacks") {
        Some(v) => int_in(v, "attacks", 0, max_a)? as u32,
        None => 0,
    };
    let seed = match get("seed") {
        Some(Value::Number(num)) if !num.is_f64() => num
            .as_u64()
            .ok_or_else(|| st(format!("seed must be an int in 0..2**64-1, got {num}")))?,
        Some(v) => return Err(st(format!("seed must be an int in 0..2**64-1, got {v}"))),
        None => 0,
    };
    x.rng = SplitMix64::new(seed);
    Ok(x)
}

pub(super) fn state_from_json(game: &MustaMaijaGame, text: &str) -> Result<MustaMaijaState> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| st(format!("state is not valid JSON: {e}")))?;
    let Value::Object(m) = &v else {
        return Err(st("state JSON must be an object".into()));
    };
    read_state(game, m)
}

const STATE_KEYS: &[&str] = &[
    "attack",
    "attacker",
    "attacks",
    "beaten",
    "dealer",
    "defender",
    "game",
    "hand",
    "hands",
    "history",
    "known",
    "left",
    "losses",
    "options",
    "out_of_play",
    "phase",
    "rng",
    "stock",
    "terminal",
    "to_move",
    "trump",
    "turned",
    "version",
];

fn read_state(game: &MustaMaijaGame, m: &Map<String, Value>) -> Result<MustaMaijaState> {
    for k in m.keys() {
        if !STATE_KEYS.contains(&k.as_str()) {
            return Err(st(format!("unknown state key {k:?}")));
        }
    }
    for k in STATE_KEYS {
        if !m.contains_key(*k) {
            return Err(st(format!("state JSON lacks the key {k:?}")));
        }
    }
    let n = game.num_players();
    let o = game.options();
    if m["version"] != json!(1) {
        return Err(st(format!("version must be 1, got {}", m["version"])));
    }
    if m["game"] != json!("musta_maija") {
        return Err(st(format!(
            "game must be \"musta_maija\", got {}",
            m["game"]
        )));
    }
    if m["options"] != o.to_value() {
        return Err(st(
            "the state's options differ from this game's options".into()
        ));
    }
    let mut x = game.blank(0);
    x.rng = SplitMix64::new(rng_of(&m["rng"])?);
    let mut seen = CardSet::EMPTY;
    for (s, h) in array_len(&m["hands"], "hands", n)?.iter().enumerate() {
        x.hands[s] = card_set(h, &format!("hands[{s}]"), false, true)?;
        claim(&mut seen, x.hands[s], &format!("hands[{s}]"))?;
    }
    for (s, k) in array_len(&m["known"], "known", n)?.iter().enumerate() {
        x.known[s] = card_set(k, &format!("known[{s}]"), false, true)?;
        if !x.known[s].is_subset(x.hands[s]) {
            return Err(st(format!("known[{s}] must be cards of hands[{s}]")));
        }
    }
    let stock = card_list(&m["stock"], "stock", false)?;
    let stock_set: CardSet = stock.iter().copied().collect();
    if stock_set.len() as usize != stock.len() {
        return Err(st("stock: a card appears twice".into()));
    }
    claim(&mut seen, stock_set, "stock")?;
    set_stock(&mut x, &stock);
    x.attack = card_set(&m["attack"], "attack", false, true)?;
    claim(&mut seen, x.attack, "attack")?;
    x.out_of_play = card_set(&m["out_of_play"], "out_of_play", false, true)?;
    claim(&mut seen, x.out_of_play, "out_of_play")?;
    if x.out_of_play.contains(MAIJA) {
        return Err(st("Qs (Maija) can never be out of play".into()));
    }
    x.trump = int_in(&m["trump"], "trump", -1, 51)? as i8;
    x.turned = card_set(&m["turned"], "turned", false, true)?;
    let pairs = array(&m["beaten"], "beaten")?;
    if pairs.len() > MAX_PAIRS {
        return Err(st("beaten has too many pairs".into()));
    }
    for (i, p) in pairs.iter().enumerate() {
        let pc = array_len(p, "a beaten pair", 2)?;
        let t = card_of(&pc[0], "beaten target", false)?;
        let c = card_of(&pc[1], "beaten card", false)?;
        if !x.attack.contains(t) || x.beaten_t.contains(t) {
            return Err(st(format!(
                "beaten target {t} must be an attack card, once"
            )));
        }
        if i > 0 && x.pairs[i - 1][0] > t.0 {
            return Err(st("beaten pairs must be in ascending target order".into()));
        }
        if !can_beat(t, c, x.trump_suit()) {
            return Err(st(format!("{c} cannot beat {t}")));
        }
        claim(&mut seen, CardSet::single(c), "beaten")?;
        x.pairs[i] = [t.0, c.0];
        x.beaten_t.insert(t);
        x.beaten_c.insert(c);
    }
    x.n_pairs = pairs.len() as u8;
    x.left = card_set(&m["left"], "left", false, true)?;
    if !x.left.is_subset(x.attack) || !x.left.inter(x.beaten_t).is_empty() {
        return Err(st("left must be attack cards that were not beaten".into()));
    }
    if seen.0 != ALL {
        return Err(st(format!(
            "the 52 cards must each be in exactly one place; missing {}",
            CardSet(ALL & !seen.0)
        )));
    }
    x.phase = match m["phase"].as_str() {
        Some("attack") => Phase::Attack,
        Some("defend") => Phase::Defend,
        Some("end") => Phase::End,
        _ => {
            return Err(st(format!(
                "phase must be attack, defend or end, got {}",
                m["phase"]
            )))
        }
    };
    let terminal = m["terminal"]
        .as_bool()
        .ok_or_else(|| st("terminal must be a bool".into()))?;
    if terminal != (x.phase == Phase::End) {
        return Err(st("terminal must be true exactly in the end phase".into()));
    }
    x.dealer = int_in(&m["dealer"], "dealer", 0, n as i64 - 1)? as u8;
    x.attacks = int_in(
        &m["attacks"],
        "attacks",
        0,
        o.max_attacks.map_or(1_000_000_000, |a| a as i64),
    )? as u32;
    x.hand_no = int_in(&m["hand"], "hand", 1, 2_000_000_000)? as u32;
    for (s, l) in array_len(&m["losses"], "losses", n)?.iter().enumerate() {
        x.losses[s] = int_in(l, &format!("losses[{s}]"), 0, 1_000_000_000)? as u32;
    }
    let total: u64 = x.losses[..n].iter().map(|&l| l as u64).sum();
    if x.hand_no as u64 != total + if terminal { 0 } else { 1 } {
        return Err(st(
            "hand must be the number of hands lost so far plus one (plus none at the end)".into(),
        ));
    }
    for h in array(&m["history"], "history")? {
        x.history.push(int_in(h, "history", 0, 53)? as u8);
    }
    if x.trump < 0 {
        if o.trump_reveal != TrumpReveal::AfterFirstLead
            || x.phase != Phase::Attack
            || x.attacks != 0
            || !x.turned.is_empty()
        {
            return Err(st(
                "the trump card is turned except before the first commit with after_first_lead"
                    .into(),
            ));
        }
    } else if x.stock_len > 0
        && stock.iter().any(|&c| c.0 as i8 == x.trump)
        && stock.last().map(|c| c.0 as i8) != Some(x.trump)
    {
        return Err(st("the trump card lies at the bottom of the stock".into()));
    }
    let to_move = int_in(&m["to_move"], "to_move", -1, n as i64 - 1)?;
    let attacker = int_in(&m["attacker"], "attacker", -1, n as i64 - 1)?;
    let defender = int_in(&m["defender"], "defender", -1, n as i64 - 1)?;
    let nonholders_ok = |skip: &[i64]| {
        x.stock_len == 0 || (0..n).all(|s| skip.contains(&(s as i64)) || !x.hands[s].is_empty())
    };
    match x.phase {
        Phase::End => {
            if attacker != -1 || defender != -1 || to_move != -1 {
                return Err(st(
                    "a terminal state has attacker, defender and to_move -1".into()
                ));
            }
            if !x.attack.is_empty() {
                return Err(st("a terminal state has an empty table".into()));
            }
            x.attacker = -1;
            x.defender = -1;
        }
        _ => {
            if attacker < 0 {
                return Err(st("attacker must be a seat".into()));
            }
            x.attacker = attacker as i8;
            // in a defence the defender may have played his last card: only the seats between
            // attacker and defender (unchanged since the attack began) must be out
            let next = x.next_active(attacker as usize) as i64;
            let between_out = defender >= 0
                && defender != attacker
                && (1..n as i64)
                    .map(|k| (attacker + k) % n as i64)
                    .take_while(|&s| s != defender)
                    .all(|s| !x.active(s as usize));
            let ok = match x.phase {
                Phase::Attack => defender == next && next != attacker,
                _ => between_out,
            };
            if !ok {
                return Err(st(
                    "defender must be the next active seat after the attacker".into(),
                ));
            }
            x.defender = defender as i8;
            let mover = if x.phase == Phase::Attack {
                attacker
            } else {
                defender
            };
            if to_move != mover {
                return Err(st(
                    "to_move must be the attacker in attack, the defender in defend".into(),
                ));
            }
            if x.phase == Phase::Attack {
                if x.n_pairs > 0 || !x.left.is_empty() {
                    return Err(st("no target is decided in the attack phase".into()));
                }
                if x.hands[defender as usize].is_empty() {
                    return Err(st("the defender must hold cards".into()));
                }
                if x.attack.is_empty() && x.hands[attacker as usize].is_empty() {
                    return Err(st("the attacker must hold cards".into()));
                }
                let cap = o.attack_cap(x.hands[defender as usize].len());
                let suits = (0..4)
                    .filter(|&s| x.attack.0 & super::rules::suit_mask(s) != 0)
                    .count();
                if x.attack.len() > cap || suits > 1 {
                    return Err(st("the attack being built is not a legal attack".into()));
                }
                if !nonholders_ok(&[attacker]) {
                    return Err(st(
                        "every seat but the attacker holds cards while the stock is not empty"
                            .into(),
                    ));
                }
            } else {
                let und = x.undecided();
                if und.is_empty() {
                    return Err(st("a defence has an undecided target".into()));
                }
                let decided = x.beaten_t.union(x.left);
                if decided
                    .last()
                    .is_some_and(|l| und.first().is_some_and(|f| l > f))
                {
                    return Err(st("targets are decided in ascending order".into()));
                }
                if !nonholders_ok(&[attacker, defender]) {
                    return Err(st(
                        "every seat holds cards while the stock is not empty".into()
                    ));
                }
            }
        }
    }
    if n > MAX_SEATS {
        return Err(st("too many seats".into()));
    }
    Ok(x)
}
