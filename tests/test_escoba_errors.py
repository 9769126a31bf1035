"""Bad input raises the typed tapete error with a useful message and leaves the state unchanged."""

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
    # seat 0 to move holding 7d Kc; table 4h 3s: 7d must capture, Kc trails (rules TV-13)
    game = engine.Escoba()
    return game.setup(hands=[["7d", "Kc"], ["2h", "5c"]], table=["4h", "3s"], dealer=1)


@pytest.mark.parametrize("action", [-1, 219, 10**6, 2**64, -(2**70)])
def test_out_of_range_actions(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="219|range"):
        state.apply(action)
    assert state.to_json() == before


def test_illegal_actions_say_what_is_legal(state):
    before = state.to_json()
    for action in (52 + 10, 104, 105, 217, 1):  # take 5d? done, take pile, knock, 2c not in hand
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    with pytest.raises(IllegalActionError, match="legal"):
        state.apply("2h")  # the opponent's card
    assert state.to_json() == before


@pytest.mark.parametrize("text", ["", "7x", "take", "take 7x", "11d", "play 7d", "dne", "take pile 9", "7d 7d"])
def test_notation_that_does_not_parse(state, text):
    before = state.to_json()
    with pytest.raises(InvalidNotationError):
        state.apply(text)
    with pytest.raises(InvalidNotationError):
        state.string_to_action(text)
    assert state.to_json() == before


@pytest.mark.parametrize("action", [True, None, 1.5, [1], b"7d"])
def test_actions_of_the_wrong_type(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError):  # docs/escoba_engine.md §7a: a bool or non-int action
        state.apply(action)
    assert state.to_json() == before


# TV-13: 7d must take 4h 3s (it cannot trail, nor take a part); Kc can only trail; 2h is not on the table
ILLEGAL_MOVES = ["7d", "Kc x 4h", "7d x 4h", "7d x 4h 3s 2h", "2h"]
UNPARSEABLE_MOVES = ["Qq", "Kc x", "x 4h", "7d take 4h", ""]


@pytest.mark.parametrize(
    "move,error",
    [(m, IllegalActionError) for m in ILLEGAL_MOVES] + [(m, InvalidNotationError) for m in UNPARSEABLE_MOVES],
)
def test_full_moves_that_are_not_legal_or_do_not_parse(state, move, error):
    before = state.to_json()
    with pytest.raises(error):
        state.play(move)
    assert state.to_json() == before


def test_full_move_is_atomic_and_correct(state):
    state.play("7d x 4h 3s")
    view = state.view(0)
    assert view["piles"][0] == ["7d", "4h", "3s"] or sorted(view["piles"][0]) == sorted(["7d", "4h", "3s"])
    assert view["table"] == []


