"""How long a chapter takes, by a stated model, for its core sections and in full.

The model (documented in docs/instructor-guide.md): prose is read at 110 words
a minute; each visible code line takes 15 seconds (read, run, look at the
output); each exercise takes 6 minutes and each multiple-choice check 2, so the
lines of answer, check, solution and quiz cells are not counted again. Hidden
cells and closed solutions cost nothing. A cell belongs to the core when its
``metadata["section"]`` is ``"core"``.

``python tools/chapter_times.py`` prints the table for every chapter;
``--sections`` adds each section's minutes and minute marks; ``--core`` prints each
chapter's core path: its figures, words of prose and visible code lines, and its sentences of
over 40 words;
``--update-docs`` copies each chapter's stated times into chapter 0's map and the
README's table, and rewrites the generated blocks of docs/instructor-guide.md
(the per-chapter minute marks, the summary table and the workshop plans), and
``--check-docs`` exits non-zero if they are not current.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
WORDS_PER_MINUTE = 110
SECONDS_PER_CODE_LINE = 15
MINUTES_PER_EXERCISE = 6
MINUTES_PER_QUIZ = 2
EXERCISE = re.compile(r"^\*\*Exercise (\d+)\.\*\*", re.M)
#: In a workshop, each chapter also has a live demo and one discussion (the guide says which):
#: the plans add these minutes to each chapter's slot; the chapters' own times leave them out.
DEMO_MINUTES = 3
DISCUSSION_MINUTES = 3
#: A room, not a reader: in a workshop each checked exercise is followed by a debrief at the
#: front (what most wrote, the slips the checks named), and a concept section that draws talk
#: carries its extra minutes as ``metadata["talk"]`` on its heading cell. The plans add both.
DEBRIEF_MINUTES = 2


def exercise_minutes(chapter: int, number: int) -> float:
    """Exercise ``chapter.number``'s minutes: its ``"minutes"`` in the exercise table, else
    MINUTES_PER_EXERCISE (a short "write these three lines" exercise takes less)."""
    from helpers.exercise_table import EXERCISES

    return EXERCISES.get(f"{chapter}.{number}", {}).get("minutes", MINUTES_PER_EXERCISE)


def _chapter_number(path: Path) -> int:
    return int(path.name[:2])


@dataclass(frozen=True)
class ChapterTime:
    """A chapter's minutes by the model, core and full; and what a room adds to them in a
    workshop: its checked exercises (each debriefed) and its sections' talk minutes."""

    name: str
    core: float
    full: float
    core_exercises: int = 0
    full_exercises: int = 0
    core_talk: float = 0.0
    full_talk: float = 0.0

    def room(self, full: bool, debrief: float) -> float:
        """The minutes a room adds to the chapter taught in full or core-only."""
        if full:
            return self.full_exercises * debrief + self.full_talk
        return self.core_exercises * debrief + self.core_talk


def _cell_counts(cell) -> tuple[int, int, int, int]:
    """(words of prose, visible code lines, exercises, quizzes): what the model counts in a cell."""
    tags = cell.metadata.get("tags", [])
    hidden = cell.metadata.get("jupyter", {}).get("source_hidden", False)
    if "solution" in tags:  # a closed solution block costs nothing until opened
        return 0, 0, 0, 0
    if cell.cell_type == "markdown":
        text = re.sub(r"\$[^$]*\$", " x ", cell.source)  # a formula reads as about one word
        words = len(re.findall(r"[A-Za-z0-9][\w'.,%+-]*", text))
        return words, 0, len(EXERCISE.findall(cell.source)), 0
    if "helpers.quiz(" in cell.source:  # a quiz's code is folded
        return 0, 0, 0, cell.source.count("helpers.quiz(")
    if hidden or "answer" in tags or "helpers.check(" in cell.source:
        return 0, 0, 0, 0
    return 0, len([ln for ln in cell.source.splitlines() if ln.strip()]), 0, 0


def _cell_minutes(cell, chapter: int) -> float:
    words, lines, exercises, quizzes = _cell_counts(cell)
    if exercises:
        numbers = EXERCISE.findall(cell.source)
        exercise_time = sum(exercise_minutes(chapter, int(n)) for n in numbers)
    else:
        exercise_time = 0.0
    return (
        words / WORDS_PER_MINUTE
        + lines * SECONDS_PER_CODE_LINE / 60
        + exercise_time
        + MINUTES_PER_QUIZ * quizzes
    )


