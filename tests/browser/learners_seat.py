"""Every chapter in JupyterLab in a real browser, from the learner's seat.

Each chapter opens from the book (notebooks/, ``make lab BOOK=1``) with its stored outputs,
which must all render: no error or stderr output, every stored figure shown, every widget shown
as the static snapshot of its first view. Then, in a fresh kernel of its own, the learner
presses Shift+Enter from the first cell to the last, and then Restart Kernel and Run All: every
widget draws live, and after each no output says an exercise is correct, every solution is still
closed, no quiz shows its answer, and the kernel says every answer variable is still ``...``.
Last, one exercise is answered in the answer cell, wrongly and then rightly, and its check must
say so. A screenshot of each chapter is saved in test-artifacts/ (pass or fail), for a human to
glance at.

This module holds the steps. The full sweep (``make test-browser``) is in test_chapters_0_to_3.py
and test_chapters_4_to_7.py: two files, so that pytest-xdist's --dist loadfile gives each half to
its own worker, each starting one JupyterLab: the sweep is mostly waiting for the browser and the
kernel, so the halves overlap well on two cores, with a third worker running the rest of the
sweep meanwhile. test_smoke.py (``make test``) takes each of
these behaviours once; its use of chapter 2's resample explorer, as a learner would, is the
sweep's.
"""

import re

import nbformat
from playwright.sync_api import expect

from helpers.exercise_table import EXERCISES, QUIZZES
from helpers.widgets import EXPLORER_PRESETS

from .conftest import (
    ARTIFACTS,
    ROOT,
    WIDGET_CALLS,
    cells_to_run,
    current_notebook,
    open_notebook,
    run_cells,
    shut_down_kernel,
)


def expect_no_error_output(panel) -> None:
    stderr = ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']"
    expect(panel.locator(stderr)).to_have_count(0)
    error = (
        ".jp-RenderedText .ansi-red-fg, "
        ".jp-OutputArea-output .jp-RenderedText[data-mime-type*='error']"
    )
    expect(panel.locator(error)).to_have_count(0)
    outputs = panel.locator(".jp-OutputArea-output").all_inner_texts()
    fallbacks = [
        t
        for t in outputs
        if "Error displaying widget" in t or re.match(r"^(VBox|HBox)\(children=", t)
    ]
    assert not fallbacks, f"widgets shown as text instead of drawn: {fallbacks}"


#: One exercise per chapter, worked from the learner's seat after Run All: the answer cell
#: typed in, once wrong (with words its message must say) and once right.
TYPED = {
    "00_start_here": ("0.1", "mean_change = -d.mean()", "A minus B", "mean_change = d.mean()"),
    "01_paired_bootstrap": (
        "1.2",
        "ends = (-0.008, -0.133)",
        "swapped",
        "ends = (-0.133, -0.008)",
    ),
    "02_all_256_resamples": (
        "2.2",
        "exact_interval = (0.08, -0.035)",
        "wrong way round",
        "exact_interval = (-0.035, 0.08)",
    ),
    "03_exact_bootstrap": (
        "3.1",
        "interval_90 = (-0.133, 0.0)",
        "95% interval",
        "interval_90 = (-0.125, -0.0167)",
    ),
    "04_user_clusters": (
        "4.2",
        "misses_above_below = (188, 169)",
        "swapped",
        "misses_above_below = (169, 188)",
    ),
    "05_randomization_tests": (
        "5.1",
        "p_four = 0.375",
        "A strict > leaves out",
        "p_four = 0.625",
    ),
    "06_protecting_and_reporting": (
        "6.1",
        "survives = [False, True, False, False]",
        "Bonferroni",
        "survives = [False, True, False, True]",
    ),
    "07_your_own_runs": ("7.1", "drop_change = -0.001117", "A minus B", "drop_change = 0.001117"),
}


