//! The `Game` / `State` pair every engine implements, so that playouts, simulation and bots are
//! written once (play.rs).

use crate::error::GameError;

/// An id of the game's fixed, dense action space `0..num_distinct_actions`.
pub type Action = u32;

/// A game: its resolved options and the factory of initial states.
pub trait Game: Send + Sync {
    type State: State;

    fn name(&self) -> &'static str;
    fn num_players(&self) -> usize;
    fn num_distinct_actions(&self) -> usize;
    /// Length of the flat observation vector.
    fn observation_size(&self) -> usize;
    /// The initial state dealt with the seeded RNG (DESIGN §5).
    fn new_state(&self, seed: u64) -> Self::State;
}

/// A position. `Clone` is the (cheap) deep copy.
pub trait State: Clone + Send + Sync {
    fn num_players(&self) -> usize;
    /// Seat to act, `None` when terminal.
    fn current_player(&self) -> Option<usize>;
    /// Writes the legal actions, sorted ascending, into `out` (cleared first).
    fn legal_actions(&self, out: &mut Vec<Action>);
    /// Applies a legal action; an illegal one is an error and leaves the state unchanged.
    fn apply(&mut self, action: Action) -> Result<(), GameError>;
    /// Applies an action known to be legal (e.g. one just produced by `legal_actions`).
    fn apply_unchecked(&mut self, action: Action);
    fn is_terminal(&self) -> bool;
    /// Zero-sum utility per seat (all 0 before the end); `out.len() == num_players()`.
    fn returns(&self, out: &mut [f64]);
    /// The game's own running score per seat.
    fn scores(&self, out: &mut [i64]);
    /// Deals (rounds) started so far, the current one included.
    fn deals(&self) -> u32;
    /// Writes what `player` may see into `out` (`out.len()` = the game's observation size).
    fn observation(&self, player: usize, out: &mut [f32]) -> Result<(), GameError>;
    /// Canonical JSON (DESIGN §4).
    fn to_json(&self) -> String;
}
