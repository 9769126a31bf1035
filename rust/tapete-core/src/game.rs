//! The `Game` / `State` pair every engine implements. Everything generic (playouts, simulate,
//! the Python bindings, and the bots and environments to come) is written once over these two
//! traits and never names a game (docs/design.md §8).

use std::fmt;

use serde_json::Value;

use crate::error::{GameError, Result};
use crate::json;
use crate::obs::Entries;
use crate::options::OptionsSpec;
use crate::rng::SplitMix64;

/// The layer's decision cap: a match still running after this many decisions (every seat's) is
/// over, unfinished, with returns all 0 ([`State::is_truncated`]; docs/design.md §8). Options
/// under which nobody can ever score would otherwise never end. It is also the longest history
/// a state's JSON may hold ([`json::MAX_HISTORY`], where the number lives so that reading JSON
/// needs nothing from this module).
pub const MAX_DECISIONS: u64 = json::MAX_HISTORY;

/// An id of the game's fixed, dense action space `0..num_distinct_actions`.
pub type Action = u32;

/// The error for an action id outside an action space of `count` ids: `IllegalAction`.
pub fn out_of_range(action: impl fmt::Display, count: usize) -> GameError {
    GameError::IllegalAction(format!(
        "action id {action} is out of range: expected 0..{}",
        count - 1
    ))
}

/// `player` as a seat of an `n`-seat game; anything else is `InvalidPlayer`. The one seat check.
pub fn seat(player: i64, n: usize) -> Result<usize> {
    if (0..n as i64).contains(&player) {
        Ok(player as usize)
    } else {
        Err(GameError::InvalidPlayer(format!(
            "seat {player} is not a seat of this game: expected an int in 0..{}",
            n.saturating_sub(1)
        )))
    }
}

/// A game: its resolved options and the factory of states.
pub trait Game: Clone + Send + Sync + Sized + 'static {
    type State: State<Game = Self>;

    /// The game's id, as in `tapete.load("<name>(...)")`.
    const NAME: &'static str;
    /// Size of the fixed action space.
    const NUM_ACTIONS: Action;

    /// The game's option table, defaults and presets (its data file, read by both engines).
    fn spec() -> &'static OptionsSpec;
    /// The game from options already resolved by [`OptionsSpec::resolve`]: derives what follows
    /// from them (into `options`, which then becomes the canonical JSON) and refuses clashes.
    fn from_resolved(options: serde_json::Map<String, Value>) -> Result<Self>;
    /// Resolved options, canonical JSON (sorted keys, compact).
    fn options_json(&self) -> &str;
    fn num_players(&self) -> usize;
    /// Length of the flat observation vector.
    fn observation_size(&self) -> usize;
    /// +1 where a seat wants a higher `scores()`, −1 where its score counts what it wants to
    /// avoid (losses, points toward a losing target): how bots read a deal's points
    /// (docs/bots.md §3.5). Each game's contract says what its scores count.
    fn score_sign(&self) -> i64;

    /// A new match dealt with the seeded RNG (docs/design.md §5).
    fn new_state(&self, seed: u64) -> Self::State;
    /// A new match whose first deal comes from `deck`, a JSON list of cards or tiles (text or
    /// ids), top first.
    fn new_state_with_deck(&self, seed: u64, deck: &Value) -> Result<Self::State>;
    /// A position from a partial description (each game's contract, "setup").
    fn setup(&self, spec: &Value) -> Result<Self::State>;
    /// A state from its canonical JSON; anything but a reachable state's JSON is refused.
    fn state_from_json(&self, text: &str) -> Result<Self::State>;

    /// A rule primitive (`tapete.<game>.<name>(...)`, the game's contract lists them) on JSON
    /// arguments, so that users can test their own engines against ours.
    fn primitive(&self, name: &str, args: &Value) -> Result<Value> {
        let _ = args;
        Err(GameError::InvalidOption(format!(
            "{} has no rule primitive {:?}",
            Self::NAME,
            json::excerpt(name)
        )))
    }

    /// User options (a JSON object): defaults, then the preset, then the explicit options.
    fn from_options(options: &Value) -> Result<Self> {
        Self::from_resolved(Self::spec().resolve(options)?)
    }
    fn from_options_json(text: &str) -> Result<Self> {
        Self::from_options(&json::parse(text, "options", GameError::InvalidOption)?)
    }
    fn num_distinct_actions(&self) -> usize {
        Self::NUM_ACTIONS as usize
    }
    /// `player` as a seat of this game (`InvalidPlayer` otherwise).
    fn seat(&self, player: i64) -> Result<usize> {
        seat(player, self.num_players())
    }
    fn setup_json(&self, text: &str) -> Result<Self::State> {
        self.setup(&json::parse(text, "setup spec", GameError::InvalidState)?)
    }
}

