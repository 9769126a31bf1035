"""Maresciallo (docs/rules/escoba.md §2.18, ``maresciallo_penalty``): a sweep made by playing the
King of swords ``Ks`` costs 4 points instead of scoring; which sweeps they were is public."""

from __future__ import annotations

from typing import Any

from .._base import StateFields
from .cards import MARESCIALLO
from .position import Feature, Observation, Position


class SweepRecord(Feature):
    """A part that marks some of the sweeps: its field and its JSON key list their indices in
    ``sweeps``; each side's count of them is public (view and observation)."""

    def marked(self, state: Position) -> list[int]:
        return list(getattr(state, self.fields[0]))

    def to_json(self, state: Position) -> dict[str, Any]:
        return {self.keys[0]: self.marked(state)}

    def from_json(self, state: Position, d: StateFields) -> None:
        key = self.keys[0]
        indices = list(d.ints(d[key], key, 0, len(state._sweeps) - 1))
        self.check(state, d, indices)
        setattr(state, self.fields[0], indices)

    def check(self, state: Position, d: StateFields, indices: list[int]) -> None:
        """What else the indices read from a state must satisfy."""

    def per_side(self, state: Position) -> list[int]:
        return [sum(1 for i in self.marked(state) if state._sweeps[i] == s) for s in range(self.game.num_sides)]

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {self.keys[0]: self.per_side(state)}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        obs.block(self.game.num_sides)[:] = self.per_side(state)


class Maresciallo(SweepRecord):
    """``ks_sweeps``: the indices in ``sweeps`` of the sweeps made by playing ``Ks``."""

    option = "maresciallo_penalty"
    fields = ("_ks_sweeps",)
    keys = ("ks_sweeps",)

    def on_sweep(self, state: Position, side: int, card: int, twin: bool) -> None:
        if card == MARESCIALLO:
            state._ks_sweeps.append(len(state._sweeps))

    def check(self, state: Position, d: StateFields, indices: list[int]) -> None:
        # each Ks makes at most one sweep, and it lies in the sweeper's pile
        if len(indices) > (2 if self.game.twins else 1):
            raise d.bad("ks_sweeps may list at most one sweep per Ks")
        if any(MARESCIALLO not in state._piles[state._sweeps[i]] for i in indices):
            raise d.bad("ks_sweeps: a sweep made by playing Ks leaves Ks in the sweeper's pile")
