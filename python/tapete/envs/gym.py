"""Gymnasium adapters (``pip install tapete[gym]``; docs/envs.md §5): a single-agent
``gymnasium.Env`` and a ``gymnasium.vector.VectorEnv``, both over ``tapete.VecEnv`` in
single-agent mode, so the opponents move inside the native step."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._vecenv import VecEnv, native_game
from ..errors import IllegalActionError, InvalidOptionError

__all__ = ["TapeteEnv", "TapeteVectorEnv", "spaces_of"]

ILLEGAL_ACTION_MODES = ("penalty", "raise")


def spaces_of(game: Any) -> tuple[spaces.Dict, spaces.Discrete]:
    """The observation space ``Dict(observation=Box, action_mask=MultiBinary)`` and the action
    space ``Discrete`` of a game. Observations are unbounded floats (counts, scores)."""
    size = game.observation_shape[0]
    n = game.num_distinct_actions
    observation = spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
            "action_mask": spaces.MultiBinary(n),
        }
    )
    return observation, spaces.Discrete(n)


def _illegal_mode(value: Any) -> str:
    if value not in ILLEGAL_ACTION_MODES:
        raise InvalidOptionError(f"illegal_action={value!r:.40}: expected 'penalty' or 'raise'")
    return str(value)


class TapeteEnv(gymnasium.Env[Any, Any]):
    """One match at a time: the learner holds ``seat`` (or ``"random"``: drawn each match) and
    ``opponents`` play the others. The reward is the learner's return when the match ends, else 0.

    ``illegal_action="penalty"`` (the default): an action that is not legal ends the episode with
    reward -1 and ``info["illegal_action"]`` saying why, the match unchanged; ``"raise"``: it raises
    ``IllegalActionError``. Use ``observation["action_mask"]`` to act legally.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        game: Any,
        seat: int | str = 0,
        opponents: str = "random",
        *,
        illegal_action: str = "penalty",
        max_decisions: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.game = native_game(game)
        self.illegal_action = _illegal_mode(illegal_action)
        if render_mode not in (None, "ansi"):
            raise InvalidOptionError(f"render_mode={render_mode!r:.40}: expected None or 'ansi'")
        self.render_mode = render_mode
        self._env = VecEnv(self.game, 1, seat=seat, opponents=opponents, max_decisions=max_decisions)
        self.observation_space, self.action_space = spaces_of(self.game)
        self._obs: dict[str, np.ndarray] = {}
        self._done = True

    def _observe(self, obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        self._obs = {"observation": obs[0].copy(), "action_mask": mask[0].astype(np.int8)}
        return self._obs

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        obs, mask, player = self._env.reset(seed)
        self._done = False
        return self._observe(obs, mask), {"seat": int(player[0])}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._done:
            raise InvalidOptionError("the episode is over: call reset() first")
        try:
            a = int(action)
            if a != action:
                raise ValueError
        except (TypeError, ValueError, OverflowError):
            a = -1
        if not (0 <= a < self.game.num_distinct_actions) or not self._obs["action_mask"][a]:
            why = f"action {action!r:.40} is not legal here"
            if self.illegal_action == "raise":
                raise IllegalActionError(why)
            self._done = True
            return {k: v.copy() for k, v in self._obs.items()}, -1.0, True, False, {"illegal_action": why}
        obs, mask, player, rewards, terminated, truncated, info = self._env.step(np.array([a], dtype=np.int64))
        seat = int(info["actor"][0])
        reward = float(rewards[0, seat])
        done_t, done_c = bool(terminated[0]), bool(truncated[0])
        if done_t or done_c:
            self._done = True
            out = self._observe(info["final_obs"], info["final_mask"])
            return out, reward, done_t, done_c, {"returns": info["episode_return"][0].copy(), "seat": seat}
        return self._observe(obs, mask), reward, False, False, {"seat": seat}

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return str(self._env.state(0))
        return None


class TapeteVectorEnv(gymnasium.vector.VectorEnv[dict[str, np.ndarray], Any, np.ndarray]):
    """``num_envs`` single-agent matches stepped together in Rust (``tapete.VecEnv``).

    Same-step auto-reset (``metadata["autoreset_mode"] == AutoresetMode.SAME_STEP``): where an
    episode ends, the returned observation is the next match's, and ``infos["final_obs"]`` (with
    ``infos["_final_obs"]``) holds the finished one's last observation. ``infos["episode_return"]``
    and ``infos["episode_length"]`` (with ``infos["_episode"]``) give the learner's return and
    length of the finished episodes. An illegal action raises ``IllegalActionError``, and no
    match changes.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        game: Any,
        num_envs: int,
        seat: int | str = 0,
        opponents: str = "random",
        *,
        seed: int = 0,
        threads: int = 1,
        max_decisions: int | None = None,
    ) -> None:
        self.game = native_game(game)
        self._env = VecEnv(
            self.game, num_envs, seed, seat=seat, opponents=opponents, threads=threads, max_decisions=max_decisions
        )
        self.num_envs = self._env.num_envs
        self.single_observation_space, self.single_action_space = spaces_of(self.game)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._rows = np.arange(self.num_envs)

    @staticmethod
    def _observe(obs: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
        return {"observation": obs.copy(), "action_mask": mask.astype(np.int8)}

    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        if isinstance(seed, list):
            seed = seed[0] if seed else None
        if seed is not None:
            self._np_random, self._np_random_seed = gymnasium.utils.seeding.np_random(seed)
        obs, mask, player = self._env.reset(seed)
        return self._observe(obs, mask), {"seat": player.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        obs, mask, player, rewards, terminated, truncated, info = self._env.step(actions)
        done = terminated | truncated
        reward = rewards[self._rows, info["actor"]].astype(np.float64)
        infos: dict[str, Any] = {"seat": player.copy()}
        if done.any():
            infos["final_obs"] = self._observe(info["final_obs"], info["final_mask"])
            infos["_final_obs"] = done.copy()
            infos["episode_return"] = reward * done
            infos["episode_length"] = np.where(done, info["episode_length"], 0)
            infos["_episode"] = done.copy()
        return self._observe(obs, mask), reward, terminated.copy(), truncated.copy(), infos
