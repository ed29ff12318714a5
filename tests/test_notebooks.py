"""Notebook hygiene: what strict nbval does not check by itself.

nbval re-executes every notebook and compares its outputs (collected by
``make test`` through ``--nbval``). These checks cover the stored files: they
were executed top to bottom in a fresh kernel, show no errors, use the plain
``python3`` kernel, leak no local paths or memory addresses, and mark only
timing cells as exempt from comparison.
"""

import importlib.util
import json
import re
import sys
from pathlib import Path

import nbformat
import pytest
from notebook_tools import NOTEBOOKS

LOCAL_PATH = re.compile(
    r"(/home/|/root/|/Users/|/tmp/|/work/|/private/var/|[A-Za-z]:\\\\|site-packages)"
)
ADDRESS = re.compile(r"\bat 0x[0-9a-fA-F]{6,}")
#: nbval's cell tag for a cell whose output it must not compare; the reason is kept in the
#: cell's metadata under NBVAL_WHY, where learners do not see it
IGNORE_TAG, NBVAL_WHY = "nbval-ignore-output", "nbval_why"
ROOT = Path(__file__).resolve().parent.parent


def _ids(paths):
    return [p.name for p in paths]


def test_the_chapters_are_0_to_7_in_order():
    assert [p.name[:3] for p in NOTEBOOKS] == [f"{n:02d}_" for n in range(8)]
    for n, path in enumerate(NOTEBOOKS):
        title = nbformat.read(path, as_version=4).cells[0].source.splitlines()[0]
        assert title.startswith(f"# Chapter {n} · "), (path.name, title)


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
            assert not (out.output_type == "stream" and out.name == "stderr"), (
                f"stderr output in: {cell.source[:80]}"
            )


def test_plain_python3_kernel(nb):
    assert nb.metadata.kernelspec.name == "python3"
    assert nb.metadata.kernelspec.language == "python"


def test_no_local_paths_or_memory_addresses(nb):
    for cell in _code_cells(nb):
        for text in _texts(cell):
            assert not LOCAL_PATH.search(text), f"local path in output of: {cell.source[:80]}"
            assert not ADDRESS.search(text), f"memory address in output of: {cell.source[:80]}"


def test_only_documented_cells_are_exempt_from_comparison(nb):
    """The one exemption: nbval's tag nbval-ignore-output, on a timing cell, with its reason
    (10 characters or more) in the cell's metadata; no marker comment in the source, where
    learners would read it, and no other nbval tag or marker."""
    for cell in _code_cells(nb):
        src, tags = cell.source, cell.metadata.get("tags", [])
        assert "NBVAL_" not in src, "nbval markers in the source show to learners: use the tag"
        assert not [t for t in tags if t.startswith("nbval") and t != IGNORE_TAG], tags
        if IGNORE_TAG in tags:
            why = cell.metadata.get(NBVAL_WHY, "")
            assert isinstance(why, str) and len(why.strip()) >= 10, (
                f"a cell tagged {IGNORE_TAG} says why in its metadata: {NBVAL_WHY!r}"
            )
            assert re.search(r"\btime\.perf_counter\(\)", src), "only timing cells may be exempt"
        else:
            assert NBVAL_WHY not in cell.metadata, "a reason without the tag exempts nothing"


def test_the_exemption_rule_refuses_the_comment_marker_and_an_untold_reason():
    def cell(source, **metadata):
        c = nbformat.v4.new_code_cell(source)
        c.metadata.update(metadata)
        return c

    timing = "import time\nt0 = time.perf_counter()"
    why = {NBVAL_WHY: "wall-clock timings differ from run to run"}
    good = nbformat.v4.new_notebook(cells=[cell(timing, tags=[IGNORE_TAG], **why)])
    test_only_documented_cells_are_exempt_from_comparison(good)
    for bad in (
        cell("# NBVAL_IGNORE_OUTPUT\n# (why: wall-clock timings)\n" + timing),
        cell(timing, tags=[IGNORE_TAG]),
        cell(timing, tags=[IGNORE_TAG], nbval_why="timing"),
        cell("print(1)", tags=[IGNORE_TAG], **why),
        cell(timing, tags=["nbval-skip"], **why),
        cell(timing, **why),
    ):
        with pytest.raises(AssertionError):
            test_only_documented_cells_are_exempt_from_comparison(
                nbformat.v4.new_notebook(cells=[bad])
            )


