"""The exercise checks: each accepts its right answer, names each listed slip, and
says when an answer is missing or of the wrong kind."""

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
