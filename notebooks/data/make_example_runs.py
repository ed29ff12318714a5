"""Write the simulated example data used in chapter 7 (run: python make_example_runs.py).

Nothing here is real data. A seeded simulation gives 150 queries from 40
users, each query of one type (head, torso, tail), judged documents for each
query (the qrels), and the rankings two systems A and B return: one set of
simulated judged rankings. System B is better on head queries and worse on
tail queries, and suits some users more than others. Every measure in every
file is then computed from those rankings by trec_eval's rules
(``helpers.evaluate``), so the measures agree with each other by construction.

- simulated.qrels.txt: the judgments, ``query_id 0 doc_id grade`` (grades 0, 1, 2).
- simulated_A.run.txt, simulated_B.run.txt: TREC run files, ``query_id Q0 doc_id
  rank score tag``, 20 documents per query. Run B retrieved nothing for two
  queries, so it has no lines for them.
- simulated_A.trec_eval.txt, simulated_B.trec_eval.txt: what ``trec_eval -q`` (without
  ``-c``) writes for those runs: ndcg_cut_10, P_5, success_5, recip_rank and num_rel per
  query, then the ``all`` summary rows; B's file has no rows for the two queries it
  retrieved nothing for.
- simulated_users_and_slices.csv: query_id, user, query_type and both systems'
  ndcg_cut_10 (0 where a run retrieved nothing, as ``trec_eval -c`` counts it), to the
  four decimals trec_eval prints.

- simulated_many_runs.csv, simulated_many_runs_fresh.csv: five runs scored on two sets of
  150 queries each (another simulation, from its own seed): ``base`` (the baseline),
  ``expansion``, ``reranker``, ``stemming`` and ``tuned``, each on ndcg_cut_10, P_5 and
  recip_rank (columns ``run:measure``, four decimals). ``tuned`` is the best of
  ``N_TUNINGS`` tunings of one change, all equally good by construction, chosen by its mean
  ndcg_cut_10 on the first set's queries: on the fresh queries it gains less (the winner's
  curse; chapter 6). See ``MANY_RUNS`` for each run's true effect.

tests/runs/test_readers.py checks that the committed files (the many-run files too) equal this
script's output.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from helpers import Qrels, Run, evaluate

HERE = Path(__file__).resolve().parent
SEED = 20261130
N_QUERIES, N_USERS = 150, 40
N_RETRIEVED = 20
FAILED_IN_B = ("q047", "q121")
MEASURES = ("ndcg_cut_10", "P_5", "success_5", "recip_rank")


def _ranking(docs: list[str], grades: np.ndarray, shared: np.ndarray, skill: float, rng) -> dict:
    """One system's top documents for a query: relevance times skill, plus shared and own noise."""
    score = skill * grades + 0.8 * shared + 0.45 * rng.normal(0, 1, grades.size)
    top = np.argsort(-score, kind="stable")[:N_RETRIEVED]
    return {docs[k]: round(float(score[k]) + 10.0, 4) for k in top}


def _judged_query(q: str, rng) -> tuple[list[str], np.ndarray, dict[str, int], np.ndarray]:
    """One query's documents, their grades, its judgments and the noise every system shares.

    1 to 15 relevant documents (grade 1 or 2), 10 to 30 judged non-relevant and 30 unjudged;
    the document IDs are in random order (they carry no hint of relevance). ``shared`` is what
    makes a document look relevant to every system.
    """
    n_rel, n_nonrel = int(rng.integers(1, 16)), int(rng.integers(10, 31))
    grades = np.concatenate([rng.choice([1, 2], size=n_rel, p=[0.7, 0.3]), np.zeros(n_nonrel + 30, int)])
    docs = [f"{q}-d{k:02d}" for k in rng.permutation(grades.size)]
    judged = {docs[k]: int(grades[k]) for k in range(n_rel + n_nonrel)}
    shared = rng.normal(0, 1, grades.size)
    return docs, grades, judged, shared


