"""Escoba for the generic tests: the view's keys (they follow the options:
docs/escoba_engine.md §10), the cards in play, and the paired states of the no-leak test."""

from __future__ import annotations

import json
import random
from typing import Any

BASE_VIEW_KEYS = {
    "player", "current_player", "dealer", "deal", "hand", "hand_sizes", "table", "piles", "scope",
    "stock_size", "pending", "selection", "scores", "deal_points", "last_capturer", "terminal",
    "winner", "loser",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    """docs/escoba_engine.md §10: the base keys, and those each option adds."""
    keys = set(BASE_VIEW_KEYS)
    knocks = bool(options["knocks"])
    if options["tuzzoli"] or knocks:
        keys.add("declarations")
    if knocks or options["last_hand_open"]:
        keys.add("shown")
    if options["matta"] is not None:
        keys.add("matta_value")
    for key, on in (
        ("ks_sweeps", options["maresciallo_penalty"]),
        ("builds", options["builds"]),
        ("twin_sweeps", options["deck"] == "double_italian80"),
        ("in_play", options["target_mode"] == "eliminate"),
        ("pile_tops", options["steal"]),
    ):
        if on:
            keys.add(key)
    if options["fidasse"]:
        keys |= {"claim", "history"}
    return keys


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """Every card of the pack in exactly one place while a deal is on (hands, table, stock, builds,
    piles, the pending card, an open claim); the double pack counts two copies of each id."""
    cards = [c for hand in doc["hands"] for c in hand] + doc["table"] + doc["stock"]
    cards += [c for build in doc.get("builds", []) for c in build] + [c for pile in doc["piles"] for c in pile]
    cards += [x for x in (doc["pending"], doc.get("claim", -1)) if x >= 0]
    copies = 2 if doc["options"]["deck"] == "double_italian80" else 1
    counts: dict[int, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    assert all(k <= copies for k in counts.values()), "a card is in too many places"
    if not doc["terminal"]:
        size = {"italian52": 52, "double_italian80": 80}.get(doc["options"]["deck"], 40)
        assert len(cards) == size, "cards were lost during a deal"


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """The same position with the cards hidden from ``seat`` (the other hands, unless shown by a
    knock or an open last hand, and the stock) dealt out again at random. With builds, whether a
    card has two outcomes depends on the mover's hand (docs/escoba_engine.md §3b), so the cards
    are drawn again until the state is consistent."""
    from tapete.errors import InvalidStateError

    shown = [k == 2 for k in doc.get("knock_state", [0] * len(doc["hands"]))]
    if doc["options"]["last_hand_open"] and not doc["stock"]:
        shown = [True] * len(doc["hands"])
    for _ in range(200):
        hidden = [c for s, hand in enumerate(doc["hands"]) if s != seat and not shown[s] for c in hand] + doc["stock"]
        rng.shuffle(hidden)
        new = json.loads(json.dumps(doc))
        it = iter(hidden)
        for s, hand in enumerate(doc["hands"]):
            if s != seat and not shown[s]:
                new["hands"][s] = sorted(next(it) for _ in hand)
        new["stock"] = [next(it) for _ in doc["stock"]]
        new["rng"] = str(rng.randrange(2**64))
        try:
            return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
        except InvalidStateError:
            if not doc["options"]["builds"]:
                raise
    return None
