"""trec_eval's measures in numpy (helpers.scoring, through helpers.evaluate), checked two ways.

1. Against trec_eval's own expected outputs: every per-query value of every measure
   helpers.scoring computes, in the outputs of trec_eval's own test suite (``-q``, ``-c``,
   ``-M100``, ``-l2`` and measures with parameters), must print the same to trec_eval's 4
   decimals; the averages of ``out.test`` and ``out.comment.test`` too. The files are NIST's
   and stay outside the project, in ``../shared/trec_eval-test/`` (see its README).
2. Against trec_eval's C code itself (pytrec-eval-terrier, installed by ``make env`` only
   where it has a wheel, from requirements-oracle.txt) on thousands of random, tie-heavy,
   graded rankings, to 1e-12.

And, on a small hand-written fixture (tests/trec_files.py), against each measure computed from
its definition in plain Python, and through compare_runs with the qrels.
"""

from __future__ import annotations

import math
import os
import platform
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from trec_files import QRELS_TEXT, RUN_TEXT, TREC_EVAL

from helpers import compare_runs
from helpers.runs.readers import Qrels, Run, read_qrels, read_run, read_scores_csv, read_trec_eval
from helpers.runs.scoring import MEASURES, evaluate, measure_function, rank_topic

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "notebooks" / "data"
TREC_EVAL_TEST = TREC_EVAL
needs_trec_eval_test = pytest.mark.skipif(
    not (TREC_EVAL_TEST / "README.md").is_file(),
    reason=(
        f"trec_eval's test files are not in {TREC_EVAL_TEST} (the test/ folder of "
        "usnistgov/trec_eval with NIST's notice; they are kept outside the project, see "
        "docs/your-own-runs.md)"
    ),
)

#: trec_eval's expected output -> (qrels, run, -l, -M, -c), from its own test target
#: (README.md beside the files).
OUTPUTS = {
    "out.test.aq": ("qrels.test", "results.test", 1, None, False),
    "out.test.aqc": ("qrels.test", "results.trunc", 1, None, True),
    "out.test.aqcM": ("qrels.test", "results.trunc", 1, 100, True),
    "out.test.aql": ("qrels.rel_level", "results.test", 2, None, False),
    "out.test.meas_params": ("qrels.test", "results.test", 1, None, False),
    "out.test": ("qrels.test", "results.test", 1, None, False),
    "out.test with comments": ("qrels.test.with-comments", "results.test", 1, None, False),
    "out.comment.test": ("qrels.comment.test", "results.comment.test", 1, None, False),
}
#: The outputs that print only the averages (the "all" rows).
AVERAGES_ONLY = {"out.test", "out.test with comments", "out.comment.test"}
#: Measures whose "all" row is a sum over topics, not a mean.
SUMMED = {"num_ret", "num_rel", "num_rel_ret"}


def _computes(name: str) -> bool:
    try:
        measure_function(name)
    except ValueError:
        return False
    return True


def _rows(output: str) -> list[tuple[str, str, str]]:
    path = TREC_EVAL_TEST / output.split()[0]
    return [tuple(line.split()) for line in path.read_text().splitlines()]


def _printed(measure: str, value: float) -> str:
    """The value as trec_eval prints it: counts as integers, the rest with 4 decimals."""
    return str(round(value)) if measure in SUMMED else f"{value:.4f}"


def agreements(output: str) -> dict[tuple[str, str], tuple[int, int]]:
    """{(measure, "per query" or "all"): (values printed as trec_eval printed them, values
    compared)} for one output file, over every measure that helpers.scoring computes.
    """
    qrels_file, run_file, level, max_docs, complete = OUTPUTS[output]
    qrels = read_qrels(TREC_EVAL_TEST / qrels_file)
    run = read_run(TREC_EVAL_TEST / run_file)
    counts: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    evaluated: dict[str, dict[str, float]] = {}
    for measure, topic, printed in _rows(output):
        if not _computes(measure):
            continue
        if measure not in evaluated:
            evaluated[measure] = evaluate(
                qrels, run, measure, level=level, max_docs=max_docs
            ).scores
        scores = evaluated[measure]
        if topic == "all":
            # without -c, trec_eval averages over the topics the run retrieved something for
            values = [v for q, v in scores.items() if complete or q in run.rankings]
            value = sum(values) if measure in SUMMED else float(np.mean(values))
        else:
            value = scores[topic]
        kind = "all" if topic == "all" else "per query"
        counts[measure, kind][0] += _printed(measure, value) == printed
        counts[measure, kind][1] += 1
    return {key: (agree, total) for key, (agree, total) in counts.items()}


#: What each file must hold of the measures the series uses, so that the check cannot pass empty.
MUST_COMPARE = {
    "out.test.aq": {"map", "P_10", "recip_rank", "success_1", "ndcg_cut_10", "ndcg", "map_cut_10"},
    "out.test.aqc": {"map", "P_10", "recip_rank", "success_1", "ndcg_cut_10", "ndcg"},
    "out.test.aqcM": {"map", "P_10", "recip_rank", "success_1", "ndcg_cut_10", "ndcg"},
    "out.test.aql": {"map", "P_10", "recip_rank", "success_1", "ndcg_cut_10", "ndcg"},
    "out.test.meas_params": {"P_7", "ndcg_cut_23", "success_2", "recall_2000"},
    "out.test": {"map", "P_10", "recip_rank", "Rprec", "num_rel_ret"},
    "out.test with comments": {"map", "P_10", "recip_rank", "Rprec", "num_rel_ret"},
    "out.comment.test": {"map", "P_10", "recip_rank", "Rprec", "num_rel_ret"},
}


