"""The static edition's widgets (tools/static_widgets.py, issue 42): each quiz and the resample
explorer after its snapshot, working in a page with no kernel."""

from __future__ import annotations

import base64
import html
import json
import re

import pytest
import static_widgets
from static_widgets import static_widget_html

from helpers import EXPLORER_PRESETS, Question, describe_draw, grade, quiz, resample_explorer
from helpers.exercise_table import QUIZZES
from helpers.widgets import _feedback_html, _keyed_question


def _snapshot(box):
    return box._repr_mimebundle_()["text/html"]


def test_a_static_quiz_has_its_options_as_buttons_and_its_feedback_encoded():
    snapshot = _snapshot(quiz("1.q1"))
    page = static_widget_html(snapshot)
    assert page.startswith(snapshot)  # the picture of the first view stays, for JavaScript off
    q = _keyed_question("1.q1", QUIZZES["1.q1"]["prompt"])
    static = page[len(snapshot) :]
    assert static.count('class="quiz-option"') == len(q.options)
    plain = html.unescape(re.sub(r"<[^>]+>", "", static))
    assert "Choose an answer." in plain and "Correct." not in plain and "Not quite." not in plain
    encoded = re.findall(r'data-feedback="([^"]+)"', static)
    decoded = [base64.b64decode(e).decode("utf-8") for e in encoded]
    assert decoded == [_feedback_html(grade(q, i)) for i in range(len(q.options))]
    assert static.count(" hidden") == 1 + len(q.options)  # the block, then each feedback


def test_a_quiz_with_values_and_a_question_object_work_statically_too():
    page = static_widget_html(_snapshot(quiz("7.q1", low="-0.1", high="+0.2", p="0.3")))
    assert "[-0.1, +0.2] and p = 0.3" in page.split('class="static-widget')[1]
    q = Question("2 + 2?", ["3", "4"], answer=1, explanations=["Off by one.", "Yes."])
    assert (
        page.count("quiz-option")
        and static_widget_html(_snapshot(quiz(q))).count('class="quiz-option"') == 2
    )
    assert static_widget_html("<p>no widget</p>") == "<p>no widget</p>"
    with pytest.raises(ValueError, match="unknown static widget kind"):
        static_widget_html('<div class="widget-snapshot" data-static="{&quot;kind&quot;: 1}">')


def test_the_static_explorer_has_one_picture_per_multiset_and_every_draws_caption(monkeypatch):
    drawn = []

    def fake_png(d, k, half_alpha, query_ids):
        drawn.append(describe_draw(k).counts)
        return repr(describe_draw(k).counts).encode()

    snapshot = _snapshot(resample_explorer())
    monkeypatch.setattr(static_widgets, "_explorer_png", fake_png)
    page = static_widget_html(snapshot)
    data = json.loads(re.search(r'class="explorer-data"[^>]*>(.*?)</script>', page).group(1))
    assert len(drawn) == len(set(drawn)) == len(data["pictures"]) == 35
    assert len(data["draws"]) == 256
    for k, (picture, caption) in enumerate(data["draws"], start=1):
        assert caption == describe_draw(k).html
        assert data["pictures"][picture].endswith(
            base64.b64encode(repr(describe_draw(k).counts).encode()).decode()
        )
    assert 'value="28"' in page and 'max="256"' in page
    assert [int(k) for k in re.findall(r'data-k="(\d+)"', page)] == [k for _, k in EXPLORER_PRESETS]
