"""Builds (docs/rules/escoba.md §2.20, option ``builds``): a card laid on a table item makes a build
of their total, at most 10, that only a card of that value takes. Builds are public."""

from __future__ import annotations

from typing import Any

from ...cards import card_str
from ...errors import InvalidOptionError
from .._base import StateFields
from .captures import MAX_BUILD_VALUE, _build_value
from .cards import _slot
from .position import Feature, Observation, Position
from .state_json import read_cards

#: A table holds at most 20 builds (docs/escoba_engine.md §8).
MAX_BUILDS = 20


class Builds(Feature):
    """``builds``: each build's cards ascending, the builds ascending by their lowest card (its
    name as a table item, docs/escoba_engine.md §3b)."""

    option = "builds"
    fields = ("_builds",)
    keys = ("builds",)
    refusing = "builds=true (docs/rules/escoba.md §2.20)"

    @classmethod
    def check_options(cls, opts: dict[str, Any]) -> None:
        if opts["value_modulus"] is not None:
            raise InvalidOptionError(
                "option builds adds plain values (docs/rules/escoba.md §2.20): value_modulus must be null with builds"
            )
        super().check_options(opts)

    @classmethod
    def clashes(cls, opts: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """A build adds plain values; piles and claims have no build rules."""
        return (
            ("matta", opts["matta"] is not None),
            ("steal", opts["steal"]),
            ("fidasse", opts["fidasse"]),
        )

    def to_json(self, state: Position) -> dict[str, Any]:
        return {"builds": [list(b) for b in state._builds]}

    def from_json(self, state: Position, d: StateFields) -> None:
        if not isinstance(d["builds"], list) or len(d["builds"]) > MAX_BUILDS:
            raise d.bad(f"builds must be a list of at most {MAX_BUILDS} builds")
        builds = [read_cards(d, self.game, b, f"builds[{i}]", True) for i, b in enumerate(d["builds"])]
        for b in builds:
            if len(b) < 2 or _build_value(b) > MAX_BUILD_VALUE:
                raise d.bad(f"a build holds at least 2 cards worth at most {MAX_BUILD_VALUE} in all")
        if any(a[0] >= b[0] for a, b in zip(builds, builds[1:])):
            raise d.bad("builds must be ascending by their lowest card")
        state._builds = [list(b) for b in builds]

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {
            "builds": [{"cards": [card_str(c) for c in sorted(b)], "value": _build_value(b)} for b in state._builds]
        }

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        block = obs.block(self.game.slots)
        for b in state._builds:  # each card in a build carries the build's value
            for c in b:
                block[_slot(c, self.game.slots)] = _build_value(b)
