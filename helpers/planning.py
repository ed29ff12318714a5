"""Planning a comparison: how many judged queries it takes to detect the smallest useful change.

From a pilot's per-query changes ``d_q`` (their spread), the number of queries ``Q`` at which a
paired test at level ``alpha`` detects a true mean change of ``smallest_useful`` with
probability ``power``: topic set size design (Sakai 2016) for the paired case. The power is the
paired t-test's, exactly (``method="t"``), or the randomization test's, simulated.

>>> plan = queries_needed([0.1, -0.2, 0.3, 0.0, 0.25, -0.05, 0.15], smallest_useful=0.05)
>>> print(plan.queries, f"{plan.power:.3f}", f"{plan.sd:.4f}")
99 0.803 0.1753
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from . import _checks
from .significance import ALTERNATIVES, REL_TOL, _count_at_least_as_extreme

__all__ = ["QueriesNeeded", "queries_needed", "power_curve"]

_METHODS = ("t", "randomization")

#: The most queries a plan may ask for before the search gives up (a smaller change, or a
#: larger spread, would need more judged queries than any test collection has).
MAX_QUERIES = 1_000_000


def queries_needed(
    pilot_changes: ArrayLike | Mapping,
    *,
    smallest_useful: float,
    power: float = 0.8,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    method: str = "t",
    rng: int | np.random.Generator | None = None,
    n_studies: int = 1000,
    n_flips: int = 199,
) -> QueriesNeeded:
    """The number of judged queries at which a paired test detects ``smallest_useful``.

    ``pilot_changes``: per-query changes ``d_q`` from a pilot (a sequence, or a mapping by
    query ID); only their spread is used. ``smallest_useful``: the smallest true mean change
    worth detecting (positive; ``alternative="less"`` plans for a loss of that size).

    ``method="t"``: the smallest ``Q`` at which the paired t-test's exact power, from the
    noncentral t distribution with ``Q - 1`` degrees of freedom and noncentrality
    ``smallest_useful * sqrt(Q) / sd``, reaches ``power``.

    ``method="randomization"`` (``rng`` required): the ``Q`` at which the simulated power
    curve reaches ``power``. Each simulated study draws ``Q`` changes with replacement from
    the pilot's, shifted to mean ``smallest_useful``, and runs a Monte Carlo randomization
    test of ``n_flips`` random sign assignments (``p = (count + 1) / (n_flips + 1)``, a
    valid level-``alpha`` test); ``n_studies`` studies at each of 12 sizes around the t
    answer give the curve (a fitted probit line in ``sqrt(Q)``). ``power``, simulated afresh
    there (``mc_error`` its standard error), is at least the target within it, or ``Q`` grows
    by 3% steps, with more ``n_studies``. The shift adds the same amount to every change: a
    model for nDCG, not for hit@k (an unchanged query's 0 cannot become +0.1). For changes of
    few values (hit@k's) the randomization test's p-values are discrete and its power falls
    short of the t-test's (docs/your-own-runs.md); few ``n_flips`` lose a little more.
    """
    d = _pilot(pilot_changes)
    smallest, a, alternative, method = _arguments(smallest_useful, alpha, alternative, method)
    target = float(_checks.level(power, "power", "0.8"))
    sd = float(np.std(d, ddof=1))
    n_t = _t_search(smallest, sd, target, a, alternative)
    if method == "t":
        achieved = _t_power(n_t, smallest, sd, a, alternative)
        return QueriesNeeded(n_t, achieved, "t", sd, smallest, target, a, alternative)
    gen, n_studies, n_flips = _simulation(rng, n_studies, n_flips, a)
    shifted = _shifted(d, smallest, alternative)
    simulation = (a, alternative, gen, n_studies, n_flips)
    n, achieved, studies = _randomization_search(shifted, n_t, target, *simulation)
    se = math.sqrt(achieved * (1 - achieved) / studies)
    return QueriesNeeded(
        n, achieved, "randomization", sd, smallest, target, a, alternative, se, studies
    )


def _t_search(effect: float, sd: float, target: float, alpha: float, alternative: str) -> int:
    """The smallest n >= 2 whose t power reaches ``target`` (power grows with n): first among
    32 n from just below the normal approximation's, in one call; else by bisection."""
    from scipy import stats

    z = stats.norm.ppf([1 - alpha / (2 if alternative == "two-sided" else 1), target]).sum()
    ns = np.arange(32) + max(2, min(MAX_QUERIES // 2, math.floor((z * sd / effect) ** 2) - 2))
    near = _t_power(ns, effect, sd, alpha, alternative) >= target
    if near.any() and (ns[0] == 2 or not near[0]):
        return int(ns[np.argmax(near)])

    def enough(n: int) -> bool:
        return _t_power(n, effect, sd, alpha, alternative) >= target

    if enough(2):
        return 2
    lo, hi = 2, 4  # lo is not enough; double hi until it is
    while not enough(hi):
        lo, hi = hi, 2 * hi
        if hi > MAX_QUERIES:
            raise ValueError(
                f"detecting {effect:g} with power {target:g} would take more than "
                f"{MAX_QUERIES:,} queries (the pilot's changes have SD {sd:.4g}): plan for "
                "a larger smallest useful change, or a measure whose changes vary less."
            )
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if enough(mid) else (mid, hi)
    return hi


def _t_power(n, effect: float, sd: float, alpha: float, alternative: str):
    """The paired t-test's power at ``n`` queries (or each of an array of n), for a true mean
    change of ``effect``."""
    from scipy import stats

    df, nc = n - 1, effect * np.sqrt(n) / sd
    if alternative == "two-sided":  # P(t <= -c) as P(-t >= c): scipy's cdf there can be nan
        c = stats.t.ppf(1 - alpha / 2, df)
        power = stats.nct.sf(c, df, nc) + stats.nct.sf(c, df, -nc)
    else:  # "less" plans for a loss of effect: the same power, mirrored
        power = stats.nct.sf(stats.t.ppf(1 - alpha, df), df, nc)
    return float(power) if np.ndim(power) == 0 else power


def power_curve(
    pilot_changes: ArrayLike | Mapping,
    queries: ArrayLike,
    *,
    smallest_useful: float,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    method: str = "t",
    rng: int | np.random.Generator | None = None,
    n_studies: int = 1000,
    n_flips: int = 199,
) -> np.ndarray:
    """The power at each number of queries in ``queries``, by ``method`` (as
    :func:`queries_needed`; ``"randomization"`` simulates ``n_studies`` studies at each)."""
    d = _pilot(pilot_changes)
    smallest, a, alternative, method = _arguments(smallest_useful, alpha, alternative, method)
    ns = [_checks.integer(n, "queries", minimum=2) for n in np.asarray(queries).ravel().tolist()]
    if method == "t":
        sd = float(np.std(d, ddof=1))
        return np.array([_t_power(n, smallest, sd, a, alternative) for n in ns])
    simulation = (a, alternative, *_simulation(rng, n_studies, n_flips, a))
    shifted = _shifted(d, smallest, alternative)
    return np.array([_simulated_power(shifted, n, *simulation) for n in ns])


@dataclass(frozen=True)
class QueriesNeeded:
    """How many queries a comparison needs: ``queries``, the ``power`` achieved there, and ``sd``,
    the SD of the pilot's changes the plan used. For ``"randomization"``, ``power`` is from
    ``n_studies`` simulated studies, ``mc_error`` its standard error (both None for ``"t"``)."""

    queries: int
    power: float
    method: str
    sd: float
    smallest_useful: float
    target_power: float
    alpha: float
    alternative: str
    mc_error: float | None = None
    n_studies: int | None = None


# --- The machinery ------------------------------------------------------------------------------


def _pilot(pilot_changes: object) -> np.ndarray:
    if isinstance(pilot_changes, Mapping):  # by query ID, as the rest of the helpers take
        pilot_changes = [pilot_changes[k] for k in _checks.sorted_ids(pilot_changes)]
    d = _checks.scores(pilot_changes, "pilot_changes")
    if d.size < 2:
        raise ValueError(
            "pilot_changes has 1 change; a plan needs their spread: give the per-query "
            "changes d_q of a pilot comparison on at least 2 (better 20 or more) queries."
        )
    if np.ptp(d) == 0:
        raise ValueError(
            f"pilot_changes are all equal ({d[0]:+g}), so their spread is 0 and any number of "
            "queries would do: give the per-query changes of a real pilot (per-query "
            "changes d_q = m_B(q) - m_A(q), not the mean change)."
        )
    return d


def _arguments(smallest_useful, alpha, alternative, method):
    """The arguments queries_needed and power_curve share, checked."""
    smallest = _checks.number(smallest_useful, "smallest_useful")
    if smallest <= 0:
        raise ValueError(
            f"smallest_useful must be a positive number, the size of the smallest change "
            f"worth detecting (e.g. 0.02); got {smallest_useful!r}. For a test of losses, "
            "keep it positive and pass alternative='less'."
        )
    a = float(_checks.level(alpha, "alpha", "0.05"))
    alternative = _checks.one_of(alternative, "alternative", ALTERNATIVES)
    method = _checks.one_of(method, "method", _METHODS)
    return smallest, a, alternative, method


def _simulated_power(
    shifted: np.ndarray,
    n: int,
    alpha: float,
    alternative: str,
    gen: np.random.Generator,
    n_studies: int,
    n_flips: int,
) -> float:
    """Share of ``n_studies`` studies of ``n`` queries, drawn from ``shifted``, in which a
    Monte Carlo randomization test of ``n_flips`` sign assignments has p <= alpha (the idea of
    ``significance._sign_flip_means``, its own draws: chapter 6's stored numbers need them)."""
    rejected = 0
    block = max(1, 2**22 // (n_flips * n))  # studies drawn at once (their order is the draws')
    for start in range(0, n_studies, block):
        s = min(block, n_studies - start)
        d = shifted[gen.integers(0, shifted.size, size=(s, n))]
        bits = np.unpackbits(
            gen.integers(0, 256, size=(s, n_flips, -(-n // 8)), dtype=np.uint8), axis=2
        )[:, :, :n]
        total = d.sum(axis=1)  # flip the changes whose bit is 1: each takes 2 d from the total
        flipped = total[:, None] - 2 * np.einsum("sfn,sn->sf", bits, d)
        tol = REL_TOL * np.abs(d).sum(axis=1)  # ties, as randomization_test counts them
        count = _count_at_least_as_extreme(flipped, total[:, None], alternative, tol[:, None])
        rejected += int(np.count_nonzero((count + 1) / (n_flips + 1) <= alpha))
    return rejected / n_studies


def _simulation(rng, n_studies, n_flips, alpha: float):
    """The simulation's generator and sizes, checked."""
    gen = _checks.generator(rng)
    n_studies = _checks.integer(n_studies, "n_studies")
    n_flips = _checks.integer(n_flips, "n_flips")
    if (n_flips + 1) * alpha < 1:
        raise ValueError(
            f"with n_flips={n_flips} a simulated test's p is at least 1/{n_flips + 1}, above "
            f"alpha={alpha:g}, so it could never detect anything: use n_flips >= "
            f"{math.ceil(1 / alpha) - 1} (199 for alpha 0.05)."
        )
    return gen, n_studies, n_flips


def _shifted(d: np.ndarray, smallest: float, alternative: str) -> np.ndarray:
    """The pilot's changes moved to mean ``smallest_useful`` (``-smallest_useful`` for
    "less") and widened by ``sqrt(k / (k - 1))``, so that drawing from them gives changes of
    the pilot's SD (with ``ddof=1``, the SD the t method uses) rather than a smaller one."""
    effect = -smallest if alternative == "less" else smallest
    return (d - d.mean()) * math.sqrt(d.size / (d.size - 1)) + effect


def _randomization_search(shifted, n_t, target, alpha, alternative, gen, n_studies, n_flips):
    """Q where the simulated power curve reaches ``target``, the power simulated there and the
    studies it took: a probit line in ``sqrt(Q)`` (the large-sample curve's shape), fitted to 12
    sizes around ``n_t`` weighted by their precision, not the first size whose noisy estimate
    reaches the target (the luckiest of 12 draws); then 3% more queries, with twice the studies
    (up to 4x), while the power there falls short by more than its standard error."""
    from scipy import stats

    grid = np.unique(np.linspace(max(2, 0.5 * n_t), 1.5 * n_t + 4, 12).round().astype(int))
    simulation = (alpha, alternative, gen, n_studies, n_flips)
    est = np.array([_simulated_power(shifted, int(n), *simulation) for n in grid])
    p = np.clip(est, 0.5 / n_studies, 1 - 0.5 / n_studies)
    z = stats.norm.ppf(p)
    w = np.sqrt(stats.norm.pdf(z) ** 2 / (p * (1 - p)))  # 1 / SE of z, up to a constant
    slope, intercept = np.polyfit(np.sqrt(grid), z, 1, w=w)
    if slope <= 0:
        raise ValueError(
            "the simulated power did not grow with the number of queries: raise n_studies "
            f"(now {n_studies}) for a less noisy estimate."
        )
    n, studies = max(2, math.ceil(((stats.norm.ppf(target) - intercept) / slope) ** 2)), n_studies
    while n <= MAX_QUERIES:
        achieved = _simulated_power(shifted, n, alpha, alternative, gen, studies, n_flips)
        if achieved + math.sqrt(achieved * (1 - achieved) / studies) >= target:
            return n, achieved, studies  # at least the target, within its standard error
        n, studies = max(n + 1, math.ceil(1.03 * n)), min(2 * studies, 4 * n_studies)
    raise ValueError(
        f"detecting the change with power {target:g} would take more than {MAX_QUERIES:,} "
        "queries: plan for a larger smallest useful change."
    )
