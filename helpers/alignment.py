"""Lining two runs up by query ID, with an explicit policy for queries scored in one run only."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from . import _checks
from .readers import Qrels, Run, RunScores

__all__ = ["AlignedRuns", "align_runs", "MISSING_POLICIES"]

#: How :func:`align_runs` treats queries scored in one run only.
MISSING_POLICIES = ("error", "drop", "zero")


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
    #: How many topics the qrels judge (None without qrels).
    n_topics: int | None = None
    #: Topics each run retrieved nothing for, scored 0 by :func:`evaluate` (as trec_eval -c does).
    unretrieved_a: list[str] = field(default_factory=list)
    unretrieved_b: list[str] = field(default_factory=list)
    #: Each run's topics that the qrels do not judge, left out by :func:`evaluate` (as trec_eval).
    unjudged_a: list[str] = field(default_factory=list)
    unjudged_b: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line saying how many queries were compared and what the missing-query policy did."""
        text = f"{len(self.query_ids)} queries compared"
        if self.n_topics is not None:
            text += f" of the {self.n_topics} judged topics"
        if self.only_in_a or self.only_in_b or self.in_neither:  # dropped, or scored 0
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
        if self.unjudged_a or self.unjudged_b:
            text += (
                f"; not judged, left out by evaluate (as trec_eval): "
                f"{_some(self.unjudged_a, 'A')}, {_some(self.unjudged_b, 'B')}"
            )
        return text


def _some(topics: list[str], side: str) -> str:
    """How many topics on one side, and up to three of them: ``2 in A ('q10', 'q9')``."""
    return f"{len(topics)} in {side}" + (f" ({_checks.name_some(topics, 3)})" if topics else "")


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


def _clusters_for(ids: list[str], clusters: Mapping) -> list:
    """Each compared query's user, from a mapping ``{query_id: user}``."""
    missing_users = [q for q in ids if q not in clusters]
    if missing_users:
        raise ValueError(
            f"clusters has no user for {len(missing_users)} compared queries, e.g. "
            f"{missing_users[:5]}."
        )
    return [clusters[q] for q in ids]


def align_runs(
    a: RunScores | Mapping[str, float],
    b: RunScores | Mapping[str, float],
    *,
    missing: str = "error",
    qrels: Qrels | None = None,
    clusters: Mapping[str, str] | None = None,
) -> AlignedRuns:
    """Line up two runs by query ID (sorted), with an explicit policy for unmatched queries.

    ``missing``: ``"error"`` (default) refuses differing query sets, naming the
    queries; ``"drop"`` compares the shared queries; ``"zero"`` scores a missing
    query 0, as ``trec_eval -c`` does. With ``qrels`` the queries are exactly the
    judged topics ("zero" also scores 0 a topic in neither run; an unjudged
    scored query is refused). ``clusters`` maps query ID to user, replacing the
    users the runs carry.

    >>> runs = align_runs({"q1": 0.5, "q2": 0.3}, {"q1": 0.6, "q3": 0.9}, missing="zero")
    >>> runs.query_ids, runs.a.tolist(), runs.b.tolist()
    (['q1', 'q2', 'q3'], [0.5, 0.3, 0.0], [0.6, 0.0, 0.9])
    >>> runs.summary()
    "3 queries compared; 1 only in A and 1 only in B, scored 0 where missing (missing='zero')"
    """
    return _align_runs(*_align_runs_iv(a, b, missing, qrels, clusters))


