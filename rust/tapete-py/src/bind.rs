//! The two Python classes of every game, generated from the `Game` / `State` traits: no game has
//! a method list of its own. `py_game!` is invoked once per registered game (lib.rs); the bodies
//! live in generic functions here, so the macro only names types.

use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use tapete_core::bots::{self, BotSpec};
use tapete_core::game::{Action, Game, State};
use tapete_core::json;
use tapete_core::{GameError, SplitMix64};

use crate::args::{action_id, player_arg, seed_arg, text_arg};
use crate::error::Result;

pub fn game_from_options<G: Game>(options_json: &Bound<'_, PyAny>) -> Result<G> {
    Ok(G::from_options_json(text_arg(
        options_json,
        "options JSON",
        GameError::InvalidOption,
    )?)?)
}

pub fn new_state<G: Game>(
    game: &G,
    seed: Option<&Bound<'_, PyAny>>,
    deck_json: Option<&Bound<'_, PyAny>>,
) -> Result<G::State> {
    let seed = match seed {
        Some(s) if !s.is_none() => seed_arg(s)?,
        _ => 0,
    };
    Ok(match deck_json {
        Some(d) if !d.is_none() => {
            let text = text_arg(d, "deck JSON", GameError::InvalidState)?;
            game.new_state_with_deck(seed, &json::parse(text, "deck", GameError::InvalidState)?)?
        }
        _ => game.new_state(seed),
    })
}

pub fn setup<G: Game>(game: &G, spec_json: &Bound<'_, PyAny>) -> Result<G::State> {
    Ok(game.setup_json(text_arg(spec_json, "setup spec", GameError::InvalidState)?)?)
}

pub fn state_from_json<G: Game>(game: &G, text: &Bound<'_, PyAny>) -> Result<G::State> {
    Ok(game.state_from_json(text_arg(text, "state JSON", GameError::InvalidState)?)?)
}

/// A rule primitive of the game (`tapete.<game>.<name>`): JSON arguments in, JSON result out.
pub fn primitive<G: Game>(
    game: &G,
    name: &Bound<'_, PyAny>,
    args_json: &Bound<'_, PyAny>,
) -> Result<String> {
    let name = text_arg(name, "primitive name", GameError::InvalidOption)?;
    let args = json::parse(
        text_arg(args_json, "primitive arguments", GameError::InvalidState)?,
        "primitive arguments",
        GameError::InvalidState,
    )?;
    Ok(game.primitive(name, &args)?.to_string())
}

pub fn legal_actions<'py, S: State>(py: Python<'py>, s: &S) -> Result<Bound<'py, PyList>> {
    let mut out = Vec::with_capacity(32);
    if !s.is_truncated() {
        s.legal_actions_into(&mut out);
    }
    Ok(PyList::new(py, out)?)
}

pub fn legal_mask<'py, S: State>(py: Python<'py>, s: &S) -> Bound<'py, PyArray1<bool>> {
    let mut mask = vec![false; <S::Game as Game>::NUM_ACTIONS as usize];
    if !s.is_truncated() {
        s.legal_mask(&mut mask);
    }
    PyArray1::from_vec(py, mask)
}

/// An action as read from Python before the state is borrowed: reading it may run Python code
/// (a numpy integer's `__index__`), and no borrow of a state is ever held across Python code.
pub enum ActionArg<'a> {
    Id(Action),
    Text(&'a str),
}

pub fn action_arg<'a, S: State>(action: &'a Bound<'_, PyAny>) -> Result<ActionArg<'a>> {
    if action.is_instance_of::<PyString>() {
        Ok(ActionArg::Text(notation(action, "action text")?))
    } else {
        Ok(ActionArg::Id(action_id(
            action,
            <S::Game as Game>::NUM_ACTIONS,
        )?))
    }
}

