//! Typed Mosca options and their resolution (docs/mosca_engine.md §2).

use serde_json::{Map, Value};

use crate::error::GameError;

type Result<T> = std::result::Result<T, GameError>;

/// A closed set of option words, with their canonical spellings.
macro_rules! str_enum {
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

str_enum!(AceRank { BetweenJackAndTen => "between_jack_and_ten", High => "high", Low => "low" });
str_enum!(Bankruptcy { AllowNegative => "allow_negative", EliminateAtZero => "eliminate_at_zero" });
str_enum!(Ante { DealerPaysN => "dealer_pays_N", EachPlayerPays1 => "each_player_pays_1", DealerPays5 => "dealer_pays_5" });
str_enum!(DealPackets { TwoThenThree => "2_then_3", ThreeThenTwo => "3_then_2", OneAtATime => "1_at_a_time" });
str_enum!(ExchangeLimit { Talon => "talon", Max3 => "max_3", Reshuffle => "reshuffle_discards_when_empty" });
str_enum!(MoscaTie { Split => "split", EldestWins => "eldest_wins" });
str_enum!(MoscaBonus { None => "none", EachOtherPays => "each_other_player_pays_penalty" });
str_enum!(LonePlayer { WinsPot => "wins_pot", PotCarries => "pot_carries", MustPlayTricks => "must_play_tricks" });
str_enum!(PenaltyTiming { BeforeAward => "before_award", NextPot => "next_pot" });
str_enum!(PotAward { MostTricks => "most_tricks", PerTrick => "per_trick" });
str_enum!(TrickTie { CarryOver => "carry_over", SplitEqually => "split_equally" });
str_enum!(LeftoverPot { Ignored => "ignored", SplitEquallyAmongAll => "split_equally_among_all" });

/// The largest magnitude of an integer option.
pub const MAX_INT_OPTION: i64 = 1_000_000_000;
pub const DECK_SIZES: [u8; 6] = [32, 36, 40, 44, 48, 52];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoscaOptions {
    pub players: u8,
    /// `None` = random.
    pub first_dealer: Option<u8>,
    /// Resolved size.
    pub deck: u8,
    pub ace_rank: AceRank,
    pub initial_chips: i64,
    pub bankruptcy: Bankruptcy,
    pub ante: Ante,
    pub deal_packets: DealPackets,
    pub dealer_may_take_turnup: bool,
    pub exchange_limit: ExchangeLimit,
    pub mosca_after_exchange: bool,
    pub mosca_tie: MoscaTie,
    pub mosca_bonus: MoscaBonus,
    pub lone_player: LonePlayer,
    pub must_head: bool,
    pub must_trump: bool,
    pub must_overtrump: bool,
    pub must_undertrump: bool,
    /// `None` = `pot`.
    pub no_trick_penalty: Option<i64>,
    pub penalty_timing: PenaltyTiming,
    pub pot_award: PotAward,
    pub trick_tie: TrickTie,
    pub match_deals: i64,
    pub leftover_pot: LeftoverPot,
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

/// An int of `v` (None when `v` is not an integer that fits in i64).
fn as_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) if !n.is_f64() => n.as_i64(),
        _ => None,
    }
}

