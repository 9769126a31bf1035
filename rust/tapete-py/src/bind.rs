//! The Python classes every game shares (`<Game>Game`, `<Game>State`), written once.
//!
//! `py_game_classes!` generates both pyclasses and the methods whose behaviour is the same for
//! every game; each game module passes only what differs (`new_state` with its own deck format,
//! `play`, `__repr__`, extra getters). The few calls whose shape differs between the core states
//! go through `Exposed`.

use tapete_core::game::Action;
use tapete_core::GameError;

/// A core state's answers where the engines' signatures differ.
pub trait Exposed {
    const NUM_ACTIONS: Action;
    fn action_text(&self, a: Action) -> Result<String, GameError>;
    fn text_action(&self, text: &str) -> Result<Action, GameError>;
    /// The observation of a seat read as an int (any value: out of range is `InvalidPlayer`).
    fn observation_of(&self, player: i64) -> Result<Vec<f32>, GameError>;
}

/// `player` as a seat index of an `n`-seat game, for engines that take `usize` seats.
pub fn seat_index(player: i64, n: usize) -> Result<usize, GameError> {
    if (0..n as i64).contains(&player) {
        Ok(player as usize)
    } else {
        Err(GameError::InvalidPlayer(format!(
            "seat {player} is not a seat of this game: expected an int in 0..{}",
            n - 1
        )))
    }
}

macro_rules! py_game_classes {
    (
        game $PyGame:ident($Game:ty, $name:literal, $game_class:literal) { $($game_extra:tt)* }
        state $PyState:ident($State:ty, $state_class:literal) { $($state_extra:tt)* }
    ) => {
        #[pyclass(module = "tapete._core", name = $game_class, frozen)]
        pub struct $PyGame {
            game: $Game,
        }

        #[pymethods]
        impl $PyGame {
            #[new]
            fn new(options_json: &Bound<'_, PyAny>) -> PyResult<Self> {
                Ok($PyGame { game: options_game(options_json).map_err(to_py)? })
            }

            #[getter]
            fn name(&self) -> &'static str {
                $name
            }

            /// Resolved options, canonical JSON (sorted keys, compact).
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
                <$State as $crate::bind::Exposed>::NUM_ACTIONS as usize
            }

            #[getter]
            fn observation_shape(&self) -> (usize,) {
                (self.game.observation_size(),)
            }

            /// A position from a partial description (the contract's `setup`), given as JSON.
            fn setup(&self, spec_json: &Bound<'_, PyAny>) -> PyResult<$PyState> {
                let text = text_arg(spec_json, "setup", GameError::InvalidState).map_err(to_py)?;
                Ok($PyState { s: self.game.setup_json(text).map_err(to_py)? })
            }

            fn state_from_json(&self, text: &Bound<'_, PyAny>) -> PyResult<$PyState> {
                let text = text_arg(text, "state JSON", GameError::InvalidState).map_err(to_py)?;
                Ok($PyState { s: self.game.state_from_json(text).map_err(to_py)? })
            }

            fn __repr__(&self) -> String {
                format!(concat!($game_class, "({})"), self.game.options_json())
            }

            $($game_extra)*
        }

        #[pyclass(module = "tapete._core", name = $state_class)]
        pub struct $PyState {
            s: $State,
        }

        #[pymethods]
        impl $PyState {
            /// Seat to act, -1 when terminal.
            fn current_player(&self) -> i64 {
                self.s.current_player().map_or(-1, |p| p as i64)
            }

            fn legal_actions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
                let mut out = Vec::new();
                tapete_core::game::State::legal_actions(&self.s, &mut out);
                PyList::new(py, out)
            }

            fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
                let n = <$State as $crate::bind::Exposed>::NUM_ACTIONS as usize;
                let mut mask = vec![false; n];
                self.s.for_each_legal(|a| mask[a as usize] = true);
                PyArray1::from_vec(py, mask)
            }

            /// Applies an action id or its notation; the state is unchanged on error.
            fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
                let r = if action.is_instance_of::<PyString>() {
                    text_arg(action, "action text", GameError::InvalidNotation)
                        .and_then(|t| self.s.apply_str(t))
                } else {
                    action_id(action, <$State as $crate::bind::Exposed>::NUM_ACTIONS)
                        .and_then(|a| self.s.apply(a))
                };
                r.map_err(to_py)
            }

            fn action_to_string(&self, a: &Bound<'_, PyAny>) -> PyResult<String> {
                let id = action_id(a, <$State as $crate::bind::Exposed>::NUM_ACTIONS).map_err(to_py)?;
                $crate::bind::Exposed::action_text(&self.s, id).map_err(to_py)
            }

            fn string_to_action(&self, s: &Bound<'_, PyAny>) -> PyResult<Action> {
                let text = text_arg(s, "action text", GameError::InvalidNotation).map_err(to_py)?;
                $crate::bind::Exposed::text_action(&self.s, text).map_err(to_py)
            }

            fn is_terminal(&self) -> bool {
                self.s.is_terminal()
            }

            fn returns(&self) -> Vec<f64> {
                self.s.returns()
            }

            /// The game's own running score per seat (see the game's contract).
            fn scores(&self) -> Vec<i64> {
                self.s.scores()
            }

            fn history(&self) -> Vec<Action> {
                self.s.history()
            }

            fn clone(&self) -> $PyState {
                $PyState { s: self.s.clone() }
            }

            fn __copy__(&self) -> $PyState {
                self.clone()
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> $PyState {
                self.clone()
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                match other.cast::<$PyState>() {
                    Ok(o) => o.try_borrow().map(|o| o.s == self.s).unwrap_or(false),
                    Err(_) => false,
                }
            }

            /// What `player` may see (the contract's view).
            fn view<'py>(&self, py: Python<'py>, player: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
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
                let v = $crate::bind::Exposed::observation_of(&self.s, p).map_err(to_py)?;
                Ok(PyArray1::from_vec(py, v))
            }

            fn to_json(&self) -> String {
                self.s.to_json()
            }

            fn __str__(&self) -> String {
                self.s.to_string()
            }

            $($state_extra)*
        }
    };
}

pub(crate) use py_game_classes;
