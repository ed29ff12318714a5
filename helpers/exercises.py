"""Checks for the exercises: is a learner's answer right, and if not, what slip is likely?

Every exercise in the series has three cells: the learner's answer cell
(committed as ``answer = ...``), a check cell calling :func:`check`, and the
folded solution. The expected answers and the hints for common wrong answers
live here, not in the notebooks, and ``tests/test_exercises.py`` checks that
each exercise accepts its solution and names each listed slip.

>>> check("0.1", ...)
Exercise 0.1: not answered yet. Replace the ... in the answer cell with your answer, then run this cell again.
>>> check("0.1", 0.025)
Exercise 0.1: correct.
>>> check("0.1", -0.025)
Exercise 0.1: not quite. That is A minus B: the change is d_q = m_B(q) - m_A(q), B minus A.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

__all__ = ["check", "CheckResult"]


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` says about one answer.

    ``status`` is ``"correct"``, ``"slip"`` (a known wrong answer, with its hint),
    ``"wrong"`` (not right, cause unknown) or ``"unanswered"``.
    """

    key: str
    status: str
    message: str

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def __repr__(self) -> str:
        return f"Exercise {self.key}: {self.message}"

    def _repr_html_(self) -> str:
        colour = {"correct": "#009E73", "unanswered": "#4D4D4D"}.get(self.status, "#D55E00")
        return (
            f'<div style="border-left:4px solid {colour};padding:2px 8px">'
            f"<b>Exercise {html.escape(self.key)}:</b> {html.escape(self.message)}</div>"
        )


Matcher = Callable[[object, object], bool]


@dataclass(frozen=True)
class Exercise:
    """One checkable exercise.

    ``expected`` computes the right answer (lazily, from the series' data).
    ``matches(answer, target)`` decides agreement; the default compares numbers
    (or sequences of numbers, or anything with ``low`` and ``high``) within ``tol``.
    ``slips`` pairs a function computing a known wrong answer with its hint.
    ``what`` describes the answer's form, for the "wrong type" message.
    """

    key: str
    expected: Callable[[], object]
    what: str
    tol: float = 5e-4
    slips: tuple[tuple[Callable[[], object], str], ...] = ()
    matches: Matcher | None = None
    validate: Callable[[object], str | None] | None = field(default=None)


_EXERCISES: dict[str, Exercise] = {}


def _register(ex: Exercise) -> None:
    if ex.key in _EXERCISES:
        raise ValueError(f"exercise {ex.key} is registered twice")
    _EXERCISES[ex.key] = ex