@pytest.mark.parametrize("seat", [-1, 2, 99])
def test_wrong_player(state, seat):
    with pytest.raises(InvalidPlayerError):
        state.view(seat)
    with pytest.raises(InvalidPlayerError):
        state.observation(seat)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "no_such_game"},
        {"colour": "red"},
        {"players": 5},
        {"players": "2"},
        {"players": True},
        {"napola": 1},
        {"target": 0},
        {"target": 1.5},
        {"capture_kinds": ["match", "nonsense"]},
        {"capture_kinds": ["match", "match"]},
        {"capture_kinds": "match"},
        {"fewest_cards": "some"},
        {"primiera_mode": "florence"},
        {"milan_tiebreak": []},
        {"milan_tiebreak": ["8"]},
        {"special_cards": {"Zz": 1}},
        {"special_cards": {"Kd": -1}},
        {"cards_per_hand": 4},  # 36 is not a multiple of 2*4
        {"variant": "scopone_9", "players": 2},
        {"variant": "scopone_romano_contrario", "players": 3},
        {"elimination_deal": "some"},
        {"target_mode": "out"},
        {"variant": "tuzzulicchio", "target_mode": "eliminate"},
        {"setenta_mode": "most_sevens", "primiera_mode": "standard"},
        {"win_margin": 0},
        {"void_deal_min_kings": 7},
        {"partnership": "teams"},
        {"target": {"a": 1}},
        {"napola": object()},
        # fidasse's face-down claim would show through pile tops, shown hands and Ks sweeps
        {"variant": "fidasse", "steal": True},
        {"variant": "fidasse", "knocks": {"decino": 10}},
        {"variant": "fidasse", "last_hand_open": True},
        {"variant": "maresciallo", "fidasse": True},
        # builds add plain values; pile items and face-down claims have no build rules
        {"variant": "granja", "matta": "7h"},
        {"variant": "rubamazzo", "builds": True},
        {"variant": "fidasse", "builds": True},
        # the double pack (docs/escoba_engine.md §1a) refuses what its multiset search and scoring do not cover
        {"variant": "maresciallo_80", "players": 2},
        {"variant": "maresciallo_80", "capture_kinds": ["match", "sum", "sum15"]},
        {"variant": "maresciallo_80", "matta": "7h"},
        {"variant": "maresciallo_80", "builds": True},
        {"variant": "maresciallo_80", "special_cards": {"Kd": 1}},
        {"variant": "maresciallo_80", "capture_obligation": "any_card"},
        {"variant": "scopa", "deck": "double_italian80"},
    ],
)
def test_bad_options(engine, options):
    with pytest.raises(InvalidOptionError) as info:
        engine.Escoba(**options)
    assert len(str(info.value)) > 10


def test_bad_options_in_primitives(engine):
    with pytest.raises(InvalidOptionError):
        engine.escoba.capture_options("7d", ["4h", "3s"], fewest_cards="some")
    with pytest.raises(InvalidOptionError):
        engine.escoba.score_deal([["7d"], []], [0, 0], primiera_mode="florence")
    with pytest.raises(InvalidNotationError):
        engine.escoba.capture_options("7x", ["4h"])
    with pytest.raises((InvalidNotationError, InvalidStateError)):
        engine.escoba.capture_options("7d", ["7d"])  # the played card cannot be on the table


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": [["7d", "7d"], ["2h", "2c"]]},  # duplicate card
        {"hands": [["7d"], ["2h"]], "table": ["7d"]},  # card in two places
        {"hands": [["8d"], ["2h"]]},  # not in the 40-card pack
        {"hands": [["Zz"], ["2h"]]},  # not a card
        {"hands": [["7d"], ["2h"], ["3h"]]},  # three hands for two players
        {"hands": [["7d", "Kc", "2c"], ["2h"]], "dealer": 0},  # seat 1 to move with fewer cards than the dealer
        {"hands": [[], []]},  # nobody holds a card
        {"hands": [["7d"], ["2h"]], "stock": ["3h"]},  # stock given but cards missing
        {"hands": [["7d"], ["2h"]], "to_move": 5},
        {"hands": [["7d"], ["2h"]], "scores": [1]},
        {"hands": [["7d"], ["2h"]], "last_capturer": 3},
        {"hands": [["7d"], ["2h"]], "seed": -1},
        {"hands": [[52], ["2h"]]},
        {"hands": [["7d"], ["2h"]], "in_play": [0, 1]},  # in_play needs target_mode=eliminate
    ],
)
def test_impossible_setups(engine, kwargs):
    with pytest.raises(InvalidStateError):
        engine.Escoba().setup(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": [["7d", "7d", "7d"], ["2h", "3h", "4h"], ["2c", "3c", "4c"], ["5c", "6c", "7c"]]},  # a third copy
        {"hands": [["7d"], ["7d"], ["3c"], ["3c"]], "table": ["7d"]},  # a third copy elsewhere
        {"hands": [["8d"], ["2h"], ["2c"], ["3c"]]},  # not in the 40-card ids
        {"hands": [["7d"], ["2h"], ["2c"], ["3c"]], "stock": ["3h", "3h"]},  # copies missing
    ],
)
def test_impossible_setups_double_pack(engine, kwargs):
    with pytest.raises(InvalidStateError):
        engine.Escoba(variant="maresciallo_80").setup(**kwargs)


