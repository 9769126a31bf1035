//! Typed Burako options (docs/burako_engine.md §2). The option table, its defaults and the one
//! preset are data (`python/tapete/data/burako.json`), read by both engines; what follows from
//! the options (the rack size H, the muerto size) is derived here.

use serde_json::Value;

use crate::error::Result;
use crate::options::{OptionsSpec, Resolved};
use crate::word_enum;

word_enum!(Variant { Standard => "standard" });
word_enum!(AcePos {
    LowOrHigh => "low_or_high",
    HighOnly => "high_only",
    LowOnly => "low_only",
});
word_enum!(CloseMode {
    MeldOrDiscard => "meld_or_discard",
    DiscardRequired => "discard_required",
    MeldRequired => "meld_required",
});

/// The option table (docs/burako_engine.md §2).
pub fn spec() -> &'static OptionsSpec {
    crate::options_spec!("burako.json")
}

/// `max_wilds_per_meld`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaxWilds {
    One,
    Two,
    FewerThanNaturals,
    /// No limit (a meld still needs one natural, docs/burako_engine.md §2).
    Unlimited,
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
    /// The rack size H: 11 with 4 players, `two_player_hand` with 2 (derived).
    pub hand_size: usize,
    /// The muerto size: 11, or H under `muerto_size = hand_size` (derived).
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

crate::defaults_from_table!(BurakoOptions);

impl BurakoOptions {
    /// Typed options from the resolved table, with the values derived from them. (Burako refuses
    /// no combination beyond the table: `first_mano` is checked against `players` there.)
    pub fn from_resolved(r: &mut Resolved) -> Result<BurakoOptions> {
        r.word("variant", Variant::parse)?;
        let players = r.int("players")? as usize;
        let hand_size = if players == 4 {
            11
        } else {
            r.int("two_player_hand")? as usize
        };
        let muerto_size = if r.get("muerto_size")?.is_string() {
            hand_size
        } else {
            11
        };
        let max_wilds = match r.get("max_wilds_per_meld")? {
            Value::String(s) if s == "unlimited" => MaxWilds::Unlimited,
            Value::String(_) => MaxWilds::FewerThanNaturals,
            _ if r.int("max_wilds_per_meld")? == 2 => MaxWilds::Two,
            _ => MaxWilds::One,
        };
        Ok(BurakoOptions {
            players,
            first_mano: r.seat("first_mano")?.map(usize::from),
            hand_size,
            muerto_size,
            meld: MeldRules {
                twos_wild: r.bool("twos_wild")?,
                two_natural_5: r.either("two_value", "always_20", "natural_5_wild_20")?,
                joker_value: r.int("joker_value")? as i32,
                max_wilds,
                pierna_of_twos: r.either("pierna_of_twos", "forbidden", "allowed_as_naturals")?,
                ace: r.word("ace_position", AcePos::parse)?,
                ace_to_ace: r.either("ace_to_ace_run", "forbidden", "allowed")?,
                run_wrap: r.bool("run_wrap")?,
                canasta_min: r.int("canasta_min")? as u32,
            },
            pure_canasta_to_close: r.either("close_requirement", "any_canasta", "pure_canasta")?,
            close_mode: r.word("close_mode", CloseMode::parse)?,
            redraw: r.bool("first_player_redraw")?,
            must_use_top: r.either("pozo_take_requirement", "none", "must_use_top_tile_now")?,
            no_rediscard: r.either("single_tile_pozo_rediscard", "allowed", "forbidden")?,
            pozo_top_only: r.either("pozo_visibility", "all_tiles", "top_only")?,
            no_canasta_negative: r.bool("no_canasta_melds_negative")?,
            unplayed_not_taken: r.either(
                "indirect_muerto_unplayed",
                "counts_as_taken",
                "counts_as_not_taken",
            )?,
            muerto_to_stock: r.either(
                "stock_exhausted",
                "end_hand_after_turn",
                "muerto_becomes_stock",
            )?,
            max_cancels: r.int("max_cancels_per_turn")? as u32,
            max_turns: r.int("max_turns")? as u32,
            single_hand: r.either("match", "to_target", "single_hand")?,
            target: r.int("target")?,
            max_hands: r.int("max_hands")? as u32,
            loser_starts: r.either("next_mano", "rotate", "loser_starts")?,
        })
    }
}
