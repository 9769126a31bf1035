"""La Mosca for the generic tests: the view's keys, the cards and chips in play, and the paired
states of the no-leak test (docs/rules/mosca.md §1.4)."""

from __future__ import annotations

import json
import random
from typing import Any

VIEW_KEYS = {
    "balances", "current_player", "dealer", "deals_played", "declarations", "discards", "eliminated",
    "exchanged", "hand", "hand_sizes", "leader", "mano", "phase", "played", "player", "pot", "talon_size",
    "terminal", "trick", "trick_number", "trick_seats", "tricks_won", "trump", "turnup", "turnup_taken",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    return VIEW_KEYS


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """The chips: balances plus the pot stay what the match began with (docs/rules/mosca.md §1.3)."""
    n = len(doc["hands"])
    assert sum(doc["balances"]) + doc["pot"] == n * doc["options"]["initial_chips"], "chips are conserved"


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """``doc`` with the cards hidden from ``seat`` renamed by a random permutation: the other hands
    (folded ones included), the talon, the other seats' exchange discards and the card the dealer
    gave up for the turn-up. Public: the turn-up, the played cards, the exchange counts."""
    deck = {c for h in doc["hands"] for c in h} | set(doc["talon"]) | set(doc["discard_pile"]) | set(doc["played"])
    deck |= {doc["turnup"]} | ({doc["turnup_discard"]} if doc["turnup_discard"] >= 0 else set())
    seen = set(doc["hands"][seat]) | set(doc["discarded"][seat]) | set(doc["played"]) | {doc["turnup"]}
    hidden = sorted(deck - seen)
    image = list(hidden)
    rng.shuffle(image)
    rename = dict(zip(hidden, image))

    def r(c: int) -> int:
        return rename.get(c, c)

    new = json.loads(json.dumps(doc))
    for s in range(len(doc["hands"])):
        if s != seat:
            new["hands"][s] = sorted(r(c) for c in doc["hands"][s])
            new["discarded"][s] = sorted(r(c) for c in doc["discarded"][s])
    new["talon"] = [r(c) for c in doc["talon"]]
    new["discard_pile"] = sorted(r(c) for c in doc["discard_pile"])
    if doc["turnup_discard"] >= 0:
        new["turnup_discard"] = r(doc["turnup_discard"])
    new["rng"] = str(rng.randrange(2**64))
    return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
