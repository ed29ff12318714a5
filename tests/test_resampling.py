"""The resampling engine and the bootstrap variants built on it.

The user-cluster bootstrap (chapter 4): exact enumeration, scipy, the paired
bootstrap as a special case, the worked example, coverage, and bad input.

The exact bootstrap distribution of a mean, and the exact distribution of Monte Carlo interval ends.

The paired bootstrap of any statistic of the two score vectors (ratio of means, quantile
differences).
"""

from __future__ import annotations

import itertools
import math
import tracemalloc
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from plain import plain
from scipy import stats
from scipy_check import assert_agrees_with_scipy_bootstrap

from helpers import (
    FOUR_PAIR_CHANGES,
    cluster_bootstrap,
    cluster_totals,
    collapse_to_multisets,
    enumerate_cluster_resamples,
    enumerate_resamples,
    exact_bootstrap_distribution,
    four_pair_example,
    hit_at_5_example,
    mean_difference,
    paired_bootstrap,
    paired_bootstrap_statistic,
    percentile_interval,
    quantile_difference,
    relative_change,
    unpaired_bootstrap,
)
from helpers.resampling import (
    MAX_ENUMERATE_N,
    MAX_EXACT_MULTISETS,
    _exact_bootstrap_distribution,
    _paired_bootstrap,
    _resample,
    resample,
)


def test_same_seed_same_means_and_a_generator_works_too():
    d = np.random.default_rng(1).normal(size=50)
    first = paired_bootstrap(d, n_resamples=2000, rng=3)
    np.testing.assert_array_equal(first, paired_bootstrap(d, n_resamples=2000, rng=3))
    np.testing.assert_array_equal(
        first, paired_bootstrap(d, n_resamples=2000, rng=np.random.default_rng(3))
    )
    assert not np.array_equal(first, paired_bootstrap(d, n_resamples=2000, rng=4))


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
    _paired_bootstrap(d, 20, np.random.default_rng(1), 2**20)
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


def test_the_engine_draws_blocks_of_at_most_max_elements_and_at_least_one_row():
    sizes = []

    def statistic(idx):
        sizes.append(idx.shape)
        return np.arange(idx.shape[0], dtype=float)

    gen = np.random.default_rng(0)
    np.testing.assert_array_equal(_resample(3, 2, statistic, 5, gen, 4), [0, 1, 0, 1, 0])
    assert sizes == [(2, 2), (2, 2), (1, 2)]
    sizes.clear()
    np.testing.assert_array_equal(_resample(3, 10, statistic, 3, gen, 4), [0, 0, 0])
    assert sizes == [(1, 10)] * 3
    with pytest.raises(ValueError, match=r"statistic must return one value per resample"):
        resample(5, lambda idx: np.zeros(idx.shape[0] + 1), n_resamples=5, rng=0)


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


def test_collapse_to_multisets_counts_units_up_to_n():
    counts, freq = collapse_to_multisets(np.array([[0, 1], [1, 0], [0, 0]]), 3)
    assert counts.tolist() == [[2, 0, 0], [1, 1, 0]] and freq.tolist() == [1, 2]


def _example():
    ex = four_pair_example()
    return ex["changes"], ex["users"]


def _brute_force(diffs, users):
    """Every ordered draw of the users, by itertools, with plain-Python statistics.

    For each draw, the resample's query rows are the concatenated blocks of the
    drawn users; the query-weighted statistic is the mean of those rows and the
    user-weighted one the mean of the drawn users' own means.
    """
    labels = list(dict.fromkeys(users))
    blocks = {u: [x for x, v in zip(diffs.tolist(), users, strict=False) if v == u] for u in labels}
    out = []
    for draw in itertools.product(labels, repeat=len(labels)):
        rows = [x for u in draw for x in blocks[u]]
        user_means = [sum(blocks[u]) / len(blocks[u]) for u in draw]
        out.append((draw, len(rows), sum(rows) / len(rows), sum(user_means) / len(user_means)))
    return out


def test_the_example_figures():
    d, users = _example()
    t = cluster_totals(d, users)
    assert t.labels == ["U1", "U2", "U3"]
    assert t.counts.tolist() == [2, 1, 1]
    np.testing.assert_allclose(t.means, [0.06, -0.06, 0.04], atol=1e-12)
    assert f"{d.mean():+.3f}" == "+0.025"
    assert f"{t.means.mean():+.4f}" == "+0.0133"
    # the query-weighted mean is the user means weighted by query counts
    assert (t.means * t.counts).sum() / t.counts.sum() == pytest.approx(0.025, abs=1e-12)


