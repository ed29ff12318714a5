"""The browser smoke test of make test: each front-end behaviour of the series once, in one
JupyterLab (the steps: learners_seat.py). The full sweep, every chapter worked through twice,
is make test-browser's (test_chapters_0_to_3.py, test_chapters_4_to_7.py), which CI runs too.

- Run All in one chapter (chapter 0, the shortest): its stored outputs render first; then every
  widget draws live and no output, solution or quiz gives an answer away.
- Shift+Enter through one chapter's first exercises (chapter 1: their answer cells, checks and
  closed solutions, up to its first quiz): nothing given away, their answer variables still
  ``...``; then one of them typed in, wrongly and rightly.
- Chapter 2's resample explorer, used as a learner uses it: presets, keyboard, figure (the
  full sweep's: make test-browser).
- Every quiz of every chapter at 1280 px: the chapters' quiz cells, with their stored outputs,
  in one notebook: the snapshots as committed, then every quiz drawn live. The options' layout
  depends only on the quiz and the window, not on the chapter around it, so one kernel that
  imports helpers replaces eight that run whole chapters.
"""

import html
import json
import re
import string

import nbformat
import pytest
from notebook_tools import NOTEBOOKS
from playwright.sync_api import expect

from helpers.exercise_table import EXERCISES, QUIZZES

from .conftest import cells_to_run, current_notebook, open_notebook, shut_down_kernel
from .learners_seat import (
    FIGURE_IMGS,
    SNAPSHOTS,
    TYPED,
    answer_cell,
    chapter_widgets_and_figures,
    expect_no_error_output,
    expect_nothing_given_away,
    expect_quiz_options_fit,
    expect_stored_outputs,
    press_shift_enter,
    type_wrong_then_right,
    use_the_explorer,
    wait_until_run,
)

pytestmark = pytest.mark.browser
RUN_ALL_CHAPTER = NOTEBOOKS[0]
SHIFT_ENTER_CHAPTER = NOTEBOOKS[1]
QUIZ_CALL = re.compile(r'helpers\.quiz\("(?P<key>\d+\.q\d+)"')


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


def test_every_chapter_has_a_typed_exercise():
    assert sorted(TYPED) == [p.stem for p in NOTEBOOKS]


def test_the_two_sweep_files_share_the_chapters():
    from . import test_chapters_0_to_3, test_chapters_4_to_7

    assert [*test_chapters_0_to_3.CHAPTERS, *test_chapters_4_to_7.CHAPTERS] == NOTEBOOKS


def test_run_all_in_one_chapter_gives_nothing_away(page):
    path = RUN_ALL_CHAPTER
    nb = nbformat.read(path, as_version=4)
    widgets, figures = chapter_widgets_and_figures(nb)
    assert widgets["quiz"] and any("solution" in c.metadata.get("tags", []) for c in nb.cells)
    open_notebook(page, path.name, fresh_kernel=True)
    panel = current_notebook(page)
    try:
        expect_stored_outputs(page, panel, path, nb)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        wait_until_run(page)
        expect(panel.locator(SNAPSHOTS)).to_have_count(0)
        for css_class, expected in widgets.items():
            expect(panel.locator(f".jp-OutputArea-output .{css_class}")).to_have_count(expected)
        expect(panel.locator(FIGURE_IMGS)).to_have_count(figures)
        expect_no_error_output(panel)
        expect_nothing_given_away(page, panel, path, nb)
    finally:
        shut_down_kernel(page)


def first_solution(nb, key: str) -> int:
    """The index of exercise ``key``'s closed solution, the first solution after its check."""
    tagged = [i for i, c in enumerate(nb.cells) if "solution" in c.metadata.get("tags", [])]
    return next(i for i in tagged if i > answer_cell(nb, key))


