"""``plain(result)``: a result as plain Python values, so that two results compare with ``==``
(used where a test checks that unusual but valid input, such as a generator, gives the result of
the same numbers as a list)."""

from __future__ import annotations

import contextlib
import dataclasses
from unittest import mock

import numpy as np

#: One bad input that every scores argument refuses.
TWO_D = np.array([[0.1, 0.2], [-0.3, 0.4]])


def plain(obj: object) -> object:
    """Arrays as lists, dataclasses as dicts of their fields, an ``Axes`` as its bars."""
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


@contextlib.contextmanager
def chunks_of(max_elements: int):
    """Within the block, every Monte Carlo helper draws at most ``max_elements`` indices (or
    signs) at a time, the sign flips by ``helpers.scale``'s kernel: the chunk size is an internal
    constant, not an argument."""
    from helpers import resampling, significance

    with mock.patch.object(resampling, "DEFAULT_MAX_ELEMENTS", max_elements):
        with mock.patch.object(significance, "MAX_PLAIN_SIGNS", 0):
            with mock.patch.object(significance, "DEFAULT_MAX_SIGNS", max_elements):
                yield
