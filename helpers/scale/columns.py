"""A run or qrels file read at numpy speed, as columns, and a run's columns put in trec_eval's
order: how :mod:`helpers.runs` reads and scores MS MARCO-size runs (7 million lines) in a
fraction of the time and memory dicts of dicts take, with the same tables. :func:`read_columns`
declines (returns None for) any file it cannot read exactly as the line-by-line reader of
:mod:`helpers.runs.readers` does, which then reads it or says what is wrong where."""

from __future__ import annotations

import io
import itertools
import os
from collections.abc import Mapping
from functools import cached_property

import numpy as np

#: Bytes of a file read at once (numpy's reader makes its columns a fraction of that again).
CHUNK = 1 << 22


class Columns(Mapping):
    """A run read from a file, as columns: its topics in the order they first appear, and for
    each line its topic's index, document ID (ASCII bytes) and score. As a mapping it is the
    run's {query: {document: score}}, each topic's documents in file order, built when asked for:
    :func:`~helpers.runs.scoring.evaluate` scores the columns without building it."""

    def __init__(self, topics: list[str], codes: np.ndarray, docs: np.ndarray, scores: np.ndarray):
        self.topics, self.codes, self.docs, self.scores = topics, codes, docs, scores
        self.index = {q: i for i, q in enumerate(topics)}

    @cached_property
    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """The lines in topic order (file order within a topic), and where each topic starts."""
        order = np.argsort(self.codes, kind="stable")
        return order, np.searchsorted(self.codes[order], np.arange(len(self.topics) + 1))

    def topic(self, i: int) -> tuple[list[str], list]:
        """Topic ``i``'s documents (as text) and scores, in file order."""
        order, starts = self.rows
        rows = order[starts[i] : starts[i + 1]]
        return self.docs[rows].astype(str).tolist(), self.scores[rows].tolist()

    def __getitem__(self, query: str) -> dict[str, float]:
        return dict(zip(*self.topic(self.index[query]), strict=True))

    def __iter__(self):
        return iter(self.topics)

    def __len__(self) -> int:
        return len(self.topics)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


def read_columns(path: str | os.PathLike[str], n: int, head_lines: int) -> tuple | None:
    """A TREC run's (``n`` = 6) or an MS MARCO run's (3) :class:`Columns`, or qrels' (4)
    {query: {document: grade}}; the tags (a TREC run's; else []) and the first ``head_lines``
    lines' topics, ranks and scores (a run's). Read a chunk of lines at a time by numpy's C
    reader, when each line is ``n`` plain ASCII fields and no document is listed twice for a
    topic; else None: the line-by-line reader reads the file or says what is wrong where. The
    same tables, in a fraction of the time and memory."""
    topics: dict[bytes, int] = {}  # each topic's index, in the order topics first appear
    widths = {k: 16 for k in _FIELDS[n] if k != "score"}  # text fields' widths, doubled as needed
    parts: list[tuple] = []
    try:
        file = open(path, "rb")  # noqa: SIM115 (closed below)
    except OSError:
        return None
    with file:
        for chunk in _whole_lines(file):
            if (part := _plain_lines(chunk, n, topics, widths, head_lines)) is None:
                return None
            if sum(len(p[3][0]) for p in parts) >= head_lines:
                part[3] = ([], [], [])  # the first lines are enough
            parts.append(part)
    if not parts:
        return None  # an empty file
    head = tuple(list(itertools.chain(*(p[3][i] for p in parts)))[:head_lines] for i in range(3))
    tags = [t.decode() for t in dict.fromkeys(itertools.chain(*(p[4] for p in parts)))]
    columns = []
    for i in range(3):  # a column at a time, its parts let go as it is made
        columns.append(np.concatenate([p[i] for p in parts]))
        for p in parts:
            p[i] = None
    table = Columns([q.decode() for q in topics], *columns)
    if not _no_document_twice(table):
        return None
    if n == 4:
        return {q: dict(zip(*table.topic(i), strict=True)) for i, q in enumerate(table)}, [], head
    return table, tags, head


def _whole_lines(file: io.BufferedReader):
    """The file's bytes, a chunk of whole lines at a time (the last line may lack its end)."""
    rest = b""
    while data := file.read(CHUNK):
        data = rest + data
        cut = data.rfind(b"\n") + 1
        rest = data[cut:]
        if cut:
            yield data[:cut]
    if rest:
        yield rest


