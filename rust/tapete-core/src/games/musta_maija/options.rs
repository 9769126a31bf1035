//! Typed Musta Maija options (docs/musta_maija_engine.md §2). The option table, its defaults and
//! the presets are data (`python/tapete/data/musta_maija.json`), read by both engines.

use crate::error::{GameError, Result};
use crate::options::{OptionsSpec, Resolved};
use crate::word_enum;

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

/// The option table (docs/musta_maija_engine.md §2).
pub fn spec() -> &'static OptionsSpec {
    crate::options_spec!("musta_maija.json")
}

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

crate::defaults_from_table!(MustaMaijaOptions);

impl MustaMaijaOptions {
    /// Typed options from the resolved table, with the checks across options.
    pub fn from_resolved(r: &mut Resolved) -> Result<MustaMaijaOptions> {
        let o = MustaMaijaOptions {
            variant: r.word("variant", Variant::parse)?,
            players: r.int("players")? as u8,
            first_dealer: r.seat("first_dealer")?,
            hand_size: r.int("hand_size")? as u32,
            trump_reveal: r.word("trump_reveal", TrumpReveal::parse)?,
            spades_can_be_trump: r.bool("spades_can_be_trump")?,
            spade_reinsert: r.word("spade_reinsert", SpadeReinsert::parse)?,
            attack_limit: r.word("attack_limit", AttackLimit::parse)?,
            beat_optional: r.bool("beat_optional")?,
            draw_order: r.word("draw_order", DrawOrder::parse)?,
            next_dealer: r.word("next_dealer", NextDealer::parse)?,
            match_mode: r.word("match", MatchMode::parse)?,
            match_hands: r.int("match_hands")? as u32,
            match_losses: r.int("match_losses")? as u32,
            max_attacks: r.opt_int("max_attacks")?.map(|m| m as u32),
        };
        let n = o.players as u64;
        if n * o.hand_size as u64 > 51 {
            return Err(GameError::InvalidOption(format!(
                "players*hand_size must be at most 51 so that the stock is not empty, got {n}*{}",
                o.hand_size
            )));
        }
        Ok(o)
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
