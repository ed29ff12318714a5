"""Resampling: one engine that draws bootstrap indices in bounded chunks, and the
bootstrap variants built on it.

Every bootstrap in the series goes through :func:`resample`: it draws the
indices of ``n_resamples`` resamples with replacement, ``max_elements`` indices
at a time, and hands each chunk to a statistic that turns an index matrix of
shape ``(k, draws)`` into ``k`` values. Chunking keeps memory bounded (100,000
queries x 10,000 resamples never allocates the whole 10^9-entry index matrix)
and does not change the result: the chunks consume the random stream in the
same order as one big draw would.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np

from .data import as_scores

__all__ = [
    "as_generator",
    "resample",
    "paired_bootstrap",
    "unpaired_bootstrap",
    "paired_bootstrap_statistic",
    "mean_difference",
    "relative_change",
    "quantile_difference",
    "enumerate_resamples",
    "collapse_to_multisets",
]

#: Indices drawn per chunk by default: 2**21 int64 indices = 16 MiB.
DEFAULT_MAX_ELEMENTS = 2**21

#: Largest n for which :func:`enumerate_resamples` builds all n**n draws
#: (7**7 = 823,543 rows, 46 MB; 8**8 would take over 1 GB).
MAX_ENUMERATE_N = 7


def as_generator(rng: int | np.random.Generator) -> np.random.Generator:
    """Turn an int seed or a Generator into a ``numpy.random.Generator``.

    A seed is required: ``None`` (fresh entropy) would make results unrepeatable,
    so it is refused.

    Examples
    --------
    >>> g = as_generator(7)
    >>> as_generator(g) is g
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if rng < 0:
            raise ValueError(f"rng seed must be a non-negative integer; got {rng}.")
        return np.random.default_rng(int(rng))
    if rng is None:
        raise ValueError("rng is required: pass an int seed (e.g. rng=7) or a numpy.random.Generator, so that the result can be repeated.")
    raise ValueError(f"rng must be an int seed or a numpy.random.Generator; got {type(rng).__name__}.")


def _check_n_resamples(n_resamples: object) -> int:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, numbers.Integral) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer; got {n_resamples!r}.")
    return int(n_resamples)


