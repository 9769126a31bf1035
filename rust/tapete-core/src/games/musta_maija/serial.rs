//! Canonical state JSON, views, `setup` and `state_from_json` (docs/musta_maija_engine.md §6–§8).

use serde_json::{json, Map, Value};

use super::options::TrumpReveal;
use super::rules::{can_beat, MAIJA};
use super::{Config, MustaMaijaGame, MustaMaijaState, Phase, MAX_PAIRS, MAX_SEATS};
use crate::cards::{Card, CardSet};
use crate::error::Result;
use crate::game::{Game, State};
use crate::json::{self, card_texts, Obj, Read};
use crate::rng::SplitMix64;

const ST: Read = Read::STATE;

const ALL: u64 = (1u64 << 52) - 1;

// ----- writing -----

/// Canonical JSON (docs/musta_maija_engine.md §6).
pub(super) fn to_json(x: &MustaMaijaState) -> String {
    let n = x.n();
    let mut s = String::with_capacity(1200 + x.history.len() * 3);
    let mut o = Obj::new(&mut s);
    o.cards("attack", x.attack)
        .raw("attacker", x.attacker)
        .raw("attacks", x.attacks)
        .lists("beaten", x.beaten_pairs().iter().map(|p| p.iter()))
        .raw("dealer", x.dealer)
        .raw("defender", x.defender)
        .str("game", "musta_maija")
        .raw("hand", x.hand_no)
        .card_sets("hands", &x.hands[..n])
        .ints("history", x.history.iter())
        .card_sets("known", &x.known[..n])
        .cards("left", x.left)
        .ints("losses", x.losses[..n].iter())
        .raw("options", &x.cfg.json)
        .cards("out_of_play", x.out_of_play)
        .str("phase", x.phase.as_str())
        .u64_text("rng", x.rng.state)
        .ints("stock", x.stock[..x.stock_len as usize].iter().rev())
        .raw("terminal", x.is_terminal())
        .raw("to_move", x.current_player().map_or(-1, |p| p as i64))
        .raw("trump", x.trump)
        .cards("turned", x.turned)
        .raw("version", 1);
    o.end();
    s
}

/// View of seat `p` (docs/musta_maija_engine.md §8); the public view for `None` (no `player`,
/// no `hand`: every action is public).
pub(super) fn view_json(x: &MustaMaijaState, p: Option<usize>) -> String {
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
        "hand": p.map(|p| card_texts(x.hands[p])),
        "hand_sizes": (0..n).map(|s| x.hands[s].len()).collect::<Vec<_>>(),
        // every action is public (docs/musta_maija_engine.md §8): nothing to mask
        "history": &x.history,
        "known": (0..n).map(|s| card_texts(x.known[s])).collect::<Vec<_>>(),
        "out": (0..n).map(|s| !x.active(s)).collect::<Vec<_>>(),
        "stock_size": x.stock_len,
        "trump": x.trump_suit().map(|t| ["c", "d", "h", "s"][t as usize]),
        "trump_card": x.trump_card().map(|c| c.to_string()),
        "trump_in_stock": x.trump_in_stock(),
        "turned": card_texts(x.turned),
        "out_of_play": card_texts(x.out_of_play),
        "attack": card_texts(x.attack),
        "beaten": x.beaten_pairs().iter().map(|[t, c]| vec![Card(*t).to_string(), Card(*c).to_string()]).collect::<Vec<_>>(),
        "left": card_texts(x.left),
        "target": x.target().map(|c| c.to_string()),
        "attacks": x.attacks,
        "losses": x.losses(),
        "terminal": x.is_terminal(),
        "losers": x.losers(),
    });
    v.to_string()
}

// ----- reading -----

/// A deck given to `new_state` (a JSON list, top first): the 52 cards once each.
pub(super) fn check_deck(_: &Config, deck: &Value) -> Result<[u8; 52]> {
    let cards = ST.cards(deck, "deck", true)?;
    if cards.len() != 52 {
        return Err(ST.err(format!(
            "deck must hold the 52 cards, got {} cards",
            cards.len()
        )));
    }
    let mut out = [0u8; 52];
    let mut seen = CardSet::EMPTY;
    for (i, c) in cards.iter().enumerate() {
        if seen.contains(*c) {
            return Err(ST.err(format!("deck: card {c} appears twice")));
        }
        seen.insert(*c);
        out[i] = c.0;
    }
    Ok(out)
}

fn set_stock(x: &mut MustaMaijaState, top_first: &[Card]) {
    x.stock_len = top_first.len() as u8;
    for (i, c) in top_first.iter().rev().enumerate() {
        x.stock[i] = c.0;
    }
}

