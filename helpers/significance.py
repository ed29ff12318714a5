"""Tests of significance for a paired comparison: the paired randomization (sign-flip) test, the
shifted-bootstrap test and Holm's adjustment; below them the test's route for other sizes (the
grid, a Monte Carlo fallback), with ``helpers.scale``'s machinery."""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from . import _checks
from .grid import GRIDS_TRIED, _find_grid, sign_flip_distribution
from .resampling import _draws_iv, _paired_bootstrap
from .scale.fft import MAX_DP_WORK, MAX_GRID_POINTS, SignFlipFFT
from .scale.monte_carlo import DEFAULT_MAX_SIGNS, monte_carlo_sign_flips

__all__ = ["MAX_EXACT_ASSIGNMENTS", "DEFAULT_FALLBACK_RESAMPLES", "DEFAULT_MAX_SIGNS", "REL_TOL",
           "ALTERNATIVES", "SignificanceResult", "randomization_test", "shifted_bootstrap_test",
           "HolmResult", "holm"]  # fmt: skip


def randomization_test(
    changes: ArrayLike,
    *,
    n_resamples: int | None = None,
    rng: int | np.random.Generator | None = None,
    alternative: str = "two-sided",
) -> SignificanceResult:
    """Paired randomization (sign-flip) test of the mean change.

    Swapping A and B within a query flips the sign of ``d_q`` (zeros stay); the p-value is the
    fraction of sign assignments whose mean is at least as extreme as the observed one
    (``"greater"``: B better; ties count). ``n_resamples=None``: **exact**, count / 2**k over
    the k non-zero changes, enumerated up to :data:`MAX_EXACT_ASSIGNMENTS`, else on the changes'
    grid, else (with ``rng``) Monte Carlo, ``method`` saying why; never 0, down to 5e-324 (then
    ``method`` says how small). ``n_resamples=B``: **Monte Carlo**, (count + 1) / (B + 1).

    >>> res = randomization_test([0.10, 0.02, -0.06, 0.04])
    >>> print(f"mean {res.statistic:+.3f}, p = {res.pvalue:.4f} "
    ...       f"({res.count} of {res.n_resamples}), exact: {res.exact}")
    mean +0.025, p = 0.6250 (10 of 16), exact: True
    """
    d = _checks.scores(changes, "changes")
    alternative = _checks.one_of(alternative, "alternative", ALTERNATIVES)
    n_resamples = None if n_resamples is None else _checks.integer(n_resamples, "n_resamples")
    gen = None if n_resamples is None and rng is None else _checks.generator(rng)
    nonzero = d[d != 0]  # a zero change stays zero when flipped
    if n_resamples is None and 2**nonzero.size > MAX_EXACT_ASSIGNMENTS:  # on the grid: see below
        return _randomization_test(d, gen, alternative, DEFAULT_FALLBACK_RESAMPLES)
    if n_resamples is None:  # exact: all 2**k sign assignments of the k non-zero changes
        return _sign_flip_result(d, _all_sign_flip_sums(nonzero) / d.size, alternative, True)
    # Monte Carlo: R sign assignments, each change flipped with probability 1/2
    null = _sign_flip_means(nonzero, d.size, n_resamples, gen)
    return _sign_flip_result(d, null, alternative, False)