def test_double_pack_json_refuses_a_third_copy(engine):
    """docs/escoba_engine.md §1a: each id twice in all; a tampered state with a third copy is refused and a
    list holding one id three times is no multiset of the pack."""
    import json

    g = engine.Escoba(variant="maresciallo_80")
    doc = json.loads(g.new_state(1).to_json())
    c = doc["hands"][0][0]
    doc["hands"][0] = sorted(doc["hands"][0][1:] + [c])  # unchanged: sanity
    g.state_from_json(json.dumps(doc, sort_keys=True, separators=(",", ":")))
    tampered = json.loads(json.dumps(doc))
    tampered["table"] = [c, c, c]
    with pytest.raises(InvalidStateError):
        g.state_from_json(json.dumps(tampered))
    tampered = json.loads(json.dumps(doc))
    tampered["stock"] = tampered["stock"] + [c]
    with pytest.raises(InvalidStateError):
        g.state_from_json(json.dumps(tampered))


def test_bad_seeds_and_decks(engine):
    game = engine.Escoba()
    for seed in (-1, 2**64, "7", 1.0, True):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=seed)
    pack = game.new_state(seed=0)
    deck = [13 * s + r for s in range(4) for r in (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)]
    game.new_state(seed=0, deck=deck)  # a full pack is fine
    for bad in (deck[:-1], deck[:-1] + [deck[0]], deck[:-1] + ["8d"], deck[:-1] + ["Zz"]):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=0, deck=bad)
    assert pack.history() == []


def _tamper(text: str, **changes) -> str:
    doc = json.loads(text)
    doc.update(changes)
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def test_malformed_and_tampered_json(engine):
    game = engine.Escoba()
    state = game.new_state(seed=4)
    state.apply(state.legal_actions()[0])
    good = state.to_json()
    doc = json.loads(good)
    hand0 = doc["hands"][0]
    bad_texts = [
        "",
        "{",
        "[]",
        "null",
        good[:-1],
        _tamper(good, version=2),
        _tamper(good, game="mosca"),
        _tamper(good, rng=-5),
        _tamper(good, rng="abc"),
        _tamper(good, to_move=7),
        _tamper(good, dealer=-3),
        _tamper(good, hands=[hand0 + [hand0[0]]] + doc["hands"][1:]),  # duplicated card
        _tamper(good, hands=[[]] + doc["hands"][1:]),  # cards vanish
        _tamper(good, table=doc["table"] + [99]),
        _tamper(good, scores=[0]),
        _tamper(good, options={**doc["options"], "target": 99}),  # another game's options
        _tamper(good, options={**doc["options"], "bogus": 1}),
        _tamper(good, pending=5),
        _tamper(good, history="x"),
        _tamper(good, terminal="no"),
        json.dumps({k: v for k, v in doc.items() if k != "stock"}),
    ]
    for text in bad_texts:
        with pytest.raises(InvalidStateError):
            game.state_from_json(text)
    with pytest.raises(InvalidStateError):
        game.state_from_json(b"{}")  # type: ignore[arg-type]
    assert game.state_from_json(good).to_json() == good


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


def test_primitives_reject_cards_outside_the_pack(engine):
    with pytest.raises(InvalidNotationError):
        engine.escoba.capture_options("8d", ["Ah"])
    with pytest.raises(InvalidNotationError):
        engine.escoba.capture_options("7d", ["9h"])
    with pytest.raises(InvalidNotationError):
        engine.escoba.score_deal([["Tc"], []], [0, 0])


