"""Per-query changes of two systems' paired scores, and a change shown with its sign.

Sequences pair by position; mappings ``{query_id: score}`` by query ID (in sorted
order); the rules live in ``helpers._checks``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np

from . import _checks

__all__ = ["paired_differences", "signed"]


def paired_differences(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
) -> np.ndarray:
    """Per-query changes ``d_q = m_B(q) - m_A(q)``.

    >>> paired_differences([0.5, 0.75, 1.0], [0.75, 0.75, 0.5])
    array([ 0.25,  0.  , -0.5 ])
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
