//! Python bindings of the Musta Maija engine (wrapped by `tapete.MustaMaija`).

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt, PyList, PyString};

use tapete_core::cards::{Card, CardSet};
use tapete_core::game::Action;
use tapete_core::games::musta_maija::{
    self as core, rules, MustaMaijaGame, MustaMaijaState, NUM_ACTIONS,
};
use tapete_core::rng::SplitMix64;
use tapete_core::GameError;

use crate::args::{action_id, card52_arg, cards52_arg, player_arg, repr, seed_arg, text_arg};
use crate::bind::{py_game_classes, seat_index, Exposed};
use crate::errors::to_py;

fn options_game(v: &Bound<'_, PyAny>) -> Result<MustaMaijaGame, GameError> {
    MustaMaijaGame::from_json_options(text_arg(v, "options JSON", GameError::InvalidOption)?)
}

impl Exposed for MustaMaijaState {
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
    game PyMustaMaijaGame(MustaMaijaGame, "musta_maija", "MustaMaijaGame") {
        #[pyo3(signature = (seed = None, deck = None))]
        fn new_state(
            &self,
            seed: Option<&Bound<'_, PyAny>>,
            deck: Option<&Bound<'_, PyAny>>,
        ) -> PyResult<PyMustaMaijaState> {
            let seed = match seed {
                Some(s) => seed_arg(s)?,
                None => 0,
            };
            let s = match deck {
                Some(d) if !d.is_none() => {
                    let st = GameError::InvalidState;
                    let cards = cards52_arg(d, "deck", st, st).map_err(to_py)?;
                    self.game.new_state_with_deck(seed, Some(&cards)).map_err(to_py)?
                }
                _ => self.game.new_state(seed),
            };
            Ok(PyMustaMaijaState { s })
        }
    }
    state PyMustaMaijaState(MustaMaijaState, "MustaMaijaState") {
        /// A full move: `attack 5h 9h`, `defend 6h -`, `take all`; atomic.
        fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
            let text = text_arg(r#move, "move", GameError::InvalidNotation).map_err(to_py)?;
            self.s.play_move(text).map_err(to_py)
        }

        fn __repr__(&self) -> String {
            format!(
                "<MustaMaijaState hand={} phase={} to_move={} losses={:?}>",
                self.s.hand_number(),
                self.s.phase().as_str(),
                self.current_player(),
                self.s.losses()
            )
        }
    }
}

/// A set of distinct cards for the primitives (a repeat is `InvalidStateError`).
fn distinct(v: &Bound<'_, PyAny>, what: &str) -> Result<Vec<Card>, GameError> {
    let inv = GameError::InvalidNotation;
    let cards = cards52_arg(v, what, inv, GameError::InvalidState)?;
    let mut seen = CardSet::EMPTY;
    for c in &cards {
        if seen.contains(*c) {
            return Err(GameError::InvalidState(format!(
                "{what}: card {c} appears twice"
            )));
        }
        seen.insert(*c);
    }
    Ok(cards)
}

/// `can_beat(attack_card, defence_card, trump)` (contract §5).
#[pyfunction]
fn musta_maija_can_beat(
    attack: &Bound<'_, PyAny>,
    defence: &Bound<'_, PyAny>,
    trump: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<bool> {
    options_game(options_json).map_err(to_py)?;
    let inv = GameError::InvalidNotation;
    let t = card52_arg(attack, "attack_card", inv).map_err(to_py)?;
    let c = card52_arg(defence, "defence_card", inv).map_err(to_py)?;
    let bad = || {
        to_py(GameError::InvalidNotation(format!(
            "trump {} is not a suit: expected one of c d h s, a suit index 0..3, or None",
            repr(trump)
        )))
    };
    let tr = if trump.is_none() {
        None
    } else if let Ok(s) = trump.cast::<PyString>() {
        let s = s.to_str().map_err(|_| bad())?.to_ascii_lowercase();
        Some(
            ["c", "d", "h", "s"]
                .iter()
                .position(|x| *x == s)
                .ok_or_else(bad)? as u8,
        )
    } else if trump.is_instance_of::<PyInt>() && !trump.is_instance_of::<PyBool>() {
        match trump.extract::<i64>() {
            Ok(i @ 0..=3) => Some(i as u8),
            _ => return Err(bad()),
        }
    } else {
        return Err(bad());
    };
    if t == c {
        return Err(to_py(GameError::InvalidState(format!(
            "the attack and defence cards are the same card {t}"
        ))));
    }
    Ok(rules::can_beat(t, c, tr))
}

/// Every legal attack set (contract §5).
#[pyfunction]
fn musta_maija_legal_attacks(
    hand: &Bound<'_, PyAny>,
    defender_hand_size: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<Vec<Vec<String>>> {
    let game = options_game(options_json).map_err(to_py)?;
    let cards = distinct(hand, "hand").map_err(to_py)?;
    let d = if defender_hand_size.is_instance_of::<PyInt>()
        && !defender_hand_size.is_instance_of::<PyBool>()
    {
        defender_hand_size.extract::<u32>().ok()
    } else {
        None
    };
    let d = d.ok_or_else(|| {
        to_py(GameError::InvalidState(format!(
            "defender_hand_size must be an int >= 0, got {}",
            repr(defender_hand_size)
        )))
    })?;
    let set: CardSet = cards.into_iter().collect();
    Ok(rules::legal_attacks(game.options(), set, d)
        .into_iter()
        .map(|a| a.into_iter().map(|c| c.to_string()).collect())
        .collect())
}

/// Trump determination on a stock listed top first (contract §5).
#[pyfunction]
fn musta_maija_trump_from_stock(
    stock: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
    options_json: &Bound<'_, PyAny>,
) -> PyResult<(String, Vec<String>)> {
    let game = options_game(options_json).map_err(to_py)?;
    let cards = distinct(stock, "stock").map_err(to_py)?;
    let seed = seed_arg(seed)?;
    if cards.is_empty() {
        return Err(to_py(GameError::InvalidState(
            "stock must hold at least one card".into(),
        )));
    }
    let mut ids: Vec<u8> = cards.iter().map(|c| c.0).collect();
    let mut rng = SplitMix64::new(seed);
    let (t, _) = rules::determine_trump(game.options(), &mut ids, &mut rng);
    Ok((
        t.to_string(),
        ids.into_iter().map(|c| Card(c).to_string()).collect(),
    ))
}

/// Random playouts in Rust with the GIL released; arrays per game.
#[pyfunction]
#[pyo3(signature = (options_json, games, seed, threads = None))]
fn simulate_musta_maija<'py>(
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
    m.add_class::<PyMustaMaijaGame>()?;
    m.add_class::<PyMustaMaijaState>()?;
    m.add_function(wrap_pyfunction!(musta_maija_can_beat, m)?)?;
    m.add_function(wrap_pyfunction!(musta_maija_legal_attacks, m)?)?;
    m.add_function(wrap_pyfunction!(musta_maija_trump_from_stock, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_musta_maija, m)?)?;
    Ok(())
}
