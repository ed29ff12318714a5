"""Interactive pieces of the notebooks.

Each widget is split in two: a pure function that decides what to show (tested
in plain Python), and a thin function that wires it to ipywidgets controls.
Widgets print nothing, so strict nbval sees only the widget's display.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Question", "Feedback", "grade", "quiz"]


@dataclass(frozen=True)
class Question:
    """A multiple-choice question with one correct option and a reason for every option.

    Parameters
    ----------
    prompt : str
        The question.
    options : sequence of str
        The choices, shown in this order.
    answer : int
        0-based index of the correct option.
    explanations : sequence of str
        One short explanation per option, shown when it is chosen.
    """

    prompt: str
    options: Sequence[str]
    answer: int
    explanations: Sequence[str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(self.options))
        object.__setattr__(self, "explanations", tuple(self.explanations))
        if len(self.options) < 2:
            raise ValueError("A question needs at least two options.")
        if len(set(self.options)) != len(self.options):
            raise ValueError("Options must be distinct.")
        if len(self.explanations) != len(self.options):
            raise ValueError(f"Give one explanation per option: {len(self.options)} options, {len(self.explanations)} explanations.")
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"answer must index an option (0 to {len(self.options) - 1}); got {self.answer}.")


@dataclass(frozen=True)
class Feedback:
    """What the quiz shows after a choice."""

    correct: bool | None
    message: str


def grade(question: Question, choice: int | None) -> Feedback:
    """Feedback for choosing option ``choice`` (0-based), or ``None`` for no choice yet.

    Examples
    --------
    >>> q = Question("2 + 2?", ["3", "4"], answer=1, explanations=["Off by one.", "Yes."])
    >>> grade(q, 1)
    Feedback(correct=True, message='Correct. Yes.')
    >>> grade(q, 0).message
    'Not quite. Off by one.'
    >>> grade(q, None).correct is None
    True
    """
    if choice is None:
        return Feedback(None, "Choose an answer.")
    if isinstance(choice, bool) or not isinstance(choice, int) or not 0 <= choice < len(question.options):
        raise ValueError(f"choice must be an option index from 0 to {len(question.options) - 1}, or None; got {choice!r}.")
    correct = choice == question.answer
    lead = "Correct." if correct else "Not quite."
    return Feedback(correct, f"{lead} {question.explanations[choice]}")


_COLOURS = {True: "#009E73", False: "#D55E00", None: "#555555"}


def _feedback_html(fb: Feedback) -> str:
    return f'<span style="color:{_COLOURS[fb.correct]}">{html.escape(fb.message)}</span>'


def quiz(question: Question):  # -> ipywidgets.VBox
    """A multiple-choice check with immediate feedback, built from ipywidgets.

    Selecting an option shows at once whether it is right and why.

    Examples
    --------
    >>> q = Question("2 + 2?", ["3", "4"], answer=1, explanations=["Off by one.", "Yes."])
    >>> box = quiz(q)
    >>> box.children[1].value = "4"
    >>> "Correct" in box.children[2].value
    True
    """
    import ipywidgets as widgets

    prompt = widgets.HTML(f"<b>{html.escape(question.prompt)}</b>")
    choices = widgets.RadioButtons(options=list(question.options), value=None, layout=widgets.Layout(width="max-content"))
    feedback = widgets.HTML(_feedback_html(grade(question, None)))

    def on_change(change: dict) -> None:
        index = None if change["new"] is None else question.options.index(change["new"])
        feedback.value = _feedback_html(grade(question, index))

    choices.observe(on_change, names="value")
    return widgets.VBox([prompt, choices, feedback])
