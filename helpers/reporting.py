"""Reporting a comparison: per-slice estimates with intervals, and the largest regressions.

An overall mean change can hide a slice of queries that got worse. A report
therefore shows, next to the overall estimate and interval, every slice's
query count, mean change and paired bootstrap interval (a small slice's
interval is wide, and the table shows it), and lists the queries that
regressed most by ID, so that someone can look at them.
"""

from __future__ import annotations

import html
import numbers
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .data import paired_scores
from .intervals import Interval, _check_level, percentile_interval
from .resampling import _check_n_resamples, as_generator, paired_bootstrap

__all__ = ["SliceRow", "SliceSummary", "slice_summary", "QueryChange", "largest_regressions"]

#: Label of the overall row in a :class:`SliceSummary`.
OVERALL = "all queries"


class SliceRow(NamedTuple):
    """One row of a slice table: a slice (or all queries) and its paired comparison."""

    slice: str
    n: int
    mean_a: float
    mean_b: float
    change: float
    interval: Interval | None

    @property
    def width(self) -> float | None:
        """Width of the interval, or None when there is none."""
        return None if self.interval is None else self.interval.high - self.interval.low


def _fmt(x: float, digits: int) -> str:
    r = round(float(x), digits)
    return f"{(r if r != 0 else 0.0):+.{digits}f}"


