"""The core path stands on its own: each chapter's core cells alone (cell metadata
``section == "core"``) work without the optional cells between them.

In make test, by reading them: every name a core code cell reads is bound by a core code cell
above it in its chapter, and the last cell above it that binds it is a core cell (an optional
cell that rebinds a name the core reads later would give a core-only reader other values than
the book shows). Names are read off each cell's symbol table (``symtable``), so a function's
parameters and locals, comprehensions and imports count as Python counts them.

In the full sweep (make test-browser, CI), by running them: each chapter's core cells alone, run
top to bottom in a ``python3`` kernel in notebooks/, raise no error and write nothing to stderr
(what reading cannot see: an optional cell that changes an object the core uses, a warning).
No figure is drawn (nbval compares every figure of the whole chapter). One kernel runs every
chapter's core cells in turn, its names cleared and its figures closed before each chapter
(``%reset -f``): a chapter sees nothing another one set, and the kernel starts, and imports
numpy and matplotlib, once instead of eight times. About 25 s of CPU, as much as a fifth of
the chapters' own run under nbval: that is why it is the sweep's.

And the half-day core teaches what it calls: each ``helpers.<name>`` and scipy ``stats.<name>``
that a core code cell of a half-day chapter (0, 1, 2, 5, 6) calls is introduced at or before
its first use (see INTRODUCED below).
"""

import ast
import builtins
import re
import symtable

import chapter_times as ct  # tools/ is on sys.path for the tests (conftest.py)
import nbformat
import pytest
from notebook_tools import NOTEBOOKS, run

#: Run before each chapter's core cells: no figure, and no name, of the chapter before.
FRESH_START = 'import matplotlib.pyplot\nmatplotlib.pyplot.close("all")\n%reset -f'


# ---------------------------------------------------------------------------
# In make test: each name a core cell reads, the core above it binds, and last.

#: Names IPython gives every kernel.
IPYTHON_NAMES = {"get_ipython", "display", "In", "Out", "_", "__", "___", "exit", "quit"}


def reads_and_binds(source: str) -> tuple[set[str], set[str]]:
    """The global names a code cell reads and does not bind itself, and those it binds
    (assigned, imported, defined, or declared global and assigned in a function). IPython's %
    and ! lines are left out; builtins and IPython's own names are not reads. (A name a cell
    both reads and binds, as in ``d = d + 1``, counts as bound: the kernel run in the sweep
    sees that case.)"""
    code = "\n".join(
        "pass" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.splitlines()
    )
    reads, binds = set(), set()

    def walk(table: symtable.SymbolTable, top: bool) -> None:
        for sym in table.get_symbols():
            name = sym.get_name()
            if top and (sym.is_assigned() or sym.is_imported() or sym.is_namespace()):
                binds.add(name)
            elif top and sym.is_referenced():
                reads.add(name)
            elif not top and sym.is_declared_global() and sym.is_assigned():
                binds.add(name)
            elif not top and sym.is_global() and sym.is_referenced():
                reads.add(name)
        for child in table.get_children():
            walk(child, False)

    walk(symtable.symtable(code, "cell", "exec"), True)
    return reads - binds - set(dir(builtins)) - IPYTHON_NAMES, binds


def not_bound_by_the_core(cells: list) -> list[str]:
    """Each name a core code cell reads whose last binding above it is not a core cell's (or
    which nothing above it binds), as 'cell N reads NAME (bound last by an optional cell)'."""
    last: dict[str, str] = {}  # name: the section of the last code cell that bound it
    found = []
    for i, cell in enumerate(cells):
        if cell.cell_type != "code":
            continue
        section = cell.metadata.get("section")
        reads, binds = reads_and_binds(cell.source)
        if section == "core":
            for name in sorted(reads):
                if last.get(name) != "core":
                    by = f"an {last[name]} cell" if name in last else "no cell"
                    found.append(f"cell {i} reads {name} (bound last by {by})")
        last.update(dict.fromkeys(binds, section))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_each_core_cell_reads_only_names_the_core_above_it_bound(path):
    cells = nbformat.read(path, as_version=4).cells
    assert not_bound_by_the_core(cells) == [], path.name


