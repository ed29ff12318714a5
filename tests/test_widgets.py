"""The quiz widget: its logic in plain Python, then its wiring."""

import pytest

from helpers import Question, grade, quiz

WHY_PAIR = Question(
    "Why pair?",
    ["doubles the data", "faster systems", "shared difficulty cancels", "no labels needed"],
    answer=2,
    explanations=["no", "no", "yes", "no"],
)


def test_grade_marks_the_right_answer_and_explains_every_option():
    assert grade(WHY_PAIR, 2).correct is True
    for wrong in (0, 1, 3):
        fb = grade(WHY_PAIR, wrong)
        assert fb.correct is False and fb.message == "Not quite. no"
    assert grade(WHY_PAIR, None).correct is None


@pytest.mark.parametrize("choice", [-1, 4, 1.0, True, "2"])
def test_grade_refuses_choices_that_are_not_options(choice):
    with pytest.raises(ValueError):
        grade(WHY_PAIR, choice)


def test_question_validates_itself():
    with pytest.raises(ValueError, match="one explanation per option"):
        Question("?", ["a", "b"], answer=0, explanations=["x"])
    with pytest.raises(ValueError, match="answer must index"):
        Question("?", ["a", "b"], answer=2, explanations=["x", "y"])
    with pytest.raises(ValueError, match="distinct"):
        Question("?", ["a", "a"], answer=0, explanations=["x", "y"])


def test_quiz_shows_feedback_on_selection():
    box = quiz(WHY_PAIR)
    prompt, choices, feedback = box.children
    assert "Why pair?" in prompt.value and choices.value is None
    assert "Choose an answer" in feedback.value
    choices.value = "faster systems"
    assert "Not quite" in feedback.value
    choices.value = "shared difficulty cancels"
    assert "Correct" in feedback.value and "#009E73" in feedback.value
