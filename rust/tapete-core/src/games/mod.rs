//! One module per game.

pub mod escoba;
