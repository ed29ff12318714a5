"""Chapter 7's slice table of one's own runs, each row its own paired bootstrap
(:func:`slice_summary`), and the plain text and HTML of the toolkit's tables."""

from __future__ import annotations

import html
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .. import _checks
from ..data import signed
from ..intervals import Interval, percentile_interval
from ..resampling import paired_bootstrap

__all__ = ["SliceRow", "SliceSummary", "slice_summary"]

#: The overall row's label and the note under a slice table.
OVERALL = "all queries"
_NOTE = "Paired bootstrap percentile intervals, B = {:,} resamples of each row's queries."


class SliceRow(NamedTuple):
    """One row of a slice table (a table row, so a tuple): a slice and its paired comparison."""

    slice: str
    n: int
    mean_a: float
    mean_b: float
    change: float
    interval: Interval | None

    @property
    def width(self) -> float | None:
        return None if self.interval is None else self.interval.high - self.interval.low


@dataclass(frozen=True)
class SliceSummary:
    """The overall row first, then one row per slice; prints as an aligned plain-text table."""

    rows: tuple[SliceRow, ...]
    level: float
    n_resamples: int
    min_queries: int

    @property
    def overall(self) -> SliceRow:
        return self.rows[0]

    def row(self, name: str) -> SliceRow:
        """The row of slice ``name``."""
        rows = {r.slice: r for r in self.rows}
        if name not in rows:
            raise KeyError(f"no slice {name!r}; slices are {', '.join(map(repr, list(rows)[1:]))}.")
        return rows[name]

    def _cells(self) -> list[list[str]]:
        """The header, then one row of text per table row (the overall row first)."""
        interval = f"{self.level:.0%} interval"
        cells = [["slice", "queries", "mean A", "mean B", "change B - A", interval, "width"]]
        for r in self.rows:
            iv, width = f"(fewer than {self.min_queries} queries)", ""
            if r.interval is not None:
                iv = f"[{signed(r.interval.low)}, {signed(r.interval.high)}]"  # 3 decimals
                width = f"{r.width:.3f}"
            means = [f"{r.mean_a:.3f}", f"{r.mean_b:.3f}", signed(r.change)]
            cells.append([r.slice, str(r.n), *means, iv, width])
        return cells

    def to_text(self) -> str:
        """The table as aligned plain text, with a line saying how the intervals were computed."""
        cells = self._cells()
        widths = [max(map(len, column)) for column in zip(*cells, strict=True)]
        head, overall, *rest = (_line(row, widths, (0, 5)) for row in cells)  # slice, interval left
        rule = "  ".join("-" * w for w in widths)
        return "\n".join([head, rule, overall, rule, *rest, _NOTE.format(self.n_resamples)])

    __str__ = __repr__ = to_text

    def _repr_html_(self) -> str:
        head, overall, *rest = ([html.escape(c) for c in row] for row in self._cells())
        table = _html_table(head, [[f"<b>{c}</b>" for c in overall], *rest])
        return f"{table}<p>{html.escape(_NOTE.format(self.n_resamples))}</p>"


def _line(cells: list[str], widths: list[int], left: tuple[int, ...]) -> str:
    """One row of aligned columns, two spaces apart: the ``left`` ones to the left."""
    pairs = enumerate(zip(cells, widths, strict=True))
    return "  ".join(x.ljust(w) if i in left else x.rjust(w) for i, (x, w) in pairs).rstrip()


def _html_table(
    head: list[str], rows: list[list[str]], caption: str = "", tr: Sequence[str] = ()
) -> str:
    """An HTML table of cells given as HTML: ``caption`` above, ``tr`` each row's attributes."""
    body = "".join(
        f"<tr{attrs}>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>"
        for attrs, row in zip(tr or [""] * len(rows), rows, strict=True)
    )
    th = "".join(f"<th>{c}</th>" for c in head)
    caption = f"<caption>{caption}</caption>" if caption else ""
    return f"<table>{caption}<thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


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
    """Per-slice counts, means, mean change and paired bootstrap interval, overall row first.

    Each row bootstraps its own queries, from one generator in table order. ``slices`` gives
    each query's slice; ``order`` the slices' order (default: sorted). Slices under
    ``min_queries`` queries get no interval (too little spread would look like certainty).

    >>> a = [0.5, 0.6, 0.7, 0.4, 0.5, 0.6, 0.3]
    >>> b = [0.6, 0.6, 0.8, 0.5, 0.4, 0.5, 0.2]
    >>> labels = ["x", "x", "x", "x", "y", "y", "y"]
    >>> s = slice_summary(a, b, labels, n_resamples=1000, rng=1, min_queries=4)
    >>> print(s)
    slice        queries  mean A  mean B  change B - A  95% interval            width
    -----------  -------  ------  ------  ------------  ----------------------  -----
    all queries        7   0.514   0.514        +0.000  [-0.071, +0.071]        0.143
    -----------  -------  ------  ------  ------------  ----------------------  -----
    x                  4   0.550   0.625        +0.075  [+0.025, +0.100]        0.075
    y                  3   0.467   0.367        -0.100  (fewer than 4 queries)
    Paired bootstrap percentile intervals, B = 1,000 resamples of each row's queries.
    """
    _, a_arr, b_arr = _checks.paired(a, b)
    labels = _checks.labels(slices, a_arr.size, "slice labels")
    n_resamples = _checks.integer(n_resamples, "n_resamples")
    _checks.level(level)
    min_queries = _checks.integer(min_queries, "min_queries")
    names = _slice_order(labels, order)
    gen = _checks.generator(rng)
    lab = np.array(labels, dtype=object)
    rows = []
    for name, mask in [(OVERALL, np.ones(a_arr.size, bool)), *((s, lab == s) for s in names)]:
        sa, sb = a_arr[mask], b_arr[mask]
        d = sb - sa
        big = d.size >= min_queries  # a smaller slice takes no draws and gets no interval
        boot = paired_bootstrap(d, n_resamples=n_resamples, rng=gen) if big else None
        interval = None if boot is None else percentile_interval(boot, level)
        means = float(sa.mean()), float(sb.mean()), float(d.mean())
        rows.append(SliceRow(name, int(d.size), *means, interval))
    return SliceSummary(tuple(rows), float(level), n_resamples, min_queries)


def _slice_order(labels: list[str], order: object) -> list[str]:
    """The slices in the order to show them: ``order`` if given (every slice once), else sorted."""
    present = sorted(set(labels))
    names = present if order is None else [str(x) for x in order]
    if sorted(names) != present:
        missing, extra = sorted(set(present) - set(names)), sorted(set(names) - set(present))
        dup = len(names) != len(set(names))
        said = [f"missing {missing}", f"not slices: {extra}", "some named twice"]
        said = [s for s, bad in zip(said, (missing, extra, dup), strict=True) if bad]
        raise ValueError(f"order must name every slice exactly once; {'; '.join(said)}.")
    if OVERALL in names:
        raise ValueError(f"{OVERALL!r} is the label of the overall row; rename that slice.")
    return names
