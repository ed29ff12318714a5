"""Execute notebooks the way the series stores them, export them as a static site.

``python tools/notebook_tools.py NOTEBOOK...`` (what ``make execute`` runs)
executes each notebook top to bottom in a fresh ``python3`` kernel, with the
notebook's folder as working directory, and writes the outputs back in place:
execution counts 1, 2, 3..., widget state saved, no timing metadata.

``python tools/notebook_tools.py --html SITE`` (what ``make html`` runs) writes
every chapter, with its stored outputs, as a page in SITE, plus an index page.
Each widget works without a kernel: its quiz options answer back and the resample
explorer follows its slider (``make_widgets_static`` and ``tools/static/widgets.js``);
with JavaScript off it shows the static picture of its first view that the helpers put in
its display data. Each solution is the chapter's closed "Solution" block.
The pages need no network: MathJax is copied from the jupyter-server-mathjax
package into SITE/mathjax/ and loaded from there.

``python tools/notebook_tools.py --run NOTEBOOK...`` (what ``make test-versions`` runs in
each of its environments) executes each chapter's answer key (the chapter with every solution
run, see ``--answers``) the same way but writes nothing back: it fails on the first cell that
raises an error, names every cell that wrote to stderr and every solution whose check does not
say correct.

``python tools/notebook_tools.py --solutions`` rewrites each chapter's solution
cells (closed ``<details>`` blocks, never executed) from the exercise table,
``helpers/exercise_table.py``, the one place a solution is written.

``python tools/notebook_tools.py --answers DIR`` (what ``make answers`` runs)
writes the instructors' answer key: each chapter with every solution turned into
a code cell that ends by checking itself, and each quiz's answer under it,
executed top to bottom (DIR/NN_*.ipynb) and exported as pages (DIR/NN_*.html).
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
        if (
            merged
            and out.output_type == "stream"
            and merged[-1].output_type == "stream"
            and merged[-1].name == out.name
        ):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


#: The kernel's setting for a run whose figures nobody looks at (the tests' core-only run): the
#: inline backend formats a figure as text only, "<Figure size ... with 1 Axes>",
#: instead of drawing it into a PNG (twice, for its tight bounding box), and says nothing about it.
NO_FIGURES = "--InlineBackend.figure_formats=set()"


def run(
    nb, folder: Path, timeout: int = 300, *, figures: bool = True, allow_errors: bool = False
) -> float:
    """Execute a notebook top to bottom in a fresh kernel in ``folder``; return the seconds.

    ``figures=False`` (for tests that compare no figure) shows each figure as its text, undrawn.
    It saves time only: an older matplotlib-inline (the lower bounds of make test-versions)
    ignores the setting and draws the figures, which no test that uses it minds.
    ``allow_errors=True`` runs on after a cell that raised an error, which stays in its outputs.
    """
    from nbclient import NotebookClient

    client = NotebookClient(
        nb,
        kernel_name="python3",
        timeout=timeout,
        resources={"metadata": {"path": str(folder)}},
        record_timing=False,
        store_widget_state=True,
        allow_errors=allow_errors,
        extra_arguments=[] if figures else [NO_FIGURES],
    )
    start = time.perf_counter()
    client.execute()
    elapsed = time.perf_counter() - start
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)
    return elapsed


def execute(path: Path, timeout: int = 300) -> float:
    """Execute one notebook in place; return the wall time in seconds."""
    nb = nbformat.read(path, as_version=4)
    elapsed = run(nb, path.parent, timeout)
    nbformat.write(nb, path)
    return elapsed


def run_without_storing(paths: list[Path], timeout: int = 300) -> int:
    """Execute each chapter's answer key (the chapter with its solutions run, each ending with
    its check) in a fresh kernel, writing nothing; 0 when no cell raised an error, no cell wrote
    to stderr and every check said correct.

    The outputs are not compared (outside the lock a last digit may differ); a cell that wrote
    to stderr (a warning the learner would see) is named, and counts as a failure too."""
    from nbclient.exceptions import CellExecutionError

    failed = 0
    for path in paths:
        nb = answer_key_notebook(path)
        try:
            seconds = run(nb, path.parent, timeout)
        except CellExecutionError as error:
            failed += 1
            print(f"{path.name}: ERROR\n{error}", flush=True)
            continue
        stderr = [
            (i, out.text.strip().splitlines()[-1] if out.text.strip() else "")
            for i, cell in enumerate(nb.cells)
            if cell.cell_type == "code"
            for out in cell.outputs
            if out.output_type == "stream" and out.name == "stderr"
        ]
        wrong = [
            key
            for i, key in solution_keys(path, nb)
            if f"Exercise {key}: correct." not in str(nb.cells[i].outputs)
        ]
        failed += bool(stderr or wrong)
        said = "STDERR" if stderr else "WRONG SOLUTION" if wrong else "ran"
        print(f"{path.name}: {said} in {seconds:.1f} s", flush=True)
        for i, last in stderr:
            print(f"  cell {i} wrote to stderr: {last}")
        for key in wrong:
            print(f"  solution {key}: its check does not say correct")
    print(
        f"{len(paths) - failed} of {len(paths)} notebooks ran with their solutions, with no "
        "error, no stderr output and every check saying correct"
    )
    return 1 if failed else 0


def solution_keys(path: Path, nb) -> list[tuple[int, str]]:
    """(cell index, exercise key) of each solution cell: the n-th of chapter N is "N.n"."""
    cells = [i for i, c in enumerate(nb.cells) if "solution" in c.metadata.get("tags", [])]
    return [(i, f"{int(path.name[:2])}.{n}") for n, i in enumerate(cells, start=1)]


def solution_places(path: Path, nb) -> list[tuple[int, str]]:
    """(code cells above it, exercise key) of each solution cell: where the tests run it in the
    chapter's own nbval run (conftest.py), after the exercise's answer and check cells."""
    code = [i for i, c in enumerate(nb.cells) if c.cell_type == "code"]
    return [(sum(1 for c in code if c < i), key) for i, key in solution_keys(path, nb)]


def sync_solutions(path: Path) -> bool:
    """Rewrite a chapter's solution cells from the exercise table; True if any changed."""
    from helpers.exercises import solution_markdown

    nb = nbformat.read(path, as_version=4)
    changed = False
    for i, key in solution_keys(path, nb):
        if nb.cells[i].source != solution_markdown(key):
            nb.cells[i].source, changed = solution_markdown(key), True
    if changed:
        nbformat.write(nb, path)
    return changed


