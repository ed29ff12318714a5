"""Checks for the exercises: is a learner's answer right, and if not, what slip is likely?

Every exercise in the series has three cells: the learner's answer cell
(committed as ``answer = ...``), a check cell calling :func:`check`, and the
folded solution. The expected answers and the hints for common wrong answers
live here, not in the notebooks, and ``tests/test_exercises.py`` checks that
each exercise accepts its solution and names each listed slip.

>>> check("0.1", ...)
Exercise 0.1: not answered yet. Replace the ... in the answer cell with your answer, then run this
cell again.
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
        return (
            type(answer) is type(target)
            and answer == target
            or (
                isinstance(target, str)
                and isinstance(answer, str)
                and answer.strip().lower() == target.lower()
            )
        )
    a, t = _as_numbers(answer), _as_numbers(target)
    return (
        a is not None
        and t is not None
        and a.shape == t.shape
        and bool(np.all(np.abs(a - t) <= tol))
    )


def _not_a_function(answer: object, name: str) -> str | None:
    """The message for an answer that should be a function and is not, else None."""
    if callable(answer):
        return None
    return (
        f"got {type(answer).__name__}; write a function and put its name (not a call) after "
        f"{name} = ."
    )


def check(key: str, answer: object) -> CheckResult:
    """Check a learner's answer to exercise ``key`` (for example ``"1.2"``).

    Says whether it is right; for a known wrong answer, names the likely slip;
    for ``...`` (the committed placeholder), says it is not answered yet.
    """
    if key not in _EXERCISES:
        raise ValueError(
            f"There is no exercise {key!r}; the keys are chapter.number, for example '1.2'."
        )
    ex = _EXERCISES[key]
    if answer is Ellipsis:
        return CheckResult(
            key,
            "unanswered",
            "not answered yet. Replace the ... in the answer cell with your answer, then run this "
            "cell again.",
        )
    if ex.validate is not None:
        problem = ex.validate(answer)
        if problem:
            return CheckResult(key, "wrong", f"expected {ex.what}; {problem}")
    elif (
        ex.matches is None
        and _as_numbers(answer) is None
        and not isinstance(answer, (bool, np.bool_, str))
    ):
        return CheckResult(key, "wrong", f"expected {ex.what}; got {type(answer).__name__}.")
    same = ex.matches or (lambda a, t: _close(a, t, ex.tol))
    if same(answer, ex.expected()):
        return CheckResult(key, "correct", "correct.")
    for wrong, hint in ex.slips:
        if same(answer, wrong()):
            return CheckResult(key, "slip", f"not quite. {hint}")
    return CheckResult(
        key, "wrong", f"not quite. Look again at the prompt: the answer is {ex.what}."
    )


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
_register(
    Exercise(
        "0.1",
        expected=lambda: 0.025,
        what="the mean change, a number",
        slips=(
            (lambda: -0.025, "That is A minus B: the change is d_q = m_B(q) - m_A(q), B minus A."),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 1
# ---------------------------------------------------------------------------


def _ch1_changes() -> np.ndarray:
    from .data import paired_differences
    from .examples import hit_at_5_example

    a, b = hit_at_5_example()
    return paired_differences(a, b)


# 1.1: the learner writes the plain-Python paired bootstrap, bootstrap_loop(d, n_resamples, seed).
# Any correct loop draws its own random stream, so it is judged by what its means look like
# on chapter 1's 120 changes with R = 2,000: their average is the observed mean change (within
# 0.004, about 5 Monte Carlo standard errors) and their spread the bootstrap standard error
# sd(d) / sqrt(Q) (within 15%). Known mistakes have their own signatures.
_LOOP_R, _LOOP_SEED = 2000, 7
_LOOP_RUNS: dict[
    int, tuple[object, object]
] = {}  # id -> (function, its means or the exception it raised)


def _loop_run(fn: Callable) -> object:
    """The function's means on chapter 1's changes (R = 2,000, seed 7), computed once per
    function.
    """
    cached = _LOOP_RUNS.get(id(fn))
    if cached is None or cached[0] is not fn:
        try:
            result: object = np.asarray(
                fn(_ch1_changes(), _LOOP_R, _LOOP_SEED), dtype=float
            ).ravel()
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
    if (problem := _not_a_function(fn, "bootstrap_loop")) is not None:
        return problem
    m = _loop_run(fn)
    if isinstance(m, Exception):
        return (
            f"calling bootstrap_loop(d, {_LOOP_R}, seed={_LOOP_SEED}) raised {type(m).__name__}: "
            f"{m}"
        )
    if m.size != _LOOP_R:
        return (
            f"bootstrap_loop(d, {_LOOP_R}, seed) returned {m.size} numbers; it should return one "
            f"mean per resample, {_LOOP_R}."
        )
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
    return [
        float(np.sum(np.asarray(d)[rng.integers(0, len(d), size=len(d))]))
        for _ in range(n_resamples)
    ]


_register(
    Exercise(
        "1.1",
        expected=lambda: _reference_loop,
        what=(
            "a function bootstrap_loop(d, n_resamples, seed) returning n_resamples resampled mean "
            "changes"
        ),
        matches=lambda answer, target: (
            _loop_kind(answer) != "other" and _loop_kind(answer) == _loop_kind(target)
        ),
        validate=_validate_loop,
        slips=(
            (
                lambda: _loop_without_replacement,
                "Every resample has the same mean. Draw new queries inside the loop, and draw them "
                "with replacement "
                "(random.sample, a shuffle or a permutation draws without replacement and always "
                "gives back the same Q queries).",
            ),
            (
                lambda: _loop_sums,
                "Your numbers are sums of Q changes: divide each resample's sum by Q to get its "
                "mean.",
            ),
        ),
    )
)


def _numpy_means(
    seed: int = 7, shape: str = "RQ", axis: int = 1, high_offset: int = 0
) -> np.ndarray:
    d = _ch1_changes()
    q, r = d.size, 5000
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, q + high_offset, size=(r, q) if shape == "RQ" else (q, r))
    return d[idx].mean(axis=axis)


def _legacy_numpy_means() -> np.ndarray:
    d = _ch1_changes()
    return d[np.random.RandomState(7).randint(0, d.size, size=(5000, d.size))].mean(axis=1)


_register(
    Exercise(
        "1.2",
        expected=lambda: _numpy_means(),
        what="an array of the 5,000 resampled means, numpy_means = d[idx].mean(axis=1)",
        tol=1e-12,
        slips=(
            (
                lambda: _numpy_means(shape="QR", axis=0),
                "Your index matrix has shape (Q, R), one resample per column. Draw size=(R, Q): "
                "one resample per row, "
                "then average each row with axis=1.",
            ),
            (
                lambda: _numpy_means(axis=0),
                "These are Q = 120 numbers, one per column: average along each row (axis=1) to get "
                "one mean per resample.",
            ),
            (
                lambda: _numpy_means(high_offset=-1),
                "rng.integers(0, Q - 1) never draws the last query: the upper end of integers is "
                "already exclusive, so use rng.integers(0, Q, ...).",
            ),
            (
                _legacy_numpy_means,
                "That is numpy's legacy generator (np.random.seed / randint). Use rng = "
                "np.random.default_rng(7) and rng.integers.",
            ),
        ),
    )
)


def _shuffled_width(which: str = "shuffled") -> float:
    from .examples import hit_at_5_example
    from .intervals import percentile_interval
    from .resampling import paired_bootstrap

    a, b = hit_at_5_example()
    if which == "shuffled":
        b = np.random.default_rng(0).permutation(b)
    iv = percentile_interval(paired_bootstrap(b - a, n_resamples=5000, rng=7))
    return float(iv.high - iv.low)


_register(
    Exercise(
        "1.3",
        expected=lambda: _shuffled_width(),
        what="the width of the 95% interval from the shuffled pairs, a number",
        slips=(
            (
                lambda: _shuffled_width("real"),
                "That is the width of the real paired interval: bootstrap the differences of the "
                "shuffled pairs, b_shuffled - a.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 2
# ---------------------------------------------------------------------------


def _ch2_counts(zero: str = "tolerance") -> tuple[float, float]:
    from .examples import FOUR_PAIR_CHANGES
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


_register(
    Exercise(
        "2.1",
        expected=lambda: _ch2_counts(),
        what="two counts (negative, zero), for example (40, 10)",
        tol=1e-9,
        slips=(
            (
                lambda: _ch2_counts("exact"),
                "That counts only means that are exactly 0.0 in floating point. Adding up changes "
                "such as +0.10 and -0.06 "
                "can leave a rounding error near 1e-17 where the exact mean is 0: count a mean as "
                "zero when "
                "abs(mean) <= 1e-12 (or use the rounded means_r).",
            ),
            (
                lambda: _ch2_counts("shares"),
                "Those are shares of the 256 draws; the question asks for counts.",
            ),
            (
                lambda: _ch2_counts("with-zero"),
                "Your negative count includes the means that are zero: count mean < 0 only.",
            ),
        ),
    )
)


def _draw_number(indices: tuple[int, ...], base: int = 4, first: int = 1) -> int:
    return first + sum(i * base ** (len(indices) - 1 - j) for j, i in enumerate(indices))


_register(
    Exercise(
        "2.2",
        expected=lambda: _draw_number((1, 0, 3, 2)),
        what="a draw number from 1 to 256",
        tol=1e-9,
        slips=(
            (
                lambda: _draw_number((1, 0, 3, 2), first=0),
                "Off by one: draws are numbered from 1, so k = 1 + (the base-4 number).",
            ),
            (
                lambda: _draw_number((2, 3, 0, 1)),
                "You read the digits in reverse order: q2 is the first, most significant digit "
                "(times 64).",
            ),
            (
                lambda: _draw_number((2, 1, 4, 3)),
                "The digits are the query indices 0 to 3 (q1 is 0), not the query numbers 1 to 4.",
            ),
        ),
    )
)


def _bad_interval(d3: float = -0.20) -> tuple[float, float]:
    from .intervals import percentile_interval
    from .resampling import enumerate_resamples

    d = np.array([0.10, 0.02, d3, 0.04])
    return tuple(percentile_interval(d[enumerate_resamples(4)].mean(axis=1), level=0.95))


_register(
    Exercise(
        "2.3",
        expected=lambda: _bad_interval(),
        what="the exact 95% interval (low, high), or the Interval itself",
        slips=(
            (
                lambda: _bad_interval(-0.06),
                "That is the interval of the original changes: set q3's change to -0.20 first.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 3
# ---------------------------------------------------------------------------


def _ch3_exact():
    from .data import paired_differences
    from .examples import hit_at_5_example
    from .resampling import exact_bootstrap_distribution

    return exact_bootstrap_distribution(paired_differences(*hit_at_5_example()))


_ch3_exact_cached = _cached(_ch3_exact)


def _ch3_interval(level: float, shift: int = 0) -> tuple[float, float]:
    from .intervals import percentile_interval

    ex = _ch3_exact_cached()
    iv = percentile_interval(ex.values, level, weights=ex.probabilities)
    return (iv.low + shift / 120, iv.high + shift / 120)


_register(
    Exercise(
        "3.1",
        expected=lambda: _ch3_interval(0.90),
        what="the exact 90% interval as (low, high)",
        slips=(
            (
                lambda: _ch3_interval(0.95),
                "That is the 95% interval; the question asks for 90% (level=0.90).",
            ),
            (
                lambda: _ch3_interval(0.90, -1),
                "Both ends are one grid step (1/120) too low: an off-by-one order statistic. "
                "The rule takes the smallest v with F(v) > 0.05 (and > 0.95), the first value past "
                "the level.",
            ),
        ),
    )
)


def _ch3_smallest_r() -> int:
    from .intervals import endpoint_distribution

    ex = _ch3_exact_cached()
    for n in (100_000, 200_000, 300_000, 400_000, 500_000):
        e = endpoint_distribution(ex.values, ex.probabilities, n_resamples=n)
        if e.high[np.isclose(e.values, 0)].sum() >= 0.99:
            return n
    raise AssertionError("no R in the grid reaches 0.99")


_register(
    Exercise(
        "3.2",
        expected=_cached(_ch3_smallest_r),
        what="a number of resamples R from the grid 100,000 ... 500,000",
        tol=0.5,
        slips=(
            (
                lambda: 300_000,
                "At R = 300,000 the probability is about 0.989, just short of 0.99; look one step "
                "further.",
            ),
            (
                lambda: 317_934,
                "That is the binomial approximation; the question asks for the smallest R on the "
                "grid that reaches 0.99 exactly.",
            ),
        ),
    )
)


def _ch3_reference_exact(changes: object) -> tuple[np.ndarray, np.ndarray]:
    from .resampling import exact_bootstrap_distribution

    ex = exact_bootstrap_distribution(np.asarray(changes, dtype=float))
    return ex.values, ex.probabilities


def _ch3_equal_weights(changes: object) -> tuple[np.ndarray, np.ndarray]:
    """A known slip: every multiset equally likely."""
    import itertools

    c = np.asarray(changes, dtype=float)
    means = [
        c[list(m)].mean() for m in itertools.combinations_with_replacement(range(len(c)), len(c))
    ]
    values, counts = np.unique(np.round(means, 12), return_counts=True)
    return values, counts / counts.sum()


def _ch3_counts_not_probabilities(changes: object) -> tuple[np.ndarray, np.ndarray]:
    """A known slip: numbers of ordered draws, not divided by Q**Q."""
    values, probs = _ch3_reference_exact(changes)
    return values, probs * len(np.asarray(changes)) ** len(np.asarray(changes))


_CH3_SAMPLES = ((0.10, 0.02, -0.06, 0.04), (0.3, -0.1, 0.0, 0.0, 0.25))


def _ch3_distribution_of(fn: Callable, changes: tuple) -> tuple[np.ndarray, np.ndarray] | None:
    try:
        values, probs = fn(np.array(changes))
        values = np.round(np.asarray(values, dtype=float).ravel(), 12)
        probs = np.asarray(probs, dtype=float).ravel()
    except Exception:  # a learner's function may fail in any way; validate reports it
        return None
    if values.shape != probs.shape:
        return None
    merged: dict[float, float] = {}
    for v, p in zip(values.tolist(), probs.tolist(), strict=False):
        merged[v] = merged.get(v, 0.0) + p
    keys = sorted(merged)
    return np.array(keys), np.array([merged[k] for k in keys])


def _ch3_same_distribution(answer: object, target: object) -> bool:
    for changes in _CH3_SAMPLES:
        got, want = _ch3_distribution_of(answer, changes), _ch3_distribution_of(target, changes)
        if got is None or want is None or got[0].shape != want[0].shape:
            return False
        if not (
            np.allclose(got[0], want[0], rtol=0, atol=1e-9)
            and np.allclose(got[1], want[1], rtol=0, atol=1e-9)
        ):
            return False
    return True


def _ch3_validate(answer: object) -> str | None:
    if (problem := _not_a_function(answer, "my_exact")) is not None:
        return problem
    try:
        out = answer(np.array(_CH3_SAMPLES[0]))
        values, probs = out
        if np.shape(values) != np.shape(probs):
            return "your function's values and probabilities have different lengths."
    except Exception as exc:  # report the learner's error in words
        return (
            f"calling it on the four changes raised {type(exc).__name__}: {exc}. It should return "
            "(values, probabilities)."
        )
    return None


_register(
    Exercise(
        "3.3",
        expected=lambda: _ch3_reference_exact,
        what=(
            "a function returning (values, probabilities), the exact bootstrap distribution of the "
            "mean"
        ),
        matches=_ch3_same_distribution,
        validate=_ch3_validate,
        slips=(
            (
                lambda: _ch3_equal_weights,
                "The multisets are not equally likely: weight each by its number of orderings, "
                "Q! / (c_1! ... c_Q!), divided by Q**Q.",
            ),
            (
                lambda: _ch3_counts_not_probabilities,
                "Those are numbers of ordered draws; divide them by Q**Q to get probabilities.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 4
# ---------------------------------------------------------------------------


def _ch4_study() -> tuple[np.ndarray, np.ndarray]:
    from .examples import simulated_user_study

    return simulated_user_study(np.random.default_rng(2024))


def _ch4_interval(kind: str) -> tuple[float, float]:
    from .intervals import percentile_interval
    from .resampling import cluster_bootstrap, paired_bootstrap

    d, users = _ch4_study()
    if kind == "queries":
        means = paired_bootstrap(d, n_resamples=10_000, rng=1)
    else:
        means = cluster_bootstrap(d, users, n_resamples=10_000, rng=1, weighting=kind)
    iv = percentile_interval(means)
    return (iv.low, iv.high)


_register(
    Exercise(
        "4.1",
        expected=_cached(lambda: _ch4_interval("cluster")),
        what="the user-weighted user-cluster 95% interval as (low, high)",
        tol=2e-4,
        slips=(
            (
                _cached(lambda: _ch4_interval("query")),
                'That is the query-weighted interval (one_user): pass weighting="cluster" to '
                "cluster_bootstrap.",
            ),
            (
                _cached(lambda: _ch4_interval("queries")),
                "That interval resamples queries, not users: use helpers.cluster_bootstrap with "
                "sample_users.",
            ),
        ),
    )
)


def _ch4_reference_means(d: object, users: object, idx: object) -> np.ndarray:
    from .resampling import cluster_totals

    t = cluster_totals(d, users)
    idx = np.asarray(idx)
    return t.sums[idx].sum(axis=1) / t.counts[idx].sum(axis=1)


def _ch4_user_weighted(d: object, users: object, idx: object) -> np.ndarray:
    """A known slip: the average of the drawn users' means."""
    from .resampling import cluster_totals

    return cluster_totals(d, users).means[np.asarray(idx)].mean(axis=1)


