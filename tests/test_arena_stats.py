"""The arena's statistics: intervals that cover, a GSPRT that keeps its error rates, and numbers
that agree with fishtest's published formulas (docs/arena.md §2)."""

from __future__ import annotations

import math
from statistics import NormalDist

import numpy as np
import pytest

from tapete.arena import stats as S

# ---------------------------------------------------------------------------------------------
# Intervals


def test_t_quantiles_match_the_printed_table() -> None:
    # Student's t, two-sided 95% (any printed table): df 1 -> 12.706, 10 -> 2.228, 30 -> 2.042
    assert S.t_quantile(0.975, 1) == pytest.approx(12.706, abs=5e-4)
    assert S.t_quantile(0.975, 10) == pytest.approx(2.228, abs=5e-4)
    assert S.t_quantile(0.975, 30) == pytest.approx(2.042, abs=5e-4)
    assert S.t_quantile(0.975, 100_000) == pytest.approx(1.95996, abs=1e-4)


def test_group_interval_by_hand() -> None:
    # values 1, 2, 3, 4: mean 2.5, sample sd sqrt(5/3), half-width t(0.975, 3) * sd / 2 with
    # t(0.975, 3) = 3.182 from the table
    mean, lo, hi = S.group_interval(np.array([1.0, 2.0, 3.0, 4.0]))
    assert mean == 2.5
    half = 3.182446 * math.sqrt(5 / 3) / 2
    assert lo == pytest.approx(2.5 - half, abs=1e-5)
    assert hi == pytest.approx(2.5 + half, abs=1e-5)
    assert S.group_interval([7.0]) == (7.0, -math.inf, math.inf)
    with pytest.raises(ValueError):
        S.group_interval([])
    with pytest.raises(ValueError):
        S.group_interval([1.0, math.nan])


def _correlated_groups(rng: np.random.Generator, reps: int, groups: int, games: int, truth: float) -> np.ndarray:
    """Win indicators (reps, groups, games): each group's deals give it its own win probability
    (uniform on truth ± 0.35), so the games of a group are correlated; the mean is ``truth``."""
    p = truth + rng.uniform(-0.35, 0.35, size=(reps, groups, 1))
    return (rng.random((reps, groups, games)) < p).astype(np.float64)


@pytest.mark.parametrize(("truth", "seed"), [(0.5, 11), (0.62, 12)])
def test_group_interval_covers_the_true_win_rate(truth: float, seed: int) -> None:
    wins = _correlated_groups(np.random.default_rng(seed), reps=1000, groups=20, games=8, truth=truth)
    covered = 0
    naive_covered = 0
    for rep in wins:
        _, lo, hi = S.group_interval(rep.mean(axis=1))
        covered += lo <= truth <= hi
        # the same games taken as independent: too narrow, since a group's games move together
        flat = rep.ravel()
        half = S.Z95 * flat.std(ddof=1) / math.sqrt(flat.size)
        naive_covered += flat.mean() - half <= truth <= flat.mean() + half
    assert 930 <= covered <= 970
    assert naive_covered < 900


def test_wilson_by_hand_and_coverage() -> None:
    # k = 8, n = 10, z = 1.96: centre (0.8 + 0.19208) / 1.38416, half 1.96 sqrt(0.016 + 0.009604)
    # / 1.38416 (Wilson 1927)
    lo, hi = S.wilson(8, 10, z=1.96)
    assert lo == pytest.approx((0.99208 - 1.96 * math.sqrt(0.025604)) / 1.38416, abs=1e-9)
    assert hi == pytest.approx((0.99208 + 1.96 * math.sqrt(0.025604)) / 1.38416, abs=1e-9)
    rng = np.random.default_rng(5)
    ks = rng.binomial(400, 0.3, size=1000)
    covered = sum(lo <= 0.3 <= hi for lo, hi in (S.wilson(int(k), 400) for k in ks))
    assert 930 <= covered <= 970
    for k, n in ((-1, 10), (11, 10), (0, 0)):
        with pytest.raises(ValueError):
            S.wilson(k, n)


# ---------------------------------------------------------------------------------------------
# Pentanomial and logistic Elo


def test_pentanomial_counts_pair_scores() -> None:
    assert S.pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]
    assert S.pentanomial([]) == [0, 0, 0, 0, 0]
    for bad in (0.25, 2.5, -0.5, math.nan, math.inf, 1e300):
        with pytest.raises(ValueError):
            S.pentanomial([bad])


P5 = [3, 10, 40, 15, 2]


