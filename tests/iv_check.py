"""The shared runner of the ``test_<function>_iv`` tests (as scipy names its input-validation
tests): each function's own test file lists, per argument, one bad input and the part of the
message that names the argument; the rules themselves are tried with every kind of input in
tests/test_checks.py.

``iv_param(arg, value, match)`` makes one parameter; ``run_iv(fn, good, arg, value, match)``
calls ``fn`` with the good arguments and ``arg=value`` and checks that it raises a ``ValueError``
matching ``match``. Two special values:

* ``Unusual(...)``: unusual but valid inputs (a generator, an int64 array, a boolean array) must
  give exactly the result of the same numbers as floats;
* ``arg=POSITIONAL``: ``f(a, b, rng=...)``, ``value`` passed as one more positional argument
  after the required ones (where a second system's scores would land on ``n_resamples`` if it
  were positional), must be refused by Python with a ``TypeError``.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

SIGNED = (2, -1, 0, 3)  #: valid integer data for most arguments
NON_NEGATIVE = (2, 0, 1, 3)  #: valid integer data for weights and probabilities
BOOLS = (True, False, True, True)
TWO_D = np.array([[0.1, 0.2], [-0.3, 0.4]])  #: one bad input every scores argument refuses
POSITIONAL = "one more positional argument"


@dataclass(frozen=True)
class Unusual:
    """Unusual but valid inputs for one argument, built from the integers ``ints`` (or labels: a
    generator of them must give the result of the list)."""

    ints: tuple = SIGNED
    kinds: tuple = ("generator", "int64 array", "boolean array")

    def inputs(self):
        floats = [float(v) if isinstance(v, int) else v for v in self.ints]  # labels stay
        make = {
            "generator": (lambda: (v for v in floats), floats),
            "int64 array": (lambda: np.array(self.ints, dtype=np.int64), floats),
            "boolean array": (lambda: np.array(BOOLS), [1.0 if b else 0.0 for b in BOOLS]),
        }
        return [(kind, *make[kind]) for kind in self.kinds]

    def __repr__(self) -> str:
        return "unusual but valid"


def plain(obj: object) -> object:
    """``obj`` as plain Python values, so that two results compare with ``==``: arrays as lists,
    dataclasses as dicts of their fields, the bars of a matplotlib ``Axes`` as (x, height)."""
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


def _short(value: object) -> str:
    if isinstance(value, np.ndarray):
        return f"array{value.shape}"
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def iv_param(arg: str, value: object, match: str | None = None, id: str | None = None):
    """One parameter of a ``test_<function>_iv``."""
    return pytest.param(arg, value, match, id=id or f"{arg}={_short(value)}")


def run_iv(
    fn: Callable, good: dict | Callable[[], dict], arg: str, value: object, match: str | None
) -> None:
    """Call ``fn(**good, arg=value)`` (see the module docstring). ``good`` may be a function
    returning fresh arguments (a plot needs a new ``ax`` for each call)."""

    def call(**change):
        args = (good() if callable(good) else dict(good)) | change
        return fn(**args)

    if isinstance(value, Unusual):
        for kind, make, floats in value.inputs():
            assert plain(call(**{arg: make()})) == plain(call(**{arg: floats})), kind
    elif arg == POSITIONAL:
        # f(a, b, rng=...): the required arguments by position, then ``value``, where
        # n_resamples would go if it were not keyword-only
        args = good() if callable(good) else dict(good)
        args.pop("n_resamples", None)
        params = inspect.signature(fn).parameters
        required = [n for n, p in params.items() if p.default is p.empty and n in args]
        head = [args.pop(n) for n in required if params[n].kind is params[n].POSITIONAL_OR_KEYWORD]
        with pytest.raises(TypeError, match="positional argument"):
            fn(*head, value, **args)
    else:
        with pytest.raises(ValueError, match=match):
            call(**{arg: value})