/// A position. `Clone` is the (cheap) deep copy; `Display` is a picture of the table for people.
///
/// The `_into` methods write into the caller's buffers (the hot paths of playouts, search and
/// batched environments); their plain twins allocate, for convenience.
pub trait State: Clone + Send + Sync + fmt::Display + Sized {
    type Game: Game<State = Self>;

    /// The game this state belongs to (a cheap handle on its shared options).
    fn game(&self) -> Self::Game;
    fn num_players(&self) -> usize;
    /// Seat to act, `None` when terminal.
    fn current_player(&self) -> Option<usize>;
    /// Calls `f` with every legal action, ascending.
    fn for_each_legal<F: FnMut(Action)>(&self, f: F);
    /// Applies an action known to be legal (e.g. one just produced by `for_each_legal`).
    fn apply_unchecked(&mut self, action: Action);
    fn action_to_string(&self, action: Action) -> Result<String>;
    fn string_to_action(&self, text: &str) -> Result<Action>;
    /// `action`'s text as `seat` may read it. A game whose notation names cards of the mover's
    /// hand (Mosca's exchange) gives every other seat a form that names none.
    fn seat_action_to_string(&self, seat: usize, action: Action) -> Result<String> {
        let _ = seat;
        self.action_to_string(action)
    }
    /// The action `text` names, read as `seat` may read it (see [`State::seat_action_to_string`]).
    fn seat_string_to_action(&self, seat: usize, text: &str) -> Result<Action> {
        let _ = seat;
        self.string_to_action(text)
    }
    /// A whole move in one string (the game's contract, "play"); atomic: all or nothing.
    fn play(&mut self, text: &str) -> Result<()>;
    /// True when the rules have ended the match (see also [`State::is_truncated`]).
    fn is_terminal(&self) -> bool;
    /// Decisions made since the match began (the history's length).
    fn decisions(&self) -> usize;
    /// Zero-sum utility per seat (all 0 before the end) into `out[..num_players()]`.
    fn returns_into(&self, out: &mut [f64]);
    /// The game's own running score per seat into `out[..num_players()]`.
    fn scores_into(&self, out: &mut [i64]);
    /// Every action applied since the match began.
    fn history(&self) -> Vec<Action>;
    /// Deals (rounds, hands) started so far, the current one included.
    fn deals(&self) -> u32;
    /// What `seat` (a seat of this game) may see, canonical JSON (the contract's view).
    fn view_json(&self, seat: usize) -> String;
    /// What every seat may see, canonical JSON (the contract's public view): the view's keys,
    /// with `player` and each seat's own holdings null and every private action detail in its
    /// masked form, in place. Spectators, lobbies and replays show this.
    fn public_view_json(&self) -> String;
    /// Writes what `seat` (a seat of this game) may see into `out`, which has the game's
    /// observation size and holds zeros.
    fn write_observation(&self, seat: usize, out: &mut [f32]);
    /// Writes the same observation into `out` as its entries, unfinished (the caller runs
    /// [`Entries::finish`]); `size` is the game's observation size. Games whose writer is
    /// generic over [`crate::obs::Sink`] write the entries directly; the rest are read back from
    /// a dense row.
    fn write_observation_entries(&self, seat: usize, size: usize, out: &mut Entries) {
        out.read_dense(size, |row| self.write_observation(seat, row));
    }
    /// Canonical JSON (docs/design.md §4).
    fn to_json(&self) -> String;