def test_enumeration_matches_brute_force_draw_by_draw():
    d, users = _example()
    exact = enumerate_cluster_resamples(d, users)
    brute = _brute_force(d, users)
    assert len(brute) == 27 and exact.draws.shape == (27, 3)
    for k, (draw, n_rows, qw, cw) in enumerate(brute):
        assert [exact.labels[j] for j in exact.draws[k]] == list(draw)
        assert exact.n_rows[k] == n_rows
        assert exact.query_weighted[k] == pytest.approx(qw, abs=1e-12)
        assert exact.cluster_weighted[k] == pytest.approx(cw, abs=1e-12)
    # draw 6 of 27 (1-based) is the original sample U1, U2, U3
    assert list(brute[5][0]) == ["U1", "U2", "U3"]
    assert f"{exact.query_weighted[5]:+.4f} {exact.cluster_weighted[5]:+.4f}" == "+0.0250 +0.0133"
    # the number of query rows is 3 plus the number of times U1 (2 queries) is drawn: Binomial(3,
    # 1/3)
    assert Counter(exact.n_rows.tolist()) == {3: 8, 4: 12, 5: 6, 6: 1}


@pytest.mark.parametrize("weighting", ["query", "cluster"])
def test_monte_carlo_frequencies_match_the_exact_distribution(weighting):
    """Each distinct value's Monte Carlo frequency is within 5 standard errors,
    sqrt(p (1 - p) / B), of its exact probability (count / 27). With 10 distinct
    values, a false alarm has probability below 10 * 6e-7."""
    d, users = _example()
    brute = _brute_force(d, users)
    col = 2 if weighting == "query" else 3
    exact = Counter(round(row[col], 10) for row in brute)
    n = 200_000
    mc = Counter(
        np.round(
            cluster_bootstrap(d, users, n_resamples=n, rng=11, weighting=weighting), 10
        ).tolist()
    )
    assert set(mc) == set(exact)  # no value outside the 27 draws' values
    for value, count in exact.items():
        p = count / 27
        assert abs(mc[value] / n - p) < 5 * np.sqrt(p * (1 - p) / n)


def _clustered_data(n_users, seed, user_sd=0.08, query_sd=0.05):
    rng = np.random.default_rng(seed)
    sizes = 1 + rng.poisson(4, size=n_users)
    users = np.repeat(np.arange(n_users), sizes)
    d = 0.02 + rng.normal(0, user_sd, n_users)[users] + rng.normal(0, query_sd, users.size)
    return d, users


@pytest.mark.parametrize("seed", [0, 1])
def test_agrees_with_scipy_bootstrap_of_user_sums_and_counts(seed):
    """scipy resamples the users' (sum, count) pairs together (paired=True) and
    takes the ratio of totals: the same bootstrap, by independent code.

    Tolerance as in test_source_figures: Monte Carlo error of a 2.5% quantile
    from B = 20,000 draws is about 0.02 SE, two independent runs differ by about
    0.03 SE; 0.15 SE is five of those. The standard errors agree within 5%
    (their Monte Carlo relative error is about 0.5% each)."""
    d, users = _clustered_data(30, seed)
    t = cluster_totals(d, users)
    ours = cluster_bootstrap(d, users, n_resamples=20_000, rng=seed)
    se = assert_agrees_with_scipy_bootstrap(
        ours,
        (t.sums, t.counts.astype(float)),
        lambda s, c, axis=-1: s.sum(axis=axis) / c.sum(axis=axis),
        seed=100 + seed,
        paired=True,
        end_tol=0.15,
    )
    # and resampling queries instead would be visibly narrower: the check can fail
    assert paired_bootstrap(d, n_resamples=20_000, rng=seed).std() < 0.7 * se


def test_user_weighting_agrees_with_scipy_bootstrap_of_user_means():
    d, users = _clustered_data(30, 2)
    means = cluster_totals(d, users).means
    ours = cluster_bootstrap(d, users, n_resamples=20_000, rng=2, weighting="cluster")
    assert_agrees_with_scipy_bootstrap(
        ours, (means,), np.mean, seed=102, paired=False, end_tol=0.15
    )


