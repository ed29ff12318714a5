"""The static edition typesets its formulas with the network off, and its quizzes fit.

One chapter page (the first with a formula) is exported into a temporary
folder, opened from disk in headless Chromium with every request that is not a
file:// URL refused, and must show typeset math: MathJax ran from the copy in
the folder's mathjax/, every formula became MathJax output, no raw ``$...$``
TeX is left in the prose, and MathJax's own web fonts were loaded from disk. In a window
1280 px wide, no quiz option (a button of the static quiz, tools/static/widgets.js) reaches past
its output area.

In the full sweep (make test-browser, CI), with the other checks of the static pages in a
browser: make test checks the pages as HTML (tests/test_html.py: MathJax from the site's own
folder, nothing loaded from the network), and the static edition's front end changes rarely.
"""

import re

import pytest
from notebook_tools import NOTEBOOKS, export_html

pytestmark = [pytest.mark.browser, pytest.mark.sweep]


def _first_chapter_with_math():
    import nbformat

    for path in NOTEBOOKS:
        nb = nbformat.read(path, as_version=4)
        if any(c.cell_type == "markdown" and re.search(r"\$[^$\n]+\$", c.source) for c in nb.cells):
            return path
    raise AssertionError("no chapter has a formula to typeset")


def test_a_page_typesets_its_math_offline(browser, tmp_path):
    path = _first_chapter_with_math()
    export_html([path], tmp_path)
    context = browser.new_context()
    refused, loaded = [], []

    def only_files(route):
        url = route.request.url
        if url.startswith("file://"):
            loaded.append(url)
            return route.continue_()
        refused.append(url)
        return route.abort()

    context.route("**/*", only_files)
    try:
        page = context.new_page()
        page.goto((tmp_path / f"{path.stem}.html").as_uri())
        page.wait_for_function(
            "() => window.MathJax && MathJax.isReady && MathJax.Hub.queue.pending === 0"
            " && MathJax.Hub.queue.running === 0",
            timeout=30_000,
        )
        formulas = page.evaluate("document.querySelectorAll('script[type^=\"math/tex\"]').length")
        rendered = page.evaluate("document.querySelectorAll('span.MathJax').length")
        errors = page.evaluate("document.querySelectorAll('.MathJax_Error, .merror').length")
        prose = page.evaluate(
            "[...document.querySelectorAll('.jp-MarkdownOutput')].map(e => e.innerText).join('\\n')"
        )
        fonts = page.evaluate(
            "[...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
        )
        # in a window 1280 px wide (Playwright's default), the quizzes' options wrap
        page.set_viewport_size({"width": 1280, "height": 720})
        options, cut = page.evaluate(
            """() => {
                const items = [...document.querySelectorAll('.static-quiz .quiz-option')];
                return [items.length, items.filter(b => b.getBoundingClientRect().right >
                    b.closest('.jp-OutputArea-output').getBoundingClientRect().right + 0.5)
                    .map(b => b.textContent)];
            }"""
        )
    finally:
        context.close()
    assert refused == [], f"the page asked the network for {refused}"
    assert any("/mathjax/MathJax.js" in u for u in loaded), (
        "MathJax was not loaded from the page's folder"
    )
    assert formulas > 0 and rendered == formulas, f"{rendered} of {formulas} formulas typeset"
    assert errors == 0, f"{errors} formulas failed to typeset"
    left = re.findall(r"\$[^$\n]+\$", prose)
    assert not left, f"raw TeX left in the prose: {left[:5]}"
    assert any(f.startswith("STIXMathJax") for f in fonts), (
        f"MathJax's fonts were not loaded from disk: {fonts}"
    )
    assert options > 0 and not cut, f"quiz options cut off at 1280 px: {cut}"
