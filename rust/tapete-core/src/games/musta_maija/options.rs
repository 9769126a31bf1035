//! Typed Musta Maija options, presets and their resolution (contract §2).

use serde_json::{Map, Value};

use crate::error::GameError;

type Result<T> = std::result::Result<T, GameError>;

/// The largest value of any integer option (contract §2).
pub const MAX_INT_OPTION: i64 = 1_000_000_000;

macro_rules! word_enum {
    ($name:ident { $($var:ident => $text:literal),+ $(,)? }) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $name { $($var),+ }
        impl $name {
            pub const NAMES: &'static [&'static str] = &[$($text),+];
            pub fn as_str(self) -> &'static str {
                match self { $($name::$var => $text),+ }
            }
            pub fn parse(s: &str) -> Option<Self> {
                match s { $($text => Some($name::$var),)+ _ => None }
            }
        }
    };
}

word_enum!(Variant { Standard => "standard", Pagat => "pagat" });
word_enum!(TrumpReveal { AtDeal => "at_deal", AfterFirstLead => "after_first_lead" });
word_enum!(SpadeReinsert { Middle => "middle", RandomPosition => "random_position" });
word_enum!(AttackLimit {
    DefenderHandSize => "defender_hand_size",
    Unlimited => "unlimited",
    DefenderHandSizeMax5 => "defender_hand_size_max_5",
});
word_enum!(DrawOrder {
    AttackerThenDefender => "attacker_then_defender",
    DefenderThenAttacker => "defender_then_attacker",
});
word_enum!(NextDealer { Loser => "loser", RotateLeft => "rotate_left" });
word_enum!(MatchMode {
    SingleHand => "single_hand",
    FixedHands => "fixed_hands",
    FirstToLosses => "first_to_losses",
});

/// Every resolved option, in the contract's table order.
pub const OPTION_KEYS: &[&str] = &[
    "variant",
    "players",
    "first_dealer",
    "hand_size",
    "trump_reveal",
    "spades_can_be_trump",
    "spade_reinsert",
    "attack_limit",
    "beat_optional",
    "draw_order",
    "next_dealer",
    "match",
    "match_hands",
    "match_losses",
    "max_attacks",
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MustaMaijaOptions {
    pub variant: Variant,
    pub players: u8,
    /// `None` = random (one draw).
    pub first_dealer: Option<u8>,
    pub hand_size: u32,
    pub trump_reveal: TrumpReveal,
    pub spades_can_be_trump: bool,
    pub spade_reinsert: SpadeReinsert,
    pub attack_limit: AttackLimit,
    pub beat_optional: bool,
    pub draw_order: DrawOrder,
    pub next_dealer: NextDealer,
    pub match_mode: MatchMode,
    pub match_hands: u32,
    pub match_losses: u32,
    pub max_attacks: Option<u32>,
}

impl Default for MustaMaijaOptions {
    fn default() -> Self {
        MustaMaijaOptions {
            variant: Variant::Standard,
            players: 4,
            first_dealer: None,
            hand_size: 5,
            trump_reveal: TrumpReveal::AtDeal,
            spades_can_be_trump: false,
            spade_reinsert: SpadeReinsert::Middle,
            attack_limit: AttackLimit::DefenderHandSize,
            beat_optional: true,
            draw_order: DrawOrder::AttackerThenDefender,
            next_dealer: NextDealer::Loser,
            match_mode: MatchMode::SingleHand,
            match_hands: 5,
            match_losses: 3,
            max_attacks: Some(1000),
        }
    }
}

fn opt_err(msg: String) -> GameError {
    GameError::InvalidOption(msg)
}

fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a bool",
        Value::Number(n) if n.is_f64() => "a float",
        Value::Number(_) => "an int",
        Value::String(_) => "a str",
        Value::Array(_) => "a list",
        Value::Object(_) => "a dict",
    }
}

