"""Resampling: the paired bootstrap and its engine, then its variants: its idea (R resamples of Q
query indices drawn with replacement) for another statistic, for users, or without randomness."""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = ["paired_bootstrap", "resample", "unpaired_bootstrap", "paired_bootstrap_statistic",
           "mean_difference", "relative_change", "quantile_difference", "enumerate_resamples",
           "collapse_to_multisets", "exact_means", "ClusterTotals", "cluster_totals",
           "cluster_bootstrap", "ClusterDraws", "enumerate_cluster_resamples", "ExactDistribution",
           "exact_bootstrap_distribution"]  # fmt: skip


def paired_bootstrap(
    changes: ArrayLike, *, n_resamples: int = 10_000, rng: int | np.random.Generator
) -> np.ndarray:
    """Bootstrap means of the per-query changes, resampling whole query pairs.

    Each of the R resamples draws Q queries with replacement from the Q observed ones and
    averages their changes ``d_q = m_B(q) - m_A(q)``; a query's A and B scores travel together
    because only its change is drawn.

    >>> means = paired_bootstrap([0.10, 0.02, -0.06, 0.04], n_resamples=1000, rng=0)
    >>> means.shape, bool(means.min() >= -0.06 and means.max() <= 0.10)
    ((1000,), True)
    """
    d = _checks.scores(changes, "changes")
    R, gen, max_elements = _draws_iv(n_resamples, rng)
    # R rows of Q query indices drawn with replacement (below), and the mean change of each row
    return _resample(d.size, d.size, lambda idx: d[idx].mean(axis=1), R, gen, max_elements)


