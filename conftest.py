"""Test configuration for the whole repository (unit tests, doctests and notebooks).

nbval skips image outputs by default; the series promises stored outputs that
reproduce to the byte, so figures are compared too (matplotlib's Agg renderer is
deterministic for pinned versions). See ``pytest_collection_modifyitems``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

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


#: The test files that take longest, run first so that make test's two workers finish together:
#: with `--dist loadfile --no-loadscope-reorder` pytest-xdist hands out whole files in this order.
#: The browser tests work through every chapter twice from the learner's seat, mostly waiting
#: for the browser and the kernel, so they are two files (chapters 4-7, chapters 0-3 with the
#: explorer), one per worker, each with its own JupyterLab; then each chapter's core cells alone,
#: a fresh kernel each (about 40 s of CPU, half of it starting the kernels); then the answer key
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
