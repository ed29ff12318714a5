"""Lining two runs up by query ID, with an explicit policy for queries scored in one run only."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from .. import _checks
from .readers import Qrels, Run, RunScores
from .scoring import _cutoff, trec_name

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
    #: Which run's scores were rounded to the coarser precision of the other's, or "".
    rounded: str = ""

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
                f"; of these, retrieved nothing: {len(self.unretrieved_a)} in A, "
                f"{len(self.unretrieved_b)} in B"
            )
        if self.unjudged_a or self.unjudged_b:
            text += (
                f"; not judged, left out by evaluate (as trec_eval): "
                f"{_some(self.unjudged_a, 'A')}, {_some(self.unjudged_b, 'B')}"
            )
        return text + (f"; {self.rounded}" if self.rounded else "")


def _some(topics: list[str], side: str) -> str:
    """How many topics on one side, and up to three of them: ``2 in A ('q10', 'q9')``."""
    return f"{len(topics)} in {side}" + (f" ({_checks.name_some(topics, 3)})" if topics else "")


def _labels_for(ids: list[str], *tables: Mapping[str, str] | None) -> list[str] | None:
    if not (present := [t for t in tables if t is not None]):
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


def align_runs(
    a: RunScores | Mapping[str, float],
    b: RunScores | Mapping[str, float],
    *,
    missing: str = "error",
    qrels: Qrels | None = None,
    clusters: Mapping[str, str] | None = None,
) -> AlignedRuns:
    """Line up two runs by query ID (sorted), with an explicit policy for unmatched queries.

    ``missing``: ``"error"`` (default) refuses differing query sets, naming the queries;
    ``"drop"`` compares the shared queries; ``"zero"`` scores a missing query 0, as ``trec_eval
    -c`` does. A topic a run retrieved nothing for (``unretrieved``, from :func:`evaluate`) is
    missing. With ``qrels`` the queries are exactly the judged topics ("zero" also scores 0 a topic
    in neither run; an unjudged scored query is refused). ``clusters`` maps query ID to user,
    replacing the users the runs carry. Scores made otherwise (their ``made``: another measure,
    level, max_docs or qrels) are refused.

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
                f"read_trec_eval or read_scores_csv); got {type(run).__name__}. For (query_id, "
                "score) pairs pass dict(pairs), for a pandas Series s.to_dict(); for two lists of "
                "scores in the same query order, use paired_differences(a, b)."
            )
        checked.append(
            _checked(run, f"{side}'s scores", "Both runs need at least one scored query.")
        )
    a, b = _check_made({"A": checked[0], "B": checked[1]}).values()
    return a, b, missing, qrels, clusters


def _checked(run: RunScores | Mapping, what: str, empty: str) -> RunScores:
    """``run`` as RunScores whose scores are checked floats (``what`` names them in errors)."""
    run = run if isinstance(run, RunScores) else RunScores(dict(run), "")
    if not run.scores:
        raise ValueError(empty)
    ids, given = list(run.scores), list(run.scores.values())
    values = _checks.scores(given, what, labels=ids)
    if set(map(type, given)) == {float}:  # as they are: no new dict (0.6 s a million queries)
        return run
    return dataclasses.replace(run, scores=dict(zip(ids, values.tolist(), strict=True)))


def _check_made(runs: Mapping[str, RunScores], where: str = "") -> dict[str, RunScores]:
    """Refuse scores made otherwise than the first run's, as far as both ``made`` say; the runs,
    those of finer precision rounded to the coarsest one's (a trec_eval -q file's four decimals)."""
    (first, made), *known = [(n, r.made) for n, r in runs.items() if r.made] or [("", {})]
    for name, other in known:
        for key in [k for k in ("measure", "level", "max_docs", "qrels") if k in made]:
            if key in other and _setting(made, key) != _setting(other, key):
                x, y = (f"{m[key]!r}" + _unrecorded(m, key) for m in (made, other))
                raise ValueError(
                    f"{where}{first}'s scores were made with {key} {x}, {name}'s with {y}; "
                    "comparing them would measure that difference, not the search. Fix: score "
                    f"every run with one {key} (evaluate(qrels, run, measure, level=, max_docs=), "
                    "the same qrels file)."
                )
    places = {n: (r.made or {}).get("decimals") for n, r in runs.items()}
    if len(set(places.values())) < 2:  # all at one precision
        return dict(runs)
    coarse = min(p for p in places.values() if p is not None)
    return {n: r if places[n] == coarse else _rounded(r, coarse) for n, r in runs.items()}


