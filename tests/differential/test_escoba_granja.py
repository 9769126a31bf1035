"""Differential test of the build primitives (docs/rules/escoba.md §2.20): ``capture_options`` with builds on the
table and a hand, native against reference, on drawn positions."""

from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

import tapete
from tapete import reference
from tapete.reference.escoba import card_value
from tapete.testing import escoba_options

EXAMPLES = int(os.environ.get("TAPETE_DIFF_EXAMPLES", "300"))
PACK = [13 * s + r for s in range(4) for r in (0, 1, 2, 3, 4, 5, 6, 10, 11, 12)]


@settings(max_examples=max(20, EXAMPLES // 2), deadline=None, derandomize=True)
@given(data=st.data())
def test_capture_options_with_builds_agree(data):
    options = data.draw(escoba_options("granja"), label="options")
    options.pop("max_deals", None)
    options["builds"] = True
    cards = data.draw(st.permutations(PACK), label="pack")
    card, rest = cards[0], cards[1:]
    builds, i = [], 0
    for _ in range(data.draw(st.integers(0, 4), label="builds")):
        size = data.draw(st.integers(2, 3), label="build size")
        b = rest[i : i + size]
        i += size
        if sum(card_value(c) for c in b) <= 10:
            builds.append(b)
    table = rest[i : i + data.draw(st.integers(0, 8), label="table size")]
    i += len(table)
    hand = rest[i : i + data.draw(st.integers(0, 4), label="hand size")]
    native = tapete.escoba.capture_options(card, table, table_builds=builds, hand=hand, **options)
    ref = reference.escoba.capture_options(card, table, table_builds=builds, hand=hand, **options)
    assert native == ref
