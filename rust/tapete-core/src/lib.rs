//! tapete-core: exact, fast rules engines for traditional card games (no Python here).

pub mod bots;
pub mod cards;
pub mod error;
pub mod game;
pub mod games;
pub mod json;
pub mod obs;
pub mod options;
pub mod play;
pub mod resample;
pub mod rng;
pub mod testing;
pub mod tiles;
pub mod vecenv;

pub use cards::{Card, CardSet};
pub use error::{GameError, Result};
pub use game::{Action, Game, State};
pub use rng::SplitMix64;
