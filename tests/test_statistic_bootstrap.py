"""The paired bootstrap of any statistic of the two score vectors (ratio of means, quantile differences)."""

import itertools

import numpy as np
import pytest

from scipy_check import assert_agrees_with_scipy_bootstrap

from helpers import (
    enumerate_resamples,
    four_pair_example,
    mean_difference,
    paired_bootstrap,
    paired_bootstrap_statistic,
    percentile_interval,
    quantile_difference,
    relative_change,
)


def test_mean_difference_reproduces_paired_bootstrap_bit_for_bit():
    # the same engine and the same random stream: identical resamples
    rng = np.random.default_rng(0)
    a, b = rng.random(37), rng.random(37)
    for seed in (1, 2):
        np.testing.assert_array_equal(
            paired_bootstrap_statistic(a, b, mean_difference, n_resamples=3000, rng=seed),
            paired_bootstrap(b - a, n_resamples=3000, rng=seed),
        )


def test_pairs_travel_together_and_chunking_does_not_matter():
    a = np.arange(10.0)
    b = a + 100.0  # every pair differs by exactly 100
    seen = []

    def stat(ra, rb):
        seen.append((ra.shape, rb.shape))
        assert np.all(rb - ra == 100.0)  # never A of one query with B of another
        return rb.mean(axis=-1) - ra.mean(axis=-1)

    whole = paired_bootstrap_statistic(a, b, stat, n_resamples=500, rng=4)
    chunked = paired_bootstrap_statistic(a, b, stat, n_resamples=500, rng=4, max_elements=70)
    np.testing.assert_array_equal(whole, chunked)
    assert seen[0] == ((500, 10), (500, 10)) and seen[1] == ((7, 10), (7, 10))


def test_four_pair_relative_change_exactly_and_by_monte_carlo():
    """+0.025 on A's 0.600 is +4.17%; its exact bootstrap interval from all 256 draws.

    Monte Carlo with B = 20,000: each interval end is an order statistic of a
    lattice of at most 35 distinct values, so with high probability it lands on
    the exact value or a neighbouring one; the tolerance is one lattice step.
    """
    ex = four_pair_example()
    a, b = ex["a"], ex["b"]
    assert relative_change(a, b) == pytest.approx(0.025 / 0.600, abs=1e-12)
    assert f"{relative_change(a, b):+.2%}" == "+4.17%"
    # exact: every one of the 4**4 ordered draws, by brute force
    exact = sorted(b[list(t)].mean() / a[list(t)].mean() - 1 for t in itertools.product(range(4), repeat=4))
    low, high = exact[6], exact[249]
    draws = enumerate_resamples(4)
    assert tuple(percentile_interval(relative_change(a[draws], b[draws]))) == pytest.approx((low, high), abs=1e-15)
    assert (round(low, 4), round(high, 4)) == (-0.056, 0.1455)  # -5.60% to +14.55%
    mc = percentile_interval(paired_bootstrap_statistic(a, b, relative_change, n_resamples=20_000, rng=6))
    values = np.unique(np.round(exact, 12))
    step = np.diff(values).max()
    assert abs(mc.low - low) <= step and abs(mc.high - high) <= step


def _latencies(n, seed):
    """Per-query latencies in ms: B is faster on most queries, but takes a slow path on about 15%."""
    rng = np.random.default_rng(seed)
    a = rng.lognormal(np.log(120), 0.3, n)
    b = a * rng.lognormal(np.log(0.75), 0.1, n) + (rng.random(n) < 0.15) * rng.uniform(100, 200, n)
    return a, b


