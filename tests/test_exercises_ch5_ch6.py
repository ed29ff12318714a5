"""Chapters 5 and 6: the checks of the write-a-function exercises call the learner's
function, accept a right one, and name the known mistakes of a wrong one."""

import itertools

import numpy as np

from helpers.exercises import check


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
