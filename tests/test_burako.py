"""What only Burako has, through the public API on both engines: its notation, resolved options,
the view of a turn, the play text, meld primitives, and what the view shows and hides
(docs/rules/burako.md §2 "Visibility"). What every game has is in tests/test_games.py, Burako's
data for it in tests/games/burako.py."""

from __future__ import annotations

import json

import pytest

from games import assert_not_shown, assert_refused
from tapete.errors import IllegalActionError, InvalidNotationError, InvalidOptionError, InvalidStateError


def test_notation_texts(engine):
    state = engine.Burako().new_state(seed=0)
    assert state.action_to_string(0) == "draw"
    assert state.action_to_string(1) == "take pozo"
    assert state.action_to_string(2) == "redraw"
    assert state.action_to_string(3 + 4) == "add R5"
    assert state.action_to_string(56) == "meld"
    assert state.action_to_string(57) == "cancel"
    assert state.action_to_string(58 + 25) == "discard K13"
    assert state.action_to_string(111 + 53 * 3 + 32) == "extend 3 B7"
    assert state.action_to_string(3 + 52) == "add J*"
    assert state.string_to_action("  Take   POZO ") == 1


def test_a_turn_by_its_texts(engine):
    state = engine.Burako(first_mano=0).new_state(seed=2)
    state.apply("draw")
    tile = state.view(0)["rack"][0]
    state.apply(f"discard {tile}")
    assert state.view(1)["pozo"][-1] == tile
    assert state.history()[0] == 0


def test_resolved_options(engine):
    game = engine.Burako(players=2)
    assert game.options["players"] == 2 and game.options["variant"] == "standard"
    assert len(engine.Burako().options) == 29
    assert engine.Burako(players=2, first_mano=1).options["first_mano"] == 1


def test_views_after_a_draw(engine):
    state = engine.Burako(first_mano=0).new_state(seed=9)
    state.apply("draw")
    for p in range(4):
        assert state.view(p)["rack_sizes"] == [12, 11, 11, 11]
    assert state.view(0)["drawn"] is not None and state.view(1)["drawn"] is None


def test_str_shows_racks_melds_and_pozo(engine):
    state = engine.Burako(players=2).setup(
        racks=[["R3", "R4", "R5", "K9"], ["Y1", "Y2"]],
        phase="meld",
        melds=[[["B5", "B6", "B7", "B8", "B9", "B10", "B11"]], []],
        pozo=["K1"],
    )
    text = str(state)
    assert "R3" in text and "K1" in text and "B11" in text
    if engine.name == "native":
        assert "CANASTA" in text and "pure" in text


def test_view_shows_melds_and_the_pozo_but_no_hidden_tile(engine):
    s = engine.Burako(players=4).setup(
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
    assert_not_shown(view, ["Y11", "Y12", "B6", "B7", "K2"])  # the other racks
    doc = json.loads(s.to_json())

    def word(t: int) -> str:
        return "J*" if t == 52 else "RKBY"[t // 13] + str(t % 13 + 1)

    words = {word(t) for m in doc["muertos"] for t in m} | {word(t) for t in doc["stock"]}
    visible = set(view["rack"]) | {"Y3", "B13", "R5", "R6", "R7", "B1", "K1", "Y1"}
    assert_not_shown(view, [f'"{w}"' for w in words - visible])  # the muertos and the stock
    # the buffer is private to its owner: seat 1 sees seat 0's rack size including it
    s.apply("add R3")
    assert s.view(1)["buffer"] == [] and s.view(1)["rack_sizes"] == [3, 2, 2, 2]
    assert s.view(0)["buffer"] == ["R3"] and s.view(0)["rack"] == ["R4", "K9"]


# -- melds ---------------------------------------------------------------------------------------


# Every invalid meld shape of the vectors (TV-B06, B11, B14, B15, B16, B17, B21) is None, not an error.
@pytest.mark.parametrize(
    "tiles",
    [
        ["R13", "R1", "R2", "R3"],
        ["R3", "R4", "B5"],
        ["R9", "J*", "B2"],
        ["R2", "B2", "Y2"],
        ["R7", "B7", "K7", "J*", "R2"],
        ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "R10", "R11", "R12", "R13", "R1", "J*"],
        ["R4", "R5", "R6", "J*", "J*"],
        [],
        ["R3", "R4"],
    ],
)
def test_invalid_meld_shapes(engine, tiles):
    assert engine.burako.classify_meld(tiles) is None


def test_invalid_melds_cannot_be_committed(engine):
    # the vectors' invalid shapes, built in the buffer, never make `meld` legal
    for tiles in (
        ["R13", "R1", "R2", "R3"],
        ["R3", "R4", "B5"],
        ["R9", "J*", "B2"],
        ["R2", "B2", "Y2"],
        ["R4", "R5", "R6", "J*", "J*"],
    ):
        rack = tiles + ["K9", "K11"]
        state = engine.Burako().setup(racks=[rack, ["Y1"], ["Y3"], ["Y4"]], phase="meld")
        for t in sorted(tiles, key=lambda x: state.string_to_action(f"add {x}")):
            state.apply(f"add {t}")
        assert 56 not in state.legal_actions()
        assert_refused(state, "apply", "meld", IllegalActionError)


def test_primitive_errors(engine):
    b = engine.burako
    with pytest.raises(InvalidNotationError):
        b.classify_meld(["R3", "R4", "X5"])
    with pytest.raises(InvalidNotationError):
        b.classify_meld(["R3", "R4", 53])
    with pytest.raises(InvalidStateError):
        b.classify_meld(["R3", "R3", "R3"])
    with pytest.raises(InvalidStateError):
        b.classify_meld("R3 R4 R5")
    with pytest.raises(InvalidOptionError):
        b.classify_meld(["R3", "R4", "R5"], wilds=3)
    with pytest.raises(InvalidStateError):
        b.score_team([["R3", "R4", "B5"]], [], False, False)  # not a meld
    with pytest.raises(InvalidStateError):
        b.score_team([["R3", "R4", "R5"]], [["R3", "R3"]], False, False)  # R3 three times
    with pytest.raises(InvalidStateError):
        b.score_team([], [], 1, False)
    with pytest.raises(InvalidNotationError):
        b.score_team([], [["Z1"]], False, False)
