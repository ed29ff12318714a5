"""compare_runs: one entry point that must agree with the individual helpers."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from helpers import (
    cluster_bootstrap,
    cluster_totals,
    compare_many,
    compare_runs,
    exact_bootstrap_interval,
    grid_bootstrap_distribution,
    load_record,
    paired_bootstrap,
    percentile_interval,
    randomization_test,
    read_scores_csv,
    read_trec_eval,
    recompute_interval,
)
from helpers.records import METHOD, METHOD_EXACT
from helpers.runs.readers import RunScores
from helpers.runs.report import _near, _p_text, _wrap

DATA = Path(__file__).resolve().parents[2] / "notebooks" / "data"


def flat(text: str) -> str:
    """A printed report with its wrapping undone: lines and column padding as single spaces."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def runs():
    a = read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10")
    b = read_trec_eval(DATA / "simulated_B.trec_eval.txt", "ndcg_cut_10")
    users = read_scores_csv(
        DATA / "simulated_users_and_slices.csv", score="ndcg_cut_10_A", cluster="user"
    ).clusters
    return a, b, users


def test_agrees_with_the_individual_helpers(runs):
    a, b, _ = runs
    report = compare_runs(a, b, n_resamples=3000, rng=5, missing="zero")
    ids = sorted(a.scores)
    d = np.array([b.scores.get(q, 0.0) - a.scores[q] for q in ids])
    assert report.runs.query_ids == ids and report.n_queries == 150
    assert report.mean_change == pytest.approx(d.mean(), abs=1e-15)
    # four-decimal trec_eval scores lie on a grid: the interval and the test are exact
    # the exact interval needs no resamples: the plotted values are draws from the exact
    # distribution (seeded), unless Monte Carlo resamples are asked for
    dist = grid_bootstrap_distribution(d)
    assert report.bootstrap.size == 3000 and np.isin(report.bootstrap, dist.values).all()
    assert report.bootstrap_source == "3,000 draws from the exact bootstrap distribution"
    assert "the plotted bootstrap holds 3,000 draws from the exact" in flat(str(report))
    asked = compare_runs(a, b, n_resamples=3000, rng=5, missing="zero", monte_carlo_bootstrap=True)
    assert np.array_equal(asked.bootstrap, paired_bootstrap(d, n_resamples=3000, rng=5))
    assert asked.bootstrap_source == "3,000 Monte Carlo resamples"
    assert (asked.interval, asked.test.pvalue) == (report.interval, report.test.pvalue)
    exact_iv = exact_bootstrap_interval(d)
    assert (
        report.interval == exact_iv.interval
        and "exact (FFT on the 0.0001 grid" in report.interval_method
    )
    assert report.test.exact and report.test.pvalue == randomization_test(d).pvalue
    assert "sign-flip distribution on the 0.0001 grid" in report.test.method
    assert (report.wins, report.losses, report.unchanged) == (
        int((d > 0).sum()),
        int((d < 0).sum()),
        int((d == 0).sum()),
    )
    worst = [ids[i] for i in np.argsort(d, kind="stable")[:5]]
    assert [q for q, *_ in report.largest_regressions] == worst
    assert report.largest_regressions[0][0] == "q121"  # run B returned nothing for it
    assert report.config["missing_policy"] == "zero" and report.config["only_in_a"] == [
        "q047",
        "q121",
    ]


def test_clusters_switch_to_the_user_cluster_bootstrap_and_flip_users(runs):
    a, b, users = runs
    report = compare_runs(a, b, clusters=users, n_resamples=2000, rng=3, missing="zero")
    d = report.runs.b - report.runs.a
    labels = [users[q] for q in report.runs.query_ids]
    assert report.interval == percentile_interval(
        cluster_bootstrap(d, labels, n_resamples=2000, rng=3)
    )
    totals = cluster_totals(d, labels)
    # user totals are on the grid too: the test is exact (the cluster interval stays Monte Carlo)
    assert report.test.exact and report.test.pvalue == randomization_test(totals.sums).pvalue
    assert len(set(report.runs.clusters)) == 40 and "40 users" in report.interval_method
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
    text = flat(str(report))
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
    assert rec.method == METHOD_EXACT and rec.config["test"]["pvalue"] == report.test.pvalue
    assert rec.config["test"]["exact"] and "grid" in rec.config["test"]["method"]


