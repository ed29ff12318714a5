"""Reading your own results: run files, qrels, ``trec_eval -q`` output and CSV.

A file that cannot be read as intended is refused with a ``ValueError`` naming
the file and the line; nothing is skipped silently but trec_eval's ``all`` rows
and ``#`` comments in run and qrels files. Every reader takes UTF-8 (with or
without a byte-order mark, LF or CRLF); other encodings are refused with the fix.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import math
import os
import pathlib
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .. import _checks
from ..scale.columns import read_columns

__all__ = [
    "RunScores", "Run", "Qrels", "read_trec_eval", "read_scores_csv", "read_run", "read_qrels",
]  # fmt: skip


#: trec_eval's measure names (scoring.MEASURES has a function for each; ``_k``: a cutoff).
MEASURE_NAMES = frozenset(("num_ret num_rel num_rel_ret map Rprec recip_rank ndcg P_k recall_k "
                           "success_k map_cut_k ndcg_cut_k").split())  # fmt: skip
#: ir-measures' names (and MAP, MRR), case aside, as trec_eval's: alone, and before "@k".
ALIASES = {"ap": "map", "map": "map", "rr": "recip_rank", "mrr": "recip_rank", "ndcg": "ndcg",
           "rprec": "Rprec", "numret": "num_ret", "numrel": "num_rel",
           "numrelret": "num_rel_ret"}  # fmt: skip
ALIASES_AT = {"p": "P", "r": "recall", "recall": "recall", "success": "success", "ap": "map_cut",
              "map": "map_cut", "ndcg": "ndcg_cut", "rr": "RR", "mrr": "RR"}  # fmt: skip


def trec_name(name: str) -> str:
    """trec_eval's name of ``name``, its cutoff without leading zeros (RR@k, unknown: as given).

    >>> trec_name("nDCG@10"), trec_name("P@5"), trec_name("mrr"), trec_name("ndcg_cut_010")
    ('ndcg_cut_10', 'P_5', 'recip_rank', 'ndcg_cut_10')
    """
    at = re.fullmatch(r"(\w+)@([0-9]+)", name)
    if at and at[1].lower() in ALIASES_AT and int(at[2]) > 0:
        base = ALIASES_AT[at[1].lower()]
        return f"RR@{int(at[2])}" if base == "RR" else f"{base}_{int(at[2])}"
    cut = re.fullmatch(r"(\w+?)_0*([1-9][0-9]*)", name)
    if cut and f"{cut[1]}_k" in MEASURE_NAMES:
        return f"{cut[1]}_{cut[2]}"
    return name if name in MEASURE_NAMES else ALIASES.get(name.lower(), name)


@dataclass(frozen=True)
class RunScores:
    """One run's per-query scores for one measure, as read from a file."""

    scores: dict[str, float]
    measure: str
    source: str = ""
    clusters: dict[str, str] | None = None
    slices: dict[str, str] | None = None
    #: Set by :func:`evaluate` (None when the scores were read from a file): the qrels' topics
    #: the run retrieved nothing for, scored 0 (as ``trec_eval -c`` does), and the run's topics
    #: that the qrels do not judge, left out (as trec_eval does).
    unretrieved: list[str] | None = None
    unjudged: list[str] | None = None
    #: How the scores were made, as far as known: evaluate's measure, level, max_docs and qrels
    #: (their fingerprint); read_trec_eval's measure. Comparisons refuse scores made otherwise.
    made: dict | None = None

    def __len__(self) -> int:
        return len(self.scores)


# --- Text in every encoding people have --------------------------------------

_FIX = "save it as UTF-8"


