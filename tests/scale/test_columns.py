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