/// An action id or its notation; the state is unchanged on error.
pub fn apply<S: State>(s: &mut S, action: ActionArg<'_>) -> Result<()> {
    match action {
        ActionArg::Text(text) => Ok(s.apply_str(text).map_err(|e| json::bound_quotes(e, text))?),
        ActionArg::Id(a) => Ok(s.apply(a)?),
    }
}

pub fn action_id_of<S: State>(a: &Bound<'_, PyAny>) -> Result<Action> {
    Ok(action_id(a, <S::Game as Game>::NUM_ACTIONS)?)
}

/// Action or move text: a `str` of at most `json::MAX_NOTATION_CHARS` characters.
pub fn notation<'a>(v: &'a Bound<'_, PyAny>, what: &str) -> Result<&'a str> {
    Ok(json::notation_text(
        text_arg(v, what, GameError::InvalidNotation)?,
        what,
    )?)
}

pub fn string_to_action<S: State>(s: &S, text: &str) -> Result<Action> {
    Ok(s.string_to_action(text)
        .map_err(|e| json::bound_quotes(e, text))?)
}

pub fn play<S: State>(s: &mut S, text: &str) -> Result<()> {
    s.check_not_truncated()?;
    Ok(s.play(text).map_err(|e| json::bound_quotes(e, text))?)
}

/// `player` as a seat of an `n`-seat game, read before the state is borrowed.
pub fn seat_of(n: usize, player: &Bound<'_, PyAny>) -> Result<usize> {
    Ok(tapete_core::game::seat(player_arg(player, n)?, n)?)
}

/// `json.loads(text)`: the caller has already let go of the state (no borrow across Python code).
pub fn loads<'py>(py: Python<'py>, text: String) -> Result<Bound<'py, PyAny>> {
    Ok(py.import("json")?.call_method1("loads", (text,))?)
}

/// The canonical JSON without `history`: the position and its future (options, cards, RNG),
/// whatever path led to it. Equal keys, equal positions.
pub fn key<S: State>(s: &S) -> String {
    let text = s.to_json();
    match text.find("\"history\":[") {
        Some(at) => {
            let end = text[at..].find(']').map_or(text.len(), |e| at + e + 1);
            let end = if text[end..].starts_with(',') {
                end + 1
            } else {
                end
            };
            let start = if end == text.len() - 1 && text[..at].ends_with(',') {
                at - 1
            } else {
                at
            };
            format!("{}{}", &text[..start], &text[end..])
        }
        None => text,
    }
}

pub fn repr<S: State>(class: &str, s: &S) -> String {
    format!(
        "<{class} deal={} to_move={} scores={:?}{}>",
        s.deals(),
        s.player_to_act().map_or(-1, |p| p as i64),
        s.scores(),
        if s.is_truncated() {
            " truncated"
        } else if s.is_terminal() {
            " terminal"
        } else {
            ""
        }
    )
}

/// The seat a seat object answers for, refused with `IllegalActionError` unless it is to act:
/// another seat's legal actions would show the mover's hand.
pub fn check_to_act<S: State>(s: &S, seat: usize) -> Result<()> {
    match s.player_to_act() {
        Some(p) if p == seat => Ok(()),
        Some(p) => Err(GameError::IllegalAction(format!(
            "seat {seat} is not to act (seat {p} is): a seat object acts only for its own seat"
        ))
        .into()),
        None => Err(GameError::IllegalAction(
            "no seat is to act: the match is over, a bot has no move".into(),
        )
        .into()),
    }
}

/// The legal actions as seat `seat` may know them: the state's own when it is to act, else none.
pub fn seat_legal_actions<'py, S: State>(
    py: Python<'py>,
    s: &S,
    seat: usize,
) -> Result<Bound<'py, PyList>> {
    if s.player_to_act() == Some(seat) {
        legal_actions(py, s)
    } else {
        Ok(PyList::empty(py))
    }
}