def test_same_seed_same_result():
    # whatever the chunking, and one query per user is the paired bootstrap: test_properties.py
    d, users = _clustered_data(25, 4)
    whole = cluster_bootstrap(d, users, n_resamples=1500, rng=5)
    again = cluster_bootstrap(d, users, n_resamples=1500, rng=np.random.default_rng(5))
    np.testing.assert_array_equal(whole, again)
    assert not np.array_equal(whole, cluster_bootstrap(d, users, n_resamples=1500, rng=6))


def test_each_resample_replayed_by_hand():
    # the engine's user draws, replayed from the same generator, rows copied block by block
    d, users = _clustered_data(6, 5)
    labels = list(dict.fromkeys(users.tolist()))
    got = cluster_bootstrap(d, users, n_resamples=50, rng=8)
    idx = np.random.default_rng(8).integers(0, len(labels), size=(50, len(labels)))
    for k in range(50):
        rows = np.concatenate([d[users == labels[j]] for j in idx[k]])
        assert got[k] == pytest.approx(rows.mean(), abs=1e-12)


def test_user_cluster_interval_covers_where_the_query_level_one_does_not():
    """The chapter's claim, on a smaller run: 300 samples of 50 users with strong
    user effects, 500 resamples per interval. A 3,000-sample run of this set-up
    gives coverage 0.65 (query level) and 0.93 (user clusters); with 300 samples
    their standard errors are 0.028 and 0.014, so each threshold sits over four
    standard errors from its expected value (and the run is seeded)."""
    rng = np.random.default_rng(2024)
    truth, hits_q, hits_c, n_samples = 0.02, 0, 0, 300
    for _ in range(n_samples):
        sizes = 1 + rng.poisson(4, size=50)
        users = np.repeat(np.arange(50), sizes)
        d = truth + rng.normal(0, 0.08, 50)[users] + rng.normal(0, 0.05, users.size)
        hits_q += not percentile_interval(paired_bootstrap(d, n_resamples=500, rng=rng)).excludes(
            truth
        )
        hits_c += not percentile_interval(
            cluster_bootstrap(d, users, n_resamples=500, rng=rng)
        ).excludes(truth)
    assert hits_q / n_samples < 0.80
    assert hits_c / n_samples > 0.87


def test_enumeration_refuses_more_than_seven_clusters():
    with pytest.raises(ValueError, match="limit is n <= 7"):
        enumerate_cluster_resamples(np.zeros(8), list(range(8)))


def brute_force(d):
    """All n**n ordered resamples by itertools, each with probability 1/n**n, grouped by mean."""
    n = len(d)
    groups = Counter(
        round(sum(d[i] for i in draw) / n, 10) for draw in itertools.product(range(n), repeat=n)
    )
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
            ways = math.factorial(q) // (
                math.factorial(i) * math.factorial(j) * math.factorial(q - i - j)
            )
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
    np.testing.assert_array_equal(
        np.round(dist.probabilities * 256, 9), counts
    )  # whole numbers of draws out of 256
    assert percentile_interval(dist.values, weights=dist.probabilities) == pytest.approx(
        (-0.035, 0.080), abs=1e-12
    )


def test_means_equal_in_exact_arithmetic_are_merged():
    # 0.1 + 0.2 != 0.3 in floats, but resample means that are equal as decimals must be one value
    d = ["0.1", "0.2", "0.3", "0.4", "0.6"]
    n = len(d)
    exact_means = {
        sum(Fraction(d[i]) for i in draw) / n for draw in itertools.product(range(n), repeat=n)
    }
    dist = exact_bootstrap_distribution([float(x) for x in d])
    assert len(dist.values) == len(exact_means)
    np.testing.assert_allclose(
        dist.values, sorted(float(m) for m in exact_means), rtol=0, atol=1e-15
    )


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
    assert dist.probabilities @ (dist.values - mean) ** 2 == pytest.approx(
        d.var() / d.size, rel=1e-10
    )