def wait_until_run(page) -> None:
    """Wait until the kernel is idle and no code cell is queued or running ([*])."""
    page.wait_for_function(
        """() => {
            const w = window.jupyterapp.shell.currentWidget;
            const k = w.sessionContext.session && w.sessionContext.session.kernel;
            if (!k || k.status !== 'idle') return false;
            return w.content.widgets.every(
                c => c.model.type !== 'code' || !c.node.querySelector('.jp-InputPrompt')
                     || !c.node.querySelector('.jp-InputPrompt').textContent.includes('*'));
        }""",
        timeout=240_000,
        # ms: the check walks every cell; at every frame (the default) waiting cost the browser
        # 0.12 s of CPU a second, every 100 ms 0.08 s
        polling=200,
    )


def ask_kernel(page, expressions: dict[str, str]) -> dict[str, str]:
    """Evaluate expressions in the page's kernel (user_expressions); their text/plain values."""
    return page.evaluate(
        """async (exprs) => {
            const w = window.jupyterapp.shell.currentWidget;
            const future = w.sessionContext.session.kernel.requestExecute(
                {code: '', silent: true, store_history: false, user_expressions: exprs});
            const reply = await future.done;
            const out = {};
            for (const [k, v] of Object.entries(reply.content.user_expressions)) {
                out[k] = v.status === 'ok' ? v.data['text/plain'] : v.ename + ': ' + v.evalue;
            }
            return out;
        }""",
        expressions,
    )


def expect_nothing_given_away(
    page, panel, path, nb, *, ran: bool = True, asked: list[str] | None = None
) -> None:
    """No check says correct, every solution closed, no quiz answer shown; once the cells
    ran, the kernel says every answer variable is still ``...`` (only the exercises ``asked``,
    when the learner ran only the cells up to them)."""
    chapter = int(path.name[:2])
    solutions = [c for c in nb.cells if "solution" in c.metadata.get("tags", [])]
    details = panel.locator(".jp-RenderedMarkdown details")
    expect(details).to_have_count(len(solutions))
    assert details.evaluate_all("ds => ds.filter(d => d.open).length") == 0, "a solution is open"
    text = panel.inner_text()
    assert not re.search(r"Exercise \d+\.\d+: correct", text), "a check says correct"
    assert "Correct." not in text, "a quiz shows its answer"
    for key, q in QUIZZES.items():
        if key.startswith(f"{chapter}.q"):
            assert q["explanations"][q["answer"]] not in text, f"quiz {key}'s answer shows"
    # a closed <details> leaves its content laid out but not rendered: ask the browser
    shown = "els => els.filter(e => e.checkVisibility()).length"
    assert details.locator("pre").evaluate_all(shown) == 0, "a solution's code is visible"
    assert text.count("not answered yet: your answer is still ...") == len(solutions)
    if not ran:
        return
    names = {key: EXERCISES[key]["name"] for key in EXERCISES if key.startswith(f"{chapter}.")}
    if asked is not None:
        names = {key: names[key] for key in asked}
    values = ask_kernel(page, {k: f"{name} is ..." for k, name in names.items()})
    assert values == dict.fromkeys(names, "True"), f"answer variables changed: {values}"


def type_answer(page, panel, index: int, source: str) -> str:
    """Type ``source`` into the answer cell at ``index``, Shift+Enter it and its check cell;
    return the check's output."""
    cell = panel.locator(".jp-Notebook .jp-Cell").nth(index)
    cell.locator(".cm-content").click()
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(source)
    page.keyboard.press("Shift+Enter")
    page.keyboard.press("Shift+Enter")
    wait_until_run(page)
    check = panel.locator(".jp-Notebook .jp-Cell").nth(index + 1)
    return check.locator(".jp-OutputArea-output").inner_text()


#: The narrower of the two widths the series was tried at in the browser (issue 30).
NARROW = {"width": 1280, "height": 1000}