def _align_runs_iv(
    a: object, b: object, missing: object, qrels: object, clusters: object
) -> tuple[RunScores, RunScores, str, Qrels | None, Mapping | None]:
    """The runs as RunScores whose scores are checked floats, and the checked settings."""
    missing = _checks.one_of(missing, "missing", MISSING_POLICIES)
    _optional_qrels(qrels)
    if clusters is not None and not isinstance(clusters, Mapping):
        raise ValueError(
            "clusters must map each query ID to its user, e.g. {'q1': 'U1', 'q2': 'U1'}; "
            f"got {type(clusters).__name__}. (Runs are lined up by sorted query ID, so a plain "
            "list of users has no reliable order.)"
        )
    checked = []
    for side, run in zip("AB", (a, b), strict=True):
        if isinstance(run, (Run, Qrels)):
            what = "a run file's rankings" if isinstance(run, Run) else "qrels (judgments)"
            raise ValueError(
                f"run {side} is {type(run).__name__} ({what}), not per-query scores. Score each "
                "run against the qrels first with helpers.evaluate(qrels, run, measure), e.g. "
                f"{side.lower()} = helpers.evaluate(qrels, run_{side.lower()}, 'ndcg_cut_10'); "
                "then compare the scores."
            )
        if not isinstance(run, (RunScores, Mapping)):
            raise ValueError(
                f"run {side} must be a mapping {{query_id: score}} or a RunScores (from "
                "read_trec_eval or read_scores_csv); "
                f"got {type(run).__name__}. For (query_id, score) pairs pass dict(pairs), for a "
                "pandas Series s.to_dict(); "
                "for two lists of scores in the same query order, use paired_differences(a, b)."
            )
        run = run if isinstance(run, RunScores) else RunScores(dict(run), "")
        if not run.scores:
            raise ValueError("Both runs need at least one scored query.")
        ids = list(run.scores)
        values = _checks.scores(list(run.scores.values()), f"{side}'s scores", labels=ids)
        scores = dict(zip(ids, values.tolist(), strict=True))
        checked.append(dataclasses.replace(run, scores=scores))
    return checked[0], checked[1], missing, qrels, clusters


def _optional_qrels(qrels: object) -> Qrels | None:
    """``qrels`` when it is None or read by read_qrels; else a ValueError saying how to get it."""
    if qrels is not None and not isinstance(qrels, Qrels):
        raise ValueError(f"qrels must come from read_qrels(path); got {type(qrels).__name__}.")
    return qrels


def _align_runs(
    ra: RunScores, rb: RunScores, missing: str, qrels: Qrels | None, clusters: Mapping | None
) -> AlignedRuns:
    ids, only_a, only_b, in_neither, scores = _query_set(ra.scores, rb.scores, missing, qrels)
    a, b = scores()
    a.setflags(write=False)
    b.setflags(write=False)
    return AlignedRuns(
        query_ids=ids,
        a=a,
        b=b,
        missing_policy=missing,
        only_in_a=only_a,
        only_in_b=only_b,
        clusters=(
            _labels_for(ids, ra.clusters, rb.clusters)
            if clusters is None
            else _clusters_for(ids, clusters)
        ),
        slices=_labels_for(ids, ra.slices, rb.slices),
        in_neither=in_neither,
        n_topics=None if qrels is None else len(qrels.judgments),
        unretrieved_a=list(ra.unretrieved or []),
        unretrieved_b=list(rb.unretrieved or []),
        unjudged_a=list(ra.unjudged or []),
        unjudged_b=list(rb.unjudged or []),
    )


def _query_set(sa: Mapping, sb: Mapping, missing: str, qrels: Qrels | None) -> tuple:
    """The compared queries, those only in A, only in B, the judged topics in neither run, and a
    function giving A's and B's scores on the compared queries (0 where a run has none)."""
    topics = None if qrels is None else set(qrels.judgments)
    found = _by_codes(sa, sb, topics, missing == "drop") or _by_sets(sa, sb, topics, missing)
    if qrels is not None:
        for side in "AB":
            if unjudged := found[f"unjudged {side}"]:
                raise ValueError(
                    f"Run {side} scores {len(unjudged)} queries that the qrels do not judge "
                    f"({_checks.name_some(unjudged, 5)}); "
                    "trec_eval only scores judged topics. Use the qrels these scores were computed "
                    "with, or compare without qrels."
                )
    only_a, only_b, in_neither = found["only A"], found["only B"], found["in neither"]
    if (only_a or only_b or in_neither) and missing == "error":
        raise ValueError(_unmatched_message(only_a, only_b, in_neither))
    if not found["compared"]:
        raise ValueError("The runs share no query IDs.")
    return found["compared"], only_a, only_b, in_neither, found["scores"]