def test_elo_from_pentanomial_by_hand() -> None:
    # fishtest stat_util.get_elo on [3, 10, 40, 15, 2]: 70 pairs = 140 games, pair scores
    # 0, .5, 1, 1.5, 2 with pair mean 2 mu; per-game variance = pair variance / 2.
    games = 140
    mu = (10 * 0.5 + 40 * 1 + 15 * 1.5 + 2 * 2) / games  # 71.5 / 140
    var = (3 * (0 - 2 * mu) ** 2 + 10 * (0.5 - 2 * mu) ** 2 + 40 * (1 - 2 * mu) ** 2) / games
    var += (15 * (1.5 - 2 * mu) ** 2 + 2 * (2 - 2 * mu) ** 2) / games
    se = math.sqrt(var / games)
    z = 1.959963984540054

    def elo(s: float) -> float:
        return -400 * math.log10(1 / s - 1)

    e, lo, hi, los = S.elo_from_pentanomial(P5)
    assert e == pytest.approx(elo(mu), abs=1e-9)
    assert lo == pytest.approx(elo(mu - z * se), abs=1e-9)
    assert hi == pytest.approx(elo(mu + z * se), abs=1e-9)
    assert los == pytest.approx(0.5 * (1 + math.erf((mu - 0.5) / se / math.sqrt(2))), abs=1e-12)
    # fishtest's own get_elo prints these for the same vector (elo, elo95, los)
    assert e == pytest.approx(7.446188123462, abs=1e-9)
    assert (hi - lo) / 2 == pytest.approx(32.69337365637243, abs=1e-9)
    assert los == pytest.approx(0.6728706595792996, abs=1e-12)


def test_elo_interval_covers_the_true_elo() -> None:
    probs = np.array([0.06, 0.22, 0.40, 0.24, 0.08])
    mu = float((probs * np.array([0, 0.25, 0.5, 0.75, 1])).sum())
    truth = -400 * math.log10(1 / mu - 1)
    rng = np.random.default_rng(21)
    covered = 0
    for p5 in rng.multinomial(300, probs, size=1000):
        _, lo, hi, _ = S.elo_from_pentanomial(p5.tolist())
        covered += lo <= truth <= hi
    assert 930 <= covered <= 970


# ---------------------------------------------------------------------------------------------
# GSPRT: agreement with fishtest's LLRcalc, worked independently


def _mle(pdf: list[tuple[float, float]], constraint_shift) -> list[float]:  # type: ignore[no-untyped-def]
    """Maximum-likelihood reweighting p_i / (1 + x a_i) with sum p_i a_i / (1 + x a_i) = 0 (the
    secular equation of fishtest's LLRcalc), solved here by Newton steps from x = 0."""
    a = constraint_shift
    x = 0.0
    for _ in range(200):
        f = sum(p * ai / (1 + x * ai) for (_, p), ai in zip(pdf, a))
        df = -sum(p * ai * ai / (1 + x * ai) ** 2 for (_, p), ai in zip(pdf, a))
        step = f / df
        while not all(1 + (x - step) * ai > 0 for ai in a):
            step /= 2
        x -= step
        if abs(step) < 1e-16:
            break
    return [p / (1 + x * ai) for (_, p), ai in zip(pdf, a)]


def _hand_pdf(p5: list[int]) -> tuple[int, list[tuple[float, float]]]:
    n = sum(p5)
    return n, [(i / 4, c / n) for i, c in enumerate(p5)]


def _hand_llr_logistic(elo0: float, elo1: float, p5: list[int]) -> float:
    n, pdf = _hand_pdf(p5)
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1))
    q0 = _mle(pdf, [v - s0 for v, _ in pdf])
    q1 = _mle(pdf, [v - s1 for v, _ in pdf])
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, q0, q1))


def _hand_llr_normalized(nelo0: float, nelo1: float, p5: list[int]) -> float:
    n, pdf = _hand_pdf(p5)

    def mle_t(t: float) -> list[float]:
        q = [0.2] * 5
        for _ in range(10):
            mu = sum(v * p for (v, _), p in zip(pdf, q))
            sigma = math.sqrt(sum((v - mu) ** 2 * p for (v, _), p in zip(pdf, q)))
            a = [v - 0.5 - t * sigma * (1 + ((mu - v) / sigma) ** 2) / 2 for v, _ in pdf]
            q = _mle(pdf, a)
        return q

    t0, t1 = (e / (800 / math.log(10)) * math.sqrt(2) for e in (nelo0, nelo1))
    q0, q1 = mle_t(t0), mle_t(t1)
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), a, b in zip(pdf, q0, q1))


