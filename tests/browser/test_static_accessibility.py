"""The static edition is accessible: axe-core's WCAG 2.0/2.1 A and AA rules on all nine pages.

Every chapter and the index, as ``make html`` writes them (conftest.py: static_site, built once
per session for the sweep's checks of the pages), are opened from disk in headless Chromium,
every request that is not a file:// or data: URL refused. On each page, once MathJax has typeset
it, axe-core (the copy in the PyPI package axe-playwright-python, pinned in requirements.lock:
nothing is fetched) runs with the rules tagged wcag2a, wcag2aa, wcag21a and wcag21aa, with every
solution opened, each quiz answered and the explorer moved, so that their text is checked too
(the one text that hides, a quiz's "Choose an answer.", has its colour held by
tests/test_widgets.py's contrast test). No serious or critical violation may remain, and the
page logs no console error. Every figure's text alternative is its own sentence, never
nbconvert's placeholder. In make test-browser (CI).
"""

from pathlib import Path

import pytest
from notebook_tools import NOTEBOOKS

pytestmark = [pytest.mark.browser, pytest.mark.sweep]

WCAG_A_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
PLACEHOLDER = "No description has been provided for this image"
PAGES = [f"{p.stem}.html" for p in NOTEBOOKS] + ["index.html"]


def axe_script() -> str:
    """axe-core's script, as the PyPI package axe-playwright-python ships it."""
    import axe_playwright_python

    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")


def blocking_violations(page) -> list[str]:
    """axe-core's serious and critical WCAG 2.0/2.1 A and AA violations on the page, one line
    each: the rule, its impact, how many elements, and the first element."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(axe_script())
    options = {"runOnly": {"type": "tag", "values": WCAG_A_AA}, "resultTypes": ["violations"]}
    result = page.evaluate("(options) => axe.run(document, options)", options)
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])} elements, first "
        f"{v['nodes'][0]['html'][:120]})"
        for v in result["violations"]
        if v["impact"] in BLOCKING
    ]


@pytest.fixture(scope="module")
def site(static_site):
    """The pages make html writes, built once per session for the sweep (conftest.py)."""
    return static_site


@pytest.fixture(scope="module")
def offline(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    refused = []

    def only_files(route):
        if route.request.url.startswith(("file://", "data:")):
            return route.continue_()
        refused.append(route.request.url)
        return route.abort()

    context.route("**/*", only_files)
    yield context, refused
    context.close()


def test_the_axe_check_finds_what_it_should(offline, tmp_path):
    """A page with low-contrast text and an image with no alt fails it: the check can fail."""
    context, _ = offline
    bad = tmp_path / "bad.html"
    bad.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>'
        '<p style="color:#b0b0b0">faint prompt</p><img src="data:image/png;base64,">'
        "</main></body></html>",
        encoding="utf-8",
    )
    page = context.new_page()
    try:
        page.goto(bad.as_uri())
        found = " ".join(blocking_violations(page))
    finally:
        page.close()
    assert "color-contrast" in found and "image-alt" in found, found


@pytest.mark.parametrize("name", PAGES)
def test_each_page_passes_axe_wcag_21_aa_offline_with_no_console_error(site, offline, name):
    context, refused = offline
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto((site / name).as_uri())
        page.wait_for_load_state("load")
        if name != "index.html":
            page.wait_for_function(
                "() => window.MathJax && MathJax.isReady && MathJax.Hub.queue.pending === 0"
                " && MathJax.Hub.queue.running === 0",
                timeout=30_000,
            )
        # every solution open, every quiz answered (its first option), the explorer at draw 171
        page.evaluate(
            """() => {
                for (const d of document.querySelectorAll('details')) d.open = true;
                for (const q of document.querySelectorAll('.static-quiz'))
                    q.querySelector('.quiz-option').click();
                const preset = document.querySelector('.explorer-preset[data-k="171"]');
                if (preset) preset.click();
            }"""
        )
        opened = blocking_violations(page)
        alts = page.evaluate("[...document.querySelectorAll('img')].map(i => i.alt)")
    finally:
        page.close()
    assert opened == [], f"{name}, solutions open and quizzes answered: {opened}"
    assert errors == [], f"{name} logged: {errors}"
    assert refused == [], f"{name} asked the network for {refused}"
    assert all(alt.strip() and alt != PLACEHOLDER for alt in alts), f"{name}: {alts}"
