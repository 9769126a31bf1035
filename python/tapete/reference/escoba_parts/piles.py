"""The piles of rubamazzo (docs/rules/escoba.md §2.21, option ``steal``): a capture may take an
opponent's whole pile, worth its top card; every pile's top card is public."""

from __future__ import annotations

from typing import Any

from ...cards import card_str
from ...errors import InvalidStateError
from .._base import StateFields
from .captures import PILE0
from .position import Feature, Observation, Position
from .positions import _read_pile_tops


class Piles(Feature):
    """``pile_tops``: each side's top card, -1 for an empty pile."""

    option = "steal"
    fields = ("_tops",)
    keys = ("pile_tops",)
    refusing = "steal=true (rubamazzo, docs/rules/escoba.md §2.21)"

    @classmethod
    def clashes(cls, opts: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """What the piles refuse (docs/rules/escoba.md §2.21)."""
        return (
            ("capture_kinds other than match and sum", any(k not in ("match", "sum") for k in opts["capture_kinds"])),
            ("value_modulus", opts["value_modulus"] is not None),
            ("fewest_cards other than none", opts["fewest_cards"] != "none"),
            ("ace_takes_all (use ace_steals_all)", opts["ace_takes_all"]),
            ("target_mode=eliminate", opts["target_mode"] == "eliminate"),
            ("matta", opts["matta"] is not None),
            ("initial_table_bonus (a pile would have no top card)", opts["initial_table_bonus"] != "none"),
        )

    def on_capture(self, state: Position, side: int, card: int, outcome: tuple[int, ...]) -> None:
        """A pile taken moves whole under the played card, which tops the capturer's pile."""
        for x in outcome:
            if x >= PILE0:
                victim = x - PILE0
                state._piles[side] |= state._piles[victim]
                state._piles[victim] = set()
                state._tops[victim] = -1
        state._tops[side] = card

    def to_json(self, state: Position) -> dict[str, Any]:
        return {"pile_tops": list(state._tops)}

    def from_json(self, state: Position, d: StateFields) -> None:
        piles = [sorted(p) for p in state._piles]
        state._tops = _read_pile_tops(self.game, d["pile_tops"], piles, InvalidStateError, json_form=True)

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        return {"pile_tops": [card_str(t) if t != -1 else None for t in state._tops]}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        C, S = self.game.slots, self.game.num_sides
        block = obs.block((C + 1) * S)  # every pile top, then the piles selected
        for s, top in enumerate(state._tops):
            if top != -1:
                obs.cards(block, C * s, [top])
        for x in state._selection:
            if x >= PILE0:
                block[C * S + x - PILE0] = 1.0