pub fn seat_legal_mask<'py, S: State>(
    py: Python<'py>,
    s: &S,
    seat: usize,
) -> Bound<'py, PyArray1<bool>> {
    let mut mask = vec![false; <S::Game as Game>::NUM_ACTIONS as usize];
    if s.player_to_act() == Some(seat) {
        s.legal_mask(&mut mask);
    }
    PyArray1::from_vec(py, mask)
}

/// The Python front of a native game (`tapete.<Game>(**options)`), from the registry.
pub fn python_game<'py, G: Game>(py: Python<'py>, game: &G) -> Result<Bound<'py, PyAny>> {
    let info = py
        .import("tapete.registry")?
        .getattr("GAMES")?
        .get_item(G::NAME)?;
    let options = loads(py, game.options_json().to_string())?;
    let kwargs = options
        .cast_into::<pyo3::types::PyDict>()
        .map_err(PyErr::from)?;
    Ok(info.getattr("native")?.call((), Some(&kwargs))?)
}

/// One root action's statistics of a search: `(action, visits, avail, reward sum)`.
pub type RootRow = (Action, u64, u64, f64);

/// What `bot_act` returns: the action, the bot stream's next state, the root statistics (ISMCTS;
/// empty for the others) and the iterations run.
pub type BotAnswer = (Action, u64, Vec<RootRow>, u64);

/// The bot `spec` (docs/bots.md) acts for the seat to act in `state` (a copy: the caller's
/// state is untouched and not borrowed meanwhile), drawing from the stream whose state is
/// `rng_state`, with the GIL released.
pub fn bot_act<S: State>(
    py: Python<'_>,
    state: S,
    spec: &Bound<'_, PyAny>,
    rng_state: &Bound<'_, PyAny>,
) -> Result<BotAnswer> {
    let spec = BotSpec::parse(text_arg(spec, "bot spec", GameError::InvalidOption)?)?;
    let mut rng = SplitMix64::new(seed_arg(rng_state)?);
    let (action, found) = py.detach(|| bots::act_with_stats(&spec, &state, &mut rng))?;
    let (rows, iterations) = match found {
        Some(r) => (
            r.stats
                .iter()
                .map(|s| (s.action, s.visits, s.avail, s.reward))
                .collect(),
            r.iterations,
        ),
        None => (Vec::new(), 0),
    };
    Ok((action, rng.state, rows, iterations))
}

/// `(cls, args)` for `__reduce__`.
pub fn reduce<'py>(cls: Bound<'py, PyAny>, args: Vec<String>) -> Result<Bound<'py, PyTuple>> {
    let py = cls.py();
    Ok(PyTuple::new(
        py,
        [cls.into_any(), PyTuple::new(py, args)?.into_any()],
    )?)
}