def test_shift_enter_through_the_first_exercise_gives_nothing_away(page):
    path = SHIFT_ENTER_CHAPTER
    nb = nbformat.read(path, as_version=4)
    key = TYPED[path.stem][0]  # the exercise the learner types in, after the first one
    # the learner passes the first exercise's answer cell, check and closed solution, the typed
    # exercise's, and a quiz on the way
    first = first_solution(nb, f"{int(path.name[:2])}.1")
    first_quiz = next(i for i, c in enumerate(nb.cells) if QUIZ_CALL.search(c.source))
    last = max(first, first_solution(nb, key), first_quiz)
    quizzes = sum(1 for c in nb.cells[: last + 1] if QUIZ_CALL.search(c.source))
    asked = [k for k in EXERCISES if k.startswith(f"{int(path.name[:2])}.")
             and answer_cell(nb, k) < last]  # fmt: skip
    open_notebook(page, path.name, fresh_kernel=True)
    panel = current_notebook(page)
    try:
        press_shift_enter(page, last + 1)
        expect(panel.locator(".jp-OutputArea-output .quiz")).to_have_count(quizzes)
        expect_no_error_output(panel)
        expect_nothing_given_away(page, panel, path, nb, asked=asked)
        type_wrong_then_right(page, panel, path, nb)
    finally:
        shut_down_kernel(page)


# The full sweep's (make test-browser, CI), not make test's: about 15 s of CPU (the kernel draws
# a figure at every step, Chromium shows it); make test keeps the explorer's controls and
# pictures in tests/test_widgets.py, and the sweep draws it live in chapter 2 twice.
@pytest.mark.sweep
def test_explorer_in_jupyterlab(page):
    """Only the cells the explorer needs run (the helpers import and the explorer's own)."""
    try:
        use_the_explorer(page)
    finally:
        shut_down_kernel(page)  # the other tests start kernels of their own


def prompt_values(template: str, prompt: str) -> dict[str, str]:
    """The values a chapter filled into a quiz's prompt, read back from its stored snapshot.

    >>> prompt_values("[{low}, {high}] and p = {p}.", "[-0.0423, +0.0276] and p = 0.66.")
    {'low': '-0.0423', 'high': '+0.0276', 'p': '0.66'}
    """
    pattern = "".join(
        re.escape(text) + (f"(?P<{name}>.+?)" if name else "")
        for text, name, _, _ in string.Formatter().parse(template)
    )
    found = re.fullmatch(pattern, prompt)
    assert found, f"the stored prompt {prompt!r} does not fit {template!r}"
    return found.groupdict()


def every_quiz_notebook() -> tuple[nbformat.NotebookNode, int]:
    """One notebook with every chapter's quiz cells and their stored outputs (the snapshots),
    each calling helpers.quiz with the values its chapter filled in; and how many quizzes."""
    cells = [nbformat.v4.new_code_cell("import helpers")]
    for path in NOTEBOOKS:
        for cell in nbformat.read(path, as_version=4).cells:
            found = QUIZ_CALL.search(cell.source) if cell.cell_type == "code" else None
            if not found:
                continue
            key = found["key"]
            snapshot = "".join(o.get("data", {}).get("text/html", "") for o in cell.outputs)
            prompt = html.unescape(re.search(r"<p><b>(.*?)</b></p>", snapshot, re.S)[1])
            values = prompt_values(QUIZZES[key]["prompt"], prompt)
            args = "".join(f", {name}={value!r}" for name, value in values.items())
            quiz = nbformat.v4.new_code_cell(f"helpers.quiz({key!r}{args})")
            quiz.outputs = cell.outputs
            cells.append(quiz)
    nb = nbformat.v4.new_notebook(cells=cells)
    kernel = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["kernelspec"] = kernel
    return nb, len(cells) - 1


def test_every_quiz_fits_at_1280_px(page):
    nb, quizzes = every_quiz_notebook()
    in_chapters = [chapter_widgets_and_figures(nbformat.read(p, 4))[0] for p in NOTEBOOKS]
    assert quizzes == sum(w["quiz"] for w in in_chapters) == len(QUIZZES)
    name = "every_quiz.ipynb"
    page.evaluate(
        """async ([name, content]) => {
            await window.jupyterapp.serviceManager.contents.save(
                name, {type: 'notebook', format: 'json', content: JSON.parse(content)});
        }""",
        [name, json.dumps(nb)],
    )
    open_notebook(page, name, fresh_kernel=True)
    panel = current_notebook(page)
    try:
        expect(panel.locator(SNAPSHOTS)).to_have_count(quizzes)
        expect_quiz_options_fit(page, panel, quizzes)
        page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        wait_until_run(page)
        expect(panel.locator(".jp-OutputArea-output .quiz")).to_have_count(quizzes)
        expect_no_error_output(panel)
        expect_quiz_options_fit(page, panel, quizzes)
    finally:
        shut_down_kernel(page)
