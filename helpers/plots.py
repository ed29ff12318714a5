"""Figures for the series, in the Okabe-Ito palette (colour-blind-safe), one colour per role.

Each figure is drawn on the ``ax`` (``axes``, ``fig``) given, else on a new pyplot figure; its
axes are returned."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from . import _checks
from .data import signed

__all__ = ["PALETTE", "set_style", "plot_bootstrap_distribution", "plot_exact_distribution",
           "plot_intervals", "plot_sorted_changes", "plot_sign_assignments", "plot_error_rates",
           "plot_intervals_vs_truth", "plot_coverage", "plot_power_curve",
           "plot_picked_queries", "plot_null_distribution", "plot_bootstrap_beside_null",
           "plot_sampling_vs_bootstrap", "plot_decision", "plot_intervals_vs_zero"]  # fmt: skip

PALETTE = {
    "A": "#0072B2",  # blue
    "B": "#E69F00",  # orange
    "diff": "#009E73",  # bluish green
    "accent": "#D55E00",  # vermillion: interval ends, highlighted draws
    "neutral": "#4D4D4D",  # dark grey: zero, reference lines
}


def set_style() -> None:
    """Set matplotlib's defaults for the series (projector-readable text, the palette as colour
    cycle); call it once at the top of a notebook."""
    import matplotlib as mpl
    from cycler import cycler

    cycle = cycler(color=[PALETTE[r] for r in ("A", "B", "diff", "accent")])
    mpl.rc("figure", figsize=(7.5, 4.0), dpi=100)
    mpl.rc("font", size=12)
    mpl.rc("axes", titlesize=13, labelsize=12, prop_cycle=cycle)
    mpl.rc("axes.spines", top=False, right=False)
    mpl.rc("legend", frameon=False)
    mpl.rc("savefig", bbox="tight")
    try:  # in a notebook: PNGs at twice the pixels, sharp on a 2x screen or a projector
        from IPython import get_ipython
        from matplotlib_inline.backend_inline import set_matplotlib_formats
    except ImportError:
        return
    if get_ipython() is not None:
        set_matplotlib_formats("retina")


#: The usual legend: top left, on a box that hides what is drawn behind it.
_LEGEND = dict(loc="upper left", fontsize=10, frameon=True, framealpha=0.95, edgecolor="none")
#: Zero and other reference levels: dotted grey. A limit or a mark to read off: dashed vermillion.
_DOTTED = dict(color=PALETTE["neutral"], linestyle=":")
_DASHED = dict(color=PALETTE["accent"], linestyle="--")


#: Each figure function's text alternative: one sentence on what its figure shows, for a reader
#: who cannot see it (the static pages give it to the figure's image: tools/notebook_tools.py).
FIGURE_TEXT: dict[str, str] = {}


def _text(sentence: str):
    """Record ``sentence`` as the decorated figure function's text alternative."""
    return lambda function: FIGURE_TEXT.setdefault(function.__name__, sentence) and function


def _axes(ax, figsize: tuple[float, float] | None = None, rows: int = 1):
    """``ax``, or a new pyplot figure's ``rows`` panels (one above the other, sharing x)."""
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(rows, 1, figsize=figsize, sharex=rows > 1)
    return ax


# --- distributions of resampled means, and per-query changes (chapters 1, 2, 3, 6, 7) ---------


def _mark_lines(ax, observed, interval, color: str, linewidth: float, zero_label=None) -> None:
    """A solid line at the observed value, dashed lines at the interval ends, then a dotted line
    at zero (last, so that it stays visible where an interval end falls on it)."""
    if observed is not None:
        ax.axvline(observed, color="black", linewidth=1.5, label=f"observed {observed:+.3f}")
    if interval is not None:
        low, high = interval
        label = f"interval [{low:+.3f}, {high:+.3f}]"
        for x, name in ((low, label), (high, None)):  # one legend entry for the two ends
            ax.axvline(x, color=color, linestyle="--", linewidth=linewidth, label=name)
    ax.axvline(0, **_DOTTED, linewidth=2, label=zero_label, zorder=5)


def _lattice_edges(values: np.ndarray, lattice: float) -> np.ndarray:
    """Bin edges halfway between the possible values ``k * lattice``: one bar centred on each."""
    k = np.round(values / lattice).astype(int)
    return (np.arange(k.min(), k.max() + 2) - 0.5) * lattice


