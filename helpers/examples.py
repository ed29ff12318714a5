"""The series' worked examples: the source material's data and the simulated studies.

Chapter 0 and the exercises start from these; nothing else in ``helpers`` depends on them.
"""

from __future__ import annotations

import random

import numpy as np

from . import _checks

__all__ = ["hit_at_5_example", "example_loop_means", "FOUR_PAIR_CHANGES", "four_pair_example",
           "simulated_user_study"]  # fmt: skip


def _stream(rng: object) -> random.Random:
    """``rng`` itself if a ``random.Random``, else a new one seeded with the int ``rng``."""
    if not isinstance(rng, random.Random) and not _checks.is_int(rng):
        raise ValueError(
            f"rng must be a random.Random instance or an int seed; got {type(rng).__name__}."
        )
    return rng if isinstance(rng, random.Random) else random.Random(rng)


def hit_at_5_example(rng: random.Random | int = 7) -> tuple[np.ndarray, np.ndarray]:
    """The source material's 120-query hit@5 example, generated exactly as the source does.

    The first 120 draws of ``random()`` give A's hits (1 below 0.70); the next
    120 give B's (A's value below 0.9, else flipped). ``rng`` is an int seed or
    a ``random.Random``, advanced by 240 draws so a bootstrap can continue on
    the same stream, as the source does.

    >>> a, b = hit_at_5_example()
    >>> print(f"A {a.mean():.3f}, B {b.mean():.3f}, B - A {b.mean() - a.mean():+.3f}")
    A 0.758, B 0.692, B - A -0.067
    """
    stream = _stream(rng)
    a = [1 if stream.random() < 0.70 else 0 for _ in range(120)]
    b = [hit if stream.random() < 0.9 else 1 - hit for hit in a]
    return np.array(a, dtype=float), np.array(b, dtype=float)


#: The source's four per-query nDCG changes B - A, for q1..q4.
FOUR_PAIR_CHANGES: tuple[float, ...] = (0.10, 0.02, -0.06, 0.04)


def four_pair_example() -> dict[str, object]:
    """The four-query nDCG example, with illustrative per-query scores and users.

    The source gives only the changes, A's mean (0.600) and the users; the
    per-query scores here are *illustrative*, chosen to match those figures.

    >>> ex = four_pair_example()
    >>> print(f"{ex['a'].mean():.3f} {ex['changes'].mean():+.3f}")
    0.600 +0.025
    """
    a = np.array([0.50, 0.70, 0.65, 0.55])
    b = np.round(a + FOUR_PAIR_CHANGES, 2)
    ids, users = ["q1", "q2", "q3", "q4"], ["U1", "U1", "U2", "U3"]
    return {"query_ids": ids, "users": users, "a": a, "b": b, "changes": np.round(b - a, 2)}


def simulated_user_study(
    rng: int | np.random.Generator,
    *,
    n_users: int = 50,
    user_sd: float = 0.08,
    query_sd: float = 0.05,
    truth: float = 0.02,
) -> tuple[np.ndarray, np.ndarray]:
    """One simulated study of chapter 4: per-query changes and the user who sent each query.

    Each user sends 1 + Poisson(4) queries; a query's change is ``truth + u_g +
    e_q``, a user effect (sd ``user_sd``) plus query noise (sd ``query_sd``).
    Users are numbered 0 .. n_users - 1, each user's queries together.

    >>> d, users = simulated_user_study(2024)
    >>> print(f"{d.size} queries from {users.max() + 1} users, mean change {d.mean():+.4f}")
    233 queries from 50 users, mean change +0.0309
    """
    gen = _checks.generator(rng)
    n_users = _checks.integer(n_users, "n_users")
    _checks.number(user_sd, "user_sd", minimum=0)  # the two spreads must also be >= 0
    _checks.number(query_sd, "query_sd", minimum=0)
    _checks.number(truth, "truth")
    sizes = 1 + gen.poisson(4, size=n_users)
    users = np.repeat(np.arange(n_users), sizes)
    user_effect = gen.normal(0, user_sd, size=n_users)
    changes = truth + user_effect[users] + gen.normal(0, query_sd, size=users.size)
    return changes, users


def example_loop_means(*, n_resamples: int = 5000, rng: random.Random | int = 7) -> np.ndarray:
    """The source's own bootstrap of its hit@5 example: its plain loop, reproduced exactly.

    The data take the stream's first 240 draws (:func:`hit_at_5_example`); the loop then
    continues the same stream, drawing each resample's 120 query positions with
    ``randrange(120)`` and averaging their changes. Returns the ``n_resamples`` means, in draw
    order. With the source's seed 7 and 5,000 resamples its rule reads [-0.133, -0.008].

    >>> s = sorted(example_loop_means())
    >>> print(f"[{s[int(0.025 * 5000)]:+.3f}, {s[min(4999, int(0.975 * 5000))]:+.3f}]")
    [-0.133, -0.008]
    """
    R = _checks.integer(n_resamples, "n_resamples")
    stream = _stream(rng)
    a, b = hit_at_5_example(rng=stream)
    changes = (b - a).tolist()
    Q = len(changes)
    means = [sum(changes[stream.randrange(Q)] for _ in range(Q)) / Q for _ in range(R)]
    return np.array(means)
