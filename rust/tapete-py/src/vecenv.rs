//! `tapete._core.VecEnv`: a batch of any native game's matches (tapete_core::vecenv), stepped
//! with the GIL released into numpy arrays allocated once. The front is `tapete.VecEnv`.

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString, PyTuple};

use tapete_core::game::Game;
use tapete_core::vecenv::{
    mask_width, AnyVecEnv, Buffers, Config, MaskFormat, MaskRows, Mode, ObsFormat, ObsRows,
    Opponent, VecEnv as CoreVecEnv,
};
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
        $a.as_slice_mut().map_err(contiguous)?
    };
}

/// Observation arrays of one of the formats (docs/envs.md §1).
enum ObsArrays {
    Float32(Py<PyArray2<f32>>),
    /// `(index, value)`, rows of `width` entries.
    Index {
        index: Py<PyArray2<i32>>,
        value: Py<PyArray2<f32>>,
        width: usize,
    },
}

enum MaskArrays {
    Bool(Py<PyArray2<bool>>),
    Bits(Py<PyArray2<u8>>),
}

/// The first index width of a batch; rows wider than it widen the arrays, once for all rows.
const FIRST_WIDTH: usize = 64;

impl ObsArrays {
    fn new(py: Python<'_>, format: ObsFormat, n: usize, size: usize) -> ObsArrays {
        match format {
            ObsFormat::Float32 => {
                ObsArrays::Float32(PyArray2::<f32>::zeros(py, [n, size], false).unbind())
            }
            ObsFormat::Index => Self::index(py, n, size, FIRST_WIDTH.min(size)),
        }
    }
    /// Index arrays of `width`, all padding.
    fn index(py: Python<'_>, n: usize, size: usize, width: usize) -> ObsArrays {
        let index = PyArray2::<i32>::zeros(py, [n, width], false);
        if let Ok(mut w) = index.try_readwrite() {
            if let Ok(x) = w.as_slice_mut() {
                x.fill(size as i32);
            }
        }
        ObsArrays::Index {
            index: index.unbind(),
            value: PyArray2::<f32>::zeros(py, [n, width], false).unbind(),
            width,
        }
    }
    /// What the caller gets: the array, or the pair `(index, value)`.
    fn output<'py>(&self, py: Python<'py>) -> Result<Bound<'py, PyAny>> {
        Ok(match self {
            ObsArrays::Float32(a) => a.bind(py).clone().into_any(),
            ObsArrays::Index { index, value, .. } => {
                PyTuple::new(py, [index.bind(py).as_any(), value.bind(py).as_any()])?.into_any()
            }
        })
    }
    fn width(&self) -> usize {
        match self {
            ObsArrays::Float32(_) => 0,
            ObsArrays::Index { width, .. } => *width,
        }
    }
    /// Index arrays of at least `need` entries a row, the old rows copied in.
    fn widen(&mut self, py: Python<'_>, n: usize, size: usize, need: usize) -> Result<()> {
        let ObsArrays::Index {
            index,
            value,
            width,
        } = self
        else {
            return Ok(());
        };
        let w = *width;
        let nw = need.max(w + w / 2).div_ceil(8).saturating_mul(8).min(size);
        let wider = Self::index(py, n, size, nw);
        if let ObsArrays::Index {
            index: ni,
            value: nv,
            ..
        } = &wider
        {
            let (oi, ov) = (rw!(py, index), rw!(py, value));
            let (mut wi, mut wv) = (rw!(py, ni), rw!(py, nv));
            let (oi, ov, wi, wv) = (
                oi.as_slice().map_err(contiguous)?,
                ov.as_slice().map_err(contiguous)?,
                slice!(wi),
                slice!(wv),
            );
            for i in 0..n {
                wi[i * nw..i * nw + w].copy_from_slice(&oi[i * w..(i + 1) * w]);
                wv[i * nw..i * nw + w].copy_from_slice(&ov[i * w..(i + 1) * w]);
            }
        }
        *self = wider;
        Ok(())
    }
}

impl MaskArrays {
    fn new(py: Python<'_>, format: MaskFormat, n: usize, actions: usize) -> MaskArrays {
        let w = mask_width(format, actions);
        match format {
            MaskFormat::Bool => {
                MaskArrays::Bool(PyArray2::<bool>::zeros(py, [n, w], false).unbind())
            }
            MaskFormat::Bits => MaskArrays::Bits(PyArray2::<u8>::zeros(py, [n, w], false).unbind()),
        }
    }
    fn output<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            MaskArrays::Bool(a) => a.bind(py).clone().into_any(),
            MaskArrays::Bits(a) => a.bind(py).clone().into_any(),
        }
    }
}