def _read_text(path: str | os.PathLike[str]) -> str:
    """The file's text, from UTF-8 with or without a byte-order mark; anything else is refused."""
    name = os.fspath(path)
    try:
        data = pathlib.Path(path).read_bytes()
    except FileNotFoundError:
        raise ValueError(_not_found(pathlib.Path(path))) from None
    except IsADirectoryError:
        raise ValueError(f"{name}: is a folder, not a file.") from None
    found = None
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        found = "UTF-32 (it starts with a UTF-32 byte-order mark)"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        found = "UTF-16 (it starts with a UTF-16 byte-order mark; Windows PowerShell 5.1's '>' "
        found += "writes this)"
    elif b"\x00" in data:
        found = "UTF-16 or UTF-32 without a byte-order mark (it contains NUL bytes)"
    if found:
        raise ValueError(
            f"{name}: the file is encoded as {found}; the readers take UTF-8 text. Fix: {_FIX} "
            "(in PowerShell: Get-Content in.txt | Set-Content -Encoding utf8 out.txt; in an "
            "editor: Save as, encoding UTF-8)."
        )
    data = data.removeprefix(codecs.BOM_UTF8)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lineno = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(
            f"{name}:{lineno}: byte 0x{data[exc.start]:02x} is not UTF-8; the file is in another "
            f"encoding (often Latin-1 or Windows-1252). Fix: {_FIX}."
        ) from None


def _not_found(path: pathlib.Path) -> str:
    """Where a missing file was looked for, and what is there instead."""
    folder = path.absolute().parent
    where = f"{path}: no such file; looked for {path.name!r} in {folder}"
    if not path.is_absolute():
        where += (
            f" (a relative path starts in the current folder, {pathlib.Path.cwd()}; a "
            "notebook's is the folder it is in, notebooks/)"
        )
    if not folder.is_dir():
        return where + ". That folder does not exist either."
    files = sorted(p.name for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    return where + f". It holds {_checks.name_some(files, 8) or 'no files'}."


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _kind_of(fields: list[str]) -> str | None:
    """The kind of TREC file a line of ``fields`` looks like, with its reader; None if unsure."""
    if len(fields) >= 6 and _is_number(fields[3]) and _is_number(fields[4]):
        second = "Q0" if fields[1].upper() == "Q0" else "iter"
        return (
            f"a TREC run file ('query {second} docid rank score tag'); read it with read_run(path) "
            "and score it with evaluate(qrels, run, measure)"
        )
    if len(fields) == 4 and _is_number(fields[3]):
        return "qrels ('query iter docid grade'); read it with read_qrels(path)"
    if len(fields) == 3 and fields[1] != "all" and _C_INTEGER.fullmatch(fields[2]):
        return "an MS MARCO run ('query_id doc_id rank'); read it with read_run(path)"
    if len(fields) == 3 and (_is_number(fields[2]) or fields[1] == "all"):
        return (
            "trec_eval -q output ('measure query value'); read it with read_trec_eval(path, "
            "measure)"
        )
    return None


def _missing_column(fields: list[str]) -> str:
    """Which column a run line of five ``fields`` lacks, as far as its numbers show."""
    if _is_number(fields[3]) and _is_number(fields[4]):
        return "the tag (the run's name, 6th column) is missing"
    if _is_number(fields[2]) and _is_number(fields[3]):
        return "the 2nd column ('Q0') is missing"
    if _is_number(fields[3]):
        return "one of rank and score is missing (the 4th and 5th columns)"
    return "a column is missing"


def _parse_number(text: str, where: str, what: str, *, whole: bool = False) -> float:
    """A finite number; ``whole``: one that trec_eval reads whole (digits, point, exponent)."""
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: {what} {text!r} is not a number.") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: {what} is {text!r}; scores must be finite numbers.")
    if whole and not _C_NUMBER.fullmatch(text):
        raise ValueError(
            f"{where}: {what} {text!r} is not a plain number (trec_eval would read only its "
            "start); write it with digits, a point and an optional exponent, e.g. 12, -0.5, 1.5e-3."
        )
    return value


def _store(
    scores: dict[str, float], first_line: dict, qid: str, value: float, path: str, lineno: int
) -> None:
    """Keep query ``qid``'s score and the line it was first on; a later line may only repeat it."""
    first = first_line.setdefault(qid, lineno)
    if scores.setdefault(qid, value) != value:
        raise ValueError(
            f"{path}:{lineno}: query {qid!r} appears again with a different value "
            f"({value!r}; line {first} has {scores[qid]!r}). Each query needs one score."
        )