/// An int option in `lo..=hi`; a float, bool or too-large int is refused with the allowed range.
fn get_int(key: &str, v: &Value, lo: i64, hi: i64) -> Result<i64> {
    let bad = || {
        opt_err(format!(
            "option {key} must be an int in {lo}..{hi}, got {} {v}",
            type_name(v)
        ))
    };
    match v {
        Value::Number(n) if !n.is_f64() => match n.as_i64() {
            Some(x) if (lo..=hi).contains(&x) => Ok(x),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

fn get_bool(key: &str, v: &Value) -> Result<bool> {
    match v {
        Value::Bool(b) => Ok(*b),
        _ => Err(opt_err(format!(
            "option {key} must be a bool (true or false), got {} {v}",
            type_name(v)
        ))),
    }
}

fn get_word<T>(key: &str, v: &Value, names: &[&str], parse: fn(&str) -> Option<T>) -> Result<T> {
    let bad = || {
        opt_err(format!(
            "option {key} must be one of {}, got {v}",
            names.join(", ")
        ))
    };
    match v {
        Value::String(s) => parse(s).ok_or_else(bad),
        _ => Err(bad()),
    }
}

impl MustaMaijaOptions {
    /// Sets one option from its JSON value, checking its type and its own range.
    fn set(&mut self, key: &str, v: &Value) -> Result<()> {
        match key {
            "variant" => self.variant = get_word(key, v, Variant::NAMES, Variant::parse)?,
            "players" => self.players = get_int(key, v, 2, 6)? as u8,
            "first_dealer" => {
                self.first_dealer = match v {
                    Value::String(s) if s == "random" => None,
                    Value::Number(n) if !n.is_f64() => match n.as_i64() {
                        Some(x) if (0..6).contains(&x) => Some(x as u8),
                        _ => {
                            return Err(opt_err(format!(
                            "option first_dealer must be 'random' or a seat 0..players-1, got {v}"
                        )))
                        }
                    },
                    _ => {
                        return Err(opt_err(format!(
                        "option first_dealer must be 'random' or a seat 0..players-1, got {} {v}",
                        type_name(v)
                    )))
                    }
                }
            }
            "hand_size" => self.hand_size = get_int(key, v, 1, MAX_INT_OPTION)? as u32,
            "trump_reveal" => {
                self.trump_reveal = get_word(key, v, TrumpReveal::NAMES, TrumpReveal::parse)?
            }
            "spades_can_be_trump" => self.spades_can_be_trump = get_bool(key, v)?,
            "spade_reinsert" => {
                self.spade_reinsert = get_word(key, v, SpadeReinsert::NAMES, SpadeReinsert::parse)?
            }
            "attack_limit" => {
                self.attack_limit = get_word(key, v, AttackLimit::NAMES, AttackLimit::parse)?
            }
            "beat_optional" => self.beat_optional = get_bool(key, v)?,
            "draw_order" => self.draw_order = get_word(key, v, DrawOrder::NAMES, DrawOrder::parse)?,
            "next_dealer" => {
                self.next_dealer = get_word(key, v, NextDealer::NAMES, NextDealer::parse)?
            }
            "match" => self.match_mode = get_word(key, v, MatchMode::NAMES, MatchMode::parse)?,
            "match_hands" => self.match_hands = get_int(key, v, 1, MAX_INT_OPTION)? as u32,
            "match_losses" => self.match_losses = get_int(key, v, 1, MAX_INT_OPTION)? as u32,
            "max_attacks" => {
                self.max_attacks = if v.is_null() {
                    None
                } else {
                    Some(
                        get_int(key, v, 1, MAX_INT_OPTION)
                            .map_err(|e| opt_err(format!("{} (or null)", e.message())))?
                            as u32,
                    )
                }
            }
            _ => {
                return Err(opt_err(format!(
                    "unknown option {key:?}: known options are {}",
                    OPTION_KEYS.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// Resolves user options (a JSON object): defaults → preset → explicit options.
    pub fn resolve(input: &Value) -> Result<MustaMaijaOptions> {
        let Value::Object(map) = input else {
            return Err(opt_err(format!(
                "options must be a JSON object of option names to values, got {}",
                type_name(input)
            )));
        };
        let mut o = MustaMaijaOptions::default();
        for (k, v) in map {
            o.set(k, v)?;
        }
        let mut r = MustaMaijaOptions::default();
        if o.variant == Variant::Pagat {
            r.trump_reveal = TrumpReveal::AfterFirstLead;
        }
        r.variant = o.variant;
        for (k, v) in map {
            r.set(k, v)?;
        }
        r.validate()?;
        Ok(r)
    }

    fn validate(&self) -> Result<()> {
        let n = self.players as u32;
        if let Some(d) = self.first_dealer {
            if d as u32 >= n {
                return Err(opt_err(format!(
                    "option first_dealer must be 'random' or a seat 0..{}, got {d}",
                    n - 1
                )));
            }
        }
        if n as u64 * self.hand_size as u64 > 51 {
            return Err(opt_err(format!(
                "players*hand_size must be at most 51 so that the stock is not empty, got {n}*{}",
                self.hand_size
            )));
        }
        Ok(())
    }

    pub fn value_of(&self, key: &str) -> Value {
        match key {
            "variant" => self.variant.as_str().into(),
            "players" => self.players.into(),
            "first_dealer" => match self.first_dealer {
                None => "random".into(),
                Some(d) => d.into(),
            },
            "hand_size" => self.hand_size.into(),
            "trump_reveal" => self.trump_reveal.as_str().into(),
            "spades_can_be_trump" => self.spades_can_be_trump.into(),
            "spade_reinsert" => self.spade_reinsert.as_str().into(),
            "attack_limit" => self.attack_limit.as_str().into(),
            "beat_optional" => self.beat_optional.into(),
            "draw_order" => self.draw_order.as_str().into(),
            "next_dealer" => self.next_dealer.as_str().into(),
            "match" => self.match_mode.as_str().into(),
            "match_hands" => self.match_hands.into(),
            "match_losses" => self.match_losses.into(),
            "max_attacks" => match self.max_attacks {
                None => Value::Null,
                Some(m) => m.into(),
            },
            _ => Value::Null,
        }
    }

    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        for k in OPTION_KEYS {
            m.insert((*k).to_string(), self.value_of(k));
        }
        Value::Object(m)
    }

    /// Canonical JSON (serde_json maps are sorted by key).
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// The most cards an attack may hold against a defender holding `defender` cards.
    #[inline]
    pub fn attack_cap(&self, defender: u32) -> u32 {
        match self.attack_limit {
            AttackLimit::DefenderHandSize => defender,
            AttackLimit::Unlimited => 52,
            AttackLimit::DefenderHandSizeMax5 => defender.min(5),
        }
    }
}
