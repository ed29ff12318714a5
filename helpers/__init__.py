"""Helpers for the notebook series *Did search improve?*

Plain functions over numpy arrays for comparing two frozen search systems A and
B on the same judged queries. Importing this package has no side effects.

Notation used throughout: ``m_A(q)`` and ``m_B(q)`` are the two systems' scores
on query ``q``; ``d_q = m_B(q) - m_A(q)`` is the per-query change; Q is the
number of queries and R the number of resamples (``n_resamples`` in code;
the letter B only ever means system B).

Modules: ``data`` (validation, pairing, worked examples), ``resampling`` (the
one resampling engine and every bootstrap built on it), ``intervals``,
``grid`` (exact answers on the score grid), ``records`` (saved comparisons), ``runs`` (reading your own results), ``report`` (``compare_runs``),
``significance`` (randomization tests), ``exercises`` (checks on the exercises' answers), ``plots`` and ``widgets``. Every public name of each module is available here.
"""

from . import data, examples, exercises, grid, intervals, plots, records, report, resampling, runs, significance, widgets
from .data import *  # noqa: F403
from .examples import *  # noqa: F403
from .exercises import *  # noqa: F403
from .grid import *  # noqa: F403
from .intervals import *  # noqa: F403
from .plots import *  # noqa: F403
from .records import *  # noqa: F403
from .report import *  # noqa: F403
from .resampling import *  # noqa: F403
from .runs import *  # noqa: F403
from .significance import *  # noqa: F403
from .widgets import *  # noqa: F403

__all__ = [
    *data.__all__,
    *examples.__all__,
    *exercises.__all__,
    *grid.__all__,
    *intervals.__all__,
    *plots.__all__,
    *records.__all__,
    *report.__all__,
    *resampling.__all__,
    *runs.__all__,
    *significance.__all__,
    *widgets.__all__,
]