def read_trec_eval(
    path: str | os.PathLike[str], measure: str, *, level: int = 1, max_docs: int | None = None
) -> RunScores:
    """Read one measure's per-query values from ``trec_eval -q`` output.

    Each line is ``measure query_id value``; the ``all`` summary rows are skipped. The file
    does not record how it was made: its scores are taken as made with trec_eval's defaults
    (``-l 1``: relevant means grade >= 1; no ``-M``: every retrieved document counts) unless
    ``level`` and ``max_docs`` say otherwise, and at the file's precision (trec_eval prints four
    decimals). ``made`` records both, so that a comparison refuses scores made with other
    settings and compares scores of another precision at the file's (a run read from its file
    and scored by :func:`evaluate` then shows no change).

    >>> import tempfile, pathlib
    >>> text = "P_5\\tq1\\t0.4000\\nP_5\\tq2\\t0.2000\\nP_5\\tall\\t0.3000\\n"
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "a.txt"
    ...     _ = p.write_text(text)
    ...     run = read_trec_eval(p, "P_5")
    >>> run.scores
    {'q1': 0.4, 'q2': 0.2}
    """
    name = os.fspath(path)
    scores: dict[str, float] = {}
    first_line: dict[str, int] = {}
    measures: set[str] = set()  # measures with per-query rows
    summary_only: set[str] = set()
    places: set[int | None] = set()  # the decimals of the values (None: an exponent)
    wanted = trec_name(measure)
    for lineno, (m, qid, value) in _trec_lines(path, 3, "'measure query_id value'", "trec_eval"):
        m = trec_name(m)
        (summary_only if qid == "all" else measures).add(m)
        if m == wanted and qid != "all":
            number = _parse_number(value, f"{name}:{lineno}", f"value of {m} for query {qid!r}")
            _store(scores, first_line, qid, number, name, lineno)
            places.add(None if "e" in value.lower() else len(value.partition(".")[2]))
    if wanted not in measures:
        if wanted in summary_only:
            raise ValueError(
                f"{name}: measure {measure!r} has only 'all' summary rows; run trec_eval with -q "
                "for per-query values."
            )
        raise ValueError(
            f"{name}: measure {measure!r} is not in the file; its per-query measures are "
            f"{_checks.name_some(measures, 10) or 'none'}."
        )
    level = _checks.integer(level, "level (trec_eval's -l)", minimum=0)
    max_docs = None if max_docs is None else _checks.integer(max_docs, "max_docs (trec_eval's -M)")
    made = {"measure": measure, "level": level, "max_docs": max_docs, "from": "trec_eval -q file"}
    if None not in places:  # printed to a fixed number of decimals: the file's precision
        made["decimals"] = max(places)
    return RunScores(scores, measure, name, made=made)


def read_scores_csv(
    path: str | os.PathLike[str],
    *,
    score: str,
    query: str = "query_id",
    cluster: str | None = None,
    slice: str | None = None,
    delimiter: str | None = None,
) -> RunScores:
    """Read per-query scores from a CSV or TSV file with a header row.

    ``score``, ``query``, ``cluster`` and ``slice`` name columns; ``.tsv`` and
    ``.tab`` files are tab-separated, others comma-separated unless ``delimiter``
    says otherwise.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "runs.csv"
    ...     _ = p.write_text("query_id,user,ndcg\\nq1,U1,0.5\\nq2,U1,0.75\\n")
    ...     run = read_scores_csv(p, score="ndcg", cluster="user")
    >>> run.scores, run.clusters
    ({'q1': 0.5, 'q2': 0.75}, {'q1': 'U1', 'q2': 'U1'})
    """
    name = os.fspath(path)
    if delimiter is None:
        delimiter = "\t" if name.lower().endswith((".tsv", ".tab")) else ","
    wanted = {"query": query, "score": score, "cluster": cluster, "slice": slice}
    scores: dict[str, float] = {}
    first_line: dict[str, int] = {}
    reader = csv.reader(io.StringIO(_read_text(path), newline=""), delimiter=delimiter)
    rows = ((reader.line_num, row) for row in reader if any(cell.strip() for cell in row))
    if (first := next(rows, None)) is None:  # the header: the first non-blank row
        raise ValueError(f"{name}: the file is empty; expected a header row naming the columns.")
    header = _trim_row([cell.strip() for cell in first[1]], 0)
    if missing := [col for col in wanted.values() if col is not None and col not in header]:
        if len(header) == 1 and (kind := _kind_of(header[0].split())):
            raise ValueError(
                f"{name}:{first[0]}: this looks like {kind}, not a CSV file with a header."
            )
        raise ValueError(
            f"{name}:{first[0]}: no column {', '.join(repr(c) for c in missing)} in the "
            f"header; it has {', '.join(repr(c) for c in header)}."
        )
    pos = {role: header.index(col) for role, col in wanted.items() if col is not None}
    labels: dict[str, dict[str, str]] = {role: {} for role in ("cluster", "slice") if role in pos}
    for lineno, row in rows:
        where = f"{name}:{lineno}"
        row = _trim_row(row, len(header))
        if len(row) != len(header):
            raise ValueError(
                f"{where}: expected {len(header)} fields as in the header, found {len(row)}."
            )
        qid = row[pos["query"]].strip()
        if not qid:
            raise ValueError(f"{where}: the query ID is empty.")
        value = _parse_number(row[pos["score"]].strip(), where, f"{score!r} value")
        _store(scores, first_line, qid, value, name, lineno)
        for role, table in labels.items():
            label = row[pos[role]].strip()
            if not label:
                raise ValueError(f"{where}: the {wanted[role]!r} value of query {qid!r} is empty.")
            if (previous := table.setdefault(qid, label)) != label:
                raise ValueError(
                    f"{where}: query {qid!r} has {wanted[role]!r} {label!r} here but {previous!r} "
                    f"on line {first_line[qid]}."
                )
    if not scores:
        raise ValueError(f"{name}: the header is there but no rows follow.")
    return RunScores(scores, score, name, labels.get("cluster"), labels.get("slice"))


