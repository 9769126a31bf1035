//! Python bindings of the Burako engine (wrapped by `tapete.Burako`).

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use tapete_core::game::Action;
use tapete_core::games::burako::{self as core, rules, BurakoGame, BurakoState, NUM_ACTIONS};
use tapete_core::tiles::{parse_tile, TileCounts, TileType};
use tapete_core::GameError;

use crate::args::{action_id, list_arg, player_arg, seed_arg, text_arg, Bad};
use crate::bind::{py_game_classes, seat_index, Exposed};
use crate::errors::to_py;

/// A tile as text or id 0..52; unreadable input is `bad`.
fn tile_arg(v: &Bound<'_, PyAny>, what: &str, bad: Bad) -> Result<TileType, GameError> {
    if let Ok(s) = v.cast::<PyString>() {
        let text = s
            .to_str()
            .map_err(|_| bad(format!("{what}: not valid text")))?;
        return parse_tile(text).map_err(|e| bad(format!("{what}: {e}")));
    }
    if v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>() {
        let i: i64 = v.extract().unwrap_or(-1);
        if (0..=52).contains(&i) {
            return Ok(i as TileType);
        }
        return Err(bad(format!(
            "{what}: tile id {v} is out of range: expected 0..52"
        )));
    }
    Err(bad(format!(
        "{what}: {} is not a tile: expected text like 'R5' or 'J*', or an id 0..52",
        v.repr().map(|r| r.to_string()).unwrap_or_default()
    )))
}

/// A list of tiles; unreadable tiles are `InvalidNotation`.
fn tiles_arg(v: &Bound<'_, PyAny>, what: &str) -> Result<Vec<TileType>, GameError> {
    list_arg(v, what, GameError::InvalidState)?
        .iter()
        .map(|x| tile_arg(x, what, GameError::InvalidNotation))
        .collect()
}

/// Adds tiles to a running census; a type more than twice is `InvalidState`.
fn census_add(census: &mut TileCounts, ts: &[TileType]) -> Result<TileCounts, GameError> {
    let mut own = TileCounts::EMPTY;
    for &t in ts {
        if census.get(t) >= 2 {
            return Err(GameError::InvalidState(format!(
                "tile {} appears more than twice (each tile type has 2 copies)",
                tapete_core::tiles::tile_text(t)
            )));
        }
        census.add(t);
        own.add(t);
    }
    Ok(own)
}

fn options_game(v: &Bound<'_, PyAny>) -> Result<BurakoGame, GameError> {
    BurakoGame::from_json_options(text_arg(v, "options JSON", GameError::InvalidOption)?)
}

impl Exposed for BurakoState {
    const NUM_ACTIONS: Action = NUM_ACTIONS;
    fn action_text(&self, a: Action) -> Result<String, GameError> {
        core::action_to_string(a)
    }
    fn text_action(&self, text: &str) -> Result<Action, GameError> {
        core::string_to_action(text)
    }
    fn observation_of(&self, player: i64) -> Result<Vec<f32>, GameError> {
        self.observation(seat_index(player, self.game().num_players())?)
    }
}

