"""Reading your own runs and their scores, and lining two runs up.

Four formats are read: a TREC run file (``read_run``) and qrels (``read_qrels``),
which :func:`evaluate` scores per query by trec_eval's rules (the measures are in
``helpers.scoring``); the per-query output of ``trec_eval -q`` (``read_trec_eval``);
and a CSV/TSV file with a header (``read_scores_csv``).
A file that cannot be read as intended is refused with a ``ValueError`` naming
the file and the line; nothing is skipped silently except ``trec_eval``'s
``all`` summary rows, which are not queries, and comment lines starting with
``#`` in run and qrels files, which trec_eval skips too.

Every reader takes UTF-8 text, with or without a byte-order mark, with LF or
CRLF line ends, trailing whitespace and with or without a final newline. Other
encodings (UTF-16, UTF-32, Latin-1...) are refused with a message that names the
file and says to save it as UTF-8.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import numbers
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from . import _checks, scoring
from .data import describe_unmatched

__all__ = [
    "RunScores",
    "Run",
    "Qrels",
    "AlignedRuns",
    "read_trec_eval",
    "read_scores_csv",
    "read_run",
    "read_qrels",
    "evaluate",
    "align_runs",
    "MISSING_POLICIES",
]

#: How :func:`align_runs` treats queries scored in one run only.
MISSING_POLICIES = ("error", "drop", "zero")


@dataclass(frozen=True)
class RunScores:
    """One run's per-query scores for one measure, as read from a file."""

    scores: dict[str, float]
    measure: str
    source: str = ""
    clusters: dict[str, str] | None = None
    slices: dict[str, str] | None = None
    #: Set by :func:`evaluate`: topics of the qrels that the run retrieved nothing
    #: for, scored 0 (as ``trec_eval -c`` does). None when the scores were read from a file.
    unretrieved: list[str] | None = None

    def __len__(self) -> int:
        return len(self.scores)


# --- Text in every encoding people have --------------------------------------

_FIX = "save it as UTF-8"


def _read_text(path: str | os.PathLike[str]) -> str:
    """The file's text, from UTF-8 with or without a byte-order mark; anything else is refused."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise ValueError(f"{name}: no such file.") from None
    except IsADirectoryError:
        raise ValueError(f"{name}: is a folder, not a file.") from None
    found = None
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):
        found = "UTF-32 (it starts with a UTF-32 byte-order mark)"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        found = (
            "UTF-16 (it starts with a UTF-16 byte-order mark; Windows PowerShell 5.1's '>' writes "
            "this)"
        )
    elif b"\x00" in data:
        found = "UTF-16 or UTF-32 without a byte-order mark (it contains NUL bytes)"
    if found:
        raise ValueError(
            f"{name}: the file is encoded as {found}; the readers take UTF-8 text. Fix: {_FIX} "
            "(in PowerShell: Get-Content in.txt | Set-Content -Encoding utf8 out.txt; in an "
            "editor: Save as, encoding UTF-8)."
        )
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        lineno = data.count(b"\n", 0, exc.start) + 1
        raise ValueError(
            f"{name}:{lineno}: byte 0x{data[exc.start]:02x} is not UTF-8; the file is in another "
            "encoding "
            f"(often Latin-1 or Windows-1252). Fix: {_FIX}."
        ) from None


def _lines(text: str) -> list[str]:
    """Lines of ``text`` split at LF, CRLF or CR only (not at other Unicode breaks)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _kind_of(fields: list[str]) -> str | None:
    """What kind of TREC file a line of ``fields`` looks like, with the reader to use; None if
    unsure.
    """
    if (
        len(fields) >= 6
        and fields[1].upper() == "Q0"
        and _is_number(fields[3])
        and _is_number(fields[4])
    ):
        return (
            "a TREC run file ('query Q0 docid rank score tag'); read it with read_run(path) and "
            "score it with evaluate(qrels, run, measure)"
        )
    if len(fields) >= 6 and _is_number(fields[3]) and _is_number(fields[4]):
        return (
            "a TREC run file ('query iter docid rank score tag'); read it with read_run(path) and "
            "score it with evaluate(qrels, run, measure)"
        )
    if len(fields) == 4 and _is_number(fields[3]):
        return "qrels ('query iter docid grade'); read it with read_qrels(path)"
    if len(fields) == 3 and (_is_number(fields[2]) or fields[1] == "all"):
        return (
            "trec_eval -q output ('measure query value'); read it with read_trec_eval(path, "
            "measure)"
        )
    return None