def _trim_row(row: list[str], keep: int) -> list[str]:
    """Drop empty trailing cells beyond the first ``keep`` (a trailing tab or comma is blank)."""
    while len(row) > keep and not row[-1].strip():
        row = row[:-1]
    return row


# --- Run files and qrels --------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """A TREC run: for each query, the retrieved documents and their scores."""

    rankings: Mapping[str, dict[str, float]]  # read_run's: its columns, a mapping as well
    source: str = ""
    tag: str = ""

    def __len__(self) -> int:
        return len(self.rankings)


@dataclass(frozen=True)
class Qrels:
    """Relevance judgments: for each query (topic), the judged documents and their grades."""

    judgments: dict[str, dict[str, int]]
    source: str = ""

    def __len__(self) -> int:
        return len(self.judgments)

    @property
    def topics(self) -> list[str]:
        return sorted(self.judgments)

    @cached_property
    def fingerprint(self) -> str:
        """The judgments' SHA-256 (12 hex digits; the same for the same judgments in any order)."""
        rows = sorted(f"{q} {d} {g}" for q, docs in self.judgments.items() for d, g in docs.items())
        return hashlib.sha256("\n".join(rows).encode()).hexdigest()[:12]


#: What trec_eval splits fields at: C's isspace() (Python's str.split() also splits at other
#: Unicode spaces, such as a no-break space inside a document ID, which trec_eval keeps).
_TREC_SPACE = re.compile(r"[ \t\n\r\f\v]+")
#: A number as C's atof() reads all of it (float() also takes "1_000", "inf" and non-ASCII digits).
_C_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_C_INTEGER = re.compile(r"[+-]?[0-9]+")


def _trec_lines(
    path: str | os.PathLike[str], n_fields: int, form: str, own: str, *, more_ok: bool = False
):
    """(line number, fields) of each non-blank, non-comment line, split as trec_eval splits it;
    refuses lines with fewer than ``n_fields`` fields (or more, unless ``more_ok``). ``form``
    shows the expected line, ``own`` starts what :func:`_kind_of` says of the file's own kind.
    """
    name = os.fspath(path)
    expected = f"{form} ({n_fields} fields)"
    any_line = False
    text = _read_text(path).replace("\r\n", "\n").replace("\r", "\n")
    for lineno, line in enumerate(text.split("\n"), start=1):  # not at other Unicode breaks
        fields = _TREC_SPACE.split(line.strip(" \t\n\r\f\v"))
        if fields == [""] or fields[0].startswith("#"):
            continue
        if len(fields) < n_fields or (len(fields) > n_fields and not more_ok):
            kind = None if any_line else _kind_of(fields)  # after good lines: a cut line?
            if kind is not None and not kind.startswith(own):
                raise ValueError(f"{name}:{lineno}: this looks like {kind}, not {expected}.")
            why = " (cut short?)." if len(fields) < n_fields else "."
            if n_fields == 6 and len(fields) == 5:
                why = f": {_missing_column(fields)}; trec_eval needs all six."
            raise ValueError(
                f"{name}:{lineno}: expected {expected}, found {len(fields)} fields: "
                f"{line.strip()[:80]!r}{why}"
            )
        any_line = True
        yield lineno, fields[:n_fields]
    if not any_line:
        raise ValueError(f"{name}: the file is empty; expected {expected} on each line.")


