"""compare_runs: one entry point that must agree with the individual helpers."""

from pathlib import Path

import numpy as np
import pytest

from helpers import (
    cluster_bootstrap,
    cluster_totals,
    compare_runs,
    exact_bootstrap_interval,
    load_record,
    paired_bootstrap,
    percentile_interval,
    randomization_test,
    read_scores_csv,
    read_trec_eval,
    recompute_interval,
    recompute_pvalue,
)
from helpers.records import METHOD, METHOD_EXACT

DATA = Path(__file__).resolve().parent.parent / "notebooks" / "data"


@pytest.fixture(scope="module")
def runs():
    a = read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10")
    b = read_trec_eval(DATA / "simulated_B.trec_eval.txt", "ndcg_cut_10")
    users = read_scores_csv(DATA / "simulated_users_and_slices.csv", score="ndcg_cut_10_A", cluster="user").clusters
    return a, b, users


def test_agrees_with_the_individual_helpers(runs):
    a, b, _ = runs
    report = compare_runs(a, b, n_resamples=3000, rng=5, missing="zero")
    ids = sorted(a.scores)
    d = np.array([b.scores.get(q, 0.0) - a.scores[q] for q in ids])
    assert report.runs.query_ids == ids and report.n_queries == 150
    assert report.mean_change == pytest.approx(d.mean(), abs=1e-15)
    # four-decimal trec_eval scores lie on a grid: the interval and the test are exact
    assert np.array_equal(report.bootstrap, paired_bootstrap(d, n_resamples=3000, rng=5))
    exact_iv = exact_bootstrap_interval(d)
    assert report.interval == exact_iv.interval and "exact (FFT on the 0.0001 grid" in report.interval_method
    assert report.test.exact and report.test.pvalue == randomization_test(d).pvalue
    assert "sign-flip distribution on the 0.0001 grid" in report.test.method
    assert (report.wins, report.losses, report.ties) == (int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum()))
    worst = [ids[i] for i in np.argsort(d, kind="stable")[:5]]
    assert [q for q, *_ in report.largest_regressions] == worst
    assert report.largest_regressions[0][0] == "q121"  # run B returned nothing for it
    assert report.config["missing_policy"] == "zero" and report.config["only_in_a"] == ["q047", "q121"]


def test_clusters_switch_to_the_user_cluster_bootstrap_and_flip_users(runs):
    a, b, users = runs
    report = compare_runs(a, b, clusters=users, n_resamples=2000, rng=3, missing="zero")
    d = report.runs.b - report.runs.a
    labels = [users[q] for q in report.runs.query_ids]
    assert report.interval == percentile_interval(cluster_bootstrap(d, labels, n_resamples=2000, rng=3))
    totals = cluster_totals(d, labels)
    # user totals are on the grid too: the test is exact (the cluster interval stays Monte Carlo)
    assert report.test.exact and report.test.pvalue == randomization_test(totals.sums).pvalue
    assert report.n_clusters == 40 and "40 users" in report.interval_method
    # the null distribution is on the scale of the mean change over queries
    assert np.abs(report.test.null_distribution).max() <= np.abs(totals.sums).sum() / d.size + 1e-12


def test_exact_test_when_few_queries_disagree():
    a = {"q1": 0.50, "q2": 0.70, "q3": 0.65, "q4": 0.55}
    b = {"q1": 0.60, "q2": 0.72, "q3": 0.59, "q4": 0.59}
    report = compare_runs(a, b, n_resamples=500, rng=0, min_queries=4)
    assert report.test.exact and report.test.pvalue == pytest.approx(0.625)
    assert report.relative_change == pytest.approx(0.025 / 0.6)
    assert [q for q, *_ in report.largest_regressions] == ["q3"]


def test_renders_as_text_and_html(runs):
    a, b, _ = runs
    report = compare_runs(a, b, n_resamples=1000, rng=2, missing="drop")
    text = str(report)
    assert "148 queries compared; 2 only in A and 0 only in B, dropped (missing='drop')" in text
    assert f"[{report.interval.low:+.4f}, {report.interval.high:+.4f}]" in text
    assert "seed 2, R = 1,000 resamples" in text
    page = report._repr_html_()
    assert page.startswith("<table>") and "randomization test" in page and "ndcg_cut_10" in page


def test_round_trip_through_the_json_record(runs, tmp_path):
    a, b, _ = runs
    report = compare_runs(a, b, n_resamples=2000, rng=9, missing="zero")
    report.save(tmp_path / "report.json")
    rec = load_record(tmp_path / "report.json")
    assert rec == report.to_record()
    assert rec.metric == "ndcg_cut_10" and rec.config["missing_policy"] == "zero"
    assert rec.config["only_in_a"] == ["q047", "q121"] and rec.clusters is None
    assert tuple(recompute_interval(rec)) == tuple(report.interval)
    assert rec.method == METHOD_EXACT and recompute_pvalue(rec) == report.test.pvalue
    assert rec.config["test"]["exact"] and "grid" in rec.config["test"]["method"]


def test_off_grid_scores_fall_back_to_monte_carlo_and_say_so():
    rng = np.random.default_rng(6)
    ids = [f"q{i:03d}" for i in range(60)]
    a = dict(zip(ids, rng.uniform(0, 1, 60).tolist()))  # full-precision scores: on no grid
    b = {q: min(1.0, v + float(rng.normal(0.02, 0.1))) for q, v in a.items()}
    report = compare_runs(a, b, n_resamples=2000, rng=8)
    d = report.runs.b - report.runs.a
    assert report.interval == percentile_interval(paired_bootstrap(d, n_resamples=2000, rng=8))
    assert "Monte Carlo: no exact interval" in report.interval_method and not report.interval_exact
    stream = np.random.default_rng(np.random.SeedSequence(8).spawn(1)[0])
    assert report.test.pvalue == randomization_test(d, n_resamples=2000, rng=stream).pvalue and not report.test.exact
    assert "Monte Carlo, " in str(report)
    rec = report.to_record()
    assert rec.method == METHOD and tuple(recompute_interval(rec)) == tuple(report.interval)
    assert recompute_pvalue(rec) == report.test.pvalue


def test_round_trip_with_users_recomputes_the_cluster_interval(runs, tmp_path):
    a, b, users = runs
    report = compare_runs(a, b, clusters=users, n_resamples=2000, rng=4, missing="zero")
    report.save(tmp_path / "report.json")
    rec = load_record(tmp_path / "report.json")
    assert rec.clusters == [users[q] for q in rec.query_ids]
    assert rec.method.startswith("user-cluster bootstrap")
    assert tuple(recompute_interval(rec)) == tuple(report.interval)
    assert recompute_pvalue(rec) == report.test.pvalue


def test_bad_arguments_are_refused(runs):
    a, b, users = runs
    with pytest.raises(ValueError, match="rng must be a non-negative int seed"):
        compare_runs(a, b, rng=np.random.default_rng(1), missing="zero")
    with pytest.raises(ValueError, match=r"2 only in A \('q047', 'q121'\)"):
        compare_runs(a, b, rng=1)
    with pytest.raises(ValueError, match="clusters has no user for 1 compared queries"):
        compare_runs(a, b, rng=1, missing="zero", clusters={q: u for q, u in users.items() if q != "q001"})
    with pytest.raises(ValueError, match="level"):
        compare_runs(a, b, rng=1, missing="zero", level=95)
    with pytest.raises(ValueError, match="top"):
        compare_runs(a, b, rng=1, missing="zero", top=-1)
