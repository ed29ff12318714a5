"""Scoring a run against qrels per query (:func:`evaluate`), with trec_eval's measures written in
numpy over one array per topic.

trec_eval (NIST's evaluator for TREC) turns a run and the qrels into one array per
topic: the grades of the retrieved documents, in rank order. Every measure is then a
few lines over that array. This module builds the same array by trec_eval's rules:

- documents are ranked by score (a double), highest first; ties go to the *larger*
  document ID (string comparison), whatever the rank column of the run file says;
- only the first ``max_docs`` count (trec_eval's ``-M``); by default all of them;
- a document is relevant when its grade is at least ``level`` (``-l``, default 1); a
  document the qrels do not judge has grade -1, so it is never relevant;
- nDCG's gains are the grades themselves (no ``2**g - 1``), discounted by log2(rank + 1),
  and do not depend on ``level``; the ideal ranking is made of every judged document;
- P_k divides by k, and map by the number of relevant documents, even when fewer were
  retrieved.

Why not a trec_eval package: docs/your-own-runs.md. The tests check this module against
trec_eval's own expected outputs and, where it installs, pytrec-eval-terrier.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from . import _checks
from .readers import Qrels, Run, RunScores

__all__ = ["evaluate", "RankedTopic", "rank_topic", "measure_function", "MEASURES"]

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
    order = sorted(ranking, key=lambda doc: (ranking[doc], doc), reverse=True)[:max_docs]
    grades = np.array([judgments.get(doc, UNJUDGED) for doc in order], dtype=float)
    return RankedTopic(grades, np.array(list(judgments.values()), dtype=float), level)


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


def measure_function(name: str) -> Callable[[RankedTopic], float]:
    """The function that computes trec_eval's measure ``name`` on one ranked topic.

    >>> topic = rank_topic({"d1": 0.5, "d2": 0.9, "d3": 0.5}, {"d1": 2, "d2": 0})
    >>> measure_function("P_2")(topic), measure_function("recip_rank")(topic)
    (0.0, 0.3333333333333333)
    """
    if name in MEASURES and not name.endswith("_k"):
        return lambda topic: float(MEASURES[name](topic))
    cut = re.fullmatch(r"(\w+)_([0-9]+)", name)  # e.g. ndcg_cut_10: "ndcg_cut" and 10
    if cut and int(cut[2]) > 0 and f"{cut[1]}_k" in MEASURES:
        function, k = MEASURES[f"{cut[1]}_k"], int(cut[2])
        return lambda topic: float(function(topic, k))
    raise ValueError(
        f"measure {name!r} is not one evaluate computes; it computes trec_eval's "
        f"{', '.join(n for n in MEASURES if not n.endswith('_k'))} and, with a cutoff k > 0 "
        f"after an underscore, {', '.join(n for n in MEASURES if n.endswith('_k'))} (e.g. "
        "'ndcg_cut_10', 'P_5'). For other measures, run trec_eval -q and read its output with "
        "read_trec_eval."
    )


# --- A run scored against qrels, per query ------------------------------------------


def evaluate(
    qrels: Qrels,
    run: Run,
    measure: str,
    *,
    level: int = 1,
    max_docs: int | None = None,
    check_topics: bool = True,
) -> RunScores:
    """Score ``run`` against ``qrels`` per query, by trec_eval's rules.

    ``measure`` is trec_eval's name (``ndcg_cut_10``, ``P_5``, ``recip_rank``;
    :data:`MEASURES`); ``level`` is its ``-l`` and ``max_docs`` its ``-M``.
    Every topic of the qrels gets a score: one the run retrieved nothing for
    scores 0 (``trec_eval -c``) and is listed in ``unretrieved``; the run's
    topics that the qrels do not judge are left out and listed in ``unjudged``.

    The topic IDs are checked first (``check_topics=True``): a run whose topics
    plainly are not the qrels' is refused, naming examples from both sides and
    the likely cause: judged topics spelt with leading zeros, in another case or
    with a prefix or suffix; no topic in common; or so many judged topics
    missing, and as many unjudged ones in their place, that half the judged
    topics may be renamed (or the qrels are for other topics). Scored anyway,
    every such judged topic would count 0 and a comparison would be confidently
    wrong. A few extra unjudged topics, or judged topics the run retrieved
    nothing for, are fine. ``check_topics=False`` scores as trec_eval does,
    without a word: only for a mismatch you have understood.

    >>> qrels = Qrels({"q1": {"d1": 1, "d2": 0}, "q2": {"d5": 1}})
    >>> run = Run({"q1": {"d2": 2.0, "d1": 1.0}})
    >>> scores = evaluate(qrels, run, "recip_rank")
    >>> scores.scores, scores.unretrieved, scores.unjudged
    ({'q1': 0.5, 'q2': 0.0}, ['q2'], [])
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
    score = measure_function(measure)
    level = _checks.integer(level, "level (trec_eval's -l)", minimum=0)
    max_docs = None if max_docs is None else _checks.integer(max_docs, "max_docs (trec_eval's -M)")
    if not isinstance(check_topics, bool):
        raise ValueError(f"check_topics must be True or False; got {check_topics!r}.")
    if not qrels.judgments:
        raise ValueError(f"{qrels.source or 'the qrels'}: no judged topics.")
    for what, table, ok, expected in (
        ("qrels", qrels.judgments, _checks.is_int, "integer grades"),
        ("run", run.rankings, _is_score, "finite numbers as scores"),
    ):
        for q, docs in table.items():
            for doc, value in docs.items():
                if not (isinstance(q, str) and isinstance(doc, str) and ok(value)):
                    raise ValueError(
                        f"{what}: query {q!r}, document {doc!r} has {value!r}; evaluate needs "
                        f"text IDs and {expected}. Read the files with read_qrels(path) and "
                        "read_run(path)."
                    )
    if check_topics and (problem := _topic_mismatch(set(run.rankings), set(qrels.judgments))):
        raise ValueError(
            f"{run.source or 'the run'} against {qrels.source or 'the qrels'}: {problem} Fix "
            "the topic IDs in one file (or use the qrels of this run's topics). To score as "
            "trec_eval does anyway (unjudged topics left out, missing judged topics scored 0), "
            "pass check_topics=False, only for a mismatch you have understood."
        )
    scores = {}
    for q in qrels.topics:
        ranking = run.rankings.get(q, {})
        scores[q] = score(rank_topic(ranking, qrels.judgments[q], level=level, max_docs=max_docs))
    unretrieved = [q for q in qrels.topics if not run.rankings.get(q)]
    unjudged = _checks.sorted_ids(set(run.rankings) - set(qrels.judgments))
    return RunScores(scores, measure, run.source, unretrieved=unretrieved, unjudged=unjudged)


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
    by_key: dict[str, list[str]] = {}
    for q in missing:
        by_key.setdefault(_topic_key(q), []).append(q)
    same = sorted((r, by_key[_topic_key(r)][0]) for r in extra if _topic_key(r) in by_key)
    if same:
        r, j = same[0]
        how = (
            "their letters in another case"
            if r.casefold() == j.casefold()
            else "leading zeros added or removed"
        )
        return (
            f"{len(same)} of the run's topics are judged topics with {how} (e.g. {r!r} in the "
            f"run, {j!r} in the qrels); {sides}"
        )
    if affix := _common_affix(extra, missing):
        (r, j), where, text = affix
        other = "qrels'" if where == "run's" else "run's"
        return (
            f"the {where} topics carry a {text} that the {other} lack (e.g. {r!r} in the "
            f"run, {j!r} in the qrels); {sides}"
        )
    if not run_topics & judged:
        return (
            f"the run and the qrels have no topic in common, as if for other collections; {sides}"
        )
    if 2 * min(len(missing), len(extra)) >= len(judged):  # half the judged topics renamed?
        if 2 * len(extra) > len(run_topics):
            cause = "most of the run's topics are not judged, and it lacks judged ones"
        else:
            cause = "half or more of the judged topics are not in the run, which has others"
        return f"{cause}: renamed topics, or qrels for other topics; {sides}"
    return None


