//! The random bot: what `simulate` plays (`play::random_playout`).

use crate::game::{Action, State};
use crate::rng::{mod_small, SplitMix64};

/// `legal[next() mod len]`, the legal actions ascending; call only when a seat is to act.
pub fn random_action<S: State>(state: &S, rng: &mut SplitMix64) -> Action {
    let mut legal = Vec::with_capacity(32);
    state.legal_actions_into(&mut legal);
    legal[mod_small(rng.next_u64(), legal.len() as u64) as usize]
}