py_game_classes! {
    game PyBurakoGame(BurakoGame, "burako", "BurakoGame") {
        #[pyo3(signature = (seed = None, deck = None))]
        fn new_state(
            &self,
            seed: Option<&Bound<'_, PyAny>>,
            deck: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyBurakoState> {
            let seed = match seed {
                Some(s) => seed_arg(s)?,
                None => 0,
            };
            let s = match deck {
                Some(d) if !d.is_none() => {
                    let items = list_arg(d, "deck", GameError::InvalidState).map_err(to_py)?;
                    let tiles = items
                        .iter()
                        .map(|x| tile_arg(x, "deck", GameError::InvalidState))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(to_py)?;
                    self.game.new_state_with_deck(seed, &tiles).map_err(to_py)?
                }
                _ => self.game.new_state(seed),
            };
            Ok(PyBurakoState { s })
        }
    }
    state PyBurakoState(BurakoState, "BurakoState") {
        fn __repr__(&self) -> String {
            format!(
                "<BurakoState hand={} mano={} to_move={} totals={:?}{}>",
                self.s.hand_number(),
                self.s.mano(),
                self.current_player(),
                self.s.totals(),
                if self.s.is_terminal() { " terminal" } else { "" }
            )
        }
    }
}

#[pyfunction]
fn burako_classify_meld(
    tiles: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<Option<(&'static str, bool, bool, i32)>> {
    let game = options_game(options_json).map_err(to_py)?;
    let ts = tiles_arg(tiles, "tiles").map_err(to_py)?;
    let mut census = TileCounts::EMPTY;
    let c = census_add(&mut census, &ts).map_err(to_py)?;
    Ok(rules::classify_meld(c, &game.options().meld)
        .map(|m| (m.kind.as_str(), m.pure, m.canasta, m.value)))
}

/// `score_team` (contract §9).
#[pyfunction]
fn burako_score_team(
    melds: &Bound<'_, PyAny>,
    racks: &Bound<'_, PyAny>,
    closed: &Bound<'_, PyAny>,
    muerto_taken: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<i64> {
    let game = options_game(options_json).map_err(to_py)?;
    let o = game.options();
    let flag = |v: &Bound<'_, PyAny>, what: &str| -> PyResult<bool> {
        if v.is_instance_of::<PyBool>() {
            Ok(v.extract::<bool>()?)
        } else {
            Err(to_py(GameError::InvalidState(format!(
                "{what} must be a bool"
            ))))
        }
    };
    let closed = flag(closed, "closed")?;
    let taken = flag(muerto_taken, "muerto_taken")?;
    let mut census = TileCounts::EMPTY;
    let mut tally = rules::TeamTally {
        meld_points: 0,
        pure_canastas: 0,
        impure_canastas: 0,
    };
    for (i, m) in list_arg(melds, "melds", GameError::InvalidState)
        .map_err(to_py)?
        .iter()
        .enumerate()
    {
        let what = format!("melds[{i}]");
        let ts = tiles_arg(m, &what).map_err(to_py)?;
        let c = census_add(&mut census, &ts).map_err(to_py)?;
        let info = rules::classify_meld(c, &o.meld).ok_or_else(|| {
            to_py(GameError::InvalidState(format!(
                "{what} is not a valid meld"
            )))
        })?;
        tally.meld_points += info.value as i64;
        if info.canasta {
            if info.pure {
                tally.pure_canastas += 1;
            } else {
                tally.impure_canastas += 1;
            }
        }
    }
    let mut rack_points = 0i64;
    for (i, r) in list_arg(racks, "racks", GameError::InvalidState)
        .map_err(to_py)?
        .iter()
        .enumerate()
    {
        let ts = tiles_arg(r, &format!("racks[{i}]")).map_err(to_py)?;
        let c = census_add(&mut census, &ts).map_err(to_py)?;
        rack_points += rules::counts_value(c, &o.meld) as i64;
    }
    Ok(rules::team_score(
        &tally,
        rack_points,
        closed,
        taken,
        o.no_canasta_negative,
    ))
}

#[pyfunction]
#[pyo3(signature = (options_json, games, seed, threads = None))]
fn simulate_burako<'py>(
    py: Python<'py>,
    options_json: &Bound<'py, PyAny>,
    games: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    threads: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let game = options_game(options_json).map_err(to_py)?;
    crate::sim::simulate_py(py, &game, games, seed, threads)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBurakoGame>()?;
    m.add_class::<PyBurakoState>()?;
    m.add_function(wrap_pyfunction!(burako_classify_meld, m)?)?;
    m.add_function(wrap_pyfunction!(burako_score_team, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_burako, m)?)?;
    Ok(())
}
