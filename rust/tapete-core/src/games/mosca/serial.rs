//! Canonical state JSON, `setup`, `state_from_json` and the `deck=` of `new_state`
//! (docs/mosca_engine.md §3, §8, §9), on the one JSON layer.

use serde_json::{Map, Value};

use super::options::{ExchangeLimit, LonePlayer};
use super::{Config, MoscaGame, MoscaState, Phase, MAX_CHIPS};
use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::json::{self, Obj, Read};
use crate::rng::SplitMix64;

const ST: Read = Read::STATE;

// ----- writing -----

/// Canonical JSON (docs/mosca_engine.md §8).
pub(super) fn to_json(x: &MoscaState) -> String {
    let n = x.cfg.n;
    let mut s = String::with_capacity(1200 + x.history.len() * 3);
    let mut o = Obj::new(&mut s);
    o.ints("balances", x.balances[..n].iter())
        .raw("dealer", x.dealer)
        .raw("deals_played", x.deals_played)
        .ints("declarations", x.declarations[..n].iter())
        .cards("discard_pile", x.discard_pile)
        .card_sets("discarded", &x.discarded[..n])
        .ints("eliminated", x.eliminated[..n].iter())
        .ints("exchanged", x.exchanged[..n].iter())
        .str("game", "mosca")
        .card_sets("hands", &x.hands[..n])
        .ints("history", x.history.iter())
        .raw("leader", x.leader)
        .raw("options", &x.cfg.json)
        .str("phase", x.phase.as_str())
        .cards("played", x.played)
        .raw("pot", x.pot)
        .u64_text("rng", x.rng.state)
        .ints("talon", x.talon().iter())
        .raw("terminal", x.phase == Phase::End)
        .raw("to_move", x.to_move)
        .ints("trick", x.trick[..x.trick_len as usize].iter())
        .raw("trick_number", x.trick_number)
        .ints("tricks_won", x.tricks_won[..n].iter())
        .raw("turnup", x.turnup)
        .raw("turnup_discard", x.turnup_discard)
        .raw("turnup_taken", x.turnup_taken)
        .raw("version", 1);
    o.end();
    s
}

// ----- reading -----

/// A card of the game's deck, as an id (or text when `text`).
fn deck_card(cfg: &Config, v: &Value, what: &str, text: bool) -> Result<Card> {
    let c = ST.card(v, what, text)?;
    if !cfg.deck.contains(c) {
        return Err(ST.err(format!(
            "{what}: {c} is not a card of the {}-card deck",
            cfg.opts.deck
        )));
    }
    Ok(c)
}

/// Cards of the game's deck, as ids (or text when `text`), in the order given.
fn deck_cards(cfg: &Config, v: &Value, what: &str, text: bool) -> Result<Vec<Card>> {
    ST.list(v, what)?
        .iter()
        .map(|c| deck_card(cfg, c, what, text))
        .collect()
}

/// Distinct cards of the deck: `cards` as a set, a repeat refused.
fn distinct(cards: &[Card], what: &str) -> Result<CardSet> {
    let set: CardSet = cards.iter().copied().collect();
    if set.len() as usize != cards.len() {
        return Err(ST.err(format!("{what}: a card appears twice")));
    }
    Ok(set)
}

/// A card set of the canonical JSON: deck card ids, strictly ascending.
fn deck_set(cfg: &Config, v: &Value, what: &str) -> Result<CardSet> {
    let set = ST.card_set(v, what, false, true)?;
    if !set.is_subset(cfg.deck) {
        return Err(ST.err(format!(
            "{what}: {} is not a card of the {}-card deck",
            set.minus(cfg.deck),
            cfg.opts.deck
        )));
    }
    Ok(set)
}

/// A `deck=` order for `new_state`: the deck's cards once each, top first, as text or ids.
pub(super) fn check_deck(cfg: &Config, deck: &Value) -> Result<Vec<u8>> {
    let size = cfg.opts.deck as usize;
    let cards = deck_cards(cfg, deck, "deck", true)?;
    if cards.len() != size {
        return Err(ST.err(format!(
            "deck must list the {size} cards of the deck, got {} cards",
            cards.len()
        )));
    }
    distinct(&cards, "deck")?;
    Ok(cards.iter().map(|c| c.0).collect())
}

/// A seed given to `setup`: an int in 0..2^64-1.
fn seed_of(v: &Value) -> Result<u64> {
    match v {
        Value::Number(x) if x.is_u64() => x.as_u64(),
        _ => None,
    }
    .ok_or_else(|| {
        ST.err(format!(
            "seed must be an int in 0..2**64-1, got {}",
            json::shown(v)
        ))
    })
}

