"""Saving a comparison as JSON so that anyone can recompute it exactly.

A record holds the query IDs, both systems' scores, the seed, R, the level and the reported
interval (Python writes floats that read back as the same double). Version 2 adds clusters,
exclusions and the evaluation's config; a record that uses none of them is written as version 1.
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from . import _checks
from .grid import _exact_bootstrap_interval
from .intervals import CONVENTION, Interval, _percentile_interval
from .resampling import DEFAULT_MAX_ELEMENTS, _cluster_bootstrap, _cluster_totals, _paired_bootstrap

__all__ = ["ComparisonRecord", "make_record", "recompute_interval", "save_record",
           "load_record"]  # fmt: skip

FORMAT = "did-search-improve/comparison"
READABLE_VERSIONS = (1, 2)
#: Fields added in version 2, with their empty values.
V2_FIELDS = {"clusters": None, "exclusions": {}, "config": {}}
METHOD = (
    "paired_bootstrap: mean of d_q over query pairs resampled with replacement, "
    "numpy.random.default_rng(seed)"
)
METHOD_CLUSTER = (
    "user-cluster bootstrap: total change / total query count over clusters resampled with "
    "replacement (each cluster with all of its queries), numpy.random.default_rng(seed)"
)
METHOD_EXACT = (
    "exact bootstrap: percentile interval of the exact bootstrap distribution of the mean of d_q "
    "over all Q**Q resamples (multiset enumeration, or FFT on the score grid), "
    "helpers.exact_bootstrap_interval; no random numbers"
)


@dataclass(frozen=True)
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
    # version 2
    clusters: list[str] | None = None
    exclusions: dict[str, str] = field(default_factory=dict)
    config: dict[str, Any] = field(default_factory=dict)

    @property
    def mean_difference(self) -> float:
        """Mean of ``d_q`` over the recorded queries."""
        return float(np.mean(np.subtract(self.scores_b, self.scores_a)))

    @property
    def version(self) -> int:
        """The format version this record needs: 2 if it uses any version-2 field, else 1."""
        return 2 if any(getattr(self, k) != v for k, v in V2_FIELDS.items()) else 1

    def to_dict(self) -> dict[str, Any]:
        """Plain-JSON form, with format name and version first (version-2 fields only when used)."""
        body = asdict(self) | {"interval": list(self.interval)}
        if self.version == 1:
            body = {k: v for k, v in body.items() if k not in V2_FIELDS}
        return {"format": FORMAT, "version": self.version, **body}


def make_record(
    a: Sequence[float] | Mapping[Hashable, float],
    b: Sequence[float] | Mapping[Hashable, float],
    *,
    rng: int,
    n_resamples: int,
    level: float = 0.95,
    query_ids: Sequence[Hashable] | None = None,
    clusters: Sequence[Hashable] | Mapping[Hashable, Hashable] | None = None,
    exclusions: Mapping[Hashable, str] | None = None,
    config: Mapping[str, Any] | None = None,
    **metadata: Any,
) -> ComparisonRecord:
    """Run the paired bootstrap and capture it, inputs and result, as a record.

    ``rng`` is the int seed, kept so the record can be recomputed; ``query_ids``
    names sequence input (default ``q1``, ``q2``, ...). Each in query order or
    keyed by query ID: ``clusters`` (the interval then resamples whole users),
    ``exclusions`` (``{query_id: reason}``), ``config`` (plain JSON settings).
    ``**metadata`` sets ``metric``, ``system_a``, ``system_b``, ``notes`` or ``extra``.

    >>> rec = make_record(
    ...     [0.5, 0.6, 0.7], [0.6, 0.6, 0.9], rng=1, n_resamples=200, metric="nDCG@10"
    ... )
    >>> rec.query_ids, round(rec.mean_difference, 3), rec.version
    (['q1', 'q2', 'q3'], 0.1, 1)
    """
    seed, n_resamples, level, ids, a_arr, b_arr, extras = _make_record_iv(
        a, b, rng, n_resamples, level, query_ids, clusters, exclusions, config
    )
    if clusters is not None:
        metadata.setdefault("method", METHOD_CLUSTER)
    means = _bootstrap_means(b_arr - a_arr, extras.get("clusters"), n_resamples, seed)
    interval = _percentile_interval(means, (1 - level) / 2)
    return ComparisonRecord(
        query_ids=ids,
        scores_a=a_arr.tolist(),
        scores_b=b_arr.tolist(),
        seed=seed,
        n_resamples=n_resamples,
        level=float(level),
        interval=(interval.low, interval.high),
        **metadata,
        **extras,
    )


def _make_record_iv(a, b, rng, n_resamples, level, query_ids, clusters, exclusions, config):
    """The checked seed, B, level (a Fraction), query IDs as text, scores, and version-2 fields."""
    seed = _checks.seed(rng, "rng", " seed so that the record can be recomputed")
    n_resamples = _checks.integer(n_resamples, "n_resamples")
    ids, a_arr, b_arr = _checks.paired(a, b)
    if ids is None:
        ids = [f"q{i + 1}" for i in range(a_arr.size)] if query_ids is None else list(query_ids)
    elif query_ids is not None:
        raise ValueError(
            "query_ids is only for sequence input; mappings carry their own query IDs."
        )
    if len(ids) != a_arr.size:
        raise ValueError(f"{len(ids)} query IDs were given for {a_arr.size} scores.")
    if len(set(ids)) != len(ids):
        raise ValueError("query IDs must be unique.")
    level = _checks.level(level)
    str_ids = [str(q) for q in ids]
    extras: dict[str, Any] = {}
    if isinstance(clusters, Mapping):  # keyed by query ID (or its text): in query order
        if missing := [q for q in ids if q not in clusters and str(q) not in clusters]:
            raise ValueError(f"clusters has no entry for query ID(s) {_checks.name_some(missing)}.")
        clusters = [clusters[q] if q in clusters else clusters[str(q)] for q in ids]
    if clusters is not None:
        extras["clusters"] = _checks.labels(clusters, len(ids), "clusters")
    if exclusions is not None:
        extras["exclusions"] = _check_exclusions(exclusions, str_ids)
    if config is not None:
        extras["config"] = _check_config(config)
    return seed, n_resamples, level, str_ids, a_arr, b_arr, extras


def _check_exclusions(exclusions: object, ids: Sequence[str], where: str = "") -> dict[str, str]:
    if not isinstance(exclusions, Mapping):
        raise ValueError(
            f"{where}exclusions must be a mapping {{query_id: reason}}; got "
            f"{type(exclusions).__name__}."
        )
    out = {}
    for q, reason in exclusions.items():
        if not isinstance(reason, str) or not reason.strip():
            raise ValueError(f"{where}excluded query {q!r} needs a reason (a non-empty string).")
        out[str(q)] = reason
    if both := sorted(set(out) & set(ids)):
        raise ValueError(
            f"{where}query {', '.join(map(repr, both[:5]))} is both compared and excluded; an "
            "excluded query must not be among the scores."
        )
    return out


def _check_config(config: object, where: str = "") -> dict[str, Any]:
    if not isinstance(config, Mapping):
        raise ValueError(
            f"{where}config must be a mapping (e.g. {{'metric': 'nDCG@10', 'cutoff': 10}}); got "
            f"{type(config).__name__}."
        )
    try:
        copy = json.loads(json.dumps(dict(config), allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"{where}config must hold plain JSON values (str, int, float, bool, None, lists, dicts "
            f"with str keys): {exc}."
        ) from None
    if copy != dict(config):
        raise ValueError(
            f"{where}config would not survive a JSON round trip unchanged; use lists instead of "
            "tuples and str keys."
        )
    return copy


def _bootstrap_means(
    d: np.ndarray, clusters: list | None, n_resamples: int, seed: int
) -> np.ndarray:
    """The record's bootstrap: paired, or over whole clusters if it has them."""
    rng = np.random.default_rng(seed)
    if clusters is None:
        return _paired_bootstrap(d, n_resamples, rng)
    totals = _cluster_totals(d, *_checks.clusters(clusters, d.size))
    return _cluster_bootstrap(totals, "query", n_resamples, rng, DEFAULT_MAX_ELEMENTS)


