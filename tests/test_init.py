"""helpers/__init__.py: the package's public face, the kind of object its helpers return, and
how large the package may grow."""

from __future__ import annotations

import ast
import dataclasses
import inspect
import io
import json
import re
import tokenize
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


#: What helpers/ may weigh, the exercise table and its engine aside (issue 39): a change that needs
#: more lines makes room first, or raises the budget in a reviewed change of its own, saying why.
MAX_LINES = 6_980  # issue 48's correctness checks: 6,971 lines (144 more than 6,827)
#: The longest a public function may be: its signature and body, without docstring, comments
#: and blank lines.
MAX_CODE_LINES = 60
EXERCISES = {"exercise_table.py", "exercises.py"}


def _code_lines(function: ast.FunctionDef, lines: list[str], comments: set[int]) -> int:
    span = set(range(function.lineno, function.end_lineno + 1))
    first = function.body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):  # the docstring
        span -= set(range(first.lineno, first.end_lineno + 1))
    return sum(1 for i in span - comments if lines[i - 1].strip())


def test_helpers_stay_within_their_size_and_every_public_function_is_short():
    sizes, long = {}, []
    for path in sorted((ROOT / "helpers").glob("*.py")):
        if path.name in EXERCISES:
            continue
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        sizes[path.name] = len(lines)
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        comments = {t.start[0] for t in tokens if t.type == tokenize.COMMENT}
        comments = {i for i in comments if lines[i - 1].lstrip().startswith("#")}
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                if (n := _code_lines(node, lines, comments)) > MAX_CODE_LINES:
                    long.append(f"{path.name}:{node.lineno} {node.name} ({n} code lines)")
    assert len(sizes) >= 15, "too few modules found: the count itself is broken"
    total = sum(sizes.values())
    biggest = ", ".join(f"{k} {v}" for k, v in sorted(sizes.items(), key=lambda kv: -kv[1])[:3])
    assert total <= MAX_LINES, f"helpers/ has {total:,} lines, over {MAX_LINES:,} ({biggest})"
    assert long == [], f"public functions over {MAX_CODE_LINES} code lines: {long}"
