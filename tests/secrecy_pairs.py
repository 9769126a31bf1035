"""Paired states for the secrecy tests (docs/design.md §7.5, §11): a state from random play and its
resample for one seat, which has the same ``view(p)`` and other hidden cards, RNG state and other
seats' private action details (fidasse claims, Mosca exchanges, Burako adds).

``CONFIGS`` are the configurations every output toward a seat is checked over: each hides
something else (hands only, face-down claims, knocks, the double pack, teams, exchanges, a
reshuffled talon, Burako's adds at 2 and 4 seats).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from typing import Any

CONFIGS = [
    "escoba(variant=scopa)",
    "escoba(variant=fidasse)",
    "escoba(variant=cirulla)",
    "escoba(variant=maresciallo_80)",
    "escoba(variant=scopone_10)",
    "mosca(players=4)",
    "mosca(players=3,exchange_limit=reshuffle_discards_when_empty)",
    "musta_maija(players=4)",
    "burako(players=2,match=single_hand)",
    "burako(players=4,match=single_hand)",
]

#: ``TAPETE_SECRECY_PAIRS=N``: N times the pairs of the default run (docs: README's list).
SCALE = max(1, int(os.environ.get("TAPETE_SECRECY_PAIRS", "1")))


def walk(game: Any, rng: random.Random, depth: int) -> Any:
    """An unfinished state after up to ``depth`` random moves of a seeded match."""
    state = game.new_state(seed=rng.randrange(2**64))
    for _ in range(rng.randrange(depth + 1)):
        ahead = state.clone()
        ahead.apply(rng.choice(state.legal_actions()))
        if ahead.is_terminal():
            break
        state = ahead
    return state


def resampled_pairs(
    game: Any, rng: random.Random, count: int, depth: int = 300, mover: bool = False
) -> Iterator[tuple[Any, Any, int]]:
    """``count`` pairs ``(a, b, p)``: ``b = a.resample(p, seed)``, different from ``a``, with the
    same ``view(p)``; ``p`` the seat to act when ``mover``, else any seat."""
    made = tries = 0
    while made < count:
        tries += 1
        assert tries < 50 * count, "no paired states found"
        a = walk(game, rng, depth)
        p = a.current_player() if mover else rng.randrange(game.num_players)
        b = a.resample(p, rng.randrange(2**64))
        if b.to_json() == a.to_json():
            continue
        assert b.view(p) == a.view(p)
        made += 1
        yield a, b, p