def _wrong_kind(
    name: str, lineno: int, fields: list[str], line: str, expected: str, own: str
) -> ValueError:
    kind = _kind_of(fields)
    if kind is not None and not kind.startswith(own):
        return ValueError(f"{name}:{lineno}: this looks like {kind}, not {expected}.")
    return ValueError(
        f"{name}:{lineno}: expected {expected}, found {len(fields)} fields: {line.strip()[:80]!r}."
    )


def _parse_number(text: str, where: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: {what} {text!r} is not a number.") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: {what} is {text!r}; scores must be finite numbers.")
    return value


def _store(
    table: dict[str, float], seen_at: dict[str, int], qid: str, value: float, path: str, lineno: int
) -> None:
    if qid in table and table[qid] != value:
        raise ValueError(
            f"{path}:{lineno}: query {qid!r} appears again with a different value "
            f"({value!r}; line {seen_at[qid]} has {table[qid]!r}). Each query needs one score."
        )
    if qid not in table:
        table[qid] = value
        seen_at[qid] = lineno


def read_trec_eval(path: str | os.PathLike[str], measure: str) -> RunScores:
    """Read one measure's per-query values from ``trec_eval -q`` output.

    Each line is ``measure <whitespace> query_id <whitespace> value``. Rows whose
    query ID is ``all`` are trec_eval's summary over all queries and are skipped.

    Parameters
    ----------
    path : path-like
        The file ``trec_eval -q qrels run > path`` wrote.
    measure : str
        The measure to read, as trec_eval names it (``ndcg_cut_10``, ``P_5``, ``map``...).

    Returns
    -------
    RunScores
        Scores keyed by query ID, in file order.

    Raises
    ------
    ValueError
        Empty file, a line without three fields, a non-numeric or non-finite value,
        a query repeated with a different value, or a measure not in the file;
        the message names the file and the line.

    Examples
    --------
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
    seen_at: dict[str, int] = {}
    measures: set[str] = set()  # measures with per-query rows
    summary_only: set[str] = set()
    any_line = False
    for lineno, line in enumerate(_lines(_read_text(path)), start=1):
        if not line.strip():
            continue
        any_line = True
        fields = line.split()
        if len(fields) != 3:
            raise _wrong_kind(
                name, lineno, fields, line, "'measure query_id value' (3 fields)", "trec_eval"
            )
        m, qid, value = fields
        if qid == "all":
            summary_only.add(m)
            continue
        measures.add(m)
        if m != measure:
            continue
        _store(
            scores,
            seen_at,
            qid,
            _parse_number(value, f"{name}:{lineno}", f"value of {m} for query {qid!r}"),
            name,
            lineno,
        )
    if not any_line:
        raise ValueError(f"{name}: the file is empty; expected trec_eval -q output.")
    if measure not in measures:
        if measure in summary_only:
            raise ValueError(
                f"{name}: measure {measure!r} has only 'all' summary rows; run trec_eval with -q "
                "for per-query values."
            )
        raise ValueError(
            f"{name}: measure {measure!r} is not in the file; its per-query measures are "
            f"{_checks.name_some(measures, 10) or 'none'}."
        )
    return RunScores(scores, measure, name)


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

    Parameters
    ----------
    path : path-like
        The file; ``.tsv`` and ``.tab`` files are tab-separated, others comma-separated
        unless ``delimiter`` says otherwise.
    score : str
        Name of the score column.
    query : str
        Name of the query ID column.
    cluster, slice : str, optional
        Names of a user/cluster column and a slice (e.g. query type) column.

    Returns
    -------
    RunScores
        Scores keyed by query ID, with clusters and slices when their columns are given.

    Raises
    ------
    ValueError
        Empty file, missing column, a row with the wrong number of fields, an empty
        query ID, a non-numeric or non-finite score, or a query repeated with a
        different score, cluster or slice; the message names the file and the line.

    Examples
    --------
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
    seen_at: dict[str, int] = {}
    labels: dict[str, dict[str, str]] = {"cluster": {}, "slice": {}}
    text = _read_text(path)
    with io.StringIO(text, newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        header = None
        for row in reader:
            if any(cell.strip() for cell in row):
                header = _trim_row([cell.strip() for cell in row], 0)
                break
        if header is None:
            raise ValueError(
                f"{name}: the file is empty; expected a header row naming the columns."
            )
        missing = [col for col in wanted.values() if col is not None and col not in header]
        if missing:
            kind = _kind_of(" ".join(header).split()) if len(header) == 1 else None
            if kind is not None:
                raise ValueError(
                    f"{name}:{reader.line_num}: this looks like {kind}, not a CSV file with a "
                    "header."
                )
            raise ValueError(
                f"{name}:{reader.line_num}: no column {', '.join(repr(c) for c in missing)} in the "
                f"header; it has {', '.join(repr(c) for c in header)}."
            )
        pos = {role: header.index(col) for role, col in wanted.items() if col is not None}
        for row in reader:
            lineno = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            row = _trim_row(row, len(header))
            if len(row) != len(header):
                raise ValueError(
                    f"{name}:{lineno}: expected {len(header)} fields as in the header, found "
                    f"{len(row)}."
                )
            qid = row[pos["query"]].strip()
            if not qid:
                raise ValueError(f"{name}:{lineno}: the query ID is empty.")
            value = _parse_number(row[pos["score"]].strip(), f"{name}:{lineno}", f"{score!r} value")
            _store(scores, seen_at, qid, value, name, lineno)
            for role in ("cluster", "slice"):
                if role in pos:
                    label = row[pos[role]].strip()
                    if not label:
                        raise ValueError(
                            f"{name}:{lineno}: the {wanted[role]!r} value of query {qid!r} is "
                            "empty."
                        )
                    previous = labels[role].setdefault(qid, label)
                    if previous != label:
                        raise ValueError(
                            f"{name}:{lineno}: query {qid!r} has {wanted[role]!r} {label!r} here "
                            f"but {previous!r} on line {seen_at[qid]}."
                        )
    if not scores:
        raise ValueError(f"{name}: the header is there but no rows follow.")
    return RunScores(
        scores,
        score,
        name,
        clusters=labels["cluster"] if cluster else None,
        slices=labels["slice"] if slice else None,
    )


def _trim_row(row: list[str], keep: int) -> list[str]:
    """Drop empty trailing cells beyond the first ``keep`` (a trailing tab or comma is trailing
    whitespace).
    """
    row = list(row)
    while len(row) > keep and not row[-1].strip():
        row.pop()
    return row


# --- Run files and qrels, scored by trec_eval's rules ----------------------------


@dataclass(frozen=True)
class Run:
    """A TREC run: for each query, the retrieved documents and their scores."""

    rankings: dict[str, dict[str, float]]
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
        """The judged topics, sorted."""
        return sorted(self.judgments)


#: What trec_eval splits fields at: C's isspace() (Python's str.split() also splits at other
#: Unicode spaces, such as a no-break space inside a document ID, which trec_eval keeps).
_TREC_SPACE = re.compile(r"[ \t\n\r\f\v]+")
#: A number as C's atof() reads all of it (float() also takes "1_000", "inf" and non-ASCII digits).
_C_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_C_INTEGER = re.compile(r"[+-]?[0-9]+")


def _trec_lines(
    path: str | os.PathLike[str], n_fields: int, expected: str, own: str, *, more_ok: bool = False
):
    """(line number, fields) of each non-blank, non-comment line, split as trec_eval splits it;
    refuses lines with fewer than ``n_fields`` fields (or more, unless ``more_ok``).
    """
    name = os.fspath(path)
    any_line = False
    for lineno, line in enumerate(_lines(_read_text(path)), start=1):
        fields = _TREC_SPACE.split(line.strip(" \t\n\r\f\v"))
        if fields == [""] or fields[0].startswith("#"):
            continue
        any_line = True
        if len(fields) < n_fields or (len(fields) > n_fields and not more_ok):
            raise _wrong_kind(name, lineno, fields, line, expected, own)
        yield lineno, fields[:n_fields]
    if not any_line:
        raise ValueError(f"{name}: the file is empty; expected {expected} on each line.")


def read_run(path: str | os.PathLike[str]) -> Run:
    """Read a TREC run file: ``query_id Q0 doc_id rank score tag`` on each line.

    It reads what trec_eval reads: the documents of a query are ranked by score
    (the rank column must be a number but is not used), fields after the tag are
    ignored, and lines starting with ``#`` are comments (a ``#`` inside a document
    ID is part of it). What trec_eval would misread is refused.

    Raises
    ------
    ValueError
        Empty file, a line with fewer than six fields (naming the kind of file it
        looks like, e.g. ``trec_eval -q`` output or qrels, and the reader to use), a
        rank or score that is not a plain finite number (trec_eval would read
        ``1_000`` as 1), or a document listed twice for the same query (trec_eval
        stops there); the message names the file and the line.

    Examples
    --------
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
    rankings: dict[str, dict[str, float]] = {}
    seen_at: dict[tuple[str, str], int] = {}
    tags: list[str] = []
    for lineno, (qid, _, doc, rank, score, tag) in _trec_lines(
        path,
        6,
        "a run line 'query_id Q0 doc_id rank score tag' (6 fields)",
        "a TREC run",
        more_ok=True,
    ):
        where = f"{name}:{lineno}"
        _parse_c_number(rank, where, f"rank of document {doc!r}")
        value = _parse_c_number(score, where, f"score of document {doc!r}")
        if (qid, doc) in seen_at:
            raise ValueError(
                f"{where}: document {doc!r} is listed again for query {qid!r} (first on line "
                f"{seen_at[qid, doc]}); each document may appear once per query (trec_eval stops "
                "with 'duplicate docs'). Remove one of the two lines."
            )
        seen_at[qid, doc] = lineno
        rankings.setdefault(qid, {})[doc] = value
        if tag not in tags:
            tags.append(tag)
    return Run(rankings, name, tags[0] if len(tags) == 1 else ",".join(tags))


