"""Tile Burako, native engine: ``tapete.Burako`` and the rule primitives.

The game object is a thin typed front over ``tapete._core.BurakoGame``; states are the native
``BurakoState`` objects themselves, so that stepping from Python costs one call per action.
Rules: ``rules/burako.md``; engine contract: ``docs/burako_engine.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from . import _core
from ._gamestring import format_game, options_to_json
from ._setup import seed_value, setup_json
from .errors import InvalidStateError

__all__ = ["Burako", "BurakoState", "classify_meld", "score_team", "NUM_DISTINCT_ACTIONS"]

BurakoState = _core.BurakoState
TileLike = int | str
NUM_DISTINCT_ACTIONS = 1966


class Burako:
    """Tile Burako for 2 or 4 players: ``Burako(players=2, match="single_hand", **options)``."""

    name = "burako"

    def __init__(self, **options: Any) -> None:
        self._game = _core.BurakoGame(options_to_json(options))
        self.options: dict[str, Any] = json.loads(self._game.options_json)

    @property
    def num_players(self) -> int:
        return self._game.num_players

    @property
    def num_distinct_actions(self) -> int:
        return self._game.num_distinct_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return tuple(self._game.observation_shape)

    def new_state(self, seed: int = 0, deck: Sequence[TileLike] | None = None) -> BurakoState:
        """Deal a new match with the seeded RNG; ``deck`` fixes the first hand's order (top first)."""
        return self._game.new_state(seed_value(seed, InvalidStateError), deck)

    def setup(
        self,
        racks: Sequence[Iterable[TileLike]],
        melds: Sequence[Iterable[Iterable[TileLike]]] | None = None,
        pozo: Iterable[TileLike] = (),
        stock: Iterable[TileLike] | None = None,
        muertos: Sequence[Iterable[TileLike]] | None = None,
        muerto_status: Sequence[Any] | None = None,
        to_move: int = 0,
        mano: int | None = None,
        phase: str = "draw",
        buffer: Iterable[TileLike] = (),
        turns: int = 1,
        cancels: int = 0,
        totals: Sequence[int] | None = None,
        hand: int = 1,
        seed: int = 0,
    ) -> BurakoState:
        """A position from a partial description, for rules tests (docs/burako_engine.md §12)."""
        spec = setup_json(
            racks=racks,
            melds=melds,
            pozo=pozo,
            stock=stock,
            muertos=muertos,
            muerto_status=muerto_status,
            to_move=to_move,
            mano=mano,
            phase=phase,
            buffer=buffer,
            turns=turns,
            cancels=cancels,
            totals=totals,
            hand=hand,
            seed=seed,
        )
        return self._game.setup(spec)

    def state_from_json(self, text: str) -> BurakoState:
        """Rebuild a state from ``state.to_json()``."""
        if not isinstance(text, str):
            raise InvalidStateError(f"a state is JSON text, not {type(text).__name__}")
        return self._game.state_from_json(text)

    def __str__(self) -> str:
        return format_game(self.name, self.options, Burako)

    def __repr__(self) -> str:
        return f"tapete.load({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Burako) and other.options == self.options

    def __hash__(self) -> int:
        return hash(self._game.options_json)


def classify_meld(tiles: Iterable[TileLike], **options: Any) -> dict[str, Any] | None:
    """Kind, purity, canasta status and value of a meld, or None when ``tiles`` is not one.

    >>> classify_meld(["R3", "R5", "J*"])   # TV-B04: the joker stands for R4
    {'kind': 'run', 'pure': False, 'canasta': False, 'value': 60}
    """
    r = _core.burako_classify_meld(tiles, options_to_json(options))
    if r is None:
        return None
    kind, pure, canasta, value = r
    return {"kind": kind, "pure": pure, "canasta": canasta, "value": value}


def score_team(
    melds: Iterable[Iterable[TileLike]],
    racks: Iterable[Iterable[TileLike]],
    closed: bool,
    muerto_taken: bool,
    **options: Any,
) -> int:
    """One team's hand score (docs/rules/burako.md §7) from its melds and its players' racks (a held muerto
    included)."""
    return _core.burako_score_team(melds, racks, closed, muerto_taken, options_to_json(options))