def _setting(made: dict, key: str) -> object:
    """``made[key]`` as it bears on the scores: the measure by trec_eval's name; max_docs of k or
    more is none for a measure of the top k; nDCG's gains, the grades, do not depend on level."""
    value, measure = made[key], trec_name(made.get("measure", ""))
    if key == "measure":
        return trec_name(value)
    if key == "max_docs" and value is not None and value >= (_cutoff(measure) or math.inf):
        return None
    return None if key == "level" and measure.startswith("ndcg") else value


def _unrecorded(made: dict, key: str) -> str:
    if made.get("from") != "trec_eval -q file" or key not in ("level", "max_docs"):
        return ""
    return (
        " (a trec_eval -q file does not record it: trec_eval's default, unless "
        "read_trec_eval(path, measure, level=, max_docs=) is told how the file was made)"
    )


def _rounded(run: RunScores, places: int) -> RunScores:
    """``run`` with each score rounded to ``places`` decimals, as trec_eval prints it."""
    scores = {q: round(v, places) for q, v in run.scores.items()}
    return dataclasses.replace(run, scores=scores, made={**(run.made or {}), "rounded_to": places})


def _retrieved(run: RunScores) -> Mapping:
    gone = set(run.unretrieved or ())  # none, most often: then no copy of the scores
    return {q: v for q, v in run.scores.items() if q not in gone} if gone else run.scores


def _optional_qrels(qrels: object) -> Qrels | None:
    if qrels is not None and not isinstance(qrels, Qrels):
        raise ValueError(f"qrels must come from read_qrels(path); got {type(qrels).__name__}.")
    return qrels


def _align_runs(
    ra: RunScores, rb: RunScores, missing: str, qrels: Qrels | None, clusters: Mapping | None
) -> AlignedRuns:
    sa, sb = _retrieved(ra), _retrieved(rb)
    gone = (ra.unretrieved or [], rb.unretrieved or [])
    # the fast path by integer codes where no topic went missing unretrieved, else by sets
    if not (found := not any(gone) and _by_codes(sa, sb, missing, qrels)):
        ids, only_a, only_b, in_neither = _query_set(sa, sb, missing, qrels, gone)
        a, b = (np.array([s.get(q, 0.0) for q in ids]) for s in (sa, sb))
    else:
        ids, only_a, only_b, in_neither, a, b = found
    a.setflags(write=False)
    b.setflags(write=False)
    if clusters is None:
        users = _labels_for(ids, ra.clusters, rb.clusters)
    elif lost := [q for q in ids if q not in clusters]:
        raise ValueError(f"clusters has no user for {len(lost)} compared queries, e.g. {lost[:5]}.")
    else:
        users = [clusters[q] for q in ids]
    return AlignedRuns(
        query_ids=ids,
        a=a,
        b=b,
        missing_policy=missing,
        only_in_a=only_a,
        only_in_b=only_b,
        clusters=users,
        slices=_labels_for(ids, ra.slices, rb.slices),
        in_neither=in_neither,
        n_topics=None if qrels is None else len(qrels.judgments),
        unretrieved_a=list(ra.unretrieved or []),
        unretrieved_b=list(rb.unretrieved or []),
        unjudged_a=list(ra.unjudged or []),
        unjudged_b=list(rb.unjudged or []),
        rounded=" and ".join(
            f"{side}'s scores rounded to {r.made['rounded_to']} decimals, the other's precision"
            for side, r in (("A", ra), ("B", rb))
            if "rounded_to" in (r.made or {})
        ),
    )