def chapter_time(path: Path) -> ChapterTime:
    nb = nbformat.read(path, as_version=4)
    core, full = [0.0, 0, 0.0], [0.0, 0, 0.0]  # minutes, exercises, talk
    for cell in nb.cells:
        counted = (
            _cell_minutes(cell, _chapter_number(path)),
            _cell_counts(cell)[2],
            cell.metadata.get("talk", 0),
        )
        for total in (full, core) if cell.metadata.get("section") == "core" else (full,):
            for k, x in enumerate(counted):
                total[k] += x
    return ChapterTime(path.name, core[0], full[0], core[1], full[1], core[2], full[2])


SECTION = re.compile(r"^## (?P<title>.+?)\s*$", re.M)
MARK = re.compile(r"\s*·\s*(core|optional(?: \(going deeper\))?)\s*$")
GUIDE = ROOT / "docs" / "instructor-guide.md"


@dataclass(frozen=True)
class SectionTime:
    """One section of a chapter: its heading (no core/optional suffix), its mark and its minutes.

    ``mark`` is "core" or "optional" when every cell of the section carries that
    ``metadata["section"]``, "mixed" when they differ and "unmarked" when none
    carries one. ``core`` counts the minutes of its core cells, ``full`` all of them.
    """

    title: str
    mark: str
    core: float
    full: float


def section_times(path: Path) -> list[SectionTime]:
    """Split a chapter at its ``## `` headings and time each part by the model.

    The cells before the first heading form the "Opening" section. The sums of
    ``core`` and ``full`` over the sections equal :func:`chapter_time`'s.
    """
    nb = nbformat.read(path, as_version=4)
    groups: list[tuple[str, list]] = [("Opening", [])]
    for cell in nb.cells:
        heading = SECTION.match(cell.source) if cell.cell_type == "markdown" else None
        if heading:
            groups.append((MARK.sub("", heading.group("title")), [cell]))
        else:
            groups[-1][1].append(cell)
    out = []
    for title, cells in groups:
        if not cells:
            continue
        marks = {c.metadata.get("section") for c in cells}
        mark = (
            marks.pop()
            if len(marks) == 1 and None not in marks
            else ("unmarked" if marks == {None} else "mixed")
        )
        chapter = _chapter_number(path)
        full = sum(_cell_minutes(c, chapter) for c in cells)
        core = sum(_cell_minutes(c, chapter) for c in cells if c.metadata.get("section") == "core")
        out.append(SectionTime(title, mark, core, full))
    return out


# ---------------------------------------------------------------------------
# The core path's prose and pictures: short sentences, and figures that carry the ideas.

LONGEST_SENTENCE = 40  # words


def sentences(markdown: str) -> Iterator[str]:
    """The sentences of a markdown cell's prose. Fenced code, tables, HTML tags and headings
    are left out; a $formula$ counts as one word, and so does `code`. A sentence ends at . ? or
    ! followed by a space or a new line, or at the end of a list item or paragraph."""
    md = re.sub(r"```.*?```", " ", markdown, flags=re.S)
    md = re.sub(r"\$\$.*?\$\$", " F ", md, flags=re.S)
    md = re.sub(r"\$[^$]*\$", " F ", md)
    md = re.sub(r"`[^`]*`", " C ", md)
    md = re.sub(r"<[^>]+>", " ", md)
    for para in re.split(r"\n\s*\n|\n\s*(?:[-*]|\d+\.)\s+", md):
        lines = [ln for ln in para.splitlines() if not ln.lstrip().startswith(("#", "|"))]
        for sentence in re.split(r"(?<=[.?!])\s+", " ".join(lines)):
            if sentence.strip():
                yield sentence.strip()


def long_sentences(path: Path) -> list[tuple[int, int, str]]:
    """(cell index, words, sentence) of every core-path sentence of over LONGEST_SENTENCE words:
    the prose of core markdown cells, solutions aside."""
    return _long_sentences(nbformat.read(path, as_version=4).cells)


def _long_sentences(cells: list) -> list[tuple[int, int, str]]:
    """long_sentences of a notebook's cells."""
    found = []
    for i, cell in enumerate(cells):
        if cell.cell_type != "markdown" or cell.metadata.get("section") != "core":
            continue
        if "solution" in cell.metadata.get("tags", []):
            continue
        for sentence in sentences(cell.source):
            if len(sentence.split()) > LONGEST_SENTENCE:
                found.append((i, len(sentence.split()), sentence))
    return found


