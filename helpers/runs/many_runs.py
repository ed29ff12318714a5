"""Many runs against one baseline: the results table a paper reports, every cell exact where the
scores allow and every mark corrected over a family that the table names. It prints as text, HTML,
Markdown and LaTeX, draws a forest plot, and saves as a JSON record that recomputes it exactly."""

from __future__ import annotations

import dataclasses
import hashlib
import html
import json
import numbers
import os
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .. import _checks, kernels
from ..data import signed
from ..intervals import Interval
from ..plots import PALETTE
from ..records import save_record
from ..significance import holm
from . import alignment as _alignment
from . import report as _report
from .readers import Qrels, RunScores
from .report import _compare_runs_iv, _enough_queries, _p_text, _query_interval, _test_and_counts
from .scoring import trec_name
from .slice_table import _html_table, _line

__all__ = ["FAMILIES", "CORRECTIONS", "RunComparison", "ManyRunsTable", "compare_many",
           "ManyRunsRecord", "load_many_record", "recompute_many", "plot_forest"]  # fmt: skip

#: Which cells are corrected together: all of them, each measure's, or the primary measure's
#: first and the rest only if every primary cell is marked (chapter 6's gatekeeping plan).
FAMILIES = ("all", "per measure", "gatekeeping")
#: How the p-values of a family are adjusted.
CORRECTIONS = ("holm", "bonferroni")
RECORD_FORMAT = "did-search-improve/many-runs"
RECORD_VERSION = 1
_MARK = "*"


@dataclass(frozen=True)
class RunComparison:
    """One cell of the table: one run against the baseline on one measure."""

    run: str
    measure: str
    n_queries: int
    baseline_mean: float
    run_mean: float
    change: float
    interval: Interval
    interval_method: str
    interval_exact: bool
    pvalue: float
    pvalue_exact: bool
    test_method: str
    adjusted: float
    marked: bool
    up: int
    down: int
    unchanged: int
    #: The family the cell was corrected in: "all", the measure's name, "primary", "secondary".
    family: str


@kernels.figure_text(
    "One row per run: its change against the baseline as a dot, its interval as a bar, zero dotted."
)
def plot_forest(
    labels: Sequence[str],
    changes: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    marked: Sequence[bool],
    *,
    groups: Sequence[str] | None = None,
    ax=None,
    title: str = "Each run against the baseline: change and 95% interval",
    xlabel: str = "Mean change, run - baseline",
    mark_label: str = "* adjusted p <= 0.05",
):
    """A forest plot: one row per run (grouped, e.g. by measure), its change as a dot and its
    interval as a bar, zero as a dotted line; marked rows in the accent colour with a star.

    >>> from matplotlib.figure import Figure
    >>> ax = plot_forest(["B", "C"], [0.02, -0.01], [(0.01, 0.03), (-0.03, 0.01)], [True, False],
    ...                  groups=["ndcg", "ndcg"], ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['ndcg · B *', 'ndcg · C']
    """
    from matplotlib.lines import Line2D

    n = _checks.length("labels, changes, intervals and marked", labels, changes, intervals, marked)
    if groups is not None and len(groups) != n:
        raise ValueError(f"groups must have one entry per row: {n} rows but {len(groups)} groups.")
    est = _checks.scores(changes, "changes")
    ax = kernels.axes(ax, figsize=(7.5, 1.4 + 0.42 * n))
    ys = np.arange(n)[::-1].astype(float)
    names = []
    for i, (y, (low, high), flag) in enumerate(zip(ys, intervals, marked, strict=True)):
        color = PALETTE["accent"] if flag else PALETTE["diff"]
        kernels.interval_row(ax, y, low, high, est[i], (5, 6), color=color, alpha=0.85)
        name = labels[i] if groups is None else f"{groups[i]} · {labels[i]}"
        names.append(name + (" *" if flag else ""))
        if groups is not None and i and groups[i] != groups[i - 1]:
            ax.axhline(y + 0.5, color=PALETTE["neutral"], linewidth=0.6, alpha=0.5)
    kernels.rows_against_zero(ax, ys, names, xlabel, title)
    marks = {"accent": mark_label, "diff": "no mark: no change detected"}
    handles = [Line2D([], [], color=PALETTE[r], linewidth=5, label=s) for r, s in marks.items()]
    below = 0.62 / (0.77 * ax.figure.get_figheight())  # under the x label, about 0.6 inches
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -below), fontsize=9)
    return ax


