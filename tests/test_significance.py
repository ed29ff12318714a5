"""The paired randomization test and the shifted-bootstrap test.

Checked against independent computations: brute-force enumeration with
itertools in exact rational arithmetic, the binomial sign test (by formula and
scipy.stats.binomtest), scipy.stats.permutation_test, and a replay of the
resampling engine's draws.

Holm's adjustment: a worked example by hand, an independent step-down loop, and bad input.
"""

from __future__ import annotations

import itertools
import math
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from helpers import (
    FOUR_PAIR_CHANGES,
    enumerate_resamples,
    hit_at_5_example,
    holm,
    paired_bootstrap,
)
from helpers.significance import (
    MAX_EXACT_ASSIGNMENTS,
    _sign_flip_means,
    randomization_test,
    shifted_bootstrap_test,
)

ALTERNATIVES = ["two-sided", "greater", "less"]


def brute_force_p(changes, alternative):
    """Exact p by listing every sign vector of every change, in exact rational arithmetic.

    Flips zeros too (they change nothing), so this also checks that enumerating
    only the non-zero changes gives the same fraction.
    """
    fr = [Fraction(str(x)) for x in changes]
    obs = sum(fr)
    sums = [
        sum(s * x for s, x in zip(signs, fr, strict=False))
        for signs in itertools.product((1, -1), repeat=len(fr))
    ]
    if alternative == "two-sided":
        hits = sum(abs(t) >= abs(obs) for t in sums)
    elif alternative == "greater":
        hits = sum(t >= obs for t in sums)
    else:
        hits = sum(t <= obs for t in sums)
    return Fraction(hits, len(sums))


def scipy_p(changes, alternative, **kwargs):
    res = stats.permutation_test(
        (np.asarray(changes, dtype=float),),
        lambda x, axis: np.mean(x, axis=axis),
        permutation_type="samples",
        vectorized=True,
        alternative=alternative,
        **kwargs,
    )
    return res.pvalue


def test_four_pairs_two_sided_is_10_of_16():
    res = randomization_test(FOUR_PAIR_CHANGES)
    assert res.exact and res.n_resamples == 16 and res.count == 10
    assert res.pvalue == 0.625
    assert res.statistic == pytest.approx(0.025, abs=1e-15)
    assert res.alternative == "two-sided"


def test_four_pairs_greater_is_5_of_16():
    res = randomization_test(FOUR_PAIR_CHANGES, alternative="greater")
    assert (res.count, res.pvalue) == (5, 0.3125)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_four_pairs_match_brute_force_in_exact_arithmetic(alternative):
    assert randomization_test(FOUR_PAIR_CHANGES, alternative=alternative).pvalue == float(
        brute_force_p(FOUR_PAIR_CHANGES, alternative)
    )


def test_the_120_queries_are_an_exact_sign_test_on_the_16_discordant_pairs():
    a, b = hit_at_5_example()
    d = b - a
    res = randomization_test(d)
    assert res.exact and res.n_resamples == 2**16  # only the 16 discordant queries flip
    # two-sided binomial sign test on 4 successes in 16 (McNemar's exact test), by formula
    by_formula = Fraction(2 * sum(math.comb(16, j) for j in range(0, 5)), 2**16)
    assert by_formula == Fraction(5034, 65536)
    assert res.pvalue == float(by_formula)
    assert round(res.pvalue, 4) == 0.0768
    assert res.pvalue == pytest.approx(stats.binomtest(4, 16, 0.5).pvalue, rel=1e-12)
    less = randomization_test(d, alternative="less")
    assert less.pvalue == pytest.approx(
        stats.binomtest(4, 16, 0.5, alternative="less").pvalue, rel=1e-12
    )
    assert less.pvalue == float(Fraction(2517, 65536))