def core_figures(path: Path) -> int:
    """How many figures the core cells' stored outputs show: PNG images, and widgets whose
    static picture holds one (the resample explorer)."""
    return _core_figures(nbformat.read(path, as_version=4).cells)


def _core_figures(cells: list) -> int:
    """core_figures of a notebook's cells."""
    return sum(
        "image/png" in data or "data:image/png" in data.get("text/html", "")
        for cell in cells
        if cell.cell_type == "code" and cell.metadata.get("section") == "core"
        for data in (out.get("data", {}) for out in cell.outputs)
    )


@dataclass(frozen=True)
class CorePath:
    """What a chapter's core path holds, as the time model counts it: figures, words of prose,
    visible code lines, and sentences of over LONGEST_SENTENCE words."""

    name: str
    figures: int
    words: int
    code_lines: int
    long_sentences: int


def core_path(path: Path) -> CorePath:
    return _core_path(path.name, nbformat.read(path, as_version=4).cells)


def _core_path(name: str, cells: list) -> CorePath:
    """core_path of a notebook's cells."""
    counts = [_cell_counts(c) for c in cells if c.metadata.get("section") == "core"]
    return CorePath(
        name,
        _core_figures(cells),
        sum(c[0] for c in counts),
        sum(c[1] for c in counts),
        len(_long_sentences(cells)),
    )


def _clock(minutes: float) -> str:
    m = round(minutes)
    return f"{m // 60}:{m % 60:02d}"


def chapter_paths() -> list[Path]:
    return sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def _cell_text(text: str) -> str:
    """Text safe inside a markdown table cell."""
    return text.replace("|", "\\|")


def chapter_title(path: Path) -> str:
    nb = nbformat.read(path, as_version=4)
    return _cell_text(nb.cells[0].source.splitlines()[0].lstrip("#").strip())


def section_table(path: Path) -> str:
    """Markdown table of a chapter's sections: mark, minutes, start in a core and a full run."""
    rows = [
        "| section | mark | minutes | starts at (core run) | starts at (full run) |",
        "|---|---|---:|---:|---:|",
    ]
    at_core = at_full = 0.0
    for s in section_times(path):
        core_start = f"{_clock(at_core)}" if s.core > 0 else "skip"
        rows.append(
            f"| {_cell_text(s.title)} | {s.mark} | {s.full:.0f} | {core_start} "
            f"| {_clock(at_full)} |"
        )
        at_core += s.core
        at_full += s.full
    rows.append(f"| **total** | | | **{at_core:.0f} min core** | **{at_full:.0f} min full** |")
    return "\n".join(rows)


def summary_table(paths: list[Path]) -> str:
    rows = ["| chapter | core (min) | full (min) | optional (min) |", "|---|---:|---:|---:|"]
    total_core = total_full = 0.0
    for p in paths:
        t = chapter_time(p)
        total_core += t.core
        total_full += t.full
        rows.append(f"| {chapter_title(p)} | {t.core:.0f} | {t.full:.0f} | {t.full - t.core:.0f} |")
    rows.append(
        f"| **all chapters** | **{total_core:.0f}** | **{total_full:.0f}** "
        f"| **{total_full - total_core:.0f}** |"
    )
    return "\n".join(rows)


# ---------------------------------------------------------------------------
# Workshop plans, counted by the same model.


@dataclass(frozen=True)
class Break:
    """A pause of ``minutes``, at the chapter boundary closest to ``at`` minutes from the start."""

    label: str
    minutes: int
    at: int