# fishtest's own example (server/fishtest/stats/stat_util.py, __main__): the pentanomial of a
# real test with SPRT(elo0=-3, elo1=1, logistic)
FISHTEST_P5 = [10789, 19328, 33806, 19402, 10543]


def test_llr_agrees_with_fishtest() -> None:
    for p5 in (FISHTEST_P5, P5):
        for elo0, elo1 in ((-3, 1), (0, 5), (0, 50)):
            logistic = S.SPRT(elo0, elo1, elo_model="logistic").llr(p5)
            assert logistic == pytest.approx(_hand_llr_logistic(elo0, elo1, p5), rel=1e-7, abs=1e-9)
            normalized = S.SPRT(elo0, elo1).llr(p5)
            assert normalized == pytest.approx(_hand_llr_normalized(elo0, elo1, p5), rel=1e-7, abs=1e-9)
    # what fishtest's LLRcalc.LLR_logistic / LLR_normalized return on its example
    assert S.SPRT(-3, 1, elo_model="logistic").llr(FISHTEST_P5) == pytest.approx(2.1310678117940807, rel=1e-9)
    assert S.SPRT(-3, 1).llr(FISHTEST_P5) == pytest.approx(0.30086978548354076, rel=1e-7)


def test_llr_is_close_to_the_closed_form_approximations() -> None:
    # LLR_alt2 (logistic): N (s1 - s0)(2 s - s0 - s1) / (2 var) on the per-pair score pdf;
    # LLR_normalized_alt: games / 2 ln((1 + (nt - nt0)^2) / (1 + (nt - nt1)^2)), nt = (mu - 1/2) /
    # (sqrt 2 sigma) with sigma the per-pair pdf's sd
    p5 = FISHTEST_P5
    n, pdf = _hand_pdf(p5)
    mu = sum(v * p for v, p in pdf)
    var = sum((v - mu) ** 2 * p for v, p in pdf)
    s0, s1 = (1 / (1 + 10 ** (-e / 400)) for e in (-3, 1))
    alt2 = n * (s1 - s0) * (2 * mu - s0 - s1) / var / 2
    assert S.SPRT(-3, 1, elo_model="logistic").llr(p5) == pytest.approx(alt2, rel=1e-2)
    nt = (mu - 0.5) / math.sqrt(2 * var)
    nt0, nt1 = (e / (800 / math.log(10)) for e in (0, 5))
    alt = (2 * n / 2) * math.log((1 + (nt - nt0) ** 2) / (1 + (nt - nt1) ** 2))
    assert S.SPRT(0, 5).llr(p5) == pytest.approx(alt, rel=1e-2)


def test_sprt_bounds_status_and_bad_input() -> None:
    sp = S.SPRT(0, 5, alpha=0.05, beta=0.1)
    assert sp.bounds == (math.log(0.1 / 0.95), math.log(0.9 / 0.05))
    assert sp.status([0, 0, 0, 0, 0]) == "continue"
    assert sp.status([0, 0, 100, 300, 600]) == "H1"
    assert sp.status([600, 300, 100, 0, 0]) == "H0"
    for args in ((5, 0), (0, 5, 0.0, 0.05), (0, 5, 0.6, 0.5), (0, math.inf)):
        with pytest.raises(ValueError):
            S.SPRT(*args)
    with pytest.raises(ValueError):
        S.SPRT(0, 5, elo_model="BayesElo")  # type: ignore[arg-type]
    for bad in ([1, 2, 3], [1, 2, 3, 4, -5], [0, 0, math.nan, 0, 0]):
        with pytest.raises(ValueError):
            sp.llr(bad)


def test_sprt_report_puts_the_logistic_elo_beside_the_decision() -> None:
    sp = S.SPRT(-3, 1, elo_model="logistic")
    r = sp.report(FISHTEST_P5)
    assert r["status"] == "continue"  # fishtest: 2.131 lies inside (-2.944, 2.944)
    assert r["llr"] == sp.llr(FISHTEST_P5)
    assert (r["lower_bound"], r["upper_bound"]) == sp.bounds
    assert r["pentanomial"] == FISHTEST_P5
    e, lo, hi, los = S.elo_from_pentanomial(FISHTEST_P5)
    assert (r["elo"], r["elo_low95"], r["elo_high95"], r["los"]) == (e, lo, hi, los)
    # fishtest's get_elo on its example: -0.774 ± 1.278, LOS 11.8%
    assert e == pytest.approx(-0.7735773359165423, abs=1e-9)
    assert (hi - lo) / 2 == pytest.approx(1.2775798957280218, abs=1e-9)
    assert los == pytest.approx(0.1176588580327751, abs=1e-12)


