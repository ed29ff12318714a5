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


# --- chapter 1: plot_interval_ladder; chapter 2: plot_picked_queries ------------------------


def test_plot_interval_ladder_colours_the_misses_and_counts_them():
    ax = h.plot_interval_ladder(
        [-0.2, -0.1, 0.01, -0.3], [0.1, 0.05, 0.2, -0.05], truth=0.0, ax=_ax()
    )
    (segments,) = ax.collections
    colours = [matplotlib.colors.to_hex(c).upper() for c in segments.get_colors()]
    assert len(segments.get_segments()) == 4
    assert colours == [
        h.PALETTE["diff"],
        h.PALETTE["diff"],
        h.PALETTE["accent"],
        h.PALETTE["accent"],
    ]
    assert [t.get_text() for t in ax.get_legend().get_texts()][1:] == [
        "covers it (2)",
        "misses it (2)",
    ]
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def test_plot_interval_ladder_iv():
    with pytest.raises(ValueError, match=r"^lows must be one-dimensional"):
        h.plot_interval_ladder(TWO_D, [1, 2], truth=0.0, ax=_ax())
    with pytest.raises(ValueError, match=r"^highs contain NaN"):
        h.plot_interval_ladder([0.0, 0.1], [0.1, float("nan")], truth=0.0, ax=_ax())
    with pytest.raises(ValueError, match=r"2 lows but 3 highs"):
        h.plot_interval_ladder([0.0, 0.1], [0.1, 0.2, 0.3], truth=0.0, ax=_ax())
    with pytest.raises(ValueError, match=r"at most its high"):
        h.plot_interval_ladder([0.2], [0.1], truth=0.0, ax=_ax())
    with pytest.raises(ValueError, match=r"^truth"):
        h.plot_interval_ladder([0.0], [0.1], truth=float("nan"), ax=_ax())


def test_plot_picked_queries_marks_and_counts_the_picks():
    ax = h.plot_picked_queries([0.1, 0.02, -0.06, 0.04], [2, 0, 1, 1], ax=_ax())
    assert [round(p.get_height(), 2) for p in ax.patches[4:]] == [0.1, -0.06, 0.04]
    assert {matplotlib.colors.to_hex(p.get_facecolor()).upper() for p in ax.patches[4:]} == {
        h.PALETTE["accent"]
    }
    assert [t.get_text() for t in ax.get_xticklabels()] == ["q1\n×2", "q2\n×0", "q3\n×1", "q4\n×1"]
    assert ax.get_legend().get_texts()[0].get_text() == "its mean +0.045"
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def test_plot_picked_queries_iv():
    with pytest.raises(ValueError, match=r"^changes must be one-dimensional"):
        h.plot_picked_queries(TWO_D, [1, 1], ax=_ax())
    with pytest.raises(ValueError, match=r"4 changes but 3 counts"):
        h.plot_picked_queries(D4, [1, 1, 2], ax=_ax())
    for counts in ([1, -1, 2, 2], [0.5, 1, 1, 1.5], [0, 0, 0, 0]):
        with pytest.raises(ValueError, match=r"counts must be whole numbers"):
            h.plot_picked_queries(D4, counts, ax=_ax())
    with pytest.raises(ValueError, match=r"3 query IDs for 4 changes"):
        h.plot_picked_queries(D4, [1, 1, 1, 1], query_ids=["a", "b", "c"], ax=_ax())


def test_plot_exact_distribution_names_the_highlighted_bar():
    ax = h.plot_exact_distribution([-0.1, 0.0, 0.1], [0.25, 0.5, 0.25], highlight=0.0, ax=_ax())
    assert ax.get_legend().get_texts()[-1].get_text() == "this draw +0.000"
    ax = h.plot_exact_distribution(
        [-0.1, 0.0, 0.1], [0.25, 0.5, 0.25], highlight=0.0, highlight_label="2 draws at", ax=_ax()
    )
    assert ax.get_legend().get_texts()[-1].get_text() == "2 draws at +0.000"