@_text(
    "A histogram of the resampled mean changes, with zero, the observed change and "
    "the interval's two ends marked as vertical lines."
)
def plot_bootstrap_distribution(
    values: Sequence[float],
    *,
    interval: tuple[float, float] | None = None,
    observed: float | None = None,
    ax=None,
    color: str = PALETTE["diff"],
    title: str = "Bootstrap distribution of the mean change",
    xlabel: str = "Resampled mean change, B - A",
    lattice: float | None = None,
):
    """Histogram of bootstrap statistics with the interval, the observed value and zero marked;
    given ``lattice``, the spacing of the possible values (1/Q for hit@k), one bar per value.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_bootstrap_distribution([0.1, 0.2, 0.2, 0.3], interval=(0.1, 0.3), observed=0.2)
    >>> ax.get_xlabel()
    'Resampled mean change, B - A'
    """
    v = _checks.scores(values, "values")
    ax = _axes(ax)
    edges = _lattice_edges(v, lattice) if lattice else 40
    counts, _, _ = ax.hist(v, bins=edges, color=color, alpha=0.85, edgecolor="white", linewidth=0.5)
    _mark_lines(ax, observed, interval, PALETTE["accent"], 2, zero_label="zero (no change)")
    ax.set(ylim=(0, counts.max() * 1.4), xlabel=xlabel, ylabel="Number of resamples", title=title)
    ax.legend(ncol=3 if interval is not None and observed is not None else 2, **_LEGEND)
    return ax


@_text(
    "Two histograms on one axis: above, the means of many fresh samples around the "
    "truth; below, one sample's bootstrap means around its own mean, with a similar "
    "spread."
)
def plot_sampling_vs_bootstrap(
    sample_means: ArrayLike,
    bootstrap_means: ArrayLike,
    *,
    truth: float,
    observed: float,
    lattice: float | None = None,
):
    """Two histograms on one x axis: above, the means of many fresh samples from a known world
    (the sampling distribution, centred near ``truth``); below, one sample's bootstrap means
    (centred near that sample's mean ``observed``). Each panel names its spread (standard
    deviation); the truth is marked in both.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> top, bottom = plot_sampling_vs_bootstrap([-0.1, -0.05, -0.05, 0.0], [0.0, 0.05, 0.1],
    ...                                          truth=-0.05, observed=0.05)
    >>> top.get_title(), bottom.get_xlabel()
    ('Means of 4 fresh samples: spread 0.035', 'Mean change, B - A')
    """
    fresh = _checks.scores(sample_means, "sample_means")
    boot = _checks.scores(bootstrap_means, "bootstrap_means")
    _checks.number(truth, "truth")
    _checks.number(observed, "observed")
    both = np.concatenate([fresh, boot])
    edges = _lattice_edges(both, lattice) if lattice else np.histogram_bin_edges(both, bins=40)
    top, bottom = _axes(None, (7.5, 5.6), rows=2)
    panels = (
        (top, fresh, PALETTE["neutral"], "fresh samples", None),
        (bottom, boot, PALETTE["diff"], "resamples of one sample", observed),
    )
    for ax, values, colour, what, centre in panels:
        counts, _, _ = ax.hist(values, bins=edges, color=colour, alpha=0.85, edgecolor="white")
        below = dict(ymax=0.8)  # the lines stop below the legend
        ax.axvline(truth, color="black", linewidth=1.5, label=f"true change {truth:+.3f}", **below)
        if centre is not None:
            mean = f"this sample's mean {centre:+.3f}"
            ax.axvline(centre, **_DASHED, linewidth=2, label=mean, **below)
        ax.set_ylim(0, counts.max() * 1.35)  # head room for the legend
        ax.set(title=f"Means of {values.size:,} {what}: spread {values.std():.3f}", ylabel="Count")
        ax.legend(ncol=2, **_LEGEND)
    bottom.set_xlabel("Mean change, B - A")
    top.figure.suptitle("Fresh samples from the world, and one sample's resamples")
    return top, bottom


@_text(
    "A bar chart of every possible resampled mean change and its probability, with "
    "one draw's mean highlighted and the interval, the observed change and zero "
    "marked."
)
def plot_exact_distribution(
    values: Sequence[float],
    weights: Sequence[float],
    *,
    highlight: float | None = None,
    interval: tuple[float, float] | None = None,
    observed: float | None = None,
    ax=None,
    title: str = "Exact bootstrap distribution of the mean change",
    ylabel: str = "Probability",
    highlight_label: str = "this draw",
    legend_columns: int = 3,
    headroom: float = 1.45,
):
    """Bar chart of an exact (enumerated) distribution: distinct values and their probabilities,
    the bar at ``highlight`` (the draw inspected) in the accent colour, named ``highlight_label``;
    the y axis reaches ``headroom`` times the highest probability (room for the legend).

    >>> from matplotlib.figure import Figure
    >>> ax = Figure().subplots()
    >>> ax = plot_exact_distribution([-0.1, 0.0, 0.1], [0.25, 0.5, 0.25], highlight=0.1, ax=ax)
    >>> [float(round(p.get_height(), 2)) for p in ax.patches]
    [0.25, 0.5, 0.25]
    """
    from matplotlib.patches import Patch

    v = _checks.scores(values, "values")
    w = _checks.scores(weights, "weights")
    if v.size != w.size:
        raise ValueError(f"{v.size} values but {w.size} weights.")
    ax = _axes(ax)
    gaps = np.diff(np.unique(v))
    width = 0.8 * gaps.min() if gaps.size else 0.01
    colors = np.full(v.size, PALETTE["diff"])
    if highlight is not None:
        colors[np.isclose(v, highlight, rtol=0, atol=1e-9)] = PALETTE["accent"]
    ax.bar(v, w, width=width, color=colors, edgecolor="white", linewidth=0.5)
    _mark_lines(ax, observed, interval, PALETTE["neutral"], 1.5)
    xlabel = "Resampled mean change, B - A"
    ax.set(ylim=(0, w.max() * headroom), xlabel=xlabel, ylabel=ylabel, title=title)
    handles, labels = ax.get_legend_handles_labels()
    if highlight is not None:
        handles.append(Patch(color=PALETTE["accent"]))
        labels.append(f"{highlight_label} {signed(highlight)}")
    if handles:
        ax.legend(handles, labels, ncol=legend_columns, **_LEGEND)
    return ax