// ----- setup -----

/// `setup` (docs/mosca_engine.md §9): DEAL_START from the ante on, with these cards.
pub(super) fn setup(game: &MoscaGame, spec: &Value) -> Result<MoscaState> {
    const KEYS: &[&str] = &[
        "hands",
        "turnup",
        "talon",
        "dealer",
        "balances",
        "pot",
        "deals_played",
        "seed",
    ];
    let get = ST.setup_spec(spec, KEYS)?;
    let cfg = &*game.cfg;
    let n = cfg.n;
    let mut s = game.blank(0);
    let hands_v = get("hands")
        .ok_or_else(|| ST.err("setup needs hands: one list of 5 cards per seat".into()))?;
    let mut seen = CardSet::EMPTY;
    let mut hand_cards: Vec<Vec<Card>> = Vec::with_capacity(n);
    for (seat, h) in ST.list_of(hands_v, "hands", n)?.iter().enumerate() {
        let what = format!("hands[{seat}]");
        let cards = deck_cards(cfg, h, &what, true)?;
        if cards.len() != 5 {
            return Err(ST.err(format!("{what} must hold 5 cards, got {}", cards.len())));
        }
        ST.claim(&mut seen, distinct(&cards, &what)?, &what)?;
        hand_cards.push(cards);
    }
    let tv = get("turnup").ok_or_else(|| ST.err("setup needs the turnup card".into()))?;
    let turnup = deck_card(cfg, tv, "turnup", true)?;
    ST.claim(&mut seen, CardSet::single(turnup), "turnup")?;
    let talon: Vec<Card> = match get("talon") {
        Some(t) => {
            let cards = deck_cards(cfg, t, "talon", true)?;
            ST.claim(&mut seen, distinct(&cards, "talon")?, "talon")?;
            if seen != cfg.deck {
                return Err(ST.err(format!(
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
        s.dealer = ST.int(v, "dealer", 0, n as i64 - 1)? as u8;
    }
    if let Some(v) = get("balances") {
        for (seat, b) in ST.list_of(v, "balances", n)?.iter().enumerate() {
            s.balances[seat] = ST.int(b, &format!("balances[{seat}]"), -MAX_CHIPS, MAX_CHIPS)?;
        }
    }
    if let Some(v) = get("pot") {
        s.pot = ST.int(v, "pot", 0, MAX_CHIPS)?;
    }
    if let Some(v) = get("deals_played") {
        s.deals_played = ST.int(v, "deals_played", 0, cfg.opts.match_deals - 1)? as u32;
    }
    if let Some(v) = get("seed") {
        s.rng = SplitMix64::new(seed_of(v)?);
    }
    // a pack in deal order: deal the identity permutation to learn which pack index lands where
    let size = cfg.opts.deck as usize;
    let mut pack = vec![0u8; size];
    let mano = (s.dealer as usize + 1) % n;
    let mut fill = game.blank(0);
    fill.dealer = s.dealer;
    let mut marker = [0u8; 52];
    for (i, slot) in marker.iter_mut().enumerate().take(size) {
        *slot = i as u8;
    }
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

const STATE_KEYS: &[&str] = &[
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

pub(super) fn state_from_json(game: &MoscaGame, text: &str) -> Result<MoscaState> {
    let m = json::state_object(text, "mosca", STATE_KEYS, &game.cfg.json)?;
    let mut s = read_cards_and_chips(game, &m)?;
    read_turn(&mut s, &m)?;
    if let Some(why) = invariant_problem(&s) {
        return Err(ST.err(format!("invalid mosca state: {why}")));
    }
    Ok(s)
}

/// The invariants of docs/mosca_engine.md §8 not already read above: why `s` is no reachable
/// position, or `None`. The reference engine checks the same list (tapete/reference/mosca.py).
fn invariant_problem(s: &MoscaState) -> Option<String> {
    let o = &s.cfg.opts;
    let n = s.cfg.n;
    let dealer = s.dealer as usize;
    let turnup = Card(s.turnup);
    if s.turnup_taken && !s.hands[dealer].contains(turnup) && !s.played.contains(turnup) {
        return Some("a taken turn-up is in the dealer's hand until he plays it".into());
    }
    if s.turnup_taken && !s.discarded[dealer].contains(Card(s.turnup_discard as u8)) {
        return Some(
            "the card given up for the turn-up is among the dealer's discarded cards".into(),
        );
    }
    for seat in 0..n {
        let given_up = s.exchanged[seat] as u32 + (s.turnup_taken && seat == dealer) as u32;
        if s.discarded[seat].len() != given_up {
            return Some(format!(
                "discarded[{seat}] must hold the {given_up} cards seat {seat} gave up"
            ));
        }
        if s.exchanged[seat] > 0 && s.declarations[seat] != 1 {
            return Some(format!("seat {seat} exchanged cards without choosing play"));
        }
    }
    let terminal = s.phase == Phase::End;
    if !terminal && s.seats_in_match() < 2 {
        return Some("a match in play has at least two seats in it".into());
    }
    if terminal {
        if s.leader != -1 || s.trick_number != 0 || s.trick_len != 0 {
            return Some(
                "a finished match has no current trick (leader -1, trick_number 0)".into(),
            );
        }
        return None;
    }
    if s.deals_played as i64 >= o.match_deals {
        return Some("deals_played must be below match_deals before the end".into());
    }
    // the seats in the match from the mano, and the active ones (who chose play) among them
    let mano = s.mano();
    let seats: Vec<usize> = (0..n)
        .map(|k| (mano + k) % n)
        .filter(|&x| !s.eliminated[x])
        .collect();
    let to_move = s.to_move as usize;
    let Some(position) = seats.iter().position(|&x| x == to_move) else {
        return Some("to_move must be a seat in the match".into());
    };
    if s.turnup_taken && s.phase != Phase::Trick {
        return Some("the turn-up is taken only in the turnup step, just before the tricks".into());
    }
    if matches!(s.phase, Phase::Declare | Phase::Turnup) {
        if s.trick_len != 0
            || !s.played.is_empty()
            || s.leader != -1
            || s.trick_number != 0
            || s.tricks_won[..n].iter().any(|&t| t != 0)
        {
            return Some("no trick is played before the declarations end".into());
        }
        if seats.iter().any(|&x| s.hands[x].len() != 5) {
            return Some("every seat in the match holds 5 cards until the tricks".into());
        }
        let (done, todo) = if s.phase == Phase::Declare {
            (&seats[..position], &seats[position..])
        } else {
            if to_move != dealer || !o.dealer_may_take_turnup {
                return Some(
                    "only the dealer has the turnup step, when dealer_may_take_turnup".into(),
                );
            }
            (&seats[..], &seats[..0])
        };
        if done.iter().any(|&x| s.declarations[x] == -1)
            || todo.iter().any(|&x| s.declarations[x] != -1)
        {
            return Some(
                "the seats from the mano up to the actor have declared, the others not".into(),
            );
        }
        if s.phase == Phase::Turnup && s.declarations[dealer] != 1 {
            return Some("the turnup step follows the dealer's play".into());
        }
        if s.phase == Phase::Declare
            && s.talon().is_empty()
            && !s.discard_pile.is_empty()
            && o.exchange_limit == ExchangeLimit::Reshuffle
        {
            return Some(
                "an empty talon is rebuilt from the discard pile when a declare turn begins".into(),
            );
        }
        return None;
    }
    // phase trick
    if seats.iter().any(|&x| s.declarations[x] == -1) {
        return Some("every seat in the match has declared before the tricks".into());
    }
    let active: Vec<usize> = seats
        .iter()
        .copied()
        .filter(|&x| s.declarations[x] == 1)
        .collect();
    if active.is_empty() || (active.len() == 1 && o.lone_player != LonePlayer::MustPlayTricks) {
        return Some("tricks need two active seats (or a lone one under must_play_tricks)".into());
    }
    let lead = active.iter().position(|&x| x as i8 == s.leader);
    let trick_len = s.trick_len as usize;
    let Some(lead) = lead.filter(|_| (1..=5).contains(&s.trick_number)) else {
        return Some(
            "trick_number 1..5, a leader among the active seats and an incomplete trick".into(),
        );
    };
    if trick_len >= active.len() {
        return Some(
            "trick_number 1..5, a leader among the active seats and an incomplete trick".into(),
        );
    }
    let won: u32 = s.tricks_won[..n].iter().map(|&t| t as u32).sum();
    if won != s.trick_number as u32 - 1
        || seats
            .iter()
            .any(|&x| s.tricks_won[x] != 0 && !active.contains(&x))
    {
        return Some("tricks_won must count the finished tricks of the active seats".into());
    }
    let order: Vec<usize> = active[lead..]
        .iter()
        .chain(&active[..lead])
        .copied()
        .collect();
    if to_move != order[trick_len] {
        return Some("the actor is the next active seat after the cards of the trick".into());
    }
    for &x in &seats {
        let in_trick = order[..trick_len].contains(&x);
        let played = s.trick_number as u32 - 1 + in_trick as u32;
        let want = if active.contains(&x) { 5 - played } else { 5 };
        if s.hands[x].len() != want {
            return Some(format!("seat {x} must hold {want} cards"));
        }
    }
    if s.played.len() as usize != active.len() * (s.trick_number as usize - 1) + trick_len {
        return Some(
            "played must hold the cards of the finished tricks and the current one".into(),
        );
    }
    None
}

/// Per-seat ints of `m[key]` in `lo..=hi`.
fn per_seat(m: &Map<String, Value>, key: &str, n: usize, lo: i64, hi: i64) -> Result<Vec<i64>> {
    ST.list_of(&m[key], key, n)?
        .iter()
        .map(|x| ST.int(x, key, lo, hi))
        .collect()
}

/// The chips, the per-seat records and the cards: the deck exactly once across hands, talon,
/// discard pile, played cards, the card given up for the turn-up and (when not taken) the turn-up.
fn read_cards_and_chips(game: &MoscaGame, m: &Map<String, Value>) -> Result<MoscaState> {
    let cfg = &*game.cfg;
    let n = cfg.n;
    let mut s = game.blank(0);
    for (seat, b) in per_seat(m, "balances", n, -8 * MAX_CHIPS, 8 * MAX_CHIPS)?
        .into_iter()
        .enumerate()
    {
        s.balances[seat] = b;
    }
    s.pot = ST.int(&m["pot"], "pot", 0, 8 * MAX_CHIPS)?;
    s.dealer = ST.int(&m["dealer"], "dealer", 0, n as i64 - 1)? as u8;
    s.deals_played = ST.int(&m["deals_played"], "deals_played", 0, cfg.opts.match_deals)? as u32;
    for (seat, d) in per_seat(m, "declarations", n, -1, 1)?
        .into_iter()
        .enumerate()
    {
        s.declarations[seat] = d as i8;
    }
    for (seat, e) in ST
        .list_of(&m["eliminated"], "eliminated", n)?
        .iter()
        .enumerate()
    {
        s.eliminated[seat] = ST.bool(e, "eliminated")?;
    }
    for (seat, x) in per_seat(m, "exchanged", n, 0, 5)?.into_iter().enumerate() {
        s.exchanged[seat] = x as u8;
    }
    for (seat, t) in per_seat(m, "tricks_won", n, 0, 5)?.into_iter().enumerate() {
        s.tricks_won[seat] = t as u8;
    }
    let mut seen = CardSet::EMPTY;
    for (seat, h) in ST.list_of(&m["hands"], "hands", n)?.iter().enumerate() {
        let what = format!("hands[{seat}]");
        let set = deck_set(cfg, h, &what)?;
        if set.len() > 5 {
            return Err(ST.err(format!("{what} holds more than 5 cards")));
        }
        ST.claim(&mut seen, set, &what)?;
        s.hands[seat] = set;
    }
    for (seat, h) in ST
        .list_of(&m["discarded"], "discarded", n)?
        .iter()
        .enumerate()
    {
        s.discarded[seat] = deck_set(cfg, h, &format!("discarded[{seat}]"))?;
    }
    s.discard_pile = deck_set(cfg, &m["discard_pile"], "discard_pile")?;
    ST.claim(&mut seen, s.discard_pile, "discard_pile")?;
    s.played = deck_set(cfg, &m["played"], "played")?;
    ST.claim(&mut seen, s.played, "played")?;
    let talon = deck_cards(cfg, &m["talon"], "talon", false)?;
    ST.claim(&mut seen, distinct(&talon, "talon")?, "talon")?;
    s.talon_pos = 0;
    s.talon_len = talon.len() as u8;
    for (i, c) in talon.iter().enumerate() {
        s.talon[i] = c.0;
    }
    s.turnup = deck_card(cfg, &m["turnup"], "turnup", false)?.0;
    s.turnup_taken = ST.bool(&m["turnup_taken"], "turnup_taken")?;
    if !s.turnup_taken {
        ST.claim(&mut seen, CardSet::single(Card(s.turnup)), "turnup")?;
    }
    let td = ST.int(&m["turnup_discard"], "turnup_discard", -1, 51)?;
    if td >= 0 {
        let c = deck_card(cfg, &m["turnup_discard"], "turnup_discard", false)?;
        ST.claim(&mut seen, CardSet::single(c), "turnup_discard")?;
    }
    s.turnup_discard = td as i8;
    if seen != cfg.deck {
        return Err(ST.err(format!(
            "the cards of the state are not the deck exactly once; missing: {}",
            cfg.deck.minus(seen)
        )));
    }
    if s.turnup_taken != (td >= 0) {
        return Err(ST.err("turnup_discard is set exactly when the turn-up was taken".into()));
    }
    let history = ST.list(&m["history"], "history")?;
    s.history = Vec::with_capacity(history.len().max(64));
    for a in history {
        s.history.push(ST.int(a, "history", 0, 90)? as u8);
    }
    s.rng = SplitMix64::new(ST.u64_text(&m["rng"], "rng")?);
    Ok(s)
}

/// The phase, the seat to move and the current trick, consistent with the cards and seats.
fn read_turn(s: &mut MoscaState, m: &Map<String, Value>) -> Result<()> {
    let n = s.cfg.n;
    let trick = deck_cards(&s.cfg, &m["trick"], "trick", false)?;
    if trick.iter().any(|c| !s.played.contains(*c)) || trick.len() > n {
        return Err(ST.err("trick cards must be cards of played".into()));
    }
    s.phase = match m["phase"].as_str() {
        Some("declare") => Phase::Declare,
        Some("turnup") => Phase::Turnup,
        Some("trick") => Phase::Trick,
        Some("end") => Phase::End,
        _ => return Err(ST.err("phase must be one of declare, turnup, trick, end".into())),
    };
    let terminal = ST.bool(&m["terminal"], "terminal")?;
    if terminal != (s.phase == Phase::End) {
        return Err(ST.err("terminal must be true exactly in phase end".into()));
    }
    s.to_move = ST.int(&m["to_move"], "to_move", -1, n as i64 - 1)? as i8;
    if (s.to_move < 0) != terminal {
        return Err(ST.err("to_move must be -1 exactly when terminal".into()));
    }
    s.leader = ST.int(&m["leader"], "leader", -1, n as i64 - 1)? as i8;
    s.trick_number = ST.int(&m["trick_number"], "trick_number", 0, 5)? as u8;
    if (s.phase == Phase::Trick) != (s.trick_number > 0)
        || (s.phase == Phase::Trick) != (s.leader >= 0)
    {
        return Err(ST.err("trick_number and leader are set exactly in phase trick".into()));
    }
    for seat in 0..n {
        // at the end the last deal's seats keep their fields, eliminated or not
        if !terminal
            && s.eliminated[seat]
            && (!s.hands[seat].is_empty() || s.declarations[seat] != -1)
        {
            return Err(ST.err(format!("eliminated seat {seat} holds cards or declared")));
        }
    }
    if s.eliminated[s.dealer as usize] && !terminal {
        return Err(ST.err("the dealer is eliminated".into()));
    }
    let active = (0..n).filter(|&i| s.declarations[i] == 1).count();
    s.n_active = active as u8;
    // the trick's seats: the active seats in order from the leader
    if s.phase == Phase::Trick {
        if active == 0 {
            return Err(ST.err("phase trick needs an active seat".into()));
        }
        if s.declarations[s.leader as usize] != 1 {
            return Err(ST.err("the leader must be an active seat".into()));
        }
        if trick.len() >= active {
            return Err(ST.err("the current trick is already complete".into()));
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
            return Err(ST.err("to_move is not the next seat of the trick".into()));
        }
        if s.hands[s.to_move as usize].is_empty() {
            return Err(ST.err("the player to move holds no card".into()));
        }
    } else if !trick.is_empty() {
        return Err(ST.err("trick must be empty outside phase trick".into()));
    }
    if s.phase == Phase::Declare || s.phase == Phase::Turnup {
        let t = s.to_move as usize;
        if s.eliminated[t] || s.hands[t].len() != 5 {
            return Err(ST.err("the declaring seat must hold 5 cards".into()));
        }
        if s.phase == Phase::Turnup
            && (t != s.dealer as usize || s.declarations[t] != 1 || s.turnup_taken)
        {
            return Err(ST.err("phase turnup belongs to the dealer who chose play".into()));
        }
        if s.phase == Phase::Declare && s.declarations[t] != -1 {
            return Err(ST.err("the declaring seat has already declared".into()));
        }
    }
    Ok(())
}
