"""Helpers for the notebook series *Did search improve?*

Plain functions over numpy arrays for comparing two frozen search systems A and
B on the same judged queries. Importing this package has no side effects.

Notation used throughout: ``m_A(q)`` and ``m_B(q)`` are the two systems' scores
on query ``q``; ``d_q = m_B(q) - m_A(q)`` is the per-query change; Q is the
number of queries and R the number of resamples (``n_resamples`` in code;
the letter B only ever means system B).

Modules: ``data`` (checking and pairing scores; the rules live in the private
``_checks``), ``examples`` (the worked examples), ``resampling`` (the paired
bootstrap and every bootstrap and enumeration built on it), ``intervals``,
``grid`` (exact answers on the score grid), ``significance`` (randomization
tests), ``readers``, ``scoring`` and ``alignment`` (your own results: reading,
scoring and lining up runs), ``records`` (saved comparisons), ``report``
(``compare_runs``), ``exercises`` (checks on the exercises' answers), ``plots``
and ``widgets``. Every public name of each module is
available here; ``__all__`` lists the ones the chapters and the README use.
"""

# ruff: noqa: F401, F403, F405  (this module re-exports the modules' public names; importing
# each module also makes it helpers.<module>)

from .alignment import *  # noqa: F403
from .data import *  # noqa: F403
from .examples import *  # noqa: F403
from .exercises import *  # noqa: F403
from .grid import *  # noqa: F403
from .intervals import *  # noqa: F403
from .plots import *  # noqa: F403
from .readers import *  # noqa: F403
from .records import *  # noqa: F403
from .report import *  # noqa: F403
from .resampling import *  # noqa: F403
from .scoring import *  # noqa: F403
from .significance import *  # noqa: F403
from .widgets import *  # noqa: F403

# The public face: what the notebooks, the README and docs/ use. Every other public
# name of each module (result types, constants, lower-level helpers) is still
# available as helpers.<name> and helpers.<module>.<name>.
__all__ = [
    "FOUR_PAIR_CHANGES",
    "PALETTE",
    "align_runs",
    "check",
    "cluster_bootstrap",
    "cluster_totals",
    "collapse_to_multisets",
    "compare_runs",
    "count_attainable_means",
    "describe_draw",
    "endpoint_distribution",
    "enumerate_cluster_resamples",
    "enumerate_resamples",
    "evaluate",
    "exact_bootstrap_distribution",
    "exact_bootstrap_interval",
    "exact_means",
    "find_grid",
    "four_pair_example",
    "grid_bootstrap_distribution",
    "hit_at_5_example",
    "holm",
    "largest_regressions",
    "load_record",
    "make_record",
    "mean_difference",
    "order_statistic_indices",
    "paired_bootstrap",
    "paired_bootstrap_statistic",
    "paired_differences",
    "percentile_interval",
    "plot_bootstrap_distribution",
    "plot_exact_distribution",
    "plot_intervals",
    "plot_sorted_changes",
    "quantile_difference",
    "quiz",
    "randomization_test",
    "read_qrels",
    "read_run",
    "read_scores_csv",
    "read_trec_eval",
    "recompute_interval",
    "relative_change",
    "resample",
    "resample_explorer",
    "save_record",
    "set_style",
    "shifted_bootstrap_test",
    "sign_flip_distribution",
    "signed",
    "simulated_user_study",
    "slice_summary",
    "unpaired_bootstrap",
]
