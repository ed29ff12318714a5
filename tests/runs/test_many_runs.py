"""Many runs against one baseline (helpers.many_runs): every cell against compare_runs and
randomization_test on its pair, the adjustment against holm and a published example, the exact
p-values against scipy.stats.permutation_test, bad input, the record, the example files, and
(where it is installed) ranx's compare."""

from __future__ import annotations

import html
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import helpers as h
from helpers.runs.many_runs import _adjust

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "notebooks" / "data"


def flat(text: str) -> str:
    """A printed table with its wrapping undone: lines and column padding as single spaces."""
    return " ".join(text.split())


def _runs(seed=5, q=40, continuous=False):
    """Four runs on two measures: a four-decimal measure and P@5 (or continuous scores)."""
    rng = np.random.default_rng(seed)
    ids = [f"q{i:02d}" for i in range(q)]
    base_n = np.round(rng.uniform(0, 1, q), 4)
    base_p = rng.integers(0, 6, q) / 5
    out = {}
    for name, shift in (("base", 0.0), ("up", 0.08), ("flat", 0.0), ("down", -0.05)):
        noise = rng.normal(shift, 0.1, q)
        n = np.clip(base_n + noise, 0, 1)
        n = n if continuous else np.round(n, 4)
        p = np.clip(base_p + np.round(noise * 5) / 5, 0, 1) if name != "base" else base_p
        out[name] = {
            "ndcg": dict(zip(ids, n.tolist(), strict=True)),
            "P_5": dict(zip(ids, p.tolist(), strict=True)),
        }
    return out


@pytest.mark.parametrize("continuous", [False, True])
def test_each_cell_equals_compare_runs_and_randomization_test_on_its_pair(continuous):
    runs = _runs(continuous=continuous)
    table = h.compare_many(runs, baseline="base", rng=11, n_resamples=2000)
    assert [(c.run, c.measure) for c in table.cells] == [
        (r, m) for m in ("ndcg", "P_5") for r in ("up", "flat", "down")
    ]
    for c in table.cells:
        a, b = runs["base"][c.measure], runs[c.run][c.measure]
        report = h.compare_runs(a, b, rng=11, n_resamples=2000)
        assert c.interval == report.interval and c.interval_method == report.interval_method
        assert c.pvalue == report.test.pvalue and c.test_method == report.test.method
        assert (c.change, c.baseline_mean, c.run_mean) == (
            report.mean_change,
            report.mean_a,
            report.mean_b,
        )
        assert (c.up, c.down, c.unchanged) == (report.wins, report.losses, report.unchanged)
        d = np.array([b[q] - a[q] for q in sorted(a)])
        if c.pvalue_exact:
            assert c.pvalue == h.randomization_test(d).pvalue
        else:  # off the grid: Monte Carlo, from the stream compare_runs spawns from the seed
            stream = np.random.default_rng(np.random.SeedSequence(11).spawn(1)[0])
            assert c.pvalue == h.randomization_test(d, n_resamples=2000, rng=stream).pvalue
    exact = {c.measure: c.interval_exact for c in table.cells}
    assert exact == {"ndcg": not continuous, "P_5": True}


def test_adjusted_pvalues_equal_holm_per_family():
    runs = _runs()
    p_of = {}
    for family in ("all", "per measure", "gatekeeping"):
        for correction in ("holm", "bonferroni"):
            t = h.compare_many(runs, baseline="base", rng=1, family=family, correction=correction)
            p = np.array([c.pvalue for c in t.cells])
            p_of[family] = p
            fams = {
                "all": [np.arange(6)],
                "per measure": [np.arange(3), np.arange(3, 6)],
                "gatekeeping": [np.arange(3), np.arange(3, 6)],
            }[family]
            expected = np.empty(6)
            for idx in fams:
                if correction == "holm":
                    expected[idx] = h.holm(p[idx]).adjusted
                else:
                    expected[idx] = np.minimum(1, p[idx] * idx.size)
            if family == "gatekeeping":  # secondaries: never below the largest primary
                expected[3:] = np.maximum(expected[3:], expected[:3].max())
            got = np.array([c.adjusted for c in t.cells])
            assert np.array_equal(got, expected), (family, correction)
            assert [c.marked for c in t.cells] == (expected <= 0.05).tolist()
            bonferroni = correction == "bonferroni"
            assert ("Bonferroni" in t.family_text()) == bonferroni
            assert f"adjusted p <= 0.05: {t.family_text()}" in flat(str(t))
    assert np.array_equal(p_of["all"], p_of["gatekeeping"])  # the raw p-values do not change


