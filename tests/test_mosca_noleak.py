"""No leaks for La Mosca (docs/design.md §7.5, docs/rules/mosca.md §1.4): a seat's view and observation do not depend on
cards it cannot see.

Hidden from seat p: the other hands (folded ones included), the talon, the exchange discards of the
other seats and the card the dealer gave up for the turn-up (unless p is the dealer). Public: the
turn-up (also once the dealer has taken it), the played cards, how many cards each seat exchanged.

From positions reached by random play, the cards hidden from p are renamed by a random permutation
everywhere they occur, and the state is rebuilt from JSON: p must see exactly the same view and
observation, while the seats whose hands changed see the change (so the test is not vacuous).
"""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

CONFIGS = [
    {"players": 3},
    {"players": 4},
    {"players": 5, "exchange_limit": "reshuffle_discards_when_empty"},
    {"players": 6, "deck": 32},
    {"players": 4, "bankruptcy": "eliminate_at_zero", "initial_chips": 5, "lone_player": "must_play_tricks"},
]


def rename_hidden(doc: dict, seat: int, rng: random.Random) -> dict:
    """``doc`` with the cards hidden from ``seat`` renamed by a random permutation."""
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
    return new


def positions(game, rng: random.Random, count: int):
    """Non-terminal positions of random matches, in every phase."""
    found = 0
    while found < count:
        state = game.new_state(seed=rng.randrange(2**32))
        stop = rng.randrange(0, 40)
        for _ in range(stop):
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            found += 1
            yield state


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()))
def test_views_and_observations_hide_what_a_seat_cannot_see(engine, options):
    game = engine.Mosca(**options)
    rng = random.Random(f"noleak/{sorted(options.items())}")
    checked = changed = 0
    for state in positions(game, rng, 12):
        doc = json.loads(state.to_json())
        for seat in range(game.num_players):
            new_doc = rename_hidden(doc, seat, rng)
            other = game.state_from_json(json.dumps(new_doc, sort_keys=True, separators=(",", ":")))
            assert other.view(seat) == state.view(seat)
            assert np.array_equal(other.observation(seat), state.observation(seat))
            checked += 1
            for s in range(game.num_players):
                if s != seat and new_doc["hands"][s] != doc["hands"][s]:
                    assert other.view(s) != state.view(s)
                    assert not np.array_equal(other.observation(s), state.observation(s))
                    changed += 1
    assert checked > 0 and changed > 0


HANDS = [
    ["Ac", "6d", "7h", "8s", "9c"],  # seat 0, the dealer
    ["7c", "8d", "9h", "Ts", "Jc"],
    ["8c", "9d", "Th", "Js", "Qc"],
    ["Tc", "Jd", "Qh", "Qs", "Kc"],
]


def test_exchange_mask_is_hidden(engine):
    """docs/rules/mosca.md §1.4: the others see how many cards seat 1 exchanged, never which slots."""
    game = engine.Mosca(players=4)
    a = game.setup(hands=HANDS, turnup="Kd", dealer=0)
    b = game.setup(hands=HANDS, turnup="Kd", dealer=0)
    a.apply(53 + 0b00011)  # seat 1 gives up 7c, Jc (slots 0, 1: ids 6, 10)
    b.apply(53 + 0b11000)  # seat 1 gives up 9h, Ts (slots 3, 4: ids 34, 48)
    for seat in (0, 2, 3):
        assert a.view(seat) == b.view(seat)
        assert np.array_equal(a.observation(seat), b.observation(seat))
        assert a.view(seat)["exchanged"] == [0, 2, 0, 0]
        assert a.view(seat)["discards"] == []
    assert a.view(1)["discards"] == ["7c", "Jc"] and b.view(1)["discards"] == ["9h", "Ts"]


def test_folded_hand_stays_hidden(engine):
    """docs/rules/mosca.md §1.4: a folded hand is dead and stays hidden; the others see only that it passed."""
    game = engine.Mosca(players=4)
    state = game.setup(hands=HANDS, turnup="Kd", dealer=0)
    state.apply(52)  # seat 1 passes
    for seat in (0, 2, 3):
        view = state.view(seat)
        assert view["declarations"] == [None, "pass", None, None]
        text = json.dumps(view)
        assert not any(f'"{card}"' in text for card in HANDS[1])


def test_turnup_is_known_to_all_and_the_given_up_card_is_not(engine):
    """docs/rules/mosca.md §1.4 / §4.2: after TAKE_TURNUP every seat sees that the dealer took the turn-up (Kd)
    and what it is; only the dealer knows the card given up. Taking slot 0 (Ac) or slot 4 (8s)
    looks the same to everyone else."""
    game = engine.Mosca(players=4)
    a = game.setup(hands=HANDS, turnup="Kd", dealer=0)
    for act in (53, 53, 52, 53):  # seats 1, 2 stand, seat 3 passes, the dealer stands
        a.apply(act)
    b = a.clone()
    a.apply(85 + 0)  # gives up Ac
    b.apply(85 + 4)  # dealer's sorted hand Ac(0) 9c(8) 6d(14) 7h(32) 8s(46): slot 4 is 8s
    turnup = 13 + 12  # Kd
    for seat in range(4):
        view = a.view(seat)
        assert view["turnup"] == "Kd" and view["turnup_taken"] is True and view["trump"] == "d"
        obs = a.observation(seat)
        assert obs[104 + turnup] == 1.0 and obs[160] == 1.0 and obs[156 + 1] == 1.0
    for seat in (1, 2, 3):
        assert a.view(seat) == b.view(seat)
        assert np.array_equal(a.observation(seat), b.observation(seat))
        assert "Ac" not in json.dumps(a.view(seat))
    assert a.view(0)["discards"] == ["Ac"] and b.view(0)["discards"] == ["8s"]
    assert "Kd" in a.view(0)["hand"]