def _label_calls(source: str) -> set[str]:
    """The Axes methods ``set_xlabel``, ``set_ylabel``, ``set_title`` a cell calls with a label
    (a non-empty string, an f-string or a name; not in a comment or a string)."""
    import ast

    called = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            label = node.args[0]
            empty = isinstance(label, ast.Constant) and not str(label.value).strip()
            if node.func.attr in {"set_xlabel", "set_ylabel", "set_title"} and not empty:
                called.add(node.func.attr)
    return called


def test_every_figure_has_labelled_axes_and_a_title(nb):
    # helpers' figures are checked in tests/test_plots.py; a chapter's own matplotlib figure
    # must label both axes and give a title, in code
    for cell in _code_cells(nb):
        if "plt.subplots" in cell.source and "helpers.plot_" not in cell.source:
            assert _label_calls(cell.source) == {"set_xlabel", "set_ylabel", "set_title"}, (
                cell.source[:80]
            )


def test_a_figure_without_labels_is_caught():
    assert _label_calls('ax.set_xlabel("x")\nax.set_ylabel(name)\nax.set_title(f"{t}")') == {
        "set_xlabel",
        "set_ylabel",
        "set_title",
    }
    assert _label_calls('# ax.set_xlabel("x")\nax.set_title("")\nprint("set_ylabel")') == set()


def test_figures_are_compared_too():
    """The root conftest makes nbval compare PNG outputs, which it skips by default."""
    import types

    import conftest

    parent = types.SimpleNamespace(skip_compare=("metadata", "image/png", "image/jpeg"))
    path = conftest.ROOT / "notebooks" / "00_start_here.ipynb"
    item = types.SimpleNamespace(parent=parent, path=path, keywords={})
    conftest.pytest_collection_modifyitems(None, [item, item])
    assert parent.skip_compare == ("metadata", "image/jpeg")


def test_the_slowest_files_run_first_and_a_notebooks_cells_stay_in_order():
    """make test hands whole files to its workers in this order (--no-loadscope-reorder)."""
    import types

    import conftest

    def item(path, name):
        return types.SimpleNamespace(parent=None, path=conftest.ROOT / path, keywords={}, n=name)

    items = [
        item("helpers/grid.py", "doctest"),
        item("notebooks/02_all_256_resamples.ipynb", "Cell 0"),
        item("tests/test_grid.py", "unit"),
        item("notebooks/02_all_256_resamples.ipynb", "Cell 1"),
        item("tests/test_html.py", "page"),
        item("tests/browser/test_chapters_0_to_3.py", "chapter"),
        item("notebooks/06_protecting_and_reporting.ipynb", "chapter 6"),
    ]
    conftest.pytest_collection_modifyitems(None, items)
    assert [i.n for i in items] == [
        "chapter",
        "page",
        "chapter 6",
        "Cell 0",
        "Cell 1",
        "doctest",
        "unit",
    ]


CHAPTER_TITLE = re.compile(r"^# Chapter (\d+) · \S")
OBJECTIVES = re.compile(
    r"\*\*By the end of this chapter you will be able to\*\*\n\n((?:\d\. .+\n?){3,4})"
)
TIME = re.compile(r"\*\*Time:\*\* core about (\d+) minutes, full about (\d+) minutes\.")
SECTION = re.compile(r"^## (\d+)\. .+ · (core|optional \(going deeper\))$", re.M)
EXERCISE = re.compile(r"^\*\*Exercise (\d+)\.\*\*", re.M)
CHECK = re.compile(r'^helpers\.check\("(\d+\.\d+)"\)', re.M)


QUIZ = re.compile(r'^helpers\.quiz\("(\d+\.q\d+)"(, [^\n]+)?\)$')


def _assigned_names(source):
    import ast

    return {
        n.id
        for n in ast.walk(ast.parse(source))
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    } | {n.name for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}