@_text(
    "A bar chart of each query's change, the queries a draw picked highlighted and "
    "labelled with how often each was drawn, and the mean of the picked changes as a "
    "dashed line."
)
def plot_picked_queries(
    changes: ArrayLike,
    counts: ArrayLike,
    *,
    query_ids: Sequence[str] | None = None,
    ax=None,
):
    """Each query's change as a bar, the picked ones in the accent colour, how many times each
    was drawn under its name ("q1 ×2"), and the mean of the picked changes as a dashed line.

    >>> from matplotlib.figure import Figure
    >>> ax = plot_picked_queries([0.1, 0.02, -0.06, 0.04], [2, 0, 1, 1], ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['q1\\n×2', 'q2\\n×0', 'q3\\n×1', 'q4\\n×1']
    """
    d = _checks.scores(changes, "changes")
    n = _checks.scores(counts, "counts")
    if n.size != d.size:
        raise ValueError(f"{d.size} changes but {n.size} counts.")
    if np.any(n < 0) or np.any(n != np.round(n)) or n.sum() == 0:
        raise ValueError("counts must be whole numbers >= 0, at least one of them positive.")
    ids = list(query_ids) if query_ids is not None else [f"q{i + 1}" for i in range(d.size)]
    if len(ids) != d.size:
        raise ValueError(f"{len(ids)} query IDs for {d.size} changes.")
    ax = _axes(ax, figsize=(3.5, 3.6))
    picked = n > 0
    x = np.arange(d.size)
    ax.bar(x, d, width=0.6, color=PALETTE["neutral"], alpha=0.3)  # every query, faint
    ax.bar(x[picked], d[picked], width=0.6, color=PALETTE["accent"])  # the picked ones
    ax.axhline(0, color=PALETTE["neutral"], linewidth=1)
    mean = float(n @ d / n.sum())
    ax.axhline(mean, color="black", linestyle="--", linewidth=1.5, label=f"its mean {signed(mean)}")
    ax.set_xticks(x, [f"{q}\n×{int(c)}" for q, c in zip(ids, n, strict=True)])
    for label, p in zip(ax.get_xticklabels(), picked, strict=True):
        label.set_fontweight("bold" if p else "normal")
    span = float(np.ptp(np.append(d, 0.0))) or 1.0
    low, high = min(d.min(), 0.0), max(d.max(), 0.0)
    ax.set(ylim=(low - 0.1 * span, high + 0.35 * span), xlabel="Query, times drawn")
    ax.set(ylabel="Change $d_q$, B - A", title="Which queries this draw picked")
    ax.legend(**_LEGEND | dict(loc="upper right"))
    return ax


@_text(
    "A bar chart of every query's change B - A, sorted from the largest loss to the largest win."
)
def plot_sorted_changes(
    changes: ArrayLike,
    *,
    ax=None,
    title: str = "Per-query changes, sorted",
    ylabel: str = "Change B - A",
):
    """Every query's change ``d_q`` as a bar, sorted; wins in B's colour, losses in A's.

    >>> from matplotlib.figure import Figure
    >>> ax = plot_sorted_changes([0.1, -0.2, 0.0], ax=Figure().subplots())
    >>> [float(round(p.get_height(), 1)) for p in ax.patches]
    [-0.2, 0.0, 0.1]
    """
    from matplotlib.patches import Patch

    d = np.sort(_checks.scores(changes, "changes"))
    ax = _axes(ax)
    colors = np.where(d > 0, PALETTE["B"], np.where(d < 0, PALETTE["A"], PALETTE["neutral"]))
    ax.bar(np.arange(1, d.size + 1), d, width=1.0, color=colors, linewidth=0)
    ax.axhline(0, color=PALETTE["neutral"], linewidth=1)
    wins, losses, unchanged = int((d > 0).sum()), int((d < 0).sum()), int((d == 0).sum())
    labels = [f"B better ({wins})", f"A better ({losses})", f"unchanged ({unchanged})"]
    labels = labels[: 3 if unchanged else 2]
    handles = [Patch(color=PALETTE[role]) for role in ("B", "A", "neutral")[: len(labels)]]
    ax.legend(handles, labels, loc="upper left", fontsize=10)
    ax.set(xlim=(0.5, d.size + 0.5), xlabel="Queries, sorted by change", ylabel=ylabel, title=title)
    return ax


