"""Smoke test: every chapter opens in JupyterLab in a real browser and its widgets draw live.

nbval has already run every cell of every chapter in a fresh kernel and compared each output with
the stored one, so the chapters are not run a second time here. Each chapter is opened with its
stored outputs, which must all render: no error or stderr output, every stored figure shown, every
widget shown (restored from the widget state saved in the notebook). Then the page's kernel runs
only the cells a live widget needs -- the first code cell (the imports) and every quiz and explorer
cell, plus the cells before one that uses names they define -- and every widget must be drawn as
a live widget, not as its text fallback, with still no error or stderr anywhere. A screenshot of
each chapter is saved in test-artifacts/ (pass or fail), for a human to glance at.
"""

import ast
import builtins
import re

import nbformat
import pytest
from notebook_tools import NOTEBOOKS
from playwright.sync_api import expect

from .conftest import ARTIFACTS, current_notebook, open_notebook, run_cells, shut_down_kernels

pytestmark = pytest.mark.browser

WIDGET_CALLS = {"quiz": r"helpers\.quiz\(", "resample-explorer": r"helpers\.resample_explorer\("}
WIDGET_CELL = re.compile("|".join(WIDGET_CALLS.values()))


def free_names(source: str) -> set[str]:
    """Names a cell reads without defining them (builtins and helpers aside)."""
    tree = ast.parse(source)
    loaded, stored = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else stored).add(node.id)
    return loaded - stored - set(dir(builtins)) - {"helpers"}


def cells_to_run(nb) -> list[int]:
    """The first code cell, every widget cell, and the cells before a widget cell that needs them."""
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    widgets = [i for i in code if WIDGET_CELL.search(nb.cells[i].source)]
    needy = [i for i in widgets if free_names(nb.cells[i].source)]
    prefix = {i for i in code if needy and i <= max(needy)}
    return sorted({code[0], *widgets, *prefix})


def test_cells_to_run_picks_the_widget_cells_and_what_they_need():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Chapter"),
        nbformat.v4.new_code_cell("import helpers\nx = 1"),
        nbformat.v4.new_code_cell("y = x + 1"),
        nbformat.v4.new_code_cell("helpers.quiz(helpers.Question('q', ['a'], answer=0))"),
        nbformat.v4.new_code_cell("z = 3"),
        nbformat.v4.new_code_cell("helpers.quiz(helpers.Question(f'{z}', ['a'], answer=0))"),
        nbformat.v4.new_code_cell("w = 4"),
    ]
    assert cells_to_run(nb) == [1, 2, 3, 4, 5]
    nb.cells[5].source = "helpers.resample_explorer()"
    assert cells_to_run(nb) == [1, 3, 5]


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
def test_chapter_renders_and_its_widgets_draw_live(lab_server, page, path):
    base, token = lab_server
    nb = nbformat.read(path, as_version=4)
    title = nb.cells[0].source.splitlines()[0].lstrip("# ").strip()
    code = [c for c in nb.cells if c.cell_type == "code"]
    widgets = {cls: sum(len(re.findall(p, c.source)) for c in code) for cls, p in WIDGET_CALLS.items()}
    figures = sum(1 for c in code for o in c.outputs if "image/png" in o.get("data", {}))
    open_notebook(page, base, token, path.name)
    panel = current_notebook(page)
    figure_imgs = panel.locator(".jp-OutputArea-output img[src^='data:image/png']")
    try:
        expect(panel).to_have_count(1)
        expect(panel.locator("h1").first).to_contain_text(title.split(" · ")[0])
        # the stored outputs, as committed: every figure and widget shown, no error
        expect(figure_imgs).to_have_count(figures)
        for css_class, expected in widgets.items():
            expect(panel.locator(f".jp-OutputArea-output .{css_class}")).to_have_count(expected)
        expect_no_error_output(panel)
        # live: the imports and the widget cells run in the page's kernel
        run_cells(page, path.name, cells_to_run(nb))
        for css_class, expected in widgets.items():
            expect(panel.locator(f".jp-OutputArea-output .{css_class}")).to_have_count(expected)
        expect(figure_imgs).to_have_count(figures)
        expect_no_error_output(panel)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"chapter-{path.stem}.png"))
        shut_down_kernels(page)
