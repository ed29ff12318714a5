"""Percentile intervals read off a bootstrap distribution."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = [
    "Interval",
    "order_statistic_indices",
    "percentile_interval",
    "CONVENTION",
    "PROBABILITY_TOLERANCE",
    "EndpointDistribution",
    "endpoint_distribution",
]

#: The source material's convention, in words (stored in saved records).
CONVENTION = (
    "order-statistic: s[floor(alpha/2*B)], s[min(B-1, floor((1-alpha/2)*B))] of the sorted B values"
)

#: With non-integer weights, a cumulative probability within this distance of
#: a threshold (alpha/2 or 1 - alpha/2) counts as equal to it, so that rounding
#: in a float sum cannot move an interval end by one value (see
#: :func:`percentile_interval`).
PROBABILITY_TOLERANCE = 1e-10


class Interval(NamedTuple):
    """A (low, high) interval; unpacks like a tuple (``low, high = ci``).

    A tuple rather than a frozen dataclass like the helpers' other results, because an
    interval is a pair: ``np.array(ci)`` and ``ci == (lo, hi)`` work, as with scipy's
    ``ConfidenceInterval``. (The table rows ``SliceRow`` and ``QueryChange`` are tuples too.)
    """

    low: float
    high: float

    def excludes(self, value: float = 0.0) -> bool:
        """True when ``value`` lies outside [low, high].

        >>> Interval(-0.13, -0.01).excludes(0)
        True
        """
        return not (self.low <= value <= self.high)


def order_statistic_indices(n_values: int, level: float = 0.95) -> tuple[int, int]:
    """The 0-based positions of the interval ends in the sorted values.

    ``low = floor(alpha/2 * B)`` and ``high = min(B - 1, floor((1 - alpha/2) * B))``,
    with ``alpha = 1 - level``, computed in exact rational arithmetic.

    Examples
    --------
    >>> order_statistic_indices(5000), order_statistic_indices(256)
    ((125, 4875), (6, 249))
    """
    n_values = _checks.integer(n_values, "n_values")
    return _order_statistic_indices(n_values, (1 - _checks.level(level)) / 2)


def _order_statistic_indices(n_values: int, half_alpha: Fraction) -> tuple[int, int]:
    low = math.floor(half_alpha * n_values)
    high = min(n_values - 1, math.floor((1 - half_alpha) * n_values))
    return low, high


def _weighted_indices(w: np.ndarray, half_alpha: Fraction) -> tuple[int, int]:
    """Positions of the interval ends in values sorted ascending, with weights ``w`` in that order.

    low: the first position whose cumulative weight exceeds alpha/2 of the total;
    high: the first position whose cumulative weight exceeds 1 - alpha/2 of the
    total, capped at the last position.
    """
    last = w.size - 1
    total = math.fsum(w)
    if np.all(w == np.floor(w)) and total < 2**53:
        # integer weights (counts): exact integer arithmetic. A cumulative count
        # c exceeds t * W exactly when c > floor(t * W).
        cum = np.cumsum(w.astype(np.int64))
        n_total = int(cum[-1])
        low = int(np.searchsorted(cum, math.floor(half_alpha * n_total), side="right"))
        high = int(np.searchsorted(cum, math.floor((1 - half_alpha) * n_total), side="right"))
        return min(low, last), min(high, last)
    # probabilities: float sums, read with a tolerance. The high end uses the
    # equivalent condition "probability strictly above the value < alpha/2",
    # summed from the top, so that both ends add up small numbers (accurate)
    # rather than comparing a sum close to 1 with 1 - alpha/2.
    p = w / total
    a = float(half_alpha)
    tol = PROBABILITY_TOLERANCE
    cum = np.cumsum(p)
    low = int(np.searchsorted(cum, a + tol, side="right"))
    above = np.append(np.cumsum(p[::-1])[::-1][1:], 0.0)  # above[i] = sum of p[j] for j > i
    high = int(np.searchsorted(-above, -(a - tol), side="right"))
    return min(low, last), min(high, last)


def percentile_interval(
    values: ArrayLike, level: float = 0.95, *, weights: ArrayLike | None = None
) -> Interval:
    """Percentile interval of bootstrap values, with the source's order-statistic convention.

    Sort the B values into ``s``; the interval is ``(s[floor(alpha/2 * B)],
    s[min(B - 1, floor((1 - alpha/2) * B))])`` with ``alpha = 1 - level``. Both
    ends are values that occurred; nothing is interpolated.

    With ``weights`` (probabilities, or counts of how often each value
    occurred), the values describe a weighted distribution, for example an
    exact bootstrap distribution (:func:`helpers.exact_bootstrap_distribution`).
    Sort the values, and let ``F(v)`` be the total weight of the values
    ``<= v`` divided by the total weight. Then

    - the low end is the smallest value ``v`` with ``F(v) > alpha/2``;
    - the high end is the smallest value ``v`` with ``F(v) > 1 - alpha/2``
      (the largest value if rounding leaves none).

    This is the same rule as above, generalized: B equally weighted values
    have ``F(s[i]) >= (i + 1) / B``, and the first ``i`` with ``(i + 1) / B >
    alpha/2`` is ``floor(alpha/2 * B)``. So equal weights (or weights that
    count repeated values) give exactly the unweighted interval.

    Integer weights are summed and compared exactly. Other weights are
    normalized to probabilities; a cumulative probability within
    ``PROBABILITY_TOLERANCE`` (1e-10) of a threshold counts as equal to it
    (not exceeding), so that float rounding cannot move an end by one value.
    The high end is computed from the top, as the smallest ``v`` whose
    probability *above* ``v`` is below ``alpha/2``, which is the same
    condition, because those sums of small probabilities are accurate.

    Parameters
    ----------
    values : sequence of float
        The bootstrap statistics (e.g. from :func:`helpers.paired_bootstrap`),
        or the distinct values of a distribution.
    level : float
        Confidence level, strictly between 0 and 1.
    weights : sequence of float, optional
        One non-negative weight per value (probabilities or counts); they need
        not sum to 1. Omitted: every value has the same weight.

    Examples
    --------
    >>> percentile_interval(range(1, 101), level=0.90)
    Interval(low=6.0, high=96.0)
    >>> percentile_interval([0.0, 1.0, 2.0], weights=[0.02, 0.95, 0.03])
    Interval(low=1.0, high=2.0)
    >>> # F(0) = 0.025, F(1) = 0.975: neither exceeds
    >>> percentile_interval([0.0, 1.0, 2.0], weights=[0.025, 0.95, 0.025])
    Interval(low=1.0, high=2.0)
    """
    v = _checks.scores(values, "values")
    w = None if weights is None else _checks.weights(weights, v.size, zero_allowed=True)
    return _percentile_interval(v, (1 - _checks.level(level)) / 2, w)


def _percentile_interval(
    v: np.ndarray, half_alpha: Fraction, w: np.ndarray | None = None
) -> Interval:
    if w is None:
        low_i, high_i = _order_statistic_indices(v.size, half_alpha)
        s = np.sort(v)
        return Interval(float(s[low_i]), float(s[high_i]))
    order = np.argsort(v, kind="stable")
    low_i, high_i = _weighted_indices(w[order], half_alpha)
    s = v[order]
    return Interval(float(s[low_i]), float(s[high_i]))


@dataclass(frozen=True, eq=False)
class EndpointDistribution:
    """Where a Monte Carlo interval's ends can land: ``values`` and the probability of each end
    being there.
    """

    values: np.ndarray
    low: np.ndarray
    high: np.ndarray


def _binomial_upper_tail(k: int, n: int, q_above: np.ndarray) -> np.ndarray:
    """``P(N >= k)`` for ``N ~ Binomial(n, p)``, one result per ``p = 1 - q_above``.

    Summed term by term from log-factorials over the shorter side of ``k``;
    ``p`` is passed as its complement so that values of ``p`` near 1 stay accurate.
    """
    out = np.empty(q_above.size)
    mean = n * (1 - q_above)
    spread = 50 * np.sqrt(n * q_above * (1 - q_above)) + 50
    out[mean + spread < k] = 0.0  # far below k: the tail beyond is below 1e-300
    out[mean - spread > k] = 1.0
    todo = np.flatnonzero((mean + spread >= k) & (mean - spread <= k))
    if todo.size == 0:
        return out
    upper = k > n / 2  # sum the upper side directly when it is the shorter one
    j = np.arange(k, n + 1) if upper else np.arange(0, k)
    log_choose = math.lgamma(n + 1) - np.array(
        [math.lgamma(i + 1) + math.lgamma(n - i + 1) for i in j.tolist()]
    )
    for t in todo.tolist():
        qa = float(q_above[t])
        if qa <= 0.0:  # p = 1: N = n
            out[t] = 1.0 if k <= n else 0.0
            continue
        if qa >= 1.0:  # p = 0: N = 0
            out[t] = 1.0 if k <= 0 else 0.0
            continue
        terms = np.exp(log_choose + j * math.log1p(-qa) + (n - j) * math.log(qa))
        side = math.fsum(terms.tolist())
        out[t] = min(1.0, side) if upper else max(0.0, 1.0 - side)
    return out


def endpoint_distribution(
    values: ArrayLike, probabilities: ArrayLike, *, n_resamples: int, level: float = 0.95
) -> EndpointDistribution:
    """Exact distribution, over seeds, of the ends of a Monte Carlo percentile interval.

    Draw ``B = n_resamples`` values independently from the discrete distribution
    (``values``, ``probabilities``), for example an exact bootstrap
    distribution, and read the interval off them with the order-statistic
    convention. Which values the two ends land on depends on the seed; this
    returns the probability of each. It uses the binomial distribution: the
    interval end ``s[k]`` is at most ``v`` exactly when at least ``k + 1`` of
    the B draws are ``<= v``, and the number of such draws is
    Binomial(B, F(v)). So ``P(s[k] <= v) = P(Binomial(B, F(v)) >= k + 1)``.

    Returns
    -------
    EndpointDistribution
        ``values`` sorted ascending, and ``low``, ``high``: the probability
        that the low end, the high end, equals each value.

    Examples
    --------
    >>> ends = endpoint_distribution([-1.0, 0.0], [0.03, 0.97], n_resamples=100)
    >>> print(f"P(low end is -1) = {ends.low[0]:.4f}")
    P(low end is -1) = 0.5802
    """
    v = _checks.scores(values, "values")
    w = _checks.weights(probabilities, v.size, "probabilities", zero_allowed=True)
    n = _checks.integer(n_resamples, "n_resamples")
    low_k, high_k = _order_statistic_indices(n, (1 - _checks.level(level)) / 2)
    order = np.argsort(v, kind="stable")
    v, p = v[order], w[order] / math.fsum(w.tolist())
    above = np.append(np.cumsum(p[::-1])[::-1][1:], 0.0)  # P(X > v_i), summed from the top
    ends = []
    for k in (low_k, high_k):
        at_most = _binomial_upper_tail(k + 1, n, above)  # P(s[k] <= v_i)
        at_most[-1] = 1.0
        at_most = np.maximum.accumulate(
            at_most
        )  # a distribution function: rounding must not make it dip
        ends.append(np.diff(at_most, prepend=0.0))
    return EndpointDistribution(v, ends[0], ends[1])
