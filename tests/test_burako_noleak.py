"""No leaks (docs/design.md §7.5) for Burako: a seat's view and observation do not depend on tiles it
cannot see: the other racks (and the other seats' buffer), the muertos and the stock order
(docs/rules/burako.md §2 Visibility). Melds and the pozo are public (under ``pozo_visibility = top_only`` only the
pozo's top tile and its size are).

From positions reached by random play, the tiles hidden from seat p are dealt out again at random
into the same places (same sizes), the state is rebuilt from JSON, and seat p must see exactly the
same view and observation; the seats whose racks changed must not.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from tapete.errors import InvalidStateError

CONFIGS = [
    {"players": 4},
    {"players": 2, "two_player_hand": 15},
    {"players": 4, "pozo_visibility": "top_only", "stock_exhausted": "muerto_becomes_stock"},
]


def reshuffle_hidden(doc: dict, seat: int, rng: random.Random, top_only: bool) -> dict:
    """The JSON state with every tile hidden from ``seat`` dealt again into the same places."""
    mover = doc["to_move"]
    others = [s for s in range(len(doc["racks"])) if s != seat]
    fixed_drawn = doc["drawn"] if doc["drawn"] != -1 and mover in others else None
    hidden: list[int] = []
    racks = {}
    for s in others:
        rack = list(doc["racks"][s])
        if s == mover and fixed_drawn is not None:
            rack.remove(fixed_drawn)  # the drawn tile stays in the mover's rack (JSON invariant)
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
        # a buffer is any multiset in play; keep it a non-decreasing list of the same size
        new["buffer"] = sorted(next(it) for _ in doc["buffer"])
    new["muertos"] = [[next(it) for _ in m] for m in doc["muertos"]]
    new["stock"] = [next(it) for _ in doc["stock"]]
    if pozo_hidden:
        new["pozo"] = [next(it) for _ in doc["pozo"][:-1]] + [doc["pozo"][-1]]
    return new


def dumps(doc: dict) -> str:
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()))
def test_views_and_observations_hide_racks_muertos_and_stock(engine, options):
    game = engine.Burako(match="single_hand", **options)
    top_only = options.get("pozo_visibility") == "top_only"
    rng = random.Random(f"noleak/{sorted(options.items())}")
    checked = changed = 0
    for _ in range(12):
        state = game.new_state(seed=rng.randrange(2**32))
        for _ in range(rng.randrange(0, 120)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        doc = json.loads(state.to_json())
        for seat in range(game.num_players):
            new_doc = reshuffle_hidden(doc, seat, rng, top_only)
            try:
                other = game.state_from_json(dumps(new_doc))
            except InvalidStateError:
                # a reshuffled buffer may break a JSON invariant the engine checks; skip that seat
                if new_doc["buffer"] != doc["buffer"]:
                    continue
                raise
            assert other.view(seat) == state.view(seat)
            assert np.array_equal(other.observation(seat), state.observation(seat))
            checked += 1
            for s in range(game.num_players):
                if s != seat and new_doc["racks"][s] != doc["racks"][s]:
                    # the test is not vacuous: the owner of a changed rack sees the change
                    assert other.view(s) != state.view(s)
                    assert not np.array_equal(other.observation(s), state.observation(s))
                    changed += 1
    assert checked > 0 and changed > 0


def test_view_shows_melds_and_the_pozo_but_no_hidden_tile(engine):
    game = engine.Burako(players=4)
    s = game.setup(
        racks=[["R3", "R4", "K9"], ["Y11", "Y12"], ["B6", "B7"], ["K1", "K2"]],
        melds=[[["R5", "R6", "R7"]], [["B1", "K1", "Y1"]]],
        pozo=["Y3", "B13"],
        phase="meld",
    )
    view = s.view(0)
    assert view["rack"] == ["R3", "R4", "K9"]
    assert view["rack_sizes"] == [3, 2, 2, 2]
    assert view["pozo"] == ["Y3", "B13"] and view["pozo_size"] == 2
    assert [m["tiles"] for m in view["melds"][0]] == [["R5", "R6", "R7"]]
    assert [m["tiles"] for m in view["melds"][1]] == [["K1", "B1", "Y1"]]  # ascending types
    text = json.dumps(view)
    for hidden in ("Y11", "Y12", "B6", "B7", "K2"):  # the other racks
        assert hidden not in text
    doc = json.loads(s.to_json())
    words = {"J*" if t == 52 else "RKBY"[t // 13] + str(t % 13 + 1) for m in doc["muertos"] for t in m} | {
        "J*" if t == 52 else "RKBY"[t // 13] + str(t % 13 + 1) for t in doc["stock"]
    }
    visible = set(view["rack"]) | {"Y3", "B13", "R5", "R6", "R7", "B1", "K1", "Y1"}
    assert all(f'"{w}"' not in text for w in words - visible)
    # the buffer is private to its owner: seat 1 sees seat 0's rack size including it
    s.apply("add R3")
    assert s.view(1)["buffer"] == [] and s.view(1)["rack_sizes"] == [3, 2, 2, 2]
    assert s.view(0)["buffer"] == ["R3"] and s.view(0)["rack"] == ["R4", "K9"]