fn contiguous<E>(_: E) -> GameError {
    GameError::InvalidState("a VecEnv array is no longer contiguous".into())
}

/// A batch of matches and the arrays its steps write.
#[pyclass(module = "tapete._core")]
pub struct VecEnv {
    env: Box<dyn AnyVecEnv>,
    actions: Vec<i64>,
    obs: ObsArrays,
    mask: MaskArrays,
    player: Py<PyArray1<i64>>,
    rewards: Py<PyArray2<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    actor: Py<PyArray1<i64>>,
    final_obs: ObsArrays,
    final_mask: MaskArrays,
    episode_return: Py<PyArray2<f32>>,
    episode_length: Py<PyArray1<i64>>,
    sampled: Py<PyArray1<i64>>,
    info: Py<PyDict>,
}

/// `$body` with `$bufs`, the batch's arrays as [`Buffers`].
macro_rules! with_buffers {
    ($this:expr, $py:expr, |$bufs:ident, $env:ident, $actions:ident| $body:expr) => {{
        let this = &mut *$this;
        let py = $py;
        let (mut o0, mut o1, mut m0, mut m1);
        let (mut f0, mut f1, mut g0, mut g1);
        let obs = match &this.obs {
            ObsArrays::Float32(a) => {
                o0 = Some(rw!(py, a));
                ObsRows::Float32(slice!(o0.as_mut().unwrap()))
            }
            ObsArrays::Index {
                index,
                value,
                width,
            } => {
                o1 = Some((rw!(py, index), rw!(py, value)));
                let (i, v) = o1.as_mut().unwrap();
                ObsRows::Index {
                    index: slice!(i),
                    value: slice!(v),
                    width: *width,
                }
            }
        };
        let final_obs = match &this.final_obs {
            ObsArrays::Float32(a) => {
                f0 = Some(rw!(py, a));
                ObsRows::Float32(slice!(f0.as_mut().unwrap()))
            }
            ObsArrays::Index {
                index,
                value,
                width,
            } => {
                f1 = Some((rw!(py, index), rw!(py, value)));
                let (i, v) = f1.as_mut().unwrap();
                ObsRows::Index {
                    index: slice!(i),
                    value: slice!(v),
                    width: *width,
                }
            }
        };
        let mask = match &this.mask {
            MaskArrays::Bool(a) => {
                m0 = Some(rw!(py, a));
                MaskRows::Bool(slice!(m0.as_mut().unwrap()))
            }
            MaskArrays::Bits(a) => {
                m1 = Some(rw!(py, a));
                MaskRows::Bits(slice!(m1.as_mut().unwrap()))
            }
        };
        let final_mask = match &this.final_mask {
            MaskArrays::Bool(a) => {
                g0 = Some(rw!(py, a));
                MaskRows::Bool(slice!(g0.as_mut().unwrap()))
            }
            MaskArrays::Bits(a) => {
                g1 = Some(rw!(py, a));
                MaskRows::Bits(slice!(g1.as_mut().unwrap()))
            }
        };
        let mut player = rw!(py, this.player);
        let mut rewards = rw!(py, this.rewards);
        let mut terminated = rw!(py, this.terminated);
        let mut truncated = rw!(py, this.truncated);
        let mut actor = rw!(py, this.actor);
        let mut episode_return = rw!(py, this.episode_return);
        let mut episode_length = rw!(py, this.episode_length);
        let $bufs = Buffers {
            obs,
            mask,
            player: slice!(player),
            rewards: slice!(rewards),
            terminated: slice!(terminated),
            truncated: slice!(truncated),
            actor: slice!(actor),
            final_obs,
            final_mask,
            episode_return: slice!(episode_return),
            episode_length: slice!(episode_length),
        };
        let $env = &mut this.env;
        let $actions = &this.actions;
        $body
    }};
}

