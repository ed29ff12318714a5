"""The order-statistic percentile interval, and where a Monte Carlo interval's ends can land
(endpoint_distribution)."""

import decimal
import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

from helpers import (
    FOUR_PAIR_CHANGES,
    endpoint_distribution,
    enumerate_resamples,
    exact_bootstrap_distribution,
    hit_at_5_example,
    order_statistic_indices,
    percentile_interval,
)


def test_indices_are_the_intended_ones_for_the_series_sizes():
    # int(0.025 * 5000) and int(0.975 * 5000) as the source writes them
    assert order_statistic_indices(5000, 0.95) == (125, 4875)
    assert order_statistic_indices(256, 0.95) == (6, 249)
    assert order_statistic_indices(10_000, 0.95) == (250, 9750)
    # naive float arithmetic with alpha = 1 - level misses whole numbers at other levels:
    # for level 0.90 and B = 1000, alpha / 2 * B is 49.99999999999999, not 50
    alpha = 1 - 0.90
    assert int(alpha / 2 * 1000) == 49
    assert order_statistic_indices(1000, 0.90) == (50, 950)
    assert order_statistic_indices(5000, 0.80) == (500, 4500)


def test_indices_match_the_source_formula_for_many_sizes():
    for n in range(1, 3000):
        assert order_statistic_indices(n, 0.95) == (int(0.025 * n), min(n - 1, int(0.975 * n)))


def test_four_pair_enumeration_gives_the_source_interval():
    d = np.array(FOUR_PAIR_CHANGES)
    means = d[enumerate_resamples(4)].mean(axis=1)
    assert means.size == 256
    assert means.mean() == pytest.approx(0.025, abs=1e-15)
    low, high = percentile_interval(means)
    assert low == pytest.approx(-0.035, abs=1e-12) and high == pytest.approx(0.080, abs=1e-12)
    # the same by brute force with itertools
    brute = sorted(sum(d[list(t)]) / 4 for t in itertools.product(range(4), repeat=4))
    assert (low, high) == pytest.approx((brute[6], brute[249]))


def test_interval_ends_are_values_that_occurred():
    v = np.random.default_rng(0).normal(size=999)
    low, high = percentile_interval(v, 0.9)
    assert low in v and high in v and low <= high


def test_interval_on_unsorted_input():
    assert tuple(percentile_interval([5, 1, 4, 2, 3], level=0.5)) == (2.0, 4.0)


def test_single_value():
    assert tuple(percentile_interval([0.3])) == (0.3, 0.3)


def test_excludes():
    assert percentile_interval([-0.2, -0.1]).excludes(0)
    assert not percentile_interval([-0.2, 0.0]).excludes(0)


# --- weighted distributions: the same convention, read off values and probabilities ---

LEVELS = [0.95, 0.9, 0.8, 0.5, 0.99, 2 / 3]


def test_equal_weights_give_exactly_the_unweighted_interval():
    """The weighted rule generalizes the order-statistic one: over many B and levels, with
    distinct values (where an off-by-one position shows) and with ties, equal weights (as counts, as
    probabilities 1/B, or any constant) and the counts of
    merged ties all give the same two positions as s[floor(alpha/2 B)],
    s[min(B-1, floor((1-alpha/2) B))]."""
    rng = np.random.default_rng(0)
    cases = [
        (B, level)
        for B in list(range(1, 60)) + rng.integers(60, 5000, size=40).tolist()
        for level in LEVELS
    ]
    cases += [(B, level) for B in (10_000, 99_999) for level in (0.95, 0.5)]
    for i, (B, level) in enumerate(cases):
        v = rng.normal(size=B)
        if i % 2:
            v = np.round(v, 1)  # many ties
        expected = tuple(percentile_interval(v, level))
        low_i, high_i = order_statistic_indices(B, level)
        s = np.sort(v)
        assert expected == (s[low_i], s[high_i])
        for w in (np.ones(B), np.full(B, 1 / B), np.full(B, 0.37)):
            assert tuple(percentile_interval(v, level, weights=w)) == expected, (B, level, w[0])
        distinct, counts = np.unique(v, return_counts=True)
        assert tuple(percentile_interval(distinct, level, weights=counts)) == expected, (B, level)
        assert tuple(percentile_interval(distinct, level, weights=counts / B)) == expected, (
            B,
            level,
        )


def test_float_rounding_does_not_move_an_end():
    # B = 40 equal probabilities: the cumulative sum at position 38 is 0.975 in exact
    # arithmetic (not above it) but a float cumsum makes it 0.9750000000000002, which a
    # naive reading takes as exceeding and so ends one value too early. (Setting
    # PROBABILITY_TOLERANCE to 0 makes the equal-weights test above fail.)
    B, v = 40, np.arange(40.0)
    cum = np.cumsum(np.full(B, 1 / B))
    assert cum[38] > 0.975  # the float sum overshoots
    assert int(np.searchsorted(cum, 0.975, side="right")) == 38  # naive: s[38]
    assert order_statistic_indices(B, 0.95) == (1, 39)
    assert tuple(percentile_interval(v, weights=np.full(B, 1 / B))) == (1.0, 39.0)


def test_integer_weights_are_repetitions():
    """Independent check: weight w_i means 'value i occurred w_i times' (zeros included)."""
    rng = np.random.default_rng(1)
    for _ in range(300):
        n = int(rng.integers(1, 40))
        v = np.round(rng.normal(size=n), 1)
        w = rng.integers(0, 6, size=n)
        if w.sum() == 0:
            w[0] = 1
        level = float(rng.choice(LEVELS))
        expected = tuple(percentile_interval(np.repeat(v, w), level))
        assert tuple(percentile_interval(v, level, weights=w)) == expected
        assert tuple(percentile_interval(v, level, weights=w / w.sum())) == expected


