"""Test configuration for the whole repository (unit tests, doctests and notebooks).

nbval skips image outputs by default; the series promises stored outputs that
reproduce to the byte, so figures are compared too (matplotlib's Agg renderer is
deterministic for pinned versions). See ``pytest_collection_modifyitems``.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import tempfile
import types
from collections import defaultdict
from pathlib import Path

import pytest


def _build_the_iri_grammar_on_first_use() -> None:
    """Let jsonschema build its IRI grammar only if something checks an IRI.

    nbval and the tests import nbformat, which imports jsonschema, which imports rfc3987_syntax
    (jupyter-server's dependency), which compiles a Lark grammar at import time: 2.3 s of CPU in
    every pytest process, about a third of a worker's start, for a check no test makes
    (jsonschema issue #1428). Until its first call, jsonschema gets a stand-in whose one function
    imports the real module.
    """
    name = "rfc3987_syntax"
    if name in sys.modules or importlib.util.find_spec(name) is None:
        return
    stand_in = types.ModuleType(name)

    def is_valid_syntax(*args, **kwargs):
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
        return importlib.import_module(name).is_valid_syntax(*args, **kwargs)

    stand_in.is_valid_syntax = is_valid_syntax
    sys.modules[name] = stand_in


# Before nbval imports nbformat: pyproject.toml's addopts keep pytest from loading nbval at start
# (-p no:nbval), and this file loads it once the stand-in is in place.
_build_the_iri_grammar_on_first_use()
pytest_plugins = ("nbval.plugin",)
import nbformat  # noqa: E402 (after the stand-in)
from nbval.plugin import IPyNbCell, IPyNbFile  # noqa: E402

# The maintainers' tools (tools/notebook_tools.py, tools/chapter_times.py) are scripts,
# not part of the helpers package; the tests import them from tools/. The chapters' answer-key
# pages are checked by tests/test_answer_key.py's function (see AnswerKeyPageItem).
ROOT = Path(__file__).resolve().parent
for folder in (ROOT / "tools", ROOT / "tests"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


def pytest_configure(config: pytest.Config) -> None:
    # here rather than in pyproject.toml's markers, beside the run order that names its files
    config.addinivalue_line(
        "markers",
        "sweep: the full sweep (make test-browser, which CI runs; make test leaves it out, -m "
        "'not sweep'): every chapter worked through twice in the browser (make test runs "
        "tests/browser/test_smoke.py instead), and the checks of heavy paths that no chapter "
        "reaches or that change rarely, each beside a cheaper check in make test where one can "
        "stand in (docs/maintaining.md lists them)",
    )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--browser-required",
        action="store_true",
        default=False,
        help="Fail, not skip, the browser tests when no Chromium is found (what CI uses).",
    )


def write_static_site(out: Path) -> Path:
    """What `make html` writes, into ``out``: tools/notebook_tools.py --html run as a script, in
    this process (runpy, so that the answer key's export on the same worker reuses its imports)."""
    import runpy

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "argv", ["notebook_tools.py", "--html", str(out)])
        runpy.run_path(str(ROOT / "tools" / "notebook_tools.py"), run_name="__main__")
    return out


@pytest.fixture(scope="session")
def static_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real pages (:func:`write_static_site`), once per session for every check of them, all
    in the full sweep (tests/test_html.py's that need the explorer's real pictures,
    tests/browser/test_static_*.py): drawing the explorer's 35 pictures takes about 20 s of CPU,
    exporting the eight chapters about 10 s. make test checks the pages with stand-ins for those
    pictures (tests/test_html.py: site)."""
    return write_static_site(tmp_path_factory.mktemp("site"))


#: The test files that take longest, run first so that the workers finish together: with
#: `--dist loadfile --no-loadscope-reorder` pytest-xdist hands out whole files in this order (a
#: worker gets its next file when two tests of its file are left), and the many small files fill
#: in at the end. make test-browser's two files work through every chapter twice from the
#: learner's seat, mostly waiting for the browser and the kernel, one per worker, each with its
#: own JupyterLab (chapters 4-7 are the longer half); the rest of the sweep follows, the core
#: cells' kernel and the real static pages first. In make test (which leaves the sweep out, -m
#: 'not sweep') the browser smoke test goes first, then the chapters under nbval (each with its
#: solutions and answer-key page, one file each) and the longest unit tests, longest first by
#: their wall time in make test (measured on 2026-12-07).
SLOWEST_FIRST = (
    "tests/browser/test_chapters_4_to_7.py",
    "tests/browser/test_chapters_0_to_3.py",
    "tests/browser/test_smoke.py",
    "tests/test_core_path.py",
    "tests/test_html.py",
    "notebooks/06_",
    "tests/test_planning.py",
    "notebooks/03_",
    "tests/runs/test_scoring.py",
    "notebooks/04_",
    "tests/test_run.py",
    "notebooks/05_",
    "tests/test_widgets.py",
    "notebooks/01_",
    "notebooks/07_",
    "tests/test_exercises.py",
    "notebooks/",
)


def _run_order(item: pytest.Item) -> int:
    if not item.path.is_relative_to(ROOT):
        return len(SLOWEST_FIRST)
    path = item.path.relative_to(ROOT).as_posix()
    return next((i for i, p in enumerate(SLOWEST_FIRST) if path.startswith(p)), len(SLOWEST_FIRST))


#: `-n auto` (make test) starts at least this many workers. The browser smoke test's worker
#: mostly waits for Chromium, JupyterLab and the kernel, so two more workers run the notebooks
#: (with their solutions), the static pages and the unit tests meanwhile, at a lower priority
#: (see pytest_runtest_protocol).
MIN_AUTO_WORKERS = 3


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook; -p no:xdist runs without it
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(cores or 1, MIN_AUTO_WORKERS)


_first_test = True


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """A worker that starts on other tests while browser tests run elsewhere lowers its priority
    (and its kernels', which inherit it): a browser test waits on Chromium and its kernel at every
    step, so it gets the CPU first, and what it leaves idle is enough for the rest. Only where the
    system has `os.nice` (not Windows).
    """
    global _first_test
    if not _first_test:
        return
    _first_test = False
    if (
        hasattr(os, "nice")
        and os.environ.get("PYTEST_XDIST_WORKER")
        and "browser" not in item.keywords
        and any("browser" in other.keywords for other in item.session.items)
    ):
        os.nice(10)


# -- The answer key, in the kernels nbval runs the chapters in --------------------------------
# Each solution runs where it stands in its chapter, after the cells above it, in the kernel that
# nbval runs the chapter in: no chapter runs a second time for its answer key. It runs in a copy
# of the chapter's names, so that nothing it sets reaches the cells below it (whose outputs nbval
# still compares with the stored ones), and its check must say it is correct. Last, the chapter's
# answer-key page (make answers) is written with those outputs and must show every solution.

#: What the kernel runs for a solution: its code (from helpers/exercise_table.py), then its check.
SOLUTION_RUNNER = """\
def _solution():  # the answer key's solution {key}, in a copy of the chapter's names
    names = dict(get_ipython().user_ns)
    exec(compile({source!r}, "solution {key}", "exec"), names)
    display(names["helpers"].check({key!r}, names[{name!r}]))
_solution()
del _solution
"""


class SolutionItem(IPyNbCell):
    """Exercise ``key``'s solution, run in its chapter's kernel; its check must say correct."""

    def __init__(self, *, key: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self.key = key

    def runtest(self) -> None:
        super().runtest()  # nbval runs it; an error fails it, naming the solution
        said = "".join(o.get("data", {}).get("text/plain", "") for o in self.test_outputs)
        assert f"Exercise {self.key}: correct." in said, f"{self.key}'s solution: {said!r}"
        self.parent.solution_outputs[self.key] = self.test_outputs

    def repr_failure(self, excinfo):
        if excinfo.errisinstance(AssertionError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"{self.parent.name}::Solution {self.key}"


class AnswerKeyPageItem(pytest.Item):
    """The chapter's answer-key page, with the solutions' outputs, shows every solution."""

    def runtest(self) -> None:
        from test_answer_key import check_answer_key_page

        with tempfile.TemporaryDirectory() as out:
            check_answer_key_page(self.path, self.parent.solution_outputs, Path(out))

    def repr_failure(self, excinfo):
        return excinfo.getrepr(style="short")

    def reportinfo(self):
        return self.path, None, f"{self.parent.name}::answer key page"


def _with_the_answer_key(chapter: IPyNbFile, cells: list[pytest.Item]) -> list[pytest.Item]:
    """The chapter's cells with each solution after the cell above it, and the page last."""
    from notebook_tools import solution_places

    from helpers.exercise_table import EXERCISES

    chapter.solution_outputs = {}
    places = solution_places(chapter.path, chapter.nb)
    if not places:
        return cells
    out = list(cells)
    for above, key in reversed(places):
        ex = EXERCISES[key]
        source = SOLUTION_RUNNER.format(key=key, source=ex["solution"].strip(), name=ex["name"])
        cell = nbformat.v4.new_code_cell(source)  # unrun: nbval compares no output of it
        item = SolutionItem.from_parent(
            chapter,
            name=f"Solution {key}",
            key=key,
            cell_num=above,
            cell=cell,
            options=defaultdict(bool, check=False),
        )
        out.insert(next((i for i, c in enumerate(out) if c.cell_num >= above), len(out)), item)
    out.append(AnswerKeyPageItem.from_parent(chapter, name="answer key page"))
    return out


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    notebooks: dict[int, list[pytest.Item]] = {}  # each nbval file's items, in order
    for item in items:
        if hasattr(item.parent, "skip_compare"):
            notebooks.setdefault(id(item.parent), []).append(item)
    for cells in notebooks.values():
        notebook = cells[0].parent
        # Compare PNG figures byte for byte as well (nbval leaves them out unless told).
        notebook.skip_compare = tuple(k for k in notebook.skip_compare if k != "image/png")
        if isinstance(notebook, IPyNbFile) and notebook.path.parent == ROOT / "notebooks":
            first = items.index(cells[0])
            items[first : first + len(cells)] = _with_the_answer_key(notebook, cells)
    items.sort(key=_run_order)  # stable: a notebook's cells stay in order
