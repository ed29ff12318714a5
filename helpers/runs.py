"""Reading per-query results of your own runs, and lining two runs up.

Two formats are read: the per-query output of ``trec_eval -q`` and a CSV/TSV
file with a header. Both give scores keyed by query ID. A file that cannot be
read as intended is refused with a ``ValueError`` naming the file and the line;
nothing is skipped silently except ``trec_eval``'s ``all`` summary rows, which
are not queries.
"""

from __future__ import annotations

import csv
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .data import _name_some, as_scores, describe_unmatched

__all__ = ["RunScores", "AlignedRuns", "read_trec_eval", "read_scores_csv", "align_runs", "MISSING_POLICIES"]

#: How :func:`align_runs` treats queries scored in one run only.
MISSING_POLICIES = ("error", "drop", "zero")


@dataclass
class RunScores:
    """One run's per-query scores for one measure, as read from a file."""

    scores: dict[str, float]
    measure: str
    source: str = ""
    clusters: dict[str, str] | None = None
    slices: dict[str, str] | None = None

    def __len__(self) -> int:
        return len(self.scores)


def _parse_number(text: str, where: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{where}: {what} {text!r} is not a number.") from None
    if not math.isfinite(value):
        raise ValueError(f"{where}: {what} is {text!r}; scores must be finite numbers.")
    return value


def _store(table: dict[str, float], seen_at: dict[str, int], qid: str, value: float, path: str, lineno: int) -> None:
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
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            any_line = True
            fields = line.split()
            if len(fields) != 3:
                raise ValueError(
                    f"{name}:{lineno}: expected 'measure query_id value' (3 fields), found {len(fields)}: {line.strip()[:80]!r}."
                )
            m, qid, value = fields
            if qid == "all":
                summary_only.add(m)
                continue
            measures.add(m)
            if m != measure:
                continue
            _store(scores, seen_at, qid, _parse_number(value, f"{name}:{lineno}", f"value of {m} for query {qid!r}"), name, lineno)
    if not any_line:
        raise ValueError(f"{name}: the file is empty; expected trec_eval -q output.")
    if measure not in measures:
        if measure in summary_only:
            raise ValueError(f"{name}: measure {measure!r} has only 'all' summary rows; run trec_eval with -q for per-query values.")
        raise ValueError(f"{name}: measure {measure!r} is not in the file; its per-query measures are {_name_some(measures, 10) or 'none'}.")
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
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter=delimiter)
        header = None
        for row in reader:
            if any(cell.strip() for cell in row):
                header = [cell.strip() for cell in row]
                break
        if header is None:
            raise ValueError(f"{name}: the file is empty; expected a header row naming the columns.")
        missing = [col for col in wanted.values() if col is not None and col not in header]
        if missing:
            raise ValueError(f"{name}:{reader.line_num}: no column {', '.join(repr(c) for c in missing)} in the header; it has {', '.join(repr(c) for c in header)}.")
        pos = {role: header.index(col) for role, col in wanted.items() if col is not None}
        for row in reader:
            lineno = reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise ValueError(f"{name}:{lineno}: expected {len(header)} fields as in the header, found {len(row)}.")
            qid = row[pos["query"]].strip()
            if not qid:
                raise ValueError(f"{name}:{lineno}: the query ID is empty.")
            value = _parse_number(row[pos["score"]].strip(), f"{name}:{lineno}", f"{score!r} value")
            _store(scores, seen_at, qid, value, name, lineno)
            for role in ("cluster", "slice"):
                if role in pos:
                    label = row[pos[role]].strip()
                    if not label:
                        raise ValueError(f"{name}:{lineno}: the {wanted[role]!r} value of query {qid!r} is empty.")
                    previous = labels[role].setdefault(qid, label)
                    if previous != label:
                        raise ValueError(f"{name}:{lineno}: query {qid!r} has {wanted[role]!r} {label!r} here but {previous!r} on line {seen_at[qid]}.")
    if not scores:
        raise ValueError(f"{name}: the header is there but no rows follow.")
    return RunScores(
        scores,
        score,
        name,
        clusters=labels["cluster"] if cluster else None,
        slices=labels["slice"] if slice else None,
    )