def _common_affix(extra: set[str], missing: set[str]) -> tuple | None:
    """A prefix and/or suffix (not just digits) that turns judged topics into run topics or back:
    ((run topic, judged topic), whose topics carry it, what it is), or None."""
    keys = {_topic_key(q): q for q in missing}
    extra_keys = {_topic_key(q): q for q in extra}
    for long, short, where in ((extra_keys, keys, "run's"), (keys, extra_keys, "qrels'")):
        by_length = sorted(short, key=len, reverse=True)
        for k in sorted(long)[:50]:  # a sample of the longer IDs is enough to see a pattern
            found = next(
                (
                    (k[:i], inner, k[i + len(inner) :])
                    for inner in by_length
                    if inner
                    and inner != k
                    and (i := k.find(inner)) >= 0
                    and _whole(k[:i], inner, k[i + len(inner) :])
                ),
                None,
            )
            if found is None:
                continue
            prefix, inner, suffix = found
            pair = (long[k], short[inner]) if where == "run's" else (short[inner], long[k])
            text = " and ".join(
                f"{name} {value!r}"
                for name, value in (("prefix", prefix), ("suffix", suffix))
                if value
            )
            return pair, where, text
    return None


def _whole(prefix: str, inner: str, suffix: str) -> bool:
    """True when ``inner`` splits no number or word of ``prefix + inner + suffix``: '30' is not
    a part of '301', nor 'b' of 'abc'; '301' is a part of 'q301' and of 'topic-301'."""

    def kind(char: str) -> str:
        return "digit" if char.isdigit() else "letter" if char.isalpha() else "other"

    return not (
        (prefix and kind(prefix[-1]) == kind(inner[0]) != "other")
        or (suffix and kind(suffix[0]) == kind(inner[-1]) != "other")
    )


def _is_score(value: object) -> bool:
    real = type(value) is float or (isinstance(value, numbers.Real) and not isinstance(value, bool))
    return real and math.isfinite(value)
