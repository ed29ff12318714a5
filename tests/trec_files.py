"""TREC files the tests share: a small qrels file and run file, written out by hand, for the
tests of the readers and of evaluate (four judged topics, t4 retrieved by no run line, t9 judged
by no qrels line; graded relevance, an unjudged document, and no score ties); and chapter 7's
simulated runs, scored as the chapter scores them."""

from pathlib import Path

import helpers

#: Chapter 7's simulated qrels, run files and trec_eval outputs.
CHAPTER_7_DATA = Path(__file__).resolve().parent.parent / "notebooks" / "data"
#: trec_eval's own test files, kept outside the project: in ../shared/trec_eval-test/ beside the
#: repository, or one folder further up (beside a folder of git worktrees).
TREC_EVAL = next(
    (p for p in (CHAPTER_7_DATA.parents[2], CHAPTER_7_DATA.parents[3])
     if (p / "shared" / "trec_eval-test").is_dir()),
    CHAPTER_7_DATA.parents[2],
) / "shared" / "trec_eval-test"  # fmt: skip

QRELS_TEXT = """t1 0 d1 2
t1 0 d2 0
t1 0 d3 1
t1 0 d4 1
t2 0 d5 1
t2 0 d6 0
t3 0 d7 1
t3 0 d8 2
t4 0 d9 1
"""


RUN_TEXT = """t1 Q0 d2 1 9.0 sys
t1 Q0 d9 2 8.0 sys
t1 Q0 d3 3 7.5 sys
t1 Q0 d1 4 7.0 sys
t1 Q0 dx 5 6.0 sys
t1 Q0 d4 6 5.0 sys
t2 Q0 d6 1 3.0 sys
t2 Q0 d5 2 1.0 sys
t3 Q0 d7 1 0.5 sys
t3 Q0 d8 2 0.4 sys
t9 Q0 d1 1 1.0 sys
"""


def chapter_7_runs(measure: str = "ndcg_cut_10"):
    """Chapter 7's qrels, and its runs A and B scored on ``measure`` by helpers.evaluate."""
    qrels = helpers.read_qrels(CHAPTER_7_DATA / "simulated.qrels.txt")
    runs = (helpers.read_run(CHAPTER_7_DATA / f"simulated_{s}.run.txt") for s in "AB")
    a, b = (helpers.evaluate(qrels, run, measure) for run in runs)
    return qrels, a, b
