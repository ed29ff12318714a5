"""Tests of significance for a paired comparison: the paired randomization (sign-flip) test
(:func:`randomization_test`; :func:`_sign_flip_means` is its Monte Carlo idea in plain lines), the
shifted-bootstrap test and Holm's adjustment; below them the machinery that computes them at scale.
"""

from __future__ import annotations

import decimal
import math
import sys
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from . import _checks
from .grid import (
    GRIDS_TRIED,
    MAX_DP_WORK,
    MAX_GRID_POINTS,
    SignFlipFFT,
    _find_grid,
    sign_flip_distribution,
)
from .resampling import ClusterTotals, _cluster_totals, _draws_iv, _in_chunks, _paired_bootstrap

__all__ = ["MAX_EXACT_ASSIGNMENTS", "DEFAULT_FALLBACK_RESAMPLES", "DEFAULT_MAX_SIGNS", "REL_TOL",
           "SignificanceResult", "randomization_test", "shifted_bootstrap_test", "HolmResult",
           "holm"]  # fmt: skip

#: Most sign assignments :func:`randomization_test` enumerates (20 non-zero changes, 8 MiB).
MAX_EXACT_ASSIGNMENTS = 2**20

#: "At least as extreme" has a tolerance: two statistics closer than ``REL_TOL * mean(|d_q|)``
#: count as tied (``0.10 + 0.02 - 0.06`` is not ``0.06`` in floating point; rounding in a mean
#: of n changes is at most about ``n * 2.2e-16`` of that scale). Scaled by the changes, so
#: that an observed mean of zero still ties with itself.
REL_TOL = 1e-9

#: Most signs the Monte Carlo randomization test draws at once (2**26 random bits, 8 MiB);
#: the result does not depend on it.
DEFAULT_MAX_SIGNS = 2**26

#: Monte Carlo resamples when no exact method applies and only ``rng`` is given.
DEFAULT_FALLBACK_RESAMPLES = 10_000

_ALTERNATIVES = ("two-sided", "greater", "less")


def randomization_test(
    changes: ArrayLike,
    *,
    n_resamples: int | None = None,
    rng: int | np.random.Generator | None = None,
    alternative: str = "two-sided",
    clusters: ArrayLike | None = None,
) -> SignificanceResult:
    """Paired randomization (sign-flip) test of the mean change.

    Swapping A and B within a query flips the sign of ``d_q`` (zeros stay); the p-value is the
    fraction of sign assignments whose mean is at least as extreme as the observed one
    (``"greater"``: B better; ties count).

    * ``n_resamples=None``: **exact**, p = count / 2**k over the k non-zero changes: enumerated
      up to :data:`MAX_EXACT_ASSIGNMENTS`, else on the changes' grid (:func:`find_grid`);
      failing both, a Monte Carlo test of :data:`DEFAULT_FALLBACK_RESAMPLES` if ``rng`` is given
      (``method`` says why). Never 0 (the observed assignment and its mirror count): far out it
      is computed by exponential tilting, and one below the smallest double is given as that
      double, 5e-324, with ``method`` saying how small it is.
    * ``n_resamples=B``: **Monte Carlo**, p = (count + 1) / (B + 1), never 0.

    ``clusters`` (one label per query) flips each user's total change instead.

    >>> res = randomization_test([0.10, 0.02, -0.06, 0.04])
    >>> print(f"mean {res.statistic:+.3f}, p = {res.pvalue:.4f} "
    ...       f"({res.count} of {res.n_resamples}), exact: {res.exact}")
    mean +0.025, p = 0.6250 (10 of 16), exact: True
    """
    d = _checks.scores(changes, "changes")
    alternative = _checks.one_of(alternative, "alternative", _ALTERNATIVES)
    n_resamples = None if n_resamples is None else _checks.integer(n_resamples, "n_resamples")
    gen = None if n_resamples is None and rng is None else _checks.generator(rng)
    totals = None if clusters is None else _cluster_totals(d, *_checks.clusters(clusters, d.size))
    return _randomization_test(d, totals, n_resamples, gen, alternative)


