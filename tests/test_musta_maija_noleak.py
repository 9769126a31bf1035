"""No leaks (docs/design.md §7.5, docs/rules/musta_maija.md §1 "Visibility"): a seat's view and observation do not
depend on cards it cannot see.

Hidden from seat p: the cards of the other hands except those everybody saw enter them (picked up,
or the face-up trump card drawn: ``known``), and the order of the stock (the face-up trump card at
its bottom excepted). From positions reached by random play these hidden cards are dealt out again
at random into the same places, and the state is rebuilt from JSON. Seat p must see exactly the
same view and observation; the seats whose hands changed must not.
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

CONFIGS = [
    (2, {}),
    (3, {"variant": "pagat"}),
    (4, {}),
    (5, {"hand_size": 3, "draw_order": "defender_then_attacker"}),
    (6, {"spade_reinsert": "random_position"}),
]


def reshuffle_hidden(doc: dict, seat: int, rng: random.Random) -> dict:
    """The same position with the cards hidden from ``seat`` dealt out again at random."""
    trump = doc["trump"]
    stock = doc["stock"]
    bottom = [trump] if stock and stock[-1] == trump else []  # face up: public
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
    return new


@pytest.mark.parametrize("players,options", CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_views_and_observations_hide_other_hands_and_the_stock_order(engine, players, options):
    game = engine.MustaMaija(players=players, **options)
    rng = random.Random(f"noleak/{players}/{sorted(options.items())}")
    checked = changed = 0
    for _ in range(12):
        state = game.new_state(seed=rng.randrange(2**32))
        for _ in range(rng.randrange(0, 150)):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        doc = json.loads(state.to_json())
        for seat in range(players):
            new_doc = reshuffle_hidden(doc, seat, rng)
            other = game.state_from_json(json.dumps(new_doc, sort_keys=True, separators=(",", ":")))
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


def test_picked_up_cards_are_public_until_they_leave_the_hand(engine):
    """docs/rules/musta_maija.md §1: cards picked up are public. TV-MM15's position: seat 1 picks up 4c; every seat
    sees it in ``known`` and in the observation's known block (docs/musta_maija_engine.md §8: offset 370+2n,
    block j-1 for seat (p+j) mod n); dealt cards never show."""
    hands = [
        ["4c", "7h", "8h", "Jd", "Kd"],
        ["9c", "2h", "3h", "5s", "6s"],
        ["Ac", "2c", "3c", "5c", "6c"],
        ["7c", "8c", "Tc", "Jc", "Qc"],
    ]
    s = engine.MustaMaija().setup(hands=hands, stock=["Kc", "Ad", "2d", "Qs", "5d"], attacker=0)
    s.apply("4c")
    s.apply("done")
    s.apply("done")  # seat 1 picks up 4c (id 3)
    n = 4
    for p in range(n):
        assert s.view(p)["known"] == [[], ["4c"], [], []]
        obs = s.observation(p)
        j = (1 - p) % n
        known_blocks = obs[370 + 2 * n : 370 + 2 * n + 52 * (n - 1)]
        if p == 1:
            assert not known_blocks.any()  # the own hand is block 1, not a known block
        else:
            assert known_blocks[52 * (j - 1) + 3] == 1.0
            assert known_blocks.sum() == 1.0
    view = json.dumps(s.view(0))
    for hidden in ("9c", "2h", "5s", "Ac", "Qc", "Ad", "Qs"):  # other hands and the stock
        assert hidden not in view