def test_holm_published_example():
    # The Holm-Bonferroni method's worked example (Wikipedia, "Holm-Bonferroni method"):
    # four p-values at alpha = 0.05; H1 and H4 rejected, H2 and H3 not.
    p = np.array([0.01, 0.04, 0.03, 0.005])
    adjusted = _adjust(p, ["all"] * 4, "holm")
    assert np.allclose(adjusted, [0.03, 0.06, 0.06, 0.02], rtol=0, atol=1e-15)
    assert (adjusted <= 0.05).tolist() == [True, False, False, True]
    # Holm (1979)'s principle: the smallest p against alpha/m, then alpha/(m-1), ... stops at 0.03
    assert np.allclose(_adjust(p, ["all"] * 4, "bonferroni"), [0.04, 0.16, 0.12, 0.02])


def test_gatekeeping_closes_the_gate():
    p = np.array([0.001, 0.2, 0.0001, 0.0002])  # primaries (two runs), then secondaries
    adjusted = _adjust(p, ["primary", "primary", "secondary", "secondary"], "holm")
    assert adjusted.tolist()[:2] == [0.002, 0.2]
    assert adjusted[2:].min() == 0.2  # one primary failed: no secondary can be marked


@pytest.mark.parametrize("seed", range(4))
def test_exact_pvalues_agree_with_scipy_permutation_test(seed):
    rng = np.random.default_rng(seed)
    q = 9
    base = {f"q{i}": float(v) for i, v in enumerate(np.round(rng.uniform(0, 1, q), 2))}
    runs = {"base": {"m": base}}
    for k in range(3):
        runs[f"r{k}"] = {"m": {i: round(v + rng.normal(0.05 * k, 0.2), 2) for i, v in base.items()}}
    table = h.compare_many(runs, baseline="base", rng=1)
    for c in table.cells:
        d = np.array([runs[c.run]["m"][i] - base[i] for i in sorted(base)])
        res = stats.permutation_test(
            (d,),
            lambda x, axis: np.mean(x, axis=axis),
            permutation_type="samples",
            vectorized=True,
            n_resamples=np.inf,
        )
        assert c.pvalue_exact
        assert c.pvalue == pytest.approx(res.pvalue, abs=1e-12)


def test_a_run_identical_to_the_baseline():
    runs = _runs()
    runs["copy"] = runs["base"]
    c = h.compare_many(runs, baseline="base", rng=1).cell("copy", "ndcg")
    assert (c.pvalue, c.change, tuple(c.interval), c.up, c.down) == (1.0, 0.0, (0.0, 0.0), 0, 0)
    assert c.unchanged == 40 and not c.marked


def test_missing_queries_are_named_never_dropped_silently():
    runs = _runs()
    del runs["flat"]["ndcg"]["q03"], runs["down"]["ndcg"]["q07"]
    with pytest.raises(
        ValueError, match=r"run 'flat' against the baseline 'base' on 'ndcg'.*'q03'"
    ):
        h.compare_many(runs, baseline="base", rng=1)
    zero = h.compare_many(runs, baseline="base", rng=1, missing="zero")
    assert zero.query_ids["ndcg"] == tuple(f"q{i:02d}" for i in range(40))
    assert zero.missing_queries == {"flat": {"ndcg": ["q03"], "P_5": []},
                                    "down": {"ndcg": ["q07"], "P_5": []}}  # fmt: skip
    assert zero.scores["ndcg"]["flat"][3] == 0.0
    assert "flat lacks 1 on ndcg ('q03')" in flat(str(zero)) and "scored 0" in str(zero)
    drop = h.compare_many(runs, baseline="base", rng=1, missing="drop")
    assert len(drop.query_ids["ndcg"]) == 38 and len(drop.query_ids["P_5"]) == 40
    assert "dropped, missing='drop'" in drop.to_markdown()
    # each cell is then compare_runs on the table's queries
    c = drop.cell("up", "ndcg")
    ids = drop.query_ids["ndcg"]
    report = h.compare_runs(
        {q: runs["base"]["ndcg"][q] for q in ids}, {q: runs["up"]["ndcg"][q] for q in ids}, rng=1
    )
    assert (c.pvalue, c.interval) == (report.test.pvalue, report.interval)


