//! One module per game.

pub mod burako;
pub mod escoba;
pub mod mosca;
pub mod musta_maija;
