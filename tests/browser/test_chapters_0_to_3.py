"""Chapters 0 to 3 from the learner's seat (the steps: learners_seat.py), and chapter 2's
resample explorer used as a learner uses it: presets, keyboard, figure."""

import nbformat
import pytest
from notebook_tools import NOTEBOOKS

from .conftest import cells_to_run
from .learners_seat import TYPED, use_the_explorer, work_through_chapter

pytestmark = pytest.mark.browser
CHAPTERS = NOTEBOOKS[:4]


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


def test_the_two_files_share_the_chapters():
    from . import test_chapters_4_to_7

    assert [*CHAPTERS, *test_chapters_4_to_7.CHAPTERS] == NOTEBOOKS


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_chapter_from_the_learners_seat(page, path):
    """A fresh kernel; Shift+Enter from the first cell to the last, then Restart Kernel and Run
    All: nothing given away; then one exercise answered wrong, then right."""
    work_through_chapter(page, path)


def test_explorer_in_jupyterlab(page):
    """Only the cells the explorer needs run (the helpers import and the explorer's own)."""
    use_the_explorer(page)