def _ch4_per_user_count(d: object, users: object, idx: object) -> np.ndarray:
    """A known slip: the drawn users' total change divided by the number of users drawn."""
    from .resampling import cluster_totals

    idx = np.asarray(idx)
    return cluster_totals(d, users).sums[idx].sum(axis=1) / idx.shape[1]


def _ch4_cases() -> list[tuple[object, object, np.ndarray]]:
    from .examples import four_pair_example
    from .resampling import enumerate_resamples

    ex = four_pair_example()
    d7, users7 = _ch4_study()
    random_idx = np.random.default_rng(0).integers(
        0, users7.max() + 1, size=(200, users7.max() + 1)
    )
    return [(ex["changes"], ex["users"], enumerate_resamples(3)), (d7, users7, random_idx)]


_ch4_cases_cached = _cached(_ch4_cases)


def _ch4_same_means(answer: object, target: object) -> bool:
    for d, users, idx in _ch4_cases_cached():
        try:
            got = np.asarray(answer(d, users, idx), dtype=float).ravel()
        except Exception:  # a learner's function may fail in any way; validate reports it
            return False
        want = np.asarray(target(d, users, idx), dtype=float)
        if got.shape != want.shape or not np.allclose(got, want, rtol=0, atol=1e-12):
            return False
    return True


