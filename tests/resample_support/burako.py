"""Burako: the current hand rebuilt from a (resampled) reference state, for the consistency proof
of resampling (docs/burako_engine.md §15).

``rebuild_deal(state)`` gives the hand's start (racks, muertos and stock as dealt) and the hand's
actions since, so that replaying them must be legal at every step and reach the same views. Each
seat's past holdings come from ``past_racks`` (undone from the state, every cancelled group's tiles
required); a draw's tile is what its seat holds after it and not before, a muerto's tiles what an
emptied rack holds after the take; the stock as dealt is the tiles drawn, in order, then the stock
left (a muerto turned stock likewise).
"""

from __future__ import annotations

from tapete.reference.burako.options import hand_size, muerto_size
from tapete.reference.burako.resample import DISCARD0, DRAW, EXTEND0, REDRAW, HandLog, past_racks
from tapete.reference.burako.state import BurakoState
from tapete.reference.burako.tiles import NUM_TYPES, listed

__all__ = ["rebuild_deal"]


def _gained(before: list[int], after: list[int]) -> list[int]:
    return [t for t in range(NUM_TYPES) for _ in range(max(0, after[t] - before[t]))]


def rebuild_deal(x: BurakoState) -> tuple[BurakoState, list[int]]:
    log = HandLog(x)
    assert log.ok and log.full, "the hand's start is not in the history"
    P = x.game.num_players
    H, K = hand_size(x._o), muerto_size(x._o)
    h = x._history
    seats = list(range(P))
    held = past_racks(x, log, seats, True)
    assert held is not None, "no past fits"
    now = [list(x._racks[s]) for s in seats]
    if x._buffer:
        for t in x._buffer:
            now[x._to_move][t] += 1
    snaps = held + [now]
    muerto_ends = dict(log.muerto_at)
    drawn: list[int] = []  # tiles drawn from the stock, in order
    popped: list[list[int]] = []  # muertos taken or turned stock, in order
    stock_left = 106 - P * H - 2 * K
    from_muerto = -1  # index in ``popped`` of the muerto that is now the stock
    for i in range(log.start, len(h)):
        a, s = h[i], log.actor[i]
        before, after = snaps[i - log.start][s], snaps[i - log.start + 1][s]
        if a in (DRAW, REDRAW):
            if a == REDRAW:
                before = list(before)
                before[drawn[0]] -= 1  # the first draw's tile went to the pozo
            tiles = _gained(before, after)
            assert len(tiles) == 1, (a, tiles)
            if from_muerto >= 0:
                popped[from_muerto].append(tiles[0])
            else:
                drawn.append(tiles[0])
            stock_left -= 1
        if i in muerto_ends:
            popped.append(listed(after))
        if DISCARD0 <= a < EXTEND0 and stock_left == 0 and x._o["stock_exhausted"] == "muerto_becomes_stock":
            popped.append([])
            from_muerto = len(popped) - 1
            stock_left = K
    if from_muerto >= 0:
        popped[from_muerto] += x._stock
        stock = drawn
    else:
        stock = drawn + list(x._stock)
    start = x.clone()
    start._racks = [list(r) for r in snaps[0]]
    start._stock = stock
    start._muertos = [list(m) for m in popped] + [list(m) for m in x._muertos]
    start._pozo = []
    start._buffer = []
    start._melds = [[], []]
    start._muerto = [0, 0]
    start._unplayed = [-1, -1]
    start._turns = 0
    start._to_move = x._mano
    start._phase = "draw"
    start._cancels = 0
    start._drawn = start._no_discard = start._must_use = -1
    start._history = list(h[: log.start])
    start._cache = {}
    return start, list(h[log.start :])
