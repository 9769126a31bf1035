"""Fidasse (docs/rules/escoba.md §2.19; docs/escoba_engine.md §4b): claims on trust, the questions to the
opponents, and the claim cards face down to the other seats."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import card_str
from .captures import _captures
from .cards import CLAIM0, TRUST, action_to_string

if TYPE_CHECKING:
    from ..escoba import EscobaState

# -- fidasse (docs/rules/escoba.md §2.19) -----------------------------------------------------------------


def is_last_play(state: EscobaState) -> bool:
    """The play about to be made is the last of the deal."""
    held = len(state._hands[state._to_move]) + (state._pending != -1)
    others = any(h for s, h in enumerate(state._hands) if s != state._to_move)
    return not state._stock and held == 1 and not others


def sweep_filtered(state: EscobaState) -> bool:
    return state._o["fidasse"] and bool(state._table) and not state._is_last_play()


def next_asked(state: EscobaState, seat: int) -> int:
    """The next opponent of the claimant after ``seat``, before the claimant; -1 if none."""
    n, side_of = state.game.num_players, state.game.side_of
    for k in range(1, n):
        t = (seat + k) % n
        if t == state._claimant:
            break
        if side_of(t) != side_of(state._claimant) and t in state._in_play:
            return t
    return -1


def hidden_from(state: EscobaState, p: int) -> set[int]:
    """Cards seat p may not see: the other seats' trusted claims, another seat's open claim."""
    hidden = {c for s, cards in enumerate(state._claimed) if s != p for c in cards}
    if state._claim != -1 and state._claimant != p:
        hidden.add(state._claim)
    return hidden


def step_fidasse(state: EscobaState, a: int) -> None:
    if CLAIM0 <= a < CLAIM0 + 52:
        seat = state._to_move
        state._hands[seat].discard(a - CLAIM0)
        state._claim, state._claimant = a - CLAIM0, seat
        asked = state._next_asked(seat)
        state._to_move = asked if asked != -1 else seat
        return
    card, claimant = state._claim, state._claimant
    side = state.game.side_of(claimant)
    if a == TRUST:
        asked = state._next_asked(state._to_move)
        if asked != -1:
            state._to_move = asked
            return
        state._claimed[claimant].add(card)
        state._claim_stands(card, side)
    else:  # DOUBT: the card is shown
        doubter = state.game.side_of(state._to_move)
        if tuple(sorted(state._table)) in _captures(card, state._table, state._o, state._matta()):
            state._scores[doubter] -= 1
            state._claim_stands(card, side)
        else:  # cancelled: the card trails, the claimant's side loses a point
            state._table.add(card)
            state._scores[side] -= 1
            state._streak[side] = 0
    state._claim = state._claimant = -1
    state._to_move = claimant
    state._pass_turn()


def claim_stands(state: EscobaState, card: int, side: int) -> None:
    state._piles[side] |= state._table | {card}
    state._table = set()
    state._last_capturer = side
    state._sweep(side, card)


def fidasse_view(state: EscobaState, hidden: set[int]) -> dict[str, Any]:
    """The open claim (its card "??" to the others) and the history, where the claim of a
    hidden card (the last CLAIM of that card: this deal's) reads "claim ??"."""
    claim = None
    if state._claim != -1:
        card = "??" if state._claim in hidden else card_str(state._claim)
        claim = {"seat": state._claimant, "card": card}
    history = []
    for i, a in enumerate(state._history):
        c = a - CLAIM0
        masked = 0 <= c < 52 and c in hidden and a not in state._history[i + 1 :]
        history.append("claim ??" if masked else action_to_string(a))
    return {"claim": claim, "history": history}
