"""Holm's adjustment: a worked example by hand, an independent step-down loop, and bad input."""

import itertools

import numpy as np
import pytest

from helpers import holm


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


@pytest.mark.parametrize(
    "bad, match",
    [
        ([], "empty"),
        ([0.1, float("nan")], "NaN"),
        ([0.1, 1.2], "between 0 and 1; got 1.2 at position 1"),
        ([-0.01], "between 0 and 1"),
        ([[0.1, 0.2]], "one-dimensional"),
        (["0.1"], "numbers"),
    ],
)
def test_bad_p_values(bad, match):
    with pytest.raises(ValueError, match=match):
        holm(bad)


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, float("nan"), True, "0.05"])
def test_bad_alpha(alpha):
    with pytest.raises(ValueError, match="alpha must be a number strictly between 0 and 1"):
        holm([0.01, 0.02], alpha=alpha)
