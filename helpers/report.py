"""One call for the whole comparison of two runs: :func:`compare_runs`.

It lines the runs up by query ID, computes the mean change, a bootstrap
interval (paired, or resampling whole users when clusters are given), a paired
randomization test, the win/loss/tie counts and the largest regressions, and
keeps the seed and settings so that the comparison can be saved and recomputed.
"""

from __future__ import annotations

import html
import numbers
import os
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field

import numpy as np

from .intervals import Interval, _check_level, percentile_interval
from .records import ComparisonRecord, save_record
from .resampling import cluster_bootstrap, cluster_totals, paired_bootstrap
from .runs import AlignedRuns, RunScores, align_runs
from .significance import MAX_EXACT_ASSIGNMENTS, SignificanceResult, randomization_test

__all__ = ["ComparisonReport", "compare_runs"]


@dataclass
class ComparisonReport:
    """What :func:`compare_runs` found, with everything needed to repeat it.

    Renders as a table in a notebook and as plain text with ``print``;
    :meth:`to_record` and :meth:`save` keep it as a JSON comparison record.
    """

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
    ties: int
    largest_regressions: list[tuple[str, float, float, float]]
    seed: int
    n_resamples: int
    level: float
    n_clusters: int | None = None
    config: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"ComparisonReport(measure={self.measure!r}, n_queries={self.n_queries}, mean_change={self.mean_change:+.6g}, "
            f"interval=[{self.interval.low:+.6g}, {self.interval.high:+.6g}], pvalue={self.test.pvalue:.6g}, seed={self.seed})"
        )

    @property
    def n_queries(self) -> int:
        return len(self.runs.query_ids)

    @property
    def relative_change(self) -> float:
        """Mean change as a fraction of A's mean (``nan`` when A's mean is 0)."""
        return self.mean_change / self.mean_a if self.mean_a else float("nan")

    def _rows(self) -> list[tuple[str, str]]:
        pct = f"{self.level:.0%}"
        test = self.test
        rows = [
            ("measure", self.measure or "(unnamed)"),
            ("queries compared", self.runs.summary()),
            ("mean A, mean B", f"{self.mean_a:.4f}, {self.mean_b:.4f}"),
            ("mean change B - A", f"{self.mean_change:+.4f} ({self.relative_change:+.2%} of A)"),
            (f"{pct} interval", f"[{self.interval.low:+.4f}, {self.interval.high:+.4f}]  {self.interval_method}"),
            ("randomization test", f"p = {test.pvalue:.4f} ({test.alternative}; {'exact' if test.exact else 'Monte Carlo'}, {test.count:,} of {test.n_resamples:,})"),
            ("B better / worse / tied", f"{self.wins} / {self.losses} / {self.ties}"),
        ]
        if self.largest_regressions:
            worst = ", ".join(f"{q} ({d:+.4f})" for q, _, _, d in self.largest_regressions)
            rows.append(("largest regressions", worst))
        rows.append(("settings", f"seed {self.seed}, B = {self.n_resamples:,} resamples, level {self.level}"))
        return rows

    def __str__(self) -> str:
        rows = self._rows()
        width = max(len(k) for k, _ in rows)
        return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)

    def _repr_html_(self) -> str:
        body = "".join(
            f"<tr><th style='text-align:left'>{html.escape(k)}</th><td style='text-align:left'>{html.escape(v)}</td></tr>"
            for k, v in self._rows()
        )
        return f"<table>{body}</table>"

    def to_record(self) -> ComparisonRecord:
        """The comparison as a JSON-ready record (see :mod:`helpers.records`)."""
        extra = {
            "test": {
                "method": self.test.method,
                "alternative": self.test.alternative,
                "pvalue": self.test.pvalue,
                "exact": self.test.exact,
                "n_resamples": self.test.n_resamples,
            },
            "interval_method": self.interval_method,
            **self.config,
        }
        if self.runs.clusters is not None:
            extra["clusters"] = list(self.runs.clusters)
        return ComparisonRecord(
            query_ids=list(self.runs.query_ids),
            scores_a=self.runs.a.tolist(),
            scores_b=self.runs.b.tolist(),
            seed=self.seed,
            n_resamples=self.n_resamples,
            level=self.level,
            interval=(self.interval.low, self.interval.high),
            metric=self.measure,
            extra=extra,
        )

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write :meth:`to_record` as JSON."""
        save_record(self.to_record(), path)


def _check_seed(rng: object) -> int:
    if isinstance(rng, bool) or not isinstance(rng, numbers.Integral) or rng < 0:
        raise ValueError(
            f"rng must be a non-negative int seed here, so that the report can record it and be recomputed; got {rng!r}."
        )
    return int(rng)


def compare_runs(
    a: RunScores | Mapping[Hashable, float],
    b: RunScores | Mapping[Hashable, float],
    *,
    clusters: Mapping[Hashable, Hashable] | None = None,
    n_resamples: int = 10_000,
    rng: int,
    level: float = 0.95,
    missing: str = "error",
    alternative: str = "two-sided",
    top: int = 5,
) -> ComparisonReport:
    """Compare run B with run A on their queries, in one call.

    Parameters
    ----------
    a, b : RunScores or mapping of query ID to score
        Baseline A and candidate B, e.g. from :func:`helpers.read_trec_eval`.
    clusters : mapping of query ID to user (cluster), optional
        When given, the interval resamples whole users (query-weighted mean
        change, :func:`helpers.cluster_bootstrap`) and the randomization test flips
        the sign of each user's total change. Clusters carried by the runs
        (CSV input) are used when this is omitted.
    n_resamples : int
        B, for the bootstrap and (when exact enumeration is too large) the
        Monte Carlo randomization test.
    rng : int
        Seed. The interval is exactly what ``paired_bootstrap(d, B, rng=seed)``
        (or ``cluster_bootstrap``) gives; a Monte Carlo test uses an independent
        stream spawned from the same seed.
    level : float
        Confidence level.
    missing : {"error", "drop", "zero"}
        Policy for queries scored in one run only (see :func:`helpers.align_runs`).
    alternative : {"two-sided", "greater", "less"}
        For the randomization test.
    top : int
        How many of the largest regressions to list.

    Returns
    -------
    ComparisonReport

    Examples
    --------
    >>> a = {"q1": 0.50, "q2": 0.70, "q3": 0.65, "q4": 0.55}
    >>> b = {"q1": 0.60, "q2": 0.72, "q3": 0.59, "q4": 0.59}
    >>> report = compare_runs(a, b, n_resamples=2000, rng=1)
    >>> print(f"{report.mean_change:+.3f}, p = {report.test.pvalue:.3f}, worst: {report.largest_regressions[0][0]}")
    +0.025, p = 0.625, worst: q3
    """
    seed = _check_seed(rng)
    _check_level(level)
    if isinstance(top, bool) or not isinstance(top, numbers.Integral) or top < 0:
        raise ValueError(f"top must be a non-negative integer; got {top!r}.")
    runs = align_runs(a, b, missing=missing)
    if clusters is not None:
        if not isinstance(clusters, Mapping):
            raise ValueError(
                f"clusters must map each query ID to its user, e.g. {{'q1': 'U1', 'q2': 'U1'}}; got {type(clusters).__name__}. "
                "(Runs are lined up by sorted query ID, so a plain list of users has no reliable order.)"
            )
        missing_users = [q for q in runs.query_ids if q not in clusters]
        if missing_users:
            raise ValueError(f"clusters has no user for {len(missing_users)} compared queries, e.g. {missing_users[:5]}.")
        runs.clusters = [clusters[q] for q in runs.query_ids]
    d = runs.b - runs.a
    test_stream = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])

    if runs.clusters is not None:
        totals = cluster_totals(d, runs.clusters)
        n_clusters = len(totals.labels)
        boot = cluster_bootstrap(d, runs.clusters, n_resamples, rng=seed, weighting="query")
        method = f"user-cluster bootstrap, {n_clusters} users resampled whole"
        flip_units = totals.sums
    else:
        n_clusters = None
        boot = paired_bootstrap(d, n_resamples, rng=seed)
        method = "paired bootstrap over queries"
        flip_units = d
    k = int(np.count_nonzero(flip_units))
    exact = 2**k <= MAX_EXACT_ASSIGNMENTS
    test = randomization_test(
        flip_units, None if exact else n_resamples, rng=None if exact else test_stream, alternative=alternative
    )
    if runs.clusters is not None:
        # The test ran on user totals: its statistic was the mean of the signed totals.
        # Rescale to the mean change over queries (sum of signed totals / Q); p is unchanged.
        null = test.null_distribution * (n_clusters / d.size)
        null.flags.writeable = False
        test = SignificanceResult(
            statistic=float(d.mean()),
            pvalue=test.pvalue,
            null_distribution=null,
            exact=test.exact,
            n_resamples=test.n_resamples,
            count=test.count,
            alternative=test.alternative,
            method=test.method + ", flipping each user's total change",
        )
    order = np.argsort(d, kind="stable")[: int(top)]
    regressions = [(runs.query_ids[i], float(runs.a[i]), float(runs.b[i]), float(d[i])) for i in order if d[i] < 0]
    name = next((r.measure for r in (a, b) if isinstance(r, RunScores) and r.measure), "")
    config = {
        "missing_policy": runs.missing_policy,
        "only_in_a": runs.only_in_a,
        "only_in_b": runs.only_in_b,
        "sources": [r.source for r in (a, b) if isinstance(r, RunScores)],
    }
    return ComparisonReport(
        runs=runs,
        measure=name,
        mean_a=float(runs.a.mean()),
        mean_b=float(runs.b.mean()),
        mean_change=float(d.mean()),
        interval=percentile_interval(boot, level),
        interval_method=method,
        test=test,
        bootstrap=boot,
        wins=int((d > 0).sum()),
        losses=int((d < 0).sum()),
        ties=int((d == 0).sum()),
        largest_regressions=regressions,
        seed=seed,
        n_resamples=int(n_resamples),
        level=float(level),
        n_clusters=n_clusters,
        config=config,
    )
