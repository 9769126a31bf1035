//! `simulate` for every game: argument checks, the GIL released, numpy arrays back.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use tapete_core::game::Game;
use tapete_core::play;
use tapete_core::GameError;

use crate::args::{count_arg, seed_arg};
use crate::error::Result;

/// Plays `games` random matches of `game` (see `play::simulate`) and returns the dict of arrays
/// that `tapete.simulate` documents.
pub fn simulate_game<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> Result<Bound<'py, PyDict>> {
    let games = count_arg(games, "games", play::MAX_SIM_GAMES)?;
    let threads = match threads {
        Some(t) if !t.is_none() => count_arg(t, "threads", play::MAX_SIM_THREADS)?,
        _ => 0,
    };
    let seed = seed_arg(seed)?;
    let n = game.num_players();
    let r = py.detach(|| play::simulate(game, games, seed, threads))?;
    let shape = |_| GameError::InvalidState("internal: result shape".into());
    let returns: Bound<'py, PyArray2<f64>> = Array2::from_shape_vec((games, n), r.returns)
        .map_err(shape)?
        .into_pyarray(py);
    let scores: Bound<'py, PyArray2<i32>> = Array2::from_shape_vec((games, n), r.scores)
        .map_err(shape)?
        .into_pyarray(py);
    let d = PyDict::new(py);
    d.set_item("returns", returns)?;
    d.set_item("scores", scores)?;
    d.set_item("deals", PyArray1::from_vec(py, r.deals))?;
    d.set_item("decisions", PyArray1::from_vec(py, r.decisions))?;
    d.set_item("finished", PyArray1::from_vec(py, r.finished))?;
    Ok(d)
}
