"""Exact answers on the score grid: grid detection, the exact randomization
test by dynamic programming, the exact bootstrap of the mean by FFT.

Independent checks: brute-force enumeration of sign vectors, exact integer
dynamic programming with Python integers, scipy.stats.binomtest, Fisher's
published Zea mays figures, the multiset enumeration of
``exact_bootstrap_distribution``, direct convolution, and large Monte Carlo
runs.
"""

import itertools
import math
from dataclasses import astuple
from fractions import Fraction
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from scipy import stats

import helpers
from helpers import (
    FOUR_PAIR_CHANGES,
    exact_bootstrap_distribution,
    exact_bootstrap_interval,
    find_grid,
    grid_bootstrap_distribution,
    hit_at_5_example,
    paired_bootstrap,
    percentile_interval,
    randomization_test,
    read_trec_eval,
    sign_flip_distribution,
)
from helpers.grid import MAX_GRID_POINTS
from helpers.scale.fft import _ends
from helpers.significance import _grid_test


def _read_ends(p: np.ndarray, half_alpha: float, tol: float) -> tuple[int, int]:
    """grid._ends on the probabilities ``p`` (not necessarily summing to 1)."""
    return _ends(np.cumsum(p).item, p.size - 1, half_alpha, tol)


DATA = Path(__file__).resolve().parents[1] / "notebooks" / "data"
ALTERNATIVES = ["two-sided", "greater", "less"]
# Darwin's Zea mays data as Fisher analysed it: crossed minus self-fertilised height, in inches
# (eighths)
ZEA_MAYS = [
    6.125,
    -8.375,
    1.0,
    2.0,
    0.75,
    2.875,
    3.5,
    5.125,
    1.75,
    3.625,
    7.0,
    3.0,
    9.375,
    7.5,
    -6.0,
]


def four_decimal_runs(q, seed, shift=0.01, sd=0.1):
    rng = np.random.default_rng(seed)
    a = np.round(rng.uniform(0, 1, q), 4)
    b = np.round(np.clip(a + rng.normal(shift, sd, q), 0, 1), 4)
    return a, b


def exact_count(steps, alternative):
    """Assignments at least as extreme, by dynamic programming over sums with Python integers
    (exact).
    """
    counts = {0: 1}
    for k in steps:
        new = {}
        for s, c in counts.items():
            for t in (s + k, s - k):
                new[t] = new.get(t, 0) + c
        counts = new
    o = sum(steps)
    if alternative == "two-sided":
        return sum(c for s, c in counts.items() if abs(s) >= abs(o))
    if alternative == "greater":
        return sum(c for s, c in counts.items() if s >= o)
    return sum(c for s, c in counts.items() if s <= o)


# --- grid detection --------------------------------------------------------------


def test_grid_of_hit_at_k_changes_is_one():
    a, b = hit_at_5_example()
    g = find_grid(b - a)
    assert g.step == 1 and g.label == "1"
    assert g.steps.tolist() == (b - a).astype(int).tolist()


@pytest.mark.parametrize("k", [5, 10, 20, 30])
def test_grid_of_precision_at_k(k):
    rng = np.random.default_rng(k)
    a, b = rng.integers(0, k + 1, 200) / k, rng.integers(0, k + 1, 200) / k
    g = find_grid(b - a)
    assert g is not None
    # the steps are the changes in whole relevant documents, divided by their common divisor
    hits = rng.integers(0, k + 1, 200)  # unused draw keeps the pattern readable
    assert g.steps * float(g.step) - (b - a) == pytest.approx(0, abs=1e-12)
    assert Fraction(k) * g.step == int(Fraction(k) * g.step)  # a whole number of 1/k steps
    del hits


def test_grid_of_trec_eval_four_decimals_from_the_series_runs():
    a = read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10")
    b = read_trec_eval(DATA / "simulated_B.trec_eval.txt", "ndcg_cut_10")
    runs = helpers.align_runs(a, b, missing="zero")
    d = runs.b - runs.a
    g = find_grid(d)
    assert g is not None and g.step.denominator == 10_000
    expected = np.round(runs.b * 10_000).astype(int) - np.round(runs.a * 10_000).astype(int)
    assert (g.steps * g.step.numerator).tolist() == expected.tolist()


