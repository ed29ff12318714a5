"""Helpers for the notebook series *Did search improve?*: plain functions over numpy arrays
for comparing two frozen search systems A and B on the same judged queries.

Notation: ``m_A(q)``, ``m_B(q)``, ``d_q = m_B(q) - m_A(q)``, Q queries, R resamples
(``n_resamples``; B only ever means system B). Where each module's work goes:
docs/maintaining.md. ``__all__`` lists the names the chapters and docs use; every other
public name stays available as ``helpers.<name>``. Importing has no side effects.
"""

# ruff: noqa: F401, F403, F405  (this module re-exports the modules' public names; importing
# each module also makes it helpers.<module>)

from .alignment import *  # noqa: F403
from .data import *  # noqa: F403
from .examples import *  # noqa: F403
from .exercises import *  # noqa: F403
from .grid import *  # noqa: F403
from .intervals import *  # noqa: F403
from .many_runs import *  # noqa: F403
from .planning import *  # noqa: F403
from .plots import *  # noqa: F403
from .readers import *  # noqa: F403
from .records import *  # noqa: F403
from .report import *  # noqa: F403
from .resampling import *  # noqa: F403
from .scoring import *  # noqa: F403
from .significance import *  # noqa: F403
from .studies import *  # noqa: F403
from .widgets import *  # noqa: F403

__all__ = [
    "FOUR_PAIR_CHANGES",
    "PALETTE",
    "align_runs",
    "best_of_k_study",
    "check",
    "comparison_example",
    "cluster_bootstrap",
    "cluster_totals",
    "collapse_to_multisets",
    "compare_many",
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
    "example_loop_means",
    "find_grid",
    "four_pair_example",
    "grid_bootstrap_distribution",
    "hit_at_5_example",
    "holm",
    "largest_regressions",
    "load_many_record",
    "load_record",
    "make_record",
    "many_tests_study",
    "mean_difference",
    "order_statistic_indices",
    "paired_bootstrap",
    "paired_bootstrap_statistic",
    "paired_differences",
    "percentile_interval",
    "plot_bootstrap_beside_null",
    "plot_bootstrap_distribution",
    "plot_power_curve",
    "plot_coverage",
    "plot_decision",
    "plot_exact_distribution",
    "plot_intervals",
    "plot_null_distribution",
    "plot_intervals_vs_truth",
    "plot_intervals_vs_zero",
    "plot_sign_assignments",
    "plot_sorted_changes",
    "plot_error_rates",
    "plot_sampling_vs_bootstrap",
    "power_curve",
    "quantile_difference",
    "queries_needed",
    "quiz",
    "randomization_test",
    "read_qrels",
    "read_run",
    "read_scores_csv",
    "read_trec_eval",
    "recompute_interval",
    "recompute_many",
    "relative_change",
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
