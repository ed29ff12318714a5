"""The time model's per-section minutes, the workshop plans and the instructor guide's blocks."""

import dataclasses
import itertools
import math
from pathlib import Path

import chapter_times as ct  # tools/ is on sys.path for the tests (conftest.py)
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from notebook_tools import NOTEBOOKS

ROOT = Path(__file__).resolve().parent.parent


def _words(n: int) -> str:
    return " ".join(["word"] * n)


def _cell(cell, section):
    cell.metadata["section"] = section
    return cell


def _write_chapter(folder: Path, name: str, core_words: int, optional_words: int) -> Path:
    """A chapter: core read in core_words/110 minutes, optional part in optional_words/110."""
    nb = new_notebook(
        cells=[
            _cell(
                new_markdown_cell(f"# Chapter 9 · Test\n\n{_words(core_words - 3)}"), "core"
            ),  # 3 heading words
            _cell(
                new_markdown_cell(
                    f"## 1. Extra · optional (going deeper)\n\n{_words(optional_words - 5)}"
                ),
                "optional",
            ),
        ]
    )
    path = folder / name
    nbformat.write(nb, path)
    return path


def test_sections_are_timed_by_the_stated_model(tmp_path):
    """Hand count: 110 words = 1 min, 4 code lines = 1 min, exercise 6, quiz 2, hidden 0."""
    solution = new_code_cell("x = 1\ny = 2\nhelpers.check('1.1', x)")
    solution.metadata.update(
        tags=["solution"], jupyter={"source_hidden": True, "outputs_hidden": True}
    )
    cells = [
        _cell(
            new_markdown_cell(f"# Chapter 9 · Test\n\n{_words(107)}"), "core"
        ),  # 3 heading words + 107 = 110
        _cell(
            new_markdown_cell("## 1. Counting · core\n\n" + _words(106)), "core"
        ),  # "1.", "Counting", "core" + 106
        _cell(new_code_cell("a = 1\nb = 2\n\nc = 3\nd = 4"), "core"),  # 4 non-blank lines
        _cell(new_code_cell("helpers.quiz(helpers.Question('q', ['a', 'b'], 0))"), "core"),
        _cell(new_markdown_cell("## 2. Deeper · optional (going deeper)"), "optional"),
        _cell(
            new_markdown_cell("**Exercise 1.** " + _words(7)), "optional"
        ),  # "Exercise", "1." + 7 words, plus 6 min
        _cell(new_code_cell("answer = ..."), "optional"),
        _cell(solution, "optional"),
    ]
    cells[6].metadata["tags"] = ["answer"]
    path = tmp_path / "09_test.ipynb"
    nbformat.write(new_notebook(cells=cells), path)
    sections = ct.section_times(path)
    assert [s.title for s in sections] == ["Opening", "1. Counting", "2. Deeper"]
    assert [s.mark for s in sections] == ["core", "core", "optional"]
    assert sections[0].full == pytest.approx(1.0)
    # the heading's "1." counts as a word ("##" and "·" do not): 109 words, 4 code lines, one quiz
    assert sections[1].full == pytest.approx(109 / 110 + 1 + 2)
    # "2.", "Deeper", "optional", "going", "deeper" (5 words), the prompt's 9 words and 6 minutes;
    # the rest is free
    assert sections[2].full == pytest.approx(5 / 110 + 9 / 110 + 6) and sections[2].core == 0
    total = ct.chapter_time(path)
    assert total.core == pytest.approx(sum(s.core for s in sections))
    assert total.full == pytest.approx(sum(s.full for s in sections))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_the_sections_of_each_chapter_add_up_to_its_time(path):
    sections, total = ct.section_times(path), ct.chapter_time(path)
    assert sum(s.core for s in sections) == pytest.approx(total.core)
    assert sum(s.full for s in sections) == pytest.approx(total.full)


@pytest.fixture
def paths(tmp_path):
    """Two chapters: core 10 and 10 minutes, optional parts 20 and 10 minutes."""
    return [
        _write_chapter(tmp_path, "00_a.ipynb", 1100, 2200),
        _write_chapter(tmp_path, "01_b.ipynb", 1100, 1100),
    ]


