"""Percentile intervals read off a bootstrap distribution."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = ["Interval", "order_statistic_indices", "percentile_interval", "CONVENTION",
           "PROBABILITY_TOLERANCE", "EndpointDistribution", "endpoint_distribution"]  # fmt: skip


def percentile_interval(
    values: ArrayLike, level: float = 0.95, *, weights: ArrayLike | None = None
) -> Interval:
    """Percentile interval of bootstrap values, with the source's order-statistic convention.

    The sorted B values ``s`` give ``s[floor(alpha/2 * B)]`` and
    ``s[min(B - 1, floor((1 - alpha/2) * B))]``, ``alpha = 1 - level``: values that occurred,
    nothing interpolated. With ``weights`` (counts or probabilities, e.g. of an exact
    distribution) the ends are the smallest ``v`` with ``F(v) > alpha/2`` and
    ``F(v) > 1 - alpha/2``: the same rule, so equal weights give the same interval; non-integer
    weights within :data:`PROBABILITY_TOLERANCE` of a threshold count as equal to it.

    >>> percentile_interval(range(1, 101), level=0.90)
    Interval(low=6.0, high=96.0)
    """
    v = _checks.scores(values, "values")
    w = None if weights is None else _checks.weights(weights, v.size)
    return _percentile_interval(v, (1 - _checks.level(level)) / 2, w)


def _percentile_interval(
    v: np.ndarray, half_alpha: Fraction, w: np.ndarray | None = None
) -> Interval:
    if w is None:
        s, (low_i, high_i) = np.sort(v), _order_statistic_indices(v.size, half_alpha)
    else:
        order = np.argsort(v, kind="stable")
        s, (low_i, high_i) = v[order], _weighted_indices(w[order], half_alpha)
    return Interval(float(s[low_i]), float(s[high_i]))


class Interval(NamedTuple):
    """A (low, high) interval: a pair, so a tuple (``low, high = ci``), as scipy's is."""

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

    ``low = floor(alpha/2 * B)``, ``high = min(B - 1, floor((1 - alpha/2) * B))``, exactly.

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
    """Positions of the ends in sorted values with weights ``w`` (:func:`percentile_interval`)."""
    total = math.fsum(w)
    if np.all(w == np.floor(w)) and total < 2**53:
        # counts, in integers: cumulative count c exceeds t * W exactly when c > floor(t * W),
        # the order statistics of the W values the counts stand for
        cum = np.cumsum(w.astype(np.int64))
        ranks = _order_statistic_indices(int(cum[-1]), half_alpha)
        low, high = np.searchsorted(cum, ranks, side="right")
    else:
        # probabilities, read with a tolerance; the high end as "probability above the value
        # < alpha/2", so that both ends sum small numbers rather than compare a sum near 1
        p, a, tol = w / total, float(half_alpha), PROBABILITY_TOLERANCE
        low = np.searchsorted(np.cumsum(p), a + tol, side="right")
        high = np.searchsorted(-_above(p), -(a - tol), side="right")
    return min(int(low), w.size - 1), min(int(high), w.size - 1)


def _above(p: np.ndarray) -> np.ndarray:
    """``above[i]``: the probability of the values after ``i``, summed from the top."""
    return np.append(np.cumsum(p[::-1])[::-1][1:], 0.0)


#: The source material's convention, in words (stored in saved records).
CONVENTION = (
    "order-statistic: s[floor(alpha/2*B)], s[min(B-1, floor((1-alpha/2)*B))] of the sorted B values"
)

#: With non-integer weights, a cumulative probability within this distance of a threshold
#: counts as equal to it, so that rounding cannot move an interval end by one value.
PROBABILITY_TOLERANCE = 1e-10


@dataclass(frozen=True, eq=False)
class EndpointDistribution:
    """Where a Monte Carlo interval's ends can land: ``values`` and each end's probabilities."""

    values: np.ndarray
    low: np.ndarray
    high: np.ndarray


def endpoint_distribution(
    values: ArrayLike, probabilities: ArrayLike, *, n_resamples: int, level: float = 0.95
) -> EndpointDistribution:
    """Exact distribution, over seeds, of the ends of a Monte Carlo percentile interval.

    B = ``n_resamples`` draws from (``values``, ``probabilities``); the end ``s[k]`` is at most
    ``v`` when at least ``k + 1`` draws are: ``P(s[k] <= v) = P(Binomial(B, F(v)) >= k + 1)``.

    >>> ends = endpoint_distribution([-1.0, 0.0], [0.03, 0.97], n_resamples=100)
    >>> print(f"P(low end is -1) = {ends.low[0]:.4f}")
    P(low end is -1) = 0.5802
    """
    v = _checks.scores(values, "values")
    w = _checks.weights(probabilities, v.size, "probabilities")
    n = _checks.integer(n_resamples, "n_resamples")
    low_k, high_k = _order_statistic_indices(n, (1 - _checks.level(level)) / 2)
    order = np.argsort(v, kind="stable")
    v, p = v[order], w[order] / math.fsum(w.tolist())
    above = np.minimum(_above(p), 1.0)  # P(X > v_i); a sum of probabilities may round past 1
    # P(s[k] <= v_i) = P(at most n - k - 1 draws are above v_i), for k = each end's position:
    # the binomial of the complement, so that F(v_i) near 1 keeps its accuracy
    from scipy import stats  # here, not at the top: a second of every kernel's start, for one use

    at_most = stats.binom.cdf(n - 1 - np.array([[low_k], [high_k]]), n, above)
    at_most = np.maximum.accumulate(at_most, axis=1)  # rounding must not make it dip
    low, high = np.diff(at_most, prepend=0.0, axis=1)
    return EndpointDistribution(v, low, high)
