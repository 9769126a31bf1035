"""Elimination (docs/rules/escoba.md §2.11, ``target_mode = eliminate``): a side reaching the
target leaves the match; the seats still in play are public."""

from __future__ import annotations

from typing import Any

from .._base import StateFields
from .position import Feature, Observation, Position
from .positions import _check_in_play


class Elimination(Feature):
    """``in_play``: the seats still in the match, as a bit mask."""

    keys = ("in_play",)

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return bool(opts["target_mode"] == "eliminate")

    def to_json(self, state: Position) -> dict[str, Any]:
        return {"in_play": sum(1 << t for t in state._in_play)}

    def from_json(self, state: Position, d: StateFields) -> None:
        g, n = self.game, self.game.num_players
        mask = d.integer("in_play", 1, (1 << n) - 1)
        seats_in = {t for t in range(n) if mask >> t & 1}
        if state._terminal:
            winner = state._winner
            ok = seats_in == {t for t in range(n) if g.side_of(t) == winner} if winner != -1 else len(seats_in) >= 2
            if not ok:
                raise d.bad("in_play does not fit a finished match (the winner's seats, else 2 or more)")
        else:
            _check_in_play(seats_in, state._hands, state._dealer, state._to_move)
        state._in_play = seats_in

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {"in_play": sorted(state._in_play)}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        block = obs.block(self.game.num_players)
        for t in state._in_play:
            block[t] = 1.0