@needs_trec_eval_test
@pytest.mark.parametrize("output", list(OUTPUTS))
def test_every_value_prints_as_trec_evals_own_output(output):
    found = agreements(output)
    kind = "all" if output in AVERAGES_ONLY else "per query"
    compared = {m for m, k in found if k == kind}
    assert MUST_COMPARE[output] <= compared, sorted(MUST_COMPARE[output] - compared)
    differ = {key: counts for key, counts in found.items() if counts[0] != counts[1]}
    assert not differ, f"{output}: values that differ from trec_eval's (agree, compared): {differ}"


@needs_trec_eval_test
def test_topics_a_run_missed_are_scored_on_an_empty_ranking_as_trec_eval_c_does():
    # results.trunc has no line for topic 302; trec_eval -c prints its rows: num_rel 77, the rest 0
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.test")
    run = read_run(TREC_EVAL_TEST / "results.trunc")
    assert "302" not in run.rankings
    assert evaluate(qrels, run, "num_rel").scores["302"] == 77
    assert evaluate(qrels, run, "map").unretrieved == ["302"]


@needs_trec_eval_test
def test_comment_lines_and_hashes_inside_ids_are_read_as_trec_eval_reads_them():
    plain = read_qrels(TREC_EVAL_TEST / "qrels.test").judgments
    commented = read_qrels(TREC_EVAL_TEST / "qrels.test.with-comments").judgments
    # its '#' lines are comments, but the '#' of 'CR#93E-1860' is part of a document ID
    assert commented["301"].pop("CR#93E-1860") == plain["301"].pop("CR93E-1860") == 0
    assert commented == plain
    run = read_run(TREC_EVAL_TEST / "results.comment.test")
    assert sum(map(len, run.rankings.values())) == 30100
    assert any("#" in doc for docs in run.rankings.values() for doc in docs)


@needs_trec_eval_test
def test_fields_after_the_run_id_are_ignored_as_trec_eval_ignores_them():
    lines = (TREC_EVAL_TEST / "results.trunc").read_text().splitlines()
    assert any(len(line.split()) > 6 for line in lines)  # "... STANDARD more junk at"
    run = read_run(TREC_EVAL_TEST / "results.trunc")
    full = read_run(TREC_EVAL_TEST / "results.test")
    assert run.tag == "STANDARD"
    assert all(run.rankings[q].items() <= full.rankings[q].items() for q in run.rankings)


# --- The rules, each on a small case ---------------------------------------------------------


def test_ties_go_to_the_larger_document_id_whatever_the_order_in_the_file():
    judged = {"d1": 1, "d10": 0, "d2": 0}
    for ranking in ({"d1": 1.0, "d10": 1.0, "d2": 1.0}, {"d2": 1.0, "d10": 1.0, "d1": 1.0}):
        topic = rank_topic(ranking, judged)
        assert topic.grades.tolist() == [0, 0, 1]  # d2, d10, d1: as strings, "d2" > "d10" > "d1"
        assert measure_function("recip_rank")(topic) == pytest.approx(1 / 3)


