"""Interactive pieces of the notebooks.

Each widget is split in two: a pure function that decides what to show (tested
in plain Python), and a thin function that wires it to ipywidgets controls.
Widgets print nothing, so strict nbval sees only the widget's display.
"""

from __future__ import annotations

import base64
import functools
import html
import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from fractions import Fraction

import numpy as np

from . import _checks
from .data import signed
from .examples import FOUR_PAIR_CHANGES
from .exercises import quiz_data
from .intervals import _percentile_interval
from .plots import plot_exact_distribution, plot_picked_queries
from .resampling import _enumerate_resamples, _exact_means

__all__ = ["Question", "Feedback", "grade", "quiz", "DrawDescription", "describe_draw",
           "EXPLORER_PRESETS", "resample_explorer"]  # fmt: skip


@dataclass(frozen=True)
class Question:
    """A multiple-choice question: ``answer`` is the 0-based index of the correct option, and
    ``explanations`` hold one reason per option, shown when it is chosen."""

    prompt: str
    options: Sequence[str]
    answer: int
    explanations: Sequence[str]

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", tuple(self.options))
        object.__setattr__(self, "explanations", tuple(self.explanations))
        n = len(self.options)
        if n < 2:
            raise ValueError("A question needs at least two options.")
        if len(set(self.options)) != n:
            raise ValueError("Options must be distinct.")
        if len(self.explanations) != n:
            raise ValueError(
                f"Give one explanation per option: {n} options, {len(self.explanations)} "
                "explanations."
            )
        if not 0 <= self.answer < n:
            raise ValueError(f"answer must index an option (0 to {n - 1}); got {self.answer}.")


@dataclass(frozen=True)
class Feedback:
    """What the quiz shows after a choice."""

    correct: bool | None
    message: str


def grade(question: Question, choice: int | None) -> Feedback:
    """Feedback for choosing option ``choice`` (0-based), or ``None`` for no choice yet.

    >>> q = Question("2 + 2?", ["3", "4"], answer=1, explanations=["Off by one.", "Yes."])
    >>> grade(q, 0).message
    'Not quite. Off by one.'
    """
    if choice is None:
        return Feedback(None, "Choose an answer.")
    if not _checks.is_int(choice) or not 0 <= choice < len(question.options):
        raise ValueError(
            f"choice must be an option index from 0 to {len(question.options) - 1}, or None; got "
            f"{choice!r}."
        )
    correct = choice == question.answer
    lead = "Correct." if correct else "Not quite."
    return Feedback(correct, f"{lead} {question.explanations[choice]}")


#: The quiz's feedback text: the palette's green and vermillion darkened to 4.5:1 on white (AA)
_COLOURS = {True: "#007A59", False: "#B34E00", None: "#555555"}


def _with_snapshot(box, body: str, what: str, static: dict):
    """Let ``box`` carry a static HTML picture of its first view (``body``), shown where no
    kernel runs, with a note that running the notebook uses it. ``static`` (in the
    ``data-static`` attribute, as JSON) is what ``tools/static_widgets.py`` needs to make the
    widget work in the static pages without a kernel."""
    data = html.escape(json.dumps(static, sort_keys=True), quote=True)
    snapshot = (
        f'<div class="widget-snapshot" data-static="{data}">\n{body}\n'
        f'<p style="color:#555555"><em>{what}: a picture '
        "of its first view. Run the notebook to use it.</em></p>\n</div>"
    )
    original = box._repr_mimebundle_

    def _repr_mimebundle_(**kwargs):
        bundle = original(**kwargs)
        if bundle is not None:
            bundle["text/html"] = snapshot
        return bundle

    box._repr_mimebundle_ = _repr_mimebundle_
    return box


def _feedback_html(fb: Feedback) -> str:
    return f'<span style="color:{_COLOURS[fb.correct]}">{html.escape(fb.message)}</span>'


