"""Burako for the generic tests: the view's keys, the tiles in play, and the paired states of the
no-leak test (docs/rules/burako.md §2 "Visibility")."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

VIEW_KEYS = {
    "buffer", "cancels", "current_player", "drawn", "hand", "hand_scores", "mano", "melds", "muerto_status",
    "muertos_left", "must_use", "no_discard", "phase", "player", "pozo", "pozo_size", "rack", "rack_sizes",
    "stock_size", "terminal", "totals", "turns", "winner",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    return VIEW_KEYS


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """The 106 tiles, two of each of the 53 types, across racks, buffer, melds, pozo, stock and
    muertos (docs/rules/burako.md §1)."""
    tiles = [t for rack in doc["racks"] for t in rack] + doc["buffer"] + doc["pozo"] + doc["stock"]
    tiles += [t for m in doc["muertos"] for t in m]
    tiles += [t for team in doc["melds"] for meld in team for t in meld["tiles"]]
    assert Counter(tiles) == Counter({t: 2 for t in range(53)}), "the 106 tiles, each type twice"


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """The position with every tile hidden from ``seat`` dealt again into the same places: the
    other racks (the drawn tile of the mover stays put), the mover's buffer, the muertos, the stock
    order and, with ``pozo_visibility = top_only``, the pozo under its top tile."""
    top_only = doc["options"]["pozo_visibility"] == "top_only"
    mover = doc["to_move"]
    others = [s for s in range(len(doc["racks"])) if s != seat]
    fixed_drawn = doc["drawn"] if doc["drawn"] != -1 and mover in others else None
    hidden: list[int] = []
    racks = {}
    for s in others:
        rack = list(doc["racks"][s])
        if s == mover and fixed_drawn is not None:
            rack.remove(fixed_drawn)
        racks[s] = rack
        hidden += rack
    buffer_hidden = mover in others and bool(doc["buffer"])
    if buffer_hidden:
        hidden += doc["buffer"]
    hidden += [t for m in doc["muertos"] for t in m] + doc["stock"]
    pozo_hidden = top_only and len(doc["pozo"]) > 1
    if pozo_hidden:
        hidden += doc["pozo"][:-1]
    rng.shuffle(hidden)
    new = json.loads(json.dumps(doc))
    it = iter(hidden)
    for s in others:
        rack = [next(it) for _ in racks[s]]
        if s == mover and fixed_drawn is not None:
            rack.append(fixed_drawn)
        new["racks"][s] = sorted(rack)
    if buffer_hidden:
        new["buffer"] = sorted(next(it) for _ in doc["buffer"])
    new["muertos"] = [[next(it) for _ in m] for m in doc["muertos"]]
    new["stock"] = [next(it) for _ in doc["stock"]]
    if pozo_hidden:
        new["pozo"] = [next(it) for _ in doc["pozo"][:-1]] + [doc["pozo"][-1]]
    new["rng"] = str(rng.randrange(2**64))
    return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