def _tie_heavy_files(rng: np.random.Generator, folder: Path) -> tuple[Path, Path]:
    """A run (TREC or MS MARCO format) with ties, IDs that are prefixes of others and up to 20
    characters, topics written score down or not, and qrels that judge some of its documents,
    some it does not retrieve, some longer than any it retrieves, and some for other topics."""
    run, qrels = [], []
    ms_marco = rng.random() < 0.3
    for t in range(int(rng.integers(1, 8))):
        ids = ["d1", "d10", "d1x", "d2", "D", "clueweb-0001-00001", "clueweb-0001-00001x"]
        ids += [f"d{k}" * int(rng.integers(1, 4)) for k in range(int(rng.integers(0, 30)))]
        docs = list(dict.fromkeys(rng.permutation(ids).tolist()))[: int(rng.integers(1, 40))]
        scores = np.round(rng.normal(size=len(docs)), int(rng.integers(0, 2)))
        scores = np.sort(scores)[::-1] if rng.random() < 0.7 else scores
        for i, (d, s) in enumerate(zip(docs, scores.tolist(), strict=True)):
            run.append(f"q{t}\t{d}\t{i + 1}" if ms_marco else f"q{t} Q0 {d} {i + 1} {s} t")
        judged = [*rng.choice(docs, size=len(docs) // 2, replace=False).tolist(), "unretrieved",
                  "a-document-id-longer-than-any-retrieved", f"d{t + 1}"]  # fmt: skip
        qrels += [f"q{t} 0 {d} {int(rng.integers(0, 4))}" for d in dict.fromkeys(judged)]
    (folder / "run.txt").write_text("\n".join(rng.permutation(run).tolist()) + "\n")
    (folder / "qrels.txt").write_text("\n".join(qrels) + "\n")
    return folder / "run.txt", folder / "qrels.txt"


@pytest.mark.filterwarnings("ignore:.*trec_eval ranks documents by score")  # (some topics)
def test_a_read_run_is_scored_exactly_as_the_same_rankings_given_as_dicts(tmp_path):
    # read_run's columns are put in trec_eval's order by numpy, over the whole run at once; a
    # Run of dicts by rank_topic, a topic at a time: the same scores bit for bit, the same check
    measures = ["map", "ndcg_cut_10", "P_5", "recip_rank", "Rprec", "ndcg", "num_rel_ret"]
    rng = np.random.default_rng(52)
    for _ in range(60):
        run_path, qrels_path = _tie_heavy_files(rng, tmp_path)
        qrels, run = read_qrels(qrels_path), read_run(run_path)
        as_dicts = Run(dict(run.rankings), run.source, run.tag)
        assert not isinstance(run.rankings, dict)  # read_run's columns
        for settings in ({}, {"level": 2}, {"max_docs": 3}):
            out = []
            for r in (run, as_dicts):
                try:
                    scores = evaluate(qrels, r, measures, check_topics=False, **settings)
                    out.append([(s.scores, s.unretrieved, s.unjudged) for s in scores])
                except ValueError as err:  # documents the qrels do not know: the same words
                    out.append(str(err))
            assert out[0] == out[1], (run_path.read_text(), settings)


def test_scores_are_compared_in_full_precision():
    # trec_eval reads scores as doubles (usnistgov/trec_eval#38, for issue #34); the older
    # trec_eval inside pytrec-eval-terrier 0.5.11 keeps 32-bit floats, which tie these two
    topic = rank_topic({"a": 1.0 + 1e-9, "b": 1.0}, {"a": 1})
    assert topic.grades.tolist() == [1, -1]


def test_relevance_level_and_graded_gains():
    topic = rank_topic({"a": 3.0, "b": 2.0, "c": 1.0}, {"a": 1, "b": 2, "c": 0}, level=2)
    assert measure_function("P_1")(topic) == 0.0 and measure_function("recip_rank")(topic) == 0.5
    # nDCG's gains are the grades, whatever the level: (1 + 2/log2(3)) / (2 + 1/log2(3))
    expected = (1 + 2 / np.log2(3)) / (2 + 1 / np.log2(3))
    assert measure_function("ndcg")(topic) == pytest.approx(expected, abs=1e-15)


def test_precision_divides_by_k_and_max_docs_truncates():
    topic = rank_topic({"a": 2.0, "b": 1.0}, {"a": 1, "b": 1, "z": 1})
    assert measure_function("P_10")(topic) == 0.2  # 2 relevant of 10, though 2 were retrieved
    assert measure_function("map")(topic) == pytest.approx(2 / 3)  # over all 3 relevant
    short = rank_topic({"a": 2.0, "b": 1.0}, {"a": 1, "b": 1, "z": 1}, max_docs=1)
    assert measure_function("num_ret")(short) == 1 and measure_function("map")(short) == 1 / 3


def test_every_measure_name_is_read_and_others_are_refused():
    assert {n for n in MEASURES if not n.endswith("_k")} == {
        "num_ret",
        "num_rel",
        "num_rel_ret",
        "map",
        "Rprec",
        "recip_rank",
        "ndcg",
    }
    for name in ("P_0", "P", "P_k", "bpref", "nDCG@0", "ndcg_cut_1.5", "P_٣", "", "P_5\n"):
        with pytest.raises(ValueError, match=re.escape(f"measure {name!r} is not one evaluate")):
            measure_function(name)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"level": -1}, r"level \(trec_eval's -l\) must be a non-negative integer; got -1"),
        ({"level": 1.5}, r"level \(trec_eval's -l\) must be a non-negative integer; got 1\.5"),
        ({"max_docs": 0}, r"max_docs \(trec_eval's -M\) must be a positive integer; got 0"),
        ({"max_docs": "10"}, r"max_docs \(trec_eval's -M\) must be a positive integer; got '10'"),
    ],
)
def test_evaluate_iv(kwargs, match):
    qrels, run = Qrels({"q1": {"d1": 1}}), Run({"q1": {"d1": 1.0}})
    with pytest.raises(ValueError, match=match):
        evaluate(qrels, run, "P_5", **kwargs)


@pytest.mark.parametrize(
    "qrels, run, match",
    [
        ({"q1": {"d1": 1.5}}, {"q1": {"d1": 1.0}}, r"qrels: query 'q1', document 'd1' has 1\.5"),
        ({"q1": {"d1": "1"}}, {"q1": {"d1": 1.0}}, r"qrels: .* has '1'; evaluate needs text IDs"),
        ({"q1": {"d1": 1}}, {"q1": {"d1": "2.0"}}, r"run: query 'q1', document 'd1' has '2\.0'"),
        ({"q1": {"d1": 1}}, {"q1": {"d1": float("nan")}}, r"run: .* has nan; .* finite numbers"),
        ({"q1": {"d1": 1}}, {"q1": {7: 1.0}}, r"run: query 'q1', document 7 has 1\.0"),
    ],
)
def test_evaluate_refuses_qrels_and_runs_made_by_hand_with_the_wrong_types(qrels, run, match):
    with pytest.raises(ValueError, match=match):
        evaluate(Qrels(qrels), Run(run), "P_5")


# --- Against trec_eval's C code (pytrec-eval-terrier), where it installs ----------------------

ORACLE_MISSING = (
    "pytrec-eval-terrier (trec_eval's C code; the test-only oracle of requirements-oracle.txt) is "
    f"not installed here ({platform.system()} {platform.machine()}, Python "
    f"{platform.python_version()}): make env installs it only from a wheel, and it publishes "
    "none for some platforms (Linux arm64). helpers.evaluate does not need it"
)

#: Every measure, with cutoffs below, at and beyond the rankings' lengths.
ORACLE_MEASURES = ["num_ret", "num_rel", "num_rel_ret", "map", "Rprec", "recip_rank", "ndcg"] + [
    f"{family}_{k}"
    for family in ("P", "recall", "success", "map_cut", "ndcg_cut")
    for k in (1, 2, 3, 5, 10, 30)
]


