"""The figures (helpers.plots): each takes its data through the scores rule and names it.

The figures themselves are checked where the chapters draw them (tests/test_notebooks.py and the
browser tests); here, the input validation of each plotting function.
"""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest

import helpers as h

matplotlib.use("Agg")
from matplotlib.figure import Figure  # noqa: E402


def _ax():
    return Figure().subplots()


# --- chapter 5 --------------------------------------------------------------------------------


def test_plot_sign_assignments_shows_equally_extreme_and_more_extreme_ones():
    """The four pairs' 16 assignments: 6 less extreme (green dots), 4 equally extreme (accent
    squares, equal means stacked), 6 more extreme (accent dots), the observed mean and its
    mirror."""
    import itertools

    from matplotlib.colors import to_hex

    four = np.array([0.10, 0.02, -0.06, 0.04])
    means = [np.mean(np.array(s) * four) for s in itertools.product((1, -1), repeat=4)]
    ax = h.plot_sign_assignments(means, four.mean(), numbered=True, ax=_ax())
    dots = {line.get_label(): line for line in ax.get_lines()}
    assert list(dots) == ["less extreme (6)", "equally extreme (4)", "more extreme (6)"]
    colours = [to_hex(line.get_color()).upper() for line in dots.values()]
    assert colours == [h.PALETTE["diff"], h.PALETTE["accent"], h.PALETTE["accent"]]
    assert [line.get_marker() for line in dots.values()] == ["o", "s", "o"]
    ties = dots["equally extreme (4)"]
    where = zip(np.round(ties.get_xdata(), 3).tolist(), ties.get_ydata().tolist(), strict=True)
    assert sorted(where) == [
        (-0.025, 1),
        (-0.025, 2),
        (0.025, 1),
        (0.025, 2),
    ]
    assert sorted(int(t.get_text()) for t in ax.texts) == list(range(1, 17))
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "less extreme (6)",
        "observed +0.025",
        "equally extreme (4)",
        "its mirror -0.025",
        "more extreme (6)",
    ]
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()
    plain_ax = h.plot_sign_assignments(means, four.mean(), ax=_ax())
    assert not plain_ax.texts  # numbers only when asked


# --- chapter 6 --------------------------------------------------------------------------------


def test_plot_error_rates_draws_one_line_per_procedure_in_the_palette():
    rates = {
        "same queries": [0.025, 0.05, 0.2],
        "held out": [0.025, 0.03, 0.02],
        "formula": [0.02, 0.04, 0.1],
    }
    ax = h.plot_error_rates([1, 2, 20], rates, nominal=0.025, ax=_ax(), title="t", xlabel="k")
    lines = ax.get_lines()
    assert [ln.get_label() for ln in lines] == [*rates, "promised 2.5%"]
    assert [ln.get_color() for ln in lines] == [
        h.PALETTE["accent"],
        h.PALETTE["diff"],
        h.PALETTE["neutral"],
        h.PALETTE["neutral"],
    ]
    for ln, values in zip(lines, rates.values(), strict=False):
        assert list(ln.get_xdata()) == [1, 2, 20] and list(ln.get_ydata()) == values
    assert list(lines[-1].get_ydata()) == [0.025, 0.025]  # the nominal rate, across the axes
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "20"]
    assert (
        ax.get_title() == "t"
        and ax.get_xlabel() == "k"
        and ax.get_ylabel() == "False-positive rate"
    )
    assert ax.get_ylim()[1] > 0.2  # room above the highest rate
    one = h.plot_error_rates([1, 2], {"x": [0.05, 0.1]}, nominal=0.05, ax=_ax())
    assert [ln.get_label() for ln in one.get_lines()] == ["x", "promised 5%"]


def test_plot_sorted_changes_counts_unchanged_queries_not_ties():
    ax = h.plot_sorted_changes([0.1, -0.2, 0.0, 0.3], ax=_ax())
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "B better (2)",
        "A better (1)",
        "unchanged (1)",
    ]


# --- chapters 3 and 4: intervals against a known truth, and coverage ---------------------------


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


# --- chapter 1: plot_intervals_vs_truth's names; chapter 2: plot_picked_queries ------------


