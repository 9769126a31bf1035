"""API invariants of the Musta Maija engines (docs/design.md §2, §7.3), on both engines through Python.

The bulk sweep (>= 2,000 playouts per player count) runs natively in
``rust/tapete-core/tests/musta_maija_playouts.rs``; here the same invariants go through the public
API on fewer games, so that the reference engine is held to them too.
"""

from __future__ import annotations

import copy
import json
import os
import random

import numpy as np
import pytest

from tapete.errors import IllegalActionError, InvalidNotationError

GAMES = {
    "native": int(os.environ.get("TAPETE_API_GAMES", "12")),
    "reference": int(os.environ.get("TAPETE_API_GAMES_REF", "2")),
}
VIEW_KEYS = {
    "player",
    "current_player",
    "phase",
    "hand_number",
    "dealer",
    "attacker",
    "defender",
    "hand",
    "hand_sizes",
    "known",
    "out",
    "stock_size",
    "trump",
    "trump_card",
    "trump_in_stock",
    "turned",
    "out_of_play",
    "attack",
    "beaten",
    "left",
    "target",
    "attacks",
    "losses",
    "terminal",
    "losers",
}
CONFIGS = [
    {"players": 2},
    {"players": 3},
    {"players": 4},
    {"players": 5},
    {"players": 6},
    {"variant": "pagat", "players": 3},
    {"beat_optional": False, "draw_order": "defender_then_attacker"},
    {"match": "fixed_hands", "match_hands": 2, "max_attacks": 30, "players": 3},
]


def cards_in_play(doc: dict) -> list[int]:
    """Hands + stock + table (attack cards and defending cards) + out of play."""
    cards = [c for hand in doc["hands"] for c in hand] + doc["stock"] + doc["attack"] + doc["out_of_play"]
    return cards + [pair[1] for pair in doc["beaten"]]


def check_step(game, state, rng: random.Random) -> None:
    text = state.to_json()
    doc = json.loads(text)
    cards = cards_in_play(doc)
    assert sorted(cards) == list(range(52)), "the 52 cards, each in exactly one place"
    assert game.state_from_json(text).to_json() == text
    legal = state.legal_actions()
    mask = state.legal_mask()
    assert mask.dtype == np.bool_ and mask.shape == (54,)
    assert list(np.flatnonzero(mask)) == legal
    for seat in range(game.num_players):
        assert set(state.view(seat)) == VIEW_KEYS
        obs = state.observation(seat)
        assert obs.dtype == np.float32 and obs.shape == game.observation_shape
        assert obs[:52].sum() == len(doc["hands"][seat])
    if state.is_terminal():
        assert legal == [] and state.current_player() == -1
        return
    assert legal and legal == sorted(set(legal))
    assert all(r == 0 for r in state.returns())
    for action in legal:
        assert state.string_to_action(state.action_to_string(action)) == action
    for action in rng.sample(legal, min(3, len(legal))):
        child = state.clone()
        child.apply(action)
        assert state.to_json() == text
        assert child.history() == state.history() + [action]
    illegal = [a for a in range(54) if a not in set(legal)]
    for action in rng.sample(illegal, min(2, len(illegal))):
        with pytest.raises(IllegalActionError):
            state.apply(action)
    with pytest.raises(InvalidNotationError):
        state.apply("xyzzy")
    assert state.to_json() == text


@pytest.mark.parametrize("options", CONFIGS, ids=[json.dumps(c, sort_keys=True) for c in CONFIGS])
def test_random_playouts_keep_the_invariants(engine, options):
    game = engine.MustaMaija(**options)
    n = game.num_players
    rng = random.Random(json.dumps(options, sort_keys=True))
    for _ in range(GAMES[engine.name]):
        state = game.new_state(seed=rng.randrange(2**64))
        for _ in range(100_000):
            check_step(game, state, rng)
            if state.is_terminal():
                break
            state.apply(rng.choice(state.legal_actions()))
        else:
            pytest.fail("a match did not end within 100,000 actions")
        returns = state.returns()
        assert abs(sum(returns)) < 1e-9
        doc = json.loads(state.to_json())
        assert sum(state.scores()) == doc["hand"], "one loser per hand"
        if game.options["match"] == "single_hand":
            (loser,) = [seat for seat in range(n) if state.scores()[seat] == 1]
            assert returns[loser] == -1.0
            assert all(abs(r - 1 / (n - 1)) < 1e-12 for seat, r in enumerate(returns) if seat != loser)
            if doc["attacks"] < (game.options["max_attacks"] or 10**12):
                holders = [seat for seat in range(n) if doc["hands"][seat]]
                assert holders == [loser] and 50 in doc["hands"][loser], "the loser alone holds Maija"