def _random_topics(rng: np.random.Generator, n_topics: int) -> tuple[dict, dict]:
    """Qrels and a run of random, tie-heavy, graded rankings (grades -1 to 4, some unjudged)."""
    ids = ["d1", "d10", "d2", "D3", "d#4", "d_5", "é6", "d-7", "z", "a"] + [
        f"doc{i}" for i in range(30)
    ]
    qrels, run = {}, {}
    for t in range(n_topics):
        q = f"t{t}"
        judged = rng.choice(ids, size=rng.integers(1, 25), replace=False)
        grades = rng.choice([-1, 0, 0, 0, 1, 1, 2, 3, 4], size=judged.size)
        qrels[q] = {str(d): int(g) for d, g in zip(judged, grades, strict=True)}
        n_ret = rng.integers(0, 35)
        if n_ret:
            docs = rng.choice(ids, size=n_ret, replace=False)
            scores = rng.choice([0.0, 0.5, 1.0, 2.0, -1.0, 1e-30, -1e30], size=n_ret)
            if rng.random() < 0.3:
                scores = rng.normal(size=n_ret)  # no ties
            # 32-bit floats: pytrec-eval-terrier's trec_eval ranks by scores rounded to them
            run[q] = {
                str(d): float(s) for d, s in zip(docs, scores.astype(np.float32), strict=True)
            }
    return qrels, run


def test_agrees_with_trec_evals_c_code_on_random_rankings():
    try:
        import pytrec_eval
    except ImportError:
        if os.environ.get("REQUIRE_ORACLE") == "1":
            pytest.fail(ORACLE_MISSING + " (required here: REQUIRE_ORACLE=1)")
        pytest.skip(ORACLE_MISSING)
    qrels, run = _random_topics(np.random.default_rng(2026), 1000)
    functions = {m: measure_function(m) for m in ORACLE_MEASURES}
    worst, compared = 0.0, 0
    for level in (1, 2, 3, 4):  # pytrec_eval takes positive levels only
        oracle = pytrec_eval.RelevanceEvaluator(qrels, set(ORACLE_MEASURES), relevance_level=level)
        expected = oracle.evaluate(run)
        assert set(expected) == set(run)  # pytrec_eval scores the topics the run retrieved for
        for q, values in expected.items():
            topic = rank_topic(run[q], qrels[q], level=level)
            for measure, function in functions.items():
                worst = max(worst, abs(function(topic) - values[measure]))
                compared += 1
    assert worst <= 1e-12
    assert compared == 4 * len(ORACLE_MEASURES) * len(run) > 80_000


# --- evaluate on a small hand-checked fixture, and through compare_runs -------------------


def _ranking(docs: dict[str, float]) -> list[str]:
    # trec_eval ranks by score; the fixture has no ties
    return [d for d, _ in sorted(docs.items(), key=lambda kv: -kv[1])]


def _independent(qrels: dict, run: dict, measure: str) -> dict[str, float]:
    """Each measure from its definition (trec_eval's), for every judged topic; 0 where nothing was
    retrieved.
    """
    out = {}
    for q, judged in qrels.items():
        ranked = _ranking(run.get(q, {}))
        grades = [judged.get(d, 0) for d in ranked]
        rel = [g > 0 for g in grades]
        n_rel = sum(g > 0 for g in judged.values())
        if measure == "P_5":
            out[q] = sum(rel[:5]) / 5
        elif measure == "success_5":
            out[q] = float(any(rel[:5]))
        elif measure == "recip_rank":
            out[q] = next((1 / (i + 1) for i, r in enumerate(rel) if r), 0.0)
        elif measure == "map":
            hits, total = 0, 0.0
            for i, r in enumerate(rel):
                if r:
                    hits += 1
                    total += hits / (i + 1)
            out[q] = total / n_rel
        elif measure == "ndcg_cut_10":
            dcg = sum(g / math.log2(i + 2) for i, g in enumerate(grades[:10]))
            ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:10]
            idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
            out[q] = dcg / idcg
    return out


@pytest.fixture
def fixture_files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS_TEXT)
    (tmp_path / "run.txt").write_text(RUN_TEXT)
    return tmp_path / "qrels.txt", tmp_path / "run.txt"


@pytest.mark.parametrize("measure", ["P_5", "success_5", "recip_rank", "map", "ndcg_cut_10"])
def test_evaluate_agrees_with_an_independent_computation(fixture_files, measure):
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    got = evaluate(qrels, run, measure)
    expected = _independent(qrels.judgments, run.rankings, measure)
    assert list(got.scores) == [
        "t1",
        "t2",
        "t3",
        "t4",
    ]  # the judged topics; t9 (not judged) is left out
    assert got.scores == pytest.approx(expected, abs=1e-12)
    assert got.unretrieved == ["t4"] and got.scores["t4"] == 0.0


def test_the_fixture_is_not_trivial(fixture_files):
    # the independent values differ between measures and topics, so the test above can fail
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    values = {
        m: _independent(qrels.judgments, run.rankings, m)
        for m in ["P_5", "recip_rank", "map", "ndcg_cut_10"]
    }
    assert values["recip_rank"]["t1"] == pytest.approx(1 / 3)
    assert values["P_5"]["t1"] == pytest.approx(2 / 5)
    assert len({round(v["t1"], 6) for v in values.values()}) == 4


def test_evaluate_refuses_unknown_measures_and_swapped_arguments(fixture_files):
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    for typed, meant in [
        ("ndcg_10", "'ndcg_cut_10'"),
        ("P10", "'P_10'"),
        ("nDCG_10", "'nDCG@10'"),
        ("ndgc_cut_5", "'ndcg_cut_5'"),
        ("recip_rnk", "'recip_rank'"),
        ("RR@10x", "'RR@10'"),  # not a bare int() error
        ("RR@0", "'RR@10'"),  # a cutoff of 0 is no cutoff
    ]:
        with pytest.raises(ValueError, match=rf"'{typed}' is not one .*did you mean .*{meant}"):
            evaluate(qrels, run, typed)
    with pytest.raises(
        ValueError,
        match=(
            r"qrels must come from read_qrels\(path\); got Run\. "
            r"\(Arguments are evaluate\(qrels, run, measure\)\.\)"
        ),
    ):
        evaluate(run, qrels, "P_5")


