"""The answer key (make answers): every chapter with every solution shown, outside site/.

Apart from tests/test_html.py (the static edition) so that the two exports, the slowest
fixtures of the suite, run at the same time on two workers (make test: --dist loadfile).
"""

import html
import re
import subprocess
from pathlib import Path

import nbformat
import pytest
from notebook_tools import MATHJAX_DIR, NOTEBOOKS, export_html
from test_html import _stream_lines

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def answers(tmp_path_factory):
    out = tmp_path_factory.mktemp("answers")
    export_html(NOTEBOOKS, out, answer_key=True)
    return out


def test_make_answers_writes_the_answer_key_outside_the_static_site():
    dry = subprocess.run(
        ["make", "-n", "--no-print-directory", "answers"], cwd=ROOT, capture_output=True, text=True
    )
    assert dry.returncode == 0, dry.stderr
    assert "tools/notebook_tools.py --answers answer-key" in dry.stdout


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_answer_key_shows_every_solution_unfolded(answers, path):
    page = (answers / f"{path.stem}.html").read_text()
    nb = nbformat.read(path, as_version=4)
    solutions = [c for c in nb.cells if "solution" in c.metadata.get("tags", [])]
    assert "<details" not in page, "the answer key folds nothing away"
    assert page.count('<div class="solution-shown">') == len(solutions)
    plain = html.unescape(re.sub(r"<[^>]+>", "", page))
    for cell in solutions:
        # the source, line by line (highlighting splits it into spans), and every line it printed
        for line in (ln.strip() for ln in cell.source.splitlines()):
            if line:
                assert line in plain, (
                    f"{path.stem}: solution line {line!r} is not on the answer-key page"
                )
        for text in _stream_lines(cell):
            assert text in page, (
                f"{path.stem}: solution output {text!r} is not on the answer-key page"
            )
    assert (answers / MATHJAX_DIR / "MathJax.js").is_file()
    assert "Answer key" in (answers / "index.html").read_text()


def test_answer_key_shows_each_quiz_with_its_code(answers):
    page = (answers / f"{NOTEBOOKS[0].stem}.html").read_text()
    assert "helpers.quiz(" in html.unescape(re.sub(r"<[^>]+>", "", page))
