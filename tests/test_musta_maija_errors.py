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
    # seat 0 attacks seat 1 (3 cards); trump spades (the 2s is out of play)
    return engine.MustaMaija().setup(hands=[["5h", "9h", "7d"], ["6h", "Kd", "3c"], ["4c", "Qs"], ["5c"]], trump="2s")


@pytest.mark.parametrize("action", [-1, 54, 10**6, 2**64, -(2**70)])
def test_out_of_range_actions(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="54|range"):
        state.apply(action)
    with pytest.raises(IllegalActionError):
        state.action_to_string(action)
    assert state.to_json() == before


def test_illegal_actions_say_what_is_legal(state):
    before = state.to_json()
    for action in (52, 53, 31, 0):  # done with no card, take all in attack, 6h (seat 1's), Ac
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    state.apply("7d")
    before = state.to_json()
    for text in ("5h", "9h"):  # another suit after 7d (TV-MM03 / TV-MM24)
        with pytest.raises(IllegalActionError, match="legal"):
            state.apply(text)
    assert state.to_json() == before


@pytest.mark.parametrize("text", ["", "7x", "take", "all", "take al", "11d", "play 7d", "dne", "7d 7d", "-"])
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
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before


ILLEGAL_MOVES = [
    "attack 5h 7d",  # two suits (TV-MM03)
    "attack 5h 5h",  # a card twice
    "attack 4c",  # not in the attacker's hand
    "defend 6h",  # not in the defence phase
    "take all",  # not in the defence phase
    "attack 5h 9h 7d",
]
UNPARSEABLE_MOVES = ["attack", "attack 5x", "defend 6h x", "beat 6h", "", "take", "attack - 5h"]


@pytest.mark.parametrize(
    "move,error",
    [(m, IllegalActionError) for m in ILLEGAL_MOVES] + [(m, InvalidNotationError) for m in UNPARSEABLE_MOVES],
)
def test_full_moves_that_are_not_legal_or_do_not_parse(state, move, error):
    before = state.to_json()
    with pytest.raises(error):
        state.play(move)
    assert state.to_json() == before


@pytest.mark.parametrize("move", ["defend 6h", "defend 6h - -", "defend Kd -", "attack 3c", "defend 9h -"])
def test_defence_moves_that_are_not_legal(state, move):
    state.play("attack 5h 9h")
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.play(move)
    assert state.to_json() == before
    state.apply("6h")
    with pytest.raises(IllegalActionError):  # only at the start of a defence
        state.play("take all")


@pytest.mark.parametrize("seat", [-1, 4, 99, "0", 1.0, None])
def test_wrong_player(state, seat):
    with pytest.raises(InvalidPlayerError):
        state.view(seat)
    with pytest.raises(InvalidPlayerError):
        state.observation(seat)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "durak"},
        {"colour": "red"},
        {"players": 1},
        {"players": 7},
        {"players": "4"},
        {"players": True},
        {"hand_size": 0},
        {"hand_size": 13},  # 4 * 13 = 52 leaves no stock
        {"players": 6, "hand_size": 9},
        {"first_dealer": 4},
        {"first_dealer": "left"},
        {"first_dealer": True},
        {"trump_reveal": "never"},
        {"spades_can_be_trump": "yes"},
        {"spade_reinsert": "top"},
        {"attack_limit": 5},
        {"beat_optional": 0},
        {"draw_order": "random"},
        {"next_dealer": "winner"},
        {"match": "best_of_3"},
        {"match_hands": 0},
        {"match_losses": 1.5},
        {"max_attacks": 0},
        {"max_attacks": 10**10},
        {"max_attacks": "none"},
        {"hand_size": object()},
    ],
)
def test_bad_options(engine, options):
    with pytest.raises(InvalidOptionError) as info:
        engine.MustaMaija(**options)
    assert len(str(info.value)) > 10


def test_bad_input_to_primitives(engine):
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


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": [["7d", "7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},  # duplicate card
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "stock": ["7d"]},  # card in two places
        {"hands": [["Zz"], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},  # not a card
        {"hands": [["7d"], ["2h"], ["Qs"]], "trump": "2s"},  # three hands for four players
        {"hands": [["7d"], ["2h"], ["3c"], ["4c"]], "trump": "2s"},  # Qs out of play
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]]},  # no trump with an empty stock
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "stock": ["4h", "5h"], "trump": "4h"},  # trump not last
        {"hands": [["7d"], [], ["Qs"], ["3c"]], "stock": ["4h"]},  # empty hand with a stock
        {"hands": [[], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},  # the attacker holds nothing
        {"hands": [["Qs"], [], [], []], "trump": "2s"},  # the hand is over
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s", "attacker": 4},
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s", "known": [["2h"], [], [], []]},
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s", "losses": [1, 0, 0, 0]},  # single hand over
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s", "attacks": 1000},
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s", "seed": -1},
        {"hands": [["7d"], ["2h"], ["Qs"], ["3c"]], "trump": "2s", "out_of_play": ["2s"]},  # cards missing
        {"hands": [[52], ["2h"], ["Qs"], ["3c"]], "trump": "2s"},
    ],
)
def test_impossible_setups(engine, kwargs):
    with pytest.raises(InvalidStateError):
        engine.MustaMaija().setup(**kwargs)


def test_bad_seeds_and_decks(engine):
    game = engine.MustaMaija()
    for seed in (-1, 2**64, "7", 1.0, True):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=seed)
    deck = list(range(52))
    game.new_state(seed=0, deck=deck)
    for bad in (deck[:-1], deck[:-1] + [0], deck[:-1] + ["Zz"], deck + [0], "Ac 2c"):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=0, deck=bad)


def _tamper(text: str, **changes) -> str:
    doc = json.loads(text)
    doc.update(changes)
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def test_malformed_and_tampered_json(engine):
    game = engine.MustaMaija()
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
        _tamper(good, game="escoba"),
        _tamper(good, rng=-5),
        _tamper(good, rng="abc"),
        _tamper(good, to_move=7),
        _tamper(good, dealer=-3),
        _tamper(good, hands=[hand0 + [hand0[0]]] + doc["hands"][1:]),
        _tamper(good, hands=[[]] + doc["hands"][1:]),
        _tamper(good, attack=doc["attack"] + [99]),
        _tamper(good, losses=[0]),
        _tamper(good, options={**doc["options"], "players": 3}),
        _tamper(good, options={**doc["options"], "bogus": 1}),
        _tamper(good, phase="defend"),
        _tamper(good, history="x"),
        _tamper(good, terminal="no"),
        _tamper(good, trump=60),
        _tamper(good, hand=2),
        _tamper(good, out_of_play=[50]),
        json.dumps({k: v for k, v in doc.items() if k != "stock"}),
    ]
    for text in bad_texts:
        with pytest.raises(InvalidStateError):
            game.state_from_json(text)
    with pytest.raises(InvalidStateError):
        game.state_from_json(b"{}")  # type: ignore[arg-type]
    assert game.state_from_json(good).to_json() == good
