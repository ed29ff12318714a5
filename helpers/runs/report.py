"""Reporting a comparison: per-slice estimates with intervals, the largest
regressions, and :func:`compare_runs`, the whole comparison of two runs in one call.
"""

from __future__ import annotations

import html
import math
import os
import re
import textwrap
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

import numpy as np

from .. import _checks
from ..data import signed
from ..grid import _exact_bootstrap_interval
from ..intervals import Interval, _percentile_interval
from ..records import METHOD, METHOD_CLUSTER, METHOD_EXACT, ComparisonRecord, save_record
from ..resampling import (
    DEFAULT_MAX_ELEMENTS,
    ClusterTotals,
    _cluster_bootstrap,
    _cluster_totals,
    _paired_bootstrap,
)
from ..significance import _ALTERNATIVES, SignificanceResult, _randomization_test
from .alignment import AlignedRuns, _align_runs, _align_runs_iv
from .readers import Qrels, RunScores

__all__ = ["SliceRow", "SliceSummary", "slice_summary", "QueryChange", "largest_regressions",
           "ComparisonReport", "compare_runs"]  # fmt: skip

#: The overall row's label and the note under a slice table; what a record keeps of the test.
OVERALL = "all queries"
_NOTE = "Paired bootstrap percentile intervals, B = {:,} resamples of each row's queries."
_TEST_KEYS = ("method", "alternative", "pvalue", "exact", "n_resamples")
#: The longest line of a printed report: it fits a notebook at 1280 px with the file browser open.
WIDTH = 88
#: One run has no result for "many more" compared queries than the other when the gap is at
#: least this many queries and this share of them (a few topics without results are normal).
LOPSIDED = (5, 0.05)


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
        """Width of the interval, or None when there is none."""
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
        """The row for all queries."""
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
    half_alpha = (1 - _checks.level(level)) / 2
    min_queries = _checks.integer(min_queries, "min_queries")
    names = _slice_order(labels, order)
    gen = _checks.generator(rng)
    lab = np.array(labels, dtype=object)
    rows = []
    for name, mask in [(OVERALL, np.ones(a_arr.size, bool)), *((s, lab == s) for s in names)]:
        sa, sb = a_arr[mask], b_arr[mask]
        d = sb - sa
        boot = _paired_bootstrap(d, n_resamples, gen) if d.size >= min_queries else None
        interval = None if boot is None else _percentile_interval(boot, half_alpha)
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


# --- The whole comparison in one call ----------------------------------------


