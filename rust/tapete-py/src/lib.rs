//! `tapete._core`: the PyO3 bindings of tapete-core. Every game's classes are generated from the
//! `Game` / `State` traits (bind.rs) for each game of the core's registry (`for_each_game!`);
//! errors are mapped once (error.rs); batch work releases the GIL (sim.rs).

use pyo3::prelude::*;
use pyo3::types::PyDict;

mod args;
mod bind;
mod error;
mod sim;
mod vecenv;

use error::Result;

macro_rules! bind_games {
    ($($module:ident :: $Game:ident, $State:ident;)*) => {
        $(bind::py_game!($module, $Game, $State);)*

        /// Random playouts of any native game, in Rust on all threads with the GIL released.
        #[pyfunction]
        #[pyo3(signature = (game, games, seed, threads = None))]
        fn simulate<'py>(
            py: Python<'py>,
            game: &Bound<'py, PyAny>,
            games: &Bound<'py, PyAny>,
            seed: &Bound<'py, PyAny>,
            threads: Option<&Bound<'py, PyAny>>,
        ) -> Result<Bound<'py, PyDict>> {
            $(
                if let Ok(g) = game.cast::<$module::$Game>() {
                    return sim::simulate_game(py, &g.get().game, games, seed, threads);
                }
            )*
            Err(tapete_core::GameError::InvalidOption(format!(
                "cannot simulate {}: expected a native game such as tapete.Escoba()",
                args::repr(game)
            ))
            .into())
        }

        fn register_games(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $($module::register(m)?;)*
            m.add_function(wrap_pyfunction!(simulate, m)?)?;
            Ok(())
        }
    };
}

tapete_core::for_each_game!(bind_games);

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<vecenv::VecEnv>()?;
    register_games(m)
}