def expect_quiz_options_fit(page, panel, quizzes: int) -> None:
    """In a window 1280 px wide, every quiz option (live, or in the stored snapshot) wraps
    inside its output area: no option's right edge past the area's, no sideways scrolling."""
    wide = page.viewport_size
    page.set_viewport_size(NARROW)
    try:
        page.wait_for_function(
            "w => window.jupyterapp.shell.currentWidget.node.getBoundingClientRect().right <= w",
            arg=NARROW["width"],
        )
        areas = panel.locator(
            ".jp-OutputArea-output:has(.quiz), .jp-OutputArea-output:has(.widget-snapshot ul)"
        )
        expect(areas).to_have_count(quizzes)
        overflows = areas.evaluate_all(
            """areas => areas.flatMap(area => {
                const edge = area.getBoundingClientRect().right, out = [];
                if (area.scrollWidth > area.clientWidth) {
                    out.push(`an output area scrolls: ${area.scrollWidth} > ${area.clientWidth}`);
                }
                for (const el of area.querySelectorAll('.quiz label, .widget-snapshot li')) {
                    const right = el.getBoundingClientRect().right;
                    if (right > edge + 0.5) {
                        out.push(`${el.textContent.slice(0, 50)}...: ends at ${right} > ${edge}`);
                    }
                }
                return out;
            })"""
        )
        assert not overflows, f"quiz options cut off at {NARROW['width']} px: {overflows}"
    finally:
        page.set_viewport_size(wide)


FIGURE_IMGS = ".jp-OutputArea-output[data-mime-type='image/png'] img"
SNAPSHOTS = ".jp-OutputArea-output .widget-snapshot"


def chapter_widgets_and_figures(nb) -> tuple[dict[str, int], int]:
    """How many of each widget the chapter's code makes, and how many figures it stores."""
    code = [c for c in nb.cells if c.cell_type == "code"]
    widgets = {
        cls: sum(len(re.findall(p, c.source)) for c in code) for cls, p in WIDGET_CALLS.items()
    }
    figures = sum(1 for c in code for o in c.outputs if "image/png" in o.get("data", {}))
    return widgets, figures


def expect_stored_outputs(page, panel, path, nb) -> None:
    """The chapter as committed: its title, every figure, every widget's static snapshot, no
    error output, nothing given away."""
    title = nb.cells[0].source.splitlines()[0].lstrip("# ").strip()
    widgets, figures = chapter_widgets_and_figures(nb)
    expect(panel).to_have_count(1)
    expect(panel.locator("h1").first).to_contain_text(title.split(" · ")[0])
    expect(panel.locator(FIGURE_IMGS)).to_have_count(figures)
    expect(panel.locator(SNAPSHOTS)).to_have_count(sum(widgets.values()))
    expect_no_error_output(panel)
    expect_nothing_given_away(page, panel, path, nb, ran=False)


def press_shift_enter(page, times: int) -> None:
    """From the first cell, press Shift+Enter ``times`` times, then wait until all ran."""
    page.evaluate(
        """() => {
            const nb = window.jupyterapp.shell.currentWidget.content;
            nb.activeCellIndex = 0;
            nb.deselectAll();
            nb.mode = 'command';
            nb.node.focus();
        }"""
    )
    for _ in range(times):
        page.keyboard.press("Shift+Enter")
    wait_until_run(page)


def answer_cell(nb, key: str) -> int:
    """The index of exercise ``key``'s answer cell (the cell above its check)."""
    check = f'helpers.check("{key}")  # checks {EXERCISES[key]["name"]}'
    return next(i for i, c in enumerate(nb.cells) if c.source == check) - 1


def type_wrong_then_right(page, panel, path, nb) -> None:
    """The chapter's exercise in TYPED, typed in: a wrong answer (its check must name the
    slip), then a right one (its check must say correct)."""
    key, wrong, says, right = TYPED[path.stem]
    index = answer_cell(nb, key)
    assert says in type_answer(page, panel, index, wrong)
    assert f"Exercise {key}: correct." in type_answer(page, panel, index, right)