def test_null_distribution_lists_the_assignments_in_itertools_order():
    d = np.array([0.5, -0.25, 0.0, 2.0])  # exact in binary, with one zero
    res = randomization_test(d)
    nonzero = d[d != 0]
    expected = [np.dot(s, nonzero) / d.size for s in itertools.product((1, -1), repeat=3)]
    np.testing.assert_array_equal(res.null_distribution, expected)
    assert res.null_distribution[0] == res.statistic  # row 0: the observed assignment
    with pytest.raises(ValueError):
        res.null_distribution[0] = 1.0  # read-only


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_matches_brute_force_on_lattice_data_with_zeros_and_ties(seed, alternative):
    # hit-like and graded changes: many zeros and many exact ties in the null
    rng = np.random.default_rng(seed)
    d = rng.integers(-3, 4, size=int(rng.integers(1, 11))) / 4
    assert randomization_test(d, alternative=alternative).pvalue == float(
        brute_force_p(d, alternative)
    )


def test_ties_from_rounding_still_count_as_ties():
    # 0.3 - 0.1 - 0.2 is -2.8e-17 in floating point, not 0: flipping those three
    # gives the observed sum in exact arithmetic, and must count as a tie
    d = [0.3, -0.1, -0.2, 0.5]
    res = randomization_test(d)
    assert res.pvalue == float(brute_force_p(d, "two-sided")) == 10 / 16
    naive = int((np.abs(res.null_distribution) >= abs(np.mean(d))).sum())
    assert naive != res.count  # a strict floating-point comparison would miss ties


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_agrees_with_scipy_permutation_test_exactly_for_small_n(seed, alternative):
    """scipy's one-sample "samples" test flips the sign of every observation, zeros
    included; with 2**n <= n_resamples (default 9,999, so n <= 13) it enumerates all
    of them. A zero's flip duplicates every statistic, so the fraction is the same as
    ours over the non-zero changes only. scipy's two-sided p is 2 * min(one-sided p),
    which for the symmetric sign-flip null equals ours, P(|T| >= |t|). Ties: scipy
    uses a relative tolerance of 100 eps * |t|, ours 1e-9 * mean|d|; on continuous
    data there are no near-ties, on quarter-integer data both are exact."""
    rng = np.random.default_rng(100 + seed)
    n = int(rng.integers(5, 13))
    continuous = rng.normal(0.02, 0.1, size=n)
    lattice = rng.integers(-2, 3, size=n) / 4
    for d in (continuous, lattice):
        ours = randomization_test(d, alternative=alternative)
        assert ours.exact
        assert ours.pvalue == pytest.approx(scipy_p(d, alternative), rel=1e-12, abs=1e-15)


def test_monte_carlo_agrees_with_the_exact_test_within_tolerance():
    """B = 40,000: the Monte Carlo p has standard error sqrt(p(1 - p)/B) <= 0.0025;
    the tolerance is 4 standard errors plus the 1/(B + 1) shift of the +1 rule."""
    B = 40_000
    for seed in range(3):
        d = np.random.default_rng(seed).normal(0.05, 0.2, size=18)
        exact = randomization_test(d)
        mc = randomization_test(d, n_resamples=B, rng=seed)
        assert not mc.exact and mc.n_resamples == B
        se = math.sqrt(exact.pvalue * (1 - exact.pvalue) / B)
        assert abs(mc.pvalue - exact.pvalue) < 4 * se + 1 / (B + 1)


def test_monte_carlo_agrees_with_scipy_for_larger_n():
    """n = 60, too many for either to enumerate; both sample B = 20,000 sign vectors.
    Ours estimates P(|T| >= |t|) directly (s.e. sqrt(p(1-p)/B)); scipy doubles a
    one-sided estimate (s.e. sqrt(p(2-p)/B)). The tolerance is 4.5 standard errors
    of the difference of the two independent estimates."""
    B = 20_000
    for seed in range(2):
        d = np.random.default_rng(seed).normal(0.03, 0.2, size=60)
        ours = randomization_test(d, n_resamples=B, rng=seed)
        theirs = scipy_p(d, "two-sided", n_resamples=B, rng=np.random.default_rng(1000 + seed))
        p = ours.pvalue
        assert 0.01 < p < 0.99  # a p-value where the comparison means something
        se = math.sqrt(p * (1 - p) / B + p * (2 - p) / B)
        assert abs(p - theirs) < 4.5 * se


