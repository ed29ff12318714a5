"""Readers for per-query run results (helpers.readers): run files and qrels, `trec_eval -q`
output and CSV, as people have them: every encoding variant, broken lines named by file and
line, and the wrong kind of file named with the reader to use. `read_trec_eval` is checked
against trec_eval's own expected output (``../shared/trec_eval-test/out.test.aqc``, kept
outside the project). `evaluate` is tested in test_scoring.py, `compare_runs` in test_report.py.
"""

from __future__ import annotations

import codecs
import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest
from trec_files import QRELS_TEXT, RUN_TEXT, TREC_EVAL

from helpers import (
    read_qrels,
    read_run,
    read_scores_csv,
    read_trec_eval,
)
from helpers.runs import readers
from helpers.scale import columns

ROOT = Path(__file__).resolve().parents[2]


DATA = ROOT / "notebooks" / "data"


BROKEN = Path(__file__).resolve().parents[1] / "data" / "broken"


def test_committed_example_files_equal_the_generator_output():
    spec = importlib.util.spec_from_file_location(
        "make_example_runs", DATA / "make_example_runs.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, text in module.outputs().items():
        assert (DATA / name).read_text() == text, (
            f"{name} differs: run notebooks/data/make_example_runs.py"
        )


def test_trec_eval_reader_on_the_example():
    a = read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10")
    b = read_trec_eval(DATA / "simulated_B.trec_eval.txt", "ndcg_cut_10")
    assert len(a) == 150 and len(b) == 148
    assert "all" not in a.scores
    assert a.scores["q001"] == 0.9517 and a.measure == "ndcg_cut_10"
    # the file's own 'all' row is the mean of the per-query rows
    all_row = [
        line
        for line in (DATA / "simulated_A.trec_eval.txt").read_text().splitlines()
        if line.startswith("ndcg_cut_10") and "\tall\t" in line
    ]
    assert float(all_row[0].split()[-1]) == pytest.approx(
        np.mean(list(a.scores.values())), abs=5e-5
    )


def test_csv_reader_on_the_example():
    run = read_scores_csv(
        DATA / "simulated_users_and_slices.csv",
        score="ndcg_cut_10_A",
        cluster="user",
        slice="query_type",
    )
    assert len(run) == 150 and len(set(run.clusters.values())) == 40
    assert set(run.slices.values()) == {"head", "torso", "tail"}
    assert run.scores == read_trec_eval(DATA / "simulated_A.trec_eval.txt", "ndcg_cut_10").scores


@pytest.mark.parametrize(
    "name, measure, message",
    [
        (
            "trec_malformed.txt",
            "P_5",
            r"trec_malformed\.txt:2: expected 'measure query_id value' \(3 fields\), found 2",
        ),
        (
            "trec_non_numeric.txt",
            "P_5",
            r"trec_non_numeric\.txt:2: value of P_5 for query 'q2' 'abc' is not a number",
        ),
        (
            "trec_duplicate.txt",
            "P_5",
            r"trec_duplicate\.txt:3: query 'q1' appears again with a different value .*line 1",
        ),
        ("trec_nan.txt", "P_5", r"trec_nan\.txt:1: .* must be finite"),
        (
            "trec_summary_only.txt",
            "P_5",
            r"trec_summary_only\.txt: measure 'P_5' has only 'all' summary rows",
        ),
        ("empty.txt", "P_5", r"empty\.txt: the file is empty"),
    ],
)
def test_trec_eval_reader_refuses_broken_files(name, measure, message):
    with pytest.raises(ValueError, match=message):
        read_trec_eval(BROKEN / name, measure)


def test_a_measure_that_is_not_in_the_file_is_named_with_the_ones_that_are():
    expected = (
        r"simulated_A\.trec_eval\.txt: measure 'map' is not in the file; its per-query measures "
        r"are 'P_5', 'ndcg_cut_10', 'num_rel', 'recip_rank', 'success_5'\."
    )
    with pytest.raises(ValueError, match=expected):
        read_trec_eval(DATA / "simulated_A.trec_eval.txt", "map")


@pytest.mark.parametrize(
    "name, kwargs, message",
    [
        (
            "csv_non_numeric.csv",
            {},
            r"csv_non_numeric\.csv:3: 'score' value 'high' is not a number",
        ),
        (
            "csv_missing_column.csv",
            {},
            r"csv_missing_column\.csv:1: no column 'query_id' in the header; it has 'qid', 'score'",
        ),
        ("csv_ragged.csv", {}, r"csv_ragged\.csv:3: expected 2 fields as in the header, found 3"),
        (
            "csv_duplicate.csv",
            {},
            r"csv_duplicate\.csv:3: query 'q1' appears again with a different value",
        ),
        (
            "csv_header_only.csv",
            {},
            r"csv_header_only\.csv: the header is there but no rows follow",
        ),
        ("empty.txt", {}, r"empty\.txt: the file is empty"),
        (
            "csv_empty_query.csv",
            {"cluster": "user"},
            r"csv_empty_query\.csv:3: the query ID is empty",
        ),
        (
            "csv_conflicting_user.csv",
            {"cluster": "user"},
            r"csv_conflicting_user\.csv:3: query 'q1' has 'user' 'U2' here but 'U1' on line 2",
        ),
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


needs_trec_eval_test = pytest.mark.skipif(
    not (TREC_EVAL / "out.test.aqc").is_file(),
    reason=f"trec_eval's test files are not in {TREC_EVAL} (kept outside the project)",
)


@needs_trec_eval_test
def test_read_trec_eval_reads_trec_evals_own_output():
    path = TREC_EVAL / "out.test.aqc"
    assert read_trec_eval(path, "P_5").scores == {"301": 0.0, "302": 0.0, "303": 0.6}
    assert read_trec_eval(path, "ndcg_cut_10").scores == {"301": 0.1518, "302": 0.0, "303": 0.3633}
    assert read_trec_eval(path, "map").scores == {"301": 0.0324, "302": 0.0, "303": 0.2723}


VARIANTS = {
    "plain": lambda t: t.encode("utf-8"),
    "utf-8 with BOM": lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    "CRLF": lambda t: t.replace("\n", "\r\n").encode("utf-8"),
    "BOM and CRLF": lambda t: codecs.BOM_UTF8 + t.replace("\n", "\r\n").encode("utf-8"),
    "trailing whitespace": lambda t: t.replace("\n", " \t \n").encode("utf-8"),
    "no final newline": lambda t: t.rstrip("\n").encode("utf-8"),
    "BOM, CRLF, no final newline": lambda t: (
        codecs.BOM_UTF8 + t.rstrip("\n").replace("\n", "\r\n").encode("utf-8")
    ),
}


REFUSED = {
    "utf-16 (PowerShell 5.1 '>')": (
        lambda t: t.encode("utf-16"),
        r"encoded as UTF-16 \(it starts with a UTF-16 byte-order mark",
    ),
    "utf-16-be with BOM": (
        lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"),
        r"encoded as UTF-16 \(it starts",
    ),
    "utf-16-le without BOM": (
        lambda t: t.encode("utf-16-le"),
        r"encoded as UTF-16 or UTF-32 without a byte-order mark \(it contains NUL bytes\)",
    ),
    "utf-32": (
        lambda t: t.encode("utf-32"),
        r"encoded as UTF-32 \(it starts with a UTF-32 byte-order mark\)",
    ),
    "latin-1": (
        lambda t: t.replace("q001", "q\u00e9001").encode("latin-1"),
        r":[12]: byte 0xe9 is not UTF-8; .*Latin-1 or Windows-1252",
    ),
}


def _readers():
    te = (DATA / "simulated_A.trec_eval.txt").read_text()
    csv_text = (DATA / "simulated_users_and_slices.csv").read_text()
    return {
        "trec_eval -q": (te, "a.txt", lambda p: read_trec_eval(p, "ndcg_cut_10").scores),
        "csv": (
            csv_text,
            "a.csv",
            lambda p: read_scores_csv(p, score="ndcg_cut_10_A", cluster="user").scores,
        ),
        "tsv": (
            csv_text.replace(",", "\t"),
            "a.tsv",
            lambda p: read_scores_csv(p, score="ndcg_cut_10_A").scores,
        ),
        "run": (
            (DATA / "simulated_A.run.txt").read_text(),
            "a.run",
            lambda p: read_run(p).rankings,
        ),
        "qrels": (
            (DATA / "simulated.qrels.txt").read_text(),
            "q.txt",
            lambda p: read_qrels(p).judgments,
        ),
    }


@pytest.mark.parametrize("reader", ["trec_eval -q", "csv", "tsv", "run", "qrels"])
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_utf8_variant_reads_the_same(tmp_path, reader, variant):
    text, name, read = _readers()[reader]
    plain, other = tmp_path / f"plain-{name}", tmp_path / name
    plain.write_bytes(text.encode("utf-8"))
    other.write_bytes(VARIANTS[variant](text))
    assert read(other) == read(plain)
    assert len(read(plain)) >= 5


@pytest.mark.parametrize("reader", ["trec_eval -q", "csv", "tsv", "run", "qrels"])
@pytest.mark.parametrize("variant", list(REFUSED))
def test_other_encodings_are_refused_naming_the_file_and_the_fix(tmp_path, reader, variant):
    text, name, read = _readers()[reader]
    encode, pattern = REFUSED[variant]
    assert "q001" in text.split("\n", 2)[1] or "q001" in text.split("\n", 1)[0]
    p = tmp_path / name
    p.write_bytes(encode(text))
    with pytest.raises(ValueError, match=pattern) as err:
        read(p)
    assert str(err.value).startswith(str(p)) and "save it as UTF-8" in str(err.value)


@pytest.mark.parametrize(
    "reader, text, message",
    [
        (
            read_run,
            "q1 Q0 d1 1 2.0 t\nq1 Q0 d1 2 1.0 t\n",
            r":2: document 'd1' is listed again for query 'q1' \(first on line 1\)",
        ),
        (read_run, "q1 Q0 d1 1 high t\n", r":1: score of document 'd1' 'high' is not a number"),
        (
            read_run,
            "q1 Q0 d1 1 nan t\n",
            r":1: score of document 'd1' is 'nan'; scores must be finite",
        ),
        (read_run, "q1 Q0 d1 first 2.0 t\n", r":1: rank of document 'd1' 'first' is not a number"),
        (
            read_run,
            "q1 Q0 d1 1 1_000 t\n",  # float() reads 1000, trec_eval's atof() 1
            r":1: score of document 'd1' '1_000' is not a plain number \(trec_eval would read only "
            r"its start\); write it with digits",
        ),
        (read_run, "q1 Q0 d1 1 \u0661 t\n", r":1: score .* is not a plain number"),  # Arabic 1
        (
            read_run,
            "q1 Q0 d1 1 2.0\n",
            r":1: expected a run line 'query_id Q0 doc_id rank score tag' \(6 fields\), found 5 "
            r"fields",
        ),
        (read_run, "\n\n", r"the file is empty"),
        (
            read_qrels,
            "q1 0 d1 1\nq1 0 d1 0\n",
            r":2: document 'd1' is judged again for query 'q1' \(first on line 1\)",
        ),
        (read_qrels, "q1 0 d1 yes\n", r":1: the grade 'yes' of document 'd1' is not an integer"),
        (read_qrels, "q1 0 d1 0.5\n", r":1: the grade '0.5' of document 'd1' is not an integer"),
        (read_qrels, "q1 0 d1 1_0\n", r":1: the grade '1_0' of document 'd1' is not an integer"),
        (read_qrels, "q1 0 d1 1 x\n", r":1: expected a qrels line .* found 5 fields"),
        (
            read_qrels,
            "q1 0 d1\n",
            r":1: expected a qrels line 'query_id iteration doc_id grade' \(4 fields\), found 3 "
            r"fields",
        ),
    ],
)
def test_run_and_qrels_readers_refuse_broken_lines(tmp_path, reader, text, message):
    p = tmp_path / "f.txt"
    p.write_text(text)
    with pytest.raises(ValueError, match=message):
        reader(p)


def test_run_lines_are_split_as_trec_eval_splits_them(tmp_path):
    # fields after the run ID are ignored; a no-break space is part of an ID, not a separator
    p = tmp_path / "run.txt"
    p.write_text("q1 Q0 d1 1 2.0 t more junk\nq1\tQ0  d\u00a02 2 1.0 t\n", encoding="utf-8")
    assert read_run(p).rankings == {"q1": {"d1": 2.0, "d\u00a02": 1.0}}
    assert read_run(p).tag == "t"


def test_a_run_with_several_tags_keeps_them_all_in_order(tmp_path):
    p = tmp_path / "run.txt"
    p.write_text("q1 Q0 d1 1 2.0 dense\nq1 Q0 d2 2 1.0 bm25\nq2 Q0 d1 1 2.0 dense\n")
    assert read_run(p).tag == "dense,bm25"


def test_comment_lines_are_skipped_as_trec_eval_does(tmp_path):
    p = tmp_path / "run.txt"
    p.write_text("# my run\nq1 Q0 d1 1 2.0 t\n  # another\nq1 Q0 d#2 2 1.0 t\n")
    assert read_run(p).rankings == {"q1": {"d1": 2.0, "d#2": 1.0}}


KINDS = {
    "run": (RUN_TEXT, "a TREC run file", "read_run(path)"),
    "qrels": (QRELS_TEXT, "qrels", "read_qrels(path)"),
    "trec_eval": (
        "P_5\tt1\t0.4000\nP_5\tall\t0.4000\n",
        "trec_eval -q output",
        "read_trec_eval(path, measure)",
    ),
}


@pytest.mark.parametrize(
    "found, reader",
    [
        ("run", lambda p: read_trec_eval(p, "P_5")),
        ("qrels", lambda p: read_trec_eval(p, "P_5")),
        ("trec_eval", read_run),
        ("qrels", read_run),
        ("run", read_qrels),
        ("trec_eval", read_qrels),
        ("run", lambda p: read_scores_csv(p, score="P_5")),
    ],
    ids=[
        "run->read_trec_eval",
        "qrels->read_trec_eval",
        "trec_eval->read_run",
        "qrels->read_run",
        "run->read_qrels",
        "trec_eval->read_qrels",
        "run->read_scores_csv",
    ],
)
def test_the_wrong_kind_of_file_is_named_with_the_reader_to_use(tmp_path, found, reader):
    text, kind, use = KINDS[found]
    p = tmp_path / "file.txt"
    p.write_text(text)
    with pytest.raises(ValueError) as err:
        reader(p)
    msg = str(err.value)
    assert f"this looks like {kind}" in msg and use in msg, msg


def test_example_measures_are_consistent_with_each_other():
    # issue 15, point 12: P_5 > 0 implies success_5 = 1, and P_5 never counts more relevant
    # documents than num_rel
    for system in ("A", "B"):
        f = DATA / f"simulated_{system}.trec_eval.txt"
        p5, s5, rel = (read_trec_eval(f, m).scores for m in ("P_5", "success_5", "num_rel"))
        assert all((p5[q] > 0) == (s5[q] == 1.0) for q in p5)
        assert all(round(5 * p5[q]) <= rel[q] for q in p5)


def test_a_missing_file_names_the_folder_it_was_looked_for_in(tmp_path, monkeypatch):
    # a notebook's relative paths start in notebooks/: the message says where it looked, and
    # what that folder holds (here the file is simulated_B, not simulated_C)
    monkeypatch.chdir(ROOT / "notebooks")
    with pytest.raises(ValueError) as err:
        read_run("data/simulated_C.run.txt")
    message = str(err.value)
    assert message.startswith("data/simulated_C.run.txt: no such file; looked for ")
    assert f"'simulated_C.run.txt' in {ROOT / 'notebooks' / 'data'} " in message
    assert f"starts in the current folder, {ROOT / 'notebooks'}; a notebook's" in message
    assert "'simulated_B.run.txt'" in message
    with pytest.raises(ValueError, match=r"in .*nowhere\. That folder does not exist either\."):
        read_qrels(tmp_path / "nowhere" / "qrels.txt")
    with pytest.raises(ValueError, match=r"It holds no files\.$"):
        read_trec_eval(tmp_path / "out.txt", "P_5")


@pytest.mark.skipif(not (TREC_EVAL / "results.test").is_file(), reason="needs trec_eval's files")
def test_a_run_line_cut_short_names_its_file_and_line_not_qrels(tmp_path):
    # issue 48: a run line cut to four fields was blamed on the file being qrels
    lines = (TREC_EVAL / "results.test").read_text().splitlines()
    lines[9] = " ".join(lines[9].split()[:4])
    path = tmp_path / "results.test"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError) as err:
        read_run(path)
    message = str(err.value)
    assert message.startswith(f"{path}:10: expected a run line 'query_id Q0 doc_id rank score tag'")
    assert "found 4 fields" in message and "(cut short?)" in message and "qrels" not in message


# --- The fast path (helpers.scale.columns) against the line-by-line reader -----------------

PLAIN_VARIANTS = {
    "crlf": "q1 Q0 d1 1 2.5 t\r\nq1 Q0 d2 2 1.5 t\r\n",
    "tabs and spaces": "q1\tQ0  d1 1\t2.5 t \n q2 Q0 d2 +2 -1.5e-3 t\n",
    "no final newline": "q1 Q0 d1 1 2.5 t\nq1 Q0 d2 2 .5 t",
    "a comment": "# c\nq1 Q0 d1 1 2.5 t\n",
    "a blank line": "q1 Q0 d1 1 2.5 t\n\nq1 Q0 d2 2 1.5 t\n",
    "extra fields": "q1 Q0 d1 1 2.5 t more\n",
    "a hash in a doc ID": "q1 Q0 d#1 1 2.5 t\nq1 Q0 d#2 2 1. t\n",
    "a no-break space in an ID": "q1 Q0 d\u00a01 1 2.5 t\n",
    "a unit separator": "q1 Q0 d\x1f1 1 2.5 t\n",
    "1_000": "q1 Q0 d1 1 1_000 t\n",
    "inf": "q1 Q0 d1 1 inf t\n",
    "an overflowing score": "q1 Q0 d1 1 1e999 t\n",
    "an overflowing rank": "q1 Q0 d1 1e999 2.5 t\n",
    "a rank of 400 digits": f"q1 Q0 d1 {'9' * 400} 2.5 t\n",
    "a rank 1-2": "q1 Q0 d1 1-2 2.5 t\n",
    "a document twice": "q1 Q0 d1 1 2.5 t\nq1 Q0 d1 2 1.5 t\n",
    "a document twice, apart": "q1 Q0 d1 1 2.5 t\nq2 Q0 d1 1 2.5 t\nq1 Q0 d1 2 1.5 t\n",
    "interleaved queries": "q2 Q0 d1 1 2.5 t\nq1 Q0 d1 1 2.5 u\nq2 Q0 d2 2 1.5 t\n",
    "five fields": "q1 Q0 d1 1 2.5\n",
    "empty": "",
    "qrels": "q1 0 d1 2\nq1 0 d2 -1\nq2 0 d1 +0\n",
    "qrels grade 0.5": "q1 0 d1 0.5\n",
    "qrels grade 1e2": "q1 0 d1 1e2\n",
    "qrels twice": "q1 0 d1 1\nq1 0 d1 2\n",
    "ms marco": "q1\td1\t1\nq1\td2\t2\nq2\td1\t1\n",
    "ms marco with spaces and signs": "q1 d1 +1\r\nq1  d2\t-0\nq1 d3 0010",
    "ms marco rank 1.5": "q1\td1\t1\nq1\td2\t1.5\n",
    "ms marco rank 1e2": "q1\td1\t1e2\n",
    "ms marco twice": "q1\td1\t1\nq1\td1\t2\n",
    "ms marco then trec": "q1\td1\t1\nq1 Q0 d2 2 1.5 t\n",
}


def _both_ways(monkeypatch, reader, path):
    """What ``reader`` makes of ``path`` (its table and warnings, or its message) read at once
    where it can, and line by line."""
    out = []
    for fast in (True, False):
        with monkeypatch.context() as m:
            if not fast:
                m.setattr(readers, "read_columns", lambda *_: None)
            try:
                with warnings.catch_warnings(record=True) as said:
                    warnings.simplefilter("always")
                    out.append(repr(reader(path)) + repr([str(w.message) for w in said]))
            except ValueError as err:
                out.append(f"ValueError: {err}")
    return out


def test_the_fast_path_reads_exactly_what_the_line_by_line_reader_reads(tmp_path, monkeypatch):
    files = sorted(DATA.glob("*.txt")) + sorted(TREC_EVAL.glob("*.test*"))  # real files, if there
    for name, text in PLAIN_VARIANTS.items():
        files.append(tmp_path / f"{name}.txt")
        files[-1].write_bytes(text.encode())
    read_plainly = 0
    for path in files:
        for reader, n in ((read_run, 6), (read_qrels, 4)):
            fast, slow = _both_ways(monkeypatch, reader, path)
            assert fast == slow, path  # the same tables in the same order, or the same message
            read_plainly += readers.read_columns(path, n, 0) is not None
    assert read_plainly >= 9  # the chapter's three files and six plain variants went fast
    ms_marco = [p for p in files if readers.read_columns(p, 3, 0) is not None]
    assert len(ms_marco) == 2, ms_marco  # the plain MS MARCO variants went fast too


def _random_run(rng: np.random.Generator, n_fields: int = 6) -> str:
    """A run file as engineers write them, and some as they should not: topics whose lines are
    split or interleaved, IDs of 1 to 40 characters (one long one late, so columns widen),
    tied scores, and now and then a document listed twice, lines apart."""
    lines = []
    for t in rng.permutation(12):
        docs = [f"d{k}" + "x" * int(rng.integers(0, 3)) for k in range(int(rng.integers(1, 40)))]
        docs = list(dict.fromkeys(docs))
        if rng.random() < 0.02:
            docs.append(docs[0])  # listed twice
        scores = np.round(rng.normal(size=len(docs)), 1)  # ties
        scores = scores if rng.random() < 0.2 else np.sort(scores)[::-1]  # mostly score down
        for i, (d, score) in enumerate(zip(docs, scores.tolist(), strict=True)):
            tag = "ab"[int(rng.random() < 0.05)]
            lines.append(
                f"q{t}\t{d}\t{i + 1}" if n_fields == 3 else f"q{t} Q0 {d} {i + 1} {score} {tag}"
            )
    lines.insert(int(rng.integers(len(lines) // 2, len(lines))), lines[0].replace("d", "D" * 39))
    if rng.random() < 0.5:
        rng.shuffle(lines)  # topics interleaved
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("n_fields", [6, 3])
def test_read_in_small_chunks_the_fast_path_reads_what_the_line_by_line_reader_reads(
    tmp_path, monkeypatch, n_fields
):
    # 100 bytes a chunk: topics run across chunks, a document listed twice chunks apart
    monkeypatch.setattr(columns, "CHUNK", 100)
    rng, fast = np.random.default_rng(52), 0
    for i in range(40):
        path = tmp_path / f"run{i}.txt"
        path.write_text(_random_run(rng, n_fields))
        got, want = _both_ways(monkeypatch, read_run, path)
        assert got == want, path.read_text()
        fast += readers.read_columns(path, n_fields, 0) is not None
    assert 20 <= fast < 40  # most went fast; those listing a document twice did not


# --- issue 52: MS MARCO runs, a column missing, scores in the wrong direction -----------------

needs_trec_eval_test = pytest.mark.skipif(
    not (TREC_EVAL / "results.test").is_file(), reason="needs trec_eval's files"
)


def _trec_order(path: Path) -> dict[str, list[list[str]]]:
    """results.test's lines per topic in trec_eval's order (score down, then larger ID first)."""
    by_topic: dict[str, list[list[str]]] = {}
    for line in path.read_text().splitlines():
        by_topic.setdefault(line.split()[0], []).append(line.split())
    for rows in by_topic.values():
        rows.sort(key=lambda x: x[2], reverse=True)
        rows.sort(key=lambda x: float(x[4]), reverse=True)
    return by_topic


@needs_trec_eval_test
def test_an_ms_marco_run_is_scored_exactly_as_the_same_run_in_trec_format(tmp_path):
    from helpers import evaluate

    by_topic = _trec_order(TREC_EVAL / "results.test")
    ms = [f"{q}\t{x[2]}\t{i}" for q, rows in by_topic.items() for i, x in enumerate(rows, 1)]
    (tmp_path / "run.tsv").write_text("\n".join(ms[::-1]) + "\n")  # any line order
    (tmp_path / "slow.tsv").write_text("# a comment: the line-by-line reader\n" + "\n".join(ms))
    trec = [f"{x.replace(chr(9), ' Q0 ', 1).replace(chr(9), ' ')} {-int(x.split()[2])} t"
            for x in ms]  # fmt: skip
    (tmp_path / "run.trec").write_text("\n".join(trec) + "\n")
    qrels, original = read_qrels(TREC_EVAL / "qrels.test"), read_run(TREC_EVAL / "results.test")
    fast, slow = read_run(tmp_path / "run.tsv"), read_run(tmp_path / "slow.tsv")
    as_trec = read_run(tmp_path / "run.trec")
    assert fast.rankings == slow.rankings == as_trec.rankings and fast.tag == slow.tag == ""
    assert all(v < 0 for docs in fast.rankings.values() for v in docs.values())
    for m in ("map", "P_10", "ndcg_cut_10", "recip_rank", "recall_100", "Rprec"):
        want = evaluate(qrels, original, m).scores
        assert evaluate(qrels, fast, m).scores == evaluate(qrels, as_trec, m).scores == want, m


def test_an_ms_marco_run_with_a_rank_that_is_not_whole_is_refused(tmp_path):
    p = tmp_path / "run.tsv"
    p.write_text("q1\td1\t1\nq1\td2\t2.5\n")
    with pytest.raises(ValueError, match=r"run.tsv:2: the rank '2.5' of document 'd2' is not a "):
        read_run(p)
    p.write_text("q1\td1\t1\nq1\td1\t2\n")
    with pytest.raises(ValueError, match=r"run.tsv:2: document 'd1' is listed again"):
        read_run(p)


@pytest.mark.parametrize(
    "line, missing",
    [
        ("q1 Q0 d1 1 2.5", "the tag (the run's name, 6th column) is missing"),
        ("q1 d1 1 2.5 bm25", "the 2nd column ('Q0') is missing"),
        ("q1 Q0 d1 2.5 bm25", "one of rank and score is missing"),
    ],
)
def test_a_five_column_run_says_which_column_is_missing(tmp_path, line, missing):
    p = tmp_path / "run.txt"
    p.write_text(line + "\n")
    with pytest.raises(ValueError) as err:
        read_run(p)
    message = str(err.value)
    assert "found 5 fields" in message and missing in message and "cut short" not in message


def _warnings_of(path: Path) -> list[str]:
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read_run(path)
    return [str(w.message) for w in caught]


@needs_trec_eval_test
@pytest.mark.parametrize("fast", [True, False], ids=["fast path", "line by line"])
def test_scores_in_the_wrong_direction_are_warned_with_trec_evals_rule(tmp_path, fast):
    rows = [x.split() for x in (TREC_EVAL / "results.test").read_text().splitlines()]
    head = "" if fast else "# comment\n"
    variants = {  # results.test's ranks agree with its scores, its lines are in no order
        "distances": [f"{x[0]} Q0 {x[2]} {x[3]} {-float(x[4])} t" for x in rows],
        "swapped": [f"{x[0]} Q0 {x[2]} {x[4]} {x[3]} t" for x in rows],
        "constant": [f"{x[0]} Q0 {x[2]} {x[3]} 1 t" for x in rows],
        "as is": [" ".join(x) for x in rows],
    }
    for name, lines in variants.items():
        (tmp_path / name).write_text(head + "\n".join(lines) + "\n")
        said = _warnings_of(tmp_path / name)
        if name == "as is":
            assert said == []
            continue
        assert len(said) == 1 and "trec_eval ranks documents by score, highest first" in said[0]
        fix = "score = -rank" if name == "constant" else "negate the scores (score = -distance)"
        assert fix in said[0] and "in 3 of 3 topics" in said[0], name


def test_a_run_with_few_reversed_topics_is_not_warned(tmp_path):
    lines = [
        f"q{t} Q0 d{i} {i} {(-1) ** (t < 2) * (10 - i)} t" for t in range(5) for i in (1, 2, 3)
    ]
    (tmp_path / "run.txt").write_text("\n".join(lines) + "\n")
    assert _warnings_of(tmp_path / "run.txt") == []  # 2 of 5 topics rise: not most
    lines = [
        f"q{t} Q0 d{i} {i} {(-1) ** (t < 3) * (10 - i)} t" for t in range(5) for i in (1, 2, 3)
    ]
    (tmp_path / "run.txt").write_text("\n".join(lines) + "\n")
    assert "in 3 of 5 topics the scores rise" in _warnings_of(tmp_path / "run.txt")[0]


@needs_trec_eval_test
def test_read_trec_eval_records_trec_evals_defaults_and_the_files_precision():
    p10 = read_trec_eval(TREC_EVAL / "out.test.aq", "P_10")
    assert p10.made == {"measure": "P_10", "level": 1, "max_docs": None,
                        "from": "trec_eval -q file", "decimals": 4}  # fmt: skip
    told = read_trec_eval(TREC_EVAL / "out.test.aql", "P_10", level=2, max_docs=1000)
    assert (told.made["level"], told.made["max_docs"]) == (2, 1000)
    assert read_trec_eval(TREC_EVAL / "out.test.aq", "num_ret").made["decimals"] == 0
    same = read_trec_eval(TREC_EVAL / "out.test.aq", "ndcg_cut_010")  # the file's ndcg_cut_10
    assert same.scores == read_trec_eval(TREC_EVAL / "out.test.aq", "ndcg_cut_10").scores


def test_the_docs_say_how_many_lines_the_direction_check_reads():
    doc = (ROOT / "docs" / "your-own-runs.md").read_text()
    assert f"in most topics of the first {readers._ORDER_LINES:,} lines" in doc
