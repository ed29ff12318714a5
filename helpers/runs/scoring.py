"""Scoring a run against qrels per query (:func:`evaluate`) as trec_eval (NIST's evaluator for
TREC) does: each measure is a few lines of numpy over one array per topic, the grades of the
retrieved documents in rank order, built by trec_eval's rules:

- documents are ranked by score (a double), highest first; ties go to the *larger* document ID
  (string comparison), whatever the rank column of the run file says;
- only the first ``max_docs`` count (trec_eval's ``-M``); by default all of them;
- a document is relevant when its grade is at least ``level`` (``-l``, default 1); a document
  the qrels do not judge has grade -1, so it is never relevant;
- nDCG's gains are the grades themselves (no ``2**g - 1``), discounted by log2(rank + 1), and
  do not depend on ``level``; the ideal ranking is made of every judged document;
- P_k divides by k, and map by the number of relevant documents, even when fewer were retrieved.

Why not a trec_eval package: docs/your-own-runs.md. The tests check this module against
trec_eval's own expected outputs and, where it installs, pytrec-eval-terrier.
"""

from __future__ import annotations

import difflib
import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import chain, repeat

import numpy as np

from .. import _checks
from ..scale.columns import Columns, column_grades, trec_order
from .readers import Qrels, Run, RunScores, trec_name

__all__ = ["evaluate", "RankedTopic", "rank_topic", "measure_function", "trec_name", "MEASURES"]

#: The grade of a retrieved document that the qrels do not judge.
UNJUDGED = -1


@dataclass(frozen=True)
class RankedTopic:
    """One topic as trec_eval sees it: the retrieved documents' grades in rank order."""

    grades: np.ndarray  # grade of the document at rank 1, 2, ... (UNJUDGED if not judged)
    judged: np.ndarray  # grade of every judged document of the topic, in no order
    level: int = 1  # relevant means grade >= level

    @property
    def relevant(self) -> np.ndarray:
        return self.grades >= self.level

    @property
    def n_relevant(self) -> int:
        return int(np.count_nonzero(self.judged >= self.level))


def rank_topic(
    ranking: Mapping[str, float],
    judgments: Mapping[str, int],
    *,
    level: int = 1,
    max_docs: int | None = None,
) -> RankedTopic:
    """Rank one topic's documents as trec_eval does and look up their grades.

    >>> topic = rank_topic({"d1": 0.5, "d2": 0.9, "d3": 0.5}, {"d1": 2, "d2": 0})
    >>> topic.grades.tolist()  # d2, then the tie d3 before d1 (larger ID first)
    [0.0, -1.0, 2.0]
    """
    by_id = sorted(ranking, reverse=True)  # then by score, stably: ties keep the larger ID first
    order = sorted(by_id, key=ranking.__getitem__, reverse=True)[:max_docs]
    grades = np.fromiter(map(judgments.get, order, repeat(UNJUDGED)), float, len(order))
    return RankedTopic(grades, np.fromiter(judgments.values(), float, len(judgments)), level)


# --- The measures: one small function per family -------------------------------------------


def precision(t: RankedTopic, k: int) -> float:
    """P_k: relevant documents in the top k, over k."""
    return np.count_nonzero(t.relevant[:k]) / k


def recall(t: RankedTopic, k: int) -> float:
    """recall_k: relevant documents in the top k, over all relevant documents."""
    return np.count_nonzero(t.relevant[:k]) / t.n_relevant if t.n_relevant else 0.0


def success(t: RankedTopic, k: int) -> float:
    """success_k: 1 if any of the top k is relevant."""
    return float(t.relevant[:k].any())


def reciprocal_rank(t: RankedTopic) -> float:
    """recip_rank: 1 / the rank of the first relevant document (0 if none)."""
    hits = np.flatnonzero(t.relevant)
    return 1 / (hits[0] + 1) if hits.size else 0.0


def average_precision(t: RankedTopic, k: int | None = None) -> float:
    """map (map_cut_k): precision at each relevant document's rank (in the top k), summed,
    over all relevant documents.
    """
    ranks = np.flatnonzero(t.relevant[:k]) + 1
    return float(np.sum(np.arange(1, ranks.size + 1) / ranks)) / t.n_relevant if ranks.size else 0.0


def r_precision(t: RankedTopic) -> float:
    """Rprec: precision in the top R, where R is the number of relevant documents."""
    return precision(t, t.n_relevant) if t.n_relevant else 0.0