def answer_key_notebook(path: Path):
    """A chapter with each solution as a code cell that checks itself, each quiz's answer shown."""
    from helpers.exercise_table import EXERCISES
    from helpers.exercises import quiz_data

    nb = nbformat.read(path, as_version=4)
    for i, key in solution_keys(path, nb):
        ex = EXERCISES[key]
        cell = nbformat.v4.new_code_cell(
            f'{ex["solution"].strip()}\nhelpers.check("{key}", {ex["name"]})'
        )
        cell.metadata.update(nb.cells[i].metadata)
        nb.cells[i] = cell
    quizzes = [i for i, c in enumerate(nb.cells) if "helpers.quiz(" in c.source]
    for n, i in reversed(list(enumerate(quizzes, start=1))):
        q = quiz_data(f"{int(path.name[:2])}.q{n}")
        answer = nbformat.v4.new_markdown_cell(
            f"**Answer:** {q['options'][q['answer']]} {q['explanations'][q['answer']]}"
        )
        answer.metadata.update(section=nb.cells[i].metadata.get("section"), tags=["quiz-answer"])
        nb.cells.insert(i + 1, answer)
    return nb


def write_answer_key(folder: Path, notebooks: list[Path] = NOTEBOOKS) -> list[Path]:
    """Execute every chapter's answer key into ``folder`` (run in notebooks/, for its data)."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for path in notebooks:
        nb = answer_key_notebook(path)
        run(nb, path.parent)
        nbformat.write(nb, folder / path.name)
        written.append(folder / path.name)
    return written


#: Where the static edition keeps its copy of MathJax, relative to the pages.
MATHJAX_DIR = "mathjax"
#: The MathJax 2 configuration the pages load: TeX input, HTML-CSS output with
#: the STIX web fonts shipped in jupyter-server-mathjax, and the Safe extension.
MATHJAX_CONFIG = "TeX-AMS-MML_HTMLorMML-full,Safe"

_PAGE_TEMPLATE = """{%- extends 'lab/index.html.j2' -%}
{#- No script from the network: no require.js (no widget needs it: each works with the
    page's own script below, or shows its static picture), no mermaid (no chapter draws a
    diagram), and MathJax from the copy next to the pages. -#}
{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}
{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}
{%- block html_head_js_mathjax -%}
<script src="{{ resources.local_mathjax_url }}"></script>
<script type="text/x-mathjax-config">
MathJax.Hub.Config({
    tex2jax: {
        inlineMath: [ ['$','$'], ["\\\\(","\\\\)"] ],
        displayMath: [ ['$$','$$'], ["\\\\[","\\\\]"] ],
        processEscapes: true,
        processEnvironments: true
    },
    TeX: { equationNumbers: { autoNumber: "AMS", useLabelIds: true } },
    "HTML-CSS": { availableFonts: [], imageFont: null, preferredFont: null, webFont: "STIX-Web",
        {#- MathJax measures its web fonts against an empty one whose source is about:blank, which
            a page opened from disk (file://) may not load: Chromium logs a CORS error. -#}
        styles: { "@font-face": { "font-family": "MathJax_Blank", src: "local('MathJax_Blank')" } }
    },
    displayAlign: 'center',
    messageStyle: 'none',
    showMathMenu: false
});
</script>
{%- endblock html_head_js_mathjax -%}
{% block extra_css %}
<style type="text/css">
{#- WCAG 2.1 AA (tests/browser/test_static_accessibility.py): text at least 4.5:1 against its
    background (the lab theme's code colours and its faded prompts are lighter), and links
    in prose underlined, not told apart by colour alone. -#}
body {
  --jp-mirror-editor-number-color: #007400;
  --jp-mirror-editor-comment-color: #35706f;
  --jp-mirror-editor-operator-color: #8a1fd1;
  --jp-cell-prompt-not-active-opacity: 1;
  --jp-cell-prompt-not-active-font-color: #616161;
}
body .jp-RenderedHTMLCommon a:link, body .jp-RenderedHTMLCommon a:visited {
  text-decoration: underline; }
details > summary { cursor: pointer; margin: 0.5em 0;
  font-family: var(--jp-ui-font-family, sans-serif); }
div.solution-shown { border-left: 4px solid #009E73; padding-left: 0.5em; margin: 0.5em 0;
  font-family: var(--jp-ui-font-family, sans-serif); }
.static-widget[hidden], .widget-snapshot[hidden], .quiz-feedback[hidden] {
  display: none !important; }
.static-quiz .quiz-option { display: block; width: 100%; text-align: left; margin: 0 0 0.4em;
  padding: 0.35em 0.6em; font: inherit; line-height: 1.4; white-space: normal; cursor: pointer;
  background: #f4f4f4; border: 1px solid #bbbbbb; border-radius: 4px; }
.static-quiz .quiz-option[aria-pressed="true"] { border: 2px solid #0072B2; background: #e8f1f8; }
.static-explorer .explorer-slider { width: 100%; margin: 0.3em 0; }
.static-explorer label { display: flex; gap: 0.6em; align-items: center; }
.static-explorer .explorer-preset { margin: 0 0.5em 0.4em 0; padding: 0.3em 0.7em; font: inherit; }
</style>
{%- if resources.static_widgets_js %}
<script>
{{ resources.static_widgets_js | safe }}
</script>
{%- endif %}
{% endblock extra_css %}
{% block codecell -%}
{%- if 'solution' in cell.metadata.get('tags', []) and resources.answer_key -%}
<div class="solution-shown"><p><b>Solution</b></p>
{{ super() }}
</div>
{%- else -%}
{{ super() }}
{%- endif -%}
{%- endblock codecell %}
{#- A figure's text alternative (figure_text) as its image's alt, instead of nbconvert's
    placeholder. -#}
{% block data_png scoped %}
<div class="jp-RenderedImage jp-OutputArea-output {{ extra_class }}">
<img src="data:image/png;base64,{{ output.data['image/png'] | escape_html }}"
{%- set alt = output | get_metadata('alt', 'image/png') %}
{%- if alt %} alt="{{ alt | escape_html }}"{% endif %}
{%- set width = output | get_metadata('width', 'image/png') %}
{%- if width is not none %} width={{ width | escape_html }}{% endif %}
{%- set height = output | get_metadata('height', 'image/png') %}
{%- if height is not none %} height={{ height | escape_html }}{% endif %}
>
</div>
{%- endblock data_png %}
{#- The lab template passes highlighted code through bleach (clean_html), which re-parses
    every line (about 1 s of the 7 s of make html) for nothing here: Pygments escapes the
    source and writes only <div>, <pre> and <span class=...>; the pages come out identical. -#}
{% block input %}
<div class="jp-CodeMirrorEditor jp-Editor jp-InputArea-editor" data-type="inline">
     <div class="cm-editor cm-s-jupyter">
{{ cell.source | highlight_code(metadata=cell.metadata) }}
     </div>
</div>
{%- endblock input %}
"""

#: The static pages' script for the widgets (quizzes that answer back, the resample explorer).
STATIC_WIDGETS_JS = Path(__file__).resolve().parent / "static" / "widgets.js"


def make_widgets_static(nb) -> int:
    """Give each widget output of ``nb`` its static, working version after its snapshot
    (:func:`static_widgets.static_widget_html`); return how many widgets it changed."""
    from static_widgets import static_widget_html

    changed = 0
    for cell in nb.cells:
        for out in cell.get("outputs", []) if cell.cell_type == "code" else []:
            snapshot = out.get("data", {}).get("text/html")
            if isinstance(snapshot, str) and 'class="widget-snapshot" data-static=' in snapshot:
                out["data"]["text/html"] = static_widget_html(snapshot)
                changed += 1
    return changed


#: A figure a cell draws with matplotlib itself, described from the words it writes on it
_FIGURE_WORDS = {"suptitle": "", "set_title": "", "set_ylabel": "", "set_xlabel": ""}
#: Figures a helpers method draws, called on a result: (pattern of the cell, figure function)
_FIGURE_METHODS = ((re.compile(r"compare_many\(.*\.plot\(", re.S), "plot_forest"),)


def figure_text(source: str) -> str | None:
    """The text alternative of the figure a cell of this source draws: the sentence of each
    helpers figure function it calls (:data:`helpers.plots.FIGURE_TEXT`), else one made of the
    title and axis labels it writes with matplotlib; None if it names neither.

    >>> figure_text("ax = helpers.plot_sorted_changes(d)")
    'A bar chart of every query\'s change B - A, sorted from the largest loss to the largest win.'
    >>> figure_text('ax.set_title("Close-up")\nax.set_xlabel("v")\nax.set_ylabel("F(v)")')
    'A figure, "Close-up": F(v) against v.'
    """
    import ast

    import helpers.runs  # noqa: F401 (its figure functions' sentences)
    from helpers.plots import FIGURE_TEXT

    names = [n for n in re.findall(r"\b(plot_\w+)\(", source) if n in FIGURE_TEXT]
    names += [name for pattern, name in _FIGURE_METHODS if pattern.search(source)]
    if names:
        return " ".join(FIGURE_TEXT[n] for n in dict.fromkeys(names))
    words: dict[str, list[str]] = {k: [] for k in _FIGURE_WORDS}
    for node in ast.walk(ast.parse(source)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in words
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            words[node.func.attr].append(node.args[0].value)
    titles = words["suptitle"] + words["set_title"]
    if not titles:
        return None
    text = f'A figure, "{titles[0]}"'
    if words["set_ylabel"] and words["set_xlabel"]:
        text += f": {words['set_ylabel'][0]} against {words['set_xlabel'][0]}"
    if len(titles) > 1:
        text += f"; its panels: {', '.join(titles[1:])}"
    return text + "."


def describe_figures(nb) -> int:
    """Give each figure of ``nb`` (a PNG output) its text alternative (:func:`figure_text`) in
    its metadata, where the page's template puts it as the image's alt; return how many. A cell
    whose figure has no text alternative is a ValueError naming the cell."""
    described = 0
    for i, cell in enumerate(nb.cells):
        figures = [o for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]
        if cell.cell_type != "code" or not figures:
            continue
        text = figure_text(cell.source)
        if text is None:
            raise ValueError(
                f"cell {i} draws a figure with no text alternative: draw it with a helpers "
                "figure function (helpers/plots.py gives each a sentence), or give it a title "
                "and axis labels (ax.set_title, set_xlabel, set_ylabel)."
            )
        for out in figures:
            meta = out.setdefault("metadata", {}).setdefault("image/png", {})
            meta.setdefault("alt", text)
            described += 1
    return described


#: What a static page says for a check of an exercise not answered (as every check in the book
#: is), instead of the notebook's message, which asks the reader to run cells: (the check's
#: exercise has a solution below it, what the page can offer), then always the way to run it.
ON_A_PAGE = (
    "nothing runs on this page. Work your answer out, then open the solution below to compare. ",
    "To check your own code, run this chapter in the lab (make lab, or python3 run.py lab).",
)
_CHECK_CELL = re.compile(r'^helpers\.check\("(\d+\.\d+)"')


def checks_for_a_page(nb) -> int:
    """Replace the stored output of each check not answered (every check in the book) with
    what a reader of a static page can do (:data:`ON_A_PAGE`); return how many."""
    from helpers.exercises import CheckResult

    changed = 0
    for i, cell in enumerate(nb.cells):
        key = _CHECK_CELL.match(cell.source) if cell.cell_type == "code" else None
        for out in cell.get("outputs", []) if key else []:
            if "not answered yet" in str(out.get("data", {}).get("text/plain", "")):
                tags = nb.cells[i + 1].metadata.get("tags", []) if i + 1 < len(nb.cells) else []
                message = ON_A_PAGE[0] * ("solution" in tags) + ON_A_PAGE[1]
                result = CheckResult(key.group(1), "unanswered", message)
                out["data"] = {"text/html": result._repr_html_(), "text/plain": repr(result)}
                changed += 1
    return changed


#: What a page shows of an output, first match wins: a widget's static picture
#: (text/html) before the live widget view, which needs a kernel.
_PRIORITY = [
    "text/html",
    "application/vnd.jupyter.widget-view+json",
    "application/javascript",
    "text/markdown",
    "image/svg+xml",
    "text/latex",
    "image/png",
    "image/jpeg",
    "text/plain",
]


def chapter_info(nb) -> tuple[str, str]:
    """(title, time) of a chapter's first cell: ("Chapter 1 · ...", "core 35 min, full 60 min")."""
    first = nb.cells[0].source
    title = first.splitlines()[0].lstrip("#").strip()
    both = re.search(r"\*\*Time:\*\* core about (\d+) minutes, full about (\d+) minutes", first)
    if both:
        return title, f"core {both.group(1)} min, full {both.group(2)} min"
    minutes = re.search(r"\*\*Time:\*\* about (\d+) minutes", first)
    return title, f"{minutes.group(1)} min" if minutes else ""


def mathjax_source() -> Path:
    """The MathJax 2 files of the jupyter-server-mathjax package (found without importing it)."""
    import importlib.util

    spec = importlib.util.find_spec("jupyter_server_mathjax")
    if spec is None or not spec.submodule_search_locations:
        raise ValueError(
            "MathJax is not installed: the static edition typesets its formulas with the copy "
            "in the jupyter-server-mathjax package (requirements.lock). Run `make env` "
            "(or pip install -r requirements.lock) and try again."
        )
    static = Path(next(iter(spec.submodule_search_locations))) / "static"
    if not (static / "MathJax.js").is_file():
        raise ValueError(
            f"{static}/MathJax.js is missing: reinstall jupyter-server-mathjax "
            "(make clean && make env)."
        )
    return static


def copy_mathjax(site: Path) -> Path:
    """Copy MathJax next to the pages (site/mathjax/), so they typeset formulas with no network."""
    import shutil

    target = site / MATHJAX_DIR
    shutil.copytree(mathjax_source(), target, dirs_exist_ok=True)
    return target


def export_html(notebooks: list[Path], site: Path, *, answer_key: bool = False) -> list[Path]:
    """Write one page per notebook and an index page linking them in order; return the pages.

    The pages load nothing from the network: MathJax is copied into ``site/mathjax``
    and referenced relatively. Each solution is the chapter's closed "Solution" block;
    with ``answer_key=True`` (pages of :func:`write_answer_key`'s notebooks) each solution
    is a code cell, shown with its output.
    """
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
    copy_mathjax(site)
    resources = {
        "local_mathjax_url": f"{MATHJAX_DIR}/MathJax.js?config={MATHJAX_CONFIG}",
        "answer_key": answer_key,
        # the answer key shows every quiz's answer already: its widgets stay pictures
        "static_widgets_js": "" if answer_key else STATIC_WIDGETS_JS.read_text(encoding="utf-8"),
    }
    pages, items = [], []
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        nb.metadata.pop("widgets", None)  # no widget scripts: see make_widgets_static
        describe_figures(nb)
        if not answer_key:
            make_widgets_static(nb)
            checks_for_a_page(nb)
        title, minutes = chapter_info(nb)
        body, _ = exporter.from_notebook_node(
            nb, resources={"metadata": {"name": title}, **resources}
        )
        page = site / f"{path.stem}.html"
        page.write_text(body, encoding="utf-8")
        pages.append(page)
        items.append(
            f'<li><a href="{page.name}">{html.escape(title)}</a> '
            f'<span class="time">({minutes})</span></li>'
        )
    if answer_key:
        heading = "Did search improve? Answer key"
        intro = (
            "<p>The instructors' edition: every chapter with <b>every exercise's solution run "
            "and shown</b>, code and output, and each quiz's answer. It is generated from the "
            "notebooks and the exercise table by <code>make answers</code>; do not edit it by "
            "hand, and do not hand it to learners.</p>\n"
        )
    else:
        heading = "Did search improve?"
        intro = (
            "<p>A notebook series on comparing two search systems, A and B, on the same judged "
            "queries. These pages show each chapter with its stored outputs; the quizzes and the "
            "resample explorer work here too, with no kernel and no network. To run the code, "
            "open the notebooks in JupyterLab (<code>make lab</code>). Each "
            "exercise's solution is closed: try the exercise first, then click "
            "<b>Solution</b> to open it.</p>\n"
        )
    index = site / "index.html"
    index.write_text(
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{heading}</title>\n'
        "<style>body{font-family:sans-serif;max-width:46em;margin:3em auto;line-height:1.5;"
        "padding:0 1em}"
        f".time{{color:#555}}</style></head>\n<body>\n<h1>{heading}</h1>\n"
        + intro
        + '<ol start="0">\n'
        + "\n".join(items)
        + "\n</ol>\n</body></html>\n",
        encoding="utf-8",
    )
    return pages


if __name__ == "__main__":
    if sys.argv[1:] == ["--solutions"]:
        for path in NOTEBOOKS:
            print(f"{path.name}: {'rewritten' if sync_solutions(path) else 'current'}")
    elif sys.argv[1:2] in (["--html"], ["--answers"]):
        if len(sys.argv) != 3:
            sys.exit(f"usage: python tools/notebook_tools.py {sys.argv[1]} FOLDER")
        site = Path(sys.argv[2])
        key = sys.argv[1] == "--answers"
        sources = write_answer_key(site) if key else NOTEBOOKS
        pages = export_html(sources, site, answer_key=key)
        what = "answer-key pages (every solution shown)" if key else "chapter pages"
        print(f"wrote {len(pages)} {what}, index.html and MathJax ({MATHJAX_DIR}/) to {site}/")
    elif sys.argv[1:2] == ["--run"]:
        sys.exit(run_without_storing([Path(arg) for arg in sys.argv[2:]]))
    else:
        for arg in sys.argv[1:]:
            seconds = execute(Path(arg))
            print(f"executed {arg} in {seconds:.1f} s")
