"""Property-based tests (hypothesis): invariants that hold for every valid input.

What is checked, section by section:

1. Shifting every change by c shifts every bootstrap mean (same seed), the
   exact distribution's values and both kinds of interval by c; scaling by
   s > 0 scales them. Randomization p-values do not change under scaling.
2. Permuting the order of the query pairs changes nothing in the exact
   bootstrap distribution or in the exact randomization p-value. The Monte
   Carlo helpers give the same result for the same seed, and for a permuted
   input they still sample the right distribution (checked against an exact
   computation with the DKW inequality, see ``dkw_bound``).
3. Exact distributions sum to 1 and their mean is the observed mean.
4. ``percentile_interval`` returns low <= high, both values that occurred
   (with and without weights), and follows its documented rule.
5. Randomization p-values lie in (0, 1] and are 1 when every change is zero.
6. ``cluster_bootstrap`` with one query per cluster *is* ``paired_bootstrap``.

Strategies. Most tests draw changes on a grid: integers k in [-40, 40] and
d = k / 40 (steps of 0.025, like rounded nDCG changes). On a grid, two
statistics that differ in exact arithmetic differ by at least one grid step
(e.g. 1/(40 Q) for a mean of Q changes), while float rounding moves them by
about 1e-16 of their size. So the tolerance used below, 1e-12 of the data's
magnitude, is far above rounding and far below any real difference: a
comparison cannot be decided by luck, and a real error cannot hide in it.
Shifts c are multiples of 0.05 in [-5, 5] and scales s multiples of 1/8 in
[1/8, 5] (exactly representable, modest). Where arbitrary real numbers are
wanted, they are drawn on a 1e-6 grid with |x| <= 1000 (no NaN, infinities
or subnormals, which the helpers refuse or which only test float arithmetic).

Every test uses ``SETTINGS``: ``derandomize=True`` (the same examples on every
run, so CI is reproducible), ``database=None`` (no example database) and
``deadline=None`` (a loaded machine must not fail a test on time). Hypothesis
also caches constants it finds in the source under its home directory, by
default ``.hypothesis/`` in the working directory, even without a database; the
home directory is pointed at a temporary directory below, so nothing is written
into the repository. Sizes are small so that the whole file runs in a few seconds.
"""

from __future__ import annotations

import itertools
import math
import tempfile
from fractions import Fraction

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir
from plain import chunks_of

import helpers as h

# Hypothesis's own files (its constants cache) go to a temporary directory, removed at exit.
_HYPOTHESIS_HOME = tempfile.TemporaryDirectory(prefix="hypothesis-home-")
set_hypothesis_home_dir(_HYPOTHESIS_HOME.name)

SETTINGS = settings(
    derandomize=True,
    database=None,
    deadline=None,
    max_examples=30,
    suppress_health_check=[HealthCheck.too_slow],
)

GRID = 40  #: changes are k / GRID for integers k in [-GRID, GRID]
RTOL = 1e-12  #: tolerance relative to the data's magnitude (see the module docstring)

#: Monte Carlo resamples in the distribution checks.
B = 2000


def dkw_bound(n: int, failure: float = 1e-6) -> float:
    """The Dvoretzky-Kiefer-Wolfowitz bound on the distance of an empirical CDF from the true one.

    For n independent draws from any distribution F (discrete ones included),
    P(sup |F_n - F| > t) <= 2 exp(-2 n t**2). With n = 2000 and a failure
    probability of 1e-6 per example, t = 0.060: a correct sampler passes every
    example here except with probability about 1e-6 each (and, the examples
    being fixed, the outcome is the same on every run), while a sampler of a
    wrong distribution, e.g. without replacement or from the wrong values,
    is typically off by far more.
    """
    return math.sqrt(math.log(2 / failure) / (2 * n))


# --- strategies ------------------------------------------------------------------


def grid_ints(min_size: int = 1, max_size: int = 6) -> st.SearchStrategy[list[int]]:
    return st.lists(st.integers(-GRID, GRID), min_size=min_size, max_size=max_size)


