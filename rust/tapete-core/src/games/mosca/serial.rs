//! Canonical state JSON, views, `setup` and `state_from_json` (docs/mosca_engine.md §8–§10).

use std::fmt::Write as _;

use serde_json::Value;

use super::{Config, MoscaGame, MoscaState, Phase, MAX_CHIPS, MAX_SEATS};
use crate::cards::{Card, CardSet, SUIT_CHARS};
use crate::error::GameError;

type Result<T> = std::result::Result<T, GameError>;

fn st(msg: String) -> GameError {
    GameError::InvalidState(msg)
}

// ----- writing -----

fn push_ids(s: &mut String, set: CardSet) {
    push_ints(s, set.iter().map(|c| c.0));
}

fn push_texts(s: &mut String, cards: impl IntoIterator<Item = Card>) {
    s.push('[');
    for (i, c) in cards.into_iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{c}\"");
    }
    s.push(']');
}

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
    for (i, h) in sets.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_ids(s, *h);
    }
    s.push(']');
}

/// Canonical JSON: keys sorted, compact (the bytes of Python's
/// `json.dumps(obj, sort_keys=True, separators=(",", ":"))`).
pub(super) fn to_json(x: &MoscaState) -> String {
    let n = x.cfg.n;
    let mut s = String::with_capacity(1200 + x.history.len() * 3);
    s.push_str("{\"balances\":");
    push_ints(&mut s, x.balances[..n].iter());
    let _ = write!(
        s,
        ",\"dealer\":{},\"deals_played\":{},\"declarations\":",
        x.dealer, x.deals_played
    );
    push_ints(&mut s, x.declarations[..n].iter());
    s.push_str(",\"discard_pile\":");
    push_ids(&mut s, x.discard_pile);
    s.push_str(",\"discarded\":");
    push_sets(&mut s, &x.discarded[..n]);
    s.push_str(",\"eliminated\":");
    push_ints(&mut s, x.eliminated[..n].iter());
    s.push_str(",\"exchanged\":");
    push_ints(&mut s, x.exchanged[..n].iter());
    s.push_str(",\"game\":\"mosca\",\"hands\":");
    push_sets(&mut s, &x.hands[..n]);
    s.push_str(",\"history\":");
    push_ints(&mut s, x.history.iter());
    let _ = write!(
        s,
        ",\"leader\":{},\"options\":{},\"phase\":\"{}\",\"played\":",
        x.leader,
        x.cfg.json,
        x.phase.as_str()
    );
    push_ids(&mut s, x.played);
    let _ = write!(
        s,
        ",\"pot\":{},\"rng\":\"{}\",\"talon\":",
        x.pot, x.rng.state
    );
    push_ints(&mut s, x.talon().iter());
    let _ = write!(
        s,
        ",\"terminal\":{},\"to_move\":{},\"trick\":",
        x.is_terminal(),
        x.to_move
    );
    push_ints(&mut s, x.trick[..x.trick_len as usize].iter());
    let _ = write!(s, ",\"trick_number\":{},\"tricks_won\":", x.trick_number);
    push_ints(&mut s, x.tricks_won[..n].iter());
    let _ = write!(
        s,
        ",\"turnup\":{},\"turnup_discard\":{},\"turnup_taken\":{},\"version\":1}}",
        x.turnup, x.turnup_discard, x.turnup_taken
    );
    s
}

