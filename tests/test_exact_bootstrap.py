"""The exact bootstrap distribution of a mean, and the exact distribution of Monte Carlo interval ends."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from helpers import (
    FOUR_PAIR_CHANGES,
    endpoint_distribution,
    enumerate_resamples,
    exact_bootstrap_distribution,
    hit_at_5_example,
    paired_bootstrap,
    percentile_interval,
)
from helpers.resampling import MAX_EXACT_MULTISETS


def brute_force(d):
    """All n**n ordered resamples by itertools, each with probability 1/n**n, grouped by mean."""
    n = len(d)
    groups = Counter(round(sum(d[i] for i in draw) / n, 10) for draw in itertools.product(range(n), repeat=n))
    values = sorted(groups)
    return np.array(values), np.array([groups[v] for v in values]) / n**n


def exact_hit_at_5():
    """The 120-query distribution in exact rational arithmetic: sum over (losses, wins) drawn."""
    a, b = hit_at_5_example()
    d = (b - a).astype(int).tolist()
    q, n_minus, n_plus = len(d), d.count(-1), d.count(1)
    n_zero = q - n_minus - n_plus
    weight = Counter()
    for i in range(q + 1):
        for j in range(q + 1 - i):
            ways = math.factorial(q) // (math.factorial(i) * math.factorial(j) * math.factorial(q - i - j))
            weight[j - i] += ways * n_minus**i * n_plus**j * n_zero ** (q - i - j)
    total = q**q
    assert sum(weight.values()) == total
    return {k: Fraction(w, total) for k, w in sorted(weight.items())}


@pytest.fixture(scope="module")
def hit5():
    a, b = hit_at_5_example()
    return b - a, exact_bootstrap_distribution(b - a)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_agrees_with_brute_force_enumeration(n, seed):
    rng = np.random.default_rng(seed)
    for d in (rng.normal(size=n), rng.integers(-2, 3, size=n) / 10):  # distinct values; ties
        values, probs = brute_force(d.tolist())
        dist = exact_bootstrap_distribution(d)
        assert dist.values.shape == values.shape
        np.testing.assert_allclose(dist.values, values, rtol=0, atol=1e-9)
        np.testing.assert_allclose(dist.probabilities, probs, rtol=0, atol=1e-13)
        assert np.all(np.diff(dist.values) > 0)


def test_four_pairs_35_multisets_agree_exactly_with_the_256_draws():
    d = np.array(FOUR_PAIR_CHANGES)
    means = d[enumerate_resamples(4)].mean(axis=1)
    values, counts = np.unique(np.round(means, 12), return_counts=True)
    dist = exact_bootstrap_distribution(d)
    np.testing.assert_allclose(dist.values, values, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(np.round(dist.probabilities * 256, 9), counts)  # whole numbers of draws out of 256
    assert percentile_interval(dist.values, weights=dist.probabilities) == pytest.approx((-0.035, 0.080), abs=1e-12)


def test_means_equal_in_exact_arithmetic_are_merged():
    # 0.1 + 0.2 != 0.3 in floats, but resample means that are equal as decimals must be one value
    d = ["0.1", "0.2", "0.3", "0.4", "0.6"]
    n = len(d)
    exact_means = {sum(Fraction(d[i]) for i in draw) / n for draw in itertools.product(range(n), repeat=n)}
    dist = exact_bootstrap_distribution([float(x) for x in d])
    assert len(dist.values) == len(exact_means)
    np.testing.assert_allclose(dist.values, sorted(float(m) for m in exact_means), rtol=0, atol=1e-15)


def test_identical_differences_have_one_possible_mean():
    for d in ([0.3], np.zeros(5), np.zeros(1_000_000)):
        dist = exact_bootstrap_distribution(d)
        assert dist.values.tolist() == [d[0]] and dist.probabilities.tolist() == [1.0]
        assert tuple(percentile_interval(dist.values, weights=dist.probabilities)) == (d[0], d[0])


def test_moments_are_the_bootstrap_moments():
    # the bootstrap mean of the resample mean is the sample mean; its variance is var(d, ddof=0) / n
    d = np.random.default_rng(5).normal(size=9)
    dist = exact_bootstrap_distribution(d)
    mean = dist.probabilities @ dist.values
    assert mean == pytest.approx(d.mean(), abs=1e-14)
    assert dist.probabilities @ (dist.values - mean) ** 2 == pytest.approx(d.var() / d.size, rel=1e-10)


def test_120_queries_matches_exact_rational_arithmetic(hit5):
    _, dist = hit5
    exact = exact_hit_at_5()
    np.testing.assert_array_equal(dist.values, np.array(list(exact)) / 120)  # k/120, bit for bit
    expected = np.array([float(p) for p in exact.values()])
    np.testing.assert_allclose(dist.probabilities, expected, rtol=1e-11, atol=1e-14)
    assert abs(math.fsum(dist.probabilities.tolist()) - 1) < 1e-12
    assert dist.cdf(-1 / 120) == pytest.approx(float(sum(p for k, p in exact.items() if k <= -1)), abs=1e-12)


def test_120_queries_exact_interval_and_cumulative_probability(hit5):
    _, dist = hit5
    low, high = percentile_interval(dist.values, weights=dist.probabilities)
    assert (low, high) == (-16 / 120, 0.0)
    assert (round(low, 3), round(high, 3)) == (-0.133, 0.0)
    f = dist.cdf(-1 / 120)
    assert f"{f:.6f}" == "0.974347"  # 0.9743 to four decimals (the 0.9744 rounds twice: 0.97435 -> 0.9744)
    assert f < 0.975 < dist.cdf(0.0)  # just short of 0.975, so the exact high end is 0
    assert dist.cdf(-17 / 120) < 0.025 < dist.cdf(-16 / 120)


def test_120_queries_agrees_with_a_large_monte_carlo_run(hit5):
    """Monte Carlo cumulative counts are plausible under the exact probabilities.

    At each of the 241 values v, the number of the B resample means that are <= v is
    Binomial(B, F(v)). Each observed count must have a two-sided binomial p-value above
    1e-6 (so a false alarm over all 241 values has probability below 2.5e-4; the seed is
    fixed, so the test is deterministic). A mistake of one lattice step, or a probability
    off by 1%, fails it: the check is also run on such a wrong distribution.
    """
    d, dist = hit5
    B = 200_000
    mc = np.sort(paired_bootstrap(d, n_resamples=B, rng=0))
    counts = np.searchsorted(mc, dist.values, side="right")  # exact values are the Monte Carlo floats

    def plausible(cdf):
        cdf = np.clip(cdf, 0, 1)
        p_value = 2 * np.minimum(stats.binom.cdf(counts, B, cdf), stats.binom.sf(counts - 1, B, cdf))
        return bool(np.all(p_value > 1e-6))

    exact_cdf = np.cumsum(dist.probabilities)
    assert plausible(exact_cdf)
    assert not plausible(np.cumsum(np.roll(dist.probabilities, 1)))  # shifted one step of 1/120
    assert not plausible(exact_cdf * 1.01)


@pytest.mark.parametrize("bad, match", [([], "empty"), ([0.1, float("nan")], "NaN"), ([[0.1], [0.2]], "one-dimensional")])
def test_bad_differences_are_refused(bad, match):
    with pytest.raises(ValueError, match=match):
        exact_bootstrap_distribution(bad)


def test_inputs_over_the_size_limit_are_refused_with_the_limit_named():
    twelve = np.arange(12) / 10  # C(23, 11) = 1,352,078 multisets
    assert math.comb(23, 11) > MAX_EXACT_MULTISETS
    with pytest.raises(ValueError, match=r"C\(23, 11\) = 1,352,078 .* limit is max_multisets=1,000,000"):
        exact_bootstrap_distribution(twelve)
    hits = np.repeat([-1.0, 0.0, 1.0], [100, 1200, 113])  # 1,413 queries of hit@k: C(1,415, 2) = 1,000,405
    with pytest.raises(ValueError, match="limit"):
        exact_bootstrap_distribution(hits)
    assert len(exact_bootstrap_distribution(hits[1:]).values) == 2 * 1412 + 1  # 1,412 fit: C(1,414, 2) = 998,991
    with pytest.raises(ValueError, match="max_multisets=34"):
        exact_bootstrap_distribution(FOUR_PAIR_CHANGES, max_multisets=34)
    assert len(exact_bootstrap_distribution(FOUR_PAIR_CHANGES, max_multisets=35).values) == 24


@pytest.mark.parametrize("limit", [0, -1, 2.5, True])
def test_bad_limit_is_refused(limit):
    with pytest.raises(ValueError, match="max_multisets"):
        exact_bootstrap_distribution([0.1, 0.2], max_multisets=limit)


# --- where the ends of a Monte Carlo interval land ---


@pytest.mark.parametrize("B, level", [(5, 0.5), (6, 0.8), (7, 0.95), (4, 0.5)])
def test_endpoint_distribution_against_enumerating_every_sample(B, level):
    values, probs = np.array([-1.0, 0.0, 0.5, 2.0]), np.array([0.1, 0.5, 0.3, 0.1])
    low_k, high_k = (math.floor((1 - level) / 2 * B + 1e-9), min(B - 1, math.floor((1 + level) / 2 * B + 1e-9)))
    p_low, p_high = Counter(), Counter()
    for draw in itertools.product(range(4), repeat=B):
        s = sorted(values[list(draw)])
        p = math.prod(probs[list(draw)])
        p_low[s[low_k]] += p
        p_high[s[high_k]] += p
    ends = endpoint_distribution(values, probs, n_resamples=B, level=level)
    np.testing.assert_allclose(ends.low, [p_low[v] for v in values], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ends.high, [p_high[v] for v in values], rtol=0, atol=1e-12)


@pytest.mark.parametrize("B", [1000, 5000, 100_000])
def test_endpoint_distribution_of_the_120_query_example_against_scipy_binomial(hit5, B):
    _, dist = hit5
    ends = endpoint_distribution(dist.values, dist.probabilities, n_resamples=B)
    assert ends.low.sum() == pytest.approx(1, abs=1e-12) and ends.high.sum() == pytest.approx(1, abs=1e-12)
    f = dist.cdf(-1 / 120)
    excludes_zero = ends.high[ends.values < 0].sum()
    assert excludes_zero == pytest.approx(stats.binom.sf(int(0.975 * B), B, f), rel=1e-9)


def test_endpoint_distribution_against_simulated_intervals(hit5):
    """Read 2,000 Monte Carlo intervals (B = 1,000 each, drawn from the exact distribution) and
    compare how often each end lands where: the binomial standard deviation of each
    frequency is at most sqrt(0.25 / 2000) = 0.011, and the tolerance is 5 of those."""
    _, dist = hit5
    reps, B = 2000, 1000
    rng = np.random.default_rng(3)
    draws = np.sort(rng.choice(dist.values, p=dist.probabilities, size=(reps, B)), axis=1)
    ends = endpoint_distribution(dist.values, dist.probabilities, n_resamples=B)
    for k, expected in ((25, ends.low), (975, ends.high)):
        freq = (draws[:, k][:, None] == dist.values).mean(axis=0)
        assert np.all(np.abs(freq - expected) < 5 * np.sqrt(0.25 / reps))


def test_the_five_thousand_resample_interval_excludes_zero_for_well_under_half_the_seeds(hit5):
    _, dist = hit5
    ends = endpoint_distribution(dist.values, dist.probabilities, n_resamples=5000)
    p = ends.high[ends.values < 0].sum()
    assert f"{p:.2f}" == "0.37"
    assert ends.high[dist.values == 0.0].sum() == pytest.approx(1 - p)


@pytest.mark.parametrize(
    "args, match",
    [
        (([0.0, 1.0], [0.5, 0.5], 0), "n_resamples"),
        (([0.0, 1.0], [0.5, 0.5], 2.5), "n_resamples"),
        (([0.0, 1.0], [0.5], 10), "one entry per value"),
        (([0.0, 1.0], [-0.5, 1.5], 10), "non-negative"),
    ],
)
def test_endpoint_distribution_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        endpoint_distribution(*args[:2], n_resamples=args[2])
