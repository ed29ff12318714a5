"""Test configuration for the whole repository (unit tests, doctests and notebooks).

nbval skips image outputs by default; the series promises stored outputs that
reproduce to the byte, so figures are compared too (matplotlib's Agg renderer is
deterministic for pinned versions). See ``pytest_collection_modifyitems``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

# The maintainers' tools (tools/notebook_tools.py, tools/chapter_times.py) are scripts,
# not part of the helpers package; the tests import them from tools/.
TOOLS = Path(__file__).resolve().parent / "tools"
if str(TOOLS) not in sys.path:
    sys.path.insert(0, str(TOOLS))


# pytrec-eval-terrier (trec_eval's code, behind helpers.evaluate) has no wheel for Linux arm64,
# where the lock leaves it out: there the tests that need it, and chapter 7, are skipped with
# this reason instead of failing (docs/portability.md).
HAS_TREC_EVAL = importlib.util.find_spec("pytrec_eval") is not None
NO_TREC_EVAL = (
    "pytrec-eval-terrier is not installed (no wheel for Linux arm64): helpers.evaluate and "
    "chapter 7 need it; see docs/portability.md"
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "trec_eval: needs pytrec-eval-terrier (helpers.evaluate)")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--browser-required",
        action="store_true",
        default=False,
        help="Fail, not skip, the browser tests when no Chromium is found (what CI uses).",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    seen = set()
    for item in items:
        if not HAS_TREC_EVAL and (
            "trec_eval" in item.keywords or item.path.name == "07_your_own_runs.ipynb"
        ):
            item.add_marker(pytest.mark.skip(reason=NO_TREC_EVAL))
        parent = item.parent
        if parent is None or id(parent) in seen or not hasattr(parent, "skip_compare"):
            continue
        seen.add(id(parent))
        # Compare PNG figures byte for byte as well (nbval leaves them out unless told).
        parent.skip_compare = tuple(k for k in parent.skip_compare if k != "image/png")
