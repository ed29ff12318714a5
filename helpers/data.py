"""Per-query scores: checking one system's scores, pairing two systems' scores, and showing a
change with its sign.

The checks themselves live in ``helpers._checks`` (one rule each), so bad input
fails the same way everywhere: a ``ValueError`` whose message says what is wrong
and what to fix.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = ["as_scores", "paired_scores", "paired_differences", "signed"]


def as_scores(
    values: ArrayLike, name: str = "scores", *, labels: Sequence[Hashable] | None = None
) -> np.ndarray:
    """Check one system's (or one set of) per-query scores and return them as a float array.

    Examples
    --------
    >>> as_scores([1, 0, True])
    array([1., 0., 1.])
    >>> as_scores([0.5, float("nan")], "A's scores")
    Traceback (most recent call last):
    ...
    ValueError: A's scores contain NaN or infinite values at position 1; remove or fix those queries
    before comparing.
    """
    return _checks.scores(values, name, labels=labels)


def paired_scores(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
) -> tuple[list[Hashable] | None, np.ndarray, np.ndarray]:
    """Pair system A's and system B's per-query scores.

    Two sequences are paired by position; two mappings ``{query_id: score}`` are
    paired by query ID and returned in sorted query-ID order. Two pandas Series
    are paired by position only when their indexes are the same.

    Examples
    --------
    >>> ids, a, b = paired_scores({"q2": 0.5, "q1": 0.25}, {"q1": 0.5, "q2": 0.5})
    >>> ids, a.tolist(), b.tolist()
    (['q1', 'q2'], [0.25, 0.5], [0.5, 0.5])
    """
    return _checks.paired(a, b)


def paired_differences(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
) -> np.ndarray:
    """Per-query changes ``d_q = m_B(q) - m_A(q)``.

    Examples
    --------
    >>> paired_differences([0.5, 0.75, 1.0], [0.75, 0.75, 0.5])
    array([ 0.25,  0.  , -0.5 ])
    >>> paired_differences({"q1": 0.25, "q2": 0.5}, {"q2": 0.75, "q1": 0.25})
    array([0.  , 0.25])
    >>> paired_differences({"q1": 1.0, "q2": 1.0}, {"q1": 1.0, "q3": 0.0})
    Traceback (most recent call last):
    ...
    ValueError: The two systems were not run on the same queries: 1 only in A ('q2'); 1 only in B
    ('q3'). Compare on the shared queries only after deciding how to treat the missing ones.
    """
    _, a_arr, b_arr = _checks.paired(a, b)
    return b_arr - a_arr


def signed(x: float, digits: int = 3) -> str:
    """Format a number with an explicit sign, never as "-0.000".

    >>> signed(0.045), signed(-0.06, 2), signed(-1e-17)
    ('+0.045', '-0.06', '+0.000')
    """
    r = round(float(x), digits)
    return f"{(r if r != 0 else 0.0):+.{digits}f}"