#: The quiz's options wrap within the notebook's width, each a line or more with its button at
#: the left (ipywidgets lays radio labels out one fixed-height line each, cut off if too long;
#: its radio box has the class widget-radio-box, and jupyter-widget-radio-box in newer versions).
_QUIZ_STYLE = (
    "<style>.quiz :is(.widget-radio-box, .jupyter-widget-radio-box) label {height: auto; "
    "line-height: 1.4; display: flex; align-items: baseline; margin: 0 0 0.4em} "
    ".quiz :is(.widget-radio-box, .jupyter-widget-radio-box) input {order: -1; flex: none; "
    "float: none; height: auto}</style>"
)


def quiz(question: Question | str, **values: object):  # -> ipywidgets.VBox
    """A multiple-choice check with immediate feedback, built from ipywidgets.

    The chapters pass a quiz's key (``helpers.quiz("1.q1")``), so that its answer
    is not in their source; ``values`` fill in its prompt.

    >>> q = Question("2 + 2?", ["3", "4"], answer=1, explanations=["Off by one.", "Yes."])
    >>> box = quiz(q)
    >>> box.children[1].value = "4"
    >>> "Correct" in box.children[2].value
    True
    """
    import ipywidgets as widgets

    if isinstance(question, str):
        key, question = question, _keyed_question(question, quiz_data(question)["prompt"], values)
        static = {"kind": "quiz", "key": key, "prompt": question.prompt}
    else:
        static = {"kind": "quiz", "question": asdict(question)}
    bold = f"<b>{html.escape(question.prompt)}</b>"
    prompt = widgets.HTML(bold)
    auto = widgets.Layout(width="auto")
    choices = widgets.RadioButtons(options=list(question.options), value=None, layout=auto)
    feedback = widgets.HTML(_feedback_html(grade(question, None)))

    def on_change(change: dict) -> None:
        index = None if change["new"] is None else question.options.index(change["new"])
        feedback.value = _feedback_html(grade(question, index))

    choices.observe(on_change, names="value")
    style = widgets.HTML(_QUIZ_STYLE, layout=widgets.Layout(display="none"))
    box = widgets.VBox([prompt, choices, feedback, style])
    box.add_class("quiz")
    items = "".join(f"<li>{html.escape(o)}</li>" for o in question.options)
    picture = f'<p>{bold}</p>\n<ul style="list-style:circle">{items}</ul>'
    return _with_snapshot(box, picture, "Multiple-choice check", static)


def _keyed_question(key: str, prompt: str, values: dict | None = None) -> Question:
    """Quiz ``key`` of the exercise table with ``prompt`` (filled in with ``values``, if given):
    the chapter's quiz, and in a static page the same quiz with the prompt the chapter filled."""
    data = quiz_data(key)
    if values is not None:
        prompt = prompt.format(**values)
    return Question(prompt, data["options"], data["answer"], data["explanations"])


# --- The resample explorer (chapter 2) ---------------------------------------

#: The example's three notable draws of the four-pair example: (button label, draw number).
EXPLORER_PRESETS: tuple[tuple[str, int], ...] = (
    ("Original four pairs", 28),
    ("Repeat q1, omit q2", 15),
    ("All q3", 171),
)

_FOUR_QUERIES = ("q1", "q2", "q3", "q4")
#: The explorer's Play button, by whether it is playing, and the tooltips of its two switches
_PLAY = {False: "▶ Play", True: "⏸ Pause"}
_PLAY_TIP = (
    "Step through the draws from the one shown, one every 0.6 s; Pause stops at the draw shown"
)
_LOOP_TIP = "Loop: when on, Play goes on from draw 1 after the last draw; when off, it stops there"


@dataclass(frozen=True)
class DrawDescription:
    """One ordered resample, ready to show: which queries, their changes, their mean, and how
    many times it drew each query (``counts``, in the order of the queries)."""

    k: int
    n_draws: int
    indices: tuple[int, ...]
    counts: tuple[int, ...]
    queries: str
    changes: str
    mean: float

    @property
    def text(self) -> str:
        """The draw as one line of text."""
        return (
            f"Draw {self.k} of {self.n_draws}: {self.queries} | Selected changes: {self.changes} | "
            f"Mean: {signed(self.mean)}"
        )

    @property
    def html(self) -> str:
        """The same line as HTML, the draw number in bold (what the explorer shows)."""
        head, rest = self.text.split(": ", 1)
        return f"<b>{head}</b>: {html.escape(rest)}"