def test_a_plan_adds_optional_parts_in_its_order_while_they_fit(paths):
    # core 10 + 10 min, optional 20 and 10 min, one 5-minute break due at 12 minutes,
    # a 5-minute close
    plan = ct.Plan(
        "test",
        hours=0.75,
        chapters=(0, 1),
        breaks=(ct.Break("Break", 5, 12),),
        closing=("Close", 5),
        homework="",
        full_if_it_fits=(0, 1),
    )
    rows = ct.plan_rows(plan, paths)
    # chapter 0 in full (30) would leave 30 + 10 + 5 + 5 = 50 > 45 minutes: skipped;
    # chapter 1 in full fits (40)
    assert rows == [
        ("Chapter 0", "core", 10.0),
        ("Break", "", 5.0),
        ("Chapter 1", "full", 20.0),
        ("Close", "", 5.0),
    ]
    assert ct.plan_total(plan, paths) == 40
    # a break due at 30 minutes, with chapter 0 core (10) then chapter 1 full (20):
    # closest boundary is 30, after it
    late = ct.Plan(
        "late", 1, (0, 1), (ct.Break("Break", 5, 30),), ("Close", 5), "", full_if_it_fits=(1,)
    )
    assert [r[0] for r in ct.plan_rows(late, paths)] == ["Chapter 0", "Chapter 1", "Break", "Close"]
    # due at 14 minutes: the boundary at 10 is closer than the one at 30
    early = ct.Plan(
        "early", 1, (0, 1), (ct.Break("Break", 5, 14),), ("Close", 5), "", full_if_it_fits=(1,)
    )
    assert [r[0] for r in ct.plan_rows(early, paths)] == [
        "Chapter 0",
        "Break",
        "Chapter 1",
        "Close",
    ]
    with pytest.raises(ValueError, match="chapters \\[2\\]"):
        ct.plan_rows(ct.Plan("x", 1, (0, 2), (), ("c", 1), ""), paths)


def test_a_plan_opens_with_its_setup_leaves_its_free_minutes_and_refuses_what_does_not_fit(
    paths,
):
    # setup 10, core 10, break 5, core 10, close 5: 40 minutes, all the hour less its 20 free
    # (chapter 1 in full, 10 more, would not fit); the break, due at 20 minutes, comes after
    # chapter 0 because the setup's minutes count
    plan = ct.Plan(
        "test",
        hours=1,
        chapters=(0, 1),
        breaks=(ct.Break("Break", 5, 20),),
        closing=("Close", 5),
        homework="",
        full_if_it_fits=(1,),
        setup=("Setup", 10),
        free=20,
    )
    assert plan.budget == 40
    assert ct.plan_rows(plan, paths) == [
        ("Setup", "", 10.0),
        ("Chapter 0", "core", 10.0),
        ("Break", "", 5.0),
        ("Chapter 1", "core", 10.0),
        ("Close", "", 5.0),
    ]
    assert "| 0:40 | **End** (total 40 of 60 minutes; 20 free for questions) | | |" in (
        ct.plan_table(plan, paths)
    )
    with pytest.raises(ValueError, match="the tight plan takes 50 minutes .* more than its 45"):
        ct.plan_rows(
            ct.Plan("tight", 1, (0, 1), (), ("Close", 15), "", (), ("Setup", 15), 15), paths
        )


@pytest.mark.parametrize("plan", ct.PLANS, ids=[p.name for p in ct.PLANS])
def test_each_workshop_plan_fits_its_hours_and_opens_with_the_setup_slot(plan):
    rows = ct.plan_rows(plan)
    total = sum(r[2] for r in rows)
    assert total <= plan.budget <= plan.hours * 60, (
        f"the {plan.name} plan takes {total:.0f} min by the model, more than {plan.budget:.0f}"
    )
    what, _, minutes = rows[0]
    # 15 minutes for laptops; 25 when a chapter's core is worked in the slot too
    assert what.startswith("Setup") and 10 <= minutes <= 15 + 10 * len(plan.in_setup)


