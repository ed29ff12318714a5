"""Chapter 6's seeded simulations and its example comparison.

:func:`best_of_k_study` keeps the best of k configurations that are all no better than A;
:func:`many_tests_study` runs m null tests per study, with and without Holm's correction;
:func:`comparison_example` is the simulated comparison the chapter reports on. Each takes
one int seed ``rng`` and, where it needs several streams, uses ``rng``, ``rng + 1``, ...
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from . import _checks
from .intervals import _order_statistic_indices
from .resampling import _resample
from .significance import REL_TOL, _count_at_least_as_extreme, _holm

__all__ = ["BestOfK", "best_of_k_study", "ManyTests", "many_tests_study", "comparison_example"]


# --- the best of k ----------------------------------------------------------------------------


def best_of_k_study(
    ks: Sequence[int],
    *,
    rng: int,
    n_studies: int = 2000,
    n_queries: int = 200,
    noise: float = 0.10,
    n_resamples: int = 2000,
) -> BestOfK:
    """Keep the best of k configurations, all exactly as good as A, and count false claims.

    Each study scores ``max(ks)`` configurations on ``n_queries`` test queries (seed
    ``rng``) and on as many validation queries (seed ``rng + 2``); per-query noise has sd
    ``noise`` for A and for each configuration. The best of the first k by mean change is
    picked on the test queries, or on the validation queries; its 95% paired bootstrap
    interval on the test queries (``n_resamples`` resamples, seed ``rng + 1``, the same
    resamples for every k) is a false claim when it excludes zero.

    >>> r = best_of_k_study([1, 5], rng=0, n_studies=200, n_queries=50, n_resamples=200)
    >>> r.ks, len(r.same), len(r.held)
    ((1, 5), 2, 2)
    """
    seed = _checks.seed(rng)
    ks = tuple(_checks.integer(k, "each k") for k in ks)
    if not ks:
        raise ValueError("ks is empty: give the numbers of configurations to try, e.g. [1, 20].")
    n_studies = _checks.integer(n_studies, "n_studies")
    n_queries = _checks.integer(n_queries, "n_queries", minimum=2)
    noise = _checks.number(noise, "noise", minimum=0)
    n_resamples = _checks.integer(n_resamples, "n_resamples")
    k_max = max(ks)
    test = _null_configs(n_studies, k_max, n_queries, noise, np.random.default_rng(seed))
    validation = _null_configs(n_studies, k_max, n_queries, noise, np.random.default_rng(seed + 2))
    studies = np.arange(n_studies)
    same, held = [], []
    for k in ks:
        best = test[:, :k].mean(axis=2).argmax(axis=1)
        chosen = validation[:, :k].mean(axis=2).argmax(axis=1)
        for picked, rates in ((best, same), (chosen, held)):
            same_draws = np.random.default_rng(seed + 1)  # the same resamples for every k
            low, high = _row_intervals(test[studies, picked], n_resamples, same_draws)
            rates.append(float(((low > 0) | (high < 0)).mean()))
    best = test.mean(axis=2).argmax(axis=1)
    chosen = validation.mean(axis=2).argmax(axis=1)
    picks = ((test, best), (test, chosen), (validation, chosen))  # gain_same, _held, _validation
    gains = [float(changes[studies, c].mean()) for changes, c in picks]
    return BestOfK(ks, tuple(same), tuple(held), *gains, n_studies, n_queries)


@dataclass(frozen=True)
class BestOfK:
    """What :func:`best_of_k_study` found, per k and for the largest k.

    ``same[i]``: share of studies whose best of the first ``ks[i]`` configurations, chosen
    on the test queries, has a 95% test interval that excludes zero (a false claim: every
    true change is zero). ``held[i]``: the same for the configuration chosen on the
    validation queries, measured on the held-out test queries. The gains are averages over
    the studies, for the largest k: ``gain_same`` of the best on the test queries,
    ``gain_held`` of the validation choice on the held-out test queries, and
    ``gain_validation`` of the validation choice on the validation queries themselves.
    """

    ks: tuple[int, ...]
    same: tuple[float, ...]
    held: tuple[float, ...]
    gain_same: float
    gain_held: float
    gain_validation: float
    n_studies: int
    n_queries: int

    def __str__(self) -> str:
        lines = [
            f"false claims (the 95% interval excludes zero), in {self.n_studies:,} studies",
            f"(each: {self.n_queries} test and {self.n_queries} validation queries)",
            "   k   chosen and measured on test   chosen on validation, measured on held-out",
        ]
        for k, same, held in zip(self.ks, self.same, self.held, strict=True):
            lines.append(f"{k:>4}   {same:>27.1%}   {held:>42.1%}")
        lines += [
            f"mean gain of the best of {max(self.ks)} (truth 0):",
            f"  chosen and measured on test                  {self.gain_same:+.4f}",
            f"  chosen on validation, measured on held-out   {self.gain_held:+.4f}",
            f"  chosen on validation, on validation itself   {self.gain_validation:+.4f}",
        ]
        return "\n".join(lines)


def _null_configs(
    n_studies: int, n_configs: int, n_queries: int, noise: float, rng: np.random.Generator
) -> np.ndarray:
    """Per-query changes (n_studies, n_configs, n_queries) of configurations against A, all true
    mean changes zero: A's noise is shared (A's run is fixed), each configuration adds its own."""
    noise_a = rng.normal(0, noise, size=(n_studies, 1, n_queries))
    noise_c = rng.normal(0, noise, size=(n_studies, n_configs, n_queries))
    return noise_c - noise_a


def _row_intervals(
    rows: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """A 95% paired bootstrap percentile interval for each row of changes, on the resamples
    :func:`helpers.paired_bootstrap` draws from ``rng`` (its engine, in one block): ``counts[b, q]``
    is how often resample b drew query q, so ``rows @ counts.T / Q`` holds every row's means."""
    n_queries = rows.shape[1]

    def row_means(draws: np.ndarray) -> np.ndarray:
        cells = (np.arange(draws.shape[0])[:, None] * n_queries + draws).ravel()
        counts = np.bincount(cells, minlength=draws.size).reshape(draws.shape).astype(float)
        return rows @ counts.T / n_queries

    block = n_resamples * n_queries
    means = _resample(n_queries, n_queries, row_means, n_resamples, rng, block, rows.shape[:1])
    means = np.sort(means, axis=1)
    low_i, high_i = _order_statistic_indices(n_resamples, Fraction(1, 40))
    return means[:, low_i], means[:, high_i]