# --- the null distribution of a randomization test (chapter 5) --------------------------------


def _value_bars(ax, values: np.ndarray, extreme_from: float | None, color: str) -> np.ndarray:
    """Bars of the share of ``values`` at each distinct value; with ``extreme_from``, those at
    least as far from zero (two-sided) in the accent colour. Returns the shares."""
    points, counts = np.unique(np.round(values, 10), return_counts=True)
    share = counts / values.size
    width = 0.8 * float(np.diff(points).min()) if points.size > 1 else 0.01
    if extreme_from is None:
        ax.bar(points, share, width=width, color=color, label="resampled means")
        return share
    extreme = np.abs(points) >= extreme_from - 1e-10
    tail = int(counts[extreme].sum()) / values.size
    ax.bar(points[~extreme], share[~extreme], width=width, color=color, label="less extreme")
    label = f"at least as extreme: {tail:.4f}"
    ax.bar(points[extreme], share[extreme], width=width, color=PALETTE["accent"], label=label)
    return share


def _observed_lines(ax, observed: float, top: float, mirror=None, *, zero=None, zero_order=5):
    """Lines from 0 to ``top``: solid at the observed value, dashed at its mirror image (if
    ``mirror`` names it), then dotted at zero (named ``zero``)."""
    ax.vlines(observed, 0, top, color="black", linewidth=1.5, label=f"observed {signed(observed)}")
    if mirror:
        ax.vlines(-observed, 0, top, color="black", linewidth=1.5, linestyle="--", label=mirror)
    ax.vlines(0, 0, top, **_DOTTED, linewidth=2, label=zero, zorder=zero_order)


@_text(
    "A dot plot of each sign assignment's mean change, with the observed mean and its "
    "mirror image marked and the means at least as extreme highlighted."
)
def plot_sign_assignments(
    means: Sequence[float],
    observed: float,
    *,
    numbered: bool = False,
    ax=None,
    title: str = "Every sign assignment's mean change",
    xlabel: str = "Mean change B - A under the null",
):
    """Each sign assignment's mean change as a dot (equal means stacked), with the observed mean
    (solid line) and its mirror image (dashed) marked. The equally extreme means, as far from
    zero as the observed mean (within 1e-12, as the chapter counts them), are accent squares;
    the more extreme means are accent dots, the less extreme ones green. ``numbered`` writes each
    dot's place in ``means`` (from 1) in it.

    >>> from matplotlib.figure import Figure
    >>> ax = plot_sign_assignments([0.2, 0.1, -0.1, -0.2], 0.1, ax=Figure().subplots())
    >>> ax.get_legend_handles_labels()[1][:3]
    ['less extreme (0)', 'equally extreme (2)', 'more extreme (2)']
    """
    m = _checks.scores(means, "means")
    far = abs(_checks.number(observed, "observed"))
    tie = np.abs(np.abs(m) - far) <= 1e-12
    more = (np.abs(m) > far) & ~tie
    keys = np.round(m, 10).tolist()
    height = np.array([keys[: i + 1].count(x) for i, x in enumerate(keys)])  # place in its stack
    ax = _axes(ax)
    size = 15 if numbered else 9
    for kind, name, marker, color, edge in (
        (~tie & ~more, "less extreme", "o", PALETTE["diff"], "white"),
        (tie, "equally extreme", "s", PALETTE["accent"], "black"),
        (more, "more extreme", "o", PALETTE["accent"], "white"),
    ):
        style = dict(marker=marker, markersize=size, color=color, markeredgecolor=edge, zorder=3)
        ax.plot(m[kind], height[kind], linestyle="none", label=f"{name} ({kind.sum()})", **style)
    if numbered:
        number = dict(ha="center", va="center", fontsize=8, color="white", zorder=4)
        for i, (x, y) in enumerate(zip(m.tolist(), height.tolist(), strict=True)):
            ax.annotate(str(i + 1), (x, y), **number)
    mirror = f"its mirror {signed(-observed)}"
    _observed_lines(ax, observed, height.max() + 0.5, mirror, zero_order=0)  # zero behind the dots
    ax.set(ylim=(0, height.max() + 1.6), yticks=range(1, height.max() + 1))  # room for the legend
    ax.set(xlabel=xlabel, ylabel="Number of assignments", title=title)
    handles, names = ax.get_legend_handles_labels()  # dots in the first row, lines in the second
    order = [0, 3, 1, 4, 2]
    ax.legend([handles[k] for k in order], [names[k] for k in order], ncol=3, **_LEGEND)
    return ax


