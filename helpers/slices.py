"""Where a change comes from: the queries that got worst (:func:`largest_regressions`), chapter 6's
table and the rows of a report on one's own runs."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import NamedTuple

import numpy as np

from . import _checks

__all__ = ["QueryChange", "largest_regressions"]


class QueryChange(NamedTuple):
    """One query's scores and change ``d_q = m_B(q) - m_A(q)``: a table row, so a tuple."""

    query_id: str
    a: float
    b: float
    change: float
    slice: str | None = None


def largest_regressions(
    a: Sequence[float],
    b: Sequence[float],
    query_ids: Sequence[Hashable],
    k: int = 5,
    *,
    slices: Sequence[Hashable] | None = None,
) -> list[QueryChange]:
    """The ``k`` queries on which B lost most against A, worst first (ties by query ID).

    Only queries that got worse are listed, so fewer than ``k`` may come back.

    >>> for r in largest_regressions([0.5, 0.9, 0.4], [0.6, 0.2, 0.3], ["q1", "q2", "q3"], k=5):
    ...     print(r.query_id, f"{r.change:+.2f}")
    q2 -0.70
    q3 -0.10
    """
    _, a_arr, b_arr = _checks.paired(a, b)
    ids = _checks.labels(query_ids, a_arr.size, "query IDs")
    if len(set(ids)) != len(ids):
        raise ValueError("query IDs must be unique.")
    labels = None if slices is None else _checks.labels(slices, a_arr.size, "slice labels")
    return _largest_regressions(a_arr, b_arr, ids, _checks.integer(k, "k"), labels)


def _largest_regressions(
    a_arr: np.ndarray, b_arr: np.ndarray, ids: list, k: int, labels: list | None
) -> list[QueryChange]:
    d = b_arr - a_arr
    worse = np.flatnonzero(d < 0)
    if worse.size > k:  # only the k worst and their ties can be listed: sort those alone
        worse = worse[d[worse] <= np.partition(d[worse], k - 1)[k - 1]]
    change = d.tolist()
    worst = sorted(worse.tolist(), key=lambda i: (change[i], ids[i]))[:k]
    return [
        QueryChange(ids[i], float(a_arr[i]), float(b_arr[i]), change[i], labels and labels[i])
        for i in worst
    ]
