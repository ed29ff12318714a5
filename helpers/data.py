"""Per-query scores: checking one system's scores and pairing two systems' scores.

The checks themselves live in ``helpers._checks`` (one rule each), so bad input
fails the same way everywhere: a ``ValueError`` whose message says what is wrong
and what to fix. The worked examples are in :mod:`helpers.examples`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np
from numpy.typing import ArrayLike

from . import _checks

__all__ = [
    "as_scores",
    "paired_scores",
    "paired_differences",
]


def describe_unmatched(only_a: Iterable[object], only_b: Iterable[object]) -> str:
    """How the query sets differ, naming up to five queries on each side.

    >>> describe_unmatched(["q2"], ["q3", "q4"])
    "1 only in A ('q2'); 2 only in B ('q3', 'q4')"
    """
    only_a, only_b = list(only_a), list(only_b)
    parts = []
    if only_a:
        parts.append(f"{len(only_a)} only in A ({_checks.name_some(only_a)})")
    if only_b:
        parts.append(f"{len(only_b)} only in B ({_checks.name_some(only_b)})")
    return "; ".join(parts)


def as_scores(
    values: ArrayLike, name: str = "scores", *, labels: Sequence[Hashable] | None = None
) -> np.ndarray:
    """Check one system's (or one set of) per-query scores and return them as a float array.

    Parameters
    ----------
    values : sequence of numbers
        A 1-D list, tuple or array of real numbers (booleans count as 0/1),
        or any iterable of them (a generator is consumed once; a pandas
        Series is read through ``to_numpy()``).
    name : str
        What the values are, used in error messages (``"A's scores"``).
    labels : sequence, optional
        Query IDs in the same order, used to name the offending queries in errors.

    Returns
    -------
    numpy.ndarray
        A new 1-D ``float64`` array.

    Raises
    ------
    ValueError
        If the input is empty, not 1-D, not numeric, contains NaN or infinity,
        or is a set (no order) or a masked array with masked values.

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
    arr = _checks.scores(values, name, labels=labels)
    return arr if arr.flags.writeable else arr.copy()  # always a new array


def _index_of(values: object) -> list | None:
    """The labels of an indexed container (a pandas Series), else None. Lists' ``.index`` is a
    method, not labels.
    """
    index = getattr(values, "index", None)
    if index is None or callable(index) or not callable(getattr(values, "to_numpy", None)):
        return None
    return list(index)


def paired_scores(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
) -> tuple[list[Hashable] | None, np.ndarray, np.ndarray]:
    """Pair system A's and system B's per-query scores.

    Two sequences are paired by position; two mappings ``{query_id: score}`` are
    paired by query ID and returned in sorted query-ID order. Two pandas Series
    are paired by position only when their indexes are the same.

    Returns
    -------
    query_ids : list or None
        The sorted query IDs when mappings were given, else ``None``.
    a, b : numpy.ndarray
        The paired scores as float arrays of equal length.

    Examples
    --------
    >>> ids, a, b = paired_scores({"q2": 0.5, "q1": 0.25}, {"q1": 0.5, "q2": 0.5})
    >>> ids, a.tolist(), b.tolist()
    (['q1', 'q2'], [0.25, 0.5], [0.5, 0.5])
    """
    a_map, b_map = isinstance(a, Mapping), isinstance(b, Mapping)
    if a_map != b_map:
        raise ValueError(
            "Pass both systems the same way: two sequences (paired by position) "
            "or two mappings {query_id: score} (paired by query ID); got one of each."
        )
    if a_map:
        assert isinstance(a, Mapping) and isinstance(b, Mapping)
        if not a and not b:
            raise ValueError(
                "Both systems' score mappings are empty: at least one query is needed."
            )
        only_a, only_b = set(a) - set(b), set(b) - set(a)
        if only_a or only_b:
            raise ValueError(
                "The two systems were not run on the same queries: "
                f"{describe_unmatched(only_a, only_b)}. "
                "Compare on the shared queries only after deciding how to treat the missing ones."
            )
        try:
            ids = sorted(a)
        except TypeError:
            ids = sorted(a, key=str)
        a_arr = as_scores([a[q] for q in ids], "A's scores", labels=ids)
        b_arr = as_scores([b[q] for q in ids], "B's scores", labels=ids)
        return ids, a_arr, b_arr
    a_index, b_index = _index_of(a), _index_of(b)
    if a_index is not None and b_index is not None and a_index != b_index:
        raise ValueError(
            "A's and B's scores carry different indexes (query IDs, as pandas Series do), so "
            "pairing them by "
            "position would pair different queries. Pair them by query ID: "
            "paired_differences(a.to_dict(), b.to_dict())."
        )
    a_arr = as_scores(a, "A's scores")
    b_arr = as_scores(b, "B's scores")
    if a_arr.shape != b_arr.shape:
        raise ValueError(
            f"A has {a_arr.size} scores and B has {b_arr.size}: paired comparison needs "
            "one score per query from each system, in the same query order."
        )
    return None, a_arr, b_arr


def paired_differences(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
) -> np.ndarray:
    """Per-query changes ``d_q = m_B(q) - m_A(q)``.

    Parameters
    ----------
    a, b : sequence of float or mapping of query ID to float
        System A's and system B's scores, either two equal-length sequences in
        the same query order, or two mappings ``{query_id: score}``.

    Returns
    -------
    numpy.ndarray
        ``b - a`` as a 1-D float array (in sorted query-ID order for mappings).

    Raises
    ------
    ValueError
        Different lengths, query IDs present on one side only (up to five named
        on each side), NaN or infinite scores, empty input, non-numeric scores.

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
    _, a_arr, b_arr = paired_scores(a, b)
    return b_arr - a_arr