def test_the_reading_finds_a_name_only_an_optional_cell_binds_or_last_rebinds():
    """The check itself, on small chapters: it can fail, and it reads Python's scopes."""
    fine = _chapter(
        ("code", "core", "import numpy as np\nd = np.zeros(3)\n%matplotlib inline"),
        ("code", "optional", "e = d + 1"),
        ("code", "core", "def f(x):\n    y = x + d\n    return y\nz = [v * 2 for v in d]"),
        ("code", "core", "print(f(1), z, len(d))"),
    )
    assert not_bound_by_the_core(fine) == []
    only_optional = _chapter(
        ("code", "core", "d = [1, 2]"),
        ("code", "optional", "e = sum(d)"),
        ("code", "core", "def g():\n    return e\nprint(g())"),
    )
    assert not_bound_by_the_core(only_optional) == [
        "cell 2 reads e (bound last by an optional cell)"
    ]
    rebound = _chapter(
        ("code", "core", "d = [1, 2]"),
        ("code", "optional", "d = [3]"),
        ("code", "core", "print([x for x in d])"),
        ("code", "core", "print(later)"),
    )
    assert not_bound_by_the_core(rebound) == [
        "cell 2 reads d (bound last by an optional cell)",
        "cell 3 reads later (bound last by no cell)",
    ]


# ---------------------------------------------------------------------------
# In the full sweep: the core cells alone, run in one kernel.


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


@pytest.mark.sweep
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


@pytest.mark.sweep
def test_a_chapter_sees_no_name_the_chapter_before_set():
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell(source)
        for source in ("x = 1", FRESH_START, "print('x' in dir())")
    ]
    run(nb, NOTEBOOKS[0].parent, figures=False)
    assert nb.cells[2].outputs[0].text == "False\n"


# ---------------------------------------------------------------------------
# The half-day core calls only what it teaches (issue 46). Each ``helpers.<name>`` and scipy
# ``stats.<name>`` that a core code cell of a half-day chapter calls must be introduced at or
# before its first use: named in backticks in a core markdown cell of a half-day chapter, in a
# sentence that does not send the learner elsewhere ("going further"), or listed in INTRODUCED.

HALF_DAY = next(p for p in ct.PLANS if p.name == "half-day").chapters
#: Each half-day plan's chapters: every core stands without the chapters its plan skips.
HALF_DAYS = {p.name: p.chapters for p in ct.PLANS if p.hours <= 4}
TICKED = re.compile(r"`([^`]*)`")
CALLED = re.compile(r"\b(?:helpers|stats)\.\w+")

#: What the half-day core introduces other than by naming it in its prose, and where: the
#: exercise engine, the figures (each draws the picture the prose beside it explains) and the
#: examples' data. A number is the half-day chapter where it first appears.
INTRODUCED = {
    "helpers.check": (0, "the check cell of each exercise (chapter 0, 'Your turn')"),
    "helpers.quiz": (0, "the multiple-choice check (chapter 0, section 5)"),
    "helpers.signed": (0, "prints a change with its sign, as +0.025"),
    "helpers.paired_differences": (0, "d_q = m_B(q) - m_A(q), the notation table above it"),
    "helpers.set_style": (1, "the series' figure style"),
    "helpers.PALETTE": (1, "the series' one colour-blind-safe palette (a shaded band)"),
    "helpers.plot_bootstrap_distribution": (1, "figure: the loop's means and their middle 95%"),
    "helpers.plot_sampling_vs_bootstrap": (1, "figure: a known truth beside the bootstrap"),
    "helpers.plot_intervals_vs_truth": (1, "figure: intervals around a known truth"),
    "helpers.plot_intervals_vs_zero": (1, "figure: the interval's ends, seed by seed"),
    "helpers.four_pair_example": (2, "the four query pairs of section 1, as data"),
    "helpers.exact_means": (2, "the 256 means of exercise 2.1, each distinct mean once"),
    "helpers.plot_exact_distribution": (2, "figure: the share of the 256 draws at each mean"),
    "helpers.resample_explorer": (2, "the slider through the 256 draws (section 4)"),
    "helpers.plot_sign_assignments": (5, "figure: the 16 sign assignments"),
    "helpers.plot_null_distribution": (5, "figure: the null distribution of the 120 queries"),
    "helpers.plot_bootstrap_beside_null": (5, "figure: chapter 1's bootstrap beside the null"),
    "helpers.plot_error_rates": (6, "figure: false claims against k, or against slices"),
    "helpers.many_tests_study": (6, "the simulation of section 2's prose: 10 slices a study"),
    "helpers.plot_decision": (6, "figure: each interval against its limit"),
    "helpers.plot_sorted_changes": (7, "figure: each query's change, sorted (the IR half-day)"),
    "helpers.quantile_difference": (6, "the ready-made guardrail intervals, a folded cell"),
    "helpers.paired_bootstrap_statistic": (6, "the ready-made guardrail intervals, as above"),
}