def test_plot_intervals_vs_truth_names_its_line_and_segments_as_asked():
    ax = h.plot_intervals_vs_truth(
        [(-0.2, 0.1), (-0.1, 0.05), (0.01, 0.2), (-0.3, -0.05)],
        0.0,
        ax=_ax(),
        truth_label="zero (no change)",
        labels=("includes zero", "excludes zero"),
    )
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "zero (no change)",
        "includes zero (2)",
        "excludes zero (2)",
    ]


def test_plot_picked_queries_marks_and_counts_the_picks():
    ax = h.plot_picked_queries([0.1, 0.02, -0.06, 0.04], [2, 0, 1, 1], ax=_ax())
    assert [round(p.get_height(), 2) for p in ax.patches[4:]] == [0.1, -0.06, 0.04]
    assert {matplotlib.colors.to_hex(p.get_facecolor()).upper() for p in ax.patches[4:]} == {
        h.PALETTE["accent"]
    }
    assert [t.get_text() for t in ax.get_xticklabels()] == ["q1\n×2", "q2\n×0", "q3\n×1", "q4\n×1"]
    assert ax.get_legend().get_texts()[0].get_text() == "its mean +0.045"
    assert ax.get_xlabel() and ax.get_ylabel() and ax.get_title()


def test_plot_exact_distribution_names_the_highlighted_bar():
    ax = h.plot_exact_distribution([-0.1, 0.0, 0.1], [0.25, 0.5, 0.25], highlight=0.0, ax=_ax())
    assert ax.get_legend().get_texts()[-1].get_text() == "this draw +0.000"
    ax = h.plot_exact_distribution(
        [-0.1, 0.0, 0.1], [0.25, 0.5, 0.25], highlight=0.0, highlight_label="2 draws at", ax=_ax()
    )
    assert ax.get_legend().get_texts()[-1].get_text() == "2 draws at +0.000"


def test_plot_null_distribution_colours_the_p_values_tails():
    """The accent bars are the values at least as far from zero as the observed one, ties
    included; the legend gives their share, the p-value (10 of 16 on the four pairs)."""
    null = h.randomization_test(np.array([10, 2, -6, 4])).null_distribution
    ax = h.plot_null_distribution(null, 2.5, ax=_ax())
    accent = matplotlib.colors.to_rgba(h.PALETTE["accent"])
    tails = sorted(
        round(p.get_x() + p.get_width() / 2, 6) for p in ax.patches if p.get_facecolor() == accent
    )
    assert tails == [-5.5, -4.5, -3.5, -2.5, 2.5, 3.5, 4.5, 5.5]
    assert sum(p.get_height() for p in ax.patches) == pytest.approx(1.0)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "at least as extreme: 0.6250" in texts and "observed +2.500" in texts
    assert ax.get_xlabel() and ax.get_ylabel() == "Probability" and ax.get_title()


def test_plot_bootstrap_beside_null_marks_two_centres():
    """Top: the bootstrap means, centred near the observed change, nothing in the accent
    colour; bottom: the null, centred on zero, its tails in the accent colour."""
    boot = [-0.2, -0.1, -0.1, 0.0]
    null = [-0.1, 0.1, -0.3, 0.3]
    top, bottom = h.plot_bootstrap_beside_null(boot, null, -0.1, axes=Figure().subplots(2, 1))
    assert [t.get_text() for t in top.get_legend().get_texts()][:2] == [
        "observed -0.100",
        "centre -0.100",
    ]
    assert [t.get_text() for t in bottom.get_legend().get_texts()][1] == "centre +0.000"
    accent = matplotlib.colors.to_rgba(h.PALETTE["accent"])
    assert not any(p.get_facecolor() == accent for p in top.patches)
    assert sum(p.get_facecolor() == accent for p in bottom.patches) == 4
    assert top.get_title() != bottom.get_title() and bottom.get_xlabel()
    for ax in (top, bottom):
        assert sum(p.get_height() for p in ax.patches) == pytest.approx(1.0)


# --- chapter 1: the sampling distribution beside one sample's bootstrap distribution -------


