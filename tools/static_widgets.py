"""The static edition's widgets (``make html``): each widget's snapshot, followed by a version
that works in a page with no kernel, run by the page's script (``tools/static/widgets.js``).

A widget's snapshot (the ``text/html`` that :mod:`helpers.widgets` puts in its display data)
carries, in its ``data-static`` attribute, what is needed here to rebuild the widget: a quiz's
key and filled prompt (or the whole question), or the explorer's changes, query IDs, start and
level. The quiz's feedback and the explorer's captions and pictures are the notebook's own,
made by the same code.
"""

from __future__ import annotations

import base64
import html
import json
import re

from helpers import _checks
from helpers.plots import set_style
from helpers.widgets import (
    _PLAY_TIP,
    EXPLORER_CSS_WIDTH,
    EXPLORER_PRESETS,
    Question,
    _describe_draw,
    _draw_iv,
    _explorer_png,
    _feedback_html,
    _keyed_question,
    grade,
)

_STATIC = re.compile(r'<div class="widget-snapshot" data-static="([^"]*)">')


def static_widget_html(snapshot: str) -> str:
    """A widget's snapshot (its ``text/html``) followed by a version that works in a static page
    with no kernel, hidden until the page's script shows it (with JavaScript off, the page
    shows the snapshot, as before): a quiz's options as buttons with the notebook's own
    feedback, or the resample explorer's slider, presets, caption and picture for every draw.
    A snapshot without ``data-static`` is returned as it is.
    """
    match = _STATIC.search(snapshot)
    if match is None:
        return snapshot
    static = json.loads(html.unescape(match.group(1)))
    if static["kind"] == "quiz":
        if "key" in static:
            question = _keyed_question(static["key"], static["prompt"])
        else:
            question = Question(**static["question"])
        return snapshot + _static_quiz(question)
    if static["kind"] == "explorer":
        return snapshot + _static_explorer(
            static["changes"], static["query_ids"], static["start"], static["level"]
        )
    raise ValueError(f"unknown static widget kind {static['kind']!r} in a snapshot.")


def _base64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def _static_quiz(q: Question) -> str:
    """The quiz as buttons; each option's feedback (the notebook's) shown when it is chosen."""
    buttons = "\n".join(
        f'<button type="button" class="quiz-option" data-option="{i}" aria-pressed="false">'
        f"{html.escape(option)}</button>"
        for i, option in enumerate(q.options)
    )
    # each option's feedback in base64, decoded only when the option is clicked: the page's
    # text (with JavaScript off, in a text browser, or searched) names no answer
    answers = "\n".join(
        f'<div class="quiz-feedback" data-option="{i}" '
        f'data-feedback="{_base64(_feedback_html(grade(q, i)))}" hidden></div>'
        for i in range(len(q.options))
    )
    return (
        f'\n<div class="static-widget static-quiz" hidden>\n<p><b>{html.escape(q.prompt)}</b></p>'
        f'\n<div class="quiz-options" role="group">\n{buttons}\n</div>\n'
        f'<div class="quiz-feedback" data-option="none">{_feedback_html(grade(q, None))}</div>\n'
        f"{answers}\n</div>"
    )


def _static_explorer(changes: list, query_ids: list, start: int, level: str) -> str:
    """The explorer for a page: a slider over every draw, the presets, the caption, and one
    picture per multiset (the notebook explorer's own, by the same code), chosen by the page's
    script from a table of draws."""
    import matplotlib

    start, d, query_ids = _draw_iv(start, changes, query_ids)
    half_alpha = (1 - _checks.level(float(level))) / 2
    total = d.size**d.size
    pictures: dict[tuple[int, ...], int] = {}
    images, draws = [], []
    with matplotlib.rc_context():  # in the series' style, as the chapters draw them
        set_style()
        for k in range(1, total + 1):
            draw = _describe_draw(k, d, query_ids)
            if draw.counts not in pictures:
                pictures[draw.counts] = len(images)
                png = _explorer_png(d, k, half_alpha, query_ids)
                images.append("data:image/png;base64," + base64.b64encode(png).decode())
            draws.append([pictures[draw.counts], draw.html])
    data = json.dumps({"pictures": images, "draws": draws}).replace("</", "<\\/")
    presets = "".join(
        f'<button type="button" class="explorer-preset" data-k="{k}" title="Go to draw {k}">'
        f"{html.escape(label)}</button>"
        for label, k in EXPLORER_PRESETS
        if k <= total
    )
    first = draws[start - 1]
    return (
        '\n<div class="static-widget static-explorer" hidden>\n'
        f'<label>Draw <input type="range" class="explorer-slider" min="1" max="{total}" '
        f'step="1" value="{start}" aria-label="Draw, 1 to {total}"></label>\n'
        '<div class="explorer-presets"><button type="button" class="explorer-play" '
        f'aria-pressed="false" title="{html.escape(_PLAY_TIP)}">▶ Play</button>{presets}</div>\n'
        f'<p class="explorer-caption" aria-live="polite">{first[1]}</p>\n'
        f'<img class="explorer-picture" alt="The queries the draw picked, and its mean among all '
        f'{total} resample means" width="{EXPLORER_CSS_WIDTH}" '
        f'style="max-width:100%;height:auto" src="{images[first[0]]}"/>\n'
        f'<script type="application/json" class="explorer-data">{data}</script>\n</div>'
    )