def test_same_seed_same_game_and_seeds_differ(engine):
    game = engine.MustaMaija()
    a, b, c = game.new_state(seed=11), game.new_state(seed=11), game.new_state(seed=12)
    assert a.to_json() == b.to_json() != c.to_json()
    rng = random.Random(5)
    while not a.is_terminal():
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(action)
        assert a.to_json() == b.to_json()


def test_clone_copy_and_deepcopy_are_independent(engine):
    state = engine.MustaMaija(players=3).new_state(seed=3)
    for clone in (state.clone(), copy.copy(state), copy.deepcopy(state)):
        before = state.to_json()
        clone.apply(clone.legal_actions()[0])
        assert state.to_json() == before
        assert clone.to_json() != before
        assert state.history() == []


def test_notation_round_trips_for_every_action_id(engine):
    state = engine.MustaMaija().new_state(seed=1)
    texts = [state.action_to_string(a) for a in range(54)]
    assert texts[:13] == ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc"]
    assert texts[50] == "Qs" and texts[52] == "done" and texts[53] == "take all"
    for action, text in enumerate(texts):
        assert state.string_to_action(text) == action
        assert state.string_to_action(text.upper()) == action
    assert state.string_to_action("  take   ALL ") == 53
    assert state.string_to_action("10h") == 35


def test_game_strings_round_trip(engine):
    from tapete import load
    from tapete.reference import load as reference_load

    loader = load if engine.name == "native" else reference_load
    for options in (
        {},
        {"players": 3},
        {"variant": "pagat", "players": 5},
        {"max_attacks": None},
        {"first_dealer": 2, "match": "first_to_losses", "match_losses": 2},
    ):
        game = engine.MustaMaija(**options)
        text = str(game)
        assert text.startswith("musta_maija(variant=")
        again = loader(text)
        assert again.options == game.options and str(again) == text
    assert str(engine.MustaMaija()) == "musta_maija(variant=standard)"
    assert str(engine.MustaMaija(variant="pagat", players=3)) == "musta_maija(variant=pagat,players=3)"
    assert engine.MustaMaija(variant="pagat").options["trump_reveal"] == "after_first_lead"


def test_deck_deals_one_card_at_a_time(engine):
    # docs/musta_maija_engine.md §5 with first_dealer=3 and the ascending pack: seat 0 (= dealer+1) receives
    # d[0], d[4], d[8], d[12], d[16]; the stock d[20..51] turns 8d (id 20, not a spade) as trump.
    game = engine.MustaMaija(first_dealer=3)
    state = game.new_state(seed=9, deck=list(range(52)))
    doc = json.loads(state.to_json())
    assert doc["hands"][0] == [0, 4, 8, 12, 16]
    assert doc["hands"][3] == [3, 7, 11, 15, 19]
    assert doc["stock"] == list(range(21, 52)) + [20]
    assert doc["trump"] == 20 and doc["turned"] == [20]
    assert doc["rng"] == "9", "a seat as first dealer and a given deck draw nothing"
    assert state.current_player() == 0 and doc["defender"] == 1


def test_full_moves_equal_their_steps(engine):
    game = engine.MustaMaija()
    spec = dict(hands=[["5h", "9h", "2c"], ["6h", "Kd", "3c"], ["4c", "Qs"], ["5c"]], trump="2s")
    a, b = game.setup(**spec), game.setup(**spec)
    a.play("attack 9h 5h")
    for text in ("5h", "9h", "done"):
        b.apply(text)
    assert a.to_json() == b.to_json()
    a.play("defend 6h -")
    b.apply("6h")
    b.apply("done")
    assert a.to_json() == b.to_json()
    assert a.view(0)["known"][1] == ["9h"], "the picked-up card is seen by everyone"
    c = game.setup(**spec)
    c.play("attack 5h 9h")
    c.play("take all")
    assert c.history() == [30, 34, 52, 53]


def test_view_hides_and_shows_the_right_things(engine):
    game = engine.MustaMaija()
    state = game.setup(hands=[["5h", "9h", "2c"], ["6h", "Kd", "3c"], ["4c", "Qs"], ["5c"]], trump="2s")
    view = state.view(2)
    assert view["hand"] == ["4c", "Qs"] and view["hand_sizes"] == [3, 3, 2, 1]
    assert view["trump"] == "s" and view["trump_card"] == "2s" and view["trump_in_stock"] is False
    assert view["phase"] == "attack" and view["attacker"] == 0 and view["defender"] == 1
    state.play("attack 5h 9h")
    view = state.view(3)
    assert view["target"] == "5h" and view["attack"] == ["5h", "9h"] and view["current_player"] == 1
    state.apply("6h")
    assert state.view(0)["beaten"] == [["5h", "6h"]] and state.view(0)["target"] == "9h"
