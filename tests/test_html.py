"""The static HTML edition (make html): one page per chapter with its outputs, and an index."""

import base64
import html
import json
import re

import nbformat
import pytest
from notebook_tools import MATHJAX_CONFIG, MATHJAX_DIR, NOTEBOOKS, chapter_info

from helpers import describe_draw

#: One figure each chapter prints, which its page must show (escaped as HTML would be).
KEY_FIGURES = {
    "00_start_here": "d_q = +0.10, +0.02, -0.06, +0.04",
    "01_paired_bootstrap": "95% interval: [-0.133, -0.008]",
    "02_all_256_resamples": "exact 95% interval [-0.035, +0.080]",
    "03_exact_bootstrap": "0.9743",
    "04_user_clusters": "+0.0133",
    "05_randomization_tests": "p = 0.6250 (10 of 16)",
    "06_protecting_and_reporting": "+4.17%",
    "07_your_own_runs": "150 queries compared",
}


#: What the site's explorer asked its stand-in pictures for (see ``site``), one per picture.
EXPLORER_CALLS: list[dict] = []
#: The matplotlib settings the stand-in records: set_style's, which the chapters draw in.
STYLE_KEYS = ("font.size", "axes.titlesize", "axes.prop_cycle", "savefig.bbox", "legend.frameon")


def _rc(key: str):
    import matplotlib

    return matplotlib.rcParams[key]


def _stand_in_picture(d, k, half_alpha, query_ids) -> bytes:
    """A stand-in for the explorer's picture of draw ``k``: it records what it was asked to draw,
    and in which style, and returns bytes of its own (not a PNG) naming the call."""
    EXPLORER_CALLS.append(
        dict(
            changes=d.tolist(),
            counts=describe_draw(k, d.tolist(), query_ids).counts,
            half_alpha=half_alpha,
            query_ids=list(query_ids),
            style={key: _rc(key) for key in STYLE_KEYS},
        )
    )
    return f"stand-in picture {len(EXPLORER_CALLS)}".encode()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """What `make html` writes (conftest.py: write_static_site), with one difference: the resample
    explorer's 35 pictures (20 s of CPU to draw, two thirds of the site's cost) are stand-ins
    that record what they were asked to draw. The real pictures are checked on the real pages in
    the full sweep (conftest.py: static_site), where they are drawn once for every check of the
    pages."""
    import static_widgets

    from conftest import write_static_site

    EXPLORER_CALLS.clear()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(static_widgets, "_explorer_png", _stand_in_picture)
        return write_static_site(tmp_path_factory.mktemp("site"))


def test_every_chapter_has_a_key_figure_listed():
    assert sorted(KEY_FIGURES) == [p.stem for p in NOTEBOOKS]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_chapter_page(site, path):
    page = (site / f"{path.stem}.html").read_text()
    nb = nbformat.read(path, as_version=4)
    title, _ = chapter_info(nb)
    assert f"<title>{title}</title>" in page
    assert KEY_FIGURES[path.stem].replace("&", "&amp;") in page
    # no error or stderr output (the page's CSS names the stderr type, so look for it on an element)
    assert "Traceback (most recent call last)" not in page
    assert not re.search(r'<div[^>]*data-mime-type="application/vnd\.jupyter\.stderr"', page)
    assert (
        'class="jp-OutputArea-output jp-OutputArea-executeResult"' in page
        or "jp-RenderedText" in page
    )
    # every widget shows its static first view, not a VBox(...) text placeholder; no widget scripts
    widgets = sum(
        1
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    )
    assert page.count('class="widget-snapshot"') == widgets
    assert not re.search(r"<pre>\s*VBox\(children=", page) and "embed-amd.js" not in page
    # each solution is closed, with a summary that says to click it; no check says correct
    solutions = [c for c in nb.cells if "solution" in c.metadata.get("tags", [])]
    folds = re.findall(r"<details>\s*<summary>(.*?)</summary>(.*?)</details>", page, re.S)
    assert len(folds) == len(solutions) and "<details open" not in page
    for summary, _ in folds:
        assert "click to open it" in summary
    assert "correct.</" not in page and ": correct." not in page


def _stream_lines(cell) -> list[str]:
    """The non-blank lines a code cell printed, escaped as a page shows them."""
    lines = []
    for out in cell.get("outputs", []):
        if out.get("output_type") == "stream":
            lines += [
                html.escape(ln.strip(), quote=False)
                for ln in out["text"].splitlines()
                if ln.strip()
            ]
    return lines


#: Hosts of public CDNs: no page may name one (a reference would leave raw TeX, or no script,
#: offline).
CDN_HOSTS = re.compile(
    r"https?://[^\s\"'<>]*(cdnjs|jsdelivr|unpkg|cloudflare|googleapis|gstatic|mathjax\.org|cdn\.)",
    re.I,
)
#: A script, style sheet, font, image or module fetched from the network, whatever the host.
EXTERNAL_LOAD = re.compile(
    r"<(script|link|img|iframe|source)\b[^>]*\b(src|href)\s*=\s*[\"']?(https?:)?//"
    r"|\bimport\s*\(\s*[\"'](https?:)?//|@import\s+(url\()?[\"']?(https?:)?//|url\(\s*[\"']?(https?:)?//",
    re.I,
)


