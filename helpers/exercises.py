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


def _ch3_exact():
    from .data import hit_at_5_example, paired_differences
    from .resampling import exact_bootstrap_distribution

    return exact_bootstrap_distribution(paired_differences(*hit_at_5_example()))


_ch3_exact_cached = _cached(_ch3_exact)


def _ch3_interval(level: float, shift: int = 0) -> tuple[float, float]:
    from .intervals import percentile_interval

    ex = _ch3_exact_cached()
    iv = percentile_interval(ex.values, level, weights=ex.probabilities)
    return (iv.low + shift / 120, iv.high + shift / 120)


_register(Exercise(
    "3.1",
    expected=lambda: _ch3_interval(0.90),
    what="the exact 90% interval as (low, high)",
    slips=(
        (lambda: _ch3_interval(0.95), "That is the 95% interval; the question asks for 90% (level=0.90)."),
        (lambda: _ch3_interval(0.90, -1), "Both ends are one grid step (1/120) too low: an off-by-one order statistic. "
                                          "The rule takes the smallest v with F(v) > 0.05 (and > 0.95), the first value past the level."),
    ),
))


def _ch3_smallest_r() -> int:
    from .intervals import endpoint_distribution

    ex = _ch3_exact_cached()
    for n in (100_000, 200_000, 300_000, 400_000, 500_000):
        e = endpoint_distribution(ex.values, ex.probabilities, n)
        if e.high[np.isclose(e.values, 0)].sum() >= 0.99:
            return n
    raise AssertionError("no R in the grid reaches 0.99")


_register(Exercise(
    "3.2",
    expected=_cached(_ch3_smallest_r),
    what="a number of resamples R from the grid 100,000 ... 500,000",
    tol=0.5,
    slips=(
        (lambda: 300_000, "At R = 300,000 the probability is about 0.989, just short of 0.99; look one step further."),
        (lambda: 317_934, "That is the binomial approximation; the question asks for the smallest R on the grid that reaches 0.99 exactly."),
    ),
))


def _ch3_reference_exact(changes: object) -> tuple[np.ndarray, np.ndarray]:
    from .resampling import exact_bootstrap_distribution

    ex = exact_bootstrap_distribution(np.asarray(changes, dtype=float))
    return ex.values, ex.probabilities


def _ch3_equal_weights(changes: object) -> tuple[np.ndarray, np.ndarray]:
    """A known slip: every multiset equally likely."""
    import itertools

    c = np.asarray(changes, dtype=float)
    means = [c[list(m)].mean() for m in itertools.combinations_with_replacement(range(len(c)), len(c))]
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
    for v, p in zip(values.tolist(), probs.tolist()):
        merged[v] = merged.get(v, 0.0) + p
    keys = sorted(merged)
    return np.array(keys), np.array([merged[k] for k in keys])


def _ch3_same_distribution(answer: object, target: object) -> bool:
    for changes in _CH3_SAMPLES:
        got, want = _ch3_distribution_of(answer, changes), _ch3_distribution_of(target, changes)
        if got is None or want is None or got[0].shape != want[0].shape:
            return False
        if not (np.allclose(got[0], want[0], rtol=0, atol=1e-9) and np.allclose(got[1], want[1], rtol=0, atol=1e-9)):
            return False
    return True


def _ch3_validate(answer: object) -> str | None:
    if not callable(answer):
        return f"got {type(answer).__name__}; write a function and put its name (not a call) after my_exact = ."
    try:
        out = answer(np.array(_CH3_SAMPLES[0]))
        values, probs = out
        if np.shape(values) != np.shape(probs):
            return "your function's values and probabilities have different lengths."
    except Exception as exc:  # report the learner's error in words
        return f"calling it on the four changes raised {type(exc).__name__}: {exc}. It should return (values, probabilities)."
    return None


_register(Exercise(
    "3.3",
    expected=lambda: _ch3_reference_exact,
    what="a function returning (values, probabilities), the exact bootstrap distribution of the mean",
    matches=_ch3_same_distribution,
    validate=_ch3_validate,
    slips=(
        (lambda: _ch3_equal_weights, "The multisets are not equally likely: weight each by its number of orderings, "
                                     "Q! / (c_1! ... c_Q!), divided by Q**Q."),
        (lambda: _ch3_counts_not_probabilities, "Those are numbers of ordered draws; divide them by Q**Q to get probabilities."),
    ),
))

