"""Checks for the exercises: is a learner's answer right, and if not, what slip is likely?

The exercises, quizzes and messages are data, in :mod:`helpers.exercise_table`: per exercise
the expected value (or the inputs to call a learner's function on), a tolerance, the known
slips with their messages, and the solution. This is the small engine that reads it.

>>> check("0.1", ...)
Exercise 0.1: not answered yet: your answer is still ..., the placeholder. Replace the ... in the
answer cell above with your answer, run that cell, then run this one again.
>>> check("0.1", 0.025)
Exercise 0.1: correct.
>>> check("0.1", -0.025)
Exercise 0.1: not quite. That is A minus B: the change is d_q = m_B(q) - m_A(q), B minus A.
"""

from __future__ import annotations

import html
import sys
from dataclasses import dataclass

import numpy as np

from .exercise_table import EXERCISES, MESSAGES, QUIZZES

__all__ = ["check", "CheckResult"]

UNANSWERED = MESSAGES["placeholder"]
_EMPTY = (lambda: None).__code__.co_code  # a function whose body is still ... compiles to this
_UNSET = object()  # check(key) with no answer: look it up


def _not_yet(answer: object, name: str) -> str | None:
    """Why ``answer`` is not an answer yet, or None (missing, ``...``, an empty function...)."""
    items = list(answer) if isinstance(answer, (tuple, list)) else [answer]
    empty_body = getattr(getattr(answer, "__code__", None), "co_code", None) == _EMPTY
    why = (
        "undefined" if answer is _UNSET
        else "placeholder" if answer is Ellipsis
        else "empty body" if empty_body
        else "holds ..." if any(x is Ellipsis for x in items)
        else "holds None" if any(x is None for x in items)
        else None
    )  # fmt: skip
    return why and MESSAGES[why].format(name=name)


@dataclass(frozen=True)
class CheckResult:
    """What :func:`check` says about one answer.

    ``status`` is ``"correct"``, ``"slip"`` (a known wrong answer, with its hint),
    ``"wrong"`` (not right, cause unknown) or ``"unanswered"``.
    """

    key: str
    status: str
    message: str

    @property
    def correct(self) -> bool:
        return self.status == "correct"

    def __repr__(self) -> str:
        return f"Exercise {self.key}: {self.message}"

    def _repr_html_(self) -> str:
        colour = {"correct": "#009E73", "unanswered": "#4D4D4D"}.get(self.status, "#D55E00")
        return (
            f'<div style="border-left:4px solid {colour};padding:2px 8px">'
            f"<b>Exercise {html.escape(self.key)}:</b> {html.escape(self.message)}</div>"
        )


