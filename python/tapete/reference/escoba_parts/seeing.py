"""What the state shows (docs/escoba_engine.md §8, §10): its canonical JSON object, the view of a seat,
the observation tensor and the text for people."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ...cards import card_str
from .captures import PILE0, _build_value, _item_str
from .cards import CLAIM0, NO_KNOCK, action_to_string
from .position import Observation, Position

# -- serialisation -------------------------------------------------------------------------


def as_dict(state: Position) -> dict[str, Any]:
    """The canonical JSON object: the core's keys, then each part's (docs/escoba_engine.md §8)."""
    d = {
        "deal": state._deal,
        "deal_points": [list(p) for p in state._deal_points],
        "dealer": state._dealer,
        "game": "escoba",
        "hands": [sorted(h) for h in state._hands],
        "history": list(state._history),
        "last_capturer": state._last_capturer,
        "loser": state._loser,
        "options": state._o,
        "pending": state._pending,
        "piles": [sorted(p) for p in state._piles],
        "rng": str(state._rng.state),
        "scores": list(state._scores),
        "selection": list(state._selection),
        "stock": list(state._stock),
        "sweeps": list(state._sweeps),
        "table": sorted(state._table),
        "terminal": state._terminal,
        "to_move": state._to_move,
        "version": 1,
        "winner": state._winner,
    }
    for f in state.game.features:
        d |= f.to_json(state)
    return d


# -- what a seat sees (docs/escoba_engine.md §10) -------------------------------------------------------


#: The seat the public view is written for: no seat, so that every part hides from it what it
#: hides from any seat other than the one who holds it (docs/escoba_engine.md §10).
NOBODY = -1


def view(state: Position, seat: int) -> dict[str, Any]:
    """What ``seat`` may see (docs/escoba_engine.md §10): the cards the parts hide from it are
    face down ("??") in the piles. For ``NOBODY``, the public view (no ``player``, no ``hand``)."""
    p = seat

    def text(cards: Iterable[int]) -> list[str]:
        return [card_str(c) for c in sorted(cards)]

    hidden = state._hidden_from(p)

    def pile_text(pile: Any) -> list[str]:
        return text(pile - hidden) + ["??"] * len(pile & hidden)

    v = {
        "player": None if p == NOBODY else p,
        "current_player": state._rules_current_player(),
        "dealer": state._dealer,
        "deal": state._deal,
        "hand": None if p == NOBODY else text(state._hands[p]),
        "hand_sizes": [len(h) for h in state._hands],
        "table": text(state._table),
        "piles": [pile_text(pile) for pile in state._piles],
        "scope": state._scope(),
        "stock_size": len(state._stock),
        "pending": card_str(state._pending) if state._pending != -1 else None,
        "selection": [_item_str(x) for x in state._selection],
        "scores": list(state._scores),
        "deal_points": [list(x) for x in state._deal_points],
        "last_capturer": state._last_capturer,
        "terminal": state._terminal,
        "winner": state._winner,
        "loser": state._loser,
    }
    for f in state.game.features:
        v |= f.view(state, p, hidden)
    v["history"] = history_seen(state, hidden)
    return v


def public_view(state: Position) -> dict[str, Any]:
    """What every seat may see (docs/escoba_engine.md §10)."""
    return view(state, NOBODY)


def history_seen(state: Position, hidden: set[int]) -> list[str]:
    """The history as a seat records it (docs/escoba_engine.md §10): every action as text, but a
    declined knock is left out (no seat sees it) and the claim of a card hidden from the seat reads
    "claim ??" (the last CLAIM of a hidden card is this deal's)."""
    h = state._history
    seen = []
    for i, a in enumerate(h):
        if a == NO_KNOCK:
            continue
        masked = 0 <= a - CLAIM0 < 52 and a - CLAIM0 in hidden and a not in h[i + 1 :]
        seen.append("claim ??" if masked else action_to_string(a))
    return seen


def observation(state: Position, seat: int) -> np.ndarray:
    """What ``seat`` may see as floats (docs/escoba_engine.md §10): the blocks every game has, then each
    part's block in their fixed order. The tensor's size is that of a blank position's."""
    p = seat
    n, S = state.game.num_players, state.game.num_sides
    C = state.game.slots  # one slot per card id of the pack
    obs = Observation(C)
    hidden = state._hidden_from(p)
    cards = obs.block(2 * C + C * S)  # the hand, the table, each side's pile as p sees it
    obs.cards(cards, 0, state._hands[p])
    obs.cards(cards, C, state._table)
    for s in range(S):
        obs.cards(cards, 2 * C + C * s, state._piles[s] - hidden)
    play = obs.block(S + 1 + 2 * C)  # the scope, the stock, the card being played, the selection
    play[:S] = state._scope()
    play[S] = len(state._stock)
    if state._pending != -1:
        obs.cards(play, S + 1, [state._pending])
    if state._claim != -1 and state._claimant == p:  # the claimant knows its card
        obs.cards(play, S + 1, [state._claim])
    obs.cards(play, S + 1 + C, [x for x in state._selection if x < PILE0])
    seats = obs.block(4 * n + S)  # p, the dealer, the mover, the hand sizes, the scores
    seats[p] = 1.0
    seats[n + state._dealer] = 1.0
    if not state._terminal:
        seats[2 * n + state._to_move] = 1.0
    seats[3 * n : 4 * n] = [len(h) for h in state._hands]
    seats[4 * n : 4 * n + S] = state._scores
    for f in state.game.features:
        f.observe(state, p, obs)
    return obs.array()


# -- for people ----------------------------------------------------------------------------


def describe(state: Position) -> str:
    g, o = state.game, state._o
    n, S = g.num_players, g.num_sides

    def text(cards: Iterable[int]) -> str:
        return " ".join(card_str(c) for c in sorted(cards)) or "-"

    lines = [f"{g.name} ({o['variant']}), deal {state._deal}, dealer: seat {state._dealer}"]
    for seat in range(n):
        mark = "  <- to move" if seat == state.current_player() else ""
        team = f" (side {g.side_of(seat)})" if g.teams else ""
        lines.append(f"  seat {seat}{team}: {text(state._hands[seat])}{mark}")
    lines.append(f"  table: {text(state._table)}")
    for b in state._builds:
        lines.append(f"  build of {_build_value(b)}: {text(b)}")
    if state._pending != -1:
        lines.append(f"  playing {card_str(state._pending)}, taking so far: {text(state._selection)}")
    lines.append(f"  stock: {len(state._stock)} cards")
    scope = state._scope()
    for s in range(S):
        who = f"side {s}" if g.teams else f"seat {s}"
        lines.append(
            f"  {who}: pile {len(state._piles[s])} cards, {scope[s]} scope, score {state._scores[s]}"
            + (" (last capturer)" if state._last_capturer == s else "")
        )
    if state._terminal:
        if state._winner != -1:
            lines.append(f"  match over: side {state._winner} wins")
        elif state._loser != -1:
            lines.append(f"  match over: side {state._loser} loses")
        else:
            lines.append("  match over: drawn")
    return "\n".join(lines)