def resample(
    n: int,
    n_resamples: int,
    statistic: Callable[[np.ndarray], np.ndarray],
    *,
    rng: int | np.random.Generator,
    draws: int | None = None,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
) -> np.ndarray:
    """The resampling engine: apply ``statistic`` to ``n_resamples`` index draws.

    Each resample is ``draws`` indices drawn uniformly with replacement from
    ``range(n)`` (``draws`` defaults to ``n``). Indices are drawn in chunks of
    at most ``max_elements`` entries and passed to ``statistic`` as an integer
    matrix of shape ``(k, draws)``; it must return ``k`` values.

    Parameters
    ----------
    n : int
        Number of units to draw from (queries, users, ...).
    n_resamples : int
        Number of resamples, B.
    statistic : callable
        Maps an index matrix ``(k, draws)`` to an array of ``k`` statistics.
    rng : int or numpy.random.Generator
        Seed or generator; the same seed always gives the same result.
    draws : int, optional
        Indices per resample, if not ``n``.
    max_elements : int
        Upper bound on the indices held in memory at once.

    Returns
    -------
    numpy.ndarray
        The ``n_resamples`` statistics, in draw order.

    Examples
    --------
    >>> d = np.array([0.1, 0.2, 0.3])
    >>> resample(3, 4, lambda idx: d[idx].mean(axis=1), rng=1).round(3)
    array([0.233, 0.167, 0.233, 0.2  ])
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}.")
    n_resamples = _check_n_resamples(n_resamples)
    draws = n if draws is None else int(draws)
    if draws < 1:
        raise ValueError(f"draws must be a positive integer; got {draws}.")
    gen = as_generator(rng)
    out = np.empty(n_resamples, dtype=np.float64)
    rows = max(1, int(max_elements) // draws)
    for start in range(0, n_resamples, rows):
        k = min(rows, n_resamples - start)
        idx = gen.integers(0, n, size=(k, draws))
        values = np.asarray(statistic(idx), dtype=np.float64)
        if values.shape != (k,):
            raise ValueError(f"statistic must return one value per resample, shape ({k},); got {values.shape}.")
        out[start : start + k] = values
    return out


def paired_bootstrap(
    diffs: object,
    n_resamples: int = 10_000,
    *,
    rng: int | np.random.Generator,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
) -> np.ndarray:
    """Bootstrap means of the per-query differences, resampling whole query pairs.

    Each resample draws Q query pairs with replacement from the Q observed pairs
    and averages their differences ``d_q = m_B(q) - m_A(q)``. Because a pair is
    drawn whole, A's and B's scores for a query always travel together.

    Parameters
    ----------
    diffs : sequence of float
        The per-query differences (see :func:`helpers.paired_differences`).
    n_resamples : int
        Number of resamples, B.
    rng : int or numpy.random.Generator
        Seed or generator (required); the same seed gives the same array.
    max_elements : int
        Indices held in memory at once; the result does not depend on it.

    Returns
    -------
    numpy.ndarray
        The ``n_resamples`` resampled mean differences, in draw order.

    Examples
    --------
    >>> means = paired_bootstrap([0.10, 0.02, -0.06, 0.04], 1000, rng=0)
    >>> means.shape, bool(means.min() >= -0.06 and means.max() <= 0.10)
    ((1000,), True)
    >>> bool((means == paired_bootstrap([0.10, 0.02, -0.06, 0.04], 1000, rng=0)).all())
    True
    """
    d = as_scores(diffs, "diffs")
    return resample(d.size, n_resamples, lambda idx: d[idx].mean(axis=1), rng=rng, max_elements=max_elements)


def unpaired_bootstrap(
    a: object,
    b: object,
    n_resamples: int = 10_000,
    *,
    rng: int | np.random.Generator,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
) -> np.ndarray:
    """Bootstrap ``mean(B) - mean(A)`` resampling A's and B's scores *independently*.

    This is the wrong bootstrap for two systems run on the same queries: it
    breaks the pairs, comparing A on one query with B on another. It is here to
    show what pairing buys.

    Examples
    --------
    >>> a, b = [0.2, 0.5, 0.9], [0.3, 0.6, 1.0]
    >>> unpaired_bootstrap(a, b, 5, rng=0).shape
    (5,)
    """
    a_arr = as_scores(a, "A's scores")
    b_arr = as_scores(b, "B's scores")
    if a_arr.size != b_arr.size:
        raise ValueError(f"A has {a_arr.size} scores and B has {b_arr.size}; this demonstration expects the same queries.")
    n = a_arr.size

    def diff_of_means(idx: np.ndarray) -> np.ndarray:
        return b_arr[idx[:, n:]].mean(axis=1) - a_arr[idx[:, :n]].mean(axis=1)

    return resample(n, n_resamples, diff_of_means, rng=rng, draws=2 * n, max_elements=max_elements)


def paired_bootstrap_statistic(
    a: object,
    b: object,
    statistic: Callable[[np.ndarray, np.ndarray], np.ndarray],
    n_resamples: int = 10_000,
    *,
    rng: int | np.random.Generator,
    max_elements: int = DEFAULT_MAX_ELEMENTS,
) -> np.ndarray:
    """Bootstrap any statistic of the two score vectors, resampling whole query pairs.

    Each resample draws Q query positions with replacement, exactly as
    :func:`paired_bootstrap` does (same engine, same random stream), and takes
    *both* systems' scores at those positions, so a query's A and B scores
    always travel together. ``statistic(a_res, b_res)`` receives two matrices
    of shape ``(k, Q)``, one resample per row, and must return ``k`` values:
    write it with ``axis=-1`` so that it also works on the original 1-D vectors.
    :func:`mean_difference`, :func:`relative_change` and
    :func:`quantile_difference` are ready-made statistics.

    Parameters
    ----------
    a, b : sequence of float
        System A's and system B's per-query scores (or any per-query
        measurement, such as latency), in the same query order.
    statistic : callable
        ``statistic(a_res, b_res) -> array of k values``, vectorized over rows.
    n_resamples : int
        Number of resamples, B.
    rng : int or numpy.random.Generator
        Seed or generator (required).
    max_elements : int
        Indices held in memory at once; the result does not depend on it.

    Returns
    -------
    numpy.ndarray
        The ``n_resamples`` resampled statistics, in draw order.

    Examples
    --------
    >>> a, b = [0.50, 0.70, 0.65, 0.55], [0.60, 0.72, 0.59, 0.59]
    >>> rel = paired_bootstrap_statistic(a, b, relative_change, 2000, rng=0)
    >>> print(f"observed {relative_change(np.array(a), np.array(b)):+.4f}, {rel.size} resamples")
    observed +0.0417, 2000 resamples
    >>> same = paired_bootstrap_statistic(a, b, mean_difference, 50, rng=3)
    >>> bool((same == paired_bootstrap(np.subtract(b, a), 50, rng=3)).all())
    True
    """
    a_arr = as_scores(a, "A's scores")
    b_arr = as_scores(b, "B's scores")
    if a_arr.size != b_arr.size:
        raise ValueError(
            f"A has {a_arr.size} values and B has {b_arr.size}: a paired bootstrap needs one value per query "
            "from each system, in the same query order."
        )
    if not callable(statistic):
        raise ValueError(f"statistic must be a function statistic(a_res, b_res) returning one value per row; got {type(statistic).__name__}.")
    return resample(a_arr.size, n_resamples, lambda idx: statistic(a_arr[idx], b_arr[idx]), rng=rng, max_elements=max_elements)


def mean_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``mean(B) - mean(A)`` along the last axis: the mean of the paired changes.

    >>> print(f"{mean_difference(np.array([0.5, 0.7]), np.array([0.6, 0.7])):+.3f}")
    +0.050
    """
    return np.mean(b - a, axis=-1)


