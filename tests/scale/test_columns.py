"""helpers.scale.columns on its own; tests/runs/test_readers.py and test_scoring.py hold what it
reads and how it orders a run to the line-by-line reader and to rank_topic."""

from __future__ import annotations

import numpy as np

from helpers.scale import columns


def test_a_hash_is_only_a_shortlist(tmp_path, monkeypatch):
    # were every document's hash the same, a document listed twice is still found exactly
    monkeypatch.setattr(columns, "hashes", lambda texts, codes=None: np.zeros(len(texts), "u8"))
    for text, twice in (("q1 Q0 a 1 2 t\nq2 Q0 a 1 2 t\n", False),
                        ("q1 Q0 a 1 2 t\nq2 Q0 a 1 2 t\nq1 Q0 a 2 1 t\n", True)):  # fmt: skip
        (tmp_path / "run.txt").write_text(text)
        assert (columns.read_columns(tmp_path / "run.txt", 6, 0) is None) is twice


def test_judged_documents_are_found_exactly_were_every_hash_the_same(tmp_path, monkeypatch):
    from helpers import evaluate, read_qrels, read_run

    run = "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq1 Q0 c 3 1 t\nq2 Q0 a 1 1 t\nq2 Q0 c 2 0 t\n"
    (tmp_path / "run.txt").write_text(run)
    (tmp_path / "qrels.txt").write_text("q1 0 a 1\nq1 0 c 2\nq1 0 b 0\nq2 0 c 1\nq2 0 x 1\n")
    qrels, run = read_qrels(tmp_path / "qrels.txt"), read_run(tmp_path / "run.txt")
    want = evaluate(qrels, run, "map").scores
    assert want == {"q1": (1 + 2 / 3) / 2, "q2": (1 / 2) / 2}
    monkeypatch.setattr(columns, "hashes", lambda texts, codes=None: np.zeros(len(texts), "u8"))
    assert evaluate(qrels, run, "map").scores == want
