"""The quiz widget: its logic in plain Python, then its wiring.

Chapter 2's resample explorer: the pure logic behind it, then its wiring.
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from helpers import (
    EXPLORER_PRESETS,
    FOUR_PAIR_CHANGES,
    Question,
    collapse_to_multisets,
    describe_draw,
    enumerate_resamples,
    exact_means,
    grade,
    percentile_interval,
    quiz,
    resample_explorer,
)
from helpers.widgets import _explorer_png


def explorer_png(k, changes=FOUR_PAIR_CHANGES):
    """The explorer's picture of draw k, at the 95% level, drawn afresh."""
    return _explorer_png(np.asarray(changes, dtype=float), k, Fraction(1, 40))


@pytest.fixture
def stand_in_pictures(monkeypatch):
    """The explorer's pictures as stand-ins naming the multiset they were drawn for (no half
    second each), for the tests of its controls and layout; the tests of its pictures, above and
    below, draw the real ones."""
    import helpers.widgets

    def stand_in(d, k, half_alpha, query_ids):
        return repr(describe_draw(k, d.tolist(), query_ids).counts).encode()

    monkeypatch.setattr(helpers.widgets, "_explorer_png", stand_in)


@functools.cache
def drawn(k, changes=FOUR_PAIR_CHANGES):
    """explorer_png(k, changes) (a tuple), drawn once for all the comparisons below (half a
    second each); test_explorer_png_is_deterministic... holds that drawing again changes nothing."""
    return explorer_png(k, changes)


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
    prompt, choices, feedback, style = box.children
    assert "Why pair?" in prompt.value and choices.value is None
    assert "Choose an answer" in feedback.value
    snapshot = box._repr_mimebundle_()["text/html"]  # the first view, for pages without a kernel
    assert "<p><b>Why pair?</b></p>" in snapshot and snapshot.count("<li>") == 4
    choices.value = "faster systems"
    assert "Not quite" in feedback.value
    choices.value = "shared difficulty cancels"
    assert "Correct" in feedback.value and "#007A59" in feedback.value
    # the options wrap within the notebook's width, not one line each cut off at its edge
    assert choices.layout.width == "auto" and style.layout.display == "none"
    assert ".quiz :is(.widget-radio-box, .jupyter-widget-radio-box) label {height: auto;" in (
        style.value
    )