def recompute_interval(record: ComparisonRecord) -> Interval:
    """Recompute a record's interval from its scores, clusters (if any), seed, B and level.

    A record whose ``method`` is :data:`METHOD_EXACT` is recomputed exactly, with no seed.

    >>> rec = make_record([0.5, 0.6, 0.7], [0.6, 0.6, 0.9], rng=1, n_resamples=200)
    >>> tuple(recompute_interval(rec)) == rec.interval
    True
    """
    d = np.subtract(record.scores_b, record.scores_a)
    half_alpha = (1 - _checks.level(record.level)) / 2
    if record.method == METHOD_EXACT:
        return _exact_bootstrap_interval(d, record.level, half_alpha).interval
    means = _bootstrap_means(d, record.clusters, record.n_resamples, record.seed)
    return _percentile_interval(means, half_alpha)


def save_record(record: ComparisonRecord, path: str | os.PathLike[str]) -> None:
    """Write a record as indented JSON (UTF-8, trailing newline).

    >>> import tempfile, pathlib
    >>> rec = make_record([0.5, 0.6], [0.6, 0.6], rng=1, n_resamples=10)
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


def _read_record(
    path: str | os.PathLike[str], fmt: str, kind: str, versions: tuple[int, ...],
    required: Sequence[str], column: bool = True,
) -> tuple[str, dict[str, Any]]:  # fmt: skip
    """The file's name and its JSON object, refused (naming the file) unless it is valid JSON of
    format ``fmt``, of one of ``versions`` and with every ``required`` field."""
    name = os.fspath(path)
    try:
        with open(path, encoding="utf-8") as fh:
            raw = json.load(fh)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno}" + (f", column {exc.colno}" if column else "")
        raise ValueError(f"{name}: not valid JSON ({at}: {exc.msg}).") from None
    if not isinstance(raw, dict) or raw.get("format") != fmt:
        raise ValueError(f'{name}: not a {kind} record (expected "format": "{fmt}").')
    version = raw.get("version")
    if isinstance(version, bool) or version not in versions:
        said = ", ".join(map(str, versions))
        reads = f" (this code reads versions {said})" if len(versions) > 1 else ""
        raise ValueError(f"{name}: record version {version!r} is not supported{reads}.")
    if missing := [k for k in required if k not in raw]:
        raise ValueError(f"{name}: the record is missing {', '.join(missing)}.")
    return name, raw


def load_record(path: str | os.PathLike[str]) -> ComparisonRecord:
    """Read a record written by :func:`save_record`, checking that it is complete and consistent
    (errors name the file)."""
    name, raw = _read_record(path, FORMAT, "comparison", READABLE_VERSIONS, _REQUIRED)
    body = {k: v for k, v in raw.items() if k not in ("format", "version")}
    known = set(ComparisonRecord.__dataclass_fields__)
    if raw["version"] == 1:
        known -= set(V2_FIELDS)
    if unknown := sorted(set(body) - known):
        hint = " (version-2 fields in a version-1 record)" if set(unknown) <= set(V2_FIELDS) else ""
        raise ValueError(f"{name}: unknown field(s) {', '.join(unknown)}{hint}.")
    n = len(body["query_ids"])
    if not (n == len(body["scores_a"]) == len(body["scores_b"])):
        raise ValueError(
            f"{name}: {n} query IDs, {len(body['scores_a'])} scores for A and "
            f"{len(body['scores_b'])} for B; they must match."
        )
    if not (isinstance(body["interval"], list) and len(body["interval"]) == 2):
        raise ValueError(f"{name}: interval must be a list [low, high].")
    body["interval"] = (float(body["interval"][0]), float(body["interval"][1]))
    where = f"{name}: "
    if body.get("clusters") is not None:
        if not isinstance(body["clusters"], list) or len(body["clusters"]) != n:
            raise ValueError(f"{where}clusters must be a list with one entry per query ({n}).")
    if "exclusions" in body:
        body["exclusions"] = _check_exclusions(body["exclusions"], body["query_ids"], where)
    if "config" in body:
        body["config"] = _check_config(body["config"], where)
    return ComparisonRecord(**body)
