"""helpers.scale.monte_carlo: the bit-packed Monte Carlo sign-flip kernel.

It must give the means of the plain kernel, ``significance._sign_flip_means``, bit for bit (the
chapters' stored outputs come from the plain one, sizes beyond them from this one), whatever its
chunks (one resample at a time, a few, all), its look-up groups and the size of its table.
"""

from __future__ import annotations

import numpy as np
import pytest
from plain import chunks_of

from helpers import randomization_test
from helpers.scale import monte_carlo
from helpers.scale.monte_carlo import monte_carlo_sign_flips
from helpers.significance import _sign_flip_means


@pytest.mark.parametrize(("q", "n_resamples"), [(2, 3), (4, 50), (64, 1), (81, 7), (600, 300)])
def test_the_kernel_gives_the_plain_kernels_means_bit_for_bit(q, n_resamples):
    d = np.round(np.random.default_rng(q).normal(size=q), 2)
    d[::5] = 0.0
    nonzero = d[d != 0]
    plain = _sign_flip_means(nonzero, q, n_resamples, np.random.default_rng(5))
    for max_signs in (64, 64 * 7, 2**26):  # one resample at a time, seven, all
        gen = np.random.default_rng(5)
        fast = monte_carlo_sign_flips(nonzero, q, n_resamples, gen, max_signs)
        np.testing.assert_array_equal(fast, plain)


@pytest.mark.parametrize("lookups_at_once", [1, 50, 2**18])
@pytest.mark.parametrize("half_bytes", [False, True])
def test_look_up_groups_keep_the_sums(monkeypatch, lookups_at_once, half_bytes):
    # the kernel gathers its look-ups a group of byte positions at a time, carrying each
    # resample's running sum; any group size (here down to one byte position, and with
    # look-ups of half a byte, as for very many changes) must give the same sums
    d = np.random.default_rng(9).normal(size=300)
    first = randomization_test(d, n_resamples=400, rng=2)
    monkeypatch.setattr(monte_carlo, "_LOOKUPS_AT_ONCE", lookups_at_once)
    if half_bytes:  # a table too small for byte look-ups
        monkeypatch.setattr(monte_carlo, "_MAX_TABLE_BYTES", 2**12)
    for max_elements in (64 * 5 * 7, 64 * 5):  # 7 resamples at once, then 1
        with chunks_of(max_elements):
            other = randomization_test(d, n_resamples=400, rng=2)
        if half_bytes:  # half-byte look-ups add the changes in another order
            np.testing.assert_allclose(
                other.null_distribution, first.null_distribution, rtol=0, atol=1e-14
            )
        else:
            np.testing.assert_array_equal(other.null_distribution, first.null_distribution)
        assert (other.pvalue, other.count) == (first.pvalue, first.count)
