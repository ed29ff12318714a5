"""Readers for per-query run results, and lining two runs up."""

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

from helpers.runs import align_runs, read_scores_csv, read_trec_eval

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "notebooks" / "data"
BROKEN = Path(__file__).resolve().parent / "data" / "broken"


def test_committed_example_files_equal_the_generator_output():
    spec = importlib.util.spec_from_file_location("make_example_runs", DATA / "make_example_runs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.outputs().items():
        assert (DATA / name).read_text() == text, f"{name} differs: run notebooks/data/make_example_runs.py"


def test_trec_eval_reader_on_the_example():
    a = read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10")
    b = read_trec_eval(DATA / "simulated_B.trec_eval.txt", "ndcg_cut_10")
    assert len(a) == 150 and len(b) == 148
    assert "all" not in a.scores
    assert a.scores["q001"] == 0.9517 and a.measure == "ndcg_cut_10"
    # the file's own 'all' row is the mean of the per-query rows
    all_row = [l for l in (DATA / "simulated_A.trec_eval.txt").read_text().splitlines() if l.startswith("ndcg_cut_10") and "\tall\t" in l]
    assert float(all_row[0].split()[-1]) == pytest.approx(np.mean(list(a.scores.values())), abs=5e-5)


def test_csv_reader_on_the_example():
    run = read_scores_csv(DATA / "simulated_users_and_slices.csv", score="ndcg_cut_10_A", cluster="user", slice="query_type")
    assert len(run) == 150 and len(set(run.clusters.values())) == 40
    assert set(run.slices.values()) == {"head", "torso", "tail"}
    assert run.scores == read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10").scores


@pytest.mark.parametrize(
    "name, measure, message",
    [
        ("trec_malformed.txt", "P_5", r"trec_malformed\.txt:2: expected 'measure query_id value' \(3 fields\), found 2"),
        ("trec_non_numeric.txt", "P_5", r"trec_non_numeric\.txt:2: value of P_5 for query 'q2' 'abc' is not a number"),
        ("trec_duplicate.txt", "P_5", r"trec_duplicate\.txt:3: query 'q1' appears again with a different value .*line 1"),
        ("trec_nan.txt", "P_5", r"trec_nan\.txt:1: .* must be finite"),
        ("trec_summary_only.txt", "P_5", r"trec_summary_only\.txt: measure 'P_5' has only 'all' summary rows"),
        ("empty.txt", "P_5", r"empty\.txt: the file is empty"),
    ],
)
def test_trec_eval_reader_refuses_broken_files(name, measure, message):
    with pytest.raises(ValueError, match=message):
        read_trec_eval(BROKEN / name, measure)


def test_a_measure_that_is_not_in_the_file_is_named_with_the_ones_that_are():
    expected = r"simulated_A\.trec_eval\.txt: measure 'map' is not in the file; its per-query measures are 'P_5', 'ndcg_cut_10', 'num_rel', 'recip_rank', 'success_5'\."
    with pytest.raises(ValueError, match=expected):
        read_trec_eval(DATA / "simulated_A.trec_eval.txt", "map")


@pytest.mark.parametrize(
    "name, kwargs, message",
    [
        ("csv_non_numeric.csv", {}, r"csv_non_numeric\.csv:3: 'score' value 'high' is not a number"),
        ("csv_missing_column.csv", {}, r"csv_missing_column\.csv:1: no column 'query_id' in the header; it has 'qid', 'score'"),
        ("csv_ragged.csv", {}, r"csv_ragged\.csv:3: expected 2 fields as in the header, found 3"),
        ("csv_duplicate.csv", {}, r"csv_duplicate\.csv:3: query 'q1' appears again with a different value"),
        ("csv_header_only.csv", {}, r"csv_header_only\.csv: the header is there but no rows follow"),
        ("empty.txt", {}, r"empty\.txt: the file is empty"),
        ("csv_empty_query.csv", {"cluster": "user"}, r"csv_empty_query\.csv:3: the query ID is empty"),
        ("csv_conflicting_user.csv", {"cluster": "user"}, r"csv_conflicting_user\.csv:3: query 'q1' has 'user' 'U2' here but 'U1' on line 2"),
        ("csv_non_numeric.csv", {"slice": "type"}, r"no column 'type'"),
    ],
)
def test_csv_reader_refuses_broken_files(name, kwargs, message):
    with pytest.raises(ValueError, match=message):
        read_scores_csv(BROKEN / name, score="score", **kwargs)


def test_tsv_is_read_by_extension(tmp_path):
    p = tmp_path / "runs.tsv"
    p.write_text("query_id\tscore\nq1\t0.5\n\nq2\t1\n")
    assert read_scores_csv(p, score="score").scores == {"q1": 0.5, "q2": 1.0}


def test_missing_queries_are_refused_and_named_by_default():
    with pytest.raises(ValueError, match=r"2 only in A \('q047', 'q121'\).*missing='drop'.*missing='zero'"):
        align_runs(
            read_trec_eval(DATA / "simulated_A.trec_eval.txt", "P_5"),
            read_trec_eval(DATA / "simulated_B.trec_eval.txt", "P_5"),
        )


def test_missing_query_policies_are_applied_and_recorded():
    a = {"q1": 0.5, "q2": 0.3, "q3": 0.1}
    b = {"q1": 0.6, "q3": 0.2, "q4": 0.9}
    dropped = align_runs(a, b, missing="drop")
    assert dropped.query_ids == ["q1", "q3"] and dropped.n_affected == 2
    assert dropped.missing_policy == "drop" and (dropped.only_in_a, dropped.only_in_b) == (["q2"], ["q4"])
    assert "2 queries compared; 1 only in A and 1 only in B, dropped (missing='drop')" == dropped.summary()
    zero = align_runs(a, b, missing="zero")
    assert zero.query_ids == ["q1", "q2", "q3", "q4"]
    assert zero.a.tolist() == [0.5, 0.3, 0.1, 0.0] and zero.b.tolist() == [0.6, 0.0, 0.2, 0.9]
    assert align_runs(a, a).summary() == "3 queries compared"


def test_align_checks_its_arguments():
    with pytest.raises(ValueError, match="missing must be one of 'error', 'drop', 'zero'"):
        align_runs({"q1": 1.0}, {"q1": 1.0}, missing="ignore")
    with pytest.raises(ValueError, match="share no query IDs"):
        align_runs({"q1": 1.0}, {"q2": 1.0}, missing="drop")
    with pytest.raises(ValueError, match="at least one scored query"):
        align_runs({}, {"q2": 1.0})


def test_clusters_and_slices_follow_the_alignment():
    run = read_scores_csv(DATA / "simulated_users_and_slices.csv", score="ndcg_cut_10_B", cluster="user", slice="query_type")
    other = read_scores_csv(DATA / "simulated_users_and_slices.csv", score="ndcg_cut_10_A", cluster="user", slice="query_type")
    aligned = align_runs(other, run)
    assert len(aligned.clusters) == len(aligned.slices) == 150
    assert aligned.clusters[0] == run.clusters["q001"]