def test_chapter_shape(nb, request):
    """Title; 3-4 objectives, core and full time, what it builds on; numbered sections
    marked core or optional (heading and cell metadata); quizzes by key, their answers not in
    the source; exercises (one in chapter 0, 2-5 elsewhere), each an answer cell, a check cell
    and a closed solution generated from the exercise table, never run; key points that give
    no solution line; further reading last."""
    from helpers.exercise_table import EXERCISES
    from helpers.exercises import UNANSWERED, solution_markdown

    cells = nb.cells
    first = cells[0]
    assert first.cell_type == "markdown" and CHAPTER_TITLE.match(first.source), (
        "first cell: '# Chapter N · Title'"
    )
    number = int(CHAPTER_TITLE.match(first.source).group(1))
    assert request.node.callspec.id.startswith(f"{number:02d}_"), (
        "file name and chapter number differ"
    )
    assert OBJECTIVES.search(first.source), "first cell lists 3 or 4 numbered objectives"
    assert TIME.search(first.source), (
        "first cell: '**Time:** core about N minutes, full about M minutes.'"
    )
    assert "**Builds on:**" in first.source
    quizzes = [c for c in cells if c.cell_type == "code" and "helpers.quiz(" in c.source]
    assert quizzes, "no quiz"
    for k, c in enumerate(quizzes, start=1):
        match = QUIZ.match(c.source)
        assert match and match.group(1) == f"{number}.q{k}", (
            f"quiz {k}: helpers.quiz({number}.q{k!r}) only: its answer lives in the exercise table"
        )

    # sections: every cell says core or optional, and agrees with its section heading
    current = "core"
    for c in cells:
        heading = SECTION.search(c.source) if c.cell_type == "markdown" else None
        if heading:
            current = "core" if heading.group(2) == "core" else "optional"
        elif c.cell_type == "markdown" and re.match(r"^## ", c.source):
            assert re.match(
                r"^## (Your turn|More exercises|Key points|Further reading)", c.source
            ), f"section heading without '· core' or '· optional (going deeper)': {c.source[:60]}"
            current = "optional" if c.source.startswith("## More exercises") else "core"
        assert c.metadata.get("section") == current, (
            f"cell metadata 'section' should be {current!r}: {c.source[:60]}"
        )
    assert any(SECTION.search(c.source) for c in cells if c.cell_type == "markdown"), (
        "no numbered sections"
    )

    exercises = [
        i for i, c in enumerate(cells) if c.cell_type == "markdown" and EXERCISE.search(c.source)
    ]
    numbers = [int(EXERCISE.search(cells[i].source).group(1)) for i in exercises]
    assert numbers == list(range(1, len(numbers) + 1)), "exercises are numbered 1, 2, 3..."
    if number == 0:
        assert len(exercises) == 1, "chapter 0 has one warm-up exercise"
    else:
        assert 2 <= len(exercises) <= 5, f"{len(exercises)} exercises; want 2 to 5"
    assert any(cells[i].metadata["section"] == "core" for i in exercises), "no core exercise"
    solutions = [i for i, c in enumerate(cells) if "solution" in c.metadata.get("tags", [])]
    assert solutions == [i + 3 for i in exercises], (
        "each exercise: prompt, answer cell, check cell, solution"
    )
    key_points = cells[-2].source
    for n, i in enumerate(exercises, start=1):
        key = f"{number}.{n}"
        name = EXERCISES[key]["name"]
        answer, check, solution = cells[i + 1], cells[i + 2], cells[i + 3]
        assert answer.cell_type == "code" and "answer" in answer.metadata.get("tags", []), (
            f"{key}: answer cell tagged 'answer'"
        )
        assert re.search(rf"^{name} = \.\.\.", answer.source, re.M), (
            f"{key}: the answer cell is committed unanswered ({name} = ...)"
        )
        cell = f'helpers.check("{key}")  # checks {name}'  # it reads name where it runs
        assert check.cell_type == "code" and check.source == cell, f"{key}: the check is {cell}"
        assert UNANSWERED in "".join(_texts(check)), (
            f"{key}: the stored check output says to run the answer cell first"
        )
        assert solution.cell_type == "markdown" and solution.source == solution_markdown(key), (
            f"{key}: the solution cell is the closed block generated from the exercise table "
            "(python tools/notebook_tools.py --solutions)"
        )
        assert solution.source.startswith("<details><summary>"), f"{key}: closed <details>"
        # no later code cell sets the learner's answer: Run All leaves it at ...
        for c in cells[i + 2 :]:
            if c.cell_type == "code":
                assert name not in _assigned_names(c.source), (
                    f"{key}: a cell after the answer cell sets {name}: {c.source[:60]}"
                )
        # the key points summarise ideas; they do not print a solution's lines
        for line in EXERCISES[key]["solution"].splitlines():
            code = line.split("#")[0].strip()
            assert len(code) < 12 or code not in key_points, f"{key}: key points give {code!r}"
    assert cells[-2].cell_type == "markdown" and key_points.startswith("## Key points")
    assert not any("correct." in t for c in cells if c.cell_type == "code" for t in _texts(c)), (
        "no stored output says an exercise is correct"
    )
    assert cells[-1].cell_type == "markdown" and cells[-1].source.startswith("## Further reading")