def test_grid_allows_the_float_error_of_b_minus_a():
    a, b = four_decimal_runs(5000, 1)
    g = find_grid(b - a)
    assert g.label == "0.0001" or g.step.denominator == 10_000
    assert (g.steps * g.step.numerator).tolist() == (np.round(b * 1e4) - np.round(a * 1e4)).astype(
        int
    ).tolist()
    # scores far from zero: the error of b - a grows with them; no wrong grid is found
    big_a, big_b = a + 1000, b + 1000
    assert find_grid(big_b - big_a) is None or find_grid(big_b - big_a).step.denominator == 10_000


@pytest.mark.parametrize(
    "values",
    [
        [0.1234567891, 0.5],
        np.random.default_rng(3).normal(0, 0.1, 50),
        [0.3333333, 0.1],  # seven decimals: close to 1/3, but not on its grid
        [math.pi / 10, 0.2],
    ],
)
def test_values_on_no_grid(values):
    assert find_grid(values) is None


def test_all_zero_changes():
    assert find_grid([0.0, 0.0]).steps.tolist() == [0, 0]


# --- the exact randomization test on the grid -------------------------------------


def test_sign_flip_distribution_matches_enumeration():
    rng = np.random.default_rng(5)
    for _ in range(20):
        steps = rng.integers(1, 12, rng.integers(1, 11))
        p = sign_flip_distribution(steps)
        tally = np.zeros(int(steps.sum()) + 1)
        for flips in itertools.product((0, 1), repeat=steps.size):
            tally[int(np.dot(flips, steps))] += 1
        assert (p * 2**steps.size).tolist() == tally.tolist()  # exact, not approximately


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_grid_test_equals_full_enumeration_up_to_twenty(seed, alternative):
    rng = np.random.default_rng(seed)
    q = int(rng.integers(2, 21))
    a, b = four_decimal_runs(q, seed)
    d = b - a
    if seed % 2:  # P@5-like changes, many ties
        d = (rng.integers(0, 6, q) - rng.integers(0, 6, q)) / 5
    nonzero = d[d != 0]
    if nonzero.size == 0:
        return
    enum = randomization_test(d, alternative=alternative)
    grid = _grid_test(d, find_grid(nonzero), float(np.mean(d)), alternative)
    assert enum.method == "randomization (exact, all sign assignments)"
    assert grid.count == enum.count and grid.n_resamples == enum.n_resamples
    assert grid.pvalue == enum.pvalue
    assert grid.exact and "grid" in grid.method


