"""Bad input to the Mosca engines raises the typed tapete error (docs/mosca_engine.md §7) with a useful
message and leaves the state unchanged; on both engines."""

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

HANDS = [["Kc", "Qc", "Jd", "9h", "Js"], ["Ks", "7h", "Ac", "9d", "Td"], ["Jc", "Tc", "Th", "Qs", "9s"]]


@pytest.fixture
def state(engine):
    # seat 1 (the mano, dealer 0) declares holding TV-M09's hand
    return engine.Mosca(players=3).setup(hands=HANDS, turnup="Qd", dealer=0)


@pytest.mark.parametrize("action", [-1, 91, 10**6, 2**64, -(2**70)])
def test_out_of_range_actions(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError, match="range"):
        state.apply(action)
    assert state.to_json() == before


def test_illegal_actions(state):
    before = state.to_json()
    # a card play, the turn-up step and leave turnup are not legal while declaring (TV-M12)
    for action in (0, 51, 85, 89, 90):
        with pytest.raises(IllegalActionError):
            state.apply(action)
        assert state.to_json() == before
    with pytest.raises(IllegalActionError):
        state.apply("take turnup slot 1")
    with pytest.raises(IllegalActionError):
        state.apply("Ks")  # a card of one's hand, but nobody plays cards yet
    assert state.to_json() == before


def test_talon_exhaustion_makes_big_exchanges_illegal(engine):
    # TV-M01/TV-M08 pattern with deck 32 and 6 players: the talon holds 1 card
    game = engine.Mosca(players=6, deck=32, first_dealer=0)
    state = game.new_state(seed=3)
    if state.view(0)["phase"] == "declare" and state.view(0)["deals_played"] == 0:
        assert state.view(0)["talon_size"] == 1
        before = state.to_json()
        with pytest.raises(IllegalActionError):
            state.apply(53 + 0b11)
        assert state.to_json() == before
        assert state.legal_actions() == [52, 53, 54, 55, 57, 61, 69]


@pytest.mark.parametrize(
    "text",
    [
        "",
        "7x",
        "fold",
        "play x",
        "play x Qh",
        "play x Ac Ac",
        "play slots",
        "play slots 5",
        "play slots 0 0",
        "take turnup",
        "take turnup Ks",
        "take turnup slot 7",
        "leave",
        "11d",
        "play y 9d",
    ],
)
def test_notation_that_does_not_parse_or_resolve(state, text):
    before = state.to_json()
    with pytest.raises(InvalidNotationError):
        state.apply(text)
    with pytest.raises(InvalidNotationError):
        state.string_to_action(text)
    assert state.to_json() == before


@pytest.mark.parametrize("action", [True, None, 1.5, [1], b"pass"])
def test_actions_of_the_wrong_type(state, action):
    before = state.to_json()
    with pytest.raises(IllegalActionError):
        state.apply(action)
    assert state.to_json() == before


@pytest.mark.parametrize("seat", [-1, 3, 99, "0", None, 1.0])
def test_wrong_player(state, seat):
    with pytest.raises(InvalidPlayerError):
        state.view(seat)
    with pytest.raises(InvalidPlayerError):
        state.observation(seat)


@pytest.mark.parametrize(
    "options",
    [
        {"variant": "loo"},
        {"colour": "red"},
        {"players": 1},
        {"players": 7},
        {"players": "4"},
        {"players": True},
        {"deck": 33},
        {"deck": "36"},
        {"deck": "big"},
        {"first_dealer": 4},
        {"first_dealer": "lot"},
        {"first_dealer": True},
        {"ace_rank": "middle"},
        {"initial_chips": 10**9 + 1},
        {"initial_chips": 1.5},
        {"bankruptcy": "never"},
        {"ante": "dealer_pays_n"},
        {"deal_packets": "5"},
        {"dealer_may_take_turnup": 1},
        {"exchange_limit": "max_4"},
        {"mosca_after_exchange": "yes"},
        {"mosca_tie": "share"},
        {"mosca_bonus": "loo"},
        {"lone_player": "wins"},
        {"must_head": None},
        {"no_trick_penalty": -1},
        {"no_trick_penalty": "all"},
        {"no_trick_penalty": 2**64},
        {"penalty_timing": "later"},
        {"pot_award": "all"},
        {"trick_tie": "split"},
        {"match_deals": 0},
        {"match_deals": 10**9 + 1},
        {"leftover_pot": "burn"},
        {"players": 4, "deck": [36]},
    ],
)
def test_bad_options(engine, options):
    with pytest.raises(InvalidOptionError) as info:
        engine.Mosca(**options)
    assert len(str(info.value)) > 10