def called(source: str) -> list[str]:
    """The ``helpers.<name>`` and ``stats.<name>`` (or ``scipy.stats.<name>``) a code cell
    uses, in order; IPython's % and ! lines aside."""
    code = "\n".join(ln for ln in source.splitlines() if not ln.lstrip().startswith(("%", "!")))
    found = []
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id in ("helpers", "stats"):
                found.append(f"{node.value.id}.{node.attr}")
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
            inner = node.value
            if inner.attr == "stats" and isinstance(inner.value, ast.Name):
                if inner.value.id == "scipy":
                    found.append(f"stats.{node.attr}")
    return found


def introduced(markdown: str) -> set[str]:
    """The names a markdown cell introduces: in backticks, in a sentence that does not point
    "going further" (a pointer elsewhere is not teaching)."""
    names = set()
    for sentence in re.split(r"(?<=[.?!])\s+|\n\s*\n", markdown):
        if "going further" in sentence.lower():
            continue
        for span in TICKED.findall(sentence):
            names |= {n.replace("scipy.stats.", "stats.") for n in CALLED.findall(span)}
    return names


def untaught(chapters: list[tuple[str, list]]) -> list[str]:
    """Every call in the core code cells of *chapters* (name, cells), in order, that nothing
    before it introduced, as 'chapter cell N: name'; INTRODUCED counts from its chapter on, if
    that chapter is among *chapters*."""
    known: set[str] = set()
    leaks = []
    taught = {int(name[:2]) for name, _ in chapters}
    for name, cells in chapters:
        number = int(name[:2])
        known |= {k for k, (n, _) in INTRODUCED.items() if n <= number and n in taught}
        for i, cell in enumerate(cells):
            if cell.metadata.get("section") != "core":
                continue
            if "solution" in cell.metadata.get("tags", []):
                continue
            if cell.cell_type == "markdown":
                known |= introduced(cell.source)
            else:
                leaks += [f"{name} cell {i}: {c}" for c in called(cell.source) if c not in known]
    return list(dict.fromkeys(leaks))


def _half_day_chapters(plan: str = "half-day") -> list[tuple[str, list]]:
    paths = [p for p in NOTEBOOKS if int(p.name[:2]) in HALF_DAYS[plan]]
    return [(p.name, nbformat.read(p, as_version=4).cells) for p in paths]


@pytest.mark.parametrize("plan", [name for name in HALF_DAYS if name != "half-day"])
def test_every_other_half_day_core_calls_only_what_its_own_chapters_introduce(plan):
    chapters = _half_day_chapters(plan)
    leaks = untaught(chapters)
    assert not leaks, f"called before the {plan} core introduces it:\n" + "\n".join(leaks)
    skipped = [n for n in range(len(NOTEBOOKS)) if n not in HALF_DAYS[plan]]
    for name, cells in chapters:
        assert pointers_elsewhere(cells, skipped) == [], name


def test_the_half_day_core_calls_only_helpers_and_scipy_it_introduces():
    chapters = _half_day_chapters()
    leaks = untaught(chapters)
    assert not leaks, "called before the half-day core introduces it:\n" + "\n".join(leaks)
    # the table lists only what a half-day core uses, from the chapter it names
    every = {n for plan in HALF_DAYS.values() for n in plan}
    paths = [p for p in NOTEBOOKS if int(p.name[:2]) in every]
    cores = [(p.name, nbformat.read(p, as_version=4).cells) for p in reversed(paths)]
    used = {c: int(n[:2]) for n, cells in cores for c in _core_calls(cells)}
    stale = {k: v for k, v in INTRODUCED.items() if k not in used or used[k] < v[0]}
    assert not stale, f"INTRODUCED lists names the core does not use from there: {stale}"


def _core_calls(cells: list) -> list[str]:
    code = [c for c in cells if c.cell_type == "code" and c.metadata.get("section") == "core"]
    return [name for c in code for name in called(c.source)]


def _chapter(*cells: tuple[str, str, str]) -> list:
    """Cells from (type, section, source)."""
    made = []
    for kind, section, source in cells:
        cell = (nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell)(
            source
        )
        cell.metadata["section"] = section
        made.append(cell)
    return made


