//! The random-playout invariant sweeps (docs/design.md §7.3), one module per game in one test
//! binary: one release link instead of one per game, and every sweep spreads its configurations
//! over the cores.

mod burako;
mod escoba;
mod mosca;
mod musta_maija;
