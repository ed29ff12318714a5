"""The core path stands on its own: each chapter's core cells alone (cell metadata
``section == "core"``), run top to bottom in a fresh ``python3`` kernel in notebooks/, raise
no error and write nothing to stderr. A core cell that reads a name only an optional cell sets
fails here. No figure is drawn (nbval compares every figure of the whole chapter). Its own
file, so that make test's workers run it beside the other notebook tests.
"""

import nbformat
import pytest
from notebook_tools import NOTEBOOKS, run


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_core_cells_alone_run_without_error(path):
    nb = nbformat.read(path, as_version=4)
    nb.cells = [c for c in nb.cells if c.metadata.get("section") == "core"]
    # nbclient raises CellExecutionError, naming the cell, on an error
    run(nb, path.parent, figures=False)
    for cell in nb.cells:
        if cell.cell_type == "code":
            stderr = [o.text for o in cell.outputs if o.get("name") == "stderr"]
            assert not stderr, f"{path.name}: stderr output in core cell {cell.source[:60]!r}"
