"""Helpers for the notebook series *Did search improve?*: plain functions over numpy arrays
for comparing two frozen search systems A and B on the same judged queries.

Notation: ``m_A(q)``, ``m_B(q)``, ``d_q = m_B(q) - m_A(q)``, Q queries, R resamples
(``n_resamples``; B only ever means system B). Where each module's work goes:
docs/maintaining.md. ``__all__`` lists the names the chapters and docs use; every other
public name stays available as ``helpers.<name>``. Importing has no side effects.
"""

# ruff: noqa: F401, F403, F405  (this module re-exports the modules' public names; importing
# each module also makes it helpers.<module>)

from .data import *  # noqa: F403
from .examples import *  # noqa: F403
from .exercises import *  # noqa: F403
from .grid import *  # noqa: F403
from .intervals import *  # noqa: F403
from .planning import *  # noqa: F403
from .plots import *  # noqa: F403
from .records import *  # noqa: F403
from .resampling import *  # noqa: F403
from .runs import *  # noqa: F403
from .significance import *  # noqa: F403
from .slices import *  # noqa: F403
from .studies import *  # noqa: F403
from .widgets import *  # noqa: F403

__all__ = [
    # data, the worked examples and chapter 6's studies
    "paired_differences", "signed", "FOUR_PAIR_CHANGES", "four_pair_example", "hit_at_5_example",
    "example_loop_means", "simulated_user_study", "best_of_k_study", "many_tests_study",
    "comparison_example",
    # resampling and intervals
    "paired_bootstrap", "paired_bootstrap_statistic", "unpaired_bootstrap", "mean_difference",
    "relative_change", "quantile_difference", "enumerate_resamples", "collapse_to_multisets",
    "exact_means", "cluster_totals", "cluster_bootstrap", "enumerate_cluster_resamples",
    "exact_bootstrap_distribution", "percentile_interval", "order_statistic_indices",
    "endpoint_distribution",
    # exact answers on the score grid, and tests
    "find_grid", "sign_flip_distribution", "grid_bootstrap_distribution",
    "count_attainable_means", "exact_bootstrap_interval", "randomization_test",
    "shifted_bootstrap_test", "holm", "queries_needed", "power_curve",
    # your own runs: read, score, line up, compare, record
    "read_run", "read_qrels", "read_trec_eval", "read_scores_csv", "evaluate", "align_runs",
    "compare_runs", "slice_summary", "largest_regressions", "compare_many", "load_many_record",
    "recompute_many", "make_record", "recompute_interval", "save_record", "load_record",
    # figures, widgets and exercises
    "PALETTE", "set_style", "plot_bootstrap_distribution", "plot_exact_distribution",
    "plot_intervals", "plot_sorted_changes", "plot_sign_assignments", "plot_null_distribution",
    "plot_bootstrap_beside_null", "plot_sampling_vs_bootstrap", "plot_intervals_vs_truth",
    "plot_intervals_vs_zero", "plot_coverage", "plot_error_rates", "plot_decision",
    "plot_power_curve", "quiz", "resample_explorer", "check",
]  # fmt: skip