/// `setup` (docs/musta_maija_engine.md §7).
pub(super) fn setup(game: &MustaMaijaGame, spec: &Value) -> Result<MustaMaijaState> {
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
    let get = ST.setup_spec(spec, KEYS)?;
    let n = game.num_players();
    let o = game.options();
    let mut x = game.blank(0);
    let hands_v = ST.list_of(
        get("hands").ok_or_else(|| ST.err("setup needs hands".into()))?,
        "hands",
        n,
    )?;
    let mut seen = CardSet::EMPTY;
    for (s, h) in hands_v.iter().enumerate() {
        let set = ST.card_set(h, &format!("hands[{s}]"), true, false)?;
        ST.claim(&mut seen, set, &format!("hands[{s}]"))?;
        x.hands[s] = set;
    }
    let stock = match get("stock") {
        Some(v) => ST.cards(v, "stock", true)?,
        None => Vec::new(),
    };
    let mut stock_set = CardSet::EMPTY;
    for c in &stock {
        if stock_set.contains(*c) {
            return Err(ST.err(format!("stock: card {c} appears twice")));
        }
        stock_set.insert(*c);
    }
    ST.claim(&mut seen, stock_set, "stock")?;
    set_stock(&mut x, &stock);
    let oop = match get("out_of_play") {
        Some(v) => {
            let set = ST.card_set(v, "out_of_play", true, false)?;
            ST.claim(&mut seen, set, "out_of_play")?;
            if seen.0 != ALL {
                return Err(ST.err(format!(
                    "hands, stock and out_of_play must hold the 52 cards; missing {}",
                    CardSet(ALL & !seen.0)
                )));
            }
            set
        }
        None => CardSet(ALL & !seen.0),
    };
    if oop.contains(MAIJA) {
        return Err(ST.err("Qs (Maija) can never be out of play".into()));
    }
    x.out_of_play = oop;
    let trump = match get("trump") {
        Some(v) => Some(ST.card(v, "trump", true)?),
        None => None,
    };
    let trump = match (stock.last(), trump) {
        (Some(&last), None) => last,
        (Some(&last), Some(t)) if t == last => t,
        (Some(&last), Some(t)) => {
            return Err(ST.err(format!(
                "trump {t} must be the last stock card ({last}) while the stock is not empty"
            )))
        }
        (None, Some(t)) => t,
        (None, None) => {
            return Err(ST.err("with an empty stock the trump card must be given".into()))
        }
    };
    x.trump = trump.0 as i8;
    if !stock.is_empty() && (0..n).any(|s| x.hands[s].is_empty()) {
        return Err(ST.err("every seat holds cards while the stock is not empty".into()));
    }
    let seat = |k: &str, def: i64| -> Result<usize> {
        match get(k) {
            Some(v) => Ok(ST.int(v, k, 0, n as i64 - 1)? as usize),
            None => Ok(def as usize),
        }
    };
    let a = seat("attacker", 0)?;
    x.dealer = seat("dealer", ((a + n - 1) % n) as i64)? as u8;
    if x.hands[a].is_empty() {
        return Err(ST.err(format!("the attacker (seat {a}) must hold cards")));
    }
    x.start_attack(a);
    let d = x.defender as usize;
    if d == a || x.hands[d].is_empty() {
        return Err(ST.err("the hand is over: no other seat holds cards".into()));
    }
    if let Some(v) = get("known") {
        for (s, k) in ST.list_of(v, "known", n)?.iter().enumerate() {
            let set = ST.card_set(k, &format!("known[{s}]"), true, false)?;
            if !set.is_subset(x.hands[s]) {
                return Err(ST.err(format!("known[{s}] must be cards of hands[{s}]")));
            }
            x.known[s] = set;
        }
    }
    if let Some(v) = get("losses") {
        for (s, l) in ST.list_of(v, "losses", n)?.iter().enumerate() {
            x.losses[s] = ST.int(l, &format!("losses[{s}]"), 0, 1_000_000_000)? as u32;
        }
    }
    let total: u64 = x.losses[..n].iter().map(|&l| l as u64).sum();
    let ended = match o.match_mode {
        super::MatchMode::SingleHand => total > 0,
        super::MatchMode::FirstToLosses => x.losses[..n].iter().any(|&l| l >= o.match_losses),
        super::MatchMode::FixedHands => total >= o.match_hands as u64,
    };
    if ended {
        return Err(ST.err("losses already end the match".into()));
    }
    x.hand_no = total as u32 + 1;
    let max_a = o.max_attacks.map_or(1_000_000_000, |m| m as i64 - 1);
    x.attacks = match get("attacks") {
        Some(v) => ST.int(v, "attacks", 0, max_a)? as u32,
        None => 0,
    };
    let seed = match get("seed") {
        Some(Value::Number(num)) if !num.is_f64() => num
            .as_u64()
            .ok_or_else(|| ST.err(format!("seed must be an int in 0..2**64-1, got {num}")))?,
        Some(v) => return Err(ST.err(format!("seed must be an int in 0..2**64-1, got {v}"))),
        None => 0,
    };
    x.rng = SplitMix64::new(seed);
    Ok(x)
}

