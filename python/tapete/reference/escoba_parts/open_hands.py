"""Hands played face up: a knocked hand (docs/rules/escoba.md §2.7) and, with ``last_hand_open``,
every hand of the deal's last hand (docs/rules/escoba.md §2.23); and the matta's value, which a
knock may have fixed (docs/rules/escoba.md §2.9)."""

from __future__ import annotations

from typing import Any

from ...cards import card_str
from .._base import StateFields
from .position import Feature, Observation, Position


class OpenHands(Feature):
    """The shown hands in the view and the observation (the cards are the hands' own)."""

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return bool(opts["knocks"] or opts["last_hand_open"])

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {"shown": [[card_str(c) for c in sorted(state._shown(s))] for s in range(self.game.num_players)]}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        n, C = self.game.num_players, self.game.slots
        block = obs.block(C * n + 1)
        for s in range(n):
            obs.cards(block, C * s, state._shown(s))
        block[C * n] = state._matta_value


class Matta(Feature):
    """``matta_value``: the value 1..10 the matta plays at this deal (its own unless a knock
    fixed another)."""

    fields = ("_matta_value",)
    keys = ("matta_value",)

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return opts["matta"] is not None

    def to_json(self, state: Position) -> dict[str, Any]:
        return {"matta_value": state._matta_value}

    def from_json(self, state: Position, d: StateFields) -> None:
        state._matta_value = d.integer("matta_value", 1, 10)

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {"matta_value": state._matta_value}
