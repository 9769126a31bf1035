"""Bad input to Burako raises the typed tapete error and leaves the state unchanged (docs/burako_engine.md §13)."""

from __future__ import annotations

import json

import pytest

from tapete.errors import (
    IllegalActionError,
    InvalidNotationError,
    InvalidOptionError,
    InvalidPlayerError,
    InvalidStateError,
)


@pytest.fixture
def state(engine):
    # TV-B35: rack {R3, R4, K9, B1} in the meld phase
    return engine.Burako().setup(racks=[["R3", "R4", "K9", "B1"], ["Y1"], ["Y2"], ["Y3"]], phase="meld")


@pytest.mark.parametrize("action", [-1, 1966, 10**6, 2**64, -(2**70)])
def test_out_of_range_actions(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="range|1965"):
        state.apply(action)
    assert state.to_json() == before


def test_illegal_actions(state):
    before = state.to_json()
    # draw in the meld phase, redraw off the first turn, add a tile not held, meld/cancel with an
    # empty buffer, discard a tile not held, extend a slot that holds no meld
    for action in (0, 1, 2, 3 + 52, 56, 57, 58 + 52, 111, 111 + 53 * 34 + 2):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    state.apply("add R4")
    after = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply("add R3")  # non-decreasing buffer order (docs/rules/burako.md §5.3)
    with pytest.raises(IllegalActionError):
        state.apply("discard K9")  # TV-B35: the buffer must be empty
    with pytest.raises(IllegalActionError):
        state.apply("meld")  # {R4} is no meld
    assert state.to_json() == after


@pytest.mark.parametrize(
    "text",
    [
        "",
        "drw",
        "take",
        "add",
        "add R0",
        "add R14",
        "add X5",
        "discard J",
        "extend R5",
        "extend 35 R5",
        "extend -1 R5",
        "extend x R5",
        "meld now",
        "add R5 R6",
    ],
)
def test_notation_that_does_not_parse(state, text):
    before = state.to_json()
    with pytest.raises(InvalidNotationError):
        state.apply(text)
    with pytest.raises(InvalidNotationError):
        state.string_to_action(text)
    assert state.to_json() == before


@pytest.mark.parametrize("action", [True, None, 1.5, [1], b"draw"])
def test_actions_of_the_wrong_type(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before


@pytest.mark.parametrize(
    "options",
    [
        {"nope": 1},
        {"players": 3},
        {"players": True},
        {"players": "4"},
        {"two_player_hand": 13},
        {"max_wilds_per_meld": 3},
        {"max_wilds_per_meld": "many"},
        {"max_wilds_per_meld": "Unlimited"},
        {"max_wilds_per_meld": None},
        {"run_wrap": 1},
        {"run_wrap": "true"},
        {"first_mano": 4},
        {"first_mano": -1},
        {"canasta_min": 2},
        {"canasta_min": 15},
        {"target": 0},
        {"max_turns": 10**10},
        {"twos_wild": 1},
        {"close_mode": "never"},
        {"joker_value": 40},
        {"muerto_size": 12},
        {"variant": "brazil"},
        {"max_cancels_per_turn": 0},
        {"max_hands": 1.5},
    ],
)
def test_bad_options(engine, options):
    with pytest.raises(InvalidOptionError):
        engine.Burako(**options)


def test_first_mano_is_a_seat_of_the_game(engine):
    with pytest.raises(InvalidOptionError):
        engine.Burako(players=2, first_mano=2)
    assert engine.Burako(players=2, first_mano=1).options["first_mano"] == 1


@pytest.mark.parametrize("seat", [-1, 4, 99, "0", None, 1.0])
def test_bad_seats(state, seat):
    with pytest.raises(InvalidPlayerError):
        state.view(seat)
    with pytest.raises(InvalidPlayerError):
        state.observation(seat)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("racks"),
        lambda d: d.update(racks=d["racks"][:3]),
        lambda d: d.update(stock=d["stock"][1:]),  # a tile goes missing
        lambda d: d.update(stock=d["stock"] + [0]),  # a tile three times
        lambda d: d.update(rng="-1"),
        lambda d: d.update(phase="play"),
        lambda d: d.update(version=2),
        lambda d: d.update(melds=[[{"kind": "run", "tiles": [0, 13, 26]}], []]),
        lambda d: d.update(extra=1),
        lambda d: d.update(to_move=7),
        lambda d: d.update(muerto_status=[3, 0]),
        lambda d: d.update(options={**d["options"], "players": 2}),
    ],
)
def test_bad_state_json(engine, mutate):
    game = engine.Burako()
    d = json.loads(game.new_state(seed=4).to_json())
    mutate(d)
    with pytest.raises(InvalidStateError):
        game.state_from_json(json.dumps(d))
    with pytest.raises(InvalidStateError):
        game.state_from_json("{not json")
    with pytest.raises(InvalidStateError):
        game.state_from_json(17)


def test_bad_new_state_arguments(engine):
    game = engine.Burako()
    for seed in (-1, 2**64, "7", 1.5, True):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=seed)
    for deck in (["R1"] * 106, list(range(53)), "R1 R2", [0, 0] * 53):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=0, deck=deck)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"racks": [["R1"], ["R1"], ["R1"], []]},  # R1 three times
        {"racks": [["R1"]] * 3},  # wrong number of racks
        {"racks": [["Q5"], [], [], []]},
        {"racks": [[], [], [], []], "melds": [[["R3", "R4", "B5"]], []]},  # TV-B11 is no meld
        {"racks": [["R3"], [], [], []], "phase": "draw", "buffer": ["R4"]},
        {"racks": [["R3"], [], [], []], "to_move": 4},
        {"racks": [["R3"], [], [], []], "muerto_status": ["gone", 0]},
        {"racks": [["R3"], [], [], []], "phase": "play"},
    ],
)
def test_bad_setup(engine, kwargs):
    with pytest.raises(InvalidStateError):
        engine.Burako().setup(**kwargs)


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
        before = state.to_json()
        assert 56 not in state.legal_actions()
        with pytest.raises(IllegalActionError):
            state.apply("meld")
        assert state.to_json() == before


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
