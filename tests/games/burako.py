"""Burako for the generic tests: the view's keys, the 106 tiles in play, and the paired states of
the no-leak test (docs/rules/burako.md §2 "Visibility")."""

from __future__ import annotations

import json
import random
from typing import Any

VIEW_KEYS = {
    "player", "current_player", "mano", "hand", "phase", "turns", "rack", "buffer", "rack_sizes",
    "melds", "pozo", "pozo_size", "stock_size", "muertos_left", "muerto_status", "drawn", "must_use",
    "no_discard", "cancels", "totals", "hand_scores", "terminal", "winner",
}  # fmt: skip


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """The 106 tiles, two of each of the 53 types, each in exactly one place: racks, the buffer,
    the team melds, the pozo, the stock and the muertos."""
    tiles = [t for rack in doc["racks"] for t in rack] + doc["buffer"] + doc["pozo"] + doc["stock"]
    tiles += [t for muerto in doc["muertos"] for t in muerto]
    tiles += [t for team in doc["melds"] for meld in team for t in meld["tiles"]]
    assert sorted(tiles) == [t for t in range(53) for _ in range(2)], "the 106 tiles, each in one place"


def reshuffle_hidden(doc: dict[str, Any], seat: int, rng: random.Random) -> dict[str, Any]:
    """The same position with the tiles hidden from ``seat`` dealt out again at random: the other
    racks (the mover's first-turn drawn tile, which the JSON ties to his rack, stays), the muertos,
    the stock's order and, under ``pozo_visibility = top_only``, the pozo below its top tile. The
    other seats' buffer stays as it is (a buffer is a meld being built: any other would do, but
    it must stay one)."""
    mover = doc["to_move"]
    others = [s for s in range(len(doc["racks"])) if s != seat]
    drawn = doc["drawn"] if doc["drawn"] != -1 and mover in others else None
    hidden: list[int] = []
    racks = {}
    for s in others:
        rack = list(doc["racks"][s])
        if s == mover and drawn is not None:
            rack.remove(drawn)
        racks[s] = rack
        hidden += rack
    hidden += [t for m in doc["muertos"] for t in m] + doc["stock"]
    pozo_hidden = doc["options"]["pozo_visibility"] == "top_only" and len(doc["pozo"]) > 1
    if pozo_hidden:
        hidden += doc["pozo"][:-1]
    rng.shuffle(hidden)
    new = json.loads(json.dumps(doc))
    it = iter(hidden)
    for s in others:
        rack = [next(it) for _ in racks[s]]
        if s == mover and drawn is not None:
            rack.append(drawn)
        new["racks"][s] = sorted(rack)
    new["muertos"] = [[next(it) for _ in m] for m in doc["muertos"]]
    new["stock"] = [next(it) for _ in doc["stock"]]
    if pozo_hidden:
        new["pozo"] = [next(it) for _ in doc["pozo"][:-1]] + [doc["pozo"][-1]]
    return new
