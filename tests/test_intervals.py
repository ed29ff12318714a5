"""The order-statistic percentile interval."""

import itertools

import numpy as np
import pytest

from helpers import FOUR_PAIR_CHANGES, enumerate_resamples, order_statistic_indices, percentile_interval


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


@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1, float("nan"), "0.95", True])
def test_levels_outside_zero_one_are_refused(level):
    with pytest.raises(ValueError, match="level"):
        percentile_interval([1.0, 2.0], level=level)


def test_empty_and_nan_values_are_refused():
    with pytest.raises(ValueError, match="empty"):
        percentile_interval([])
    with pytest.raises(ValueError, match="NaN"):
        percentile_interval([0.1, float("nan")])


def test_excludes():
    assert percentile_interval([-0.2, -0.1]).excludes(0)
    assert not percentile_interval([-0.2, 0.0]).excludes(0)