def _sign_flip_means(
    nonzero: np.ndarray, n: int, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """The Monte Carlo sign flip, plainly: each resample flips each non-zero change with
    probability 1/2 (bit ``i`` of its little-endian 64-bit words flips change ``i``) and averages
    over all ``n`` queries. :func:`_monte_carlo_sign_flips` gives the same means, faster."""
    words = -(-nonzero.size // 64)
    draw = rng.integers(0, 2**64 - 1, size=(n_resamples, words), dtype=np.uint64, endpoint=True)
    bits = np.unpackbits(draw.astype("<u8").view(np.uint8), axis=1, bitorder="little")
    signs = 1.0 - 2.0 * bits[:, : nonzero.size]  # bit 1 flips the change
    return (signs * nonzero).sum(axis=1) / n


@dataclass(frozen=True, eq=False)
class SignificanceResult:
    """The outcome of a test of the mean change.

    ``null_distribution`` (read-only) holds the statistics the observed one is compared with:
    all ``2**k`` sign assignments in ``itertools.product((+1, -1), repeat=k)`` order, or the
    resamples in draw order, or on the grid the distinct means with ``null_probabilities``.
    ``count`` of them (``n_resamples`` in all; ``2**k`` when ``exact``) are at least as extreme
    as ``statistic``.
    """

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
    alternative = _checks.one_of(alternative, "alternative", _ALTERNATIVES)
    observed = float(np.mean(d))
    null = _paired_bootstrap(d - observed, *_draws_iv(n_resamples, rng))
    null.setflags(write=False)
    count = _count_at_least_as_extreme(null, observed, alternative, REL_TOL * np.abs(d).mean())
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


# --- The machinery: the test's route (enumeration, grid, Monte Carlo) and its fast kernels ---


def _randomization_test(
    d: np.ndarray,
    totals: ClusterTotals | None,
    n_resamples: int | None,
    rng: np.random.Generator | None,
    alternative: str,
    max_elements: int = DEFAULT_MAX_SIGNS,
    fallback_resamples: int = DEFAULT_FALLBACK_RESAMPLES,
    null: bool = True,
) -> SignificanceResult:
    """The test on checked arguments, flipping each change or (``totals``) each user's total
    change; ``null=False``: the exact grid route may leave the null distribution empty."""
    if totals is not None:  # statistics rescaled to mean changes over queries: p is unchanged
        args = (n_resamples, rng, alternative, max_elements, fallback_resamples, null)
        test = _randomization_test(totals.sums, None, *args)
        null = test.null_distribution * (len(totals.labels) / d.size)
        null.flags.writeable = False
        method = test.method + ", flipping each user's total change"
        return replace(test, statistic=float(d.mean()), null_distribution=null, method=method)
    n = d.size
    nonzero = d[d != 0]
    k = nonzero.size
    observed = float(np.mean(d))
    tol = REL_TOL * float(np.abs(d).mean())
    note = ""  # or why a Monte Carlo test replaces the exact one
    if n_resamples is None and 2**k > MAX_EXACT_ASSIGNMENTS:
        grid = _find_grid(nonzero)
        if grid is None:
            why = f"the {k} non-zero changes are on no grid ({GRIDS_TRIED})"
        else:
            try:
                return _grid_test(d, grid, observed, alternative, null)
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
        n_resamples = fallback_resamples
        note = f" (not exact: {why})"
    exact = n_resamples is None
    if exact:
        null = _all_sign_flip_sums(nonzero) / n
    elif k:
        null = _monte_carlo_sign_flips(nonzero, n, n_resamples, rng, max_elements)
    else:  # no change to flip
        null = np.zeros(n_resamples)
    method = f"randomization ({'exact, all' if exact else 'Monte Carlo'} sign assignments){note}"
    count = _count_at_least_as_extreme(null, observed, alternative, tol)
    pvalue = count / null.size if exact else (count + 1) / (null.size + 1)
    null.setflags(write=False)
    return SignificanceResult(observed, pvalue, null, exact, null.size, count, alternative, method)


def _count_at_least_as_extreme(
    null: np.ndarray, observed: float, alternative: str, tol: float
) -> int:
    if alternative == "two-sided":
        # |t| >= threshold, without an |null| copy as large as the null distribution
        threshold = abs(observed) - tol
        if threshold <= 0:
            return int(null.size)
        return int(np.count_nonzero(null >= threshold)) + int(np.count_nonzero(null <= -threshold))
    if alternative == "greater":
        return int(np.count_nonzero(null >= observed - tol))
    return int(np.count_nonzero(null <= observed + tol))


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


#: Largest table of subset sums :func:`_monte_carlo_sign_flips` keeps (8 bytes per entry).
_MAX_TABLE_BYTES = 2**25

#: Look-ups :func:`_monte_carlo_sign_flips` gathers at once (their indices and values take
#: 2 MiB each; chosen by timing: fewer cost more numpy calls, more fall out of the cache).
_LOOKUPS_AT_ONCE = 2**18

#: Most resamples :func:`_monte_carlo_sign_flips` draws at once (with few non-zero changes,
#: ``max_signs`` alone would allow millions, and a resample's running sum takes 8 bytes).
_MAX_ROWS = 2**14


def _subset_sums(x: np.ndarray, bits: int) -> np.ndarray:
    """``table[j, v]``: the sum of ``x[bits * j + i]`` over the bits ``i`` set in ``v``, built one
    bit at a time (the same order, lowest bit first, on every CPU). ``bits`` divides ``x.size``."""
    blocks = x.reshape(-1, bits)
    table = np.zeros((blocks.shape[0], 2**bits))
    for i in range(bits):
        table[:, 2**i : 2 ** (i + 1)] = table[:, : 2**i] + blocks[:, i : i + 1]
    return table


def _monte_carlo_sign_flips(
    nonzero: np.ndarray, n: int, n_resamples: int, gen: np.random.Generator, max_signs: int
) -> np.ndarray:
    """The means of :func:`_sign_flip_means` (the idea, plainly), from the same bits, faster.

    A resample's mean is ``(sum(d) - 2 * sum of the flipped changes) / Q``; the flipped sum is
    read a byte (for very many changes, half a byte) at a time from a table of subset sums, with
    no BLAS product whose rounding would depend on the CPU. Each resample adds its look-ups in
    order, block 0 first, and the words are drawn row after row from the stream: chunking
    changes neither the draws nor the sums.
    """
    k = nonzero.size
    words = -(-k // 64)
    x = np.zeros(64 * words)
    x[:k] = nonzero
    per = 8 if 2**8 * 8 * words * 8 <= _MAX_TABLE_BYTES else 4  # bits per look-up
    table = _subset_sums(x, per).ravel()
    span = 2**8 if per == 8 else 2 * 2**4  # table entries per byte position
    shifts = [0] if per == 8 else [0, 4]  # a byte's look-ups: whole, or low half then high half
    low_byte = 0 if sys.byteorder == "little" else np.dtype(np.intp).itemsize - 1
    total = float(nonzero.sum())

    def means(rows: int) -> np.ndarray:
        draw = gen.integers(0, 2**64 - 1, size=(rows, words), dtype=np.uint64, endpoint=True)
        b = draw.astype("<u8", copy=False).view(np.uint8)
        if rows == 1:  # numpy sums a single column pairwise, several columns one row at a time
            b = np.repeat(b, 2, axis=0)
        b = b.T  # one row per byte position, one column per resample (a view, not a copy)
        cols = b.shape[1]
        group = max(1, min(b.shape[0], _LOOKUPS_AT_ONCE // cols))  # byte positions at once
        # Byte position g + i, half h, reads entry span * i + 2**per * h + bits of the tables
        # from byte position g on: the entry's multiple of 256 stays in the index's high bytes
        # for every group; the rest (0 for whole bytes, a multiple of 16 above a half's 4 bits)
        # joins the bits in the index's low byte: no cast, no add over the intp indices.
        offset = span * np.arange(group, dtype=np.intp)[:, None]
        offsets = [offset + 2**per * h for h in range(len(shifts))]
        index = [np.repeat(o - o % 256, cols, axis=1) for o in offsets]
        in_byte = [(o % 256).astype(np.uint8) for o in offsets]
        low = [ix.view(np.uint8)[:, low_byte :: ix.itemsize] for ix in index]
        # row 0 carries each resample's running sum, so adding a group's rows to it keeps
        # the order "block 0 first, one block after another" whatever the group size
        terms = np.empty((group + 1, cols))
        flipped = [np.zeros(cols) for _ in shifts]
        for g in range(0, b.shape[0], group):
            part = b[g : g + group]
            m = part.shape[0]
            here = table[span * g : span * (g + m)]
            for h, shift in enumerate(shifts):
                low[h][:m] = part if per == 8 else ((part >> shift) & 15) | in_byte[h][:m]
                # the indices are in range; mode="clip" lets take write into terms directly
                np.take(here, index[h][:m], out=terms[1 : m + 1], mode="clip")
                terms[0] = flipped[h]
                flipped[h] = np.add.reduce(terms[: m + 1], axis=0)
        both = flipped[0] if per == 8 else flipped[0] + flipped[1]
        return (total - 2 * both[:rows]) / n

    return _in_chunks(means, n_resamples, 64 * words, min(max_signs, 64 * words * _MAX_ROWS))


#: An exact grid p-value below _TINY is recomputed in logarithms by tilting (the dynamic
#: programme's smallest counts pass through subnormal doubles); one below the smallest positive
#: double, _SMALLEST, is reported as it, with a note.
_TINY = 1e-250
_SMALLEST = math.ulp(0.0)


def _grid_test(
    d: np.ndarray, grid, observed: float, alternative: str, null: bool = True
) -> SignificanceResult:
    """The exact test on the grid: flipping a total ``T`` of the steps gives the signed sum
    ``S - 2T`` (integers: ties decided exactly), T's distribution by DP or FFT. ``null=False``
    leaves the null distribution empty (the FFT route then takes no inverse FFT that the tails
    do not need)."""
    steps = grid.steps
    k, total = steps.size, int(np.abs(steps).sum())
    a = (total - int(steps.sum())) // 2  # S - 2T >= the observed sum exactly when T <= a
    m = min(a, total - a)  # two-sided: |S - 2T| >= |S - 2a| when T <= m or T >= S - m
    tails = [(a, alternative == "less")]  # (t, upper): P(T >= t) when upper, else P(T <= t)
    if alternative == "two-sided":
        tails = [(m, False), (total - m, True)]
    method = f"randomization (exact, sign-flip distribution on the {grid.label} grid)"
    if k * total <= MAX_DP_WORK and total + 1 <= MAX_GRID_POINTS:
        p, first, fft = sign_flip_distribution(steps), 0, None

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
    values = probs = np.empty(0)
    if null:
        if fft is not None:
            p, first = fft.probabilities, fft.first
        t = np.arange(first + p.size - 1, first - 1, -1, dtype=np.int64)
        values = ((total - 2 * t) * grid.step.numerator) / (grid.step.denominator * d.size)
        probs = p[::-1].copy()
    values.setflags(write=False)
    probs.setflags(write=False)
    return SignificanceResult(
        observed, pvalue, values, True, 2**k, count, alternative, method, probs
    )
