"""Exact distributions on a grid by FFT, within :data:`MAX_GRID_POINTS` points: the sign-flip
distribution of many changes (:class:`SignFlipFFT`, its tails by tilting however small) and the
Q-fold convolution of the exact bootstrap of the mean (:func:`_fft_spectrum`)."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy  # scipy.fft and scipy.special load on first use (0.3 s of every kernel's start)
from numpy.typing import ArrayLike

#: Most grid points any exact grid computation holds (the FFTs take about 40 bytes a
#: point, 320 MiB at the limit); an MS MARCO-sized comparison fits (``make bench``).
MAX_GRID_POINTS = 2**23

#: Each tail cut off by the FFT window holds less than this probability (far below the 1e-10
#: tolerance with which intervals are read).
TAIL_EPSILON = 1e-14

_EPS = float(np.finfo(float).eps)


def _within(points: int, what: str, fix: str = "") -> int:
    """``points``, or a ValueError naming the limit when ``what`` needs more points."""
    if points > MAX_GRID_POINTS:  # read at each call: a user may raise it
        raise ValueError(
            f"{what} {points:,} points, above the limit MAX_GRID_POINTS = {MAX_GRID_POINTS:,}{fix}."
        )
    return points


def _fft_length(width: int, what: str = "the sign-flip distribution", fix: str = "") -> int:
    """A fast FFT length (2^a 3^b 5^c ...) for ``width`` points, within the limit."""
    return _within(scipy.fft.next_fast_len(width, real=True), f"{what} needs an FFT of", fix)


# --- The sign-flip distribution by FFT, and its tails ---------------------------


#: The sign-flip distribution is built by dynamic programming while K * S (K non-zero steps, S
#: their total: its additions, about a quarter of a second) is at most this; beyond, by FFT.
MAX_DP_WORK = 2**28

#: Frequencies whose transform is below exp(LOG_DROP) = 1e-40 are dropped.
_LOG_DROP = -92.0


def _times_power(x: np.ndarray, base: np.ndarray, e: int) -> np.ndarray:
    """``x * base**e`` by repeated squaring: no exp or log of complex numbers."""
    while e:
        if e & 1:
            x = x * base
        e >>= 1
        if e:
            base = base * base
    return x


#: The candidate frequencies' log-magnitudes are summed in blocks of at most this many terms.
_BLOCK = 2**20


def _flip_candidates(v: np.ndarray, weight: np.ndarray, n_fft: int) -> np.ndarray | None:
    """The frequencies ``0..N/2`` at which the tilted transform may exceed exp(_LOG_DROP) (every
    other one certainly does not), or None when too many remain to gain by it. With ``s_j = 4 pi_j
    (1 - pi_j)`` and ``weight = c s``,
    ``-log|X_f| = sum_j -c_j/2 log1p(-s_j sin^2(pi f v_j / N)) >= (W - Re Phi(2 pi f / N)) / 4``
    (as ``-log1p(-x) >= x``), where ``W = sum weight`` and ``Phi(w) = sum_j weight_j exp(i w
    v_j)`` moves by at most ``D |w - w'|``, ``D = sum weight_j v_j``. So a frequency survives
    only near a point ``2 pi m / M`` where ``Re Phi`` (one small FFT) is within ``D pi / M`` of
    ``W - 4 * 92`` (a margin of 1 in the logarithm covers every rounding).
    """
    total, slope = float(weight.sum()), float(np.dot(weight, v))
    need = total - 4 * (-_LOG_DROP + 1.0)  # Re Phi at a surviving frequency exceeds this
    if need <= 0 or slope <= 0:
        return None
    m = scipy.fft.next_fast_len(math.ceil(16 * math.pi * slope / total) + 1, real=True)
    slack = slope * math.pi / m + 1e-9 * total  # the Lipschitz step, and the small FFT's rounding
    if m > n_fft // 8 or need - slack <= total / 2:
        return None
    coarse = scipy.fft.rfft(np.bincount(v % m, weights=weight, minlength=m)).real
    return _near(np.flatnonzero(coarse > need - slack), m, n_fft, (n_fft // 2 + 1) // 8)


def _near(cells: np.ndarray, m: int, n_fft: int, most: int) -> np.ndarray | None:
    """Every frequency ``0..N/2`` within pi / M of a point ``2 pi c / M``, c in ``cells`` or
    ``M - c`` (the transform there is the conjugate), sorted; None when more than ``most``."""
    cells = np.union1d(cells, m - cells)
    # f lies within pi / M of its nearest point c: in [(2c - 1) N / 2M, (2c + 1) N / 2M]
    first = np.maximum(0, -((-(2 * cells - 1) * n_fft) // (2 * m)))
    last = np.minimum(n_fft // 2, ((2 * cells + 1) * n_fft) // (2 * m))
    keep = last >= first
    first, last = first[keep], last[keep]
    if int((last - first + 1).sum()) > most:
        return None
    spans = [np.arange(a, b + 1) for a, b in zip(first, last, strict=True)]
    return np.unique(np.concatenate(spans))


def _flip_transform(
    v: np.ndarray, c: np.ndarray, theta: float, lo: int, n_fft: int
) -> tuple[np.ndarray, np.ndarray, float]:
    """The half spectrum of the flipped total T, tilted by ``theta``, on an FFT of ``n_fft``
    points: the frequencies kept and its values there (0 elsewhere), and a bound on the error of
    any probability of its inverse. Under the tilt each ``|k|`` equal to ``v[j]`` (``c[j]`` of
    them) is flipped with probability ``pi_j = 1 / (1 + exp(-theta v_j))`` (1/2 when theta = 0),
    so that, with w = exp(2 pi i / N),
    ``X_f = w**(f lo) prod_j (1 - pi_j + pi_j w**(-f v_j))**c_j``: its inverse FFT holds
    ``P(T = lo + n)`` at n. Log-magnitudes are summed first, steepest factor first, dropping a
    frequency once below 1e-40; the complex product is formed on the few that remain. Only
    :func:`_flip_candidates`' frequencies are summed: the same sums in the same order.
    """
    pi = scipy.special.expit(theta * v)
    spread = 4 * pi * (1 - pi)
    order = np.argsort(-(c * spread * v.astype(float) ** 2), kind="stable")
    freq = _flip_candidates(v, c * spread, n_fft)
    with np.errstate(divide="ignore"):
        if freq is None:  # every frequency, dropping each as soon as it is ruled out
            freq = np.arange(n_fft // 2 + 1, dtype=np.int64)
            logmag = np.zeros(freq.size)
            for j in order.tolist():
                half = np.sin(np.pi * ((freq * v[j]) % n_fft) / n_fft)
                logmag += 0.5 * c[j] * np.log1p(-spread[j] * half * half)
                alive = logmag > _LOG_DROP
                freq, logmag = freq[alive], logmag[alive]
        else:  # the few candidates: each factor's term in a block, summed in the same order
            vo, co, so = v[order][:, None], (0.5 * c[order])[:, None], -spread[order][:, None]
            kept = []
            for part in np.array_split(freq, -(-freq.size * v.size // _BLOCK)):
                half = np.sin(np.pi * ((part[None, :] * vo) % n_fft) / n_fft)
                logmag = np.add.accumulate(co * np.log1p(so * half * half), axis=0)[-1]
                kept.append(part[logmag > _LOG_DROP])
            freq = np.concatenate(kept)
    x = np.exp(2j * np.pi * ((freq * (lo % n_fft)) % n_fft) / n_fft)
    rows = max(1, _BLOCK // max(1, freq.size))  # each factor's bases, a block of rows at a time
    for start in range(0, v.size, rows):
        vs, ps = v[start : start + rows, None], pi[start : start + rows, None]
        bases = (1 - ps) + ps * np.exp(-2j * np.pi * ((freq[None, :] * vs) % n_fft) / n_fft)
        for base, e in zip(bases, c[start : start + rows].tolist(), strict=True):
            x = _times_power(x, base, e)
    # each kept value: a few eps per multiplication; the inverse FFT: log2(N) eps per term
    steps = v.size * (2 * math.log2(float(c.max())) + 8) + 2 * math.log2(n_fft) + 8
    error = 2 * steps * _EPS * float(np.abs(x).sum()) / n_fft + 2 * math.exp(_LOG_DROP)
    return freq, x, error


def _hoeffding_halfwidth(sum_squares: float, eps: float) -> float:
    """How far a sum of independent terms, each in an interval of length ``v_i``, strays from its
    mean except with probability ``eps``: ``sqrt(sum v_i**2 * log(2 / eps) / 2)`` (Hoeffding)."""
    return math.sqrt(sum_squares * math.log(2 / eps) / 2)


@dataclass(frozen=True, eq=False)
class SignFlipFFT:
    """The distribution of the flipped total T by FFT, for K * S beyond :data:`MAX_DP_WORK`:
    ``probabilities[i]`` is ``P(T = first + i)`` (within ``error_bound``, the inverse FFT taken
    when first asked) on a window outside which each tail holds under 1e-14; :meth:`lower_tail`
    gives tails to a relative 1e-9 however small."""

    values: np.ndarray
    counts: np.ndarray
    total: int
    first: int
    width: int
    kept: np.ndarray = field(repr=False)  # the frequencies where the spectrum is not 0
    spectrum: np.ndarray = field(repr=False)  # its values there
    error_bound: float
    n_points: int
    _tails: dict = field(default_factory=dict, repr=False)  # (t, log): the tail, once

    @functools.cached_property
    def probabilities(self) -> np.ndarray:
        return _inverse(self.kept, self.spectrum, self.n_points, self.width)

    @classmethod
    def of(cls, steps: ArrayLike) -> SignFlipFFT:
        """The distribution for the integer ``steps`` (zeros ignored); ValueError when the FFT
        would exceed :data:`MAX_GRID_POINTS`."""
        k = np.abs(np.asarray(steps, dtype=np.int64))
        v, c = np.unique(k[k != 0], return_counts=True)
        total = int(np.dot(v, c))
        sum_squares = float(np.dot(c, v.astype(float) ** 2))
        half = _hoeffding_halfwidth(sum_squares, TAIL_EPSILON)
        lo = max(0, math.floor(total / 2 - half))
        hi = min(total, math.ceil(total / 2 + half))
        n_fft = _fft_length(hi - lo + 1)
        # the tails' window (see lower_tail) must fit as well
        tails = min(total + 1, 2 * math.ceil(_hoeffding_halfwidth(sum_squares, 1e-30)) + 1)
        _fft_length(tails)
        return cls(v, c, total, lo, hi - lo + 1, *_flip_transform(v, c, 0.0, lo, n_fft), n_fft)

    def lower_tail(self, t: int) -> float:
        """``P(T <= t)``, to a relative 1e-9 however small (0.0 where that underflows: see
        :meth:`log_lower_tail`). Read off the window when precise enough, else by tilting: with q
        T's distribution when each ``|k_i|`` is flipped with probability ``1 / (1 + exp(-theta
        |k_i|))`` and ``M = E exp(theta T)``, ``P(T <= t) = M exp(-theta t) * sum over u <= t of
        q(u) exp(theta (t - u))``; theta < 0 puts q's mean, where the FFT is accurate, at t."""
        return self._lower_tail(t, log=False)

    def log_lower_tail(self, t: int) -> float:
        """``log P(T <= t)`` (natural), to about 1e-9 of ``P(T <= t)``, also where the probability
        underflows double precision (-inf when ``t < 0``)."""
        return self._lower_tail(t, log=True)

    def _lower_tail(self, t: int, log: bool) -> float:
        if (t, log) not in self._tails:  # a two-sided p asks for the same tail twice
            self._tails[t, log] = self._new_tail(t, log)
        return self._tails[t, log]

    def _new_tail(self, t: int, log: bool) -> float:
        v, c, total = self.values, self.counts, self.total
        if t < 0:
            return -math.inf if log else 0.0
        if 2 * t >= total:
            upper = self._lower_tail(total - t - 1, log=False)
            return math.log1p(-upper) if log else 1.0 - upper
        if t < int(v[0]):  # only T = 0: no change flipped
            n = int(c.sum())
            return -n * math.log(2.0) if log else math.ldexp(1.0, -n)
        # read off the window when its absolute error (each point's, and the tail below the
        # window) is below 1e-9 of the sum, else by tilting; the window's inverse FFT is skipped
        # where Hoeffding's bound on P(T <= t) is below half that, or t lies below the window.
        vf = v.astype(float)
        sum_squares = float(np.dot(c, vf**2))
        needed = 1e9 * ((t - self.first + 1) * self.error_bound + TAIL_EPSILON)
        hoeffding = math.exp(-2 * (total / 2 - t) ** 2 / sum_squares)
        if t >= self.first and hoeffding >= needed / 2:
            direct = float(self.probabilities[: t - self.first + 1].sum())
            if direct >= needed:
                return math.log(direct) if log else direct

        def mean(theta: float) -> float:
            return float(np.dot(c, vf * scipy.special.expit(theta * vf)))

        a = -1.0 / float(v[-1])
        while mean(a) > t:
            a *= 2
        theta = scipy.optimize.brentq(lambda th: mean(th) - t, a, 0.0)  # any theta is exact
        half = _hoeffding_halfwidth(sum_squares, 1e-30)
        lo = max(0, math.floor(t - half))
        n_fft = _fft_length(min(total, math.ceil(t + half)) - lo + 1)
        freq, x, _ = _flip_transform(v, c, theta, lo, n_fft)
        weighted = _tilted_sum(freq, x, n_fft, t - lo + 1, theta)
        if not weighted > 0:  # q is centred at t, so its terms near t are far from 0
            raise RuntimeError(f"the tilted tail at t = {t} has no mass; please report this")
        log_m = float(np.dot(c, np.logaddexp(0.0, theta * vf) - math.log(2.0)))
        log_tail = log_m - theta * t + math.log(weighted)
        return log_tail if log else math.exp(log_tail)


