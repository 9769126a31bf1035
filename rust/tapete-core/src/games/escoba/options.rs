//! Typed Escoba options (docs/escoba_engine.md §2). The option table, its defaults and the presets are data
//! (`python/tapete/data/escoba.json`), read by both engines; here are what is derived from the
//! resolved values (a null `target`, `normal_captures=false`, `frac_single_deal`), the input aliases
//! (`setenta_mode`, int ranks in `milan_tiebreak`) and the checks across options.

use serde_json::{Map, Value};

use crate::cards::{Card, CardSet};
use crate::error::{GameError, Result};
use crate::options::{OptionsSpec, Resolved};
use crate::word_enum;

use super::values::PACK_MASK;

word_enum!(Variant {
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
word_enum!(Deck {
    Italian40 => "italian40", Spanish40 => "spanish40", French40 => "french40",
    Italian52 => "italian52", DoubleItalian80 => "double_italian80",
});
word_enum!(CourtCapture { Value => "value", SameRank => "same_rank" });
word_enum!(CiceraDeal { D12_4 => "12+4", D13_0 => "13+0" });
word_enum!(Partnership { Auto => "auto", None => "none" });
word_enum!(Direction { Ccw => "ccw", Cw => "cw" });
word_enum!(FirstDealer { Random => "random", DealUntilKd => "deal_until_Kd" });
word_enum!(TableBonus { None => "none", Sum15_30 => "sum15_30" });
word_enum!(ManoTo { Dealer => "dealer", Eldest => "eldest" });
word_enum!(Mano30 { Total => "total", Partition => "partition" });
word_enum!(Fewest { None => "none", All => "all", SimpleOnly => "simple_only", Sum15Only => "sum15_only" });
word_enum!(Obligation {
    PlayedCard => "played_card", AnyCard => "any_card", Optional => "optional",
    PlayedCardNumerals => "played_card_numerals",
});
word_enum!(AceEmpty { SelfCapture => "self_capture", Trail => "trail" });
word_enum!(PrimieraMode {
    Standard => "standard", Veneto => "veneto", Milan => "milan",
    ThreeSevens => "three_sevens", None => "none",
});
word_enum!(TiePolicy { Nobody => "nobody", AllTied => "all_tied" });
word_enum!(GameMode { Match => "match", SingleDeal => "single_deal" });
word_enum!(TargetMode { Win => "win", Lose => "lose", Eliminate => "eliminate" });
word_enum!(ElimDeal { Table => "table", NoTable => "no_table" });
word_enum!(WinCheck { HighestUnique => "highest_unique", CountOut => "count_out" });
word_enum!(Scoring { Standard => "standard", Frac => "frac" });
word_enum!(MarescialloSweep { Replace => "replace", Total => "total" });
word_enum!(DonnaRank { J => "J", Q => "Q" });

pub(super) fn opt_text(x: Option<u8>) -> String {
    x.map_or_else(|| "null".to_string(), |n| n.to_string())
}

/// The option table and presets (docs/escoba_engine.md §2).
pub fn spec() -> &'static OptionsSpec {
    crate::options_spec!("escoba.json")
}

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

/// Milan tie-break ranks in rank order (A=1 … 7, J=11, Q=12, K=13).
const MILAN_CHARS: &str = "A234567JQK";

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
    /// Distinct ids of the pack: the observation's slots per card block (docs/escoba_engine.md §10, §1a).
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
    /// Sweeps for an initial table worth at most 9 (docs/rules/escoba.md §2.7), with `initial_table_bonus`.
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
    /// The Ace's self-capture on an empty table is a sweep, never on the deal's last play
    /// (docs/rules/escoba.md §2.1).
    pub ace_self_capture_is_scopa: bool,
    pub ace_blocked_by_table_ace: bool,
    pub ace_on_empty_table: AceEmpty,
    /// An Ace may also trail onto a non-empty table (docs/rules/escoba.md §2.1).
    pub ace_may_trail: bool,
    pub forbid_ace_first_play: bool,
    /// Sweeps claimed face down, on trust (docs/rules/escoba.md §2.19).
    pub fidasse: bool,
    /// Builds (docs/rules/escoba.md §2.20).
    pub builds: bool,
    pub build_only_if_no_capture: bool,
    pub scopa_value: i64,
    pub scopa_on_last_play: bool,
    /// A side's sweep that takes its streak of sweeps beyond this scores nothing
    /// (docs/rules/escoba.md §1.5).
    pub max_consecutive_sweeps: Option<u32>,
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
    /// A napola scores this instead of its run's length (docs/rules/escoba.md §1.8).
    pub napola_flat: Option<i64>,
    /// Cirulla's coin runs (docs/rules/escoba.md §2.7): A-2-3 upward, J-Q-K (downward with `grande_extends`).
    pub piccola: bool,
    pub piccola_max: u8,
    pub grande: i64,
    pub grande_extends: bool,
    /// Mandatory hand declarations of docs/rules/escoba.md §2.8.
    pub tuzzoli: bool,
    pub tuzzoli_hybrids: bool,
    /// Rubamazzo (docs/rules/escoba.md §2.21): a card equal to an opponent's pile top takes that pile.
    pub steal: bool,
    pub table_match_first: bool,
    pub steal_and_table: bool,
    pub ace_steals_all: bool,
    /// Rubamazzo a somma (docs/rules/escoba.md §2.22): an opponent's pile is a sum item worth its top card.
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
    /// Cicera (docs/rules/escoba.md §2.24): `same_rank` = a court (J Q K) has no value and takes only its rank.
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

pub(super) fn opt_err(msg: String) -> GameError {
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

/// User options with the input aliases of docs/escoba_engine.md §2 rewritten into what they stand for:
/// `setenta_mode`, and the ranks 1..7 of `milan_tiebreak` given as ints (as game strings write
/// them) into their rank words.
pub fn expand_aliases(input: &Value) -> Result<Value> {
    let Some(given) = input.as_object() else {
        return Ok(input.clone());
    };
    let mut m = given.clone();
    if let Some(Value::Array(ranks)) = m.get_mut("milan_tiebreak") {
        for r in ranks.iter_mut() {
            if let Some(k @ 1..=7) = crate::json::as_int(r) {
                *r = Value::from(MILAN_CHARS[k as usize - 1..k as usize].to_string());
            }
        }
    }
    let Some(mode) = m.remove("setenta_mode") else {
        return Ok(Value::Object(m));
    };
    if m.contains_key("primiera_mode") || m.contains_key("milan_tiebreak") {
        return Err(opt_err(
            "option setenta_mode cannot be given together with primiera_mode or milan_tiebreak"
                .into(),
        ));
    }
    let (primiera, tiebreak): (&str, &[&str]) = match mode.as_str() {
        Some("most_sevens") => ("milan", &["7"]),
        Some("most_sevens_tiebreak") => ("milan", &["7", "6", "A", "5"]),
        Some("primiera") => ("standard", &[]),
        _ => {
            return Err(opt_err(format!(
                "option setenta_mode must be one of most_sevens, most_sevens_tiebreak, primiera, got {}",
                crate::json::shown(&mode)
            )))
        }
    };
    m.insert("primiera_mode".into(), Value::from(primiera));
    if !tiebreak.is_empty() {
        m.insert("milan_tiebreak".into(), Value::from(tiebreak.to_vec()));
    }
    Ok(Value::Object(m))
}

/// A `words` option of capture kinds as bits.
fn kind_bits(r: &Resolved, key: &str) -> Result<u8> {
    let mut bits = 0;
    for w in r.get(key)?.as_array().into_iter().flatten() {
        let name = w.as_str().unwrap_or("");
        bits |= KIND_NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, b)| *b)
            .ok_or_else(|| opt_err(format!("option {key}: {name:?} is not a capture kind")))?;
    }
    Ok(bits)
}