def describe_draw(
    k: int,
    changes: Sequence[float] = FOUR_PAIR_CHANGES,
    query_ids: Sequence[str] = _FOUR_QUERIES,
) -> DrawDescription:
    """Describe draw ``k`` (1-based, lexicographic order) of all ``n**n`` ordered resamples.

    What the resample explorer shows; ``changes`` default to the four-pair example.

    >>> describe_draw(28).text
    'Draw 28 of 256: q1, q2, q3, q4 | Selected changes: +0.10, +0.02, -0.06, +0.04 | Mean: +0.025'
    """
    return _describe_draw(*_draw_iv(k, changes, query_ids))


def _draw_iv(k: object, changes: object, query_ids: object) -> tuple[int, np.ndarray, list]:
    """The checked draw number, changes and query IDs."""
    d = _checks.scores(changes, "changes")
    if isinstance(query_ids, (str, bytes)):
        raise ValueError(
            "query_ids must be a sequence of query IDs, one per change, not a single string."
        )
    query_ids = list(query_ids)  # type: ignore[call-overload]
    if len(query_ids) != d.size:
        raise ValueError(f"{len(query_ids)} query IDs for {d.size} changes.")
    if not _checks.is_int(k) or not 1 <= k <= d.size**d.size:
        raise ValueError(f"k must be a draw number from 1 to {d.size**d.size}; got {k!r}.")
    return int(k), d, query_ids


def _describe_draw(k: int, d: np.ndarray, query_ids: list) -> DrawDescription:
    row = _draws(d.size)[k - 1]
    picked = d[row]
    return DrawDescription(
        k=k,
        n_draws=d.size**d.size,
        indices=tuple(int(i) for i in row),
        counts=tuple(int(c) for c in np.bincount(row, minlength=d.size)),
        queries=", ".join(query_ids[i] for i in row),
        changes=", ".join(signed(x, 2) for x in picked),
        mean=float(picked.mean()),
    )


_draws = functools.cache(_enumerate_resamples)  # all n**n ordered resamples of n queries


#: The explorer's figure: its size in inches, drawn at twice the resolution it is shown at
#: (``EXPLORER_CSS_WIDTH`` CSS pixels wide), so that it stays sharp.
EXPLORER_FIGSIZE = (9.0, 3.6)
EXPLORER_CSS_WIDTH = 900  # = 9.0 in x 100 CSS pixels per inch
_EXPLORER_DPI = 200


def _explorer_png(
    d: np.ndarray, k: int, half_alpha: Fraction, query_ids: Sequence[str] = _FOUR_QUERIES
) -> bytes:
    """The explorer's figure for draw ``k`` as PNG bytes (without pyplot): left, which queries
    the draw picked and how often; right, all the means, draw ``k``'s highlighted. It names no
    draw and depends only on how often each query was drawn, so pictures can be cached by that."""
    from matplotlib.figure import Figure

    means, values, probs = _exact_means(d)
    row = _draws(d.size)[k - 1]
    fig = Figure(figsize=EXPLORER_FIGSIZE)  # fixed margins: a constrained layout is slow
    fig.subplots_adjust(left=0.1, right=0.99, bottom=0.2, top=0.91, wspace=0.3)
    left, right = fig.subplots(1, 2, width_ratios=(1, 2.3))
    plot_picked_queries(d, np.bincount(row, minlength=d.size), query_ids=query_ids, ax=left)
    plot_exact_distribution(
        values,
        probs,
        highlight=means[k - 1],
        interval=_percentile_interval(means, half_alpha),
        observed=float(np.mean(d)),
        ax=right,
        title=f"Where its mean lands among all {means.size}",
        ylabel=f"Share of the {means.size} draws",
        legend_columns=2,  # in two rows, to fit beside the left panel
        headroom=1.6,
    )
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=_EXPLORER_DPI)
    return buf.getvalue()


