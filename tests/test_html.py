"""The static HTML edition (make html): one page per chapter with its outputs, and an index."""

import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from notebook_tools import NOTEBOOKS, chapter_info

ROOT = Path(__file__).resolve().parent.parent

#: One figure each chapter prints, which its page must show (escaped as HTML would be).
KEY_FIGURES = {
    "00_start_here": "d_q = +0.10, +0.02, -0.06, +0.04",
    "01_paired_bootstrap": "95% paired bootstrap interval for B - A: [-0.133, -0.008]",
    "02_all_256_resamples": "256 resamples; exact 95% interval [-0.035, +0.080]",
    "03_exact_bootstrap": "0.9743",
    "04_user_clusters": "+0.0133",
    "05_randomization_tests": "p = 0.6250 (10 of 16)",
    "06_protecting_and_reporting": "+4.17%",
    "07_your_own_runs": "150 queries compared",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "notebook_tools.py"), "--html", str(out)],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return out


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
    assert 'class="jp-OutputArea-output jp-OutputArea-executeResult"' in page or "jp-RenderedText" in page
    # every widget shows its static first view, not a VBox(...) text placeholder; no widget scripts
    widgets = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {}))
    assert page.count('class="widget-snapshot"') == widgets
    assert not re.search(r"<pre>\s*VBox\(children=", page) and "embed-amd.js" not in page
    # solutions are folded away
    solutions = sum(1 for c in nb.cells if "solution" in c.metadata.get("tags", []))
    assert page.count('<details class="solution">') == solutions


def test_index_links_every_chapter_in_order(site):
    index = (site / "index.html").read_text()
    links = re.findall(r'<a href="([^"]+)">', index)
    assert links == [f"{p.stem}.html" for p in NOTEBOOKS]
    for path in NOTEBOOKS:
        title, minutes = chapter_info(nbformat.read(path, as_version=4))
        assert f">{title}</a> <span class=\"time\">({minutes})</span>" in index.replace("&#x27;", "'")
