"""helpers.scale.fft: the sign-flip distribution of many changes by FFT, its tails by tilting, and
the Q-fold convolution of the exact bootstrap on a grid.

Checked against the routes they replace (the full loop over every frequency, the full rfft, the
inverse FFT), against exact integer counts of the tails, and against scipy's binomial test and
Chernoff's bound.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
import scipy
from scipy import stats
from test_grid import four_decimal_runs, reciprocal_ranks

from helpers import exact_bootstrap_interval, find_grid, randomization_test
from helpers.scale import fft as scale_fft
from helpers.scale.fft import SignFlipFFT


def test_ends_read_off_the_spectrum_equal_those_of_the_inverse_fft(monkeypatch):
    # with few kept frequencies the ends are read off the spectrum (no inverse FFT); with the
    # read-out switched off, the inverse FFT must give the same ends on every case
    rng = np.random.default_rng(1)
    direct = 0
    for i in range(24):
        q = int(rng.integers(20, 400))
        d = np.subtract(*four_decimal_runs(q, i)[::-1]) if i % 2 else rng.integers(-3, 4, q) / 7
        g = find_grid(d)
        sp = scale_fft._fft_spectrum(g.steps, g.label, q)
        ivs = [exact_bootstrap_interval(d, level) for level in (0.8, 0.95, 0.99)]
        if "FFT" not in ivs[0].method:
            continue
        direct += sp.kept.size <= scale_fft.MAX_DIRECT_FREQUENCIES
        with monkeypatch.context() as m:
            m.setattr(scale_fft, "MAX_DIRECT_FREQUENCIES", -1)
            full = [exact_bootstrap_interval(d, level) for level in (0.8, 0.95, 0.99)]
        assert [(iv.low, iv.high) for iv in ivs] == [(iv.low, iv.high) for iv in full]
    assert direct >= 15


# --- the fast routes of the large transforms (issue 31, item 7) --------------------------


@pytest.mark.parametrize("theta", [0.0, -1e-5, -1e-4])
def test_flip_transform_keeps_the_same_frequencies_as_the_full_loop(theta, monkeypatch):
    # the candidates ruled in by the small FFT must include every frequency the loop over all
    # N/2 + 1 of them keeps, with the same values bit for bit
    rng = np.random.default_rng(31)
    routes = 0
    for d in (
        np.subtract(*four_decimal_runs(3_000, 1)),
        np.subtract(*reciprocal_ranks(4_000, 2)[::-1]),
        np.round(rng.normal(0, 0.05, 2_000), 3),
    ):
        window = SignFlipFFT.of(find_grid(d[d != 0]).steps)
        v, c, lo, n_fft = window.values, window.counts, window.first, window.n_points
        pi = 1 / (1 + np.exp(-theta * v))
        routes += scale_fft._flip_candidates(v, c * 4 * pi * (1 - pi), n_fft) is not None
        fast = scale_fft._flip_transform(v, c, theta, lo, n_fft)
        with monkeypatch.context() as m:
            m.setattr(scale_fft, "_flip_candidates", lambda *args: None)
            full = scale_fft._flip_transform(v, c, theta, lo, n_fft)
        assert np.array_equal(fast[0], full[0]) and fast[2] == full[2]
        assert np.array_equal(fast[1].view(float), full[1].view(float))
    assert routes >= 2


def test_the_tilted_sum_in_closed_form_equals_the_weighted_inverse_fft():
    # a tilted tail's weighted sum, frequency by frequency, against the inverse FFT of all N
    # points that it replaces: 200 four-decimal changes (46 of 50,001 frequencies kept at the
    # small tilt, 49,418 at the large one), and 400 steps of 1 to 7 at an even and an odd N
    rng = np.random.default_rng(5)
    for steps, odd_too in (
        (find_grid(np.subtract(*four_decimal_runs(200, 1))).steps, False),
        (rng.integers(1, 8, 400), True),
    ):
        window = SignFlipFFT.of(steps)
        v, c, lo, even = window.values, window.counts, window.first, window.n_points
        odd = next(n for n in itertools.count(even) if n % 2 and scipy.fft.next_fast_len(n) == n)
        assert even % 2 == 0
        for n_fft, tilt in itertools.product((even, odd) if odd_too else (even,), (0.3, 3.0)):
            theta = -tilt / float(v[-1])
            kept, x, _ = scale_fft._flip_transform(v, c, theta, lo, n_fft)
            spectrum = np.zeros(n_fft // 2 + 1, dtype=complex)
            spectrum[kept] = x
            q = scipy.fft.irfft(spectrum, n_fft)  # not clipped at 0, as the closed form
            for size in (1, n_fft // 3, n_fft):
                theirs = float(np.dot(q[:size], np.exp(theta * np.arange(size - 1, -1, -1))))
                ours = scale_fft._tilted_sum(kept, x, n_fft, size, theta)
                assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-15), (n_fft, theta, size)


def test_bootstrap_transform_at_the_candidates_equals_the_full_fft(monkeypatch):
    # the frequencies kept and their Q-th powers: the direct sums against the full rfft
    rng = np.random.default_rng(7)
    direct = 0
    for d in (
        np.subtract(*four_decimal_runs(5_000, 3)),
        np.subtract(*reciprocal_ranks(6_000, 4)[::-1]),
        np.round(rng.normal(0, 0.05, 3_000), 3),
    ):
        g, q = find_grid(d), d.size
        sp = scale_fft._fft_spectrum(g.steps, g.label, q)
        ivs = [exact_bootstrap_interval(d, level) for level in (0.8, 0.95, 0.99)]
        with monkeypatch.context() as m:
            m.setattr(scale_fft, "_draw_candidates", lambda *args: None)
            full = scale_fft._fft_spectrum(g.steps, g.label, q)
            by_fft = [exact_bootstrap_interval(d, level) for level in (0.8, 0.95, 0.99)]
        direct += sp.error != full.error
        assert sp.kept.tolist() == full.kept.tolist()
        assert np.abs(sp.power - full.power).max() <= sp.error
        assert [tuple(iv.interval) for iv in ivs] == [tuple(iv.interval) for iv in by_fft]
    assert direct >= 2


def test_a_tail_hoeffding_rules_off_the_window_skips_its_inverse_fft():
    # 3,000 hit@k changes, 1,700 up: P(T <= 1,300) is about 1e-13, too small to read off the
    # window; Hoeffding's bound says so, so the window's inverse FFT is never taken
    d = np.r_[np.ones(1_700), -np.ones(1_300)].astype(int)
    fft = SignFlipFFT.of(d)
    theirs = stats.binomtest(1_300, 3_000, 0.5, alternative="less").pvalue
    assert fft.first <= 1_300 and fft.lower_tail(1_300) == pytest.approx(theirs, rel=1e-9)
    assert "probabilities" not in vars(fft)
    assert fft.lower_tail(1_450) == pytest.approx(
        stats.binomtest(1_450, 3_000, 0.5, alternative="less").pvalue, rel=1e-9
    )
    assert "probabilities" in vars(fft)  # a larger tail is read off the window


# --- tails far below the FFT window are never 0 (issue 38, item 3) ----------------------


def exact_lower_tails(steps):
    """``counts[t]`` = the sign assignments whose flipped total T is at most t, with Python
    integers (exact): the coefficients of the product of (1 + x^k), summed."""
    counts = [1]
    for k in steps:
        new = counts + [0] * k
        for t, c in enumerate(counts):
            new[t + k] += c
        counts = new
    return list(itertools.accumulate(counts))


def chernoff_log_bound(steps, t):
    """log of Chernoff's bound on P(T <= t): min over theta < 0 of log E exp(theta T) - theta t."""
    k = np.abs(np.asarray(steps, dtype=float))
    thetas = -np.logspace(-7, 1, 4_001)
    log_m = (np.logaddexp(0.0, thetas[:, None] * k[None, :]) - math.log(2.0)).sum(axis=1)
    return float(np.min(log_m - thetas * t))


