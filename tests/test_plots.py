"""The figures (helpers.plots): each takes its data through the scores rule and names it.

The figures themselves are checked where the chapters draw them (tests/test_notebooks.py and the
browser tests); here, the input validation of each plotting function.
"""

from __future__ import annotations

import matplotlib
import pytest
from iv_check import NON_NEGATIVE, TWO_D, Unusual, iv_param, run_iv

import helpers as h

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402

PLOT_KINDS = ("generator", "int64 array", "boolean array")
D4 = [0.1, 0.2, -0.3, 0.4]


def _ax():
    return Figure().subplots()


@pytest.mark.parametrize(
    "arg, value, match",
    [
        iv_param("changes", TWO_D, r"^changes must be one-dimensional"),
        iv_param("changes", [0.1, float("nan")], r"^changes contain NaN"),
        iv_param("changes", Unusual(kinds=PLOT_KINDS)),
    ],
)
def test_plot_sorted_changes_iv(arg, value, match):
    run_iv(h.plot_sorted_changes, lambda: {"changes": D4, "ax": _ax()}, arg, value, match)


@pytest.mark.parametrize(
    "arg, value, match",
    [
        iv_param("values", TWO_D, r"^values must be one-dimensional"),
        iv_param("values", ["a", "b"], r"^values must be numbers"),
        iv_param("values", Unusual(kinds=PLOT_KINDS)),
    ],
)
def test_plot_bootstrap_distribution_iv(arg, value, match):
    run_iv(h.plot_bootstrap_distribution, lambda: {"values": D4, "ax": _ax()}, arg, value, match)


@pytest.mark.parametrize(
    "arg, value, match",
    [
        iv_param("values", TWO_D, r"^values must be one-dimensional"),
        iv_param("values", Unusual(kinds=PLOT_KINDS)),
        iv_param("weights", TWO_D, r"^weights must be one-dimensional"),
        iv_param("weights", [0.5, 0.5], r"4 values but 2 weights"),
        iv_param("weights", Unusual(NON_NEGATIVE, kinds=PLOT_KINDS)),
    ],
)
def test_plot_exact_distribution_iv(arg, value, match):
    def good():
        return {"values": D4, "weights": [0.25] * 4, "ax": _ax()}

    run_iv(h.plot_exact_distribution, good, arg, value, match)


def test_the_old_keyword_diffs_still_works_with_a_deprecation_warning():
    with pytest.warns(
        DeprecationWarning, match=r"plot_sorted_changes\(diffs=\.\.\.\) is deprecated"
    ):
        old = h.plot_sorted_changes(diffs=D4, ax=_ax())
    new = h.plot_sorted_changes(changes=D4, ax=_ax())
    assert [(p.get_x(), p.get_height()) for p in old.patches] == [
        (p.get_x(), p.get_height()) for p in new.patches
    ]
