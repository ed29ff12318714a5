"""Input checks, one rule each, shared by every module (private: not part of the API).

Public functions call these once, at entry, and then work on the checked values.
Each raises ``ValueError`` naming the argument and saying what to fix.
"""

from __future__ import annotations

import contextlib
import numbers
from collections.abc import Hashable, Iterable, Mapping, Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

MAX_NAMED = 5


def name_some(items: Iterable[object], limit: int = MAX_NAMED) -> str:
    """Return up to ``limit`` items as ``'a', 'b', ... and N more``."""
    items = sorted(items, key=str)
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(repr(x) for x in items[:limit]) + more


def is_int(x: object) -> bool:
    """True for an integer that is not a bool (numpy integers count)."""
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def integer(x: object, name: str, *, minimum: int = 1) -> int:
    """An integer ``>= minimum`` (1: "positive", 0: "non-negative"), returned as ``int``."""
    if not is_int(x) or x < minimum:  # type: ignore[operator]
        kinds = {1: "a positive integer", 0: "a non-negative integer"}
        kind = kinds.get(minimum, f"an integer >= {minimum}")
        got = f"a {type(x).__name__} of values" if np.ndim(x) > 0 else repr(x)
        raise ValueError(f"{name} must be {kind}; got {got}.")
    return int(x)  # type: ignore[call-overload]


def number(x: object, name: str, *, minimum: float | None = None) -> float:
    """A finite real number, not a bool (and ``>= minimum`` if given), returned as ``float``."""
    real = isinstance(x, numbers.Real) and not isinstance(x, bool)
    if not real or not np.isfinite(x) or (minimum is not None and x < minimum):
        bound = "" if minimum is None else f" >= {minimum}"
        raise ValueError(f"{name} must be a finite number{bound}; got {x!r}.")
    return float(x)


def seed(x: object, name: str = "rng", why: str = "") -> int:
    """A non-negative int seed, for results that record their seed (``why`` says what for)."""
    if not is_int(x) or x < 0:  # type: ignore[operator]
        raise ValueError(f"{name} must be a non-negative int{why}; got {x!r}.")
    return int(x)  # type: ignore[call-overload]


def generator(rng: object) -> np.random.Generator:
    """An int seed or a ``numpy.random.Generator`` (``None`` refused: results must repeat)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if is_int(rng):
        if rng < 0:  # type: ignore[operator]
            raise ValueError(f"rng seed must be a non-negative integer; got {rng}.")
        return np.random.default_rng(int(rng))  # type: ignore[call-overload]
    if rng is None:
        raise ValueError(
            "rng is required: pass an int seed (e.g. rng=7) or a numpy.random.Generator, "
            "so that the result can be repeated."
        )
    raise ValueError(
        f"rng must be an int seed or a numpy.random.Generator; got {type(rng).__name__}."
    )


def level(x: object, name: str = "level", example: str = "0.95") -> Fraction:
    """A level (or ``alpha``) strictly between 0 and 1, read as the decimal it was written as."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real) or not 0 < x < 1:  # NaN, inf fail
        raise ValueError(
            f"{name} must be a number strictly between 0 and 1 (e.g. {example}); got {x!r}."
        )
    # 0.95 is 19/20 exactly, so that alpha/2 * R lands on whole numbers where it
    # should (R = 5000 gives 125 and 4875, not 4874.999...).
    return Fraction(float(x)).limit_denominator(10**9)  # Fraction refuses np.float32


def labels(x: object, n: int, name: str) -> list[str]:
    """One text label per query, in query order."""
    if isinstance(x, (str, bytes)) or not isinstance(x, (Sequence, np.ndarray)):
        raise ValueError(
            f"{name} must be a sequence with one label per query; got {type(x).__name__}."
        )
    out = [str(v) for v in x]
    if len(out) != n:
        raise ValueError(
            f"{len(out)} {name} were given for {n} queries; give one per query, "
            "in the same order as the scores."
        )
    return out


def scores(
    values: ArrayLike, name: str = "scores", *, labels: Sequence[Hashable] | None = None
) -> np.ndarray:
    """A new 1-D float64 array of finite real numbers, one per query."""
    arr = _numbers(values, name)
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
        more = " ..." if bad_pos.size > MAX_NAMED else ""
        where = f"position {', '.join(str(i) for i in bad_pos[:MAX_NAMED])}{more}"
        if labels is not None:
            where = f"query {name_some([labels[i] for i in bad_pos])}"
        raise ValueError(
            f"{name} contain NaN or infinite values at {where}; "
            "remove or fix those queries before comparing."
        )
    return arr


