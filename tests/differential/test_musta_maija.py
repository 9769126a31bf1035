"""Differential tests for Musta Maija: the native engine and the pure-Python reference in lockstep.

Hypothesis draws an option set (``tapete.testing.musta_maija_options``), a seed and a choice index
per step; ``tapete.testing`` compares legal actions, action strings, views, observations, scores,
returns, JSON and error types at every step. One configuration per player count 2..6;
``TAPETE_DIFF_EXAMPLES`` sets the number of examples per configuration (default 300). The rule
primitives are compared on their whole input space (``can_beat``) or on drawn inputs.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete import reference
from tapete.testing import MUSTA_MAIJA_PRESETS, assert_engines_agree, musta_maija_options, seeds

EXAMPLES = int(os.environ.get("TAPETE_DIFF_EXAMPLES", "300"))
PLAYERS = (2, 3, 4, 5, 6)
# CI keeps each example short (a cap of a few attacks per hand; whole hands are checked below);
# TAPETE_DEEP=1 draws caps up to the default 1000, so that hands also reach their natural end.
CAPS = None if os.environ.get("TAPETE_DEEP") == "1" else st.integers(1, 6)


@pytest.mark.parametrize("players", PLAYERS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_native_and_reference_agree(players, data):
    options = data.draw(musta_maija_options(players, max_attacks=CAPS), label="options")
    seed = data.draw(seeds(), label="seed")
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    native, ref = tapete.MustaMaija(**options), reference.MustaMaija(**options)
    assert_engines_agree(native, ref, games=1, seed=seed, choices=choices)


WHOLE = [
    {"players": 2},
    {"players": 3, "variant": "pagat", "beat_optional": False},
    {"players": 4},
    {"players": 5, "draw_order": "defender_then_attacker", "spade_reinsert": "random_position"},
    {"players": 6, "attack_limit": "unlimited", "spades_can_be_trump": True},
]


@pytest.mark.parametrize("options", WHOLE, ids=[str(o) for o in WHOLE])
def test_whole_hands_agree_to_the_natural_end(options):
    """Whole hands with the default cap of 1000, random play to the natural end."""
    assert_engines_agree(
        tapete.MustaMaija(**options), reference.MustaMaija(**options), games=2, seed=options["players"]
    )


@pytest.mark.parametrize("trump", ["c", "d", "h", "s", None])
def test_can_beat_agrees_on_every_pair(trump):
    native, ref = tapete.musta_maija.can_beat, reference.musta_maija.can_beat
    cards = list(range(52))
    for t in cards:
        for c in cards:
            if c != t:
                assert native(t, c, trump) == ref(t, c, trump), (t, c, trump)


@settings(max_examples=max(50, EXAMPLES // 3), deadline=None, derandomize=True)
@given(data=st.data())
def test_legal_attacks_agree(data):
    options = data.draw(musta_maija_options(), label="options")
    hand = data.draw(st.lists(st.integers(0, 51), unique=True, max_size=14), label="hand")
    size = data.draw(st.integers(0, 12), label="defender hand size")
    native = tapete.musta_maija.legal_attacks(hand, size, **options)
    assert native == reference.musta_maija.legal_attacks(hand, size, **options)


@settings(max_examples=max(50, EXAMPLES // 3), deadline=None, derandomize=True)
@given(data=st.data())
def test_trump_from_stock_agrees(data):
    options = data.draw(musta_maija_options(), label="options")
    cards = data.draw(st.permutations(range(52)), label="pack")
    size = data.draw(st.integers(1, 51), label="stock size")
    seed = data.draw(seeds(), label="seed")
    stock = cards[:size]
    native = tapete.musta_maija.trump_from_stock(stock, seed=seed, **options)
    assert native == reference.musta_maija.trump_from_stock(stock, seed=seed, **options)


def test_option_resolution_agrees_on_every_preset_and_player_count():
    for variant in MUSTA_MAIJA_PRESETS:
        for players in PLAYERS:
            native = tapete.MustaMaija(variant=variant, players=players)
            ref = reference.MustaMaija(variant=variant, players=players)
            assert native.options == ref.options, (variant, players)
            assert str(native) == str(ref)
            assert native.observation_shape == ref.observation_shape == (370 + 57 * players,)