def test_every_registered_exercise_is_in_its_chapter():
    """The checks in helpers and the exercises in the notebooks are the same set."""
    from helpers.exercise_table import EXERCISES

    in_notebooks = set()
    for path in NOTEBOOKS:
        for c in nbformat.read(path, as_version=4).cells:
            if (
                c.cell_type == "code"
                and "answer" not in c.metadata.get("tags", [])
                and "solution" not in c.metadata.get("tags", [])
            ):
                in_notebooks.update(CHECK.findall(c.source))
    assert in_notebooks == set(EXERCISES)


def test_stated_times_match_the_model():
    """Each chapter states core and full times within 15% (or 5 min) of chapter_times' model."""
    sys.path.insert(0, str(NOTEBOOKS[0].parent.parent / "tools"))
    from chapter_times import chapter_time

    for path in NOTEBOOKS:
        core, full = map(
            int, TIME.search(nbformat.read(path, as_version=4).cells[0].source).groups()
        )
        model = chapter_time(path)
        for name, stated, est in [("core", core, model.core), ("full", full, model.full)]:
            assert abs(stated - est) <= max(5, 0.15 * est), (
                f"{path.name}: {name} time {stated} min, model {est:.0f} min"
            )


def test_chapter_maps_list_every_chapter_with_its_own_time():
    """Chapter 0's map and README's table link every chapter, with the times the chapter states."""
    start = nbformat.read(NOTEBOOKS[0], as_version=4)
    assert NOTEBOOKS[0].name == "00_start_here.ipynb"
    chapter_map = next(
        c.source for c in start.cells if re.match(r"## \d+\. The chapters", c.source)
    )
    readme = (NOTEBOOKS[0].parent.parent / "README.md").read_text()
    for path in NOTEBOOKS:
        core, full = TIME.search(nbformat.read(path, as_version=4).cells[0].source).groups()
        row = rf"\|[^\n]*\| {core} min \| {full} min \|"
        assert re.search(rf"\]\({re.escape(path.name)}\) {row}", chapter_map), (
            f"chapter 0's map: {path.name}, {core}/{full} min"
        )
        assert re.search(rf"\]\(notebooks/{re.escape(path.name)}\) {row}", readme), (
            f"README's table: {path.name}, {core}/{full} min"
        )


# --- the core path (issue 30): short sentences, a picture for each chapter's idea ---------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_core_sentence_is_over_40_words(path):
    from chapter_times import LONGEST_SENTENCE, long_sentences

    found = [f"cell {i}, {n} words: {s[:80]}..." for i, n, s in long_sentences(path)]
    assert not found, f"core sentences of over {LONGEST_SENTENCE} words: {found}"


def test_each_chapter_shows_a_figure_on_its_core_path_and_twelve_in_all():
    from chapter_times import core_figures

    figures = {path.name: core_figures(path) for path in NOTEBOOKS}
    without = [name for name, n in figures.items() if n == 0 and not name.startswith("00_")]
    assert not without, f"chapters with no figure in a core cell: {without}"
    assert sum(figures.values()) >= 12, f"{sum(figures.values())} core figures in all: {figures}"


# --- projector-ready and standing alone (issue 37) ----------------------------------------------

LONGEST_CODE_LINE = 88
GOING_DEEPER = "**Going deeper**"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=_ids(NOTEBOOKS))
def test_no_core_code_line_is_over_88_characters(path):
    """Code on the core path, and the solutions of its exercises, fit a projector unwrapped."""
    from helpers.exercise_table import EXERCISES

    cells = nbformat.read(path, as_version=4).cells
    number = int(path.name[:2])
    sources = [c.source for c in _code_cells_of(cells) if c.metadata.get("section") == "core"]
    core_prompts = [
        c.source for c in cells if c.cell_type == "markdown" and c.metadata["section"] == "core"
    ]
    for n in (int(m) for s in core_prompts for m in EXERCISE.findall(s)):
        sources.append(EXERCISES[f"{number}.{n}"]["solution"])
    long = [ln for s in sources for ln in s.splitlines() if len(ln) > LONGEST_CODE_LINE]
    assert not long, f"{len(long)} core code lines over {LONGEST_CODE_LINE} characters: {long[:3]}"


