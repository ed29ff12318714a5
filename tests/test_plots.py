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


# --- chapters 3 and 4: intervals against a known truth, and coverage ---------------------------


def test_plot_intervals_vs_truth_iv():
    def good():
        return {"intervals": [(0.0, 0.2), (0.05, 0.3)], "truth": 0.1, "ax": _ax()}

    with pytest.raises(ValueError, match=r"^intervals must be rows of \(low, high\)"):
        h.plot_intervals_vs_truth(**good() | {"intervals": [0.0, 0.2]})
    with pytest.raises(ValueError, match=r"^intervals must be rows of \(low, high\)"):
        h.plot_intervals_vs_truth(**good() | {"intervals": np.empty((0, 2))})
    with pytest.raises(ValueError, match=r"^intervals must be finite, each low end <= its high"):
        h.plot_intervals_vs_truth(**good() | {"intervals": [(0.3, 0.2)]})
    with pytest.raises(ValueError, match=r"^intervals must be finite"):
        h.plot_intervals_vs_truth(**good() | {"intervals": [(0.0, float("nan"))]})
    for bad in (float("inf"), "0.1", True, None):
        with pytest.raises(ValueError, match=r"^truth must be a finite number"):
            h.plot_intervals_vs_truth(**good() | {"truth": bad})


def test_plot_intervals_vs_truth_draws_one_segment_per_interval_misses_in_the_accent_colour():
    from matplotlib.colors import to_hex

    intervals = [(0.0, 0.2), (0.15, 0.3), (-0.1, 0.05), (0.1, 0.1), (0.05, 0.12)]
    ax = h.plot_intervals_vs_truth(intervals, 0.1, ax=_ax(), title="t", xlabel="x", ylabel="y")
    contain, miss = ax.collections  # one LineCollection per kind
    assert len(contain.get_segments()) == 3 and len(miss.get_segments()) == 2
    assert to_hex(contain.get_colors()[0]) == h.PALETTE["diff"].lower()
    assert to_hex(miss.get_colors()[0]) == h.PALETTE["accent"].lower()
    # the misses are the intervals wholly above or below the truth, at their own rows
    assert sorted(s[0][1] for s in miss.get_segments()) == [2.0, 3.0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "truth",
        "contain it (3)",
        "miss it (2)",
    ]
    assert (ax.get_title(), ax.get_xlabel(), ax.get_ylabel()) == ("t", "x", "y")
    assert ax.lines[0].get_xdata()[0] == 0.1  # the truth line


def test_plot_coverage_iv():
    def good():
        return {"sizes": [4, 30], "coverages": {"percentile": [0.7, 0.9]}, "ax": _ax()}

    with pytest.raises(ValueError, match=r"^sizes must be one-dimensional"):
        h.plot_coverage(**good() | {"sizes": TWO_D})
    with pytest.raises(ValueError, match=r"^sizes must be positive"):
        h.plot_coverage(**good() | {"sizes": [0, 30]})
    with pytest.raises(ValueError, match=r"^coverages is empty"):
        h.plot_coverage(**good() | {"coverages": {}})
    with pytest.raises(ValueError, match=r"coverages\['percentile'\] must be 2 shares between 0"):
        h.plot_coverage(**good() | {"coverages": {"percentile": [0.7]}})
    with pytest.raises(ValueError, match=r"coverages\['percentile'\] must be 2 shares between 0"):
        h.plot_coverage(**good() | {"coverages": {"percentile": [0.7, 1.5]}})
    with pytest.raises(ValueError, match=r"^n_samples must be a positive integer"):
        h.plot_coverage(**good() | {"n_samples": 0})
    with pytest.raises(ValueError, match=r"^coverages\['percentile'\] contain NaN"):
        h.plot_coverage(**good() | {"coverages": {"percentile": [0.7, float("nan")]}})


def test_plot_coverage_draws_one_line_per_method_and_the_nominal_level():
    from matplotlib.colors import to_hex

    cov = {"percentile": [0.75, 0.9, 0.5], "t": [0.92, 0.95, 0.94]}
    ax = h.plot_coverage([4, 10, 120], cov, n_samples=400, ax=_ax(), title="t", xlabel="n")
    methods = {c.get_label(): c for c in ax.containers}  # one errorbar container per method
    assert list(methods) == ["percentile", "t"]
    line, _, (bars,) = methods["percentile"]
    assert list(line.get_ydata()) == cov["percentile"] and list(line.get_xdata()) == [4, 10, 120]
    assert to_hex(line.get_color()) == h.PALETTE["diff"].lower()
    assert to_hex(methods["t"][0].get_color()) == h.PALETTE["neutral"].lower()
    # error bars of two Monte Carlo standard errors, 2 sqrt(c (1 - c) / 400), on each side
    assert [round(s[1][1] - s[0][1], 9) for s in bars.get_segments()] == [
        round(4 * np.sqrt(c * (1 - c) / 400), 9) for c in cov["percentile"]
    ]
    nominal = next(ln for ln in ax.lines if ln.get_label() == "nominal 95%")
    assert list(nominal.get_ydata()) == [0.95, 0.95]
    assert ax.get_xscale() == "log" and ax.get_ylabel() == "Coverage"
    assert (ax.get_title(), ax.get_xlabel()) == ("t", "n")
