"""The one table of games. Everything generic (``tapete.load``, the package's names, the CLI, the
differential harness, the benchmarks and the generic tests) reads it; a game never appears in
generic code by name.

A game ``g`` lives in ``rust/tapete-core/src/games/g/`` (native engine), ``tapete/g.py`` (its
typed front and rule primitives) and ``tapete/reference/g.py`` (the pure-Python engine), and is
registered by one line below. This module imports neither engine: each is loaded on first use,
so the reference engines still work without the native core.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["GameInfo", "GAMES", "game_info"]


@dataclass(frozen=True)
class GameInfo:
    """One registered game.

    ``option_sets`` are the game's main option sets: every generic test and benchmark runs each of
    them (the first is the game's defaults). ``strategy`` names the hypothesis strategy of option
    sets in ``tapete.testing`` that the differential tests draw from.
    """

    name: str
    class_name: str
    option_sets: tuple[Mapping[str, Any], ...] = field(default=({},))
    strategy: str = ""

    @property
    def primitives(self) -> ModuleType:
        """The native front module: the game class and the rule primitives (``tapete.<name>``)."""
        return import_module(f"tapete.{self.name}")

    @property
    def reference_primitives(self) -> ModuleType:
        """The pure-Python engine module (``tapete.reference.<name>``)."""
        return import_module(f"tapete.reference.{self.name}")

    @property
    def native(self) -> Callable[..., Any]:
        """The native game class, e.g. ``tapete.Escoba``."""
        return getattr(self.primitives, self.class_name)  # type: ignore[no-any-return]

    @property
    def reference(self) -> Callable[..., Any]:
        """The reference game class, e.g. ``tapete.reference.Escoba``."""
        return getattr(self.reference_primitives, self.class_name)  # type: ignore[no-any-return]

    def options_strategy(self) -> Callable[..., Any]:
        """The hypothesis strategy factory of this game's option sets."""
        return getattr(import_module("tapete.testing"), self.strategy or f"{self.name}_options")  # type: ignore[no-any-return]


#: Every game, in the order the documentation lists them.
GAMES: dict[str, GameInfo] = {
    info.name: info
    for info in (
        GameInfo(
            "escoba",
            "Escoba",
            (
                {},
                {"variant": "escoba", "players": 4},
                {"variant": "scopone_9", "players": 4},
                {"variant": "cirulla", "players": 3},
            ),
        ),
        GameInfo("mosca", "Mosca", ({}, {"players": 3}, {"players": 6, "ace_rank": "high"})),
        GameInfo("musta_maija", "MustaMaija", ({}, {"players": 2}, {"variant": "pagat", "players": 6})),
        GameInfo("burako", "Burako", ({}, {"players": 2})),
    )
}


def game_info(name: str) -> GameInfo:
    """The entry of ``name``; an unknown name is an ``InvalidOptionError`` listing the games."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        from .errors import InvalidOptionError

        raise InvalidOptionError(f"unknown game {name!r:.80}: expected one of {', '.join(GAMES)}") from None