def test_the_half_day_fits_a_room_and_the_full_day_teaches_all():
    """The half-day plan as a room of 30 runs it. Chapter 0 is folded into a 25-minute setup
    slot (its exercise 0.1 the warm-up while laptops start); each exercise is debriefed; the
    first loop (1.1) takes a room 11 minutes; concept sections carry their talk (chapter 5's
    p-value, chapter 6's plan, 2 minutes each); the stretch is 10;
    the first break comes by about 1:20; at least 15 of the 240 minutes stay free, so the plan
    takes at most 225."""
    half, full = (next(p for p in ct.PLANS if p.name == name) for name in ("half-day", "full-day"))
    assert half.hours == 4 and full.hours == 8
    rows = ct.plan_rows(half)
    total = sum(r[2] for r in rows)
    assert total <= 225 and half.free >= 15 and total <= half.hours * 60 - 15
    assert half.demo_and_discussion == full.demo_and_discussion == 6
    assert half.debrief == full.debrief == 2 and half.setup[1] == 25
    assert ("Stretch", "", 10.0) in rows
    talk = {n: ct.chapter_time(NOTEBOOKS[n]).core_talk for n in (5, 6)}
    assert talk == {5: 2, 6: 2}, talk
    setup = rows[0]
    assert setup[0].startswith("Setup and chapter 0") and setup[1] == "chapter 0 core"
    assert "exercise 0.1 is the warm-up" in setup[0]
    assert setup[2] >= math.ceil(ct.chapter_time(NOTEBOOKS[0]).core)
    taught = [(what, part) for what, part, _ in rows if what.startswith("Chapter ")]
    assert taught == [(f"Chapter {n}", "core") for n in (1, 2, 5, 6)]
    starts = itertools.accumulate([0.0] + [r[2] for r in rows])
    first_break = next(at for at, r in zip(starts, rows, strict=False) if r[0] == "Break")
    assert first_break <= 80, f"the first break starts at {ct._clock(first_break)}"
    minutes = {key: m for key, m, _ in ct.plan_exercises(half)}
    assert minutes["1.1"] >= 11 and minutes["6.2"] >= 5, minutes  # 6.2 reads ready intervals
    assert "0.1" in minutes  # the warm-up is still a checked exercise
    assert "Chapters 3 (" in half.homework and "4 (" in half.homework and "7 (" in half.homework
    assert [r[0] for r in ct.plan_rows(full) if r[0].startswith("Chapter ")] == [
        f"Chapter {n}" for n in range(len(NOTEBOOKS))
    ]


def test_a_chapter_worked_in_the_setup_slot_lengthens_it_only_when_its_core_is_longer(paths):
    # chapter 0's core (10 minutes) in a 15-minute setup slot: 15; in a 5-minute one: 10
    plan = ct.Plan("p", 1, (0, 1), (), ("Close", 5), "", setup=("Setup", 15), in_setup=(0,))
    assert ct.plan_rows(plan, paths) == [
        ("Setup", "chapter 0 core", 15.0),
        ("Chapter 1", "core", 10.0),
        ("Close", "", 5.0),
    ]
    short = ct.Plan("p", 1, (0, 1), (), ("Close", 5), "", setup=("Setup", 5), in_setup=(0,))
    assert ct.plan_rows(short, paths)[0] == ("Setup", "chapter 0 core", 10.0)


def test_the_instructor_guide_generated_blocks_are_current():
    text = ct.GUIDE.read_text(encoding="utf-8")
    fresh = ct.render_docs(text, ct.generated_blocks())
    assert fresh == text, (
        "docs/instructor-guide.md is out of date: "
        "run `python tools/chapter_times.py --update-docs` (make docs)"
    )