def test_no_page_loads_anything_from_the_network(site):
    pages = sorted(site.glob("*.html"))
    assert len(pages) == len(NOTEBOOKS) + 1
    for page in pages:
        text = page.read_text()
        assert not CDN_HOSTS.search(text), (
            f"{page.name} names a CDN: {CDN_HOSTS.search(text).group(0)}"
        )
        assert not EXTERNAL_LOAD.search(text), (
            f"{page.name} loads from the network: {EXTERNAL_LOAD.search(text).group(0)}"
        )


def test_the_network_checks_catch_what_nbconvert_puts_in_by_default():
    """The two patterns above find the script tags of nbconvert's stock lab template (can fail)."""
    stock = (
        '<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>'
        '<script src="https://cdn.jsdelivr.net/npm/mathjax@2/MathJax.js"> </script>'
        'const m = (await import("https://example.org/mermaid.esm.min.mjs")).default;'
    )
    assert CDN_HOSTS.search(stock) and len(EXTERNAL_LOAD.findall(stock)) == 3
    fine = (
        '<a href="https://doi.org/10.1145/1321440.1321528">Smucker et al.</a> '
        '<script src="mathjax/MathJax.js"></script>'
    )
    assert not CDN_HOSTS.search(fine) and not EXTERNAL_LOAD.search(fine)


def test_pages_load_mathjax_from_the_site_folder(site):
    config = MATHJAX_CONFIG.split(",")
    assert (site / MATHJAX_DIR / "MathJax.js").is_file()
    for name in config:
        assert (site / MATHJAX_DIR / "config" / f"{name}.js").is_file(), (
            f"MathJax config {name} was not copied"
        )
    fonts = list((site / MATHJAX_DIR / "fonts" / "HTML-CSS" / "STIX-Web" / "woff").glob("*.woff"))
    assert fonts, "MathJax's STIX web fonts were not copied"
    for path in NOTEBOOKS:
        page = (site / f"{path.stem}.html").read_text()
        assert f'<script src="{MATHJAX_DIR}/MathJax.js?config={MATHJAX_CONFIG}"></script>' in page


def test_index_links_every_chapter_in_order(site):
    index = (site / "index.html").read_text()
    links = re.findall(r'<a href="([^"]+)">', index)
    assert links == [f"{p.stem}.html" for p in NOTEBOOKS]
    for path in NOTEBOOKS:
        title, minutes = chapter_info(nbformat.read(path, as_version=4))
        assert f'>{title}</a> <span class="time">({minutes})</span>' in index.replace("&#x27;", "'")


