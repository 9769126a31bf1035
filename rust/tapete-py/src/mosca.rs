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
use crate::bind::{py_game_classes, Exposed};
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

impl Exposed for MoscaState {
    const NUM_ACTIONS: Action = NUM_ACTIONS;
    fn action_text(&self, a: Action) -> Result<String, GameError> {
        self.action_to_string(a)
    }
    fn text_action(&self, text: &str) -> Result<Action, GameError> {
        self.string_to_action(text)
    }
    fn observation_of(&self, player: i64) -> Result<Vec<f32>, GameError> {
        self.observation(player)
    }
}

py_game_classes! {
    game PyMoscaGame(MoscaGame, "mosca", "MoscaGame") {
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
                    self.game.new_state_with_deck(seed, Some(&cards)).map_err(to_py)?
                }
                None => self.game.new_state(seed),
            };
            Ok(PyMoscaState { s })
        }
    }
    state PyMoscaState(MoscaState, "MoscaState") {
        fn __repr__(&self) -> String {
            format!(
                "<MoscaState deal={} dealer={} to_move={} pot={} balances={:?}{}>",
                self.s.deals_played() + (!self.s.is_terminal()) as u32,
                self.s.dealer(),
                self.current_player(),
                self.s.pot(),
                self.s.balances(),
                if self.s.is_terminal() { " terminal" } else { "" }
            )
        }
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