def test_every_chapter_has_its_section_in_the_instructor_guide():
    text = ct.GUIDE.read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        n = int(path.name[:2])
        assert f"\n## Chapter {n} ·" in text, (
            f"docs/instructor-guide.md has no '## Chapter {n} · ...' section"
        )
        for part in (
            "**Demo live.**",
            "**If you run late.**",
            "**Discussion prompts.**",
            "**Learners ask.**",
        ):
            section = text.split(f"\n## Chapter {n} ·", 1)[1].split("\n## ", 1)[0]
            assert part in section, f"chapter {n}'s section in the guide lacks {part}"


def test_render_docs_refuses_a_guide_without_a_block():
    with pytest.raises(ValueError, match="no block 'summary'"):
        ct.render_docs("# Guide\n", {"summary": "x"})


def test_sentences_leave_out_code_tables_headings_and_tags_and_count_a_formula_as_a_word():
    text = (
        "## 2. A heading · core\n\nThe mean is $\\bar d$. Is it `d.mean()`?\n"
        "| a | b |\n|---|---|\n\n```python\nx = 1. y = 2\n```\n<b>Bold</b> text!\n\n"
        "- one item\n- two items"
    )
    # a list's first item after a blank line keeps its dash, as one more word
    assert [" ".join(s.split()) for s in ct.sentences(text)] == [
        "The mean is F .",
        "Is it C ?",
        "Bold text!",
        "- one item",
        "two items",
    ]


def test_long_sentences_are_found_on_the_core_path_only(tmp_path):
    long, short = _words(41), _words(40)
    solution = new_markdown_cell(f"<details><summary>Solution</summary>\n\n{long}.</details>")
    solution.metadata["tags"] = ["solution"]
    cells = [
        _cell(new_markdown_cell(f"# Chapter 9 · Test\n\n{short}. {long}?"), "core"),
        _cell(
            new_markdown_cell(f"{short}:\n- {_words(39)}\n- {long}\n\n`{long}` ok. ${long}$."),
            "core",
        ),
        _cell(new_markdown_cell(f"{long}."), "optional"),
        _cell(solution, "core"),
        _cell(new_code_cell(f"# {long}."), "core"),
    ]
    path = tmp_path / "09_test.ipynb"
    nbformat.write(new_notebook(cells=cells), path)
    assert [(i, n) for i, n, _ in ct.long_sentences(path)] == [(0, 41), (1, 41)]
    # words as the time model counts them (a formula one word, `code` word by word), code
    # lines of core cells
    words = (3 + 40 + 41) + (40 + 39 + 41 + 41 + 1 + 1)
    assert ct.core_path(path) == ct.CorePath("09_test.ipynb", 0, words, 1, 2)


def test_core_figures_count_the_pictures_in_core_cells_outputs(tmp_path):
    png = new_output("display_data", data={"image/png": "iVBOR"})
    widget = new_output(
        "display_data",
        data={"text/html": '<div class="widget-snapshot"><img src="data:image/png;base64,i"/>'},
    )
    text = new_output("stream", name="stdout", text="image/png\n")
    cells = [new_code_cell("plot()"), new_code_cell("explore()"), new_code_cell("plot()")]
    cells[0].outputs, cells[1].outputs, cells[2].outputs = [png, text], [widget], [png]
    cells = [_cell(cells[0], "core"), _cell(cells[1], "core"), _cell(cells[2], "optional")]
    path = tmp_path / "09_test.ipynb"
    nbformat.write(new_notebook(cells=cells), path)
    assert ct.core_figures(path) == 2
    assert ct.core_path(path) == ct.CorePath("09_test.ipynb", 2, 0, 2, 0)


