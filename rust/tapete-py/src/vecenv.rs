//! `tapete._core.VecEnv`: a batch of any native game's matches (tapete_core::vecenv), stepped
//! with the GIL released into numpy arrays allocated once. The front is `tapete.VecEnv`.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use tapete_core::game::Game;
use tapete_core::vecenv::{AnyVecEnv, Buffers, Config, Mode, Opponent, VecEnv as CoreVecEnv};
use tapete_core::GameError;

use crate::args::{count_arg, int_like, repr, seed_arg, text_arg};
use crate::error::Result;

macro_rules! any_game {
    ($($module:ident :: $Game:ident, $State:ident;)*) => {
        /// The batch of the native game `game` (a `tapete._core.<Name>Game`).
        fn build(game: &Bound<'_, PyAny>, cfg: Config) -> Result<Box<dyn AnyVecEnv>> {
            $(
                if let Ok(g) = game.cast::<crate::$module::$Game>() {
                    return batch(g.get().game.clone(), cfg);
                }
            )*
            Err(GameError::InvalidOption(format!(
                "cannot make a VecEnv of {}: expected a native game such as tapete.Escoba()",
                repr(game)
            ))
            .into())
        }
    };
}

tapete_core::for_each_game!(any_game);

fn batch<G: Game>(game: G, cfg: Config) -> Result<Box<dyn AnyVecEnv>> {
    let seat = match cfg.mode {
        Mode::Seat(s) => s as i64,
        _ => 0,
    };
    game.seat(seat)?;
    Ok(Box::new(CoreVecEnv::new(game, cfg)?))
}

/// `seat`: None (every seat: multi-agent), a seat number, or "random" (drawn per match).
fn mode_arg(seat: &Bound<'_, PyAny>) -> Result<Mode> {
    if seat.is_none() {
        return Ok(Mode::MultiAgent);
    }
    if seat.is_instance_of::<PyString>() {
        let text = text_arg(seat, "seat", GameError::InvalidPlayer)?;
        if text == "random" {
            return Ok(Mode::RandomSeat);
        }
    } else if let Some(i) = int_like(seat) {
        if let Ok(i) = i.extract::<i64>() {
            if i >= 0 {
                return Ok(Mode::Seat(i as usize));
            }
        }
    }
    Err(GameError::InvalidPlayer(format!(
        "seat {} is not valid: expected None (every seat), a seat number or 'random'",
        repr(seat)
    ))
    .into())
}

/// A batch of matches and the arrays its steps write.
#[pyclass(module = "tapete._core")]
pub struct VecEnv {
    env: Box<dyn AnyVecEnv>,
    actions: Vec<i64>,
    obs: Py<PyArray2<f32>>,
    mask: Py<PyArray2<bool>>,
    player: Py<PyArray1<i64>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    actor: Py<PyArray1<i64>>,
    final_obs: Py<PyArray2<f32>>,
    final_mask: Py<PyArray2<bool>>,
    episode_return: Py<PyArray2<f32>>,
    episode_length: Py<PyArray1<i64>>,
    info: Py<PyDict>,
}

/// The writable data of an array this object made (C-contiguous, never shared with another
/// batch); a user who made it read-only gets a typed error.
macro_rules! rw {
    ($py:expr, $a:expr) => {
        $a.bind($py).try_readwrite().map_err(|_| {
            GameError::InvalidState(
                "a VecEnv array is in use or was made read-only; it is written by every step"
                    .into(),
            )
        })?
    };
}

macro_rules! slice {
    ($a:expr) => {
        $a.as_slice_mut()
            .map_err(|_| GameError::InvalidState("a VecEnv array is no longer contiguous".into()))?
    };
}

impl VecEnv {
    /// Runs `reset` or `step` on the arrays, with the GIL released.
    fn run(&mut self, py: Python<'_>, seed: Option<u64>, step: bool) -> Result<()> {
        let mut obs = rw!(py, self.obs);
        let mut mask = rw!(py, self.mask);
        let mut player = rw!(py, self.player);
        let mut rewards = rw!(py, self.rewards);
        let mut terminated = rw!(py, self.terminated);
        let mut truncated = rw!(py, self.truncated);
        let mut actor = rw!(py, self.actor);
        let mut final_obs = rw!(py, self.final_obs);
        let mut final_mask = rw!(py, self.final_mask);
        let mut episode_return = rw!(py, self.episode_return);
        let mut episode_length = rw!(py, self.episode_length);
        let bufs = Buffers {
            obs: slice!(obs),
            mask: slice!(mask),
            player: slice!(player),
            rewards: slice!(rewards),
            terminated: slice!(terminated),
            truncated: slice!(truncated),
            actor: slice!(actor),
            final_obs: slice!(final_obs),
            final_mask: slice!(final_mask),
            episode_return: slice!(episode_return),
            episode_length: slice!(episode_length),
        };
        let env = &mut self.env;
        let actions = &self.actions;
        py.detach(move || {
            if step {
                env.step(actions, bufs)
            } else {
                env.reset(seed, bufs)
            }
        })?;
        Ok(())
    }

    /// What `reset` returns, `(obs, mask, player)`, and for a `step` also `(rewards, terminated,
    /// truncated, info)` after them: the env's own arrays, not copies.
    fn outputs<'py>(&self, py: Python<'py>, step: bool) -> Result<Bound<'py, PyTuple>> {
        let mut out = vec![
            self.obs.bind(py).as_any(),
            self.mask.bind(py).as_any(),
            self.player.bind(py).as_any(),
        ];
        if step {
            out.extend([
                self.rewards.bind(py).as_any(),
                self.terminated.bind(py).as_any(),
                self.truncated.bind(py).as_any(),
                self.info.bind(py).as_any(),
            ]);
        }
        Ok(PyTuple::new(py, out)?)
    }
}

