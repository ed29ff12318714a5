"""helpers.alignment: two runs lined up by query ID, the missing-query policies, and the rule
for runs (mappings {query_id: score} or RunScores)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from trec_files import TREC_EVAL

from helpers import (
    Qrels,
    align_runs,
    compare_many,
    compare_runs,
    evaluate,
    read_qrels,
    read_run,
    read_scores_csv,
    read_trec_eval,
)
from helpers.runs import alignment

DATA = Path(__file__).resolve().parents[2] / "notebooks" / "data"

needs_trec_eval_test = pytest.mark.skipif(
    not (TREC_EVAL / "out.test.aqc").is_file(),
    reason=f"trec_eval's test files are not in {TREC_EVAL} (kept outside the project)",
)


def test_missing_queries_are_refused_and_named_by_default():
    with pytest.raises(
        ValueError, match=r"2 only in A \('q047', 'q121'\).*missing='drop'.*missing='zero'"
    ):
        align_runs(
            read_trec_eval(DATA / "simulated_A.trec_eval.txt", "P_5"),
            read_trec_eval(DATA / "simulated_B.trec_eval.txt", "P_5"),
        )


def test_missing_query_policies_are_applied_and_recorded():
    a = {"q1": 0.5, "q2": 0.3, "q3": 0.1}
    b = {"q1": 0.6, "q3": 0.2, "q4": 0.9}
    dropped = align_runs(a, b, missing="drop")
    assert dropped.query_ids == ["q1", "q3"]
    assert dropped.missing_policy == "drop" and (dropped.only_in_a, dropped.only_in_b) == (
        ["q2"],
        ["q4"],
    )
    assert (
        "2 queries compared; 1 only in A and 1 only in B, dropped (missing='drop')"
        == dropped.summary()
    )
    zero = align_runs(a, b, missing="zero")
    assert zero.query_ids == ["q1", "q2", "q3", "q4"]
    assert zero.a.tolist() == [0.5, 0.3, 0.1, 0.0] and zero.b.tolist() == [0.6, 0.0, 0.2, 0.9]
    assert align_runs(a, a).summary() == "3 queries compared"


def test_clusters_and_slices_follow_the_alignment():
    run = read_scores_csv(
        DATA / "simulated_users_and_slices.csv",
        score="ndcg_cut_10_B",
        cluster="user",
        slice="query_type",
    )
    other = read_scores_csv(
        DATA / "simulated_users_and_slices.csv",
        score="ndcg_cut_10_A",
        cluster="user",
        slice="query_type",
    )
    aligned = align_runs(other, run)
    assert len(aligned.clusters) == len(aligned.slices) == 150
    assert aligned.clusters[0] == run.clusters["q001"]


# --- input validation: align_runs holds the rule for runs, mappings {query_id: score} ----------

RUN_A = {"q1": 0.5, "q2": 0.25, "q3": 0.75}
RUN_B = {"q1": 0.6, "q2": 0.3, "q3": 0.7}
NOT_A_RUN = (
    r"run SIDE must be a mapping \{query_id: score\} or a RunScores "
    r".*got TYPE\..*dict\(pairs\).*paired_differences\(a, b\)"
)
RUNS_REFUSED = {
    "list of scores": ([0.5, 0.25, 0.75], "list"),
    "2-D array": (np.array([[0.5, 0.25], [0.75, 0.5]]), "ndarray"),  # dict() would read it
    "list of (id, score) pairs": ([("q1", 0.5), ("q2", 0.25), ("q3", 0.75)], "list"),
    "generator": ((v for v in [0.5, 0.25, 0.75]), "generator"),  # refused before being read
    "None": (None, "NoneType"),
    "scalar": (0.5, "float"),
    "string": ("q1 0.5", "str"),
}
SCORES_REFUSED = {
    "text scores": (
        {"q1": "0.5", "q2": "0.25", "q3": "0.75"},
        r"^SIDE's scores must be numbers; found non-numeric value\(s\) .*convert text to numbers",
    ),
    "a missing score (None)": (
        {"q1": 0.5, "q2": None, "q3": 0.75},
        r"^SIDE's scores must be numbers; found non-numeric value\(s\) None",
    ),
    "a NaN score": (
        {"q1": 0.5, "q2": float("nan"), "q3": 0.75},
        r"^SIDE's scores contain NaN or infinite values at query 'q2'",
    ),
    "list-valued scores": (
        {"q1": [0.5], "q2": [0.25], "q3": [0.75]},
        r"^SIDE's scores must be one-dimensional",
    ),
}


def test_align_runs_iv():
    good = {"a": RUN_A, "b": RUN_B}
    for side in ("a", "b"):
        for value, type_name in RUNS_REFUSED.values():
            match = NOT_A_RUN.replace("SIDE", side.upper()).replace("TYPE", type_name)
            with pytest.raises(ValueError, match=match):
                align_runs(**good | {side: value})
        for value, match in SCORES_REFUSED.values():
            with pytest.raises(ValueError, match=match.replace("SIDE", side.upper())):
                align_runs(**good | {side: value})
    with pytest.raises(ValueError, match=r"Both runs need at least one scored query"):
        align_runs(**good | {"a": {}})
    with pytest.raises(ValueError, match=r"3 only in A \('q1', 'q2', 'q3'\); 1 only in B \('q4'\)"):
        align_runs(**good | {"b": {"q4": 1.0}})
    with pytest.raises(ValueError, match=r"missing must be one of 'error', 'drop', 'zero'"):
        align_runs(**good | {"missing": "ignore"})
    with pytest.raises(ValueError, match=r"qrels must come from read_qrels\(path\); got dict"):
        align_runs(**good | {"qrels": {"q1": {"d1": 1}}})
    with pytest.raises(ValueError, match=r"clusters must map each query ID to its user"):
        align_runs(**good | {"clusters": ["U1", "U1", "U2"]})
    with pytest.raises(ValueError, match=r"clusters has no user for 2 compared queries"):
        align_runs(**good | {"clusters": {"q1": "U1"}})


def test_runs_that_share_no_query_are_refused_even_when_dropping():
    with pytest.raises(ValueError, match="share no query IDs"):
        align_runs({"q1": 1.0}, {"q2": 1.0}, missing="drop")


def test_a_pandas_series_is_not_a_run():
    pd = pytest.importorskip("pandas")  # not a dependency of the series; checked where installed
    a = pd.Series([0.5, 0.25], index=["q1", "q2"])
    b = pd.Series([0.25, 0.75], index=["q2", "q1"])
    with pytest.raises(ValueError, match=r"got Series\. .*s\.to_dict\(\)"):
        align_runs(a, b)
    assert align_runs(a.to_dict(), b.to_dict()).b.tolist() == [0.75, 0.25]


@pytest.mark.parametrize(
    "a",
    [
        {"q1": 1, "q2": 0, "q3": 1},
        {"q1": True, "q2": False, "q3": True},
        {"q1": np.int64(1), "q2": np.int8(0), "q3": np.uint8(1)},
    ],
    ids=["int scores", "bool scores", "numpy integer scores"],
)
def test_integer_and_boolean_run_scores_are_numbers(a):
    runs = align_runs(a, RUN_B)
    assert runs.a.dtype == np.float64 and runs.a.tolist() == [1.0, 0.0, 1.0]


def test_query_ids_of_mixed_types_are_sorted_by_their_text():
    runs = align_runs({1: 0.5, "q2": 0.25}, {"q2": 0.5, 1: 0.75})
    assert runs.query_ids == [1, "q2"] and runs.b.tolist() == [0.75, 0.5]
    # the same IDs as int in one run and str in the other are named as such
    with pytest.raises(ValueError, match=r"differ only in type \(e\.g\. 1 in A and '1' in B\)"):
        align_runs({1: 0.5, 2: 0.25, 3: 0.75}, {"1": 0.6, "2": 0.3, "3": 0.7})


@needs_trec_eval_test
@pytest.mark.parametrize("measure", ["map", "P_5", "ndcg_cut_10", "success_5", "recip_rank"])
def test_missing_zero_with_qrels_averages_over_the_same_topics_as_trec_eval_c(measure):
    # out.test.aqc is trec_eval -q -c on a run without topic 302: 'all' averages over 301, 302, 303
    path = TREC_EVAL / "out.test.aqc"
    rows = [line.split() for line in path.read_text().splitlines()]
    all_row = float(next(v for m, q, v in rows if m == measure and q == "all"))
    num_q = int(next(v for m, q, v in rows if m == "num_q"))
    # trec_eval 10 also prints 302's rows (0); without them, as trec_eval -q without -c writes
    # it, align_runs must add the topic itself
    scores = {q: v for q, v in read_trec_eval(path, measure).scores.items() if q != "302"}
    qrels = Qrels(
        {"301": {"x": 1}, "302": {"y": 1}, "303": {"z": 1}}, "qrels.test"
    )  # the three judged topics
    aligned = align_runs(scores, scores, missing="zero", qrels=qrels)
    assert len(aligned.query_ids) == num_q == 3 and aligned.in_neither == ["302"]
    assert aligned.a.mean() == pytest.approx(all_row, abs=5e-5)  # trec_eval prints 4 decimals
    without = align_runs(scores, scores, missing="zero")
    assert len(without.query_ids) == 2  # without the qrels, 302 cannot be known
    if all_row:
        assert without.a.mean() != pytest.approx(all_row, abs=5e-5)


def test_run_files_and_qrels_passed_as_scores_name_evaluate():
    # compare_runs(run_a, run_b) with read_run's Run objects: the fix is evaluate, with an example
    run = read_run(DATA / "simulated_A.run.txt")
    qrels = read_qrels(DATA / "simulated.qrels.txt")
    scores = {q: 0.5 for q in qrels.topics}
    for a, b, side, kind in ((run, scores, "A", "Run"), (scores, qrels, "B", "Qrels")):
        with pytest.raises(ValueError, match=rf"^run {side} is {kind} \(") as err:
            align_runs(a, b)
        assert "helpers.evaluate(qrels, run, measure), e.g. " in str(err.value)
        assert f"{side.lower()} = helpers.evaluate(qrels, run_{side.lower()}, 'ndcg_cut_10')" in (
            str(err.value)
        )
    with pytest.raises(ValueError, match=r"^run A is Run .*helpers\.evaluate\(qrels, run, "):
        compare_runs(run, run, rng=1)


# --- issue 48: scores made otherwise, and topics a run retrieved nothing for -------------


def _trec_eval_scores(measure: str = "map", run: str = "results.test", **settings):
    qrels = read_qrels(TREC_EVAL / settings.pop("qrels", "qrels.test"))
    return evaluate(qrels, read_run(TREC_EVAL / run), measure, **settings)


@needs_trec_eval_test
@pytest.mark.parametrize(
    ("a", "b", "said"),
    [
        ({"measure": "map"}, {"measure": "ndcg_cut_10"}, r"measure 'map', B's with 'ndcg_cut_10'"),
        ({"level": 1}, {"level": 2}, r"level 1, B's with 2; .* score every run with one level"),
        ({"max_docs": None}, {"max_docs": 100}, r"max_docs None, B's with 100"),
        ({"qrels": "qrels.test"}, {"qrels": "qrels.rel_level"}, r"qrels '[0-9a-f]{12}', B's"),
    ],
)
def test_scores_made_otherwise_are_refused_by_every_comparison(a, b, said):
    # issue 48: compare_runs(map, ndcg_cut_10) gave a confident, reversed verdict
    sa, sb = _trec_eval_scores(**a), _trec_eval_scores(**b)
    with pytest.raises(ValueError, match=said):
        align_runs(sa, sb)
    with pytest.raises(ValueError, match=said):
        compare_runs(sa, sb, rng=1, min_queries=3)
    # compare_many: under the measure's name (B's other measure is refused as filed wrongly)
    many = {"A": {sa.measure: sa}, "B": {sa.measure: sb}}
    said = r"made with measure 'ndcg_cut_10', not 'map'" if "measure" in a else said
    with pytest.raises(ValueError, match=said.replace("B's", "run 'B''s")):
        compare_many(many, baseline="A", rng=1, min_queries=3)
    # the same settings, and plain mappings (nothing known), are compared
    assert align_runs(sa, _trec_eval_scores(**a)).query_ids == ["301", "302", "303"]
    assert align_runs(dict(sa.scores), sb).query_ids == ["301", "302", "303"]


@needs_trec_eval_test
def test_names_of_one_measure_are_the_same_measure_and_trec_eval_output_is_checked():
    assert align_runs(_trec_eval_scores("nDCG@10"), _trec_eval_scores("ndcg_cut_10")).a.size == 3
    aq = TREC_EVAL / "out.test.aq"
    with pytest.raises(ValueError, match=r"measure 'map', B's with 'P_10'"):
        align_runs(read_trec_eval(aq, "map"), read_trec_eval(aq, "P_10"))
    with pytest.raises(ValueError, match=r"measure 'map', B's with 'RR'"):
        align_runs(read_trec_eval(aq, "map"), _trec_eval_scores("RR"))
    # compare_many: scores filed under another measure's name are refused
    runs = {"A": {"map": _trec_eval_scores()}, "B": {"map": _trec_eval_scores("ndcg_cut_10")}}
    with pytest.raises(ValueError, match=r"run 'B', measure 'map': these scores were made with "):
        compare_many(runs, baseline="A", rng=1, min_queries=3)


@needs_trec_eval_test
def test_topics_a_run_retrieved_nothing_for_follow_the_missing_policy():
    # results.trunc lacks topic 302: evaluate scores it 0 (trec_eval -c) and lists it
    full, trunc = _trec_eval_scores(), _trec_eval_scores(run="results.trunc")
    assert trunc.unretrieved == ["302"] and trunc.scores["302"] == 0.0
    for compare in (
        lambda m: compare_runs(full, trunc, missing=m, rng=1, min_queries=2),
        lambda m: compare_many(
            {"A": {"map": full}, "B": {"map": trunc}}, baseline="A", rng=1, missing=m, min_queries=2
        ).cells[0],
    ):
        with pytest.raises(
            ValueError,
            match=r"1 only in A \('302'\)\. Of these, A retrieved "
            r"nothing for 0, B for 1 \('302'; evaluate scored them 0\)",
        ):
            compare("error")
        zero, drop = compare("zero"), compare("drop")
        n_zero, n_drop = (r.n_queries for r in (zero, drop))
        assert (n_zero, n_drop) == (3, 2)
        change = [getattr(r, "mean_change", getattr(r, "change", None)) for r in (zero, drop)]
        assert change[0] != pytest.approx(change[1])  # the three policies differ
    aqc = read_trec_eval(TREC_EVAL / "out.test.aqc", "map").scores  # trec_eval -c
    zero = compare_runs(full, trunc, missing="zero", rng=1, min_queries=2)
    assert zero.mean_b == pytest.approx(sum(aqc.values()) / 3, abs=5e-5)
    drop = compare_runs(full, trunc, missing="drop", rng=1, min_queries=2)
    assert drop.runs.query_ids == ["301", "303"] and "dropped" in drop.runs.summary()
    assert "of these, retrieved nothing: 0 in A, 1 in B" in drop.runs.summary()


def test_lining_up_by_integer_codes_gives_what_python_sets_give_bit_for_bit(monkeypatch):
    """alignment._by_codes (numpy, for text IDs) against _query_set (Python sets), on random runs
    with every policy, with and without qrels: the same queries, scores (-0.0 too), summaries and
    messages; IDs that are not plain text (ints, a NUL) go by sets in both."""
    rng = random.Random(48)
    pools = [["q1", "q2", "q10", "Q1", "", "é", "301", "0301"], ["q\x00", "q", 1, "1"]]
    pools.append([f"x{i}" for i in range(40)])
    runs = [read_trec_eval(DATA / f"simulated_{s}.trec_eval.txt", "P_5").scores for s in "AB"]
    fast = 0

    def outcome(a, b, **kw):
        try:
            r = align_runs(a, b, **kw)
        except ValueError as err:
            return str(err)
        return (r.query_ids, r.a.tobytes(), r.b.tobytes(), r.only_in_a, r.only_in_b, r.summary())

    for i in range(1500):
        pool = pools[i % 3]
        a, b = ({q: rng.choice([0.0, -0.0, 0.5, 0.1 + 0.2]) for q in rng.sample(pool, rng.randint(
            1, len(pool)))} for _ in "ab")  # fmt: skip
        kw = {"missing": ["error", "drop", "zero"][i % 4 % 3]}
        if i % 2:
            kw["qrels"] = Qrels({str(q): {"d": 1} for q in rng.sample(pool, i % len(pool))})
        if i == 0:
            a, b = runs
        with monkeypatch.context() as m:
            m.setattr(alignment, "_by_codes", lambda *_: None)
            by_sets = outcome(a, b, **kw)
        fast += alignment._by_codes(a, b, kw["missing"], kw.get("qrels")) is not None
        assert outcome(a, b, **kw) == by_sets
    assert fast > 200  # the codes were used (261 times), not just the sets


# --- issue 52: scores from a trec_eval -q file carry what the file implies -------------------


@needs_trec_eval_test
def test_a_run_read_from_its_trec_eval_file_and_scored_by_evaluate_shows_no_change():
    # the file has four decimals, evaluate full precision: compared at four, every query unchanged
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test")
    for m in ("map", "P_10", "recall_1000", "ndcg_cut_5", "recip_rank", "Rprec", "ndcg"):
        from_file = read_trec_eval(TREC_EVAL / "out.test.aq", m)
        scored = evaluate(qrels, run, m)
        assert from_file.made["decimals"] == 4 and from_file.scores != scored.scores or m == "P_10"
        for a, b in ((from_file, scored), (scored, from_file)):
            runs = align_runs(a, b)
            assert runs.a.tolist() == runs.b.tolist(), m
            assert "scores rounded to 4 decimals, the other's precision" in runs.summary()


def test_chapter_7s_runs_from_their_files_and_from_evaluate_show_no_change():
    qrels = read_qrels(DATA / "simulated.qrels.txt")
    for side in "AB":
        run = read_run(DATA / f"simulated_{side}.run.txt")
        for m in ("ndcg_cut_10", "recip_rank", "P_5"):
            a = read_trec_eval(DATA / f"simulated_{side}.trec_eval.txt", m)
            rep = compare_runs(a, evaluate(qrels, run, m), rng=1, missing="drop")
            assert (rep.wins, rep.losses, rep.mean_change) == (0, 0, 0.0), (side, m)
            assert rep.test.pvalue == 1.0


@needs_trec_eval_test
def test_a_trec_eval_file_is_taken_as_made_with_trec_eval_defaults():
    # issue 52, case 1: -l and -M are not in the file; unrecorded is not "the same"
    qrels, run = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test")
    p10 = read_trec_eval(TREC_EVAL / "out.test.aq", "P_10")
    assert (p10.made["level"], p10.made["max_docs"]) == (1, None)
    with pytest.raises(ValueError) as err:
        compare_runs(p10, evaluate(qrels, run, "P_10", level=2), rng=1, min_queries=3)
    said = str(err.value)
    assert "A's scores were made with level 1 (a trec_eval -q file does not record it" in said
    assert "B's with 2;" in said and "read_trec_eval(path, measure, level=, max_docs=)" in said
    with pytest.raises(ValueError, match=r"max_docs None \(a trec_eval -q file .*, B's with 100"):
        align_runs(read_trec_eval(TREC_EVAL / "out.test.aq", "map"),
                   evaluate(qrels, run, "map", max_docs=100))  # fmt: skip


@needs_trec_eval_test
def test_a_trec_eval_file_made_with_l_or_m_is_read_as_told():
    # out.test.aql is trec_eval -l2 on qrels.rel_level; out.test.aqcM is -c -M100 on results.trunc
    graded, run = read_qrels(TREC_EVAL / "qrels.rel_level"), read_run(TREC_EVAL / "results.test")
    with pytest.raises(ValueError, match="made with level 1"):
        align_runs(read_trec_eval(TREC_EVAL / "out.test.aql", "P_10"),
                   evaluate(graded, run, "P_10", level=2))  # fmt: skip
    told = align_runs(read_trec_eval(TREC_EVAL / "out.test.aql", "P_10", level=2),
                      evaluate(graded, run, "P_10", level=2))  # fmt: skip
    assert told.a.tolist() == told.b.tolist()
    qrels, trunc = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.trunc")
    m100 = read_trec_eval(TREC_EVAL / "out.test.aqcM", "map", max_docs=100)
    runs = align_runs(m100, evaluate(qrels, trunc, "map", max_docs=100), missing="zero")
    assert runs.a.tolist() == runs.b.tolist()


def test_identical_settings_are_not_refused_and_other_ones_are():
    # issue 52, case 7: ndcg_cut_010 is ndcg_cut_10; -M 10 changes no P_10; -l no nDCG
    qrels = read_qrels(DATA / "simulated.qrels.txt")
    run = read_run(DATA / "simulated_A.run.txt")
    same = [
        ("ndcg_cut_010", {}, "ndcg_cut_10", {}),
        ("P_10", {"max_docs": 10}, "P_10", {}),
        ("P@10", {"max_docs": 1000}, "P_10", {"max_docs": 10}),
        ("ndcg_cut_10", {"level": 2}, "nDCG@10", {}),
        ("RR@10", {"max_docs": 10}, "RR@10", {}),
    ]
    for m1, kw1, m2, kw2 in same:
        a, b = evaluate(qrels, run, m1, **kw1), evaluate(qrels, run, m2, **kw2)
        assert a.scores == b.scores, (m1, kw1, m2, kw2)
        runs = align_runs(a, b, missing="zero")
        assert runs.a.tolist() == runs.b.tolist()
    differ = [("P_10", {"max_docs": 9}), ("P_10", {"level": 2}), ("map", {"max_docs": 10})]
    for m, kw in differ:
        a, b = evaluate(qrels, run, m, **kw), evaluate(qrels, run, m)
        assert a.scores != b.scores, (m, kw)
        with pytest.raises(ValueError, match="comparing them would measure that difference"):
            align_runs(a, b, missing="zero")
