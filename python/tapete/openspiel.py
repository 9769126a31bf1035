"""The OpenSpiel adapter (``pip install tapete[openspiel]``; docs/envs.md §7): ``register()``
registers every game as ``tapete_<game>``, so that ``pyspiel.load_game("tapete_escoba(variant=escoba)")``
works and OpenSpiel's Python algorithms run on it.

The games are Python games to OpenSpiel, stepping the native states: their randomness (the deal)
is inside the state (``SAMPLED_STOCHASTIC``), utilities are the states' zero-sum returns, and a
terminal state's ``current_player()`` is OpenSpiel's ``TERMINAL`` (-4). Options are the game
string's parameters: every option with a scalar default is a typed parameter, and ``options``
takes a JSON object for the rest (``tapete_escoba(options={"capture_kinds":["match"]})``).
``seed`` seeds the stream that deals each ``new_initial_state()``.

OpenSpiel's C++ ``MCTSBot`` and ``ISMCTSBot`` cannot run on games registered from Python: they
release the GIL and call back into Python, and crash. Use the Python bots
(``open_spiel.python.algorithms.mcts.MCTSBot`` and its ``ISMCTSBot``) instead.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from ._game import MAX_DECISIONS
from ._options import spec
from ._vecenv import native_game
from .errors import InvalidOptionError
from .registry import GAMES

__all__ = ["register", "game_type", "PREFIX"]

PREFIX = "tapete_"
#: A loose bound on the returns of games whose returns are chip counts (OpenSpiel asks for one).
CHIP_UTILITY_BOUND = 1e12


def _parameters(name: str) -> dict[str, Any]:
    """OpenSpiel parameters of a game: its options with scalar defaults, then ``options`` (JSON
    for the rest) and ``seed``."""
    s = spec(name)
    params: dict[str, Any] = {}
    for option, default in s.defaults.items():
        if isinstance(default, (bool, int, float, str)):
            params[option] = default
        elif default is None and s.options[option]["kind"] == "int" and "min" in s.options[option]:
            params[option] = s.options[option]["min"] - 1  # out of range: stands for null
        elif default is None and s.options[option]["kind"] in ("card", "word"):
            params[option] = ""  # stands for null
    params["options"] = "{}"
    params["seed"] = 0
    return params


def game_type(name: str) -> Any:
    """The ``pyspiel.GameType`` of a registered tapete game."""
    players = spec(name).players_of(None)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"tapete {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players),
        min_num_players=min(players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(name),
    )


class _Game(pyspiel.Game):  # type: ignore[misc]
    """One tapete game under OpenSpiel (subclassed per game, naming it)."""

    _tapete_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self._tapete_name
        params = dict(params or {})
        defaults = _parameters(name)
        try:
            extra = json.loads(params.pop("options", "{}"))
        except (TypeError, ValueError):
            raise InvalidOptionError("the parameter options must be a JSON object") from None
        if not isinstance(extra, dict):
            raise InvalidOptionError("the parameter options must be a JSON object")
        seed = int(params.pop("seed", 0))
        # OpenSpiel fills in every default: pass on only the values that differ from them, so that a
        # preset's own values stand (docs/envs.md §7)
        given = {k: v for k, v in params.items() if k in defaults and v != defaults[k]}
        self.tapete = native_game(GAMES[name].native(**(extra | given)))
        n = self.tapete.num_players
        bound = CHIP_UTILITY_BOUND if GAMES[name].scores_are == "chips" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=self.tapete.num_distinct_actions,
            max_chance_outcomes=0,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=MAX_DECISIONS,
        )
        super().__init__(game_type(name), info, {**params, "options": json.dumps(extra), "seed": seed})
        self._rng = np.random.default_rng(seed)

    def new_initial_state(self) -> _State:
        return _State(self, self.tapete.new_state(int(self._rng.integers(0, 2**63))))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self)


class _State(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: _Game, state: Any) -> None:
        super().__init__(game)
        self.tapete = state

    def current_player(self) -> int:
        p = self.tapete.current_player()
        return int(pyspiel.PlayerId.TERMINAL) if p < 0 else int(p)

    def _legal_actions(self, player: int) -> list[int]:
        if self.tapete.is_terminal() or player != self.tapete.current_player():
            return []
        return list(self.tapete.legal_actions())

    def _apply_action(self, action: int) -> None:
        self.tapete.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        # as that seat reads it: Mosca's notation of an exchange names the mover's cards
        if 0 <= player < self.get_game().num_players():
            return str(self.tapete.for_seat(player).action_to_string(int(action)))
        return str(self.tapete.action_to_string(int(action)))

    def is_terminal(self) -> bool:
        return bool(self.tapete.is_terminal())

    def returns(self) -> list[float]:
        return [float(r) for r in self.tapete.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> _State:
        """A state in ``player_id``'s information set, from the layer's ``resample``
        (docs/design.md §10); OpenSpiel's ``ISMCTSBot`` calls this. The seed comes from OpenSpiel's
        sampler, so its bot stays reproducible under its own seed."""
        seed = int(probability_sampler() * 2**63) if callable(probability_sampler) else 0
        return _State(self.get_game(), self.tapete.resample(player_id, seed))

    def __str__(self) -> str:
        return str(self.tapete)


class _Observer:
    """What a seat sees: the observation vector as the tensor, the view JSON as the string."""

    def __init__(self, game: _Game) -> None:
        self.tensor = np.zeros(game.tapete.observation_shape, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: _State, player: int) -> None:
        self.tensor[:] = state.tapete.observation(player)

    def string_from(self, state: _State, player: int) -> str:
        return json.dumps(state.tapete.view(player), sort_keys=True, separators=(",", ":"))


_registered: set[str] = set()


def register() -> list[str]:
    """Registers every tapete game with OpenSpiel as ``tapete_<game>``; returns the names.
    Calling it again does nothing."""
    for name in GAMES:
        if name in _registered:
            continue
        # a class per game, as OpenSpiel's own Python games register (a closure as the factory
        # is released after the interpreter has gone, and aborts the process at exit)
        cls = type(f"_{name.title().replace('_', '')}Game", (_Game,), {"_tapete_name": name})
        pyspiel.register_game(game_type(name), cls)
        _registered.add(name)
    return [PREFIX + name for name in GAMES]
