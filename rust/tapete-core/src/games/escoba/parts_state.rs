//! The state of the optional parts that have no pure module of their own: fidasse's claims
//! (docs/rules/escoba.md §2.19) and the sweep streak (docs/rules/escoba.md §1.5).

use crate::cards::CardSet;

use super::values::{MAX_SEATS, MAX_SIDES};

/// Fidasse: the claim card waiting for answers and its claimant, or -1; the trusted claim cards
/// of this deal per claimant, face down to the others.
#[derive(Clone, Copy, Debug)]
pub struct Claims {
    pub claim: i8,
    pub claimant: i8,
    pub claimed: [CardSet; MAX_SEATS],
}

impl Claims {
    pub const NONE: Claims = Claims {
        claim: -1,
        claimant: -1,
        claimed: [CardSet::EMPTY; MAX_SEATS],
    };
}

/// Per side, its own consecutive plays this deal that were sweeps (kept with
/// `max_consecutive_sweeps`).
#[derive(Clone, Copy, Debug)]
pub struct Streaks {
    pub runs: [u32; MAX_SIDES],
}

impl Streaks {
    pub const ZERO: Streaks = Streaks {
        runs: [0; MAX_SIDES],
    };
}