@dataclass(frozen=True, eq=False)
class ManyRunsTable:
    """What :func:`compare_many` found: one :class:`RunComparison` per run and measure. ``print``
    gives plain text, a notebook HTML; :meth:`to_markdown`, :meth:`to_latex` and :meth:`plot` the
    other media; :meth:`save` the record that recomputes it."""

    cells: tuple[RunComparison, ...]
    baseline: str
    runs: tuple[str, ...]
    measures: tuple[str, ...]
    family: str
    correction: str
    alpha: float
    level: float
    seed: int
    n_resamples: int
    alternative: str
    missing: str
    min_queries: int
    #: Per measure: the compared query IDs, and each run's scores on them (baseline included).
    query_ids: dict[str, tuple[str, ...]] = field(repr=False)
    scores: dict[str, dict[str, np.ndarray]] = field(repr=False)
    #: Per run and measure, the compared queries it had no score for (scored 0 or dropped).
    missing_queries: dict[str, dict[str, list[str]]] = field(default_factory=dict, repr=False)

    def cell(self, run: str, measure: str) -> RunComparison:
        """The cell of ``run`` on ``measure``."""
        for c in self.cells:
            if c.run == run and c.measure == measure:
                return c
        raise KeyError(
            f"no cell for run {run!r} on {measure!r}; runs {list(self.runs)}, "
            f"measures {list(self.measures)} (the baseline {self.baseline!r} has no cell)."
        )

    @property
    def n_marked(self) -> int:
        """How many cells are marked (adjusted p-value at most ``alpha``)."""
        return sum(c.marked for c in self.cells)

    def corrected(
        self,
        *,
        family: str | None = None,
        correction: str | None = None,
        alpha: float | None = None,
    ) -> ManyRunsTable:
        """The same cells (the same p-values and intervals, nothing recomputed), adjusted over
        another family, by another correction or at another level.

        >>> base = {"m": {f"q{i}": v for i, v in enumerate([0.2, 0.4, 0.6, 0.8, 1.0])}}
        >>> up = {"m": {f"q{i}": v for i, v in enumerate([0.2, 0.6, 0.8, 1.0, 1.0])}}
        >>> table = compare_many({"A": base, "B": up, "C": base}, baseline="A", rng=3)
        >>> [c.pvalue for c in table.cells], [c.adjusted for c in table.cells]
        ([0.25, 1.0], [0.5, 1.0])
        >>> print(table.corrected(correction="bonferroni").family_text())
        Bonferroni (each p times m) over all 2 comparisons of this table, family-wise error rate \
0.05; Holm marks every cell Bonferroni marks, and may mark more
        """
        family = _checks.one_of(self.family if family is None else family, "family", FAMILIES)
        correction = self.correction if correction is None else correction
        correction = _checks.one_of(correction, "correction", CORRECTIONS)
        alpha = self.alpha if alpha is None else alpha
        _checks.level(alpha, "alpha", "0.05")
        how = dict(family=family, correction=correction, alpha=float(alpha))
        jobs = [(c.run, c.measure) for c in self.cells]
        marks = _marks(jobs, np.array([c.pvalue for c in self.cells]), self.measures[0], how)
        cells = tuple(dataclasses.replace(c, **x) for c, x in zip(self.cells, marks, strict=True))
        return dataclasses.replace(self, cells=cells, **how)

    def __repr__(self) -> str:
        return (
            f"ManyRunsTable(baseline={self.baseline!r}, runs={list(self.runs)}, "
            f"measures={list(self.measures)}, family={self.family!r}, "
            f"correction={self.correction!r}, marked={self.n_marked} of {len(self.cells)})"
        )

    def to_record(self) -> ManyRunsRecord:
        """The table as one JSON-ready record that :func:`recompute_many` recomputes exactly."""
        scores = {m: {r: s.tolist() for r, s in by_r.items()} for m, by_r in self.scores.items()}
        query_ids = {m: list(ids) for m, ids in self.query_ids.items()}
        keys = ("family", "correction", "alpha", "level", "seed", "n_resamples", "alternative")
        cell_keys = ("run", "measure", "change", "pvalue", "adjusted", "marked")
        return ManyRunsRecord(
            baseline=self.baseline,
            runs=list(self.runs),
            measures=list(self.measures),
            settings={k: getattr(self, k) for k in (*keys, "missing", "min_queries")},
            query_ids=query_ids,
            scores=scores,
            scores_sha256=_scores_hash(query_ids, scores),
            missing_queries={r: dict(by_m) for r, by_m in self.missing_queries.items()},
            cells=[
                {**{k: getattr(c, k) for k in cell_keys}, "interval": list(c.interval)}
                for c in self.cells
            ],
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_record` as JSON."""
        save_record(self.to_record(), path)

    # Rendering: the same cells as text, HTML, Markdown and LaTeX, under the title, with the legend

    def family_text(self) -> str:
        """Which family was corrected, by which method, at which level, in words."""
        n, k, a = len(self.cells), len(self.runs), f"{self.alpha:g}"  # k: per measure
        how = "Holm's step-down" if self.correction == "holm" else "Bonferroni (each p times m)"
        if self.family == "all":
            text = f"{how} over all {n} comparisons of this table, family-wise error rate {a}"
        elif self.family == "per measure":
            text = (
                f"{how} within each measure: {len(self.measures)} families of {k} comparisons, "
                f"each at family-wise error rate {a} (the table as a whole is not held to {a})"
            )
        else:
            text = (
                f"gatekeeping (chapter 6's plan): the primary measure {self.measures[0]}'s {k} "
                f"comparisons by {how} at {a}; then the other {n - k} by {how} at {a}, marked "
                f"only if every primary comparison is; family-wise error rate {a} over all {n}"
            )
        if self.correction == "bonferroni":
            text += "; Holm marks every cell Bonferroni marks, and may mark more"
        return text

    def legend(self) -> list[str]:
        """The legend's lines: what a mark means, what it does not, how each column was made."""
        mc = f"Monte Carlo (R = {self.n_resamples:,}, seed {self.seed}"
        iv = f"exact on the score grid where possible, else {mc})"
        p = f"exact where possible, else {mc}; shown ± its Monte Carlo standard error "
        p += "sqrt(p(1 - p)/R), an adjusted p ± its shift when each p moves up by its standard "
        p += "error, or as <3/R, a 95% upper bound, when no resample was as extreme)"
        if all(c.interval_exact for c in self.cells):
            iv = "exact (no random numbers)"
        if all(c.pvalue_exact for c in self.cells):
            p = "exact"
        lines = [
            f"{_MARK} adjusted p <= {self.alpha:g}: {self.family_text()}.",
            "A mark is not a probability that the run is better than the baseline; a cell "
            "without a mark shows no detected change, not no change. Each interval, like p, is "
            "for its cell alone, not adjusted for the family: an unmarked cell's interval may "
            "exclude 0.",
            f"change: run - baseline, over the same queries; interval: {self.level:.0%} paired "
            f"bootstrap percentile interval, {iv}; p: paired randomization test, "
            f"{self.alternative}, {p}; up/down/same: queries where the run scored higher, "
            "lower, the same.",
        ]
        for what, exact in (("intervals", "interval_exact"), ("p-values", "pvalue_exact")):
            monte_carlo = [f"{c.run} on {c.measure}" for c in self.cells if not getattr(c, exact)]
            if monte_carlo and len(monte_carlo) < len(self.cells):  # name them when only some are
                lines.append(f"Monte Carlo {what}: {', '.join(monte_carlo)}.")
        near = [
            f"{c.run} on {c.measure}"
            for c in self.cells
            if not c.pvalue_exact
            and _report._near(c.pvalue, self.n_resamples, self.alpha, c.adjusted / c.pvalue)
        ]
        if near:  # fmt: skip
            lines.append(
                f"Adjusted p within 2 Monte Carlo errors of {self.alpha:g} (a mark could "
                f"move with the seed; raise n_resamples): {', '.join(near)}."
            )
        gaps = [
            f"{run} lacks {len(qs)} on {m} ({_checks.name_some(qs, 3)})"
            for run, by_measure in self.missing_queries.items()
            for m, qs in by_measure.items()
            if qs
        ]
        if gaps:
            verb = "dropped" if self.missing == "drop" else "scored 0"
            lines.append(f"Missing queries ({verb}, missing={self.missing!r}): {'; '.join(gaps)}.")
        return lines

    def title(self) -> str:
        """The line that names the baseline, above the table in every medium."""
        return f"{self.baseline} (baseline) against {len(self.runs)} runs"

    @property
    def warnings(self) -> list[str]:
        """What to check first, as :attr:`ComparisonReport.warning` says it, per run and measure."""
        out = []
        for m, ids in self.query_ids.items():
            none = {r: set(ids) & {*by_m.get(m, ())} for r, by_m in self.missing_queries.items()}
            for r in self.runs:  # the baseline's queries and this run's, as compare_runs sees them
                pair = {f"{self.baseline!r} (baseline)": none.get(self.baseline, set())}
                pair[repr(r)] = none.get(r, set())
                if text := _report._lopsided_text(len(ids), pair):
                    out.append(f"On {m}: {text}")
        return out

    def _rows(self) -> tuple[list[str], list[list[str]]]:
        head = ["measure", "run", "queries", "baseline", "run mean", "change"]
        head += [f"{self.level:.0%} interval", "p", "adjusted p", "up/down/same", "mark"]
        rows = [
            [c.measure, c.run, str(c.n_queries), f"{c.baseline_mean:.4f}", f"{c.run_mean:.4f}",
             signed(c.change, 4), f"[{signed(c.interval.low, 4)}, {signed(c.interval.high, 4)}]",
             _p_text(c.pvalue, c.pvalue_exact, self.n_resamples),
             _p_text(c.pvalue, c.pvalue_exact, self.n_resamples, c.adjusted, error),
             f"{c.up}/{c.down}/{c.unchanged}", _MARK if c.marked else ""]
            for c, error in zip(self.cells, self._adjusted_errors(), strict=True)
        ]  # fmt: skip
        return head, rows

    def _adjusted_errors(self) -> list[float]:
        """Each adjusted p's Monte Carlo error: how far it moves when every Monte Carlo p moves
        up by its standard error (0 where every p is exact)."""
        p = np.array([c.pvalue for c in self.cells])
        se = [0.0 if c.pvalue_exact else (c.pvalue * (1 - c.pvalue) / self.n_resamples) ** 0.5
              for c in self.cells]  # fmt: skip
        labels = [c.family for c in self.cells]
        up = _adjust(np.minimum(1.0, p + se), labels, self.correction)
        return (up - _adjust(p, labels, self.correction)).tolist()

    def to_text(self) -> str:
        """The table as plain text, at most 88 characters a line: under the title, one block per
        measure headed by its queries and the baseline's mean (a run name too long for its column
        stands on a line of its own above its numbers), then the legend wrapped by meaning."""
        head, rows = self._rows()
        # "mean" under "run" (two characters fewer); the mark unheaded
        head, rows = [head[1], "mean", *head[5:-1], ""], [[r[1], *r[4:]] for r in rows]
        widths = [max(len(r[i]) for r in [head, *rows]) for i in range(1, len(head))]
        room = _report.WIDTH - sum(widths) - 2 * len(widths)  # what is left for the run's name
        widths.insert(0, max([len(head[0]), *(len(r[0]) for r in rows if len(r[0]) <= room)]))
        left = (0, 3)  # the run and the interval
        rule = "  ".join("-" * w for w in widths[:-1])
        out = [x for t in self.warnings for x in [*_report._wrap(t, indent="  "), ""]]
        out += [*_report._wrap(self.title()), _line(head, widths, left), rule]
        for i, (c, r) in enumerate(zip(self.cells, rows, strict=True)):
            if not i or c.measure != self.cells[i - 1].measure:
                about = f"{c.measure}: {c.n_queries} queries, baseline mean {c.baseline_mean:.4f}"
                out += [rule] * bool(i) + _report._wrap(about)
            if len(r[0]) > widths[0]:  # a name too long for its column: on a line of its own
                out, r = out + _report._wrap(r[0]), ["", *r[1:]]
            out.append(_line(r, widths, left))
        legend = [x for text in self.legend() for x in _report._wrap(text, indent="  ")]
        return "\n".join([*out, rule, *legend])

    __str__ = to_text

    def _repr_html_(self) -> str:
        head, rows = self._rows()
        head, *rows = ([html.escape(x) for x in r] for r in [head, *rows])
        top = " style='border-top:1px solid'"  # above each measure's block but the first
        tr = [top if i and r[0] != rows[i - 1][0] else "" for i, r in enumerate(rows)]
        legend = "".join(f"<p><small>{html.escape(x)}</small></p>" for x in self.legend())
        warn = "".join(f"<p><b>{html.escape(x)}</b></p>" for x in self.warnings)
        return warn + _html_table(head, rows, html.escape(self.title()), tr) + legend

    def to_markdown(self) -> str:
        """The table as a Markdown pipe table under a line naming the baseline, then the legend."""
        head, rows = self._rows()
        align = ["---", "---", *["---:"] * 8, ":---:"]
        lines = ["| " + " | ".join(map(_md, r)) + " |" for r in [head, align, *rows]]
        legend = self.legend()
        legend[0] = legend[0].replace(_MARK, "\\*", 1).replace("<=", "≤", 1)
        top = [f"**{_md(x)}**" for x in [*self.warnings, self.title()]]
        return "\n\n".join([*top, "\n".join(lines), *legend]) + "\n"

    def to_latex(self) -> str:
        """The table as a LaTeX ``tabular`` (booktabs rules: ``\\usepackage{booktabs}``) under a
        line naming the baseline, then the legend; put it in a ``table`` float with your caption."""
        head, rows = self._rows()
        title = _tex(self.title())
        out = [r"\begin{tabular}{llrrrrlrrrl}", rf"\multicolumn{{11}}{{l}}{{{title}}} \\"]
        out += [r"\toprule", " & ".join(map(_tex, head)) + r" \\", r"\midrule"]
        for i, r in enumerate(rows):
            if i and r[0] != rows[i - 1][0]:
                out.append(r"\midrule")
            out.append(" & ".join([*map(_tex, r[:-1]), r"$^{*}$" if r[-1] else ""]) + r" \\")
        out += [r"\bottomrule", r"\end{tabular}", r"\par\smallskip{\footnotesize"]
        legend = self.legend() + self.warnings
        out.append(r"$^{*}$" + _tex(legend[0][1:]) + r"\\")
        out += [_tex(x) + r"\\" for x in legend[1:-1]] + [_tex(legend[-1]) + "}"]
        return "\n".join(out) + "\n"

    def plot(self, ax=None, *, title: str | None = None):
        """The forest plot (:func:`plot_forest`): each run's change and interval per measure."""
        title = title or f"Each run against {self.baseline}: change and {self.level:.0%} interval"
        cols = [(c.run, c.change, tuple(c.interval), c.marked, c.measure) for c in self.cells]
        runs, changes, intervals, marked, measures = map(list, zip(*cols, strict=True))
        mark = f"{_MARK} adjusted p <= {self.alpha:g} ({self.correction.title()}, family: "
        mark += f"{self.family}, {len(self.cells)} comparisons)"
        return plot_forest(
            runs, changes, intervals, marked, groups=measures, ax=ax, title=title, mark_label=mark
        )


def _md(x: str) -> str:
    """Text for a Markdown table cell."""
    return x.replace("|", "\\|").replace("*", "\\*")


def _tex(x: str) -> str:
    """Text for LaTeX's text mode."""
    for a, b in (("\\", r"\textbackslash{}"), ("_", r"\_"), ("%", r"\%"), ("&", r"\&")):
        x = x.replace(a, b)
    # "<" is a math symbol: in text mode (OT1) it would print as an inverted "!"
    x = x.replace("#", r"\#").replace("$", r"\$").replace("<0.", "$<$0.")
    return x.replace("±", r"$\pm$").replace("<=", r"$\leq$").replace("<3/R", r"$<$3/R")


def _scores_hash(query_ids: dict, scores: dict) -> str:
    """SHA-256 of the query IDs and scores, as canonical JSON (floats as Python writes them)."""
    text = json.dumps({"query_ids": query_ids, "scores": scores}, sort_keys=True, allow_nan=False)
    return hashlib.sha256(text.encode()).hexdigest()


def compare_many(
    scores: Mapping[Hashable, Mapping[str, RunScores | Mapping[Hashable, float]]]
    | Sequence[tuple[Hashable, Mapping[str, RunScores | Mapping[Hashable, float]]]],
    *,
    baseline: Hashable,
    rng: int,
    measures: Sequence[str] | None = None,
    family: str = "all",
    correction: str = "holm",
    alpha: float = 0.05,
    level: float = 0.95,
    n_resamples: int = 10_000,
    alternative: str = "two-sided",
    missing: str = "error",
    qrels: Qrels | None = None,
    min_queries: int = 5,
    workers: int | None = None,
) -> ManyRunsTable:
    """Compare every run with the baseline on every measure, and correct over a stated family.

    ``scores`` maps run name -> measure -> per-query scores (a :class:`RunScores` from
    ``evaluate``, ``read_trec_eval`` or ``read_scores_csv``, or a mapping query ID -> score);
    a list of (name, measures) pairs works too. Each cell is what
    ``compare_runs(baseline, run, rng=rng)`` gives on that measure's compared queries: the
    means, the change, its interval (exact on the score grid, else Monte Carlo from seed
    ``rng``) and the randomization test's p-value (exact where possible), plus the queries
    up, down and unchanged. Every measure's queries are the same for every run: with
    ``missing="drop"`` those every run scores, with ``"zero"`` those any run scores (or the
    judged topics of ``qrels``), a missing score counting 0; the table names them.

    The p-values are adjusted (``correction`` ``"holm"`` or ``"bonferroni"``) over the
    ``family``: ``"all"`` cells, each measure (``"per measure"``), or ``"gatekeeping"``: the
    first of ``measures`` is the primary, its cells one family, and the other cells a second
    family marked only if every primary cell is. A cell is marked when its adjusted p-value is
    at most ``alpha``. ``workers`` threads compute the cells (default: one per core; the result
    does not depend on it).

    >>> base = {"ndcg": {"q1": 0.50, "q2": 0.70, "q3": 0.65, "q4": 0.55, "q5": 0.40}}
    >>> runs = {"BM25": base,
    ...         "dense": {"ndcg": {"q1": 0.60, "q2": 0.72, "q3": 0.59, "q4": 0.59, "q5": 0.50}},
    ...         "same": base}
    >>> table = compare_many(runs, baseline="BM25", rng=1)
    >>> cell = table.cell("dense", "ndcg")
    >>> print(f"{cell.change:+.3f} [{cell.interval.low:+.3f}, {cell.interval.high:+.3f}] "
    ...       f"p = {cell.pvalue:.4f}, Holm {cell.adjusted:.4f}, up/down {cell.up}/{cell.down}")
    +0.040 [-0.012, +0.088] p = 0.3125, Holm 0.6250, up/down 4/1
    >>> same = table.cell("same", "ndcg")
    >>> same.change, tuple(same.interval), same.pvalue
    (0.0, (0.0, 0.0), 1.0)
    """
    runs, baseline, measures, settings, workers = _compare_many_iv(
        scores, baseline, rng, measures, family, correction, alpha, level, n_resamples,
        alternative, missing, qrels, min_queries, workers,
    )  # fmt: skip
    query_ids, by_measure, found = {}, {}, {}
    for m in measures:
        at = _alignment._check_made({f"run {r!r}": runs[r][m] for r in runs}, f"on {m!r}: ")
        query_ids[m], by_measure[m], found[m] = _align_many(
            {r: at[f"run {r!r}"] for r in runs}, baseline, m, settings["missing"], qrels
        )
        _enough_queries(len(query_ids[m]), settings["min_queries"])
    gaps = {r: {m: found[m][r] for m in measures} for r in runs}
    return _table(baseline, tuple(runs), query_ids, by_measure, gaps, settings, workers)


def _compare_many_iv(
    scores, baseline, rng, measures, family, correction, alpha, level, n_resamples,
    alternative, missing, qrels, min_queries, workers,
):  # fmt: skip
    """The runs as {name: {measure: checked RunScores}}, baseline, measures, settings, threads."""
    seed, n_resamples, alternative, _, min_queries = _compare_runs_iv(
        rng, n_resamples, level, alternative, 0, min_queries, False
    )
    family = _checks.one_of(family, "family", FAMILIES)
    correction = _checks.one_of(correction, "correction", CORRECTIONS)
    _checks.level(alpha, "alpha", "0.05")
    missing = _checks.one_of(missing, "missing", _alignment.MISSING_POLICIES)
    _alignment._optional_qrels(qrels)
    workers = (os.cpu_count() or 1) if workers is None else _checks.integer(workers, "workers")
    runs = _named_runs(scores)
    if str(baseline) not in runs:
        raise ValueError(
            f"baseline {baseline!r} is not one of the runs ({_checks.name_some(runs, 10)}); "
            "pass baseline= the name of the run the others are compared with."
        )
    baseline = str(baseline)
    runs = {name: _measures_of(name, by_measure) for name, by_measure in runs.items()}
    settings = dict(
        family=family, correction=correction, alpha=float(alpha), level=float(level),
        seed=seed, n_resamples=n_resamples, alternative=alternative, missing=missing,
        min_queries=min_queries,
    )  # fmt: skip
    return runs, baseline, _measure_names(runs, baseline, measures), settings, workers


def _named_runs(scores: object) -> dict[str, object]:
    """The runs by name from a mapping or (name, measures) pairs: two or more, named apart."""
    pairs = list(scores.items()) if isinstance(scores, Mapping) else scores
    listed = isinstance(pairs, Sequence) and not isinstance(pairs, str)
    if not listed or not all(isinstance(p, (tuple, list)) and len(p) == 2 for p in pairs):
        raise ValueError(
            "scores must map run name -> measure -> per-query scores, e.g. "
            "{'BM25': {'ndcg_cut_10': bm25_scores}, 'dense': {'ndcg_cut_10': dense_scores}}, or "
            f"be a list of (run name, {{measure: scores}}) pairs; got {type(scores).__name__}."
        )
    names = [str(name) for name, _ in pairs]
    if twice := sorted({n for n in names if names.count(n) > 1}):
        raise ValueError(
            f"two runs are named {twice[0]!r}; give each run its own name (the table and the "
            "record tell runs apart by name)."
        )
    if len(names) < 2:
        raise ValueError(
            f"compare_many needs the baseline and at least one other run; got {len(names)} run"
            f"{'' if len(names) == 1 else 's'} ({_checks.name_some(names)}). For one pair, "
            "compare_runs(a, b) gives the full report."
        )
    return {name: by_measure for name, (_, by_measure) in zip(names, pairs, strict=True)}


def _measures_of(name: str, by_measure: object) -> dict[str, RunScores]:
    """A run's measures as RunScores with checked float scores (errors name run, measure, query)."""
    if isinstance(by_measure, RunScores) or not isinstance(by_measure, Mapping):
        raise ValueError(
            f"run {name!r}: give a mapping measure -> per-query scores, e.g. "
            f"{{'ndcg_cut_10': scores}}; got {type(by_measure).__name__}."
        )
    out = {}
    for m, run in by_measure.items():
        where = f"run {name!r}, measure {m!r}"
        if not isinstance(run, (RunScores, Mapping)):
            raise ValueError(
                f"{where}: the scores must be a mapping query ID -> score or a RunScores (from "
                f"evaluate, read_trec_eval or read_scores_csv); got {type(run).__name__}."
            )
        made = (getattr(run, "made", None) or {}).get("measure", str(m))
        if trec_name(str(m)) != trec_name(made):
            raise ValueError(
                f"{where}: these scores were made with measure {made!r}, not {m!r}; put them "
                f"under {made!r}, or score the run with {m!r}."
            )
        # a real number, Python's or numpy's (True and False count as 1 and 0, as in _checks)
        scores, real = getattr(run, "scores", run), (numbers.Real, np.bool_)
        bad = [q for q, v in scores.items() if type(v) is not float and not isinstance(v, real)]
        if bad:
            raise ValueError(
                f"{where}: the score of query {bad[0]!r} is {scores[bad[0]]!r}, not a number; "
                "convert the scores to numbers (e.g. float(x)) before comparing."
            )
        run = _alignment._checked(run, f"{where}: the scores", f"{where}: no scored queries.")
        out[str(m)] = dataclasses.replace(run, measure=str(m))
    return out


def _measure_names(runs: dict[str, dict[str, RunScores]], baseline: str, measures: object) -> list:
    """The measures to compare (by default the baseline's), each scored for every run."""
    if measures is None:
        measures = list(runs[baseline])
        for name, by_measure in runs.items():
            if extra := [m for m in by_measure if m not in runs[baseline]]:
                raise ValueError(
                    f"run {name!r} has scores for {_checks.name_some(extra)}, which the baseline "
                    f"{baseline!r} has not; score the baseline on it too, or pass measures=[...] "
                    "to compare only the measures every run has."
                )
    elif isinstance(measures, str) or not isinstance(measures, Sequence) or not measures:
        raise ValueError(
            f"measures must be a list of measure names, e.g. ['ndcg_cut_10']; got {measures!r}."
        )
    else:
        measures = [str(m) for m in measures]
        if len(set(measures)) != len(measures):
            raise ValueError(f"measures names a measure twice: {measures}.")
    for name, by_measure in runs.items():
        if lacking := [m for m in measures if m not in by_measure]:
            raise ValueError(
                f"run {name!r} has no scores for measure {lacking[0]!r} (it has "
                f"{_checks.name_some(by_measure) or 'none'}); score it on {lacking[0]!r} too, or "
                "pass measures=[...] to compare only the measures every run has."
            )
    return measures


def _align_many(
    runs: dict[str, RunScores], baseline: str, measure: str, missing: str, qrels: Qrels | None
) -> tuple[tuple[str, ...], dict[str, np.ndarray], dict[str, list[str]]]:
    """Every run on one list of queries for ``measure`` (:func:`align_runs`' rules, each run
    against the baseline): the query IDs, each run's scores on them, and what each run lacks."""
    sets = []
    scored = {name: _alignment._retrieved(run) for name, run in runs.items()}  # nothing: missing
    base, gone = scored[baseline], runs[baseline].unretrieved or []
    for name, run in runs.items():
        if name == baseline:
            continue
        if qrels is None and scored[name].keys() == base.keys() and not (gone or run.unretrieved):
            sets.append(base.keys())
            continue
        try:
            gone_both = (gone, run.unretrieved or [])
            ids, *_ = _alignment._query_set(base, scored[name], missing, qrels, gone_both)
        except ValueError as err:
            raise ValueError(
                f"run {name!r} against the baseline {baseline!r} on {measure!r} (A is the "
                f"baseline, B the run): {err}"
            ) from None
        sets.append(set(ids))
    common = set(sets[0]).intersection(*sets[1:]) if missing == "drop" else set().union(*sets)
    if not common:
        raise ValueError(f"on {measure!r} no query is scored by every run (missing='drop').")
    ids = tuple(_checks.sorted_ids(common))
    # the queries any run scores, or the judged topics: what a run lacks of them was scored 0
    # (in the compared list) or made the others drop it
    universe = set().union(*(run.scores for run in runs.values()))
    universe |= set(qrels.judgments) if qrels is not None else set()
    arrays, gaps = {}, {}
    for name, s in scored.items():
        arrays[name] = np.array([s.get(q, 0.0) for q in ids])
        arrays[name].setflags(write=False)
        gaps[name] = [str(q) for q in _checks.sorted_ids(universe - set(s))]
    return tuple(str(q) for q in ids), arrays, gaps


def _table(
    baseline: str, runs: tuple[str, ...], query_ids: dict[str, tuple[str, ...]],
    scores: dict[str, dict[str, np.ndarray]], gaps: dict[str, dict[str, list[str]]],
    settings: dict[str, Any], workers: int,
) -> ManyRunsTable:  # fmt: skip
    """The cells, computed (in ``workers`` threads), adjusted and marked: the table."""
    candidates = tuple(r for r in runs if r != baseline)
    seed, n, level, alt = (settings[k] for k in ("seed", "n_resamples", "level", "alternative"))
    measures = tuple(query_ids)
    jobs = [(r, m) for m in measures for r in candidates]

    def one(job: tuple[str, str]) -> dict[str, Any]:
        """One run against the baseline on one measure, as ``compare_runs`` computes it."""
        run, m = job
        a, b = scores[m][baseline], scores[m][run]
        d = b - a
        interval, method, exact, _ = _query_interval(d, n, np.random.default_rng(seed), level)
        test, up, down, unchanged = _test_and_counts(d, None, seed, alt, n, null=False)  # p alone
        return dict(
            n_queries=int(d.size), baseline_mean=float(a.mean()), run_mean=float(b.mean()),
            change=float(d.mean()), interval=interval, interval_method=method,
            interval_exact=exact is not None, pvalue=float(test.pvalue),
            pvalue_exact=bool(test.exact), test_method=test.method,
            up=up, down=down, unchanged=unchanged,
        )  # fmt: skip

    if workers > 1 and len(jobs) > 1:
        with ThreadPoolExecutor(max_workers=min(workers, len(jobs))) as pool:
            found = list(pool.map(one, jobs))
    else:
        found = [one(j) for j in jobs]
    marks = _marks(jobs, np.array([f["pvalue"] for f in found]), measures[0], settings)
    cells = tuple(
        RunComparison(run=run, measure=m, **mark, **f)
        for (run, m), f, mark in zip(jobs, found, marks, strict=True)
    )
    return ManyRunsTable(
        cells=cells, baseline=baseline, runs=candidates, measures=measures, query_ids=query_ids,
        scores=scores, missing_queries={r: by_m for r, by_m in gaps.items() if any(by_m.values())},
        **settings,
    )  # fmt: skip


def _marks(
    jobs: list[tuple[str, str]], p: np.ndarray, primary: str, how: Mapping[str, Any]
) -> list[dict[str, Any]]:
    """Each cell's adjusted p-value, mark and family label, for the (run, measure) ``jobs`` with
    p-values ``p``, by ``how``'s family, correction and alpha: what :func:`compare_many` and
    :meth:`ManyRunsTable.corrected` set."""
    family, alpha = how["family"], how["alpha"]
    if family == "all":
        labels = ["all"] * len(jobs)
    elif family == "per measure":
        labels = [m for _, m in jobs]
    else:
        labels = ["primary" if m == primary else "secondary" for _, m in jobs]
    return [
        dict(adjusted=float(adj), marked=bool(adj <= alpha), family=label)
        for adj, label in zip(_adjust(p, labels, how["correction"]), labels, strict=True)
    ]


def _adjust(p: np.ndarray, labels: list[str], correction: str) -> np.ndarray:
    """The adjusted p-values: each family's by Holm or Bonferroni; under gatekeeping, a secondary
    cell's is at least the largest primary one (it is marked only if every primary cell is)."""
    lab = np.array(labels)
    adjusted = np.empty(p.size)
    for name in dict.fromkeys(labels):
        here = lab == name
        q = p[here]
        adjusted[here] = holm(q).adjusted if correction == "holm" else np.minimum(1.0, q * q.size)
    if "primary" in labels and "secondary" in labels:
        gate = adjusted[lab == "primary"].max()
        adjusted[lab == "secondary"] = np.maximum(adjusted[lab == "secondary"], gate)
    return adjusted


@dataclass(frozen=True)
class ManyRunsRecord:
    """Everything needed to recompute a :class:`ManyRunsTable`: the compared queries and every
    run's scores per measure, the settings (family, correction, seed...), the scores' SHA-256
    and the cells as computed, to check the recomputation against."""

    baseline: str
    runs: list[str]
    measures: list[str]
    settings: dict[str, Any]
    query_ids: dict[str, list[str]]
    scores: dict[str, dict[str, list[float]]]
    scores_sha256: str
    missing_queries: dict[str, dict[str, list[str]]]
    cells: list[dict[str, Any]]

    def to_dict(self) -> dict[str, Any]:
        return {"format": RECORD_FORMAT, "version": RECORD_VERSION, **dataclasses.asdict(self)}


def load_many_record(path: str | os.PathLike[str]) -> ManyRunsRecord:
    """Read a record written by :meth:`ManyRunsTable.save`, checking that it is complete and that
    its scores still have the hash they were saved with (errors name the file)."""
    fields = list(ManyRunsRecord.__dataclass_fields__)
    name, raw = kernels.read_record(
        path, RECORD_FORMAT, "many-runs", (RECORD_VERSION,), fields, column=False
    )
    record = ManyRunsRecord(**{k: raw[k] for k in fields})
    if _scores_hash(record.query_ids, record.scores) != record.scores_sha256:
        raise ValueError(
            f"{name}: the scores do not match the record's scores_sha256: they were changed "
            "after the table was saved. Recompute from the original scores."
        )
    return record


def recompute_many(record: ManyRunsRecord) -> ManyRunsTable:
    """Recompute the table of a record from its scores and settings, exactly (the same intervals,
    p-values and marks; Monte Carlo cells from the recorded seed).

    >>> base = {"m": {f"q{i}": v for i, v in enumerate([0.2, 0.4, 0.6, 0.8, 1.0])}}
    >>> other = {"m": {f"q{i}": v for i, v in enumerate([0.4, 0.4, 0.8, 1.0, 1.0])}}
    >>> table = compare_many({"A": base, "B": other}, baseline="A", rng=3)
    >>> again = recompute_many(table.to_record())
    >>> again.cells == table.cells
    True
    """
    query_ids = {m: tuple(record.query_ids[m]) for m in record.measures}
    scores = {
        m: {r: np.array(s, dtype=float) for r, s in record.scores[m].items()}
        for m in record.measures
    }
    return _table(
        record.baseline, tuple(record.runs), query_ids, scores, record.missing_queries,
        dict(record.settings), 1,
    )  # fmt: skip