def _contrast(colour: str, background: str = "#ffffff") -> float:
    """WCAG 2.1's contrast ratio of two sRGB colours."""

    def luminance(hex_colour):
        c = np.array([int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)])
        c = np.where(c <= 0.03928, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
        return float(c @ [0.2126, 0.7152, 0.0722])

    high, low = sorted((luminance(colour), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_quiz_feedback_is_readable_text_against_white():
    from helpers.widgets import _COLOURS

    assert _contrast("#009E73") < 4.5 < _contrast("#007A59")  # the palette's green is too light
    assert {c: _contrast(c) >= 4.5 for c in _COLOURS.values()} == dict.fromkeys(
        _COLOURS.values(), True
    )


@pytest.mark.parametrize(
    "k, queries, changes, mean",
    [
        (28, "q1, q2, q3, q4", "+0.10, +0.02, -0.06, +0.04", 0.025),
        (15, "q1, q1, q4, q3", "+0.10, +0.10, +0.04, -0.06", 0.045),
        (171, "q3, q3, q3, q3", "-0.06, -0.06, -0.06, -0.06", -0.060),
        (1, "q1, q1, q1, q1", "+0.10, +0.10, +0.10, +0.10", 0.100),
        (256, "q4, q4, q4, q4", "+0.04, +0.04, +0.04, +0.04", 0.040),
    ],
)
def test_the_source_draws(k, queries, changes, mean):
    desc = describe_draw(k)
    assert (desc.queries, desc.changes) == (queries, changes)
    assert desc.mean == pytest.approx(mean, abs=1e-12)
    mean_text = desc.text.rsplit(" ", 1)[1]
    assert desc.text == (
        f"Draw {k} of 256: {queries} | Selected changes: {changes} | Mean: {mean_text}"
    )
    assert desc.text.endswith(f"Mean: {mean:+.3f}")
    assert (
        desc.html
        == f"<b>Draw {k} of 256</b>: {queries} | Selected changes: {changes} | Mean: {mean:+.3f}"
    )


def test_presets_are_the_source_draws():
    assert EXPLORER_PRESETS == (
        ("Original four pairs", 28),
        ("Repeat q1, omit q2", 15),
        ("All q3", 171),
    )
    assert describe_draw(28).text.endswith("Mean: +0.025")
    assert describe_draw(15).text.endswith("Mean: +0.045")
    assert describe_draw(171).text.endswith("Mean: -0.060")


def test_every_draw_matches_itertools_product():
    for k, t in enumerate(itertools.product(range(4), repeat=4), start=1):
        desc = describe_draw(k)
        assert desc.indices == t
        assert desc.mean == pytest.approx(np.mean([FOUR_PAIR_CHANGES[i] for i in t]), abs=1e-15)


def test_exact_means_against_brute_force():
    means, values, probs = exact_means(FOUR_PAIR_CHANGES)
    brute = {}
    for t in itertools.product(range(4), repeat=4):
        m = round(sum(FOUR_PAIR_CHANGES[i] for i in t) / 4, 12)
        brute[m] = brute.get(m, 0) + 1
    assert values.tolist() == sorted(brute)
    assert probs.tolist() == [brute[v] / 256 for v in sorted(brute)]
    assert tuple(percentile_interval(means)) == pytest.approx((-0.035, 0.080), abs=1e-12)


def test_35_multisets_with_multinomial_weights_give_the_same_distribution():
    counts, freq = collapse_to_multisets(enumerate_resamples(4))
    assert len(counts) == math.comb(7, 4) == 35
    assert (counts.sum(axis=1) == 4).all() and freq.sum() == 256
    for row, f in zip(counts, freq, strict=False):
        assert f == math.factorial(4) // math.prod(math.factorial(c) for c in row)
    ms_means = np.round(counts @ np.array(FOUR_PAIR_CHANGES) / 4, 12)
    _, values, probs = exact_means(FOUR_PAIR_CHANGES)
    assert np.array_equal(np.unique(ms_means), values)
    np.testing.assert_allclose(
        [freq[ms_means == v].sum() / 256 for v in values], probs, rtol=0, atol=1e-15
    )


def test_explorer_png_is_deterministic_and_depends_on_the_highlighted_mean():
    first = drawn(28)
    assert first[:8] == b"\x89PNG\r\n\x1a\n"
    assert explorer_png(28) == first  # drawn again
    assert drawn(171) != first


def test_explorer_png_shows_the_mean_and_names_no_draw():
    """Draws 28 and 79 (q2, q1, q4, q3) share the mean +0.025: their pictures must be
    identical, so nothing in the picture (such as a title naming draw 28) can be wrong
    for the other one when the explorer reuses it."""
    assert describe_draw(79).queries == "q2, q1, q4, q3"
    assert drawn(79) == drawn(28)


def _parts(box):
    controls, buttons, text, image = box.children
    (slider,) = controls.children
    play, _playing, _loop, *buttons = buttons.children
    return play, slider, buttons, text, image


def test_the_explorers_play_controls_are_named_buttons_with_tooltips_that_drive_it(
    stand_in_pictures,
):
    """Play/Pause and Loop are buttons with text and a tooltip; the browser's stepper
    (widgets.Play, whose unnamed icon buttons include a stop that jumps to draw 1) is hidden and
    linked to them and to the slider, so that Pause holds the draw shown."""
    import ipywidgets as widgets
    from ipywidgets.widgets.widget import _instances
    from ipywidgets.widgets.widget_link import Link

    box = resample_explorer()
    play, playing, loop, *presets = box.children[1].children
    slider = box.children[0].children[0]
    assert isinstance(play, widgets.Play) and play.layout.display == "none"
    assert (play.interval, play.min, play.max, play.value) == (600, 1, 256, 28)
    assert [type(b) for b in (playing, loop)] == [widgets.ToggleButton] * 2
    assert (playing.description, loop.description) == ("▶ Play", "Loop")
    assert "0.6 s" in playing.tooltip and "Pause stops at the draw shown" in playing.tooltip
    assert "draw 1 after the last draw" in loop.tooltip
    assert all(
        b.tooltip == f"Go to draw {k}" for b, (_, k) in zip(presets, EXPLORER_PRESETS, strict=True)
    )
    links = {
        (link.source[0].model_id, link.source[1], link.target[0].model_id, link.target[1])
        for link in _instances.values()
        if isinstance(link, Link)
    }
    assert (play.model_id, "value", slider.model_id, "value") in links
    assert (playing.model_id, "value", play.model_id, "playing") in links
    assert (loop.model_id, "value", play.model_id, "repeat") in links
    playing.value = True  # what the front end sends on a click
    assert playing.description == "⏸ Pause"
    playing.value = False
    assert playing.description == "▶ Play" and slider.value == 28


def test_explorer_wiring(stand_in_pictures):
    play, slider, buttons, text, image = _parts(resample_explorer())
    assert (slider.min, slider.max, slider.value) == (1, 256, 28)
    assert (play.min, play.max) == (1, 256)
    assert slider.description == "Draw" and slider.continuous_update
    assert "Inspect resample" in slider.tooltip
    assert text.value == describe_draw(28).html
    assert "Selected changes: +0.10, +0.02, -0.06, +0.04 | Mean: +0.025" in text.value
    start_image = image.value
    assert [b.description for b in buttons] == [
        "Original four pairs",
        "Repeat q1, omit q2",
        "All q3",
    ]
    buttons[2].click()
    assert slider.value == 171 and "Mean: -0.060" in text.value and image.value != start_image
    buttons[1].click()
    assert slider.value == 15 and "q1, q1, q4, q3" in text.value and "Mean: +0.045" in text.value
    slider.value = 16
    assert "Draw 16 of 256" in text.value
    buttons[0].click()
    assert image.value == start_image


def test_explorer_shows_the_picture_of_the_draw_it_names():
    """Issue 15, point 1: after draw 28, moving to draw 79 (same mean) showed a picture
    titled for draw 28. Every picture shown must be the one drawn for the draw named."""
    play, slider, buttons, text, image = _parts(resample_explorer())
    for k in (28, 79, 171, 15, 79, 1, 28):
        slider.value = k
        assert text.value.startswith(f"<b>Draw {k} of 256</b>")
        assert image.value == drawn(k), k


def test_28_draws_share_the_observed_mean_and_draw_28_is_one_of_them():
    """Chapter 2: the highlighted bar at +0.025 holds 28 of the 256 draws (a different 28 from draw
    28).
    """
    same = [k for k in range(1, 257) if abs(describe_draw(k).mean - 0.025) <= 1e-12]
    assert len(same) == 28 and 28 in same and 79 in same
    means, values, probs = exact_means(FOUR_PAIR_CHANGES)
    assert probs[np.isclose(values, 0.025, rtol=0, atol=1e-12)].tolist() == [28 / 256]


# --- input validation: the table in tests/test_checks.py; here what a bad-input test also showed


def test_the_explorer_shows_its_own_picture_of_the_draw_and_level():
    def image(**kwargs):
        return resample_explorer(**{"start": 15} | kwargs).children[3].value

    assert image(changes=[2.0, -1.0, 0.0, 3.0]) == drawn(15, (2.0, -1.0, 0.0, 3.0))
    assert image(level=0.5) != image()


# --- issue 30: the explorer shows which queries a draw picked, sharp, with a wide slider ------


def test_describe_draw_counts_how_often_each_query_was_drawn():
    assert describe_draw(15).counts == (2, 0, 1, 1)  # q1, q1, q4, q3
    assert describe_draw(171).counts == (0, 0, 4, 0)
    assert describe_draw(28).counts == describe_draw(79).counts == (1, 1, 1, 1)
    for k in range(1, 257):
        desc = describe_draw(k)
        assert desc.counts == tuple(desc.indices.count(i) for i in range(4))


def test_explorer_png_shows_the_picked_queries_at_twice_its_shown_size():
    from io import BytesIO

    from matplotlib.image import imread

    from helpers.widgets import EXPLORER_CSS_WIDTH

    pixels = imread(BytesIO(drawn(15)))
    assert pixels.shape[1] == 2 * EXPLORER_CSS_WIDTH  # drawn at twice the size it is shown at
    assert drawn(15) != drawn(16)  # q1, q1, q4, q4: same q1 count, other picks
    # draws with the same mean but other picks get other pictures: 28 and 40 (q1, q3, q2, q4)
    assert describe_draw(28).mean == pytest.approx(describe_draw(40).mean, abs=1e-12)
    assert describe_draw(40).counts == (1, 1, 1, 1)
    same_mean_other_picks = next(
        k
        for k in range(1, 257)
        if abs(describe_draw(k).mean - 0.025) <= 1e-12 and describe_draw(k).counts != (1, 1, 1, 1)
    )
    assert drawn(same_mean_other_picks) != drawn(28)


def test_explorer_layout_slider_fills_the_row_and_image_is_shown_at_its_css_size(stand_in_pictures):
    from helpers.widgets import EXPLORER_CSS_WIDTH

    box = resample_explorer()
    play, slider, buttons, text, image = _parts(box)
    assert box.children[0].layout.width == "100%" and slider.layout.flex == "1 1 auto"
    assert image.layout.width == f"{EXPLORER_CSS_WIDTH}px" and image.layout.max_width == "100%"
    snapshot = box._repr_mimebundle_()["text/html"]
    assert f'width="{EXPLORER_CSS_WIDTH}"' in snapshot


def test_explorer_buttons_go_to_their_own_draws_when_some_presets_are_left_out(stand_in_pictures):
    """With three queries (27 draws) only the preset at draw 15 fits: its button goes there."""
    play, slider, buttons, text, image = _parts(
        resample_explorer([0.1, -0.2, 0.3], ["a", "b", "c"], start=5)
    )
    assert [b.description for b in buttons] == ["Repeat q1, omit q2"]
    buttons[0].click()
    assert slider.value == 15
