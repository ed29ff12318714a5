"""The core path stands on its own: each chapter's core cells alone (cell metadata
``section == "core"``), run top to bottom in a ``python3`` kernel in notebooks/, raise no error
and write nothing to stderr. A core cell that reads a name only an optional cell sets fails
here. No figure is drawn (nbval compares every figure of the whole chapter).

One kernel runs every chapter's core cells in turn, its names cleared and its figures closed
before each chapter (``%reset -f``): a chapter sees nothing another one set, and the kernel
starts, and imports numpy and matplotlib, once instead of eight times.
"""

import nbformat
import pytest
from notebook_tools import NOTEBOOKS, run

#: Run before each chapter's core cells: no figure, and no name, of the chapter before.
FRESH_START = 'import matplotlib.pyplot\nmatplotlib.pyplot.close("all")\n%reset -f'


@pytest.fixture(scope="module")
def core_runs() -> dict[str, list]:
    """Each chapter's core code cells, run: {notebook name: its cells with their outputs}."""
    nb = nbformat.v4.new_notebook()
    ranges = {}
    for path in NOTEBOOKS:
        chapter = nbformat.read(path, as_version=4)
        core = [c for c in chapter.cells if c.metadata.get("section") == "core"]
        core = [c for c in core if c.cell_type == "code"]
        nb.cells.append(nbformat.v4.new_code_cell(FRESH_START))
        ranges[path.name] = (len(nb.cells), len(nb.cells) + len(core))
        nb.cells += core
    run(nb, NOTEBOOKS[0].parent, figures=False, allow_errors=True)
    return {name: nb.cells[start:stop] for name, (start, stop) in ranges.items()}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_core_cells_alone_run_without_error(core_runs, path):
    for cell in core_runs[path.name]:
        for out in cell.outputs:
            assert out.output_type != "error", (
                f"{path.name}: core cell {cell.source[:60]!r} raised {out.ename}: {out.evalue}"
            )
            assert out.get("name") != "stderr", (
                f"{path.name}: stderr output in core cell {cell.source[:60]!r}: {out.text[-300:]}"
            )


def test_a_chapter_sees_no_name_the_chapter_before_set():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(source)
        for source in ("x = 1", FRESH_START, "print('x' in dir())")
    ]
    run(nb, NOTEBOOKS[0].parent, figures=False)
    assert nb.cells[2].outputs[0].text == "False\n"