def test_compare_runs_with_qrels_scores_topics_in_neither_run_0_and_records_it(fixture_files):
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    full = evaluate(qrels, run, "P_5")  # t4 retrieved nothing: scored 0
    a = {q: v for q, v in full.scores.items() if q != "t4"}  # as trec_eval -q without -c writes it
    b = {q: v + 0.1 for q, v in a.items()} | {"t4": 0.2}
    with pytest.raises(ValueError, match=r"1 only in B \('t4'\)"):
        compare_runs(a, b, rng=1, qrels=qrels, min_queries=4)
    rep = compare_runs(a, b, rng=1, qrels=qrels, missing="zero", min_queries=4, n_resamples=200)
    assert rep.runs.query_ids == ["t1", "t2", "t3", "t4"] and rep.mean_a == pytest.approx(
        np.mean(list(full.scores.values()))
    )
    neither = compare_runs(
        {"t1": 0.5, "t2": 0.4},
        {"t1": 0.6, "t2": 0.4},
        rng=1,
        qrels=qrels,
        missing="zero",
        min_queries=4,
        n_resamples=200,
    )
    assert neither.runs.in_neither == ["t3", "t4"] and neither.n_queries == 4
    config = neither.to_record().config
    assert config["qrels"] == str(fixture_files[0]) and config["in_neither"] == ["t3", "t4"]
    assert "2 in neither, scored 0 where missing" in neither.runs.summary()
    with pytest.raises(ValueError, match=r"2 judged topics are in neither run \('t3', 't4'\)"):
        compare_runs(
            {"t1": 0.5, "t2": 0.4}, {"t1": 0.6, "t2": 0.4}, rng=1, qrels=qrels, min_queries=1
        )
    dropped = compare_runs(
        {"t1": 0.5, "t2": 0.4},
        {"t1": 0.6, "t2": 0.4},
        rng=1,
        qrels=qrels,
        missing="drop",
        min_queries=2,
        n_resamples=200,
    )
    assert dropped.runs.query_ids == ["t1", "t2"]
    with pytest.raises(
        ValueError, match=r"Run A scores 1 queries that the qrels do not judge \('t9'\)"
    ):
        compare_runs({"t9": 0.5, "t1": 0.1}, {"t1": 0.6}, rng=1, qrels=qrels, missing="zero")


def test_evaluated_runs_say_which_topics_were_scored_0(fixture_files):
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    a = evaluate(qrels, run, "P_5")
    b = evaluate(qrels, Run({q: d for q, d in run.rankings.items() if q != "t3"}, "b.run"), "P_5")
    rep = compare_runs(a, b, rng=1, min_queries=4, n_resamples=200, missing="zero")
    assert rep.to_record().config["retrieved_nothing"] == {"A": ["t4"], "B": ["t3", "t4"]}
    assert rep.to_record().config["scored_with"] == a.made  # measure, level, max_docs, qrels
    # the run's topic t9, which the qrels do not judge, was left out: the record says so too
    assert rep.to_record().config["unjudged_left_out"] == {"A": ["t9"], "B": ["t9"]}
    text = " ".join(str(rep).split())  # the report wraps its long lines
    assert "of these, retrieved nothing: 1 in A, 2 in B" in text


def test_example_files_agree_with_evaluate_on_the_run_files():
    qrels = read_qrels(DATA / "simulated.qrels.txt")
    for system, n in (("A", 150), ("B", 148)):
        run = read_run(DATA / f"simulated_{system}.run.txt")
        assert len(run) == n and len(qrels) == 150
        for measure in ("ndcg_cut_10", "P_5", "success_5", "recip_rank", "num_rel"):
            from_file = read_trec_eval(DATA / f"simulated_{system}.trec_eval.txt", measure).scores
            full = evaluate(qrels, run, measure)
            assert set(from_file) == set(
                run.rankings
            )  # trec_eval -q without -c: retrieved queries only
            assert all(
                abs(full.scores[q] - v) <= 5e-5 for q, v in from_file.items()
            )  # trec_eval prints 4 decimals
            assert full.unretrieved == ([] if system == "A" else ["q047", "q121"])
        csv_scores = read_scores_csv(
            DATA / "simulated_users_and_slices.csv", score=f"ndcg_cut_10_{system}"
        ).scores
        full = evaluate(qrels, run, "ndcg_cut_10").scores
        assert (
            all(abs(full[q] - v) <= 5e-5 for q, v in csv_scores.items()) and len(csv_scores) == 150
        )


# --- topic IDs checked where a run meets the qrels (issue 38, item 1) -------------------


