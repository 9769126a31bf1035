"""The registry of native games: ``tapete.load`` and ``tapete.simulate``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from . import _core
from ._gamestring import parse_game
from ._setup import seed_value
from .burako import Burako
from .errors import InvalidOptionError
from .escoba import Escoba
from .mosca import Mosca
from .musta_maija import MustaMaija

__all__ = ["GAMES", "load", "simulate"]

GAMES: dict[str, Callable[..., Any]] = {"escoba": Escoba, "mosca": Mosca, "musta_maija": MustaMaija, "burako": Burako}

_SIMULATORS = {
    Escoba: _core.simulate_escoba,
    Mosca: _core.simulate_mosca,
    MustaMaija: _core.simulate_musta_maija,
    Burako: _core.simulate_burako,
}


def load(text: str) -> Any:
    """A game from its game string, e.g. ``load("escoba(variant=escoba,players=4)")``."""
    return parse_game(text, GAMES)


def simulate(
    game: Any, games: int = 1000, seed: int = 0, bots: str = "random", threads: int = 0
) -> dict[str, np.ndarray]:
    """Play ``games`` whole matches natively, with the GIL released and on ``threads`` cores (0 = all).

    Game ``i`` is dealt with seed ``seed + i``, so results do not depend on the thread count or on
    how a run is split into calls. Returns numpy arrays: ``returns`` (games, seats), ``scores``
    (games, seats), ``deals`` (games,), ``decisions`` (games,), ``finished`` (games,): False when a
    match reached the cap of 1,000,000 decisions unfinished (possible only under option sets that
    never let anyone win; its returns are then all 0).
    """
    if isinstance(game, str):
        game = load(game)
    simulator = _SIMULATORS.get(type(game))
    if simulator is None:
        raise InvalidOptionError(
            f"cannot simulate {game!r}: expected a native game such as tapete.Escoba() or tapete.Mosca()"
        )
    if bots != "random":
        raise InvalidOptionError(f"unknown bots {bots!r}: expected 'random'")
    # games and threads are checked by the native call; 0 threads is rayon's pool of all cores
    return simulator(game._game.options_json, games, seed_value(seed), threads)