#[pymethods]
impl VecEnv {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &Bound<'_, PyAny>,
        num_envs: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        seat: &Bound<'_, PyAny>,
        opponents: &Bound<'_, PyAny>,
        threads: &Bound<'_, PyAny>,
        max_decisions: &Bound<'_, PyAny>,
    ) -> Result<Self> {
        let num_envs = count_arg(num_envs, "num_envs", tapete_core::vecenv::MAX_ENVS as u64)?;
        let seed = seed_arg(seed).map_err(|e| GameError::InvalidOption(e.message().into()))?;
        let mode = mode_arg(seat)?;
        let opponent =
            Opponent::from_name(text_arg(opponents, "opponents", GameError::InvalidOption)?)?;
        let threads = count_arg(threads, "threads", tapete_core::play::MAX_SIM_THREADS)?;
        let max_decisions = if max_decisions.is_none() {
            None
        } else {
            Some(count_arg(max_decisions, "max_decisions", u64::MAX)? as u64)
        };
        let cfg = Config {
            num_envs,
            seed,
            mode,
            opponent,
            max_decisions,
            threads,
        };
        let env = build(game, cfg)?;
        let s = env.shape();
        let n = num_envs;
        let z2f = |w: usize| PyArray2::<f32>::zeros(py, [n, w], false).unbind();
        let z2b = |w: usize| PyArray2::<bool>::zeros(py, [n, w], false).unbind();
        let z1i = || PyArray1::<i64>::zeros(py, [n], false).unbind();
        let z1b = || PyArray1::<bool>::zeros(py, [n], false).unbind();
        let mut this = VecEnv {
            env,
            actions: vec![0; n],
            obs: z2f(s.obs),
            mask: z2b(s.actions),
            player: z1i(),
            rewards: z2f(s.players),
            terminated: z1b(),
            truncated: z1b(),
            actor: z1i(),
            final_obs: z2f(s.obs),
            final_mask: z2b(s.actions),
            episode_return: z2f(s.players),
            episode_length: z1i(),
            info: PyDict::new(py).unbind(),
        };
        let info = this.info.bind(py);
        info.set_item("final_obs", this.final_obs.bind(py))?;
        info.set_item("final_mask", this.final_mask.bind(py))?;
        info.set_item("episode_return", this.episode_return.bind(py))?;
        info.set_item("episode_length", this.episode_length.bind(py))?;
        info.set_item("actor", this.actor.bind(py))?;
        this.run(py, None, false)?;
        Ok(this)
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.env.num_envs()
    }
    #[getter]
    fn num_players(&self) -> usize {
        self.env.shape().players
    }
    #[getter]
    fn num_actions(&self) -> usize {
        self.env.shape().actions
    }
    #[getter]
    fn observation_size(&self) -> usize {
        self.env.shape().obs
    }
    /// None (multi-agent), the seat, or "random".
    #[getter]
    fn seat<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        Ok(match self.env.config().mode {
            Mode::MultiAgent => py.None().into_bound(py),
            Mode::Seat(s) => match s.into_pyobject(py) {
                Ok(v) => v.into_any(),
                Err(never) => match never {},
            },
            Mode::RandomSeat => PyString::new(py, "random").into_any(),
        })
    }
    #[getter]
    fn threads(&self) -> usize {
        self.env.config().threads
    }
    #[getter]
    fn max_decisions(&self) -> Option<u64> {
        self.env.config().max_decisions
    }

    /// Deals every env a new match; `(obs, mask, player)`.
    #[pyo3(signature = (seed = None))]
    fn reset<'py>(
        slf: &Bound<'py, Self>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> Result<Bound<'py, PyTuple>> {
        let py = slf.py();
        let seed = match seed {
            Some(s) if !s.is_none() => {
                Some(seed_arg(s).map_err(|e| GameError::InvalidOption(e.message().into()))?)
            }
            _ => None,
        };
        // the seed is read before the borrow; a second thread stepping the same env meanwhile
        // gets a typed error, not PyO3's "Already borrowed"
        let mut this = slf.try_borrow_mut()?;
        this.run(py, seed, false)?;
        this.outputs(py, false)
    }

    /// One action per env (an int64 array of `num_envs`);
    /// `(obs, mask, player, rewards, terminated, truncated, info)`.
    fn step<'py>(
        slf: &Bound<'py, Self>,
        actions: &Bound<'py, PyAny>,
    ) -> Result<Bound<'py, PyTuple>> {
        let py = slf.py();
        let mut this = slf.try_borrow_mut()?;
        let n = this.actions.len();
        let a: PyReadonlyArray1<'py, i64> = actions
            .cast::<PyArray1<i64>>()
            .map_err(|_| {
                GameError::IllegalAction(format!(
                    "actions must be an int64 array of {n} action ids, got {}",
                    repr(actions)
                ))
            })?
            .readonly();
        if a.len() != n {
            return Err(GameError::IllegalAction(format!(
                "expected {n} actions (one per env), got {}",
                a.len()
            ))
            .into());
        }
        // a copy: the checks and the moves must see the same actions
        match a.as_slice() {
            Ok(s) => this.actions.copy_from_slice(s),
            Err(_) => {
                for (dst, src) in this.actions.iter_mut().zip(a.as_array().iter()) {
                    *dst = *src;
                }
            }
        }
        drop(a);
        this.run(py, None, true)?;
        this.outputs(py, true)
    }

    /// Canonical JSON of env `i`'s match.
    fn state_json(&self, i: &Bound<'_, PyAny>) -> Result<String> {
        let n = self.env.num_envs();
        let i = count_arg(i, "env index", n.saturating_sub(1) as u64)?;
        Ok(self.env.state_json(i).unwrap_or_default())
    }
}