/// Capture kinds as canonical JSON: the names in table order.
fn kinds_value(bits: u8) -> Value {
    Value::Array(
        KIND_NAMES
            .iter()
            .filter(|(_, b)| bits & b != 0)
            .map(|(n, _)| Value::from(*n))
            .collect(),
    )
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

    /// Typed options from the resolved table. First writes into `options` what is derived from
    /// them (the capture kinds in table order, minus `match` and `sum` without `normal_captures`;
    /// `game=single_deal` with `frac_single_deal`; a null `target` by the sides), so that the
    /// canonical JSON shows it. The checks across options follow (`EscobaOptions::from_resolved`).
    pub(super) fn read_resolved(options: &mut Map<String, Value>) -> Result<EscobaOptions> {
        let r = Resolved(std::mem::take(options));
        let mut capture_kinds = kind_bits(&r, "capture_kinds")?;
        if !r.bool("normal_captures")? {
            capture_kinds &= !(KIND_MATCH | KIND_SUM);
        }
        let match_priority_kinds = kind_bits(&r, "match_priority_kinds")?;
        let mut milan_tiebreak = Vec::new();
        for w in r.get("milan_tiebreak")?.as_array().into_iter().flatten() {
            let i = MILAN_CHARS.find(w.as_str().unwrap_or("?")).unwrap_or(0);
            milan_tiebreak.push(if i < 7 { i as u8 + 1 } else { i as u8 + 4 });
        }
        if milan_tiebreak.is_empty() {
            return Err(opt_err(format!(
                "option milan_tiebreak must be a non-empty list of distinct ranks from {MILAN_CHARS}, got []"
            )));
        }
        let mut special_cards: Vec<(Card, i64)> = Vec::new();
        for (k, v) in r.get("special_cards")?.as_object().into_iter().flatten() {
            let c = Card::parse(k).map_err(|_| opt_err(format!("option special_cards: {k:?}")))?;
            special_cards.push((c, v.as_i64().unwrap_or(0)));
        }
        special_cards.sort_by_key(|(c, _)| c.0);
        let knocks = r.get("knocks")?;
        let knock = |k: &str| knocks.get(k).and_then(Value::as_i64).unwrap_or(0);
        let matta = match r.get("matta")? {
            Value::String(s) => Some(Card::parse(s)?),
            _ => None,
        };
        let donna = |s: &str| DonnaRank::parse(s.get(..1).unwrap_or(""));
        let mut o = EscobaOptions {
            variant: r.word("variant", Variant::parse)?,
            deck: r.word("deck", Deck::parse)?,
            players: r.int("players")? as u8,
            partnership: r.word("partnership", Partnership::parse)?,
            direction: r.word("direction", Direction::parse)?,
            first_dealer: r.word("first_dealer", FirstDealer::parse)?,
            initial_table_cards: r.int("initial_table_cards")? as u8,
            // anything above 40 never divides the pack: the divisibility check says so
            cards_per_hand: r.int("cards_per_hand")?.min(255) as u8,
            void_deal_min_kings: r.opt_int("void_deal_min_kings")?.map(|n| n as u8),
            void_deal_min_aces: r.opt_int("void_deal_min_aces")?.map(|n| n as u8),
            initial_table_bonus: r.word("initial_table_bonus", TableBonus::parse)?,
            escoba_de_mano_to: r.word("escoba_de_mano_to", ManoTo::parse)?,
            escoba_de_mano_30: r.word("escoba_de_mano_30", Mano30::parse)?,
            initial_table_le9: r.opt_int("initial_table_le9")?,
            capture_kinds,
            value_modulus: r.opt_int("value_modulus")?.map(|n| n as u8),
            normal_captures: r.bool("normal_captures")?,
            match_priority: r.bool("match_priority")?,
            match_priority_kinds,
            fewest_cards: r.word("fewest_cards", Fewest::parse)?,
            capture_obligation: r.word("capture_obligation", Obligation::parse)?,
            ace_takes_all: r.bool("ace_takes_all")?,
            ace_takes_all_is_scopa: r.bool("ace_takes_all_is_scopa")?,
            ace_self_capture_is_scopa: r.bool("ace_self_capture_is_scopa")?,
            ace_blocked_by_table_ace: r.bool("ace_blocked_by_table_ace")?,
            ace_on_empty_table: r.word("ace_on_empty_table", AceEmpty::parse)?,
            ace_may_trail: r.bool("ace_may_trail")?,
            forbid_ace_first_play: r.bool("forbid_ace_first_play")?,
            fidasse: r.bool("fidasse")?,
            builds: r.bool("builds")?,
            build_only_if_no_capture: r.bool("build_only_if_no_capture")?,
            scopa_value: r.int("scopa_value")?,
            scopa_on_last_play: r.bool("scopa_on_last_play")?,
            max_consecutive_sweeps: r.opt_int("max_consecutive_sweeps")?.map(|k| k as u32),
            last_capturer_takes_rest: r.bool("last_capturer_takes_rest")?,
            cards: r.int("cards")?,
            coins: r.int("coins")?,
            settebello: r.int("settebello")?,
            primiera: r.int("primiera")?,
            primiera_mode: r.word("primiera_mode", PrimieraMode::parse)?,
            primiera_requires_all_suits: r.bool("primiera_requires_all_suits")?,
            milan_tiebreak,
            settanta_bonus: r.bool("settanta_bonus")?,
            all_sevens_bonus: r.int("all_sevens_bonus")?,
            all_oros_bonus: r.int("all_oros_bonus")?,
            coin_card_points: r.int("coin_card_points")?,
            special_cards,
            re_bello: r.bool("re_bello")?,
            napola: r.bool("napola")?,
            napola_all_coins_wins: r.bool("napola_all_coins_wins")?,
            napola_flat: r.opt_int("napola_flat")?,
            piccola: r.bool("piccola")?,
            piccola_max: r.int("piccola_max")? as u8,
            grande: r.int("grande")?,
            grande_extends: r.bool("grande_extends")?,
            tuzzoli: r.bool("tuzzoli")?,
            tuzzoli_hybrids: r.bool("tuzzoli_hybrids")?,
            steal: r.bool("steal")?,
            table_match_first: r.bool("table_match_first")?,
            steal_and_table: r.bool("steal_and_table")?,
            ace_steals_all: r.bool("ace_steals_all")?,
            pile_in_sums: r.bool("pile_in_sums")?,
            matta,
            knock_cirulla: knock("cirulla"),
            knock_decino: knock("decino"),
            knocks_cumulative: r.bool("knocks_cumulative")?,
            last_hand_open: r.bool("last_hand_open")?,
            maresciallo_penalty: r.bool("maresciallo_penalty")?,
            maresciallo_sweep: r.word("maresciallo_sweep", MarescialloSweep::parse)?,
            polacca: r.bool("polacca")?,
            polacca_card: r.word("polacca_card", donna)?,
            saponaro: r.bool("saponaro")?,
            saponaro_card: r.word("saponaro_card", donna)?,
            category_tie_policy: r.word("category_tie_policy", TiePolicy::parse)?,
            scoring: r.word("scoring", Scoring::parse)?,
            frac_counts_scope: r.bool("frac_counts_scope")?,
            frac_single_deal: r.bool("frac_single_deal")?,
            game: r.word("game", GameMode::parse)?,
            target: r.opt_int("target")?.unwrap_or(0),
            target_mode: r.word("target_mode", TargetMode::parse)?,
            elimination_deal: r.word("elimination_deal", ElimDeal::parse)?,
            win_check: r.word("win_check", WinCheck::parse)?,
            win_margin: r.opt_int("win_margin")?,
            max_deals: r.opt_int("max_deals")?,
            court_capture: r.word("court_capture", CourtCapture::parse)?,
            cicera_deal: r.word("cicera_deal", CiceraDeal::parse)?,
            swords: r.int("swords")?,
            sword_napula: r.bool("sword_napula")?,
            all_swords_wins: r.bool("all_swords_wins")?,
            cards_tie_points: r.opt_int("cards_tie_points")?,
        };
        if o.frac_single_deal {
            o.game = GameMode::SingleDeal;
        }
        if r.opt_int("target")?.is_none() {
            o.target = o.derived_target();
        }
        *options = r.0;
        options.insert("capture_kinds".into(), kinds_value(o.capture_kinds));
        options.insert(
            "match_priority_kinds".into(),
            kinds_value(o.match_priority_kinds),
        );
        options.insert("game".into(), Value::from(o.game.as_str()));
        options.insert("target".into(), Value::from(o.target));
        Ok(o)
    }

    /// The target when neither the preset nor the user sets one (docs/escoba_engine.md §2).
    fn derived_target(&self) -> i64 {
        if self.teams() {
            21
        } else if self.players == 2 {
            11
        } else {
            16
        }
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