# --- many tests ---------------------------------------------------------------------------------


def many_tests_study(
    ms: Sequence[int],
    *,
    rng: int,
    n_studies: int = 2000,
    n_queries: int = 40,
    sd: float = 0.12,
    n_flips: int = 999,
    alpha: float = 0.05,
) -> ManyTests:
    """``max(ms)`` null tests per study: paired randomization tests of slices with no change.

    Each study has ``max(ms)`` slices of ``n_queries`` changes, normal with mean 0 and sd
    ``sd`` (seed ``rng``); each slice gets chapter 5's two-sided test on ``n_flips`` random
    sign assignments (seed ``rng + 1``, shared by all slices).

    >>> r = many_tests_study([1, 3], rng=0, n_studies=100, n_flips=99)
    >>> r.pvalues.shape, len(r.any_raw)
    ((100, 3), 2)
    """
    seed = _checks.seed(rng)
    ms = tuple(_checks.integer(m, "each m") for m in ms)
    if not ms:
        raise ValueError("ms is empty: give the numbers of tests to run, e.g. [1, 10].")
    n_studies = _checks.integer(n_studies, "n_studies")
    n_queries = _checks.integer(n_queries, "n_queries")
    sd = _checks.number(sd, "sd", minimum=0)
    n_flips = _checks.integer(n_flips, "n_flips")
    alpha = float(_checks.level(alpha, "alpha", "0.05"))
    m_max = max(ms)
    slices = np.random.default_rng(seed).normal(0, sd, size=(n_studies, m_max, n_queries))
    p = _sign_flip_pvalues(slices.reshape(-1, n_queries), n_flips, np.random.default_rng(seed + 1))
    p = p.reshape(n_studies, m_max)
    any_raw = tuple(float((p[:, :m] <= alpha).any(axis=1).mean()) for m in ms)
    any_holm = tuple(float(np.mean([(_holm(row[:m]) <= alpha).any() for row in p])) for m in ms)
    return ManyTests(ms, any_raw, any_holm, p, alpha, n_queries, n_flips)


@dataclass(frozen=True)
class ManyTests:
    """What :func:`many_tests_study` found.

    ``pvalues[s, t]``: test t's p-value in study s (no true change anywhere). For each m
    in ``ms``: ``any_raw`` is the share of studies with some p <= alpha among the first m
    tests, ``any_holm`` the share with some rejection after Holm's correction over them.
    """

    ms: tuple[int, ...]
    any_raw: tuple[float, ...]
    any_holm: tuple[float, ...]
    pvalues: np.ndarray
    alpha: float
    n_queries: int
    n_flips: int

    def __str__(self) -> str:
        a = self.alpha
        lines = [
            f"studies with a false alarm (some p <= {a:g}), of {self.pvalues.shape[0]:,}",
            f"(each: {self.pvalues.shape[1]} tests of {self.n_queries} queries, "
            f"{self.n_flips} random sign assignments per test)",
            f"   m   no correction   after Holm   1 - {1 - a:g}^m",
        ]
        for m, raw, adj in zip(self.ms, self.any_raw, self.any_holm, strict=True):
            lines.append(f"{m:>4}   {raw:>13.1%}   {adj:>10.1%}   {1 - (1 - a) ** m:>10.1%}")
        return "\n".join(lines)


