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

def _ch1_changes() -> np.ndarray:
    from .data import hit_at_5_example, paired_differences

    a, b = hit_at_5_example()
    return paired_differences(a, b)


# 1.1: the learner writes the plain-Python paired bootstrap, bootstrap_loop(d, n_resamples, seed).
# Any correct loop draws its own random stream, so it is judged by what its means look like
# on chapter 1's 120 changes with R = 2,000: their average is the observed mean change (within
# 0.004, about 5 Monte Carlo standard errors) and their spread the bootstrap standard error
# sd(d) / sqrt(Q) (within 15%). Known mistakes have their own signatures.
_LOOP_R, _LOOP_SEED = 2000, 7
_LOOP_RUNS: dict[int, tuple[object, object]] = {}  # id -> (function, its means or the exception it raised)


def _loop_run(fn: Callable) -> object:
    """The function's means on chapter 1's changes (R = 2,000, seed 7), computed once per function."""
    cached = _LOOP_RUNS.get(id(fn))
    if cached is None or cached[0] is not fn:
        try:
            result: object = np.asarray(fn(_ch1_changes(), _LOOP_R, _LOOP_SEED), dtype=float).ravel()
        except Exception as exc:  # a learner's function may fail in any way; validate reports it
            result = exc
        _LOOP_RUNS[id(fn)] = cached = (fn, result)
    return cached[1]


def _loop_kind(fn: object) -> str:
    """'correct', a named slip ('constant', 'sums'), or 'other'."""
    m = _loop_run(fn) if callable(fn) else None
    if not isinstance(m, np.ndarray) or m.size != _LOOP_R or not np.all(np.isfinite(m)):
        return "other"
    d = _ch1_changes()
    se = float(d.std()) / np.sqrt(d.size)
    if float(m.std()) < 1e-12:
        return "constant"
    if abs(float(m.mean()) - d.mean()) <= 0.004 and abs(float(m.std()) / se - 1) <= 0.15:
        return "correct"
    if abs(float(m.mean()) - d.sum()) <= 0.004 * d.size:
        return "sums"
    return "other"


def _validate_loop(fn: object) -> str | None:
    if not callable(fn):
        return f"got {type(fn).__name__}; write a function and pass the function itself (no brackets)."
    m = _loop_run(fn)
    if isinstance(m, Exception):
        return f"calling bootstrap_loop(d, {_LOOP_R}, seed={_LOOP_SEED}) raised {type(m).__name__}: {m}"
    if m.size != _LOOP_R:
        return f"bootstrap_loop(d, {_LOOP_R}, seed) returned {m.size} numbers; it should return one mean per resample, {_LOOP_R}."
    return None


def _reference_loop(d, n_resamples, seed):
    import random

    stream = random.Random(seed)
    n = len(d)
    values = list(d)
    means = []
    for _ in range(n_resamples):
        means.append(sum(values[stream.randrange(n)] for _ in range(n)) / n)
    return means


def _loop_without_replacement(d, n_resamples, seed):
    rng = np.random.default_rng(seed)
    return [float(np.mean(rng.permutation(d))) for _ in range(n_resamples)]


def _loop_sums(d, n_resamples, seed):
    rng = np.random.default_rng(seed)
    return [float(np.sum(np.asarray(d)[rng.integers(0, len(d), size=len(d))])) for _ in range(n_resamples)]


_register(Exercise(
    "1.1",
    expected=lambda: _reference_loop,
    what="a function bootstrap_loop(d, n_resamples, seed) returning n_resamples resampled mean changes",
    matches=lambda answer, target: _loop_kind(answer) != "other" and _loop_kind(answer) == _loop_kind(target),
    validate=_validate_loop,
    slips=(
        (lambda: _loop_without_replacement,
         "Every resample has the same mean. Draw new queries inside the loop, and draw them with replacement "
         "(random.sample, a shuffle or a permutation draws without replacement and always gives back the same Q queries)."),
        (lambda: _loop_sums, "Your numbers are sums of Q changes: divide each resample's sum by Q to get its mean."),
    ),
))


def _numpy_means(seed: int = 7, shape: str = "RQ", axis: int = 1, high_offset: int = 0) -> np.ndarray:
    d = _ch1_changes()
    q, r = d.size, 5000
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, q + high_offset, size=(r, q) if shape == "RQ" else (q, r))
    return d[idx].mean(axis=axis)


def _legacy_numpy_means() -> np.ndarray:
    d = _ch1_changes()
    return d[np.random.RandomState(7).randint(0, d.size, size=(5000, d.size))].mean(axis=1)