@dataclass(frozen=True)
class Plan:
    """A workshop: a setup slot, chapters taught core-only or in full, breaks, a closing slot,
    within ``hours`` and leaving ``free`` minutes unplanned (for questions).

    ``full_if_it_fits`` lists chapters (by number) whose optional sections are
    added, in that order, while the plan still fits; the others stay core-only.
    ``demo_and_discussion`` minutes are added to each chapter's slot, and so are ``debrief``
    minutes for each checked exercise it teaches and its sections' talk minutes. ``in_setup`` lists
    chapters (by number) whose core is worked in the setup slot, while laptops start: the slot
    then lasts the setup's minutes or their cores', whichever is longer, and has no demo.
    """

    name: str
    hours: float
    chapters: tuple[int, ...]
    breaks: tuple[Break, ...]
    closing: tuple[str, int]
    homework: str
    full_if_it_fits: tuple[int, ...] = ()
    setup: tuple[str, int] | None = None
    free: int = 0
    #: minutes added to each chapter's slot: the live demo and the discussion
    demo_and_discussion: int = 0
    in_setup: tuple[int, ...] = ()
    debrief: float = 0

    @property
    def budget(self) -> float:
        """The minutes the plan may fill: its hours, less the free minutes."""
        return self.hours * 60 - self.free


SETUP = (
    "Setup: everyone runs make lab, opens chapter 0 in the lab copy and runs it (its quiz "
    "answering back shows the widgets work)",
    15,
)
#: The half-day folds chapter 0 into the setup slot: its exercise 0.1 is the warm-up while the
#: last laptops start, and its quiz shows that the widgets work.
SETUP_WITH_CHAPTER_0 = (
    "Setup and chapter 0: everyone runs make lab and works chapter 0 in the lab copy while the "
    "last laptops start (exercise 0.1 is the warm-up; its quiz answering back shows the "
    "widgets work)",
    25,
)
#: A room's half-day: 30 people back from a stretch take 10 minutes, not 5.
HALF_DAY_BREAKS = (Break("Break", 15, 70), Break("Stretch", 10, 160))
#: What every half-day shares: four hours with a break and a stretch, chapter 0 worked in the
#: setup slot, 15 minutes left free for questions, and a room's demo, discussion and debriefs.
HALF_DAY = dict(
    hours=4,
    breaks=HALF_DAY_BREAKS,
    setup=SETUP_WITH_CHAPTER_0,
    free=15,
    demo_and_discussion=DEMO_MINUTES + DISCUSSION_MINUTES,
    in_setup=(0,),
    debrief=DEBRIEF_MINUTES,
)

PLANS = (
    Plan(
        name="half-day",
        chapters=(0, 1, 2, 5, 6),
        closing=("Wrap-up: chapter 7's three-line recipe shown on the example runs", 5),
        homework=(
            "Chapters 3 (the exact bootstrap and coverage), 4 (user clusters) and 7 (your own "
            "runs), and every optional section, as homework or in the full day."
        ),
        **HALF_DAY,
    ),
    Plan(
        name="IR half-day",
        chapters=(0, 1, 5, 7),
        closing=(
            "Wrap-up: questions; chapter 6's key points read aloud (selection, Holm, the plan)",
            10,
        ),
        homework=(
            "Chapters 2 (all 256 resamples), 3, 4 and 6 (protecting the comparison), and every "
            "optional section, as homework: chapter 6's core first."
        ),
        **HALF_DAY,
    ),
    Plan(
        name="full-day",
        hours=8,
        chapters=(0, 1, 2, 3, 4, 5, 6, 7),
        breaks=(Break("Break", 15, 90), Break("Lunch", 60, 180), Break("Break", 15, 330)),
        closing=("Wrap-up: questions; learners start on their own runs", 15),
        homework="The optional sections of the chapters taught core-only above, for self-study.",
        full_if_it_fits=(1, 7, 6, 3, 5, 2, 4, 0),
        setup=SETUP,
        demo_and_discussion=DEMO_MINUTES + DISCUSSION_MINUTES,
        debrief=DEBRIEF_MINUTES,
    ),
)


def _schedule(
    plan: Plan, times: dict[int, ChapterTime], full: set[int]
) -> list[tuple[str, str, float]]:
    """(what, part, minutes) rows of a plan, each break at the chapter boundary closest its time."""
    rows, at, pending = [], 0.0, list(plan.breaks)
    if plan.setup:
        folded = [
            math.ceil(times[n].core + times[n].room(False, plan.debrief)) for n in plan.in_setup
        ]
        minutes = max([plan.setup[1], sum(folded)])
        part = ", ".join(f"chapter {n} core" for n in plan.in_setup)
        rows.append((plan.setup[0], part, float(minutes)))
        at += minutes
    for n in plan.chapters:
        if n in plan.in_setup and plan.setup:
            continue
        t = times[n]
        room = t.room(n in full, plan.debrief)
        minutes = math.ceil((t.full if n in full else t.core) + room) + plan.demo_and_discussion
        # break before this chapter if that is closer to the break's time than after it
        while pending and at + minutes - pending[0].at > pending[0].at - at:
            b = pending.pop(0)
            rows.append((b.label, "", float(b.minutes)))
            at += b.minutes
        rows.append((f"Chapter {n}", "full" if n in full else "core", float(minutes)))
        at += minutes
    for b in pending:  # breaks the chapters never reached still happen (before the wrap-up)
        rows.append((b.label, "", float(b.minutes)))
    rows.append((plan.closing[0], "", float(plan.closing[1])))
    return rows


