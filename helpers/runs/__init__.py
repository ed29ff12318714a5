"""The toolkit beside the teaching module: for engineers comparing their own TREC runs, and for
chapter 7, which shows it at work. Chapters 0-6 never use it.

It reads run files, qrels, ``trec_eval -q`` output and CSV (readers), scores runs by trec_eval's
rules (scoring), lines two runs up by query ID (alignment), reports one comparison
(``compare_runs``) and many runs against one baseline (``compare_many``: text, HTML, Markdown,
LaTeX, a forest plot and a record). Its statistics are the teaching module's: it imports
``helpers``' methods, and nothing in the teaching module imports it. ``import helpers`` exposes
its public names too (``helpers.read_run``, ``helpers.evaluate``, ``helpers.compare_runs``, ...).
"""

# ruff: noqa: F403  (this package re-exports its modules' public names)

from . import alignment, many_runs, readers, report, scoring
from .alignment import *
from .many_runs import *
from .readers import *
from .report import *
from .scoring import *

__all__ = [
    *readers.__all__, *scoring.__all__, *alignment.__all__, *report.__all__, *many_runs.__all__
]  # fmt: skip
