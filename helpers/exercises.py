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

# (chapter 7 exercises go here)

# ---------------------------------------------------------------------------
# End of the exercises
# ---------------------------------------------------------------------------
