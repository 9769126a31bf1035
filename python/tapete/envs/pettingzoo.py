"""The PettingZoo adapter (``pip install tapete[pettingzoo]``; docs/envs.md §6): an AEC
environment per game, every seat an agent, following PettingZoo's classic card environments."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
from pettingzoo.utils import AgentSelector  # type: ignore[import-untyped, import-not-found, unused-ignore]

from .._native import seed_value
from .._vecenv import cap_ended, native_game
from ..errors import IllegalActionError, InvalidOptionError, InvalidStateError

__all__ = ["TapeteAECEnv"]


class TapeteAECEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no types
    """One match of ``game``; agents ``player_0`` .. ``player_{n-1}`` are the seats.

    ``observe(agent)`` is ``{"observation": float32 vector (the seat's observation), "action_mask":
    int8 vector}``; the mask is all zeros for an agent who is not to move. Rewards come only at
    the end: every agent gets its return in the step that ends the match. Then, as in PettingZoo's
    classic environments, each agent in turn is selected once more with ``terminations`` (or
    ``truncations``, for a match ended by a cap: docs/envs.md §3) set, and must step ``None``
    (the dead step) to leave. An illegal action raises ``IllegalActionError`` and changes nothing.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "tapete", "is_parallelizable": False}

    def __init__(self, game: Any, *, max_decisions: int | None = None, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = native_game(game)
        if render_mode not in (None, "ansi"):
            raise InvalidOptionError(f"render_mode={render_mode!r:.40}: expected None or 'ansi'")
        if max_decisions is not None and (not isinstance(max_decisions, int) or max_decisions < 1):
            raise InvalidOptionError(f"max_decisions={max_decisions!r:.40}: expected an int >= 1 or None")
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.metadata = {**self.metadata, "name": f"tapete_{self.game.name}"}
        n = self.game.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        size, actions = self.game.observation_shape[0], self.game.num_distinct_actions
        space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed_value(seed, InvalidOptionError))
        self.state = self.game.new_state(int(self._rng.integers(0, 2**63)))
        self.decisions = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._agent_selector = AgentSelector(self.agents)
        self.agent_selection = self.possible_agents[self.state.current_player()]

    def _started(self) -> None:
        if self.state is None:
            raise InvalidStateError("no match yet: call reset() first")

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        self._started()
        if agent not in self.possible_agents:
            raise InvalidOptionError(f"{agent!r:.40} is not an agent of this game")
        seat = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if not self.state.is_terminal() and self.state.current_player() == seat:
            mask[self.state.legal_mask()] = 1
        return {"observation": self.state.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        self._started()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        try:
            a = int(action)
        except (TypeError, ValueError, OverflowError):
            raise IllegalActionError(f"{action!r:.40} is not an action id") from None
        if a != action:
            raise IllegalActionError(f"{action!r:.40} is not an action id")
        self.state.apply(a)  # an illegal action raises here, the state unchanged
        self.decisions += 1
        self._cumulative_rewards[agent] = 0.0
        over = self.state.is_terminal()
        cut = not over and self.max_decisions is not None and self.decisions >= self.max_decisions
        if over or cut:
            returns = self.state.returns() if over else [0.0] * len(self.agents)
            capped = cut or cap_ended(self.game, self.state)
            for i, name in enumerate(self.agents):
                self.rewards[name] = float(returns[i])
                self.terminations[name] = not capped
                self.truncations[name] = capped
            self._accumulate_rewards()
            self._agent_selector.reinit(self.agents)
            self.agent_selection = self._agent_selector.next()
            self._deads_step_first()
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self.possible_agents[self.state.current_player()]

    def render(self) -> str | None:
        if self.render_mode == "ansi" and self.state is not None:
            return str(self.state)
        return None

    def close(self) -> None:
        pass