fn get_int(key: &str, v: &Value, lo: i64, hi: i64) -> Result<i64> {
    match as_int(v) {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(opt_err(format!(
            "option {key} must be an int in {lo}..{hi}, got {} {v}",
            type_name(v)
        ))),
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
    match v {
        Value::String(s) => parse(s),
        _ => None,
    }
    .ok_or_else(|| {
        opt_err(format!(
            "option {key} must be one of {}, got {v}",
            names.join(", ")
        ))
    })
}

/// The `auto` deck for `n` players: the smallest whose talon holds at least 3n cards.
pub fn auto_deck(n: u8) -> u8 {
    let n = n as usize;
    DECK_SIZES
        .iter()
        .copied()
        .find(|&d| d as usize >= 5 * n + 1 + 3 * n)
        .unwrap_or(52)
}

impl MoscaOptions {
    /// Every resolved option key, sorted (the order of the canonical JSON).
    pub const KEYS: [&'static str; 24] = [
        "ace_rank",
        "ante",
        "bankruptcy",
        "deal_packets",
        "dealer_may_take_turnup",
        "deck",
        "exchange_limit",
        "first_dealer",
        "initial_chips",
        "leftover_pot",
        "lone_player",
        "match_deals",
        "mosca_after_exchange",
        "mosca_bonus",
        "mosca_tie",
        "must_head",
        "must_overtrump",
        "must_trump",
        "must_undertrump",
        "no_trick_penalty",
        "penalty_timing",
        "players",
        "pot_award",
        "trick_tie",
    ];

    /// Resolves user options (a JSON object) against the defaults.
    pub fn resolve(v: &Value) -> Result<MoscaOptions> {
        let Value::Object(m) = v else {
            return Err(opt_err(format!(
                "options must be a dict, got {}",
                type_name(v)
            )));
        };
        for k in m.keys() {
            if !Self::KEYS.contains(&k.as_str()) {
                return Err(opt_err(format!(
                    "unknown option {k:?} for mosca: expected one of {}",
                    Self::KEYS.join(", ")
                )));
            }
        }
        let players = match m.get("players") {
            Some(x) => get_int("players", x, 2, 6)? as u8,
            None => 4,
        };
        let n = players as i64;
        let mut o = MoscaOptions {
            players,
            first_dealer: None,
            deck: auto_deck(players),
            ace_rank: AceRank::BetweenJackAndTen,
            initial_chips: 100,
            bankruptcy: Bankruptcy::AllowNegative,
            ante: Ante::DealerPaysN,
            deal_packets: DealPackets::TwoThenThree,
            dealer_may_take_turnup: true,
            exchange_limit: ExchangeLimit::Talon,
            mosca_after_exchange: false,
            mosca_tie: MoscaTie::Split,
            mosca_bonus: MoscaBonus::None,
            lone_player: LonePlayer::WinsPot,
            must_head: true,
            must_trump: true,
            must_overtrump: true,
            must_undertrump: true,
            no_trick_penalty: Some(2),
            penalty_timing: PenaltyTiming::BeforeAward,
            pot_award: PotAward::MostTricks,
            trick_tie: TrickTie::CarryOver,
            match_deals: 2 * n,
            leftover_pot: LeftoverPot::Ignored,
        };
        for (k, x) in m {
            match k.as_str() {
                "players" => {}
                "first_dealer" => {
                    o.first_dealer = match x {
                        Value::String(s) if s == "random" => None,
                        _ => match as_int(x) {
                            Some(s) if (0..n).contains(&s) => Some(s as u8),
                            _ => {
                                return Err(opt_err(format!(
                                    "option first_dealer must be \"random\" or a seat 0..{}, got {x}",
                                    n - 1
                                )))
                            }
                        },
                    }
                }
                "deck" => {
                    o.deck = match x {
                        Value::String(s) if s == "auto" => auto_deck(players),
                        _ => match as_int(x) {
                            Some(d) if DECK_SIZES.contains(&(d.clamp(0, 255) as u8)) && d <= 52 => {
                                d as u8
                            }
                            _ => {
                                return Err(opt_err(format!(
                                    "option deck must be \"auto\" or one of 32, 36, 40, 44, 48, 52, got {x}"
                                )))
                            }
                        },
                    }
                }
                "ace_rank" => o.ace_rank = get_word(k, x, AceRank::NAMES, AceRank::parse)?,
                "initial_chips" => {
                    o.initial_chips = get_int(k, x, -MAX_INT_OPTION, MAX_INT_OPTION)?
                }
                "bankruptcy" => {
                    o.bankruptcy = get_word(k, x, Bankruptcy::NAMES, Bankruptcy::parse)?
                }
                "ante" => o.ante = get_word(k, x, Ante::NAMES, Ante::parse)?,
                "deal_packets" => {
                    o.deal_packets = get_word(k, x, DealPackets::NAMES, DealPackets::parse)?
                }
                "dealer_may_take_turnup" => o.dealer_may_take_turnup = get_bool(k, x)?,
                "exchange_limit" => {
                    o.exchange_limit = get_word(k, x, ExchangeLimit::NAMES, ExchangeLimit::parse)?
                }
                "mosca_after_exchange" => o.mosca_after_exchange = get_bool(k, x)?,
                "mosca_tie" => o.mosca_tie = get_word(k, x, MoscaTie::NAMES, MoscaTie::parse)?,
                "mosca_bonus" => {
                    o.mosca_bonus = get_word(k, x, MoscaBonus::NAMES, MoscaBonus::parse)?
                }
                "lone_player" => {
                    o.lone_player = get_word(k, x, LonePlayer::NAMES, LonePlayer::parse)?
                }
                "must_head" => o.must_head = get_bool(k, x)?,
                "must_trump" => o.must_trump = get_bool(k, x)?,
                "must_overtrump" => o.must_overtrump = get_bool(k, x)?,
                "must_undertrump" => o.must_undertrump = get_bool(k, x)?,
                "no_trick_penalty" => {
                    o.no_trick_penalty = match x {
                        Value::String(s) if s == "pot" => None,
                        _ => match as_int(x) {
                            Some(p) if (0..=MAX_INT_OPTION).contains(&p) => Some(p),
                            _ => {
                                return Err(opt_err(format!(
                                    "option no_trick_penalty must be an int in 0..{MAX_INT_OPTION} or \"pot\", got {x}"
                                )))
                            }
                        },
                    }
                }
                "penalty_timing" => {
                    o.penalty_timing = get_word(k, x, PenaltyTiming::NAMES, PenaltyTiming::parse)?
                }
                "pot_award" => o.pot_award = get_word(k, x, PotAward::NAMES, PotAward::parse)?,
                "trick_tie" => o.trick_tie = get_word(k, x, TrickTie::NAMES, TrickTie::parse)?,
                "match_deals" => o.match_deals = get_int(k, x, 1, MAX_INT_OPTION)?,
                "leftover_pot" => {
                    o.leftover_pot = get_word(k, x, LeftoverPot::NAMES, LeftoverPot::parse)?
                }
                _ => {} // unknown keys were refused above
            }
        }
        if (o.deck as usize) < 5 * players as usize + 1 {
            return Err(opt_err(format!(
                "deck {} is too small for {players} players: it needs at least {} cards",
                o.deck,
                5 * players as usize + 1
            )));
        }
        Ok(o)
    }

    /// The resolved options as a JSON object (keys sorted by serde_json's map).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        let s = |x: &str| Value::String(x.to_string());
        m.insert("ace_rank".into(), s(self.ace_rank.as_str()));
        m.insert("ante".into(), s(self.ante.as_str()));
        m.insert("bankruptcy".into(), s(self.bankruptcy.as_str()));
        m.insert("deal_packets".into(), s(self.deal_packets.as_str()));
        m.insert(
            "dealer_may_take_turnup".into(),
            Value::Bool(self.dealer_may_take_turnup),
        );
        m.insert("deck".into(), Value::from(self.deck));
        m.insert("exchange_limit".into(), s(self.exchange_limit.as_str()));
        m.insert(
            "first_dealer".into(),
            match self.first_dealer {
                None => s("random"),
                Some(d) => Value::from(d),
            },
        );
        m.insert("initial_chips".into(), Value::from(self.initial_chips));
        m.insert("leftover_pot".into(), s(self.leftover_pot.as_str()));
        m.insert("lone_player".into(), s(self.lone_player.as_str()));
        m.insert("match_deals".into(), Value::from(self.match_deals));
        m.insert(
            "mosca_after_exchange".into(),
            Value::Bool(self.mosca_after_exchange),
        );
        m.insert("mosca_bonus".into(), s(self.mosca_bonus.as_str()));
        m.insert("mosca_tie".into(), s(self.mosca_tie.as_str()));
        m.insert("must_head".into(), Value::Bool(self.must_head));
        m.insert("must_overtrump".into(), Value::Bool(self.must_overtrump));
        m.insert("must_trump".into(), Value::Bool(self.must_trump));
        m.insert("must_undertrump".into(), Value::Bool(self.must_undertrump));
        m.insert(
            "no_trick_penalty".into(),
            match self.no_trick_penalty {
                None => s("pot"),
                Some(p) => Value::from(p),
            },
        );
        m.insert("penalty_timing".into(), s(self.penalty_timing.as_str()));
        m.insert("players".into(), Value::from(self.players));
        m.insert("pot_award".into(), s(self.pot_award.as_str()));
        m.insert("trick_tie".into(), s(self.trick_tie.as_str()));
        Value::Object(m)
    }
}

impl Default for MoscaOptions {
    fn default() -> Self {
        MoscaOptions::resolve(&Value::Object(Map::new())).expect("the defaults are valid")
    }
}
