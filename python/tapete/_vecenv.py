"""``tapete.VecEnv``: many matches of one game stepped together in Rust, with the GIL released
(docs/envs.md)."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from . import _core
from ._native import NativeGame, seed_value
from .errors import IllegalActionError, InvalidOptionError

__all__ = ["VecEnv", "cap_ended", "native_game"]

#: How a finished match is replaced: in the same step (Gymnasium 1.1's ``AutoresetMode.SAME_STEP``).
AUTORESET_MODE = "same_step"


def native_game(game: Any) -> NativeGame[Any]:
    """A game object or a game string (``"escoba(variant=scopa,players=2)"``) as a native game."""
    if isinstance(game, str):
        from .games import load

        game = load(game)
    if not isinstance(game, NativeGame):
        raise InvalidOptionError(
            f"{game!r:.80} is not a game: expected a native game such as tapete.Escoba() or a game string"
        )
    return game


class VecEnv:
    """``num_envs`` matches of ``game`` stepped at once.

    ``seat=None``: multi-agent, the caller acts for whoever is to move in each match. ``seat=k``:
    single-agent, the caller holds seat ``k`` and ``opponents`` play the others inside the step;
    ``seat="random"`` draws the caller's seat for each match. A match that ends is dealt again in
    the same step (``autoreset_mode == "same_step"``): the returned observation is then the new
    match's, and ``info`` holds the finished match's last observation and mask (``final_obs``,
    ``final_mask``), its returns (``episode_return``) and its length in the caller's steps
    (``episode_length``), valid in the rows where ``terminated | truncated``; ``info["actor"]``
    is the seat that acted in each row. ``truncated`` marks matches cut by ``max_decisions`` or by
    the game's own deal cap (docs/envs.md §3).

    ``obs_format="index"`` returns each observation as its nonzero entries, the pair ``(index
    (N, W) int32, value (N, W) float32)``, ascending by index and padded with index
    ``observation_size`` and value 0 (``to_dense`` gives the float32 rows back);
    ``mask_format="bits"`` packs the masks 8 actions to a byte (``np.unpackbits(mask, axis=1,
    count=num_actions, bitorder="little")``). ``sample_actions()`` draws a random legal action
    per env natively.

    The arrays returned are allocated once and rewritten by every step: copy what you keep.
    Env ``i`` draws its deals and its opponents' moves from a stream of its own, so the results do
    not depend on ``threads`` (0: all cores).
    """

    autoreset_mode = AUTORESET_MODE
    metadata: dict[str, Any] = {"autoreset_mode": AUTORESET_MODE}

    def __init__(
        self,
        game: Any,
        num_envs: int,
        seed: int = 0,
        *,
        seat: int | str | None = None,
        opponents: str = "random",
        threads: int = 1,
        max_decisions: int | None = None,
        obs_format: str = "float32",
        mask_format: str = "bool",
    ) -> None:
        self.game = native_game(game)
        seed = seed_value(seed, InvalidOptionError)
        self._env = _core.VecEnv(
            self.game._game, num_envs, seed, seat, opponents, threads, max_decisions, obs_format, mask_format
        )
        self.num_envs: int = self._env.num_envs
        self.num_players: int = self._env.num_players
        self.num_actions: int = self._env.num_actions
        self.observation_size: int = self._env.observation_size
        self.seat: int | str | None = self._env.seat
        self.opponents = opponents
        self.threads: int = self._env.threads
        self.max_decisions: int | None = self._env.max_decisions
        self.obs_format: str = self._env.obs_format
        self.mask_format: str = self._env.mask_format

    @property
    def single_agent(self) -> bool:
        return self.seat is not None

    def reset(self, seed: int | None = None) -> tuple[Any, Any, npt.NDArray[np.int64]]:
        """Deal every env a new match (``seed``: the streams start again from it, the samplers'
        too). Returns ``obs (N, obs_size) float32``, ``mask (N, A) bool``, ``player (N,)
        int64`` (``obs`` and ``mask`` in the batch's formats)."""
        if seed is not None:
            seed = seed_value(seed, InvalidOptionError)
        return self._env.reset(seed)

    def sample_actions(self) -> npt.NDArray[np.int64]:
        """A uniformly random legal action per env, drawn in Rust from each env's sampler stream
        (seeded with the batch, apart from its deals): the env's own array, rewritten by the next
        call."""
        return self._env.sample_actions()

    def to_dense(self, obs: Any) -> npt.NDArray[np.float32]:
        """Observations of the batch's format as float32 rows ``(N, observation_size)``: the
        array itself for ``float32``, a new array from an ``(index, value)`` pair."""
        if self.obs_format == "float32":
            return np.asarray(obs, dtype=np.float32)
        index, value = obs
        dense = np.zeros((index.shape[0], self.observation_size + 1), dtype=np.float32)
        np.put_along_axis(dense, index.astype(np.intp), value, axis=1)
        return dense[:, : self.observation_size]

    def step(self, actions: Any) -> tuple[Any, ...]:
        """One action id per env. Returns ``obs, mask, player, rewards (N, num_players) float32,
        terminated (N,) bool, truncated (N,) bool, info``. An action that is not legal in its env
        raises ``IllegalActionError`` naming the env and the action, and no env changes."""
        if type(actions) is not np.ndarray or actions.dtype != np.int64:
            actions = _actions(actions, self.num_envs)
        return self._env.step(actions)

    def state(self, i: int) -> Any:
        """A copy of env ``i``'s match, as a native state (for inspection and views)."""
        return self.game.state_from_json(self._env.state_json(i))

    def __repr__(self) -> str:
        return f"tapete.VecEnv({str(self.game)!r}, num_envs={self.num_envs}, seat={self.seat!r})"


def _actions(actions: Any, n: int) -> npt.NDArray[np.int64]:
    """``actions`` as the int64 array of ``n`` ids the core reads; else ``IllegalActionError``."""
    try:
        array = np.asarray(actions)
    except Exception:  # any object that numpy cannot read is a bad action list
        array = None
    if array is None or array.shape != (n,) or array.dtype.kind not in "iu":
        what = "nothing readable" if array is None else f"shape {array.shape} of {array.dtype}"
        raise IllegalActionError(f"actions must be {n} integer action ids, one per env; got {what}")
    if array.dtype.kind == "u" and n and int(array.max()) > np.iinfo(np.int64).max:
        raise IllegalActionError("an action id is out of range")
    return np.ascontiguousarray(array, dtype=np.int64)


def cap_ended(game: Any, state: Any) -> bool:
    """Whether a terminal ``state`` was ended by the game's deal cap rather than decided (the rule
    of docs/envs.md §3, the same as the native ``VecEnv``'s): for environments stepping single
    states from Python."""
    options = game.options
    if options.get("match") == "single_hand":
        return False
    cap = options.get("max_hands", options.get("max_deals"))
    if not isinstance(cap, int) or state.deals() < cap:
        return False
    decided = any(r != 0 for r in state.returns())
    target = options.get("target")
    if not isinstance(target, int):
        return not decided
    return not (decided and any(s >= target for s in state.scores()))
