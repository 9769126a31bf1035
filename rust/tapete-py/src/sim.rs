//! `simulate` for every game: argument checks, then the batch in chunks with the GIL released;
//! between chunks the GIL is taken back briefly to run signal handlers (Ctrl-C stops the batch
//! within a chunk's time) and the caller's progress callback. Numpy arrays (or totals) back.

use std::time::{Duration, Instant};

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use tapete_core::bots::BotSpec;
use tapete_core::game::Game;
use tapete_core::play::{self, SimResult, SimTotals, Simulation};
use tapete_core::GameError;

use crate::args::{count_arg, seed_arg};
use crate::error::Result;

/// How long one chunk should run: short enough that Ctrl-C stops a batch well within 100 ms.
const CHUNK_TIME: Duration = Duration::from_millis(20);

/// The next chunk size, from the games per second of the last chunk (never more than doubling).
fn next_chunk(chunk: usize, took: Duration) -> usize {
    let secs = took.as_secs_f64().max(1e-6);
    let ideal = chunk as f64 * CHUNK_TIME.as_secs_f64() / secs;
    (ideal as usize).clamp(1, (chunk * 2).min(play::MAX_CHUNK))
}

fn arrays_dict<'py>(py: Python<'py>, r: SimResult) -> Result<Bound<'py, PyDict>> {
    let games = r.deals.len();
    let n = r.num_players;
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

fn totals_dict<'py>(py: Python<'py>, t: SimTotals) -> Result<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("games", t.games)?;
    d.set_item("returns_sum", PyArray1::from_vec(py, t.returns_sum))?;
    d.set_item("scores_sum", PyArray1::from_vec(py, t.scores_sum))?;
    d.set_item("wins", PyArray1::from_vec(py, t.wins))?;
    d.set_item("losses", PyArray1::from_vec(py, t.losses))?;
    d.set_item("draws", t.draws)?;
    d.set_item("unfinished", t.unfinished)?;
    d.set_item("deals_sum", t.deals_sum)?;
    d.set_item("decisions_sum", t.decisions_sum)?;
    Ok(d)
}

fn result_dict<'py, G: Game>(
    py: Python<'py>,
    sim: Simulation<'_, G>,
    aggregate: bool,
) -> Result<Bound<'py, PyDict>> {
    if aggregate {
        totals_dict(py, sim.totals())
    } else {
        match sim.into_arrays() {
            Some(r) => arrays_dict(py, r),
            None => Err(GameError::InvalidState("internal: no arrays".into()).into()),
        }
    }
}

/// The arguments of `_core.simulate`, as Python gave them.
pub struct SimArgs<'a, 'py> {
    pub games: &'a Bound<'py, PyAny>,
    pub seed: &'a Bound<'py, PyAny>,
    pub threads: Option<&'a Bound<'py, PyAny>>,
    pub progress: Option<&'a Bound<'py, PyAny>>,
    pub aggregate: bool,
    /// A list of bot spec texts, one per seat, or None: every seat random on one stream.
    pub bots: Option<&'a Bound<'py, PyAny>>,
}

/// The bot specs of `bots`, a list of spec texts (`InvalidOption` for anything else).
fn bot_specs(bots: &Bound<'_, PyAny>) -> Result<Vec<BotSpec>> {
    let bad = || {
        GameError::InvalidOption(format!(
            "bots must be a list of bot spec texts, one per seat, got {}",
            crate::args::repr(bots)
        ))
    };
    let list = bots.cast::<PyList>().map_err(|_| bad())?;
    let mut specs = Vec::with_capacity(list.len());
    for item in list.iter() {
        let text: String = item.extract().map_err(|_| bad())?;
        specs.push(text.parse::<BotSpec>()?);
    }
    Ok(specs)
}

/// Plays `games` matches of `game` (see `play::Simulation`) and returns the dict that
/// `tapete.simulate` documents. On Ctrl-C it raises the `KeyboardInterrupt`, carrying in `result`
/// the same dict for the games finished so far (and `done`, `total`).
pub fn simulate_game<'py, G: Game>(
    py: Python<'py>,
    game: &G,
    args: SimArgs<'_, 'py>,
) -> Result<Bound<'py, PyDict>> {
    let SimArgs {
        games,
        seed,
        threads,
        progress,
        aggregate,
        bots,
    } = args;
    let games = count_arg(games, "games", play::MAX_SIM_GAMES)?;
    let threads = match threads {
        Some(t) if !t.is_none() => count_arg(t, "threads", play::MAX_SIM_THREADS)?,
        _ => 0,
    };
    let seed = seed_arg(seed)?;
    let progress = progress.filter(|p| !p.is_none());
    if let Some(p) = progress {
        if !p.is_callable() {
            return Err(GameError::InvalidOption(format!(
                "progress must be callable as progress(done, total), got {}",
                crate::args::repr(p)
            ))
            .into());
        }
    }
    let mut sim = Simulation::new(game, games, seed, threads, aggregate)?;
    if let Some(bots) = bots.filter(|b| !b.is_none()) {
        sim = sim.with_bots(bot_specs(bots)?)?;
    }
    let workers = if threads == 0 {
        rayon::current_num_threads()
    } else {
        threads
    };
    let mut chunk = 8 * workers.max(1);
    while !sim.is_done() {
        let start = Instant::now();
        py.detach(|| sim.step(chunk));
        chunk = next_chunk(chunk, start.elapsed());
        if let Err(e) = py.check_signals() {
            if !e.is_instance_of::<PyKeyboardInterrupt>(py) {
                return Err(e.into());
            }
            let done = sim.done();
            let total = sim.total();
            let partial = result_dict(py, sim, aggregate)?;
            // the KeyboardInterrupt itself (a subclass would lose Python's exit by SIGINT)
            let value = e.value(py);
            value.setattr("result", partial)?;
            value.setattr("done", done)?;
            value.setattr("total", total)?;
            return Err(e.into());
        }
        if let Some(p) = progress {
            p.call1((sim.done(), sim.total()))?;
        }
    }
    result_dict(py, sim, aggregate)
}
