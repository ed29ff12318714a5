"""The answer key (make answers): every solution run in its chapter, and checked, outside site/.

Each chapter's answer key is the chapter with every solution turned into a code cell that
ends by checking itself (from helpers/exercise_table.py), executed top to bottom in a fresh
kernel: a solution that has gone stale, or an expected value that no longer matches the
chapter, fails here. The tests run only the cells the solutions need (the rest of each
chapter is what nbval runs). Apart from tests/test_html.py (the static edition) so that the two
exports, the slowest fixtures of the suite after the browser's, can go to different workers.
"""

import html
import re
import subprocess
from pathlib import Path

import nbformat
import pytest
from notebook_tools import (
    MATHJAX_DIR,
    NOTEBOOKS,
    export_html,
    needed_cells,
    solution_keys,
    write_answer_key,
)
from test_html import _stream_lines

from helpers.exercise_table import EXERCISES, QUIZZES

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = NOTEBOOKS


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    out = tmp_path_factory.mktemp("answers")
    export_html(write_answer_key(out, CHAPTERS, only_needed=True), out, answer_key=True)
    return out


def test_needed_cells_are_those_that_set_what_a_needed_cell_reads_before_setting_it():
    """Walking back from the solution: a cell is needed when it sets a name that a needed cell
    reads before it sets it; a function's own variables are not read from outside."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(source)
        for source in [
            "import numpy as np",  # 0: the solution reads np
            "w = 2",  # 1: f reads w when it is called
            "x = 1",  # 2: cell 3 reads x before it sets it
            "x = x + 1",  # 3: the solution reads x
            "def f(n):\n    k = n * w\n    return k",  # 4: the solution calls f
            "k, n = 99, 7",  # 5: f's k and n are its own
            "y = 0",  # 6: the solution sets y before it reads it
            "total = 0\nfor i in range(3):\n    total += i",  # 7: nothing needs total
        ]
    ]
    nb.cells.append(nbformat.v4.new_code_cell("y = f(x)\nanswer = np.sqrt(y)"))
    nb.cells[-1].metadata["tags"] = ["solution"]
    nb.cells.insert(6, nbformat.v4.new_markdown_cell("Text"))
    assert needed_cells(nb) == [0, 1, 2, 3, 4, 9]
    nb.cells[9].source = "answer = np.sqrt(f(x) + y + total)"  # now reads y and total
    assert needed_cells(nb) == [0, 1, 2, 3, 4, 7, 8, 9]


def test_make_answers_writes_the_answer_key_outside_the_static_site():
    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", "answers"], cwd=ROOT, capture_output=True, text=True
    )
    assert dry.returncode == 0, dry.stderr
    assert "tools/notebook_tools.py --answers answer-key" in dry.stdout


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_every_solution_runs_in_its_chapter_and_passes_its_check(answers, path):
    nb = nbformat.read(answers / path.name, as_version=4)
    keys = solution_keys(path, nb)
    assert [k for _, k in keys] == sorted(
        (k for k in EXERCISES if k.startswith(f"{int(path.name[:2])}.")),
        key=lambda k: int(k.split(".")[1]),
    )
    for i, key in keys:
        cell = nb.cells[i]
        assert cell.cell_type == "code", key
        said = "".join(o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        assert f"Exercise {key}: correct." in said, f"{key}'s solution: {said!r}"


@pytest.mark.parametrize("path", CHAPTERS, ids=[p.stem for p in CHAPTERS])
def test_answer_key_page_shows_every_solution_and_quiz_answer(answers, path):
    page = (answers / f"{path.stem}.html").read_text()
    nb = nbformat.read(answers / path.name, as_version=4)
    solutions = [c for c in nb.cells if "solution" in c.metadata.get("tags", [])]
    assert "<details" not in page, "the answer key closes nothing"
    assert page.count('<div class="solution-shown">') == len(solutions)
    plain = html.unescape(re.sub(r"<[^>]+>", "", page))
    for cell in solutions:
        for line in (ln.strip() for ln in cell.source.splitlines()):
            if line:
                assert line in plain, f"{path.stem}: solution line {line!r} is not on the page"
        for text in _stream_lines(cell):
            assert text in page, f"{path.stem}: solution output {text!r} is not on the page"
    chapter = int(path.name[:2])
    for key, q in QUIZZES.items():
        if key.startswith(f"{chapter}.q"):
            assert html.unescape(q["explanations"][q["answer"]]) in plain, key
    assert (answers / MATHJAX_DIR / "MathJax.js").is_file()
    assert "Answer key" in (answers / "index.html").read_text()