def relative_change(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The relative change ``mean(B) / mean(A) - 1`` along the last axis (the ratio of means, minus one).

    Raises ``ValueError`` where A's mean is zero (in the data or in a
    resample): the relative change is then undefined; report the absolute one.

    >>> print(f"{relative_change(np.array([0.50, 0.70]), np.array([0.60, 0.75])):+.4f}")
    +0.1250
    """
    mean_a = np.mean(a, axis=-1)
    if np.any(mean_a == 0):
        raise ValueError("A's mean is 0 (in the data or in a resample), so the relative change is undefined; report the absolute change instead.")
    return np.mean(b, axis=-1) / mean_a - 1


def quantile_difference(q: float) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A statistic: the ``q``-quantile of B minus the ``q``-quantile of A, along the last axis.

    Quantiles use numpy's default (linear interpolation between order
    statistics). ``quantile_difference(0.95)`` compares p95 latencies.

    >>> p50 = quantile_difference(0.5)
    >>> print(f"{p50(np.array([10.0, 20.0, 30.0]), np.array([12.0, 25.0, 31.0])):+.1f}")
    +5.0
    """
    if isinstance(q, bool) or not isinstance(q, numbers.Real) or not 0 <= q <= 1:
        raise ValueError(f"q must be a quantile level between 0 and 1 (e.g. 0.95 for p95); got {q!r}.")
    level = float(q)

    def statistic(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        return np.quantile(b, level, axis=-1) - np.quantile(a, level, axis=-1)

    statistic.__name__ = f"quantile_difference({level:g})"
    return statistic


def enumerate_resamples(n: int) -> np.ndarray:
    """All ``n**n`` ordered resamples of ``n`` indices, in lexicographic order.

    Row ``k`` (0-based) is the ``k``-th element of
    ``itertools.product(range(n), repeat=n)``, so "draw k of n**n" in the
    series' 1-based numbering is row ``k - 1``.

    Parameters
    ----------
    n : int
        Sample size, 1 to 7 (7**7 = 823,543 rows take 46 MB; n = 8 would take
        over 1 GB and is refused, as is anything larger).

    Returns
    -------
    numpy.ndarray
        Integer array of shape ``(n**n, n)``.

    Examples
    --------
    >>> enumerate_resamples(2)
    array([[0, 0],
           [0, 1],
           [1, 0],
           [1, 1]])
    >>> enumerate_resamples(4)[27]  # draw 28 of 256: the original sample
    array([0, 1, 2, 3])
    """
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive integer; got {n!r}.")
    if n > MAX_ENUMERATE_N:
        raise ValueError(
            f"enumerate_resamples(n={n}) would build {n}**{n} = {n**n:,} rows; the limit is n <= {MAX_ENUMERATE_N}. "
            "Use a Monte Carlo bootstrap (paired_bootstrap) or an exact distribution instead."
        )
    return np.indices((n,) * n, dtype=np.intp).reshape(n, -1).T.copy()


def collapse_to_multisets(draws: np.ndarray, n: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Group ordered draws by how many times each unit was drawn.

    The mean of a resample depends only on these counts, not on the order of
    the draws, so the ``n**n`` ordered draws of :func:`enumerate_resamples`
    collapse to ``C(2n - 1, n)`` distinct multisets.

    Parameters
    ----------
    draws : numpy.ndarray
        Integer array of shape ``(k, m)``, one draw per row.
    n : int, optional
        Number of units (default: largest index + 1).

    Returns
    -------
    counts : numpy.ndarray
        One row per distinct multiset, ``counts[j, i]`` = times unit ``i`` is in
        it; rows in descending lexicographic order of the counts.
    frequency : numpy.ndarray
        How many of the ordered draws give each multiset.

    Examples
    --------
    >>> counts, freq = collapse_to_multisets(enumerate_resamples(2))
    >>> counts.tolist(), freq.tolist()
    ([[2, 0], [1, 1], [0, 2]], [1, 2, 1])
    """
    draws = np.asarray(draws)
    if draws.ndim != 2 or draws.size == 0 or draws.dtype.kind not in "iu":
        raise ValueError(f"draws must be a non-empty 2-D integer array, one draw per row; got shape {draws.shape}, dtype {draws.dtype}.")
    if draws.min() < 0:
        raise ValueError("draws must be non-negative indices.")
    n = int(draws.max()) + 1 if n is None else int(n)
    if draws.max() >= n:
        raise ValueError(f"draws contain index {int(draws.max())}, which is not below n = {n}.")
    per_row = np.zeros((draws.shape[0], n), dtype=np.int64)
    np.add.at(per_row, (np.arange(draws.shape[0])[:, None], draws), 1)
    counts, frequency = np.unique(per_row, axis=0, return_counts=True)
    order = np.lexsort(counts.T[::-1])[::-1]
    return counts[order], frequency[order]
