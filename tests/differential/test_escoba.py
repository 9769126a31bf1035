"""Differential tests: the native engine and the pure-Python reference, stepped in lockstep.

Hypothesis draws an option set, a seed and a choice index per step; ``tapete.testing`` compares
legal actions, action strings, views, observations, scores, returns, JSON and error types at every
step. ``TAPETE_DIFF_EXAMPLES`` raises the number of examples per preset (default 300).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tapete
from tapete import reference
from tapete.testing import ESCOBA_PRESETS, assert_engines_agree, escoba_options, escoba_player_counts, seeds

EXAMPLES = int(os.environ.get("TAPETE_DIFF_EXAMPLES", "300"))
# The presets of issue 6 run 200 examples each in CI (two thirds of the others').
NEW_PRESETS = ESCOBA_PRESETS[ESCOBA_PRESETS.index("differenze") :]
OLD_PRESETS = ESCOBA_PRESETS[: ESCOBA_PRESETS.index("differenze")]
NEW_EXAMPLES = max(1, EXAMPLES * 2 // 3)


def _agree(variant, data):
    options = data.draw(escoba_options(variant), label="options")
    seed = data.draw(seeds(), label="seed")
    choices = data.draw(st.lists(st.integers(0, 2**16), min_size=1, max_size=64), label="choices")
    native, ref = tapete.Escoba(**options), reference.Escoba(**options)
    assert_engines_agree(native, ref, games=1, seed=seed, choices=choices)


@pytest.mark.parametrize("variant", OLD_PRESETS)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_native_and_reference_agree(variant, data):
    _agree(variant, data)


@pytest.mark.parametrize("variant", NEW_PRESETS)
@settings(max_examples=NEW_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(data=st.data())
def test_native_and_reference_agree_more_presets(variant, data):
    _agree(variant, data)


@pytest.mark.parametrize("variant", ESCOBA_PRESETS)
@settings(max_examples=max(20, EXAMPLES // 5), deadline=None, derandomize=True)
@given(data=st.data())
def test_rule_primitives_agree(variant, data):
    pack = [13 * s + r for s in range(4) for r in (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)]
    options = data.draw(escoba_options(variant), label="options")
    options.pop("max_deals", None)
    deck = reference.Escoba(**options).options["deck"]
    if deck == "italian52":
        pack = list(range(52))  # docs/rules/escoba.md §2.24
    elif deck == "double_italian80":
        pack = [c for c in pack for _ in range(2)]  # docs/escoba_engine.md §1a: each id twice
    cards = data.draw(st.permutations(pack), label="pack")
    size = data.draw(st.integers(0, 12), label="table size")
    card, table = cards[0], cards[1 : 1 + size]
    assert tapete.escoba.capture_options(card, table, **options) == reference.escoba.capture_options(
        card, table, **options
    )
    players = options["players"]
    teams = players in (4, 6) and options.get("partnership") != "none"
    sides = 2 if teams else players
    resolved = reference.Escoba(**options).options
    if resolved["steal"]:
        # docs/rules/escoba.md §2.21: each side's pile top (or an empty pile), seen from a drawn seat
        n_sides = 2 if players in (4, 6) and resolved["partnership"] == "auto" else players
        tops = [data.draw(st.sampled_from([None, c]), label="top") for c in cards[13 : 13 + n_sides]]
        seat = data.draw(st.integers(0, players - 1), label="seat")
        assert tapete.escoba.capture_options(card, table, tops, seat, **options) == reference.escoba.capture_options(
            card, table, tops, seat, **options
        )
    cut = sorted(data.draw(st.lists(st.integers(0, len(pack)), min_size=sides - 1, max_size=sides - 1), label="cuts"))
    bounds = [0, *cut, len(pack)]
    piles = [cards[bounds[i] : bounds[i + 1]] for i in range(sides)]
    scope = data.draw(st.lists(st.integers(0, 6), min_size=sides, max_size=sides), label="scope")
    assert tapete.escoba.score_deal(piles, scope, **options) == reference.escoba.score_deal(piles, scope, **options)
    declared = data.draw(st.lists(st.integers(0, 7), min_size=sides, max_size=sides), label="declared")
    assert tapete.escoba.score_deal(piles, scope, declared, **options) == reference.escoba.score_deal(
        piles, scope, declared, **options
    )
    if deck == "double_italian80":
        # docs/escoba_engine.md §1a: the sweeps that took a twin, and maybe one Ks onto Ks counted in both lists
        ks = [data.draw(st.integers(0, k), label="ks sweeps") for k in scope]
        twins = [data.draw(st.integers(0, k - m), label="twin sweeps") for k, m in zip(scope, ks)]
        # a side with a Ks sweep may have made it onto the other Ks (then it is a twin sweep too)
        ks_on_ks = data.draw(st.sampled_from([None, *(s for s in range(sides) if ks[s])]), label="ks on ks")
        if ks_on_ks is not None:
            twins[ks_on_ks] += 1
        args = (piles, scope, declared, ks, twins, ks_on_ks)
        assert tapete.escoba.score_deal(*args, **options) == reference.escoba.score_deal(*args, **options)
    # the hand primitives read a hand of distinct cards (docs/escoba_engine.md §1a)
    hand = list(dict.fromkeys(cards))[: data.draw(st.integers(0, 5), label="hand size")]
    assert tapete.escoba.tuzzoli(hand, **options) == reference.escoba.tuzzoli(hand, **options)
    assert tapete.escoba.knock(hand, **options) == reference.escoba.knock(hand, **options)


def test_option_resolution_agrees_on_every_preset_and_player_count():
    for variant in ESCOBA_PRESETS:
        for players in escoba_player_counts(variant):
            native = tapete.Escoba(variant=variant, players=players)
            ref = reference.Escoba(variant=variant, players=players)
            assert native.options == ref.options, (variant, players)
            assert str(native) == str(ref)