@_text(
    "A bar chart of the null distribution of the mean change, centred on zero, with "
    "the observed change, its mirror image and the tails as extreme as it (the "
    "p-value) highlighted."
)
def plot_null_distribution(
    null: Sequence[float],
    observed: float,
    *,
    ax=None,
    title: str = "Null distribution of the mean change",
    xlabel: str = "Mean change B - A under the null",
):
    """Bar chart of a null distribution (one value per equally likely assignment): the share of
    each distinct value, those at least as far from zero as ``observed`` (two-sided: the p-value)
    in the accent colour, the observed value (solid), its mirror image (dashed) and zero marked.

    >>> from matplotlib.figure import Figure
    >>> ax = plot_null_distribution([2.0, 1.0, -1.0, -2.0], 2.0, ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_legend().get_texts()][-2:]
    ['less extreme', 'at least as extreme: 0.5000']
    """
    v = _checks.scores(null, "null")
    far = abs(_checks.number(observed, "observed"))
    ax = _axes(ax)
    share = _value_bars(ax, v, far, PALETTE["diff"])
    _observed_lines(ax, observed, share.max() * 1.1, "its mirror", zero="zero")  # under the legend
    ax.set(ylim=(0, share.max() * 1.5), xlabel=xlabel, ylabel="Probability", title=title)
    ax.legend(ncol=3, **_LEGEND)
    return ax


@_text(
    "Two panels on one axis: the bootstrap means scatter around the observed change, "
    "while the null distribution is centred on zero with its extreme tails "
    "highlighted."
)
def plot_bootstrap_beside_null(
    bootstrap: Sequence[float],
    null: Sequence[float],
    observed: float,
    *,
    axes=None,
):
    """Two panels on one x axis: the bootstrap means (top), which scatter around the observed
    change, and the null distribution (bottom), centred on zero with the p-value's tails in the
    accent colour. Each panel marks its own centre (the mean of its values) with a triangle.

    >>> from matplotlib.figure import Figure
    >>> top, bottom = plot_bootstrap_beside_null(
    ...     [0.1, 0.2, 0.2, 0.3], [0.2, -0.2, 0.0, 0.0], 0.2, axes=Figure().subplots(2, 1))
    >>> [t.get_text() for t in bottom.get_legend().get_texts()][:2]
    ['observed +0.200', 'centre +0.000']
    """
    boot = _checks.scores(bootstrap, "bootstrap")
    v = _checks.scores(null, "null")
    far = abs(_checks.number(observed, "observed"))
    top, bottom = _axes(axes, (7.5, 6.4), rows=2)
    panels = (
        (top, boot, None, PALETTE["diff"], "Bootstrap: the means of resampled queries"),
        (bottom, v, far, PALETTE["neutral"], "Null: every sign assignment equally likely"),
    )
    for ax, values, tail_from, color, title in panels:
        share = _value_bars(ax, values, tail_from, color)
        _observed_lines(ax, observed, share.max() * 1.1)
        centre = float(values.mean())
        triangle = dict(marker="^", markersize=11, color="black", clip_on=False, zorder=6)
        ax.plot([centre], [0], linestyle="none", label=f"centre {signed(centre)}", **triangle)
        ax.set(ylim=(0, share.max() * 1.55), ylabel="Share", title=title)
        ax.legend(ncol=2, **_LEGEND)
    bottom.set_xlabel("Mean change B - A")
    return top, bottom


# --- intervals as horizontal bars (chapters 1, 3, 4, 6, 7) ------------------------------------


def _interval_rows(intervals) -> np.ndarray:
    """``intervals`` as checked rows of (low, high), at least one, each low <= its high."""
    try:
        rows = list(intervals)
    except TypeError:  # a number, not rows
        rows = []
    if not rows or any(np.ndim(iv) != 1 or len(iv) != 2 for iv in rows):
        raise ValueError("intervals must be rows of (low, high), one per row, at least one.")
    iv = _checks.scores([v for row in rows for v in row], "intervals").reshape(-1, 2)
    if np.any(iv[:, 0] > iv[:, 1]):
        raise ValueError("intervals must be (low, high) pairs with low <= high.")
    return iv


def _shares(values, name: str, n: int, per: str) -> np.ndarray:
    """``values`` checked as ``n`` shares between 0 and 1, one per ``per``."""
    s = _checks.scores(values, name)
    if s.size != n or np.any((s < 0) | (s > 1)):
        raise ValueError(
            f"{name} must be {n} shares between 0 and 1 (not percents), one per {per}; got "
            f"{s.size} from {s.min():g} to {s.max():g}."
        )
    return s


def _interval_row(ax, y, low, high, estimate, sizes, dot=None, **bar) -> None:
    """An interval as a horizontal bar at height ``y``, its estimate as a black dot on it;
    ``sizes`` are the bar's width and the dot's size, ``bar`` and ``dot`` more of their style."""
    ax.plot([low, high], [y, y], linewidth=sizes[0], solid_capstyle="butt", **bar)
    ax.plot([estimate], [y], marker="o", color="black", markersize=sizes[1], **(dot or {}))