def simulate(seed: int = SEED) -> dict:
    """Queries, users, types, judgments and both systems' rankings, from one seed."""
    rng = np.random.default_rng(seed)
    qids = [f"q{i:03d}" for i in range(1, N_QUERIES + 1)]
    users = [f"U{u:02d}" for u in rng.integers(1, N_USERS + 1, size=N_QUERIES)]
    qtype = rng.choice(["head", "torso", "tail"], size=N_QUERIES, p=[0.3, 0.4, 0.3])
    user_effect = {u: rng.normal(0, 0.6) for u in sorted(set(users))}
    user_change = {u: rng.normal(0, 0.25) for u in sorted(set(users))}  # B suits some users more than others
    type_effect = {"head": 0.8, "torso": 0.0, "tail": -0.8}
    change = {"head": 0.6, "torso": 0.1, "tail": -0.4}
    # how well each system separates relevant from non-relevant documents, per query
    skill = np.array([1.0 + user_effect[u] + type_effect[t] for u, t in zip(users, qtype)]) + rng.normal(0, 0.6, N_QUERIES)
    skill_a = skill + rng.normal(0, 0.3, N_QUERIES)
    skill_b = skill + np.array([change[t] + user_change[u] for t, u in zip(qtype, users)]) + rng.normal(0, 0.3, N_QUERIES)

    judgments: dict[str, dict[str, int]] = {}
    rankings: dict[str, dict[str, dict[str, float]]] = {"A": {}, "B": {}}
    for i, q in enumerate(qids):
        docs, grades, judgments[q], shared = _judged_query(q, rng)
        for system, s in (("A", skill_a[i]), ("B", skill_b[i])):
            if system == "B" and q in FAILED_IN_B:
                continue
            rankings[system][q] = _ranking(docs, grades, shared, s, rng)
    return {"qids": qids, "users": users, "qtype": qtype, "qrels": judgments, "rankings": rankings}


def qrels_text(sim: dict) -> str:
    return "".join(f"{q} 0 {d} {g}\n" for q, docs in sim["qrels"].items() for d, g in docs.items())


def run_text(sim: dict, system: str) -> str:
    lines = []
    for q, docs in sim["rankings"][system].items():
        ranked = sorted(docs.items(), key=lambda kv: (-kv[1], kv[0]))
        lines += [f"{q} Q0 {d} {r} {s:.4f} simulated-{system}\n" for r, (d, s) in enumerate(ranked, start=1)]
    return "".join(lines)


def scores(sim: dict, system: str) -> dict:
    """Each measure's per-query values (every judged topic; 0 where nothing was retrieved), by trec_eval's code."""
    qrels = Qrels(sim["qrels"], "simulated.qrels.txt")
    run = Run(sim["rankings"][system], f"simulated_{system}.run.txt")
    return {m: evaluate(qrels, run, m) for m in MEASURES}


def trec_eval_text(sim: dict, system: str) -> str:
    """What ``trec_eval -q`` (without -c) writes: rows for the queries the run retrieved, then ``all``."""
    ms = scores(sim, system)
    kept = [q for q in sim["qids"] if q in sim["rankings"][system]]
    num_rel = {q: sum(g > 0 for g in sim["qrels"][q].values()) for q in kept}
    lines = []
    for q in kept:
        lines.append(f"{'num_rel':<22}\t{q}\t{num_rel[q]}")
        for name, values in ms.items():
            lines.append(f"{name:<22}\t{q}\t{values.scores[q]:.4f}")
    lines.append(f"{'runid':<22}\tall\tsimulated-{system}")
    lines.append(f"{'num_q':<22}\tall\t{len(kept)}")
    lines.append(f"{'num_rel':<22}\tall\t{sum(num_rel.values())}")
    for name, values in ms.items():
        lines.append(f"{name:<22}\tall\t{np.mean([values.scores[q] for q in kept]):.4f}")
    return "\n".join(lines) + "\n"