/// The pair of Python classes of one game: `<Name>Game` and `<Name>State`.
macro_rules! py_game {
    ($module:ident, $Game:ident, $State:ident) => {
        pub mod $module {
            use numpy::PyArray1;
            use pyo3::prelude::*;
            use pyo3::types::{PyList, PyTuple};

            use tapete_core::game::{Action, Game as _, State as _};
            use tapete_core::games::$module as core;

            use crate::bind;
            use crate::error::Result;

            /// A game: its resolved options and the factory of states.
            #[pyclass(module = "tapete._core", frozen)]
            pub struct $Game {
                pub game: core::$Game,
            }

            #[pymethods]
            impl $Game {
                #[new]
                fn new(options_json: &Bound<'_, PyAny>) -> Result<Self> {
                    Ok($Game {
                        game: bind::game_from_options(options_json)?,
                    })
                }
                #[getter]
                fn name(&self) -> &'static str {
                    <core::$Game as tapete_core::Game>::NAME
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
                    self.game.num_distinct_actions()
                }
                #[getter]
                fn observation_shape(&self) -> (usize,) {
                    (self.game.observation_size(),)
                }
                #[pyo3(signature = (seed = None, deck_json = None))]
                fn new_state(
                    &self,
                    seed: Option<&Bound<'_, PyAny>>,
                    deck_json: Option<&Bound<'_, PyAny>>,
                ) -> Result<$State> {
                    Ok($State {
                        s: bind::new_state(&self.game, seed, deck_json)?,
                    })
                }
                fn setup(&self, spec_json: &Bound<'_, PyAny>) -> Result<$State> {
                    Ok($State {
                        s: bind::setup(&self.game, spec_json)?,
                    })
                }
                fn state_from_json(&self, text: &Bound<'_, PyAny>) -> Result<$State> {
                    Ok($State {
                        s: bind::state_from_json(&self.game, text)?,
                    })
                }
                fn primitive(
                    &self,
                    name: &Bound<'_, PyAny>,
                    args_json: &Bound<'_, PyAny>,
                ) -> Result<String> {
                    bind::primitive(&self.game, name, args_json)
                }
                fn __repr__(&self) -> String {
                    format!(concat!(stringify!($Game), "({})"), self.game.options_json())
                }
                fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyTuple>> {
                    bind::reduce(
                        slf.get_type().into_any(),
                        vec![slf.get().game.options_json().to_string()],
                    )
                }
            }

            /// A position of this game.
            #[pyclass(module = "tapete._core")]
            pub struct $State {
                pub s: core::$State,
            }

            #[pymethods]
            impl $State {
                /// A state from its game's options JSON and its canonical JSON (what pickle calls).
                #[new]
                fn new(
                    options_json: &Bound<'_, PyAny>,
                    state_json: &Bound<'_, PyAny>,
                ) -> Result<Self> {
                    let game: core::$Game = bind::game_from_options(options_json)?;
                    Ok($State {
                        s: bind::state_from_json(&game, state_json)?,
                    })
                }
                /// Seat to act; -1 (`tapete.TERMINAL`) once the game is over. OpenSpiel reads -1 as
                /// its chance player: tapete has none (the state's RNG deals), so -1 means only the end.
                fn current_player(&self) -> i64 {
                    self.s.player_to_act().map_or(-1, |p| p as i64)
                }
                fn legal_actions<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyList>> {
                    bind::legal_actions(py, &self.s)
                }
                fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
                    bind::legal_mask(py, &self.s)
                }
                // Methods with Python arguments read them first, then borrow the state: a borrow
                // never spans Python code, and a conflict left is a typed error (error.rs).

                /// Applies an action id or its notation; the state is unchanged on error.
                fn apply(slf: &Bound<'_, Self>, action: &Bound<'_, PyAny>) -> Result<()> {
                    let action = bind::action_arg::<core::$State>(action)?;
                    bind::apply(&mut slf.try_borrow_mut()?.s, action)
                }
                fn action_to_string(
                    slf: &Bound<'_, Self>,
                    action: &Bound<'_, PyAny>,
                ) -> Result<String> {
                    let a = bind::action_id_of::<core::$State>(action)?;
                    Ok(slf.try_borrow()?.s.action_to_string(a)?)
                }
                fn string_to_action(
                    slf: &Bound<'_, Self>,
                    text: &Bound<'_, PyAny>,
                ) -> Result<Action> {
                    let text = bind::notation(text, "action text")?;
                    bind::string_to_action(&slf.try_borrow()?.s, text)
                }
                /// A whole move in one string (the contract's notation); atomic.
                fn play(slf: &Bound<'_, Self>, r#move: &Bound<'_, PyAny>) -> Result<()> {
                    let text = bind::notation(r#move, "move")?;
                    bind::play(&mut slf.try_borrow_mut()?.s, text)
                }
                /// Over: ended by the rules, or cut by the decision cap (`is_truncated`).
                fn is_terminal(&self) -> bool {
                    self.s.is_over()
                }
                /// Cut unfinished at `tapete.MAX_DECISIONS` decisions (returns all 0).
                fn is_truncated(&self) -> bool {
                    self.s.is_truncated()
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
                /// Deals (rounds, hands) started so far, the current one included.
                fn deals(&self) -> u32 {
                    self.s.deals()
                }
                fn clone(&self) -> $State {
                    $State { s: self.s.clone() }
                }
                fn __copy__(&self) -> $State {
                    self.clone()
                }
                fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> $State {
                    self.clone()
                }
                fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                    match other.cast::<$State>() {
                        Ok(o) => o
                            .try_borrow()
                            .is_ok_and(|o| o.s.to_json() == self.s.to_json()),
                        Err(_) => false,
                    }
                }
                /// What `player` may see (the contract's view), as a dict.
                fn view<'py>(
                    slf: &Bound<'py, Self>,
                    player: &Bound<'py, PyAny>,
                ) -> Result<Bound<'py, PyAny>> {
                    let n = slf.try_borrow()?.s.num_players();
                    let p = bind::seat_of(n, player)?;
                    let text = slf.try_borrow()?.s.view(p)?;
                    bind::loads(slf.py(), text)
                }
                /// What every seat may see (the contract's public view), as a dict.
                fn public_view<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyAny>> {
                    let text = slf.try_borrow()?.s.public_view_json();
                    bind::loads(slf.py(), text)
                }
                /// What seat `player` may know now: a seat object holding a copy of this state
                /// that Python cannot reach (docs/bots.md §2).
                fn for_seat(slf: &Bound<'_, Self>, player: &Bound<'_, PyAny>) -> Result<SeatState> {
                    let this = slf.try_borrow()?;
                    let seat = bind::seat_of(this.s.num_players(), player)?;
                    Ok(SeatState {
                        s: this.s.clone(),
                        seat,
                    })
                }
                /// A state in `player`'s information set, drawn with `seed` (docs/design.md §10).
                fn resample(
                    slf: &Bound<'_, Self>,
                    player: &Bound<'_, PyAny>,
                    seed: &Bound<'_, PyAny>,
                ) -> Result<$State> {
                    let seed = crate::args::seed_arg(seed)?;
                    let this = slf.try_borrow()?;
                    let p = bind::seat_of(this.s.num_players(), player)?;
                    Ok($State {
                        s: this.s.resample(p, seed)?,
                    })
                }
                /// The bot `spec` (text, docs/bots.md) acts for the seat to act, drawing from a
                /// stream at state `rng_state`: `(action, next stream state, root statistics,
                /// iterations)`. Runs on a copy of the state, with the GIL released.
                fn bot_act(
                    slf: &Bound<'_, Self>,
                    spec: &Bound<'_, PyAny>,
                    rng_state: &Bound<'_, PyAny>,
                ) -> Result<bind::BotAnswer> {
                    let state = slf.try_borrow()?.s.clone();
                    bind::bot_act(slf.py(), state, spec, rng_state)
                }
                fn observation<'py>(
                    slf: &Bound<'py, Self>,
                    player: &Bound<'py, PyAny>,
                ) -> Result<Bound<'py, PyArray1<f32>>> {
                    let n = slf.try_borrow()?.s.num_players();
                    let p = bind::seat_of(n, player)?;
                    let obs = slf.try_borrow()?.s.observation(p)?;
                    Ok(PyArray1::from_vec(slf.py(), obs))
                }
                fn to_json(&self) -> String {
                    self.s.to_json()
                }
                /// A frozen, hashable identity of the position: its canonical JSON without the
                /// history (the options, the cards and the RNG state decide everything to come).
                fn key(&self) -> String {
                    bind::key(&self.s)
                }
                fn __str__(&self) -> String {
                    self.s.to_string()
                }
                fn __repr__(&self) -> String {
                    bind::repr(stringify!($State), &self.s)
                }
                fn __reduce__<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyTuple>> {
                    let args = {
                        let this = slf.try_borrow()?;
                        vec![this.s.game().options_json().to_string(), this.s.to_json()]
                    };
                    bind::reduce(slf.get_type().into_any(), args)
                }
            }

            /// What one seat may know of a position (docs/bots.md §2): a copy of the state
            /// kept in Rust, read only through the seat-safe methods below.
            #[pyclass(module = "tapete._core", name = "SeatState", frozen)]
            pub struct SeatState {
                s: core::$State,
                seat: usize,
            }

            #[pymethods]
            impl SeatState {
                #[getter]
                fn seat(&self) -> usize {
                    self.seat
                }
                /// The game (`tapete.<Game>` with this state's options).
                #[getter]
                fn game<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
                    bind::python_game(py, &self.s.game())
                }
                #[getter]
                fn num_players(&self) -> usize {
                    self.s.num_players()
                }
                #[getter]
                fn num_distinct_actions(&self) -> usize {
                    self.s.game().num_distinct_actions()
                }
                #[getter]
                fn observation_shape(&self) -> (usize,) {
                    (self.s.game().observation_size(),)
                }
                fn view<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
                    bind::loads(py, self.s.view_json(self.seat))
                }
                fn public_view<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
                    bind::loads(py, self.s.public_view_json())
                }
                fn observation<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyArray1<f32>>> {
                    Ok(PyArray1::from_vec(py, self.s.observation(self.seat)?))
                }
                /// The seat's record of the history: `view()["history"]`, item for item.
                fn history<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
                    Ok(self.view(py)?.get_item("history")?)
                }
                fn current_player(&self) -> i64 {
                    self.s.player_to_act().map_or(-1, |p| p as i64)
                }
                fn is_terminal(&self) -> bool {
                    self.s.is_over()
                }
                fn is_truncated(&self) -> bool {
                    self.s.is_truncated()
                }
                fn returns(&self) -> Vec<f64> {
                    self.s.returns()
                }
                fn scores(&self) -> Vec<i64> {
                    self.s.scores()
                }
                fn deals(&self) -> u32 {
                    self.s.deals()
                }
                /// The legal actions when this seat is to act, else `[]`.
                fn legal_actions<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyList>> {
                    bind::seat_legal_actions(py, &self.s, self.seat)
                }
                fn legal_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
                    bind::seat_legal_mask(py, &self.s, self.seat)
                }
                fn action_to_string(&self, action: &Bound<'_, PyAny>) -> Result<String> {
                    let a = bind::action_id_of::<core::$State>(action)?;
                    Ok(self.s.seat_action_to_string(self.seat, a)?)
                }
                fn string_to_action(&self, text: &Bound<'_, PyAny>) -> Result<Action> {
                    let text = bind::notation(text, "action text")?;
                    Ok(self
                        .s
                        .seat_string_to_action(self.seat, text)
                        .map_err(|e| tapete_core::json::bound_quotes(e, text))?)
                }
                /// A state in this seat's information set, drawn with `seed`
                /// (docs/design.md §10): it depends on the seat's view and the seed alone.
                fn resample(&self, seed: &Bound<'_, PyAny>) -> Result<$State> {
                    let seed = crate::args::seed_arg(seed)?;
                    Ok($State {
                        s: self.s.resample(self.seat, seed)?,
                    })
                }
                /// A native bot acts for this seat, which must be the one to act (as
                /// `State.bot_act`; the bots read only the seat's view, docs/bots.md §5).
                fn bot_act(
                    &self,
                    py: Python<'_>,
                    spec: &Bound<'_, PyAny>,
                    rng_state: &Bound<'_, PyAny>,
                ) -> Result<bind::BotAnswer> {
                    bind::check_to_act(&self.s, self.seat)?;
                    bind::bot_act(py, self.s.clone(), spec, rng_state)
                }
                fn __repr__(&self) -> String {
                    format!(
                        "<SeatState {} seat={} to_move={}>",
                        <core::$Game as tapete_core::Game>::NAME,
                        self.seat,
                        self.current_player()
                    )
                }
            }

            pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
                m.add_class::<$Game>()?;
                m.add_class::<$State>()?;
                Ok(())
            }
        }
    };
}

pub(crate) use py_game;
