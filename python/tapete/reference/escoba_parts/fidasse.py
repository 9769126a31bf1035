"""Fidasse (docs/rules/escoba.md §2.19; docs/escoba_engine.md §4b): claims on trust, the questions to the
opponents, and the claim cards face down to the other seats."""

from __future__ import annotations

from typing import Any

from ...cards import card_str
from .._base import StateFields
from .captures import _captures
from .cards import CLAIM0, DOUBT, TRUST
from .position import Feature, Observation, Position
from .state_json import read_cards
from .turns import pass_turn, sweep

# -- fidasse (docs/rules/escoba.md §2.19) -----------------------------------------------------------------


def is_last_play(state: Position) -> bool:
    """The play about to be made is the last of the deal."""
    held = len(state._hands[state._to_move]) + (state._pending != -1)
    others = any(h for s, h in enumerate(state._hands) if s != state._to_move)
    return not state._stock and held == 1 and not others


def sweep_filtered(state: Position) -> bool:
    """A play may not take the whole table: it is claimed instead, face down (not on the last play)."""
    return state._o["fidasse"] and bool(state._table) and not is_last_play(state)


def next_asked(state: Position, seat: int) -> int:
    """The next opponent of the claimant after ``seat``, before the claimant; -1 if none."""
    n, side_of = state.game.num_players, state.game.side_of
    for k in range(1, n):
        t = (seat + k) % n
        if t == state._claimant:
            break
        if side_of(t) != side_of(state._claimant) and t in state._in_play:
            return t
    return -1


def step_fidasse(state: Position, a: int) -> None:
    """A claim, or an opponent's answer to the open claim."""
    if CLAIM0 <= a < CLAIM0 + 52:
        seat = state._to_move
        state._hands[seat].discard(a - CLAIM0)
        state._claim, state._claimant = a - CLAIM0, seat
        asked = next_asked(state, seat)
        state._to_move = asked if asked != -1 else seat
        return
    card, claimant = state._claim, state._claimant
    side = state.game.side_of(claimant)
    if a == TRUST:
        asked = next_asked(state, state._to_move)
        if asked != -1:
            state._to_move = asked
            return
        state._claimed[claimant].add(card)
        claim_stands(state, card, side)
    else:  # DOUBT: the card is shown
        doubter = state.game.side_of(state._to_move)
        if tuple(sorted(state._table)) in _captures(card, state._table, state._o, state._matta()):
            state._scores[doubter] -= 1
            claim_stands(state, card, side)
        else:  # cancelled: the card trails, the claimant's side loses a point
            state._table.add(card)
            state._scores[side] -= 1
            state._streak[side] = 0
    state._claim = state._claimant = -1
    state._to_move = claimant
    pass_turn(state)


def claim_stands(state: Position, card: int, side: int) -> None:
    state._piles[side] |= state._table | {card}
    state._table = set()
    state._last_capturer = side
    sweep(state, side, card)


class Fidasse(Feature):
    """``claim``, ``claimant``: the claim waiting for answers and its claimant (-1: none);
    ``claimed``: per claimant, the trusted claim cards of this deal, face down to the other seats."""

    option = "fidasse"
    fields = ("_claimed",)
    actions = range(CLAIM0, DOUBT + 1)
    keys = ("claim", "claimant", "claimed")
    refusing = "fidasse=true (docs/rules/escoba.md §2.19)"

    @classmethod
    def clashes(cls, opts: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
        """A face-down claim would show through these public keys."""
        return (
            ("steal", opts["steal"]),
            ("knocks", bool(opts["knocks"])),
            ("last_hand_open", opts["last_hand_open"]),
            ("maresciallo_penalty", opts["maresciallo_penalty"]),
        )

    def asks(self, state: Position) -> list[int]:
        """An open claim: the asked opponent trusts or doubts it."""
        return [TRUST, DOUBT] if state._claim != -1 else []

    def plays(self, state: Position) -> list[int]:
        """CLAIM(c): any card of the hand, the table not empty, not on the last play."""
        return sorted(CLAIM0 + c for c in state._hands[state._to_move]) if sweep_filtered(state) else []

    def restrict(self, state: Position, outcomes: dict[Any, bool]) -> None:
        """No play takes the whole table, but on the last play: it is claimed instead."""
        if sweep_filtered(state):
            outcomes.pop(tuple(sorted(state._table)), None)

    def step(self, state: Position, action: int) -> None:
        step_fidasse(state, action)

    def to_json(self, state: Position) -> dict[str, Any]:
        return {"claim": state._claim, "claimant": state._claimant, "claimed": [sorted(c) for c in state._claimed]}

    def from_json(self, state: Position, d: StateFields) -> None:
        g, n = self.game, self.game.num_players
        claim = d.integer("claim", -1, 51)
        claimant = d.integer("claimant", -1, n - 1)
        claimed = [read_cards(d, g, c, f"claimed[{i}]", True) for i, c in enumerate(d.per("claimed", n))]
        if (claim == -1) != (claimant == -1):
            raise d.bad("claim and claimant are both set or both -1")
        for i, cards in enumerate(claimed):
            if not set(cards) <= set(state._piles[g.side_of(i)]):
                raise d.bad(f"claimed[{i}] must be cards of the pile of seat {i}'s side")
        flat = [c for cards in claimed for c in cards]
        if len(set(flat)) != len(flat):
            raise d.bad("a claimed card is listed for two seats")
        state._claim, state._claimant = claim, claimant
        state._claimed = [set(c) for c in claimed]

    def hidden_from(self, state: Position, seat: int) -> set[int]:
        """The other seats' trusted claims, another seat's open claim."""
        hidden = {c for s, cards in enumerate(state._claimed) if s != seat for c in cards}
        if state._claim != -1 and state._claimant != seat:
            hidden.add(state._claim)
        return hidden

    def view(self, state: Position, seat: int, hidden: set[int]) -> dict[str, Any]:
        """The open claim, its card "??" to the others."""
        claim = None
        if state._claim != -1:
            card = "??" if state._claim in hidden else card_str(state._claim)
            claim = {"seat": state._claimant, "card": card}
        return {"claim": claim}

    def observe(self, state: Position, seat: int, obs: Observation) -> None:
        S, n = self.game.num_sides, self.game.num_players
        hidden = state._hidden_from(seat)
        block = obs.block(S + n)  # face-down cards per side as the seat sees them, the claimant
        for s in range(S):
            block[s] = len(state._piles[s] & hidden)
        if state._claim != -1:
            block[S + state._claimant] = 1.0
