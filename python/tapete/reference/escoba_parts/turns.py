"""The end of a play: a sweep recorded (docs/rules/escoba.md §1.5) and the turn passed on, to the
next seat holding cards, to a new hand, or to the end of the deal (docs/escoba_engine.md §4, §5)."""

from __future__ import annotations

from . import dealing, match_end
from .position import Position


def sweep(state: Position, side: int, card: int, twin: bool = False) -> None:
    """A play of ``side`` with ``card`` swept the table (``twin``: it took the card's twin); it
    scores unless a part says otherwise (``max_consecutive_sweeps``)."""
    features = state.game.features
    if not all(f.sweep_scores(state, side) for f in features):
        return
    for f in features:
        f.on_sweep(state, side, card, twin)
    state._sweeps.append(side)


def pass_turn(state: Position) -> None:
    """After a play by ``_to_move``: the next seat with cards, a new hand, or the deal's end."""
    n = state.game.num_players
    if not any(state._hands):
        if state._stock:
            dealing.deal_next_hand(state)
            state._to_move = dealing.next_in(state, state._dealer)
            for f in state.game.features:
                f.new_hand(state)
        else:
            match_end.end_deal(state)
    else:  # the next seat holding cards (seats out of the match hold none)
        t = (state._to_move + 1) % n
        while not state._hands[t]:
            t = (t + 1) % n
        state._to_move = t