_register(Exercise(
    "1.2",
    expected=lambda: _numpy_means(),
    what="an array of the 5,000 resampled means, numpy_means = d[idx].mean(axis=1)",
    tol=1e-12,
    slips=(
        (lambda: _numpy_means(shape="QR", axis=0),
         "Your index matrix has shape (Q, R), one resample per column. Draw size=(R, Q): one resample per row, "
         "then average each row with axis=1."),
        (lambda: _numpy_means(axis=0),
         "These are Q = 120 numbers, one per column: average along each row (axis=1) to get one mean per resample."),
        (lambda: _numpy_means(high_offset=-1),
         "rng.integers(0, Q - 1) never draws the last query: the upper end of integers is already exclusive, so use rng.integers(0, Q, ...)."),
        (_legacy_numpy_means,
         "That is numpy's legacy generator (np.random.seed / randint). Use rng = np.random.default_rng(7) and rng.integers."),
    ),
))


def _shuffled_width(which: str = "shuffled") -> float:
    from .data import hit_at_5_example
    from .intervals import percentile_interval
    from .resampling import paired_bootstrap

    a, b = hit_at_5_example()
    if which == "shuffled":
        b = np.random.default_rng(0).permutation(b)
    iv = percentile_interval(paired_bootstrap(b - a, n_resamples=5000, rng=7))
    return float(iv.high - iv.low)


_register(Exercise(
    "1.3",
    expected=lambda: _shuffled_width(),
    what="the width of the 95% interval from the shuffled pairs, a number",
    slips=((lambda: _shuffled_width("real"),
            "That is the width of the real paired interval: bootstrap the differences of the shuffled pairs, b_shuffled - a."),),
))

# ---------------------------------------------------------------------------
# Chapter 2
# ---------------------------------------------------------------------------

def _ch2_counts(zero: str = "tolerance") -> tuple[float, float]:
    from .data import FOUR_PAIR_CHANGES
    from .resampling import enumerate_resamples

    d = np.array(FOUR_PAIR_CHANGES)
    means = d[enumerate_resamples(4)].mean(axis=1)
    near_zero = np.abs(means) <= 1e-12
    negative = int(((means < 0) & ~near_zero).sum())
    if zero == "exact":
        return negative, int((means == 0).sum())
    if zero == "shares":
        return negative / 256, int(near_zero.sum()) / 256
    if zero == "with-zero":
        return negative + int(near_zero.sum()), int(near_zero.sum())
    return negative, int(near_zero.sum())


_register(Exercise(
    "2.1",
    expected=lambda: _ch2_counts(),
    what="two counts (negative, zero), for example (40, 10)",
    tol=1e-9,
    slips=(
        (lambda: _ch2_counts("exact"),
         "That counts only means that are exactly 0.0 in floating point. Adding up changes such as +0.10 and -0.06 "
         "can leave a rounding error near 1e-17 where the exact mean is 0: count a mean as zero when "
         "abs(mean) <= 1e-12 (or use the rounded means_r)."),
        (lambda: _ch2_counts("shares"), "Those are shares of the 256 draws; the question asks for counts."),
        (lambda: _ch2_counts("with-zero"), "Your negative count includes the means that are zero: count mean < 0 only."),
    ),
))


def _draw_number(indices: tuple[int, ...], base: int = 4, first: int = 1) -> int:
    return first + sum(i * base ** (len(indices) - 1 - j) for j, i in enumerate(indices))


_register(Exercise(
    "2.2",
    expected=lambda: _draw_number((1, 0, 3, 2)),
    what="a draw number from 1 to 256",
    tol=1e-9,
    slips=(
        (lambda: _draw_number((1, 0, 3, 2), first=0), "Off by one: draws are numbered from 1, so k = 1 + (the base-4 number)."),
        (lambda: _draw_number((2, 3, 0, 1)), "You read the digits in reverse order: q2 is the first, most significant digit (times 64)."),
        (lambda: _draw_number((2, 1, 4, 3)), "The digits are the query indices 0 to 3 (q1 is 0), not the query numbers 1 to 4."),
    ),
))


def _bad_interval(d3: float = -0.20) -> tuple[float, float]:
    from .intervals import percentile_interval
    from .resampling import enumerate_resamples

    d = np.array([0.10, 0.02, d3, 0.04])
    return tuple(percentile_interval(d[enumerate_resamples(4)].mean(axis=1), level=0.95))


_register(Exercise(
    "2.3",
    expected=lambda: _bad_interval(),
    what="the exact 95% interval (low, high), or the Interval itself",
    slips=((lambda: _bad_interval(-0.06), "That is the interval of the original changes: set q3's change to -0.20 first."),),
))

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
