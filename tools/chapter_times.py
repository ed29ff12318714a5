"""How long a chapter takes, by a stated model, for its core sections and in full.

The model (documented in docs/instructor-guide.md): prose is read at 110 words
a minute; each visible code line takes 15 seconds (read, run, look at the
output); each exercise takes 6 minutes and each multiple-choice check 2, so the
lines of answer, check, solution and quiz cells are not counted again. Hidden
cells (folded solutions) cost nothing. A cell belongs to the core when its
``metadata["section"]`` is ``"core"``.

``python tools/chapter_times.py`` prints the table for every chapter.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
WORDS_PER_MINUTE = 110
SECONDS_PER_CODE_LINE = 15
MINUTES_PER_EXERCISE = 6
MINUTES_PER_QUIZ = 2
EXERCISE = re.compile(r"^\*\*Exercise \d+\.\*\*", re.M)


@dataclass(frozen=True)
class ChapterTime:
    name: str
    core: float
    full: float


def _cell_minutes(cell) -> float:
    tags = cell.metadata.get("tags", [])
    hidden = cell.metadata.get("jupyter", {}).get("source_hidden", False)
    if cell.cell_type == "markdown":
        text = re.sub(r"\$[^$]*\$", " x ", cell.source)  # a formula reads as about one word
        minutes = len(re.findall(r"[A-Za-z0-9][\w'.,%+-]*", text)) / WORDS_PER_MINUTE
        return minutes + MINUTES_PER_EXERCISE * len(EXERCISE.findall(cell.source))
    if hidden or "answer" in tags or "solution" in tags or "helpers.check(" in cell.source:
        return 0.0
    if "helpers.quiz(" in cell.source:
        return MINUTES_PER_QUIZ * cell.source.count("helpers.quiz(")
    lines = [ln for ln in cell.source.splitlines() if ln.strip()]
    return len(lines) * SECONDS_PER_CODE_LINE / 60


def chapter_time(path: Path) -> ChapterTime:
    nb = nbformat.read(path, as_version=4)
    core = full = 0.0
    for cell in nb.cells:
        m = _cell_minutes(cell)
        full += m
        if cell.metadata.get("section") == "core":
            core += m
    return ChapterTime(path.name, core, full)


def main() -> int:
    paths = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print(f"{'chapter':<36} {'core':>6} {'full':>6}  (minutes, by the model)")
    total_core = total_full = 0.0
    for p in paths:
        t = chapter_time(p)
        total_core += t.core
        total_full += t.full
        print(f"{t.name:<36} {t.core:6.1f} {t.full:6.1f}")
    print(f"{'all chapters':<36} {total_core:6.1f} {total_full:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
