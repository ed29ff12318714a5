"""Smoke test: every chapter opens in JupyterLab in a real browser and its widgets draw live.

nbval has already run every cell of every chapter in a fresh kernel and compared each output with
the stored one, so the chapters are not run a second time here. Each chapter is opened with its
stored outputs, which must all render: no error or stderr output, every stored figure shown, every
widget shown as the static snapshot of its first view that the helpers store with it. Then the page's kernel runs
only the cells a live widget needs -- the cell that imports helpers and every quiz and explorer
cell, plus the cells before one that uses names they define -- and every widget must be drawn as
a live widget, not as its text fallback, with still no error or stderr anywhere. A screenshot of
each chapter is saved in test-artifacts/ (pass or fail), for a human to glance at.
"""

import re

import nbformat
import pytest
from notebook_tools import NOTEBOOKS
from playwright.sync_api import expect

from .conftest import (
    ARTIFACTS,
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
    error = ".jp-RenderedText .ansi-red-fg, .jp-OutputArea-output .jp-RenderedText[data-mime-type*='error']"
    expect(panel.locator(error)).to_have_count(0)
    outputs = panel.locator(".jp-OutputArea-output").all_inner_texts()
    fallbacks = [
        t for t in outputs if "Error displaying widget" in t or re.match(r"^(VBox|HBox)\(children=", t)
    ]
    assert not fallbacks, f"widgets shown as text instead of drawn: {fallbacks}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_chapter_renders_and_its_widgets_draw_live(page, path):
    nb = nbformat.read(path, as_version=4)
    title = nb.cells[0].source.splitlines()[0].lstrip("# ").strip()
    code = [c for c in nb.cells if c.cell_type == "code"]
    widgets = {cls: sum(len(re.findall(p, c.source)) for c in code) for cls, p in WIDGET_CALLS.items()}
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