def _ch4_validate(answer: object) -> str | None:
    if (problem := _not_a_function(answer, "my_user_means")) is not None:
        return problem
    d, users, idx = _ch4_cases_cached()[0]
    try:
        got = np.asarray(answer(d, users, idx), dtype=float)
    except Exception as exc:  # report the learner's error in words
        return f"calling it on the three-user example raised {type(exc).__name__}: {exc}."
    if got.size != len(idx):
        return (
            f"it returned {got.size} numbers for {len(idx)} resamples; return one mean per row of "
            "idx."
        )
    return None


_register(
    Exercise(
        "4.2",
        expected=lambda: _ch4_reference_means,
        what=(
            "a function user_means(d, users, idx) returning one query-weighted mean per row of idx"
        ),
        matches=_ch4_same_means,
        validate=_ch4_validate,
        slips=(
            (
                lambda: _ch4_user_weighted,
                'That is the average of the drawn users\' means (weighting="cluster"); '
                "the question asks for the "
                "query-weighted mean: total change of the drawn queries over their number.",
            ),
            (
                lambda: _ch4_per_user_count,
                "You divided by the number of users drawn; divide by the number of query rows the "
                "drawn users bring.",
            ),
        ),
    )
)


def _ch4_coverages(
    n_studies: int, n_resamples: int, seed: int, user_sd: float
) -> tuple[float, float]:
    from .examples import simulated_user_study
    from .intervals import percentile_interval
    from .resampling import cluster_bootstrap, paired_bootstrap

    rng = np.random.default_rng(seed)
    hits = np.zeros(2)
    for _ in range(n_studies):
        d, users = simulated_user_study(rng, user_sd=user_sd)
        for k, means in enumerate(
            (
                paired_bootstrap(d, n_resamples=n_resamples, rng=rng),
                cluster_bootstrap(d, users, n_resamples=n_resamples, rng=rng),
            )
        ):
            iv = percentile_interval(means)
            hits[k] += iv.low <= 0.02 <= iv.high
    return tuple(hits / n_studies)


