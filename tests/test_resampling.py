"""The resampling engine and the bootstrap variants built on it."""

import itertools
import tracemalloc

import numpy as np
import pytest

from helpers import enumerate_resamples, paired_bootstrap, resample, unpaired_bootstrap
from helpers.resampling import MAX_ENUMERATE_N


def test_same_seed_same_means_and_a_generator_works_too():
    d = np.random.default_rng(1).normal(size=50)
    first = paired_bootstrap(d, n_resamples=2000, rng=3)
    np.testing.assert_array_equal(first, paired_bootstrap(d, n_resamples=2000, rng=3))
    np.testing.assert_array_equal(first, paired_bootstrap(d, n_resamples=2000, rng=np.random.default_rng(3)))
    assert not np.array_equal(first, paired_bootstrap(d, n_resamples=2000, rng=4))


@pytest.mark.parametrize("max_elements", [1, 7, 50, 999, 10**9])
def test_chunking_does_not_change_the_result(max_elements):
    d = np.random.default_rng(2).normal(size=50)
    whole = paired_bootstrap(d, n_resamples=1234, rng=11, max_elements=10**12)
    np.testing.assert_array_equal(whole, paired_bootstrap(d, n_resamples=1234, rng=11, max_elements=max_elements))


def test_each_resample_is_the_mean_of_drawn_pairs():
    # the engine's draws, replayed by hand from the same generator
    d = np.array([0.1, -0.2, 0.3, 0.05, 0.0])
    means = paired_bootstrap(d, n_resamples=10, rng=5)
    idx = np.random.default_rng(5).integers(0, 5, size=(10, 5))
    np.testing.assert_allclose(means, d[idx].mean(axis=1), rtol=0, atol=0)


def test_bootstrap_distribution_of_four_pairs_matches_exhaustive_enumeration():
    # Each of the 256 ordered draws is equally likely; a large Monte Carlo run
    # must give each distinct mean its exact probability within tolerance.
    d = np.array([0.10, 0.02, -0.06, 0.04])
    exact_means = np.round(d[enumerate_resamples(4)].mean(axis=1), 10)
    values, counts = np.unique(exact_means, return_counts=True)
    mc = np.round(paired_bootstrap(d, n_resamples=200_000, rng=0), 10)
    mc_freq = np.array([(mc == v).mean() for v in values])
    p = counts / 256
    assert mc_freq.sum() == pytest.approx(1.0)
    assert np.all(np.abs(mc_freq - p) < 5 * np.sqrt(p * (1 - p) / 200_000) + 1e-9)


def test_large_input_stays_within_its_memory_bound():
    d = np.random.default_rng(0).normal(size=100_000)
    tracemalloc.start()
    paired_bootstrap(d, n_resamples=20, rng=1, max_elements=2**20)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    # one chunk of indices (8 MiB) plus its gathered values (8 MiB), not 20 x 100,000 x 2
    assert peak < 20 * 2**20


def test_unpaired_bootstrap_breaks_pairs():
    rng = np.random.default_rng(0)
    difficulty = rng.normal(size=200)
    a = difficulty + rng.normal(scale=0.1, size=200)
    b = difficulty + 0.05 + rng.normal(scale=0.1, size=200)
    paired = paired_bootstrap(b - a, n_resamples=2000, rng=1)
    unpaired = unpaired_bootstrap(a, b, n_resamples=2000, rng=1)
    assert unpaired.std() > 5 * paired.std()
    assert unpaired.mean() == pytest.approx((b - a).mean(), abs=0.02)


def test_engine_checks_the_statistic_shape():
    with pytest.raises(ValueError, match="one value per resample"):
        resample(3, lambda idx: idx.mean(), n_resamples=5, rng=0)


@pytest.mark.parametrize("n_resamples", [0, -1, 2.5, "100", True])
def test_bad_n_resamples_is_refused(n_resamples):
    with pytest.raises(ValueError, match="n_resamples"):
        paired_bootstrap([0.1, 0.2], n_resamples=n_resamples, rng=0)


@pytest.mark.parametrize("rng", [None, -1, 1.5, "7", np.random.RandomState(0)])
def test_a_seed_or_generator_is_required(rng):
    with pytest.raises(ValueError, match="rng"):
        paired_bootstrap([0.1, 0.2], n_resamples=10, rng=rng)


@pytest.mark.parametrize("bad", [[], [0.1, float("nan")], [[0.1], [0.2]], ["a", "b"]])
def test_bad_differences_are_refused(bad):
    with pytest.raises(ValueError):
        paired_bootstrap(bad, n_resamples=10, rng=0)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_enumerate_resamples_is_itertools_product(n):
    expected = np.array(list(itertools.product(range(n), repeat=n)))
    np.testing.assert_array_equal(enumerate_resamples(n), expected)


def test_enumerate_resamples_numbering_matches_the_source():
    rows = enumerate_resamples(4)
    assert rows.shape == (256, 4)
    assert rows[28 - 1].tolist() == [0, 1, 2, 3]  # draw 28: the original sample
    assert rows[15 - 1].tolist() == [0, 0, 3, 2]  # draw 15: q1, q1, q4, q3
    assert rows[171 - 1].tolist() == [2, 2, 2, 2]  # draw 171: q3 four times


@pytest.mark.parametrize("n", [0, -2, MAX_ENUMERATE_N + 1, 20, 2.0])
def test_enumerate_resamples_refuses_sizes_it_cannot_build(n):
    with pytest.raises(ValueError):
        enumerate_resamples(n)
