"""Hand declarations (docs/rules/escoba.md §2.7, §2.8): the tuzzoli declared for every hand dealt,
and the knocks a player may make on the first turn of a hand of three. Both are announced, not
shown: every seat sees the seat, the declaration and its points."""

from __future__ import annotations

from typing import Any

from ...errors import InvalidOptionError
from .._base import StateFields
from .cards import KNOCK, NO_KNOCK
from .position import Feature, Observation, Position
from .scoring import KNOCKS, TUZZOLI, _decl, _knock_best, _tuzzoli_kind

#: A deal has at most 24 declarations (docs/escoba_engine.md §8).
MAX_DECLARATIONS = 24


class Declarations(Feature):
    """``declarations``: [seat, kind, at] per declaration, ``at`` the sweeps made before it; with
    knocks ``knock_state``: each seat's choice this hand (0 undecided, 1 no knock, 2 knocked)."""

    fields = ("_decls",)
    actions = range(KNOCK, NO_KNOCK + 1)
    keys: tuple[str, ...] = ("declarations",)

    @classmethod
    def check_options(cls, opts: dict[str, Any]) -> None:
        """Both declare hands of three cards (docs/rules/escoba.md §2.7, §2.8)."""
        if opts["knocks"] and opts["target_mode"] == "eliminate":
            raise InvalidOptionError(
                "option knocks declares 3-card hands, which the deals with players eliminated"
                " (target_mode=eliminate) do not keep"
            )
        if opts["tuzzoli"] and opts["target_mode"] == "eliminate":
            raise InvalidOptionError(
                "option tuzzoli declares 3-card hands, which the deals with players eliminated"
                " (target_mode=eliminate) do not keep"
            )
        if opts["tuzzoli"] and opts["cards_per_hand"] != 3:
            raise InvalidOptionError(
                "option tuzzoli declares 3-card hands (docs/rules/escoba.md §2.8):"
                f" cards_per_hand must be 3, got {opts['cards_per_hand']}"
            )
        if opts["knocks"] and opts["cards_per_hand"] != 3:
            raise InvalidOptionError(
                "option knocks declares 3-card hands (docs/rules/escoba.md §2.7):"
                f" cards_per_hand must be 3, got {opts['cards_per_hand']}"
            )

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        o = game._opts
        if game.knocks:
            self.keys = ("declarations", "knock_state")
        self.kinds = (set(TUZZOLI) - {0} if o["tuzzoli"] else set()) | (set(KNOCKS) if game.knocks else set())

    @classmethod
    def wanted(cls, opts: dict[str, Any]) -> bool:
        return bool(opts["tuzzoli"] or opts["knocks"])

    def new_hand(self, state: Position) -> None:
        """Every seat decides anew whether to knock; the mandatory tuzzoli of every hand just
        dealt, in play order (docs/escoba_engine.md §5)."""
        n = self.game.num_players
        state._knock_state = [0] * n
        if not state._o["tuzzoli"]:
            return
        for i in range(1, n + 1):
            seat = (state._dealer + i) % n
            kind = _tuzzoli_kind(state._hands[seat], state._o["tuzzoli_hybrids"])
            if kind:
                state._decls.append([seat, kind, len(state._sweeps)])

    def asks(self, state: Position) -> list[int]:
        """With knocks, the mover first chooses KNOCK or NO_KNOCK on the first turn of a hand of
        three that has something to declare (docs/rules/escoba.md §2.7)."""
        if not self.game.knocks or state._terminal or state._pending != -1:
            return []
        seat = state._to_move
        hand = state._hands[seat]
        if state._knock_state[seat] == 0 and len(hand) == 3 and _knock_best(hand, state._o)[0] != 0:
            return [KNOCK, NO_KNOCK]
        return []

    def step(self, state: Position, action: int) -> None:
        """A knock declares the hand's best knock and shows the hand; a matta in it plays at the
        value that knock gave it (docs/rules/escoba.md §2.7)."""
        seat = state._to_move
        if action == NO_KNOCK:
            state._knock_state[seat] = 1
            return
        kind, value = _knock_best(state._hands[seat], state._o)
        state._decls.append([seat, kind, len(state._sweeps)])
        if self.game.matta in state._hands[seat]:
            state._matta_value = value
        state._knock_state[seat] = 2

    def to_json(self, state: Position) -> dict[str, Any]:
        out: dict[str, Any] = {"declarations": [list(d) for d in state._decls]}
        if self.game.knocks:
            out["knock_state"] = list(state._knock_state)
        return out

    def from_json(self, state: Position, d: StateFields) -> None:
        n, kinds = self.game.num_players, self.kinds
        if not isinstance(d["declarations"], list) or len(d["declarations"]) > MAX_DECLARATIONS:
            raise d.bad(f"declarations must be a list of at most {MAX_DECLARATIONS} [seat, kind, at] entries")
        decls: list[list[int]] = []
        for i, e in enumerate(d["declarations"]):
            if not isinstance(e, list) or len(e) != 3:
                raise d.bad(f"declarations[{i}] must be [seat, kind, at]")
            seat, kind, at = d.ints(e, f"declarations[{i}]", 0, None)
            last = decls[-1][2] if decls else 0
            made = len(state._sweeps)
            if seat >= n or kind not in kinds or not last <= at <= made:
                raise d.bad(f"declarations[{i}] must be [seat 0..{n - 1}, kind in {sorted(kinds)}, at {last}..{made}]")
            decls.append([seat, kind, at])
        state._decls = decls
        if self.game.knocks:
            state._knock_state = list(d.ints(d.per("knock_state", n), "knock_state", 0, 2))

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        named = [(s, *_decl(kind, state._o)) for s, kind, _ in state._decls]
        return {"declarations": [{"seat": s, "declaration": name, "points": pts} for s, name, pts in named]}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        block = obs.block(self.game.num_sides)  # declared points per side
        for s, kind, _ in state._decls:
            block[self.game.side_of(s)] += _decl(kind, state._o)[1]
