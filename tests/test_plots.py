"""The figures (helpers.plots): each takes its data through the scores rule and names it.

The figures themselves are checked where the chapters draw them (tests/test_notebooks.py and the
browser tests); here, the input validation of each plotting function.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
from plain import TWO_D, plain

import helpers as h

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

D4 = [0.1, 0.2, -0.3, 0.4]


def _ax():
    return Figure().subplots()


def test_plot_sorted_changes_iv():
    def good():
        return {"changes": D4, "ax": _ax()}

    with pytest.raises(ValueError, match=r"^changes must be one-dimensional"):
        h.plot_sorted_changes(**good() | {"changes": TWO_D})
    with pytest.raises(ValueError, match=r"^changes contain NaN"):
        h.plot_sorted_changes(**good() | {"changes": [0.1, float("nan")]})
    same = plain(h.plot_sorted_changes(**good() | {"changes": [2.0, -1.0, 0.0, 3.0]}))
    assert (
        plain(h.plot_sorted_changes(**good() | {"changes": (x for x in [2.0, -1.0, 0.0, 3.0])}))
        == same
    )
    assert plain(h.plot_sorted_changes(**good() | {"changes": np.array([2, -1, 0, 3])})) == same
    assert plain(
        h.plot_sorted_changes(**good() | {"changes": np.array([True, False, True, True])})
    ) == plain(h.plot_sorted_changes(**good() | {"changes": [1.0, 0.0, 1.0, 1.0]}))


def test_plot_bootstrap_distribution_iv():
    def good():
        return {"values": D4, "ax": _ax()}

    with pytest.raises(ValueError, match=r"^values must be one-dimensional"):
        h.plot_bootstrap_distribution(**good() | {"values": TWO_D})
    with pytest.raises(ValueError, match=r"^values must be numbers"):
        h.plot_bootstrap_distribution(**good() | {"values": ["a", "b"]})
    same = plain(h.plot_bootstrap_distribution(**good() | {"values": [2.0, -1.0, 0.0, 3.0]}))
    assert (
        plain(
            h.plot_bootstrap_distribution(**good() | {"values": (x for x in [2.0, -1.0, 0.0, 3.0])})
        )
        == same
    )
    assert (
        plain(h.plot_bootstrap_distribution(**good() | {"values": np.array([2, -1, 0, 3])})) == same
    )
    assert plain(
        h.plot_bootstrap_distribution(**good() | {"values": np.array([True, False, True, True])})
    ) == plain(h.plot_bootstrap_distribution(**good() | {"values": [1.0, 0.0, 1.0, 1.0]}))


def test_plot_exact_distribution_iv():
    def good():
        return {"values": D4, "weights": [0.25] * 4, "ax": _ax()}

    with pytest.raises(ValueError, match=r"^values must be one-dimensional"):
        h.plot_exact_distribution(**good() | {"values": TWO_D})
    same = plain(h.plot_exact_distribution(**good() | {"values": [2.0, -1.0, 0.0, 3.0]}))
    assert (
        plain(h.plot_exact_distribution(**good() | {"values": (x for x in [2.0, -1.0, 0.0, 3.0])}))
        == same
    )
    assert plain(h.plot_exact_distribution(**good() | {"values": np.array([2, -1, 0, 3])})) == same
    assert plain(
        h.plot_exact_distribution(**good() | {"values": np.array([True, False, True, True])})
    ) == plain(h.plot_exact_distribution(**good() | {"values": [1.0, 0.0, 1.0, 1.0]}))
    with pytest.raises(ValueError, match=r"^weights must be one-dimensional"):
        h.plot_exact_distribution(**good() | {"weights": TWO_D})
    with pytest.raises(ValueError, match=r"4 values but 2 weights"):
        h.plot_exact_distribution(**good() | {"weights": [0.5, 0.5]})
    same = plain(h.plot_exact_distribution(**good() | {"weights": [2.0, 0.0, 1.0, 3.0]}))
    assert (
        plain(h.plot_exact_distribution(**good() | {"weights": (x for x in [2.0, 0.0, 1.0, 3.0])}))
        == same
    )
    assert plain(h.plot_exact_distribution(**good() | {"weights": np.array([2, 0, 1, 3])})) == same
    assert plain(
        h.plot_exact_distribution(**good() | {"weights": np.array([True, False, True, True])})
    ) == plain(h.plot_exact_distribution(**good() | {"weights": [1.0, 0.0, 1.0, 1.0]}))
