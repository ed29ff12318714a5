"""Execute notebooks the way the series stores them, export them as a static site.

``python tests/notebook_tools.py NOTEBOOK...`` (what ``make execute`` runs)
executes each notebook top to bottom in a fresh ``python3`` kernel, with the
notebook's folder as working directory, and writes the outputs back in place:
execution counts 1, 2, 3..., widget state saved, no timing metadata.

``python tests/notebook_tools.py --html SITE`` (what ``make html`` runs) writes
every chapter, with its stored outputs, as a page in SITE, plus an index page.
Each widget appears as the static picture of its first view that the helpers
put in its display data, and solutions are folded away behind "Solution".
"""

from __future__ import annotations

import html
import re
import sys
import time
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def coalesce_streams(outputs: list) -> list:
    """Merge consecutive stream outputs of the same name (stdout split by timing)."""
    merged: list = []
    for out in outputs:
        if merged and out.output_type == "stream" and merged[-1].output_type == "stream" and merged[-1].name == out.name:
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


def execute(path: Path, timeout: int = 300) -> float:
    """Execute one notebook in place; return the wall time in seconds."""
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=timeout,
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=True,
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)
    nbformat.write(nb, path)
    return elapsed


_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{% block input_group -%}
{%- if 'solution' in cell.metadata.get('tags', []) -%}
<details class="solution"><summary style="cursor:pointer;margin:0.5em 0"><b>Solution</b> (click to show the code)</summary>
{{ super() }}
</details>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock input_group %}
"""

#: What a page shows of an output, first match wins: a widget's static picture
#: (text/html) before the live widget view, which needs a kernel.
_PRIORITY = [
    "text/html", "application/vnd.jupyter.widget-view+json", "application/javascript", "text/markdown",
    "image/svg+xml", "text/latex", "image/png", "image/jpeg", "text/plain",
]


def chapter_info(nb) -> tuple[str, str]:
    """(title, time) from a chapter's first cell."""
    first = nb.cells[0].source
    title = first.splitlines()[0].lstrip("#").strip()
    minutes = re.search(r"\*\*Time:\*\* about (\d+) minutes", first)
    return title, f"{minutes.group(1)} min" if minutes else ""


def export_html(notebooks: list[Path], site: Path) -> list[Path]:
    """Write one page per notebook and an index page linking them in order; return the pages."""
    from jinja2 import DictLoader
    from nbconvert import HTMLExporter
    from traitlets.config import Config

    config = Config()
    config.NbConvertBase.display_data_priority = _PRIORITY
    exporter = HTMLExporter(
        config=config,
        template_name="lab",
        extra_loaders=[DictLoader({"series.html.j2": _PAGE_TEMPLATE})],
        template_file="series.html.j2",
    )
    site.mkdir(parents=True, exist_ok=True)
    pages, items = [], []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        nb.metadata.pop("widgets", None)  # every widget has its static picture; no widget scripts needed
        title, minutes = chapter_info(nb)
        body, _ = exporter.from_notebook_node(nb, resources={"metadata": {"name": title}})
        page = site / f"{path.stem}.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
        items.append(f'<li><a href="{page.name}">{html.escape(title)}</a> <span class="time">({minutes})</span></li>')
    index = site / "index.html"
    index.write_text(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Did search improve?</title>\n"
        "<style>body{font-family:sans-serif;max-width:46em;margin:3em auto;line-height:1.5;padding:0 1em}"
        ".time{color:#555}</style></head>\n<body>\n<h1>Did search improve?</h1>\n"
        "<p>A notebook series on comparing two search systems, A and B, on the same judged queries. "
        "These pages show each chapter with its stored outputs; to run the code and use the widgets, "
        "open the notebooks in JupyterLab (<code>make lab</code>).</p>\n<ol start=\"0\">\n"
        + "\n".join(items)
        + "\n</ol>\n</body></html>\n",
        encoding="utf-8",
    )
    return pages


if __name__ == "__main__":
    if sys.argv[1:2] == ["--html"]:
        site = Path(sys.argv[2])
        pages = export_html(NOTEBOOKS, site)
        print(f"wrote {len(pages)} chapter pages and index.html to {site}/")
    else:
        for arg in sys.argv[1:]:
            seconds = execute(Path(arg))
            print(f"executed {arg} in {seconds:.1f} s")
