//! Python bindings of the Mosca engine (wrapped by `tapete.Mosca`). Card arguments arrive as
//! ids: the Python front converts and checks them (contract §6, §7).

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use tapete_core::cards::{Card, CardSet};
use tapete_core::game::Action;
use tapete_core::games::mosca::{rules, MoscaGame, MoscaState, NUM_ACTIONS};
use tapete_core::GameError;

use crate::args::{action_id, player_arg, seed_arg, text_arg};
use crate::errors::to_py;

fn options_game(v: &Bound<'_, PyAny>) -> Result<MoscaGame, GameError> {
    MoscaGame::from_json_options(text_arg(v, "options JSON", GameError::InvalidOption)?)
}

fn ids_to_cards(
    ids: &[i64],
    what: &str,
    bad: fn(String) -> GameError,
) -> Result<Vec<Card>, GameError> {
    ids.iter()
        .map(|&i| {
            Card::from_index(i).ok_or_else(|| {
                bad(format!(
                    "{what}: card id {i} is out of range: expected 0..51"
                ))
            })
        })
        .collect()
}

#[pyclass(module = "tapete._core", name = "MoscaGame", frozen)]
pub struct PyMoscaGame {
    game: MoscaGame,
}

#[pymethods]
impl PyMoscaGame {
    #[new]
    fn new(options_json: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMoscaGame {
            game: options_game(options_json).map_err(to_py)?,
        })
    }

    #[getter]
    fn name(&self) -> &'static str {
        "mosca"
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

    /// `deck`: card ids, top first (checked by the engine).
    #[pyo3(signature = (seed = None, deck = None))]
    fn new_state(
        &self,
        seed: Option<&Bound<'_, PyAny>>,
        deck: Option<Vec<i64>>,
    ) -> PyResult<PyMoscaState> {
        let seed = match seed {
            Some(s) => seed_arg(s)?,
            None => 0,
        };
        let s = match deck {
            Some(d) => {
                let cards = ids_to_cards(&d, "deck", GameError::InvalidState).map_err(to_py)?;
                self.game
                    .new_state_with_deck(seed, Some(&cards))
                    .map_err(to_py)?
            }
            None => self.game.new_state(seed),
        };
        Ok(PyMoscaState { s })
    }

    fn setup(&self, spec_json: &Bound<'_, PyAny>) -> PyResult<PyMoscaState> {
        let text = text_arg(spec_json, "setup", GameError::InvalidState).map_err(to_py)?;
        Ok(PyMoscaState {
            s: self.game.setup_json(text).map_err(to_py)?,
        })
    }

    fn state_from_json(&self, text: &Bound<'_, PyAny>) -> PyResult<PyMoscaState> {
        let text = text_arg(text, "state JSON", GameError::InvalidState).map_err(to_py)?;
        Ok(PyMoscaState {
            s: self.game.state_from_json(text).map_err(to_py)?,
        })
    }

    fn __repr__(&self) -> String {
        format!("MoscaGame({})", self.game.options_json())
    }
}

#[pyclass(module = "tapete._core", name = "MoscaState")]
pub struct PyMoscaState {
    s: MoscaState,
}

impl PyMoscaState {
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> Result<(), GameError> {
        if action.is_instance_of::<PyString>() {
            let t = text_arg(action, "action text", GameError::InvalidNotation)?;
            return self.s.apply_str(t);
        }
        let a = action_id(action, NUM_ACTIONS)?;
        self.s.apply(a)
    }
}

#[pymethods]
impl PyMoscaState {
    fn current_player(&self) -> i64 {
        self.s.current_player().map_or(-1, |p| p as i64)
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut buf = [0 as Action; 64];
        let n = self.s.legal_actions_array(&mut buf);
        PyList::new(py, &buf[..n])
    }

    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; NUM_ACTIONS as usize];
        self.s.for_each_legal(|a| mask[a as usize] = true);
        PyArray1::from_vec(py, mask)
    }

    /// Applies an action id or its notation; the state is unchanged on error.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.apply_action(action).map_err(to_py)
    }

    fn action_to_string(&self, a: &Bound<'_, PyAny>) -> PyResult<String> {
        let id = action_id(a, NUM_ACTIONS).map_err(to_py)?;
        self.s.action_to_string(id).map_err(to_py)
    }

    fn string_to_action(&self, s: &Bound<'_, PyAny>) -> PyResult<Action> {
        let text = text_arg(s, "action text", GameError::InvalidNotation).map_err(to_py)?;
        self.s.string_to_action(text).map_err(to_py)
    }

    fn is_terminal(&self) -> bool {
        self.s.is_terminal()
    }

    fn returns(&self) -> Vec<f64> {
        self.s.returns()
    }

    /// Chip balance per seat.
    fn scores(&self) -> Vec<i64> {
        self.s.scores()
    }

    fn clone(&self) -> PyMoscaState {
        PyMoscaState { s: self.s.clone() }
    }

    fn __copy__(&self) -> PyMoscaState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMoscaState {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyMoscaState>() {
            Ok(o) => match o.try_borrow() {
                Ok(o) => o.s == self.s,
                Err(_) => false,
            },
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
        let p = player_arg(player, self.s.game().num_players()).map_err(to_py)?;
        let v = self.s.observation(p).map_err(to_py)?;
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
            "<MoscaState deal={} dealer={} to_move={} pot={} balances={:?}{}>",
            self.s.deals_played() + (!self.s.is_terminal()) as u32,
            self.s.dealer(),
            self.current_player(),
            self.s.pot(),
            self.s.balances(),
            if self.s.is_terminal() {
                " terminal"
            } else {
                ""
            }
        )
    }
}

