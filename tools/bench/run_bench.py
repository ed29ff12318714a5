"""The series' benchmark: the helpers side by side with what a user would otherwise use.

Run with ``make bench`` (add ``BENCH_ARGS=--update-docs`` to write the table
into docs/benchmarks.md; ``--update-readme`` is the old name of the flag).
Every row is a median over repetitions, measured in this one run on the same
data; ratios between rows are what carry over to other machines, not the seconds.
Not collected by the test suite: tests never fail on time.

Tuning notes (moved here from helpers/resampling.py, which now reads as the idea first):

* Chunk size, ``helpers.resampling.DEFAULT_MAX_ELEMENTS = 2**16`` indices (512 KiB of
  int64). Each chunk allocates its index matrix and the gathered changes afresh; how
  much that costs depends on whether the allocator serves them from memory it already
  has or maps (and page-faults) fresh pages. On 2026-11-30, on this series' 2-core AMD
  EPYC, with the paired bootstrap timed alternately with the random-number floor (the
  same draws, nothing else), Q = 120, R = 10,000: 2**13 indices 2.30x the floor, 2**14
  1.95x, 2**15 1.62x, 2**16 1.46x, 2**18 (the earlier default, 2 MiB) 3.80x; Q = 1,000:
  2.31x, 1.88x, 1.63x, 1.49x and 3.73x. (In an earlier session 2 MiB chunks had measured
  1.54x, against 17 ms for 16 MiB chunks: the allocator's state moves these numbers, which
  is why the bench alternates the two and reports the median ratio.) The result does not
  depend on the chunk size: ``_in_chunks`` draws from the stream in the same order as one
  big draw.
* The statistic: ``np.take(d, idx).sum(axis=1) / Q`` is bit for bit
  ``d[idx].mean(axis=1)`` (numpy's mean is the same pairwise sum, then one division)
  and about 30% faster on that step (0.26 against 0.38 ms per 2 MiB chunk at
  Q = 120); the draw ``rng.integers`` dominates, so paired_bootstrap shows the
  readable ``d[idx].mean(axis=1)``, at a cost of roughly a tenth of its time.
* Exact enumeration limits: ``MAX_EXACT_MULTISETS = 1,000,000`` count vectors is
  about a second and a few tens of MB (any 11 distinct changes fit, 352,716
  multisets; 12 need 1,352,078); ``MAX_ENUMERATE_N = 7`` (7**7 = 823,543 rows, 46 MB;
  8**8 would take over 1 GB).
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np
import scipy
from scipy import stats

import helpers

ROOT = Path(__file__).resolve().parents[2]
R = 10_000
# A Monte Carlo p-value agrees with an exact one to the third decimal when its standard error
# is half a unit of that decimal (bench_grid: the exact test's fair Monte Carlo competitor).
SE_AGREE = 0.0005


def timed(fn, repeat: int, *, warmed: bool = False) -> float:
    """Median wall time of ``repeat`` calls (after one warm-up call when repeat > 1, unless the
    caller has ``warmed`` fn up already)."""
    if repeat > 1 and not warmed:
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def loop_bootstrap(changes: list[float], n_resamples: int, stream: random.Random) -> list[float]:
    """Chapter 1's plain-Python loop (the source material's computation)."""
    n = len(changes)
    means = []
    for _ in range(n_resamples):
        picks = [stream.randrange(n) for _ in range(n)]
        means.append(sum(changes[i] for i in picks) / n)
    return means


def rng_floor(n: int, n_resamples: int) -> None:
    """Draw the same indices as paired_bootstrap (same generator and chunks), and nothing else."""
    gen = np.random.default_rng(1)
    rows = max(1, helpers.resampling.DEFAULT_MAX_ELEMENTS // n)
    for start in range(0, n_resamples, rows):
        gen.integers(0, n, size=(min(rows, n_resamples - start), n))


def scipy_bootstrap(
    a: np.ndarray, b: np.ndarray, n_resamples: int, batch: int | None = None
) -> None:
    stats.bootstrap(
        (a, b),
        lambda x, y, axis=-1: np.mean(y - x, axis=axis),
        paired=True,
        vectorized=True,
        n_resamples=n_resamples,
        method="percentile",
        batch=batch,
        rng=np.random.default_rng(1),
    )


def scipy_sign_flip(d: np.ndarray, n_resamples: float) -> None:
    stats.permutation_test(
        (d,),
        lambda x, axis=-1: np.mean(x, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=n_resamples,
        batch=2**16,
        rng=np.random.default_rng(1),
    )


class Table:
    def __init__(self) -> None:
        self.rows: list[tuple[str, str, str, str]] = []

    def add(self, task: str, method: str, seconds: float | None, note: str = "") -> None:
        shown = (
            ""
            if seconds is None
            else (f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s")
        )
        self.rows.append((task, method, shown, note))
        print(f"  {task:<40} {method:<44} {shown:>10}  {note}", flush=True)

    def markdown(self) -> str:
        lines = ["| task | method | median time | ratio / note |", "|---|---|---|---|"]
        lines += [f"| {t} | {m} | {s} | {n} |" for t, m, s, n in self.rows]
        return "\n".join(lines)


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def ratio(x: float, y: float) -> str:
    r = x / y
    return f"{r:.2f}x" if r >= 0.01 else f"{r:.1e}x"


def paired_timings(ours, floor, pairs: int) -> tuple[float, float, float]:
    """Time ``ours`` and ``floor`` alternately, ``pairs`` times.

    Returns (median ours, median floor, median ratio).

    Alternating keeps slow drifts of the machine (other load, clock speed, the
    allocator's state) out of the ratio, which is what the target is about.
    """
    ours(), floor()
    t_ours, t_floor = [], []
    for _ in range(pairs):
        t_ours.append(timed(ours, 1))
        t_floor.append(timed(floor, 1))
    ratios = [o / f for o, f in zip(t_ours, t_floor, strict=True)]
    return statistics.median(t_ours), statistics.median(t_floor), statistics.median(ratios)


def bench_paired_bootstrap(table: Table, targets: list[str], quick: bool) -> None:
    for n in (120, 1_000, 100_000):
        rng = np.random.default_rng(n)
        a = rng.random(n)
        b = np.clip(a + rng.normal(0.01, 0.1, n), 0, 1)
        d = b - a
        task = f"paired bootstrap, Q = {n:,}, R = 10,000"
        pairs = 3 if n == 100_000 else (5 if quick else 15)
        ours, floor, r_floor = paired_timings(
            lambda d=d: helpers.paired_bootstrap(d, n_resamples=R, rng=1),
            lambda n=n: rng_floor(n, R),
            pairs,
        )
        table.add(task, "helpers.paired_bootstrap", ours, "1.00x")
        table.add(
            task,
            "random-number floor (indices only)",
            floor,
            f"ours / floor = {r_floor:.2f}x (median of {pairs} alternating pairs)",
        )
        sp = timed(
            lambda a=a, b=b, n=n: scipy_bootstrap(a, b, R, batch=None if n < 100_000 else 100),
            1 if n >= 1_000 else 5,
        )
        table.add(
            task,
            "scipy.stats.bootstrap (percentile, paired)",
            sp,
            f"ours / scipy = {ratio(ours, sp)}",
        )
        targets.append(
            f"paired_bootstrap vs scipy at Q = {n:,}: {ratio(ours, sp)} (target <= 1.00x): "
            f"{met(ours <= sp)}"
        )
        targets.append(
            f"paired_bootstrap vs random-number floor at Q = {n:,}: {r_floor:.2f}x (target <= "
            f"2x): {met(r_floor <= 2)}"
        )
        changes = d.tolist()
        if n == 120:
            loop = timed(
                lambda c=changes: loop_bootstrap(c, R, random.Random(7)), 1 if quick else 3
            )
            table.add(
                task, "plain Python loop (chapter 1)", loop, f"loop / ours = {loop / ours:.0f}x"
            )
            targets.append(
                f"paired_bootstrap vs the plain loop at Q = 120: {loop / ours:.0f}x faster "
                f"(target >= 30x): {met(loop >= 30 * ours)}"
            )
        else:
            few = 100 if n == 1_000 else 5
            loop = (
                timed(lambda c=changes, k=few: loop_bootstrap(c, k, random.Random(7)), 1) * R / few
            )
            table.add(
                task,
                "plain Python loop (chapter 1)",
                loop,
                f"loop / ours = {loop / ours:.0f}x (timed on {few} resamples, scaled)",
            )


def bench_peak_memory(table: Table, targets: list[str]) -> None:
    d = np.random.default_rng(0).normal(size=100_000)
    tracemalloc.start()
    chunked = helpers.paired_bootstrap(d, n_resamples=R, rng=3)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    table.add(
        "peak memory, Q = 100,000, R = 10,000",
        "helpers.paired_bootstrap (chunked)",
        None,
        f"{peak / 2**20:.0f} MiB traced peak",
    )
    whole_gib = 100_000 * R * 8 / 2**30
    table.add(
        "peak memory, Q = 100,000, R = 10,000",
        "one index matrix, unchunked",
        None,
        f"{whole_gib:.1f} GiB for the indices alone",
    )
    same = np.array_equal(
        chunked[:500],
        helpers.resampling._paired_bootstrap(d, 500, np.random.default_rng(3), 100_000 * 500),
    )
    targets.append(
        f"peak memory of paired_bootstrap at Q = 100,000, R = 10,000: {peak / 2**20:.0f} MiB "
        f"(target < 300 MB): {met(peak < 300e6)}; first 500 resamples identical to one unchunked "
        f"draw: {same}"
    )


def bench_randomization(table: Table, targets: list[str], quick: bool) -> None:
    d20 = np.random.default_rng(20).normal(0.01, 0.1, 20)
    exact = timed(lambda: helpers.randomization_test(d20), 1 if quick else 3)
    sp_exact = timed(lambda: scipy_sign_flip(d20, np.inf), 1)
    task = "randomization test, exact, Q = 20 (2^20 signs)"
    table.add(task, "helpers.randomization_test", exact, "1.00x")
    table.add(
        task,
        "scipy.stats.permutation_test (samples)",
        sp_exact,
        f"ours / scipy = {ratio(exact, sp_exact)}",
    )
    targets.append(
        f"randomization_test exact at Q = 20: {exact * 1000:.1f} ms (target < 1 s): "
        f"{met(exact < 1)}"
    )
    d1000 = np.random.default_rng(1000).normal(0.01, 0.1, 1_000)
    mc = timed(lambda: helpers.randomization_test(d1000, n_resamples=R, rng=1), 1 if quick else 3)
    sp_mc = timed(lambda: scipy_sign_flip(d1000, R), 1 if quick else 3)
    task = "randomization test, Monte Carlo, Q = 1,000, R = 10,000"
    table.add(task, "helpers.randomization_test", mc, "1.00x")
    table.add(
        task, "scipy.stats.permutation_test (samples)", sp_mc, f"ours / scipy = {ratio(mc, sp_mc)}"
    )
    targets.append(
        f"randomization_test Monte Carlo vs scipy at Q = 1,000: {ratio(mc, sp_mc)} (target <= "
        f"1.00x): {met(mc <= sp_mc)}"
    )


def bench_exact_and_cluster(table: Table, quick: bool) -> None:
    a, b = helpers.hit_at_5_example()
    t = timed(lambda: helpers.exact_bootstrap_distribution(b - a), 3 if quick else 7)
    table.add(
        "exact bootstrap distribution, 120 hit@5 queries",
        "helpers.exact_bootstrap_distribution",
        t,
        "7,381 count vectors",
    )
    rng = np.random.default_rng(5)
    users = np.repeat(np.arange(1_000), 10)
    d = rng.normal(0, 0.1, 1_000)[users] + rng.normal(0.01, 0.1, users.size)
    t = timed(lambda: helpers.cluster_bootstrap(d, users, n_resamples=R, rng=1), 3 if quick else 7)
    table.add(
        "cluster bootstrap, 1,000 users x 10 queries, R = 10,000",
        "helpers.cluster_bootstrap",
        t,
        "",
    )


def traced_peak(fn) -> int:
    """Peak traced allocation (bytes) of one call of ``fn``."""
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def four_decimal_changes(q: int, seed: int) -> np.ndarray:
    """Changes of two runs scored as trec_eval prints them (four decimals)."""
    rng = np.random.default_rng(seed)
    a = np.round(rng.uniform(0, 1, q), 4)
    b = np.round(np.clip(a + rng.normal(0.01, 0.1, q), 0, 1), 4)
    return b - a


def bench_grid(table: Table, targets: list[str], quick: bool) -> None:
    """Exact answers on the score grid (issue 18), as ratios to this run's Monte Carlo methods."""
    pairs = 5 if quick else 15
    d = four_decimal_changes(100, 100)
    task = "exact on the grid, Q = 100, four decimals"
    res = helpers.randomization_test(d)
    # The question: what does the exact answer cost against a Monte Carlo run precise enough
    # to agree with it? Monte Carlo's standard error is sqrt(p(1 - p) / R); the R that makes
    # it SE_AGREE at the exact p is the fair competitor. R = 10,000 is not: at this p its
    # standard error is larger than a unit of the third decimal, so it checks nothing there.
    r_agree = math.ceil(res.pvalue * (1 - res.pvalue) / SE_AGREE**2)
    ours, mc, r = paired_timings(
        lambda: helpers.randomization_test(d),
        lambda: helpers.randomization_test(d, n_resamples=r_agree, rng=1),
        pairs,
    )
    table.add(
        task,
        "helpers.randomization_test (exact, grid DP)",
        ours,
        f"p = {res.pvalue:.4f}; ours / Monte Carlo at standard error {SE_AGREE} = {r:.2f}x "
        f"(median of {pairs} pairs)",
    )
    table.add(
        task,
        f"helpers.randomization_test, Monte Carlo R = {r_agree:,}",
        mc,
        f"p = {helpers.randomization_test(d, n_resamples=r_agree, rng=1).pvalue:.4f}; "
        f"the R whose standard error sqrt(p(1 - p) / R) at the exact p is {SE_AGREE}",
    )
    table.add(
        task,
        "helpers.randomization_test, Monte Carlo R = 10,000",
        timed(lambda: helpers.randomization_test(d, n_resamples=R, rng=1), 3 if quick else 7),
        f"p = {helpers.randomization_test(d, n_resamples=R, rng=1).pvalue:.4f}; standard error "
        f"{math.sqrt(res.pvalue * (1 - res.pvalue) / R):.4f} at the exact p: too coarse to agree "
        "with it to three decimals",
    )
    targets.append(
        "exact randomization test vs a Monte Carlo run precise enough to agree with it to three "
        f"decimals (standard error {SE_AGREE} at the exact p = {res.pvalue:.4f}: R = "
        f"{r_agree:,}) at Q = 100, four decimals: {r:.2f}x (target <= 1.00x): {met(r <= 1)}"
    )
    iv = helpers.exact_bootstrap_interval(d)
    mc_iv = helpers.percentile_interval(helpers.paired_bootstrap(d, n_resamples=R, rng=1))
    ours, mc, r = paired_timings(
        lambda: helpers.exact_bootstrap_interval(d),
        lambda: helpers.percentile_interval(helpers.paired_bootstrap(d, n_resamples=R, rng=1)),
        pairs,
    )
    dist = helpers.grid_bootstrap_distribution(d)
    table.add(
        task,
        "helpers.exact_bootstrap_interval (FFT)",
        ours,
        f"[{iv.low:+.4f}, {iv.high:+.4f}], {dist.values.size:,} values, FFT {dist.n_points:,} "
        f"points, error bound {dist.error_bound:.0e}; ours / Monte Carlo = {r:.2f}x",
    )
    table.add(
        task,
        "paired_bootstrap R = 10,000 + percentile_interval",
        mc,
        f"[{mc_iv.low:+.4f}, {mc_iv.high:+.4f}]",
    )
    targets.append(
        "exact bootstrap interval vs paired_bootstrap R = 10,000 at Q = 100, four decimals: "
        f"{r:.2f}x (target <= 1.00x): {met(r <= 1)}"
    )
    peak_test = traced_peak(lambda: helpers.randomization_test(d))
    peak_iv = traced_peak(lambda: helpers.exact_bootstrap_interval(d))
    table.add(
        task,
        "peak memory (traced), exact test / exact interval",
        None,
        f"{peak_test / 2**20:.1f} MiB / {peak_iv / 2**20:.1f} MiB",
    )

    rng = np.random.default_rng(10_000)
    hits = (rng.integers(0, 2, 10_000) - rng.integers(0, 2, 10_000)).astype(float)
    task = "exact on the grid, hit@k, Q = 10,000"
    t_test = timed(lambda: helpers.randomization_test(hits), 3 if quick else 7)
    t_iv = timed(lambda: helpers.exact_bootstrap_interval(hits), 3 if quick else 7)
    res, iv = helpers.randomization_test(hits), helpers.exact_bootstrap_interval(hits)
    t_mc = timed(lambda: helpers.randomization_test(hits, n_resamples=R, rng=1), 3)
    t_pb = timed(lambda: helpers.paired_bootstrap(hits, n_resamples=R, rng=1), 3)
    table.add(task, "helpers.randomization_test (exact, grid DP)", t_test, f"p = {res.pvalue:.4f}")
    table.add(
        task, "helpers.exact_bootstrap_interval (FFT)", t_iv, f"[{iv.low:+.4f}, {iv.high:+.4f}]"
    )
    table.add(
        task,
        "Monte Carlo R = 10,000: randomization_test / paired_bootstrap",
        t_mc + t_pb,
        f"{t_mc * 1000:.0f} ms + {t_pb * 1000:.0f} ms",
    )
    peak = max(
        traced_peak(lambda: helpers.randomization_test(hits)),
        traced_peak(lambda: helpers.exact_bootstrap_interval(hits)),
    )
    table.add(task, "peak memory (traced), larger of the two", None, f"{peak / 2**20:.1f} MiB")
    targets.append(
        f"hit@k at Q = 10,000, both exact: test {t_test * 1000:.0f} ms, interval "
        f"{t_iv * 1000:.0f} ms (target < 1 s each): {met(max(t_test, t_iv) < 1)}"
    )

    fine = np.round(
        np.random.default_rng(6).uniform(-1, 1, 400), 6
    )  # six decimals over [-1, 1]: too fine for the bound
    t_fb = timed(lambda: helpers.randomization_test(fine, rng=1), 3)
    fb = helpers.randomization_test(fine, rng=1)
    table.add(
        "grid too fine, Q = 400, six decimals over [-1, 1]",
        "helpers.randomization_test(d, rng=1): Monte Carlo fallback",
        t_fb,
        f"exact: {fb.exact}; {fb.n_resamples:,} resamples; the method says why: "
        f"{fb.method.split('not exact: ', 1)[-1].rstrip(')')}",
    )
    bound = helpers.MAX_GRID_POINTS
    targets.append(
        f"memory of the exact grid methods: bounded by MAX_GRID_POINTS = {bound:,} points, i.e. "
        f"at most {2 * bound * 8 / 2**20:.0f} MiB for the "
        f"sign-flip DP (its array and one copy) and about {40 * bound / 2**20:.0f} MiB for the "
        "FFT bootstrap; measured peaks above: "
        f"{max(peak_test, peak_iv, peak) / 2**20:.1f} MiB (target: bounded and stated): met"
    )


def sign_flip_floor(d: np.ndarray, n_resamples: int, max_signs: int) -> None:
    """The random-bit floor of a Monte Carlo randomization test: draw R x Q random bits (in the
    test's chunks) and make one pass summing the Q changes per resample, nothing else."""
    gen = np.random.default_rng(1)
    words = -(-d.size // 64)
    rows = max(1, max_signs // (64 * words))
    for start in range(0, n_resamples, rows):
        k = min(rows, n_resamples - start)
        gen.integers(0, 2**64 - 1, size=(k, words), dtype=np.uint64, endpoint=True)
        np.add.reduce(np.broadcast_to(d, (k, d.size)), axis=1)


def integer_signs(d: np.ndarray, n_resamples: int) -> None:
    """The Monte Carlo sign flips before issue 26: each sign a 64-bit integer from range(2)."""
    helpers.resample(
        2,
        lambda idx: np.where(idx == 1, -d, d).sum(axis=1) / d.size,
        n_resamples=n_resamples,
        rng=1,
        draws=d.size,
    )


def reciprocal_ranks(q: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """RR@10 of two runs on q queries, MS MARCO-like: 0 when nothing relevant is in the top 10."""
    rng = np.random.default_rng(seed)

    def ranks() -> np.ndarray:
        r = np.minimum(rng.geometric(0.35, q), 10)
        return np.where(rng.random(q) < 0.62, r, 0)

    ra = ranks()
    rb = np.where(rng.random(q) < 0.7, ra, ranks())
    return tuple(np.where(r > 0, 1.0 / np.maximum(r, 1), 0.0) for r in (ra, rb))


def million_query_runs(kind: str) -> tuple[dict, dict]:
    """Two runs of 1,000,000 queries: hit@k (0 or 1) or continuous scores."""
    q = 1_000_000
    rng = np.random.default_rng(26)
    if kind == "hit":
        a = (rng.random(q) < 0.6).astype(float)
        b = np.where(rng.random(q) < 0.8, a, (rng.random(q) < 0.61).astype(float))
    else:
        a = rng.random(q)
        b = np.clip(a + rng.normal(0.001, 0.1, q), 0, 1)
    ids = [f"q{i}" for i in range(q)]
    return dict(zip(ids, a.tolist(), strict=True)), dict(zip(ids, b.tolist(), strict=True))


def bench_sign_flips(table: Table, targets: list[str], quick: bool) -> None:
    """Issue 26: bit-based Monte Carlo sign flips against the random-bit floor."""
    q = 100_000
    d = np.random.default_rng(q).normal(0.01, 0.1, q)
    task = f"randomization test, Monte Carlo, Q = {q:,}, R = 10,000"
    pairs = 5  # the floor moves with the load of a shared machine
    ours, floor, r_floor = paired_timings(
        lambda: helpers.randomization_test(d, n_resamples=R, rng=1),
        lambda: sign_flip_floor(d, R, helpers.DEFAULT_MAX_SIGNS),
        pairs,
    )
    few = 200 if quick else 500
    before = timed(lambda: integer_signs(d, few), 1) * R / few
    table.add(task, "helpers.randomization_test (random bits, byte look-ups)", ours, "1.00x")
    table.add(
        task,
        "random-bit floor (R x Q bits + one summing pass per resample)",
        floor,
        f"ours / floor = {r_floor:.2f}x (median of {pairs} alternating pairs)",
    )
    table.add(
        task,
        "signs as 64-bit integers from range(2) (the sign flips it replaced)",
        before,
        f"before / ours = {before / ours:.1f}x (timed on {few} resamples, scaled)",
    )
    targets.append(
        f"Monte Carlo randomization test vs the random-bit floor at Q = {q:,}: {r_floor:.2f}x "
        f"(target <= 2x): {met(r_floor <= 2)}"
    )


def bench_scale(table: Table, targets: list[str], quick: bool) -> None:
    """Issue 26: bit-based Monte Carlo sign flips, the MS MARCO-sized exact case, and
    compare_runs at a million continuous scores (a million hit@k: :func:`bench_own_runs`)."""
    bench_sign_flips(table, targets, quick)
    a, b = reciprocal_ranks(6_980, 26)
    worst = 0.0
    for name, dd in [("full precision", b - a), ("four decimals", np.round(b, 4) - np.round(a, 4))]:
        task = f"MS MARCO-sized: 6,980 queries of RR@10, {name}"
        res, iv = helpers.randomization_test(dd), helpers.exact_bootstrap_interval(dd)
        t_test = timed(lambda dd=dd: helpers.randomization_test(dd), 1 if quick else 3)
        t_iv = timed(lambda dd=dd: helpers.exact_bootstrap_interval(dd), 1 if quick else 3)
        peak = max(
            traced_peak(lambda dd=dd: helpers.randomization_test(dd)),
            traced_peak(lambda dd=dd: helpers.exact_bootstrap_interval(dd)),
        )
        table.add(
            task,
            "helpers.randomization_test (no n_resamples)",
            t_test,
            f"exact: {res.exact}, p = {res.pvalue:.4f}; "
            + res.method.removeprefix("randomization "),
        )
        table.add(
            task,
            "helpers.exact_bootstrap_interval",
            t_iv,
            f"[{iv.low:+.4f}, {iv.high:+.4f}]; {iv.method.removeprefix('exact bootstrap ')}",
        )
        table.add(task, "peak memory (traced), larger of the two", None, f"{peak / 2**20:.0f} MiB")
        targets.append(
            f"MS MARCO-sized RR@10, {name}: test exact {res.exact} in {t_test * 1000:.0f} ms, "
            f"interval exact in {t_iv * 1000:.0f} ms, peak {peak / 2**20:.0f} MiB (target: both "
            f"exact, < 1 s each, < 1 GB): {met(res.exact and max(t_test, t_iv) < 1 and peak < 1e9)}"
        )
        worst = max(worst, peak)

    runs_a, runs_b = million_query_runs("continuous")
    r_small = 1_000
    task = f"compare_runs, Q = 1,000,000 continuous scores, R = {r_small:,}"
    t_all = timed(lambda: helpers.compare_runs(runs_a, runs_b, rng=1, n_resamples=r_small), 1)
    dd = np.subtract(list(runs_b.values()), list(runs_a.values()))
    t_floor = timed(
        lambda: (
            rng_floor(dd.size, r_small),
            sign_flip_floor(dd, r_small, helpers.DEFAULT_MAX_SIGNS),
        ),
        1,
    )
    peak = traced_peak(lambda: helpers.compare_runs(runs_a, runs_b, rng=1, n_resamples=r_small))
    table.add(
        task,
        "helpers.compare_runs (Monte Carlo interval and test)",
        t_all,
        f"ours / floor = {t_all / t_floor:.2f}x; traced peak {peak / 2**20:.0f} MiB",
    )
    table.add(
        task,
        "floor of its Monte Carlo work (R x Q indices + R x Q bits)",
        t_floor,
        "",
    )
    targets.append(
        f"compare_runs on 1,000,000 continuous scores vs the floor of its Monte Carlo work: "
        f"{t_all / t_floor:.2f}x, peak {peak / 2**20:.0f} MiB (target: stated)"
    )


def bench_million_hits(table: Table, targets: list[str]) -> None:
    """compare_runs on a million hit@k queries (issue 26; aligned by integer codes since issue
    48), and align_runs alone."""
    runs_a, runs_b = million_query_runs("hit")
    task = "compare_runs, Q = 1,000,000 hit@k, R = 10,000"
    t_all = timed(lambda: helpers.compare_runs(runs_a, runs_b, rng=1), 3)
    t_align = timed(lambda: helpers.align_runs(runs_a, runs_b), 3)
    report = helpers.compare_runs(runs_a, runs_b, rng=1)
    peak = traced_peak(lambda: helpers.compare_runs(runs_a, runs_b, rng=1))
    table.add(
        task,
        "helpers.compare_runs (exact interval and test, no resampling)",
        t_all,
        f"of which align_runs (1,000,000 IDs, by integer codes) {t_align:.2f} s; traced peak "
        f"{peak / 2**20:.0f} MiB; plot: {report.bootstrap_source}; load average "
        f"{os.getloadavg()[0]:.1f}",
    )
    targets.append(
        f"compare_runs on 1,000,000 hit@k queries: {t_all:.1f} s (target < 3 s on two cores): "
        f"{met(t_all < 3)}"
    )


def own_run_files(folder: Path, topics: int = 100, depth: int = 1_000) -> tuple[Path, Path]:
    """A run file of ``topics`` x ``depth`` lines (BM25-like scores with four decimals, so some
    tie) and its qrels (300 judged documents a topic, half of them retrieved; grades 0 to 2)."""
    rng = np.random.default_rng(48)
    run, qrels = [], []
    for t in range(topics):
        docs = rng.choice(50_000, size=depth + 150, replace=False)
        scores = 20 - 0.0173 * np.arange(depth) + rng.normal(0, 0.5, depth)
        run += [f"{401 + t} Q0 doc{d:05d} {i + 1} {s:.4f} bench" for i, (d, s) in
                enumerate(zip(docs, scores, strict=False))]  # fmt: skip
        judged = np.concatenate([docs[:150], docs[depth:]])
        qrels += [f"{401 + t} 0 doc{d:05d} {g}" for d, g in zip(judged, rng.choice(
            [0, 0, 0, 1, 2], judged.size), strict=True)]  # fmt: skip
    paths = folder / "bench.run.txt", folder / "bench.qrels.txt"
    for path, lines in zip(paths, (run, qrels), strict=True):
        path.write_text("\n".join(lines) + "\n")
    return paths


def bench_own_runs(table: Table, targets: list[str], quick: bool) -> None:
    """Issue 48: reading and scoring one's own run (read_qrels, read_run and evaluate for four
    measures) against pytrec_eval doing the same with its own file reading, timed in alternating
    pairs; and compare_runs on a million hit@k queries."""
    measures = {"map": "map", "ndcg_cut_10": "ndcg_cut.10", "P_10": "P.10", "recip_rank": None}
    with tempfile.TemporaryDirectory() as tmp:
        run_path, qrels_path = own_run_files(Path(tmp))
        lines = run_path.read_text().count("\n")

        def ours() -> dict:
            qrels, run = helpers.read_qrels(qrels_path), helpers.read_run(run_path)
            scores = helpers.evaluate(qrels, run, list(measures))  # one call, as pytrec_eval's
            return {m: s.scores for m, s in zip(measures, scores, strict=True)}

        task = f"read and score a {lines:,}-line run, 4 measures"
        try:
            import pytrec_eval
        except ImportError:
            table.add(task, "helpers.read_run + read_qrels + evaluate (4 measures)", timed(ours, 3))
            table.add(task, "pytrec_eval", None, "not installed: no ratio")
            return

        def theirs() -> dict:
            with open(qrels_path) as q, open(run_path) as r:
                qrels, run = pytrec_eval.parse_qrel(q), pytrec_eval.parse_run(r)
            names = {v or k for k, v in measures.items()}
            return pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)

        got, want = ours(), theirs()
        gap = max(abs(got[m][q] - want[q][m]) for m in measures for q in want)
        pairs = 3 if quick else 9
        t_ours, t_theirs, r = paired_timings(ours, theirs, pairs)
        rankings = helpers.read_run(run_path).rankings.values()
        ties = sum(len(set(d.values())) < len(d) for d in rankings)
    table.add(
        task,
        "helpers.read_qrels + read_run + evaluate of [map, ndcg_cut_10, P_10, recip_rank]",
        t_ours,
        f"ours / pytrec_eval = {r:.2f}x (median of {pairs} alternating pairs); {ties} of 100 "
        f"topics have tied scores; largest difference from pytrec_eval {gap:.1e}",
    )
    table.add(task, "pytrec_eval (parse_qrel + parse_run + RelevanceEvaluator.evaluate)", t_theirs)
    targets.append(
        f"reading and scoring a {lines:,}-line run for 4 measures vs pytrec_eval with its file "
        f"reading: {r:.2f}x (target <= 1.25x): {met(r <= 1.25)}"
    )
    bench_marco(table, targets, quick)
    bench_million_hits(table, targets)


MARCO_MEASURES = {"map": "map", "ndcg_cut_10": "ndcg_cut.10", "P_10": "P.10", "recip_rank": None}


def marco_files(folder: Path, topics: int = 6_980, depth: int = 1_000) -> tuple[Path, Path]:
    """An MS MARCO-size run in TREC format (``topics`` x ``depth`` lines, passage IDs up to 8.8
    million, scores with three decimals, so some tie) and its qrels judged like MS MARCO's dev
    set: one relevant passage a topic (two in 7%), grade 1, found in the run for 60% of topics,
    near the top more often than not."""
    rng = np.random.default_rng(52)
    ranks = np.arange(1, depth + 1)
    with open(folder / "marco.run.txt", "w") as run, open(folder / "marco.qrels.txt", "w") as qr:
        for t in range(topics):
            qid = 1_000_000 + 37 * t
            docs = rng.choice(8_841_823, size=depth + 2, replace=False)
            scores = np.sort(rng.gumbel(20, 2, depth))[::-1]
            run.write("".join(f"{qid} Q0 {d} {k} {s:.3f} marco\n" for d, k, s in
                              zip(docs[:depth], ranks, scores, strict=True)))  # fmt: skip
            relevant = []
            for j in range(2 if rng.random() < 0.07 else 1):  # found in the run 60% of the time
                found = rng.random() < 0.6
                k = min(depth - 1, int(rng.geometric(0.07)) - 1) if found else depth + j
                relevant += [docs[k]] if docs[k] not in relevant else []
            qr.write("".join(f"{qid} 0 {d} 1\n" for d in relevant))
    return folder / "marco.run.txt", folder / "marco.qrels.txt"


def marco_child(who: str, run_path: str, qrels_path: str, out: str) -> None:
    """In a fresh process (the parent reads its peak memory): read and score the run for four
    measures, ours or pytrec_eval's way, and write the seconds and the scores to ``out``."""
    import json
    import resource

    start = time.perf_counter()
    if who == "ours":
        qrels, run = helpers.read_qrels(qrels_path), helpers.read_run(run_path)
        scores = helpers.evaluate(qrels, run, list(MARCO_MEASURES))
        got = {m: s.scores for m, s in zip(MARCO_MEASURES, scores, strict=True)}
    else:
        import pytrec_eval

        with open(qrels_path) as q, open(run_path) as r:
            qrels, run = pytrec_eval.parse_qrel(q), pytrec_eval.parse_run(r)
        names = {v or k for k, v in MARCO_MEASURES.items()}
        by_topic = pytrec_eval.RelevanceEvaluator(qrels, names).evaluate(run)
        got = {m: {q: v[m] for q, v in by_topic.items()} for m in MARCO_MEASURES}
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # (kB on Linux)
    status = Path("/proc/self/status")  # Linux: this process's own peak; ru_maxrss keeps the
    if status.is_file():  # parent's resident size at fork across exec (the bench's, ~1 GiB)
        peak = 1024 * int(re.search(r"VmHWM:\s+(\d+)", status.read_text())[1])
    Path(out).write_text(json.dumps({"seconds": seconds, "peak": peak, "scores": got}))


def marco_run(who: str, paths: tuple[Path, Path], out: Path) -> dict:
    """``marco_child`` in a fresh interpreter; its seconds, peak resident memory and scores."""
    import json

    code = f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import run_bench; "
    code += f"run_bench.marco_child({who!r}, {str(paths[0])!r}, {str(paths[1])!r}, {str(out)!r})"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
    return json.loads(out.read_text())


def bench_marco(table: Table, targets: list[str], quick: bool) -> None:
    """An MS MARCO-size run (6,980 topics x 1,000 passages, 7 million lines) read and scored for
    four measures, ours against pytrec_eval with its own file reading, each in a fresh process
    (alternating), for time and peak resident memory (the whole process, imports included)."""
    task = "read and score an MS MARCO-size run (6,980 x 1,000 lines), 4 measures"
    try:
        import pytrec_eval  # noqa: F401
    except ImportError:
        table.add(task, "pytrec_eval", None, "not installed: no ratio")
        return
    with tempfile.TemporaryDirectory() as tmp:
        paths = marco_files(Path(tmp))
        size = paths[0].stat().st_size
        ours, theirs = [], []
        for _ in range(1 if quick else 2):
            ours.append(marco_run("ours", paths, Path(tmp) / "ours.json"))
            theirs.append(marco_run("theirs", paths, Path(tmp) / "theirs.json"))
    got, want = ours[0]["scores"], theirs[0]["scores"]
    gap = max(abs(got[m][q] - want[m][q]) for m in MARCO_MEASURES for q in want[m])
    assert got["map"].keys() == want["map"].keys()
    t_ours = statistics.median(o["seconds"] for o in ours)
    t_theirs = statistics.median(t["seconds"] for t in theirs)
    peak_ours, peak_theirs = max(o["peak"] for o in ours), max(t["peak"] for t in theirs)
    r_time, r_peak = t_ours / t_theirs, peak_ours / peak_theirs
    table.add(
        task,
        "helpers.read_qrels + read_run + evaluate of [map, ndcg_cut_10, P_10, recip_rank]",
        t_ours,
        f"{r_time:.2f}x pytrec_eval's time, peak {peak_ours / 2**20:,.0f} MiB = {r_peak:.2f}x "
        f"its peak ({size / 2**20:,.0f} MiB file; median of {len(ours)} fresh processes); "
        f"largest difference from pytrec_eval {gap:.1e}",
    )
    table.add(
        task,
        "pytrec_eval (parse_qrel + parse_run + RelevanceEvaluator.evaluate)",
        t_theirs,
        f"peak {peak_theirs / 2**20:,.0f} MiB",
    )
    targets.append(
        f"reading and scoring an MS MARCO-size run for 4 measures vs pytrec_eval with its file "
        f"reading: {r_time:.2f}x its time (target <= 1x): {met(r_time <= 1)}, {r_peak:.2f}x its "
        f"peak memory (target <= 0.5x): {met(r_peak <= 0.5)}"
    )


def many_run_scores(n_runs: int, q: int, seed: int) -> dict:
    """``n_runs`` runs of ``q`` queries on four trec_eval measures, from simulated top-10 binary
    relevance (each run a noisy copy of a shared ranking quality): success_10 (0 or 1), P_10
    (tenths), recip_rank (1/k, full precision: the 1/2520 grid) and ndcg_cut_10 (four decimals,
    as trec_eval prints it)."""
    rng = np.random.default_rng(seed)
    n_rel = rng.integers(1, 30, q)
    quality = rng.normal(0, 1, q)
    discount = 1 / np.log2(np.arange(2, 12))
    ideal = np.array([discount[: min(r, 10)].sum() for r in n_rel])
    ids = [f"q{i:05d}" for i in range(q)]
    runs = {}
    for r in range(n_runs):
        skill = quality + 0.03 * r + rng.normal(0, 0.3, q)
        prob = 1 / (1 + np.exp(-(skill[:, None] - 0.15 * np.arange(10))))
        rel = (rng.uniform(size=(q, 10)) < prob * np.minimum(1, n_rel[:, None] / 10)).astype(float)
        first = np.where(rel.any(axis=1), rel.argmax(axis=1) + 1, 0)
        measures = {
            "success_10": rel.max(axis=1),
            "P_10": rel.sum(axis=1) / 10,
            "recip_rank": np.where(first > 0, 1 / np.maximum(first, 1), 0.0),
            "ndcg_cut_10": np.round(rel @ discount / ideal, 4),
        }
        runs[f"run{r}"] = {m: dict(zip(ids, v.tolist(), strict=True)) for m, v in measures.items()}
    return runs


def bench_many_runs(table: Table, targets: list[str], quick: bool) -> None:
    """Issue 31: compare_many, ten runs x four measures x 10,000 queries, exact where the grid
    allows, on every core; and one measure's cells alone, to show where the time goes."""
    runs = many_run_scores(10, 10_000, 31)
    task = "compare_many, 10 runs x 4 measures x 10,000 queries"

    def call(**kw):
        return helpers.compare_many(runs, baseline="run0", rng=1, **kw)

    res = call()  # the warm-up call, and the cells the table reports on
    exact = sum(c.interval_exact and c.pvalue_exact for c in res.cells)
    repeat = 1 if quick else 3
    cpu = time.process_time()  # every thread's CPU time: the load does not inflate it
    t_all = timed(call, repeat, warmed=True)
    cpu = (time.process_time() - cpu) / repeat
    load = os.getloadavg()[0]
    table.add(
        task,
        f"helpers.compare_many ({os.cpu_count()} threads)",
        t_all,
        f"{exact} of {len(res.cells)} cells exact in interval and test; {res.n_marked} marked; "
        f"CPU {cpu:.2f} s; load average {load:.1f}",
    )
    for m in res.measures:
        cpu = time.process_time()
        t = timed(lambda m=m: call(measures=[m], workers=1), 1)
        cpu = time.process_time() - cpu
        table.add(task, f"its 9 cells of {m} alone, one thread", t, f"CPU {cpu:.2f} s")
    targets.append(
        f"compare_many, 10 runs x 4 measures x 10,000 queries: {t_all:.1f} s "
        f"(target < 3 s on two cores): {met(t_all < 3)} (load average {load:.1f})"
    )


def bench_notebooks(table: Table, targets: list[str]) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    import nbformat
    from nbclient import NotebookClient
    from notebook_tools import NOTEBOOKS

    total = 0.0
    slowest = 0.0
    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        client = NotebookClient(
            nb,
            kernel_name="python3",
            timeout=300,
            resources={"metadata": {"path": str(path.parent)}},
        )
        start = time.perf_counter()
        client.execute()
        seconds = time.perf_counter() - start
        total += seconds
        slowest = max(slowest, seconds)
        table.add("notebook, fresh kernel, top to bottom", path.name, seconds, "")
    targets.append(f"slowest notebook: {slowest:.1f} s (target < 15 s): {met(slowest < 15)}")
    start = time.perf_counter()
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--nbval",
            "--nbval-current-env",
            "-p",
            "no:cacheprovider",
            "-q",
            "notebooks",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "JUPYTER_PREFER_ENV_PATH": "1"},
    )
    seconds = time.perf_counter() - start
    table.add(
        "strict nbval run over every notebook",
        "pytest --nbval notebooks",
        seconds,
        out.stdout.strip().splitlines()[-1].strip("= "),
    )
    targets.append(f"whole strict nbval run: {seconds:.0f} s (target < 90 s): {met(seconds < 90)}")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.machine()}; Python "
        f"{platform.python_version()}, "
        f"numpy {np.__version__}, scipy {scipy.__version__}"
    )


