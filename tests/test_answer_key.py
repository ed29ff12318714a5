"""The answer key (make answers): every solution run in its chapter, and checked, outside site/.

Each chapter's answer key is the chapter with every solution turned into a code cell that
ends by checking itself (from helpers/exercise_table.py). The tests run each solution where it
stands in its chapter, in the kernel nbval runs the chapter in (conftest.py: SolutionItem): a
solution that has gone stale, or an expected value that no longer matches the chapter, fails
there, as ``notebooks/NN_*.ipynb::Solution N.n``. Then ``::answer key page`` writes the
chapter's answer-key page with those outputs and checks it here (check_answer_key_page).
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
    answer_key_notebook,
    export_html,
    solution_keys,
    solution_places,
)
from test_html import _stream_lines

from helpers.exercise_table import EXERCISES, QUIZZES

ROOT = Path(__file__).resolve().parent.parent


def check_answer_key_page(path: Path, solution_outputs: dict[str, list], out: Path) -> None:
    """The chapter's answer-key page, written into ``out`` with each solution's outputs from
    its run in the chapter, shows every solution's code and printed lines and every quiz's
    answer, and opens no <details>."""
    nb = answer_key_notebook(path)
    keys = solution_keys(path, nb)
    missing = [key for _, key in keys if key not in solution_outputs]
    assert not missing, f"{path.name}: no run of solution(s) {missing} (see their own tests)"
    for i, key in keys:
        nb.cells[i].outputs = solution_outputs[key]
    nbformat.write(nb, out / path.name)
    page = export_html([out / path.name], out, answer_key=True)[0].read_text()
    assert "<details" not in page, "the answer key closes nothing"
    assert page.count('<div class="solution-shown">') == len(keys)
    plain = html.unescape(re.sub(r"<[^>]+>", "", page))
    for i, _ in keys:
        cell = nb.cells[i]
        for line in (ln.strip() for ln in cell.source.splitlines()):
            if line:
                assert line in plain, f"{path.stem}: solution line {line!r} is not on the page"
        for text in _stream_lines(cell):
            assert text in page, f"{path.stem}: solution output {text!r} is not on the page"
    chapter = int(path.name[:2])
    for key, q in QUIZZES.items():
        if key.startswith(f"{chapter}.q"):
            assert html.unescape(q["explanations"][q["answer"]]) in plain, key
    assert (out / MATHJAX_DIR / "MathJax.js").is_file()
    assert "Answer key" in (out / "index.html").read_text()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_answer_key_turns_each_solution_into_its_code_and_its_check(path):
    """(That each exercise has its solution cell, in order, is tests/test_notebooks.py's.)"""
    nb = answer_key_notebook(path)
    for i, key in solution_keys(path, nb):
        ex = EXERCISES[key]
        assert nb.cells[i].cell_type == "code", key
        assert (
            nb.cells[i].source == f'{ex["solution"].strip()}\nhelpers.check("{key}", {ex["name"]})'
        )


def test_a_solution_runs_after_the_code_cells_above_it():
    """Where each solution runs in its chapter's nbval run: after the code cells above it (the
    exercise's answer and check cells), before the next one."""
    nb = nbformat.v4.new_notebook()
    cells = ["code", "markdown", "code", "code", "solution", "markdown", "solution", "code"]
    for kind in cells:
        cell = (nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell)("")
        if kind == "solution":
            cell.metadata["tags"] = ["solution"]
        nb.cells.append(cell)
    assert solution_places(Path("03_chapter.ipynb"), nb) == [(3, "3.1"), (3, "3.2")]
    nb.cells.insert(5, nbformat.v4.new_code_cell(""))
    assert solution_places(Path("03_chapter.ipynb"), nb) == [(3, "3.1"), (4, "3.2")]


def test_make_answers_writes_the_answer_key_outside_the_static_site():
    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", "answers"], cwd=ROOT, capture_output=True, text=True
    )
    assert dry.returncode == 0, dry.stderr
    assert "tools/notebook_tools.py --answers answer-key" in dry.stdout
