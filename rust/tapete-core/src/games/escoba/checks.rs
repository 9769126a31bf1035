//! The checks across options (docs/escoba_engine.md §2): each feature's own clashes and what the
//! deal needs, run once when a game is made. Apart from `options.rs`, which only reads them, so
//! that the option table imports no feature.

use serde_json::{Map, Value};

use super::options::{
    expand_aliases, opt_err, opt_text, spec, AceEmpty, EscobaOptions, TargetMode,
};
use super::{cicera, features, knock};
use crate::error::Result;

impl EscobaOptions {
    /// User options (a JSON object) resolved: the alias, the table's scheme, then what is derived.
    pub fn resolve(input: &Value) -> Result<EscobaOptions> {
        let mut m = spec().resolve(&expand_aliases(input)?)?;
        EscobaOptions::from_resolved(&mut m)
    }

    /// Typed options from the resolved table (what is derived written back into `options`), then
    /// checked across options.
    pub fn from_resolved(options: &mut Map<String, Value>) -> Result<EscobaOptions> {
        let o = EscobaOptions::read_resolved(options)?;
        o.validate()?;
        Ok(o)
    }

    fn validate(&self) -> Result<()> {
        if knock::enabled(self) && self.target_mode == TargetMode::Eliminate {
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
        if self.ace_self_capture_is_scopa
            && !(self.ace_takes_all && self.ace_on_empty_table == AceEmpty::SelfCapture)
        {
            return Err(opt_err(
                "option ace_self_capture_is_scopa needs ace_takes_all=true and \
                 ace_on_empty_table=self_capture (docs/rules/escoba.md §2.1)"
                    .into(),
            ));
        }
        if self.ace_may_trail && !self.ace_takes_all {
            return Err(opt_err(
                "option ace_may_trail needs ace_takes_all=true (docs/rules/escoba.md §2.1)".into(),
            ));
        }
        features::validate_captures(self)?;
        if self.tuzzoli && self.cards_per_hand != 3 {
            return Err(opt_err(format!(
                "option tuzzoli declares 3-card hands (docs/rules/escoba.md §2.8): cards_per_hand must be 3, got {}",
                self.cards_per_hand
            )));
        }
        if knock::enabled(self) && self.cards_per_hand != 3 {
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
        cicera::validate(self)?;
        features::validate_pack(self)?;
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
}