_ch4_no_effect = _cached(lambda: _ch4_coverages(300, 500, 5, 0.0))

_register(
    Exercise(
        "4.3",
        expected=_ch4_no_effect,
        what="the two coverages as (query-level, user-cluster)",
        tol=1e-3,
        slips=(
            (
                lambda: _ch4_no_effect()[::-1],
                "The order is swapped: give the query-level coverage first, then the user-cluster "
                "one.",
            ),
            (
                _cached(lambda: _ch4_coverages(1000, 1000, 4, 0.08)),
                "Those are section 7's coverages, with user effects on: pass user_sd=0.0.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 5
# ---------------------------------------------------------------------------


def _hit_changes() -> np.ndarray:
    from .data import paired_differences
    from .examples import hit_at_5_example

    a, b = hit_at_5_example()
    return paired_differences(a, b)


def _rand_p(changes: object, alternative: str = "two-sided") -> float:
    from .significance import randomization_test

    return randomization_test(changes, alternative=alternative).pvalue


@dataclass(frozen=True)
class _FunctionTarget:
    """What a learner's function should return on a few inputs (or a known wrong version of it).

    ``matches`` calls the learner's function on ``inputs`` and compares with ``values``;
    a ``_FunctionTarget`` itself (as the tests pass it) is compared directly.
    """

    name: str
    inputs: tuple
    values: tuple


def _function_validate(answer: object) -> str | None:
    """A function exercise wants a function (or, in the tests, a target)."""
    if isinstance(answer, _FunctionTarget) or callable(answer):
        return None
    return f"got {type(answer).__name__}; define a function (def ...) and pass the function itself."


def _function_matches(call_with: Callable[[Callable, object], object], tol: float) -> Matcher:
    def matches(answer: object, target: object) -> bool:
        if isinstance(answer, _FunctionTarget):
            got = answer.values
        else:
            try:
                got = tuple(call_with(answer, x) for x in target.inputs)
            except Exception:  # a learner's function that fails does not match
                return False
        try:
            g = np.asarray(got, dtype=float).ravel()
            t = np.asarray(target.values, dtype=float).ravel()
        except (TypeError, ValueError):
            return False
        return g.shape == t.shape and bool(np.all(np.abs(g - t) <= tol))

    return matches


_register(
    Exercise(
        "5.1",
        expected=_cached(lambda: _rand_p(_hit_changes(), "less")),
        what="the one-sided p-value for 'B is worse' (alternative='less'), a number",
        slips=(
            (
                _cached(lambda: _rand_p(_hit_changes())),
                "That is the two-sided p-value; the question asks for the one-sided "
                "alternative='less'.",
            ),
            (
                _cached(lambda: _rand_p(_hit_changes(), "greater")),
                "That is alternative='greater' (is B better?); the worry was that B is worse: "
                "alternative='less'.",
            ),
        ),
    )
)

_register(
    Exercise(
        "5.2",
        expected=_cached(lambda: _rand_p(np.concatenate([_hit_changes(), np.zeros(1000)]))),
        what="the exact two-sided p-value with the 1,000 ties added, a number",
        slips=(
            (
                _cached(lambda: float(np.concatenate([_hit_changes(), np.zeros(1000)]).mean())),
                "That is the mean change over the 1,120 queries; the question asks for the "
                "p-value.",
            ),
            (
                _cached(lambda: _rand_p(np.concatenate([_hit_changes(), np.zeros(1000)]), "less")),
                "That is a one-sided p-value; the question asks for the two-sided one.",
            ),
        ),
    )
)


def _r_needed(p: float, se: float = 0.002) -> int:
    return int(np.ceil(p * (1 - p) / se**2))


_register(
    Exercise(
        "5.3",
        expected=_cached(lambda: _r_needed(_rand_p(_hit_changes()))),
        what="the number of random sign vectors R, a whole number",
        tol=0.5,
        slips=(
            (
                lambda: _r_needed(0.05),
                "You used p = 0.05; use the exact p-value of the 120 queries, about 0.077.",
            ),
            (
                lambda: _r_needed(0.5),
                "That is the worst case p = 0.5; the question asks for p near the exact 0.077.",
            ),
            (
                _cached(
                    lambda: int(
                        np.ceil(_rand_p(_hit_changes()) * (1 - _rand_p(_hit_changes())) / 0.002)
                    )
                ),
                "The standard error is sqrt(p(1 - p)/R), so R = p(1 - p) / SE**2: square the "
                "0.002.",
            ),
        ),
    )
)


def _enumerated_p(
    changes: object, *, side: str = "two-sided", strict: bool = False, plus_one: bool = False
) -> float:
    """The sign-flip p-value by plain enumeration, or one of its common mistakes."""
    import itertools

    x = np.asarray(changes, dtype=float)
    obs = x.mean()
    count = 0
    for signs in itertools.product((1.0, -1.0), repeat=x.size):
        m = (np.array(signs) * x).mean()
        if side == "greater":
            hit = m > obs + 1e-12 if strict else m >= obs - 1e-12
        else:
            hit = abs(m) > abs(obs) + 1e-12 if strict else abs(m) >= abs(obs) - 1e-12
        count += bool(hit)
    total = 2**x.size
    return (count + 1) / (total + 1) if plus_one else count / total


_SIGN_FLIP_INPUTS = (
    (0.10, 0.02, -0.06, 0.04),
    (0.30, -0.10, 0.20, 0.05, 0.10),
    (0.20, 0.00, -0.10, 0.05, 0.15, -0.05),
)


def _sign_flip_target(name: str, **kw: object) -> Callable[[], _FunctionTarget]:
    return _cached(
        lambda: _FunctionTarget(
            name, _SIGN_FLIP_INPUTS, tuple(_enumerated_p(x, **kw) for x in _SIGN_FLIP_INPUTS)
        )
    )


def _call_p(fn: Callable, x: object) -> float:
    return float(fn(np.array(x)))


_register(
    Exercise(
        "5.4",
        expected=_sign_flip_target("exact two-sided"),
        what="a function sign_flip_p(changes) returning the exact two-sided p-value",
        validate=_function_validate,
        matches=_function_matches(_call_p, 1e-9),
        slips=(
            (
                _sign_flip_target("greater", side="greater"),
                "Your function gives the one-sided p (mean >= observed); two-sided compares |mean| "
                ">= |observed|.",
            ),
            (
                _sign_flip_target("strict", strict=True),
                "Ties must count: an assignment whose mean is as far from zero as the observed one "
                "is 'at least as extreme'. "
                "Compare with >= and a small tolerance, abs(mean) >= abs(observed) - 1e-12.",
            ),
            (
                _sign_flip_target("plus one", plus_one=True),
                "(count + 1) / (R + 1) is for Monte Carlo draws; when every assignment is "
                "enumerated, p = count / 2**n.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 6
# ---------------------------------------------------------------------------


def _holm_adjusted(p: object) -> tuple:
    from .significance import holm

    return tuple(float(x) for x in holm(p).adjusted)


_HOLM_BY_HAND = (0.012, 0.030, 0.004, 0.026)


def _holm_slip(kind: str) -> tuple:
    p = np.asarray(_HOLM_BY_HAND)
    m = p.size
    if kind == "bonferroni":
        return tuple(np.minimum(1.0, m * p).tolist())
    order = np.argsort(p)
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    if kind == "sorted":
        return tuple(np.maximum.accumulate(scaled).tolist())
    out = np.empty(m)
    out[order] = scaled  # no running maximum
    return tuple(out.tolist())


_register(
    Exercise(
        "6.1",
        expected=lambda: _holm_adjusted(_HOLM_BY_HAND),
        what=(
            "the four Holm-adjusted p-values, in the order of the p-values given (a list of four "
            "numbers)"
        ),
        slips=(
            (
                lambda: _holm_slip("bonferroni"),
                "That is Bonferroni (every p times 4). Holm multiplies the j-th smallest by 4, 3, "
                "2, 1.",
            ),
            (
                lambda: _holm_slip("sorted"),
                "Those are in sorted order; give each adjusted p-value in the place of its own "
                "p-value.",
            ),
            (
                lambda: _holm_slip("no max"),
                "Take the running maximum: an adjusted p-value may never be smaller than the one "
                "before it in sorted order.",
            ),
        ),
    )
)


def _gatekeeping_claims(primary: float, secondary: tuple, rule: str = "gatekeeping") -> int:
    from .significance import holm

    sec = np.asarray(secondary)
    if rule == "bonferroni":
        sec_rej = int((np.minimum(1, sec.size * sec) <= 0.05).sum())
    else:
        sec_rej = int(holm(sec).rejected.sum())
    if rule == "naive":
        return int(primary <= 0.05) + sec_rej
    return 1 + sec_rej if primary <= 0.05 else 0


_GATE_SECONDARY = (0.001, 0.6, 0.02)

_register(
    Exercise(
        "6.2",
        expected=lambda: (
            _gatekeeping_claims(0.08, _GATE_SECONDARY),
            _gatekeeping_claims(0.01, _GATE_SECONDARY),
        ),
        what=(
            "two whole numbers: the findings claimed when the primary p is 0.08, and when it is "
            "0.01"
        ),
        tol=0.01,
        slips=(
            (
                lambda: (
                    _gatekeeping_claims(0.08, _GATE_SECONDARY, "naive"),
                    _gatekeeping_claims(0.01, _GATE_SECONDARY, "naive"),
                ),
                "That is the naive rule. Under gatekeeping the secondaries are tested only after "
                "the primary succeeds: "
                "with the primary at p = 0.08, nothing may be claimed.",
            ),
            (
                lambda: (
                    _gatekeeping_claims(0.08, _GATE_SECONDARY, "bonferroni"),
                    _gatekeeping_claims(0.01, _GATE_SECONDARY, "bonferroni"),
                ),
                "That is Bonferroni on the secondaries (every p times 3); Holm multiplies the "
                "second smallest by 2 only.",
            ),
            (
                lambda: (0, 1),
                "Once the primary succeeds, the secondaries are tested too (with Holm); count the "
                "primary and each rejected secondary.",
            ),
        ),
    )
)


_HOLM_INPUTS = (
    (0.01, 0.04, 0.03, 0.005),
    (0.001, 0.02, 0.03),
    (0.2, 0.01, 0.02, 0.5),
    (0.03, 0.03),
    (0.004, 0.3, 0.011, 0.04, 0.015),
)


def _holm_reject_values(kind: str) -> tuple:
    from .significance import holm

    out = []
    for p in _HOLM_INPUTS:
        arr = np.asarray(p)
        m = arr.size
        if kind == "holm":
            rej = holm(arr).rejected
        elif kind == "bonferroni":
            rej = arr <= 0.05 / m
        else:  # each sorted p against its own threshold, without stopping at the first failure
            order = np.argsort(arr)
            rej = np.empty(m, bool)
            rej[order] = arr[order] <= 0.05 / (m - np.arange(m))
        out.extend(bool(x) for x in rej)
    return tuple(out)


def _holm_target(kind: str) -> Callable[[], _FunctionTarget]:
    return _cached(lambda: _FunctionTarget(kind, _HOLM_INPUTS, _holm_reject_values(kind)))


def _call_reject(fn: Callable, p: object) -> tuple:
    got = np.asarray(fn(np.array(p)), dtype=bool).ravel()
    if got.size != len(p):
        raise ValueError("one True/False per p-value")
    return tuple(bool(x) for x in got)


def _flatten_matches(inner: Matcher) -> Matcher:
    def matches(answer: object, target: object) -> bool:
        if isinstance(answer, _FunctionTarget):
            return inner(answer, target)
        try:
            flat = tuple(x for p in target.inputs for x in _call_reject(answer, p))
        except Exception:  # a learner's function that fails does not match
            return False
        return inner(_FunctionTarget("answer", target.inputs, flat), target)

    return matches


_register(
    Exercise(
        "6.3",
        expected=_holm_target("holm"),
        what=(
            "a function holm_reject(pvalues) returning one True/False per p-value (Holm at 0.05), "
            "in the given order"
        ),
        validate=_function_validate,
        matches=_flatten_matches(_function_matches(_call_reject, 0.0)),
        slips=(
            (
                _holm_target("bonferroni"),
                "Your function applies Bonferroni (every p against 0.05/m). Holm compares the j-th "
                "smallest with 0.05/(m - j + 1).",
            ),
            (
                _holm_target("no stop"),
                "Holm stops at the first sorted p-value that fails its threshold: every larger "
                "p-value is kept too, "
                "even one that would pass its own threshold.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# Chapter 7
# ---------------------------------------------------------------------------


def _ch7_data() -> Path:
    return Path(__file__).resolve().parent.parent / "notebooks" / "data"


@_cached
def _ch7_files() -> dict:
    """Chapter 7's example data: qrels, both runs, and the trec_eval -q files."""
    from .readers import read_qrels, read_run, read_scores_csv, read_trec_eval

    d = _ch7_data()
    return {
        "qrels": read_qrels(d / "simulated.qrels.txt"),
        "A": read_run(d / "simulated_A.run.txt"),
        "B": read_run(d / "simulated_B.run.txt"),
        "te_A": read_trec_eval(d / "simulated_A.trec_eval.txt", "ndcg_cut_10").scores,
        "te_B": read_trec_eval(d / "simulated_B.trec_eval.txt", "ndcg_cut_10").scores,
        "csv": read_scores_csv(
            d / "simulated_users_and_slices.csv", score="ndcg_cut_10_A", slice="query_type"
        ),
    }


def _ch7_change(measure: str, sign: float = 1.0) -> float:
    from .scoring import evaluate

    f = _ch7_files()
    a, b = (
        evaluate(f["qrels"], f["A"], measure).scores,
        evaluate(f["qrels"], f["B"], measure).scores,
    )
    return sign * float(np.mean([b[q] - a[q] for q in f["qrels"].topics]))


def _ch7_p5_dropped() -> float:
    from .readers import read_trec_eval

    d = _ch7_data()
    a = read_trec_eval(d / "simulated_A.trec_eval.txt", "P_5").scores
    b = read_trec_eval(d / "simulated_B.trec_eval.txt", "P_5").scores
    return float(np.mean([b[q] - a[q] for q in sorted(set(a) & set(b))]))


_register(
    Exercise(
        "7.1",
        expected=_cached(lambda: _ch7_change("P_5")),
        what="B's mean P_5 minus A's over the 150 judged topics, a number",
        tol=6e-5,
        slips=(
            (_cached(lambda: _ch7_change("P_5", -1.0)), "That is A minus B: the change is B - A."),
            (
                _cached(_ch7_p5_dropped),
                "That leaves out the two topics B retrieved nothing for; evaluate scores them 0, "
                "as trec_eval -c does, and so should the comparison.",
            ),
            (
                _cached(lambda: _ch7_change("ndcg_cut_10")),
                "That is the change in nDCG@10; the question asks for P_5.",
            ),
        ),
    )
)


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
        return all(
            abs(float(answer(dict(a), dict(b), list(t))) - target(a, b, t)) <= 1e-9
            for a, b, t in _ch7_c_cases()
        )
    except Exception:
        return False


_register(
    Exercise(
        "7.2",
        expected=lambda: _ch7_c_reference,
        what="a function mean_change_c(a, b, topics) returning a number",
        matches=_ch7_same_function,
        validate=lambda f: (
            None
            if callable(f)
            else f"got {type(f).__name__}; define it with def mean_change_c(a, b, topics): ..."
        ),
        slips=(
            (
                lambda: _ch7_c_union,
                "It averages over the queries the runs retrieved; a judged topic that neither run "
                "retrieved must count too, as 0. Loop over topics.",
            ),
            (
                lambda: _ch7_c_shared,
                "It drops topics a run is missing, like missing='drop'; trec_eval -c scores them 0 "
                "instead.",
            ),
        ),
    )
)


@_cached
def _ch7_slices():
    from .report import slice_summary
    from .scoring import evaluate

    f = _ch7_files()
    a, b = (
        evaluate(f["qrels"], f["A"], "ndcg_cut_10").scores,
        evaluate(f["qrels"], f["B"], "ndcg_cut_10").scores,
    )
    ids = f["qrels"].topics
    types = [f["csv"].slices[q] for q in ids]
    out = {}
    for level in (0.95, 0.90):
        out[level] = slice_summary(
            [a[q] for q in ids],
            [b[q] for q in ids],
            types,
            n_resamples=10_000,
            rng=2026,
            level=level,
            order=["head", "torso", "tail"],
        )
    return out


def _ch7_interval(level: float, row: str) -> tuple[float, float]:
    iv = _ch7_slices()[level].row(row).interval
    return (iv.low, iv.high)


_register(
    Exercise(
        "7.3",
        expected=lambda: _ch7_interval(0.95, "tail"),
        what="the tail slice's 95% interval, two numbers (low, high)",
        tol=5e-4,
        slips=(
            (
                lambda: _ch7_interval(0.90, "tail"),
                "That is the 90% interval; the question asks for 95%.",
            ),
            (
                lambda: _ch7_interval(0.95, "head"),
                "That is the head slice; the question asks about tail queries.",
            ),
            (
                lambda: _ch7_interval(0.95, "all queries"),
                "That is the interval over all queries; the question asks about the tail slice.",
            ),
        ),
    )
)

# ---------------------------------------------------------------------------
# End of the exercises
# ---------------------------------------------------------------------------