def _parse_c_number(text: str, where: str, what: str) -> float:
    """A finite number written as trec_eval reads it whole (digits, point, exponent)."""
    value = _parse_number(text, where, what)
    if not _C_NUMBER.fullmatch(text):
        raise ValueError(
            f"{where}: {what} {text!r} is not a plain number (trec_eval would read only its "
            "start); write it with digits, a point and an optional exponent, e.g. 12, -0.5, 1.5e-3."
        )
    return value


def read_qrels(path: str | os.PathLike[str]) -> Qrels:
    """Read TREC relevance judgments (qrels): ``query_id iteration doc_id grade`` on each line.

    Grades are integers (0 = judged not relevant; higher = more relevant).
    Lines starting with ``#`` are comments.

    Raises
    ------
    ValueError
        Empty file, a line without four fields (naming the kind of file it looks
        like and the reader to use), a grade that is not an integer, or a
        document judged twice for the same query; the message names the file and the line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "qrels.txt"
    ...     _ = p.write_text("q1 0 d1 2\\nq1 0 d2 0\\nq2 0 d7 1\\n")
    ...     qrels = read_qrels(p)
    >>> qrels.judgments, qrels.topics
    ({'q1': {'d1': 2, 'd2': 0}, 'q2': {'d7': 1}}, ['q1', 'q2'])
    """
    name = os.fspath(path)
    judgments: dict[str, dict[str, int]] = {}
    seen_at: dict[tuple[str, str], int] = {}
    for lineno, (qid, _, doc, grade) in _trec_lines(
        path, 4, "a qrels line 'query_id iteration doc_id grade' (4 fields)", "qrels"
    ):
        where = f"{name}:{lineno}"
        if not _C_INTEGER.fullmatch(grade):  # trec_eval would read 0.5 as 0, 1_0 as 1
            raise ValueError(
                f"{where}: the grade {grade!r} of document {doc!r} is not an integer; qrels grades "
                "are 0, 1, 2..."
            )
        value = int(grade)
        if (qid, doc) in seen_at:
            raise ValueError(
                f"{where}: document {doc!r} is judged again for query {qid!r} (first on line "
                f"{seen_at[qid, doc]}); keep one judgment per document."
            )
        seen_at[qid, doc] = lineno
        judgments.setdefault(qid, {})[doc] = value
    return Qrels(judgments, name)


