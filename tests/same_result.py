"""Shared by the ``test_<function>_iv`` tests: results as plain Python values, so that the result
of an unusual but valid input (a generator, an integer or boolean array) can be compared with ``==``
to the result of the same numbers as floats.
"""

from __future__ import annotations

import dataclasses

import numpy as np


def plain(obj: object) -> object:
    """``obj`` as plain Python values: arrays as lists, dataclasses as dicts of their fields, the
    bars of a matplotlib ``Axes`` as (x, height) pairs."""
    from matplotlib.axes import Axes

    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Axes):
        return [(p.get_x(), p.get_height()) for p in obj.patches]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [plain(x) for x in obj]
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (float, np.floating)):
        return float(obj)
    return obj
