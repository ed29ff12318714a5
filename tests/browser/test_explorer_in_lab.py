"""Chapter 2's resample explorer, used the way a learner uses it: in JupyterLab, in a browser.

Only the cells the explorer needs run (the cell that imports helpers and the explorer's own);
nbval has run the whole chapter already.
"""

import re

import nbformat

import pytest
from playwright.sync_api import expect

from .conftest import ROOT, cells_to_run, current_notebook, open_notebook, run_cells

pytestmark = pytest.mark.browser

NOTEBOOK = "02_all_256_resamples.ipynb"


def test_explorer_in_jupyterlab(page):
    open_notebook(page, NOTEBOOK)
    run_cells(page, NOTEBOOK, cells_to_run(nbformat.read(ROOT / "notebooks" / NOTEBOOK, as_version=4)))

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
