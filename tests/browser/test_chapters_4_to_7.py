"""The full sweep (make test-browser), chapters 4 to 7 from the learner's seat (the steps:
learners_seat.py). A file of its own so that a second pytest-xdist worker, with a JupyterLab of
its own, works through them meanwhile."""

import pytest
from notebook_tools import NOTEBOOKS

from .learners_seat import work_through_chapter

pytestmark = [pytest.mark.browser, pytest.mark.sweep]
CHAPTERS = NOTEBOOKS[4:]


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.name for p in CHAPTERS])
def test_chapter_from_the_learners_seat(page, path):
    """A fresh kernel; Shift+Enter from the first cell to the last, then Restart Kernel and Run
    All: nothing given away; then one exercise answered wrong, then right."""
    work_through_chapter(page, path)
