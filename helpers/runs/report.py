"""The whole comparison of two runs in one call: :func:`compare_runs` and its report (its largest
regressions are the teaching module's, from helpers/slices.py)."""

from __future__ import annotations

import html
import math
import os
import re
import textwrap
from collections.abc import Hashable, Mapping
from contextlib import suppress
from dataclasses import dataclass, field, replace

import numpy as np

from .. import _checks, kernels
from ..grid import exact_bootstrap_interval, find_grid
from ..intervals import Interval, percentile_interval
from ..records import METHOD, METHOD_CLUSTER, METHOD_EXACT, ComparisonRecord, save_record
from ..resampling import DEFAULT_MAX_ELEMENTS, ClusterTotals, cluster_totals, paired_bootstrap
from ..significance import ALTERNATIVES, MAX_EXACT_ASSIGNMENTS, SignificanceResult
from ..slices import QueryChange
from .alignment import AlignedRuns, _align_runs, _align_runs_iv
from .readers import Qrels, RunScores

__all__ = ["ComparisonReport", "compare_runs"]

#: What a record keeps of the test.
_TEST_KEYS = ("method", "alternative", "pvalue", "exact", "n_resamples")
#: The longest line of a printed report: it fits a notebook at 1280 px with the file browser open.
WIDTH = 88
#: One run has no result for "many more" compared queries than the other when the gap is at
#: least this many queries and this share of them (a few topics without results are normal).
LOPSIDED = (5, 0.05)


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
        """What to check first, or "": one run has no result (it retrieved nothing, or
        missing='zero' scored it 0) for ``LOPSIDED`` more compared queries than the other."""
        runs, ids = self.runs, set(self.runs.query_ids)
        none = {"A": {*runs.unretrieved_a}, "B": {*runs.unretrieved_b}}
        if runs.missing_policy == "zero":  # a query a run lacks was scored 0 too
            none["A"] |= {*runs.only_in_b, *runs.in_neither}
            none["B"] |= {*runs.only_in_a, *runs.in_neither}
        return _lopsided_text(len(ids), {side: ids & qs for side, qs in none.items()})

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
    if p[0] == "<" and not test.exact:
        how = f"a 95% upper bound, as none was as extreme; {how}"
    elif "±" in p:
        how = f"± one standard error; {how}"
    return f"p {'< ' + p[1:] if p[0] == '<' else '= ' + p} ({test.alternative}; {how})"


def _p_text(
    p: float, exact: bool = True, n: int = 0, adjusted: float | None = None, error: float = 0.0
) -> str:
    """A p-value as it is known, in every report and table (docs/your-own-runs.md): exact, or
    Monte Carlo ± its standard error (or "<3/n", a 95% upper bound, for 0 of n); ``adjusted``:
    that p adjusted, ± its ``error``."""
    shown = p if adjusted is None else adjusted
    if exact:
        return "<0.0001" if shown < 0.0001 else f"{shown:.4f}"
    if round(p * (n + 1)) == 1:  # none of the n resamples was as extreme: up to 4 decimals
        bound = 3 * round(shown / p, 9) / n  # the adjustment's factor, without rounding error
        return f"<{min(1.0, math.ceil(round(bound * 1e4, 6)) / 1e4):.4f}"
    error = math.sqrt(p * (1 - p) / n) if adjusted is None else error
    return f"{shown:.4f}" + (f"±{error:.4f}" if error or adjusted is None else "")


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
    seed, n_resamples, alternative, top, min_queries = _compare_runs_iv(
        rng, n_resamples, level, alternative, top, min_queries, monte_carlo_bootstrap
    )
    runs = _align_runs(*_align_runs_iv(a, b, missing, qrels, clusters))  # the compared queries
    _enough_queries(len(runs.query_ids), min_queries)
    d = runs.b - runs.a  # the per-query changes
    totals = None if runs.clusters is None else cluster_totals(d, runs.clusters)
    boot, interval, method, exact, source = _interval(
        d, totals, n_resamples, seed, level, monte_carlo_bootstrap
    )
    test, wins, losses, unchanged = _test_and_counts(d, totals, seed, alternative, n_resamples)
    worst = kernels.largest_regressions(runs.a, runs.b, runs.query_ids, top, runs.slices)
    return ComparisonReport(
        runs=runs,
        measure=next((r.measure for r in (a, b) if isinstance(r, RunScores) and r.measure), ""),
        mean_a=float(runs.a.mean()), mean_b=float(runs.b.mean()), mean_change=float(d.mean()),
        interval=interval, interval_method=method, test=test, bootstrap=boot,
        wins=wins, losses=losses, unchanged=unchanged,
        largest_regressions=worst,
        seed=seed, n_resamples=n_resamples, level=float(level),
        config=_config(runs, a, b, qrels, min_queries), interval_exact=exact,
        bootstrap_source=source,
    )  # fmt: skip