def _numbers(values: object, name: str) -> np.ndarray:
    """``values`` as an array of real numbers, refusing what has no order or is not numbers."""
    if isinstance(values, (str, bytes)):
        raise ValueError(f"{name} must be a sequence of numbers, not a single string.")
    if isinstance(values, Mapping):
        raise ValueError(
            f"{name} is a mapping; pass its values, or use paired_differences(a, b) "
            "to pair two mappings by query ID."
        )
    if isinstance(values, (set, frozenset)):
        raise ValueError(
            f"{name} is a set, which has no order and keeps each value only once; "
            "pass a list or array with one score per query, in query order."
        )
    if np.ma.isMaskedArray(values) and np.ma.getmaskarray(values).any():
        raise ValueError(
            f"{name} is a masked array with {int(np.ma.getmaskarray(values).sum())} masked "
            "value(s); decide what they mean first: drop those queries (x.compressed()) or "
            "give them a score (x.filled(0.0))."
        )
    if not isinstance(values, (np.ndarray, Sequence)):
        # pandas: iterating a DataFrame gives its column names; generators, dict views...: read once
        to_numpy = getattr(values, "to_numpy", None)
        try:
            values = to_numpy() if callable(to_numpy) else list(values)  # type: ignore[call-overload]
        except TypeError:
            raise ValueError(
                f"{name} must be a sequence of numbers; got {type(values).__name__}."
            ) from None
    try:
        arr = np.asarray(values)
    except ValueError:  # nested sequences of different lengths
        raise ValueError(
            f"{name} must be a flat sequence of numbers (one score per query); "
            "got nested sequences of different lengths."
        ) from None
    if arr.dtype == object or arr.dtype.kind in "USV":
        # the values as given: in [0.5, 'x'] numpy turned 0.5 into text too
        given = np.asarray(values, dtype=object).ravel().tolist()
        if bad := [x for x in given if not isinstance(x, numbers.Real)]:
            hint = "; convert text to numbers first, e.g. [float(x) for x in values]"
            hint = hint if all(isinstance(x, (str, bytes)) for x in bad) else ""
            raise ValueError(
                f"{name} must be numbers; found non-numeric value(s) {name_some(bad, 3)}{hint}."
            )
        arr = arr.astype(float)
    if arr.dtype.kind not in "biuf":
        raise ValueError(f"{name} must be real numbers; got an array of dtype {arr.dtype}.")
    return arr


def weights(x: ArrayLike, n: int, name: str = "weights") -> np.ndarray:
    """Non-negative weights, one per value: probabilities or counts (some may be 0, not all)."""
    w = scores(x, name)
    if w.size != n:
        raise ValueError(f"{name} must have one entry per value: {n} values but {w.size} {name}.")
    if (w < 0).any():
        raise ValueError(
            f"{name} must be non-negative; found {int((w < 0).sum())} negative value(s), "
            f"e.g. {w[w < 0][0]:g}."
        )
    if not w.sum() > 0:
        raise ValueError(
            f"{name} are all zero: at least one value needs a positive weight "
            "(probability or count)."
        )
    return w


def unmatched(only_a: Iterable[object], only_b: Iterable[object]) -> str:
    """How the query sets differ, naming up to five queries on each side.

    >>> unmatched(["q2"], ["q3", "q4"])
    "1 only in A ('q2'); 2 only in B ('q3', 'q4')"
    """
    sides = (("A", list(only_a)), ("B", list(only_b)))
    return "; ".join(f"{len(ids)} only in {s} ({name_some(ids)})" for s, ids in sides if ids)


def sorted_ids(ids: Iterable[Hashable]) -> list:
    """Query IDs sorted; by their text when they mix types (e.g. ints and strings)."""
    try:
        return sorted(ids)
    except TypeError:
        return sorted(ids, key=str)


