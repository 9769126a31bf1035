"""Tile Burako, native engine: ``tapete.Burako`` and the rule primitives.

Rules: docs/rules/burako.md; engine contract: docs/burako_engine.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import _core
from ._native import NativeGame, setup_like
from .reference import burako as _reference
from .reference.burako import NUM_DISTINCT_ACTIONS

__all__ = ["Burako", "BurakoState", "classify_meld", "score_team", "NUM_DISTINCT_ACTIONS"]

BurakoState = _core.BurakoState
TileLike = int | str


class Burako(NativeGame[BurakoState]):
    """Tile Burako for 2 or 4 players: ``Burako(players=2, match="single_hand", **options)``."""

    name = "burako"
    _core_class = _core.BurakoGame

    @property
    def num_sides(self) -> int:
        """Four players play as two teams, seat ``p`` with seat ``p + 2`` (docs/burako_engine.md §1)."""
        return 2 if self.num_players == 4 else self.num_players

    setup = setup_like(_reference.Burako.setup, BurakoState)


def classify_meld(tiles: Iterable[TileLike], **options: Any) -> dict[str, Any] | None:
    """Kind, purity, canasta status and value of a meld, or None when ``tiles`` is not one.

    >>> classify_meld(["R3", "R5", "J*"])   # TV-B04: the joker stands for R4
    {'kind': 'run', 'pure': False, 'canasta': False, 'value': 60}
    """
    info = Burako._primitive("classify_meld", options, tiles=tiles)
    return None if info is None else {key: info[key] for key in ("kind", "pure", "canasta", "value")}


def score_team(
    melds: Iterable[Iterable[TileLike]],
    racks: Iterable[Iterable[TileLike]],
    closed: bool,
    muerto_taken: bool,
    **options: Any,
) -> int:
    """One team's hand score (docs/rules/burako.md §7) from its melds and its players' racks (a held
    muerto included)."""
    args = {"melds": melds, "racks": racks, "closed": closed, "muerto_taken": muerto_taken}
    return int(Burako._primitive("score_team", options, **args))
