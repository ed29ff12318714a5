"""Tests of significance, and what to do when there are several of them.

:func:`holm` adjusts a family of p-values (one per metric, slice or candidate
that drives a decision) so that the chance of *any* false positive in the
family stays at or below ``alpha``.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple

import numpy as np

from .data import as_scores

__all__ = ["HolmResult", "holm"]


class HolmResult(NamedTuple):
    """Holm-adjusted p-values, in the order the p-values were given."""

    pvalues: np.ndarray
    adjusted: np.ndarray
    rejected: np.ndarray
    alpha: float

    def __str__(self) -> str:
        lines = [f"{'test':>4}  {'p':>7}  {'Holm p':>7}  reject at {self.alpha:g}"]
        for i, (p, adj, rej) in enumerate(zip(self.pvalues, self.adjusted, self.rejected), start=1):
            lines.append(f"{i:>4}  {p:>7.4f}  {adj:>7.4f}  {'yes' if rej else 'no'}")
        return "\n".join(lines)


def _check_alpha(alpha: object) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not math.isfinite(alpha) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number strictly between 0 and 1 (e.g. 0.05); got {alpha!r}.")
    return float(alpha)


def holm(pvalues: object, alpha: float = 0.05) -> HolmResult:
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

    Parameters
    ----------
    pvalues : sequence of float
        One p-value per test, each in [0, 1].
    alpha : float
        Family-wise error rate to control, strictly between 0 and 1.

    Returns
    -------
    HolmResult
        ``pvalues`` (as given), ``adjusted`` (same order), ``rejected`` (bool
        array, ``adjusted <= alpha``) and ``alpha``. ``print`` shows a table.

    Raises
    ------
    ValueError
        Empty input, a value that is not a number in [0, 1] (NaN included), or
        ``alpha`` outside (0, 1).

    Examples
    --------
    >>> res = holm([0.01, 0.04, 0.03, 0.005])
    >>> print(res.adjusted.round(4).tolist(), res.rejected.tolist())
    [0.03, 0.06, 0.06, 0.02] [True, False, False, True]
    """
    p = as_scores(pvalues, "p-values")
    outside = np.flatnonzero((p < 0) | (p > 1))
    if outside.size:
        raise ValueError(f"p-values must lie between 0 and 1; got {float(p[outside[0]])!r} at position {int(outside[0])}.")
    a = _check_alpha(alpha)
    m = p.size
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m)
    adjusted[order] = np.maximum.accumulate(scaled)
    return HolmResult(pvalues=p, adjusted=adjusted, rejected=adjusted <= a, alpha=a)
