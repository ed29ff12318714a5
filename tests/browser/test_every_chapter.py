"""Smoke test: every chapter runs in JupyterLab in a real browser, with no error and every widget drawn.

A screenshot of each chapter, after running all its cells, is saved in
test-artifacts/ (pass or fail), for a human to glance at.
"""

import re

import nbformat
import pytest
from playwright.sync_api import expect

from notebook_tools import NOTEBOOKS

from .conftest import ARTIFACTS, current_notebook, open_and_run_all, shut_down_kernels

pytestmark = pytest.mark.browser

WIDGET_CALLS = {"quiz": r"helpers\.quiz\(", "resample-explorer": r"helpers\.resample_explorer\("}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_chapter_runs_in_the_browser(lab_server, page, path):
    base, token = lab_server
    nb = nbformat.read(path, as_version=4)
    title = nb.cells[0].source.splitlines()[0].lstrip("# ").strip()
    open_and_run_all(page, base, token, path.name)
    panel = current_notebook(page)
    try:
        expect(panel).to_have_count(1)
        expect(panel.locator("h1").first).to_contain_text(title.split(" · ")[0])
        # no error output, no stderr, no traceback
        expect(panel.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")).to_have_count(0)
        expect(panel.locator(".jp-RenderedText .ansi-red-fg, .jp-OutputArea-output .jp-RenderedText[data-mime-type*='error']")).to_have_count(0)
        # every widget the notebook makes is drawn as a widget, not as its text fallback
        for css_class, pattern in WIDGET_CALLS.items():
            expected = sum(len(re.findall(pattern, c.source)) for c in nb.cells if c.cell_type == "code")
            expect(panel.locator(f".jp-OutputArea-output .{css_class}")).to_have_count(expected)
        outputs = panel.locator(".jp-OutputArea-output").all_inner_texts()
        assert not [t for t in outputs if "Error displaying widget" in t or re.match(r"^(VBox|HBox)\(children=", t)]
        # every stored figure came back
        figures = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {}))
        expect(panel.locator(".jp-OutputArea-output img[src^='data:image/png']")).to_have_count(figures)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"chapter-{path.stem}.png"))
        shut_down_kernels(page)