    /// Writes into `out` a state in `seat`'s information set, drawn with `seed`
    /// (docs/design.md §10): `view(seat)` as here, every card or tile hidden from `seat` placed again uniformly
    /// among the placements consistent with all `seat` has seen, other seats' private action
    /// details rewritten to match, and a fresh RNG. `out` is any state of the same game (a
    /// buffer reused across calls, so that search does not allocate).
    fn resample_into(&self, seat: usize, seed: u64, out: &mut Self) {
        // Interim: every game overrides this.
        let _ = (seat, seed);
        out.clone_from(self);
    }
    /// The action the game's `heuristic` bot plays here (a club player's choice, read from the
    /// rules and the options' scoring; misère presets play to avoid points). It reads only what
    /// the seat to act may see; `rng` breaks ties. Call only when a seat is to act.
    fn heuristic_action(&self, rng: &mut SplitMix64) -> Action {
        // Interim: every game overrides this.
        let mut legal = Vec::new();
        self.legal_actions_into(&mut legal);
        legal[crate::rng::mod_small(rng.next_u64(), legal.len() as u64) as usize]
    }

    // The queries above and below follow the rules alone; `apply`, `apply_str` and the Python
    // classes add the decision cap.

    /// True when the match reached the layer's decision cap ([`MAX_DECISIONS`]) before the rules
    /// ended it: it is over, unfinished, with returns all 0 (docs/design.md §8). Only option sets
    /// under which a match may never end (Escoba `normal_captures=false`) get there.
    fn is_truncated(&self) -> bool {
        self.decisions() >= MAX_DECISIONS as usize && !self.is_terminal()
    }
    /// Over, by the rules or by the cap: no seat acts any more.
    fn is_over(&self) -> bool {
        self.is_terminal() || self.is_truncated()
    }
    /// Seat to act, `None` once over ([`State::current_player`] ignores the cap).
    fn player_to_act(&self) -> Option<usize> {
        if self.is_truncated() {
            None
        } else {
            self.current_player()
        }
    }

    fn is_legal(&self, action: Action) -> bool {
        let mut found = false;
        self.for_each_legal(|a| found |= a == action);
        found
    }
    /// Writes the legal actions, sorted ascending, into `out` (cleared first).
    fn legal_actions_into(&self, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(|a| out.push(a));
    }
    fn legal_actions(&self) -> Vec<Action> {
        let mut out = Vec::with_capacity(32);
        self.legal_actions_into(&mut out);
        out
    }
    /// The legal actions in notation, ascending and comma-separated: what an illegal-action
    /// error lists.
    fn legal_actions_text(&self) -> String {
        let legal: Vec<String> = self
            .legal_actions()
            .into_iter()
            .filter_map(|x| self.action_to_string(x).ok())
            .collect();
        legal.join(", ")
    }
    /// Sets `out[a]` for every legal `a` (`out` is cleared first; its length is the action count).
    fn legal_mask(&self, out: &mut [bool]) {
        out.iter_mut().for_each(|x| *x = false);
        self.for_each_legal(|a| out[a as usize] = true);
    }
    fn returns(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.num_players()];
        self.returns_into(&mut out);
        out
    }
    fn scores(&self) -> Vec<i64> {
        let mut out = vec![0; self.num_players()];
        self.scores_into(&mut out);
        out
    }
    /// What `player` may see (the contract's view); a player who is no seat is an error.
    fn view(&self, player: usize) -> Result<String> {
        Ok(self.view_json(seat(player as i64, self.num_players())?))
    }
    /// Writes what `player` may see into `out` (`out.len()` = the game's observation size).
    fn observation_into(&self, player: usize, out: &mut [f32]) -> Result<()> {
        let p = seat(player as i64, self.num_players())?;
        let size = self.game().observation_size();
        if out.len() != size {
            return Err(GameError::InvalidState(format!(
                "observation buffer has {} values, expected {size}",
                out.len()
            )));
        }
        out.fill(0.0);
        self.write_observation(p, out);
        Ok(())
    }
    fn observation(&self, player: usize) -> Result<Vec<f32>> {
        let mut out = vec![0.0; self.game().observation_size()];
        self.observation_into(player, &mut out)?;
        Ok(out)
    }
    /// A state in `player`'s information set drawn with `seed` ([`State::resample_into`]); a
    /// player who is no seat is an error.
    fn resample(&self, player: usize, seed: u64) -> Result<Self> {
        let p = seat(player as i64, self.num_players())?;
        let mut out = self.clone();
        self.resample_into(p, seed, &mut out);
        Ok(out)
    }
    /// Why `action` (in range, not legal) is refused here.
    fn illegal(&self, action: Action) -> GameError {
        let text = self.action_to_string(action).unwrap_or_default();
        if self.is_terminal() {
            GameError::IllegalAction(format!(
                "action {action} ({text}) is not legal: the match is over"
            ))
        } else {
            GameError::IllegalAction(format!("action {action} ({text}) is not legal here"))
        }
    }
    /// Applies a legal action; anything else is an error and leaves the state unchanged.
    fn apply(&mut self, action: Action) -> Result<()> {
        let n = <Self::Game as Game>::NUM_ACTIONS;
        if action >= n {
            return Err(out_of_range(action, n as usize));
        }
        self.check_not_truncated()?;
        if !self.is_legal(action) {
            return Err(self.illegal(action));
        }
        self.apply_unchecked(action);
        Ok(())
    }
    /// `Err` once the decision cap has cut the match (no text names a legal move then).
    fn check_not_truncated(&self) -> Result<()> {
        if self.is_truncated() {
            return Err(GameError::IllegalAction(format!(
                "no move is legal: the match was cut at {MAX_DECISIONS} decisions"
            )));
        }
        Ok(())
    }
    /// Applies an action given as notation.
    fn apply_str(&mut self, text: &str) -> Result<()> {
        self.check_not_truncated()?;
        let a = self.string_to_action(text)?;
        self.apply(a)
    }
    /// Applies `actions` in turn, all or nothing: on the first refusal the state is unchanged
    /// and the error says which step failed. (`play` of games whose moves are action sequences.)
    fn apply_all(&mut self, actions: &[Action]) -> Result<()> {
        let mut s = self.clone();
        for &a in actions {
            s.apply(a)?;
        }
        *self = s;
        Ok(())
    }
}