def _query_set(
    sa: Mapping, sb: Mapping, missing: str, qrels: Qrels | None, gone: tuple = ((), ())
) -> tuple[list, list, list, list]:
    """The compared queries, those only in A, only in B, and the topics in neither run (judged,
    or ``gone``: each run's topics it retrieved nothing for, left out of ``sa`` and ``sb``)."""
    topics = {*gone[0], *gone[1]}
    if qrels is not None:
        topics |= set(qrels.judgments)
        for side, scores in (("A", sa), ("B", sb)):
            if unjudged := _checks.sorted_ids(set(map(str, scores)) - set(qrels.judgments)):
                raise ValueError(
                    f"Run {side} scores {len(unjudged)} queries that the qrels do not judge "
                    f"({_checks.name_some(unjudged, 5)}); trec_eval only scores judged topics. "
                    "Use the qrels these scores were computed with, or compare without qrels."
                )
    in_neither = _checks.sorted_ids(topics - set(map(str, sa)) - set(map(str, sb)))
    only_a, only_b = (_checks.sorted_ids(set(x) - set(y)) for x, y in ((sa, sb), (sb, sa)))
    if (only_a or only_b or in_neither) and missing == "error":
        raise ValueError(_unmatched_message(only_a, only_b, in_neither, gone))
    compared = set(sa) & set(sb) if missing == "drop" else set(sa) | set(sb) | set(in_neither)
    if not (ids := _checks.sorted_ids(compared)):
        raise ValueError("The runs share no query IDs.")
    return ids, only_a, only_b, in_neither


def _by_codes(sa: Mapping, sb: Mapping, missing: str, qrels: Qrels | None) -> tuple | None:
    """:func:`_query_set`'s lists and each run's scores on the compared IDs, by integer codes into
    the IDs of A, B and the topics sorted once; None when it would refuse the runs (it says why) or
    an ID is not text a numpy array holds as it is (no NUL character, at most 256 MiB in all)."""
    keys = [list(sa), list(sb), list(qrels.judgments if qrels else ())]
    if any(set(map(type, k)) - {str} for k in keys) or "\x00" in "".join(map("".join, keys)):
        return None
    width = max(1, *(max(map(len, k), default=1) for k in keys))
    if 4 * width * sum(map(len, keys)) > 2**28:
        return None
    ids, codes = np.unique(np.array(keys[0] + keys[1] + keys[2], f"<U{width}"), return_inverse=True)
    codes = np.split(codes, np.cumsum([len(keys[0]), len(keys[1])]))
    in_a, in_b, judged = (np.bincount(c, minlength=ids.size) > 0 for c in codes)
    judged |= qrels is None and (in_a | in_b)  # without qrels no query is unjudged
    neither, only_a, only_b = judged & ~in_a & ~in_b, in_a & ~in_b, in_b & ~in_a
    compared = in_a & in_b if missing == "drop" else in_a | in_b | neither
    refused = missing == "error" and (neither | only_a | only_b).any()
    if refused or ((in_a | in_b) & ~judged).any() or not compared.any():
        return None
    at, scores = np.cumsum(compared) - 1, [np.zeros(compared.sum()), np.zeros(compared.sum())]
    for out, s, c in zip(scores, (sa, sb), codes, strict=False):  # each score in its ID's place
        out[at[c[compared[c]]]] = np.fromiter(s.values(), float, len(s))[compared[c]]
    return *(ids[m].tolist() for m in (compared, only_a, only_b, neither)), *scores


def _unmatched_message(only_a: list, only_b: list, in_neither: list, gone: tuple) -> str:
    text = "The runs do not cover the same queries: " + (
        _checks.unmatched(only_a, only_b)
        if only_a or only_b
        else "every scored query is in both runs"
    )
    if n := len(in_neither):
        text += f"; {n} judged topics are in neither run ({_checks.name_some(in_neither, 5)})"
    by_text = {str(q): q for q in only_b}  # an ID that reads the same as text in both runs?
    if same := [f"{q!r} in A and {by_text[str(q)]!r} in B" for q in only_a if str(q) in by_text]:
        text += f". Some IDs differ only in type (e.g. {same[0]}): use the same type, e.g. str, "
        text += "on both sides"
    if gone[0] or gone[1]:
        text += (
            f". Of these, A retrieved nothing for {len(gone[0])}, B for {len(gone[1])} "
            f"({_checks.name_some(sorted({*gone[0], *gone[1]}), 5)}; evaluate scored them 0)"
        )
    return text + (
        ". Fix the runs, or choose a policy: missing='drop' compares the shared queries only, "
        "missing='zero' scores a missing query 0 (as trec_eval -c does)."
    )
