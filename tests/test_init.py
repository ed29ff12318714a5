"""helpers/__init__.py: the package's public face and the kind of object its helpers return."""

from __future__ import annotations

import dataclasses
import inspect
import json
import re
from pathlib import Path

import helpers

ROOT = Path(__file__).resolve().parent.parent
MODULES = {name for name, obj in vars(helpers).items() if inspect.ismodule(obj)}
#: Tuples by nature, so NamedTuples (frozen too): an interval's two ends and two table rows.
TUPLES = {"Interval", "SliceRow", "QueryChange"}


def _names_used() -> set[str]:
    """Every ``helpers.<name>`` the chapters, the README and docs/ write."""
    texts = [
        "".join(cell["source"])
        for path in sorted((ROOT / "notebooks").glob("*.ipynb"))
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]
    ]
    texts += [p.read_text(encoding="utf-8") for p in [ROOT / "README.md", *ROOT.glob("docs/*.md")]]
    return {name for text in texts for name in re.findall(r"\bhelpers\.([A-Za-z_]\w*)", text)}


def test_all_is_exactly_what_the_chapters_the_readme_and_the_docs_use():
    used = _names_used() - MODULES
    assert used, "no helpers.<name> found: the search itself is broken"
    assert sorted(used - set(helpers.__all__)) == [], "used but not in helpers.__all__"
    assert sorted(set(helpers.__all__) - used) == [], "in helpers.__all__ but used nowhere"
    assert all(hasattr(helpers, name) for name in helpers.__all__)


def _classes() -> dict[str, type]:
    return {
        name: obj
        for module in MODULES
        for name, obj in vars(getattr(helpers, module)).items()
        if inspect.isclass(obj) and obj.__module__ == getattr(helpers, module).__name__
    }


def test_every_result_is_a_frozen_dataclass_or_one_of_the_three_tuples():
    classes = _classes()
    tuples = {n for n, c in classes.items() if issubclass(c, tuple)}
    assert tuples == TUPLES
    for name, cls in classes.items():
        if name in TUPLES or not dataclasses.is_dataclass(cls):
            continue
        assert cls.__dataclass_params__.frozen, f"{cls.__module__}.{name} is not frozen"
    results = {"ClusterTotals", "ExactDistribution", "HolmResult", "SignificanceResult"}
    assert results <= {n for n, c in classes.items() if dataclasses.is_dataclass(c)}