def plan_rows(plan: Plan, paths: list[Path] | None = None) -> list[tuple[str, str, float]]:
    """The plan's rows, each chapter's minutes rounded up to the whole minute, with as many
    chapters taught in full (in ``full_if_it_fits`` order) as fit within its budget (its hours
    less its free minutes). A plan whose chapters do not fit even core-only is an error."""
    paths = chapter_paths() if paths is None else paths
    times = {int(p.name[:2]): chapter_time(p) for p in paths}
    missing = [n for n in plan.chapters if n not in times]
    if missing:
        raise ValueError(
            f"plan {plan.name!r} names chapters {missing} that are not in notebooks/: "
            f"edit PLANS in {__file__}"
        )
    full: set[int] = set()
    for n in plan.full_if_it_fits:
        if (
            n in plan.chapters
            and sum(r[2] for r in _schedule(plan, times, full | {n})) <= plan.budget
        ):
            full.add(n)
    rows = _schedule(plan, times, full)
    total = sum(r[2] for r in rows)
    if total > plan.budget:
        raise ValueError(
            f"the {plan.name} plan takes {total:.0f} minutes by the model, more than its "
            f"{plan.budget:.0f} ({plan.hours * 60:.0f} less {plan.free} free): move a chapter to "
            f"its homework, or shorten the chapters' cores; PLANS is in {__file__}"
        )
    return rows


def plan_total(plan: Plan, paths: list[Path] | None = None) -> float:
    return sum(r[2] for r in plan_rows(plan, paths))


def plan_table(plan: Plan, paths: list[Path] | None = None) -> str:
    paths = chapter_paths() if paths is None else paths
    titles = {int(p.name[:2]): chapter_title(p) for p in paths}
    rows = ["| starts at | what | part | minutes |", "|---:|---|---|---:|"]
    at = 0.0
    plan_schedule = plan_rows(plan, paths)
    for what, part, minutes in plan_schedule:
        if what.startswith("Chapter "):
            what = titles[int(what.split()[1])]
        rows.append(f"| {_clock(at)} | {what} | {part} | {minutes:.0f} |")
        at += minutes
    free = plan.hours * 60 - at
    rows.append(
        f"| {_clock(at)} | **End** (total {at:.0f} of {plan.hours * 60:.0f} minutes; "
        f"{free:.0f} free for questions) | | |"
    )
    text = "\n".join(rows)
    if plan.demo_and_discussion:
        text += (
            f"\n\nEach chapter's minutes include {plan.demo_and_discussion} for its live demo "
            "and one discussion (the chapter's notes below say which)."
        )
    exercises = _plan_exercises(plan, paths, plan_schedule)
    if exercises:
        listed = "; ".join(
            f"{n} ({minutes:g} min{', optional' if section != 'core' else ''})"
            for n, minutes, section in exercises
        )
        total = sum(m for _, m, _ in exercises)
        text += f"\n\nChecked exercises: {len(exercises)}, {total:g} minutes in all: {listed}."
    return text + f"\n\n{plan.homework}"


def plan_exercises(plan: Plan, paths: list[Path] | None = None) -> list[tuple[str, float, str]]:
    """(exercise key, minutes, section) of every checked exercise the plan teaches: those in the
    core of its core-only chapters and all of those of the chapters it teaches in full."""
    paths = chapter_paths() if paths is None else paths
    return _plan_exercises(plan, paths, plan_rows(plan, paths))