def _quiz_cells(nb):
    return [
        c
        for c in nb.cells
        if c.cell_type == "code"
        and "helpers.quiz(" in c.source
        and "solution" not in c.metadata.get("tags", [])
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_pages_show_each_quiz_but_not_its_answer(site, path):
    """A quiz's code names only its key; the page shows its picture, with no answer marked."""
    from helpers.exercise_table import QUIZZES

    page = (site / f"{path.stem}.html").read_text()
    plain = html.unescape(re.sub(r"<[^>]+>", "", page))
    quizzes = _quiz_cells(nbformat.read(path, as_version=4))
    assert page.count('class="widget-snapshot"') >= len(quizzes)
    assert "answer=" not in plain and "Correct." not in plain
    for key, q in QUIZZES.items():
        if key.startswith(f"{int(path.name[:2])}.q"):
            assert q["explanations"][q["answer"]] not in plain, key


def _explorer_pictures(page: str) -> list[str]:
    data = re.search(r'class="explorer-data"[^>]*>(.*?)</script>', page, re.S).group(1)
    return json.loads(data)["pictures"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_pages_widgets_work_without_a_kernel(site, path):
    """Issue 42: each quiz and the explorer have a working static version after their picture,
    run by the page's own script (tools/static/widgets.js). The explorer's pictures are drawn by
    its own code in the series' style, one per multiset: here its stand-in must have been asked
    for the 35 multisets of the chapter's changes at its level, in set_style's settings, and the
    page must show the one drawn for draw 28 first; the full sweep compares the real pictures
    (test_the_explorers_pictures_on_its_page_are_its_own)."""
    from fractions import Fraction

    from matplotlib import rc_context
    from notebook_tools import STATIC_WIDGETS_JS

    from helpers import FOUR_PAIR_CHANGES, set_style

    page = (site / f"{path.stem}.html").read_text()
    nb = nbformat.read(path, as_version=4)
    assert STATIC_WIDGETS_JS.read_text(encoding="utf-8").strip() in page
    assert page.count('class="static-widget static-quiz"') == len(_quiz_cells(nb))
    explorers = [c for c in nb.cells if c.cell_type == "code" and "resample_explorer(" in c.source]
    assert page.count('class="static-widget static-explorer"') == len(explorers)
    if explorers:
        assert len(_explorer_pictures(page)) == len(EXPLORER_CALLS) == 35
        assert len({call["counts"] for call in EXPLORER_CALLS}) == 35
        with rc_context():
            set_style()
            style = {key: _rc(key) for key in STYLE_KEYS}
        for call in EXPLORER_CALLS:
            assert call["changes"] == list(FOUR_PAIR_CHANGES) and call["style"] == style
            assert call["half_alpha"] == Fraction(1, 40)
            assert call["query_ids"] == ["q1", "q2", "q3", "q4"]
        first = [c["counts"] for c in EXPLORER_CALLS].index(describe_draw(28).counts) + 1
        stand_in = base64.b64encode(f"stand-in picture {first}".encode()).decode()
        assert f'src="data:image/png;base64,{stand_in}"' in page


@pytest.mark.sweep
def test_the_explorers_pictures_on_its_page_are_its_own(static_site):
    """On the pages make html writes, the explorer's 35 pictures are PNGs, each different, and
    the first it shows is the one the explorer draws for draw 28 now (with the lock, nbval
    checks that this is the picture the chapter stores, byte for byte; the browser test follows
    the slider through the others)."""
    from fractions import Fraction

    import numpy as np
    from matplotlib import rc_context

    from helpers import FOUR_PAIR_CHANGES, set_style
    from helpers.widgets import _explorer_png

    page = (static_site / "02_all_256_resamples.html").read_text()
    pictures = _explorer_pictures(page)
    assert len(set(pictures)) == 35
    assert all(p.startswith("data:image/png;base64,iVBORw0KGgo") for p in pictures)
    with rc_context():
        set_style()
        first = _explorer_png(np.array(FOUR_PAIR_CHANGES), 28, Fraction(1, 40))
    assert f'src="data:image/png;base64,{base64.b64encode(first).decode()}"' in page


@pytest.mark.sweep
def test_the_site_stays_small(static_site):
    """With the explorer's real pictures (6 MB of chapter 2's page): the full sweep's."""
    size = sum(f.stat().st_size for f in static_site.rglob("*") if f.is_file())
    assert size <= 60 * 2**20, f"site/ is {size / 2**20:.1f} MiB, over 60"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_every_figure_has_its_text_alternative_not_the_placeholder(site, path):
    """Each PNG a chapter stores is an image on its page whose alt is the sentence of the figure
    function its cell calls (helpers/plots.py), or one made of the figure's title and labels."""
    from notebook_tools import figure_text

    nb = nbformat.read(path, as_version=4)
    expected = [
        figure_text(c.source)
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if "image/png" in o.get("data", {})
    ]
    page = (site / f"{path.stem}.html").read_text()
    from bs4 import BeautifulSoup

    figures = BeautifulSoup(page, "html.parser").select("div.jp-RenderedImage > img")
    alts = [img.get("alt") for img in figures]
    assert "No description has been provided" not in page
    assert None not in expected and alts == expected, (alts, expected)


def test_figure_text_names_each_helpers_figure_and_describes_one_drawn_by_hand():
    from notebook_tools import describe_figures, figure_text

    from helpers.plots import FIGURE_TEXT

    assert figure_text("helpers.plot_intervals(a)") == FIGURE_TEXT["plot_intervals"]
    two = figure_text("helpers.plot_sorted_changes(d, ax=l)\nhelpers.plot_coverage(s, c, ax=r)")
    assert two == f"{FIGURE_TEXT['plot_sorted_changes']} {FIGURE_TEXT['plot_coverage']}"
    assert figure_text("t = helpers.compare_many(m)\nt.plot()") == FIGURE_TEXT["plot_forest"]
    by_hand = 'fig.suptitle("All 27")\nax.set_title("Left")\nax.set_xlabel("x")\nax.set_ylabel("y")'
    assert figure_text(by_hand) == 'A figure, "All 27": y against x; its panels: Left.'
    assert figure_text("plt.plot([1, 2])") is None
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("plt.plot([1, 2])")
    cell.outputs = [nbformat.v4.new_output("display_data", data={"image/png": "iVBO"})]
    nb.cells = [cell]
    with pytest.raises(ValueError, match="cell 0 draws a figure with no text alternative"):
        describe_figures(nb)
    # every figure function the helpers export has its sentence
    import helpers

    drawing = {n for n in helpers.__all__ if n.startswith("plot_")}
    assert drawing and drawing <= set(FIGURE_TEXT)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_each_check_on_a_page_says_what_a_reader_can_do_there(site, path):
    """The book's checks (every answer still ...) ask to run cells; a page offers the solution
    below the check and the lab instead."""
    from notebook_tools import ON_A_PAGE

    nb = nbformat.read(path, as_version=4)
    keys = [
        m.group(1)
        for c in nb.cells
        if c.cell_type == "code" and (m := re.match(r'helpers\.check\("(\d+\.\d+)"', c.source))
    ]
    page = (site / f"{path.stem}.html").read_text()
    text = html.unescape(page)
    assert "run that cell" not in text and "not answered yet" not in text
    for key in keys:
        assert f"<b>Exercise {key}:</b> {ON_A_PAGE[0]}{ON_A_PAGE[1]}" in text, key