def _renamed(source: Path, folder: Path, rename) -> Path:
    """A copy of a TREC file in ``folder`` with each line's topic ID passed through ``rename``
    (``rename`` returns None to drop the line); comment lines are kept."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            lines.append(line)
        elif (topic := rename(fields[0])) is not None:
            lines.append(" ".join([topic, *fields[1:]]))
    path = folder / source.name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@needs_trec_eval_test
@pytest.mark.parametrize(
    ("rename", "expected"),
    [
        (lambda q: "0" + q, r"leading zeros added or removed \(e\.g\. '0301' in the run, '301'"),
        (lambda q: "q" + q, r"carry a prefix 'q' that the qrels' lack \(e\.g\. 'q301' in the run"),
        (lambda q: q + "-en", r"carry a suffix '-en' that the qrels' lack"),
    ],
)
def test_a_run_whose_topics_are_spelt_otherwise_is_refused(tmp_path, rename, expected):
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.test")
    run = read_run(_renamed(TREC_EVAL_TEST / "results.test", tmp_path, rename))
    with pytest.raises(ValueError, match=expected) as err:
        evaluate(qrels, run, "map")
    message = str(err.value)
    assert "results.test against" in message and "qrels.test" in message
    assert "the qrels judge 3, 3 of them not in the run (e.g. '301', '302', '303')" in message
    assert "pass check_topics=False" in message


def test_a_run_whose_topics_differ_in_case_is_refused(fixture_files, tmp_path):
    # trec_eval's topics are numbers; the hand-written fixture's are t1, t2, ...: T1, T2, ...
    qrels = read_qrels(fixture_files[0])
    (tmp_path / "upper").mkdir()
    run = read_run(_renamed(fixture_files[1], tmp_path / "upper", str.upper))
    with pytest.raises(ValueError, match=r"judged topics with their letters in another case"):
        evaluate(qrels, run, "P_5")


@needs_trec_eval_test
def test_a_run_for_another_collections_topics_is_refused():
    # MS MARCO v2.1 topics (2024-...) against the qrels of TREC topics 301-303
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.test")
    run = read_run(TREC_EVAL_TEST / "results.comment.test")
    with pytest.raises(ValueError, match=r"no topic in common.*'2024-105741'.*'301', '302'"):
        evaluate(qrels, run, "ndcg_cut_10")


@needs_trec_eval_test
def test_a_run_with_half_the_judged_topics_renamed_is_refused(tmp_path):
    # 16 of the 31 judged MS MARCO topics renamed to another year's IDs (no pattern to see);
    # 15 renamed still leaves most judged topics in the run, and is scored
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.comment.test")
    judged = qrels.topics
    for n, refused in ((16, True), (15, False)):
        renamed = set(judged[:n])
        path = _renamed(
            TREC_EVAL_TEST / "results.comment.test",
            tmp_path,
            lambda q, renamed=renamed: q.replace("2024-", "2023-") if q in renamed else q,
        )
        run = read_run(path)
        if refused:
            with pytest.raises(ValueError, match=r"judge 31, 16 of them not in the run"):
                evaluate(qrels, run, "ndcg_cut_10")
        else:
            assert len(evaluate(qrels, run, "ndcg_cut_10").unretrieved) == 15


@needs_trec_eval_test
def test_a_run_with_one_extra_unjudged_topic_is_scored_and_says_so(tmp_path):
    # topic 304 (a copy of 301's ranking) is judged by no qrels line: left out, and named
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.test")
    plain = read_run(TREC_EVAL_TEST / "results.test")
    lines = (TREC_EVAL_TEST / "results.test").read_text(encoding="utf-8").splitlines()
    extra = [line.replace("301", "304", 1) for line in lines if line.startswith("301")]
    path = tmp_path / "results.test"
    path.write_text("\n".join(lines + extra) + "\n", encoding="utf-8")
    run = read_run(path)
    assert set(run.rankings) == {"301", "302", "303", "304"}
    scored, expected = evaluate(qrels, run, "map"), evaluate(qrels, plain, "map")
    assert scored.scores == expected.scores and list(scored.scores) == ["301", "302", "303"]
    assert scored.unjudged == ["304"] and expected.unjudged == []
    report = compare_runs(expected, scored, rng=1, min_queries=3, n_resamples=200)
    text = " ".join(str(report).split())  # the report wraps its long lines
    assert "not judged, left out by evaluate (as trec_eval): 0 in A, 1 in B ('304')" in text


@needs_trec_eval_test
def test_check_topics_false_scores_a_mismatch_as_trec_eval_does(tmp_path):
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.test")
    run = read_run(_renamed(TREC_EVAL_TEST / "results.test", tmp_path, lambda q: "q" + q))
    got = evaluate(qrels, run, "map", check_topics=False)
    assert got.scores == {"301": 0.0, "302": 0.0, "303": 0.0}
    assert got.unretrieved == ["301", "302", "303"] and got.unjudged == ["q301", "q302", "q303"]
    with pytest.raises(ValueError, match="check_topics must be True or False; got 'no'"):
        evaluate(qrels, run, "map", check_topics="no")


def test_the_example_run_with_its_leading_zeros_dropped_is_refused(tmp_path):
    # chapter 7's run B as q1, q2, ... against qrels q001, q002, ...: 98 of its 148 topics would
    # score 0 and compare_runs would report a large, confident loss
    qrels = read_qrels(DATA / "simulated.qrels.txt")
    path = _renamed(DATA / "simulated_B.run.txt", tmp_path, lambda q: "q" + str(int(q[1:])))
    with pytest.raises(ValueError, match=r"98 of the run's topics .* \(e\.g\. 'q1' in the run, "):
        evaluate(qrels, read_run(path), "ndcg_cut_10")


def test_few_unjudged_topics_or_unretrieved_ones_are_not_a_mismatch():
    from helpers.runs.scoring import _topic_mismatch

    judged = {f"{t}" for t in range(301, 351)}
    assert _topic_mismatch(judged | {"351", "352"}, judged) is None  # extra topics only
    assert _topic_mismatch(judged - {"301", "302"}, judged) is None  # retrieved nothing
    assert _topic_mismatch(judged - {"301"} | {"999"}, judged) is None  # one of each
    # a number inside another ('30' in '301') and a letter inside a word are no affix
    assert _topic_mismatch({"301", "a", "b"}, {"30", "abc", "b"}) is not None
    assert "prefix" not in _topic_mismatch({"301", "a", "b"}, {"30", "abc", "b"})


# --- issue 48: the names engineers type, another collection, how scores were made ---------

#: ir-measures' names (and MAP, MRR) with the trec_eval measure each must equal.
ALIASES = {
    "nDCG@10": "ndcg_cut_10",
    "P@10": "P_10",
    "RR": "recip_rank",
    "AP": "map",
    "MAP": "map",
    "mrr": "recip_rank",
    "R@1000": "recall_1000",
    "AP@10": "map_cut_10",
    "nDCG": "ndcg",
    "Success@5": "success_5",
    "Rprec": "Rprec",
    "NumRelRet": "num_rel_ret",
}


def _alias_inputs():
    files = [(DATA / "simulated.qrels.txt", DATA / "simulated_B.run.txt")]
    if (TREC_EVAL_TEST / "qrels.test").is_file():
        files += [
            (TREC_EVAL_TEST / q, TREC_EVAL_TEST / r)
            for q, r in [("qrels.test", "results.test"), ("qrels.rel_level", "results.test")]
        ]
    return [(read_qrels(q), read_run(r)) for q, r in files]


def test_ir_measures_names_score_as_the_trec_eval_measures():
    pytrec_eval = pytest.importorskip("pytrec_eval", reason="pytrec-eval-terrier is the oracle")
    for qrels, run in _alias_inputs():
        oracle = pytrec_eval.RelevanceEvaluator(qrels.judgments, set(ALIASES.values()))
        expected = oracle.evaluate(dict(run.rankings))  # a dict, as pytrec_eval needs
        for alias, trec in ALIASES.items():
            got = evaluate(qrels, run, alias)
            assert got.scores == evaluate(qrels, run, trec).scores
            assert all(type(v) is float for v in got.scores.values())
            for q, values in expected.items():
                assert got.scores[q] == pytest.approx(values[trec], abs=1e-12), (alias, q)


@needs_trec_eval_test
def test_rr_at_k_is_recip_rank_with_max_docs_k_as_trec_eval_M():
    qrels = read_qrels(TREC_EVAL_TEST / "qrels.test")
    run = read_run(TREC_EVAL_TEST / "results.trunc")
    rr = evaluate(qrels, run, "RR@100").scores
    assert rr == evaluate(qrels, run, "recip_rank", max_docs=100).scores
    from_trec_eval = read_trec_eval(TREC_EVAL_TEST / "out.test.aqcM", "recip_rank").scores
    assert {q: f"{v:.4f}" for q, v in rr.items()} == {
        q: f"{v:.4f}" for q, v in from_trec_eval.items()
    }
    short = evaluate(qrels, read_run(TREC_EVAL_TEST / "results.test"), "RR@1").scores
    assert set(short.values()) <= {0.0, 1.0}


def test_evaluate_records_how_the_scores_were_made(fixture_files):
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    made = evaluate(qrels, run, "nDCG@10", level=2, max_docs=5).made
    assert made == {"measure": "nDCG@10", "level": 2, "max_docs": 5, "qrels": qrels.fingerprint}
    reordered = Qrels(dict(reversed(list(qrels.judgments.items()))))
    assert reordered.fingerprint == qrels.fingerprint and len(qrels.fingerprint) == 12
    changed = Qrels(qrels.judgments | {"t1": {**qrels.judgments["t1"], "d2": 1}})
    assert changed.fingerprint != qrels.fingerprint


@needs_trec_eval_test
def test_a_run_of_another_collection_sharing_one_topic_is_refused(tmp_path):
    # results.test (topics 301-303) against 100 judged topics of which only 303 is its own
    lines = (TREC_EVAL_TEST / "qrels.test").read_text().splitlines()
    other = [ln for ln in lines if ln.startswith("303 ")]
    other += [f"{400 + i} 0 doc{i}-{j} {j % 2}" for i in range(99) for j in range(4)]
    (tmp_path / "other.qrels").write_text("\n".join(other) + "\n")
    qrels = read_qrels(tmp_path / "other.qrels")
    run = read_run(TREC_EVAL_TEST / "results.test")
    with pytest.raises(
        ValueError,
        match=r"most of the run's topics are not judged, and it has 1 "
        r"of the 100 judged: qrels or a run of another collection",
    ):
        evaluate(qrels, run, "map")
    # the MS MARCO-style run: 301 topics, all 31 judged ones among them, is still scored
    comment = evaluate(
        read_qrels(TREC_EVAL_TEST / "qrels.comment.test"),
        read_run(TREC_EVAL_TEST / "results.comment.test"),
        "map",
    )
    assert len(comment.scores) == 31 and len(comment.unjudged) == 270


def test_rank_topic_orders_as_the_score_then_id_sort_it_replaced_bit_for_bit():
    """rank_topic sorts by ID only when scores tie; its grades must be those of the one sort by
    (score, ID), both descending, that it replaced: on the chapter's runs, trec_eval's test runs
    (when present) and tie-heavy random rankings, with and without max_docs."""
    files = [DATA / f"simulated_{s}.run.txt" for s in "AB"]
    files += [TREC_EVAL_TEST / "results.test", TREC_EVAL_TEST / "results.trunc"]
    rankings = [r for p in files if p.is_file() for r in read_run(p).rankings.values()]
    rng = np.random.default_rng(48)
    for n in (1, 2, 5, 40):
        docs = [f"d{i}" for i in rng.permutation(n)]
        rankings.append(dict(zip(docs, rng.integers(0, 3, n).astype(float).tolist(), strict=True)))
        rankings.append(dict(zip(docs, (-0.0, 0.0) * n, strict=False)))
    for ranking in rankings:
        judged = {d: int(g) for d, g in zip(ranking, rng.integers(0, 3, len(ranking)), strict=True)}
        for max_docs in (None, 3):
            old = sorted(ranking, key=lambda d: (ranking[d], d), reverse=True)[:max_docs]  # noqa: B023
            want = np.array([judged.get(d, -1) for d in old], dtype=float)
            got = rank_topic(ranking, judged, max_docs=max_docs)
            assert got.grades.tobytes() == want.tobytes()
            assert got.judged.tobytes() == np.array(list(judged.values()), float).tobytes()
    assert len(rankings) > 300


def test_a_list_of_measures_scores_as_one_call_per_measure_bit_for_bit(fixture_files):
    qrels, run = read_qrels(fixture_files[0]), read_run(fixture_files[1])
    names = ["map", "nDCG@10", "P_5", "recip_rank", "map"]
    several = evaluate(qrels, run, names, level=2, max_docs=50)
    assert [s.measure for s in several] == names
    for got, name in zip(several, names, strict=True):
        want = evaluate(qrels, run, name, level=2, max_docs=50)
        assert got == want and got.made["measure"] == name
        assert (
            np.array(list(got.scores.values())).tobytes()
            == np.array(list(want.scores.values())).tobytes()
        )
    assert several[0].unretrieved is not several[1].unretrieved  # each result its own lists
    for bad, match in (([], r"got \[\]"), (["map", 7], r"or a list of names\); got 7")):
        with pytest.raises(ValueError, match=match):
            evaluate(qrels, run, bad)
    with pytest.raises(ValueError, match="measure 'ndcg_10' is not one evaluate computes"):
        evaluate(qrels, run, ["map", "ndcg_10"])


def test_runs_and_qrels_made_by_hand_with_other_number_types_are_still_scored():
    """The plain-case pre-check (_plainly_fit) only skips the per-value loop; ints as scores and
    numpy integers as grades still pass it, as before."""
    qrels = Qrels({"q1": {"d1": np.int64(1), "d2": 0}})
    run = Run({"q1": {"d1": 2, "d2": np.float32(1.5)}})
    assert evaluate(qrels, run, "recip_rank").scores == {"q1": 1.0}


# --- issue 52: documents the qrels do not know --------------------------------------------


def _rewritten(tmp_path: Path, name: str, doc) -> Run:
    rows = [x.split() for x in (TREC_EVAL / "results.test").read_text().splitlines()]
    (tmp_path / name).write_text("".join(f"{x[0]} Q0 {doc(x[2])} {x[3]} {x[4]} t\n" for x in rows))
    return read_run(tmp_path / name)


@pytest.mark.skipif(not (TREC_EVAL / "results.test").is_file(), reason="needs trec_eval's files")
@pytest.mark.parametrize(
    "doc, cause",
    [
        (str.lower, "its document IDs are judged ones in another case (e.g. 'fr940202-2-00150' in "
                    "the run, 'FR940202-2-00150' in the qrels)"),
        (lambda d: "doc-" + d, "the run's document IDs carry a prefix 'doc-' that the qrels' lack"),
        (lambda d: d + ".txt", "the run's document IDs carry a suffix '.txt' that the qrels' lack"),
        (lambda d: "X" + d[::-1], "none at all: qrels of another collection"),
    ],
    ids=["lowercased", "prefix", "suffix", "another collection"],
)  # fmt: skip
def test_a_run_of_documents_the_qrels_do_not_know_is_refused_with_the_cause(tmp_path, doc, cause):
    qrels = read_qrels(TREC_EVAL / "qrels.test")
    run = _rewritten(tmp_path, "run.txt", doc)
    with pytest.raises(ValueError) as err:
        evaluate(qrels, run, "map")
    said = str(err.value)
    assert "the run retrieves no judged document for 3 of its 3 judged topics" in said
    assert cause in said and "pass check_documents=False" in said
    scores = evaluate(qrels, run, ["map", "P_10"], check_documents=False)  # as trec_eval would
    assert all(v == 0 for s in scores for v in s.scores.values())


def test_a_run_that_misses_sparse_judgments_in_most_topics_is_scored():
    # MS MARCO's qrels judge about one document a topic: a run's top 10 misses it in most topics
    qrels = Qrels({f"q{i}": {f"rel{i}": 1} for i in range(10)})
    run = Run({f"q{i}": {(f"rel{i}" if i < 3 else f"d{i}"): 1.0, "other": 0.5} for i in range(10)})
    assert evaluate(qrels, run, "recip_rank").scores["q0"] == 1.0
    dense = Qrels(
        {q: {**docs, **{f"j{k}": 0 for k in range(5)}} for q, docs in qrels.judgments.items()}
    )
    with pytest.raises(ValueError, match=r"no judged document for 7 of its 10 judged topics .*: "
                                         "qrels of another collection"):  # fmt: skip
        evaluate(dense, run, "recip_rank")
    nowhere = Run({q: {"x" + q: 1.0} for q in qrels.judgments})
    with pytest.raises(ValueError, match="none at all"):
        evaluate(qrels, nowhere, "recip_rank")
    half = Run({f"q{i}": {(f"rel{i}" if i < 5 else f"d{i}"): 1.0} for i in range(10)})
    assert evaluate(dense, half, "recip_rank").scores["q9"] == 0.0  # half of them: not "most"


def test_measure_names_with_leading_zeros_are_trec_evals():
    from helpers.runs.scoring import _cutoff, trec_name

    assert trec_name("ndcg_cut_010") == "ndcg_cut_10" and trec_name("P_005") == "P_5"
    assert trec_name("recall_0100") == "recall_100" and trec_name("gm_map_01") == "gm_map_01"
    assert (_cutoff("P_10"), _cutoff("nDCG@20"), _cutoff("map"), _cutoff("set_F_1")) == (
        10, 20, None, None,
    )  # fmt: skip


def test_the_readers_know_exactly_the_measures_scoring_computes():
    """read_trec_eval names measures as evaluate does, without importing scoring (no circle)."""
    from helpers.runs import readers, scoring

    assert readers.MEASURE_NAMES == set(scoring.MEASURES)
    assert readers.trec_name is scoring.trec_name