def ndcg(t: RankedTopic, k: int | None = None) -> float:
    """ndcg (ndcg_cut_k): gains discounted by log2(rank + 1), over the best possible ranking's."""
    ideal = _dcg(np.sort(t.judged)[::-1][:k])
    return _dcg(t.grades[:k]) / ideal if ideal > 0 else 0.0


def _dcg(grades: np.ndarray) -> float:
    gains = np.where(grades > 0, grades, 0.0)  # negative and unjudged grades gain nothing
    return float(np.sum(gains / np.log2(np.arange(2, gains.size + 2))))


#: trec_eval's names, each with its function of (topic) or (topic, k): k from the name's
#: ``_k`` suffix (``P_10``, ``ndcg_cut_10``...).
MEASURES: dict[str, Callable[..., float]] = {
    "num_ret": lambda t: float(t.grades.size),
    "num_rel": lambda t: float(t.n_relevant),
    "num_rel_ret": lambda t: float(np.count_nonzero(t.relevant)),
    "map": average_precision,
    "Rprec": r_precision,
    "recip_rank": reciprocal_rank,
    "ndcg": ndcg,
    "P_k": precision,
    "recall_k": recall,
    "success_k": success,
    "map_cut_k": average_precision,
    "ndcg_cut_k": ndcg,
}


def _cutoff(name: str) -> int | None:
    """The k of a measure that counts only the top k documents (``P_10``, ``nDCG@10``, ``RR@10``):
    for it, ``max_docs`` (``-M``) of k or more changes nothing. None for other measures.

    >>> _cutoff("ndcg_cut_010"), _cutoff("RR@10"), _cutoff("map"), _cutoff("set_F_1")
    (10, 10, None, None)
    """
    found = re.fullmatch(r"(RR@|(\w+)_)([0-9]+)", trec_name(name))
    return int(found[3]) if found and (found[2] is None or f"{found[2]}_k" in MEASURES) else None


def measure_function(name: str) -> Callable[[RankedTopic], float]:
    """The function that computes measure ``name`` (trec_eval's or ir-measures', :func:`trec_name`)
    on one ranked topic.

    >>> topic = rank_topic({"d1": 0.5, "d2": 0.9, "d3": 0.5}, {"d1": 2, "d2": 0})
    >>> measure_function("P_2")(topic), measure_function("RR@3")(topic)
    (0.0, 0.3333333333333333)
    """
    trec = trec_name(name)
    if trec in MEASURES and not trec.endswith("_k"):
        return lambda topic: float(MEASURES[trec](topic))
    rr = re.fullmatch(r"RR@([0-9]+)", trec)
    if rr and int(rr[1]) > 0:  # recip_rank over the top k, as trec_eval -M k
        k = int(rr[1])
        return lambda t: float(reciprocal_rank(RankedTopic(t.grades[:k], t.judged, t.level)))
    cut = re.fullmatch(r"(\w+)_([0-9]+)", trec)  # e.g. ndcg_cut_10: "ndcg_cut" and 10
    if cut and int(cut[2]) > 0 and f"{cut[1]}_k" in MEASURES:
        function, k = MEASURES[f"{cut[1]}_k"], int(cut[2])
        return lambda topic: float(function(topic, k))
    k = ([x for x in re.findall(r"[0-9]+", name) if int(x)] or ["10"])[-1]  # its cutoff, if any
    known = [n.replace("_k", f"_{k}") for n in MEASURES] + ["AP", "RR", "MRR"]
    known += [f"{a}@{k}" for a in ("nDCG", "P", "R", "AP", "RR", "Success")]
    lower = {n.lower(): n for n in known}
    near = [lower[n] for n in difflib.get_close_matches(name.lower(), list(lower), 3, 0.5)]
    raise ValueError(
        f"measure {name!r} is not one evaluate computes"
        + (f"; did you mean {' or '.join(map(repr, near))}?" if near else ".")
        + f" It computes trec_eval's {', '.join(MEASURES)} (k > 0, e.g. 'ndcg_cut_10', 'P_5'), "
        "also as ir-measures names them (nDCG@10, P@5, R@1000, AP, RR, RR@10). For others, "
        "run trec_eval -q and read its output with read_trec_eval."
    )


# --- A run scored against qrels, per query ------------------------------------------


