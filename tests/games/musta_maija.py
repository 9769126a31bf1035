"""Musta Maija for the generic tests: the view's keys, the cards in play, and the paired states of
the no-leak test (docs/rules/musta_maija.md §1 "Visibility")."""

from __future__ import annotations

import json
import random
from typing import Any

VIEW_KEYS = {
    "player", "current_player", "phase", "hand_number", "dealer", "attacker", "defender", "hand",
    "hand_sizes", "known", "out", "stock_size", "trump", "trump_card", "trump_in_stock", "turned",
    "out_of_play", "attack", "beaten", "left", "target", "attacks", "losses", "terminal", "losers",
}  # fmt: skip


def view_keys(options: dict[str, Any]) -> set[str]:
    return VIEW_KEYS


def own_invariants(game: Any, state: Any, doc: dict[str, Any]) -> None:
    """The 52 cards, each in exactly one place: hands, stock, attack, defending cards, out of play."""
    cards = [c for hand in doc["hands"] for c in hand] + doc["stock"] + doc["attack"] + doc["out_of_play"]
    cards += [pair[1] for pair in doc["beaten"]]
    assert sorted(cards) == list(range(52)), "the 52 cards, each in exactly one place"


def paired_state(game: Any, doc: dict[str, Any], seat: int, rng: random.Random) -> tuple[dict[str, Any], Any] | None:
    """The same position with the cards hidden from ``seat`` dealt out again at random: the other
    hands except the cards everybody saw enter them (``known``), and the stock's order (its
    face-up trump card at the bottom excepted)."""
    trump = doc["trump"]
    stock = doc["stock"]
    bottom = [trump] if stock and stock[-1] == trump else []
    hidden_stock = stock[: len(stock) - len(bottom)]
    hidden = list(hidden_stock)
    for s, hand in enumerate(doc["hands"]):
        if s != seat:
            hidden += [c for c in hand if c not in doc["known"][s]]
    rng.shuffle(hidden)
    new = json.loads(json.dumps(doc))
    it = iter(hidden)
    for s, hand in enumerate(doc["hands"]):
        if s != seat:
            known = doc["known"][s]
            new["hands"][s] = sorted(known + [next(it) for _ in range(len(hand) - len(known))])
    new["stock"] = [next(it) for _ in hidden_stock] + bottom
    new["rng"] = str(rng.randrange(2**64))
    return new, game.state_from_json(json.dumps(new, sort_keys=True, separators=(",", ":")))