def evaluate(
    qrels: Qrels, run: Run, measure: str, *, level: int = 1, max_docs: int | None = None
) -> RunScores:
    """Score ``run`` against ``qrels`` per query, by trec_eval's rules.

    ``measure`` is trec_eval's name: ``ndcg_cut_10``, ``P_5``, ``success_5``,
    ``recip_rank``, ``map``... (:data:`helpers.scoring.MEASURES` lists them). The
    measures are written in numpy in :mod:`helpers.scoring`, following trec_eval's
    rules (score ties go to the larger document ID, nDCG's gains are the grades, P_k
    divides by k), and checked against trec_eval's own test outputs.

    ``level`` is trec_eval's ``-l``: a document is relevant when its grade is at
    least ``level``. ``max_docs`` is ``-M``: only the first ``max_docs`` documents
    of each query count. Every topic of the qrels gets a score: a topic the run
    retrieved nothing for scores 0, as ``trec_eval -c`` counts it, and is listed
    in the result's ``unretrieved`` (leave those out for trec_eval's average
    without ``-c``). Queries of the run that the qrels do not judge are left out,
    as trec_eval leaves them out.

    Examples
    --------
    >>> qrels = Qrels({"q1": {"d1": 1, "d2": 0}, "q2": {"d5": 1}})
    >>> run = Run({"q1": {"d2": 2.0, "d1": 1.0}})
    >>> scores = evaluate(qrels, run, "recip_rank")
    >>> scores.scores, scores.unretrieved
    ({'q1': 0.5, 'q2': 0.0}, ['q2'])
    """
    if not isinstance(qrels, Qrels):
        raise ValueError(
            f"qrels must come from read_qrels(path); got {type(qrels).__name__}."
            + (" (Arguments are evaluate(qrels, run, measure).)" if isinstance(qrels, Run) else "")
        )
    if not isinstance(run, Run):
        raise ValueError(f"run must come from read_run(path); got {type(run).__name__}.")
    if not isinstance(measure, str):
        raise ValueError(
            f"measure must be trec_eval's name of a measure, e.g. 'ndcg_cut_10'; got {measure!r}."
        )
    score = scoring.measure_function(measure)
    level = _checks.integer(level, "level (trec_eval's -l)", minimum=0)
    if max_docs is not None:
        max_docs = _checks.integer(max_docs, "max_docs (trec_eval's -M)")
    if not qrels.judgments:
        raise ValueError(f"{qrels.source or 'the qrels'}: no judged topics.")
    for what, table, ok, expected in (
        ("qrels", qrels.judgments, _checks.is_int, "integer grades"),
        ("run", run.rankings, _is_score, "finite numbers as scores"),
    ):
        bad = next(
            (
                (q, doc, value)
                for q, docs in table.items()
                for doc, value in docs.items()
                if not (isinstance(q, str) and isinstance(doc, str) and ok(value))
            ),
            None,
        )
        if bad:
            raise ValueError(
                f"{what}: query {bad[0]!r}, document {bad[1]!r} has {bad[2]!r}; evaluate needs "
                f"text IDs and {expected}. Read the files with read_qrels(path) and read_run(path)."
            )
    scores = {
        q: score(
            scoring.rank_topic(
                run.rankings.get(q, {}), qrels.judgments[q], level=level, max_docs=max_docs
            )
        )
        for q in qrels.topics
    }
    unretrieved = [q for q in qrels.topics if not run.rankings.get(q)]
    return RunScores(scores, measure, run.source, unretrieved=unretrieved)