def test_the_check_finds_a_call_the_core_never_introduced_and_passes_one_it_did():
    """The check itself, on small chapters: a call named in backticks earlier passes; one named
    only later, only in an optional section, only "going further", or not at all, is a leak."""
    call = "exact = helpers.exact_bootstrap_distribution(d)\nstats.sem(d)"
    taught = _chapter(
        ("markdown", "core", "`helpers.exact_bootstrap_distribution(d)` weighs every resample."),
        ("markdown", "core", "The standard error is `scipy.stats.sem(d)`."),
        ("code", "core", call),
    )
    assert untaught([("01_x.ipynb", taught)]) == []
    late = _chapter(
        ("code", "core", call),
        ("markdown", "core", "`helpers.exact_bootstrap_distribution` and `stats.sem`."),
    )
    assert untaught([("01_x.ipynb", late)]) == [
        "01_x.ipynb cell 0: helpers.exact_bootstrap_distribution",
        "01_x.ipynb cell 0: stats.sem",
    ]
    elsewhere = _chapter(
        ("markdown", "optional", "`helpers.exact_bootstrap_distribution` is exact."),
        ("markdown", "core", "It is exact (`stats.sem`; going further: chapter 3)."),
        ("code", "core", call),
    )
    assert len(untaught([("06_x.ipynb", elsewhere)])) == 2
    # the table introduces a name from its chapter on, not before
    table = _chapter(("code", "core", "helpers.plot_decision(ivs)"))
    assert untaught([("06_x.ipynb", table)]) == []
    assert untaught([("05_x.ipynb", table)]) == ["05_x.ipynb cell 0: helpers.plot_decision"]


def test_a_leak_put_back_into_a_real_core_is_found():
    """Issue 46's leaks, put back where they stood: chapter 1's core calling the exact
    bootstrap (chapter 3's), chapter 6's calling a relative change and a t interval that
    only optional sections teach. Each, put first in its chapter, is found. (Chapter 6's
    quantile statistic now makes the ready-made guardrail intervals: see INTRODUCED.)"""
    chapters = dict(_half_day_chapters())
    for chapter, call in [
        ("01_paired_bootstrap.ipynb", "exact = helpers.exact_bootstrap_distribution(d)"),
        ("06_protecting_and_reporting.ipynb", "helpers.relative_change(a, b)"),
        ("06_protecting_and_reporting.ipynb", "se = stats.sem(d)"),
    ]:
        leak = _chapter(("code", "core", call))
        patched = [(n, leak + cells if n == chapter else cells) for n, cells in chapters.items()]
        assert untaught(patched) == [f"{chapter} cell 0: {call_name(call)}"]


def call_name(source: str) -> str:
    return called(source)[0]


def pointers_elsewhere(cells: list, skipped: tuple | list = (3, 4, 7)) -> list[str]:
    """Sentences of core prose that point at a chapter the plan skips (3, 4 or 7 in the
    half-day), or at one of the chapter's optional sections, other than as "going further" (the
    opening's "Builds on" and the key points' "Going deeper" list aside): 'cell N: sentence'."""
    optional = {
        m[1]
        for c in cells
        if c.metadata.get("section") == "optional" and (m := re.match(r"## (\d+)\.", c.source))
    }
    numbers = "|".join(sorted(optional) or ["-"])
    chapters = "".join(str(n) for n in skipped)
    elsewhere = re.compile(rf"\b[Cc]hapters? [{chapters}]\b|\bsections? ({numbers})\b")
    found = []
    for i, cell in enumerate(cells):
        if cell.metadata.get("section") != "core" or cell.cell_type != "markdown":
            continue
        if "<details>" in cell.source or cell.source.startswith("## Further reading"):
            continue
        text = cell.source.split("**Going deeper**")[0]
        for sentence in re.split(r"(?<=[.?!])\s+|\n", text):
            if sentence.startswith("**Builds on:**") or "going further" in sentence.lower():
                continue
            if elsewhere.search(sentence):
                found.append(f"cell {i}: {sentence[:120]}")
    return found


@pytest.mark.parametrize("name", [p.name for p in NOTEBOOKS if int(p.name[:2]) in HALF_DAY])
def test_the_half_day_core_prose_points_elsewhere_only_as_going_further(name):
    cells = dict(_half_day_chapters())[name]
    assert pointers_elsewhere(cells) == []
    # the check can fail: a core sentence that leans on chapter 3
    leaning = _chapter(("markdown", "core", "The exact interval of chapter 3 includes zero."))
    assert pointers_elsewhere(leaning) == ["cell 0: The exact interval of chapter 3 includes zero."]
