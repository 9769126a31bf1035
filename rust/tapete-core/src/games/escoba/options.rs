//! Typed Escoba options, presets and their resolution (docs/escoba_engine.md §2).

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::GameError;

use super::rules::PACK_MASK;

type Result<T> = std::result::Result<T, GameError>;

/// A closed set of option words, with their canonical spellings.
macro_rules! str_enum {
    ($(#[$m:meta])* $name:ident { $($var:ident => $text:literal),+ $(,)? }) => {
        $(#[$m])*
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

str_enum!(Variant {
    Scopa => "scopa", Escoba => "escoba", Scopa15 => "scopa_15", Scopa11 => "scopa_11",
    AssoPigliaTutto => "asso_piglia_tutto", ScopaDAssi => "scopa_d_assi",
    Sbarazzina => "sbarazzina", Scopone9 => "scopone_9", Scopone10 => "scopone_10",
    Differenze => "differenze", Inversa => "inversa", SommaEDifferenza => "somma_e_differenza",
    ModuloSette => "modulo_sette", PuntiADenari => "punti_a_denari", NonPrendere => "non_prendere",
    AssiNonPrendere => "assi_non_prendere", ScoponeRomano => "scopone_romano", Frac => "frac",
    Tuzzulicchio => "tuzzulicchio", Cocchiaundici => "cocchiaundici",
    Rubamazzo => "rubamazzo", RubamazzoSomma => "rubamazzo_somma",
    Maresciallo => "maresciallo",
    ScoponeRomanoContrario => "scopone_romano_contrario", Cirulla => "cirulla", Bazzica => "bazzica",
    Fidasse => "fidasse", Granja => "granja", Cicera => "cicera",
    Maresciallo80 => "maresciallo_80",
});
str_enum!(Deck {
    Italian40 => "italian40", Spanish40 => "spanish40", French40 => "french40",
    Italian52 => "italian52", DoubleItalian80 => "double_italian80",
});
str_enum!(CourtCapture { Value => "value", SameRank => "same_rank" });
str_enum!(CiceraDeal { D12_4 => "12+4", D13_0 => "13+0" });
str_enum!(Partnership { Auto => "auto", None => "none" });
str_enum!(Direction { Ccw => "ccw", Cw => "cw" });
str_enum!(FirstDealer { Random => "random", DealUntilKd => "deal_until_Kd" });
str_enum!(TableBonus { None => "none", Sum15_30 => "sum15_30" });
str_enum!(ManoTo { Dealer => "dealer", Eldest => "eldest" });
str_enum!(Mano30 { Total => "total", Partition => "partition" });
str_enum!(Fewest { None => "none", All => "all", SimpleOnly => "simple_only", Sum15Only => "sum15_only" });
str_enum!(Obligation {
    PlayedCard => "played_card", AnyCard => "any_card", Optional => "optional",
    PlayedCardNumerals => "played_card_numerals",
});
str_enum!(AceEmpty { SelfCapture => "self_capture", Trail => "trail" });
str_enum!(PrimieraMode {
    Standard => "standard", Veneto => "veneto", Milan => "milan",
    ThreeSevens => "three_sevens", None => "none",
});
str_enum!(TiePolicy { Nobody => "nobody", AllTied => "all_tied" });
str_enum!(GameMode { Match => "match", SingleDeal => "single_deal" });
str_enum!(TargetMode { Win => "win", Lose => "lose", Eliminate => "eliminate" });
str_enum!(ElimDeal { Table => "table", NoTable => "no_table" });
str_enum!(WinCheck { HighestUnique => "highest_unique", CountOut => "count_out" });
str_enum!(Scoring { Standard => "standard", Frac => "frac" });
str_enum!(MarescialloSweep { Replace => "replace", Total => "total" });
str_enum!(DonnaRank { J => "J", Q => "Q" });

/// Capture kinds as bits, in canonical order.
pub const KIND_MATCH: u8 = 1;
pub const KIND_SUM: u8 = 2;
pub const KIND_SUM15: u8 = 4;
pub const KIND_SUM11: u8 = 8;
pub const KIND_DIFF: u8 = 16;
pub const KIND_NAMES: [(&str, u8); 5] = [
    ("match", KIND_MATCH),
    ("sum", KIND_SUM),
    ("sum15", KIND_SUM15),
    ("sum11", KIND_SUM11),
    ("diff", KIND_DIFF),
];

/// Milan tie-break ranks, as rank numbers 1..=13 (A=1, J=11 …).
const MILAN_CHARS: &str = "A234567JQK";

/// Every resolved option, in the contract's table order.
pub const OPTION_KEYS: &[&str] = &[
    "variant",
    "deck",
    "players",
    "partnership",
    "direction",
    "first_dealer",
    "initial_table_cards",
    "cards_per_hand",
    "void_deal_min_kings",
    "void_deal_min_aces",
    "initial_table_bonus",
    "escoba_de_mano_to",
    "escoba_de_mano_30",
    "initial_table_le9",
    "capture_kinds",
    "value_modulus",
    "normal_captures",
    "match_priority",
    "match_priority_kinds",
    "fewest_cards",
    "capture_obligation",
    "ace_takes_all",
    "ace_takes_all_is_scopa",
    "ace_blocked_by_table_ace",
    "ace_on_empty_table",
    "forbid_ace_first_play",
    "fidasse",
    "builds",
    "build_only_if_no_capture",
    "scopa_value",
    "scopa_on_last_play",
    "last_capturer_takes_rest",
    "cards",
    "coins",
    "settebello",
    "primiera",
    "primiera_mode",
    "primiera_requires_all_suits",
    "milan_tiebreak",
    "settanta_bonus",
    "all_sevens_bonus",
    "all_oros_bonus",
    "coin_card_points",
    "special_cards",
    "re_bello",
    "napola",
    "napola_all_coins_wins",
    "piccola",
    "piccola_max",
    "grande",
    "grande_extends",
    "tuzzoli",
    "tuzzoli_hybrids",
    "steal",
    "table_match_first",
    "steal_and_table",
    "ace_steals_all",
    "pile_in_sums",
    "matta",
    "knocks",
    "knocks_cumulative",
    "last_hand_open",
    "maresciallo_penalty",
    "maresciallo_sweep",
    "polacca",
    "polacca_card",
    "saponaro",
    "saponaro_card",
    "category_tie_policy",
    "scoring",
    "frac_counts_scope",
    "frac_single_deal",
    "game",
    "target",
    "target_mode",
    "elimination_deal",
    "win_check",
    "win_margin",
    "max_deals",
    "court_capture",
    "cicera_deal",
    "swords",
    "sword_napula",
    "all_swords_wins",
    "cards_tie_points",
];

/// The most cards of any pack (`double_italian80`): the capacity of the stock.
pub const MAX_PACK: usize = 80;
/// The most distinct ids of any pack (`italian52`).
pub const MAX_IDS: usize = 52;

// a pack is never empty
#[allow(clippy::len_without_is_empty)]
impl Deck {
    /// Number of cards in the pack (every 40-card deck has the same ids).
    #[inline]
    pub const fn len(self) -> usize {
        match self {
            Deck::Italian52 => 52,
            Deck::DoubleItalian80 => 80,
            _ => 40,
        }
    }
    /// Copies of each id in the pack: 2 for the double pack (docs/rules/escoba.md §2.18), else 1.
    #[inline]
    pub const fn copies(self) -> usize {
        match self {
            Deck::DoubleItalian80 => 2,
            _ => 1,
        }
    }
    /// Distinct ids of the pack: the observation's slots per card block
    /// (docs/escoba_engine.md §10, §1a).
    #[inline]
    pub const fn slots(self) -> usize {
        self.len() / self.copies()
    }
    /// The pack's cards as a set.
    #[inline]
    pub const fn mask(self) -> CardSet {
        match self {
            Deck::Italian52 => CardSet((1u64 << 52) - 1),
            _ => PACK_MASK,
        }
    }
    #[inline]
    pub const fn contains(self, c: Card) -> bool {
        c.0 < 52 && self.mask().0 >> c.0 & 1 != 0
    }
    /// The pack's cards of one suit (0 c, 1 d, 2 h, 3 s).
    #[inline]
    pub const fn suit(self, suit: u8) -> CardSet {
        CardSet(self.mask().0 & (0x1FFFu64 << (13 * suit)))
    }
    /// The pack as named in error messages.
    pub const fn pack_name(self) -> &'static str {
        match self {
            Deck::Italian52 => "52-card pack",
            Deck::DoubleItalian80 => "80-card double pack (two of each of A-7, J, Q, K)",
            _ => "40-card pack (ranks A-7, J, Q, K)",
        }
    }
    /// The pack ascending, the copies of an id adjacent (the first `len()` entries).
    pub fn ids(self) -> [u8; MAX_PACK] {
        let mut a = [0u8; MAX_PACK];
        let k = self.copies();
        for (i, c) in self.mask().iter().enumerate() {
            a[k * i..k * i + k].fill(c.0);
        }
        a
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EscobaOptions {
    pub variant: Variant,
    pub deck: Deck,
    pub players: u8,
    pub partnership: Partnership,
    pub direction: Direction,
    pub first_dealer: FirstDealer,
    pub initial_table_cards: u8,
    pub cards_per_hand: u8,
    pub void_deal_min_kings: Option<u8>,
    pub void_deal_min_aces: Option<u8>,
    pub initial_table_bonus: TableBonus,
    pub escoba_de_mano_to: ManoTo,
    pub escoba_de_mano_30: Mano30,
    /// Sweeps for an initial table worth at most 9 (docs/rules/escoba.md §2.7), with
    /// `initial_table_bonus`.
    pub initial_table_le9: Option<i64>,
    /// Bits `KIND_*`.
    pub capture_kinds: u8,
    /// Captures compare `((V − 1) mod k) + 1` (modulo sette, docs/rules/escoba.md §2.15).
    pub value_modulus: Option<u8>,
    pub normal_captures: bool,
    pub match_priority: bool,
    /// Bits `KIND_*` (never `KIND_MATCH`).
    pub match_priority_kinds: u8,
    pub fewest_cards: Fewest,
    pub capture_obligation: Obligation,
    pub ace_takes_all: bool,
    pub ace_takes_all_is_scopa: bool,
    pub ace_blocked_by_table_ace: bool,
    pub ace_on_empty_table: AceEmpty,
    pub forbid_ace_first_play: bool,
    /// Sweeps claimed face down, on trust (docs/rules/escoba.md §2.19).
    pub fidasse: bool,
    /// Builds (docs/rules/escoba.md §2.20).
    pub builds: bool,
    pub build_only_if_no_capture: bool,
    pub scopa_value: i64,
    pub scopa_on_last_play: bool,
    pub last_capturer_takes_rest: bool,
    pub cards: i64,
    pub coins: i64,
    pub settebello: i64,
    pub primiera: i64,
    pub primiera_mode: PrimieraMode,
    pub primiera_requires_all_suits: bool,
    /// Rank numbers (1..=7, 11, 12, 13), order kept.
    pub milan_tiebreak: Vec<u8>,
    pub settanta_bonus: bool,
    pub all_sevens_bonus: i64,
    pub all_oros_bonus: i64,
    pub coin_card_points: i64,
    /// Ascending card id.
    pub special_cards: Vec<(Card, i64)>,
    pub re_bello: bool,
    pub napola: bool,
    pub napola_all_coins_wins: bool,
    /// Cirulla's coin runs (docs/rules/escoba.md §2.7): A-2-3 upward, J-Q-K (downward with
    /// `grande_extends`).
    pub piccola: bool,
    pub piccola_max: u8,
    pub grande: i64,
    pub grande_extends: bool,
    /// Mandatory hand declarations of docs/rules/escoba.md §2.8.
    pub tuzzoli: bool,
    pub tuzzoli_hybrids: bool,
    /// Rubamazzo (docs/rules/escoba.md §2.21): a card equal to an opponent's pile top takes that
    /// pile.
    pub steal: bool,
    pub table_match_first: bool,
    pub steal_and_table: bool,
    pub ace_steals_all: bool,
    /// Rubamazzo a somma (docs/rules/escoba.md §2.22): an opponent's pile is a sum item worth its
    /// top card.
    pub pile_in_sums: bool,
    /// The wild card of knocks (docs/rules/escoba.md §2.7).
    pub matta: Option<Card>,
    /// Points of the optional knocks (`knocks`, 0 = not offered).
    pub knock_cirulla: i64,
    pub knock_decino: i64,
    pub knocks_cumulative: bool,
    /// The last hand of a deal (the stock is empty) is played face up (docs/rules/escoba.md §2.23).
    pub last_hand_open: bool,
    /// docs/rules/escoba.md §2.18: −1 for holding `Ks`, −4 for a sweep made by playing it.
    pub maresciallo_penalty: bool,
    pub maresciallo_sweep: MarescialloSweep,
    /// +1 for the polacca card (`Jd`/`Qd`) and `7d` in one pile.
    pub polacca: bool,
    pub polacca_card: DonnaRank,
    /// −1 for the saponaro card (`Js`/`Qs`) and `Ks` in one pile.
    pub saponaro: bool,
    pub saponaro_card: DonnaRank,
    pub category_tie_policy: TiePolicy,
    pub scoring: Scoring,
    pub frac_counts_scope: bool,
    pub frac_single_deal: bool,
    pub game: GameMode,
    pub target: i64,
    pub target_mode: TargetMode,
    /// Deal shape by players left under `target_mode=eliminate` (docs/rules/escoba.md §2.11).
    pub elimination_deal: ElimDeal,
    pub win_check: WinCheck,
    pub win_margin: Option<i64>,
    pub max_deals: Option<i64>,
    /// Cicera (docs/rules/escoba.md §2.24): `same_rank` = a court (J Q K) has no value and takes
    /// only its rank.
    pub court_capture: CourtCapture,
    pub cicera_deal: CiceraDeal,
    /// Points for the most swords (suit s).
    pub swords: i64,
    /// The sword run A-2-3 upward, numerals only (stops at 10): its length, from 3.
    pub sword_napula: bool,
    /// A side holding every sword of the pack wins the game at once.
    pub all_swords_wins: bool,
    /// A tie for the most cards gives each tied side this (null: `category_tie_policy`).
    pub cards_tie_points: Option<i64>,
}

fn opt_err(msg: String) -> GameError {
    GameError::InvalidOption(msg)
}

/// `InvalidOptionError` naming each `(name, set)` of `clashes` that is set together with
/// `option` (written as `steal=true (docs/rules/escoba.md §2.21)`); Ok when none is.
pub fn refuse_clashes(option: &str, clashes: &[(&str, bool)]) -> Result<()> {
    let set: Vec<&str> = clashes.iter().filter(|c| c.1).map(|c| c.0).collect();
    if set.is_empty() {
        return Ok(());
    }
    Err(opt_err(format!(
        "option {option} cannot be combined with {}",
        set.join(", ")
    )))
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

/// The largest value of any integer option (docs/escoba_engine.md §2).
pub const MAX_INT_OPTION: i64 = 1_000_000_000;

/// An integer option in `lo..=hi` (`hi` = [`MAX_INT_OPTION`] when unbounded by the table).
/// An int too large for i64 gets the same out-of-range message as any other too-large int.
fn get_int(key: &str, v: &Value, lo: i64, hi: Option<i64>) -> Result<i64> {
    let allowed = match hi {
        Some(h) => format!("an int in {lo}..{h}"),
        None => format!("an int >= {lo}"),
    };
    let Value::Number(num) = v else {
        return Err(opt_err(format!(
            "option {key} must be {allowed}, got {} {v}",
            type_name(v)
        )));
    };
    if num.is_f64() {
        return Err(opt_err(format!(
            "option {key} must be {allowed}, got {} {v}",
            type_name(v)
        )));
    }
    let too_big = || {
        opt_err(match hi {
            Some(_) => format!("option {key} must be {allowed}, got {v}"),
            None => format!("option {key} must be at most {MAX_INT_OPTION}, got {v}"),
        })
    };
    let too_small = || opt_err(format!("option {key} must be {allowed}, got {v}"));
    let Some(n) = num.as_i64() else {
        // an integer beyond i64 (serde_json keeps its digits: arbitrary_precision)
        return Err(if num.to_string().starts_with('-') {
            too_small()
        } else {
            too_big()
        });
    };
    if n < lo {
        return Err(too_small());
    }
    if n > hi.unwrap_or(MAX_INT_OPTION) {
        return Err(too_big());
    }
    Ok(n)
}

fn get_opt_int(key: &str, v: &Value, lo: i64, hi: Option<i64>) -> Result<Option<i64>> {
    if v.is_null() {
        return Ok(None);
    }
    get_int(key, v, lo, hi)
        .map(Some)
        .map_err(|e| opt_err(format!("{} (or null)", e.message())))
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

fn get_kinds(key: &str, v: &Value, allowed: &[(&str, u8)]) -> Result<u8> {
    let names: Vec<&str> = allowed.iter().map(|(n, _)| *n).collect();
    let bad = |what: String| {
        opt_err(format!(
            "option {key} must be a list of distinct names from {}: {what}",
            names.join(", ")
        ))
    };
    let Value::Array(items) = v else {
        return Err(bad(format!("got {} {v}", type_name(v))));
    };
    let mut bits = 0u8;
    for it in items {
        let Value::String(s) = it else {
            return Err(bad(format!("{it} is not a str")));
        };
        let Some(&(_, b)) = allowed.iter().find(|(n, _)| n == s) else {
            return Err(bad(format!("{s:?} is not allowed")));
        };
        if bits & b != 0 {
            return Err(bad(format!("{s:?} is repeated")));
        }
        bits |= b;
    }
    Ok(bits)
}

fn get_milan(key: &str, v: &Value) -> Result<Vec<u8>> {
    let bad = |what: String| {
        opt_err(format!(
            "option {key} must be a non-empty list of distinct ranks from {MILAN_CHARS} (ints 1..7 allowed): {what}"
        ))
    };
    let Value::Array(items) = v else {
        return Err(bad(format!("got {} {v}", type_name(v))));
    };
    if items.is_empty() {
        return Err(bad("the list is empty".into()));
    }
    let mut out: Vec<u8> = Vec::with_capacity(items.len());
    for it in items {
        let rank = match it {
            // exactly one upper-case rank char (docs/escoba_engine.md §2); "a" is not a rank here
            Value::String(s) if s.len() == 1 => {
                MILAN_CHARS
                    .find(s.as_str())
                    .map(|i| if i < 7 { i as u8 + 1 } else { i as u8 + 4 })
            }
            Value::Number(n) if !n.is_f64() => match n.as_i64() {
                Some(k @ 1..=7) => Some(k as u8),
                _ => None,
            },
            _ => None,
        };
        let Some(rank) = rank else {
            return Err(bad(format!("{it} is not a rank")));
        };
        if out.contains(&rank) {
            return Err(bad(format!("{it} is repeated")));
        }
        out.push(rank);
    }
    Ok(out)
}

fn opt_text(x: Option<u8>) -> String {
    x.map_or_else(|| "null".to_string(), |n| n.to_string())
}

fn rank_char(rank: u8) -> char {
    crate::cards::RANK_CHARS[(rank - 1) as usize] as char
}

fn get_special(key: &str, v: &Value) -> Result<Vec<(Card, i64)>> {
    let Value::Object(m) = v else {
        return Err(opt_err(format!(
            "option {key} must be a dict of card -> points (int >= 0), got {} {v}",
            type_name(v)
        )));
    };
    let mut out: Vec<(Card, i64)> = Vec::with_capacity(m.len());
    for (k, val) in m {
        let card = Card::parse(k).map_err(|_| {
            opt_err(format!(
                "option {key}: {k:?} is not a card (expected text like 'Kd')"
            ))
        })?;
        if out.iter().any(|(c, _)| *c == card) {
            return Err(opt_err(format!("option {key}: card {card} is given twice")));
        }
        let pts = get_int(&format!("{key}[{card}]"), val, 0, None)?;
        out.push((card, pts));
    }
    out.sort_by_key(|(c, _)| c.0);
    Ok(out)
}

/// `matta`: null or a card of the pack.
fn get_matta(key: &str, v: &Value) -> Result<Option<Card>> {
    let bad = || {
        opt_err(format!(
            "option {key} must be null or a card of the 40-card pack like '7h', got {v}"
        ))
    };
    match v {
        Value::Null => Ok(None),
        Value::String(s) => match Card::parse(s) {
            Ok(c) => Ok(Some(c)),
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

/// `polacca_card` / `saponaro_card`: the J or Q of `suit` (docs/rules/escoba.md §2.18), given as
/// card text.
fn get_donna(key: &str, v: &Value, suit: char) -> Result<DonnaRank> {
    let bad = || {
        opt_err(format!(
            "option {key} must be one of J{suit}, Q{suit}, got {v}"
        ))
    };
    match v {
        Value::String(s) if s.len() == 2 && s.ends_with(suit) => {
            DonnaRank::parse(&s[..1]).ok_or_else(bad)
        }
        _ => Err(bad()),
    }
}

/// `knocks`: a dict from `cirulla` / `decino` to points (≥ 1); a missing name is not offered.
fn get_knocks(key: &str, v: &Value) -> Result<(i64, i64)> {
    let Value::Object(m) = v else {
        return Err(opt_err(format!(
            "option {key} must be a dict from cirulla, decino to points (int >= 1), got {} {v}",
            type_name(v)
        )));
    };
    let (mut c, mut d) = (0, 0);
    for (k, val) in m {
        let pts = get_int(&format!("{key}[{k}]"), val, 1, None)?;
        match k.as_str() {
            "cirulla" => c = pts,
            "decino" => d = pts,
            _ => {
                return Err(opt_err(format!(
                    "option {key}: {k:?} is not a knock: expected cirulla or decino"
                )))
            }
        }
    }
    Ok((c, d))
}

impl Variant {
    /// The player counts a preset allows, its default first (docs/escoba_engine.md §2).
    pub fn allowed_players(self) -> &'static [u8] {
        match self {
            Variant::Scopone9 | Variant::Scopone10 | Variant::ScoponeRomano => &[4],
            Variant::AssiNonPrendere => &[4],
            Variant::Cirulla => &[2, 3, 4],
            Variant::Bazzica => &[2],
            Variant::Cicera => &[4],
            Variant::Maresciallo80 => &[4],
            Variant::NonPrendere => &[4, 6],
            Variant::Granja => &[2, 4],
            Variant::ScoponeRomanoContrario => &[4, 5],
            _ => &[2, 3, 4, 6],
        }
    }
}

impl Default for EscobaOptions {
    /// The base defaults (docs/escoba_engine.md §2), before any preset.
    fn default() -> Self {
        EscobaOptions {
            variant: Variant::Scopa,
            deck: Deck::Italian40,
            players: 2,
            partnership: Partnership::Auto,
            direction: Direction::Ccw,
            first_dealer: FirstDealer::Random,
            initial_table_cards: 4,
            cards_per_hand: 3,
            void_deal_min_kings: Some(3),
            void_deal_min_aces: None,
            initial_table_bonus: TableBonus::None,
            escoba_de_mano_to: ManoTo::Dealer,
            escoba_de_mano_30: Mano30::Total,
            initial_table_le9: None,
            capture_kinds: KIND_MATCH | KIND_SUM,
            value_modulus: None,
            normal_captures: true,
            match_priority: true,
            match_priority_kinds: KIND_SUM,
            fewest_cards: Fewest::None,
            capture_obligation: Obligation::PlayedCard,
            ace_takes_all: false,
            ace_takes_all_is_scopa: true,
            ace_blocked_by_table_ace: true,
            ace_on_empty_table: AceEmpty::SelfCapture,
            forbid_ace_first_play: false,
            fidasse: false,
            builds: false,
            build_only_if_no_capture: false,
            scopa_value: 1,
            scopa_on_last_play: false,
            last_capturer_takes_rest: true,
            cards: 1,
            coins: 1,
            settebello: 1,
            primiera: 1,
            primiera_mode: PrimieraMode::Standard,
            primiera_requires_all_suits: true,
            milan_tiebreak: vec![7, 6, 1],
            settanta_bonus: false,
            all_sevens_bonus: 0,
            all_oros_bonus: 0,
            coin_card_points: 0,
            special_cards: Vec::new(),
            re_bello: false,
            napola: false,
            napola_all_coins_wins: false,
            piccola: false,
            piccola_max: 5,
            grande: 0,
            grande_extends: false,
            tuzzoli: false,
            tuzzoli_hybrids: true,
            steal: false,
            table_match_first: false,
            steal_and_table: false,
            ace_steals_all: false,
            pile_in_sums: false,
            matta: None,
            knock_cirulla: 0,
            knock_decino: 0,
            knocks_cumulative: false,
            last_hand_open: false,
            maresciallo_penalty: false,
            maresciallo_sweep: MarescialloSweep::Replace,
            polacca: false,
            polacca_card: DonnaRank::J,
            saponaro: false,
            saponaro_card: DonnaRank::J,
            category_tie_policy: TiePolicy::Nobody,
            scoring: Scoring::Standard,
            frac_counts_scope: false,
            frac_single_deal: false,
            game: GameMode::Match,
            target: 11,
            target_mode: TargetMode::Win,
            elimination_deal: ElimDeal::Table,
            win_check: WinCheck::HighestUnique,
            win_margin: None,
            max_deals: None,
            court_capture: CourtCapture::Value,
            cicera_deal: CiceraDeal::D12_4,
            swords: 0,
            sword_napula: false,
            all_swords_wins: false,
            cards_tie_points: None,
        }
    }
}

impl EscobaOptions {
    /// Number of scoring sides: 2 teams with `partnership=auto` and 4 or 6 players, else one per seat.
    pub fn num_sides(&self) -> usize {
        if self.teams() {
            2
        } else {
            self.players as usize
        }
    }

    pub fn teams(&self) -> bool {
        self.partnership == Partnership::Auto && (self.players == 4 || self.players == 6)
    }

    #[inline]
    pub fn side_of(&self, seat: usize) -> usize {
        if self.teams() {
            seat % 2
        } else {
            seat
        }
    }

    /// Sets one option from its JSON value, checking type and range.
    fn set(&mut self, key: &str, v: &Value) -> Result<()> {
        match key {
            "variant" => self.variant = get_word(key, v, Variant::NAMES, Variant::parse)?,
            "deck" => self.deck = get_word(key, v, Deck::NAMES, Deck::parse)?,
            "players" => {
                // 5 only where a preset allows it (checked with the variant)
                self.players = get_int(key, v, 2, Some(6))? as u8;
            }
            "partnership" => {
                self.partnership = get_word(key, v, Partnership::NAMES, Partnership::parse)?
            }
            "direction" => self.direction = get_word(key, v, Direction::NAMES, Direction::parse)?,
            "first_dealer" => {
                self.first_dealer = get_word(key, v, FirstDealer::NAMES, FirstDealer::parse)?
            }
            "initial_table_cards" => self.initial_table_cards = get_int(key, v, 0, Some(36))? as u8,
            "cards_per_hand" => {
                // Anything above 40 can never divide the pack; the divisibility check says so.
                let n = get_int(key, v, 1, None)?;
                self.cards_per_hand = n.min(255) as u8;
            }
            "void_deal_min_kings" => {
                self.void_deal_min_kings = get_opt_int(key, v, 1, Some(4))?.map(|n| n as u8)
            }
            "void_deal_min_aces" => {
                self.void_deal_min_aces = get_opt_int(key, v, 1, Some(4))?.map(|n| n as u8)
            }
            "initial_table_bonus" => {
                self.initial_table_bonus = get_word(key, v, TableBonus::NAMES, TableBonus::parse)?
            }
            "escoba_de_mano_to" => {
                self.escoba_de_mano_to = get_word(key, v, ManoTo::NAMES, ManoTo::parse)?
            }
            "escoba_de_mano_30" => {
                self.escoba_de_mano_30 = get_word(key, v, Mano30::NAMES, Mano30::parse)?
            }
            "initial_table_le9" => self.initial_table_le9 = get_opt_int(key, v, 1, Some(3))?,
            "capture_kinds" => self.capture_kinds = get_kinds(key, v, &KIND_NAMES)?,
            "value_modulus" => {
                self.value_modulus = get_opt_int(key, v, 2, Some(10))?.map(|n| n as u8)
            }
            "normal_captures" => self.normal_captures = get_bool(key, v)?,
            "match_priority" => self.match_priority = get_bool(key, v)?,
            "match_priority_kinds" => {
                self.match_priority_kinds = get_kinds(key, v, &KIND_NAMES[1..])?
            }
            "fewest_cards" => self.fewest_cards = get_word(key, v, Fewest::NAMES, Fewest::parse)?,
            "capture_obligation" => {
                self.capture_obligation = get_word(key, v, Obligation::NAMES, Obligation::parse)?
            }
            "ace_takes_all" => self.ace_takes_all = get_bool(key, v)?,
            "ace_takes_all_is_scopa" => self.ace_takes_all_is_scopa = get_bool(key, v)?,
            "ace_blocked_by_table_ace" => self.ace_blocked_by_table_ace = get_bool(key, v)?,
            "ace_on_empty_table" => {
                self.ace_on_empty_table = get_word(key, v, AceEmpty::NAMES, AceEmpty::parse)?
            }
            "forbid_ace_first_play" => self.forbid_ace_first_play = get_bool(key, v)?,
            "fidasse" => self.fidasse = get_bool(key, v)?,
            "scopa_value" => self.scopa_value = get_int(key, v, 0, None)?,
            "scopa_on_last_play" => self.scopa_on_last_play = get_bool(key, v)?,
            "last_capturer_takes_rest" => self.last_capturer_takes_rest = get_bool(key, v)?,
            "cards" => self.cards = get_int(key, v, 0, None)?,
            "coins" => self.coins = get_int(key, v, 0, None)?,
            "settebello" => self.settebello = get_int(key, v, 0, None)?,
            "primiera" => self.primiera = get_int(key, v, 0, None)?,
            "primiera_mode" => {
                self.primiera_mode = get_word(key, v, PrimieraMode::NAMES, PrimieraMode::parse)?
            }
            "primiera_requires_all_suits" => self.primiera_requires_all_suits = get_bool(key, v)?,
            "milan_tiebreak" => self.milan_tiebreak = get_milan(key, v)?,
            "settanta_bonus" => self.settanta_bonus = get_bool(key, v)?,
            "all_sevens_bonus" => self.all_sevens_bonus = get_int(key, v, 0, None)?,
            "all_oros_bonus" => self.all_oros_bonus = get_int(key, v, 0, None)?,
            "coin_card_points" => self.coin_card_points = get_int(key, v, 0, None)?,
            "special_cards" => self.special_cards = get_special(key, v)?,
            "re_bello" => self.re_bello = get_bool(key, v)?,
            "napola" => self.napola = get_bool(key, v)?,
            "napola_all_coins_wins" => self.napola_all_coins_wins = get_bool(key, v)?,
            "piccola" => self.piccola = get_bool(key, v)?,
            "piccola_max" => self.piccola_max = get_int(key, v, 5, Some(7))? as u8,
            "grande" => self.grande = get_int(key, v, 0, None)?,
            "grande_extends" => self.grande_extends = get_bool(key, v)?,
            "matta" => self.matta = get_matta(key, v)?,
            "knocks" => (self.knock_cirulla, self.knock_decino) = get_knocks(key, v)?,
            "knocks_cumulative" => self.knocks_cumulative = get_bool(key, v)?,
            "last_hand_open" => self.last_hand_open = get_bool(key, v)?,
            "tuzzoli" => self.tuzzoli = get_bool(key, v)?,
            "builds" => self.builds = get_bool(key, v)?,
            "build_only_if_no_capture" => self.build_only_if_no_capture = get_bool(key, v)?,
            "tuzzoli_hybrids" => self.tuzzoli_hybrids = get_bool(key, v)?,
            "steal" => self.steal = get_bool(key, v)?,
            "table_match_first" => self.table_match_first = get_bool(key, v)?,
            "steal_and_table" => self.steal_and_table = get_bool(key, v)?,
            "ace_steals_all" => self.ace_steals_all = get_bool(key, v)?,
            "pile_in_sums" => self.pile_in_sums = get_bool(key, v)?,
            "maresciallo_penalty" => self.maresciallo_penalty = get_bool(key, v)?,
            "maresciallo_sweep" => {
                self.maresciallo_sweep =
                    get_word(key, v, MarescialloSweep::NAMES, MarescialloSweep::parse)?
            }
            "polacca" => self.polacca = get_bool(key, v)?,
            "polacca_card" => self.polacca_card = get_donna(key, v, 'd')?,
            "saponaro" => self.saponaro = get_bool(key, v)?,
            "saponaro_card" => self.saponaro_card = get_donna(key, v, 's')?,
            "category_tie_policy" => {
                self.category_tie_policy = get_word(key, v, TiePolicy::NAMES, TiePolicy::parse)?
            }
            "scoring" => self.scoring = get_word(key, v, Scoring::NAMES, Scoring::parse)?,
            "frac_counts_scope" => self.frac_counts_scope = get_bool(key, v)?,
            "frac_single_deal" => self.frac_single_deal = get_bool(key, v)?,
            "game" => self.game = get_word(key, v, GameMode::NAMES, GameMode::parse)?,
            "target" => self.target = get_int(key, v, 1, None)?,
            "target_mode" => {
                self.target_mode = get_word(key, v, TargetMode::NAMES, TargetMode::parse)?
            }
            "elimination_deal" => {
                self.elimination_deal = get_word(key, v, ElimDeal::NAMES, ElimDeal::parse)?
            }
            "win_check" => self.win_check = get_word(key, v, WinCheck::NAMES, WinCheck::parse)?,
            "win_margin" => self.win_margin = get_opt_int(key, v, 1, None)?,
            "max_deals" => self.max_deals = get_opt_int(key, v, 1, None)?,
            "court_capture" => {
                self.court_capture = get_word(key, v, CourtCapture::NAMES, CourtCapture::parse)?
            }
            "cicera_deal" => {
                self.cicera_deal = get_word(key, v, CiceraDeal::NAMES, CiceraDeal::parse)?
            }
            "swords" => self.swords = get_int(key, v, 0, None)?,
            "sword_napula" => self.sword_napula = get_bool(key, v)?,
            "all_swords_wins" => self.all_swords_wins = get_bool(key, v)?,
            "cards_tie_points" => self.cards_tie_points = get_opt_int(key, v, 0, None)?,
            _ => {
                return Err(opt_err(format!(
                    "unknown option {key:?}: known options are {}, and setenta_mode",
                    OPTION_KEYS.join(", ")
                )))
            }
        }
        Ok(())
    }

    /// Applies a preset's deltas (docs/escoba_engine.md §2); returns whether it set `target`.
    fn apply_preset(&mut self, variant: Variant, players: u8) -> bool {
        let ace_deal = |o: &mut EscobaOptions| {
            o.ace_takes_all = true;
            if players == 4 {
                o.initial_table_cards = 0;
                o.cards_per_hand = 10;
            }
        };
        match variant {
            Variant::Scopa => false,
            Variant::Escoba => {
                self.deck = Deck::Spanish40;
                self.capture_kinds = KIND_SUM15;
                self.void_deal_min_kings = None;
                self.initial_table_bonus = TableBonus::Sum15_30;
                self.scopa_on_last_play = true;
                self.primiera_mode = PrimieraMode::Milan;
                self.milan_tiebreak = vec![7];
                self.target = 21;
                true
            }
            Variant::Scopa15 => {
                self.capture_kinds = KIND_MATCH | KIND_SUM | KIND_SUM15;
                self.fewest_cards = Fewest::All;
                false
            }
            Variant::Scopa11 => {
                self.capture_kinds = KIND_MATCH | KIND_SUM | KIND_SUM11;
                false
            }
            Variant::AssoPigliaTutto => {
                ace_deal(self);
                self.ace_takes_all_is_scopa = true;
                false
            }
            Variant::ScopaDAssi => {
                ace_deal(self);
                self.ace_takes_all_is_scopa = false;
                false
            }
            Variant::Sbarazzina => {
                ace_deal(self);
                self.ace_takes_all_is_scopa = false;
                self.target = 41;
                true
            }
            Variant::Scopone9 => {
                self.cards_per_hand = 9;
                false
            }
            Variant::Scopone10 => {
                self.cards_per_hand = 10;
                self.initial_table_cards = 0;
                false
            }
            Variant::Differenze | Variant::Inversa => {
                self.capture_kinds = KIND_MATCH | KIND_DIFF;
                self.match_priority_kinds = KIND_DIFF;
                false
            }
            Variant::SommaEDifferenza => {
                self.capture_kinds = KIND_MATCH | KIND_SUM | KIND_DIFF;
                self.match_priority_kinds = KIND_SUM | KIND_DIFF;
                false
            }
            Variant::ModuloSette => {
                self.value_modulus = Some(7);
                false
            }
            Variant::PuntiADenari => {
                self.primiera_mode = PrimieraMode::None;
                self.special_cards = vec![
                    (Card::new(1, 11), 1),
                    (Card::new(1, 12), 1),
                    (Card::new(1, 13), 1),
                ];
                false
            }
            Variant::NonPrendere => {
                self.partnership = Partnership::None;
                if players == 4 {
                    self.initial_table_cards = 0;
                    self.cards_per_hand = 10;
                } else {
                    self.cards_per_hand = 6;
                }
                self.capture_obligation = Obligation::AnyCard;
                self.target = 11;
                self.target_mode = TargetMode::Lose;
                true
            }
            Variant::AssiNonPrendere => {
                self.partnership = Partnership::None;
                self.ace_takes_all = true;
                self.ace_takes_all_is_scopa = false;
                self.initial_table_cards = 0;
                self.cards_per_hand = 10;
                self.category_tie_policy = TiePolicy::AllTied;
                self.target = 11;
                self.target_mode = TargetMode::Lose;
                true
            }
            Variant::ScoponeRomano => {
                self.cards_per_hand = 9;
                self.coins = 0;
                self.coin_card_points = 1;
                false
            }
            Variant::Tuzzulicchio => {
                self.ace_takes_all = true;
                self.tuzzoli = true;
                false
            }
            Variant::Cocchiaundici => {
                self.ace_takes_all = true;
                self.tuzzoli = true;
                self.capture_kinds = KIND_MATCH | KIND_SUM | KIND_SUM11;
                false
            }
            Variant::Rubamazzo | Variant::RubamazzoSomma => {
                // docs/rules/escoba.md §2.21/§2.22: one deal, most cards wins, no scope
                self.capture_kinds = if variant == Variant::Rubamazzo {
                    KIND_MATCH
                } else {
                    KIND_MATCH | KIND_SUM
                };
                self.steal = true;
                self.pile_in_sums = variant == Variant::RubamazzoSomma;
                self.scopa_value = 0;
                self.coins = 0;
                self.settebello = 0;
                self.primiera_mode = PrimieraMode::None;
                self.game = GameMode::SingleDeal;
                self.partnership = Partnership::None;
                false
            }
            Variant::Cirulla => {
                self.capture_kinds = KIND_MATCH | KIND_SUM | KIND_SUM15;
                self.ace_takes_all = true;
                self.fewest_cards = Fewest::SimpleOnly;
                self.void_deal_min_kings = None;
                self.void_deal_min_aces = Some(2);
                self.initial_table_bonus = TableBonus::Sum15_30;
                self.matta = Some(Card::new(2, 7));
                self.knock_cirulla = 3;
                self.knock_decino = 10;
                self.piccola = true;
                self.grande = 5;
                self.napola_all_coins_wins = true;
                self.target = 51;
                true
            }
            Variant::Bazzica => {
                // docs/rules/escoba.md §2.23: the declarations table is `knocks`, empty (unknown)
                // by default
                self.last_hand_open = true;
                self.target = 21;
                true
            }
            Variant::Maresciallo => {
                // docs/rules/escoba.md §2.18: scopa d'assi captures with the base deal, napola, Ks
                // penalties
                self.ace_takes_all = true;
                self.ace_takes_all_is_scopa = false;
                self.napola = true;
                self.maresciallo_penalty = true;
                self.polacca = true;
                false
            }
            Variant::Maresciallo80 => {
                // docs/rules/escoba.md §2.18, 80-card version: the maresciallo rules with two
                // packs, 4 players in teams, 4 hands of 5 per deal and no table cards
                self.apply_preset(Variant::Maresciallo, players);
                self.deck = Deck::DoubleItalian80;
                self.initial_table_cards = 0;
                self.cards_per_hand = 5;
                self.void_deal_min_kings = None;
                false
            }
            Variant::Granja => {
                // docs/rules/escoba.md §2.20: builds, no primiera, the 2 of coins scores 1
                self.builds = true;
                self.primiera_mode = PrimieraMode::None;
                self.special_cards = vec![(Card::new(1, 2), 1)];
                false
            }
            Variant::ScoponeRomanoContrario => {
                // docs/rules/escoba.md §2.11: each alone, scopone romano scoring, out at 21
                self.partnership = Partnership::None;
                let (itc, cph) = super::elimination::deal_shape(self.elimination_deal, players);
                self.initial_table_cards = itc;
                self.cards_per_hand = cph;
                self.coins = 0;
                self.coin_card_points = 1;
                self.target = 21;
                self.target_mode = TargetMode::Eliminate;
                true
            }
            Variant::Fidasse => {
                self.fidasse = true;
                false
            }
            Variant::Cicera => {
                // docs/rules/escoba.md §2.24: 52 cards, 4 players in teams, courts take only their
                // rank
                self.deck = Deck::Italian52;
                (self.initial_table_cards, self.cards_per_hand) = match self.cicera_deal {
                    CiceraDeal::D12_4 => (4, 12),
                    CiceraDeal::D13_0 => (0, 13),
                };
                self.court_capture = CourtCapture::SameRank;
                self.capture_obligation = Obligation::PlayedCardNumerals;
                self.cards = 2;
                self.cards_tie_points = Some(1);
                self.coins = 0;
                self.settebello = 0;
                self.primiera_mode = PrimieraMode::None;
                self.swords = 1;
                self.sword_napula = true;
                self.all_swords_wins = true;
                self.target = 51;
                true
            }
            Variant::Frac => {
                self.scoring = Scoring::Frac;
                self.match_priority = false;
                self.target = 50;
                true
            }
        }
    }

    /// What the preset alone resolves to with the given player count (used by `str(game)`).
    pub fn preset(variant: Variant, players: u8) -> EscobaOptions {
        let mut o = EscobaOptions {
            variant,
            players,
            ..Default::default()
        };
        let target_set = o.apply_preset(variant, players);
        if !target_set {
            o.target = o.derived_target();
        }
        o
    }

    fn derived_target(&self) -> i64 {
        if self.teams() {
            21
        } else if self.players == 2 {
            11
        } else {
            16
        }
    }

    /// Resolves user options (a JSON object, possibly with `variant` and `setenta_mode`).
    pub fn resolve(input: &Value) -> Result<EscobaOptions> {
        let Value::Object(map) = input else {
            return Err(opt_err(format!(
                "options must be a JSON object of option names to values, got {}",
                type_name(input)
            )));
        };
        for key in map.keys() {
            if key != "setenta_mode" && !OPTION_KEYS.contains(&key.as_str()) {
                return Err(opt_err(format!(
                    "unknown option {key:?}: known options are {}, and setenta_mode",
                    OPTION_KEYS.join(", ")
                )));
            }
        }
        // Type-check every explicit option once, on a scratch copy.
        let mut explicit = EscobaOptions::default();
        for (k, v) in map {
            if k != "setenta_mode" {
                explicit.set(k, v)?;
            }
        }
        let variant = match map.get("variant") {
            Some(_) => explicit.variant,
            None => Variant::Scopa,
        };
        let allowed = variant.allowed_players();
        let players = match map.get("players") {
            Some(_) => explicit.players,
            None => allowed[0],
        };
        if !allowed.contains(&players) {
            let list: Vec<String> = allowed.iter().map(|p| p.to_string()).collect();
            return Err(opt_err(format!(
                "variant {} is played by {} players: option players must be one of {}, got {players}",
                variant.as_str(),
                list.join(" or "),
                list.join(", ")
            )));
        }
        let mut o = EscobaOptions {
            variant,
            players,
            elimination_deal: explicit.elimination_deal,
            cicera_deal: explicit.cicera_deal,
            ..Default::default()
        };
        let mut target_set = o.apply_preset(variant, players);
        for (k, v) in map {
            if k == "setenta_mode" {
                continue;
            }
            o.set(k, v)?;
            if k == "target" {
                target_set = true;
            }
        }
        if let Some(sm) = map.get("setenta_mode") {
            if map.contains_key("primiera_mode") || map.contains_key("milan_tiebreak") {
                return Err(opt_err(
                    "option setenta_mode cannot be given together with primiera_mode or milan_tiebreak"
                        .into(),
                ));
            }
            match sm.as_str() {
                Some("most_sevens") => {
                    o.primiera_mode = PrimieraMode::Milan;
                    o.milan_tiebreak = vec![7];
                }
                Some("most_sevens_tiebreak") => {
                    o.primiera_mode = PrimieraMode::Milan;
                    o.milan_tiebreak = vec![7, 6, 1, 5];
                }
                Some("primiera") => o.primiera_mode = PrimieraMode::Standard,
                _ => {
                    return Err(opt_err(format!(
                        "option setenta_mode must be one of most_sevens, most_sevens_tiebreak, primiera, got {sm}"
                    )))
                }
            }
        }
        if !o.normal_captures {
            o.capture_kinds &= !(KIND_MATCH | KIND_SUM);
        }
        if o.frac_single_deal {
            o.game = GameMode::SingleDeal;
        }
        if !target_set {
            o.target = o.derived_target();
        }
        o.validate()?;
        Ok(o)
    }

    fn validate(&self) -> Result<()> {
        if super::knock::enabled(self) && self.target_mode == TargetMode::Eliminate {
            return Err(opt_err(
                "option knocks declares 3-card hands, which the deals with players eliminated \
                 (target_mode=eliminate) do not keep"
                    .into(),
            ));
        }
        if self.tuzzoli && self.target_mode == TargetMode::Eliminate {
            return Err(opt_err(
                "option tuzzoli declares 3-card hands, which the deals with players eliminated \
                 (target_mode=eliminate) do not keep"
                    .into(),
            ));
        }
        super::piles::validate(self)?;
        super::fidasse::validate(self)?;
        super::builds::validate(self)?;
        if self.tuzzoli && self.cards_per_hand != 3 {
            return Err(opt_err(format!(
                "option tuzzoli declares 3-card hands (docs/rules/escoba.md §2.8): cards_per_hand must be 3, got {}",
                self.cards_per_hand
            )));
        }
        if super::knock::enabled(self) && self.cards_per_hand != 3 {
            return Err(opt_err(format!(
                "option knocks declares 3-card hands (docs/rules/escoba.md §2.7): cards_per_hand must be 3, got {}",
                self.cards_per_hand
            )));
        }
        let pack = self.deck.len() as u32;
        let dealt = pack - self.initial_table_cards as u32;
        let per_round = self.players as u32 * self.cards_per_hand as u32;
        if dealt % per_round != 0 {
            return Err(opt_err(format!(
                "{pack} - initial_table_cards = {dealt} cards must be a positive multiple of players * cards_per_hand = {}",
                self.players as u64 * self.cards_per_hand as u64
            )));
        }
        super::cicera::validate(self)?;
        super::twins::validate(self)?;
        // A table with fewer than k Kings and fewer than a Aces (an unset minimum counts as 5)
        // holds at most (pack - 8) + (k - 1) + (a - 1) cards; a larger one is always void and
        // dealing would never end (docs/escoba_engine.md §2).
        let k = self.void_deal_min_kings.map_or(5, u32::from);
        let a = self.void_deal_min_aces.map_or(5, u32::from);
        let itc = self.initial_table_cards as u32;
        if itc > pack - 10 + k + a {
            return Err(opt_err(format!(
                "every deal would be void: a table of initial_table_cards={itc} cards always holds \
                 at least void_deal_min_kings={} Kings or void_deal_min_aces={} Aces; lower \
                 initial_table_cards or relax the void-deal options",
                opt_text(self.void_deal_min_kings),
                opt_text(self.void_deal_min_aces),
            )));
        }
        Ok(())
    }

    /// Canonical value of one resolved option.
    pub fn value_of(&self, key: &str) -> Value {
        fn kinds(bits: u8) -> Value {
            Value::Array(
                KIND_NAMES
                    .iter()
                    .filter(|(_, b)| bits & b != 0)
                    .map(|(n, _)| Value::String((*n).into()))
                    .collect(),
            )
        }
        let opt = |x: Option<i64>| x.map_or(Value::Null, Value::from);
        match key {
            "variant" => self.variant.as_str().into(),
            "deck" => self.deck.as_str().into(),
            "players" => self.players.into(),
            "partnership" => self.partnership.as_str().into(),
            "direction" => self.direction.as_str().into(),
            "first_dealer" => self.first_dealer.as_str().into(),
            "initial_table_cards" => self.initial_table_cards.into(),
            "cards_per_hand" => self.cards_per_hand.into(),
            "void_deal_min_kings" => opt(self.void_deal_min_kings.map(i64::from)),
            "void_deal_min_aces" => opt(self.void_deal_min_aces.map(i64::from)),
            "initial_table_bonus" => self.initial_table_bonus.as_str().into(),
            "escoba_de_mano_to" => self.escoba_de_mano_to.as_str().into(),
            "escoba_de_mano_30" => self.escoba_de_mano_30.as_str().into(),
            "initial_table_le9" => opt(self.initial_table_le9),
            "capture_kinds" => kinds(self.capture_kinds),
            "value_modulus" => opt(self.value_modulus.map(i64::from)),
            "normal_captures" => self.normal_captures.into(),
            "match_priority" => self.match_priority.into(),
            "match_priority_kinds" => kinds(self.match_priority_kinds),
            "fewest_cards" => self.fewest_cards.as_str().into(),
            "capture_obligation" => self.capture_obligation.as_str().into(),
            "ace_takes_all" => self.ace_takes_all.into(),
            "ace_takes_all_is_scopa" => self.ace_takes_all_is_scopa.into(),
            "ace_blocked_by_table_ace" => self.ace_blocked_by_table_ace.into(),
            "ace_on_empty_table" => self.ace_on_empty_table.as_str().into(),
            "forbid_ace_first_play" => self.forbid_ace_first_play.into(),
            "fidasse" => self.fidasse.into(),
            "scopa_value" => self.scopa_value.into(),
            "scopa_on_last_play" => self.scopa_on_last_play.into(),
            "last_capturer_takes_rest" => self.last_capturer_takes_rest.into(),
            "cards" => self.cards.into(),
            "coins" => self.coins.into(),
            "settebello" => self.settebello.into(),
            "primiera" => self.primiera.into(),
            "primiera_mode" => self.primiera_mode.as_str().into(),
            "primiera_requires_all_suits" => self.primiera_requires_all_suits.into(),
            "milan_tiebreak" => Value::Array(
                self.milan_tiebreak
                    .iter()
                    .map(|&r| Value::String(rank_char(r).to_string()))
                    .collect(),
            ),
            "settanta_bonus" => self.settanta_bonus.into(),
            "all_sevens_bonus" => self.all_sevens_bonus.into(),
            "all_oros_bonus" => self.all_oros_bonus.into(),
            "coin_card_points" => self.coin_card_points.into(),
            "special_cards" => {
                let mut m = Map::new();
                for (c, p) in &self.special_cards {
                    m.insert(c.to_string(), Value::from(*p));
                }
                Value::Object(m)
            }
            "re_bello" => self.re_bello.into(),
            "napola" => self.napola.into(),
            "napola_all_coins_wins" => self.napola_all_coins_wins.into(),
            "piccola" => self.piccola.into(),
            "piccola_max" => self.piccola_max.into(),
            "grande" => self.grande.into(),
            "grande_extends" => self.grande_extends.into(),
            "matta" => self.matta.map_or(Value::Null, |c| c.to_string().into()),
            "knocks" => {
                let mut m = Map::new();
                for (k, p) in [
                    ("cirulla", self.knock_cirulla),
                    ("decino", self.knock_decino),
                ] {
                    if p > 0 {
                        m.insert(k.into(), Value::from(p));
                    }
                }
                Value::Object(m)
            }
            "knocks_cumulative" => self.knocks_cumulative.into(),
            "last_hand_open" => self.last_hand_open.into(),
            "tuzzoli" => self.tuzzoli.into(),
            "builds" => self.builds.into(),
            "build_only_if_no_capture" => self.build_only_if_no_capture.into(),
            "tuzzoli_hybrids" => self.tuzzoli_hybrids.into(),
            "steal" => self.steal.into(),
            "table_match_first" => self.table_match_first.into(),
            "steal_and_table" => self.steal_and_table.into(),
            "ace_steals_all" => self.ace_steals_all.into(),
            "pile_in_sums" => self.pile_in_sums.into(),
            "maresciallo_penalty" => self.maresciallo_penalty.into(),
            "maresciallo_sweep" => self.maresciallo_sweep.as_str().into(),
            "polacca" => self.polacca.into(),
            "polacca_card" => format!("{}d", self.polacca_card.as_str()).into(),
            "saponaro" => self.saponaro.into(),
            "saponaro_card" => format!("{}s", self.saponaro_card.as_str()).into(),
            "category_tie_policy" => self.category_tie_policy.as_str().into(),
            "scoring" => self.scoring.as_str().into(),
            "frac_counts_scope" => self.frac_counts_scope.into(),
            "frac_single_deal" => self.frac_single_deal.into(),
            "game" => self.game.as_str().into(),
            "target" => self.target.into(),
            "target_mode" => self.target_mode.as_str().into(),
            "elimination_deal" => self.elimination_deal.as_str().into(),
            "win_check" => self.win_check.as_str().into(),
            "win_margin" => opt(self.win_margin),
            "max_deals" => opt(self.max_deals),
            "court_capture" => self.court_capture.as_str().into(),
            "cicera_deal" => self.cicera_deal.as_str().into(),
            "swords" => self.swords.into(),
            "sword_napula" => self.sword_napula.into(),
            "all_swords_wins" => self.all_swords_wins.into(),
            "cards_tie_points" => opt(self.cards_tie_points),
            _ => Value::Null,
        }
    }

    /// Every resolved option as a JSON object (serde_json's map keeps keys sorted).
    pub fn to_value(&self) -> Value {
        let mut m = Map::new();
        for k in OPTION_KEYS {
            m.insert((*k).to_string(), self.value_of(k));
        }
        Value::Object(m)
    }

    /// Canonical JSON: sorted keys, no whitespace.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }

    /// Special cards as scored: `special_cards`, plus `Kd: 1` with `re_bello` unless present.
    pub fn scoring_special_cards(&self) -> Vec<(Card, i64)> {
        let mut v = self.special_cards.clone();
        let kd = Card::new(1, 13);
        if self.re_bello && !v.iter().any(|(c, _)| *c == kd) {
            v.push((kd, 1));
            v.sort_by_key(|(c, _)| c.0);
        }
        v
    }
}