def test_plot_sampling_vs_bootstrap_names_spreads_centres_and_truth():
    import matplotlib.pyplot as plt

    fresh, boot = [-0.1, -0.05, -0.05, 0.0], [0.0, 0.05, 0.05, 0.1, 0.1, 0.15]
    top, bottom = h.plot_sampling_vs_bootstrap(
        fresh, boot, truth=-0.05, observed=0.075, lattice=0.05
    )
    assert top.get_title() == f"Means of 4 fresh samples: spread {np.std(fresh):.3f}"
    assert bottom.get_title() == f"Means of 6 resamples of one sample: spread {np.std(boot):.3f}"
    assert [t.get_text() for t in top.get_legend().get_texts()] == ["true change -0.050"]
    assert [t.get_text() for t in bottom.get_legend().get_texts()] == [
        "true change -0.050",
        "this sample's mean +0.075",
    ]
    assert bottom.get_xlabel() and top.get_ylabel() and bottom.get_ylabel()
    assert top.get_shared_x_axes().joined(top, bottom)
    # the bars sit on the lattice, one bar per possible value, counted in each panel
    heights = [round(p.get_height()) for p in top.patches if p.get_height() > 0]
    assert heights == [1, 2, 1]
    assert sorted(round(p.get_height()) for p in bottom.patches if p.get_height() > 0) == [
        1,
        1,
        2,
        2,
    ]
    plt.close("all")


def _decision(**kw):
    args = dict(
        labels=["gain", "latency", "tail"],
        estimates=[0.014, 68.5, -0.064],
        intervals=[(0.003, 0.026), (32.1, 86.4), (-0.095, -0.035)],
        limits=[0.01, 25.0, -0.05],
        better=["above", "below", "above"],
        xlabels=["nDCG@10", "ms", "nDCG@10"],
        limit_labels=["useful", "at most +25 ms", "at least -0.05"],
        fig=Figure(),
    )
    return h.plot_decision(**args | kw)


def test_plot_decision_draws_each_interval_against_its_limit_and_gives_no_verdict():
    """The titles say which side is better, never the verdict: the figure sits above
    exercise 6.2, which asks for the verdicts."""
    axes = _decision()
    titles = [ax.get_title() for ax in axes]
    assert titles == [
        "gain: higher is better",
        "latency: lower is better",
        "tail: higher is better",
    ]
    verdicts = ("shown", "ruled out", "neither")
    assert not [t for t in titles for v in verdicts if v in t]
    for ax, limit in zip(axes, [0.01, 25.0, -0.05], strict=True):
        xs = [line.get_xdata()[0] for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert xs == [limit] and ax.get_xlabel()
        low, high = ax.get_xlim()
        assert low < min(0, limit) and high > max(0, limit)


def test_plot_intervals_vs_zero_colours_excluding_zero_apart_from_a_miss():
    from matplotlib.colors import to_hex

    ax = h.plot_intervals_vs_zero([(-0.2, 0.0), (-0.2, -0.1), (-0.1, 0.1)], ax=_ax())
    includes, excludes = ax.collections
    assert [len(c.get_segments()) for c in (includes, excludes)] == [2, 1]
    assert to_hex(includes.get_color()[0]) == h.PALETTE["diff"].lower()
    assert to_hex(excludes.get_color()[0]) == h.PALETTE["neutral"].lower()
    legend = ax.get_legend()
    assert [t.get_text() for t in legend.get_texts()] == [
        "zero (no change)",
        "includes zero (2)",
        "excludes zero (1)",
    ]
    assert to_hex(legend.legend_handles[2].get_color()) == h.PALETTE["neutral"].lower()
    assert ax.get_ylabel() == "Seed"
    with pytest.raises(ValueError, match="rows of"):
        h.plot_intervals_vs_zero([0.0, 0.2], ax=_ax())


def test_plot_sampling_vs_bootstrap_lines_stop_below_the_legend():
    import matplotlib.pyplot as plt

    top, bottom = h.plot_sampling_vs_bootstrap(
        [-0.1, -0.05, -0.05, 0.0], [0.0, 0.05, 0.1], truth=-0.05, observed=0.05
    )
    lines = top.get_lines() + bottom.get_lines()
    assert len(lines) == 3 and all(max(line.get_ydata()) == 0.8 for line in lines)
    plt.close(top.figure)