def test_fisher_zea_mays():
    steps = [int(x * 8) for x in ZEA_MAYS]
    assert sum(steps) == 314  # Fisher worked in eighths of an inch
    p = sign_flip_distribution(steps)
    total = sum(abs(s) for s in steps)
    at_least = p[: (total - sum(steps)) // 2 + 1].sum() * 2**15  # S - 2T >= observed
    assert at_least == 863
    res = randomization_test(ZEA_MAYS, alternative="greater")
    assert (res.count, res.n_resamples) == (863, 32_768) and f"{res.pvalue:.5f}" == "0.02634"
    grid = _grid_test(
        np.array(ZEA_MAYS), find_grid(ZEA_MAYS), float(np.mean(ZEA_MAYS)), "two-sided"
    )
    assert grid.count == 2 * 863 and f"{grid.pvalue:.5f}" == "0.05267"


def test_more_than_twenty_changes_are_exact_on_the_grid_and_match_integer_counts():
    doubled = np.repeat(ZEA_MAYS, 2)  # 30 changes, 2**30 assignments: beyond enumeration
    for alternative in ALTERNATIVES:
        res = randomization_test(doubled, alternative=alternative)
        assert (
            res.exact
            and res.method == "randomization (exact, sign-flip distribution on the 1/8 grid)"
        )
        expected = exact_count([int(x * 8) for x in doubled], alternative)
        assert res.count == expected and res.pvalue == expected / 2**30


def test_beyond_53_changes_the_p_value_is_within_the_stated_relative_error():
    rng = np.random.default_rng(11)
    steps = rng.integers(-40, 41, 80)
    steps[steps == 0] = 1
    d = steps / 10_000
    for alternative in ALTERNATIVES:
        res = randomization_test(d, alternative=alternative)
        exact = Fraction(exact_count(steps.tolist(), alternative), 2**80)
        assert abs(Fraction(res.pvalue) - exact) <= exact * 80 * Fraction(1, 2**53)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_hit_at_k_is_the_binomial_sign_test(alternative):
    rng = np.random.default_rng(7)
    a, b = rng.integers(0, 2, 10_000), rng.integers(0, 2, 10_000)
    d = (b - a).astype(float)
    res = randomization_test(d, alternative=alternative)
    n_plus, n = int((d > 0).sum()), int((d != 0).sum())
    expected = stats.binomtest(n_plus, n, 0.5, alternative=alternative).pvalue
    assert res.exact and res.pvalue == pytest.approx(expected, rel=1e-9)


def test_series_outputs_unchanged():
    res = randomization_test(FOUR_PAIR_CHANGES)
    assert (res.count, res.n_resamples, res.pvalue) == (10, 16, 0.625)
    a, b = hit_at_5_example()
    res = randomization_test(b - a)
    assert (res.count, res.n_resamples) == (5034, 65_536) and f"{res.pvalue:.4f}" == "0.0768"
    assert res.method == "randomization (exact, all sign assignments)"


def test_null_distribution_on_the_grid():
    res = randomization_test(np.repeat(ZEA_MAYS, 2))
    assert res.null_probabilities is not None
    assert np.all(np.diff(res.null_distribution) > 0)
    assert math.fsum(res.null_probabilities.tolist()) == 1.0
    assert res.null_distribution[-1] == pytest.approx(np.abs(np.repeat(ZEA_MAYS, 2)).mean())


def test_off_grid_falls_back_to_monte_carlo_and_says_so():
    d = np.random.default_rng(3).normal(0, 0.1, 40)
    with pytest.raises(ValueError, match="on no grid"):
        randomization_test(d)
    res = randomization_test(d, rng=1)
    assert not res.exact and res.n_resamples == 10_000 and "not exact" in res.method
    same = randomization_test(d, n_resamples=10_000, rng=1)
    assert (
        same.pvalue == res.pvalue and same.method == "randomization (Monte Carlo sign assignments)"
    )


def test_user_supplied_n_resamples_stays_monte_carlo_on_the_grid():
    a, b = four_decimal_runs(100, 2)
    res = randomization_test(b - a, n_resamples=2000, rng=3)
    assert (
        not res.exact
        and res.n_resamples == 2000
        and res.method == "randomization (Monte Carlo sign assignments)"
    )


def test_grid_too_fine_for_the_memory_bound_falls_back():
    d = (
        np.linspace(-1, 1, 400) + 1e-6
    )  # six decimals over a wide range: the sums need too many points
    d = np.round(d, 6)
    g = find_grid(d[d != 0])
    assert g is not None and int(np.abs(g.steps).sum()) + 1 > MAX_GRID_POINTS
    res = randomization_test(d, rng=2)
    assert not res.exact and "above the limit" in res.method
    with pytest.raises(ValueError, match="above the limit MAX_GRID_POINTS = 8,388,608"):
        sign_flip_distribution(g.steps)


def test_monte_carlo_agrees_with_the_exact_p_within_its_error():
    a, b = four_decimal_runs(100, 4, shift=0.02)
    exact = randomization_test(b - a)
    mc = randomization_test(b - a, n_resamples=100_000, rng=5)
    se = math.sqrt(exact.pvalue * (1 - exact.pvalue) / 100_000)
    assert abs(mc.pvalue - exact.pvalue) < 4 * se


# --- the exact bootstrap of the mean on the grid ------------------------------------


def convolution_reference(d):
    """The distribution of the total of Q draws by direct convolution (sums of positive terms:
    accurate).
    """
    g = find_grid(d)
    k = g.steps - g.steps.min()
    f = np.bincount(k) / len(d)
    out, base, e = np.ones(1), f, len(d)
    while e:
        if e & 1:
            out = np.convolve(out, base)
        e >>= 1
        if e:
            base = np.convolve(base, base)
    return out


def test_grid_distribution_equals_multiset_enumeration_for_small_q():
    rng = np.random.default_rng(2)
    for _ in range(15):
        q = int(rng.integers(1, 9))
        d = rng.integers(-4, 5, q) / 5
        grid = grid_bootstrap_distribution(d)
        multi = exact_bootstrap_distribution(d)
        on_grid = dict(
            zip(
                np.round(grid.values * q * 5).astype(int).tolist(),
                grid.probabilities.tolist(),
                strict=False,
            )
        )
        for v, p in zip(
            np.round(multi.values * q * 5).astype(int).tolist(),
            multi.probabilities.tolist(),
            strict=False,
        ):
            assert on_grid.get(v, 0.0) == pytest.approx(p, abs=1e-13)
        for level in (0.5, 0.8, 0.9, 0.95):
            iv = percentile_interval(multi.values, level, weights=multi.probabilities)
            lo, hi = _read_ends(
                grid.probabilities, (1 - level) / 2, max(1e-10, 10 * grid.error_bound)
            )
            assert (grid.values[lo], grid.values[hi]) == pytest.approx(tuple(iv), abs=1e-12)


@pytest.mark.parametrize(
    "q, kind", [(10_000, "hit"), (100, "p5"), (12, "four"), (30, "three"), (1, "four")]
)
def test_error_bound_holds_against_direct_convolution(q, kind):
    rng = np.random.default_rng(q)
    if kind == "hit":
        d = (rng.integers(0, 2, q) - rng.integers(0, 2, q)).astype(float)
    elif kind == "p5":
        d = (rng.integers(0, 6, q) - rng.integers(0, 6, q)) / 5
    else:
        d = np.round(rng.normal(0, 0.05, q), 4 if kind == "four" else 3)
    dist = grid_bootstrap_distribution(d)
    ref = convolution_reference(d)
    g = find_grid(d)
    totals = np.round(dist.values * q / float(g.step)).astype(int) - q * int(g.steps.min())
    # the reference's own rounding (sums of up to Q terms) is added to the bound
    ref_err = q * 4 * np.finfo(float).eps
    assert (
        np.max(np.abs(np.cumsum(dist.probabilities) - np.cumsum(ref)[totals]))
        <= dist.error_bound + ref_err
    )
    assert dist.error_bound < 1e-10
    assert dist.probabilities.min() >= 0 and math.fsum(
        dist.probabilities.tolist()
    ) == pytest.approx(1, abs=1e-14)


def test_hit_at_5_interval_of_the_series():
    a, b = hit_at_5_example()
    d = b - a
    iv = exact_bootstrap_interval(d)
    assert (round(iv.low, 3), round(iv.high, 3)) == (-0.133, 0.0)
    assert iv.method == "exact bootstrap (multiset enumeration, 7,381 count vectors)"
    grid = grid_bootstrap_distribution(d)  # the grid route gives the same ends
    lo, hi = _read_ends(grid.probabilities, 0.025, max(1e-10, 10 * grid.error_bound))
    assert (grid.values[lo], grid.values[hi]) == (iv.low, iv.high)


def test_large_monte_carlo_run_agrees_within_its_error():
    a, b = four_decimal_runs(100, 9)
    d = b - a
    iv = exact_bootstrap_interval(d)
    assert "FFT on the" in iv.method
    dist = grid_bootstrap_distribution(d)
    cdf = np.cumsum(dist.probabilities)
    r = 200_000
    mc = percentile_interval(paired_bootstrap(d, n_resamples=r, rng=12))
    se = math.sqrt(0.025 * 0.975 / r)
    for end, target in [(mc.low, 0.025), (mc.high, 0.975)]:
        i = int(np.argmin(np.abs(dist.values - end)))
        assert dist.values[i] == pytest.approx(
            end, abs=1e-12
        )  # the Monte Carlo end is a grid value
        assert abs(cdf[i] - target) < 5 * se + dist.probabilities[i]
    # and the exact ends are within a few Monte Carlo standard errors in probability of the Monte
    # Carlo ones
    assert (
        abs(cdf[np.searchsorted(dist.values, iv.low)] - cdf[np.searchsorted(dist.values, mc.low)])
        < 5 * se + 1e-3
    )


def test_hit_at_k_ten_thousand_queries_both_exact():
    rng = np.random.default_rng(10)
    d = (rng.integers(0, 2, 10_000) - rng.integers(0, 2, 10_000)).astype(float)
    iv = exact_bootstrap_interval(d)
    res = randomization_test(d)
    assert "FFT on the 1 grid" in iv.method and res.exact
    mc = percentile_interval(paired_bootstrap(d, n_resamples=20_000, rng=1))
    assert abs(iv.low - mc.low) <= 3 / 10_000 and abs(iv.high - mc.high) <= 3 / 10_000


# --- a cumulative probability exactly on the level (issue 13) -----------------------


def test_cumulative_probability_exactly_on_the_level():
    # [-1, 0, 0, 1]: the 256 ordered resamples give counts 1, 8, 28, 56, 70, 56, 28, 8, 1.
    # At level 1 - 2 * 9/256 = 0.9296875, alpha/2 = 9/256 = F(-0.75) and 1 - alpha/2 = 247/256 =
    # F(0.5)
    # exactly, so the order-statistic convention on all 256 draws gives s[9] = -0.5 and s[247] =
    # 0.75.
    d = [-1.0, 0.0, 0.0, 1.0]
    level = 0.9296875
    draws = np.sort(np.asarray(d)[helpers.enumerate_resamples(4)].mean(axis=1))
    expected = (draws[9], draws[247])
    assert expected == (-0.5, 0.75)
    assert tuple(percentile_interval(draws, level)) == expected
    multi = exact_bootstrap_distribution(d)  # probabilities through exp/log
    assert tuple(percentile_interval(multi.values, level, weights=multi.probabilities)) == expected
    iv = exact_bootstrap_interval(d, level)
    assert (iv.low, iv.high) == expected
    grid = grid_bootstrap_distribution(d)  # probabilities through the FFT
    lo, hi = _read_ends(grid.probabilities, 9 / 256, max(1e-10, 10 * grid.error_bound))
    assert (grid.values[lo], grid.values[hi]) == expected
    # the ends do not move when the last bits of the probabilities do (another CPU's exp, log or
    # FFT)
    rng = np.random.default_rng(0)
    for _ in range(50):
        wobble = multi.probabilities * (1 + rng.uniform(-1e-13, 1e-13, multi.probabilities.size))
        assert tuple(percentile_interval(multi.values, level, weights=wobble)) == expected
        wobble = grid.probabilities * (1 + rng.uniform(-1e-13, 1e-13, grid.probabilities.size))
        lo, hi = _read_ends(wobble, 9 / 256, 1e-10)
        assert (grid.values[lo], grid.values[hi]) == expected


def test_a_grid_too_fine_for_the_limit_is_refused_with_what_to_do():
    with mock.patch.object(helpers.scale.fft, "MAX_GRID_POINTS", 10_000):
        with pytest.raises(ValueError, match=r"MAX_GRID_POINTS = 10,000; .* or use paired_boot"):
            grid_bootstrap_distribution(np.round(np.linspace(-1, 1, 300), 6))


def test_interval_equals_reading_the_full_distribution_it_carries():
    # exact_bootstrap_interval's FFT route against percentile_interval reading the full
    # distribution from grid_bootstrap_distribution; either route carries the distribution
    # it was read from (compare_runs draws its plotted values from it)
    rng = np.random.default_rng(0)
    fft = 0
    for i in range(18):
        q = int(rng.integers(20, 300))
        if i % 3 == 0:
            a, b = four_decimal_runs(q, i)
            d = b - a
        elif i % 3 == 1:
            d = (rng.integers(0, 6, q) - rng.integers(0, 6, q)) / 5
        else:
            d = (rng.integers(0, 2, q) - rng.integers(0, 2, q)).astype(float)
        dist = grid_bootstrap_distribution(d)
        for level in (0.8, 0.95, 0.99):
            iv = exact_bootstrap_interval(d, level)
            same = dist if "FFT" in iv.method else exact_bootstrap_distribution(d)
            for got, want in zip(astuple(iv.distribution), astuple(same), strict=True):
                assert np.array_equal(got, want)
            if "multiset" in iv.method:
                continue
            fft += 1
            read = percentile_interval(dist.values, level, weights=dist.probabilities)
            assert tuple(read) == (iv.low, iv.high)
    assert fft >= 20


# --- how many means a resample can have ------------------------------------------


def _attainable_by_enumeration(d):
    """Distinct means over all multisets of Q changes, in exact fractions."""
    exact = [Fraction(x).limit_denominator(10_000) for x in d]
    return len({sum(m) for m in itertools.combinations_with_replacement(exact, len(exact))})


def test_count_attainable_means_equals_multiset_enumeration():
    rng = np.random.default_rng(25)
    cases = [list(FOUR_PAIR_CHANGES), [0.0] * 5, [0.25, -0.5]]
    cases += [(rng.integers(-4, 5, int(rng.integers(1, 8))) / 5).tolist() for _ in range(10)]
    cases += [
        (b - a).tolist()
        for a, b in (four_decimal_runs(int(rng.integers(2, 7)), s) for s in range(5))
    ]
    for d in cases:
        assert helpers.count_attainable_means(d) == _attainable_by_enumeration(d), d


def test_count_attainable_means_against_boolean_arrays():
    """Q = 40 four-decimal changes: totals reachable draw by draw, as numpy booleans."""
    a, b = four_decimal_runs(40, 7, sd=0.02)
    k = np.unique(np.round(b * 1e4).astype(int) - np.round(a * 1e4).astype(int))
    k -= k[0]
    reach = np.zeros(40 * int(k[-1]) + 1, dtype=bool)
    reach[0] = True
    for _ in range(40):
        new = np.zeros_like(reach)
        for s in k:
            new[s:] |= reach[: reach.size - s]
        reach = new
    assert helpers.count_attainable_means(b - a) == int(reach.sum()) < reach.size
    hit_a, hit_b = hit_at_5_example()  # changes -1, 0, +1: every total from -120 to +120
    assert helpers.count_attainable_means(hit_b - hit_a) == 241


def test_count_attainable_means_refuses_what_it_cannot_count():
    with pytest.raises(ValueError, match="on no grid"):
        helpers.count_attainable_means([0.1234567891, 0.5])
    with pytest.raises(ValueError, match="MAX_GRID_POINTS = 100"):
        with mock.patch.object(helpers.scale.fft, "MAX_GRID_POINTS", 100):
            helpers.count_attainable_means(FOUR_PAIR_CHANGES * 10)


# --- issue 26: the grids of the measures people use, and the FFT sign-flip test ----------


def reciprocal_ranks(q, seed, cutoff=10, digits=None):
    """RR@cutoff of two runs on q queries (0 when nothing relevant is in the top cutoff)."""
    rng = np.random.default_rng(seed)

    def ranks():
        r = np.minimum(rng.geometric(0.35, q), cutoff + 1)
        return np.where(r <= cutoff, r, 0)

    ra = ranks()
    rb = np.where(rng.random(q) < 0.6, ra, ranks())
    a, b = (np.where(r > 0, 1.0 / np.maximum(r, 1), 0.0) for r in (ra, rb))
    return (a, b) if digits is None else (np.round(a, digits), np.round(b, digits))


@pytest.mark.parametrize(("cutoff", "units"), [(5, 60), (10, 2520), (12, 27720)])
def test_grid_of_reciprocal_ranks_at_full_precision(cutoff, units):
    a, b = reciprocal_ranks(400, cutoff, cutoff=cutoff)
    rr = np.array([0.0] + [1 / r for r in range(1, cutoff + 1)])
    all_changes = (rr[:, None] - rr[None, :]).ravel()
    g = find_grid(all_changes)
    assert g.step == Fraction(1, units)  # 1 / lcm(1, ..., cutoff)
    expected = [Fraction(x).limit_denominator(units) * units for x in all_changes]
    assert g.steps.tolist() == [int(e) for e in expected]
    g = find_grid(b - a)
    assert g is not None and units % g.step.denominator == 0
    assert np.allclose(g.steps * float(g.step), b - a, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    ("values", "label"),
    [
        # MAP and nDCG as trec_eval prints them: four decimals
        (np.round(np.random.default_rng(1).beta(2, 5, 300), 4), "0.0001"),
        # a mixture of P@10 and success@5 per query, and its changes
        (np.r_[np.arange(11) / 10, [0.0, 1.0]], "0.1"),
        (np.r_[np.arange(11) / 10, [0.0, 1.0]] - np.r_[[1.0, 0.0], np.arange(11) / 10], "0.1"),
        # P@3 mixed with RR@5: steps of 1/lcm(3, 60)
        (np.r_[np.arange(4) / 3, 1 / np.arange(1, 6)] - 0.25, "1/60"),
        (np.round(np.random.default_rng(2).uniform(-1, 1, 50), 6), "0.000001"),
    ],
)
def test_grid_of_rounded_measures_and_mixtures(values, label):
    assert find_grid(values).label == label


def test_values_near_a_fine_grid_are_not_on_it():
    rng = np.random.default_rng(26)
    assert find_grid(rng.uniform(-1, 1, 1000)) is None  # full-precision scores
    assert find_grid(1 / np.arange(1, 11) + 1e-7) is None  # near RR@10, off it by 1e-7
    assert find_grid([1 / 99_991, 1 / 99_989]) is None  # two primes: L = 99,991 x 99,989


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_exact_test_on_the_rr_at_10_grid_matches_exact_integer_counts(alternative):
    a, b = reciprocal_ranks(80, 3)
    d = b - a
    res = randomization_test(d, alternative=alternative)
    g = find_grid(d[d != 0])
    assert res.exact and 2520 % g.step.denominator == 0 and f"{g.label} grid" in res.method
    count = exact_count(g.steps.tolist(), alternative)
    assert res.pvalue == pytest.approx(count / 2**g.steps.size, rel=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_fft_route_matches_the_dynamic_programming(alternative, monkeypatch):
    # RR@10 at full precision and MAP at four decimals: the same p-value by both routes
    for d in (np.subtract(*reciprocal_ranks(300, 4)[::-1]), np.subtract(*four_decimal_runs(60, 5))):
        by_dp = randomization_test(d, alternative=alternative)
        monkeypatch.setattr("helpers.significance.MAX_DP_WORK", 0)
        by_fft = randomization_test(d, alternative=alternative)
        monkeypatch.undo()
        assert "by FFT of" in by_fft.method and "by FFT" not in by_dp.method
        assert by_fft.pvalue == pytest.approx(by_dp.pvalue, rel=1e-9)
        # the distribution on the FFT's window, against the dynamic programming's
        dp = dict(zip(by_dp.null_distribution.tolist(), by_dp.null_probabilities, strict=True))
        fft_probs = by_fft.null_probabilities
        assert by_fft.null_distribution.size <= by_dp.null_distribution.size
        expected = np.array([dp[v] for v in by_fft.null_distribution.tolist()])
        assert np.abs(fft_probs - expected).max() < 1e-13
        assert 1 - fft_probs.sum() < 1e-12


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_fft_route_keeps_tiny_p_values_exact(alternative, monkeypatch):
    # 3,000 hit@k changes: the exact test is the sign test (scipy.stats.binomtest), here with
    # p-values down to 1e-60, far below the FFT's absolute round-off
    monkeypatch.setattr("helpers.significance.MAX_DP_WORK", 0)
    for wins in (1_500, 1_530, 1_700, 1_750, 2_100):
        d = np.r_[np.ones(wins), -np.ones(3_000 - wins), np.zeros(500)]
        res = randomization_test(d, alternative=alternative)
        assert res.exact and "by FFT of" in res.method
        theirs = stats.binomtest(wins, 3_000, 0.5, alternative=alternative).pvalue
        assert res.pvalue == pytest.approx(theirs, rel=1e-9)


def test_ms_marco_sized_rr_at_10_is_exact_in_test_and_interval():
    # 6,980 queries (MS MARCO's dev set), at full precision and at four decimals
    for digits in (None, 4):
        a, b = reciprocal_ranks(6_980, 26, digits=digits)
        d = b - a
        res = randomization_test(d)
        iv = exact_bootstrap_interval(d)
        label = "1/2520" if digits is None else "0.0001"
        assert res.exact and f"on the {label} grid, by FFT of" in res.method
        assert f"FFT on the {label} grid" in iv.method
        assert iv.low < d.mean() < iv.high


def test_exact_bootstrap_on_the_rr_at_10_grid_equals_multiset_enumeration():
    # reciprocal ranks at full precision: the FFT on the 1/2520 grid against enumeration
    checked = 0
    for seed in range(4):
        a, b = reciprocal_ranks(7, seed)
        d = b - a
        if np.unique(d).size < 3:
            continue
        grid = grid_bootstrap_distribution(d)
        multi = exact_bootstrap_distribution(d)
        assert 2520 % grid.step.denominator == 0
        fft_cdf = np.cumsum(grid.probabilities)
        for v, cdf in zip(multi.values, np.cumsum(multi.probabilities), strict=True):
            i = int(np.searchsorted(grid.values, v + 1e-12, side="right")) - 1
            assert fft_cdf[i] == pytest.approx(cdf, abs=max(1e-12, grid.error_bound))
        checked += 1
    assert checked >= 2


def test_astronomically_many_multisets_are_refused_with_the_message_at_once():
    # 20,000 distinct full-precision changes: C(39,999, 19,999) multisets, about 10^12,039; the
    # count is neither computed (seconds at a million) nor printed in full (Python refuses str())
    d = np.random.default_rng(26).uniform(-0.5, 0.5, 20_000)
    with pytest.raises(ValueError, match=r"on no grid .* and have C\(39,999, 19,999\) multisets"):
        exact_bootstrap_interval(d)


def test_a_p_below_the_smallest_double_says_so():
    # 3,000 queries all up by 0.1: p = 2 / 2**3000, about 10^-902.8; no double holds it
    res = randomization_test(np.full(3_000, 0.1))
    assert res.exact and res.count == 2 and res.pvalue == math.ulp(0.0) > 0
    assert "10^-902.8, which underflows double precision" in res.method
    assert "an upper bound" in res.method


def test_tiny_tails_of_the_dynamic_programming_keep_their_precision():
    # 1,100 hit@k changes, 1,060 up: the sign test's p is about 1e-255, in the range where the
    # dynamic programming's smallest counts pass through subnormal doubles
    for wins in (1_060, 1_080):
        d = np.r_[np.ones(wins), -np.ones(1_100 - wins)]
        res = randomization_test(d)
        assert res.exact and "by FFT" not in res.method
        exact = 2 * Fraction(sum(math.comb(1_100, j) for j in range(1_100 - wins + 1)), 2**1_100)
        assert 0 < res.pvalue == pytest.approx(float(exact), rel=1e-9)