def test_sprt_run_stops_only_at_batch_edges() -> None:
    sp = S.SPRT(0, 50)
    rng = np.random.default_rng(3)
    scores = rng.choice([0, 0.5, 1, 1.5, 2], p=[0.02, 0.1, 0.4, 0.3, 0.18], size=5000).tolist()
    status, used, llr = sp.run(scores, batch=16)
    assert status == "H1" and used % 16 == 0
    assert llr == pytest.approx(sp.llr(S.pentanomial(scores[:used])))
    # one batch earlier it had not stopped
    assert sp.status(S.pentanomial(scores[: used - 16])) == "continue"
    # too few pairs to decide: the end is an edge too
    assert sp.run(scores[:5], batch=16)[:2] == ("continue", 5)
    with pytest.raises(ValueError):
        sp.run(scores, batch=0)


def _simulate(sp: S.SPRT, truth: np.ndarray, seed: int, runs: int = 1000, batch: int = 10) -> dict[str, int]:
    """Stop each of ``runs`` sequences of pairs drawn from the pentanomial ``truth`` at the first
    batch edge where the LLR leaves the bounds."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((runs, 5))
    outcome = np.array(["continue"] * runs, dtype="<U8")
    for _ in range(1000):
        alive = np.flatnonzero(outcome == "continue")
        if alive.size == 0:
            break
        counts[alive] += rng.multinomial(batch, truth, size=alive.size)
        llr = sp.llr_many(counts[alive])
        outcome[alive[llr < sp.bounds[0]]] = "H0"
        outcome[alive[llr > sp.bounds[1]]] = "H1"
    return {k: int((outcome == k).sum()) for k in ("H0", "H1", "continue")}


def _within(rate_count: int, runs: int, level: float) -> bool:
    # <= level up to three binomial standard errors
    return rate_count / runs <= level + 3 * math.sqrt(level * (1 - level) / runs)


BASE = np.array([0.05, 0.2, 0.5, 0.2, 0.05])  # symmetric: score 1/2, t-value 0, Elo 0


@pytest.mark.parametrize("model", ["normalized", "logistic"])
def test_sprt_error_rates(model: str) -> None:
    alpha, beta = 0.05, 0.1
    if model == "normalized":
        sp = S.SPRT(0, 50, alpha, beta)
        t1 = 50 / (800 / math.log(10)) * math.sqrt(2)
        at_elo1 = S.mle_t_value(BASE[None], 0.5, t1)[0]
        v = np.array([0, 0.25, 0.5, 0.75, 1])
        mu = float((at_elo1 * v).sum())
        # the simulated truth really has normalized Elo 50
        assert (mu - 0.5) / math.sqrt(float((at_elo1 * (v - mu) ** 2).sum())) == pytest.approx(t1, rel=1e-8)
    else:
        sp = S.SPRT(0, 30, alpha, beta, elo_model="logistic")
        s1 = 1 / (1 + 10 ** (-30 / 400))
        at_elo1 = S.mle_expected(BASE[None], s1)[0]
        assert float((at_elo1 * np.array([0, 0.25, 0.5, 0.75, 1])).sum()) == pytest.approx(s1, rel=1e-10)
    assert at_elo1.sum() == pytest.approx(1.0)
    at_h0 = _simulate(sp, BASE, seed=31)
    at_h1 = _simulate(sp, at_elo1, seed=32)
    assert at_h0["continue"] == 0 and at_h1["continue"] == 0
    assert _within(at_h0["H1"], 1000, alpha)  # false positives
    assert _within(at_h1["H0"], 1000, beta)  # false negatives
    # and the test has power: most runs decide right
    assert at_h0["H0"] > 900 and at_h1["H1"] > 850


# ---------------------------------------------------------------------------------------------
# Bradley–Terry


def test_bradley_terry_two_bots_by_hand() -> None:
    # A scores 30 of 40 against B: p = 0.75, Elo difference 400 log10(3), split about mean 0
    wins = np.array([[0, 30], [10, 0]])
    ratings, _ = S.bradley_terry(wins, rng_seed=0, bootstrap=0)
    d = 400 * math.log10(3)
    assert ratings == pytest.approx([d / 2, -d / 2], abs=1e-3)


def test_bradley_terry_recovers_consistent_strengths() -> None:
    # strengths 1, 2, 4 and 60 games per pair scored exactly as the model expects: the MLE is the
    # truth, ratings 400 log10(strength) minus their mean
    g = np.array([1.0, 2.0, 4.0])
    wins = 60 * g[:, None] / (g[:, None] + g[None, :]) * (1 - np.eye(3))
    ratings, _ = S.bradley_terry(wins, rng_seed=0, bootstrap=0)
    want = 400 * np.log10(g)
    assert ratings == pytest.approx(want - want.mean(), abs=1e-3)


def test_bradley_terry_bootstrap_over_groups() -> None:
    rng = np.random.default_rng(8)
    g = np.array([1.0, 1.5, 3.0])
    k, n_groups = 3, 60
    groups = np.zeros((n_groups, k, k))
    for gi in range(n_groups):
        for i in range(k):
            for j in range(i + 1, k):
                w = rng.binomial(4, g[i] / (g[i] + g[j]))
                groups[gi, i, j], groups[gi, j, i] = w, 4 - w
    wins = groups.sum(axis=0)
    r1, iv1 = S.bradley_terry(wins, rng_seed=4, bootstrap=200, groups=groups)
    r2, iv2 = S.bradley_terry(wins, rng_seed=4, bootstrap=200, groups=groups)
    assert np.array_equal(iv1, iv2) and np.array_equal(r1, r2)
    assert r1.sum() == pytest.approx(0.0, abs=1e-9)
    width = iv1[:, 1] - iv1[:, 0]
    assert np.all(width > 10)
    assert (iv1[:, 0] + iv1[:, 1]) / 2 == pytest.approx(r1)
    # these groups carry no shared deal effect, so resampling the games independently gives
    # intervals of the same scale
    _, iv3 = S.bradley_terry(wins, rng_seed=4, bootstrap=200)
    assert np.all(np.abs(np.log((iv3[:, 1] - iv3[:, 0]) / width)) < np.log(1.5))
    # four times the groups, the same ratings, half the width (1 / sqrt n)
    r4, iv4 = S.bradley_terry(4 * wins, rng_seed=4, bootstrap=400, groups=np.concatenate([groups] * 4))
    assert r4 == pytest.approx(r1, abs=1e-6)
    assert np.all(np.abs((iv4[:, 1] - iv4[:, 0]) / width - 0.5) < 0.15)
    # the strongest bot is rated highest
    assert np.argmax(r1) == 2
    with pytest.raises(ValueError):
        S.bradley_terry(wins, rng_seed=0, groups=groups[:, :2, :2])
    with pytest.raises(ValueError):
        S.bradley_terry(wins, rng_seed=0, groups=groups[1:])


def test_bradley_terry_intervals_cover_the_true_ratings() -> None:
    # strengths 1, 1.5, 3; each of 60 deal groups plays 2 games per pair, the group's deals
    # shifting the pair's win probability by up to ±0.15 (mean 0, so the model's probabilities
    # are the means): the true ratings are 400 log10(strength) minus their mean
    strength = np.array([1.0, 1.5, 3.0])
    truth = 400 * np.log10(strength)
    truth -= truth.mean()
    p = strength[:, None] / (strength[:, None] + strength[None, :])
    rng = np.random.default_rng(3)
    covered = np.zeros(3, dtype=int)
    for rep in range(1000):
        w = rng.binomial(2, p + rng.uniform(-0.15, 0.15, size=(60, 1, 1)))
        groups = np.triu(w, 1) + np.transpose(np.triu(2 - w, 1), (0, 2, 1))
        _, iv = S.bradley_terry(groups.sum(axis=0), rng_seed=rep, bootstrap=200, groups=groups)
        covered += (iv[:, 0] <= truth) & (truth <= iv[:, 1])
    assert np.all((930 <= covered) & (covered <= 970)), covered


def test_bradley_terry_bad_input_and_a_bot_that_never_scored() -> None:
    ratings, _ = S.bradley_terry(np.array([[0, 10], [0, 0]]), rng_seed=0, bootstrap=0)
    assert np.all(np.isfinite(ratings)) and ratings[0] > ratings[1]
    for bad in (np.zeros((1, 1)), np.zeros((2, 3)), np.array([[0, -1], [1, 0]])):
        with pytest.raises(ValueError):
            S.bradley_terry(bad, rng_seed=0)
    for count in (-1, 1):
        with pytest.raises(ValueError):
            S.bradley_terry(np.array([[0, 3], [2, 0]]), rng_seed=0, bootstrap=count)


def test_normal_quantile_constant() -> None:
    assert NormalDist().inv_cdf(0.975) == S.Z95


def test_llr_raises_where_fishtest_finds_no_fit() -> None:
    # every pair won outright, tested at normalized Elo 100 against 400: no distribution near
    # the results has those t-values (fishtest's secular() raises ValueError here too)
    with pytest.raises(ValueError):
        S.SPRT(100, 400).llr([0, 0, 0, 0, 1000])