def test_same_seed_same_result():
    # whatever the chunking: tests/test_properties.py
    d = np.random.default_rng(3).normal(size=200)
    first = randomization_test(d, n_resamples=5000, rng=11)
    again = randomization_test(d, n_resamples=5000, rng=np.random.default_rng(11))
    np.testing.assert_array_equal(first.null_distribution, again.null_distribution)
    assert (first.pvalue, first.count) == (again.pvalue, again.count)
    assert not np.array_equal(
        first.null_distribution, randomization_test(d, n_resamples=5000, rng=12).null_distribution
    )


@pytest.mark.parametrize("q", [4, 70, 600])
def test_monte_carlo_signs_are_bits_of_the_stream(q):
    # the test's null is the one kernel's means (_sign_flip_means: bit i of a resample's
    # little-endian 64-bit words flips non-zero change i), and those are the plain sums of the
    # signed changes (helpers.scale's kernel gives the same bits: tests/scale)
    d = np.round(np.random.default_rng(q).normal(size=q), 2)
    d[::5] = 0.0
    nonzero = d[d != 0]
    res = randomization_test(d, n_resamples=50, rng=5)
    means = _sign_flip_means(nonzero, q, 50, np.random.default_rng(5))
    np.testing.assert_array_equal(res.null_distribution, means)
    words = -(-nonzero.size // 64)
    draws = np.random.default_rng(5).integers(
        0, 2**64 - 1, size=(50, words), dtype=np.uint64, endpoint=True
    )
    flips = [[(int(w) >> i) & 1 for w in row for i in range(64)][: nonzero.size] for row in draws]
    signed = [[-x if f else x for x, f in zip(nonzero, row, strict=True)] for row in flips]
    expected = [math.fsum(row) / q for row in signed]
    np.testing.assert_allclose(means, expected, rtol=0, atol=1e-13)


def test_monte_carlo_p_is_never_zero():
    res = randomization_test(np.full(30, 0.05), n_resamples=999, rng=0)
    assert res.count == 0  # no random sign vector reaches +0.05 (only all-plus does: 1 in 2**30)
    assert res.pvalue == 1 / 1000


def test_monte_carlo_is_used_whenever_n_resamples_is_given():
    res = randomization_test(FOUR_PAIR_CHANGES, n_resamples=2000, rng=1)
    assert not res.exact and res.n_resamples == 2000
    assert abs(res.pvalue - 0.625) < 4 * math.sqrt(0.625 * 0.375 / 2000)


def test_the_exact_limit_counts_non_zero_changes_only():
    rng = np.random.default_rng(0)
    twenty = np.concatenate([rng.normal(size=20), np.zeros(500)])
    assert 2**20 == MAX_EXACT_ASSIGNMENTS
    res = randomization_test(twenty)
    assert res.exact and res.n_resamples == 2**20
    with pytest.raises(ValueError, match=r"Pass n_resamples"):
        randomization_test(np.append(twenty, 0.3))


def test_exact_enumeration_memory_is_the_null_distribution_only():
    d = np.random.default_rng(0).normal(size=20)
    tracemalloc.start()
    randomization_test(d)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1.5 * 8 * 2**20  # 2**20 float64 statistics take 8 MiB


def test_over_the_limit_without_n_resamples_says_what_to_do():
    # on the 1/10 grid, 21 changes are exact: only all-plus and all-minus are as extreme
    assert randomization_test(np.full(21, 0.1)).pvalue == 2 / 2**21
    with pytest.raises(ValueError) as err:
        randomization_test(np.full(21, math.pi / 10))  # on no grid
    message = str(err.value)
    assert (
        "2**21 = about 2.1e+06 sign assignments" in message
        and "n_resamples" in message
        and "rng" in message
        and "no grid" in message
    )
    assert randomization_test(np.full(21, 0.1), n_resamples=100, rng=0).pvalue == 1 / 101


def test_shifted_bootstrap_is_the_paired_bootstrap_of_the_centred_changes():
    d = np.random.default_rng(4).normal(0.1, 0.3, size=40)
    res = shifted_bootstrap_test(d, n_resamples=3000, rng=9)
    replay = paired_bootstrap(d - d.mean(), n_resamples=3000, rng=9)
    np.testing.assert_array_equal(res.null_distribution, replay)
    assert res.count == int((np.abs(replay) >= abs(d.mean())).sum())
    assert res.pvalue == res.count / 3000  # a plain fraction
    assert res.statistic == d.mean() and not res.exact
    assert shifted_bootstrap_test(d, n_resamples=3000, rng=9, alternative="greater").count == int(
        (replay >= d.mean()).sum()
    )
    assert shifted_bootstrap_test(d, n_resamples=3000, rng=9, alternative="less").count == int(
        (replay <= d.mean()).sum()
    )


def test_shifted_bootstrap_agrees_with_its_exhaustive_enumeration_for_four_pairs():
    """All 256 ordered resamples of the centred four changes are equally likely, so the
    exact shifted-bootstrap p is a count out of 256 (ties decided in exact fractions).
    B = 40,000 Monte Carlo resamples: within 4 standard errors."""
    fr = [Fraction(str(x)) for x in FOUR_PAIR_CHANGES]
    centre = sum(fr) / 4
    centred = [x - centre for x in fr]
    rows = enumerate_resamples(4).tolist()
    means = [sum(centred[i] for i in row) / 4 for row in rows]
    exact = Fraction(sum(abs(m) >= centre for m in means), 256)
    res = shifted_bootstrap_test(FOUR_PAIR_CHANGES, n_resamples=40_000, rng=2)
    p = float(exact)
    assert abs(res.pvalue - p) < 4 * math.sqrt(p * (1 - p) / 40_000)


def test_shifted_bootstrap_same_seed_same_result():
    a, b = hit_at_5_example()
    first = shifted_bootstrap_test(b - a, n_resamples=2000, rng=3)
    again = shifted_bootstrap_test(b - a, n_resamples=2000, rng=3)
    assert (first.pvalue, first.count) == (again.pvalue, again.count)
    np.testing.assert_array_equal(first.null_distribution, again.null_distribution)
    # centred at zero, unlike the ordinary bootstrap
    assert abs(first.null_distribution.mean()) < 0.005
    assert abs(paired_bootstrap(b - a, n_resamples=2000, rng=3).mean() - (b - a).mean()) < 0.005


def test_worked_example_by_hand():
    """Four tests (say: nDCG@10, P@5, MRR, recall@100), family-wise alpha = 0.05.

    p-values as given:          0.01   0.04   0.03   0.005
    sorted, with multipliers m - j + 1 (m = 4):
        j = 1: p = 0.005  x 4 = 0.020
        j = 2: p = 0.010  x 3 = 0.030
        j = 3: p = 0.030  x 2 = 0.060
        j = 4: p = 0.040  x 1 = 0.040  -> running maximum keeps it at 0.060
    adjusted, back in the given order: 0.030  0.060  0.060  0.020
    Step-down reading: 0.005 <= 0.05/4 = 0.0125 reject; 0.010 <= 0.05/3 = 0.0167 reject;
    0.030 > 0.05/2 = 0.025 stop: tests 2 and 3 are not rejected, although 0.04 alone is
    below 0.05/1. Unadjusted, all four would have been "significant" at 0.05.
    """
    res = holm([0.01, 0.04, 0.03, 0.005], alpha=0.05)
    np.testing.assert_allclose(res.adjusted, [0.03, 0.06, 0.06, 0.02], rtol=0, atol=1e-15)
    assert res.rejected.tolist() == [True, False, False, True]
    assert res.pvalues.tolist() == [0.01, 0.04, 0.03, 0.005]
    assert res.alpha == 0.05
    text = str(res).splitlines()
    assert text[0].split() == ["test", "p", "Holm", "p", "reject", "at", "0.05"]
    assert text[2].split() == ["2", "0.0400", "0.0600", "no"]


def test_adjusted_values_are_capped_at_one_and_a_single_test_is_unchanged():
    res = holm([0.5, 0.6, 0.9])
    # 0.5 x 3 = 1.5 -> 1; the others follow the running maximum
    assert res.adjusted.tolist() == [1.0, 1.0, 1.0]
    assert holm([0.03]).adjusted.tolist() == [0.03]
    assert holm([0.0, 1.0]).adjusted.tolist() == [0.0, 1.0]


def _brute_holm(p, alpha):
    """Independent implementation, straight from the definitions, with plain loops."""
    m = len(p)
    ranked = sorted(range(m), key=lambda i: (p[i], i))
    rank = {i: r for r, i in enumerate(ranked)}  # 0-based rank
    adjusted = []
    for i in range(m):
        # max over the tests ranked at or before i of min(1, (m - rank) * p)
        adjusted.append(max(min(1.0, (m - rank[j]) * p[j]) for j in range(m) if rank[j] <= rank[i]))
    rejected = [False] * m
    for r, i in enumerate(ranked):  # step down; stop at the first failure
        if p[i] <= alpha / (m - r):
            rejected[i] = True
        else:
            break
    return adjusted, rejected


def test_agrees_with_an_independent_step_down_loop():
    rng = np.random.default_rng(0)
    for trial in range(300):
        m = int(rng.integers(1, 12))
        # a mix of small and large p-values, some tied
        p = np.where(rng.random(m) < 0.5, rng.random(m) * 0.03, rng.random(m))
        if m > 2 and trial % 5 == 0:
            p[1] = p[0]
        alpha = float(rng.choice([0.01, 0.05, 0.1]))
        res = holm(p, alpha=alpha)
        adjusted, rejected = _brute_holm(p.tolist(), alpha)
        np.testing.assert_allclose(res.adjusted, adjusted, rtol=1e-12, atol=0)
        assert res.rejected.tolist() == rejected, (p, alpha)


def test_never_rejects_more_than_unadjusted_and_at_least_bonferroni():
    rng = np.random.default_rng(1)
    for _ in range(200):
        p = rng.random(8) ** 3
        res = holm(p)
        assert np.all(res.adjusted >= p)
        assert np.all(res.adjusted <= np.minimum(1, 8 * p) + 1e-15)
        assert np.all(res.rejected <= (p <= 0.05))
        assert np.all(res.rejected >= (8 * p <= 0.05))


def test_order_of_the_tests_does_not_matter():
    p = np.array([0.2, 0.001, 0.04, 0.011, 0.3])
    base = holm(p)
    for perm in itertools.permutations(range(5)):
        perm = list(perm)
        res = holm(p[perm])
        np.testing.assert_array_equal(res.adjusted, base.adjusted[perm])


def test_family_wise_error_is_controlled_under_the_null():
    """10 independent true-null tests with uniform p-values, 20,000 families.

    Unadjusted, P(any p <= 0.05) = 1 - 0.95**10 = 0.401. Holm keeps it at or below
    0.05 (for independent uniform p-values it is 1 - 0.995**10 ~ 0.049 at most,
    Bonferroni's bound). Monte Carlo SE of a rate near 0.05 with 20,000 families
    is 0.0015; the tolerances are over 4 SE.
    """
    p = np.random.default_rng(2).random((20_000, 10))
    any_unadjusted = (p <= 0.05).any(axis=1).mean()
    any_holm = np.mean([holm(row).rejected.any() for row in p])
    assert any_unadjusted == pytest.approx(1 - 0.95**10, abs=0.015)
    assert any_holm < 0.05 + 0.007
    assert any_holm == pytest.approx(1 - (1 - 0.05 / 10) ** 10, abs=0.007)


def test_too_many_assignments_for_a_float_get_the_clear_message():
    # 1,100 non-zero changes on the 0.000001 grid, far too fine for the limit: 2**1100 sign
    # assignments used to raise OverflowError while the message was composed
    d = np.round(np.random.default_rng(26).uniform(-1, 1, 1_100), 6)
    with pytest.raises(ValueError, match=r"and 2\*\*1100 sign assignments are too many") as err:
        randomization_test(d)
    assert "Pass n_resamples" in str(err.value)
    fallback = randomization_test(d, rng=1)
    assert not fallback.exact and "not exact: on the 0.000001 grid" in fallback.method