def _plan_exercises(plan: Plan, paths: list[Path], schedule: list) -> list[tuple[str, float, str]]:
    """plan_exercises, given the plan's rows (which say the chapters it teaches in full)."""
    full = {int(what.split()[1]) for what, part, _ in schedule if part == "full"}
    out = []
    for p in paths:
        n = _chapter_number(p)
        if n not in plan.chapters:
            continue
        for cell in nbformat.read(p, as_version=4).cells:
            section = cell.metadata.get("section")
            if cell.cell_type != "markdown" or (section != "core" and n not in full):
                continue
            for number in EXERCISE.findall(cell.source):
                out.append((f"{n}.{number}", exercise_minutes(n, int(number)), section))
    return out


def generated_blocks(paths: list[Path] | None = None) -> dict[str, str]:
    """Every generated block of docs/instructor-guide.md, by marker name."""
    paths = chapter_paths() if paths is None else paths
    blocks = {"summary": summary_table(paths)}
    for plan in PLANS:
        blocks[f"plan:{plan.name}"] = plan_table(plan, paths)
    for p in paths:
        blocks[f"chapter:{p.stem}"] = section_table(p)
    return blocks


def _markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- generated:{name}:start (python tools/chapter_times.py --update-docs) -->",
        f"<!-- generated:{name}:end -->",
    )


def render_docs(text: str, blocks: dict[str, str]) -> str:
    """Replace each generated block of the guide's text; a block with no markers is an error."""
    for name, body in blocks.items():
        start, end = _markers(name)
        if start not in text or end not in text:
            raise ValueError(
                f"docs/instructor-guide.md has no block {name!r}: add the two lines\n"
                f"{start}\n{end}\n"
                "where it belongs (for a new chapter: under its heading), "
                "then run --update-docs again."
            )
        before, rest = text.split(start, 1)
        _, after = rest.split(end, 1)
        text = f"{before}{start}\n{body}\n{end}{after}"
    return text


STATED = re.compile(r"core about (\d+) minutes, full about (\d+) minutes")
MAP_ROW = re.compile(
    r"\]\((notebooks/)?(\d\d_[a-z0-9_]+\.ipynb)\) (\|[^\n]*?\| )\d+ min \| \d+ min \|"
)


def update_maps(paths: list[Path]) -> None:
    """Write each chapter's stated core and full times into chapter 0's map and README's table."""
    stated = {}
    for p in paths:
        m = STATED.search(nbformat.read(p, as_version=4).cells[0].source)
        stated[p.name] = m.groups() if m else None

    def row(m: re.Match) -> str:
        times = stated.get(m.group(2))
        if times is None:
            return m.group(0)
        return f"]({m.group(1) or ''}{m.group(2)}) {m.group(3)}{times[0]} min | {times[1]} min |"

    readme = ROOT / "README.md"
    readme.write_text(MAP_ROW.sub(row, readme.read_text(encoding="utf-8")), encoding="utf-8")
    start = paths[0]
    nb = nbformat.read(start, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "markdown" and re.match(r"## \d+\. The chapters", cell.source):
            cell.source = MAP_ROW.sub(row, cell.source)
    nbformat.write(nb, start)


def main() -> int:
    args = sys.argv[1:]
    paths = chapter_paths()
    if "--update-docs" in args:
        update_maps(paths)
    if "--update-docs" in args or "--check-docs" in args:
        old = GUIDE.read_text(encoding="utf-8")
        new = render_docs(old, generated_blocks(paths))
        if "--check-docs" in args:
            if new != old:
                print(
                    "docs/instructor-guide.md is out of date: "
                    "run python tools/chapter_times.py --update-docs"
                )
                return 1
            print("docs/instructor-guide.md is current")
            return 0
        GUIDE.write_text(new, encoding="utf-8")
        for plan in PLANS:
            print(f"{plan.name}: {plan_total(plan, paths):.0f} of {plan.hours * 60:.0f} minutes")
        print(f"updated {GUIDE.relative_to(ROOT)}")
        return 0
    if "--sections" in args:
        for p in paths:
            print(f"\n{p.name}\n{section_table(p)}")
        return 0
    if "--core" in args:
        print(f"{'chapter':<36} {'figures':>7} {'words':>6} {'code':>5} {'long':>5}  (core path)")
        for p in paths:
            cells = nbformat.read(p, as_version=4).cells
            c = _core_path(p.name, cells)
            print(
                f"{c.name:<36} {c.figures:7d} {c.words:6d} {c.code_lines:5d} {c.long_sentences:5d}"
            )
            for i, n, sentence in _long_sentences(cells):
                print(f"    cell {i}, {n} words: {sentence[:70]}...")
        return 0
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