def read_run(path: str | os.PathLike[str]) -> Run:
    """Read a run file: TREC's ``query_id Q0 doc_id rank score tag`` on each line, or MS MARCO's
    ``query_id doc_id rank`` (three fields, as MS MARCO and TREC DL tools write it).

    It reads what trec_eval reads (documents ranked by score, the rank column
    unused, fields after the tag ignored) and refuses what trec_eval would
    misread (``1_000``, a document listed twice, a line of another format). An MS MARCO run's
    rank is its order: each document scores -rank, as the same run in TREC format would rank it.
    Scores that rise with the rank column in most topics (distances, where smaller is better,
    or the score and rank columns swapped), or that are equal within them, get a warning: trec_eval
    ranks by score, highest first.

    >>> import tempfile, pathlib
    >>> text = "q1 Q0 d1 1 2.5 bm25\\nq1 Q0 d2 2 1.5 bm25 extra fields\\nq2 Q0 d7 1 0.9 bm25\\n"
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "run.txt"
    ...     _ = p.write_text(text)
    ...     run = read_run(p)
    >>> run.rankings, run.tag
    ({'q1': {'d1': 2.5, 'd2': 1.5}, 'q2': {'d7': 0.9}}, 'bm25')
    """
    name = os.fspath(path)
    if fast := read_columns(path, 6, _ORDER_LINES) or read_columns(path, 3, _ORDER_LINES):
        table, tags, lines = fast
        _check_order(name, *lines)
        return Run(table, name, ",".join(dict.fromkeys(tags)))
    lineno, fields = _first_fields(path)
    if len(fields) == 3 and (kind := _kind_of(fields)).startswith("trec_eval"):
        raise ValueError(f"{name}:{lineno}: this looks like {kind}, not a run file.")
    three = len(fields) == 3
    rankings: dict[str, dict[str, float]] = {}
    first_line: dict[tuple[str, str], int] = {}
    tags: dict[str, None] = {}  # the run's tags, in order
    lines: tuple[list, list, list] = ([], [], [])  # the first lines' topics, ranks and scores
    if three:
        form, own = "an MS MARCO run line 'query_id doc_id rank'", "an MS MARCO run"
    else:
        form, own = "a run line 'query_id Q0 doc_id rank score tag'", "a TREC run"
    for lineno, fields in _trec_lines(path, 3 if three else 6, form, own, more_ok=not three):
        qid, doc, rank = fields if three else fields[0:1] + fields[2:4]
        where = f"{name}:{lineno}"
        if three and not _C_INTEGER.fullmatch(rank):
            raise ValueError(
                f"{where}: the rank {rank!r} of document {doc!r} is not a whole number; an MS "
                "MARCO run has 'query_id doc_id rank' lines (rank 1, 2, 3...). A file of "
                "'measure query value' lines is trec_eval -q output: read it with "
                "read_trec_eval(path, measure)."
            )
        number = _parse_number(rank, where, f"rank of document {doc!r}", whole=True)
        if three:
            value = -number
        else:
            value = _parse_number(fields[4], where, f"score of document {doc!r}", whole=True)
            tags[fields[5]] = None
        if (first := first_line.setdefault((qid, doc), lineno)) != lineno:
            raise ValueError(
                f"{where}: document {doc!r} is listed again for query {qid!r} (first on line "
                f"{first}); each document may appear once per query (trec_eval stops with "
                "'duplicate docs'). Remove one of the two lines."
            )
        rankings.setdefault(qid, {})[doc] = value
        if len(lines[0]) < _ORDER_LINES:
            for column, x in zip(lines, (qid, number, value), strict=True):
                column.append(x)
    _check_order(name, *lines)
    return Run(rankings, name, ",".join(tags))