def test_120_queries_matches_exact_rational_arithmetic(hit5):
    _, dist = hit5
    exact = exact_hit_at_5()
    np.testing.assert_array_equal(dist.values, np.array(list(exact)) / 120)  # k/120, bit for bit
    expected = np.array([float(p) for p in exact.values()])
    np.testing.assert_allclose(dist.probabilities, expected, rtol=1e-11, atol=1e-14)
    assert abs(math.fsum(dist.probabilities.tolist()) - 1) < 1e-12
    assert dist.cdf(-1 / 120) == pytest.approx(
        float(sum(p for k, p in exact.items() if k <= -1)), abs=1e-12
    )


def test_120_queries_exact_interval_and_cumulative_probability(hit5):
    _, dist = hit5
    low, high = percentile_interval(dist.values, weights=dist.probabilities)
    assert (low, high) == (-16 / 120, 0.0)
    assert (round(low, 3), round(high, 3)) == (-0.133, 0.0)
    f = dist.cdf(-1 / 120)
    assert (
        f"{f:.6f}" == "0.974347"
    )  # 0.9743 to four decimals (the 0.9744 rounds twice: 0.97435 -> 0.9744)
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
    counts = np.searchsorted(
        mc, dist.values, side="right"
    )  # exact values are the Monte Carlo floats

    def plausible(cdf):
        cdf = np.clip(cdf, 0, 1)
        p_value = 2 * np.minimum(
            stats.binom.cdf(counts, B, cdf), stats.binom.sf(counts - 1, B, cdf)
        )
        return bool(np.all(p_value > 1e-6))

    exact_cdf = np.cumsum(dist.probabilities)
    assert plausible(exact_cdf)
    assert not plausible(np.cumsum(np.roll(dist.probabilities, 1)))  # shifted one step of 1/120
    assert not plausible(exact_cdf * 1.01)


def test_inputs_over_the_size_limit_are_refused_with_the_limit_named():
    twelve = np.arange(12) / 10  # C(23, 11) = 1,352,078 multisets
    assert math.comb(23, 11) > MAX_EXACT_MULTISETS
    with pytest.raises(
        ValueError, match=r"C\(23, 11\) = 1,352,078 .* limit is 1,000,000\. Use a Monte Carlo"
    ):
        exact_bootstrap_distribution(twelve)
    hits = np.repeat(
        [-1.0, 0.0, 1.0], [100, 1200, 113]
    )  # 1,413 queries of hit@k: C(1,415, 2) = 1,000,405
    with pytest.raises(ValueError, match="limit"):
        exact_bootstrap_distribution(hits)
    assert (
        len(exact_bootstrap_distribution(hits[1:]).values) == 2 * 1412 + 1
    )  # 1,412 fit: C(1,414, 2) = 998,991
    four = np.array(FOUR_PAIR_CHANGES)  # C(7, 3) = 35 multisets
    with pytest.raises(ValueError, match="the limit is 34"):
        _exact_bootstrap_distribution(four, 34)
    assert len(_exact_bootstrap_distribution(four, 35).values) == 24


def test_mean_difference_reproduces_paired_bootstrap_bit_for_bit():
    # the same engine and the same random stream: identical resamples
    rng = np.random.default_rng(0)
    a, b = rng.random(37), rng.random(37)
    for seed in (1, 2):
        np.testing.assert_array_equal(
            paired_bootstrap_statistic(a, b, mean_difference, n_resamples=3000, rng=seed),
            paired_bootstrap(b - a, n_resamples=3000, rng=seed),
        )


def test_pairs_travel_together():
    a = np.arange(10.0)
    b = a + 100.0  # every pair differs by exactly 100
    seen = []

    def stat(ra, rb):
        seen.append((ra.shape, rb.shape))
        assert np.all(rb - ra == 100.0)  # never A of one query with B of another
        return rb.mean(axis=-1) - ra.mean(axis=-1)

    means = paired_bootstrap_statistic(a, b, stat, n_resamples=500, rng=4)
    assert means.shape == (500,) and seen == [((500, 10), (500, 10))]


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
    exact = sorted(
        b[list(t)].mean() / a[list(t)].mean() - 1 for t in itertools.product(range(4), repeat=4)
    )
    low, high = exact[6], exact[249]
    draws = enumerate_resamples(4)
    assert tuple(percentile_interval(relative_change(a[draws], b[draws]))) == pytest.approx(
        (low, high), abs=1e-15
    )
    assert (round(low, 4), round(high, 4)) == (-0.056, 0.1455)  # -5.60% to +14.55%
    mc = percentile_interval(
        paired_bootstrap_statistic(a, b, relative_change, n_resamples=20_000, rng=6)
    )
    values = np.unique(np.round(exact, 12))
    step = np.diff(values).max()
    assert abs(mc.low - low) <= step and abs(mc.high - high) <= step