fn set_of(ids: &[i64], what: &str) -> Result<CardSet, GameError> {
    let mut s = CardSet::EMPTY;
    for c in ids_to_cards(ids, what, GameError::InvalidNotation)? {
        if s.contains(c) {
            return Err(GameError::InvalidState(format!(
                "card {c} appears more than once"
            )));
        }
        s.insert(c);
    }
    Ok(s)
}

fn trump_of(t: i64) -> Result<u8, GameError> {
    if (0..4).contains(&t) {
        Ok(t as u8)
    } else {
        Err(GameError::InvalidNotation(format!(
            "trump {t} is not a suit: expected c, d, h or s"
        )))
    }
}

/// `legal_cards` (contract §6), cards as ids; ascending card text.
#[pyfunction]
fn mosca_legal_cards(
    hand: Vec<i64>,
    trick: Vec<i64>,
    trump: i64,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<Vec<String>> {
    let game = options_game(options_json).map_err(to_py)?;
    let trump = trump_of(trump).map_err(to_py)?;
    let h = set_of(&hand, "hand").map_err(to_py)?;
    let t = ids_to_cards(&trick, "trick", GameError::InvalidNotation).map_err(to_py)?;
    set_of(
        &[hand.as_slice(), trick.as_slice()].concat(),
        "hand and trick",
    )
    .map_err(to_py)?;
    let legal = rules::legal_cards_for_trick(game.strength(), game.duties(), h, &t, trump);
    Ok(legal.iter().map(|c| c.to_string()).collect())
}

/// `trick_winner` (contract §6): the index of the winning card.
#[pyfunction]
fn mosca_trick_winner(
    trick: Vec<i64>,
    trump: i64,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    let game = options_game(options_json).map_err(to_py)?;
    let trump = trump_of(trump).map_err(to_py)?;
    set_of(&trick, "trick").map_err(to_py)?;
    let t = ids_to_cards(&trick, "trick", GameError::InvalidNotation).map_err(to_py)?;
    if t.is_empty() {
        return Err(to_py(GameError::InvalidState(
            "trick_winner needs at least one card".into(),
        )));
    }
    Ok(game.strength().trick_winner(&t, trump))
}

/// `mosca_winner` (contract §6): ascending indexes of the hands that take the pot.
#[pyfunction]
fn mosca_mosca_winner(
    hands: Vec<Vec<i64>>,
    trump: i64,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<Vec<usize>> {
    let game = options_game(options_json).map_err(to_py)?;
    let trump = trump_of(trump).map_err(to_py)?;
    set_of(&hands.concat(), "hands").map_err(to_py)?;
    let sets = hands
        .iter()
        .map(|h| set_of(h, "hands"))
        .collect::<Result<Vec<_>, _>>()
        .map_err(to_py)?;
    let eldest =
        game.options().mosca_tie == tapete_core::games::mosca::options::MoscaTie::EldestWins;
    Ok(rules::mosca_winner(game.strength(), &sets, trump, eldest))
}

/// Random playouts in Rust with the GIL released; arrays per game.
#[pyfunction]
#[pyo3(signature = (options_json, games, seed, threads = None))]
fn simulate_mosca<'py>(
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
    m.add_class::<PyMoscaGame>()?;
    m.add_class::<PyMoscaState>()?;
    m.add_function(wrap_pyfunction!(mosca_legal_cards, m)?)?;
    m.add_function(wrap_pyfunction!(mosca_trick_winner, m)?)?;
    m.add_function(wrap_pyfunction!(mosca_mosca_winner, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_mosca, m)?)?;
    Ok(())
}