def test_an_exercise_takes_its_tables_minutes_and_a_plan_adds_demo_and_discussion(
    tmp_path, monkeypatch
):
    from helpers.exercise_table import EXERCISES

    cells = [
        _cell(new_markdown_cell("# Chapter 9 · Test\n\n" + _words(107)), "core"),
        _cell(new_markdown_cell("**Exercise 1.** " + _words(108)), "core"),  # 110 words
    ]
    path = tmp_path / "09_test.ipynb"
    nbformat.write(new_notebook(cells=cells), path)
    assert ct.chapter_time(path).core == pytest.approx(2 + 6)  # not in the table: 6 minutes
    monkeypatch.setitem(EXERCISES, "9.1", {"minutes": 3})
    assert ct.chapter_time(path).core == pytest.approx(2 + 3)
    assert ct.section_times(path)[0].core == pytest.approx(2 + 3)
    plan = ct.Plan("p", 1, (9,), (), ("Close", 5), "", demo_and_discussion=6)
    assert ct.plan_rows(plan, [path]) == [("Chapter 9", "core", 11.0), ("Close", "", 5.0)]
    assert ct.plan_exercises(plan, [path]) == [("9.1", 3, "core")]
    table = ct.plan_table(plan, [path])
    assert "include 6 for its live demo and one discussion" in table
    assert "Checked exercises: 1, 3 minutes in all: 9.1 (3 min)." in table


@pytest.mark.parametrize("name", ["half-day", "IR half-day"])
def test_each_half_day_has_a_checked_exercise_in_every_chapter_and_eight_in_all(name):
    """Learners write the code in every chapter a half-day teaches; what the room does together
    instead (a quiz) costs less than a debriefed exercise, so at least 8, not 10."""
    plan = next(p for p in ct.PLANS if p.name == name)
    exercises = ct.plan_exercises(plan)
    assert all(section == "core" for _, _, section in exercises)
    per_chapter = {n: sum(k.startswith(f"{n}.") for k, _, _ in exercises) for n in plan.chapters}
    assert all(per_chapter.values()), per_chapter
    assert len(exercises) >= (8 if name == "half-day" else 6), per_chapter


def test_the_ir_half_day_fits_a_room_with_chapter_7s_core():
    ir = next(p for p in ct.PLANS if p.name == "IR half-day")
    rows = ct.plan_rows(ir)
    assert ir.hours == 4 and ir.free >= 15 and sum(r[2] for r in rows) <= 225
    assert ("Chapter 7", "core") in [(what, part) for what, part, _ in rows]
    assert "6 (" in ir.homework and "2 (" in ir.homework


#: The half-day as two instructors timed it for a room of 30 (242 and 250 minutes), as the
#: reader's model counted its chapters then (214 minutes in all): each chapter's core minutes
#: with 1.1 at 11 and 6.2 at 10 (a room's), its checked exercises, and its talk minutes.
TIMED_HALF_DAY = {
    0: ct.ChapterTime("00", 12.61, 12.61, 1, 1),
    1: ct.ChapterTime("01", 44.40, 44.40, 3, 3),
    2: ct.ChapterTime("02", 26.65, 26.65, 2, 2),
    5: ct.ChapterTime("05", 34.21, 34.21, 2, 2, 2.0, 2.0),
    6: ct.ChapterTime("06", 37.16, 37.16, 2, 2, 2.0, 2.0),
}


def test_the_room_model_lands_near_the_instructors_timing_of_the_same_plan():
    half = next(p for p in ct.PLANS if p.name == "half-day")
    half = dataclasses.replace(half, closing=("Wrap-up: questions; the recipe", 10))  # as then
    total = sum(r[2] for r in ct._schedule(half, TIMED_HALF_DAY, set()))
    assert total == 251 and abs(total - (242 + 250) / 2) <= 5  # the guide quotes 251
    assert "gives 251" in ct.GUIDE.read_text(encoding="utf-8")
    reader = dataclasses.replace(half, debrief=0, setup=(half.setup[0], 20))
    reader = dataclasses.replace(reader, breaks=(ct.Break("Break", 15, 70), ct.Break("S", 5, 160)))
    reading = {n: dataclasses.replace(t, core_talk=0.0) for n, t in TIMED_HALF_DAY.items()}
    reading[1] = dataclasses.replace(reading[1], core=reading[1].core - 3)  # 1.1 at 8
    reading[6] = dataclasses.replace(reading[6], core=reading[6].core - 2)  # 6.2 at 8
    assert sum(r[2] for r in ct._schedule(reader, reading, set())) == 214  # the reader's model