/// The `Game` items every game folder provides alike (docs/design.md §8): its name and action
/// count (`NUM_ACTIONS` of the folder), its option table (`options::spec()`), the shared shape
/// in `self.cfg` (`json`, `n`, `obs_size`), `setup` and `state_from_json` in `serial`, and its
/// rule primitives in `primitives::call`. Used inside `impl Game for ...`, beside what is the
/// game's own: `from_resolved`, `new_state` and `new_state_with_deck`.
///
/// Given the typed options too, it also writes `from_resolved` (`$Options::from_resolved` on
/// the resolved table, which it may complete with derived values, then `Self::from_typed` with
/// the table's JSON) and the deals of [`deal_folder!`].
#[macro_export]
macro_rules! game_folder {
    ($State:ty, $name:literal, $Options:ty) => {
        $crate::game_folder!($State, $name);

        fn from_resolved(
            options: serde_json::Map<String, serde_json::Value>,
        ) -> $crate::error::Result<Self> {
            let mut resolved = $crate::options::Resolved(options);
            let opts = <$Options>::from_resolved(&mut resolved)?;
            Ok(Self::from_typed(opts, resolved.to_json()))
        }
        $crate::deal_folder!($State);
    };
    ($State:ty, $name:literal) => {
        type State = $State;
        const NAME: &'static str = $name;
        const NUM_ACTIONS: $crate::game::Action = NUM_ACTIONS;

        fn spec() -> &'static $crate::options::OptionsSpec {
            options::spec()
        }
        fn options_json(&self) -> &str {
            &self.cfg.json
        }
        fn num_players(&self) -> usize {
            self.cfg.n
        }
        fn observation_size(&self) -> usize {
            self.cfg.obs_size
        }
        fn setup(&self, spec: &serde_json::Value) -> $crate::error::Result<$State> {
            serial::setup(self, spec)
        }
        fn state_from_json(&self, text: &str) -> $crate::error::Result<$State> {
            serial::state_from_json(self, text)
        }
        fn primitive(
            &self,
            name: &str,
            args: &serde_json::Value,
        ) -> $crate::error::Result<serde_json::Value> {
            primitives::call(self, name, args)
        }
    };
}

