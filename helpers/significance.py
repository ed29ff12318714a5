"""Tests of significance for a paired comparison: the paired randomization test
and the shifted-bootstrap test.

Both ask the same question of the per-query changes ``d_q = m_B(q) - m_A(q)``:
if A and B were really interchangeable, how often would a mean change at least
as far from zero as the observed one turn up? They differ in how they imagine
"interchangeable":

* the **randomization test** (also called the paired permutation or sign-flip
  test) keeps the queries and swaps the labels A and B within each query, which
  flips the sign of ``d_q``. With k non-zero changes there are ``2**k`` equally
  likely sign assignments; small k is enumerated exactly, larger k is sampled.
* the **shifted-bootstrap test** moves the changes so that their mean is zero
  and resamples queries from that, with :func:`helpers.paired_bootstrap`.

When several tests drive one decision (metrics, slices, candidates),
:func:`holm` adjusts their p-values so that the chance of *any* false positive
in the family stays at or below ``alpha``.

Ties. Statistics that are equal in exact arithmetic can differ in the last bits
of floating point (``0.10 + 0.02 - 0.06`` is not ``0.06``), so "at least as
extreme" is decided with a tolerance of :data:`REL_TOL` times the mean absolute
change. The tolerance scales with the changes, not with the observed mean:
rounding error depends on the size of the terms summed, and an observed mean of
(nearly) zero must still tie with itself.
"""

from __future__ import annotations

import dataclasses
import math
import numbers
import sys
from dataclasses import dataclass
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
from .resampling import (
    DEFAULT_MAX_ELEMENTS,
    ClusterTotals,
    _cluster_totals,
    _draws_iv,
    _in_chunks,
    _paired_bootstrap,
)

__all__ = [
    "MAX_EXACT_ASSIGNMENTS",
    "DEFAULT_FALLBACK_RESAMPLES",
    "DEFAULT_MAX_SIGNS",
    "REL_TOL",
    "SignificanceResult",
    "randomization_test",
    "shifted_bootstrap_test",
    "HolmResult",
    "holm",
]

#: Most sign assignments :func:`randomization_test` enumerates exactly: 2**20 =
#: 1,048,576, i.e. up to 20 non-zero changes. The null distribution then takes
#: 8 MiB and is built in well under a second; 21 or more non-zero changes need
#: ``n_resamples`` (a Monte Carlo test).
MAX_EXACT_ASSIGNMENTS = 2**20

#: Two statistics closer than ``REL_TOL * mean(|d_q|)`` count as tied. Rounding
#: error in a mean of n changes is about ``n * 2.2e-16`` of that scale at worst,
#: so 1e-9 absorbs it for up to millions of queries, while real differences
#: between statistics are many orders of magnitude larger.
REL_TOL = 1e-9

#: Signs the Monte Carlo randomization test draws at once by default: 2**26 random bits
#: (8 MiB), looked up 2**18 at a time (2 MiB of indices, 2 MiB of looked-up sums); the
#: result does not depend on it.
DEFAULT_MAX_SIGNS = 2**26

#: Monte Carlo resamples used when no exact method applies, ``rng`` is given
#: and ``n_resamples`` is not.
DEFAULT_FALLBACK_RESAMPLES = 10_000

_ALTERNATIVES = ("two-sided", "greater", "less")


