"""``tapete.load`` and ``tapete.simulate``, for every registered game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import _core
from ._game import shown
from ._gamestring import parse_game
from ._native import NativeGame, seed_value
from .errors import InvalidOptionError
from .registry import factories

__all__ = ["load", "simulate"]


def load(text: str) -> Any:
    """A native game from its game string, e.g. ``load("escoba(variant=escoba,players=4)")``."""
    return parse_game(text, factories("native"))


def simulate(
    game: Any,
    games: int = 1000,
    seed: int = 0,
    bots: str = "random",
    threads: int = 0,
    *,
    progress: Callable[[int, int], object] | None = None,
    aggregate: bool = False,
) -> dict[str, Any]:
    """Play ``games`` whole matches natively, with the GIL released and on ``threads`` cores (0 = all).

    Game ``i`` is dealt with seed ``seed + i``, so results do not depend on the thread count or on
    how a run is split into calls. Returns numpy arrays: ``returns`` (games, seats), ``scores``
    (games, seats), ``deals`` (games,), ``decisions`` (games,), ``finished`` (games,): False when a
    match reached the cap of 1,000,000 decisions unfinished (possible only under option sets that
    never let anyone win; its returns are then all 0). A batch whose arrays would not fit in the
    memory available is refused (``InvalidOptionError`` saying how much it needs) before anything
    is allocated.

    ``aggregate=True`` keeps no per-game arrays (constant memory, any batch size) and returns the
    totals instead: ``games``, per seat ``returns_sum``, ``scores_sum``, ``wins`` (return > 0) and
    ``losses`` (return < 0), and ``draws``, ``unfinished``, ``deals_sum``, ``decisions_sum``.

    The batch runs in chunks of about 20 ms; after each, ``progress(done, total)`` is called (if
    given) and signals are handled: Ctrl-C raises ``KeyboardInterrupt`` within about 100 ms, with
    attributes ``result`` (this function's result for the games finished, always the first
    ``done`` games of the batch), ``done`` and ``total``.
    """
    if isinstance(game, str):
        game = load(game)
    if not isinstance(game, NativeGame):
        raise InvalidOptionError(
            f"cannot simulate {game!r:.80}: expected a native game such as tapete.Escoba() or tapete.Mosca()"
        )
    if bots != "random":
        raise InvalidOptionError(f"unknown bots {bots!r:.80}: expected 'random'")
    if not isinstance(aggregate, bool):
        raise InvalidOptionError(f"aggregate must be a bool, got {shown(aggregate)}")
    # games and threads are checked by the native call; 0 threads is rayon's pool of all cores
    return _core.simulate(
        game._game,
        games,
        seed_value(seed, InvalidOptionError),
        threads,
        progress=progress,
        aggregate=aggregate,
    )
