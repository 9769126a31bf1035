"""What only Escoba has, through the public API on both engines: its resolved presets, full moves,
rule primitives, the double pack's JSON, and scenarios of its rules. What every game has is in
tests/test_games.py, Escoba's data for it in tests/games/escoba.py."""

from __future__ import annotations

import json

import pytest

from games import assert_not_shown, canonical
from tapete.errors import InvalidNotationError, InvalidOptionError, InvalidStateError


def test_presets_and_default_targets(engine):
    # the escoba preset (docs/rules/escoba.md §2.5): target 21, sum15 only, setenta as most sevens
    game = engine.Escoba(variant="escoba", players=4)
    assert game.options["target"] == 21
    assert game.options["capture_kinds"] == ["sum15"]
    assert game.options["primiera_mode"] == "milan" and game.options["milan_tiebreak"] == ["7"]
    # docs/rules/escoba.md §1.9 default targets
    assert engine.Escoba(players=2).options["target"] == 11
    assert engine.Escoba(players=3).options["target"] == 16
    assert engine.Escoba(players=4).options["target"] == 21
    assert engine.Escoba(players=4, partnership="none").options["target"] == 16


def tv13(engine):
    # seat 0 to move holding 7d Kc; table 4h 3s: 7d must capture, Kc trails (rules TV-13)
    return engine.Escoba().setup(hands=[["7d", "Kc"], ["2h", "5c"]], table=["4h", "3s"], dealer=1)


def test_full_move_is_atomic_and_correct(engine):
    state = tv13(engine)
    state.play("7d x 4h 3s")
    view = state.view(0)
    assert sorted(view["piles"][0]) == sorted(["7d", "4h", "3s"])
    assert view["table"] == []


def test_view_holds_only_public_information(engine):
    view = tv13(engine).view(0)
    assert view["hand"] == ["Kc", "7d"]  # ascending ids: Kc = 12, 7d = 19
    assert view["hand_sizes"] == [2, 2]
    assert view["stock_size"] == 40 - 6
    assert_not_shown(view, ["2h", "5c"])  # the opponent's hand
    assert_not_shown(view, ["Ac", "Qs", "6d"])  # stock cards never appear in a view


def test_forbidden_first_play_aces_do_not_force_a_capture(engine):
    """docs/escoba_engine.md §3: under any_card only playable cards force a capture, so the mover always has a move.

    Seat 0 holds Ac 5d 6h on the first play of the deal; only Ac could capture (Ad), and it may not
    be played. 5d and 6h cannot capture (no table subset sums to 5 or 6: Ad Kc Qs Jh), so both trail.
    """
    game = engine.Escoba(forbid_ace_first_play=True, capture_obligation="any_card")
    state = game.setup(hands=[["Ac", "5d", "6h"], ["2c", "3c", "4c"]], table=["Ad", "Kc", "Qs", "Jh"])
    assert state.legal_actions() == [17, 31]  # PLAY(5d) = 13 + 4, PLAY(6h) = 26 + 5


def test_setup_scores_may_be_negative(engine):
    state = engine.Escoba().setup(hands=[["7d"], ["7c"]], scores=[-5, 3])  # docs/rules/escoba.md §1.9
    assert state.scores() == [-5, 3]


def test_states_with_many_sweeps_round_trip(engine):
    """setup may give 40 earlier sweeps; a sweep made after that must still round-trip (docs/escoba_engine.md §8)."""
    game = engine.Escoba()
    state = game.setup(hands=[["7d", "2c"], ["Kc", "3c"]], table=["4h", "3s"], scope=[40, 0])
    state.play("7d x 4h 3s")  # 7 = 4 + 3 empties the table: a sweep, not the last play
    assert state.view(0)["scope"] == [41, 0]
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


def test_double_pack_json_refuses_a_third_copy(engine):
    """docs/escoba_engine.md §1a: each id twice in all; a tampered state with a third copy is refused and a
    list holding one id three times is no multiset of the pack."""
    game = engine.Escoba(variant="maresciallo_80")
    doc = json.loads(game.new_state(1).to_json())
    c = doc["hands"][0][0]
    doc["hands"][0] = sorted(doc["hands"][0][1:] + [c])  # unchanged: sanity
    game.state_from_json(canonical(doc))
    for change in ({"table": [c, c, c]}, {"stock": doc["stock"] + [c]}):
        with pytest.raises(InvalidStateError):
            game.state_from_json(canonical({**doc, **change}))


# -- the rule primitives -------------------------------------------------------------------------


def test_primitives_refuse_bad_options_and_cards(engine):
    e = engine.escoba
    with pytest.raises(InvalidOptionError):
        e.capture_options("7d", ["4h", "3s"], fewest_cards="some")
    with pytest.raises(InvalidOptionError):
        e.score_deal([["7d"], []], [0, 0], primiera_mode="florence")
    with pytest.raises(InvalidNotationError):
        e.capture_options("7x", ["4h"])
    with pytest.raises((InvalidNotationError, InvalidStateError)):
        e.capture_options("7d", ["7d"])  # the played card cannot be on the table
    # cards outside the pack
    with pytest.raises(InvalidNotationError):
        e.capture_options("8d", ["Ah"])
    with pytest.raises(InvalidNotationError):
        e.capture_options("7d", ["9h"])
    with pytest.raises(InvalidNotationError):
        e.score_deal([["Tc"], []], [0, 0])
    # lists of the wrong kind
    with pytest.raises(InvalidNotationError):
        e.capture_options("7d", None)
    with pytest.raises(InvalidStateError):
        e.score_deal(None, [0, 0])
    with pytest.raises(InvalidStateError):
        e.score_deal([[], []], 5)


@pytest.mark.parametrize(
    "piles,scope",
    [
        ([], []),  # no side
        ([["7d"]] * 7, [0] * 7),  # more sides than any game has
        ([["7d"], ["Kc"]], [0]),  # one scope entry short
        ([["7d"], ["Kc"]], [0, -1]),  # a negative sweep count
        ([["7d"], ["7d"]], [0, 0]),  # a card in two piles
    ],
)
def test_score_deal_rejects_impossible_piles(engine, piles, scope):
    with pytest.raises(InvalidStateError):
        engine.escoba.score_deal(piles, scope)
