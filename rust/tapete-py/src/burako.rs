//! Python bindings of the Burako engine (wrapped by `tapete.Burako`).

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use tapete_core::game::Action;
use tapete_core::games::burako::{self as core, rules, BurakoGame, BurakoState, NUM_ACTIONS};
use tapete_core::tiles::{parse_tile, TileCounts, TileType};
use tapete_core::GameError;

use crate::args::{action_id, list_arg, player_arg, seed_arg, text_arg, Bad};
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

#[pyclass(module = "tapete._core", name = "BurakoGame", frozen)]
pub struct PyBurakoGame {
    game: BurakoGame,
}

#[pymethods]
impl PyBurakoGame {
    #[new]
    fn new(options_json: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyBurakoGame {
            game: options_game(options_json).map_err(to_py)?,
        })
    }
    #[getter]
    fn name(&self) -> &'static str {
        "burako"
    }
    #[getter]
    fn options_json(&self) -> &str {
        self.game.options_json()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        NUM_ACTIONS as usize
    }
    #[getter]
    fn observation_shape(&self) -> (usize,) {
        (self.game.observation_size(),)
    }

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

    fn setup(&self, spec_json: &Bound<'_, PyAny>) -> PyResult<PyBurakoState> {
        let text = text_arg(spec_json, "setup", GameError::InvalidState).map_err(to_py)?;
        Ok(PyBurakoState {
            s: self.game.setup_json(text).map_err(to_py)?,
        })
    }

    fn state_from_json(&self, text: &Bound<'_, PyAny>) -> PyResult<PyBurakoState> {
        let text = text_arg(text, "state JSON", GameError::InvalidState).map_err(to_py)?;
        Ok(PyBurakoState {
            s: self.game.state_from_json(text).map_err(to_py)?,
        })
    }

    fn __repr__(&self) -> String {
        format!("BurakoGame({})", self.game.options_json())
    }
}

#[pyclass(module = "tapete._core", name = "BurakoState")]
pub struct PyBurakoState {
    s: BurakoState,
}

#[pymethods]
impl PyBurakoState {
    fn current_player(&self) -> i64 {
        self.s.current_player().map_or(-1, |p| p as i64)
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.s.legal_actions_vec())
    }

    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; NUM_ACTIONS as usize];
        self.s.for_each_legal(|a| mask[a as usize] = true);
        PyArray1::from_vec(py, mask)
    }

    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = if action.is_instance_of::<PyString>() {
            text_arg(action, "action text", GameError::InvalidNotation)
                .and_then(|t| self.s.apply_str(t))
        } else {
            action_id(action, NUM_ACTIONS).and_then(|a| self.s.apply(a))
        };
        r.map_err(to_py)
    }

    fn action_to_string(&self, a: &Bound<'_, PyAny>) -> PyResult<String> {
        let id = action_id(a, NUM_ACTIONS).map_err(to_py)?;
        core::action_to_string(id).map_err(to_py)
    }

    fn string_to_action(&self, s: &Bound<'_, PyAny>) -> PyResult<Action> {
        let text = text_arg(s, "action text", GameError::InvalidNotation).map_err(to_py)?;
        core::string_to_action(text).map_err(to_py)
    }

    fn is_terminal(&self) -> bool {
        self.s.is_terminal()
    }
    fn returns(&self) -> Vec<f64> {
        self.s.returns()
    }
    fn scores(&self) -> Vec<i64> {
        self.s.scores()
    }
    fn clone(&self) -> PyBurakoState {
        PyBurakoState { s: self.s.clone() }
    }
    fn __copy__(&self) -> PyBurakoState {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyBurakoState {
        self.clone()
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyBurakoState>() {
            Ok(o) => o.try_borrow().map(|o| o.s == self.s).unwrap_or(false),
            Err(_) => false,
        }
    }
    fn history(&self) -> Vec<Action> {
        self.s.history()
    }

    fn view<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let p = player_arg(player, self.s.game().num_players()).map_err(to_py)?;
        let text = self.s.view_json(p).map_err(to_py)?;
        py.import("json")?.call_method1("loads", (text,))
    }

    fn observation<'py>(
        &self,
        py: Python<'py>,
        player: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let n = self.s.game().num_players();
        let p = player_arg(player, n).map_err(to_py)?;
        if !(0..n as i64).contains(&p) {
            return Err(to_py(GameError::InvalidPlayer(format!(
                "seat {p} is not a seat of this game: expected an int in 0..{}",
                n - 1
            ))));
        }
        let v = self.s.observation(p as usize).map_err(to_py)?;
        Ok(PyArray1::from_vec(py, v))
    }

    fn to_json(&self) -> String {
        self.s.to_json()
    }
    fn __str__(&self) -> String {
        self.s.to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "<BurakoState hand={} mano={} to_move={} totals={:?}{}>",
            self.s.hand_number(),
            self.s.mano(),
            self.current_player(),
            self.s.totals(),
            if self.s.is_terminal() {
                " terminal"
            } else {
                ""
            }
        )
    }
}

/// `classify_meld` (contract §3): None or (kind, pure, canasta, value).
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