def evaluate(
    qrels: Qrels,
    run: Run,
    measure: str | list[str],
    *,
    level: int = 1,
    max_docs: int | None = None,
    check_topics: bool = True,
    check_documents: bool = True,
) -> RunScores | list[RunScores]:
    """Score ``run`` against ``qrels`` per query, by trec_eval's rules.

    ``measure`` is trec_eval's name (``ndcg_cut_10``, ``P_5``, ``recip_rank``; :data:`MEASURES`)
    or ir-measures' (``nDCG@10``, :func:`trec_name`); ``level`` is its ``-l`` and ``max_docs`` its
    ``-M``. The scores record these and the qrels' fingerprint (``made``), so that comparisons
    can refuse scores made otherwise. Every topic of the qrels gets a score:
    one the run retrieved nothing for scores 0 (``trec_eval -c``) and is listed in
    ``unretrieved``; the run's topics that the qrels do not judge are left out and listed in
    ``unjudged``. A list of names gives one scores object per name, in its order, from one check
    and one ranking of each topic: several measures in the time of little more than one.

    The topic IDs are checked first: a run whose topics plainly are not the qrels' (judged topics
    spelt otherwise, none in common, or half of them missing while most of the run's are unjudged)
    is refused with the likely cause, since each such judged topic would score 0 and a
    comparison would be confidently wrong. ``check_topics=False`` scores as trec_eval does,
    without a word: only for a mismatch you have understood. The documents likewise: a run that
    retrieves no judged document for most of its judged topics is refused with the likely cause
    (document IDs in another case or with a prefix, another collection), unless the qrels are
    sparse (fewer than 5 judged documents a topic, as MS MARCO's) and some topics hit one;
    ``check_documents=False`` scores it anyway.

    >>> qrels = Qrels({"q1": {"d1": 1, "d2": 0}, "q2": {"d5": 1}})
    >>> run = Run({"q1": {"d2": 2.0, "d1": 1.0}})
    >>> scores = evaluate(qrels, run, "recip_rank")
    >>> scores.scores, scores.unretrieved, scores.unjudged
    ({'q1': 0.5, 'q2': 0.0}, ['q2'], [])
    """
    names = measure if isinstance(measure, list) else [measure]
    score, level, max_docs = _evaluate_iv(qrels, run, names, level, max_docs, check_topics)
    ranked = _ranked(run, qrels.judgments)
    if _checks.boolean(check_documents, "check_documents") and (
        problem := _document_mismatch(qrels, run, ranked)
    ):
        raise ValueError(
            f"{run.source or 'the run'} against {qrels.source or 'the qrels'}: {problem} Each such "
            "topic would score 0, and a comparison would report the mismatch as a change. Fix the "
            "document IDs in one file (or use the qrels of this run's collection). To score as "
            "trec_eval does anyway, pass check_documents=False, only for a mismatch you have "
            "understood."
        )
    topics, scores = qrels.topics, [{} for _ in names]
    for q in topics:
        judged = np.fromiter(qrels.judgments[q].values(), float, len(qrels.judgments[q]))
        t = RankedTopic(ranked.get(q, (np.zeros(0),))[0][:max_docs], judged, level)
        for table, function in zip(scores, score, strict=True):
            table[q] = function(t)
    unretrieved = [q for q in topics if q not in ranked]
    unjudged = _checks.sorted_ids(set(run.rankings) - set(qrels.judgments))
    made = {"level": level, "max_docs": max_docs, "qrels": qrels.fingerprint}
    out = [
        RunScores(s, m, run.source, None, None, unretrieved[:], unjudged[:], {"measure": m, **made})
        for s, m in zip(scores, names, strict=True)
    ]
    return out if isinstance(measure, list) else out[0]


def _ranked(run: Run, judgments: Mapping) -> dict[str, tuple[np.ndarray, bool]]:
    """Each judged topic the run retrieves documents for (in the run's order): the grades of all
    its documents in trec_eval's order, and whether one of them is judged. From read_run's
    columns at numpy speed, else by :func:`rank_topic`; the tests hold the two equal."""
    if not isinstance(run.rankings, Columns):
        return {
            q: (rank_topic(docs, judgments[q]).grades, not judgments[q].keys().isdisjoint(docs))
            for q, docs in run.rankings.items()
            if docs and q in judgments
        }
    table = run.rankings
    order, starts = trec_order(table)
    grades = column_grades(table, judgments, UNJUDGED)[order]
    hits = np.add.reduceat(grades != UNJUDGED, starts[:-1]) if len(grades) else []
    return {q: (grades[starts[i] : starts[i + 1]], bool(hits[i]))
            for i, q in enumerate(table.topics) if q in judgments}  # fmt: skip


