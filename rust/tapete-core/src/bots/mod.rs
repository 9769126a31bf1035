//! Bots over the `State` trait (docs/bots.md): `random`, the game's `heuristic`, and
//! single-observer information-set MCTS. Every bot reads only what the seat to act may see: the
//! state passes through `resample_into` (ISMCTS) or the game's own `heuristic_action` (which
//! reads only that seat's view), and `random` reads the legal actions alone.

pub mod heuristic;
pub mod ismcts;
pub mod random;
pub mod spec;

pub use ismcts::{deal_rewards, search, Horizon, IsmctsConfig, Rollout, RootStat, SearchResult};
pub use spec::BotSpec;

use crate::error::{GameError, Result};
use crate::game::{Action, State};
use crate::rng::SplitMix64;

/// The action `spec` plays for the seat to act, drawing from `rng`: `random` draws one value
/// (`legal[next() mod len]`), `heuristic` whatever the game's `heuristic_action` draws, ISMCTS
/// one value, the seed of its search (docs/bots.md §3.6). A state where no seat
/// acts is an `IllegalAction` error.
pub fn act_with_rng<S: State>(spec: &BotSpec, state: &S, rng: &mut SplitMix64) -> Result<Action> {
    Ok(act_with_stats(spec, state, rng)?.0)
}

/// As [`act_with_rng`], with the search's root statistics for ISMCTS (`None` for the others).
pub fn act_with_stats<S: State>(
    spec: &BotSpec,
    state: &S,
    rng: &mut SplitMix64,
) -> Result<(Action, Option<SearchResult>)> {
    check_to_act(state)?;
    Ok(match spec {
        BotSpec::Random => (random::random_action(state, rng), None),
        BotSpec::Heuristic => (state.heuristic_action(rng), None),
        BotSpec::Ismcts(cfg) => {
            let r = search(cfg, state, rng.next_u64())?;
            (r.action, Some(r))
        }
    })
}

/// The action `spec` plays here with a stream seeded by `seed` (one decision, no state kept).
pub fn act<S: State>(spec: &BotSpec, state: &S, seed: u64) -> Result<Action> {
    act_with_rng(spec, state, &mut SplitMix64::new(seed))
}

/// `Ok` when a seat is to act (the cap counts: a cut match has none).
pub fn check_to_act<S: State>(state: &S) -> Result<usize> {
    state.player_to_act().ok_or_else(|| {
        GameError::IllegalAction("no seat is to act: the match is over, a bot has no move".into())
    })
}

#[cfg(test)]
mod tests;