def _is_score(value: object) -> bool:
    return (
        type(value) is float or (isinstance(value, numbers.Real) and not isinstance(value, bool))
    ) and math.isfinite(value)


@dataclass(frozen=True)
class AlignedRuns:
    """Two runs on a common list of queries, and what was done to get there."""

    query_ids: list[str]
    a: np.ndarray
    b: np.ndarray
    missing_policy: str
    only_in_a: list[str] = field(default_factory=list)
    only_in_b: list[str] = field(default_factory=list)
    clusters: list[str] | None = None
    slices: list[str] | None = None
    #: Topics of the qrels (when given) that neither run scored.
    in_neither: list[str] = field(default_factory=list)
    #: Where the query set came from: "runs" (the union or intersection of the runs' queries) or the
    #: qrels' source.
    topics_from: str = "runs"
    #: How many topics the qrels judge (None without qrels).
    n_topics: int | None = None
    #: Topics each run retrieved nothing for, scored 0 by :func:`evaluate` (as trec_eval -c does).
    unretrieved_a: list[str] = field(default_factory=list)
    unretrieved_b: list[str] = field(default_factory=list)

    @property
    def n_affected(self) -> int:
        """Queries not scored in both runs (dropped, or scored 0 where missing)."""
        return len(self.only_in_a) + len(self.only_in_b) + len(self.in_neither)

    def summary(self) -> str:
        """One line saying how many queries were compared and what the missing-query policy did."""
        text = f"{len(self.query_ids)} queries compared"
        if self.n_topics is not None:
            text += f" of the {self.n_topics} judged topics"
        if self.n_affected:
            verb = "dropped" if self.missing_policy == "drop" else "scored 0 where missing"
            text += f"; {len(self.only_in_a)} only in A and {len(self.only_in_b)} only in B"
            if self.in_neither:
                text += f" and {len(self.in_neither)} in neither"
            text += f", {verb} (missing={self.missing_policy!r})"
        if self.unretrieved_a or self.unretrieved_b:
            text += (
                f"; retrieved nothing, scored 0 by evaluate (as trec_eval -c): "
                f"{len(self.unretrieved_a)} in A, {len(self.unretrieved_b)} in B"
            )
        return text