@dataclass(frozen=True)
class SliceSummary:
    """The overall row first, then one row per slice; prints as an aligned plain-text table."""

    rows: tuple[SliceRow, ...]
    level: float
    n_resamples: int
    min_queries: int
    digits: int = 3

    @property
    def overall(self) -> SliceRow:
        """The row for all queries."""
        return self.rows[0]

    def row(self, name: str) -> SliceRow:
        """The row of slice ``name``."""
        for r in self.rows:
            if r.slice == name:
                return r
        raise KeyError(f"no slice {name!r}; slices are {', '.join(repr(r.slice) for r in self.rows[1:])}.")

    def _cells(self) -> tuple[list[str], list[list[str]]]:
        d = self.digits
        head = ["slice", "queries", "mean A", "mean B", "change B - A", f"{self.level:.0%} interval", "width"]
        body = []
        for r in self.rows:
            if r.interval is None:
                iv, width = f"(fewer than {self.min_queries} queries)", ""
            else:
                iv, width = f"[{_fmt(r.interval.low, d)}, {_fmt(r.interval.high, d)}]", f"{r.width:.{d}f}"
            body.append([r.slice, str(r.n), f"{r.mean_a:.{d}f}", f"{r.mean_b:.{d}f}", _fmt(r.change, d), iv, width])
        return head, body

    def to_text(self) -> str:
        """The table as aligned plain text, with a line saying how the intervals were computed."""
        head, body = self._cells()
        widths = [max(len(row[i]) for row in [head, *body]) for i in range(len(head))]
        left = {0, 5}

        def line(cells: list[str]) -> str:
            return "  ".join(c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

        rule = "  ".join("-" * w for w in widths)
        out = [line(head), rule, line(body[0]), rule, *(line(r) for r in body[1:])]
        out.append(f"Paired bootstrap percentile intervals, B = {self.n_resamples:,} resamples of each row's queries.")
        return "\n".join(out)

    __str__ = to_text

    def __repr__(self) -> str:
        return self.to_text()

    def _repr_html_(self) -> str:
        head, body = self._cells()
        th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
        trs = []
        for i, row in enumerate(body):
            cells = [html.escape(c) for c in row]
            if i == 0:
                cells = [f"<b>{c}</b>" for c in cells]
            trs.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        trs = "".join(trs)
        note = f"Paired bootstrap percentile intervals, B = {self.n_resamples:,} resamples of each row's queries."
        return f"<table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table><p>{html.escape(note)}</p>"


def _check_labels(labels: object, n: int, name: str) -> list[str]:
    if isinstance(labels, (str, bytes)) or not isinstance(labels, (Sequence, np.ndarray)):
        raise ValueError(f"{name} must be a sequence with one label per query; got {type(labels).__name__}.")
    out = [str(x) for x in labels]
    if len(out) != n:
        raise ValueError(f"{len(out)} {name} were given for {n} queries; give one per query, in the same order as the scores.")
    return out


def slice_summary(
    a: Sequence[float],
    b: Sequence[float],
    slices: Sequence[Hashable],
    *,
    n_resamples: int = 10_000,
    rng: int | np.random.Generator,
    level: float = 0.95,
    min_queries: int = 5,
    order: Sequence[Hashable] | None = None,
) -> SliceSummary:
    """Per-slice counts, means, mean change and paired bootstrap interval, with an overall row first.

    Each row's interval is a paired bootstrap of that row's own queries
    (:func:`helpers.paired_bootstrap`, percentile interval with the series'
    convention). One generator is used for all rows, in table order (overall
    first, then the slices), so one seed reproduces the whole table.

    Parameters
    ----------
    a, b : sequence of float
        System A's and system B's per-query scores, in the same query order.
    slices : sequence
        The slice of each query (e.g. its query type), same order as the scores.
    n_resamples : int
        B, per row.
    rng : int or numpy.random.Generator
        Seed or generator (required).
    level : float
        Confidence level of the intervals.
    min_queries : int
        Slices with fewer queries get no interval (a bootstrap of one or two
        queries has almost no spread, which would look like certainty); they are
        still counted and their mean change shown.
    order : sequence, optional
        The slices in the order to show them (default: sorted labels). Must
        name every slice exactly once.

    Returns
    -------
    SliceSummary
        ``rows`` (overall first), printable as a table (``print(summary)``).

    Examples
    --------
    >>> a = [0.5, 0.6, 0.7, 0.4, 0.5, 0.6, 0.3]
    >>> b = [0.6, 0.6, 0.8, 0.5, 0.4, 0.5, 0.2]
    >>> s = slice_summary(a, b, ["x", "x", "x", "x", "y", "y", "y"], n_resamples=1000, rng=1, min_queries=4)
    >>> print(s)
    slice        queries  mean A  mean B  change B - A  95% interval            width
    -----------  -------  ------  ------  ------------  ----------------------  -----
    all queries        7   0.514   0.514        +0.000  [-0.071, +0.071]        0.143
    -----------  -------  ------  ------  ------------  ----------------------  -----
    x                  4   0.550   0.625        +0.075  [+0.025, +0.100]        0.075
    y                  3   0.467   0.367        -0.100  (fewer than 4 queries)
    Paired bootstrap percentile intervals, B = 1,000 resamples of each row's queries.
    """
    _, a_arr, b_arr = paired_scores(a, b)
    labels = _check_labels(slices, a_arr.size, "slice labels")
    n_resamples = _check_n_resamples(n_resamples)
    _check_level(level)
    if isinstance(min_queries, bool) or not isinstance(min_queries, numbers.Integral) or min_queries < 1:
        raise ValueError(f"min_queries must be a positive integer; got {min_queries!r}.")
    present = sorted(set(labels))
    if order is None:
        names = present
    else:
        names = [str(x) for x in order]
        if sorted(names) != present:
            missing, extra = sorted(set(present) - set(names)), sorted(set(names) - set(present))
            dup = len(names) != len(set(names))
            raise ValueError(
                "order must name every slice exactly once"
                + (f"; missing {missing}" if missing else "")
                + (f"; not slices: {extra}" if extra else "")
                + ("; some named twice" if dup else "")
                + "."
            )
    if OVERALL in names:
        raise ValueError(f"{OVERALL!r} is the label of the overall row; rename that slice.")
    gen = as_generator(rng)
    lab = np.array(labels, dtype=object)
    rows = []
    for name, mask in [(OVERALL, np.ones(a_arr.size, bool)), *((s, lab == s) for s in names)]:
        sa, sb = a_arr[mask], b_arr[mask]
        d = sb - sa
        interval = percentile_interval(paired_bootstrap(d, n_resamples, rng=gen), level) if d.size >= min_queries else None
        rows.append(SliceRow(name, int(d.size), float(sa.mean()), float(sb.mean()), float(d.mean()), interval))
    return SliceSummary(tuple(rows), float(level), n_resamples, int(min_queries))


class QueryChange(NamedTuple):
    """One query's scores and change ``d_q = m_B(q) - m_A(q)``."""

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

    Only queries that got worse (``d_q < 0``) are listed, so fewer than ``k``
    may come back.

    Examples
    --------
    >>> for r in largest_regressions([0.5, 0.9, 0.4], [0.6, 0.2, 0.3], ["q1", "q2", "q3"], k=5):
    ...     print(r.query_id, f"{r.change:+.2f}")
    q2 -0.70
    q3 -0.10
    """
    _, a_arr, b_arr = paired_scores(a, b)
    ids = _check_labels(query_ids, a_arr.size, "query IDs")
    if len(set(ids)) != len(ids):
        raise ValueError("query IDs must be unique.")
    labels = None if slices is None else _check_labels(slices, a_arr.size, "slice labels")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"k must be a positive integer; got {k!r}.")
    d = b_arr - a_arr
    worst = sorted((i for i in range(d.size) if d[i] < 0), key=lambda i: (d[i], ids[i]))[: int(k)]
    return [QueryChange(ids[i], float(a_arr[i]), float(b_arr[i]), float(d[i]), None if labels is None else labels[i]) for i in worst]