@pytest.mark.parametrize(
    "statistic, name",
    [(relative_change, "ratio of means"), (quantile_difference(0.95), "p95 difference"), (quantile_difference(0.5), "median difference")],
)
def test_agrees_with_scipy_paired_bootstrap(statistic, name):
    """Standard error and percentile ends agree with scipy.stats.bootstrap(paired=True).

    Both are Monte Carlo estimates from B = 20,000 resamples with independent
    streams. The standard error of a bootstrap SD estimate is about SE/sqrt(2B)
    = 0.5% of SE; the 5% relative tolerance is ten of those. An interval end (a
    2.5% or 97.5% quantile) has Monte Carlo SD of about 0.02-0.03 SE for a smooth
    distribution; the quantile statistics are lumpier (the p95 of 200 values moves
    in steps between order statistics), so the tolerance is 0.25 SE, several
    times the Monte Carlo error and far below the interval's half-width (about 2 SE).
    """
    a, b = _latencies(200, 3)
    ours = paired_bootstrap_statistic(a, b, statistic, n_resamples=20_000, rng=11)
    se = assert_agrees_with_scipy_bootstrap(
        ours,
        (a, b),
        lambda x, y, axis=-1: statistic(np.moveaxis(x, axis, -1), np.moveaxis(y, axis, -1)),
        seed=12,
        paired=True,
        end_tol=0.25,
        label=name,
    )
    # and the observed statistic is where both distributions are centred
    assert abs(np.median(ours) - statistic(a, b)) < 0.5 * se


def test_p95_and_mean_answer_different_questions():
    a, b = _latencies(600, 5)
    mean_iv = percentile_interval(paired_bootstrap_statistic(a, b, mean_difference, n_resamples=4000, rng=1))
    p95_iv = percentile_interval(paired_bootstrap_statistic(a, b, quantile_difference(0.95), n_resamples=4000, rng=1))
    # B is faster on average but slower in the tail: the two intervals lie on opposite sides of zero
    assert mean_iv.high < 0 < p95_iv.low


def test_statistics_on_one_and_two_dimensional_input():
    a = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]])
    b = a * 1.5
    np.testing.assert_allclose(relative_change(a, b), [0.5, 0.5])
    np.testing.assert_allclose(mean_difference(a, b), [1.25, 1.0])
    np.testing.assert_allclose(quantile_difference(1.0)(a, b), [2.0, 1.0])
    np.testing.assert_allclose(quantile_difference(0.5)(a[0], b[0]), np.median(b[0]) - np.median(a[0]))
    assert quantile_difference(0.95).__name__ == "quantile_difference(0.95)"


def test_relative_change_refuses_a_zero_baseline():
    with pytest.raises(ValueError, match="A's mean is 0"):
        relative_change(np.zeros(3), np.ones(3))
    # a resample in which every drawn A score is 0 is refused too, not turned into inf
    a, b = np.array([0.0, 0.0, 0.0, 1.0]), np.array([0.5, 0.5, 0.5, 1.0])
    with pytest.raises(ValueError, match="in the data or in a resample"):
        paired_bootstrap_statistic(a, b, relative_change, n_resamples=200, rng=0)


@pytest.mark.parametrize("q", [-0.1, 1.5, float("nan"), True, "0.95", None])
def test_quantile_difference_checks_q(q):
    with pytest.raises(ValueError, match="q must be a quantile level between 0 and 1"):
        quantile_difference(q)


def test_bad_input():
    with pytest.raises(ValueError, match="A has 3 scores and B has 2"):
        paired_bootstrap_statistic([1, 2, 3], [1, 2], mean_difference, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="B's scores contain NaN"):
        paired_bootstrap_statistic([1, 2], [1, float("nan")], mean_difference, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="A's scores is empty"):
        paired_bootstrap_statistic([], [], mean_difference, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="statistic must be a function"):
        paired_bootstrap_statistic([1, 2], [1, 2], "mean", n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="one value per resample"):
        paired_bootstrap_statistic([1, 2], [1, 2], lambda x, y: x - y, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match="rng is required"):
        paired_bootstrap_statistic([1, 2], [1, 2], mean_difference, n_resamples=10, rng=None)
    with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
        paired_bootstrap_statistic([1, 2], [1, 2], mean_difference, n_resamples=0, rng=0)
