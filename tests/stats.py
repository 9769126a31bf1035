"""Statistics the tests share: the chi-square test of uniformity (no scipy in the base install)."""

from __future__ import annotations

import math
from collections.abc import Iterable


def _upper_gamma_regularized(a: float, x: float) -> float:
    """Q(a, x) = Γ(a, x) / Γ(a): the series below a + 1, Lentz's continued fraction above."""
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lg))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - lg) * h


def chi_square_p(counts: Iterable[int], expected: Iterable[float] | None = None) -> float:
    """The p-value of Pearson's chi-square test of ``counts`` against ``expected`` (uniform over
    the cells when omitted). Every cell of the support must be listed, zeros included."""
    observed = list(counts)
    total = sum(observed)
    cells = len(observed)
    if expected is None:
        want = [total / cells] * cells
    else:
        want = list(expected)
    stat = sum((o - e) ** 2 / e for o, e in zip(observed, want))
    return _upper_gamma_regularized((cells - 1) / 2, stat / 2)