def _by_sets(sa: Mapping, sb: Mapping, topics: set | None, missing: str) -> dict:
    """:func:`_query_set`'s sorted lists of IDs, and its scores, by Python sets (any IDs)."""
    found = {"unjudged A": [], "unjudged B": [], "in neither": [], "only A": sa.keys() - sb.keys()}
    if topics is not None:  # the qrels' topics are text
        text_a, text_b = set(map(str, sa)), set(map(str, sb))
        found |= {"unjudged A": text_a - topics, "unjudged B": text_b - topics}
        found["in neither"] = topics - text_a - text_b
    found["only B"] = sb.keys() - sa.keys()
    found = {k: _checks.sorted_ids(v) for k, v in found.items()}
    compared = (
        sa.keys() & sb.keys()
        if missing == "drop"
        else sa.keys() | sb.keys() | set(found["in neither"])
    )
    ids = found["compared"] = _checks.sorted_ids(compared)
    found["scores"] = lambda: tuple(np.array([s.get(q, 0.0) for q in ids]) for s in (sa, sb))
    return found


def _by_codes(sa: Mapping, sb: Mapping, topics: set | None, drop: bool) -> dict | None:
    """What :func:`_by_sets` finds, by integer codes: the IDs of A, B and the topics sorted once
    (np.unique) and each run's scores put in place by their codes. None unless every ID is text that
    a numpy array of fixed width holds as it is (no NUL character) in at most 256 MiB."""
    keys = [list(sa), list(sb), list(topics or ())]
    if any(set(map(type, k)) - {str} for k in keys) or "\x00" in "".join(map("".join, keys)):
        return None
    width = max(1, *(max(map(len, k), default=1) for k in keys))
    if 4 * width * sum(map(len, keys)) > 2**28:
        return None
    ids, codes = np.unique(np.array(keys[0] + keys[1] + keys[2], f"<U{width}"), return_inverse=True)
    codes = np.split(codes, np.cumsum([len(keys[0]), len(keys[1])]))
    in_a, in_b, judged = (np.bincount(c, minlength=ids.size) > 0 for c in codes)
    neither = judged & ~in_a & ~in_b
    compared = in_a & in_b if drop else in_a | in_b | neither
    at = np.cumsum(compared) - 1  # an ID's place among the compared IDs

    def scores() -> tuple[np.ndarray, np.ndarray]:
        out = []
        for s, c in zip((sa, sb), codes, strict=False):
            keep, out_ = compared[c], np.zeros(at[-1] + 1)
            out_[at[c[keep]]] = np.fromiter(s.values(), float, len(s))[keep]
            out.append(out_)
        return out[0], out[1]

    masks = {"unjudged A": in_a & ~judged, "unjudged B": in_b & ~judged, "in neither": neither}
    masks |= {"only A": in_a & ~in_b, "only B": in_b & ~in_a, "compared": compared}
    return {k: ids[m].tolist() for k, m in masks.items()} | {"scores": scores}


def _unmatched_message(only_a: list, only_b: list, in_neither: list) -> str:
    text = "The runs do not cover the same queries: " + (
        _checks.unmatched(only_a, only_b)
        if only_a or only_b
        else "every scored query is in both runs"
    )
    if n := len(in_neither):
        text += f"; {n} judged topics are in neither run ({_checks.name_some(in_neither, 5)})"
    by_text = {str(q): q for q in only_b}  # an ID that reads the same as text in both runs?
    same = [f"{q!r} in A and {by_text[str(q)]!r} in B" for q in only_a if str(q) in by_text]
    if same:
        text += f". Some IDs differ only in type (e.g. {same[0]}): use the same type, e.g. str, "
        text += "on both sides"
    return text + (
        ". Fix the runs, or choose a policy: missing='drop' compares the shared queries only, "
        "missing='zero' scores a missing query 0 (as trec_eval -c does)."
    )
