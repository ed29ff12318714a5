"""The exercise checks: each accepts its right answer, names each listed slip, and
says when an answer is missing or of the wrong kind.

Chapters 5 and 6: the checks of the write-a-function exercises call the learner's
function, accept a right one, and name the known mistakes of a wrong one.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import helpers
from helpers.exercises import _EXERCISES, check

KEYS = sorted(_EXERCISES, key=lambda k: tuple(map(int, k.split("."))))


@pytest.mark.parametrize("key", KEYS)
def test_accepts_the_expected_answer(key):
    assert check(key, _EXERCISES[key].expected()).status == "correct"


@pytest.mark.parametrize("key", KEYS)
def test_names_each_listed_slip(key):
    ex = _EXERCISES[key]
    for wrong, hint in ex.slips:
        result = check(key, wrong())
        assert result.status == "slip" and hint in result.message, (key, hint)


@pytest.mark.parametrize("key", KEYS)
def test_placeholder_and_nonsense(key):
    assert check(key, ...).status == "unanswered"
    assert check(key, None).status == "wrong"
    assert check(key, object()).status == "wrong"


def test_unknown_key_is_a_clear_error():
    with pytest.raises(ValueError, match="no exercise '9.9'"):
        check("9.9", 1.0)


def test_result_renders_as_text_and_html():
    r = helpers.check("0.1", 0.025)
    assert repr(r) == "Exercise 0.1: correct." and r.correct
    assert "Exercise 0.1:" in r._repr_html_() and "#009E73" in r._repr_html_()
    assert check("0.1", 0.0255).status == "correct"  # within the tolerance
    assert check("0.1", 0.03).status == "wrong"


def test_the_bootstrap_loop_check_accepts_any_correct_stream_and_names_mistakes():
    """Exercise 1.1 judges the learner's function by its means, not by one random stream."""
    import random

    import numpy as np

    def with_python(d, n_resamples, seed):
        stream, n = random.Random(seed), len(d)
        return [sum(d[stream.randrange(n)] for _ in range(n)) / n for _ in range(n_resamples)]

    def with_numpy_rows(d, n_resamples, seed):
        rng = np.random.default_rng(seed + 1)
        return [d[rng.integers(0, len(d), size=len(d))].mean() for _ in range(n_resamples)]

    def picks_once(d, n_resamples, seed):
        picks = np.random.default_rng(seed).integers(0, len(d), size=len(d))
        return [d[picks].mean()] * n_resamples

    def broken(d, n_resamples, seed):
        raise RuntimeError("oops")

    assert check("1.1", with_python).correct and check("1.1", with_numpy_rows).correct
    assert "with replacement" in check("1.1", picks_once).message
    assert "raised RuntimeError: oops" in check("1.1", broken).message
    assert "one mean per resample" in check("1.1", lambda d, n, s: [0.0]).message
    assert check("1.1", lambda d, n, s: [0.1] * (n // 2) + [-0.3] * (n - n // 2)).status == "wrong"


def test_the_numpy_two_lines_are_helpers_paired_bootstrap():
    """Exercise 1.2's check compares the learner's two lines with paired_bootstrap: the same
    stream.
    """
    import numpy as np

    a, b = helpers.hit_at_5_example()
    d = b - a
    rng = np.random.default_rng(7)
    two_lines = d[rng.integers(0, d.size, size=(5000, d.size))].mean(axis=1)
    np.testing.assert_allclose(
        two_lines, helpers.paired_bootstrap(d, n_resamples=5000, rng=7), rtol=0, atol=1e-12
    )
    assert check("1.2", two_lines).correct


def _sign_flip_p(changes, *, strict=False, side="two-sided", plus_one=False):
    x = np.asarray(changes, dtype=float)
    count = 0
    for signs in itertools.product((1, -1), repeat=len(x)):
        m = np.mean(np.array(signs) * x)
        if side == "greater":
            count += m >= x.mean() - 1e-12
        elif strict:
            count += abs(m) > abs(x.mean()) + 1e-12
        else:
            count += abs(m) >= abs(x.mean()) - 1e-12
    n = 2 ** len(x)
    return (count + 1) / (n + 1) if plus_one else count / n


def test_5_4_accepts_a_right_function_and_names_each_mistake():
    assert check("5.4", _sign_flip_p).status == "correct"
    assert "one-sided" in check("5.4", lambda x: _sign_flip_p(x, side="greater")).message
    assert "Ties must count" in check("5.4", lambda x: _sign_flip_p(x, strict=True)).message
    assert "Monte Carlo" in check("5.4", lambda x: _sign_flip_p(x, plus_one=True)).message
    assert check("5.4", lambda x: 0.5).status == "wrong"


def test_5_4_a_function_that_fails_is_wrong_not_an_error():
    def broken(x):
        raise RuntimeError("oops")

    assert check("5.4", broken).status == "wrong"
    assert check("5.4", 0.625).status == "wrong"  # a number, not a function


def _holm(p, *, stop=True, bonferroni=False):
    p = np.asarray(p, dtype=float)
    m = len(p)
    if bonferroni:
        return p <= 0.05 / m
    out = np.zeros(m, bool)
    for j, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > 0.05 / (m - j):
            if stop:
                break
            continue
        out[i] = True
    return out


def test_6_3_accepts_a_right_function_and_names_each_mistake():
    assert check("6.3", _holm).status == "correct"
    assert "Bonferroni" in check("6.3", lambda p: _holm(p, bonferroni=True)).message
    assert "stops at the first" in check("6.3", lambda p: _holm(p, stop=False)).message
    assert check("6.3", lambda p: np.ones(len(p), bool)).status == "wrong"
    assert check("6.3", lambda p: [True]).status == "wrong"  # wrong length