def test_scores_from_the_readers(tmp_path):
    table = h.compare_many(_example("simulated_many_runs.csv"), baseline="base", rng=2026)
    assert table.runs == ("expansion", "reranker", "stemming", "tuned")
    assert table.measures == ("ndcg_cut_10", "P_5", "recip_rank")
    assert all(c.n_queries == 150 and c.interval_exact and c.pvalue_exact for c in table.cells)


def test_compare_many_iv():
    runs = _runs()

    def call(scores=runs, **kw):
        return h.compare_many(scores, **({"baseline": "base", "rng": 1} | kw))

    with pytest.raises(ValueError, match=r"baseline 'BM25' is not one of the runs.*pass baseline="):
        call(baseline="BM25")
    partial = {**runs, "flat": {"ndcg": runs["flat"]["ndcg"]}}
    with pytest.raises(ValueError, match=r"run 'flat' has no scores for measure 'P_5'.*measures="):
        call(partial)
    assert call(partial, measures=["ndcg"]).measures == ("ndcg",)
    extra = {**runs, "up": {**runs["up"], "map": runs["up"]["ndcg"]}}
    with pytest.raises(ValueError, match=r"run 'up' has scores for 'map', which the baseline"):
        call(extra)
    pairs = [("base", runs["base"]), ("up", runs["up"]), ("up", runs["flat"])]
    with pytest.raises(ValueError, match=r"two runs are named 'up'; give each run its own name"):
        call(pairs)
    with pytest.raises(ValueError, match=r"two runs are named '1'"):
        call({1: runs["base"], "1": runs["up"]}, baseline=1)
    with pytest.raises(ValueError, match=r"needs the baseline and at least one other run; got 1"):
        call({"base": runs["base"]})
    bad = {**runs, "up": {"ndcg": {**runs["up"]["ndcg"], "q05": "0.5"}, "P_5": runs["up"]["P_5"]}}
    with pytest.raises(ValueError, match=r"run 'up', measure 'ndcg': the score of query 'q05' is"):
        call(bad)
    nan = {**runs, "up": {"ndcg": {**runs["up"]["ndcg"], "q05": float("nan")}, "P_5": {}}}
    with pytest.raises(
        ValueError, match=r"run 'up', measure 'ndcg': the scores contain NaN.*'q05'"
    ):
        call(nan)
    with pytest.raises(ValueError, match=r"run 'up', measure 'P_5': no scored queries"):
        call({**runs, "up": {"ndcg": runs["up"]["ndcg"], "P_5": {}}})
    with pytest.raises(ValueError, match=r"run 'up': give a mapping measure -> per-query scores"):
        call({**runs, "up": [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"scores must map run name -> measure"):
        call("base")
    with pytest.raises(ValueError, match=r"^family must be one of 'all', 'per measure'"):
        call(family="measure")
    with pytest.raises(ValueError, match=r"^correction must be one of 'holm', 'bonferroni'"):
        call(correction="fdr")
    with pytest.raises(ValueError, match=r"^alpha must be a number strictly between 0 and 1"):
        call(alpha=5)
    with pytest.raises(ValueError, match=r"^rng must be a non-negative int"):
        call(rng=None)
    with pytest.raises(ValueError, match=r"^missing must be one of"):
        call(missing="skip")
    with pytest.raises(ValueError, match=r"^workers must be a positive integer"):
        call(workers=0)
    with pytest.raises(ValueError, match=r"measures names a measure twice"):
        call(measures=["ndcg", "ndcg"])
    with pytest.raises(ValueError, match=r"Only 3 queries are compared, fewer than min_queries=5"):
        call({r: {"m": dict(list(s["ndcg"].items())[:3])} for r, s in runs.items()})


def test_the_result_does_not_depend_on_the_threads():
    runs = _runs(continuous=True)
    one = h.compare_many(runs, baseline="base", rng=3, workers=1)
    two = h.compare_many(runs, baseline="base", rng=3, workers=2)
    assert one.cells == two.cells


def test_renderings_say_what_a_mark_means():
    t = h.compare_many(_example("simulated_many_runs.csv"), baseline="base", rng=2026)
    means = "adjusted p <= 0.05: Holm's step-down over all 12 comparisons of this table"
    not_means = "A mark is not a probability that the run is better than the baseline"
    no_mark = "a cell without a mark shows no detected change, not no change"
    per_cell = "Each interval, like p, is for its cell alone, not adjusted for the family"
    text, md, tex, page = str(t), t.to_markdown(), t.to_latex(), t._repr_html_()
    for shown in (flat(text), md, tex, page):
        assert not_means in shown and no_mark in shown and per_cell in shown
    # why it must be said: two unmarked cells have intervals clear of zero
    clear = [(c.run, c.measure) for c in t.cells if not c.marked and c.interval.low > 0]
    assert clear == [("expansion", "P_5"), ("tuned", "P_5")]
    assert means in flat(text) and means in html.unescape(page)
    assert means.replace("<=", "≤") in md
    assert means.replace("<=", r"$\leq$") in tex
    assert tex.count(r"\toprule") == tex.count(r"\bottomrule") == 1
    assert "$<$0.0001" in tex and " <0.0001" not in tex  # text-mode "<" is not "<" in LaTeX
    assert tex.count(r"\midrule") == 3 and tex.count(r"$^{*}$") == t.n_marked + 1
    assert md.count("| \\* |") == t.n_marked == text.count("  *\n")
    assert page.count("<tr") == 13


def test_record_recomputes_the_table_exactly(tmp_path):
    runs = _runs(continuous=True)
    del runs["down"]["P_5"]["q01"]
    t = h.compare_many(runs, baseline="base", rng=4, family="gatekeeping", missing="zero")
    path = tmp_path / "table.json"
    t.save(path)
    record = h.load_many_record(path)
    again = h.recompute_many(record)
    assert again.cells == t.cells and str(again) == str(t)
    assert record.settings["family"] == "gatekeeping" and record.settings["seed"] == 4
    assert record.missing_queries["down"]["P_5"] == ["q01"]
    raw = json.loads(path.read_text())
    raw["scores"]["ndcg"]["up"][0] += 0.01
    path.write_text(json.dumps(raw))
    with pytest.raises(ValueError, match=r"scores do not match the record's scores_sha256"):
        h.load_many_record(path)
    path.write_text("{}")
    with pytest.raises(ValueError, match=r"not a many-runs record"):
        h.load_many_record(path)


def test_forest_plot():
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    t = h.compare_many(_runs(), baseline="base", rng=1)
    ax = t.plot(ax=Figure().subplots())
    labels = [x.get_text() for x in ax.get_yticklabels()]
    assert labels[0] == "ndcg · up" + (" *" if t.cells[0].marked else "")
    assert len(labels) == 6 and ax.get_xlabel() == "Mean change, run - baseline"


def test_plot_forest_iv():
    from matplotlib.figure import Figure

    def good():
        return {
            "labels": ["B", "C"],
            "changes": [0.02, -0.01],
            "intervals": [(0.01, 0.03), (-0.03, 0.01)],
            "marked": [True, False],
            "ax": Figure().subplots(),
        }

    with pytest.raises(ValueError, match=r"must have the same, non-zero length"):
        h.plot_forest(**good() | {"marked": [True]})
    with pytest.raises(ValueError, match=r"groups must have one entry per row: 2 rows but 1"):
        h.plot_forest(**good() | {"groups": ["ndcg"]})
    with pytest.raises(ValueError, match=r"^changes contain NaN"):
        h.plot_forest(**good() | {"changes": [0.02, float("nan")]})
    ax = h.plot_forest(**good())
    assert [t.get_text() for t in ax.get_yticklabels()] == ["B *", "C"]
    assert ax.get_xlabel() == "Mean change, run - baseline" and ax.get_title()


def _example(name):
    runs = ["base", "expansion", "reranker", "stemming", "tuned"]
    measures = ["ndcg_cut_10", "P_5", "recip_rank"]
    return {
        r: {m: h.read_scores_csv(DATA / name, score=f"{r}:{m}") for m in measures} for r in runs
    }


def test_against_ranx_compare():
    """ranx's compare, where ranx is installed (a test-only oracle, not in the environment): its
    paired t-test p-values equal scipy's, and its Fisher randomization p-values lie within Monte
    Carlo error (four standard errors) of our exact ones. compare scores runs itself from run
    files; our example ships per-query scores, so they go to the statistics step compare calls
    next (``compute_statistical_significance``), which is ranx's own code for the table's marks.
    ranx applies no multiple-testing correction, so only the raw p-values are compared."""
    stat = pytest.importorskip(
        "ranx.statistical_tests",
        reason="ranx is not installed (a test-only oracle; in a scratch venv: pip install ranx)",
    )
    runs = _example("simulated_many_runs.csv")
    table = h.compare_many(runs, baseline="base", rng=2026)
    ids = table.query_ids["ndcg_cut_10"]
    scores = {r: {m: np.array([s.scores[q] for q in ids]) for m, s in by.items()}
              for r, by in runs.items()}  # fmt: skip
    n = 20_000
    fisher = stat.compute_statistical_significance(list(runs), scores, "fisher", n, 0.05, 42)
    student = stat.compute_statistical_significance(list(runs), scores, "student", n, 0.05, 42)
    for c in table.cells:
        pair = frozenset(["base", c.run])
        p = fisher[pair][c.measure]["p_value"]
        # ranx compares |mean change| with ">=" and no tolerance, so of the sign assignments
        # that tie with the observed one (many on P@5's coarse grid) floating-point rounding
        # counts only some: its p lies between the exact p without the ties and with them
        res = h.randomization_test(scores[c.run][c.measure] - scores["base"][c.measure])
        null, prob = res.null_distribution, res.null_probabilities
        tol = 1e-9 * np.abs(scores[c.run][c.measure] - scores["base"][c.measure]).mean()
        strict = prob[np.abs(null) > abs(res.statistic) + tol].sum()
        assert res.pvalue == c.pvalue
        error = 4 * np.sqrt(c.pvalue * (1 - c.pvalue) / n) + 1 / n
        assert strict - error <= p <= c.pvalue + error
        if c.measure != "P_5":  # few ties: within Monte Carlo error of the exact p
            assert abs(p - c.pvalue) <= error
        t = stats.ttest_rel(scores["base"][c.measure], scores[c.run][c.measure]).pvalue
        assert student[pair][c.measure]["p_value"] == pytest.approx(t, rel=1e-9, abs=1e-300)


def test_corrected_readjusts_the_same_cells():
    runs = _runs()
    base = h.compare_many(runs, baseline="base", rng=1)
    for family in ("per measure", "gatekeeping"):
        for correction in ("holm", "bonferroni"):
            fresh = h.compare_many(
                runs, baseline="base", rng=1, family=family, correction=correction, alpha=0.1
            )
            again = base.corrected(family=family, correction=correction, alpha=0.1)
            assert again.cells == fresh.cells and str(again) == str(fresh)
    with pytest.raises(ValueError, match=r"^family must be one of"):
        base.corrected(family="every")


def test_every_medium_names_the_baseline():
    runs = _runs()
    runs = {("BM25_base" if r == "base" else r): v for r, v in runs.items()}
    t = h.compare_many(runs, baseline="BM25_base", rng=1)
    title = "BM25_base (baseline) against 3 runs"
    assert t.title() == title and str(t).splitlines()[0] == title
    assert t.to_markdown().startswith(f"**{title}**\n\n| measure | run |")
    tex = t.to_latex().splitlines()
    assert tex[1:3] == [
        r"\multicolumn{11}{l}{BM25\_base (baseline) against 3 runs} \\",
        r"\toprule",
    ]
    assert f"<caption>{title}</caption>" in t._repr_html_()


def test_the_text_fits_88_characters_with_long_names_and_long_legends():
    runs = _runs(continuous=True)  # Monte Carlo cells: the legend names them
    long = "bm25+rm3+monoT5-3B-reranker-2024"
    runs = {(long if r == "up" else r): v for r, v in runs.items()}
    del runs["flat"]["P_5"]["q03"]  # the legend names a missing query
    for family in ("all", "per measure", "gatekeeping"):
        t = h.compare_many(
            runs, baseline="base", rng=1, missing="zero", family=family, correction="bonferroni"
        )
        text = str(t)
        lines = text.splitlines()
        assert max(map(len, lines)) <= 88, max(lines, key=len)
        assert long in lines  # a name too long for its column stands on its own line
        for c in t.cells:  # each cell's numbers on one line: never a number split
            iv = f"[{h.signed(c.interval.low, 4)}, {h.signed(c.interval.high, 4)}]"
            row = [f"{c.run_mean:.4f}", h.signed(c.change, 4), iv, f"{c.up}/{c.down}/{c.unchanged}"]
            assert any(all(x in line for x in row) for line in lines), (c.run, c.measure)
        for shown in t.legend():  # the legend whole, wrapped by meaning
            assert flat(shown) in flat(text)
        assert f"{t.measures[0]}: 40 queries, baseline mean" in text
        assert text.count("  *\n") == t.n_marked


def test_a_runs_unjudged_topics_travel_with_its_scores():
    """evaluate's list of a run's topics the qrels do not judge (issue 38) is kept when
    compare_many checks each run's measures."""
    from helpers.runs.many_runs import _measures_of
    from helpers.runs.readers import RunScores

    run = RunScores({"q1": 0.5}, "P_5", "a.run", unretrieved=["q2"], unjudged=["x9"])
    kept = _measures_of("a", {"P_5": run})["P_5"]
    assert (kept.source, kept.unretrieved, kept.unjudged) == ("a.run", ["q2"], ["x9"])


def test_a_monte_carlo_p_is_shown_as_it_is_known_in_every_medium():
    # off the score grid: Monte Carlo p-values; one run far better (0 of R), one a little
    rng = np.random.default_rng(3)
    base = {f"q{i}": float(x) for i, x in enumerate(rng.uniform(0, 0.5, 40))}
    far = {q: v + 0.3 + 0.01 * rng.random() for q, v in base.items()}
    near = {q: v + rng.normal(0.02, 0.2) for q, v in base.items()}
    runs = {"base": {"m": base}, "far": {"m": far}, "near": {"m": near}}
    table = h.compare_many(runs, baseline="base", rng=1, n_resamples=10_000)
    cell = table.cell("near", "m")
    assert not cell.pvalue_exact and table.cell("far", "m").pvalue == 1 / 10_001
    shown = f"{cell.pvalue:.4f}±{(cell.pvalue * (1 - cell.pvalue) / 10_000) ** 0.5:.4f}"
    for text in (str(table), table.to_markdown(), table._repr_html_()):
        assert "<0.0003" in html.unescape(text) and shown in text
        assert "0.0000" not in text and "0.0001" not in text
        legend = " ".join(html.unescape(text).split())
        assert "Monte Carlo standard error sqrt(p(1 - p)/R)" in legend
        assert "as <3/R, a 95% upper bound, when no resample was as extreme" in legend
    # issue 52: an adjusted Monte Carlo p carries its error: Bonferroni's 2p moves by 2 standard
    # errors when p moves by one (up to the ceiling of 1)
    se = (cell.pvalue * (1 - cell.pvalue) / 10_000) ** 0.5
    bonferroni = table.corrected(correction="bonferroni")
    adjusted = f"{2 * cell.pvalue:.4f}±{min(1.0, 2 * (cell.pvalue + se)) - 2 * cell.pvalue:.4f}"
    assert adjusted in str(bonferroni) and adjusted in bonferroni.to_markdown()
    latex = table.to_latex()
    assert "$<$0.0003" in latex and shown.replace("±", r"$\pm$") in latex