def test_the_rule_at_and_just_past_the_thresholds():
    # F(0) = 0.025 is not above alpha/2; F(1) = 0.975 is not above 1 - alpha/2
    assert tuple(percentile_interval([0.0, 1.0, 2.0], weights=[0.025, 0.95, 0.025])) == (1.0, 2.0)
    assert tuple(percentile_interval([0.0, 1.0, 2.0], weights=[0.026, 0.95, 0.024])) == (0.0, 1.0)
    # zero-weight values are never an end
    assert tuple(percentile_interval([-5.0, 0.0, 1.0, 9.0], weights=[0, 1, 1, 0])) == (0.0, 1.0)


def test_weights_travel_with_unsorted_values():
    assert tuple(percentile_interval([2.0, 0.0, 1.0], weights=[0.0, 0.5, 0.5], level=0.5)) == (
        0.0,
        1.0,
    )


def test_four_pairs_weighted_three_ways_give_the_source_interval():
    """256 equally weighted draws, their 24 distinct means with counts, and the 35 multisets
    (C(7, 4)) with multinomial probabilities all give [-0.035, +0.080]."""
    d = np.array(FOUR_PAIR_CHANGES)
    means = d[enumerate_resamples(4)].mean(axis=1)
    draws = percentile_interval(means, weights=np.full(256, 1 / 256))
    assert draws == pytest.approx((-0.035, 0.080), abs=1e-12)
    distinct, counts = np.unique(np.round(means, 12), return_counts=True)
    assert percentile_interval(distinct, weights=counts / 256) == pytest.approx(
        (-0.035, 0.080), abs=1e-12
    )
    multisets = list(itertools.combinations_with_replacement(range(4), 4))
    assert len(multisets) == math.comb(7, 4) == 35
    ms_means = [sum(d[list(m)]) / 4 for m in multisets]
    ms_probs = [
        math.factorial(4) / math.prod(math.factorial(m.count(i)) for i in range(4)) / 256
        for m in multisets
    ]
    assert sum(ms_probs) == pytest.approx(1.0, abs=1e-15)
    assert percentile_interval(ms_means, weights=ms_probs) == pytest.approx(
        (-0.035, 0.080), abs=1e-12
    )


# --- endpoint_distribution: where a Monte Carlo interval's ends land ---------------------------


@pytest.fixture(scope="module")
def hit5():
    a, b = hit_at_5_example()
    return b - a, exact_bootstrap_distribution(b - a)


@pytest.mark.parametrize("B, level", [(5, 0.5), (6, 0.8), (7, 0.95), (4, 0.5)])
def test_endpoint_distribution_against_enumerating_every_sample(B, level):
    values, probs = np.array([-1.0, 0.0, 0.5, 2.0]), np.array([0.1, 0.5, 0.3, 0.1])
    low_k, high_k = (
        math.floor((1 - level) / 2 * B + 1e-9),
        min(B - 1, math.floor((1 + level) / 2 * B + 1e-9)),
    )
    p_low, p_high = Counter(), Counter()
    for draw in itertools.product(range(4), repeat=B):
        s = sorted(values[list(draw)])
        p = math.prod(probs[list(draw)])
        p_low[s[low_k]] += p
        p_high[s[high_k]] += p
    ends = endpoint_distribution(values, probs, n_resamples=B, level=level)
    np.testing.assert_allclose(ends.low, [p_low[v] for v in values], rtol=0, atol=1e-12)
    np.testing.assert_allclose(ends.high, [p_high[v] for v in values], rtol=0, atol=1e-12)


def binomial_tail_in_decimal(k, n, p):
    """P(Binomial(n, p) >= k): the terms C(n, j) p^j (1 - p)^(n - j) summed in 60-digit decimal
    arithmetic, from p's exact value (independent of scipy, which endpoint_distribution uses)."""
    with decimal.localcontext(prec=60):
        p = decimal.Decimal(p)
        return float(sum(math.comb(n, j) * p**j * (1 - p) ** (n - j) for j in range(k, n + 1)))


def test_the_decimal_binomial_tail_against_exact_fractions():
    p = 0.3
    exact = sum(
        math.comb(12, j) * Fraction(p) ** j * (1 - Fraction(p)) ** (12 - j) for j in range(9, 13)
    )
    assert binomial_tail_in_decimal(9, 12, p) == float(exact)


@pytest.mark.parametrize("B", [1000, 5000, 100_000])
def test_endpoint_distribution_of_the_120_query_example_against_the_binomial_sum(hit5, B):
    _, dist = hit5
    ends = endpoint_distribution(dist.values, dist.probabilities, n_resamples=B)
    assert ends.low.sum() == pytest.approx(1, abs=1e-12) and ends.high.sum() == pytest.approx(
        1, abs=1e-12
    )
    f = dist.cdf(-1 / 120)
    excludes_zero = ends.high[ends.values < 0].sum()
    assert excludes_zero == pytest.approx(
        binomial_tail_in_decimal(int(0.975 * B) + 1, B, f), rel=1e-9
    )


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


# --- input validation: the table in tests/test_checks.py; here what a bad-input test also showed

OTHER = [0.5, 0.25, 0.75, 0.5]


def test_percentile_interval_takes_weights_none_and_a_numpy_level():
    # valid by design: weights=None is the default, a numpy float level is a level
    assert percentile_interval(OTHER, weights=None) == percentile_interval(OTHER)
    assert percentile_interval(OTHER, np.float32(0.5)) == percentile_interval(OTHER, 0.5)
