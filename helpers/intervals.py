"""Percentile intervals read off a bootstrap distribution."""

from __future__ import annotations

import math
import numbers
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .data import as_scores

__all__ = ["Interval", "order_statistic_indices", "percentile_interval", "CONVENTION"]

#: The source material's convention, in words (stored in saved records).
CONVENTION = "order-statistic: s[floor(alpha/2*B)], s[min(B-1, floor((1-alpha/2)*B))] of the sorted B values"


class Interval(NamedTuple):
    """A (low, high) interval; unpacks like a tuple."""

    low: float
    high: float

    def excludes(self, value: float = 0.0) -> bool:
        """True when ``value`` lies outside [low, high].

        >>> Interval(-0.13, -0.01).excludes(0)
        True
        """
        return not (self.low <= value <= self.high)


def _check_level(level: object) -> Fraction:
    if isinstance(level, bool) or not isinstance(level, numbers.Real) or not math.isfinite(level):
        raise ValueError(f"level must be a number strictly between 0 and 1 (e.g. 0.95); got {level!r}.")
    if not 0 < level < 1:
        raise ValueError(f"level must be strictly between 0 and 1 (e.g. 0.95 for a 95% interval); got {level!r}.")
    # Read the level as the decimal it was written as: 0.95 is 19/20 exactly, so
    # that alpha/2 * B lands on whole numbers where it should (B = 5000 gives 125
    # and 4875, not 4874.999...).
    return Fraction(level).limit_denominator(10**9)


def order_statistic_indices(n_values: int, level: float = 0.95) -> tuple[int, int]:
    """The 0-based positions of the interval ends in the sorted values.

    ``low = floor(alpha/2 * B)`` and ``high = min(B - 1, floor((1 - alpha/2) * B))``,
    with ``alpha = 1 - level``, computed in exact rational arithmetic.

    Examples
    --------
    >>> order_statistic_indices(5000), order_statistic_indices(256)
    ((125, 4875), (6, 249))
    """
    if isinstance(n_values, bool) or not isinstance(n_values, numbers.Integral) or n_values < 1:
        raise ValueError(f"n_values must be a positive integer; got {n_values!r}.")
    lev = _check_level(level)
    half_alpha = (1 - lev) / 2
    low = math.floor(half_alpha * n_values)
    high = min(n_values - 1, math.floor((1 - half_alpha) * n_values))
    return low, high


def percentile_interval(values: object, level: float = 0.95) -> Interval:
    """Percentile interval of bootstrap values, with the source's order-statistic convention.

    Sort the B values into ``s``; the interval is ``(s[floor(alpha/2 * B)],
    s[min(B - 1, floor((1 - alpha/2) * B))])`` with ``alpha = 1 - level``. Both
    ends are values that occurred; nothing is interpolated.

    Parameters
    ----------
    values : sequence of float
        The bootstrap statistics (e.g. from :func:`helpers.paired_bootstrap`).
    level : float
        Confidence level, strictly between 0 and 1.

    Returns
    -------
    Interval
        A named tuple ``(low, high)``.

    Examples
    --------
    >>> percentile_interval(range(1, 101), level=0.90)
    Interval(low=6.0, high=96.0)
    """
    v = as_scores(values, "values")
    low_i, high_i = order_statistic_indices(v.size, level)
    s = np.sort(v)
    return Interval(float(s[low_i]), float(s[high_i]))