def _numbers(x: object) -> np.ndarray | None:
    """Numbers (or True/False) as a flat float array, or None if ``x`` is not numbers."""
    if hasattr(x, "low") and hasattr(x, "high"):
        x = (x.low, x.high)
    if isinstance(x, (str, bytes)) or x is None:
        return None
    try:
        arr = np.asarray(x, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    return arr if arr.size and np.all(np.isfinite(arr)) else None


def _summary(kind: str | None, out: object) -> object:
    """What is compared of one output: the output itself, its moments or its distribution's."""
    if kind == "moments":  # size, mean, standard deviation
        x = np.asarray(out, dtype=float).ravel()
        # equal values (up to rounding) have spread 0, not a rounding error's 3.5e-18
        constant = x.size and np.ptp(x) <= 1e-12 * max(1.0, np.abs(x).max())
        return (x.size, x.mean(), 0.0 if constant else x.std())
    if kind == "distribution":  # (values, probabilities): merged, then size, total, mean, var
        values, probs = (np.asarray(v, dtype=float).ravel() for v in out)
        if values.shape != probs.shape:
            raise ValueError("the values and probabilities have different lengths")
        merged: dict[float, float] = {}
        for v, p in zip(np.round(values, 12).tolist(), probs.tolist(), strict=True):
            merged[v] = merged.get(v, 0.0) + p
        v, p = np.array(list(merged)), np.array(list(merged.values()))
        mean = (v * p).sum() / p.sum()
        return (v.size, p.sum(), mean, ((v - mean) ** 2 * p).sum() / p.sum())
    return out


def _matches(got: np.ndarray, target: list, tol: object) -> bool:
    """Agreement within ``tol`` (one number, or one per entry); None in the target matches all."""
    tols = np.broadcast_to(np.asarray(tol, dtype=float), (len(target),))
    return got.size == len(target) and all(
        t is None or abs(g - t) <= e for g, t, e in zip(got.tolist(), target, tols, strict=True)
    )


def _argument(x: object) -> object:
    """A table input as the learner's function receives it: lists of numbers as numpy arrays."""
    if isinstance(x, list) and _numbers(x) is not None:
        return np.array(x, dtype=float if not isinstance(x[0], list) else int)
    return x


def _call(ex: dict, fn: object) -> np.ndarray | str:
    """The learner's function's outputs on the table's inputs, flattened; or what went wrong."""
    if not callable(fn):
        return MESSAGES["not callable"].format(type=type(fn).__name__, **ex)
    outs = []
    for args in ex["calls"]:
        try:
            out = fn(*map(_argument, args))
            if out is None:
                return MESSAGES["returned None"].format(**ex)
            out = _summary(ex.get("summary"), out)
        except Exception as exc:  # a learner's function may fail in any way: say how, in words
            return MESSAGES["raised"].format(error=type(exc).__name__, exc=exc, **ex)
        got = _numbers(out)
        if got is None:
            return MESSAGES["returned type"].format(type=type(out).__name__, **ex)
        outs.append(got)
    return np.concatenate(outs)


def check(key: str, answer: object = _UNSET) -> CheckResult:
    """Check a learner's answer to exercise ``key`` (for example ``"1.2"``): right, a known
    slip named, or not answered yet (still ``...``, a function whose body is still ``...``, or
    None). With no ``answer``, the answer variable where check was called is read."""
    if key not in EXERCISES:
        raise ValueError(f"There is no exercise {key!r}; the keys look like '1.2'.")
    ex = EXERCISES[key]
    if answer is _UNSET:  # check("1.1") in a chapter: the answer variable where it was called
        answer = sys._getframe(1).f_globals.get(ex["name"], _UNSET)
    not_yet = _not_yet(answer, ex["name"])
    if not_yet:
        return CheckResult(key, "unanswered", not_yet)
    if isinstance(answer, (list, tuple, np.ndarray)) and len(answer) == 0:
        return CheckResult(key, "wrong", MESSAGES["empty"].format(**ex))
    if "calls" in ex:
        got = _call(ex, answer)
    elif _numbers(answer) is None or isinstance(answer, (bool, np.bool_)):
        uncalled = any(map(callable, answer if isinstance(answer, list) else [answer]))
        got = MESSAGES["uncalled" if uncalled else "type"].format(type=type(answer).__name__, **ex)
    else:
        got = _numbers(_summary(ex.get("summary"), answer))
    if isinstance(got, str):
        return CheckResult(key, "wrong", got)
    if _matches(got, ex["expected"], ex["tol"]):
        return CheckResult(key, "correct", "correct.")
    for value, message, *tol in ex.get("slips", ()):
        if _matches(got, value, tol[0] if tol else ex["tol"]):
            return CheckResult(key, "slip", f"not quite. {message}")
    return CheckResult(key, "wrong", _unknown_slip(ex, got))


def _unknown_slip(ex: dict, got: np.ndarray) -> str:
    """A wrong answer no listed slip explains: what was given, and what the prompt asks for
    (without saying that the answer has the wrong form: it may well have the right one)."""
    shown = ", ".join(f"{x:.4g}" for x in got[:4]) + (", ..." if got.size > 4 else "")
    kind = ex.get("summary") or "value"
    if kind == "moments" and got.size == 3 and got[0] > 1 and got[2] == 0:
        kind, shown = "constant", f"{got[0]:.0f} values, all equal to {got[1]:.4g}"
    given = MESSAGES["unknown " + ("function" if "calls" in ex else kind)].format(shown=shown)
    return MESSAGES["unknown"].format(given=given, **ex)


SUMMARY = "Solution (click to open it; try the exercise first)"


def solution_markdown(key: str) -> str:
    """The solution cell of exercise ``key``: its code from the table, in a closed <details>."""
    return (
        f"<details><summary><b>{SUMMARY}</b></summary>\n\n"
        f"```python\n{EXERCISES[key]['solution'].strip()}\n```\n\n</details>"
    )


def quiz_data(key: str) -> dict:
    """A quiz's prompt, options, answer and explanations, from the table."""
    if key not in QUIZZES:
        raise ValueError(f"There is no quiz {key!r}; the keys look like '1.q1'.")
    return QUIZZES[key]