def _rows_against_zero(ax, ys, names: Sequence[str], xlabel: str, title: str) -> None:
    ax.axvline(0, **_DOTTED, linewidth=1.5)
    ax.set_yticks(ys, names)
    ax.set(ylim=(-0.7, len(ys) - 0.3), xlabel=xlabel, title=title)


@_text(
    "Horizontal bars, one per method, each an interval for the mean change with its "
    "estimate as a dot, and zero marked by a vertical line."
)
def plot_intervals(
    labels: Sequence[str],
    intervals: Sequence[tuple[float, float]],
    estimates: Sequence[float],
    *,
    ax=None,
    colors: Sequence[str] | None = None,
    title: str = "95% intervals for the mean change B - A",
    xlabel: str = "Mean change, B - A",
):
    """Horizontal interval bars, one row per method, with zero marked.

    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> ax = plot_intervals(["paired", "unpaired"], [(-0.1, 0.0), (-0.2, 0.1)], [-0.05, -0.05])
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['paired', 'unpaired']
    """
    n = _checks.length("labels, intervals and estimates", labels, intervals, estimates, empty=True)
    ax = _axes(ax, figsize=(7.5, 1.2 + 0.7 * n))
    colors = list(colors) if colors is not None else [PALETTE["diff"]] * n
    ys = np.arange(n)[::-1]
    for y, (low, high), est, c in zip(ys, intervals, estimates, colors, strict=False):
        _interval_row(ax, y, low, high, est, (6, 7), color=c, alpha=0.85)
        ends = f"[{low:+.3f}, {high:+.3f}]"
        ax.annotate(ends, (high, y), (8, 0), textcoords="offset points", va="center", fontsize=10)
    _rows_against_zero(ax, ys, labels, xlabel, title)
    return ax


@_text(
    "One panel per quantity of the plan: its estimate and interval against its limit "
    "and zero, the panel's title saying whether the interval shows the good side."
)
def plot_decision(
    labels: Sequence[str],
    estimates: Sequence[float],
    intervals: Sequence[tuple[float, float]],
    limits: Sequence[float],
    *,
    better: Sequence[str],
    xlabels: Sequence[str],
    limit_labels: Sequence[str],
    fig=None,
):
    """One panel per quantity of a plan: its estimate (dot) and interval (bar), its limit (the
    smallest useful change or a guardrail's bound, dashed vermillion) and zero (dotted grey).

    ``better[i]`` is "above" or "below": which side of ``limits[i]`` is good, as each panel's
    title says. No title gives a verdict: reading the interval against its limit is the reader's.

    >>> from matplotlib.figure import Figure
    >>> axes = plot_decision(["gain"], [0.014], [(0.003, 0.026)], [0.01], better=["above"],
    ...                      xlabels=["change"], limit_labels=["useful"], fig=Figure())
    >>> axes[0].get_title()
    'gain: higher is better'
    """
    names = "labels, estimates, intervals, limits, better, xlabels and limit_labels"
    columns = (labels, estimates, intervals, limits, better, xlabels, limit_labels)
    n = _checks.length(names, *columns, show=True)
    est = _checks.scores(estimates, "estimates")
    lim = _checks.scores(limits, "limits")
    ivs = _interval_rows(intervals)
    for side in better:
        if side not in ("above", "below"):
            raise ValueError(f"better must be 'above' or 'below' for each row; got {side!r}.")
    if fig is None:
        import matplotlib.pyplot as plt

        fig = plt.figure(figsize=(7.5, 0.6 + 1.7 * n))
    axes = fig.subplots(n, 1, squeeze=False)[:, 0]
    bar = dict(color=PALETTE["diff"], label="95% interval")
    dot = dict(linestyle="none", label="estimate")
    rows = zip(axes, labels, est, ivs, lim, better, xlabels, limit_labels, strict=True)
    for ax, label, e, (low, high), limit, side, xl, ll in rows:
        _interval_row(ax, -0.5, low, high, e, (8, 7), dot, **bar)
        ax.axvline(limit, **_DASHED, linewidth=2, label=ll)
        ax.axvline(0, **_DOTTED, linewidth=1.5, label="zero")
        left, right = min(low, limit, 0), max(high, limit, 0)
        ax.set_xlim(left - 0.12 * (right - left), right + 0.12 * (right - left))
        ax.set(ylim=(-1, 1.4), yticks=[])  # the legend above the bar
        ax.set(xlabel=xl, title=f"{label}: {'higher' if side == 'above' else 'lower'} is better")
        ax.legend(loc="upper center", ncol=4, fontsize=9, framealpha=1, edgecolor="none")
    fig.suptitle("The decision: each interval against its limit")
    fig.tight_layout()
    return axes


_SEGMENTS_LEGEND = dict(ncol=3, handlelength=1.2, columnspacing=1.0, handletextpad=0.4, **_LEGEND)


