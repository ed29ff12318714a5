"""Execute notebooks the way the series stores them, and read them for checks.

``python tests/notebook_tools.py NOTEBOOK...`` (what ``make execute`` runs)
executes each notebook top to bottom in a fresh ``python3`` kernel, with the
notebook's folder as working directory, and writes the outputs back in place:
execution counts 1, 2, 3..., widget state saved (so exported pages show each
widget's first view), no timing metadata.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def coalesce_streams(outputs: list) -> list:
    """Merge consecutive stream outputs of the same name (stdout split by timing)."""
    merged: list = []
    for out in outputs:
        if merged and out.output_type == "stream" and merged[-1].output_type == "stream" and merged[-1].name == out.name:
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def execute(path: Path, timeout: int = 300) -> float:
    """Execute one notebook in place; return the wall time in seconds."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=timeout,
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=True,
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)
    nbformat.write(nb, path)
    return elapsed


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        seconds = execute(Path(arg))
        print(f"executed {arg} in {seconds:.1f} s")
