"""helpers.examples: the source's hit@5 and four-pair examples, and chapter 4's simulated
population checked against its definition.
"""

import random

import numpy as np
import pytest

import helpers
from helpers import FOUR_PAIR_CHANGES, four_pair_example, hit_at_5_example


def test_same_draws_as_the_definition():
    """An independent re-implementation on the same seed gives the same study."""
    g = np.random.default_rng(2024)
    sizes = 1 + g.poisson(4, size=50)
    users = np.repeat(np.arange(50), sizes)
    d = 0.02 + g.normal(0, 0.08, size=50)[users] + g.normal(0, 0.05, size=users.size)
    got_d, got_users = helpers.simulated_user_study(2024)
    assert np.array_equal(got_users, users)
    assert np.allclose(got_d, d, rtol=0, atol=1e-15)


def test_generator_is_advanced_and_studies_differ():
    g = np.random.default_rng(1)
    first, _ = helpers.simulated_user_study(g)
    second, _ = helpers.simulated_user_study(g)
    assert first.size != second.size or not np.allclose(first, second)


def test_population_moments():
    """Over many users the mean is the truth and the user share of variance is user_sd^2 /
    (user_sd^2 + query_sd^2).
    """
    d, users = helpers.simulated_user_study(3, n_users=20_000, truth=0.1)
    assert abs(d.mean() - 0.1) < 0.004
    assert abs(d.var() - (0.08**2 + 0.05**2)) < 0.0005
    sizes = np.bincount(users)
    assert sizes.min() >= 1 and abs(sizes.mean() - 5) < 0.05


def test_no_user_effect_means_independent_queries():
    d, users = helpers.simulated_user_study(5, n_users=5000, user_sd=0.0)
    user_means = np.bincount(users, weights=d) / np.bincount(users)
    # without user effects, a user's mean of m queries varies like query noise / sqrt(m)
    assert abs(np.var(user_means - 0.02) - np.mean(0.05**2 / np.bincount(users))) < 0.0002


def test_a_simulated_loss_is_fine():
    d, _ = helpers.simulated_user_study(1, truth=-0.5, user_sd=0.0, query_sd=0.0)
    assert np.all(d == -0.5)


def test_hit_at_5_example_matches_the_source():
    a, b = hit_at_5_example()
    assert a.shape == b.shape == (120,)
    assert set(np.unique(a)) <= {0.0, 1.0}
    assert round(a.mean(), 3) == 0.758 and round(b.mean(), 3) == 0.692
    assert round(b.mean() - a.mean(), 3) == -0.067
    d = b - a
    assert (int((d > 0).sum()), int((d < 0).sum())) == (4, 12)


def test_hit_at_5_example_advances_a_shared_stream_by_240_draws():
    stream = random.Random(7)
    hit_at_5_example(rng=stream)
    reference = random.Random(7)
    for _ in range(240):
        reference.random()
    assert stream.random() == reference.random()


def test_hit_at_5_example_rejects_a_numpy_generator():
    with pytest.raises(ValueError, match="random.Random"):
        hit_at_5_example(rng=np.random.default_rng(7))


def test_four_pair_example_is_consistent_with_the_source():
    ex = four_pair_example()
    np.testing.assert_array_equal(ex["changes"], FOUR_PAIR_CHANGES)
    np.testing.assert_allclose(ex["b"] - ex["a"], FOUR_PAIR_CHANGES, atol=1e-12)
    assert round(ex["a"].mean(), 3) == 0.600
    assert round(ex["changes"].mean(), 3) == 0.025
    assert abs(ex["changes"].mean() / ex["a"].mean() - 0.0417) < 5e-5
    assert ((ex["a"] >= 0) & (ex["b"] <= 1)).all()


def test_example_loop_means_is_the_sources_loop_on_the_same_stream():
    """Written out independently: the data's 240 draws, then randrange(120) for each pick."""
    stream = random.Random(7)
    a = [1 if stream.random() < 0.70 else 0 for _ in range(120)]
    b = [hit if stream.random() < 0.9 else 1 - hit for hit in a]
    changes = [y - x for x, y in zip(a, b, strict=True)]
    expected = []
    for k in range(5000):  # all of the source's 5,000 (chapter 1's exercises use them)
        if k == 300:
            after_300 = stream.getstate()
        picks = [stream.randrange(120) for _ in range(120)]
        expected.append(sum(changes[i] for i in picks) / 120)
    assert helpers.example_loop_means().tolist() == expected
    got = helpers.example_loop_means(n_resamples=300)
    assert got.shape == (300,) and got.tolist() == expected[:300]
    mine = random.Random(7)  # a stream passed in is advanced, as hit_at_5_example's is
    assert helpers.example_loop_means(n_resamples=300, rng=mine).tolist() == expected[:300]
    stream.setstate(after_300)
    assert mine.random() == stream.random()
    s, R = sorted(helpers.example_loop_means()), 5000  # the source's figures
    assert (round(s[int(0.025 * R)], 3), round(s[min(R - 1, int(0.975 * R))], 3)) == (
        -0.133,
        -0.008,
    )
    assert not np.array_equal(helpers.example_loop_means(n_resamples=300, rng=8), got)


def test_example_loop_means_refuses_bad_arguments():
    for bad in (0, -1, 2.5, "5000", None):
        with pytest.raises(ValueError, match=r"^n_resamples must be a positive integer"):
            helpers.example_loop_means(n_resamples=bad)
    with pytest.raises(ValueError, match="random.Random"):
        helpers.example_loop_means(rng=np.random.default_rng(7))
    with pytest.raises(TypeError):
        helpers.example_loop_means(300)  # n_resamples is keyword-only