def _test_and_counts(
    d: np.ndarray, totals: ClusterTotals | None, seed: int, alternative: str, n_resamples: int,
    null: bool = True,
) -> tuple[SignificanceResult, int, int, int]:  # fmt: skip
    """The randomization test of the changes ``d`` (with ``totals``, of each user's total change;
    Monte Carlo, where no exact test exists, from a stream spawned from the seed) and the counts up,
    down and the same. ``null=False``: on the grid, the p-value alone (no inverse FFT)."""
    stream = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    x = d if totals is None else totals.sums  # the changes flipped
    nonzero, test = x[x != 0], None  # (enumerating all sign assignments builds the null anyway)
    grid = None if null or 2**nonzero.size <= MAX_EXACT_ASSIGNMENTS else find_grid(nonzero)
    with suppress(ValueError):  # a grid too fine for the memory limit: the test below says so
        test = kernels.grid_tails(x, grid, float(np.mean(x)), alternative)[0] if grid else None
    test = test or kernels.randomization_test(x, stream, alternative, n_resamples)
    if totals is not None:  # statistics rescaled to mean changes over queries: p is unchanged
        means = test.null_distribution * (len(totals.labels) / d.size)
        means.flags.writeable = False
        method = test.method + ", flipping each user's total change"
        test = replace(test, statistic=float(d.mean()), null_distribution=means, method=method)
    return test, int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())


def _compare_runs_iv(rng, n_resamples, level, alternative, top, min_queries, monte_carlo_bootstrap):
    """The checked seed, B, alternative, top and min_queries (the level checked too)."""
    seed = _checks.seed(rng, why=" seed here, so that the report can record it and be recomputed")
    n_resamples = _checks.integer(n_resamples, "n_resamples")
    _checks.level(level)
    alternative = _checks.one_of(alternative, "alternative", ALTERNATIVES)
    top = _checks.integer(top, "top", minimum=0)
    min_queries = _checks.integer(min_queries, "min_queries")
    _checks.boolean(monte_carlo_bootstrap, "monte_carlo_bootstrap")
    return seed, n_resamples, alternative, top, min_queries


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
    monte_carlo_bootstrap: bool,
) -> tuple[np.ndarray, Interval, str, bool, str]:  # fmt: skip
    """The values for the plot, the interval, how it was computed, whether it is exact, and what
    the values for the plot are."""
    rng = np.random.default_rng(seed)
    source = f"{n_resamples:,} Monte Carlo resamples"
    if totals is not None:
        boot = kernels.cluster_bootstrap(totals, "query", n_resamples, rng, DEFAULT_MAX_ELEMENTS)
        method = f"user-cluster bootstrap, {len(totals.labels)} users resampled whole"
        return boot, percentile_interval(boot, level), method, False, source
    interval, method, exact, boot = _query_interval(d, n_resamples, rng, level)
    if exact is not None and monte_carlo_bootstrap:
        boot = paired_bootstrap(d, n_resamples=n_resamples, rng=rng)
    elif exact is not None:
        p = exact.distribution.probabilities  # the distribution the interval was read from
        boot = rng.choice(exact.distribution.values, size=n_resamples, p=p / p.sum())
        source = f"{n_resamples:,} draws from the exact bootstrap distribution"
    return boot, interval, method, exact is not None, source


def _query_interval(
    d: np.ndarray, n_resamples: int, rng: np.random.Generator, level: float
) -> tuple[Interval, str, object, np.ndarray | None]:
    """The paired bootstrap interval over queries (exact where it can be, else ``n_resamples``
    draws from ``rng``), how it was computed, the exact result or None, the draws or None."""
    method = "paired bootstrap over queries"
    try:
        exact = exact_bootstrap_interval(d, level)
    except ValueError:  # on no grid, or a grid too fine: a Monte Carlo interval
        boot = paired_bootstrap(d, n_resamples=n_resamples, rng=rng)
        method += " (Monte Carlo: no exact interval for these scores)"
        return percentile_interval(boot, level), method, None, boot
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
