"""Helpers for the notebook series *Did search improve?*

Plain functions over numpy arrays for comparing two frozen search systems A and
B on the same judged queries. Importing this package has no side effects.

Notation used throughout: ``m_A(q)`` and ``m_B(q)`` are the two systems' scores
on query ``q``; ``d_q = m_B(q) - m_A(q)`` is the per-query change; Q is the
number of queries and B the number of resamples.
"""

from .data import FOUR_PAIR_CHANGES, as_scores, four_pair_example, hit_at_5_example, paired_differences, paired_scores
from .intervals import CONVENTION, EndpointDistribution, Interval, endpoint_distribution, order_statistic_indices, percentile_interval
from .plots import PALETTE, plot_bootstrap_distribution, plot_intervals, set_style
from .records import ComparisonRecord, load_record, make_record, recompute_interval, save_record
from .resampling import ExactDistribution, as_generator, enumerate_resamples, exact_bootstrap_distribution, paired_bootstrap, resample, unpaired_bootstrap
from .widgets import Feedback, Question, grade, quiz

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
    "EndpointDistribution",
    "endpoint_distribution",
    "PALETTE",
    "plot_bootstrap_distribution",
    "plot_intervals",
    "set_style",
    "ComparisonRecord",
    "load_record",
    "make_record",
    "recompute_interval",
    "save_record",
    "as_generator",
    "enumerate_resamples",
    "ExactDistribution",
    "exact_bootstrap_distribution",
    "paired_bootstrap",
    "resample",
    "unpaired_bootstrap",
    "Feedback",
    "Question",
    "grade",
    "quiz",
]
