"""Per-query scores: validation, pairing, and the worked examples of the series.

Every function that accepts scores from a user goes through the checks in this
module, so bad input fails the same way everywhere: a ``ValueError`` whose
message says what is wrong and what to fix.
"""

from __future__ import annotations

import numbers
import random
from collections.abc import Hashable, Iterable, Mapping, Sequence

import numpy as np

__all__ = [
    "as_scores",
    "paired_scores",
    "paired_differences",
    "hit_at_5_example",
    "FOUR_PAIR_CHANGES",
    "four_pair_example",
    "simulated_user_study",
]

_MAX_NAMED = 5


def _name_some(items: Iterable[object], limit: int = _MAX_NAMED) -> str:
    """Return up to ``limit`` items as ``'a', 'b', ... and N more``."""
    items = sorted(items, key=str)
    shown = ", ".join(repr(x) for x in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown


def describe_unmatched(only_a: Iterable[object], only_b: Iterable[object]) -> str:
    """How the query sets differ, naming up to five queries on each side.

    >>> describe_unmatched(["q2"], ["q3", "q4"])
    "1 only in A ('q2'); 2 only in B ('q3', 'q4')"
    """
    only_a, only_b = list(only_a), list(only_b)
    parts = []
    if only_a:
        parts.append(f"{len(only_a)} only in A ({_name_some(only_a)})")
    if only_b:
        parts.append(f"{len(only_b)} only in B ({_name_some(only_b)})")
    return "; ".join(parts)


def as_scores(values: object, name: str = "scores", *, labels: Sequence[Hashable] | None = None) -> np.ndarray:
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
    ValueError: A's scores contain NaN or infinite values at position 1; remove or fix those queries before comparing.
    """
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a sequence of numbers, not a single string.")
    if isinstance(values, Mapping):
        raise ValueError(f"{name} is a mapping; pass its values, or use paired_differences(a, b) to pair two mappings by query ID.")
    if isinstance(values, (set, frozenset)):
        raise ValueError(
            f"{name} is a set, which has no order and keeps each value only once; "
            "pass a list or array with one score per query, in query order."
        )
    if np.ma.isMaskedArray(values) and np.ma.getmaskarray(values).any():
        raise ValueError(
            f"{name} is a masked array with {int(np.ma.getmaskarray(values).sum())} masked value(s); decide what they "
            "mean first: drop those queries (x.compressed()) or give them a score (x.filled(0.0))."
        )
    if not isinstance(values, np.ndarray) and not isinstance(values, Sequence):
        to_numpy = getattr(values, "to_numpy", None)
        if callable(to_numpy):  # pandas Series/DataFrame: iterating a DataFrame gives its column names
            values = to_numpy()
        else:
            # generators, dict views...: materialise once
            try:
                values = list(values)  # type: ignore[call-overload]
            except TypeError:
                raise ValueError(f"{name} must be a sequence of numbers; got {type(values).__name__}.") from None
    try:
        arr = np.asarray(values)
    except ValueError:  # nested sequences of different lengths
        raise ValueError(
            f"{name} must be a flat sequence of numbers (one score per query); got nested sequences of different lengths."
        ) from None
    if arr.dtype == object or arr.dtype.kind in "USV":
        bad = [x for x in arr.ravel().tolist() if not isinstance(x, numbers.Real)]
        if bad:
            hint = (
                "; convert text to numbers first, e.g. [float(x) for x in values]"
                if all(isinstance(x, (str, bytes)) for x in bad)
                else ""
            )
            raise ValueError(f"{name} must be numbers; found non-numeric value(s) {_name_some(bad, 3)}{hint}.")
        arr = arr.astype(float)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be real numbers; got an array of dtype {arr.dtype}.")
    if arr.ndim != 1:
        raise ValueError(
            f"{name} must be one-dimensional (one score per query); got shape {arr.shape}. "
            "Pass a flat list or array (np.ravel(x) flattens a single row or column); "
            "for two systems' scores, compute paired_differences(a, b) first."
        )
    if arr.size == 0:
        raise ValueError(f"{name} is empty: at least one query is needed.")
    arr = arr.astype(np.float64, copy=True)
    bad_pos = np.flatnonzero(~np.isfinite(arr))
    if bad_pos.size:
        where = (
            f"query {_name_some([labels[i] for i in bad_pos])}"
            if labels is not None
            else f"position {', '.join(str(i) for i in bad_pos[:_MAX_NAMED])}" + (" ..." if bad_pos.size > _MAX_NAMED else "")
        )
        raise ValueError(f"{name} contain NaN or infinite values at {where}; remove or fix those queries before comparing.")
    return arr


def _index_of(values: object) -> list | None:
    """The labels of an indexed container (a pandas Series), else None. Lists' ``.index`` is a method, not labels."""
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
            raise ValueError("Both systems' score mappings are empty: at least one query is needed.")
        only_a, only_b = set(a) - set(b), set(b) - set(a)
        if only_a or only_b:
            raise ValueError(
                f"The two systems were not run on the same queries: {describe_unmatched(only_a, only_b)}. "
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
            "A's and B's scores carry different indexes (query IDs, as pandas Series do), so pairing them by "
            "position would pair different queries. Pair them by query ID: paired_differences(a.to_dict(), b.to_dict())."
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
    ValueError: The two systems were not run on the same queries: 1 only in A ('q2'); 1 only in B ('q3'). Compare on the shared queries only after deciding how to treat the missing ones.
    """
    _, a_arr, b_arr = paired_scores(a, b)
    return b_arr - a_arr


def hit_at_5_example(rng: random.Random | int = 7) -> tuple[np.ndarray, np.ndarray]:
    """The source material's 120-query hit@5 example, generated exactly as the source does.

    With Python's ``random`` seeded at 7, the first 120 draws of ``random()`` give
    A's hits (1 when the draw is below 0.70); the next 120 give B's, query by
    query: B copies A's value when the draw is below 0.9 and flips it otherwise.

    Parameters
    ----------
    rng : random.Random or int
        A ``random.Random`` instance (advanced by 240 draws, so a bootstrap can
        continue on the same stream, as the source does) or an int seed.

    Returns
    -------
    a_hits, b_hits : numpy.ndarray
        Two 0/1 float arrays of length 120.

    Examples
    --------
    >>> a, b = hit_at_5_example()
    >>> print(f"A {a.mean():.3f}, B {b.mean():.3f}, B - A {b.mean() - a.mean():+.3f}")
    A 0.758, B 0.692, B - A -0.067
    """
    if isinstance(rng, bool) or not isinstance(rng, (random.Random, int)):
        raise ValueError(f"rng must be a random.Random instance or an int seed; got {type(rng).__name__}.")
    stream = rng if isinstance(rng, random.Random) else random.Random(rng)
    n = 120
    a = [1 if stream.random() < 0.70 else 0 for _ in range(n)]
    b = [a[i] if stream.random() < 0.9 else 1 - a[i] for i in range(n)]
    return np.array(a, dtype=float), np.array(b, dtype=float)


#: The source's four per-query nDCG changes B - A, for q1..q4.
FOUR_PAIR_CHANGES: tuple[float, ...] = (0.10, 0.02, -0.06, 0.04)


def four_pair_example() -> dict[str, object]:
    """The four-query nDCG example, with illustrative per-query scores and users.

    The source gives only the changes (+0.10, +0.02, -0.06, +0.04), A's mean
    (0.600) and the users (q1 and q2 from U1, q3 from U2, q4 from U3). The
    per-query scores here are *illustrative*: chosen to match those figures.

    Returns
    -------
    dict
        ``query_ids``, ``users``, ``a`` and ``b`` (float arrays) and ``changes``
        (``b - a``, rounded to the two decimals the source states).

    Examples
    --------
    >>> ex = four_pair_example()
    >>> ex["query_ids"], ex["users"]
    (['q1', 'q2', 'q3', 'q4'], ['U1', 'U1', 'U2', 'U3'])
    >>> print(f"{ex['a'].mean():.3f} {ex['changes'].mean():+.3f}")
    0.600 +0.025
    """
    a = np.array([0.50, 0.70, 0.65, 0.55])
    changes = np.array(FOUR_PAIR_CHANGES)
    b = np.round(a + changes, 2)
    return {
        "query_ids": ["q1", "q2", "q3", "q4"],
        "users": ["U1", "U1", "U2", "U3"],
        "a": a,
        "b": b,
        "changes": np.round(b - a, 2),
    }


def simulated_user_study(
    rng: int | np.random.Generator,
    *,
    n_users: int = 50,
    user_sd: float = 0.08,
    query_sd: float = 0.05,
    truth: float = 0.02,
) -> tuple[np.ndarray, np.ndarray]:
    """One simulated study of chapter 4: per-query changes and the user who sent each query.

    Each of ``n_users`` users sends 1 + Poisson(4) queries. A query's change is
    ``truth + u_g + e_q``: ``u_g`` is its user's effect (normal, standard
    deviation ``user_sd``, shared by all of that user's queries) and ``e_q`` is
    query-to-query noise (normal, standard deviation ``query_sd``). So the true
    mean change is ``truth``, counted per query or per user.

    Parameters
    ----------
    rng : int or numpy.random.Generator
        Seed or generator (a generator is advanced, so studies can be drawn in turn).
    n_users, user_sd, query_sd, truth
        The population; keyword-only.

    Returns
    -------
    changes, users : numpy.ndarray
        Float changes and integer user ids 0 .. n_users - 1, one per query,
        each user's queries together.

    Examples
    --------
    >>> d, users = simulated_user_study(2024)
    >>> print(f"{d.size} queries from {users.max() + 1} users, mean change {d.mean():+.4f}")
    233 queries from 50 users, mean change +0.0309
    """
    from .resampling import as_generator  # resampling imports this module

    gen = as_generator(rng)
    if isinstance(n_users, bool) or not isinstance(n_users, numbers.Integral) or n_users < 1:
        raise ValueError(f"n_users must be a positive integer; got {n_users!r}.")
    for name, value in (("user_sd", user_sd), ("query_sd", query_sd)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) or value < 0:
            raise ValueError(f"{name} must be a finite number >= 0; got {value!r}.")
    if isinstance(truth, bool) or not isinstance(truth, numbers.Real) or not np.isfinite(truth):
        raise ValueError(f"truth must be a finite number; got {truth!r}.")
    sizes = 1 + gen.poisson(4, size=int(n_users))
    users = np.repeat(np.arange(int(n_users)), sizes)
    user_effect = gen.normal(0, user_sd, size=int(n_users))
    changes = truth + user_effect[users] + gen.normal(0, query_sd, size=users.size)
    return changes, users