@dataclass(frozen=True)
class ComparisonReport:
    """What :func:`compare_runs` found, with everything needed to repeat it: a table in a
    notebook, plain text with ``print``, a JSON record with :meth:`to_record` and :meth:`save`."""

    runs: AlignedRuns
    measure: str
    mean_a: float
    mean_b: float
    mean_change: float
    interval: Interval
    interval_method: str
    test: SignificanceResult
    bootstrap: np.ndarray
    wins: int
    losses: int
    unchanged: int
    largest_regressions: list[QueryChange]
    seed: int
    n_resamples: int
    level: float
    config: dict = field(default_factory=dict)
    interval_exact: bool = False
    #: What ``bootstrap`` holds: R Monte Carlo resamples, or R draws from the exact distribution.
    bootstrap_source: str = "Monte Carlo resamples"

    def __repr__(self) -> str:
        return (
            f"ComparisonReport(measure={self.measure!r}, n_queries={self.n_queries}, "
            f"mean_change={self.mean_change:+.6g}, "
            f"interval=[{self.interval.low:+.6g}, {self.interval.high:+.6g}], "
            f"pvalue={self.test.pvalue:.6g}, seed={self.seed})"
        )

    @property
    def n_queries(self) -> int:
        return len(self.runs.query_ids)

    @property
    def relative_change(self) -> float:
        """Mean change as a fraction of A's mean (``nan`` when A's mean is 0)."""
        return self.mean_change / self.mean_a if self.mean_a else float("nan")

    def _rows(self) -> list[tuple[str, str]]:
        interval = f"[{self.interval.low:+.4f}, {self.interval.high:+.4f}]  {self.interval_method}"
        rows = [
            ("measure", self.measure or "(unnamed)"),
            ("queries compared", self.runs.summary()),
            ("mean A, mean B", f"{self.mean_a:.4f}, {self.mean_b:.4f}"),
            ("mean change B - A", f"{self.mean_change:+.4f} ({self.relative_change:+.2%} of A)"),
            (f"{self.level:.0%} interval", interval),
            ("randomization test", _test_line(self.test, 1 - self.level)),
            ("B better / worse / unchanged", f"{self.wins} / {self.losses} / {self.unchanged}"),
        ]
        if self.largest_regressions:
            worst = ", ".join(f"{r.query_id} ({r.change:+.4f})" for r in self.largest_regressions)
            rows.append(("largest regressions", worst))
        exact = f" (the interval is exact; the plotted bootstrap holds {self.bootstrap_source})"
        settings = f"seed {self.seed}, R = {self.n_resamples:,} resamples, level {self.level}"
        rows.append(("settings", settings + (exact if self.interval_exact else "")))
        return rows

    @property
    def warning(self) -> str:
        """What to check first, or "": one run has no result for many more compared queries."""
        return _lopsided(self.runs)

    def __str__(self) -> str:
        rows = self._rows()
        pad = max(len(k) for k, _ in rows) + 2  # values wrap in their column, by meaning
        out = [*_wrap(self.warning, indent="  "), ""] if self.warning else []
        for k, v in rows:
            first, *rest = _wrap(v, WIDTH - pad)
            out += [k.ljust(pad) + first, *(" " * pad + line for line in rest)]
        return "\n".join(out)

    def _repr_html_(self) -> str:
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td "
            f"style='text-align:left'>{html.escape(v)}</td></tr>"
            for k, v in self._rows()
        )
        warning = f"<p><b>{html.escape(self.warning)}</b></p>" if self.warning else ""
        return f"{warning}<table>{body}</table>"

    def to_record(self) -> ComparisonRecord:
        """The comparison as a JSON-ready record: scores, users, seed, B, level and settings."""
        config = {"measure": self.measure, **self.config, "interval_method": self.interval_method}
        config["test"] = {k: getattr(self.test, k) for k in _TEST_KEYS}
        users, runs = self.runs.clusters, self.runs
        method = METHOD_EXACT if self.interval_exact else METHOD
        return ComparisonRecord(
            query_ids=list(runs.query_ids), scores_a=runs.a.tolist(), scores_b=runs.b.tolist(),
            seed=self.seed, n_resamples=self.n_resamples, level=self.level,
            interval=(self.interval.low, self.interval.high), metric=self.measure,
            method=method if users is None else METHOD_CLUSTER,
            clusters=None if users is None else [str(c) for c in users], config=config,
        )  # fmt: skip

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_record` as JSON."""
        save_record(self.to_record(), path)


def _lopsided(runs: AlignedRuns) -> str:
    """:attr:`ComparisonReport.warning`: said when one run has no result (it retrieved nothing,
    or missing='zero' scored it 0) for ``LOPSIDED`` more compared queries than the other."""
    ids, zero = set(runs.query_ids), runs.missing_policy == "zero"
    lack_a, lack_b = (x + runs.in_neither if zero else [] for x in (runs.only_in_b, runs.only_in_a))
    none = {"A": ids & {*runs.unretrieved_a, *lack_a}, "B": ids & {*runs.unretrieved_b, *lack_b}}
    return _lopsided_text(len(ids), none)


def _lopsided_text(n: int, none: dict[str, set]) -> str:
    """The warning when one run (``none``: name -> queries without result) lacks many more."""
    worse, other = sorted(none, key=lambda side: -len(none[side]))
    if len(none[worse]) - len(none[other]) < max(LOPSIDED[0], LOPSIDED[1] * n):
        return ""
    return (
        f"CHECK FIRST: run {worse} has no result for {len(none[worse])} of the {n} compared "
        f"queries, run {other} for {len(none[other])}. Each of these scored 0 (retrieved nothing, "
        "or missing='zero' gave it 0), so the change below may measure that gap, not the search. "
        "Check that the runs' topic IDs match the qrels' (q1 against q001, 0303 against 303), that "
        "no run file is truncated, and the missing= policy ('drop' compares only the queries both "
        f"runs scored). {worse}'s: {_checks.name_some(none[worse], 5)}."
    )


def _glued(text: str, nested: bool = False) -> str:
    """``text`` with NUL for each space a line may not break at: inside brackets (parentheses
    only if not ``nested``), around " = ", before a number not after punctuation, before "(" after
    a number, in "Monte Carlo". So "scored 0", "p = 0.03" or "q136 (-0.5001)" stay whole."""
    out = list(text)
    for m in re.finditer(r" +", text):
        before, after = text[: m.start()], text[m.end() :]
        inside = before.count("[") > before.count("]")
        inside |= not nested and before.count("(") > before.count(")")
        number = bool(re.match(r"[-+]?\d", after)) and not before.endswith((",", ";", ":"))
        number |= after[:1] == "(" and re.search(r"\d\S*$", before) is not None
        if inside or number or before.endswith((" =", "Monte")) or after[:1] == "=":
            out[m.start() : m.end()] = "\0" * len(m.group())
    return "".join(out)


def _wrap(text: str, width: int = WIDTH, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` characters, the later ones after ``indent``,
    broken where :func:`_glued` allows (or, if a line would still be too long, in parentheses).

    >>> _wrap("worst: q121 (-1.0000), q095 (-0.6255), q136 (-0.5001)", 36, "  ")
    ['worst: q121 (-1.0000),', '  q095 (-0.6255), q136 (-0.5001)']
    """
    for nested in (False, True):
        lines = textwrap.wrap(_glued(text, nested), width, subsequent_indent=indent,
                              break_long_words=False, break_on_hyphens=False)  # fmt: skip
        if max(map(len, lines), default=0) <= width:
            break
    return [line.replace("\0", " ") for line in lines] or [""]


def _test_line(test: SignificanceResult, alpha: float) -> str:
    """The test's p-value and how it was computed, for the report's row."""
    n = test.n_resamples
    how = f"{'exact' if test.exact else 'Monte Carlo'}, {test.count:,} of {n:,}"
    if test.exact and n >= 10**12:  # 2**Q sign assignments, counted on the score grid
        how = f"exact, all 2**{n.bit_length() - 1} sign assignments, on the score grid"
    if not test.exact and _near(test.pvalue, n, alpha):
        how += f"; within 2 Monte Carlo errors of {alpha:g}, so more resamples would move it"
    p = _p_text(test.pvalue, test.exact, n)
    return f"p {'< ' + p[1:] if p[0] == '<' else '= ' + p} ({test.alternative}; {how})"


def _p_text(p: float, exact: bool = True, n: int = 0, adjusted: float | None = None) -> str:
    """A p-value as it is known, in every report and table (docs/your-own-runs.md): exact, or
    Monte Carlo ± its error (or "<3/n" for 0 of n); ``adjusted``: that p, without the error."""
    shown = p if adjusted is None else adjusted
    if exact:
        return "<0.0001" if shown < 0.0001 else f"{shown:.4f}"
    if round(p * (n + 1)) == 1:  # none of the n resamples was as extreme
        return f"<{min(1.0, math.ceil(3e4 * shown / p / n) / 1e4):.4f}"
    return f"{shown:.4f}" + ("" if adjusted is not None else f"±{math.sqrt(p * (1 - p) / n):.4f}")


def _near(p: float, n: int, alpha: float, scale: float = 1.0) -> bool:
    """Whether a Monte Carlo p (times ``scale``, an adjustment) lies within two errors of alpha."""
    return abs(scale * p - alpha) <= 2 * scale * math.sqrt(p * (1 - p) / n)


def compare_runs(
    a: RunScores | Mapping[Hashable, float],
    b: RunScores | Mapping[Hashable, float],
    *,
    clusters: Mapping[Hashable, Hashable] | None = None,
    n_resamples: int = 10_000,
    rng: int,
    level: float = 0.95,
    missing: str = "error",
    qrels: Qrels | None = None,
    alternative: str = "two-sided",
    top: int = 5,
    min_queries: int = 5,
    monte_carlo_bootstrap: bool = False,
) -> ComparisonReport:
    """Compare run B with run A on their queries, in one call.

    Line the runs up by query ID (:func:`align_runs`), refuse fewer than ``min_queries``, take
    the changes, read the interval (exact when the scores allow, :func:`exact_bootstrap_interval`;
    with ``clusters``, a user-cluster bootstrap), run the randomization test and list the ``top``
    regressions. ``rng`` is an int seed, kept so the report can be saved and recomputed; a Monte
    Carlo test draws from a stream spawned from it. ``report.bootstrap`` holds R draws for plots
    (from the exact distribution when the interval is exact, unless ``monte_carlo_bootstrap``).
    When one run has no result for many more compared queries than the other (5 more and 5% of
    them, ``LOPSIDED``), the report says so first (``report.warning``), with what to check.

    >>> a = {"q1": 0.50, "q2": 0.70, "q3": 0.65, "q4": 0.55}
    >>> b = {"q1": 0.60, "q2": 0.72, "q3": 0.59, "q4": 0.59}
    >>> report = compare_runs(a, b, n_resamples=2000, rng=1, min_queries=4)  # four pairs, knowingly
    >>> worst = report.largest_regressions[0][0]
    >>> print(f"{report.mean_change:+.3f}, p = {report.test.pvalue:.3f}, worst: {worst}")
    +0.025, p = 0.625, worst: q3
    >>> print(f"[{report.interval.low:+.3f}, {report.interval.high:+.3f}] {report.interval_method}")
    [-0.035, +0.080] paired bootstrap over queries, exact (multiset enumeration, 35 count vectors)
    """
    seed, n_resamples, half_alpha, alternative, top, min_queries = _compare_runs_iv(
        rng, n_resamples, level, alternative, top, min_queries, monte_carlo_bootstrap
    )
    runs = _align_runs(*_align_runs_iv(a, b, missing, qrels, clusters))  # the compared queries
    _enough_queries(len(runs.query_ids), min_queries)
    d = runs.b - runs.a  # the per-query changes
    users = None if runs.clusters is None else _checks.clusters(runs.clusters, d.size)
    totals = None if users is None else _cluster_totals(d, *users)
    boot, interval, method, exact, source = _interval(
        d, totals, n_resamples, seed, level, half_alpha, monte_carlo_bootstrap
    )
    test, wins, losses, unchanged = _test_and_counts(d, totals, seed, alternative, n_resamples)
    return ComparisonReport(
        runs=runs,
        measure=next((r.measure for r in (a, b) if isinstance(r, RunScores) and r.measure), ""),
        mean_a=float(runs.a.mean()), mean_b=float(runs.b.mean()), mean_change=float(d.mean()),
        interval=interval, interval_method=method, test=test, bootstrap=boot,
        wins=wins, losses=losses, unchanged=unchanged,
        largest_regressions=_largest_regressions(runs.a, runs.b, runs.query_ids, top, runs.slices),
        seed=seed, n_resamples=n_resamples, level=float(level),
        config=_config(runs, a, b, qrels, min_queries), interval_exact=exact,
        bootstrap_source=source,
    )  # fmt: skip


def _test_and_counts(
    d: np.ndarray, totals: ClusterTotals | None, seed: int, alternative: str, n_resamples: int,
    null: bool = True,
) -> tuple[SignificanceResult, int, int, int]:  # fmt: skip
    """The randomization test of the changes ``d``, and how many went up, down and stayed the
    same: as :func:`compare_runs` reports them and each cell of :func:`compare_many` repeats
    them. The test draws (when Monte Carlo) from its own stream, spawned from the seed (the
    interval draws from ``default_rng(seed)``); ``null=False`` as in :func:`_randomization_test`."""
    stream = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    test = _randomization_test(
        d, totals, None, stream, alternative, fallback_resamples=n_resamples, null=null
    )
    return test, int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())


def _compare_runs_iv(rng, n_resamples, level, alternative, top, min_queries, monte_carlo_bootstrap):
    """The checked seed, B, alpha/2 (a Fraction), alternative, top and min_queries."""
    seed = _checks.seed(rng, why=" seed here, so that the report can record it and be recomputed")
    n_resamples = _checks.integer(n_resamples, "n_resamples")
    half_alpha = (1 - _checks.level(level)) / 2
    alternative = _checks.one_of(alternative, "alternative", _ALTERNATIVES)
    top = _checks.integer(top, "top", minimum=0)
    min_queries = _checks.integer(min_queries, "min_queries")
    _checks.boolean(monte_carlo_bootstrap, "monte_carlo_bootstrap")
    return seed, n_resamples, half_alpha, alternative, top, min_queries


def _enough_queries(q: int, min_queries: int) -> None:
    """Refuse fewer than ``min_queries`` compared queries, saying why so few mislead."""
    if q < min_queries:
        why = f"it resamples only these {q} changes"
        if q == 1:
            why = "one query gives an interval of width 0"
        raise ValueError(
            f"Only {q} {'query is' if q == 1 else 'queries are'} compared, fewer than "
            f"min_queries={min_queries}. With so few, the bootstrap interval is far too narrow to "
            f"trust ({why}) and the smallest two-sided randomization p-value is 2/2^{q} = "
            f"{min(1.0, 2 / 2**q):.3g}. Judge more queries; or, knowingly, pass a smaller "
            "min_queries (the record keeps it)."
        )


def _interval(
    d: np.ndarray, totals: ClusterTotals | None, n_resamples: int, seed: int, level: float,
    half_alpha: Fraction, monte_carlo_bootstrap: bool,
) -> tuple[np.ndarray, Interval, str, bool, str]:  # fmt: skip
    """The values for the plot, the interval, how it was computed, whether it is exact, and what
    the values for the plot are."""
    rng = np.random.default_rng(seed)
    source = f"{n_resamples:,} Monte Carlo resamples"
    if totals is not None:
        boot = _cluster_bootstrap(totals, "query", n_resamples, rng, DEFAULT_MAX_ELEMENTS)
        method = f"user-cluster bootstrap, {len(totals.labels)} users resampled whole"
        return boot, _percentile_interval(boot, half_alpha), method, False, source
    interval, method, exact, boot = _query_interval(d, n_resamples, rng, level, half_alpha)
    if exact is None:  # on no grid, or a grid too fine: a Monte Carlo interval
        return boot, interval, method, False, source
    if monte_carlo_bootstrap:
        boot = _paired_bootstrap(d, n_resamples, rng)
    else:
        p = exact.distribution.probabilities  # the distribution the interval was read from
        boot = rng.choice(exact.distribution.values, size=n_resamples, p=p / p.sum())
        source = f"{n_resamples:,} draws from the exact bootstrap distribution"
    return boot, interval, method, True, source


def _query_interval(
    d: np.ndarray, n_resamples: int, rng: np.random.Generator, level: float, half_alpha: Fraction
) -> tuple[Interval, str, object, np.ndarray | None]:
    """The paired bootstrap interval over queries: exact where the scores allow, else from
    ``n_resamples`` Monte Carlo resamples drawn from ``rng``. Returns the interval, how it was
    computed, the exact result (None when Monte Carlo) and the Monte Carlo draws (or None)."""
    method = "paired bootstrap over queries"
    try:
        exact = _exact_bootstrap_interval(d, float(level), half_alpha)
    except ValueError:  # on no grid, or a grid too fine: a Monte Carlo interval
        boot = _paired_bootstrap(d, n_resamples, rng)
        method += " (Monte Carlo: no exact interval for these scores)"
        return _percentile_interval(boot, half_alpha), method, None, boot
    method += ", exact " + exact.method.removeprefix("exact bootstrap ")
    return exact.interval, method, exact, None


def _config(runs: AlignedRuns, a: object, b: object, qrels: Qrels | None, min_queries: int) -> dict:
    """The settings a saved report keeps: the missing-query policy and what it did, the sources."""
    sources = [r.source for r in (a, b) if isinstance(r, RunScores)]
    config = {"missing_policy": runs.missing_policy, "only_in_a": runs.only_in_a,
              "only_in_b": runs.only_in_b, "sources": sources,
              "min_queries": int(min_queries)}  # fmt: skip
    if qrels is not None:
        config.update(
            qrels=qrels.source, topics="the judged topics of the qrels", in_neither=runs.in_neither
        )
    if made := [r.made for r in (a, b) if isinstance(r, RunScores) and r.made]:
        config["scored_with"] = made[0]  # both sides' agree (align_runs checked them)
    if runs.unretrieved_a or runs.unretrieved_b:
        config["retrieved_nothing"] = {"A": runs.unretrieved_a, "B": runs.unretrieved_b}
    if runs.unjudged_a or runs.unjudged_b:
        config["unjudged_left_out"] = {"A": runs.unjudged_a, "B": runs.unjudged_b}
    return config
