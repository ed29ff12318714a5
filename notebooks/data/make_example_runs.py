"""Write the simulated example runs used in chapter 7 (run: python make_example_runs.py).

Nothing here is real data. A seeded simulation gives 150 queries from 40
users, each query of one type (head, torso, tail), and two systems' per-query
scores; system B is better on head queries and worse on tail queries, and suits
some users more than others. The
files are written in the formats evaluation tools produce:

- simulated_A.trec_eval.txt, simulated_B.trec_eval.txt: ``trec_eval -q`` output
  (measures ndcg_cut_10, P_5, success_5, recip_rank, num_rel per query, then the
  ``all`` summary rows). Run B returned nothing for two queries, so, as
  trec_eval does without ``-c``, its file has no rows for them.
- simulated_users_and_slices.csv: query_id, user, query_type and both systems'
  ndcg_cut_10 (0 where a run returned nothing, as ``trec_eval -c`` would).

tests/test_runs.py checks that the committed files equal this script's output.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SEED = 20261130
N_QUERIES, N_USERS = 150, 40
FAILED_IN_B = ("q047", "q121")


def simulate(seed: int = SEED) -> dict:
    rng = np.random.default_rng(seed)
    qids = [f"q{i:03d}" for i in range(1, N_QUERIES + 1)]
    users = [f"U{u:02d}" for u in rng.integers(1, N_USERS + 1, size=N_QUERIES)]
    qtype = rng.choice(["head", "torso", "tail"], size=N_QUERIES, p=[0.3, 0.4, 0.3])
    user_effect = {u: rng.normal(0, 0.8) for u in sorted(set(users))}
    user_change = {u: rng.normal(0, 0.3) for u in sorted(set(users))}  # B suits some users more than others
    type_effect = {"head": 1.0, "torso": 0.0, "tail": -1.0}
    change = {"head": 0.35, "torso": 0.05, "tail": -0.25}
    latent = np.array([user_effect[u] + type_effect[t] for u, t in zip(users, qtype)]) + rng.normal(0, 0.9, N_QUERIES)
    a_lat = latent + rng.normal(0, 0.35, N_QUERIES)
    b_lat = latent + np.array([change[t] + user_change[u] for t, u in zip(qtype, users)]) + rng.normal(0, 0.35, N_QUERIES)

    def measures(lat: np.ndarray) -> dict[str, np.ndarray]:
        ndcg = 1 / (1 + np.exp(-lat))
        return {
            "ndcg_cut_10": np.round(ndcg, 4),
            "P_5": np.round(np.clip(np.round(5 * ndcg + rng.normal(0, 0.6, lat.size)), 0, 5) / 5, 4),
            "success_5": (rng.random(lat.size) < np.clip(ndcg * 1.25, 0, 1)).astype(float),
            "recip_rank": np.round(np.clip(ndcg + rng.normal(0, 0.1, lat.size), 0.01, 1.0), 4),
        }

    num_rel = rng.integers(1, 30, size=N_QUERIES)
    return {"qids": qids, "users": users, "qtype": qtype, "A": measures(a_lat), "B": measures(b_lat), "num_rel": num_rel}


def trec_eval_text(sim: dict, system: str, skip: tuple[str, ...] = ()) -> str:
    ms = sim[system]
    lines = []
    kept = [i for i, q in enumerate(sim["qids"]) if q not in skip]
    for i in kept:
        q = sim["qids"][i]
        lines.append(f"{'num_rel':<22}\t{q}\t{sim['num_rel'][i]}")
        for name, values in ms.items():
            lines.append(f"{name:<22}\t{q}\t{values[i]:.4f}")
    lines.append(f"{'runid':<22}\tall\tsimulated-{system}")
    lines.append(f"{'num_q':<22}\tall\t{len(kept)}")
    lines.append(f"{'num_rel':<22}\tall\t{int(sim['num_rel'][kept].sum())}")
    for name, values in ms.items():
        lines.append(f"{name:<22}\tall\t{values[kept].mean():.4f}")
    return "\n".join(lines) + "\n"


def csv_text(sim: dict) -> str:
    rows = ["query_id,user,query_type,ndcg_cut_10_A,ndcg_cut_10_B"]
    for i, q in enumerate(sim["qids"]):
        b = 0.0 if q in FAILED_IN_B else sim["B"]["ndcg_cut_10"][i]
        rows.append(f"{q},{sim['users'][i]},{sim['qtype'][i]},{sim['A']['ndcg_cut_10'][i]:.4f},{b:.4f}")
    return "\n".join(rows) + "\n"


def outputs() -> dict[str, str]:
    sim = simulate()
    return {
        "simulated_A.trec_eval.txt": trec_eval_text(sim, "A"),
        "simulated_B.trec_eval.txt": trec_eval_text(sim, "B", skip=FAILED_IN_B),
        "simulated_users_and_slices.csv": csv_text(sim),
    }


if __name__ == "__main__":
    for name, text in outputs().items():
        (HERE / name).write_text(text)
        print(f"wrote {name}")
