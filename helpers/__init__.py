"""Helpers for the notebook series *Did search improve?*

Plain functions over numpy arrays for comparing two frozen search systems A and
B on the same judged queries. Importing this package has no side effects.

Notation used throughout: ``m_A(q)`` and ``m_B(q)`` are the two systems' scores
on query ``q``; ``d_q = m_B(q) - m_A(q)`` is the per-query change; Q is the
number of queries and B the number of resamples.
"""

from .data import FOUR_PAIR_CHANGES, as_scores, four_pair_example, hit_at_5_example, paired_differences, paired_scores
from .intervals import CONVENTION, Interval, order_statistic_indices, percentile_interval
from .plots import PALETTE, plot_bootstrap_distribution, plot_exact_distribution, plot_intervals, set_style, signed
from .records import ComparisonRecord, load_record, make_record, recompute_interval, save_record
from .reporting import QueryChange, SliceRow, SliceSummary, largest_regressions, slice_summary
from .resampling import (
    as_generator,
    collapse_to_multisets,
    enumerate_resamples,
    mean_difference,
    paired_bootstrap,
    paired_bootstrap_statistic,
    quantile_difference,
    relative_change,
    resample,
    unpaired_bootstrap,
)
from .significance import HolmResult, holm
from .widgets import EXPLORER_PRESETS, DrawDescription, Feedback, Question, describe_draw, exact_means, grade, quiz, resample_explorer

__all__ = [
    "FOUR_PAIR_CHANGES",
    "as_scores",
    "four_pair_example",
    "hit_at_5_example",
    "paired_differences",
    "paired_scores",
    "CONVENTION",
    "Interval",
    "order_statistic_indices",
    "percentile_interval",
    "PALETTE",
    "plot_bootstrap_distribution",
    "plot_exact_distribution",
    "plot_intervals",
    "set_style",
    "signed",
    "ComparisonRecord",
    "load_record",
    "make_record",
    "recompute_interval",
    "save_record",
    "QueryChange",
    "SliceRow",
    "SliceSummary",
    "largest_regressions",
    "slice_summary",
    "as_generator",
    "collapse_to_multisets",
    "enumerate_resamples",
    "paired_bootstrap",
    "resample",
    "unpaired_bootstrap",
    "mean_difference",
    "paired_bootstrap_statistic",
    "quantile_difference",
    "relative_change",
    "HolmResult",
    "holm",
    "EXPLORER_PRESETS",
    "DrawDescription",
    "Feedback",
    "Question",
    "describe_draw",
    "exact_means",
    "grade",
    "quiz",
    "resample_explorer",
]