def test_off_grid_scores_fall_back_to_monte_carlo_and_say_so():
    rng = np.random.default_rng(6)
    ids = [f"q{i:03d}" for i in range(60)]
    a = dict(
        zip(ids, rng.uniform(0, 1, 60).tolist(), strict=False)
    )  # full-precision scores: on no grid
    b = {q: min(1.0, v + float(rng.normal(0.02, 0.1))) for q, v in a.items()}
    report = compare_runs(a, b, n_resamples=2000, rng=8)
    d = report.runs.b - report.runs.a
    assert report.interval == percentile_interval(paired_bootstrap(d, n_resamples=2000, rng=8))
    assert "Monte Carlo: no exact interval" in report.interval_method and not report.interval_exact
    stream = np.random.default_rng(np.random.SeedSequence(8).spawn(1)[0])
    assert (
        report.test.pvalue == randomization_test(d, n_resamples=2000, rng=stream).pvalue
        and not report.test.exact
    )
    assert "Monte Carlo, " in flat(str(report))
    rec = report.to_record()
    assert rec.method == METHOD and tuple(recompute_interval(rec)) == tuple(report.interval)
    assert rec.config["test"] == {
        "method": report.test.method,
        "alternative": "two-sided",
        "pvalue": report.test.pvalue,
        "exact": False,
        "n_resamples": 2000,
    }


def test_round_trip_with_users_recomputes_the_cluster_interval(runs, tmp_path):
    a, b, users = runs
    report = compare_runs(a, b, clusters=users, n_resamples=2000, rng=4, missing="zero")
    report.save(tmp_path / "report.json")
    rec = load_record(tmp_path / "report.json")
    assert rec.clusters == [users[q] for q in rec.query_ids]
    assert rec.method.startswith("user-cluster bootstrap")
    assert tuple(recompute_interval(rec)) == tuple(report.interval)
    assert rec.config["test"]["pvalue"] == report.test.pvalue


# --- input validation: compare_runs routes each argument through its rule and names it --------

RUN_A = {"q1": 0.5, "q2": 0.25, "q3": 0.75, "q4": 0.5, "q5": 0.0}
RUN_B = {"q1": 0.6, "q2": 0.3, "q3": 0.7, "q4": 1.0, "q5": 0.25}
USERS = {"q1": "U1", "q2": "U1", "q3": "U2", "q4": "U3", "q5": "U3"}


def test_compare_runs_iv():
    good = {"a": RUN_A, "b": RUN_B, "n_resamples": 50, "rng": 1}
    # valid: integer and boolean scores give the report of the same numbers as floats
    for kind in (int, bool):
        scores = {q: kind(v) for q, v in RUN_A.items()}
        as_floats = {q: float(v) for q, v in scores.items()}
        assert str(compare_runs(**good | {"a": scores})) == str(
            compare_runs(**good | {"a": as_floats})
        )
    by_user = compare_runs(**good | {"clusters": dict(USERS)})
    assert "user-cluster bootstrap, 3 users resampled whole" in flat(str(by_user))
    with pytest.raises(ValueError, match=r"^run A must be a mapping \{query_id: score\}"):
        compare_runs(**good | {"a": [0.5, 0.25, 0.75, 0.5, 0.0]})
    with pytest.raises(ValueError, match=r"^run B must be a mapping"):
        compare_runs(**good | {"b": np.array([[0.5, 0.25], [0.75, 0.5]])})
    with pytest.raises(ValueError, match=r"^A's scores contain NaN .* at query 'q2'"):
        compare_runs(**good | {"a": RUN_A | {"q2": float("nan")}})
    with pytest.raises(ValueError, match=r"1 only in A \('q6'\)"):
        compare_runs(**good | {"a": RUN_A | {"q6": 0.5}})
    with pytest.raises(ValueError, match=r"missing must be one of"):
        compare_runs(**good | {"missing": "ignore"})
    with pytest.raises(ValueError, match=r"^monte_carlo_bootstrap must be True or False"):
        compare_runs(**good | {"monte_carlo_bootstrap": 1})
    with pytest.raises(ValueError, match=r"clusters must map each query ID"):
        compare_runs(**good | {"clusters": ["U1", "U1", "U2", "U3", "U3"]})
    with pytest.raises(ValueError, match=r"clusters has no user for 4 compared queries"):
        compare_runs(**good | {"clusters": {"q1": "U1"}})
    for v in [0, True]:
        with pytest.raises(ValueError, match=r"^n_resamples must be"):
            compare_runs(**good | {"n_resamples": v})
    with pytest.raises(ValueError, match=r"rng must be a non-negative int seed"):
        compare_runs(**good | {"rng": np.random.default_rng(1)})
    with pytest.raises(ValueError, match=r"rng must be a non-negative int seed"):
        compare_runs(**good | {"rng": None})
    with pytest.raises(ValueError, match=r"^level must be"):
        compare_runs(**good | {"level": 95})
    with pytest.raises(ValueError, match=r"alternative must be"):
        compare_runs(**good | {"alternative": "both"})
    with pytest.raises(ValueError, match=r"^top must be a non-negative integer"):
        compare_runs(**good | {"top": -1})
    with pytest.raises(ValueError, match=r"^min_queries must be a positive integer"):
        compare_runs(**good | {"min_queries": 0})


