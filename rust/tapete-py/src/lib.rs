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

        /// Matches of any native game played by native bots (every seat random by default), in
        /// Rust on all threads with the GIL released.
        #[pyfunction]
        #[allow(clippy::too_many_arguments)] // Python's keyword arguments, gathered at once below
        #[pyo3(signature = (game, games, seed, threads = None, progress = None, aggregate = false, bots = None))]
        fn simulate<'py>(
            py: Python<'py>,
            game: &Bound<'py, PyAny>,
            games: &Bound<'py, PyAny>,
            seed: &Bound<'py, PyAny>,
            threads: Option<&Bound<'py, PyAny>>,
            progress: Option<&Bound<'py, PyAny>>,
            aggregate: bool,
            bots: Option<&Bound<'py, PyAny>>,
        ) -> Result<Bound<'py, PyDict>> {
            let args = sim::SimArgs { games, seed, threads, progress, aggregate, bots };
            $(
                if let Ok(g) = game.cast::<$module::$Game>() {
                    return sim::simulate_game(py, &g.get().game, args);
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

/// What would otherwise load lazily on first use, loaded at import: numpy's C API and the error
/// classes. Their lazy loaders panic when interrupted (a Ctrl-C during the first `simulate` was a
/// `PanicException`), so they run here with SIGINT blocked; a signal that arrives meanwhile stays
/// pending and raises `KeyboardInterrupt` in ordinary code once it is unblocked.
fn init_lazy_apis(py: Python<'_>) -> PyResult<()> {
    let signal = py.import("signal")?;
    let mask = if signal.hasattr("pthread_sigmask")? {
        let sigint = signal.getattr("SIGINT")?;
        let block = signal.getattr("SIG_BLOCK")?;
        Some(signal.call_method1("pthread_sigmask", (block, vec![sigint]))?)
    } else {
        None
    };
    let loaded = (|| -> PyResult<()> {
        py.check_signals()?; // a Ctrl-C from before the block: raised here, cleanly
        py.import("numpy")?;
        py.import("numpy.lib")?;
        numpy::PyArray1::<f64>::zeros(py, 0, false);
        error::init(py)
    })();
    if let Some(old) = mask {
        let setmask = signal.getattr("SIG_SETMASK")?;
        signal.call_method1("pthread_sigmask", (setmask, old))?;
    }
    loaded
}

/// The shared resampler on plain lists, for the differential test against the reference's
/// `tapete.reference._resample.place` (docs/design.md §10): each place's cards, or None.
#[pyfunction]
fn _resample_place(
    cards: Vec<u16>,
    allowed: Vec<u32>,
    caps: Vec<u16>,
    seed: u64,
) -> Option<Vec<Vec<u16>>> {
    let mut rng = tapete_core::SplitMix64::new(seed);
    let mut out = vec![0u16; cards.len()];
    if !tapete_core::resample::place(&cards, &allowed, &caps, &mut rng, &mut out) {
        return None;
    }
    let mut at = 0;
    Some(
        caps.iter()
            .map(|&c| {
                at += c as usize;
                out[at - c as usize..at].to_vec()
            })
            .collect(),
    )
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    init_lazy_apis(m.py())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_DECISIONS", tapete_core::game::MAX_DECISIONS)?;
    m.add("BOT_SEED_XOR", tapete_core::play::BOT_SEED_XOR)?;
    m.add_class::<vecenv::VecEnv>()?;
    m.add_function(wrap_pyfunction!(_resample_place, m)?)?;
    register_games(m)
}