/// View of seat `p` (docs/mosca_engine.md §10), keys in the contract's order.
pub(super) fn view_json(x: &MoscaState, p: usize) -> String {
    let n = x.cfg.n;
    let mut s = String::with_capacity(700);
    let cp = if x.is_terminal() {
        -1
    } else {
        x.to_move as i64
    };
    let _ = write!(
        s,
        "{{\"player\":{p},\"current_player\":{cp},\"phase\":\"{}\",\"dealer\":{},\"mano\":{},\"deals_played\":{},\"hand\":",
        x.phase.as_str(),
        x.dealer,
        x.mano(),
        x.deals_played
    );
    push_texts(&mut s, x.hands[p]);
    s.push_str(",\"hand_sizes\":");
    push_ints(&mut s, x.hands[..n].iter().map(|h| h.len()));
    let _ = write!(
        s,
        ",\"turnup\":\"{}\",\"trump\":\"{}\",\"turnup_taken\":{},\"declarations\":[",
        Card(x.turnup),
        SUIT_CHARS[x.trump() as usize] as char,
        x.turnup_taken
    );
    for seat in 0..n {
        if seat > 0 {
            s.push(',');
        }
        s.push_str(match x.declarations[seat] {
            1 => "\"play\"",
            0 => "\"pass\"",
            _ => "null",
        });
    }
    s.push_str("],\"exchanged\":");
    push_ints(&mut s, x.exchanged[..n].iter());
    s.push_str(",\"discards\":");
    push_texts(&mut s, x.discarded[p]);
    let _ = write!(s, ",\"talon_size\":{},\"trick\":", x.talon().len());
    push_texts(
        &mut s,
        x.trick[..x.trick_len as usize].iter().map(|&c| Card(c)),
    );
    s.push_str(",\"trick_seats\":");
    push_ints(&mut s, x.trick_seats[..x.trick_len as usize].iter());
    let _ = write!(
        s,
        ",\"leader\":{},\"trick_number\":{},\"played\":",
        x.leader, x.trick_number
    );
    push_texts(&mut s, x.played);
    s.push_str(",\"tricks_won\":");
    push_ints(&mut s, x.tricks_won[..n].iter());
    let _ = write!(s, ",\"pot\":{},\"balances\":", x.pot);
    push_ints(&mut s, x.balances[..n].iter());
    s.push_str(",\"eliminated\":");
    push_ints(&mut s, x.eliminated[..n].iter());
    let _ = write!(s, ",\"terminal\":{}}}", x.is_terminal());
    s
}

// ----- reading helpers -----