@dataclass(frozen=True, eq=False)
class SignificanceResult:
    """The outcome of a test of significance for the mean change.

    Attributes
    ----------
    statistic : float
        The observed mean change ``mean(d_q)``.
    pvalue : float
        The p-value for ``alternative``.
    null_distribution : numpy.ndarray
        The statistics the observed one is compared with (read-only). For an
        exact randomization test, all ``2**k`` sign assignments of the k
        non-zero changes, in ``itertools.product((+1, -1), repeat=k)`` order
        (row 0 is the observed assignment); otherwise the ``n_resamples``
        Monte Carlo or bootstrap statistics, in draw order. For the exact test
        on the grid, the distinct possible means, ascending, with their
        probabilities in ``null_probabilities``.
    exact : bool
        True when the p-value is exact: every sign assignment enumerated, or
        their distribution computed on the grid.
    n_resamples : int
        ``2**k`` when exact (the number of sign assignments), else B.
    count : int
        How many sign assignments (exact) or resamples (Monte Carlo) are at
        least as extreme as ``statistic`` (ties included). On the grid with
        more than 53 non-zero changes it is ``pvalue * 2**k`` rounded (the
        p-value then carries a relative error below ``k * 2**-53``).
    alternative : str
        ``"two-sided"``, ``"greater"`` (B better) or ``"less"`` (B worse).
    method : str
        Which test produced the result, in words.
    null_probabilities : numpy.ndarray or None
        For the exact test on the grid, the probability of each entry of
        ``null_distribution``; None when every entry counts once.
    """

    statistic: float
    pvalue: float
    null_distribution: np.ndarray
    exact: bool
    n_resamples: int
    count: int
    alternative: str
    method: str
    null_probabilities: np.ndarray | None = None

    def __repr__(self) -> str:
        return (
            f"SignificanceResult(statistic={self.statistic:+.6g}, pvalue={self.pvalue:.6g}, "
            f"exact={self.exact}, "
            f"count={self.count}, n_resamples={self.n_resamples}, "
            f"alternative={self.alternative!r}, method={self.method!r})"
        )


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
        hits = null >= observed - tol
    else:
        hits = null <= observed + tol
    return int(np.count_nonzero(hits))


def _all_sign_flip_sums(values: np.ndarray) -> np.ndarray:
    """Sums of ``s_i * values[i]`` for all ``2**k`` sign vectors, in itertools.product((1, -1))
    order.

    Built by doubling in place: after the last j values are placed, the first
    half of the filled part holds ``+values[i]`` and the second half
    ``-values[i]`` for the value just added, which makes the first value the
    most significant "digit". Every row sums its terms in the same order, so
    the array is exactly antisymmetric (row j is minus row 2**k - 1 - j).
    Memory: the ``2**k`` results and nothing else.
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
    """``table[j, v]``: the sum of ``x[bits * j + i]`` over the bits ``i`` set in ``v``.

    Built one bit at a time, so every entry is summed in the same order (lowest bit first)
    on every CPU. ``x.size`` must be a multiple of ``bits``.
    """
    blocks = x.reshape(-1, bits)
    table = np.zeros((blocks.shape[0], 2**bits))
    for i in range(bits):
        table[:, 2**i : 2 ** (i + 1)] = table[:, : 2**i] + blocks[:, i : i + 1]
    return table


def _monte_carlo_sign_flips(
    nonzero: np.ndarray, n: int, n_resamples: int, gen: np.random.Generator, max_signs: int
) -> np.ndarray:
    """``n_resamples`` means of the sign-flipped changes, each sign one random bit.

    A resample is ``ceil(k / 64)`` random 64-bit words, one bit per non-zero change
    (bit ``i`` of the little-endian words is change ``i``; 1 flips it), so its mean is
    ``(sum(d) - 2 * sum of the flipped changes) / Q``. The flipped sum is read a byte
    (or, for very many changes, half a byte) at a time from a table of subset sums:
    one look-up adds the flipped changes among 8 (or 4), with no BLAS product whose
    rounding would depend on the CPU. Each resample adds its look-ups one after another,
    block 0 first, whatever the chunk it falls in; and the words are drawn row after row
    from the stream, so chunking does not change the draws either.
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
        # from byte position g on. That entry's multiple of 256 stays in the index's high
        # bytes for every group; the rest (0 for whole bytes, a multiple of 16 above the
        # 4 bits of a half) joins the bits, written into the index's low byte: no cast and
        # no add over the intp indices.
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


