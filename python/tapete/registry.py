"""The one table of games. Everything generic (``tapete.load``, the package's names, the CLI, the
differential harness, the benchmarks and the generic tests) reads it; a game never appears in
generic code by name.

A game ``g`` lives in ``rust/tapete-core/src/games/g/`` (native engine), ``tapete/g.py`` (its
typed front and rule primitives) and ``tapete/reference/g.py`` (the pure-Python engine), and is
registered by one line below. This module imports neither engine: each is loaded on first use,
so the reference engines still work without the native core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

__all__ = ["GameInfo", "GAMES", "game_info", "factories"]


@dataclass(frozen=True)
class GameInfo:
    """One registered game.

    ``option_sets`` are the game's main option sets, chosen to reach every part of its rules
    (presets, decks, teams, eliminations...): every generic test runs each of them. ``strategy``
    names the hypothesis strategy of option sets in ``tapete.testing`` that the differential tests
    draw from.
    """

    name: str
    class_name: str
    option_sets: tuple[Mapping[str, Any], ...] = field(default=({},))
    strategy: str = ""
    #: What ``scores()`` counts, for tables: "points", or "chips" where scores are chip balances
    #: and returns the net chips won.
    scores_are: str = "points"
    #: True where a match names its losers rather than its winners (musta_maija's one loser): a
    #: return > 0 then means only that the seat did not lose, and tables say so.
    names_losers: bool = False
    #: The option that caps a match's deals or hands, where there is one ("max_hands"): a match
    #: that reaches it ends there, and tables count how many did.
    deal_cap: str = ""
    #: The option set ``bench/`` times, and the OpenSpiel games timed beside it as anchors
    #: (``(name, parameters)``): the closest peers of this game.
    bench: Mapping[str, Any] = field(default_factory=dict)
    peers: tuple[tuple[str, Mapping[str, Any]], ...] = ()

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
                {"variant": "cirulla", "players": 4},
                {"variant": "rubamazzo", "players": 3},
                {"variant": "granja", "players": 2},
                {"variant": "fidasse", "players": 2, "max_deals": 2},
                {"variant": "maresciallo_80"},
                {"variant": "cicera"},
                {"variant": "scopone_romano_contrario", "players": 5},
            ),
            bench={"variant": "scopa"},
            deal_cap="max_deals",
            peers=(("go_fish", {}),),
        ),
        GameInfo(
            "mosca",
            "Mosca",
            (
                {},
                {"players": 3},
                {"players": 6, "ace_rank": "high", "deck": 32},
                {
                    "players": 4,
                    "bankruptcy": "eliminate_at_zero",
                    "initial_chips": 5,
                    "lone_player": "must_play_tricks",
                },
                {"players": 5, "exchange_limit": "reshuffle_discards_when_empty"},
            ),
            scores_are="chips",
            bench={"players": 4},
            peers=(("euchre", {}), ("oh_hell", {})),
        ),
        GameInfo(
            "musta_maija",
            "MustaMaija",
            ({}, {"players": 2}, {"variant": "pagat", "players": 6}, {"beat_optional": False, "players": 3}),
            names_losers=True,
            bench={"players": 4},
            peers=(("crazy_eights", {"players": 4}),),
        ),
        GameInfo(
            "burako",
            "Burako",
            (
                {"match": "single_hand"},
                {"players": 2, "match": "single_hand", "two_player_hand": 15},
                {"match": "single_hand", "pozo_visibility": "top_only", "stock_exhausted": "muerto_becomes_stock"},
                {"players": 2, "max_hands": 2, "target": 1000},
            ),
            # single hands: random play rarely reaches the target, so a default match runs 50 hands
            bench={"players": 4, "match": "single_hand"},
            deal_cap="max_hands",
            peers=(("gin_rummy", {}),),
        ),
    )
}


def game_info(name: str) -> GameInfo:
    """The entry of ``name``; an unknown name is an ``InvalidOptionError`` listing the games."""
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        from .errors import InvalidOptionError

        raise InvalidOptionError(f"unknown game {name!r:.80}: expected one of {', '.join(GAMES)}") from None


class _Factories(Mapping[str, Callable[..., Any]]):
    """Game name -> game class of one engine, each class loaded only when asked for."""

    def __init__(self, engine: str) -> None:
        self._engine = engine

    def __getitem__(self, name: str) -> Callable[..., Any]:
        info = GAMES[name]
        return info.native if self._engine == "native" else info.reference

    def __iter__(self) -> Iterator[str]:
        return iter(GAMES)

    def __len__(self) -> int:
        return len(GAMES)


def factories(engine: str) -> Mapping[str, Callable[..., Any]]:
    """The game classes of ``engine`` ("native" or "reference") by name, loaded lazily."""
    return _Factories(engine)
