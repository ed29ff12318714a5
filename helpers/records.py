"""Saving a comparison so that anyone can recompute it exactly.

A record holds what a comparison needs to be repeated: the query IDs, both
systems' per-query scores, the seed, the number of resamples, the level and the
interval convention, and the interval that was reported. JSON keeps it readable
and diffable; Python writes floats with enough digits to read back the same
double, so a reloaded record recomputes the identical interval.
"""

from __future__ import annotations

import json
import numbers
import os
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from .data import paired_scores
from .intervals import CONVENTION, Interval, _check_level, percentile_interval
from .resampling import paired_bootstrap

__all__ = ["ComparisonRecord", "make_record", "recompute_interval", "save_record", "load_record"]

FORMAT = "did-search-improve/comparison"
FORMAT_VERSION = 1
METHOD = "paired_bootstrap: mean of d_q over query pairs resampled with replacement, numpy.random.default_rng(seed)"


@dataclass
class ComparisonRecord:
    """Everything needed to recompute a paired comparison of systems A and B."""

    query_ids: list[str]
    scores_a: list[float]
    scores_b: list[float]
    seed: int
    n_resamples: int
    level: float
    interval: tuple[float, float]
    metric: str = ""
    system_a: str = "A"
    system_b: str = "B"
    convention: str = CONVENTION
    method: str = METHOD
    notes: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def mean_difference(self) -> float:
        """Mean of ``d_q = m_B(q) - m_A(q)`` over the recorded queries."""
        return float(np.mean(np.subtract(self.scores_b, self.scores_a)))

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, with format name and version first."""
        body = asdict(self)
        body["interval"] = list(self.interval)
        return {"format": FORMAT, "version": FORMAT_VERSION, **body}


def make_record(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
    *,
    seed: int,
    n_resamples: int,
    level: float = 0.95,
    query_ids: Sequence[Hashable] | None = None,
    **metadata: Any,
) -> ComparisonRecord:
    """Run the paired bootstrap and capture it, inputs and result, as a record.

    Parameters
    ----------
    a, b : sequences or mappings of query ID to score
        As for :func:`helpers.paired_differences`.
    seed : int
        The seed passed to :func:`helpers.paired_bootstrap`.
    n_resamples : int
        B.
    level : float
        Confidence level of the percentile interval.
    query_ids : sequence, optional
        Query IDs for sequence input (default ``q1``, ``q2``, ...).
    **metadata
        ``metric``, ``system_a``, ``system_b``, ``notes`` or ``extra``.

    Examples
    --------
    >>> rec = make_record([0.5, 0.6, 0.7], [0.6, 0.6, 0.9], seed=1, n_resamples=200, metric="nDCG@10")
    >>> rec.query_ids, round(rec.mean_difference, 3)
    (['q1', 'q2', 'q3'], 0.1)
    """
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise ValueError(f"seed must be a non-negative int so that the record can be recomputed; got {seed!r}.")
    ids, a_arr, b_arr = paired_scores(a, b)
    if ids is None:
        ids = [f"q{i + 1}" for i in range(a_arr.size)] if query_ids is None else list(query_ids)
    elif query_ids is not None:
        raise ValueError("query_ids is only for sequence input; mappings carry their own query IDs.")
    if len(ids) != a_arr.size:
        raise ValueError(f"{len(ids)} query IDs were given for {a_arr.size} scores.")
    if len(set(ids)) != len(ids):
        raise ValueError("query IDs must be unique.")
    _check_level(level)
    means = paired_bootstrap(b_arr - a_arr, n_resamples, rng=int(seed))
    interval = percentile_interval(means, level)
    return ComparisonRecord(
        query_ids=[str(q) for q in ids],
        scores_a=a_arr.tolist(),
        scores_b=b_arr.tolist(),
        seed=int(seed),
        n_resamples=int(n_resamples),
        level=float(level),
        interval=(interval.low, interval.high),
        **metadata,
    )


def recompute_interval(record: ComparisonRecord) -> Interval:
    """Recompute a record's interval from its scores, seed, B and level.

    >>> rec = make_record([0.5, 0.6, 0.7], [0.6, 0.6, 0.9], seed=1, n_resamples=200)
    >>> tuple(recompute_interval(rec)) == rec.interval
    True
    """
    diffs = np.subtract(record.scores_b, record.scores_a)
    return percentile_interval(paired_bootstrap(diffs, record.n_resamples, rng=record.seed), record.level)


def save_record(record: ComparisonRecord, path: str | os.PathLike[str]) -> None:
    """Write a record as indented JSON (UTF-8, trailing newline).

    >>> import tempfile, pathlib
    >>> rec = make_record([0.5, 0.6], [0.6, 0.6], seed=1, n_resamples=10)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     p = pathlib.Path(tmp) / "rec.json"
    ...     save_record(rec, p)
    ...     load_record(p) == rec
    True
    """
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(record.to_dict(), fh, indent=2, allow_nan=False)
        fh.write("\n")


_REQUIRED = ("query_ids", "scores_a", "scores_b", "seed", "n_resamples", "level", "interval")


def load_record(path: str | os.PathLike[str]) -> ComparisonRecord:
    """Read a record written by :func:`save_record`, checking that it is complete and consistent.

    Raises
    ------
    ValueError
        Not JSON, not a comparison record, a missing field, or scores and IDs of
        different lengths (the file is named in the message).
    """
    name = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except json.JSONDecodeError as exc:
        raise ValueError(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ValueError(f"{name}: not a comparison record (expected \"format\": \"{FORMAT}\").")
    if raw.get("version") != FORMAT_VERSION:
        raise ValueError(f"{name}: record version {raw.get('version')!r} is not supported (this code reads version {FORMAT_VERSION}).")
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        raise ValueError(f"{name}: the record is missing {', '.join(missing)}.")
    body = {k: v for k, v in raw.items() if k not in ("format", "version")}
    known = set(ComparisonRecord.__dataclass_fields__)
    unknown = sorted(set(body) - known)
    if unknown:
        raise ValueError(f"{name}: unknown field(s) {', '.join(unknown)}.")
    if not (len(body["query_ids"]) == len(body["scores_a"]) == len(body["scores_b"])):
        raise ValueError(
            f"{name}: {len(body['query_ids'])} query IDs, {len(body['scores_a'])} scores for A and "
            f"{len(body['scores_b'])} for B; they must match."
        )
    if not (isinstance(body["interval"], list) and len(body["interval"]) == 2):
        raise ValueError(f"{name}: interval must be a list [low, high].")
    body["interval"] = (float(body["interval"][0]), float(body["interval"][1]))
    return ComparisonRecord(**body)
