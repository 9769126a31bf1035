"""The shared resampler (docs/design.md §10): every placement it draws respects the masks, it is
uniform over the placements that fit (counted here by brute force, not by the sampler), and the
native and reference samplers draw the same placement from the same seed."""

from __future__ import annotations

import itertools
import random

import pytest

from stats import chi_square_p
from tapete import _core
from tapete.reference._resample import place
from tapete.reference._rng import SplitMix64


def test_chi_square_p_matches_tables() -> None:
    # Two cells: chi-square with one degree of freedom, 3.841 is the 5% point.
    # 20 cells of 100 expected: the 5% point of 19 degrees of freedom is 30.144.
    from stats import _upper_gamma_regularized as q

    assert q(0.5, 3.841 / 2) == pytest.approx(0.05, abs=2e-4)
    assert q(9.5, 30.144 / 2) == pytest.approx(0.05, abs=2e-4)
    assert q(1.0, 3.0) == pytest.approx(2.718281828459045**-3, rel=1e-12)  # df 2: exp(-x/2)
    assert chi_square_p([100, 100, 100]) == 1.0


def placements(cards: list[int], allowed: list[int], caps: list[int]) -> list[tuple[tuple[int, ...], ...]]:
    """Every placement (each place's cards in order) that respects the masks, by brute force."""
    found = []
    for perm in itertools.permutations(cards):
        at, ok, parts = 0, True, []
        for j, cap in enumerate(caps):
            part = perm[at : at + cap]
            if any(not allowed[cards.index(c)] >> j & 1 for c in part):
                ok = False
                break
            parts.append(part)
            at += cap
        if ok:
            found.append(tuple(parts))
    return found


CASES = [
    # 5 cards over places of 2, 1, 2; card 10 may not be in place 0 (a void); card 13 only in
    # place 2 (say, a card the rules reveal).
    ([10, 11, 12, 13, 14], [0b110, 0b111, 0b111, 0b100, 0b111], [2, 1, 2]),
    # Two constrained groups that compete for the same place.
    ([1, 2, 3, 4, 5], [0b011, 0b011, 0b110, 0b110, 0b111], [1, 2, 2]),
    # No constraint: a plain shuffle cut into places.
    ([0, 1, 2, 3], [0b11, 0b11, 0b11, 0b11], [3, 1]),
]


@pytest.mark.parametrize(("cards", "allowed", "caps"), CASES)
def test_uniform_over_placements_that_fit(cards: list[int], allowed: list[int], caps: list[int]) -> None:
    support = placements(cards, allowed, caps)
    index = {p: i for i, p in enumerate(support)}
    counts = [0] * len(support)
    draws = 20_000
    for seed in range(draws):
        got = place(cards, allowed, caps, SplitMix64(seed * 7919 + 11))
        assert got is not None
        counts[index[tuple(tuple(p) for p in got)]] += 1  # KeyError: a placement breaking a mask
    # Fixed seeds; rejecting at p <= 0.001 would happen by chance 1 time in 1,000.
    assert chi_square_p(counts) > 0.001, counts


def test_nothing_fits_is_refused() -> None:
    assert place([0, 1], [0b10, 0b10], [1, 1], SplitMix64(1)) is None
    assert place([0, 1], [0b11, 0b11], [1, 2], SplitMix64(1)) is None
    assert _core._resample_place([0, 1], [0b10, 0b10], [1, 1], 1) is None


def test_native_and_reference_draw_the_same() -> None:
    r = random.Random(20261204)
    for _ in range(2_000):
        n, k = r.randint(0, 16), r.randint(1, 6)
        cards = sorted(r.sample(range(108), n))
        truth = [r.randrange(k) for _ in cards]
        caps = [truth.count(j) for j in range(k)]
        allowed = [1 << t | r.getrandbits(k) for t in truth]
        seed = r.getrandbits(64)
        ours = place(cards, allowed, caps, SplitMix64(seed))
        assert ours is not None
        assert _core._resample_place(cards, allowed, caps, seed) == ours
        for j, part in enumerate(ours):
            assert len(part) == caps[j]
            assert all(allowed[cards.index(c)] >> j & 1 for c in part)
        assert sorted(c for part in ours for c in part) == cards