def _resample(
    n: int, draws: int, statistic: Callable, R: int, rng: np.random.Generator, max_elements: int,
    shape: tuple[int, ...] = ()
) -> np.ndarray:  # fmt: skip
    """Every variant's engine: ``statistic`` of R rows of ``draws`` indices drawn with replacement
    from ``range(n)``, a block of rows at a time (at most ``max_elements`` indices, at least one
    row): the stream is read in the order of one big draw, so the blocks change nothing.
    ``statistic`` returns one value per row, or ``shape`` values (``shape + (rows,)``)."""
    out = np.empty(shape + (R,))
    rows = max(1, max_elements // draws)
    for start in range(0, R, rows):
        k = min(rows, R - start)
        idx = rng.integers(0, n, size=(k, draws))  # k resamples, one per row
        values = np.asarray(statistic(idx), dtype=np.float64)
        if values.shape != shape + (k,):
            raise ValueError(
                f"statistic must return one value per resample, shape {shape + (k,)}; got "
                f"{values.shape}."
            )
        out[..., start : start + k] = values
    return out


#: Indices held in memory at once by default (2**16 int64 = 512 KiB); see :func:`_resample`.
DEFAULT_MAX_ELEMENTS = 2**16


def _paired_bootstrap(
    d: np.ndarray, R: int, rng: np.random.Generator, max_elements: int = DEFAULT_MAX_ELEMENTS
) -> np.ndarray:
    """:func:`paired_bootstrap` on checked arguments."""
    return _resample(d.size, d.size, lambda idx: d[idx].mean(axis=1), R, rng, max_elements)


def _draws_iv(n_resamples: object, rng: object) -> tuple[int, np.random.Generator, int]:
    """R, the generator, and the indices drawn at a time (an internal constant)."""
    return _checks.integer(n_resamples, "n_resamples"), _checks.generator(rng), DEFAULT_MAX_ELEMENTS


def resample(
    n: int,
    statistic: Callable[[np.ndarray], np.ndarray],
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator,
    draws: int | None = None,
) -> np.ndarray:
    """The general form of :func:`paired_bootstrap`: apply ``statistic`` to R index draws.

    ``statistic`` receives ``(k, draws)`` indices drawn with replacement from ``range(n)``
    (``draws`` defaults to ``n``), one resample per row, and returns ``k`` values.

    >>> d = np.array([0.1, 0.2, 0.3])
    >>> resample(3, lambda idx: d[idx].mean(axis=1), n_resamples=4, rng=1).round(3)
    array([0.233, 0.167, 0.233, 0.2  ])
    """
    n = _checks.integer(n, "n")
    draws = n if draws is None else _checks.integer(draws, "draws")
    return _resample(n, draws, statistic, *_draws_iv(n_resamples, rng))


def unpaired_bootstrap(
    a: ArrayLike, b: ArrayLike, *, n_resamples: int = 10_000, rng: int | np.random.Generator
) -> np.ndarray:
    """Bootstrap ``mean(B) - mean(A)`` resampling A's and B's scores *independently*.

    The wrong bootstrap for paired runs, kept to show what pairing buys.

    >>> a, b = [0.2, 0.5, 0.9], [0.3, 0.6, 1.0]
    >>> unpaired_bootstrap(a, b, n_resamples=5, rng=0).shape
    (5,)
    """
    _, a_arr, b_arr = _checks.paired(a, b)  # the same queries, only resampled apart
    n = a_arr.size

    def diff_of_means(idx: np.ndarray) -> np.ndarray:
        return b_arr[idx[:, n:]].mean(axis=1) - a_arr[idx[:, :n]].mean(axis=1)

    return _resample(n, 2 * n, diff_of_means, *_draws_iv(n_resamples, rng))


def paired_bootstrap_statistic(
    a: ArrayLike,
    b: ArrayLike,
    statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator,
) -> np.ndarray:
    """Bootstrap any statistic of the two score vectors, resampling whole query pairs.

    The draws are :func:`paired_bootstrap`'s; ``statistic(a_res, b_res)`` receives two
    ``(k, Q)`` matrices and returns ``k`` values (write it with ``axis=-1``), as
    :func:`mean_difference`, :func:`relative_change` and :func:`quantile_difference` do.

    >>> a, b = [0.50, 0.70, 0.65, 0.55], [0.60, 0.72, 0.59, 0.59]
    >>> same = paired_bootstrap_statistic(a, b, mean_difference, n_resamples=50, rng=3)
    >>> bool((same == paired_bootstrap(np.subtract(b, a), n_resamples=50, rng=3)).all())
    True
    """
    _, a_arr, b_arr = _checks.paired(a, b)
    if not callable(statistic):
        raise ValueError(
            "statistic must be a function statistic(a_res, b_res) returning one value per row; "
            f"got {type(statistic).__name__}."
        )
    draws = _draws_iv(n_resamples, rng)
    Q = a_arr.size
    return _resample(Q, Q, lambda idx: statistic(a_arr[idx], b_arr[idx]), *draws)


def mean_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``mean(B) - mean(A)`` along the last axis: the mean of the paired changes.

    >>> print(f"{mean_difference(np.array([0.5, 0.7]), np.array([0.6, 0.7])):+.3f}")
    +0.050
    """
    return np.mean(b - a, axis=-1)


def relative_change(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The relative change ``mean(B) / mean(A) - 1`` along the last axis (refused if A's mean is 0).

    >>> print(f"{relative_change(np.array([0.50, 0.70]), np.array([0.60, 0.75])):+.4f}")
    +0.1250
    """
    mean_a = np.mean(a, axis=-1)
    if np.any(mean_a == 0):
        raise ValueError(
            "A's mean is 0 (in the data or in a resample), so the relative change is undefined; "
            "report the absolute change instead."
        )
    return np.mean(b, axis=-1) / mean_a - 1


def quantile_difference(q: float) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A statistic: the ``q``-quantile of B minus the ``q``-quantile of A, along the last axis.

    numpy's default quantiles; ``quantile_difference(0.95)`` compares p95 latencies.

    >>> p50 = quantile_difference(0.5)
    >>> print(f"{p50(np.array([10.0, 20.0, 30.0]), np.array([12.0, 25.0, 31.0])):+.1f}")
    +5.0
    """
    if isinstance(q, bool) or not isinstance(q, numbers.Real) or not 0 <= q <= 1:
        raise ValueError(
            f"q must be a quantile level between 0 and 1 (e.g. 0.95 for p95); got {q!r}."
        )
    level = float(q)

    def statistic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.quantile(b, level, axis=-1) - np.quantile(a, level, axis=-1)

    statistic.__name__ = f"quantile_difference({level:g})"
    return statistic


#: Largest n for which :func:`enumerate_resamples` builds all n**n draws
#: (7**7 = 823,543 rows, 46 MB; 8**8 would take over 1 GB).
MAX_ENUMERATE_N = 7


def enumerate_resamples(n: int) -> np.ndarray:
    """All ``n**n`` ordered resamples of ``n`` indices, in lexicographic order.

    Row ``k`` is the ``k``-th element of ``itertools.product(range(n), repeat=n)``
    (the series' draw ``k + 1``); ``n`` is at most :data:`MAX_ENUMERATE_N`.

    >>> enumerate_resamples(4)[27]  # draw 28 of 256: the original sample
    array([0, 1, 2, 3])
    """
    return _enumerate_resamples(_checks.integer(n, "n"))


def _enumerate_resamples(n: int) -> np.ndarray:
    if n > MAX_ENUMERATE_N:
        raise ValueError(
            f"enumerate_resamples(n={n}) would build {n}**{n} = {n**n:,} rows; the limit is n <= "
            f"{MAX_ENUMERATE_N}. "
            "Use a Monte Carlo bootstrap (paired_bootstrap) or an exact distribution instead."
        )
    return np.indices((n,) * n, dtype=np.intp).reshape(n, -1).T.copy()


def exact_means(changes: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(means, values, probabilities)``: the means of all ``n**n`` ordered resamples (rounded
    to 12 decimals, so one multiset gives one value) and their distinct values.

    >>> means, values, probs = exact_means([0.10, 0.02, -0.06, 0.04])
    >>> means.size, values.size, float(probs.sum())
    (256, 24, 1.0)
    """
    return _exact_means(_checks.scores(changes, "changes"))


def _exact_means(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    means = np.round(d[_enumerate_resamples(d.size)].mean(axis=1), 12)
    values, counts = np.unique(means, return_counts=True)
    return means, values, counts / means.size


def collapse_to_multisets(draws: np.ndarray, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Group ordered draws by how many times each unit was drawn.

    ``draws`` is a ``(k, m)`` integer array, one draw per row; ``n`` the number
    of units (default: largest index + 1). The ``n**n`` ordered draws collapse
    to ``C(2n - 1, n)`` multisets.

    >>> counts, freq = collapse_to_multisets(enumerate_resamples(2))
    >>> counts.tolist(), freq.tolist()
    ([[2, 0], [1, 1], [0, 2]], [1, 2, 1])
    """
    draws = np.asarray(draws)
    if draws.ndim != 2 or draws.size == 0 or draws.dtype.kind not in "iu":
        raise ValueError(
            "draws must be a non-empty 2-D integer array, one draw per row; got shape "
            f"{draws.shape}, dtype {draws.dtype}."
        )
    low, high = int(draws.min()), int(draws.max())
    n = high + 1 if n is None else _checks.integer(n, "n")
    if low < 0 or high >= n:
        raise ValueError(f"draws must be indices from 0 to n - 1 = {n - 1}; got {low} to {high}.")
    per_row = np.zeros((draws.shape[0], n), dtype=np.int64)
    np.add.at(per_row, (np.arange(draws.shape[0])[:, None], draws), 1)
    counts, frequency = np.unique(per_row, axis=0, return_counts=True)
    order = np.lexsort(counts.T[::-1])[::-1]
    return counts[order], frequency[order]


# --- Clusters: whole users resampled together (chapter 4) ---------------------

#: The targets a cluster bootstrap can average over, by ``weighting``.
CLUSTER_WEIGHTINGS = ("query", "cluster")


@dataclass(frozen=True, eq=False)
class ClusterTotals:
    """Each cluster's total change (``sums``) and number of queries (``counts``), clusters
    (``labels``) in order of first appearance; ``codes[i]`` is query row ``i``'s cluster index."""

    labels: list
    sums: np.ndarray
    counts: np.ndarray
    codes: np.ndarray

    @property
    def means(self) -> np.ndarray:
        return self.sums / self.counts


def cluster_totals(changes: ArrayLike, clusters: ArrayLike) -> ClusterTotals:
    """Sum and count the per-query changes of each cluster (user).

    ``clusters`` holds the cluster of each change (any hashable labels but None and NaN).

    >>> t = cluster_totals([0.10, 0.02, -0.06, 0.04], ["U1", "U1", "U2", "U3"])
    >>> t.labels, t.counts.tolist()
    (['U1', 'U2', 'U3'], [2, 1, 1])
    >>> print(", ".join(f"{m:+.2f}" for m in t.means))
    +0.06, -0.06, +0.04
    """
    d = _checks.scores(changes, "changes")
    return _cluster_totals(d, *_checks.clusters(clusters, d.size))


def _cluster_totals(d: np.ndarray, labels: list, codes: np.ndarray) -> ClusterTotals:
    sums = np.bincount(codes, weights=d, minlength=len(labels))
    return ClusterTotals(labels, sums, np.bincount(codes, minlength=len(labels)), codes)


def cluster_bootstrap(
    changes: ArrayLike,
    clusters: ArrayLike,
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator,
    weighting: str = "query",
) -> np.ndarray:
    """Bootstrap the mean change resampling whole clusters (users), not single queries.

    Each resample draws G of the G clusters with replacement and keeps all their queries.
    ``weighting="query"`` divides the total change by the total query count; ``"cluster"``
    averages the drawn clusters' means (every user counts once).

    >>> d, users = [0.10, 0.02, -0.06, 0.04], ["U1", "U1", "U2", "U3"]
    >>> q = cluster_bootstrap(d, users, n_resamples=2000, rng=0)
    >>> print(f"{q.min():+.3f} {q.max():+.3f}")
    -0.060 +0.060
    """
    weighting = _checks.one_of(weighting, "weighting", CLUSTER_WEIGHTINGS)
    totals = cluster_totals(changes, clusters)
    return _cluster_bootstrap(totals, weighting, *_draws_iv(n_resamples, rng))


def _cluster_bootstrap(
    t: ClusterTotals, weighting: str, R: int, rng: np.random.Generator, max_elements: int
) -> np.ndarray:
    sums, counts, means = t.sums, t.counts.astype(np.float64), t.means

    def statistic(idx: np.ndarray) -> np.ndarray:
        if weighting == "query":  # total change / total query count
            return sums[idx].sum(axis=1) / counts[idx].sum(axis=1)
        return means[idx].mean(axis=1)  # every drawn cluster counts once

    G = len(t.labels)
    return _resample(G, G, statistic, R, rng, max_elements)


@dataclass(frozen=True, eq=False)
class ClusterDraws:
    """Every ordered draw of G clusters from G, with what each draw gives.

    Row ``k`` of each array describes draw ``k`` (lexicographic order, as
    :func:`enumerate_resamples`); every draw has probability ``1 / G**G``.
    """

    labels: list  #: cluster labels; ``draws`` holds indices into this list
    draws: np.ndarray  #: (G**G, G) cluster indices of each draw
    n_rows: np.ndarray  #: number of query rows each draw brings
    query_weighted: np.ndarray  #: total change / total query rows
    cluster_weighted: np.ndarray  #: average of the drawn clusters' means


def enumerate_cluster_resamples(changes: ArrayLike, clusters: ArrayLike) -> ClusterDraws:
    """The exact cluster bootstrap of a tiny example: all G**G ordered draws of G clusters.

    >>> e = enumerate_cluster_resamples([0.10, 0.02, -0.06, 0.04], ["U1", "U1", "U2", "U3"])
    >>> k = 5  # 0-based: the original sample U1, U2, U3
    >>> [e.labels[j] for j in e.draws[k]], int(e.n_rows[k])
    (['U1', 'U2', 'U3'], 4)
    >>> print(f"{e.query_weighted[k]:+.4f} {e.cluster_weighted[k]:+.4f}")
    +0.0250 +0.0133
    """
    t = cluster_totals(changes, clusters)
    draws = _enumerate_resamples(len(t.labels))
    n_rows = t.counts[draws].sum(axis=1)
    by_query, by_cluster = t.sums[draws].sum(axis=1) / n_rows, t.means[draws].mean(axis=1)
    return ClusterDraws(t.labels, draws, n_rows, by_query, by_cluster)


# --- Exact bootstrap distributions (chapter 3) ----------------------------------


#: Most count vectors :func:`exact_bootstrap_distribution` enumerates by default (about a
#: second): any 11 distinct changes, or 1,412 queries of hit@k changes (-1, 0, +1).
MAX_EXACT_MULTISETS = 1_000_000

#: Resample means closer than this, relative to the largest |change|, are one value.
EXACT_MERGE_RTOL = 1e-12


@dataclass(frozen=True, eq=False)
class ExactDistribution:
    """A discrete distribution: sorted distinct ``values`` and their ``probabilities``."""

    values: np.ndarray
    probabilities: np.ndarray

    def cdf(self, x: float) -> float:
        """Probability of a value ``<= x`` (values within rounding of ``x`` count as equal to it).

        >>> ExactDistribution(np.array([-1.0, 0.0, 1.0]), np.array([0.25, 0.5, 0.25])).cdf(0)
        0.75
        """
        scale = float(np.max(np.abs(self.values))) if self.values.size else 0.0
        below = self.values <= x + EXACT_MERGE_RTOL * scale
        return math.fsum(self.probabilities[below].tolist())


def _compositions(n: int, k: int) -> np.ndarray:
    """All ``(c_1, ..., c_k)`` of non-negative integers summing to ``n``, lexicographic: one
    slot at a time, a row with ``r`` left grows into ``r + 1`` rows."""
    cols: list[np.ndarray] = []
    remaining = np.array([n], dtype=np.int32)
    for _ in range(k - 1):
        sizes = remaining + 1
        starts = np.cumsum(sizes, dtype=np.int32) - sizes
        within = np.arange(int(sizes.sum()), dtype=np.int32) - np.repeat(starts, sizes)
        cols = [np.repeat(c, sizes) for c in cols] + [within]
        remaining = np.repeat(remaining, sizes) - within
    cols.append(remaining)
    return np.column_stack(cols)


def exact_bootstrap_distribution(changes: ArrayLike) -> ExactDistribution:
    """The exact bootstrap distribution of the mean of ``changes``, with no random numbers.

    A resample's mean depends only on how often it drew each of the k distinct values ``u``
    (multiplicities ``m``): counts ``c``, multinomial, ``P(c) = Q! / (c_1! ... c_k!) * prod
    (m_i/Q)^c_i``, mean ``sum(c_i * u_i) / Q``. All C(Q + k - 1, k - 1) count vectors (at most
    :data:`MAX_EXACT_MULTISETS`: few values, as hit@k's, or a tiny sample) are enumerated.

    >>> dist = exact_bootstrap_distribution([0.10, 0.02, -0.06, 0.04])
    >>> len(dist.values), round(float(dist.probabilities.sum()), 12)
    (24, 1.0)
    >>> print(f"P(mean <= 0) = {dist.cdf(0.0):.4f}")
    P(mean <= 0) = 0.2070
    """
    return _exact_bootstrap_distribution(_checks.scores(changes, "changes"))


def _exact_bootstrap_distribution(
    d: np.ndarray, max_multisets: int = MAX_EXACT_MULTISETS
) -> ExactDistribution:
    q = d.size
    u, m = np.unique(d, return_counts=True)
    k = u.size
    n_multisets = math.comb(q + k - 1, k - 1)
    if n_multisets > max_multisets:
        raise ValueError(
            f"The exact bootstrap distribution of {q:,} differences with {k:,} distinct values has "
            f"C({q + k - 1:,}, {k - 1:,}) = {n_multisets:,} resample count vectors to enumerate; "
            f"the limit is {max_multisets:,}. Use a Monte Carlo bootstrap "
            "(paired_bootstrap) instead."
        )
    if k == 1:  # every resample mean is the one value
        return ExactDistribution(u.copy(), np.ones(1))
    counts = _compositions(q, k)
    log_fact = np.array([math.lgamma(c + 1) for c in range(q + 1)])
    log_p = np.log(m / q)
    sums = np.zeros(len(counts))
    log_prob = np.full(len(counts), log_fact[q])
    for i in range(k):  # column by column: memory stays at a few vectors
        c = counts[:, i]
        sums += c * u[i]
        log_prob += c * log_p[i] - log_fact[c]
    order = np.argsort(sums, kind="stable")
    sums, prob = sums[order], np.exp(log_prob[order])
    # merge sums equal up to rounding: a new value starts where the gap exceeds the tolerance
    tol = EXACT_MERGE_RTOL * q * float(np.max(np.abs(u)))
    starts = np.flatnonzero(np.concatenate(([True], np.diff(sums) > tol)))
    values = sums[starts] / q
    probabilities = np.add.reduceat(prob, starts)
    probabilities /= math.fsum(probabilities.tolist())
    return ExactDistribution(values, probabilities)
