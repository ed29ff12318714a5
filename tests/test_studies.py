"""helpers.studies: chapter 6's simulations, each checked against a plain re-computation
(loops over studies, helpers.paired_bootstrap and percentile_interval, a plain Holm), and
the example comparison against the figures the chapter prints."""

from __future__ import annotations

import numpy as np
import pytest

import helpers
from helpers.studies import _row_intervals, _sign_flip_pvalues


def _plain_holm_any(p, alpha=0.05):
    """Some rejection after Holm: the smallest p against alpha / m, and so on, stopping at the
    first failure; so some rejection exactly when the smallest p passes alpha / m."""
    p = sorted(p)
    return p[0] <= alpha / len(p)


def test_row_intervals_are_paired_bootstraps_intervals_on_the_same_draws():
    rows = np.random.default_rng(61).normal(0, 0.1, size=(3, 200))
    low, high = _row_intervals(rows, 10_000, np.random.default_rng(62))
    for row, lo, hi in zip(rows, low, high, strict=True):
        means = helpers.paired_bootstrap(row, n_resamples=10_000, rng=62)
        assert np.allclose([lo, hi], helpers.percentile_interval(means), rtol=0, atol=1e-12)


def test_both_kernels_give_their_former_outputs_bit_for_bit():
    # chapter 6's stored numbers: the kernels now draw through the paired bootstrap's engine and
    # count as randomization_test counts; their former code, inline, must give the same values
    rows = np.random.default_rng(5).normal(0, 0.1, size=(50, 200))
    draws = np.random.default_rng(6).integers(0, 200, size=(2000, 200))
    cells = (np.arange(2000)[:, None] * 200 + draws).ravel()
    counts = np.bincount(cells, minlength=2000 * 200).reshape(2000, 200).astype(float)
    means = np.sort(rows @ counts.T / 200, axis=1)
    low, high = _row_intervals(rows, 2000, np.random.default_rng(6))
    assert np.array_equal(low, means[:, 50]) and np.array_equal(high, means[:, 1950])
    rows = np.random.default_rng(7).normal(0, 0.12, size=(3000, 40))
    signs = np.random.default_rng(8).choice([-1.0, 1.0], size=(40, 999))
    null = np.abs(rows @ signs / 40)
    count = (null >= np.abs(rows.mean(axis=1))[:, None] - 1e-12).sum(axis=1)
    p = _sign_flip_pvalues(rows, 999, np.random.default_rng(8))
    assert np.array_equal(p, (count + 1) / 1000)


def test_best_of_k_matches_a_plain_loop_over_studies():
    n_studies, n_queries, n_resamples, seed = 40, 30, 300, 9
    got = helpers.best_of_k_study(
        [1, 3], rng=seed, n_studies=n_studies, n_queries=n_queries, n_resamples=n_resamples
    )
    # the definition: A's noise shared by the configurations, each adding its own
    sets = []
    for s in (seed, seed + 2):
        g = np.random.default_rng(s)
        a = g.normal(0, 0.1, size=(n_studies, 1, n_queries))
        c = g.normal(0, 0.1, size=(n_studies, 3, n_queries))
        sets.append(c - a)
    test, validation = sets
    for i, k in enumerate([1, 3]):
        same = held = 0
        for s in range(n_studies):
            for picked_on, count in ((test, "same"), (validation, "held")):
                j = int(np.argmax(picked_on[s, :k].mean(axis=1)))
                iv = helpers.percentile_interval(
                    helpers.paired_bootstrap(test[s, j], n_resamples=n_resamples, rng=seed + 1)
                )
                claim = iv.low > 0 or iv.high < 0
                same += claim and count == "same"
                held += claim and count == "held"
        assert got.same[i] == same / n_studies and got.held[i] == held / n_studies
    best = test.mean(axis=2).argmax(axis=1)
    chosen = validation.mean(axis=2).argmax(axis=1)
    rows = np.arange(n_studies)
    assert got.gain_same == pytest.approx(test[rows, best].mean(), abs=1e-12)
    assert got.gain_held == pytest.approx(test[rows, chosen].mean(), abs=1e-12)
    assert got.gain_validation == pytest.approx(validation[rows, chosen].mean(), abs=1e-12)
    assert got.same[0] == got.held[0]  # with one configuration, both pick it
    assert "chosen on validation, measured on held-out" in str(got)


def test_the_chapters_best_of_k_figures():
    r = helpers.best_of_k_study([1, 20], rng=63)
    assert round(r.gain_same, 4) == 0.0133 and round(r.gain_validation, 4) == 0.0134
    assert abs(r.gain_held) < 5e-5
    assert r.same[-1] > 0.19 and r.held[-1] < 0.06


def test_sign_flip_pvalues_match_a_plain_count():
    rows = np.random.default_rng(3).normal(0, 0.12, size=(5, 12))
    p = _sign_flip_pvalues(rows, 199, np.random.default_rng(4))
    signs = np.random.default_rng(4).choice([-1.0, 1.0], size=(12, 199))
    for row, got in zip(rows, p, strict=True):
        count = sum(abs(np.mean(row * signs[:, b])) >= abs(row.mean()) - 1e-12 for b in range(199))
        assert got == (count + 1) / 200


def test_many_tests_rates_match_the_p_values():
    r = helpers.many_tests_study([1, 2, 4], rng=11, n_studies=300, n_flips=99)
    p = r.pvalues
    assert p.shape == (300, 4)
    for i, m in enumerate([1, 2, 4]):
        assert r.any_raw[i] == np.mean([min(row[:m]) <= 0.05 for row in p])
        assert r.any_holm[i] == np.mean([_plain_holm_any(row[:m]) for row in p])
    assert r.any_raw[0] == r.any_holm[0]  # one test: Holm changes nothing
    assert "after Holm" in str(r)


def test_the_example_comparison_prints_the_chapters_figures():
    ex = helpers.comparison_example()
    d = ex.ndcg_b - ex.ndcg_a
    assert len(ex.query_ids) == d.size == 240 and len(set(ex.users)) == 60
    assert not set(ex.exclusions) & set(ex.query_ids)
    assert [int((ex.query_type == t).sum()) for t in ("head", "torso", "tail")] == [120, 106, 14]
    assert (round(ex.ndcg_a.mean(), 4), round(ex.ndcg_b.mean(), 4)) == (0.5821, 0.5965)
    tail = ex.query_type == "tail"
    assert len(set(ex.users[tail])) == 14  # one query per user: users = queries in the tail
    iv = helpers.percentile_interval(helpers.paired_bootstrap(d, rng=72))
    assert (round(iv.low, 4), round(iv.high, 4)) == (0.0031, 0.0259)
    p95 = helpers.quantile_difference(0.95)
    lat = helpers.percentile_interval(
        helpers.paired_bootstrap_statistic(ex.latency_a, ex.latency_b, p95, rng=73)
    )
    assert (round(lat.low, 1), round(lat.high, 1)) == (32.1, 86.4)
    # the t interval, by hand
    dt = d[tail]
    half = 2.1603686564627913 * dt.std(ddof=1) / np.sqrt(14)  # t quantile 0.975, 13 df
    assert (round(dt.mean() - half, 3), round(dt.mean() + half, 3)) == (-0.099, -0.030)
    again = helpers.comparison_example()
    assert np.array_equal(again.ndcg_b, ex.ndcg_b) and again.query_ids == ex.query_ids