@_text(
    "Horizontal segments, one interval per repeated sample, against a vertical line "
    "at the truth: the intervals that miss it highlighted and counted in the legend."
)
def plot_intervals_vs_truth(
    intervals: ArrayLike,
    truth: float,
    *,
    ax=None,
    title: str = "95% intervals from repeated samples",
    xlabel: str = "Mean change, B - A",
    ylabel: str = "Sample",
    truth_label: str = "truth",
    labels: tuple[str, str] = ("contain it", "miss it"),
):
    """One horizontal segment per interval (rows of ``(low, high)``), with the truth marked:
    those that contain it in the difference colour, those that miss it in the accent colour.
    ``truth_label`` names the line and ``labels`` the two kinds of segment, counted in the legend.

    >>> from matplotlib.figure import Figure
    >>> ivs = [(0.0, 0.2), (0.05, 0.3), (-0.1, 0.05)]
    >>> ax = plot_intervals_vs_truth(ivs, 0.1, ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['truth', 'contain it (2)', 'miss it (1)']
    """
    iv = _interval_rows(intervals)
    _checks.number(truth, "truth")
    ax = _axes(ax, figsize=(7.5, min(4.0, 2.0 + 0.12 * len(iv))))
    miss = (iv[:, 0] > truth) | (iv[:, 1] < truth)
    rows = np.arange(1, len(iv) + 1)
    ax.axvline(truth, color="black", linewidth=1.5, label=truth_label, zorder=3)
    width = float(np.clip(150 / len(iv), 1.0, 2.5))  # thinner when there are many
    kinds = ((~miss, PALETTE["diff"], labels[0]), (miss, PALETTE["accent"], labels[1]))
    for hit, colour, name in kinds:
        label = f"{name} ({int(hit.sum())})"
        ax.hlines(rows[hit], iv[hit, 0], iv[hit, 1], colors=colour, linewidth=width, label=label)
    ax.set(ylim=(0, 1.2 * len(iv) + 2), xlabel=xlabel, ylabel=ylabel, title=title)  # head room
    ax.set_yticks([t for t in ax.get_yticks() if 1 <= t <= len(iv)])  # no ticks in the head room
    ax.legend(**_SEGMENTS_LEGEND)
    return ax


@_text(
    "Horizontal segments, one interval of the same comparison per run, against a "
    "vertical line at zero: those that include zero and those that exclude it in two "
    "colours."
)
def plot_intervals_vs_zero(
    intervals: ArrayLike,
    *,
    ax=None,
    title: str = "95% intervals of one comparison",
):
    """Intervals of one comparison (say, one per seed) against zero: those that include zero in
    the difference colour, those that exclude it in grey (excluding zero is no error, so not in
    the accent colour of a miss in :func:`plot_intervals_vs_truth`).

    >>> from matplotlib.figure import Figure
    >>> ax = plot_intervals_vs_zero([(-0.2, 0.0), (-0.2, -0.1)], ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['zero (no change)', 'includes zero (1)', 'excludes zero (1)']
    """
    names = dict(truth_label="zero (no change)", labels=("includes zero", "excludes zero"))
    ax = plot_intervals_vs_truth(intervals, 0.0, ax=ax, title=title, ylabel="Seed", **names)
    ax.collections[-1].set_color(PALETTE["neutral"])  # the segments that exclude zero
    ax.legend(**_SEGMENTS_LEGEND)
    return ax


# --- rates against a count: errors, coverage, power (chapters 3 and 6) ------------------------


#: plot_error_rates' procedures, in order: colour (a role in PALETTE), marker, line style.
_RATE_STYLES = (("accent", "o", "-"), ("diff", "s", "-"), ("neutral", None, "--"))


@_text(
    "Lines of the false-positive rate against the number of comparisons tried, one "
    "per procedure, with the promised rate as a dotted line."
)
def plot_error_rates(
    counts: ArrayLike,
    rates: dict[str, ArrayLike],
    *,
    nominal: float,
    ax=None,
    title: str = "False positives as more is tried",
    xlabel: str = "Number tried",
    ylabel: str = "False-positive rate",
):
    """One line per procedure: its false-positive rate (0 to 1) at each count, and the nominal rate.

    ``rates`` maps a label to one rate per count, for one to three procedures (the third dashed
    grey: a formula, say); ``nominal``, the rate promised, is dotted.

    >>> from matplotlib.figure import Figure
    >>> rates = {"best of k": [0.03, 0.05]}
    >>> ax = plot_error_rates([1, 2], rates, nominal=0.025, ax=Figure().subplots())
    >>> [line.get_label() for line in ax.get_lines()]
    ['best of k', 'promised 2.5%']
    """
    from matplotlib.ticker import PercentFormatter

    x = _checks.scores(counts, "counts")
    if not isinstance(rates, dict) or not 1 <= len(rates) <= len(_RATE_STYLES):
        raise ValueError(
            f"rates must be a dict of 1 to {len(_RATE_STYLES)} label: rates entries; got {rates!r}."
        )
    series = {k: _shares(v, f"rates[{k!r}]", x.size, "count") for k, v in rates.items()}
    if not isinstance(nominal, (int, float)) or not 0 < nominal < 1:
        raise ValueError(f"nominal must be a rate between 0 and 1, such as 0.05; got {nominal!r}.")
    ax = _axes(ax)
    for (label, r), (role, marker, style) in zip(series.items(), _RATE_STYLES, strict=False):
        ax.plot(x, r, color=PALETTE[role], marker=marker, linestyle=style, linewidth=2, label=label)
    ax.axhline(nominal, **_DOTTED, linewidth=2, label=f"promised {nominal:.1%}".replace(".0%", "%"))
    top = max(max(r.max() for r in series.values()), nominal)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_xticks(x, [f"{v:g}" for v in x])
    ax.set(ylim=(0, 1.35 * top), xlabel=xlabel, ylabel=ylabel, title=title)  # head room
    ax.legend(**_LEGEND)
    return ax