def update_docs(text: str) -> None:
    """Write the table between the bench markers of docs/benchmarks.md."""
    page = ROOT / "docs" / "benchmarks.md"
    body = page.read_text()
    start, end = "<!-- bench:start -->", "<!-- bench:end -->"
    if start not in body or end not in body:
        raise SystemExit(
            "docs/benchmarks.md has no <!-- bench:start --> ... <!-- bench:end --> markers"
        )
    pattern = re.escape(start) + r".*?" + re.escape(end)
    body = re.sub(pattern, lambda _: f"{start}\n{text}\n{end}", body, flags=re.S)
    page.write_text(body)
    print("docs/benchmarks.md: table updated")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--update-docs",
        "--update-readme",  # its name before the table moved from README.md to docs/
        dest="update_docs",
        action="store_true",
        help="write the table into docs/benchmarks.md",
    )
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--skip-notebooks", action="store_true")
    parser.add_argument(
        "--only-grid", action="store_true", help="run only the exact-on-the-grid cases"
    )
    parser.add_argument("--only-scale", action="store_true", help="run only the scale cases")
    parser.add_argument(
        "--only-many-runs", action="store_true", help="run only compare_many's row (issue 31)"
    )
    parser.add_argument(
        "--only-own-runs",
        action="store_true",
        help="run only reading and scoring a run vs pytrec_eval, and compare_runs on a million "
        "hit@k queries (issue 48, about a minute)",
    )
    parser.add_argument(
        "--only-sign-flips",
        action="store_true",
        help="run only the Monte Carlo sign flips vs the random-bit floor (issue 26, a minute)",
    )
    args = parser.parse_args()
    table, targets = Table(), []
    print(f"Machine: {machine()}\n", flush=True)
    only = {
        "grid": bench_grid,
        "scale": bench_scale,
        "sign_flips": bench_sign_flips,
        "many_runs": bench_many_runs,
        "own_runs": bench_own_runs,
    }
    chosen = [fn for name, fn in only.items() if getattr(args, f"only_{name}")]
    if chosen:
        for fn in chosen:
            fn(table, targets, args.quick)
        print(
            "\n" + "\n".join([table.markdown(), "", "Targets:", ""] + [f"- {t}" for t in targets])
        )
        return
    bench_paired_bootstrap(table, targets, args.quick)
    bench_peak_memory(table, targets)
    bench_randomization(table, targets, args.quick)
    bench_exact_and_cluster(table, args.quick)
    bench_grid(table, targets, args.quick)
    bench_scale(table, targets, args.quick)
    bench_many_runs(table, targets, args.quick)
    bench_own_runs(table, targets, args.quick)
    if not args.skip_notebooks:
        bench_notebooks(table, targets)
    text = "\n".join(
        [f"Measured by `make bench` on: {machine()}.", "", table.markdown(), "", "Targets:", ""]
        + [f"- {t}" for t in targets]
    )
    print("\n" + text)
    if args.update_docs:
        update_docs(text)


if __name__ == "__main__":
    main()
