"""No leaks (docs/design.md §7.5): a seat's view and observation do not depend on cards it cannot see.

From positions reached by random play, the cards hidden from seat p (the other hands and the
stock) are dealt out again at random into the same places, and the state is rebuilt from JSON. Seat
p must see exactly the same view and observation; the seats whose hands changed must not.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

CONFIGS = [
    ("scopa", 2),
    ("escoba", 4),
    ("scopone_10", 4),
    ("asso_piglia_tutto", 3),
    ("tuzzulicchio", 3),
    ("non_prendere", 4),
    ("frac", 2),
    ("rubamazzo", 3),
    ("rubamazzo_somma", 4),
    ("scopone_romano_contrario", 5),
    ("cirulla", 2),
    ("cirulla", 4),
    ("bazzica", 2),
    ("maresciallo", 4),
    ("fidasse", 3),
    ("granja", 4),
    ("cicera", 4),
    ("maresciallo_80", 4),
]


def reshuffle_hidden(doc: dict, seat: int, rng: random.Random) -> dict:
    # a knocked hand (knock_state 2, docs/rules/escoba.md §2.7) and an open last hand (docs/rules/escoba.md §2.23) are
    # face up
    shown = [k == 2 for k in doc.get("knock_state", [0] * len(doc["hands"]))]
    if doc["options"]["last_hand_open"] and not doc["stock"]:
        shown = [True] * len(doc["hands"])
    hidden = [c for s, hand in enumerate(doc["hands"]) if s != seat and not shown[s] for c in hand] + doc["stock"]
    rng.shuffle(hidden)
    new = json.loads(json.dumps(doc))
    it = iter(hidden)
    for s, hand in enumerate(doc["hands"]):
        if s != seat and not shown[s]:
            new["hands"][s] = sorted(next(it) for _ in hand)
    new["stock"] = [next(it) for _ in doc["stock"]]
    return new


def consistent_reshuffle(game, doc: dict, seat: int, rng: random.Random):
    """A reshuffle that is still a valid state. An unresolved PLAY is public (docs/escoba_engine.md §4), and with
    builds whether a card has two outcomes depends on the mover's hand (docs/escoba_engine.md §3b), so the hidden cards
    are drawn again until they agree with it (the first draw always does without builds)."""
    from tapete.errors import InvalidStateError

    for _ in range(200):
        new_doc = reshuffle_hidden(doc, seat, rng)
        try:
            return new_doc, game.state_from_json(json.dumps(new_doc, sort_keys=True, separators=(",", ":")))
        except InvalidStateError:
            if not game.options["builds"]:
                raise
    return None, None


@pytest.mark.parametrize("variant,players", CONFIGS, ids=[f"{v}-{p}" for v, p in CONFIGS])
def test_views_and_observations_hide_other_hands_and_the_stock(engine, variant, players):
    game = engine.Escoba(variant=variant, players=players)
    rng = random.Random(f"noleak/{variant}/{players}")
    checked = changed = 0
    for _ in range(15):
        state = game.new_state(seed=rng.randrange(2**32))
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        doc = json.loads(state.to_json())
        for seat in range(players):
            new_doc, other = consistent_reshuffle(game, doc, seat, rng)
            if other is None:
                continue
            assert other.view(seat) == state.view(seat)
            assert np.array_equal(other.observation(seat), state.observation(seat))
            checked += 1
            for s in range(players):
                if s != seat and new_doc["hands"][s] != doc["hands"][s]:
                    # the test is not vacuous: the owner of a changed hand sees the change
                    assert other.view(s) != state.view(s)
                    assert not np.array_equal(other.observation(s), state.observation(s))
                    changed += 1
    assert checked > 0 and changed > 0


def test_view_holds_only_public_information(engine):
    game = engine.Escoba(players=2)
    state = game.setup(hands=[["7d", "Kc"], ["2h", "5c"]], table=["4h", "3s"], dealer=1)
    view = state.view(0)
    text = json.dumps(view)
    assert view["hand"] == ["Kc", "7d"]  # ascending ids: Kc = 12, 7d = 19
    assert view["hand_sizes"] == [2, 2]
    assert "2h" not in text and "5c" not in text  # the opponent's hand
    assert view["stock_size"] == 40 - 6
    for card in ("Ac", "Qs", "6d"):  # stock cards never appear in a view
        assert card not in text
