"""The toolkit beside the teaching module: for engineers comparing their own TREC runs, and for
chapter 7, which shows it at work. Chapters 0-6 never use it.

It reads run files, qrels, ``trec_eval -q`` output and CSV (readers), scores runs by trec_eval's
rules (scoring), lines two runs up by query ID (alignment), reports one comparison
(``compare_runs``), its slices (``slice_summary``) and many runs against one baseline
(``compare_many``: text, HTML, Markdown, LaTeX, a forest plot, a record). Its statistics are the
teaching module's kernels (``helpers/kernels.py``); nothing there imports it. ``import helpers``
exposes its names too (``helpers.read_run``, ``helpers.evaluate``, ``helpers.compare_runs``...).
"""

# ruff: noqa: F403  (this package re-exports its modules' public names)

from . import alignment, many_runs, readers, report, scoring, slice_table
from .alignment import *
from .many_runs import *
from .readers import *
from .report import *
from .scoring import *
from .slice_table import *

__all__ = [*readers.__all__, *scoring.__all__, *alignment.__all__, *report.__all__,
           *many_runs.__all__, *slice_table.__all__]  # fmt: skip