def _latencies(n, seed):
    """Per-query latencies in ms: B is faster on most queries, but takes a slow path on about
    15%.
    """
    rng = np.random.default_rng(seed)
    a = rng.lognormal(np.log(120), 0.3, n)
    b = a * rng.lognormal(np.log(0.75), 0.1, n) + (rng.random(n) < 0.15) * rng.uniform(100, 200, n)
    return a, b


@pytest.mark.parametrize(
    "statistic, name",
    [
        (relative_change, "ratio of means"),
        (quantile_difference(0.95), "p95 difference"),
        (quantile_difference(0.5), "median difference"),
    ],
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
    mean_iv = percentile_interval(
        paired_bootstrap_statistic(a, b, mean_difference, n_resamples=4000, rng=1)
    )
    p95_iv = percentile_interval(
        paired_bootstrap_statistic(a, b, quantile_difference(0.95), n_resamples=4000, rng=1)
    )
    # B is faster on average but slower in the tail: the two intervals lie on opposite sides of zero
    assert mean_iv.high < 0 < p95_iv.low


def test_statistics_on_one_and_two_dimensional_input():
    a = np.array([[1.0, 2.0, 3.0, 4.0], [2.0, 2.0, 2.0, 2.0]])
    b = a * 1.5
    np.testing.assert_allclose(relative_change(a, b), [0.5, 0.5])
    np.testing.assert_allclose(mean_difference(a, b), [1.25, 1.0])
    np.testing.assert_allclose(quantile_difference(1.0)(a, b), [2.0, 1.0])
    np.testing.assert_allclose(
        quantile_difference(0.5)(a[0], b[0]), np.median(b[0]) - np.median(a[0])
    )
    assert quantile_difference(0.95).__name__ == "quantile_difference(0.95)"


def test_relative_change_refuses_a_zero_baseline():
    with pytest.raises(ValueError, match="A's mean is 0"):
        relative_change(np.zeros(3), np.ones(3))
    # a resample in which every drawn A score is 0 is refused too, not turned into inf
    a, b = np.array([0.0, 0.0, 0.0, 1.0]), np.array([0.5, 0.5, 0.5, 1.0])
    with pytest.raises(ValueError, match="in the data or in a resample"):
        paired_bootstrap_statistic(a, b, relative_change, n_resamples=200, rng=0)


# --- input validation: the table in tests/test_checks.py; here what a bad-input test also showed

D4 = [0.1, 0.2, -0.3, 0.4]
OTHER = [0.5, 0.25, 0.75, 0.5]


def test_unpaired_bootstrap_pairs_two_mappings_by_query_id_first():
    # two mappings pair by query ID (sorted) before A and B are resampled apart, as elsewhere
    good = {"n_resamples": 50, "rng": 0}
    a_map, b_map = (
        {"q4": 0.5, "q3": 0.25, "q2": 0.75, "q1": 0.5},
        {"q2": -0.3, "q1": 0.4, "q3": 0.2, "q4": 0.1},
    )
    by_id = unpaired_bootstrap(a_map, b_map, **good)
    assert plain(by_id) == plain(unpaired_bootstrap(OTHER[::-1], D4[::-1], **good))


def test_cluster_totals_take_labels_from_a_generator():
    t = cluster_totals(D4, (u for u in ["a", "a", "b", "c"]))
    assert (t.labels, t.codes.tolist(), t.counts.tolist()) == (
        ["a", "b", "c"],
        [0, 0, 1, 2],
        [2, 1, 1],
    )


def test_cluster_bootstrap_reads_a_pandas_series_of_labels():
    pd = pytest.importorskip("pandas")  # not a dependency of the series; checked where installed
    np.testing.assert_array_equal(
        cluster_bootstrap([0.1, 0.2, 0.3], pd.Series(["a", "a", "b"]), n_resamples=20, rng=0),
        cluster_bootstrap([0.1, 0.2, 0.3], ["a", "a", "b"], n_resamples=20, rng=0),
    )