#: The fields _plain_lines reads of each kind of file, each with its column. A run's lines may
#: have more than six fields (the line-by-line reader ignores the rest, as trec_eval does);
#: qrels and MS MARCO lines have exactly theirs (numpy's reader checks, when given every column).
_FIELDS = {
    6: {"qid": 0, "doc": 2, "rank": 3, "score": 4, "tag": 5},
    4: {"qid": 0, "it": 1, "doc": 2, "grade": 3},
    3: {"qid": 0, "doc": 1, "rank": 2},
}
_DIGITS = np.zeros(256, bool)
_DIGITS[[0, *b"0123456789"]] = True  # 0: a shorter field's padding
_SIGNED = _DIGITS.copy()
_SIGNED[[*b"+-"]] = True


def _plain_lines(chunk: bytes, n: int, topics: dict, widths: dict, head_lines: int) -> list | None:
    """One chunk of whole lines as columns (see :func:`read_columns`), or None. numpy's reader
    splits at the whitespace bytes.split() splits at (C's isspace(), as trec_eval) and also at
    \\x1c-\\x1f, so a chunk holding those goes line by line; it reads a number exactly as float()
    does, but for "1_000", which it refuses."""
    if not chunk.isascii() or chunk.isspace() or any(c in chunk for c in b"\0\x1c\x1d\x1e\x1f"):
        return None
    if b"\r" in chunk:
        chunk = chunk.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines = chunk.count(b"\n") + (not chunk.endswith(b"\n"))
    while True:  # each text field as wide as the longest yet: read again, wider, if one fills it
        kinds = [(k, "f8" if k == "score" else f"S{widths[k]}") for k in _FIELDS[n]]
        try:
            table = np.loadtxt(io.StringIO(chunk.decode()), kinds, comments=None, ndmin=1,
                               usecols=list(_FIELDS[n].values()) if n == 6 else None)  # fmt: skip
        except ValueError:  # a score not a number, or a line of other than n fields
            return None
        if len(table) != lines:  # a blank line
            return None
        if not (full := [k for k in widths if _bytes(table[k])[:, -1].any()]):
            break
        for k in full:
            widths[k] *= 2
        if max(widths.values()) > 1024 or widths.get("rank", 0) > 256:  # (a finite rank)
            return None
    ranks = table["grade" if n == 4 else "rank"]
    if not (_DIGITS if n == 6 else _SIGNED)[_bytes(ranks)].all():  # a run's rank: digits only
        return None
    try:
        if n == 4:
            values = np.fromiter(map(int, table["grade"].tolist()), np.int64, lines)
        else:  # an MS MARCO run's rank is its order
            values = table["score"] if n == 6 else -table["rank"].astype(float)
    except (ValueError, OverflowError):  # "+-1", or a grade beyond 64 bits
        return None
    if not np.isfinite(values).all():
        return None
    qids = table["qid"]
    starts = [0, *(np.flatnonzero(qids[1:] != qids[:-1]) + 1).tolist(), lines]
    block_codes = []
    for a in starts[:-1]:  # each run of lines of one topic
        qid, new = bytes(qids[a]), len(topics)
        if (code := topics.setdefault(qid, new)) == new and qid.startswith(b"#"):
            return None  # a comment line
        block_codes.append(code)
    codes = np.repeat(np.array(block_codes, np.int32), np.diff(starts))
    docs = table["doc"].astype(f"S{max(1, _used(table['doc']))}")
    head = tuple(x[:head_lines].tolist() for x in (qids, ranks, values))
    tags = table["tag"] if n == 6 else np.zeros(0, "S1")
    tags = [tags[0]] if len(tags) and (tags == tags[0]).all() else dict.fromkeys(tags.tolist())
    return [codes, docs, np.ascontiguousarray(values), head, tags]


def _bytes(column: np.ndarray) -> np.ndarray:
    """A column of fixed-width text as a (lines, width) array of bytes."""
    return np.ascontiguousarray(column).view(np.uint8).reshape(len(column), -1)


def _used(column: np.ndarray) -> int:
    """The width of the longest text in ``column``."""
    return int(np.flatnonzero(_bytes(column).any(axis=0)).max(initial=-1)) + 1


