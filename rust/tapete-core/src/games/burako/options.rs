//! Burako options (docs/burako_engine.md §2): one table of specs, resolved to canonical JSON and to
//! a typed struct.

use serde_json::{Map, Value};

use crate::error::GameError;

type Result<T> = std::result::Result<T, GameError>;

pub const MAX_INT_OPTION: i64 = 1_000_000_000;

#[derive(Clone, Copy)]
enum Spec {
    Bool(bool),
    /// Allowed words, the first is the default.
    Words(&'static [&'static str]),
    /// Allowed ints, the first is the default.
    Ints(&'static [i64]),
    /// An int in lo..=hi, with its default.
    Range(i64, i64, i64),
    /// An int from the list or a word; default is the first int.
    IntsOrWords(&'static [i64], &'static [&'static str]),
    /// `random` (default) or a seat.
    Seat,
}

/// Every option, in the contract's table order.
const SPECS: &[(&str, Spec)] = &[
    ("variant", Spec::Words(&["standard"])),
    ("players", Spec::Ints(&[4, 2])),
    ("first_mano", Spec::Seat),
    ("two_player_hand", Spec::Ints(&[12, 15, 22])),
    ("muerto_size", Spec::IntsOrWords(&[11], &["hand_size"])),
    ("twos_wild", Spec::Bool(true)),
    (
        "two_value",
        Spec::Words(&["always_20", "natural_5_wild_20"]),
    ),
    ("joker_value", Spec::Ints(&[50, 30])),
    (
        "max_wilds_per_meld",
        Spec::IntsOrWords(&[1, 2], &["fewer_than_naturals", "unlimited"]),
    ),
    (
        "pierna_of_twos",
        Spec::Words(&["forbidden", "allowed_as_naturals"]),
    ),
    (
        "ace_position",
        Spec::Words(&["low_or_high", "high_only", "low_only"]),
    ),
    ("ace_to_ace_run", Spec::Words(&["allowed", "forbidden"])),
    ("run_wrap", Spec::Bool(false)),
    ("canasta_min", Spec::Range(3, 14, 7)),
    (
        "close_requirement",
        Spec::Words(&["any_canasta", "pure_canasta"]),
    ),
    (
        "close_mode",
        Spec::Words(&["meld_or_discard", "discard_required", "meld_required"]),
    ),
    ("first_player_redraw", Spec::Bool(true)),
    (
        "pozo_take_requirement",
        Spec::Words(&["none", "must_use_top_tile_now"]),
    ),
    (
        "single_tile_pozo_rediscard",
        Spec::Words(&["allowed", "forbidden"]),
    ),
    ("pozo_visibility", Spec::Words(&["all_tiles", "top_only"])),
    ("no_canasta_melds_negative", Spec::Bool(true)),
    (
        "indirect_muerto_unplayed",
        Spec::Words(&["counts_as_taken", "counts_as_not_taken"]),
    ),
    (
        "stock_exhausted",
        Spec::Words(&["end_hand_after_turn", "muerto_becomes_stock"]),
    ),
    ("max_cancels_per_turn", Spec::Range(1, MAX_INT_OPTION, 5)),
    ("max_turns", Spec::Range(1, MAX_INT_OPTION, 300)),
    ("match", Spec::Words(&["to_target", "single_hand"])),
    ("target", Spec::Range(1, MAX_INT_OPTION, 3000)),
    ("max_hands", Spec::Range(1, MAX_INT_OPTION, 50)),
    ("next_mano", Spec::Words(&["rotate", "loser_starts"])),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxWilds {
    One,
    Two,
    FewerThanNaturals,
    /// No limit (a meld still needs one natural, docs/burako_engine.md §2).
    Unlimited,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcePos {
    LowOrHigh,
    HighOnly,
    LowOnly,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CloseMode {
    MeldOrDiscard,
    DiscardRequired,
    MeldRequired,
}

/// The options that shape melds (all `classify_meld` needs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MeldRules {
    pub twos_wild: bool,
    pub two_natural_5: bool,
    pub joker_value: i32,
    pub max_wilds: MaxWilds,
    pub pierna_of_twos: bool,
    pub ace: AcePos,
    pub ace_to_ace: bool,
    /// `run_wrap`: a run may turn the corner 13-1-2 (docs/burako_engine.md §3).
    pub run_wrap: bool,
    pub canasta_min: u32,
}

/// Typed, resolved options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BurakoOptions {
    pub players: usize,
    /// `None` = random.
    pub first_mano: Option<usize>,
    pub hand_size: usize,
    pub muerto_size: usize,
    pub meld: MeldRules,
    pub pure_canasta_to_close: bool,
    pub close_mode: CloseMode,
    pub redraw: bool,
    pub must_use_top: bool,
    pub no_rediscard: bool,
    pub pozo_top_only: bool,
    pub no_canasta_negative: bool,
    pub unplayed_not_taken: bool,
    pub muerto_to_stock: bool,
    pub max_cancels: u32,
    pub max_turns: u32,
    pub single_hand: bool,
    pub target: i64,
    pub max_hands: u32,
    pub loser_starts: bool,
}

fn opt_err(msg: String) -> GameError {
    GameError::InvalidOption(msg)
}

fn int_of(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) if !n.is_f64() => n.as_i64().or(Some(i64::MAX)),
        _ => None,
    }
}

fn check(key: &str, spec: Spec, v: &Value) -> Result<Value> {
    let shown = v.to_string();
    match spec {
        Spec::Bool(_) => match v {
            Value::Bool(_) => Ok(v.clone()),
            _ => Err(opt_err(format!(
                "option {key} must be a bool (true or false), got {shown}"
            ))),
        },
        Spec::Words(ws) => match v.as_str() {
            Some(s) if ws.contains(&s) => Ok(v.clone()),
            _ => Err(opt_err(format!(
                "option {key} must be one of {}, got {shown}",
                ws.join(", ")
            ))),
        },
        Spec::Ints(is) => match int_of(v) {
            Some(i) if is.contains(&i) => Ok(Value::from(i)),
            _ => Err(opt_err(format!(
                "option {key} must be one of {}, got {shown}",
                is.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        },
        Spec::Range(lo, hi, _) => match int_of(v) {
            Some(i) if (lo..=hi).contains(&i) => Ok(Value::from(i)),
            _ => Err(opt_err(format!(
                "option {key} must be an int in {lo}..{hi}, got {shown}"
            ))),
        },
        Spec::IntsOrWords(is, ws) => match (int_of(v), v.as_str()) {
            (Some(i), _) if is.contains(&i) => Ok(Value::from(i)),
            (_, Some(s)) if ws.contains(&s) => Ok(v.clone()),
            _ => Err(opt_err(format!(
                "option {key} must be one of {}, {}, got {shown}",
                is.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                ws.join(", ")
            ))),
        },
        // the seat range is checked once players is known
        Spec::Seat => match (int_of(v), v.as_str()) {
            (Some(i), _) if (0..4).contains(&i) => Ok(Value::from(i)),
            (_, Some("random")) => Ok(v.clone()),
            _ => Err(opt_err(format!(
                "option {key} must be random or a seat int 0..players-1, got {shown}"
            ))),
        },
    }
}

fn default_of(spec: Spec) -> Value {
    match spec {
        Spec::Bool(b) => Value::Bool(b),
        Spec::Words(ws) => Value::from(ws[0]),
        Spec::Ints(is) | Spec::IntsOrWords(is, _) => Value::from(is[0]),
        Spec::Range(_, _, d) => Value::from(d),
        Spec::Seat => Value::from("random"),
    }
}

impl BurakoOptions {
    /// Resolves user options (a JSON object) to (typed options, canonical resolved map).
    pub fn resolve(input: &Value) -> Result<(BurakoOptions, Map<String, Value>)> {
        let Value::Object(map) = input else {
            return Err(opt_err(
                "options must be a JSON object of option names to values".into(),
            ));
        };
        for key in map.keys() {
            if !SPECS.iter().any(|(k, _)| k == key) {
                let names: Vec<&str> = SPECS.iter().map(|(k, _)| *k).collect();
                return Err(opt_err(format!(
                    "unknown option {key:?}: known options are {}",
                    names.join(", ")
                )));
            }
        }
        let mut out = Map::new();
        for (key, spec) in SPECS {
            let v = match map.get(*key) {
                Some(v) => check(key, *spec, v)?,
                None => default_of(*spec),
            };
            out.insert(key.to_string(), v);
        }
        let o = BurakoOptions::from_map(&out);
        if let Some(m) = o.first_mano {
            if m >= o.players {
                return Err(opt_err(format!(
                    "option first_mano must be random or a seat int 0..{}, got {m}",
                    o.players - 1
                )));
            }
        }
        Ok((o, out))
    }

    /// Typed view of an already checked map.
    fn from_map(m: &Map<String, Value>) -> BurakoOptions {
        let s = |k: &str| m[k].as_str().unwrap_or("").to_string();
        let i = |k: &str| m[k].as_i64().unwrap_or(0);
        let b = |k: &str| m[k].as_bool().unwrap_or(false);
        let players = i("players") as usize;
        let hand_size = if players == 4 {
            11
        } else {
            i("two_player_hand") as usize
        };
        BurakoOptions {
            players,
            first_mano: m["first_mano"].as_i64().map(|x| x as usize),
            hand_size,
            muerto_size: if m["muerto_size"].is_string() {
                hand_size
            } else {
                11
            },
            meld: MeldRules {
                twos_wild: b("twos_wild"),
                two_natural_5: s("two_value") == "natural_5_wild_20",
                joker_value: i("joker_value") as i32,
                max_wilds: match (
                    m["max_wilds_per_meld"].as_i64(),
                    m["max_wilds_per_meld"].as_str(),
                ) {
                    (_, Some("unlimited")) => MaxWilds::Unlimited,
                    (_, Some(_)) => MaxWilds::FewerThanNaturals,
                    (Some(2), _) => MaxWilds::Two,
                    _ => MaxWilds::One,
                },
                pierna_of_twos: s("pierna_of_twos") == "allowed_as_naturals",
                ace: match s("ace_position").as_str() {
                    "high_only" => AcePos::HighOnly,
                    "low_only" => AcePos::LowOnly,
                    _ => AcePos::LowOrHigh,
                },
                ace_to_ace: s("ace_to_ace_run") == "allowed",
                run_wrap: b("run_wrap"),
                canasta_min: i("canasta_min") as u32,
            },
            pure_canasta_to_close: s("close_requirement") == "pure_canasta",
            close_mode: match s("close_mode").as_str() {
                "discard_required" => CloseMode::DiscardRequired,
                "meld_required" => CloseMode::MeldRequired,
                _ => CloseMode::MeldOrDiscard,
            },
            redraw: b("first_player_redraw"),
            must_use_top: s("pozo_take_requirement") == "must_use_top_tile_now",
            no_rediscard: s("single_tile_pozo_rediscard") == "forbidden",
            pozo_top_only: s("pozo_visibility") == "top_only",
            no_canasta_negative: b("no_canasta_melds_negative"),
            unplayed_not_taken: s("indirect_muerto_unplayed") == "counts_as_not_taken",
            muerto_to_stock: s("stock_exhausted") == "muerto_becomes_stock",
            max_cancels: i("max_cancels_per_turn") as u32,
            max_turns: i("max_turns") as u32,
            single_hand: s("match") == "single_hand",
            target: i("target"),
            max_hands: i("max_hands") as u32,
            loser_starts: s("next_mano") == "loser_starts",
        }
    }
}