def work_through_chapter(page, path) -> None:
    """A fresh kernel; Shift+Enter from the first cell to the last, then Restart Kernel and Run
    All: every figure and widget draws, and no output, solution or quiz gives an answer away,
    nor does any answer variable change. Then one exercise answered wrong, then right."""
    nb = nbformat.read(path, as_version=4)
    widgets, figures = chapter_widgets_and_figures(nb)
    open_notebook(page, path.name, fresh_kernel=True)
    panel = current_notebook(page)
    figure_imgs = panel.locator(FIGURE_IMGS)
    snapshots = panel.locator(SNAPSHOTS)
    try:
        # the stored outputs, as committed: every figure, every widget's static snapshot
        expect_stored_outputs(page, panel, path, nb)
        expect_quiz_options_fit(page, panel, widgets["quiz"])
        # Shift+Enter from the first cell to the last
        press_shift_enter(page, len(nb.cells))
        for css_class, expected in widgets.items():
            expect(panel.locator(f".jp-OutputArea-output .{css_class}")).to_have_count(expected)
        expect(figure_imgs).to_have_count(figures)
        expect_no_error_output(panel)
        expect_nothing_given_away(page, panel, path, nb)
        # Restart Kernel and Run All
        page.evaluate("() => { window.jupyterapp.commands.execute('notebook:restart-run-all'); }")
        page.locator(".jp-Dialog .jp-mod-accept").click()
        expect(page.locator(".jp-Dialog")).to_have_count(0)
        wait_until_run(page)
        expect(snapshots).to_have_count(0)
        expect(figure_imgs).to_have_count(figures)
        expect_no_error_output(panel)
        expect_nothing_given_away(page, panel, path, nb)
        expect_quiz_options_fit(page, panel, widgets["quiz"])
        # one exercise, typed in: a wrong answer, then a right one
        type_wrong_then_right(page, panel, path, nb)
    finally:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"chapter-{path.stem}.png"))
        shut_down_kernel(page)


EXPLORER_CHAPTER = "02_all_256_resamples.ipynb"


def use_the_explorer(page) -> None:
    """Chapter 2's resample explorer, used as a learner uses it: presets, keyboard, figure.

    Only the cells the explorer needs run (the helpers import and the explorer's own).
    """
    open_notebook(page, EXPLORER_CHAPTER)
    run_cells(
        page,
        EXPLORER_CHAPTER,
        cells_to_run(nbformat.read(ROOT / "notebooks" / EXPLORER_CHAPTER, as_version=4)),
    )

    explorer = current_notebook(page).locator(".resample-explorer")
    expect(explorer).to_have_count(1)
    text = explorer.locator(".widget-html-content")
    figure = explorer.locator("img")

    # starts at the original sample
    expect(text).to_contain_text("Draw 28 of 256")
    expect(text).to_contain_text("q1, q2, q3, q4")
    expect(text).to_contain_text("Selected changes: +0.10, +0.02, -0.06, +0.04 | Mean: +0.025")
    expect(explorer).to_contain_text("Draw")
    expect(figure).to_be_visible()
    assert figure.evaluate("img => img.naturalWidth") > 300
    first_src = figure.get_attribute("src")
    slider_and_figure_at_1280_px(page, explorer, figure)

    explorer.get_by_role("button", name="All q3").click()
    expect(text).to_contain_text("Draw 171 of 256")
    expect(text).to_contain_text("Mean: -0.060")
    expect(figure).not_to_have_attribute("src", first_src)

    explorer.get_by_role("button", name="Repeat q1, omit q2").click()
    expect(text).to_contain_text("Draw 15 of 256")
    expect(text).to_contain_text("q1, q1, q4, q3")
    expect(text).to_contain_text("Mean: +0.045")

    # the keyboard moves the slider: focus its handle, step right twice
    handle = explorer.locator(".noUi-handle")
    handle.focus()
    page.keyboard.press("ArrowRight")  # each step draws a new figure in the kernel: wait for it
    expect(text).to_contain_text("Draw 16 of 256", timeout=15_000)
    page.keyboard.press("ArrowRight")
    expect(text).to_contain_text("Draw 17 of 256", timeout=15_000)
    expect(text).to_contain_text("q1, q2, q1, q1")
    expect(text).to_contain_text("Mean: +0.080")
    readout = explorer.locator(".widget-readout")
    expect(readout).to_have_text(re.compile(r"^\s*17\s*$"))
    play_pause_and_loop_by_keyboard(page, explorer, text, handle)

    # no error output anywhere in the notebook
    expect(
        page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    ).to_have_count(0)
    assert "Error displaying widget" not in page.content()