# ---------------------------------------------------------------------------
# Chapter 4
# ---------------------------------------------------------------------------


def _ch4_study() -> tuple[np.ndarray, np.ndarray]:
    from .data import simulated_user_study

    return simulated_user_study(np.random.default_rng(2024))


def _ch4_interval(kind: str) -> tuple[float, float]:
    from .intervals import percentile_interval
    from .resampling import cluster_bootstrap, paired_bootstrap

    d, users = _ch4_study()
    if kind == "queries":
        means = paired_bootstrap(d, 10_000, rng=1)
    else:
        means = cluster_bootstrap(d, users, 10_000, rng=1, weighting=kind)
    iv = percentile_interval(means)
    return (iv.low, iv.high)


_register(Exercise(
    "4.1",
    expected=_cached(lambda: _ch4_interval("cluster")),
    what="the user-weighted user-cluster 95% interval as (low, high)",
    tol=2e-4,
    slips=(
        (_cached(lambda: _ch4_interval("query")), "That is the query-weighted interval (one_user): pass weighting=\"cluster\" to cluster_bootstrap."),
        (_cached(lambda: _ch4_interval("queries")), "That interval resamples queries, not users: use helpers.cluster_bootstrap with sample_users."),
    ),
))


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
    from .data import four_pair_example
    from .resampling import enumerate_resamples

    ex = four_pair_example()
    d7, users7 = _ch4_study()
    random_idx = np.random.default_rng(0).integers(0, users7.max() + 1, size=(200, users7.max() + 1))
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
    if not callable(answer):
        return f"got {type(answer).__name__}; write a function and put its name (not a call) after my_user_means = ."
    d, users, idx = _ch4_cases_cached()[0]
    try:
        got = np.asarray(answer(d, users, idx), dtype=float)
    except Exception as exc:  # report the learner's error in words
        return f"calling it on the three-user example raised {type(exc).__name__}: {exc}."
    if got.size != len(idx):
        return f"it returned {got.size} numbers for {len(idx)} resamples; return one mean per row of idx."
    return None


_register(Exercise(
    "4.2",
    expected=lambda: _ch4_reference_means,
    what="a function user_means(d, users, idx) returning one query-weighted mean per row of idx",
    matches=_ch4_same_means,
    validate=_ch4_validate,
    slips=(
        (lambda: _ch4_user_weighted, "That is the average of the drawn users' means (weighting=\"cluster\"); the question asks for the "
                                     "query-weighted mean: total change of the drawn queries over their number."),
        (lambda: _ch4_per_user_count, "You divided by the number of users drawn; divide by the number of query rows the drawn users bring."),
    ),
))


def _ch4_coverages(n_studies: int, n_resamples: int, seed: int, user_sd: float) -> tuple[float, float]:
    from .data import simulated_user_study
    from .intervals import percentile_interval
    from .resampling import cluster_bootstrap, paired_bootstrap

    rng = np.random.default_rng(seed)
    hits = np.zeros(2)
    for _ in range(n_studies):
        d, users = simulated_user_study(rng, user_sd=user_sd)
        for k, means in enumerate((paired_bootstrap(d, n_resamples, rng=rng), cluster_bootstrap(d, users, n_resamples, rng=rng))):
            iv = percentile_interval(means)
            hits[k] += iv.low <= 0.02 <= iv.high
    return tuple(hits / n_studies)


_ch4_no_effect = _cached(lambda: _ch4_coverages(300, 500, 5, 0.0))

_register(Exercise(
    "4.3",
    expected=_ch4_no_effect,
    what="the two coverages as (query-level, user-cluster)",
    tol=1e-3,
    slips=(
        (lambda: _ch4_no_effect()[::-1], "The order is swapped: give the query-level coverage first, then the user-cluster one."),
        (_cached(lambda: _ch4_coverages(1000, 1000, 4, 0.08)), "Those are section 7's coverages, with user effects on: pass user_sd=0.0."),
    ),
))

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