def test_compare_runs_refuses_too_few_queries_and_says_why():
    with pytest.raises(
        ValueError,
        match=(
            r"Only 1 query is compared, fewer than min_queries=5\. "
            r".*one query gives an interval of width 0.*2/2\^1 = 1"
        ),
    ):
        compare_runs({"q1": 0.5}, {"q1": 0.519}, rng=1)
    with pytest.raises(ValueError, match=r"Only 4 queries are compared.*2/2\^4 = 0\.125"):
        compare_runs({f"q{i}": 0.5 for i in range(4)}, {f"q{i}": 0.6 for i in range(4)}, rng=1)
    report = compare_runs(
        {f"q{i}": 0.5 for i in range(5)},
        {f"q{i}": 0.4 + i / 10 for i in range(5)},
        rng=1,
        n_resamples=200,
    )
    assert report.n_queries == 5 and report.to_record().config["min_queries"] == 5
    with pytest.raises(ValueError, match="min_queries must be a positive integer"):
        compare_runs({"q1": 0.5}, {"q1": 0.6}, rng=1, min_queries=0)


# --- the printed report: a lopsided count of empty queries first; lines that fit --------------


def _empty_runs(q: int, empty_a: int, empty_b: int) -> tuple[RunScores, RunScores]:
    """Runs on q queries, each listing the queries it retrieved nothing for (scored 0), as
    evaluate gives them: A's empty queries are the first ones, B's the last ones."""
    ids = [f"q{i:03d}" for i in range(q)]
    rng = np.random.default_rng(q)
    a = {x: round(float(v), 4) for x, v in zip(ids, rng.uniform(0.1, 1, q), strict=True)}
    b = {x: min(1.0, round(v + 0.05, 4)) for x, v in a.items()}
    none_a, none_b = ids[:empty_a], ids[q - empty_b :]
    a |= dict.fromkeys(none_a, 0.0)
    b |= dict.fromkeys(none_b, 0.0)
    return RunScores(a, "P_10", unretrieved=none_a), RunScores(b, "P_10", unretrieved=none_b)


