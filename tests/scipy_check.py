"""One cross-check, shared by the tests: our bootstrap values against scipy.stats.bootstrap.

Tolerances are stated where each test calls it; see those docstrings for why.
"""

import numpy as np
import pytest
from scipy import stats

from helpers import percentile_interval


def assert_agrees_with_scipy_bootstrap(ours, data, statistic, *, seed, paired, end_tol, label=""):
    """scipy's percentile bootstrap of ``statistic`` on ``data``, with as many resamples as ``ours``
    and its own stream (``default_rng(seed)``), must give the same standard error within 5% and
    the same 95% interval ends within ``end_tol`` standard errors.
    Returns scipy's standard error."""
    res = stats.bootstrap(
        data,
        statistic,
        paired=paired,
        vectorized=True,
        n_resamples=len(ours),
        method="percentile",
        confidence_level=0.95,
        rng=np.random.default_rng(seed),
    )
    se = res.standard_error
    low, high = percentile_interval(ours)
    assert ours.std(ddof=1) == pytest.approx(se, rel=0.05), label
    assert abs(low - res.confidence_interval.low) < end_tol * se, label
    assert abs(high - res.confidence_interval.high) < end_tol * se, label
    return se
