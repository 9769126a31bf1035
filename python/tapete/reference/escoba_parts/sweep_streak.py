"""A cap on one side's consecutive sweeps (docs/rules/escoba.md §1.5, ``max_consecutive_sweeps``):
a sweep that takes the side's run of sweeps beyond the cap scores nothing. Each side's run this
deal is public."""

from __future__ import annotations

from typing import Any

from .._base import StateFields
from .position import Feature, Observation, Position


class SweepStreak(Feature):
    """``sweep_streak``: each side's run of sweeps this deal (a play without one ends it)."""

    fields = ("_streak",)
    keys = ("sweep_streak",)

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return opts["max_consecutive_sweeps"] is not None

    def sweep_scores(self, state: Position, side: int) -> bool:
        state._streak[side] += 1
        return bool(state._streak[side] <= state._o["max_consecutive_sweeps"])

    def to_json(self, state: Position) -> dict[str, Any]:
        return {"sweep_streak": list(state._streak)}

    def from_json(self, state: Position, d: StateFields) -> None:
        # a side plays at most the pack
        streak = d.ints(d.per("sweep_streak", self.game.num_sides), "sweep_streak", 0, self.game.size)
        state._streak = list(streak)

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {"sweep_streak": list(state._streak)}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        cap = state._o["max_consecutive_sweeps"]  # each side's run over the cap, at most 1
        obs.block(self.game.num_sides)[:] = [min(k / cap, 1.0) for k in state._streak]