fn int_of(v: &Value, what: &str) -> Result<i64> {
    match v {
        Value::Number(n) if !n.is_f64() => n
            .as_i64()
            .ok_or_else(|| st(format!("{what} is out of range: got {v}"))),
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

fn bool_of(v: &Value, what: &str) -> Result<bool> {
    v.as_bool()
        .ok_or_else(|| st(format!("{what} must be true or false, got {v}")))
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

/// A card given as id (or text when `allow_text`); must be in the deck.
fn card_of(cfg: &Config, v: &Value, what: &str, allow_text: bool) -> Result<Card> {
    let c = match v {
        Value::String(s) if allow_text => Card::parse(s).map_err(|e| st(format!("{what}: {e}")))?,
        Value::Number(_) => {
            let i = int_of(v, what)?;
            Card::from_index(i).ok_or_else(|| {
                st(format!(
                    "{what}: card id {i} is out of range: expected 0..51"
                ))
            })?
        }
        _ => return Err(st(format!("{what}: {v} is not a card"))),
    };
    if !cfg.deck.contains(c) {
        return Err(st(format!(
            "{what}: {c} is not a card of the {}-card deck",
            cfg.opts.deck
        )));
    }
    Ok(c)
}

fn card_list(cfg: &Config, v: &Value, what: &str, allow_text: bool) -> Result<Vec<Card>> {
    array(v, what)?
        .iter()
        .map(|x| card_of(cfg, x, what, allow_text))
        .collect()
}

fn ascending_set(cfg: &Config, v: &Value, what: &str) -> Result<CardSet> {
    let cards = card_list(cfg, v, what, false)?;
    if cards.windows(2).any(|w| w[0] >= w[1]) {
        return Err(st(format!(
            "{what} must be ascending card ids without repeats"
        )));
    }
    Ok(cards.into_iter().collect())
}

fn claim(seen: &mut CardSet, cards: &[Card], what: &str) -> Result<()> {
    for &c in cards {
        if seen.contains(c) {
            return Err(st(format!("card {c} appears more than once ({what})")));
        }
        seen.insert(c);
    }
    Ok(())
}

/// A `deck=` order: a permutation of the deck, top first.
pub(super) fn check_deck(cfg: &Config, deck: &[Card]) -> Result<Vec<u8>> {
    let size = cfg.opts.deck as usize;
    if deck.len() != size {
        return Err(st(format!(
            "deck must list the {size} cards of the deck, got {} cards",
            deck.len()
        )));
    }
    let mut seen = CardSet::EMPTY;
    for &c in deck {
        if !cfg.deck.contains(c) {
            return Err(st(format!(
                "deck: {c} is not a card of the {size}-card deck"
            )));
        }
        claim(&mut seen, &[c], "deck")?;
    }
    Ok(deck.iter().map(|c| c.0).collect())
}

fn seed_of(v: &Value) -> Result<u64> {
    match v {
        Value::Number(x) if x.is_u64() => x
            .as_u64()
            .ok_or_else(|| st(format!("seed must be an int in 0..2**64-1, got {v}"))),
        _ => Err(st(format!("seed must be an int in 0..2**64-1, got {v}"))),
    }
}

// ----- setup -----

pub(super) fn setup(game: &MoscaGame, spec: &Value) -> Result<MoscaState> {
    const KEYS: [&str; 8] = [
        "hands",
        "turnup",
        "talon",
        "dealer",
        "balances",
        "pot",
        "deals_played",
        "seed",
    ];
    let Value::Object(m) = spec else {
        return Err(st(format!("setup spec must be a JSON object, got {spec}")));
    };
    for k in m.keys() {
        if !KEYS.contains(&k.as_str()) {
            return Err(st(format!(
                "unknown setup key {k:?}: expected {}",
                KEYS.join(", ")
            )));
        }
    }
    let get = |k: &str| m.get(k).filter(|v| !v.is_null());
    let cfg = &*game.cfg;
    let n = cfg.n;
    let mut s = game.blank(0);
    let hands_v =
        get("hands").ok_or_else(|| st("setup needs hands: one list of 5 cards per seat".into()))?;
    let hands = array_len(hands_v, "hands", n)?;
    let mut seen = CardSet::EMPTY;
    // the pack, laid out so that deal_pack gives these hands (positions from the mano)
    let mut hand_cards: Vec<Vec<Card>> = Vec::with_capacity(n);
    for (seat, h) in hands.iter().enumerate() {
        let what = format!("hands[{seat}]");
        let cards = card_list(cfg, h, &what, true)?;
        if cards.len() != 5 {
            return Err(st(format!("{what} must hold 5 cards, got {}", cards.len())));
        }
        claim(&mut seen, &cards, &what)?;
        hand_cards.push(cards);
    }
    let tv = get("turnup").ok_or_else(|| st("setup needs the turnup card".into()))?;
    let turnup = card_of(cfg, tv, "turnup", true)?;
    claim(&mut seen, &[turnup], "turnup")?;
    let talon: Vec<Card> = match get("talon") {
        Some(t) => {
            let cards = card_list(cfg, t, "talon", true)?;
            claim(&mut seen, &cards, "talon")?;
            if seen != cfg.deck {
                return Err(st(format!(
                    "with talon given, hands, turnup and talon must hold the {} cards of the deck; missing: {}",
                    cfg.opts.deck,
                    cfg.deck.minus(seen)
                )));
            }
            cards
        }
        None => cfg.deck.minus(seen).iter().collect(),
    };
    if let Some(v) = get("dealer") {
        s.dealer = int_in(v, "dealer", 0, n as i64 - 1)? as u8;
    }
    if let Some(v) = get("balances") {
        for (seat, b) in array_len(v, "balances", n)?.iter().enumerate() {
            s.balances[seat] = int_in(b, &format!("balances[{seat}]"), -MAX_CHIPS, MAX_CHIPS)?;
        }
    }
    if let Some(v) = get("pot") {
        s.pot = int_in(v, "pot", 0, MAX_CHIPS)?;
    }
    if let Some(v) = get("deals_played") {
        s.deals_played = int_in(v, "deals_played", 0, cfg.opts.match_deals - 1)? as u32;
    }
    if let Some(v) = get("seed") {
        s.rng.state = seed_of(v)?;
    }
    // a pack in deal order: deal_packets places position k's cards; fill those indexes
    let size = cfg.opts.deck as usize;
    let mut pack = vec![0u8; size];
    let mano = (s.dealer as usize + 1) % n;
    let mut fill = game.blank(0);
    fill.dealer = s.dealer;
    let mut marker = [0u8; 52];
    for (i, slot) in marker.iter_mut().enumerate().take(size) {
        *slot = i as u8;
    }
    // deal the identity permutation to learn which pack index lands where
    fill.deal_pack(&marker[..size]);
    for k in 0..n {
        let seat = (mano + k) % n;
        for (j, idx) in fill.hands[seat].iter().enumerate() {
            pack[idx.0 as usize] = hand_cards[seat][j].0;
        }
    }
    pack[5 * n] = turnup.0;
    for (i, c) in talon.iter().enumerate() {
        pack[5 * n + 1 + i] = c.0;
    }
    s.begin_match(Some(&pack));
    Ok(s)
}

// ----- state_from_json -----

pub(super) fn state_from_json(game: &MoscaGame, text: &str) -> Result<MoscaState> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| st(format!("state is not valid JSON: {e}")))?;
    let Value::Object(m) = &v else {
        return Err(st("state JSON must be an object".into()));
    };
    const KEYS: [&str; 27] = [
        "balances",
        "dealer",
        "deals_played",
        "declarations",
        "discard_pile",
        "discarded",
        "eliminated",
        "exchanged",
        "game",
        "hands",
        "history",
        "leader",
        "options",
        "phase",
        "played",
        "pot",
        "rng",
        "talon",
        "terminal",
        "to_move",
        "trick",
        "trick_number",
        "tricks_won",
        "turnup",
        "turnup_discard",
        "turnup_taken",
        "version",
    ];
    for k in m.keys() {
        if !KEYS.contains(&k.as_str()) {
            return Err(st(format!("unknown state key {k:?}")));
        }
    }
    let get = |k: &str| {
        m.get(k)
            .ok_or_else(|| st(format!("state JSON lacks {k:?}")))
    };
    for k in KEYS {
        get(k)?;
    }
    let cfg = &*game.cfg;
    let n = cfg.n;
    if get("game")? != &Value::String("mosca".into()) {
        return Err(st(
            "state JSON is not a mosca state (game != \"mosca\")".into()
        ));
    }
    if get("version")? != &Value::from(1) {
        return Err(st("state JSON version must be 1".into()));
    }
    let opts = get("options")?;
    let mine: Value = serde_json::from_str(&cfg.json).map_err(|e| st(e.to_string()))?;
    if opts != &mine {
        return Err(st(format!(
            "state options {opts} differ from this game's options {}",
            cfg.json
        )));
    }
    let mut s = game.blank(0);
    for (seat, b) in array_len(get("balances")?, "balances", n)?
        .iter()
        .enumerate()
    {
        s.balances[seat] = int_in(b, "balances", -8 * MAX_CHIPS, 8 * MAX_CHIPS)?;
    }
    s.pot = int_in(get("pot")?, "pot", 0, 8 * MAX_CHIPS)?;
    s.dealer = int_in(get("dealer")?, "dealer", 0, n as i64 - 1)? as u8;
    s.deals_played = int_in(
        get("deals_played")?,
        "deals_played",
        0,
        cfg.opts.match_deals,
    )? as u32;
    for (seat, d) in array_len(get("declarations")?, "declarations", n)?
        .iter()
        .enumerate()
    {
        s.declarations[seat] = int_in(d, "declarations", -1, 1)? as i8;
    }
    for (seat, d) in array_len(get("eliminated")?, "eliminated", n)?
        .iter()
        .enumerate()
    {
        s.eliminated[seat] = bool_of(d, "eliminated")?;
    }
    for (seat, d) in array_len(get("exchanged")?, "exchanged", n)?
        .iter()
        .enumerate()
    {
        s.exchanged[seat] = int_in(d, "exchanged", 0, 5)? as u8;
    }
    for (seat, d) in array_len(get("tricks_won")?, "tricks_won", n)?
        .iter()
        .enumerate()
    {
        s.tricks_won[seat] = int_in(d, "tricks_won", 0, 5)? as u8;
    }
    let mut seen = CardSet::EMPTY;
    for (seat, h) in array_len(get("hands")?, "hands", n)?.iter().enumerate() {
        let set = ascending_set(cfg, h, "hands")?;
        if set.len() > 5 {
            return Err(st(format!("hands[{seat}] holds more than 5 cards")));
        }
        claim(&mut seen, &set.iter().collect::<Vec<_>>(), "hands")?;
        s.hands[seat] = set;
    }
    for (seat, h) in array_len(get("discarded")?, "discarded", n)?
        .iter()
        .enumerate()
    {
        s.discarded[seat] = ascending_set(cfg, h, "discarded")?;
    }
    s.discard_pile = ascending_set(cfg, get("discard_pile")?, "discard_pile")?;
    claim(
        &mut seen,
        &s.discard_pile.iter().collect::<Vec<_>>(),
        "discard_pile",
    )?;
    s.played = ascending_set(cfg, get("played")?, "played")?;
    claim(&mut seen, &s.played.iter().collect::<Vec<_>>(), "played")?;
    let talon = card_list(cfg, get("talon")?, "talon", false)?;
    claim(&mut seen, &talon, "talon")?;
    s.talon_pos = 0;
    s.talon_len = talon.len() as u8;
    for (i, c) in talon.iter().enumerate() {
        s.talon[i] = c.0;
    }
    s.turnup = card_of(cfg, get("turnup")?, "turnup", false)?.0;
    s.turnup_taken = bool_of(get("turnup_taken")?, "turnup_taken")?;
    if !s.turnup_taken {
        claim(&mut seen, &[Card(s.turnup)], "turnup")?;
    }
    let td = int_in(get("turnup_discard")?, "turnup_discard", -1, 51)?;
    if td >= 0 {
        let c = card_of(cfg, get("turnup_discard")?, "turnup_discard", false)?;
        claim(&mut seen, &[c], "turnup_discard")?;
    }
    s.turnup_discard = td as i8;
    if seen != cfg.deck {
        return Err(st(format!(
            "the cards of the state are not the deck exactly once; missing: {}",
            cfg.deck.minus(seen)
        )));
    }
    let trick = card_list(cfg, get("trick")?, "trick", false)?;
    if trick.iter().any(|c| !s.played.contains(*c)) || trick.len() > n {
        return Err(st("trick cards must be cards of played".into()));
    }
    s.phase = match get("phase")?.as_str() {
        Some("declare") => Phase::Declare,
        Some("turnup") => Phase::Turnup,
        Some("trick") => Phase::Trick,
        Some("end") => Phase::End,
        _ => return Err(st("phase must be one of declare, turnup, trick, end".into())),
    };
    let terminal = bool_of(get("terminal")?, "terminal")?;
    if terminal != (s.phase == Phase::End) {
        return Err(st("terminal must be true exactly in phase end".into()));
    }
    s.to_move = int_in(get("to_move")?, "to_move", -1, n as i64 - 1)? as i8;
    if (s.to_move < 0) != terminal {
        return Err(st("to_move must be -1 exactly when terminal".into()));
    }
    s.leader = int_in(get("leader")?, "leader", -1, n as i64 - 1)? as i8;
    s.trick_number = int_in(get("trick_number")?, "trick_number", 0, 5)? as u8;
    if (s.phase == Phase::Trick) != (s.trick_number > 0)
        || (s.phase == Phase::Trick) != (s.leader >= 0)
    {
        return Err(st(
            "trick_number and leader are set exactly in phase trick".into()
        ));
    }
    let rng = get("rng")?;
    s.rng.state = rng
        .as_str()
        .and_then(|t| t.parse::<u64>().ok())
        .ok_or_else(|| st(format!("rng must be a decimal string of a u64, got {rng}")))?;
    for seat in 0..n {
        // at the end the last deal's seats keep their fields, eliminated or not
        if !terminal
            && s.eliminated[seat]
            && (!s.hands[seat].is_empty() || s.declarations[seat] != -1)
        {
            return Err(st(format!(
                "eliminated seat {seat} holds cards or declared"
            )));
        }
    }
    if s.eliminated[s.dealer as usize] && !terminal {
        return Err(st("the dealer is eliminated".into()));
    }
    let active = (0..n).filter(|&i| s.declarations[i] == 1).count();
    s.n_active = active as u8;
    // the trick's seats: the active seats in order from the leader
    if s.phase == Phase::Trick {
        if active == 0 {
            return Err(st("phase trick needs an active seat".into()));
        }
        if s.declarations[s.leader as usize] != 1 {
            return Err(st("the leader must be an active seat".into()));
        }
        if trick.len() >= active {
            return Err(st("the current trick is already complete".into()));
        }
        let mut seat = s.leader as usize;
        for (k, c) in trick.iter().enumerate() {
            s.trick[k] = c.0;
            s.trick_seats[k] = seat as u8;
            seat = s.next_active(seat);
        }
        s.trick_len = trick.len() as u8;
        if !trick.is_empty() {
            s.trick_win = s.cfg.strength.trick_winner(&trick, s.trump()) as u8;
        }
        if seat as i8 != s.to_move {
            return Err(st("to_move is not the next seat of the trick".into()));
        }
        if s.hands[s.to_move as usize].is_empty() {
            return Err(st("the player to move holds no card".into()));
        }
    } else if !trick.is_empty() {
        return Err(st("trick must be empty outside phase trick".into()));
    }
    if s.phase == Phase::Declare || s.phase == Phase::Turnup {
        let t = s.to_move as usize;
        if s.eliminated[t] || s.hands[t].len() != 5 {
            return Err(st("the declaring seat must hold 5 cards".into()));
        }
        if s.phase == Phase::Turnup
            && (t != s.dealer as usize || s.declarations[t] != 1 || s.turnup_taken)
        {
            return Err(st(
                "phase turnup belongs to the dealer who chose play".into()
            ));
        }
        if s.phase == Phase::Declare && s.declarations[t] != -1 {
            return Err(st("the declaring seat has already declared".into()));
        }
    }
    if s.turnup_taken != (td >= 0) {
        return Err(st(
            "turnup_discard is set exactly when the turn-up was taken".into(),
        ));
    }
    let hist = array(get("history")?, "history")?;
    s.history = Vec::with_capacity(hist.len().max(64));
    for a in hist {
        s.history.push(int_in(a, "history", 0, 90)? as u8);
    }
    let _ = MAX_SEATS;
    Ok(s)
}