def _labels_for(ids: list[str], *tables: Mapping[str, str] | None) -> list[str] | None:
    present = [t for t in tables if t is not None]
    if not present:
        return None
    out = []
    for q in ids:
        values = {t[q] for t in present if q in t}
        if not values:
            raise ValueError(f"query {q!r} has no cluster or slice label in either run.")
        if len(values) > 1:
            raise ValueError(f"query {q!r} has different labels in the two runs: {sorted(values)}.")
        out.append(values.pop())
    return out


def _clusters_for(ids: list[str], clusters: object) -> list:
    """Each compared query's user, from a mapping ``{query_id: user}``."""
    if not isinstance(clusters, Mapping):
        raise ValueError(
            "clusters must map each query ID to its user, e.g. {'q1': 'U1', 'q2': 'U1'}; "
            f"got {type(clusters).__name__}. (Runs are lined up by sorted query ID, so a plain "
            "list of users has no reliable order.)"
        )
    missing_users = [q for q in ids if q not in clusters]
    if missing_users:
        raise ValueError(
            f"clusters has no user for {len(missing_users)} compared queries, e.g. "
            f"{missing_users[:5]}."
        )
    return [clusters[q] for q in ids]


def _sorted_ids(ids: set) -> list:
    """Query IDs sorted; by their text when they mix types (e.g. ints and strings)."""
    try:
        return sorted(ids)
    except TypeError:
        return sorted(ids, key=str)


def _same_text_example(only_a: list, only_b: list) -> str | None:
    """``"301 in A and '301' in B"`` for a pair of IDs that read the same as text but differ in
    type, else None.
    """
    by_text = {str(q): q for q in only_b}
    for q in only_a:
        if str(q) in by_text:
            return f"{q!r} in A and {by_text[str(q)]!r} in B"
    return None