shifts = st.integers(-100, 100).map(lambda j: j / 20)  # c in [-5, 5], step 0.05
scales = st.integers(1, 40).map(lambda j: j / 8)  # s in [1/8, 5], step 1/8
seeds = st.integers(0, 2**32 - 1)
levels = st.sampled_from([0.5, 0.8, 0.9, 0.95, 0.99])
alternatives = st.sampled_from(["two-sided", "greater", "less"])
reals = st.integers(-(10**9), 10**9).map(lambda j: j / 10**6)  # |x| <= 1000 on a 1e-6 grid


@st.composite
def permuted(draw, ints: st.SearchStrategy[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Grid changes and a permutation of their positions."""
    k = draw(ints)
    perm = draw(st.permutations(range(len(k))))
    return np.array(k, dtype=float) / GRID, np.array(perm, dtype=np.intp)


@st.composite
def clustered(draw, max_queries: int = 8, max_clusters: int = 4) -> tuple[np.ndarray, list[str]]:
    """Grid changes with a user label per query, at least two users, users in random order."""
    n = draw(st.integers(2, max_queries))
    g = draw(st.integers(2, min(n, max_clusters)))
    labels = list(range(g)) + draw(st.lists(st.integers(0, g - 1), min_size=n - g, max_size=n - g))
    labels = draw(st.permutations(labels))
    k = draw(st.lists(st.integers(-GRID, GRID), min_size=n, max_size=n))
    return np.array(k, dtype=float) / GRID, [f"U{j}" for j in labels]


def assert_close(actual, expected, magnitude: float) -> None:
    np.testing.assert_allclose(actual, expected, rtol=0, atol=RTOL * magnitude)


# --- independent exact computations, in integer units ---------------------------------
# On the grid, a mean of Q changes times GRID * Q is an integer (the sum of the k's),
# so the exact distributions below are computed over integers, with no helper involved.


def sum_distribution(k: np.ndarray, n_draws: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact distribution of the sum of ``n_draws`` draws with replacement from the integers ``k``.

    The n-fold convolution of the empirical distribution of ``k``; returns the
    possible sums (ascending) and their probabilities.
    """
    k = np.asarray(k, dtype=np.int64)
    low = int(k.min())
    one = np.bincount(k - low) / k.size
    pmf = np.array([1.0])
    for _ in range(n_draws):
        pmf = np.convolve(pmf, one)
    support = np.arange(pmf.size) + n_draws * low
    keep = pmf > 0
    return support[keep], pmf[keep]


def sign_flip_distribution(k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact distribution of sum(s_i * k_i) over all 2**n equally likely sign vectors."""
    sums = [
        sum(s * x for s, x in zip(signs, k.tolist(), strict=True))
        for signs in itertools.product((1, -1), repeat=k.size)
    ]
    support, counts = np.unique(sums, return_counts=True)
    return support, counts / counts.sum()


def dkw_distance(
    sample: np.ndarray, values: np.ndarray, probabilities: np.ndarray, atol: float
) -> float:
    """sup |empirical CDF of ``sample`` - CDF of (values, probabilities)|, after checking
    the support.

    ``values`` may repeat (equal within ``atol``); every draw of ``sample`` must
    be within ``atol`` of one of them, or the sampler produced an impossible value.
    """
    order = np.argsort(values, kind="stable")
    v, p = np.asarray(values, dtype=float)[order], np.asarray(probabilities, dtype=float)[order]
    starts = np.flatnonzero(np.concatenate(([True], np.diff(v) > atol)))
    group_top = v[np.append(starts[1:] - 1, v.size - 1)]
    cdf = np.cumsum(np.add.reduceat(p, starts))
    s = np.sort(np.asarray(sample, dtype=float))
    i = np.searchsorted(v, s)
    nearest = np.minimum(
        np.abs(s - v[np.clip(i - 1, 0, v.size - 1)]), np.abs(s - v[np.clip(i, 0, v.size - 1)])
    )
    assert nearest.max() <= atol, f"a draw {s[nearest.argmax()]!r} is not a possible value"
    empirical = np.searchsorted(s, group_top + atol, side="right") / s.size
    return float(np.abs(empirical - cdf).max())


# --- 1. Shift and scale ---------------------------------------------------------------


@SETTINGS
@given(k=grid_ints(1, 30), c=shifts, s=scales, seed=seeds, level=levels)
def test_paired_bootstrap_means_and_interval_shift_by_c_and_scale_by_s(k, c, s, seed, level):
    d = np.array(k, dtype=float) / GRID
    base = h.paired_bootstrap(d, n_resamples=300, rng=seed)
    low, high = h.percentile_interval(base, level)
    size = float(np.abs(d).max())

    shifted = h.paired_bootstrap(d + c, n_resamples=300, rng=seed)
    assert_close(shifted, base + c, size + abs(c))
    assert_close(h.percentile_interval(shifted, level), (low + c, high + c), size + abs(c))

    scaled = h.paired_bootstrap(s * d, n_resamples=300, rng=seed)
    assert_close(scaled, s * base, s * size)
    assert_close(h.percentile_interval(scaled, level), (s * low, s * high), s * size)


@SETTINGS
@given(data=clustered(max_queries=12, max_clusters=6), c=shifts, s=scales, seed=seeds)
def test_cluster_bootstrap_shifts_by_c_and_scales_by_s_in_both_weightings(data, c, s, seed):
    d, users = data
    size = float(np.abs(d).max())
    for weighting in ("query", "cluster"):
        base = h.cluster_bootstrap(d, users, n_resamples=300, rng=seed, weighting=weighting)
        assert_close(
            h.cluster_bootstrap(d + c, users, n_resamples=300, rng=seed, weighting=weighting),
            base + c,
            size + abs(c),
        )
        assert_close(
            h.cluster_bootstrap(s * d, users, n_resamples=300, rng=seed, weighting=weighting),
            s * base,
            s * size,
        )


@SETTINGS
@given(ka=grid_ints(3, 3), kb=grid_ints(3, 3), c=shifts, s=scales, seed=seeds)
def test_unpaired_bootstrap_shifts_with_b_and_ignores_a_common_shift(ka, kb, c, s, seed):
    a, b = np.array(ka) / GRID, np.array(kb) / GRID
    size = float(np.abs(np.concatenate([a, b])).max())
    base = h.unpaired_bootstrap(a, b, n_resamples=300, rng=seed)
    assert_close(h.unpaired_bootstrap(a, b + c, n_resamples=300, rng=seed), base + c, size + abs(c))
    assert_close(h.unpaired_bootstrap(a + c, b + c, n_resamples=300, rng=seed), base, size + abs(c))
    assert_close(h.unpaired_bootstrap(s * a, s * b, n_resamples=300, rng=seed), s * base, s * size)


@SETTINGS
@given(k=grid_ints(1, 8), c=shifts, s=scales, level=levels)
def test_exact_distribution_and_its_interval_shift_by_c_and_scale_by_s(k, c, s, level):
    d = np.array(k, dtype=float) / GRID
    size = float(np.abs(d).max())
    base = h.exact_bootstrap_distribution(d)
    low, high = h.percentile_interval(base.values, level, weights=base.probabilities)
    for moved, expected_values, expected_ends, magnitude in (
        (
            h.exact_bootstrap_distribution(d + c),
            base.values + c,
            (low + c, high + c),
            size + abs(c),
        ),
        (h.exact_bootstrap_distribution(s * d), s * base.values, (s * low, s * high), s * size),
    ):
        # Same count vectors, so the same number of distinct means with the same probabilities.
        assert moved.values.size == base.values.size
        assert_close(moved.values, expected_values, magnitude)
        np.testing.assert_allclose(moved.probabilities, base.probabilities, rtol=0, atol=1e-12)
        assert_close(
            h.percentile_interval(moved.values, level, weights=moved.probabilities),
            expected_ends,
            magnitude,
        )


@SETTINGS
@given(k=grid_ints(1, 10), s=scales, alternative=alternatives)
def test_randomization_p_value_is_unchanged_by_scaling_and_mirrored_by_negation(k, s, alternative):
    d = np.array(k, dtype=float) / GRID
    p = h.randomization_test(d, alternative=alternative).pvalue
    assert h.randomization_test(s * d, alternative=alternative).pvalue == p
    mirrored = {"two-sided": "two-sided", "greater": "less", "less": "greater"}[alternative]
    assert h.randomization_test(-d, alternative=mirrored).pvalue == p


# --- 2. Order of the query pairs; seeds ---------------------------------------------------


@SETTINGS
@given(data=permuted(grid_ints(1, 8)))
def test_exact_bootstrap_distribution_ignores_the_order_of_the_pairs(data):
    d, perm = data
    base = h.exact_bootstrap_distribution(d)
    moved = h.exact_bootstrap_distribution(d[perm])
    np.testing.assert_array_equal(moved.values, base.values)
    np.testing.assert_array_equal(moved.probabilities, base.probabilities)


@SETTINGS
@given(data=permuted(grid_ints(1, 12)))
def test_exact_randomization_p_value_ignores_the_order_of_the_pairs(data):
    d, perm = data
    size = float(np.abs(d).max())
    for alternative in ("two-sided", "greater", "less"):
        base = h.randomization_test(d, alternative=alternative)
        moved = h.randomization_test(d[perm], alternative=alternative)
        assert (moved.pvalue, moved.count, moved.n_resamples) == (
            base.pvalue,
            base.count,
            base.n_resamples,
        )
        # the same null distribution, listed in another order
        assert_close(np.sort(moved.null_distribution), np.sort(base.null_distribution), size)


@SETTINGS
@given(data=clustered(), seed=seeds, max_elements=st.integers(1, 50))
def test_monte_carlo_helpers_same_seed_same_result_whatever_the_chunking(data, seed, max_elements):
    d, users = data
    a = np.linspace(0.2, 0.8, d.size)
    runs = {
        "paired_bootstrap": lambda **kw: h.paired_bootstrap(d, n_resamples=200, rng=seed, **kw),
        "unpaired_bootstrap": lambda **kw: h.unpaired_bootstrap(
            a, a + d, n_resamples=200, rng=seed, **kw
        ),
        "cluster_bootstrap": lambda **kw: h.cluster_bootstrap(
            d, users, n_resamples=200, rng=seed, **kw
        ),
        "randomization_test": lambda **kw: (
            h.randomization_test(d, n_resamples=200, rng=seed, **kw).null_distribution
        ),
        "shifted_bootstrap_test": lambda **kw: (
            h.shifted_bootstrap_test(d, n_resamples=200, rng=seed, **kw).null_distribution
        ),
    }
    for name, run in runs.items():
        first = run()
        np.testing.assert_array_equal(run(), first, err_msg=name)
        with chunks_of(max_elements):
            np.testing.assert_array_equal(run(), first, err_msg=name)


@settings(SETTINGS, max_examples=20)
@given(data=permuted(grid_ints(1, 6)), seed=seeds)
def test_paired_bootstrap_of_permuted_pairs_samples_the_exact_distribution(data, seed):
    d, perm = data
    n = d.size
    support, probs = sum_distribution(
        np.rint(d * GRID).astype(int), n
    )  # in units of 1 / (GRID * n)
    sample = h.paired_bootstrap(d[perm], n_resamples=B, rng=seed) * (GRID * n)
    assert dkw_distance(sample, support.astype(float), probs, atol=1e-6) <= dkw_bound(B)


@settings(SETTINGS, max_examples=20)
@given(ka=grid_ints(1, 4), kb=grid_ints(1, 4), seed=seeds, data=st.data())
def test_unpaired_bootstrap_of_permuted_scores_samples_the_exact_distribution(ka, kb, seed, data):
    n = min(len(ka), len(kb))
    ka, kb = np.array(ka[:n]), np.array(kb[:n])
    perm_a = np.array(data.draw(st.permutations(range(n))))
    perm_b = np.array(data.draw(st.permutations(range(n))))
    # mean(B*) - mean(A*) in units of 1 / (GRID * n):
    # (sum of n draws from kb) - (sum of n draws from ka)
    sb, pb = sum_distribution(kb, n)
    sa, pa = sum_distribution(ka, n)
    probs = np.outer(pb, pa).ravel()
    support = np.subtract.outer(sb, sa).ravel().astype(float)
    sample = h.unpaired_bootstrap(ka[perm_a] / GRID, kb[perm_b] / GRID, n_resamples=B, rng=seed) * (
        GRID * n
    )
    assert dkw_distance(sample, support, probs, atol=1e-6) <= dkw_bound(B)


@settings(SETTINGS, max_examples=20)
@given(data=permuted(grid_ints(1, 8)), seed=seeds, alternative=alternatives)
def test_monte_carlo_randomization_of_permuted_pairs_samples_the_sign_flips(
    data, seed, alternative
):
    d, perm = data
    n = d.size
    k = np.rint(d * GRID).astype(int)
    support, probs = sign_flip_distribution(k)  # in units of 1 / (GRID * n)
    exact = h.randomization_test(d, alternative=alternative)
    mc = h.randomization_test(d[perm], n_resamples=B, rng=seed, alternative=alternative)
    if np.any(k != 0):
        assert dkw_distance(
            mc.null_distribution * (GRID * n), support.astype(float), probs, atol=1e-6
        ) <= dkw_bound(B)
    # Hoeffding: |count/B - p| <= t except with probability 2 exp(-2 B t^2), the same t as DKW;
    # (count + 1)/(B + 1) is within 1/(B + 1) of count/B.
    assert abs(mc.pvalue - exact.pvalue) <= dkw_bound(B) + 1 / (B + 1)


@settings(SETTINGS, max_examples=20)
@given(data=permuted(grid_ints(1, 6)), seed=seeds, alternative=alternatives)
def test_shifted_bootstrap_of_permuted_pairs_agrees_with_its_exact_p_value(data, seed, alternative):
    d, perm = data
    observed = float(d.mean())
    null = h.exact_bootstrap_distribution(d - observed)
    tol = h.REL_TOL * float(np.abs(d).mean())  # the helper's tie tolerance
    if alternative == "two-sided":
        hit = np.abs(null.values) >= abs(observed) - tol
    elif alternative == "greater":
        hit = null.values >= observed - tol
    else:
        hit = null.values <= observed + tol
    exact_p = math.fsum(null.probabilities[hit].tolist())
    mc = h.shifted_bootstrap_test(d[perm], n_resamples=B, rng=seed, alternative=alternative)
    assert abs(mc.pvalue - exact_p) <= dkw_bound(B)  # Hoeffding, as above


@settings(SETTINGS, max_examples=20)
@given(data=clustered(max_queries=8, max_clusters=4), seed=seeds, perm_seed=seeds)
def test_cluster_bootstrap_of_permuted_queries_samples_the_exact_cluster_distribution(
    data, seed, perm_seed
):
    d, users = data
    exact = h.enumerate_cluster_resamples(d, users)  # all G**G equally likely draws of whole users
    perm = np.random.default_rng(perm_seed).permutation(d.size)
    shuffled_users = [users[i] for i in perm]
    equal = np.full(exact.draws.shape[0], 1 / exact.draws.shape[0])
    for weighting, values in (("query", exact.query_weighted), ("cluster", exact.cluster_weighted)):
        sample = h.cluster_bootstrap(
            d[perm], shuffled_users, n_resamples=B, rng=seed, weighting=weighting
        )
        # Distinct ratios of grid sums differ by more than 1e-5; rounding is ~1e-16.
        assert dkw_distance(sample, values, equal, atol=1e-9) <= dkw_bound(B), weighting


# --- 3. Exact distributions: total probability 1, mean = observed mean ---------------------


@SETTINGS
@given(x=st.lists(reals, min_size=1, max_size=7))
def test_exact_bootstrap_distribution_sums_to_one_with_the_observed_mean_and_variance(x):
    d = np.array(x)
    dist = h.exact_bootstrap_distribution(d)
    size = float(np.abs(d).max())
    assert np.all(np.diff(dist.values) > 0) and np.all(dist.probabilities >= 0)
    assert abs(math.fsum(dist.probabilities.tolist()) - 1) <= 1e-12
    # Merging means equal up to rounding moves mass by at most EXACT_MERGE_RTOL * size:
    # 1e-10 covers it.
    mean = math.fsum((dist.probabilities * dist.values).tolist())
    assert abs(mean - d.mean()) <= 1e-10 * size
    # and the spread is the bootstrap's: variance of a resample mean = population variance / Q
    variance = math.fsum((dist.probabilities * (dist.values - d.mean()) ** 2).tolist())
    assert abs(variance - d.var() / d.size) <= 1e-9 * size**2


@SETTINGS
@given(k=grid_ints(1, 8))
def test_exact_bootstrap_distribution_is_the_n_fold_convolution(k):
    d = np.array(k, dtype=float) / GRID
    support, probs = sum_distribution(np.array(k), len(k))  # in units of 1 / (GRID * Q)
    dist = h.exact_bootstrap_distribution(d)
    units = dist.values * (GRID * len(k))
    np.testing.assert_allclose(units, np.rint(units), rtol=0, atol=1e-6)
    np.testing.assert_array_equal(np.rint(units), support)
    np.testing.assert_allclose(dist.probabilities, probs, rtol=1e-9, atol=1e-15)


@SETTINGS
@given(x=st.lists(reals, min_size=1, max_size=5))
def test_exact_means_of_the_explorer_sum_to_one_with_the_observed_mean(x):
    d = np.array(x)
    means, values, probs = h.exact_means(d)
    assert means.size == d.size**d.size
    assert abs(math.fsum(probs.tolist()) - 1) <= 1e-12
    # exact_means rounds every mean to 12 decimals: that is the tolerance (plus rounding).
    assert abs(math.fsum((probs * values).tolist()) - d.mean()) <= 1e-12 + RTOL * float(
        np.abs(d).max()
    )


@SETTINGS
@given(data=clustered(max_queries=8, max_clusters=5))
def test_exact_cluster_distribution_averages_to_the_mean_of_the_user_means(data):
    d, users = data
    exact = h.enumerate_cluster_resamples(d, users)
    user_means = h.cluster_totals(d, users).means
    # Over the G**G equally likely draws, each of the G positions holds each user equally
    # often, so the average of the cluster-weighted statistic is the average user mean.
    # (The query-weighted one is a ratio of sums, whose average is not the plain mean.)
    assert_close(exact.cluster_weighted.mean(), user_means.mean(), float(np.abs(d).max()))


@SETTINGS
@given(x=st.lists(reals, min_size=1, max_size=12))
def test_exact_randomization_null_is_symmetric_around_zero(x):
    d = np.array(x)
    res = h.randomization_test(d)
    null = res.null_distribution
    assert null.size == 2 ** int(np.count_nonzero(d))
    # row j is minus row 2**k - 1 - j, exactly (see _all_sign_flip_sums)
    np.testing.assert_array_equal(null, -null[::-1])
    assert abs(math.fsum(null.tolist())) <= 1e-12 * float(np.abs(d).max()) * null.size


# --- 4. percentile_interval -----------------------------------------------------------------


@SETTINGS
@given(x=st.lists(reals, min_size=1, max_size=60), level_per_mille=st.integers(1, 999))
def test_interval_ends_are_ordered_values_that_occurred_with_at_most_alpha_half_beyond(
    x, level_per_mille
):
    level = level_per_mille / 1000
    low, high = h.percentile_interval(x, level)
    assert low <= high
    assert low in x and high in x
    # the order-statistic rule leaves at most alpha/2 of the values strictly below low,
    # and at most alpha/2 strictly above high (exact rational arithmetic)
    half_alpha_count = Fraction(1000 - level_per_mille, 2000) * len(x)
    assert sum(v < low for v in x) <= half_alpha_count
    assert sum(v > high for v in x) <= half_alpha_count


weights_float = st.integers(0, 10**6).map(lambda j: j / 10**5)  # [0, 10], on a 1e-5 grid
weights_int = st.integers(0, 20)


@SETTINGS
@given(
    pairs=st.lists(
        st.tuples(reals, st.one_of(weights_float, weights_int)), min_size=1, max_size=40
    ),
    level_per_mille=st.integers(1, 999),
)
def test_weighted_interval_ends_are_ordered_values_with_positive_weight(pairs, level_per_mille):
    values = [v for v, _ in pairs]
    weights = [w for _, w in pairs]
    if not any(w > 0 for w in weights):
        weights[0] = 1
    low, high = h.percentile_interval(values, level_per_mille / 1000, weights=weights)
    assert low <= high
    for end in (low, high):
        assert sum(w for v, w in zip(values, weights, strict=True) if v == end) > 0, (
            f"{end} occurs only with weight 0"
        )


def interval_by_definition(
    values: list[float], counts: list[int], level: Fraction
) -> tuple[float, float]:
    """The documented weighted rule in exact arithmetic, over the distinct values.

    F(v) = weight of values <= v / total weight; low = smallest v with F(v) > alpha/2,
    high = smallest v with F(v) > 1 - alpha/2.
    """
    half_alpha = (1 - level) / 2
    total = sum(counts)
    distinct = sorted(set(values))
    cdf = {
        v: Fraction(sum(c for x, c in zip(values, counts, strict=True) if x <= v), total)
        for v in distinct
    }
    low = next(v for v in distinct if cdf[v] > half_alpha)
    high = next(v for v in distinct if cdf[v] > 1 - half_alpha)
    return low, high


def assert_every_weighting_gives(expected, values, counts, level, s) -> None:
    """Integer weights (the exact path), the same weights scaled (non-integer: the float
    path), as probabilities, and the unweighted interval of the values repeated."""
    assert tuple(h.percentile_interval(values, level, weights=counts)) == expected
    assert (
        tuple(h.percentile_interval(values, level, weights=[s * c + 0.0 for c in counts]))
        == expected
    )
    assert (
        tuple(h.percentile_interval(values, level, weights=np.array(counts) / sum(counts)))
        == expected
    )
    assert tuple(h.percentile_interval(np.repeat(values, counts), level)) == expected


@SETTINGS
@given(
    pairs=st.lists(
        st.tuples(st.integers(-20, 20).map(lambda j: j / 8), weights_int), min_size=1, max_size=30
    ),
    level=levels,
    s=scales,
)
def test_weighted_interval_follows_its_definition_and_counts_are_repetitions(pairs, level, s):
    values = [v for v, _ in pairs]
    counts = [c for _, c in pairs]
    if sum(counts) == 0:
        counts[0] = 1
    expected = interval_by_definition(values, counts, Fraction(str(level)))
    assert_every_weighting_gives(expected, values, counts, level, s)


@st.composite
def tied_at_both_thresholds(draw) -> tuple[list[float], list[int], float]:
    """Counts whose cumulative weight is exactly alpha/2 and exactly 1 - alpha/2 somewhere.

    With alpha/2 = p/q and total weight q*m: the first value holds p*m (F = alpha/2,
    which does not exceed it, so low is the next value), the second brings F to
    1 - alpha/2 (so high is past it). Zero weights and shuffling are mixed in.
    """
    level = draw(levels)
    half_alpha = (1 - Fraction(str(level))) / 2
    p, q = half_alpha.numerator, half_alpha.denominator
    m = draw(st.integers(1, 4))
    j = draw(st.integers(0, p * m))
    counts = [p * m, (q - 2 * p) * m, j, p * m - j] + draw(st.lists(st.just(0), max_size=3))
    values = [float(i) for i in range(len(counts))]
    order = draw(st.permutations(range(len(counts))))
    return [values[i] for i in order], [counts[i] for i in order], level


@SETTINGS
@given(case=tied_at_both_thresholds(), s=scales)
def test_weighted_interval_ties_at_the_thresholds_do_not_exceed_them(case, s):
    values, counts, level = case
    expected = interval_by_definition(values, counts, Fraction(str(level)))
    assert_every_weighting_gives(expected, values, counts, level, s)


# --- 5. Randomization p-values ---------------------------------------------------------------


@SETTINGS
@given(x=st.lists(reals, min_size=1, max_size=14), alternative=alternatives, seed=seeds)
def test_randomization_p_value_is_in_zero_one(x, alternative, seed):
    exact = h.randomization_test(x, alternative=alternative)
    assert 0 < exact.pvalue <= 1
    assert exact.pvalue * exact.n_resamples == exact.count
    mc = h.randomization_test(x, n_resamples=200, rng=seed, alternative=alternative)
    assert 1 / 201 <= mc.pvalue <= 1
    # Far from zero: 30 or more changes of one sign. No random sign vector is as extreme
    # (chance 2**-29 or less each) for two-sided and "greater", yet p stays above 0.
    far = np.concatenate([np.abs(x) + 1, np.ones(30 - min(len(x), 29))])
    extreme = h.randomization_test(far, n_resamples=200, rng=seed, alternative=alternative)
    assert extreme.pvalue == (1 if alternative == "less" else 1 / 201)


@SETTINGS
@given(k=grid_ints(1, 9))
def test_exact_randomization_p_value_is_the_brute_force_count_over_all_sign_vectors(k):
    """Brute force over all 2**Q sign vectors (zeros included) in integer arithmetic."""
    d = np.array(k, dtype=float) / GRID
    observed = sum(k)
    sums = [
        sum(s * x for s, x in zip(signs, k, strict=True))
        for signs in itertools.product((1, -1), repeat=len(k))
    ]
    n = len(sums)
    expected = {
        "two-sided": sum(abs(t) >= abs(observed) for t in sums) / n,
        "greater": sum(t >= observed for t in sums) / n,
        "less": sum(t <= observed for t in sums) / n,
    }
    got = {alt: h.randomization_test(d, alternative=alt).pvalue for alt in expected}
    assert got == expected
    # consequences of the symmetric null: one-sided p's cover everything (ties twice) ...
    assert got["greater"] + got["less"] >= 1
    # ... and a non-zero mean's two-sided p is twice the smaller one-sided p
    if observed != 0:
        assert got["two-sided"] == 2 * min(got["greater"], got["less"])


@SETTINGS
@given(n=st.integers(1, 60), n_resamples=st.integers(1, 500), seed=seeds, alternative=alternatives)
def test_all_zero_changes_give_p_one_exact_and_monte_carlo(n, n_resamples, seed, alternative):
    zeros = [0.0] * n
    assert h.randomization_test(zeros, alternative=alternative).pvalue == 1
    assert (
        h.randomization_test(
            zeros, n_resamples=n_resamples, rng=seed, alternative=alternative
        ).pvalue
        == 1
    )
    assert (
        h.shifted_bootstrap_test(
            zeros, n_resamples=n_resamples, rng=seed, alternative=alternative
        ).pvalue
        == 1
    )
    assert h.randomization_test(np.zeros(n, dtype=int), alternative=alternative).pvalue == 1


# --- 6. One query per cluster is the paired bootstrap ----------------------------------------


@SETTINGS
@given(
    x=st.lists(reals, min_size=2, max_size=25),
    seed=seeds,
    max_elements=st.integers(1, 200),
    label_kind=st.sampled_from(["str", "int"]),
    data=st.data(),
)
def test_cluster_bootstrap_with_one_query_per_cluster_is_the_paired_bootstrap(
    x, seed, max_elements, label_kind, data
):
    order = data.draw(st.permutations(range(len(x))))
    labels = [f"user{j}" for j in order] if label_kind == "str" else [1000 + j for j in order]
    paired = h.paired_bootstrap(x, n_resamples=400, rng=seed)
    for weighting in ("query", "cluster"):
        with chunks_of(max_elements):
            clustered_means = h.cluster_bootstrap(
                x, labels, n_resamples=400, rng=seed, weighting=weighting
            )
        np.testing.assert_array_equal(clustered_means, paired, err_msg=weighting)