impl VecEnv {
    /// Runs `reset` or `step` on the arrays, with the GIL released; widens the index arrays
    /// when a row outgrew them.
    fn run(&mut self, py: Python<'_>, seed: Option<u64>, step: bool) -> Result<()> {
        let need = with_buffers!(self, py, |bufs, env, actions| py.detach(move || {
            if step {
                env.step(actions, bufs)
            } else {
                env.reset(seed, bufs)
            }
        }))?;
        let w = self.obs.width().min(self.final_obs.width());
        if need > w {
            let (n, size) = (self.env.num_envs(), self.env.shape().obs);
            if need > self.obs.width() {
                self.obs.widen(py, n, size, need)?;
            }
            if need > self.final_obs.width() {
                self.final_obs.widen(py, n, size, need)?;
            }
            self.set_info(py)?;
            with_buffers!(self, py, |bufs, env, _actions| env.refill(bufs))?;
        }
        Ok(())
    }

    fn set_info(&self, py: Python<'_>) -> Result<()> {
        let info = self.info.bind(py);
        info.set_item("final_obs", self.final_obs.output(py)?)?;
        info.set_item("final_mask", self.final_mask.output(py))?;
        info.set_item("episode_return", self.episode_return.bind(py))?;
        info.set_item("episode_length", self.episode_length.bind(py))?;
        info.set_item("actor", self.actor.bind(py))?;
        Ok(())
    }

    /// What `reset` returns, `(obs, mask, player)`, and for a `step` also `(rewards, terminated,
    /// truncated, info)` after them: the env's own arrays, not copies.
    fn outputs<'py>(&self, py: Python<'py>, step: bool) -> Result<Bound<'py, PyTuple>> {
        let mut out = vec![
            self.obs.output(py)?,
            self.mask.output(py),
            self.player.bind(py).clone().into_any(),
        ];
        if step {
            out.extend([
                self.rewards.bind(py).clone().into_any(),
                self.terminated.bind(py).clone().into_any(),
                self.truncated.bind(py).clone().into_any(),
                self.info.bind(py).clone().into_any(),
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
        obs_format: &Bound<'_, PyAny>,
        mask_format: &Bound<'_, PyAny>,
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
        let obs_format = ObsFormat::from_name(text_arg(
            obs_format,
            "obs_format",
            GameError::InvalidOption,
        )?)?;
        let mask_format = MaskFormat::from_name(text_arg(
            mask_format,
            "mask_format",
            GameError::InvalidOption,
        )?)?;
        let cfg = Config {
            num_envs,
            seed,
            mode,
            opponent,
            obs_format,
            mask_format,
            max_decisions,
            threads,
        };
        let env = build(game, cfg)?;
        let s = env.shape();
        let n = num_envs;
        let z2f = |w: usize| PyArray2::<f32>::zeros(py, [n, w], false).unbind();
        let z1i = || PyArray1::<i64>::zeros(py, [n], false).unbind();
        let z1b = || PyArray1::<bool>::zeros(py, [n], false).unbind();
        let mut this = VecEnv {
            env,
            actions: vec![0; n],
            obs: ObsArrays::new(py, obs_format, n, s.obs),
            mask: MaskArrays::new(py, mask_format, n, s.actions),
            player: z1i(),
            rewards: z2f(s.players),
            terminated: z1b(),
            truncated: z1b(),
            actor: z1i(),
            final_obs: ObsArrays::new(py, obs_format, n, s.obs),
            final_mask: MaskArrays::new(py, mask_format, n, s.actions),
            episode_return: z2f(s.players),
            episode_length: z1i(),
            sampled: z1i(),
            info: PyDict::new(py).unbind(),
        };
        this.set_info(py)?;
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
    #[getter]
    fn obs_format(&self) -> &'static str {
        match self.env.config().obs_format {
            ObsFormat::Float32 => "float32",
            ObsFormat::Index => "index",
        }
    }
    #[getter]
    fn mask_format(&self) -> &'static str {
        match self.env.config().mask_format {
            MaskFormat::Bool => "bool",
            MaskFormat::Bits => "bits",
        }
    }

    /// A uniformly random legal action per env (int64, `num_envs`), from each env's sampler
    /// stream: the env's own array, rewritten by the next call.
    fn sample_actions<'py>(slf: &Bound<'py, Self>) -> Result<Bound<'py, PyArray1<i64>>> {
        let py = slf.py();
        let mut this = slf.try_borrow_mut()?;
        let this = &mut *this;
        {
            let mut out = rw!(py, this.sampled);
            this.env.sample_actions(slice!(out))?;
        }
        Ok(this.sampled.bind(py).clone())
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