def _sign_flip_pvalues(rows: np.ndarray, n_flips: int, rng: np.random.Generator) -> np.ndarray:
    """Two-sided Monte Carlo randomization p-value of each row's mean, on shared sign flips:
    p = (count + 1) / (n_flips + 1), counted as :func:`helpers.randomization_test` counts. The
    signs are this study's own draws (``significance._sign_flip_means`` reads other bits of the
    stream): chapter 6's stored numbers need them."""
    n_queries = rows.shape[1]
    signs = rng.choice([-1.0, 1.0], size=(n_queries, n_flips))
    pvalues = np.empty(rows.shape[0])
    for start in range(0, rows.shape[0], 2000):  # in blocks, to bound memory
        block = rows[start : start + 2000]
        tol = REL_TOL * np.abs(block).mean(axis=1, keepdims=True)
        mean = block.mean(axis=1, keepdims=True)
        count = _count_at_least_as_extreme(block @ signs / n_queries, mean, "two-sided", tol)
        pvalues[start : start + 2000] = (count + 1) / (n_flips + 1)
    return pvalues


# --- the example comparison ---------------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """Chapter 6's simulated comparison of A and B on 240 judged queries.

    Per query, in order: ``query_ids``, ``query_type`` (head, torso or tail), ``users``
    (who sent it), nDCG@10 ``ndcg_a``, ``ndcg_b`` and latency in ms ``latency_a``,
    ``latency_b``. ``exclusions`` maps the four excluded query IDs to their reasons.
    """

    query_ids: list[str]
    query_type: np.ndarray
    users: np.ndarray
    ndcg_a: np.ndarray
    ndcg_b: np.ndarray
    latency_a: np.ndarray
    latency_b: np.ndarray
    exclusions: dict[str, str]


_EXCLUSIONS = {
    "q017": "no relevant documents in the qrels: every system scores 0",
    "q088": "duplicate of q087 (same query text after normalisation)",
    "q150": "judging incomplete: the assessor skipped it",
    "q203": "also among the tuning queries, by mistake",
}


def comparison_example(rng: int = 5) -> Comparison:
    """The comparison chapter 6 reports: 244 queries, 4 excluded, from 60 users.

    Query types: 120 head, 106 torso, 14 tail. nDCG@10 is a logistic function of a
    latent score (query type, user and query effects); B's true change is +0.25 on the
    latent scale for head queries, +0.05 for torso and -0.45 for tail. B is about 25%
    faster than A, but takes a slow path (100 to 200 ms more) on about 15% of queries.

    >>> ex = comparison_example()
    >>> len(ex.query_ids), len(set(ex.users)), round(float(ex.ndcg_a.mean()), 4)
    (240, 60, 0.5821)
    """
    gen = np.random.default_rng(_checks.seed(rng))
    query_ids = [f"q{i:03d}" for i in range(1, 245) if f"q{i:03d}" not in _EXCLUSIONS]
    n = len(query_ids)
    query_type = gen.permutation(np.repeat(["head", "torso", "tail"], [120, 106, 14]))
    users = np.array([f"U{u:02d}" for u in gen.integers(1, 61, n)])
    user_effect = dict(zip(sorted(set(users)), gen.normal(0, 0.5, 60), strict=True))
    type_effect = {"head": 0.8, "torso": 0.2, "tail": -0.6}
    true_change = {"head": 0.25, "torso": 0.05, "tail": -0.45}  # on the latent scale
    effects = [type_effect[t] + user_effect[u] for t, u in zip(query_type, users, strict=True)]
    latent = np.array(effects) + gen.normal(0, 1.0, n)
    shift = np.array([true_change[t] for t in query_type])
    ndcg_a = np.round(1 / (1 + np.exp(-(latent + gen.normal(0, 0.3, n)))), 4)
    ndcg_b = np.round(1 / (1 + np.exp(-(latent + shift + gen.normal(0, 0.3, n)))), 4)
    latency_a = np.round(gen.lognormal(np.log(120), 0.3, n), 1)
    slow_path = gen.random(n) < 0.15
    latency_b = latency_a * gen.lognormal(np.log(0.75), 0.1, n)
    latency_b = np.round(latency_b + slow_path * gen.uniform(100, 200, n), 1)
    return Comparison(
        query_ids, query_type, users, ndcg_a, ndcg_b, latency_a, latency_b, dict(_EXCLUSIONS)
    )
