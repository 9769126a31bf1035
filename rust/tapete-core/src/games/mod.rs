//! One module per game.

pub mod escoba;
pub mod musta_maija;
pub mod mosca;
