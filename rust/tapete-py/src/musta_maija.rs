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
use crate::errors::to_py;

fn options_game(v: &Bound<'_, PyAny>) -> Result<MustaMaijaGame, GameError> {
    MustaMaijaGame::from_json_options(text_arg(v, "options JSON", GameError::InvalidOption)?)
}

#[pyclass(module = "tapete._core", name = "MustaMaijaGame", frozen)]
pub struct PyMustaMaijaGame {
    game: MustaMaijaGame,
}

#[pymethods]
impl PyMustaMaijaGame {
    #[new]
    fn new(options_json: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyMustaMaijaGame {
            game: options_game(options_json).map_err(to_py)?,
        })
    }

    #[getter]
    fn name(&self) -> &'static str {
        "musta_maija"
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
    ) -> PyResult<PyMustaMaijaState> {
        let seed = match seed {
            Some(s) => seed_arg(s)?,
            None => 0,
        };
        let s = match deck {
            Some(d) if !d.is_none() => {
                let st = GameError::InvalidState;
                let cards = cards52_arg(d, "deck", st, st).map_err(to_py)?;
                self.game
                    .new_state_with_deck(seed, Some(&cards))
                    .map_err(to_py)?
            }
            _ => self.game.new_state(seed),
        };
        Ok(PyMustaMaijaState { s })
    }

    /// A position from a partial description (contract §7), given as JSON.
    fn setup(&self, spec_json: &Bound<'_, PyAny>) -> PyResult<PyMustaMaijaState> {
        let text = text_arg(spec_json, "setup", GameError::InvalidState).map_err(to_py)?;
        Ok(PyMustaMaijaState {
            s: self.game.setup_json(text).map_err(to_py)?,
        })
    }

    fn state_from_json(&self, text: &Bound<'_, PyAny>) -> PyResult<PyMustaMaijaState> {
        let text = text_arg(text, "state JSON", GameError::InvalidState).map_err(to_py)?;
        Ok(PyMustaMaijaState {
            s: self.game.state_from_json(text).map_err(to_py)?,
        })
    }

    fn __repr__(&self) -> String {
        format!("MustaMaijaGame({})", self.game.options_json())
    }
}

#[pyclass(module = "tapete._core", name = "MustaMaijaState")]
pub struct PyMustaMaijaState {
    s: MustaMaijaState,
}

#[pymethods]
impl PyMustaMaijaState {
    fn current_player(&self) -> i64 {
        self.s.current_player().map_or(-1, |p| p as i64)
    }

    fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let mut buf = [0 as Action; 64];
        let mut n = 0;
        self.s.for_each_legal(|a| {
            buf[n] = a;
            n += 1;
        });
        PyList::new(py, &buf[..n])
    }

    fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let mut mask = vec![false; NUM_ACTIONS as usize];
        self.s.for_each_legal(|a| mask[a as usize] = true);
        PyArray1::from_vec(py, mask)
    }

    /// Applies an action id or its notation; the state is unchanged on error.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let r = if action.is_instance_of::<PyString>() {
            text_arg(action, "action text", GameError::InvalidNotation)
                .and_then(|t| self.s.apply_str(t))
        } else {
            action_id(action, NUM_ACTIONS).and_then(|a| self.s.apply(a))
        };
        r.map_err(to_py)
    }

    /// A full move: `attack 5h 9h`, `defend 6h -`, `take all`; atomic.
    fn play(&mut self, r#move: &Bound<'_, PyAny>) -> PyResult<()> {
        let text = text_arg(r#move, "move", GameError::InvalidNotation).map_err(to_py)?;
        self.s.play_move(text).map_err(to_py)
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

    /// Hands lost per seat in this match.
    fn scores(&self) -> Vec<i64> {
        self.s.scores()
    }

    fn clone(&self) -> PyMustaMaijaState {
        PyMustaMaijaState { s: self.s.clone() }
    }

    fn __copy__(&self) -> PyMustaMaijaState {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyMustaMaijaState {
        self.clone()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PyMustaMaijaState>() {
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
        if p < 0 || p as usize >= n {
            return Err(to_py(GameError::InvalidPlayer(format!(
                "{p} is not a seat of this game: expected an int in 0..{}",
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
            "<MustaMaijaState hand={} phase={} to_move={} losses={:?}>",
            self.s.hand_number(),
            self.s.phase().as_str(),
            self.current_player(),
            self.s.losses()
        )
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