/// A game folder's `new_state` and `new_state_with_deck`, alike in every game: its
/// `deal_match(seed, deck)` deals a new match from the seeded RNG, or from `deck` once
/// `serial::check_deck(&self.cfg, deck)` has read it (a permutation of the pack, top first).
#[macro_export]
macro_rules! deal_folder {
    ($State:ty) => {
        fn new_state(&self, seed: u64) -> $State {
            self.deal_match(seed, None)
        }
        fn new_state_with_deck(
            &self,
            seed: u64,
            deck: &serde_json::Value,
        ) -> $crate::error::Result<$State> {
            Ok(self.deal_match(seed, Some(serial::check_deck(&self.cfg, deck)?)))
        }
    };
}

/// A game folder state's reading of its shared configuration: `opts()`, the typed options, and
/// `n()`, the number of seats.
#[macro_export]
macro_rules! config_accessors {
    ($State:ty, $Options:ty) => {
        impl $State {
            #[inline]
            fn opts(&self) -> &$Options {
                &self.cfg.opts
            }
            #[inline]
            fn n(&self) -> usize {
                self.cfg.n
            }
        }
    };
}

/// A game folder state's notation where an action's text depends on its id alone, not on the
/// state: `notation::action_to_string` and `notation::string_to_action`. Used inside
/// `impl State for ...`.
#[macro_export]
macro_rules! id_notation {
    () => {
        fn action_to_string(&self, action: $crate::game::Action) -> $crate::error::Result<String> {
            notation::action_to_string(action)
        }
        fn string_to_action(&self, text: &str) -> $crate::error::Result<$crate::game::Action> {
            notation::string_to_action(text)
        }
    };
}

/// The `State` items every game folder provides alike: its game (a handle on the shared
/// `self.cfg`), the seat count `cfg.n`, the history of action ids in `self.history`, the
/// canonical JSON in `serial::to_json`, the heuristic bot's `self.heuristic(rng)` and
/// `resample::resample_into`. Used inside `impl State for ...`.
#[macro_export]
macro_rules! state_folder {
    ($Game:ident) => {
        type Game = $Game;

        fn game(&self) -> $Game {
            $Game {
                cfg: self.cfg.clone(),
            }
        }
        fn num_players(&self) -> usize {
            self.cfg.n
        }
        fn history(&self) -> Vec<$crate::game::Action> {
            self.history
                .iter()
                .map(|&a| a as $crate::game::Action)
                .collect()
        }
        fn decisions(&self) -> usize {
            self.history.len()
        }
        fn to_json(&self) -> String {
            serial::to_json(self)
        }
        fn heuristic_action(&self, rng: &mut $crate::rng::SplitMix64) -> $crate::game::Action {
            self.heuristic(rng)
        }
        fn resample_into(&self, seat: usize, seed: u64, out: &mut Self) {
            resample::resample_into(self, seat, seed, out)
        }
    };
}

/// `Clone` for a game folder's state whose `clone_from` copies field by field, so that its
/// vectors' buffers are reused (resampling into a buffer state allocates nothing), and
/// `position()`, a copy with those vectors left empty (a trial position for legality checks,
/// at no allocation). Given the state, its vectors, then its other fields (all `Copy`); the
/// state's `cfg` is cloned.
#[macro_export]
macro_rules! clone_reusing {
    ($State:ident; $($vec:ident),*; $($field:ident),* $(,)?) => {
        impl Clone for $State {
            fn clone(&self) -> Self {
                $State {
                    cfg: self.cfg.clone(),
                    $($vec: self.$vec.clone(),)*
                    $($field: self.$field,)*
                }
            }
            fn clone_from(&mut self, o: &Self) {
                self.cfg.clone_from(&o.cfg);
                $(self.$vec.clone_from(&o.$vec);)*
                $(self.$field = o.$field;)*
            }
        }

        impl $State {
            #[allow(dead_code)]
            fn position(&self) -> Self {
                $State {
                    cfg: self.cfg.clone(),
                    $($vec: Vec::new(),)*
                    $($field: self.$field,)*
                }
            }
        }
    };
}