@pytest.mark.parametrize(
    ("q", "empty_a", "empty_b", "said"),
    [
        (150, 0, 7, False),  # 7 more of 150: under 5% (7.5), a few topics without results
        (150, 0, 8, True),  # 8 more: at least 5 and at least 5% of the compared queries
        (150, 20, 27, False),
        (150, 28, 20, True),  # A the worse side
        (40, 0, 4, False),  # 5% of 40 is 2: at least 5 more are needed
        (40, 1, 6, True),
        (150, 0, 100, True),  # chapter 7's q1 against q001: 100 of 150 topics scored 0
    ],
)
def test_a_lopsided_count_of_empty_queries_is_said_first(q, empty_a, empty_b, said):
    a, b = _empty_runs(q, empty_a, empty_b)
    report = compare_runs(a, b, n_resamples=200, rng=1, missing="zero")
    many = compare_many({"A": {"P_10": a}, "B": {"P_10": b}}, baseline="A", rng=1, missing="zero")
    assert bool(many.warnings) == said  # compare_many says it too, for each run and measure
    if said:
        worse_run = "'A' (baseline)" if empty_a > empty_b else "'B'"
        most = max(empty_a, empty_b)
        assert many.warnings[0].startswith(
            f"On P_10: CHECK FIRST: run {worse_run} has no result for {most} of the {q}"
        )
        assert flat(str(many)).startswith(flat(many.warnings[0]))
        assert many.to_markdown().startswith(f"**{many.warnings[0]}")
    gap, worse = abs(empty_a - empty_b), "A" if empty_a > empty_b else "B"
    assert (gap >= 5 and gap >= 0.05 * q) == said  # the rule, independently
    assert bool(report.warning) == said
    text, page = str(report), report._repr_html_()
    if not said:
        assert text.startswith("measure ") and page.startswith("<table>")
        return
    most, least = max(empty_a, empty_b), min(empty_a, empty_b)
    first = f"CHECK FIRST: run {worse} has no result for {most} of the {q} compared queries"
    assert text.startswith(first) and page.startswith(f"<p><b>{first}")
    said_all = flat(text.split("\n\n")[0])
    assert f"run {'B' if worse == 'A' else 'A'} for {least}." in said_all
    for check in ("topic IDs match the qrels'", "no run file is truncated", "missing= policy"):
        assert check in said_all
    named = (a if worse == "A" else b).unretrieved[:3]
    assert all(repr(x) in said_all for x in named)
    assert max(map(len, text.splitlines())) <= 88


def test_queries_scored_0_by_missing_zero_count_too():
    a, b = _empty_runs(150, 0, 0)
    lacking = {x: v for x, v in b.scores.items() if x >= "q140"}  # B lacks its last 140 - 149
    short = RunScores({x: v for x, v in b.scores.items() if x not in lacking}, "P_10")
    assert (
        "run B has no result for 10 of the 150"
        in compare_runs(a, short, n_resamples=200, rng=1, missing="zero").warning
    )
    # dropped, they are not compared: nothing to say
    assert compare_runs(a, short, n_resamples=200, rng=1, missing="drop").warning == ""


def test_the_printed_report_fits_88_characters_and_never_splits_a_number(runs):
    a, b, users = runs
    _, empty = _empty_runs(150, 0, 30)
    reports = [
        compare_runs(a, b, n_resamples=500, rng=2, missing="zero", top=40),
        compare_runs(a, b, clusters=users, n_resamples=500, rng=2, missing="drop", top=15),
        compare_runs(
            _empty_runs(150, 0, 0)[0], empty, n_resamples=500, rng=2, top=40, missing="zero"
        ),
    ]
    for report in reports:
        lines = str(report).splitlines()
        assert max(map(len, lines)) <= 88, max(lines, key=len)
        # each query's change, the interval and the p-value stand whole on one line
        whole = [f"{r.query_id} ({r.change:+.4f})" for r in report.largest_regressions]
        whole += [f"[{report.interval.low:+.4f}, {report.interval.high:+.4f}]"]
        t = report.test
        whole += [f"p = {_p_text(t.pvalue, t.exact, t.n_resamples)} ("]
        assert all(any(w in line for line in lines) for w in whole)
        # a value continues in its column, with nothing cut or lost
        body = str(report).split("\n\n")[-1]
        assert all(flat(v) in flat(body) for _, v in report._rows())
        assert all(x[:1] != " " or x[:30].isspace() and x[30] != " " for x in body.splitlines())
    assert len(reports[0].largest_regressions) == 40