def align_runs(
    a: RunScores | Mapping[str, float],
    b: RunScores | Mapping[str, float],
    *,
    missing: str = "error",
    qrels: Qrels | None = None,
    clusters: Mapping[str, str] | None = None,
) -> AlignedRuns:
    """Line up two runs by query ID (sorted), with an explicit policy for unmatched queries.

    Parameters
    ----------
    a, b : RunScores or mapping of query ID to score
        The baseline A and the candidate B.
    missing : {"error", "drop", "zero"}
        ``"error"`` (default) refuses runs whose query sets differ, naming the
        queries; ``"drop"`` keeps only the shared queries and reports how many were
        dropped; ``"zero"`` scores a query missing from a run as 0, as
        ``trec_eval -c`` does. The policy is recorded in the result.
        Without ``qrels``, the queries are those of the two runs: "zero"
        compares their union, "drop" their intersection, and a topic that
        neither run has a row for is not compared at all.
    qrels : Qrels, optional
        With the judgments, the queries are exactly the judged topics, as in
        trec_eval: "zero" also scores 0 a topic missing from both runs (so the
        comparison covers what ``trec_eval -c`` averages over), "drop" keeps the
        topics scored in both runs, "error" refuses a topic missing from either.
        A scored query that the qrels do not judge is refused.
    clusters : mapping of query ID to user (cluster), optional
        Each compared query's user; replaces the clusters the runs carry (CSV input).
        A mapping, because the runs are lined up by sorted query ID.

    Examples
    --------
    >>> runs = align_runs({"q1": 0.5, "q2": 0.3}, {"q1": 0.6, "q3": 0.9}, missing="zero")
    >>> runs.query_ids, runs.a.tolist(), runs.b.tolist()
    (['q1', 'q2', 'q3'], [0.5, 0.3, 0.0], [0.6, 0.0, 0.9])
    >>> runs.summary()
    "3 queries compared; 1 only in A and 1 only in B, scored 0 where missing (missing='zero')"
    """
    if missing not in MISSING_POLICIES:
        raise ValueError(
            f"missing must be one of {', '.join(repr(p) for p in MISSING_POLICIES)}; got "
            f"{missing!r}."
        )
    for side, r in (("A", a), ("B", b)):
        if not isinstance(r, (RunScores, Mapping)):
            raise ValueError(
                f"run {side} must be a mapping {{query_id: score}} or a RunScores (from "
                "read_trec_eval or read_scores_csv); "
                f"got {type(r).__name__}. For (query_id, score) pairs pass dict(pairs), for a "
                "pandas Series s.to_dict(); "
                "for two lists of scores in the same query order, use paired_differences(a, b)."
            )
    if qrels is not None and not isinstance(qrels, Qrels):
        raise ValueError(f"qrels must come from read_qrels(path); got {type(qrels).__name__}.")
    runs = [r if isinstance(r, RunScores) else RunScores(dict(r), "") for r in (a, b)]
    sa, sb = runs[0].scores, runs[1].scores
    if not sa or not sb:
        raise ValueError("Both runs need at least one scored query.")
    in_neither: list = []
    if qrels is not None:
        topics = set(qrels.judgments)
        for side, scores in (("A", sa), ("B", sb)):
            unjudged = _sorted_ids(set(map(str, scores)) - topics)
            if unjudged:
                raise ValueError(
                    f"Run {side} scores {len(unjudged)} queries that the qrels do not judge "
                    f"({_checks.name_some(unjudged, 5)}); "
                    "trec_eval only scores judged topics. Use the qrels these scores were computed "
                    "with, or compare without qrels."
                )
        in_neither = _sorted_ids(topics - set(map(str, sa)) - set(map(str, sb)))
    only_a = _sorted_ids(set(sa) - set(sb))
    only_b = _sorted_ids(set(sb) - set(sa))
    if (only_a or only_b or in_neither) and missing == "error":
        example = _same_text_example(only_a, only_b)
        type_hint = (
            f" Some IDs differ only in type (e.g. {example}): use the same type, e.g. str, on both "
            "sides."
            if example
            else ""
        )
        neither = (
            f"; {len(in_neither)} judged topics are in neither run "
            f"({_checks.name_some(in_neither, 5)})"
            if in_neither
            else ""
        )
        unmatched = (
            describe_unmatched(only_a, only_b)
            if (only_a or only_b)
            else "every scored query is in both runs"
        )
        raise ValueError(
            f"The runs do not cover the same queries: {unmatched}{neither}.{type_hint} "
            "Fix the runs, or choose a policy: missing='drop' compares the shared queries only, "
            "missing='zero' scores a missing query 0 (as trec_eval -c does)."
        )
    if missing == "drop":
        ids = _sorted_ids(set(sa) & set(sb))
    else:
        ids = _sorted_ids(set(sa) | set(sb) | set(in_neither))
    if not ids:
        raise ValueError("The runs share no query IDs.")
    return AlignedRuns(
        query_ids=ids,
        a=_checks.frozen([sa.get(q, 0.0) for q in ids], "A's scores", labels=ids),
        b=_checks.frozen([sb.get(q, 0.0) for q in ids], "B's scores", labels=ids),
        missing_policy=missing,
        only_in_a=only_a,
        only_in_b=only_b,
        clusters=(
            _labels_for(ids, runs[0].clusters, runs[1].clusters)
            if clusters is None
            else _clusters_for(ids, clusters)
        ),
        slices=_labels_for(ids, runs[0].slices, runs[1].slices),
        in_neither=in_neither,
        topics_from="runs" if qrels is None else (qrels.source or "qrels"),
        n_topics=None if qrels is None else len(qrels.judgments),
        unretrieved_a=list(runs[0].unretrieved or []),
        unretrieved_b=list(runs[1].unretrieved or []),
    )
