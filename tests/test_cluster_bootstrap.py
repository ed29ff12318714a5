"""The user-cluster bootstrap (chapter 4): exact enumeration, scipy, the paired
bootstrap as a special case, the worked example, coverage, and bad input."""

import itertools
from collections import Counter

import numpy as np
import pytest

from scipy_check import assert_agrees_with_scipy_bootstrap

from helpers import (
    cluster_bootstrap,
    cluster_totals,
    enumerate_cluster_resamples,
    four_pair_example,
    paired_bootstrap,
    percentile_interval,
)


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
    blocks = {u: [x for x, v in zip(diffs.tolist(), users) if v == u] for u in labels}
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
    # the number of query rows is 3 plus the number of times U1 (2 queries) is drawn: Binomial(3, 1/3)
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
    mc = Counter(np.round(cluster_bootstrap(d, users, n_resamples=n, rng=11, weighting=weighting), 10).tolist())
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
    assert_agrees_with_scipy_bootstrap(ours, (means,), np.mean, seed=102, paired=False, end_tol=0.15)


@pytest.mark.parametrize("max_elements", [5, 10**9])
def test_one_query_per_user_is_exactly_the_paired_bootstrap(max_elements):
    # Identical, not just equal in distribution: both draw the same (B, Q) index
    # matrix from the engine, and a one-query user's sum is its query's change.
    d = np.random.default_rng(3).normal(0.02, 0.1, size=40)
    users = [f"u{(7 * i) % 40}" for i in range(40)]  # unique labels, in no sorted order
    expected = paired_bootstrap(d, n_resamples=3000, rng=9, max_elements=max_elements)
    for weighting in ("query", "cluster"):
        got = cluster_bootstrap(d, users, n_resamples=3000, rng=9, weighting=weighting, max_elements=max_elements)
        np.testing.assert_array_equal(got, expected)


def test_same_seed_same_result_and_chunking_does_not_matter():
    d, users = _clustered_data(25, 4)
    whole = cluster_bootstrap(d, users, n_resamples=1500, rng=5, max_elements=10**9)
    np.testing.assert_array_equal(whole, cluster_bootstrap(d, users, n_resamples=1500, rng=np.random.default_rng(5), max_elements=7))
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
        hits_q += not percentile_interval(paired_bootstrap(d, n_resamples=500, rng=rng)).excludes(truth)
        hits_c += not percentile_interval(cluster_bootstrap(d, users, n_resamples=500, rng=rng)).excludes(truth)
    assert hits_q / n_samples < 0.80
    assert hits_c / n_samples > 0.87


@pytest.mark.parametrize(
    ("diffs", "clusters", "message"),
    [
        ([0.1, 0.2, 0.3], ["u1", "u2"], "changes has 3 values but clusters has 2 labels"),
        ([0.1, 0.2, 0.3], ["u1", "u1", "u1"], "all 3 queries belong to one cluster"),
        ([0.1, float("nan"), 0.3], ["u1", "u2", "u3"], "NaN"),
        ([0.1, 0.2], ["u1", None], "missing label"),
        ([0.1, 0.2], [1.0, float("nan")], "missing label"),
        ([0.1, 0.2], [["u1"], ["u2"]], "one-dimensional"),
        ([0.1, 0.2], "u1", "not a single string"),
        ([0.1, 0.2], [{"u": 1}, {"u": 2}], "hashable"),
        ([], [], "empty"),
    ],
)
def test_bad_input_is_refused(diffs, clusters, message):
    with pytest.raises(ValueError, match=message):
        cluster_bootstrap(diffs, clusters, n_resamples=10, rng=0)
    with pytest.raises(ValueError, match=message):
        enumerate_cluster_resamples(diffs, clusters)


@pytest.mark.parametrize("weighting", ["user", "Query", None, "queries"])
def test_unknown_weighting_is_refused(weighting):
    with pytest.raises(ValueError, match="weighting must be 'query'.*or 'cluster'"):
        cluster_bootstrap([0.1, 0.2], ["u1", "u2"], n_resamples=10, rng=0, weighting=weighting)


def test_seed_and_resample_count_are_checked_by_the_engine():
    with pytest.raises(ValueError, match="rng is required"):
        cluster_bootstrap([0.1, 0.2], ["u1", "u2"], n_resamples=10, rng=None)
    with pytest.raises(ValueError, match="n_resamples"):
        cluster_bootstrap([0.1, 0.2], ["u1", "u2"], n_resamples=0, rng=0)


def test_enumeration_refuses_more_than_seven_clusters():
    with pytest.raises(ValueError, match="limit is n <= 7"):
        enumerate_cluster_resamples(np.zeros(8), list(range(8)))