def _code_cells_of(cells):
    return [c for c in cells if c.cell_type == "code"]


def test_self_checks_are_silent_asserts_not_printed_booleans(nb):
    printed = [
        line
        for c in _code_cells(nb)
        for out in c.outputs
        if out.output_type == "stream"
        for line in out.text.splitlines()
        if re.search(r"\b(True|False)\.?$", line)
    ]
    assert not printed, f"printed self-checks (make them silent asserts): {printed[:3]}"


def test_core_key_points_come_first_and_name_no_optional_section(nb):
    """Key points: the core's list, then a 'Going deeper' list for the optional sections; the
    core's never points at an optional section (an instructor reads them aloud after a core-only
    run)."""
    optional = {
        int(m.group(1))
        for c in nb.cells
        if c.cell_type == "markdown" and (m := SECTION.search(c.source)) and m.group(2) != "core"
    }
    key_points = nb.cells[-2].source
    if optional:
        assert GOING_DEEPER in key_points, "key points: the core's list, then **Going deeper**"
    core_part = key_points.split(GOING_DEEPER)[0]
    named = {int(n) for n in re.findall(r"\bsections? (\d+)", core_part)}
    named |= {int(n) for n in re.findall(r"\bsections? \d+ (?:and|or) (\d+)", core_part)}
    assert not named & optional, f"core key points name optional sections {named & optional}"


def test_figures_are_drawn_for_2x_screens():
    """The median figure is at least 1,300 pixels wide (retina PNGs: set_style)."""
    import base64
    import statistics
    import struct

    widths = [
        struct.unpack(">I", base64.b64decode(data["image/png"])[16:20])[0]
        for path in NOTEBOOKS
        for c in _code_cells(nbformat.read(path, as_version=4))
        for out in c.outputs
        if "image/png" in (data := out.get("data", {}))
    ]
    assert widths and statistics.median(widths) >= 1300, statistics.median(widths)


#: Core exercises' and quizzes' results as their chapter prints or states them. The lab copy
#: clears every output and folds the prose that discusses a result (cells tagged "result") and
#: the key points; what stays visible must not state them, where a learner reads them before
#: trying.
ANSWERS_IN_PROSE = {
    "01_paired_bootstrap.ipynb": ("-0.133, -0.008", "96.1", "More than 95%", "-0.008"),
    "02_all_256_resamples.ipynb": ("-0.035, +0.080", "average the observed", "a loss to a gain"),
    "05_randomization_tests.ipynb": (
        "0.625",
        "10 of 16",
        "10 of the 16",
        "above one half",
        "more than half",
    ),
    "06_protecting_and_reporting.ipynb": (
        "Latency is broken",
        "a useful gain is not",
        "B does not ship",
        "latency alone stops",
        "ruled out: latency",
        "does not rest on the tail",
    ),
}


def answers_in_prose(cells: list, name: str) -> list[str]:
    """(cell, answer) for each result a visible markdown cell of the lab copy of chapter *name*
    states: outside a closed <details> block (a solution, a folded result, the key points)."""
    found = []
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and not source.startswith("<details>"):
            found += [f"cell {i}: {a}" for a in ANSWERS_IN_PROSE[name] if a in source]
    return found


def lab_cells(name: str) -> list:
    """The cells of chapter *name* as run.py puts them in a learner's lab copy."""
    spec = importlib.util.spec_from_file_location("run_script", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    book = json.loads((NOTEBOOKS[0].parent / name).read_text(encoding="utf-8"))
    return run.lab_notebook(book)["cells"]


@pytest.mark.parametrize("name", sorted(ANSWERS_IN_PROSE))
def test_no_visible_prose_of_the_lab_copy_gives_an_exercise_result(name):
    cells = lab_cells(name)
    assert answers_in_prose(cells, name) == []
    # the check can fail: a result stated in visible prose is found
    told = {"cell_type": "markdown", "source": f"So it is {ANSWERS_IN_PROSE[name][0]}."}
    assert f"cell 0: {ANSWERS_IN_PROSE[name][0]}" in answers_in_prose([told, *cells], name)
