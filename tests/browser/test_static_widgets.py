"""The static edition's widgets work with no kernel and no network (issue 42); in
make test-browser, on the pages make html writes with all 35 explorer pictures (conftest.py:
static_site, built once per session for the sweep's checks of the pages).

Chapter 2's page (the resample explorer and a quiz) and chapter 1's (two quizzes) are
opened from disk in headless Chromium, every request
that is not a file:// URL refused. The explorer's slider, set with the mouse, by value and
from the keyboard, shows each draw's caption and the picture the notebook's explorer draws for
it; its presets jump to their draws; each quiz says nothing before a click and then the
notebook's own feedback for the option clicked. With JavaScript off the page shows the
widgets' pictures of their first views, as before.
"""

import base64
import re

import nbformat
import pytest
from notebook_tools import NOTEBOOKS

import helpers
from helpers.exercise_table import QUIZZES
from helpers.widgets import EXPLORER_PRESETS, _explorer_png, _keyed_question, grade

pytestmark = [pytest.mark.browser, pytest.mark.sweep]  # make test-browser (CI)

CHAPTER_2 = next(p for p in NOTEBOOKS if p.name.startswith("02_"))
CHAPTER_1 = next(p for p in NOTEBOOKS if p.name.startswith("01_"))


@pytest.fixture(scope="module")
def site(static_site):
    """The pages make html writes, built once per session for the sweep (conftest.py)."""
    return static_site


def _offline(browser, **kwargs):
    context = browser.new_context(viewport={"width": 1280, "height": 800}, **kwargs)
    refused = []

    def only_files(route):
        if route.request.url.startswith(("file://", "data:")):
            return route.continue_()
        refused.append(route.request.url)
        return route.abort()

    context.route("**/*", only_files)
    return context, refused


def _picture(k):
    """The notebook explorer's PNG for draw k, as the page's data URI."""
    from fractions import Fraction

    import numpy as np
    from matplotlib import rc_context

    with rc_context():
        helpers.set_style()
        png = _explorer_png(np.array(helpers.FOUR_PAIR_CHANGES), k, Fraction(1, 40))
    return "data:image/png;base64," + base64.b64encode(png).decode()


def _stored_first_view():
    """The explorer's picture of its first view, as chapter 2 stores it."""
    nb = nbformat.read(CHAPTER_2, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code" and "helpers.resample_explorer(" in cell.source:
            snapshot = cell.outputs[0]["data"]["text/html"]
            return re.search(r'src="(data:image/png;base64,[^"]+)"', snapshot).group(1)
    raise AssertionError("chapter 2 has no explorer")


def test_the_explorer_follows_its_slider_presets_and_keys_offline(browser, site):
    context, refused = _offline(browser)
    try:
        page = context.new_page()
        page.goto((site / f"{CHAPTER_2.stem}.html").as_uri())
        explorer = page.locator(".static-explorer")
        explorer.wait_for(state="visible")
        slider, caption = (
            explorer.locator(".explorer-slider"),
            explorer.locator(".explorer-caption"),
        )
        picture = explorer.locator(".explorer-picture")
        assert page.locator(".widget-snapshot").first.is_hidden()
        seen, alts = {}, {}
        for k in (1, 2, 28, 256):
            slider.fill(str(k))
            seen[k] = (caption.inner_text(), picture.get_attribute("src"))
            alts[k] = picture.get_attribute("alt")
        # from the keyboard: Home, then one step right
        slider.focus()
        page.keyboard.press("Home")
        home = caption.inner_text()
        page.keyboard.press("ArrowRight")
        right = caption.inner_text()
        # with the mouse: a click at the slider's far right end is the last draw
        box = slider.bounding_box()
        page.mouse.click(box["x"] + box["width"] - 1, box["y"] + box["height"] / 2)
        clicked = caption.inner_text()
        # Play steps on from the current draw, one draw at a time; a second click stops it
        explorer.locator(".explorer-preset").first.click()  # draw 28
        play_tip = explorer.locator(".explorer-play").get_attribute("title")
        explorer.locator(".explorer-play").click()
        page.wait_for_function(
            "() => Number(document.querySelector('.explorer-slider').value) >= 30",
            timeout=10_000,
        )
        explorer.locator(".explorer-play").click()
        played = int(slider.input_value())
        page.wait_for_timeout(1300)
        stopped = int(slider.input_value()) == played and caption.inner_text().startswith(
            f"Draw {played} of 256"
        )
        presets = {}
        for label, k in EXPLORER_PRESETS:
            explorer.get_by_role("button", name=label).click()
            presets[k] = (caption.inner_text(), slider.input_value())
    finally:
        context.close()
    assert refused == [], f"the page asked the network for {refused}"
    for k, (text, src) in seen.items():
        assert text == helpers.describe_draw(k).text, (k, text)
        assert src == _picture(k), f"draw {k}: not the notebook explorer's picture"
    assert seen[28][1] == _stored_first_view(), "draw 28 differs from the notebook's first view"
    assert home.startswith("Draw 1 of 256") and right.startswith("Draw 2 of 256")
    assert clicked.startswith("Draw 256 of 256")
    assert played >= 30 and stopped, "Play did not step through the draws, or did not stop"
    assert "Pause stops at the draw shown" in play_tip
    # the picture's text alternative names the draw it shows
    assert all(alt.startswith(f"The queries draw {k} picked") for k, alt in alts.items()), alts
    for k, (text, value) in presets.items():
        assert text.startswith(f"Draw {k} of 256") and value == str(k)


def test_each_quiz_answers_back_only_when_clicked(browser, site):
    nb = nbformat.read(CHAPTER_1, as_version=4)
    keys = [
        re.search(r'helpers\.quiz\("([^"]+)"', c.source).group(1)
        for c in nb.cells
        if c.cell_type == "code" and "helpers.quiz(" in c.source
    ]
    context, refused = _offline(browser)
    try:
        page = context.new_page()
        page.goto((site / f"{CHAPTER_1.stem}.html").as_uri())
        quizzes = page.locator(".static-quiz")
        quizzes.first.wait_for(state="visible")
        assert quizzes.count() == len(keys)
        for n, key in enumerate(keys):
            quiz = quizzes.nth(n)
            question = _keyed_question(key, QUIZZES[key]["prompt"])
            assert quiz.locator(".quiz-feedback:visible").inner_text() == "Choose an answer."
            options = quiz.locator(".quiz-option")
            assert options.count() == len(question.options)
            for i in range(len(question.options)):
                options.nth(i).click()
                shown = quiz.locator(".quiz-feedback:visible")
                assert shown.count() == 1
                assert shown.inner_text() == grade(question, i).message, (key, i)
                assert options.nth(i).get_attribute("aria-pressed") == "true"
                right = options.nth(i).bounding_box()["x"] + options.nth(i).bounding_box()["width"]
                area = quiz.bounding_box()
                assert right <= area["x"] + area["width"] + 0.5, f"{key} option {i} cut off"
    finally:
        context.close()
    assert refused == []


def test_without_javascript_the_pictures_of_the_first_views_show(browser, site):
    context, _ = _offline(browser, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto((site / f"{CHAPTER_2.stem}.html").as_uri())
        snapshots = page.locator(".widget-snapshot")
        visible = [snapshots.nth(i).is_visible() for i in range(snapshots.count())]
        hidden = page.locator(".static-widget").first.is_hidden()
    finally:
        context.close()
    assert visible and all(visible) and hidden
