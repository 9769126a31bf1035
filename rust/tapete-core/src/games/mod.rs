//! One module per game.

pub mod burako;
pub mod escoba;
pub mod musta_maija;
pub mod mosca;