@pytest.mark.parametrize("width", range(24, 89))
def test_wrap_breaks_only_between_whole_pieces(width):
    items = [f"q{i:03d} ({-i / 997:+.4f})" for i in range(1, 30)]
    text = "largest regressions " + ", ".join(items) + "; p = 0.0312 (two-sided; exact)"
    lines = _wrap(text, width, "  ")
    assert all(len(line) <= width for line in lines)
    assert flat(" ".join(lines)) == text  # nothing lost, nothing added
    assert all(any(x in line for line in lines) for x in [*items, "p = 0.0312"])


# --- issue 48: p as it is known ------------------------------------------------------


def test_p_is_shown_as_it_is_known():
    assert _p_text(1.9e-6) == "<0.0001" and _p_text(0.03125) == "0.0312"  # exact
    assert _p_text(1 / 10_001, False, 10_000) == "<0.0003"  # 0 of 10,000: below about 3/R
    p = 6618 / 10_001  # 6,617 of 10,000
    assert _p_text(p, False, 10_000) == f"{p:.4f}±{(p * (1 - p) / 10_000) ** 0.5:.4f}"
    assert _p_text(p, False, 10_000, adjusted=min(1.0, 3 * p)) == "1.0000"
    assert _p_text(1 / 10_001, False, 10_000, adjusted=12 / 10_001) == "<0.0036"  # 12 x the bound
    # issue 52: Holm's factor of 15 as Holm computes it (15.000000000000002 times p) is 0.0045,
    # not 0.0046; each factor up to 40, and an adjusted Monte Carlo p carries its error
    for k in range(1, 41):
        assert (
            _p_text(1 / 10_001, False, 10_000, adjusted=k * (1 / 10_001)) == f"<{3 * k / 1e4:.4f}"
        )
    assert _p_text(p, False, 10_000, adjusted=0.4, error=0.0123) == "0.4000±0.0123"


def test_the_report_says_what_a_monte_carlo_p_and_its_plus_minus_are():
    # issue 52: "p < 0.0003" for 0 of R is a 95% upper bound; the ± after p is one standard error
    rng = np.random.default_rng(5)
    a = {f"q{i}": float(x) for i, x in enumerate(rng.uniform(0, 0.5, 40))}
    far = flat(str(compare_runs(a, {q: v + 0.3 + 0.01 * rng.random() for q, v in a.items()},
                                n_resamples=10_000, rng=1)))  # fmt: skip
    assert (
        "p < 0.0003 (two-sided; a 95% upper bound, as none was as extreme; Monte Carlo, 0 of "
        "10,000)" in far
    )
    some = compare_runs(a, {q: v + rng.normal(0, 0.3) for q, v in a.items()}, rng=1)
    t = some.test
    se = (t.pvalue * (1 - t.pvalue) / t.n_resamples) ** 0.5
    assert f"p = {t.pvalue:.4f}±{se:.4f} (two-sided; ± one standard error; Monte Carlo" in flat(
        str(some)
    )


def test_compare_runs_never_prints_p_as_0_and_says_a_monte_carlo_p_near_alpha():
    rng = np.random.default_rng(5)
    a = {f"q{i}": float(x) for i, x in enumerate(rng.uniform(0, 0.5, 40))}
    far = {q: v + 0.3 + 0.01 * rng.random() for q, v in a.items()}  # off the grid: Monte Carlo
    text = flat(str(compare_runs(a, far, n_resamples=10_000, rng=1)))
    assert "p < 0.0003 (two-sided; a 95% upper bound" in text
    assert "0.0000" not in text and "p = 0.0001" not in text
    grid = {q: round(v, 2) for q, v in a.items()}
    exact = compare_runs(grid, {q: v + 0.25 for q, v in grid.items()}, rng=1)
    assert (
        exact.test.exact
        and exact.test.pvalue > 0
        and "p < 0.0001 (two-sided; exact" in flat(str(exact))
    )
    some = compare_runs(a, {q: v + rng.normal(0, 0.3) for q, v in a.items()}, rng=1)
    t = some.test
    assert f"p = {t.pvalue:.4f}±" in flat(str(some)) and not t.exact
    near = _near(t.pvalue, t.n_resamples, 0.05)
    assert ("within 2 Monte Carlo errors of 0.05" in flat(str(some))) == near
    assert _near(0.051, 10_000, 0.05) and not _near(0.06, 10_000, 0.05)