pub(super) fn state_from_json(game: &MustaMaijaGame, text: &str) -> Result<MustaMaijaState> {
    let m = json::state_object(text, "musta_maija", STATE_KEYS, game.options_json())?;
    read_state(game, &m)
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
    let n = game.num_players();
    let o = game.options();
    let mut x = game.blank(0);
    x.rng = SplitMix64::new(ST.u64_text(&m["rng"], "rng")?);
    let mut seen = CardSet::EMPTY;
    for (s, h) in ST.list_of(&m["hands"], "hands", n)?.iter().enumerate() {
        x.hands[s] = ST.card_set(h, &format!("hands[{s}]"), false, true)?;
        ST.claim(&mut seen, x.hands[s], &format!("hands[{s}]"))?;
    }
    for (s, k) in ST.list_of(&m["known"], "known", n)?.iter().enumerate() {
        x.known[s] = ST.card_set(k, &format!("known[{s}]"), false, true)?;
        if !x.known[s].is_subset(x.hands[s]) {
            return Err(ST.err(format!("known[{s}] must be cards of hands[{s}]")));
        }
    }
    let stock = ST.cards(&m["stock"], "stock", false)?;
    let stock_set: CardSet = stock.iter().copied().collect();
    if stock_set.len() as usize != stock.len() {
        return Err(ST.err("stock: a card appears twice".into()));
    }
    ST.claim(&mut seen, stock_set, "stock")?;
    set_stock(&mut x, &stock);
    x.attack = ST.card_set(&m["attack"], "attack", false, true)?;
    ST.claim(&mut seen, x.attack, "attack")?;
    x.out_of_play = ST.card_set(&m["out_of_play"], "out_of_play", false, true)?;
    ST.claim(&mut seen, x.out_of_play, "out_of_play")?;
    if x.out_of_play.contains(MAIJA) {
        return Err(ST.err("Qs (Maija) can never be out of play".into()));
    }
    x.trump = ST.int(&m["trump"], "trump", -1, 51)? as i8;
    x.turned = ST.card_set(&m["turned"], "turned", false, true)?;
    let pairs = ST.list(&m["beaten"], "beaten")?;
    if pairs.len() > MAX_PAIRS {
        return Err(ST.err("beaten has too many pairs".into()));
    }
    for (i, p) in pairs.iter().enumerate() {
        let pc = ST.list_of(p, "a beaten pair", 2)?;
        let t = ST.card(&pc[0], "beaten target", false)?;
        let c = ST.card(&pc[1], "beaten card", false)?;
        if !x.attack.contains(t) || x.beaten_t.contains(t) {
            return Err(ST.err(format!("beaten target {t} must be an attack card, once")));
        }
        if i > 0 && x.pairs[i - 1][0] > t.0 {
            return Err(ST.err("beaten pairs must be in ascending target order".into()));
        }
        if !can_beat(t, c, x.trump_suit()) {
            return Err(ST.err(format!("{c} cannot beat {t}")));
        }
        ST.claim(&mut seen, CardSet::single(c), "beaten")?;
        x.pairs[i] = [t.0, c.0];
        x.beaten_t.insert(t);
        x.beaten_c.insert(c);
    }
    x.n_pairs = pairs.len() as u8;
    x.left = ST.card_set(&m["left"], "left", false, true)?;
    if !x.left.is_subset(x.attack) || !x.left.inter(x.beaten_t).is_empty() {
        return Err(ST.err("left must be attack cards that were not beaten".into()));
    }
    if seen.0 != ALL {
        return Err(ST.err(format!(
            "the 52 cards must each be in exactly one place; missing {}",
            CardSet(ALL & !seen.0)
        )));
    }
    x.phase = match m["phase"].as_str() {
        Some("attack") => Phase::Attack,
        Some("defend") => Phase::Defend,
        Some("end") => Phase::End,
        _ => {
            return Err(ST.err(format!(
                "phase must be attack, defend or end, got {}",
                m["phase"]
            )))
        }
    };
    let terminal = m["terminal"]
        .as_bool()
        .ok_or_else(|| ST.err("terminal must be a bool".into()))?;
    if terminal != (x.phase == Phase::End) {
        return Err(ST.err("terminal must be true exactly in the end phase".into()));
    }
    x.dealer = ST.int(&m["dealer"], "dealer", 0, n as i64 - 1)? as u8;
    x.attacks = ST.int(
        &m["attacks"],
        "attacks",
        0,
        o.max_attacks.map_or(1_000_000_000, |a| a as i64),
    )? as u32;
    x.hand_no = ST.int(&m["hand"], "hand", 1, 2_000_000_000)? as u32;
    for (s, l) in ST.list_of(&m["losses"], "losses", n)?.iter().enumerate() {
        x.losses[s] = ST.int(l, &format!("losses[{s}]"), 0, 1_000_000_000)? as u32;
    }
    let total: u64 = x.losses[..n].iter().map(|&l| l as u64).sum();
    if x.hand_no as u64 != total + if terminal { 0 } else { 1 } {
        return Err(ST.err(
            "hand must be the number of hands lost so far plus one (plus none at the end)".into(),
        ));
    }
    for h in ST.list(&m["history"], "history")? {
        x.history.push(ST.int(h, "history", 0, 53)? as u8);
    }
    if x.trump < 0 {
        if o.trump_reveal != TrumpReveal::AfterFirstLead
            || x.phase != Phase::Attack
            || x.attacks != 0
            || !x.turned.is_empty()
        {
            return Err(ST.err(
                "the trump card is turned except before the first commit with after_first_lead"
                    .into(),
            ));
        }
    } else if x.stock_len > 0 && stock.last().map(|c| c.0 as i8) != Some(x.trump) {
        // the trump card is turned from the bottom of the stock and stays there until drawn last
        return Err(
            ST.err("the trump card must be the last stock card while it is in the stock".into())
        );
    }
    let to_move = ST.int(&m["to_move"], "to_move", -1, n as i64 - 1)?;
    let attacker = ST.int(&m["attacker"], "attacker", -1, n as i64 - 1)?;
    let defender = ST.int(&m["defender"], "defender", -1, n as i64 - 1)?;
    let nonholders_ok = |skip: &[i64]| {
        x.stock_len == 0 || (0..n).all(|s| skip.contains(&(s as i64)) || !x.hands[s].is_empty())
    };
    match x.phase {
        Phase::End => {
            if attacker != -1 || defender != -1 || to_move != -1 {
                return Err(ST.err("a terminal state has attacker, defender and to_move -1".into()));
            }
            if !x.attack.is_empty() {
                return Err(ST.err("a terminal state has an empty table".into()));
            }
            x.attacker = -1;
            x.defender = -1;
        }
        _ => {
            if attacker < 0 {
                return Err(ST.err("attacker must be a seat".into()));
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
                return Err(
                    ST.err("defender must be the next active seat after the attacker".into())
                );
            }
            x.defender = defender as i8;
            let mover = if x.phase == Phase::Attack {
                attacker
            } else {
                defender
            };
            if to_move != mover {
                return Err(
                    ST.err("to_move must be the attacker in attack, the defender in defend".into())
                );
            }
            if x.phase == Phase::Attack {
                if x.n_pairs > 0 || !x.left.is_empty() {
                    return Err(ST.err("no target is decided in the attack phase".into()));
                }
                if x.hands[defender as usize].is_empty() {
                    return Err(ST.err("the defender must hold cards".into()));
                }
                if x.attack.is_empty() && x.hands[attacker as usize].is_empty() {
                    return Err(ST.err("the attacker must hold cards".into()));
                }
                let cap = o.attack_cap(x.hands[defender as usize].len());
                let suits = (0..4)
                    .filter(|&s| x.attack.0 & super::rules::suit_mask(s) != 0)
                    .count();
                if x.attack.len() > cap || suits > 1 {
                    return Err(ST.err("the attack being built is not a legal attack".into()));
                }
                if !nonholders_ok(&[attacker]) {
                    return Err(ST.err(
                        "every seat but the attacker holds cards while the stock is not empty"
                            .into(),
                    ));
                }
            } else {
                let und = x.undecided();
                if und.is_empty() {
                    return Err(ST.err("a defence has an undecided target".into()));
                }
                let decided = x.beaten_t.union(x.left);
                if decided
                    .last()
                    .is_some_and(|l| und.first().is_some_and(|f| l > f))
                {
                    return Err(ST.err("targets are decided in ascending order".into()));
                }
                if !nonholders_ok(&[attacker, defender]) {
                    return Err(
                        ST.err("every seat holds cards while the stock is not empty".into())
                    );
                }
            }
        }
    }
    if n > MAX_SEATS {
        return Err(ST.err("too many seats".into()));
    }
    Ok(x)
}
