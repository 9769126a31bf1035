"""Differential tests for La Mosca: the native engine and the pure-Python reference in lockstep.

Hypothesis draws an option set (``tapete.testing.mosca_options``: a player count 3..6, a few rule
overrides, a match of 1 or 2 deals), a seed and a choice index per step; ``tapete.testing``
compares legal actions, action strings, views, observations, scores, returns, JSON and, on a
quarter of the examples, the error types of bad inputs at every step. ``TAPETE_DIFF_EXAMPLES``
sets the number of examples per configuration (default 300).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete import reference
from tapete.testing import assert_engines_agree, mosca_options, seeds

EXAMPLES = int(os.environ.get("TAPETE_DIFF_EXAMPLES", "300"))
SETTINGS = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

# Fixed option sets besides the drawn ones: every non-default choice appears in one of them.
COMBOS = {
    "defaults": {},
    "loose_obligations": {"must_head": False, "must_trump": False, "ace_rank": "high", "deal_packets": "1_at_a_time"},
    "no_overtrump_low_ace": {
        "must_overtrump": False,
        "must_undertrump": False,
        "ace_rank": "low",
        "deal_packets": "3_then_2",
    },
    "classic_mouche": {
        "no_trick_penalty": "pot",
        "penalty_timing": "next_pot",
        "trick_tie": "split_equally",
        "mosca_bonus": "each_other_player_pays_penalty",
        "leftover_pot": "split_equally_among_all",
    },
    "loo": {
        "ante": "dealer_pays_5",
        "pot_award": "per_trick",
        "exchange_limit": "max_3",
        "mosca_tie": "eldest_wins",
        "lone_player": "must_play_tricks",
    },
    "bourre": {
        "exchange_limit": "reshuffle_discards_when_empty",
        "mosca_after_exchange": True,
        "lone_player": "pot_carries",
        "dealer_may_take_turnup": False,
        "ante": "each_player_pays_1",
    },
    "bankruptcy": {"bankruptcy": "eliminate_at_zero", "initial_chips": 4, "no_trick_penalty": 3},
}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@SETTINGS
@given(data=st.data())
def test_native_and_reference_agree(players, data):
    options = data.draw(mosca_options(players), label="options")
    seed = data.draw(seeds(), label="seed")
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    check_errors = data.draw(st.integers(0, 3), label="check errors") == 0
    native, ref = tapete.Mosca(**options), reference.Mosca(**options)
    assert_engines_agree(native, ref, games=1, seed=seed, choices=choices, check_errors=check_errors)


@pytest.mark.parametrize("combo", sorted(COMBOS))
@settings(
    max_examples=max(20, EXAMPLES // 6), deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(data=st.data())
def test_native_and_reference_agree_on_option_combinations(combo, data):
    players = data.draw(st.integers(3, 6), label="players")
    options = {"players": players, "match_deals": data.draw(st.integers(1, 3), label="deals"), **COMBOS[combo]}
    seed = data.draw(seeds(), label="seed")
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    native, ref = tapete.Mosca(**options), reference.Mosca(**options)
    assert_engines_agree(native, ref, games=1, seed=seed, choices=choices, check_errors=False)


CARDS = list(range(52))
RULE_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "ace_rank": st.sampled_from(["between_jack_and_ten", "high", "low"]),
        "must_head": st.booleans(),
        "must_trump": st.booleans(),
        "must_overtrump": st.booleans(),
        "must_undertrump": st.booleans(),
        "mosca_tie": st.sampled_from(["split", "eldest_wins"]),
    },
)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True)
@given(data=st.data())
def test_rule_primitives_agree(data):
    options = data.draw(RULE_OPTIONS, label="options")
    trump = data.draw(st.sampled_from("cdhsCDHS"), label="trump")
    pack = data.draw(st.permutations(CARDS), label="pack")
    # legal_cards: a hand of 1..5 cards and a trick of 0..5 cards before the actor.
    size, played = data.draw(st.integers(1, 5), label="hand size"), data.draw(st.integers(0, 5), label="trick size")
    hand, trick = pack[:size], pack[size : size + played]
    as_text = data.draw(st.booleans(), label="as text")
    if as_text:
        hand, trick = [tapete.cards.card_str(c) for c in hand], [tapete.cards.card_str(c) for c in trick]
    assert tapete.mosca.legal_cards(hand, trick, trump, **options) == reference.mosca.legal_cards(
        hand, trick, trump, **options
    )
    # trick_winner on a trick of 1..6 cards.
    length = data.draw(st.integers(1, 6), label="trick length")
    assert tapete.mosca.trick_winner(pack[:length], trump, **options) == reference.mosca.trick_winner(
        pack[:length], trump, **options
    )
    # mosca_winner: 2..6 hands of 5 cards, some of them dealt from one suit to force moscas.
    seats = data.draw(st.integers(2, 6), label="seats")
    hands, rest = [], list(pack)
    for _ in range(seats):
        if data.draw(st.integers(0, 2), label="flush") == 0:
            suit = data.draw(st.integers(0, 3), label="suit")
            same = [c for c in rest if c // 13 == suit]
            if len(same) >= 5:
                hand = data.draw(st.permutations(same), label="flush hand")[:5]
                hands.append(hand)
                rest = [c for c in rest if c not in hand]
                continue
        hands.append(rest[:5])
        rest = rest[5:]
    assert tapete.mosca.mosca_winner(hands, trump, **options) == reference.mosca.mosca_winner(hands, trump, **options)


def test_option_resolution_agrees_for_every_player_count():
    for players in range(2, 7):
        for extra in ({}, {"deck": 52}, {"match_deals": 3, "first_dealer": players - 1, "no_trick_penalty": "pot"}):
            native, ref = tapete.Mosca(players=players, **extra), reference.Mosca(players=players, **extra)
            assert native.options == ref.options, (players, extra)
            assert str(native) == str(ref)
            assert native.observation_shape == ref.observation_shape == (216 + 60 * players,)


@pytest.mark.parametrize("seed", range(20))
def test_setup_positions_agree(seed):
    """A setup() position (TV-M24's deal) and the match after it agree step by step."""
    hands = [["Ah", "9h", "Ks", "Qc", "Td"], ["Kh", "7h", "Qs", "As", "9c"], ["Jh", "Ts", "8s", "Kc", "7d"]]
    a = tapete.Mosca(players=3).setup(hands=hands, turnup="8h", dealer=0, seed=seed)
    b = reference.Mosca(players=3).setup(hands=hands, turnup="8h", dealer=0, seed=seed)
    while not a.is_terminal():
        assert a.to_json() == b.to_json()
        assert a.legal_actions() == b.legal_actions()
        action = a.legal_actions()[len(a.history()) % len(a.legal_actions())]
        a.apply(action)
        b.apply(action)
    assert a.to_json() == b.to_json()
