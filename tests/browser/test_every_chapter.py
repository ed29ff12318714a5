"""Smoke test: every chapter opens in JupyterLab in a real browser and its widgets draw live.

nbval has already run every cell of every chapter in a fresh kernel and compared each output with
the stored one, so the chapters are not run a second time here. Each chapter is opened with its
stored outputs, which must all render: no error or stderr output, every stored figure shown, every
widget shown as the static snapshot of its first view that the helpers store with it. Then the
page's kernel runs only the cells a live widget needs -- the cell that imports helpers and every
quiz and explorer cell, plus the cells before one that uses names they define -- and every widget
must be drawn as a live widget, not as its text fallback, with still no error or stderr anywhere.
A screenshot of each chapter is saved in test-artifacts/ (pass or fail), for a human to glance at.

The last test uses chapter 2's resample explorer as a learner would. All the tests are in this
one file so that, with pytest-xdist's --dist loadfile, one worker starts one JupyterLab for them.
"""

import re

import nbformat
import pytest
from notebook_tools import NOTEBOOKS
from playwright.sync_api import expect

from .conftest import (
    ARTIFACTS,
    ROOT,
    WIDGET_CALLS,
    cells_to_run,
    current_notebook,
    open_notebook,
    run_cells,
)

pytestmark = pytest.mark.browser


def test_cells_to_run_picks_the_widget_cells_and_what_they_need():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Chapter"),
        nbformat.v4.new_code_cell("print(1)"),
        nbformat.v4.new_code_cell("import helpers\nx = 1"),
        nbformat.v4.new_code_cell("y = x + 1"),
        nbformat.v4.new_code_cell("helpers.quiz(helpers.Question('q', ['a'], answer=0))"),
        nbformat.v4.new_code_cell("z = 3"),
        nbformat.v4.new_code_cell("helpers.quiz(helpers.Question(f'{z}', ['a'], answer=0))"),
        nbformat.v4.new_code_cell("w = 4"),
    ]
    assert cells_to_run(nb) == [1, 2, 3, 4, 5, 6]
    nb.cells[6].source = "helpers.resample_explorer()"
    assert cells_to_run(nb) == [2, 4, 6]


def expect_no_error_output(panel) -> None:
    stderr = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    expect(panel.locator(stderr)).to_have_count(0)
    error = (
        ".jp-RenderedText .ansi-red-fg, "
        ".jp-OutputArea-output .jp-RenderedText[data-mime-type*='error']"
    )
    expect(panel.locator(error)).to_have_count(0)
    outputs = panel.locator(".jp-OutputArea-output").all_inner_texts()
    fallbacks = [
        t
        for t in outputs
        if "Error displaying widget" in t or re.match(r"^(VBox|HBox)\(children=", t)
    ]
    assert not fallbacks, f"widgets shown as text instead of drawn: {fallbacks}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_chapter_renders_and_its_widgets_draw_live(page, path):
    nb = nbformat.read(path, as_version=4)
    title = nb.cells[0].source.splitlines()[0].lstrip("# ").strip()
    code = [c for c in nb.cells if c.cell_type == "code"]
    widgets = {
        cls: sum(len(re.findall(p, c.source)) for c in code) for cls, p in WIDGET_CALLS.items()
    }
    figures = sum(1 for c in code for o in c.outputs if "image/png" in o.get("data", {}))
    open_notebook(page, path.name)
    panel = current_notebook(page)
    figure_imgs = panel.locator(".jp-OutputArea-output[data-mime-type='image/png'] img")
    snapshots = panel.locator(".jp-OutputArea-output .widget-snapshot")
    try:
        expect(panel).to_have_count(1)
        expect(panel.locator("h1").first).to_contain_text(title.split(" · ")[0])
        # the stored outputs, as committed: every figure shown, every widget as its static
        # snapshot (the picture of its first view the helpers store with it), no error
        expect(figure_imgs).to_have_count(figures)
        expect(snapshots).to_have_count(sum(widgets.values()))
        expect_no_error_output(panel)
        # live: the imports and the widget cells run in the page's kernel
        run_cells(page, path.name, cells_to_run(nb))
        for css_class, expected in widgets.items():
            expect(panel.locator(f".jp-OutputArea-output .{css_class}")).to_have_count(expected)
        expect(snapshots).to_have_count(0)
        expect(figure_imgs).to_have_count(figures)
        expect_no_error_output(panel)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"chapter-{path.stem}.png"))


EXPLORER_CHAPTER = "02_all_256_resamples.ipynb"


def test_explorer_in_jupyterlab(page):
    """Chapter 2's resample explorer, used as a learner uses it: presets, keyboard, figure.

    Only the cells the explorer needs run (the helpers import and the explorer's own).
    """
    open_notebook(page, EXPLORER_CHAPTER)
    run_cells(
        page,
        EXPLORER_CHAPTER,
        cells_to_run(nbformat.read(ROOT / "notebooks" / EXPLORER_CHAPTER, as_version=4)),
    )

    explorer = current_notebook(page).locator(".resample-explorer")
    expect(explorer).to_have_count(1)
    text = explorer.locator(".widget-html-content")
    figure = explorer.locator("img")

    # starts at the original sample
    expect(text).to_contain_text("Draw 28 of 256")
    expect(text).to_contain_text("q1, q2, q3, q4")
    expect(text).to_contain_text("Selected changes: +0.10, +0.02, -0.06, +0.04 | Mean: +0.025")
    expect(explorer).to_contain_text("Inspect resample")
    expect(figure).to_be_visible()
    assert figure.evaluate("img => img.naturalWidth") > 300
    first_src = figure.get_attribute("src")

    explorer.get_by_role("button", name="All q3").click()
    expect(text).to_contain_text("Draw 171 of 256")
    expect(text).to_contain_text("Mean: -0.060")
    expect(figure).not_to_have_attribute("src", first_src)

    explorer.get_by_role("button", name="Repeat q1, omit q2").click()
    expect(text).to_contain_text("Draw 15 of 256")
    expect(text).to_contain_text("q1, q1, q4, q3")
    expect(text).to_contain_text("Mean: +0.045")

    # the keyboard moves the slider: focus its handle, step right twice
    handle = explorer.locator(".noUi-handle")
    handle.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(text).to_contain_text("Draw 17 of 256")
    expect(text).to_contain_text("q1, q2, q1, q1")
    expect(text).to_contain_text("Mean: +0.080")
    readout = explorer.locator(".widget-readout")
    expect(readout).to_have_text(re.compile(r"^\s*17\s*$"))

    # no error output anywhere in the notebook
    expect(
        page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    ).to_have_count(0)
    assert "Error displaying widget" not in page.content()
