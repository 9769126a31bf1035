//! Typed Mosca options (docs/mosca_engine.md §2). The option table and its defaults are data
//! (`python/tapete/data/mosca.json`), read by both engines; what is derived from the resolved
//! values (`deck = auto`, the default `match_deals`) and the check across options are code, here
//! and in the reference engine.

use serde_json::Value;

use crate::error::{GameError, Result};
use crate::options::{OptionsSpec, Resolved};
use crate::word_enum;

word_enum!(AceRank { BetweenJackAndTen => "between_jack_and_ten", High => "high", Low => "low" });
word_enum!(Bankruptcy { AllowNegative => "allow_negative", EliminateAtZero => "eliminate_at_zero" });
word_enum!(Ante {
    DealerPaysN => "dealer_pays_N",
    EachPlayerPays1 => "each_player_pays_1",
    DealerPays5 => "dealer_pays_5",
});
word_enum!(DealPackets {
    TwoThenThree => "2_then_3",
    ThreeThenTwo => "3_then_2",
    OneAtATime => "1_at_a_time",
});
word_enum!(ExchangeLimit {
    Talon => "talon",
    Max3 => "max_3",
    Reshuffle => "reshuffle_discards_when_empty",
});
word_enum!(MoscaTie { Split => "split", EldestWins => "eldest_wins" });
word_enum!(MoscaBonus { None => "none", EachOtherPays => "each_other_player_pays_penalty" });
word_enum!(LonePlayer {
    WinsPot => "wins_pot",
    PotCarries => "pot_carries",
    MustPlayTricks => "must_play_tricks",
});
word_enum!(PenaltyTiming { BeforeAward => "before_award", NextPot => "next_pot" });
word_enum!(PotAward { MostTricks => "most_tricks", PerTrick => "per_trick" });
word_enum!(TrickTie { CarryOver => "carry_over", SplitEqually => "split_equally" });
word_enum!(LeftoverPot {
    Ignored => "ignored",
    SplitEquallyAmongAll => "split_equally_among_all",
});

pub const DECK_SIZES: [u8; 6] = [32, 36, 40, 44, 48, 52];

/// The option table (docs/mosca_engine.md §2).
pub fn spec() -> &'static OptionsSpec {
    crate::options_spec!("mosca.json")
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

crate::defaults_from_table!(MoscaOptions);

impl MoscaOptions {
    /// Typed options from the resolved table. The derived values are written into `r` first, so
    /// that the canonical options JSON holds them as ints (docs/mosca_engine.md §2): `deck = auto`
    /// becomes the smallest deck whose talon holds 3 cards a player, `match_deals` (null by
    /// default) `2 * players`. Then the check across options: the deck deals every hand and a
    /// turn-up.
    pub fn from_resolved(r: &mut Resolved) -> Result<MoscaOptions> {
        let players = r.int("players")? as u8;
        if r.get("deck")?.as_str() == Some("auto") {
            r.0.insert("deck".into(), Value::from(auto_deck(players)));
        }
        if r.get("match_deals")?.is_null() {
            r.0.insert("match_deals".into(), Value::from(2 * players as i64));
        }
        let o = MoscaOptions {
            players,
            first_dealer: r.seat("first_dealer")?,
            deck: r.int("deck")? as u8,
            ace_rank: r.word("ace_rank", AceRank::parse)?,
            initial_chips: r.int("initial_chips")?,
            bankruptcy: r.word("bankruptcy", Bankruptcy::parse)?,
            ante: r.word("ante", Ante::parse)?,
            deal_packets: r.word("deal_packets", DealPackets::parse)?,
            dealer_may_take_turnup: r.bool("dealer_may_take_turnup")?,
            exchange_limit: r.word("exchange_limit", ExchangeLimit::parse)?,
            mosca_after_exchange: r.bool("mosca_after_exchange")?,
            mosca_tie: r.word("mosca_tie", MoscaTie::parse)?,
            mosca_bonus: r.word("mosca_bonus", MoscaBonus::parse)?,
            lone_player: r.word("lone_player", LonePlayer::parse)?,
            must_head: r.bool("must_head")?,
            must_trump: r.bool("must_trump")?,
            must_overtrump: r.bool("must_overtrump")?,
            must_undertrump: r.bool("must_undertrump")?,
            no_trick_penalty: match r.get("no_trick_penalty")? {
                Value::String(s) if s == "pot" => None,
                _ => Some(r.int("no_trick_penalty")?),
            },
            penalty_timing: r.word("penalty_timing", PenaltyTiming::parse)?,
            pot_award: r.word("pot_award", PotAward::parse)?,
            trick_tie: r.word("trick_tie", TrickTie::parse)?,
            match_deals: r.int("match_deals")?,
            leftover_pot: r.word("leftover_pot", LeftoverPot::parse)?,
        };
        let need = 5 * players as usize + 1;
        if (o.deck as usize) < need {
            return Err(GameError::InvalidOption(format!(
                "deck {} is too small for {players} players: it needs at least {need} cards",
                o.deck
            )));
        }
        Ok(o)
    }
}