@_text(
    "Lines of how often each interval method contains the truth against the number of "
    "queries, with the promised level as a dotted line."
)
def plot_coverage(
    sizes: Sequence[int],
    coverages: dict[str, Sequence[float]],
    *,
    n_samples: int | None = None,
    level: float = 0.95,
    ax=None,
    title: str = "How often each interval contains the truth",
    xlabel: str = "Number of queries per sample",
):
    """Coverage against the number of queries, one line per method, with the nominal level
    marked. Given ``n_samples`` (the samples behind each coverage ``c``), error bars show two
    Monte Carlo standard errors, ``2 * sqrt(c * (1 - c) / n_samples)``.

    >>> from matplotlib.figure import Figure
    >>> ax = plot_coverage([4, 30], {"percentile": [0.7, 0.9]}, ax=Figure().subplots())
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['nominal 95%', 'percentile']
    """
    n = _checks.scores(sizes, "sizes")
    if np.any(n <= 0):
        raise ValueError("sizes must be positive numbers of queries.")
    if not coverages:
        raise ValueError("coverages is empty: give one sequence of coverages per method.")
    n_samples = None if n_samples is None else _checks.integer(n_samples, "n_samples")
    colors = [PALETTE[r] for r in ("diff", "neutral", "A")]
    ax = _axes(ax)
    for (name, cov), colour in zip(coverages.items(), colors, strict=False):
        c = _shares(cov, f"coverages[{name!r}]", n.size, "size")
        se = None if n_samples is None else 2 * np.sqrt(c * (1 - c) / n_samples)
        ax.errorbar(n, c, yerr=se, marker="o", capsize=3, color=colour, linewidth=2, label=name)
    ax.axhline(level, **_DASHED, linewidth=1.5, label=f"nominal {level:.0%}")
    ax.set_xscale("log")
    ax.set_xticks(n, [f"{int(x)}" for x in n])
    ax.set(ylim=(min(0.5, ax.get_ylim()[0]), 1.0), xlabel=xlabel, ylabel="Coverage", title=title)
    ax.legend(loc="lower right", fontsize=10)
    return ax


@_text(
    "A curve of power, the share of studies that detect the change, against the "
    "number of queries, with the target power dotted and the queries needed marked."
)
def plot_power_curve(
    queries: ArrayLike,
    power: ArrayLike,
    *,
    target: float = 0.8,
    needed: int | None = None,
    label: str = "power",
    color: str | None = None,
    marker: str | None = None,
    ax=None,
    title: str = "How often a change of the smallest useful size is detected",
):
    """Power (the share of studies that detect the change) against the number of queries,
    with the target power as a dotted line and, if given, the queries ``needed`` marked.
    Call it again on the same ``ax`` to add a second curve (another method or pilot).

    >>> from matplotlib.figure import Figure
    >>> ax = plot_power_curve([10, 20, 40], [0.3, 0.55, 0.85], needed=35, ax=Figure().subplots())
    >>> ax.get_xlabel(), [float(y) for y in ax.get_ylim()]
    ('Judged queries Q', [0.0, 1.0])
    """
    n = _checks.scores(queries, "queries")
    p = _shares(power, "power", n.size, "number of queries")
    target = float(_checks.level(target, "target", "0.8"))
    ax = _axes(ax)
    ax.plot(n, p, color=color or PALETTE["diff"], marker=marker, linewidth=2, label=label)
    ax.axhline(target, **_DOTTED, linewidth=1.5)
    if needed is not None:
        q = _checks.integer(needed, "needed")
        ax.axvline(q, **_DASHED, linewidth=1.5, label=f"Q = {q}")
    ax.set(ylim=(0.0, 1.0), xlabel="Judged queries Q", ylabel="Power", title=title)
    ax.legend(loc="lower right", fontsize=10)
    return ax
