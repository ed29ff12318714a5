"""trec_eval's measures in numpy (helpers.scoring, through helpers.evaluate), checked two ways.

1. Against trec_eval's own expected outputs: every per-query value of every measure
   helpers.scoring computes, in the outputs of trec_eval's own test suite (``-q``, ``-c``,
   ``-M100``, ``-l2`` and measures with parameters), must print the same to trec_eval's 4
   decimals; the averages of ``out.test`` and ``out.comment.test`` too. The files are NIST's
   and stay outside the project, in ``../shared/trec_eval-test/`` (see its README).
2. Against trec_eval's C code itself (pytrec-eval-terrier, installed by ``make env`` only
   where it has a wheel, from requirements-oracle.txt) on thousands of random, tie-heavy,
   graded rankings, to 1e-12.
"""

from __future__ import annotations

import os
import platform
import re
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from helpers.readers import Qrels, Run, read_qrels, read_run
from helpers.scoring import MEASURES, evaluate, measure_function, rank_topic

ROOT = Path(__file__).resolve().parent.parent
TREC_EVAL_TEST = ROOT.parent / "shared" / "trec_eval-test"
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
    for name in ("P_0", "P", "P_k", "bpref", "nDCG@10", "ndcg_cut_1.5", "P_٣", "", "P_5\n"):
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
    qrels, run = _random_topics(np.random.default_rng(2026), 2500)
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
    assert compared == 4 * len(ORACLE_MEASURES) * len(run) > 200_000