def test_bad_game_strings(engine):
    from tapete._gamestring import parse_game

    for text in ("mosca(players=9)", "mosca(players=)", "mosca(deck=33", "mosca(x=1)", "mosca(players=4,players=4)"):
        with pytest.raises(InvalidOptionError):
            parse_game(text, {"mosca": engine.Mosca})


@pytest.mark.parametrize(
    "kwargs",
    [
        {"hands": [HANDS[0], HANDS[1]]},  # two hands for three players
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4]]},  # a hand of 4
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4] + ["Kc"]]},  # a card twice
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4] + ["6c"]]},  # not in the 32-card deck
        {"hands": [HANDS[0], HANDS[1], HANDS[2][:4] + ["Zz"]]},  # not a card
        {"turnup": "Kc"},  # the turn-up is in a hand
        {"turnup": "2d"},
        {"talon": ["Ah"]},  # talon given but cards missing
        {"dealer": 3},
        {"balances": [100, 100]},
        {"pot": -1},
        {"deals_played": 6},
        {"seed": -1},
        {"seed": 2**64},
    ],
)
def test_impossible_setups(engine, kwargs):
    spec = {"hands": HANDS, "turnup": "Qd"}
    spec.update(kwargs)
    with pytest.raises(InvalidStateError):
        engine.Mosca(players=3).setup(**spec)


def test_bad_seeds_and_decks(engine):
    game = engine.Mosca(players=3)
    for seed in (-1, 2**64, "7", 1.0, True):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=seed)
    deck = sorted(13 * s + r for s in range(4) for r in (12, 11, 10, 0, 9, 8, 7, 6))
    game.new_state(seed=0, deck=deck)
    for bad in (deck[:-1], deck[:-1] + [deck[0]], deck[:-1] + ["6d"], deck[:-1] + ["Zz"], "Ac 7c"):
        with pytest.raises(InvalidStateError):
            game.new_state(seed=0, deck=bad)


def _tamper(text: str, **changes) -> str:
    doc = json.loads(text)
    doc.update(changes)
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


def test_malformed_and_tampered_json(engine):
    game = engine.Mosca(players=3)
    state = game.setup(hands=HANDS, turnup="Qd", dealer=0)
    state.apply("play x Ac 9d Ks")
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
        _tamper(good, pot=-1),
        _tamper(good, hands=[hand0 + [hand0[0]]] + doc["hands"][1:]),
        _tamper(good, hands=[[]] + doc["hands"][1:]),
        _tamper(good, talon=doc["talon"] + [99]),
        _tamper(good, balances=[0]),
        _tamper(good, options={**doc["options"], "players": 4}),
        _tamper(good, options={**doc["options"], "bogus": 1}),
        _tamper(good, phase="bidding"),
        _tamper(good, history="x"),
        _tamper(good, terminal="no"),
        _tamper(good, declarations=[1, 1, 1, 1]),
        json.dumps({k: v for k, v in doc.items() if k != "talon"}),
    ]
    for text in bad_texts:
        with pytest.raises(InvalidStateError):
            game.state_from_json(text)
    with pytest.raises(InvalidStateError):
        game.state_from_json(b"{}")  # type: ignore[arg-type]
    assert game.state_from_json(good).to_json() == good


def test_primitives_reject_bad_input(engine):
    m = engine.mosca
    with pytest.raises(InvalidNotationError):
        m.legal_cards(["7x"], [], "s")
    with pytest.raises(InvalidNotationError):
        m.legal_cards(["7h"], ["9h"], "x")
    with pytest.raises(InvalidNotationError):
        m.trick_winner(["Qd"], 3)
    with pytest.raises(InvalidStateError):
        m.legal_cards(["7h", "9h"], ["9h"], "s")  # a card in the hand and the trick
    with pytest.raises(InvalidStateError):
        m.trick_winner([], "s")
    with pytest.raises(InvalidStateError):
        m.mosca_winner([["Kc"], ["Kc"]], "s")
    with pytest.raises(InvalidStateError):
        m.legal_cards("7h 9h", [], "s")
    with pytest.raises(InvalidOptionError):
        m.legal_cards(["7h"], [], "s", must_head="yes")
    with pytest.raises(InvalidOptionError):
        m.trick_winner(["7h"], "s", ace_rank="top")
