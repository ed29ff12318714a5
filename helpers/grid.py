"""Exact answers on the score grid (trec_eval's four decimals, hit@k's 1/k, RR@10's 1/2520): each
change is a whole number ``k_q`` of steps, so the sign-flip distribution (sums of ``+-k_q``) and
the bootstrap of the mean (the Q-fold convolution of the ``k_q``) are sums of integers, computed
here by dynamic programming or enumeration and, beyond, by FFT in ``helpers.scale.fft``."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike

from . import _checks
from .intervals import PROBABILITY_TOLERANCE, Interval, _percentile_interval
from .resampling import ExactDistribution, _exact_bootstrap_distribution
from .scale.fft import MAX_GRID_POINTS, _fft_ends, _fft_spectrum, _fft_totals, _Spectrum, _within

__all__ = ["MAX_GRID_POINTS", "Grid", "find_grid", "sign_flip_distribution", "GridDistribution",
           "grid_bootstrap_distribution", "count_attainable_means", "ExactInterval",
           "exact_bootstrap_interval"]  # fmt: skip


@dataclass(frozen=True, eq=False)
class Grid:
    """Values as whole numbers of a step: ``values == steps * step`` up to float error."""

    steps: np.ndarray
    step: Fraction

    @property
    def label(self) -> str:
        """The step as written: ``"1/5"``, ``"0.0001"``, ``"1"``."""
        num, den = self.step.numerator, self.step.denominator
        places = len(str(den)) - 1
        if den == 10**places:  # 1, 10, 100, ...: a decimal
            return f"{num / den:.{places}f}"
        return f"{num}/{den}"


def find_grid(values: ArrayLike) -> Grid | None:
    """The coarsest grid step the ``values`` are whole numbers of (with those numbers), or None.

    Steps tried: 1/L for every L up to 100,000 (hit@k's, RR@10's, trec_eval's grids and their
    least common multiples) and 10^-6. A value is on the grid of step h when ``value / h`` is
    within ``1e-9 + 8 eps size / h`` of a whole number (the float error of a difference of scores
    as large as the largest |value|); fractions with denominators up to 100,000 stay 1e-10 apart.

    >>> g = find_grid([0.2, -0.4, 0.0, 0.6000000000000001])   # P@5 changes
    >>> g.steps.tolist(), g.label
    ([1, -2, 0, 3], '1/5')
    """
    return _find_grid(_checks.scores(values, "values"))


def _find_grid(v: np.ndarray) -> Grid | None:
    size = float(np.max(np.abs(v)))
    nonzero = np.unique(np.abs(v[v != 0]))
    if size * 10**MAX_DECIMALS > 2**50:
        return None

    def off_grid(x: np.ndarray, per_unit: int) -> np.ndarray:  # the x not on the 1/per_unit grid
        r = x * per_unit
        return x[np.abs(r - np.round(r)) > GRID_TOLERANCE + 8 * _EPS * size * per_unit]

    units = 1  # grid points per unit: the step is 1/units
    while (bad := off_grid(nonzero, units)).size:
        den = Fraction(float(bad[0])).limit_denominator(MAX_DENOMINATOR).denominator
        before, units = units, math.lcm(units, den)
        if units == before or units > MAX_DENOMINATOR or off_grid(bad[:1], den).size:
            units = 10**MAX_DECIMALS  # no L up to the limit: six decimals, or no grid
            if off_grid(nonzero, units).size:
                return None
            break
    steps = np.round(v * units).astype(np.int64)
    g = int(np.gcd.reduce(np.abs(steps))) or 1  # all zero: step 1
    return Grid(steps // g, Fraction(g, units))


#: The steps :func:`find_grid` tries, its tolerance, and how a ValueError names the grids tried.
MAX_DENOMINATOR = 100_000
MAX_DECIMALS = 6
GRID_TOLERANCE = 1e-9
GRIDS_TRIED = f"multiples of 1/L for L <= {MAX_DENOMINATOR:,}, or of 10^-{MAX_DECIMALS}"
_EPS = float(np.finfo(float).eps)


# --- The randomization test: the exact sign-flip distribution ---------------------


def sign_flip_distribution(steps: ArrayLike) -> np.ndarray:
    """Probabilities of the flipped total ``T``, over all ``2**K`` equally likely sign assignments.

    ``T`` is the total of the flipped ``|k_i|`` (the signed sum is ``S - 2T``,
    ``S = sum |k_i|``); ``p[t] = P(T = t)`` for ``t = 0..S``, by dynamic
    programming: ``p_new[t] = (p[t] + p[t - k]) / 2``. Only additions and
    scalings by powers of two, so the same on every CPU, and exact for K <= 53.

    >>> (sign_flip_distribution([1, 2, 3]) * 8).tolist()   # T = 0, 1, 2, 3 (twice), 4, 5, 6
    [1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0]
    """
    k = np.sort(np.abs(np.asarray(steps, dtype=np.int64)))
    k = k[k != 0]
    total = int(k.sum())
    _within(total + 1, "the sign-flip distribution needs")
    p = np.zeros(total + 1)
    p[0] = 1.0
    end = 1  # p[:end] is filled
    owed = 0  # halvings not yet applied: p holds counts scaled by 2**owed
    for step in k.tolist():
        p[step : end + step] += p[:end]  # numpy copies the overlapping source first
        end += step
        owed += 1
        if owed == 512:  # keep the counts far from overflow
            p[:end] *= 2.0**-512
            owed = 0
    p *= 2.0**-owed
    return p


# --- The bootstrap of the mean: the Q-fold convolution ----------------------------


@dataclass(frozen=True, eq=False)
class GridDistribution(ExactDistribution):
    """The resample means (ascending, step / Q apart) and their probabilities, by FFT;
    ``error_bound`` bounds any cumulative probability's error, ``n_points`` is the FFT's length."""

    step: Fraction
    error_bound: float
    n_points: int


def grid_bootstrap_distribution(changes: ArrayLike) -> GridDistribution:
    """The exact bootstrap distribution of the mean of changes on a grid, by FFT: with ``d_q =
    k_q * h``, a resample mean is ``h / Q`` times the total of Q draws of the k_q, the Q-th power
    of their Fourier transform transformed back (``helpers.scale.fft._fft_spectrum``).

    >>> dist = grid_bootstrap_distribution([-1, 0, 0, 1])
    >>> print(dist.values.tolist())
    [-1.0, -0.75, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75, 1.0]
    >>> print((dist.probabilities * 256).round(9).tolist())
    [1.0, 8.0, 28.0, 56.0, 70.0, 56.0, 28.0, 8.0, 1.0]
    """
    d = _checks.scores(changes, "changes")
    grid = _on_grid(d)
    return _grid_distribution(grid, d.size, _fft_spectrum(grid.steps, grid.label, d.size))


def _on_grid(d: np.ndarray) -> Grid:
    if (grid := _find_grid(d)) is None:
        raise ValueError(f"the changes are on no grid ({GRIDS_TRIED}).")
    return grid


def _grid_distribution(
    grid: Grid, q: int, sp: _Spectrum, fft: tuple | None = None
) -> GridDistribution:
    """The distribution of the mean from :func:`_fft_totals` (``fft`` if taken already),
    renormalised in place."""
    p, error_bound = fft or _fft_totals(sp)
    p /= p.sum()
    totals = np.arange(sp.first, sp.first + p.size, dtype=np.int64)
    step = grid.step
    values = (totals * step.numerator) / (step.denominator * q)  # rounded once
    return GridDistribution(values, p, step, float(error_bound), int(sp.n_fft))


def count_attainable_means(changes: ArrayLike) -> int:
    """How many distinct values a bootstrap resample mean of changes on a grid can take.

    Counts the distinct totals of Q draws of the steps ``k_q`` exactly: bit t of ``reach`` says
    whether a total t steps above ``Q * min(k)`` can be made.

    >>> count_attainable_means([0.10, 0.02, -0.06, 0.04])   # of 33 grid points from -0.06 to +0.10
    24
    """
    d = _checks.scores(changes, "changes")
    k = np.unique(_on_grid(d).steps)
    _within(d.size * int(k[-1] - k[0]) + 1, "the totals span")
    shifts = (k - k[0]).tolist()
    reach = 1  # the total of no draws: 0
    for _ in range(d.size):
        new = 0
        for s in shifts:
            new |= reach << s
        reach = new
    return bin(reach).count("1")


@dataclass(frozen=True)
class ExactInterval:
    """A percentile interval, how it was computed, and the exact bootstrap ``distribution`` it was
    read from (``values`` and ``probabilities``)."""

    low: float
    high: float
    level: float
    method: str
    error_bound: float
    _distribution: Callable[[], ExactDistribution] = field(repr=False, compare=False)

    @functools.cached_property
    def distribution(self) -> ExactDistribution:
        return self._distribution()

    @property
    def interval(self) -> Interval:
        return Interval(self.low, self.high)


#: Multiset enumeration is used up to this many count vectors; beyond, the grid FFT.
MAX_MULTISETS_FOR_INTERVAL = 200_000


def exact_bootstrap_interval(changes: ArrayLike, level: float = 0.95) -> ExactInterval:
    """The percentile interval of the bootstrap of the mean with infinitely many resamples, computed
    exactly.

    :func:`percentile_interval`'s rule with weights, over all ``Q**Q`` ordered resamples: ``F``
    from multiset enumeration (small cases) or the grid FFT.

    >>> iv = exact_bootstrap_interval([0.10, 0.02, -0.06, 0.04])
    >>> print(f"[{iv.low:+.3f}, {iv.high:+.3f}]  {iv.method}")
    [-0.035, +0.080]  exact bootstrap (multiset enumeration, 35 count vectors)
    """
    d = _checks.scores(changes, "changes")
    half_alpha = (1 - _checks.level(level)) / 2
    return _exact_bootstrap_interval(d, float(level), half_alpha)


def _exact_bootstrap_interval(d: np.ndarray, level: float, half_alpha: Fraction) -> ExactInterval:
    q, k = d.size, np.unique(d).size
    # C(Q + k - 1, k - 1) multisets of Q draws from k values: lgamma first, since the count can
    # have millions of digits (e**13 is above the limit)
    small = math.lgamma(q + k) - math.lgamma(k) - math.lgamma(q + 1) < 13
    n_multisets = math.comb(q + k - 1, k - 1) if small else MAX_MULTISETS_FOR_INTERVAL + 1
    if n_multisets <= MAX_MULTISETS_FOR_INTERVAL:
        dist = _exact_bootstrap_distribution(d, MAX_MULTISETS_FOR_INTERVAL)
        iv = _percentile_interval(dist.values, half_alpha, dist.probabilities)
        method = f"exact bootstrap (multiset enumeration, {n_multisets:,} count vectors)"
        return ExactInterval(iv.low, iv.high, level, method, 1e-12, lambda: dist)
    grid = _find_grid(d)
    if grid is None:
        raise ValueError(
            f"no exact bootstrap for these {q:,} changes: they are on no grid ({GRIDS_TRIED}) "
            f"and have C({q + k - 1:,}, {k - 1:,}) multisets to enumerate. Use paired_bootstrap "
            "(Monte Carlo)."
        )
    sp = _fft_spectrum(grid.steps, grid.label, q)
    (low_i, high_i), fft, error_bound = _fft_ends(sp, float(half_alpha), PROBABILITY_TOLERANCE)
    step, first = grid.step, sp.first
    low, high = (((first + i) * step.numerator) / (step.denominator * q) for i in (low_i, high_i))
    method = f"exact bootstrap (FFT on the {grid.label} grid, {sp.n_fft:,} points)"
    # for plots: the distribution, from the inverse FFT (taken then if it was skipped)
    distribution = functools.partial(_grid_distribution, grid, q, sp, fft)
    return ExactInterval(float(low), float(high), float(level), method, error_bound, distribution)