def _evaluate_iv(
    qrels: object, run: object, names: list, level: object, max_docs: object, check: object
) -> tuple[list[Callable[[RankedTopic], float]], int, int | None]:
    """Each measure's function and the checked ``level`` and ``max_docs``, once the qrels, the run
    and (if ``check``) their topics are fit to score."""
    if not isinstance(qrels, Qrels):
        raise ValueError(
            f"qrels must come from read_qrels(path); got {type(qrels).__name__}."
            + (" (Arguments are evaluate(qrels, run, measure).)" if isinstance(qrels, Run) else "")
        )
    if not isinstance(run, Run):
        raise ValueError(f"run must come from read_run(path); got {type(run).__name__}.")
    if bad := [m for m in names or [names] if not isinstance(m, str)]:  # [] is not a name
        raise ValueError(
            f"measure must be trec_eval's name of a measure, e.g. 'ndcg_cut_10' (or a list of "
            f"names); got {bad[0]!r}."
        )
    score = [measure_function(measure) for measure in names]
    level = _checks.integer(level, "level (trec_eval's -l)", minimum=0)
    max_docs = None if max_docs is None else _checks.integer(max_docs, "max_docs (trec_eval's -M)")
    _checks.boolean(check, "check_topics")
    if not qrels.judgments:
        raise ValueError(f"{qrels.source or 'the qrels'}: no judged topics.")
    for what, table, ok, expected in (
        ("qrels", qrels.judgments, _checks.is_int, "integer grades"),
        (
            "run",
            {} if isinstance(run.rankings, Columns) else run.rankings,
            _is_score,
            "finite numbers as scores",
        ),  # read_run's columns are
    ):
        for q, docs in table.items() if not _plainly_fit(table, what == "run") else ():
            for doc, value in docs.items():
                if not (isinstance(q, str) and isinstance(doc, str) and ok(value)):
                    raise ValueError(
                        f"{what}: query {q!r}, document {doc!r} has {value!r}; evaluate needs "
                        f"text IDs and {expected}. Read the files with read_qrels(path) and "
                        "read_run(path)."
                    )
    if check and (problem := _topic_mismatch(set(run.rankings), set(qrels.judgments))):
        raise ValueError(
            f"{run.source or 'the run'} against {qrels.source or 'the qrels'}: {problem} Fix "
            "the topic IDs in one file (or use the qrels of this run's topics). To score as "
            "trec_eval does anyway (unjudged topics left out, missing judged topics scored 0), "
            "pass check_topics=False, only for a mismatch you have understood."
        )
    return score, level, max_docs


def _plainly_fit(table: dict, scores: bool) -> bool:
    """True when every ID is a str and every value a finite float (``scores``) or an int: what
    read_run and read_qrels give, checked at C speed; False leaves it to the loop to say what."""
    values = [v for docs in table.values() for v in docs.values()]
    types = set(map(type, table)) | set(map(type, chain.from_iterable(table.values())))
    fit = types <= {str} and set(map(type, values)) <= {float if scores else int}
    return fit and (not scores or all(map(math.isfinite, values)))


def _is_score(value: object) -> bool:
    real = type(value) is float or (isinstance(value, numbers.Real) and not isinstance(value, bool))
    return real and math.isfinite(value)


# --- Do the run's topics and the qrels' match? --------------------------------------


def _topic_key(topic: str) -> str:
    """A topic ID without case or leading zeros in its numbers: '0303' and 'Q001' as '303', 'q1'."""
    return re.sub(r"[0-9]+", lambda m: m[0].lstrip("0") or "0", topic.casefold())


def _topic_mismatch(run_topics: set[str], judged: set[str]) -> str | None:
    """What plainly does not match between the run's topics and the judged ones, and its likely
    cause; None when they match well enough to score (see :func:`evaluate`)."""
    missing = judged - run_topics  # judged topics the run lacks: each would score 0
    extra = run_topics - judged  # the run's topics the qrels do not judge: left out
    if not missing or not extra:
        return None  # every judged topic is in the run, or the run has only judged topics
    sides = (
        f"the run has {len(run_topics)} topics, {len(extra)} of them not judged (e.g. "
        f"{_checks.name_some(extra, 3)}); the qrels judge {len(judged)}, {len(missing)} of them "
        f"not in the run (e.g. {_checks.name_some(missing, 3)})."
    )
    # each side's topics by key; where several share one, the first in sorted order (written last)
    run_keys, judged_keys = ({_topic_key(q): q for q in sorted(t)[::-1]} for t in (extra, missing))
    same = sorted((r, judged_keys[_topic_key(r)]) for r in extra if _topic_key(r) in judged_keys)
    if same:
        r, j = same[0]
        how = "leading zeros added or removed"
        if r.casefold() == j.casefold():
            how = "their letters in another case"
        return (
            f"{len(same)} of the run's topics are judged topics with {how} (e.g. {r!r} in the "
            f"run, {j!r} in the qrels); {sides}"
        )
    if affix := _common_affix(run_keys, judged_keys):
        return f"{affix}; {sides}"
    if not run_topics & judged:
        return (
            f"the run and the qrels have no topic in common, as if for other collections; {sides}"
        )
    if 2 * len(missing) >= len(judged) and 2 * len(extra) > len(run_topics):
        cause = (
            f"most of the run's topics are not judged, and it has {len(judged - missing)} of the"
        )
        cause += f" {len(judged)} judged: qrels or a run of another collection, or renamed topics"
        return f"{cause}; {sides}"
    if 2 * min(len(missing), len(extra)) >= len(judged):  # half the judged topics renamed?
        cause = "half or more of the judged topics are not in the run, which has others"
        return f"{cause}: renamed topics, or qrels for other topics; {sides}"
    return None