def _first_fields(path: str | os.PathLike[str]) -> tuple[int, list[str]]:
    """The number and fields of the file's first line that is neither blank nor a comment."""
    for lineno, line in enumerate(_read_text(path).splitlines(), start=1):
        if (fields := _TREC_SPACE.split(line.strip(" \t\n\r\f\v"))) != [""]:
            if not fields[0].startswith("#"):
                return lineno, fields
    return 0, []


#: How many of a run's first lines :func:`_check_order` looks at: enough topics to see "most".
_ORDER_LINES = 20_000


def _check_order(name: str, qids: list, ranks: list, scores: list) -> None:
    """Warn when, in most topics of the first ``_ORDER_LINES`` lines, the scores rise down the
    ranking the rank column gives (1, 2, 3...; from its highest value when it holds other numbers,
    as when it holds the scores), or are all equal: trec_eval ranks by score, highest first, so
    it would score such a run upside down or by document ID."""
    if not qids:
        return
    head = qids[:_ORDER_LINES]
    code = {q: i for i, q in enumerate(dict.fromkeys(head))}  # each topic's number
    codes = np.fromiter(map(code.__getitem__, head), np.int64, len(head))
    r, v = (np.fromiter(map(float, x[:_ORDER_LINES]), float, len(head)) for x in (ranks, scores))
    order = np.lexsort((r if np.all(r == np.round(r)) else -r, codes))  # topic, then rank
    step, c = np.diff(v[order]), codes[order]
    inside = c[1:] == c[:-1]  # steps within a topic
    up, down = (np.bincount(c[1:][inside & x], minlength=c.max() + 1) for x in (step > 0, step < 0))
    several = np.bincount(codes) > 1
    n, rising = int(several.sum()), int((up > down).sum())
    constant = int((several & (up == 0) & (down == 0)).sum())
    rule = "trec_eval ranks documents by score, highest first, whatever the rank column says"
    if 2 * rising > n:
        said = f"in {rising} of {n} topics the scores rise down the ranking of the rank column "
        said += f"(or it holds the scores): {rule}, so it scores this run upside down. Fix: if "
        said += "smaller is better (distances), negate the scores (score = -distance); if the "
        said += "rank and score columns are swapped, swap them back."
    elif 2 * constant > n:
        said = f"in {constant} of {n} topics every document has the same score: {rule}, and "
        said += "breaks ties by document ID. Fix: write scores that fall with the rank (e.g. "
        said += "score = -rank)."
    else:
        return
    warnings.warn(f"{name}: {said}", UserWarning, stacklevel=3)


def read_qrels(path: str | os.PathLike[str]) -> Qrels:
    """Read TREC relevance judgments (qrels): ``query_id iteration doc_id grade`` on each line.

    Grades are integers (0 = judged not relevant; higher = more relevant).

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "qrels.txt"
    ...     _ = p.write_text("q1 0 d1 2\\nq1 0 d2 0\\nq2 0 d7 1\\n")
    ...     qrels = read_qrels(p)
    >>> qrels.judgments, qrels.topics
    ({'q1': {'d1': 2, 'd2': 0}, 'q2': {'d7': 1}}, ['q1', 'q2'])
    """
    name = os.fspath(path)
    if fast := read_columns(path, 4, 0):
        return Qrels(fast[0], name)
    judgments: dict[str, dict[str, int]] = {}
    first_line: dict[tuple[str, str], int] = {}
    for lineno, (qid, _, doc, grade) in _trec_lines(
        path, 4, "a qrels line 'query_id iteration doc_id grade'", "qrels"
    ):
        where = f"{name}:{lineno}"
        if not _C_INTEGER.fullmatch(grade):  # trec_eval would read 0.5 as 0, 1_0 as 1
            raise ValueError(
                f"{where}: the grade {grade!r} of document {doc!r} is not an integer; qrels grades "
                "are 0, 1, 2..."
            )
        if (first := first_line.setdefault((qid, doc), lineno)) != lineno:
            raise ValueError(
                f"{where}: document {doc!r} is judged again for query {qid!r} (first on line "
                f"{first}); keep one judgment per document."
            )
        judgments.setdefault(qid, {})[doc] = int(grade)
    return Qrels(judgments, name)