def resample_explorer(
    changes: Sequence[float] = FOUR_PAIR_CHANGES,
    query_ids: Sequence[str] = _FOUR_QUERIES,
    *,
    start: int = 28,
    level: float = 0.95,
):  # -> ipywidgets.VBox
    """Slider over all ``n**n`` ordered resamples, with presets and the exact distribution.

    A slider as wide as the notebook (with Play) picks draw k, three buttons jump to the
    example's notable draws, the text is :func:`describe_draw`'s, and the figure shows which
    queries the draw picked and where its mean lands.

    >>> box = resample_explorer()
    >>> box.children[2].value.startswith("<b>Draw 28 of 256</b>")
    True
    >>> box.children[1].children[5].click()  # "All q3"
    >>> "Draw 171 of 256" in box.children[2].value
    True
    """
    import ipywidgets as widgets

    start, d, query_ids = _draw_iv(start, changes, query_ids)
    total = d.size**d.size
    half_alpha = (1 - _checks.level(level)) / 2
    steps = dict(value=start, min=1, max=total, step=1)
    slider = widgets.IntSlider(
        **steps,
        description="Draw",
        tooltip="Inspect resample: drag, or click and use the arrow keys",
        style={"description_width": "initial"},
        layout=widgets.Layout(flex="1 1 auto", width="auto"),  # over 2.5 px per draw at 1280 px
    )
    # The browser steps the slider (widgets.Play, its icon buttons hidden): a Play/Pause button
    # and a Loop switch, each named and with a tooltip, drive it. Pause holds the draw shown.
    play = widgets.Play(**steps, interval=600, layout=widgets.Layout(display="none"))
    widgets.jslink((play, "value"), (slider, "value"))
    playing = widgets.ToggleButton(description="▶ Play", tooltip=_PLAY_TIP)
    playing.observe(lambda c: setattr(playing, "description", _PLAY[c["new"]]), names="value")
    widgets.jslink((playing, "value"), (play, "playing"))
    loop = widgets.ToggleButton(description="Loop", tooltip=_LOOP_TIP)
    widgets.jslink((loop, "value"), (play, "repeat"))
    buttons = []
    for label, k in EXPLORER_PRESETS:
        if k <= total:  # each button with its own draw
            buttons.append(widgets.Button(description=label, tooltip=f"Go to draw {k}"))
            buttons[-1].on_click(lambda _b, k=k: setattr(slider, "value", k))
    text = widgets.HTML()
    size = widgets.Layout(width=f"{EXPLORER_CSS_WIDTH}px", max_width="100%", height="auto")
    image = widgets.Image(format="png", layout=size)  # shown at half its pixels: sharp
    rendered: dict[tuple[int, ...], bytes] = {}  # picture by counts: it names no draw

    def show(k: int) -> None:
        draw = _describe_draw(k, d, query_ids)
        text.value = draw.html
        if draw.counts not in rendered:
            rendered[draw.counts] = _explorer_png(d, k, half_alpha, query_ids)
        image.value = rendered[draw.counts]

    slider.observe(lambda change: show(change["new"]), names="value")
    show(start)
    top = widgets.HBox([slider], layout=widgets.Layout(width="100%"))
    box = widgets.VBox([top, widgets.HBox([play, playing, loop, *buttons]), text, image])
    box.add_class("resample-explorer")
    return _explorer_snapshot(box, text.value, image.value, d, query_ids, start, level)


def _explorer_snapshot(box, caption: str, png: bytes, d, query_ids, start: int, level: float):
    """``box`` with the picture of its first view (draw ``start``'s caption and figure), and what
    the static pages need to rebuild it: the explorer's arguments."""
    picture = (
        f'<p>{caption}</p>\n<img alt="Draw {start}: the queries it picked, and its mean among '
        f'all {d.size**d.size} resample means" width="{EXPLORER_CSS_WIDTH}" '
        'style="max-width:100%;height:auto" '
        f'src="data:image/png;base64,{base64.b64encode(png).decode()}"/>'
    )
    ids = [str(q) for q in query_ids]
    static = dict(kind="explorer", changes=d.tolist(), query_ids=ids, start=start, level=str(level))
    what = "Resample explorer (slider, play and preset buttons)"
    return _with_snapshot(box, picture, what, static)