def _sign_flip_means(
    nonzero: np.ndarray, n: int, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """The Monte Carlo sign flip, the one kernel (planning's simulation may call it): each of R
    resamples flips each non-zero change with probability 1/2 (bit ``i`` of its little-endian
    64-bit words flips change ``i``: it takes ``2 d_i`` from the total) and averages over all
    ``n`` queries. The flipped changes are added within each byte of bits, then byte after byte,
    as ``helpers.scale``'s bit-packed kernel does (the same means beyond the chapters' sizes)."""
    k, words = nonzero.size, -(-nonzero.size // 64)
    if max(n_resamples, 64) * 64 * words > MAX_PLAIN_SIGNS:  # beyond the chapters' sizes
        return monte_carlo_sign_flips(nonzero, n, n_resamples, rng, DEFAULT_MAX_SIGNS)
    if k == 0:  # no change to flip
        return np.zeros(n_resamples)
    draw = rng.integers(0, 2**64 - 1, size=(n_resamples, words), dtype=np.uint64, endpoint=True)
    bits = np.unpackbits(draw.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    flipped = bits * np.pad(nonzero, (0, 64 * words - k))  # change i where bit i is 1, else 0
    per_byte = np.cumsum(flipped.reshape(n_resamples, 8 * words, 8), axis=2)[:, :, -1]
    return (float(nonzero.sum()) - 2 * np.cumsum(per_byte, axis=1)[:, -1]) / n


def _all_sign_flip_sums(values: np.ndarray) -> np.ndarray:
    """Sums of ``s_i * values[i]`` for all ``2**k`` sign vectors, in itertools.product((1, -1))
    order, built by doubling in place (every row sums in the same order: exactly antisymmetric).
    """
    out = np.zeros(2**values.size, dtype=np.float64)
    size = 1
    for v in values[::-1]:
        np.subtract(out[:size], v, out=out[size : 2 * size])
        out[:size] += v
        size *= 2
    return out


def _sign_flip_result(
    d: np.ndarray, null: np.ndarray, alternative: str, exact: bool, note: str = ""
) -> SignificanceResult:
    """The p-value against the sign-flip means ``null``: count / 2**k, or (count + 1) / (R + 1)."""
    observed = float(np.mean(d))
    tol = REL_TOL * float(np.abs(d).mean())
    count = int(_count_at_least_as_extreme(null, observed, alternative, tol))
    pvalue = count / null.size if exact else (count + 1) / (null.size + 1)
    method = f"randomization ({'exact, all' if exact else 'Monte Carlo'} sign assignments){note}"
    null.setflags(write=False)
    return SignificanceResult(observed, pvalue, null, exact, null.size, count, alternative, method)


def _count_at_least_as_extreme(
    null: np.ndarray, observed: float | np.ndarray, alternative: str, tol: float | np.ndarray
) -> int | np.ndarray:
    """How many statistics of ``null`` (along its last axis; ``observed`` and ``tol`` broadcast
    against it) are at least as extreme as ``observed``: those within ``tol`` of it tie, and ties
    count (``"greater"``: as large or larger)."""
    if alternative == "greater":
        return np.count_nonzero(null >= observed - tol, axis=-1)
    if alternative == "less":
        return np.count_nonzero(null <= observed + tol, axis=-1)
    # two-sided: |t| >= |observed| - tol, without an |null| copy (every t if that is <= 0)
    threshold = np.abs(observed) - tol
    rest = np.where(threshold > 0, null <= -threshold, null < threshold)
    return np.count_nonzero(null >= threshold, axis=-1) + np.count_nonzero(rest, axis=-1)


@dataclass(frozen=True, eq=False)
class SignificanceResult:
    """The outcome of a test of the mean change. ``null_distribution`` (read-only): the statistics
    compared with the observed one, all ``2**k`` sign assignments in ``itertools.product((+1, -1),
    repeat=k)`` order, or the resamples in draw order, or on the grid the distinct means with
    ``null_probabilities``. ``count`` of them (``n_resamples`` in all) are at least as extreme."""

    statistic: float
    pvalue: float
    null_distribution: np.ndarray = field(repr=False)
    exact: bool
    n_resamples: int
    count: int
    alternative: str
    method: str
    null_probabilities: np.ndarray | None = field(default=None, repr=False)


def shifted_bootstrap_test(
    changes: ArrayLike,
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator,
    alternative: str = "two-sided",
) -> SignificanceResult:
    """The bootstrap's test of "no mean change": resample the changes after centring them at zero.

    The p-value is count / B, with :func:`randomization_test`'s sidedness and ties. A count
    of 0 bounds nothing: 1/B is only the smallest p-value B resamples can report.

    >>> res = shifted_bootstrap_test([0.10, 0.02, -0.06, 0.04], n_resamples=5000, rng=1)
    >>> centre = res.null_distribution.mean()
    >>> print(f"mean {res.statistic:+.3f}, p = {res.pvalue:.3f}, centre of the null {centre:+.3f}")
    mean +0.025, p = 0.419, centre of the null +0.000
    """
    d = _checks.scores(changes, "changes")
    alternative = _checks.one_of(alternative, "alternative", ALTERNATIVES)
    observed = float(np.mean(d))
    null = _paired_bootstrap(d - observed, *_draws_iv(n_resamples, rng))
    null.setflags(write=False)
    count = int(_count_at_least_as_extreme(null, observed, alternative, REL_TOL * np.abs(d).mean()))
    method = "shifted bootstrap (changes centred at zero, query pairs resampled)"
    pvalue = count / null.size
    return SignificanceResult(observed, pvalue, null, False, null.size, count, alternative, method)


@dataclass(frozen=True, eq=False)
class HolmResult:
    """Holm-adjusted p-values, in the order the p-values were given."""

    pvalues: np.ndarray
    adjusted: np.ndarray
    rejected: np.ndarray
    alpha: float

    def __str__(self) -> str:
        lines = [f"{'test':>4}  {'p':>7}  {'Holm p':>7}  reject at {self.alpha:g}"]
        rows = zip(self.pvalues, self.adjusted, self.rejected, strict=True)
        for i, (p, adj, rej) in enumerate(rows, start=1):
            lines.append(f"{i:>4}  {p:>7.4f}  {adj:>7.4f}  {'yes' if rej else 'no'}")
        return "\n".join(lines)


def holm(pvalues: ArrayLike, alpha: float = 0.05) -> HolmResult:
    """Holm's step-down adjustment of ``m`` p-values, controlling the family-wise error rate.

    The ``i``-th smallest p-value's adjusted value is ``max over j <= i of
    min(1, (m - j + 1) * p_(j))``; those at most ``alpha`` are rejected.

    >>> res = holm([0.01, 0.04, 0.03, 0.005])
    >>> print(res.adjusted.round(4).tolist(), res.rejected.tolist())
    [0.03, 0.06, 0.06, 0.02] [True, False, False, True]
    """
    p = _checks.scores(pvalues, "p-values")
    if (outside := np.flatnonzero((p < 0) | (p > 1))).size:
        i = int(outside[0])
        raise ValueError(f"p-values must lie between 0 and 1; got {float(p[i])!r} at position {i}.")
    _checks.level(alpha, "alpha", "0.05")
    a = float(alpha)
    adjusted = _holm(p)
    return HolmResult(pvalues=p, adjusted=adjusted, rejected=adjusted <= a, alpha=a)


def _holm(p: np.ndarray) -> np.ndarray:
    """Holm's adjusted p-values of checked p-values, in their order."""
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


#: Most sign assignments :func:`randomization_test` enumerates (20 non-zero changes, 8 MiB).
MAX_EXACT_ASSIGNMENTS = 2**20

#: "At least as extreme" has a tolerance: two statistics closer than ``REL_TOL * mean(|d_q|)``
#: count as tied (``0.10 + 0.02 - 0.06`` is not ``0.06`` in floating point; rounding in a mean
#: of n changes is at most about ``n * 2.2e-16`` of that scale). Scaled by the changes, so
#: that an observed mean of zero still ties with itself.
REL_TOL = 1e-9

#: Monte Carlo resamples when no exact method applies and only ``rng`` is given.
DEFAULT_FALLBACK_RESAMPLES = 10_000

#: :func:`_sign_flip_means` draws up to this many bits at once; beyond, ``helpers.scale``'s kernel.
MAX_PLAIN_SIGNS = 2**21

#: The alternatives a test of the mean change takes: B differs, B is better, B is worse.
ALTERNATIVES = ("two-sided", "greater", "less")


# --- The route for every size: enumeration, the grid, Monte Carlo -------------------------------


def _randomization_test(
    d: np.ndarray, rng: np.random.Generator | None, alternative: str, fallback_resamples: int
) -> SignificanceResult:
    """The exact test on checked changes, for every size: every sign assignment up to
    :data:`MAX_EXACT_ASSIGNMENTS`, beyond them on the grid, else ``fallback_resamples`` Monte
    Carlo resamples from ``rng`` (without ``rng``, refused, saying why)."""
    n = d.size
    nonzero = d[d != 0]
    k = nonzero.size
    if 2**k <= MAX_EXACT_ASSIGNMENTS:
        return _sign_flip_result(d, _all_sign_flip_sums(nonzero) / n, alternative, True)
    grid = _find_grid(nonzero)
    if grid is None:
        why = f"the {k} non-zero changes are on no grid ({GRIDS_TRIED})"
    else:
        try:
            return _grid_test(d, grid, float(np.mean(d)), alternative)
        except ValueError as err:  # too fine a grid for the memory limit
            why = f"on the {grid.label} grid {err}".removesuffix(".")
    if rng is None:  # 2.0**k overflows beyond k = 1023: then the power alone
        many = f"2**{k}" if k > 1023 else f"2**{k} = about {2.0**k:.1e}"
        raise ValueError(
            f"No exact test here: {why}, and {many} sign assignments are too many to "
            f"enumerate (limit {MAX_EXACT_ASSIGNMENTS:,}). Pass n_resamples (e.g. "
            "n_resamples=10_000) and rng for a Monte Carlo test (rng alone uses "
            f"{fallback_resamples:,} resamples)."
        )
    null = _sign_flip_means(nonzero, n, fallback_resamples, rng)
    return _sign_flip_result(d, null, alternative, False, f" (not exact: {why})")


#: An exact grid p-value below _TINY is recomputed in logarithms by tilting (the dynamic
#: programme's smallest counts pass through subnormal doubles); one below the smallest positive
#: double, _SMALLEST, is reported as it, with a note.
_TINY = 1e-250
_SMALLEST = math.ulp(0.0)


def _grid_test(d: np.ndarray, grid, observed: float, alternative: str) -> SignificanceResult:
    """The exact test on the grid (:func:`_grid_tails`) with its null distribution: every mean the
    sign flips give, largest first, and its probability (the FFT's window by its inverse FFT)."""
    test, dist = _grid_tails(d, grid, observed, alternative)
    p, first = (dist, 0) if isinstance(dist, np.ndarray) else (dist.probabilities, dist.first)
    total = int(np.abs(grid.steps).sum())
    t = np.arange(first + p.size - 1, first - 1, -1, dtype=np.int64)
    values = ((total - 2 * t) * grid.step.numerator) / (grid.step.denominator * d.size)
    probs = p[::-1].copy()
    values.setflags(write=False)
    probs.setflags(write=False)
    return replace(test, null_distribution=values, null_probabilities=probs)


def _grid_tails(d: np.ndarray, grid, observed: float, alternative: str) -> tuple:
    """The exact p-value on the grid, from the tails alone: flipping a total ``T`` of the steps
    gives the signed sum ``S - 2T`` (integers: ties decided exactly), T's distribution by DP or
    FFT. Returns the result, its null distribution empty, and T's distribution: the DP's
    probabilities, or the FFT, whose window's inverse FFT is taken only if a tail is read off it."""
    steps = grid.steps
    k, total = steps.size, int(np.abs(steps).sum())
    a = (total - int(steps.sum())) // 2  # S - 2T >= the observed sum exactly when T <= a
    m = min(a, total - a)  # two-sided: |S - 2T| >= |S - 2a| when T <= m or T >= S - m
    tails = [(a, alternative == "less")]  # (t, upper): P(T >= t) when upper, else P(T <= t)
    if alternative == "two-sided":
        tails = [(m, False), (total - m, True)]
    method = f"randomization (exact, sign-flip distribution on the {grid.label} grid)"
    if k * total <= MAX_DP_WORK and total + 1 <= MAX_GRID_POINTS:
        p, fft = sign_flip_distribution(steps), None

        def tail(t: int, upper: bool) -> float:
            return float(np.sum(p[t:] if upper else p[: t + 1]))
    else:
        fft = SignFlipFFT.of(steps)

        def tail(t: int, upper: bool) -> float:  # T and S - T have the same distribution
            return fft.lower_tail(total - t if upper else t)

        method = method[:-1] + f", by FFT of {fft.n_points:,} points)"
    if alternative == "two-sided" and 2 * a == total:
        pvalue = 1.0
    else:
        pvalue = min(1.0, sum(tail(t, upper) for t, upper in tails))
    if pvalue < _TINY:  # also where the DP's smallest counts passed through subnormals
        # the same tails by tilting, in logarithms: positive however far out
        tilted = fft or SignFlipFFT.of(steps)
        logs = [tilted.log_lower_tail(total - t if upper else t) for t, upper in tails]
        log_p = float(np.logaddexp.reduce(logs))
        pvalue = math.exp(log_p)
    count = round(Fraction(pvalue) * 2**k)  # an int
    if pvalue == 0:  # log_p is below the smallest double: say so, with a bound that is not 0
        count = int((decimal.Decimal(log_p).exp() * 2**k).to_integral_value())
        pvalue = _SMALLEST
        method += (
            f"; p is about 10^{log_p / math.log(10):.1f}, which underflows double "
            f"precision: pvalue holds the smallest positive double, {_SMALLEST:.0e}, an "
            "upper bound"
        )
    none = np.empty(0)
    none.setflags(write=False)
    test = SignificanceResult(observed, pvalue, none, True, 2**k, count, alternative, method, none)
    return test, p if fft is None else fft