def test_lower_tail_far_below_the_window_equals_exact_integer_counts():
    # 400 steps of 1..7: the window starts near T = 440; every tail below it, down to T = 0,
    # against the exact count over 2**400, to the promised relative 1e-9 (it returned 0.0
    # once t lay 100 to 200 points below the window)
    steps = np.random.default_rng(38).integers(1, 8, 400)
    fft = SignFlipFFT.of(steps)
    counts = exact_lower_tails(steps.tolist())
    assert fft.first >= 400
    checked = [fft.first - 1, fft.first - 200, fft.first // 2, int(steps.min()), 1, 0]
    for t in [*checked, *range(0, fft.first, 37)]:
        exact = Fraction(counts[t], 2**steps.size)
        assert 0 < fft.lower_tail(t) == pytest.approx(float(exact), rel=1e-9), t
        assert fft.log_lower_tail(t) == pytest.approx(math.log(exact), rel=1e-12, abs=1e-9)


# The full sweep's (make test-browser, CI), not make test's: about 15 s of CPU, on a path no
# chapter reaches (the FFT route past MAX_DP_WORK, and tails by tilting far below its window).
# make test tilts too, in the test above, against exact integer counts.
@pytest.mark.sweep
def test_tails_of_800_changes_on_a_fine_grid_are_positive_and_within_chernoff():
    # 800 queries, mean change about +0.05 on the 0.0001 grid: the exact p once came out 0.0.
    # Hoeffding's bound caps the two-sided p; Chernoff's, tighter, caps each tail, and the
    # tail lies within a factor 1e-6 of it (Bahadur-Rao: about 1/(|theta| sigma sqrt(2 pi)))
    rng = np.random.default_rng(38)
    d = np.round(rng.normal(0.05, 0.1, 800).clip(-1, 1), 4)
    res = randomization_test(d)
    hoeffding = 2 * math.exp(-(d.sum() ** 2) / (2 * np.sum(d**2)))
    assert res.exact and "by FFT of" in res.method and 0 < res.pvalue <= hoeffding < 1e-20
    steps = find_grid(d[d != 0]).steps
    fft = SignFlipFFT.of(steps)
    for t in (fft.first - 1, fft.first - 200, fft.first // 2):
        log_p, bound = fft.log_lower_tail(t), chernoff_log_bound(steps, t)
        assert 0 < fft.lower_tail(t) and bound - math.log(1e6) < log_p <= bound, t
