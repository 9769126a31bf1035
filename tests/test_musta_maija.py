"""What only Musta Maija has, through the public API on both engines: its notation, game strings
and preset, the deal of a given deck, full moves, the view, rule primitives, and the public picked-up
cards (docs/rules/musta_maija.md §1 "Visibility"). What every game has is in tests/test_games.py,
Musta Maija's data for it in tests/games/musta_maija.py."""

from __future__ import annotations

import json

import pytest

from games import assert_not_shown
from games.musta_maija import GAME_STRINGS
from tapete.errors import InvalidNotationError, InvalidOptionError, InvalidStateError

SPEC = {"hands": [["5h", "9h", "2c"], ["6h", "Kd", "3c"], ["4c", "Qs"], ["5c"]], "trump": "2s"}


def test_notation_texts(engine):
    state = engine.MustaMaija().new_state(seed=1)
    texts = [state.action_to_string(a) for a in range(54)]
    assert texts[:13] == ["Ac", "2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "Tc", "Jc", "Qc", "Kc"]
    assert texts[50] == "Qs" and texts[52] == "done" and texts[53] == "take all"
    assert state.string_to_action("  take   ALL ") == 53
    assert state.string_to_action("10h") == 35


def test_game_strings_name_the_variant(engine):
    import tapete

    for text in GAME_STRINGS:
        game = engine.load(text) if engine.name == "reference" else tapete.load(text)
        assert str(game).startswith("musta_maija(variant=")
    assert engine.MustaMaija(variant="pagat").options["trump_reveal"] == "after_first_lead"


def test_deck_deals_one_card_at_a_time(engine):
    # docs/musta_maija_engine.md §5 with first_dealer=3 and the ascending pack: seat 0 (= dealer+1) receives
    # d[0], d[4], d[8], d[12], d[16]; the stock d[20..51] turns 8d (id 20, not a spade) as trump.
    state = engine.MustaMaija(first_dealer=3).new_state(seed=9, deck=list(range(52)))
    doc = json.loads(state.to_json())
    assert doc["hands"][0] == [0, 4, 8, 12, 16]
    assert doc["hands"][3] == [3, 7, 11, 15, 19]
    assert doc["stock"] == list(range(21, 52)) + [20]
    assert doc["trump"] == 20 and doc["turned"] == [20]
    assert doc["rng"] == "9", "a seat as first dealer and a given deck draw nothing"
    assert state.current_player() == 0 and doc["defender"] == 1


def test_full_moves_equal_their_steps(engine):
    game = engine.MustaMaija()
    a, b = game.setup(**SPEC), game.setup(**SPEC)
    a.play("attack 9h 5h")
    for text in ("5h", "9h", "done"):
        b.apply(text)
    assert a.to_json() == b.to_json()
    a.play("defend 6h -")
    b.apply("6h")
    b.apply("done")
    assert a.to_json() == b.to_json()
    assert a.view(0)["known"][1] == ["9h"], "the picked-up card is seen by everyone"
    c = game.setup(**SPEC)
    c.play("attack 5h 9h")
    c.play("take all")
    assert c.history() == [30, 34, 52, 53]


def test_view_hides_and_shows_the_right_things(engine):
    state = engine.MustaMaija().setup(**SPEC)
    view = state.view(2)
    assert view["hand"] == ["4c", "Qs"] and view["hand_sizes"] == [3, 3, 2, 1]
    assert view["trump"] == "s" and view["trump_card"] == "2s" and view["trump_in_stock"] is False
    assert view["phase"] == "attack" and view["attacker"] == 0 and view["defender"] == 1
    state.play("attack 5h 9h")
    view = state.view(3)
    assert view["target"] == "5h" and view["attack"] == ["5h", "9h"] and view["current_player"] == 1
    state.apply("6h")
    assert state.view(0)["beaten"] == [["5h", "6h"]] and state.view(0)["target"] == "9h"


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
    assert_not_shown(s.view(0), ["9c", "2h", "5s", "Ac", "Qc", "Ad", "Qs"])  # other hands and the stock


def test_primitives_reject_bad_input(engine):
    mm = engine.musta_maija
    with pytest.raises(InvalidOptionError):
        mm.can_beat("9h", "Jh", "d", attack_limit="some")
    with pytest.raises(InvalidOptionError):
        mm.legal_attacks(["7h"], 2, nonsense=1)
    with pytest.raises(InvalidNotationError):
        mm.can_beat("9x", "Jh", "d")
    with pytest.raises(InvalidNotationError):
        mm.can_beat("9h", "Jh", "x")
    with pytest.raises(InvalidNotationError):
        mm.can_beat("9h", "Jh", 4)
    with pytest.raises(InvalidStateError):
        mm.can_beat("9h", "9h", "d")
    with pytest.raises(InvalidStateError):
        mm.legal_attacks(["7h", "7h"], 2)
    with pytest.raises(InvalidStateError):
        mm.legal_attacks(["7h"], -1)
    with pytest.raises(InvalidStateError):
        mm.legal_attacks(["7h"], "2")
    with pytest.raises(InvalidNotationError):
        mm.legal_attacks(["7z"], 2)
    with pytest.raises(InvalidStateError):
        mm.trump_from_stock([])
    with pytest.raises(InvalidStateError):
        mm.trump_from_stock(["7h", "7h"])
    with pytest.raises(InvalidNotationError):
        mm.trump_from_stock(["7h", "Zz"])
    # the primitives still answer correctly after the errors (TV-MM07, TV-MM02)
    assert mm.can_beat("9h", "2d", "d") is True
    assert mm.trump_from_stock(["7h", "2c"]) == ("7h", ["2c", "7h"])