def _draw(text) -> int:
    return int(re.search(r"Draw (\d+) of 256", text.inner_text()).group(1))


def play_pause_and_loop_by_keyboard(page, explorer, text, handle) -> None:
    """Play/Pause and Loop are buttons named by their text, each with a tooltip, as are the
    presets; no control the keyboard reaches is an unnamed icon. From the slider, Tab reaches
    Play; Enter plays (the draws step on), Enter again pauses, and the draw shown stays."""
    play = explorer.get_by_role("button", name="▶ Play")
    loop = explorer.get_by_role("button", name="Loop", exact=True)
    presets = [explorer.get_by_role("button", name=n, exact=True) for n, _ in EXPLORER_PRESETS]
    for control in (play, loop, *presets):
        expect(control).to_be_visible()
        assert control.get_attribute("title"), f"{control} has no tooltip"
    # a slider handle counts by its value: ipywidgets 8.1's noUiSlider handle (role slider) takes
    # no label of its own; the word Draw stands beside it
    unnamed = explorer.evaluate(
        """el => [...el.querySelectorAll('button, input, [role=slider], [tabindex]')]
            .filter(e => e.getClientRects().length && e.tabIndex >= 0)
            .filter(e => !(e.getAttribute('aria-label') || e.innerText.trim()
                           || (e.labels && e.labels.length) || e.getAttribute('aria-valuenow')))
            .map(e => e.outerHTML.slice(0, 100))"""
    )
    assert unnamed == [], f"explorer controls with no name: {unnamed}"
    handle.focus()
    for _ in range(6):  # Tab from the slider to Play: the readout may come between
        page.keyboard.press("Tab")
        if play.evaluate("b => b === document.activeElement"):
            break
    else:
        raise AssertionError("Tab from the slider never reached Play")
    start = _draw(text)
    page.keyboard.press("Enter")
    pause = explorer.get_by_role("button", name="⏸ Pause")
    expect(pause).to_be_visible(timeout=15_000)
    page.wait_for_function(
        "([el, n]) => Number(/Draw (\\d+) of/.exec(el.innerText)[1]) >= n",
        arg=[text.element_handle(), start + 2],
        timeout=15_000,
    )
    page.keyboard.press("Enter")  # Pause
    expect(play).to_be_visible(timeout=15_000)
    held = _draw(text)
    page.wait_for_timeout(1_500)  # longer than two steps of Play
    assert _draw(text) == held > start, f"Pause did not hold the draw: {held}, then {_draw(text)}"


def slider_and_figure_at_1280_px(page, explorer, figure) -> None:
    """In a 1280 px wide window the slider's track is at least 640 px wide (2.5 px for each of
    the 256 draws, so a mouse can pick any one), and the figure is not scaled up (it is shown
    at most at its own size in device pixels, so its text stays sharp)."""
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": size["height"]})
    try:
        track = explorer.locator(".noUi-target")
        expect(track).to_have_count(1)
        for _ in range(50):  # let the page lay out again at the new width
            width = track.evaluate("el => el.getBoundingClientRect().width")
            if width >= 640:
                break
            page.wait_for_timeout(100)
        assert width >= 640, f"the slider's track is {width} px wide at 1280 px"
        shown, natural, ratio = figure.evaluate(
            "img => [img.getBoundingClientRect().width, img.naturalWidth, window.devicePixelRatio]"
        )
        assert 600 <= shown and shown * ratio <= natural + 1, (shown, natural, ratio)
    finally:
        page.set_viewport_size(size)