def _as_numbers(x: object) -> np.ndarray | None:
    """Numbers as a flat float array, or None if ``x`` is not numbers."""
    if hasattr(x, "low") and hasattr(x, "high"):
        x = (x.low, x.high)
    if isinstance(x, (bool, np.bool_, str, bytes)) or x is None:
        return None
    try:
        arr = np.asarray(x, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    return arr if arr.size and np.all(np.isfinite(arr)) else None


def _close(answer: object, target: object, tol: float) -> bool:
    if isinstance(target, (bool, np.bool_, str)):
        return type(answer) is type(target) and answer == target or (
            isinstance(target, str) and isinstance(answer, str) and answer.strip().lower() == target.lower()
        )
    a, t = _as_numbers(answer), _as_numbers(target)
    return a is not None and t is not None and a.shape == t.shape and bool(np.all(np.abs(a - t) <= tol))


def check(key: str, answer: object) -> CheckResult:
    """Check a learner's answer to exercise ``key`` (for example ``"1.2"``).

    Says whether it is right; for a known wrong answer, names the likely slip;
    for ``...`` (the committed placeholder), says it is not answered yet.
    """
    if key not in _EXERCISES:
        raise ValueError(f"There is no exercise {key!r}; the keys are chapter.number, for example '1.2'.")
    ex = _EXERCISES[key]
    if answer is Ellipsis:
        return CheckResult(key, "unanswered", "not answered yet. Replace the ... in the answer cell with your answer, then run this cell again.")
    if ex.validate is not None:
        problem = ex.validate(answer)
        if problem:
            return CheckResult(key, "wrong", f"expected {ex.what}; {problem}")
    elif ex.matches is None and _as_numbers(answer) is None and not isinstance(answer, (bool, np.bool_, str)):
        return CheckResult(key, "wrong", f"expected {ex.what}; got {type(answer).__name__}.")
    same = ex.matches or (lambda a, t: _close(a, t, ex.tol))
    if same(answer, ex.expected()):
        return CheckResult(key, "correct", "correct.")
    for wrong, hint in ex.slips:
        if same(answer, wrong()):
            return CheckResult(key, "slip", f"not quite. {hint}")
    return CheckResult(key, "wrong", f"not quite. Look again at the prompt: the answer is {ex.what}.")


def _cached(fn: Callable[[], object]) -> Callable[[], object]:
    """Compute an expected value once, on first use."""
    box: list = []

    def get() -> object:
        if not box:
            box.append(fn())
        return box[0]

    return get


# ---------------------------------------------------------------------------
# Chapter 0 (the docstring example above)
# ---------------------------------------------------------------------------
_register(Exercise(
    "0.1",
    expected=lambda: 0.025,
    what="the mean change, a number",
    slips=((lambda: -0.025, "That is A minus B: the change is d_q = m_B(q) - m_A(q), B minus A."),),
))

# ---------------------------------------------------------------------------
# Chapter 1
# ---------------------------------------------------------------------------

# (chapter 1 exercises go here)

# ---------------------------------------------------------------------------
# Chapter 2
# ---------------------------------------------------------------------------

# (chapter 2 exercises go here)

# ---------------------------------------------------------------------------
# Chapter 3
# ---------------------------------------------------------------------------

# (chapter 3 exercises go here)

# ---------------------------------------------------------------------------
# Chapter 4
# ---------------------------------------------------------------------------

# (chapter 4 exercises go here)

# ---------------------------------------------------------------------------
# Chapter 5
# ---------------------------------------------------------------------------

# (chapter 5 exercises go here)

# ---------------------------------------------------------------------------
# Chapter 6
# ---------------------------------------------------------------------------

# (chapter 6 exercises go here)

# ---------------------------------------------------------------------------
# Chapter 7
# ---------------------------------------------------------------------------


def _ch7_data() -> Path:
    return Path(__file__).resolve().parent.parent / "notebooks" / "data"


@_cached
def _ch7_files() -> dict:
    """Chapter 7's example data: qrels, both runs, and the trec_eval -q files."""
    from .runs import read_qrels, read_run, read_scores_csv, read_trec_eval

    d = _ch7_data()
    return {
        "qrels": read_qrels(d / "simulated.qrels.txt"),
        "A": read_run(d / "simulated_A.run.txt"),
        "B": read_run(d / "simulated_B.run.txt"),
        "te_A": read_trec_eval(d / "simulated_A.trec_eval.txt", "ndcg_cut_10").scores,
        "te_B": read_trec_eval(d / "simulated_B.trec_eval.txt", "ndcg_cut_10").scores,
        "csv": read_scores_csv(d / "simulated_users_and_slices.csv", score="ndcg_cut_10_A", slice="query_type"),
    }


def _ch7_change(measure: str, sign: float = 1.0) -> float:
    from .runs import evaluate

    f = _ch7_files()
    a, b = evaluate(f["qrels"], f["A"], measure).scores, evaluate(f["qrels"], f["B"], measure).scores
    return sign * float(np.mean([b[q] - a[q] for q in f["qrels"].topics]))


def _ch7_p5_dropped() -> float:
    from .runs import read_trec_eval

    d = _ch7_data()
    a = read_trec_eval(d / "simulated_A.trec_eval.txt", "P_5").scores
    b = read_trec_eval(d / "simulated_B.trec_eval.txt", "P_5").scores
    return float(np.mean([b[q] - a[q] for q in sorted(set(a) & set(b))]))


_register(Exercise(
    "7.1",
    expected=_cached(lambda: _ch7_change("P_5")),
    what="B's mean P_5 minus A's over the 150 judged topics, a number",
    tol=6e-5,
    slips=(
        (_cached(lambda: _ch7_change("P_5", -1.0)), "That is A minus B: the change is B - A."),
        (_cached(_ch7_p5_dropped), "That leaves out the two topics B retrieved nothing for; evaluate scores them 0, as trec_eval -c does, and so should the comparison."),
        (_cached(lambda: _ch7_change("ndcg_cut_10")), "That is the change in nDCG@10; the question asks for P_5."),
    ),
))


def _ch7_c_reference(a, b, topics):
    return sum(b.get(q, 0.0) - a.get(q, 0.0) for q in topics) / len(topics)


def _ch7_c_union(a, b, topics):  # forgets the topics neither run retrieved
    ids = set(a) | set(b)
    return sum(b.get(q, 0.0) - a.get(q, 0.0) for q in ids) / len(ids)


def _ch7_c_shared(a, b, topics):  # drops the topics a run is missing
    ids = [q for q in topics if q in a and q in b]
    return sum(b[q] - a[q] for q in ids) / len(ids)


def _ch7_c_cases() -> list[tuple[dict, dict, list]]:
    f = _ch7_files()
    return [
        (f["te_A"], f["te_B"], f["qrels"].topics),  # the example: B is missing two topics
        ({"t1": 0.5, "t2": 0.25}, {"t1": 0.75, "t2": 0.5}, ["t1", "t2", "t3"]),  # t3 in neither run
        ({"t1": 0.5}, {"t1": 0.5, "t2": 1.0}, ["t1", "t2"]),  # a topic only B retrieved
    ]


def _ch7_same_function(answer, target) -> bool:
    try:
        return all(abs(float(answer(dict(a), dict(b), list(t))) - target(a, b, t)) <= 1e-9 for a, b, t in _ch7_c_cases())
    except Exception:
        return False


_register(Exercise(
    "7.2",
    expected=lambda: _ch7_c_reference,
    what="a function mean_change_c(a, b, topics) returning a number",
    matches=_ch7_same_function,
    validate=lambda f: None if callable(f) else f"got {type(f).__name__}; define it with def mean_change_c(a, b, topics): ...",
    slips=(
        (lambda: _ch7_c_union, "It averages over the queries the runs retrieved; a judged topic that neither run retrieved must count too, as 0. Loop over topics."),
        (lambda: _ch7_c_shared, "It drops topics a run is missing, like missing='drop'; trec_eval -c scores them 0 instead."),
    ),
))


@_cached
def _ch7_slices():
    from .report import slice_summary
    from .runs import evaluate

    f = _ch7_files()
    a, b = evaluate(f["qrels"], f["A"], "ndcg_cut_10").scores, evaluate(f["qrels"], f["B"], "ndcg_cut_10").scores
    ids = f["qrels"].topics
    types = [f["csv"].slices[q] for q in ids]
    out = {}
    for level in (0.95, 0.90):
        out[level] = slice_summary([a[q] for q in ids], [b[q] for q in ids], types, n_resamples=10_000, rng=2026,
                                   level=level, order=["head", "torso", "tail"])
    return out


def _ch7_interval(level: float, row: str) -> tuple[float, float]:
    iv = _ch7_slices()[level].row(row).interval
    return (iv.low, iv.high)


_register(Exercise(
    "7.3",
    expected=lambda: _ch7_interval(0.95, "tail"),
    what="the tail slice's 95% interval, two numbers (low, high)",
    tol=5e-4,
    slips=(
        (lambda: _ch7_interval(0.90, "tail"), "That is the 90% interval; the question asks for 95%."),
        (lambda: _ch7_interval(0.95, "head"), "That is the head slice; the question asks about tail queries."),
        (lambda: _ch7_interval(0.95, "all queries"), "That is the interval over all queries; the question asks about the tail slice."),
    ),
))

# ---------------------------------------------------------------------------
# End of the exercises
# ---------------------------------------------------------------------------