def test_forbidden_first_play_aces_do_not_force_a_capture(engine):
    """docs/escoba_engine.md §3: under any_card only playable cards force a capture, so the mover always has a move.

    Seat 0 holds Ac 5d 6h on the first play of the deal; only Ac could capture (Ad), and it may not
    be played. 5d and 6h cannot capture (no table subset sums to 5 or 6: Ad Kc Qs Jh), so both trail.
    """
    game = engine.Escoba(forbid_ace_first_play=True, capture_obligation="any_card")
    state = game.setup(hands=[["Ac", "5d", "6h"], ["2c", "3c", "4c"]], table=["Ad", "Kc", "Qs", "Jh"])
    assert state.legal_actions() == [17, 31]  # PLAY(5d) = 13 + 4, PLAY(6h) = 26 + 5


@pytest.mark.parametrize(
    "options",
    [
        {"target": 10**9 + 1},
        {"target": 2**63},
        {"target": 10**5000},
        {"scopa_value": 2**70},
        {"special_cards": {"Kd": 10**10}},
        {"milan_tiebreak": ["a"]},
        {"void_deal_min_kings": 1, "void_deal_min_aces": 1, "initial_table_cards": 36, "cards_per_hand": 2},
        {"milan_tiebreak": [[[[[[[[[[["7"]]]]]]]]]]]},
    ],
)
def test_options_out_of_range(engine, options):
    with pytest.raises(InvalidOptionError):
        engine.Escoba(**options)


def test_game_strings_out_of_range():
    import tapete

    for text in ("escoba(target=" + "9" * 5000 + ")", "escoba(milan_tiebreak=" + "[" * 3000 + "]" * 3000 + ")"):
        with pytest.raises(InvalidOptionError):
            tapete.load(text)


def test_setup_scores_may_be_negative_but_bounded(engine):
    game = engine.Escoba()
    state = game.setup(hands=[["7d"], ["7c"]], scores=[-5, 3])  # docs/rules/escoba.md §1.9: scores may go negative
    assert state.scores() == [-5, 3]
    for scores in ([10**16, 0], [2**63, 0], [10**5000, 0]):
        with pytest.raises(InvalidStateError):
            game.setup(hands=[["7d"], ["7c"]], scores=scores)
    with pytest.raises(InvalidStateError):
        game.setup(hands=[["7d"], ["7c"]], scope=[30, 11])  # more sweeps than plays in a deal


@pytest.mark.parametrize("bad", [None, b"7d", 5, "\ud800"])
def test_text_arguments_of_the_wrong_kind(engine, bad):
    state = engine.Escoba().new_state(seed=1)
    before = state.to_json()
    with pytest.raises(InvalidNotationError):
        state.play(bad)
    with pytest.raises(InvalidNotationError):
        state.string_to_action(bad)
    with pytest.raises(InvalidStateError):
        engine.Escoba().state_from_json(bad)
    assert state.to_json() == before


def test_list_arguments_of_the_wrong_kind(engine):
    with pytest.raises(InvalidStateError):
        engine.Escoba().new_state(0, deck=5)
    with pytest.raises(InvalidNotationError):
        engine.escoba.capture_options("7d", None)
    with pytest.raises(InvalidStateError):
        engine.escoba.score_deal(None, [0, 0])
    with pytest.raises(InvalidStateError):
        engine.escoba.score_deal([[], []], 5)


def test_simulate_bounds():
    import tapete

    for kwargs in ({"games": 2**60}, {"games": 1, "threads": 2**40}, {"games": 1, "threads": -1}):
        with pytest.raises(InvalidOptionError):
            tapete.simulate(tapete.Escoba(), **kwargs)


def test_states_with_many_sweeps_round_trip(engine):
    """setup may give 40 earlier sweeps; a sweep made after that must still round-trip (docs/escoba_engine.md §8)."""
    game = engine.Escoba()
    state = game.setup(hands=[["7d", "2c"], ["Kc", "3c"]], table=["4h", "3s"], scope=[40, 0])
    state.play("7d x 4h 3s")  # 7 = 4 + 3 empties the table: a sweep, not the last play
    assert state.view(0)["scope"] == [41, 0]
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()
