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
import types
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

# The maintainers' tools (tools/notebook_tools.py, tools/chapter_times.py) are scripts,
# not part of the helpers package; the tests import them from tools/.
ROOT = Path(__file__).resolve().parent
TOOLS = ROOT / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--browser-required",
        action="store_true",
        default=False,
        help="Fail, not skip, the browser tests when no Chromium is found (what CI uses).",
    )


#: The test files that take longest, run first so that make test's workers finish together:
#: with `--dist loadfile --no-loadscope-reorder` pytest-xdist hands out whole files in this order.
#: The browser tests work through every chapter twice from the learner's seat, mostly waiting
#: for the browser and the kernel, so they are two files (chapters 4-7, chapters 0-3 with the
#: explorer), one per worker, each with its own JupyterLab; then each chapter's core cells alone,
#: a fresh kernel each (about 25 s of CPU, half of it starting the kernels); then the answer key
#: (every solution run in its chapter).
SLOWEST_FIRST = (
    "tests/browser/test_chapters_4_to_7.py",
    "tests/browser/test_chapters_0_to_3.py",
    "tests/test_core_path.py",
    "tests/test_answer_key.py",
    "tests/test_html.py",
    "notebooks/",
)


def _run_order(item: pytest.Item) -> int:
    if not item.path.is_relative_to(ROOT):
        return len(SLOWEST_FIRST)
    path = item.path.relative_to(ROOT).as_posix()
    return next((i for i, p in enumerate(SLOWEST_FIRST) if path.startswith(p)), len(SLOWEST_FIRST))


#: `-n auto` (make test) starts at least this many workers. The two browser files, one per worker,
#: are mostly waiting for Chromium, JupyterLab and the kernel: on two cores they leave about one
#: core idle for their minute, and a third worker runs the answer key, the static pages, the
#: notebooks and the unit tests in it, at a lower priority (see pytest_runtest_protocol).
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
    (and its kernels', which inherit it): the browser files set the pace of make test, and the
    CPU they leave idle is enough for the rest. Only where the system has `os.nice` (not Windows).
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=_run_order)  # stable: a notebook's cells stay in order
    seen = set()
    for item in items:
        parent = item.parent
        if parent is None or id(parent) in seen or not hasattr(parent, "skip_compare"):
            continue
        seen.add(id(parent))
        # Compare PNG figures byte for byte as well (nbval leaves them out unless told).
        parent.skip_compare = tuple(k for k in parent.skip_compare if k != "image/png")