def csv_text(sim: dict) -> str:
    a, b = scores(sim, "A")["ndcg_cut_10"].scores, scores(sim, "B")["ndcg_cut_10"].scores
    rows = ["query_id,user,query_type,ndcg_cut_10_A,ndcg_cut_10_B"]
    for i, q in enumerate(sim["qids"]):
        rows.append(f"{q},{sim['users'][i]},{sim['qtype'][i]},{a[q]:.4f},{b[q]:.4f}")
    return "\n".join(rows) + "\n"


# --- Many runs against one baseline (issue 31) ----------------------------------------

MANY_SEED = 20261201
N_MANY = 150  # queries in each of the two sets
N_TUNINGS = 8
MANY_MEASURES = ("ndcg_cut_10", "P_5", "recip_rank")
#: Each run's true effect on a query's skill (how well it ranks relevant documents first),
#: against the baseline ``base``; the tunings of ``tuned`` all have the same true effect.
MANY_RUNS = {"base": 0.0, "expansion": 0.15, "reranker": 0.45, "stemming": 0.0, "tuned": 0.1}


def simulate_many(seed: int = MANY_SEED) -> dict:
    """Two sets of queries (chosen on, fresh), judged, and every run's per-query scores on them."""
    rng = np.random.default_rng(seed)
    names = [n for n in MANY_RUNS if n != "tuned"] + [f"tuning{t}" for t in range(1, N_TUNINGS + 1)]
    out = {}
    for part, first in (("chosen", 1), ("fresh", N_MANY + 1)):
        qids = [f"q{i:03d}" for i in range(first, first + N_MANY)]
        judgments, rankings = {}, {n: {} for n in names}
        for q in qids:
            skill = 1.0 + rng.normal(0, 0.8)
            docs, grades, judgments[q], shared = _judged_query(q, rng)
            for n in names:
                effect = MANY_RUNS["tuned"] if n.startswith("tuning") else MANY_RUNS[n]
                rankings[n][q] = _ranking(docs, grades, shared, skill + effect + rng.normal(0, 0.3), rng)
        qrels = Qrels(judgments, f"simulated {part} queries")
        runs = {n: Run(rankings[n], n) for n in names}
        out[part] = {n: {m: evaluate(qrels, runs[n], m).scores for m in MANY_MEASURES} for n in names}
        out[part]["qids"] = qids
    # the tuning with the best mean ndcg_cut_10 on the chosen-on queries becomes "tuned"
    means = [np.mean(list(out["chosen"][f"tuning{t}"]["ndcg_cut_10"].values())) for t in range(1, N_TUNINGS + 1)]
    best = f"tuning{int(np.argmax(means)) + 1}"
    for part in out.values():
        part["tuned"] = part[best]
    return out


def many_runs_text(sim: dict, part: str) -> str:
    runs = list(MANY_RUNS)
    header = ["query_id"] + [f"{r}:{m}" for r in runs for m in MANY_MEASURES]
    rows = [",".join(header)]
    for q in sim[part]["qids"]:
        rows.append(",".join([q] + [f"{sim[part][r][m][q]:.4f}" for r in runs for m in MANY_MEASURES]))
    return "\n".join(rows) + "\n"


def many_outputs() -> dict[str, str]:
    sim = simulate_many()
    return {
        "simulated_many_runs.csv": many_runs_text(sim, "chosen"),
        "simulated_many_runs_fresh.csv": many_runs_text(sim, "fresh"),
    }


def outputs() -> dict[str, str]:
    sim = simulate()
    return {
        "simulated.qrels.txt": qrels_text(sim),
        "simulated_A.run.txt": run_text(sim, "A"),
        "simulated_B.run.txt": run_text(sim, "B"),
        "simulated_A.trec_eval.txt": trec_eval_text(sim, "A"),
        "simulated_B.trec_eval.txt": trec_eval_text(sim, "B"),
        "simulated_users_and_slices.csv": csv_text(sim),
        **many_outputs(),
    }


if __name__ == "__main__":
    for name, text in outputs().items():
        (HERE / name).write_text(text)
        print(f"wrote {name}")
