"""The time model's per-section minutes, the workshop plans and the instructor guide's blocks."""

from pathlib import Path

import chapter_times as ct  # tools/ is on sys.path for the tests (conftest.py)
import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
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


def test_a_plan_adds_optional_parts_in_its_order_while_they_fit(tmp_path):
    paths = [
        _write_chapter(tmp_path, "00_a.ipynb", 1100, 2200),
        _write_chapter(tmp_path, "01_b.ipynb", 1100, 1100),
    ]
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


@pytest.mark.parametrize("plan", ct.PLANS, ids=[p.name for p in ct.PLANS])
def test_each_workshop_plan_fits_its_hours(plan):
    total = ct.plan_total(plan)
    assert total <= plan.hours * 60, (
        f"the {plan.name} plan takes {total:.0f} min by the model, more than {plan.hours} h"
    )


def test_the_half_day_covers_the_core_of_chapters_0_to_6_and_the_full_day_every_chapter():
    half, full = (next(p for p in ct.PLANS if p.name == name) for name in ("half-day", "full-day"))
    assert half.hours == 4 and full.hours == 8
    taught = [r[0] for r in ct.plan_rows(half) if r[0].startswith("Chapter ")]
    assert taught == [f"Chapter {n}" for n in range(7)]
    assert all(
        part == "core" for what, part, _ in ct.plan_rows(half) if what.startswith("Chapter ")
    )
    assert [r[0] for r in ct.plan_rows(full) if r[0].startswith("Chapter ")] == [
        f"Chapter {n}" for n in range(len(NOTEBOOKS))
    ]


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
