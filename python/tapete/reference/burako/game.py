"""The Burako game object: resolved options and the factory of states (dealing:
docs/burako_engine.md §8; ``setup``: docs/burako_engine.md §12)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ...errors import InvalidStateError
from .._base import ReferenceGame, whole_pack
from .actions import NUM_DISTINCT_ACTIONS
from .setup import setup_state, state_from_json
from .state import BurakoState
from .tiles import PACK, tile_id

__all__ = ["Burako"]


class Burako(ReferenceGame):
    """The Burako game with resolved options; a factory of states."""

    name = "burako"

    def score_sign(self) -> int:
        """Scores are team totals (docs/burako_engine.md §9)."""
        return 1

    num_distinct_actions = NUM_DISTINCT_ACTIONS

    def _observation_size(self) -> int:
        return 4217 + 2 * self.num_players

    def team_of(self, seat: int) -> int:
        """Teams: seats 0 and 2 against 1 and 3; with two players each seat is a team."""
        return seat % 2

    def _deck(self, deck: Any) -> list[int]:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Iterable):
            raise InvalidStateError("deck must be a list of the 106 tiles, top first")
        tiles = [tile_id(t, InvalidStateError) for t in deck]
        return whole_pack(tiles, PACK, "each of the 106 tiles exactly once (two of each type)")

    def _deal(self, seed: int, pack: list[int] | None) -> BurakoState:
        """A new match: the first mano is drawn (unless fixed), then the first hand is dealt
        (docs/burako_engine.md §8)."""
        s = BurakoState(self)
        s._mano = s._first_seat(seed, "first_mano")
        s._start_hand(pack)
        return s

    def setup(
        self,
        racks: Sequence[Iterable[Any]],
        melds: Sequence[Iterable[Iterable[Any]]] | None = None,
        pozo: Iterable[Any] = (),
        stock: Iterable[Any] | None = None,
        muertos: Sequence[Iterable[Any]] | None = None,
        muerto_status: Sequence[Any] | None = None,
        to_move: int = 0,
        mano: int | None = None,
        phase: str = "draw",
        buffer: Iterable[Any] = (),
        turns: int = 1,
        cancels: int = 0,
        totals: Sequence[int] | None = None,
        hand: int = 1,
        seed: int = 0,
    ) -> BurakoState:
        """A position from a partial description, for rules tests (docs/burako_engine.md §12)."""
        return setup_state(
            self,
            racks,
            melds,
            pozo,
            stock,
            muertos,
            muerto_status,
            to_move,
            mano,
            phase,
            buffer,
            turns,
            cancels,
            totals,
            hand,
            seed,
        )

    def state_from_json(self, text: Any) -> BurakoState:
        """Rebuild a state from its JSON, checking everything (docs/burako_engine.md §10)."""
        return state_from_json(self, text)