def paired(a: object, b: object) -> tuple[list[Hashable] | None, np.ndarray, np.ndarray]:
    """Two systems' scores paired: by position (sequences) or by query ID (mappings, sorted IDs).
    Two indexed series (pandas) pair by position only when their indexes agree."""
    a_map, b_map = isinstance(a, Mapping), isinstance(b, Mapping)
    if a_map != b_map:
        raise ValueError(
            "Pass both systems the same way: two sequences (paired by position) "
            "or two mappings {query_id: score} (paired by query ID); got one of each."
        )
    if a_map:
        if not a and not b:
            raise ValueError(
                "Both systems' score mappings are empty: at least one query is needed."
            )
        only_a, only_b = set(a) - set(b), set(b) - set(a)
        if only_a or only_b:
            raise ValueError(
                "The two systems were not run on the same queries: "
                f"{unmatched(only_a, only_b)}. "
                "Compare on the shared queries only after deciding how to treat the missing ones."
            )
        ids = sorted_ids(a)
        a_arr = scores([a[q] for q in ids], "A's scores", labels=ids)
        b_arr = scores([b[q] for q in ids], "B's scores", labels=ids)
        return ids, a_arr, b_arr
    # pandas Series carry their query IDs as an index (lists have no to_numpy)
    indexes = [list(x.index) for x in (a, b) if hasattr(x, "to_numpy") and hasattr(x, "index")]
    if len(indexes) == 2 and indexes[0] != indexes[1]:
        raise ValueError(
            "A's and B's scores carry different indexes (query IDs, as pandas Series do), so "
            "pairing them by position would pair different queries. Pair them by query ID: "
            "paired_differences(a.to_dict(), b.to_dict())."
        )
    a_arr = scores(a, "A's scores")
    b_arr = scores(b, "B's scores")
    if a_arr.shape != b_arr.shape:
        raise ValueError(
            f"A has {a_arr.size} scores and B has {b_arr.size}: paired comparison needs "
            "one score per query from each system, in the same query order."
        )
    return None, a_arr, b_arr


def length(names: str, *columns, empty: bool = False, show: bool = False) -> int:
    """The one length of ``columns`` (named in ``names``, a figure's rows); two lengths are
    refused, and so is none unless ``empty``. ``show`` adds the lengths to the message."""
    sizes = [len(c) for c in columns]
    if len(set(sizes)) > 1 or not (sizes[0] or empty):
        same = "the same length" if empty else "the same, non-zero length"
        raise ValueError(f"{names} must have {same}" + (f"; got {sizes}." if show else "."))
    return sizes[0]


def boolean(x: object, name: str) -> bool:
    """True or False, nothing else (not 0, 1 or a numpy bool)."""
    if not isinstance(x, bool):
        raise ValueError(f"{name} must be True or False; got {x!r}.")
    return x


def one_of(x: object, name: str, options: Sequence[str]) -> str:
    """One of a few named options (``alternative``, ``missing``...)."""
    if not isinstance(x, str) or x not in options:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, options))}; got {x!r}.")
    return x


def clusters(x: object, n: int) -> tuple[list, np.ndarray]:
    """One cluster label (e.g. a user ID) per query: the distinct labels in order of first
    appearance, and each query's index into them. At least two clusters.
    """
    unordered = (str, bytes, Mapping, set, frozenset)
    if not isinstance(x, (np.ndarray, Sequence, *unordered)):
        with contextlib.suppress(TypeError):  # generators: read once; the rest is refused below
            x = list(x)  # type: ignore[call-overload]
    if isinstance(x, unordered) or not isinstance(x, (np.ndarray, Sequence)):
        raise ValueError(
            "clusters must be a sequence with one cluster label (e.g. a user ID) per query, in the "
            "order of changes (not a single string, a mapping or a set, which has no order); got "
            f"{type(x).__name__}."
        )
    arr = np.asarray(x, dtype=object)
    if arr.ndim != 1:
        raise ValueError(
            f"clusters must be one-dimensional (one label per query); got shape {arr.shape}."
        )
    if arr.size != n:
        raise ValueError(
            f"changes has {n} values but clusters has {arr.size} labels: give exactly one "
            "cluster label per query, in the same order."
        )
    index: dict[Hashable, int] = {}
    codes = np.empty(n, dtype=np.intp)
    for i, label in enumerate(arr.tolist()):
        if label is None or (isinstance(label, float) and label != label):
            raise ValueError(
                f"clusters has a missing label ({label!r}) at position {i}; every query needs the "
                "cluster (user) it came from."
            )
        try:
            codes[i] = index.setdefault(label, len(index))
        except TypeError:
            raise ValueError(
                f"cluster labels must be hashable (strings or numbers); got {type(label).__name__} "
                f"at position {i}."
            ) from None
    if len(index) < 2:
        raise ValueError(
            f"all {n} queries belong to one cluster ({next(iter(index))!r}); the cluster "
            "bootstrap needs at least two clusters, because resampling a single cluster always "
            "gives back the same data."
        )
    return list(index), codes
