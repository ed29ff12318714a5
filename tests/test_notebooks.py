"""Notebook hygiene: what strict nbval does not check by itself.

nbval re-executes every notebook and compares its outputs (collected by
``make test`` through ``--nbval``). These checks cover the stored files: they
were executed top to bottom in a fresh kernel, show no errors, use the plain
``python3`` kernel, leak no local paths or memory addresses, and mark only
timing cells as exempt from comparison.
"""

import re

import nbformat
import pytest

from notebook_tools import NOTEBOOKS

LOCAL_PATH = re.compile(r"(/home/|/root/|/Users/|/tmp/|/work/|/private/var/|[A-Za-z]:\\\\|site-packages)")
ADDRESS = re.compile(r"\bat 0x[0-9a-fA-F]{6,}")
# nbval reads the marker only as a comment line of its own; the reason goes on the next line
IGNORE_MARKER = re.compile(r"^# NBVAL_IGNORE_OUTPUT\n# \(why: .{10,}\)$", re.M)


def _ids(paths):
    return [p.name for p in paths]


def test_there_are_notebooks():
    assert NOTEBOOKS, "no chapter notebooks found in notebooks/"


@pytest.fixture(params=NOTEBOOKS, ids=_ids(NOTEBOOKS))
def nb(request):
    return nbformat.read(request.param, as_version=4)


def _code_cells(nb):
    return [c for c in nb.cells if c.cell_type == "code"]


def _texts(cell):
    for out in cell.get("outputs", []):
        if "text" in out:
            yield out["text"]
        for key, value in out.get("data", {}).items():
            if key.startswith("text/") and isinstance(value, str):
                yield value


def test_executed_top_to_bottom_in_one_fresh_kernel(nb):
    counts = [c.execution_count for c in _code_cells(nb)]
    assert counts == list(range(1, len(counts) + 1)), "re-run the notebook with `make execute`"


def test_no_error_outputs(nb):
    for cell in _code_cells(nb):
        for out in cell.outputs:
            assert out.output_type != "error", cell.source[:80]
            assert not (out.output_type == "stream" and out.name == "stderr"), f"stderr output in: {cell.source[:80]}"


def test_plain_python3_kernel(nb):
    assert nb.metadata.kernelspec.name == "python3"
    assert nb.metadata.kernelspec.language == "python"


def test_no_local_paths_or_memory_addresses(nb):
    for cell in _code_cells(nb):
        for text in _texts(cell):
            assert not LOCAL_PATH.search(text), f"local path in output of: {cell.source[:80]}"
            assert not ADDRESS.search(text), f"memory address in output of: {cell.source[:80]}"


def test_only_documented_cells_are_exempt_from_comparison(nb):
    for cell in _code_cells(nb):
        src = cell.source
        assert "NBVAL_SKIP" not in src and "NBVAL_RAISES_EXCEPTION" not in src
        assert "nbval-ignore-output" not in cell.metadata.get("tags", [])
        if "NBVAL_IGNORE_OUTPUT" in src:
            assert IGNORE_MARKER.search(src), "an ignored cell must say why on the next line: '# (why: <reason>)'"
            assert re.search(r"tim(e|ing)", src, re.I), "only timing cells may be exempt"


def test_every_figure_has_labelled_axes_and_a_title(nb):
    # plots are drawn by helpers or in plain matplotlib; check the source calls
    for cell in _code_cells(nb):
        if "plt.subplots" in cell.source and "helpers.plot_" not in cell.source:
            assert "set_xlabel" in cell.source and "set_title" in cell.source, cell.source[:80]


def test_figures_are_compared_too():
    """The root conftest makes nbval compare PNG outputs, which it skips by default."""
    import types

    import conftest

    parent = types.SimpleNamespace(skip_compare=("metadata", "image/png", "image/jpeg"))
    item = types.SimpleNamespace(parent=parent)
    conftest.pytest_collection_modifyitems(None, [item, item])
    assert parent.skip_compare == ("metadata", "image/jpeg")


CHAPTER_TITLE = re.compile(r"^# Chapter (\d+) · \S")
OBJECTIVES = re.compile(r"\*\*By the end of this chapter you will be able to\*\*\n\n((?:\d\. .+\n?){3,4})")


def test_chapter_shape(nb, request):
    """Title; 3-4 objectives, time, what it builds on; a quiz; 2-3 exercises (none in
    chapter 0), each followed by its tagged, collapsed solution; key points last."""
    cells = nb.cells
    first = cells[0]
    assert first.cell_type == "markdown" and CHAPTER_TITLE.match(first.source), "first cell: '# Chapter N · Title'"
    number = int(CHAPTER_TITLE.match(first.source).group(1))
    assert request.node.callspec.id.startswith(f"{number:02d}_"), "file name and chapter number differ"
    assert OBJECTIVES.search(first.source), "first cell lists 3 or 4 numbered objectives"
    assert "**Time:**" in first.source and "**Builds on:**" in first.source
    assert any(c.cell_type == "code" and "helpers.quiz(" in c.source for c in cells), "no quiz"
    exercises = [i for i, c in enumerate(cells) if c.cell_type == "markdown" and re.search(r"^\*\*Exercise \d+\.\*\*", c.source, re.M)]
    if number == 0:  # the start-here chapter has no exercises
        assert not exercises
    else:
        assert 2 <= len(exercises) <= 3, f"{len(exercises)} exercises; want 2 or 3"
    solutions = [i for i, c in enumerate(cells) if "solution" in c.metadata.get("tags", [])]
    assert solutions == [i + 1 for i in exercises], "each exercise is followed directly by its solution cell"
    for i in solutions:
        assert cells[i].cell_type == "code" and cells[i].metadata.get("jupyter", {}).get("source_hidden") is True
    assert cells[-1].cell_type == "markdown" and cells[-1].source.startswith("## Key points")


TIME = re.compile(r"\*\*Time:\*\* about (\d+) minutes")


def test_chapter_maps_list_every_chapter_with_its_own_time():
    """Chapter 0's map and README's table link every chapter, with the time the chapter itself states."""
    start = nbformat.read(NOTEBOOKS[0], as_version=4)
    assert NOTEBOOKS[0].name == "00_start_here.ipynb"
    chapter_map = next(c.source for c in start.cells if c.source.startswith("## 3. The chapters"))
    readme = (NOTEBOOKS[0].parent.parent / "README.md").read_text()
    for path in NOTEBOOKS:
        minutes = TIME.search(nbformat.read(path, as_version=4).cells[0].source).group(1)
        assert re.search(rf"\]\({re.escape(path.name)}\) \|[^\n]*\| {minutes} min \|", chapter_map), f"chapter 0's map: {path.name}, {minutes} min"
        assert re.search(rf"\]\(notebooks/{re.escape(path.name)}\) \|[^\n]*\| {minutes} min \|", readme), f"README's table: {path.name}, {minutes} min"