def _grid_test(d: np.ndarray, grid, observed: float, alternative: str) -> SignificanceResult:
    """The exact test from the sign-flip distribution on the grid.

    With integer steps ``k_i`` (non-zero), ``S = sum |k_i|`` and the observed
    signed sum ``o``, an assignment that flips a total ``T`` of the ``|k_i|``
    has signed sum ``S - 2T``. Integer sums: ties are decided exactly. The
    distribution of T comes from dynamic programming
    (:func:`helpers.sign_flip_distribution`) while that is cheap, else by FFT
    (:class:`helpers.SignFlipFFT`, tails by exponential tilting). Raises
    ValueError when even the FFT would exceed :data:`helpers.MAX_GRID_POINTS`.
    """
    steps = grid.steps
    k = steps.size
    total = int(np.abs(steps).sum())
    o = int(steps.sum())
    method = f"randomization (exact, sign-flip distribution on the {grid.label} grid)"
    if k * total <= MAX_DP_WORK and total + 1 <= MAX_GRID_POINTS:
        p = sign_flip_distribution(steps)
        if alternative == "two-sided":
            if o == 0:
                tail = 1.0
            else:  # |S - 2T| >= |o|
                tail = float(np.sum(p[: (total - abs(o)) // 2 + 1])) + float(
                    np.sum(p[(total + abs(o)) // 2 :])
                )
        elif alternative == "greater":  # S - 2T >= o
            tail = float(np.sum(p[: (total - o) // 2 + 1]))
        else:  # S - 2T <= o
            tail = float(np.sum(p[(total - o) // 2 :]))
        first = 0
    else:
        fft = SignFlipFFT.of(steps)
        p, first = fft.probabilities, fft.first
        if alternative == "two-sided":  # P(T <= (S - |o|) / 2) twice, by symmetry
            tail = 1.0 if o == 0 else 2 * fft.lower_tail((total - abs(o)) // 2)
        elif alternative == "greater":
            tail = fft.lower_tail((total - o) // 2)
        else:  # S - 2T <= o: T >= (S - o) / 2, i.e. by symmetry T <= (S + o) / 2
            tail = fft.lower_tail((total + o) // 2)
        method = method[:-1] + f", by FFT of {fft.n_points:,} points)"
    pvalue = min(1.0, tail)
    t = np.arange(first + p.size - 1, first - 1, -1, dtype=np.int64)
    null = ((total - 2 * t) * grid.step.numerator) / (grid.step.denominator * d.size)
    probs = p[::-1].copy()
    null.setflags(write=False)
    probs.setflags(write=False)
    count = round(Fraction(pvalue) * 2**k)
    return SignificanceResult(
        observed, pvalue, null, True, 2**k, int(count), alternative, method, probs
    )


def randomization_test(
    changes: ArrayLike,
    *,
    n_resamples: int | None = None,
    rng: int | np.random.Generator | None = None,
    alternative: str = "two-sided",
    clusters: ArrayLike | None = None,
    max_elements: int = DEFAULT_MAX_SIGNS,
    fallback_resamples: int = DEFAULT_FALLBACK_RESAMPLES,
) -> SignificanceResult:
    """Paired randomization (sign-flip) test of the mean change.

    The null hypothesis is that A and B are exchangeable on every query:
    swapping the two labels within a query is as likely as not, and it flips
    the sign of ``d_q``. The p-value is the fraction of sign assignments whose
    mean change is at least as extreme as the observed one: ``|mean| >=
    |observed|`` for ``"two-sided"``, ``mean >= observed`` for ``"greater"``,
    ``mean <= observed`` for ``"less"`` (ties count, see :data:`REL_TOL`).

    A zero change is unchanged by a flip, so only the k non-zero changes are
    flipped (the mean is still taken over all Q queries).

    * ``n_resamples=None``: **exact**, p = count / 2**k. Up to
      :data:`MAX_EXACT_ASSIGNMENTS` (k <= 20) all ``2**k`` assignments are
      enumerated. Beyond, when the changes are whole numbers of a grid step
      (hit@k, P@k, RR@k, trec_eval's four decimals; see :func:`helpers.find_grid`),
      the distribution of the sum over all assignments is computed on the
      integer sums, and ties are decided exactly: by dynamic programming
      (:func:`helpers.sign_flip_distribution`) while it is cheap, else by FFT
      with exponential tilting for the tail (:class:`helpers.SignFlipFFT`,
      relative precision about 1e-9 however small p is), within
      :data:`helpers.MAX_GRID_POINTS` points. Otherwise, with ``rng`` given, a Monte Carlo test with
      ``fallback_resamples`` resamples, whose ``method`` says why it is not
      exact; without ``rng``, a ValueError.
    * ``n_resamples=B``: **Monte Carlo**, B random sign vectors drawn from
      ``rng``, each sign one random bit (64 signs per 64-bit word drawn); p =
      (count + 1) / (B + 1), never 0, because the observed assignment is itself
      one of the equally likely ones.

    Parameters
    ----------
    changes : sequence of float
        The per-query changes ``d_q`` (see :func:`helpers.paired_differences`).
    n_resamples : int, optional
        B for a Monte Carlo test; leave out for the exact test.
    rng : int or numpy.random.Generator
        Seed or generator; required for a Monte Carlo test (ignored when exact).
        The same seed always gives the same result.
    alternative : {"two-sided", "greater", "less"}
        ``"greater"`` asks whether B is better, ``"less"`` whether B is worse.
    max_elements : int
        Signs held in memory at once in the Monte Carlo test; the result does
        not depend on it.
    clusters : sequence of labels, optional
        The cluster (user) of each query, as for :func:`helpers.cluster_bootstrap`.
        The test then flips the sign of each user's *total* change: exchangeability
        is assumed per user, not per query. The statistic and null distribution
        stay on the scale of the mean change over queries (sum of signed totals / Q);
        ``method`` says so.
    fallback_resamples : int
        B for the Monte Carlo test used when ``n_resamples`` is omitted, no
        exact method applies and ``rng`` is given (default 10,000).

    Examples
    --------
    >>> res = randomization_test([0.10, 0.02, -0.06, 0.04])
    >>> print(f"mean {res.statistic:+.3f}, p = {res.pvalue:.4f} "
    ...       f"({res.count} of {res.n_resamples}), exact: {res.exact}")
    mean +0.025, p = 0.6250 (10 of 16), exact: True
    >>> print(f"{randomization_test([0.10, 0.02, -0.06, 0.04], alternative='greater').pvalue:.4f}")
    0.3125
    >>> mc = randomization_test([0.3] * 30, n_resamples=999, rng=1)
    >>> print(f"{mc.count} of {mc.n_resamples} as extreme, p = {mc.pvalue:.3f}")
    0 of 999 as extreme, p = 0.001
    >>> zea = [6.125, -8.375, 1.0, 2.0, 0.75, 2.875, 3.5, 5.125, 1.75, 3.625, 7.0, 3.0, 9.375,
    ...        7.5, -6.0]
    >>> # 30 changes: on the 1/8 grid
    >>> res = randomization_test(np.repeat(zea, 2), alternative="greater")
    >>> print(f"p = {res.pvalue:.6f}, exact: {res.exact}, {res.method}")
    p = 0.002562, exact: True, randomization (exact, sign-flip distribution on the 1/8 grid)
    """
    d = _checks.scores(changes, "changes")
    alternative = _checks.one_of(alternative, "alternative", _ALTERNATIVES)
    if n_resamples is not None:
        n_resamples = _checks.integer(n_resamples, "n_resamples")
    fallback = _checks.integer(fallback_resamples, "fallback_resamples")
    gen = None if n_resamples is None and rng is None else _checks.generator(rng)
    max_elements = _checks.integer(max_elements, "max_elements")
    totals = None if clusters is None else _cluster_totals(d, *_checks.clusters(clusters, d.size))
    return _randomization_test(d, totals, n_resamples, gen, alternative, max_elements, fallback)


def _randomization_test(
    d: np.ndarray,
    totals: ClusterTotals | None,
    n_resamples: int | None,
    rng: np.random.Generator | None,
    alternative: str,
    max_elements: int = DEFAULT_MAX_SIGNS,
    fallback_resamples: int = DEFAULT_FALLBACK_RESAMPLES,
) -> SignificanceResult:
    if totals is None:
        return _sign_flip_test(d, n_resamples, rng, alternative, max_elements, fallback_resamples)
    test = _sign_flip_test(
        totals.sums, n_resamples, rng, alternative, max_elements, fallback_resamples
    )
    # The test ran on user totals: its statistic was the mean of the signed totals.
    # Rescale to the mean change over queries (sum of signed totals / Q); p is unchanged.
    null = test.null_distribution * (len(totals.labels) / d.size)
    null.flags.writeable = False
    return dataclasses.replace(
        test,
        statistic=float(d.mean()),
        null_distribution=null,
        method=test.method + ", flipping each user's total change",
    )


def _sign_flip_test(
    d: np.ndarray,
    n_resamples: int | None,
    rng: np.random.Generator | None,
    alternative: str,
    max_elements: int,
    fallback_resamples: int,
) -> SignificanceResult:
    """:func:`randomization_test` on checked changes, flipping each entry of ``d``."""
    n = d.size
    nonzero = d[d != 0]
    k = nonzero.size
    observed = float(np.mean(d))
    tol = REL_TOL * float(np.abs(d).mean())

    if n_resamples is None and 2**k > MAX_EXACT_ASSIGNMENTS:
        grid = _find_grid(nonzero)
        if grid is None:
            why = f"the {k} non-zero changes are on no grid ({GRIDS_TRIED})"
        else:
            try:
                return _grid_test(d, grid, observed, alternative)
            except ValueError as err:  # too fine a grid for the memory limit
                why = f"on the {grid.label} grid {err}".removesuffix(".")
        if rng is None:
            raise ValueError(
                f"No exact test here: {why}, and 2**{k} = {_checks.count_in_words(2**k)} sign "
                "assignments are too many to enumerate "
                f"(limit {MAX_EXACT_ASSIGNMENTS:,}). Pass n_resamples (e.g. n_resamples=10_000) "
                "and rng "
                f"for a Monte Carlo test (rng alone uses {fallback_resamples:,} resamples)."
            )
        n_resamples = fallback_resamples
        fallback = f" (not exact: {why})"
    else:
        fallback = ""
    if n_resamples is None:
        null = _all_sign_flip_sums(nonzero)
        null /= n
        count = _count_at_least_as_extreme(null, observed, alternative, tol)
        pvalue = count / null.size
        exact, method = True, "randomization (exact, all sign assignments)"
    else:
        if k == 0:
            null = np.zeros(n_resamples)
        else:
            null = _monte_carlo_sign_flips(nonzero, n, n_resamples, rng, max_elements)
        count = _count_at_least_as_extreme(null, observed, alternative, tol)
        pvalue = (count + 1) / (n_resamples + 1)
        exact, method = False, "randomization (Monte Carlo sign assignments)" + fallback
    null.setflags(write=False)
    return SignificanceResult(
        observed, float(pvalue), null, exact, int(null.size), count, alternative, method
    )


def shifted_bootstrap_test(
    changes: ArrayLike,
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator,
    alternative: str = "two-sided",
    max_elements: int = DEFAULT_MAX_ELEMENTS,
) -> SignificanceResult:
    """The bootstrap's test of "no mean change": resample the changes after centring them at zero.

    The ordinary paired bootstrap is centred near the observed mean change, so
    it cannot say how unusual that change would be if there were none. Shifting
    every ``d_q`` by ``-mean(d)`` makes a population whose mean change is
    exactly zero but whose spread is the observed one; the bootstrap means of
    that population (from :func:`helpers.paired_bootstrap`) stand in for the
    null distribution. The p-value is the fraction of them at least as extreme
    as the observed mean (same sidedness and ties as
    :func:`randomization_test`). It is a plain fraction, count / B: it can be
    0, which then reads "below 1/B".

    Examples
    --------
    >>> res = shifted_bootstrap_test([0.10, 0.02, -0.06, 0.04], n_resamples=5000, rng=1)
    >>> centre = res.null_distribution.mean()
    >>> print(f"mean {res.statistic:+.3f}, p = {res.pvalue:.3f}, centre of the null {centre:+.3f}")
    mean +0.025, p = 0.419, centre of the null +0.000
    """
    d = _checks.scores(changes, "changes")
    alternative = _checks.one_of(alternative, "alternative", _ALTERNATIVES)
    observed = float(np.mean(d))
    null = _paired_bootstrap(d - observed, *_draws_iv(n_resamples, rng, max_elements))
    count = _count_at_least_as_extreme(
        null, observed, alternative, REL_TOL * float(np.abs(d).mean())
    )
    null.setflags(write=False)
    return SignificanceResult(
        observed,
        count / null.size,
        null,
        False,
        int(null.size),
        count,
        alternative,
        "shifted bootstrap (changes centred at zero, query pairs resampled)",
    )


# --- Several tests at once ------------------------------------------------------


@dataclass(frozen=True, eq=False)
class HolmResult:
    """Holm-adjusted p-values, in the order the p-values were given."""

    pvalues: np.ndarray
    adjusted: np.ndarray
    rejected: np.ndarray
    alpha: float

    def __str__(self) -> str:
        lines = [f"{'test':>4}  {'p':>7}  {'Holm p':>7}  reject at {self.alpha:g}"]
        for i, (p, adj, rej) in enumerate(
            zip(self.pvalues, self.adjusted, self.rejected, strict=False), start=1
        ):
            lines.append(f"{i:>4}  {p:>7.4f}  {adj:>7.4f}  {'yes' if rej else 'no'}")
        return "\n".join(lines)


def _check_alpha(alpha: object) -> float:
    if (
        isinstance(alpha, bool)
        or not isinstance(alpha, numbers.Real)
        or not math.isfinite(alpha)
        or not 0 < alpha < 1
    ):
        raise ValueError(
            f"alpha must be a number strictly between 0 and 1 (e.g. 0.05); got {alpha!r}."
        )
    return float(alpha)


def holm(pvalues: ArrayLike, alpha: float = 0.05) -> HolmResult:
    """Holm's step-down adjustment of ``m`` p-values, controlling the family-wise error rate.

    Sort the p-values, ``p_(1) <= ... <= p_(m)``. The adjusted value of the
    ``i``-th smallest is ``max over j <= i of min(1, (m - j + 1) * p_(j))``: the
    smallest p-value is multiplied by ``m``, the next by ``m - 1``, and so on,
    and the running maximum keeps the adjusted values in the same order as the
    raw ones. A hypothesis is rejected when its adjusted p-value is at most
    ``alpha``; this is the same as stepping down through the sorted p-values,
    rejecting while ``p_(i) <= alpha / (m - i + 1)`` and stopping at the first
    that is not. Whatever the dependence between the tests, the chance of one
    or more false rejections is at most ``alpha``.

    Examples
    --------
    >>> res = holm([0.01, 0.04, 0.03, 0.005])
    >>> print(res.adjusted.round(4).tolist(), res.rejected.tolist())
    [0.03, 0.06, 0.06, 0.02] [True, False, False, True]
    """
    p = _checks.scores(pvalues, "p-values")
    outside = np.flatnonzero((p < 0) | (p > 1))
    if outside.size:
        raise ValueError(
            f"p-values must lie between 0 and 1; got {float(p[outside[0]])!r} at position "
            f"{int(outside[0])}."
        )
    a = _check_alpha(alpha)
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return HolmResult(pvalues=p, adjusted=adjusted, rejected=adjusted <= a, alpha=a)