@dataclass
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

    @property
    def n_affected(self) -> int:
        """Queries scored in one run only (dropped, or scored 0 where missing)."""
        return len(self.only_in_a) + len(self.only_in_b)

    def summary(self) -> str:
        """One line saying how many queries were compared and what the missing-query policy did."""
        text = f"{len(self.query_ids)} queries compared"
        if self.n_affected:
            verb = "dropped" if self.missing_policy == "drop" else "scored 0 where missing"
            text += f"; {len(self.only_in_a)} only in A and {len(self.only_in_b)} only in B, {verb} (missing={self.missing_policy!r})"
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


def _sorted_ids(ids: set) -> list:
    """Query IDs sorted; by their text when they mix types (e.g. ints and strings)."""
    try:
        return sorted(ids)
    except TypeError:
        return sorted(ids, key=str)


def _same_text_example(only_a: list, only_b: list) -> str | None:
    """``"301 in A and '301' in B"`` for a pair of IDs that read the same as text but differ in type, else None."""
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

    Examples
    --------
    >>> runs = align_runs({"q1": 0.5, "q2": 0.3}, {"q1": 0.6, "q3": 0.9}, missing="zero")
    >>> runs.query_ids, runs.a.tolist(), runs.b.tolist()
    (['q1', 'q2', 'q3'], [0.5, 0.3, 0.0], [0.6, 0.0, 0.9])
    >>> runs.summary()
    "3 queries compared; 1 only in A and 1 only in B, scored 0 where missing (missing='zero')"
    """
    if missing not in MISSING_POLICIES:
        raise ValueError(f"missing must be one of {', '.join(repr(p) for p in MISSING_POLICIES)}; got {missing!r}.")
    for side, r in (("A", a), ("B", b)):
        if not isinstance(r, (RunScores, Mapping)):
            raise ValueError(
                f"run {side} must be a mapping {{query_id: score}} or a RunScores (from read_trec_eval or read_scores_csv); "
                f"got {type(r).__name__}. For (query_id, score) pairs pass dict(pairs), for a pandas Series s.to_dict(); "
                "for two lists of scores in the same query order, use paired_differences(a, b)."
            )
    runs = [r if isinstance(r, RunScores) else RunScores(dict(r), "") for r in (a, b)]
    sa, sb = runs[0].scores, runs[1].scores
    if not sa or not sb:
        raise ValueError("Both runs need at least one scored query.")
    only_a = _sorted_ids(set(sa) - set(sb))
    only_b = _sorted_ids(set(sb) - set(sa))
    if (only_a or only_b) and missing == "error":
        example = _same_text_example(only_a, only_b)
        type_hint = f" Some IDs differ only in type (e.g. {example}): use the same type, e.g. str, on both sides." if example else ""
        raise ValueError(
            f"The runs do not cover the same queries: {describe_unmatched(only_a, only_b)}.{type_hint} "
            "Fix the runs, or choose a policy: missing='drop' compares the shared queries only, "
            "missing='zero' scores a missing query 0 (as trec_eval -c does)."
        )
    ids = _sorted_ids(set(sa) & set(sb)) if missing == "drop" else _sorted_ids(set(sa) | set(sb))
    if not ids:
        raise ValueError("The runs share no query IDs.")
    return AlignedRuns(
        query_ids=ids,
        a=as_scores([sa.get(q, 0.0) for q in ids], "A's scores", labels=ids),
        b=as_scores([sb.get(q, 0.0) for q in ids], "B's scores", labels=ids),
        missing_policy=missing,
        only_in_a=only_a,
        only_in_b=only_b,
        clusters=_labels_for(ids, runs[0].clusters, runs[1].clusters),
        slices=_labels_for(ids, runs[0].slices, runs[1].slices),
    )