def _inverse(kept: np.ndarray, values: np.ndarray, n_fft: int, size: int) -> np.ndarray:
    """The first ``size`` points, clipped at 0, of the inverse FFT of ``values`` at ``kept``."""
    spectrum = np.zeros(n_fft // 2 + 1, dtype=complex)
    spectrum[kept] = values
    p = scipy.fft.irfft(spectrum, n_fft)[:size]
    return np.maximum(p, 0.0, out=p)


def _tilted_sum(kept: np.ndarray, values: np.ndarray, n_fft: int, size: int, theta: float) -> float:
    """``sum over n < size of q(n) exp(theta (size - 1 - n))``, q :func:`_inverse`'s (not clipped),
    from the few kept frequencies, each a geometric sum in closed form: with ``z = exp(2 pi i f /
    N)``, ``z**(size - 1) (1 - (e**theta / z)**size) / (1 - e**theta / z)``, no inverse FFT."""

    def one_minus(a: float, turns: np.ndarray) -> np.ndarray:  # 1 - exp(a - 2 pi i turns / N)
        phi = 2 * np.pi * turns / n_fft  # from expm1 and sines: no cancellation near 0
        return (
            2 * np.sin(phi / 2) ** 2 - math.expm1(a) * np.cos(phi) + 1j * math.exp(a) * np.sin(phi)
        )

    geometric = one_minus(size * theta, (kept * size) % n_fft) / one_minus(theta, kept)
    rotate = np.exp(2j * np.pi * ((kept * (size - 1)) % n_fft) / n_fft)
    twice = np.where((kept == 0) | (2 * kept == n_fft), 1.0, 2.0)  # f and N - f, conjugates
    return float(np.dot(twice, (values * rotate * geometric).real)) / n_fft


# --- The bootstrap of the mean: the Q-fold convolution ----------------------------


def _chernoff_halfwidths(
    x: np.ndarray, counts: np.ndarray, n: int, eps: float
) -> tuple[float, float]:
    """How far below and above its mean a sum of n draws of x (weights counts) can be, except with
    probability eps: Chernoff's ``P(S - n mu >= t) <= exp(n K(theta) - theta t)``, K the centred
    draw's log moment generating function, holds for every theta > 0 (a coarse grid suffices).
    """
    w = counts / counts.sum()
    mu = float(np.dot(w, x))
    c = x - mu
    spread = float(np.max(np.abs(c)))
    if spread == 0:
        return 0.0, 0.0
    theta = np.logspace(-6, 3, 271) / spread

    def width(sign: float) -> float:
        z = sign * theta[:, None] * c[None, :]
        top = z.max(axis=1)
        # einsum, not @: a matrix product wakes OpenBLAS's threads, which then spin on a core
        # that compare_many's other worker needs
        k = top + np.log(np.einsum("ij,j->i", np.exp(z - top[:, None]), w))
        return float(np.min((n * k - math.log(eps)) / theta))

    return width(-1.0), width(1.0)


@dataclass(frozen=True, eq=False)
class _Spectrum:
    """The Q-th power of one draw's transform at the kept frequencies, for a window of totals."""

    kept: np.ndarray  # the kept frequencies (indices into the rfft output)
    power: np.ndarray  # the Q-th power there
    lo: int  # the window's first total, counted from Q * min step
    width: int  # the totals in the window
    n_fft: int
    first: int  # the window's first total, in grid steps
    error: float  # the forward transform's share of the error bound, and the cut-off tails


def _draw_candidates(x: np.ndarray, w: np.ndarray, level: float, n_fft: int) -> np.ndarray | None:
    """The frequencies ``0..N/2`` at which one draw's transform may exceed ``level`` in magnitude
    (every other one certainly does not), or None where the full FFT is cheaper. ``|phi_f|``,
    ``phi_f = sum_x w_x exp(-2 pi i f x / N)``, moves by at most ``L |w - w'|``
    (``L = sum_x w_x |x - c|``, c the median: centre the exponent at c), so its values at the M
    points ``2 pi m / M`` (one small FFT of the weights folded modulo M) bound it at every one
    of the N frequencies.
    """
    if n_fft < 2**16:
        return None
    centre = x[np.searchsorted(np.cumsum(w), 0.5)]
    slope = float(np.dot(w, np.abs(x - centre)))
    m = scipy.fft.next_fast_len(math.ceil(20 * math.pi * slope) + 1, real=True)
    slack = slope * math.pi / m + 1e-9  # at most 0.05, and the small FFT's rounding
    if m > n_fft // 8:
        return None
    coarse = np.abs(scipy.fft.rfft(np.bincount(x % m, weights=w, minlength=m)))
    # beyond N / x.size frequencies, the sums over the values cost more than the FFT
    return _near(np.flatnonzero(coarse > level - slack), m, n_fft, n_fft // x.size)


def _transform_at(x: np.ndarray, w: np.ndarray, freq: np.ndarray, n_fft: int) -> np.ndarray:
    """``sum_x w_x exp(-2 pi i f x / N)`` at the frequencies ``freq``, each a pairwise sum (the
    angle reduced modulo N in integers first), in blocks of at most :data:`_BLOCK` terms. Each term
    is off by about 16 eps at most (the angle's rounding, below 10 eps of 2 pi; exp's
    and the product's), a pairwise sum of n terms adds ``12 + log2(n)``: ``log2(n) + 32`` in all.
    """
    out = np.empty(freq.size, dtype=complex)
    rows = max(1, _BLOCK // x.size)
    for i in range(0, freq.size, rows):
        turns = (freq[i : i + rows, None] * x[None, :]) % n_fft
        out[i : i + rows] = (np.exp(-2j * np.pi * turns / n_fft) * w).sum(axis=1)
    return out


def _fft_spectrum(steps: np.ndarray, label: str, q: int) -> _Spectrum:
    """The transform of the total of Q draws of the grid ``steps``, on a window of totals. Its
    error bound: the forward FFT's ``log2(N) eps`` on each ``phi_f`` (the input sums to 1), times
    ``Q |phi_f|**(Q-1)`` by the power; at frequency f an error adds at most ``1 / (N sin(pi f /
    N)) <= 1 / (2f)`` to any partial sum of the inverse (a geometric sum); plus the cut-off
    tails, the dropped frequencies (each below 1e-40) and the read-out's (:func:`_fft_totals`)."""
    k = steps
    kmin = int(k.min())
    x, counts = np.unique(k - kmin, return_counts=True)
    span = int(x[-1])
    full = q * span + 1
    below, above = _chernoff_halfwidths(x.astype(float), counts.astype(float), q, TAIL_EPSILON)
    centre = float(np.dot(counts, x))  # Q times the mean step
    lo = max(0, math.floor(centre - below * (1 + 1e-9)) - 1)  # lo and hi count from Q * kmin
    hi = min(full - 1, math.ceil(centre + above * (1 + 1e-9)) + 1)
    width = hi - lo + 1
    if scipy.fft.next_fast_len(max(width, span + 1), real=True) >= full:  # all totals fit
        lo, width = 0, full
    what = f"the exact bootstrap on the {label} grid"
    fix = "; raise it if the memory allows (40 bytes a point), or use paired_bootstrap"
    n_fft = _fft_length(max(width, span + 1), what, fix)
    w = counts / q
    # Frequencies where |phi_f|**Q < 1e-40 contribute nothing visible; dropping them also keeps
    # the squaring away from subnormal numbers (which are very slow).
    floor = math.exp(-184.0 / q)
    candidates = _draw_candidates(x, w, math.sqrt(floor), n_fft)
    if candidates is None:  # the whole transform by FFT
        f = np.zeros(n_fft)
        f[x] = w
        phi, log_n = scipy.fft.rfft(f), math.log2(n_fft) + 2
    else:  # only the frequencies that can be kept, each a direct sum over the values
        phi, log_n = _transform_at(x, w, candidates, n_fft), math.log2(x.size) + 32
    pairs = phi.view(np.float64).reshape(-1, 2)
    keep = np.flatnonzero(np.einsum("ij,ij->i", pairs, pairs) > floor)
    kept = keep if candidates is None else candidates[keep]
    phi = phi[keep]
    power = _times_power(np.ones_like(phi), phi, q)
    pos = kept > 0  # the error bound (see above), over the kept frequencies f > 0
    pw, ph = power[pos], phi[pos]  # |phi_f|**(Q-1) = |phi_f**Q| / |phi_f|, squared magnitudes
    lower = np.sqrt((pw.real**2 + pw.imag**2) / (ph.real**2 + ph.imag**2))
    # 1 / (N sin(pi f / N)) <= 1 / (2 f) for f <= N/2, since sin(x) >= 2x/pi there
    forward = 2 * q * log_n * _EPS * float(np.dot(lower, 0.5 / kept[pos])) + 1e-25
    return _Spectrum(kept, power, lo, width, n_fft, lo + q * kmin, 2 * TAIL_EPSILON + forward)


def _fft_totals(sp: _Spectrum) -> tuple[np.ndarray, float]:
    """The inverse FFT: probabilities (not renormalised) of the window's totals, and a bound on
    the error of any cumulative probability: :func:`_fft_spectrum`'s, ``N log2(N) eps`` times the
    largest probability for the inverse transform, and twice the mass clipped (then renormalised).
    """
    spectrum = np.zeros(sp.n_fft // 2 + 1, dtype=complex)
    spectrum[sp.kept] = sp.power
    p = scipy.fft.irfft(spectrum, sp.n_fft)
    p = np.roll(p, -sp.lo)[: sp.width]  # p[j] becomes the probability of the total lo + j
    before = float(p.sum())
    np.maximum(p, 0.0, out=p)  # clip the round-off below zero
    clipped = float(p.sum()) - before
    inverse = sp.n_fft * (math.log2(sp.n_fft) + 2) * _EPS * float(p.max())
    return p, float(sp.error + inverse + 2 * clipped)


#: With at most this many kept frequencies, an interval is read off the spectrum
#: (:func:`_spectrum_cdf`), skipping the inverse FFT.
MAX_DIRECT_FREQUENCIES = 2_000


def _spectrum_cdf(sp: _Spectrum) -> tuple[Callable[[int], float], float]:
    """``cdf(j)``, the probability of the totals ``lo .. lo + j`` read off the spectrum (no inverse
    FFT), and a bound on its rounding. P(t) is ``(1/N) sum_f P_f w**(f t)``, ``w = exp(2 pi i /
    N)``, so cdf(j) sums geometric series: ``(1/N) [P_0 (j + 1) + sum_f c_f Re(P_f w**(f lo) (1 -
    w**(f (j+1))) / (1 - w**f))]``, ``c_f = 2`` (1 at f = N/2), each term off by a few eps."""
    n, pos = sp.n_fft, sp.kept > 0
    f = sp.kept[pos].astype(np.int64)
    p0 = float(sp.power[~pos][0].real) if (~pos).any() else 1.0

    def turn(m: np.ndarray) -> np.ndarray:  # w**m for integers m, reduced mod N first
        return np.exp(2j * np.pi * (np.mod(m, n) / n))

    coef = np.where(2 * f == n, 1.0, 2.0) * sp.power[pos] * turn(f * (sp.lo % n)) / (1 - turn(f))

    def cdf(j: int) -> float:
        return (p0 * (j + 1) + float(np.dot(coef, 1 - turn(f * (j + 1))).real)) / n

    terms = 8 * _EPS * np.dot(np.abs(sp.power[pos]), 0.5 / sp.kept[pos])
    return cdf, float(terms + 4 * _EPS * sp.width / sp.n_fft)


def _fft_ends(sp: _Spectrum, half_alpha: float, tolerance: float) -> tuple:
    """``((low, high), fft, error_bound)``: the positions in the window of the smallest totals with
    ``F > alpha/2`` and ``F > 1 - alpha/2`` (by bisection; cumulative probabilities within
    ``tolerance``, at least 10 error bounds, of a threshold count as equal), read off the spectrum
    (few kept frequencies) or the inverse FFT (then returned as ``fft``, else None)."""
    fft = None if sp.kept.size <= MAX_DIRECT_FREQUENCIES else _fft_totals(sp)
    if fft is None:
        cdf, rounding = _spectrum_cdf(sp)
        error_bound = sp.error + rounding
    else:
        cdf, error_bound = np.cumsum(fft[0]).item, fft[1]
    tol = max(tolerance, 10 * error_bound)
    if tol > 1e-6:
        raise ValueError(
            f"the FFT's error bound {error_bound:.1e} is too large to read the interval safely; "
            "use paired_bootstrap."
        )
    return _ends(cdf, sp.width - 1, half_alpha, tol), fft, error_bound


def _ends(cdf: Callable[[int], float], last: int, half_alpha: float, tol: float) -> tuple[int, int]:
    """The ends' positions for ``F = cdf / cdf(last)`` (no renormalising), ``cdf`` taken at
    O(log(last)) points."""
    total = cdf(last)

    def first_above(level: float) -> int:
        if not total > level:
            return last
        a, b = 0, last
        while a < b:
            mid = (a + b) // 2
            a, b = (a, mid) if cdf(mid) > level else (mid + 1, b)
        return a

    return first_above((half_alpha + tol) * total), first_above((1 - half_alpha + tol) * total)