def _document_mismatch(qrels: Qrels, run: Run, ranked: dict) -> str | None:
    """Why the run retrieves no judged document for most of its judged topics (``ranked``: see
    :func:`_ranked` and :func:`evaluate`); None when it retrieves one for at least half of them."""
    topics, missed = list(ranked), [q for q, (_, hit) in ranked.items() if not hit]
    if 2 * len(missed) <= len(topics):
        return None
    said = (
        f"the run retrieves no judged document for {len(missed)} of its {len(topics)} judged "
        f"topics (e.g. {_checks.name_some(missed, 3)})"
    )
    judged = {d: d for q in missed[:50] for d in qrels.judgments[q]}
    retrieved = {d: d for q in missed[:50] for d in list(run.rankings[q])[:20]}
    folded = {d.casefold(): d for d in judged}
    same = [(d, folded[d.casefold()]) for d in retrieved if folded.get(d.casefold(), d) != d]
    if same:
        return (
            f"{said}: its document IDs are judged ones in another case (e.g. {same[0][0]!r} in "
            f"the run, {same[0][1]!r} in the qrels)."
        )
    if affix := _common_affix(retrieved, judged, "document IDs"):
        return f"{said}: {affix}."
    if len(missed) == len(topics):
        return (
            f"{said}, none at all: qrels of another collection, or document IDs written otherwise."
        )
    sparse = sum(len(qrels.judgments[q]) for q in topics) < 5 * len(topics)
    if sparse:  # few judgments a topic (MS MARCO's): a short or weak run misses most of them
        return None
    return f"{said}: qrels of another collection, or document IDs written otherwise."


def _common_affix(
    run_keys: dict[str, str], judged_keys: dict[str, str], what: str = "topics"
) -> str | None:
    """Whose topics carry a prefix and/or suffix (not just digits) that the other side's lack,
    with an example, from each side's topics by their keys; None if no such pattern is seen."""
    for who, other, longer, shorter in (
        ("run's", "qrels'", run_keys, judged_keys),
        ("qrels'", "run's", judged_keys, run_keys),
    ):
        by_length = sorted(shorter, key=len, reverse=True)
        for k in sorted(longer)[:50]:  # a sample of the longer IDs is enough to see a pattern
            for inner in by_length:
                if text := _affix(k, inner):
                    topic = {who: longer[k], other: shorter[inner]}
                    r, j = topic["run's"], topic["qrels'"]
                    return (
                        f"the {who} {what} carry a {text} that the {other} lack (e.g. {r!r} in "
                        f"the run, {j!r} in the qrels)"
                    )
    return None


def _affix(outer: str, inner: str) -> str | None:
    """What ``outer`` adds around ``inner`` ("prefix 'q'", "suffix '-en'" or both) when ``inner``
    is a part of it that splits no number or word: '301' of 'q301' and of 'topic-301', not '30'
    of '301' nor 'b' of 'abc'; None otherwise."""

    def joined(a: str, b: str) -> bool:  # two digits, or two letters
        return (a.isdigit() and b.isdigit()) or (a.isalpha() and b.isalpha())

    i = outer.find(inner) if inner and inner != outer else -1
    if i < 0:
        return None
    prefix, suffix = outer[:i], outer[i + len(inner) :]
    if joined(prefix[-1:], inner[0]) or joined(inner[-1], suffix[:1]):
        return None
    return " and ".join(f"{n} {v!r}" for n, v in (("prefix", prefix), ("suffix", suffix)) if v)