def _no_document_twice(table: Columns) -> bool:
    """True when no topic lists a document twice: each line's topic and document hashed and
    sorted; only when two hashes are equal is each topic's list checked exactly."""
    (key := hashes(table.docs, table.codes)).sort()
    if not (key[1:] == key[:-1]).any():
        return True
    order, starts = table.rows
    return all(np.unique(table.docs[order[a:b]]).size == b - a
               for a, b in itertools.pairwise(starts.tolist()))  # fmt: skip


def hashes(texts: np.ndarray, codes: np.ndarray | None = None) -> np.ndarray:
    """Each fixed-width text's 64-bit hash, mixed with its topic's code if given: equal texts
    (and codes) hash equal; unequal ones almost never do, but a hash is only ever a shortlist.
    A million texts at a time, in place, to keep the memory it takes small."""
    width, key = -(-texts.dtype.itemsize // 8) * 8, np.zeros(len(texts), np.uint64)
    for a in range(0, len(texts), 1 << 20):
        words = _bytes(texts[a : a + (1 << 20)].astype(f"S{width}")).view(np.uint64)
        part = key[a : a + len(words)]  # a view, filled in place
        part[:] = 0 if codes is None else codes[a : a + len(words)]
        for word in words.T:
            part *= np.uint64(0x9E3779B97F4A7C15)
            part ^= word
            part *= np.uint64(0xBF58476D1CE4E5B9)
    return key


def trec_order(table: Columns) -> tuple[np.ndarray, list[int]]:
    """The lines in trec_eval's order, by topic (and where each starts): score down, then the
    larger document ID first. Lines written score down are only reordered where scores tie,
    by their IDs' bytes as big-endian integers, which order as the bytes do."""
    order, starts = table.rows
    codes, scores = table.codes[order], table.scores[order]
    same = codes[1:] == codes[:-1]
    if (same & (scores[1:] > scores[:-1])).any():  # not written score down
        order = order[np.lexsort((-scores, codes))]
        scores = table.scores[order]
    if (tied := same & (scores[1:] == scores[:-1])).any():
        rows = np.flatnonzero(np.r_[tied, False] | np.r_[False, tied])  # in a run of ties
        group = np.cumsum(np.r_[True, ~tied[rows[:-1]] | (np.diff(rows) != 1)])
        width = -(-table.docs.dtype.itemsize // 8) * 8
        ids = _bytes(table.docs[order[rows]].astype(f"S{width}")).view(">u8").astype(np.uint64)
        keys = [~ids[:, j] for j in reversed(range(ids.shape[1]))]  # ~: the larger ID first
        order[rows] = order[rows][np.lexsort([*keys, group])]
    return order, starts.tolist()


def column_grades(table: Columns, judgments: Mapping, unjudged: float) -> np.ndarray:
    """Each line's grade (``unjudged`` where not judged): its (topic, document) hash looked up
    among the judged pairs' (a sieve of their top 20 bits first), then checked to be the pair."""
    width, codes, docs, values = table.docs.dtype.itemsize, [], [], []
    for q, judged in judgments.items():  # the judged documents a line can be: ASCII, not longer
        if (i := table.index.get(q)) is not None:
            kept = [d for d in judged if len(d) <= width and d.isascii() and "\0" not in d]
            codes += [i] * len(kept)
            docs += kept
            values += [judged[d] for d in kept]
    grades = np.full(len(table.docs), float(unjudged))
    if not docs:
        return grades
    codes, docs = np.array(codes, np.int32), np.array(docs, table.docs.dtype)
    keys = hashes(docs, codes)
    by = np.argsort(keys)
    seen = np.zeros(1 << 20, bool)
    seen[keys >> np.uint64(44)] = True
    each = hashes(table.docs, table.codes)
    rows = np.flatnonzero(seen[each >> np.uint64(44)])
    at = by[np.searchsorted(keys[by], each[rows]).clip(max=len(keys) - 1)]
    same = (docs[at] == table.docs[rows]) & (codes[at] == table.codes[rows])
    grades[rows[same]] = np.asarray(values, float)[at[same]]
    if (keys[by][1:] == keys[by][:-1]).any():  # two judged pairs of one hash: look each up
        pairs = dict(zip(zip(codes.tolist(), docs.tolist(), strict=True), values, strict=True))
        rest = rows[~same]
        rest_keys = zip(table.codes[rest].tolist(), table.docs[rest].tolist(), strict=True)
        grades[rest] = [pairs.get(k, unjudged) for k in rest_keys]
    return grades
