"""What only La Mosca has, through the public API on both engines: its resolved options, notation
by phase, the view and observation layout, rule primitives, and the leak scenarios of its
exchanges, folds and turn-up (docs/rules/mosca.md §1.4). What every game has is in
tests/test_games.py, La Mosca's data for it in tests/games/mosca.py."""

from __future__ import annotations

import random

import pytest

from games import assert_not_shown, assert_notation_round_trips, assert_refused, assert_same_sight
from games.mosca import HANDS as TV_M09_HANDS
from tapete.errors import IllegalActionError, InvalidNotationError, InvalidOptionError, InvalidStateError


def declaring(engine):
    # TV-M09's hand for seat 1 (the mano with dealer 0): AC 9D TD 7H KS in slots 0..4
    return engine.Mosca(players=3).setup(hands=TV_M09_HANDS, turnup="Qd", dealer=0)


def test_resolved_options(engine):
    # TV-M01 and docs/rules/mosca.md §6: deck auto and match_deals 2N resolve to ints
    for n, deck in ((2, 32), (3, 32), (4, 36), (5, 44), (6, 52)):
        options = engine.Mosca(players=n).options
        assert options["deck"] == deck and options["match_deals"] == 2 * n
    assert engine.Mosca(players=6, deck=32).options["deck"] == 32
    assert set(engine.Mosca(players=4).options) == {
        "ace_rank", "ante", "bankruptcy", "deal_packets", "dealer_may_take_turnup", "deck", "exchange_limit",
        "first_dealer", "initial_chips", "leftover_pot", "lone_player", "match_deals", "mosca_after_exchange",
        "mosca_bonus", "mosca_tie", "must_head", "must_overtrump", "must_trump", "must_undertrump",
        "no_trick_penalty", "penalty_timing", "players", "pot_award", "trick_tie",
    }  # fmt: skip


def test_notation_round_trips_for_every_id_in_every_phase(engine):
    state = declaring(engine)
    seen_phases = set()
    rng = random.Random(1)
    while not state.is_terminal() and len(seen_phases) < 3:
        seen_phases.add(state.view(0)["phase"])
        assert_notation_round_trips(state, 91)
        legal = state.legal_actions()
        # go through declare (everyone plays), the turn-up step, then tricks
        state.apply(53 if 53 in legal else (90 if 90 in legal else rng.choice(legal)))
    assert seen_phases == {"declare", "turnup", "trick"}


def test_notation_forms(engine):
    state = declaring(engine)
    # TV-M09: id 72 is mask 19 = slots 0, 1, 4 = AC 9D KS; 53 is stand
    assert state.action_to_string(72) == "play x Ac 9d Ks"
    assert state.action_to_string(53) == "play"
    assert state.action_to_string(52) == "pass"
    assert state.action_to_string(90) == "leave turnup"
    assert state.action_to_string(50) == "Qs"
    assert state.string_to_action("PLAY X ks ac 9D") == 72
    assert state.string_to_action("play slots 4 0 1") == 72
    assert state.action_to_string(86) == "take turnup slot 1"  # no turn-up step now


def test_view_keys_and_observation_layout(engine):
    state = declaring(engine)
    view = state.view(1)
    assert list(view) == [
        "player", "current_player", "phase", "dealer", "mano", "deals_played", "hand", "hand_sizes", "turnup",
        "trump", "turnup_taken", "declarations", "exchanged", "discards", "talon_size", "trick", "trick_seats",
        "leader", "trick_number", "played", "tricks_won", "pot", "balances", "eliminated", "terminal", "history",
    ]  # fmt: skip
    assert view["hand"] == ["Ac", "9d", "Td", "7h", "Ks"]
    assert view["turnup"] == "Qd" and view["trump"] == "d"
    assert view["pot"] == 3 and view["balances"] == [97, 100, 100]
    obs = state.observation(1)
    n = 3
    assert obs[[0, 21, 22, 32, 51]].tolist() == [1.0] * 5 and obs[:52].sum() == 5
    assert obs[104 + 24] == 1.0  # turn-up Qd (id 24)
    assert obs[156 + 1] == 1.0  # trump d
    assert obs[161 + 4 * n] == 32 - 16  # talon size 16
    assert obs[214 + 58 * n] == 3  # pot
    # balances rotated from seat 1: seats 1, 2, 0
    assert obs[215 + 58 * n : 215 + 59 * n].tolist() == [100, 100, 97]
    # dealer (seat 0) is entry 2 from seat 1
    assert obs[215 + 59 * n : 215 + 60 * n].tolist() == [0, 0, 1]


def test_talon_exhaustion_makes_big_exchanges_illegal(engine):
    # TV-M01/TV-M08 pattern with deck 32 and 6 players: the talon holds 1 card
    state = engine.Mosca(players=6, deck=32, first_dealer=0).new_state(seed=3)
    assert state.view(0)["phase"] == "declare" and state.view(0)["deals_played"] == 0
    assert state.view(0)["talon_size"] == 1
    assert_refused(state, "apply", 53 + 0b11, IllegalActionError)
    assert state.legal_actions() == [52, 53, 54, 55, 57, 61, 69]


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


# -- what a seat cannot see (docs/rules/mosca.md §1.4) -------------------------------------------

HANDS = [
    ["Ac", "6d", "7h", "8s", "9c"],  # seat 0, the dealer
    ["7c", "8d", "9h", "Ts", "Jc"],
    ["8c", "9d", "Th", "Js", "Qc"],
    ["Tc", "Jd", "Qh", "Qs", "Kc"],
]


def dealt(engine):
    return engine.Mosca(players=4).setup(hands=HANDS, turnup="Kd", dealer=0)


def test_exchange_mask_is_hidden(engine):
    """The others see how many cards seat 1 exchanged, never which slots."""
    a, b = dealt(engine), dealt(engine)
    a.apply(53 + 0b00011)  # seat 1 gives up 7c, Jc (slots 0, 1: ids 6, 10)
    b.apply(53 + 0b11000)  # seat 1 gives up 9h, Ts (slots 3, 4: ids 34, 48)
    for seat in (0, 2, 3):
        assert_same_sight(a, b, seat)
        assert a.view(seat)["exchanged"] == [0, 2, 0, 0]
        assert a.view(seat)["discards"] == []
    assert a.view(1)["discards"] == ["7c", "Jc"] and b.view(1)["discards"] == ["9h", "Ts"]


def test_folded_hand_stays_hidden(engine):
    """A folded hand is dead and stays hidden; the others see only that it passed."""
    state = dealt(engine)
    state.apply(52)  # seat 1 passes
    for seat in (0, 2, 3):
        view = state.view(seat)
        assert view["declarations"] == [None, "pass", None, None]
        assert_not_shown(view, HANDS[1])


def test_turnup_is_known_to_all_and_the_given_up_card_is_not(engine):
    """docs/rules/mosca.md §4.2: after TAKE_TURNUP every seat sees that the dealer took the turn-up
    (Kd) and what it is; only the dealer knows the card given up. Taking slot 0 (Ac) or slot 4 (8s)
    looks the same to everyone else."""
    a = dealt(engine)
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
        assert_same_sight(a, b, seat)
        assert_not_shown(a.view(seat), ["Ac"])
    assert a.view(0)["discards"] == ["Ac"] and b.view(0)["discards"] == ["8s"]
    assert "Kd" in a.view(0)["hand"]
