"""helpers.planning: how many queries a comparison needs, checked against a direct search with
scipy's noncentral t, G*Power's published sample sizes, and simulation."""

import math
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from trec_files import chapter_7_runs

import helpers
from helpers import planning
from helpers.planning import MAX_QUERIES, power_curve, queries_needed

TREC_EVAL = Path(__file__).resolve().parent.parent.parent / "shared" / "trec_eval-test"


def _direct(sd, change, power, alpha=0.05, alternative="two-sided"):
    """The smallest n >= 2 whose paired t-test power reaches `power`, by plain linear search
    (every n from 2 up, a thousand at a time, by scipy's noncentral t)."""
    for start in range(2, 100_000, 1_000):
        n = np.arange(start, start + 1_000)
        df, nc = n - 1, change * np.sqrt(n) / sd
        if alternative == "two-sided":
            c = stats.t.ppf(1 - alpha / 2, df)
            p = stats.nct.sf(c, df, nc) + stats.nct.cdf(-c, df, nc)
        else:
            p = stats.nct.sf(stats.t.ppf(1 - alpha, df), df, nc)
        if (p >= power).any():
            i = int(np.argmax(p >= power))
            return int(n[i]), float(p[i])
    raise AssertionError("not found")


def _trec_changes(measure):
    qrels = helpers.read_qrels(TREC_EVAL / "qrels.test")
    a = helpers.evaluate(qrels, helpers.read_run(TREC_EVAL / "results.test"), measure).scores
    b = helpers.evaluate(qrels, helpers.read_run(TREC_EVAL / "results.trunc"), measure).scores
    return helpers.paired_differences(a, b)


PILOTS = {
    "seven": [0.1, -0.2, 0.3, 0.0, 0.25, -0.05, 0.15],
    "hit@5": [1.0] * 4 + [-1.0] * 12 + [0.0] * 104,
    "normal": np.random.default_rng(3).normal(0.0, 0.12, size=60),
}


@pytest.mark.parametrize("pilot", PILOTS)
@pytest.mark.parametrize(
    "change, power, alternative",
    [
        (0.02, 0.8, "two-sided"),
        (0.05, 0.9, "two-sided"),
        (0.03, 0.8, "greater"),
    ],
)
def test_the_t_answer_is_the_direct_noncentral_t_search(pilot, change, power, alternative):
    d = np.asarray(PILOTS[pilot])
    plan = queries_needed(d, smallest_useful=change, power=power, alternative=alternative)
    n, p = _direct(np.std(d, ddof=1), change, power, alternative=alternative)
    assert (plan.queries, plan.method, plan.mc_error) == (n, "t", None)
    assert plan.power == pytest.approx(p, rel=1e-12) and plan.power >= power
    assert plan.sd == pytest.approx(np.std(d, ddof=1), rel=1e-12)


@pytest.mark.skipif(not TREC_EVAL.is_dir(), reason="needs ../shared/trec_eval-test/")
@pytest.mark.parametrize("measure", ["ndcg_cut_10", "map", "P_10"])
def test_on_real_trec_per_query_changes(measure):
    d = _trec_changes(measure)
    for change in (0.1, 0.2):
        n, _ = _direct(np.std(d, ddof=1), change, 0.8)
        assert queries_needed(d, smallest_useful=change).queries == n


@pytest.mark.parametrize(
    "effect_size, n, alternative",
    [
        (0.5, 34, "two-sided"),
        (0.2, 199, "two-sided"),
        (0.8, 15, "two-sided"),
        (0.5, 27, "greater"),
    ],
)
def test_gpowers_published_sample_sizes_for_matched_pairs(effect_size, n, alternative):
    """G*Power 3 (t tests, means, difference from constant: matched pairs), alpha 0.05,
    power 0.80: dz = 0.5 needs 34 pairs (27 one-tailed), dz = 0.2 needs 199, dz = 0.8 15."""
    pilot = [-1.0, 1.0]  # SD sqrt(2)
    plan = queries_needed(
        pilot, smallest_useful=effect_size * math.sqrt(2), alternative=alternative
    )
    assert plan.queries == n


def test_a_pilot_by_query_id_is_read_like_its_values_and_less_plans_for_a_loss():
    d = PILOTS["seven"]
    by_id = {f"q{i}": v for i, v in enumerate(d)}
    assert queries_needed(by_id, smallest_useful=0.05) == queries_needed(d, smallest_useful=0.05)
    gain = queries_needed(d, smallest_useful=0.05, alternative="greater")
    loss = queries_needed(d, smallest_useful=0.05, alternative="less")
    assert (gain.queries, gain.power) == (loss.queries, pytest.approx(loss.power))


def test_the_simulation_lands_near_the_t_answer_for_near_normal_changes():
    """For near-normal changes the randomization test's power is the t-test's, within the
    simulation's Monte Carlo error (4 standard errors; the fitted Q within 12%)."""
    d = PILOTS["normal"]
    t = queries_needed(d, smallest_useful=0.04)
    sim = queries_needed(d, smallest_useful=0.04, method="randomization", rng=5)
    assert sim.method == "randomization" and sim.n_studies == 1000
    assert sim.mc_error == pytest.approx(math.sqrt(sim.power * (1 - sim.power) / 1000))
    assert abs(sim.queries - t.queries) <= 0.12 * t.queries
    at_t = power_curve(d, [t.queries], smallest_useful=0.04, method="randomization", rng=6)[0]
    se = math.sqrt(t.power * (1 - t.power) / 1000)
    assert abs(at_t - t.power) <= 4 * se + 0.01  # 0.01: the 199 random flips' own loss


def _pmf(n: int) -> np.ndarray:
    return np.array([math.comb(n, i) for i in range(n + 1)], float) / 2.0**n


def _hit_at_5_enumerated(q: int = 104, alpha: float = 0.05) -> dict:
    """Every outcome of q draws from the shifted hit@5 changes (three values: a loss, an
    unchanged query, a win), with its multinomial probability: the power of the paired t-test, of
    the sign-flip test with a normal null (S / sqrt(sum d^2) against 1.96), of the exact
    randomization test (its p by convolving the three values' binomial sign counts) and of a
    Monte Carlo one with 999 flips (count ~ Binomial(999, exact p), p = (count + 1) / 1000)."""
    d = np.asarray(PILOTS["hit@5"])
    k, m = d.size, d.mean()
    v = (np.array([-1.0, 0.0, 1.0]) - m) * math.sqrt(k / (k - 1)) + 0.1  # as _shifted moves them
    assert np.allclose(np.unique(planning._shifted(d, 0.1, "two-sided")), v)
    logp = np.log(np.array([(d == x).mean() for x in (-1.0, 0.0, 1.0)]))
    power = dict(t=0.0, normal=0.0, exact=0.0, flips_999=0.0)
    outcomes = {}
    for losses in range(q + 1):
        for wins in range(q + 1 - losses):
            n = np.array([losses, q - losses - wins, wins])
            lg = math.lgamma(q + 1) - sum(math.lgamma(c + 1) for c in n)
            prob = math.exp(lg + float(n @ logp))
            if prob < 1e-13:
                continue
            total, sq = float(n @ v), float(n @ v**2)
            t = (total / q) / math.sqrt((sq - total**2 / q) / (q - 1) / q)
            z = total / math.sqrt(sq)
            assert z * z == pytest.approx(q * t * t / (q - 1 + t * t), rel=1e-9)  # monotone in t
            j = [2 * np.arange(c + 1) - c for c in n]  # each value's signed count
            flipped = v[0] * j[0][:, None, None] + v[1] * j[1][None, :, None] + v[2] * j[2]
            weight = _pmf(n[0])[:, None, None] * _pmf(n[1])[None, :, None] * _pmf(n[2])
            exact = float(weight[np.abs(flipped) >= abs(total) * (1 - 1e-9)].sum())
            p_t = 2 * stats.t.sf(abs(t), q - 1)
            power["t"] += prob * (p_t <= alpha)
            power["normal"] += prob * (abs(z) >= stats.norm.ppf(1 - alpha / 2))
            power["exact"] += prob * (exact <= alpha)
            power["flips_999"] += prob * stats.binom.cdf(round(alpha * 1000) - 1, 999, exact)
            outcomes[losses, wins] = (prob, exact, p_t)
    return {**power, "outcomes": outcomes}


def test_for_hit_at_k_changes_the_randomization_test_falls_short_by_discreteness():
    """Changes in {-1, 0, +1}, mostly 0: at the t answer for a change of 0.1 (104 queries),
    exact enumeration of every outcome gives the t-test 0.792 and the sign-flip test with a
    normal null the same (its statistic is a monotone function of t, so the uncentred spread
    costs nothing), but the exact randomization test 0.766 and 999 flips 0.773: the shifted
    changes take three values, so the exact p-values are discrete. One outcome of probability
    0.0205 (12 losses, 90 unchanged, 2 wins) has exact p 0.0506 where t gives 0.047."""
    d = PILOTS["hit@5"]
    t = queries_needed(d, smallest_useful=0.1)
    assert t.queries == 104 and round(t.power, 3) == 0.800  # the noncentral t's promise
    e = _hit_at_5_enumerated(t.queries)
    assert round(e["t"], 3) == round(e["normal"], 3) == 0.792
    assert (round(e["exact"], 3), round(e["flips_999"], 3)) == (0.766, 0.773)
    prob, exact, p_t = e["outcomes"][12, 2]
    assert (round(prob, 4), round(exact, 4), round(p_t, 3)) == (0.0205, 0.0506, 0.047)
    said = [f"SD is {np.std(d, ddof=1):.2f}", "is 104 queries", f"t-test {e['t']:.3f}",
            f"exact randomization test has {e['exact']:.3f}",
            f"999 sign assignments {e['flips_999']:.3f}", f"probability {prob:.4f}",
            f"exact p {exact:.4f}", f"t-test gives {p_t:.3f}"]  # fmt: skip
    assert [x for x in said if x not in _your_own_runs()] == []
    for text in (YOUR_OWN_RUNS.read_text(), planning.queries_needed.__doc__):
        assert "0.779" not in text and "discrete" in text


YOUR_OWN_RUNS = Path(__file__).resolve().parent.parent / "docs" / "your-own-runs.md"


def _your_own_runs() -> str:
    """docs/your-own-runs.md with its line breaks as spaces."""
    return " ".join(YOUR_OWN_RUNS.read_text().split())


# The simulations of method="randomization" at the sizes the docs quote (1,000 or 8,000
# studies; about 7 s of CPU in all) are the full sweep's (make test-browser, CI): no chapter
# plans by simulation (chapter 6 uses the t-test). make test simulates too, smaller: the answer
# near the t-test's for near-normal changes, and the same seed giving the same answer.


@pytest.mark.sweep
def test_for_hit_at_k_the_simulation_agrees_with_the_enumeration():
    """The simulation (8,000 studies, 999 flips each) at the t answer agrees with the
    enumeration of the test above, and docs/your-own-runs.md quotes its power."""
    d = PILOTS["hit@5"]
    e = _hit_at_5_enumerated(104)
    kw = dict(smallest_useful=0.1, method="randomization", n_studies=8000, n_flips=999)
    at_t = power_curve(d, [104], rng=1, **kw)[0]
    assert abs(at_t - e["flips_999"]) < 3 * math.sqrt(0.16 / 8000)
    assert f"detects it in {at_t:.3f} of studies" in _your_own_runs()


@pytest.mark.sweep
def test_the_randomization_answer_has_at_least_the_target_power_within_its_error():
    """At its own answer the simulated power is at least the target within its standard error
    (the answer grows, with more studies, where the fitted curve's Q falls short): seeds 1 to 3
    on the hit@5 changes, where the first fitted Q of some seeds has power 0.77."""
    d = PILOTS["hit@5"]
    grown = 0
    for seed in range(1, 4):
        sim = queries_needed(d, smallest_useful=0.1, method="randomization", rng=seed)
        assert sim.power + sim.mc_error >= 0.8, (seed, sim)
        assert sim.mc_error == pytest.approx(math.sqrt(sim.power * (1 - sim.power) / sim.n_studies))
        grown += sim.n_studies > 1000
    assert grown  # some seeds needed more queries and studies: the rule was exercised


def test_power_curve_by_t_rises_and_matches_the_plan():
    d = PILOTS["seven"]
    plan = queries_needed(d, smallest_useful=0.05)
    curve = power_curve(d, [10, 50, plan.queries - 1, plan.queries], smallest_useful=0.05)
    assert np.all(np.diff(curve) > 0) and curve[-2] < 0.8 <= curve[-1]
    assert curve[-1] == pytest.approx(plan.power)


def test_the_simulation_repeats_with_its_seed():
    # 200 studies, not 1,000: the same seed must give the same answer at any size
    d, kw = PILOTS["seven"], dict(method="randomization", n_studies=200)
    one = queries_needed(d, smallest_useful=0.05, rng=2, **kw)
    assert one == queries_needed(d, smallest_useful=0.05, rng=2, **kw)
    assert one.n_studies >= 200 and one != queries_needed(d, smallest_useful=0.05, rng=3, **kw)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(smallest_useful=0), "smallest_useful must be a positive number"),
        (dict(smallest_useful=-0.02), "alternative='less'"),
        (dict(smallest_useful=float("nan")), "smallest_useful must be a finite number"),
        (dict(smallest_useful=0.02, power=1.0), "power must be a number strictly between 0 and 1"),
        (dict(smallest_useful=0.02, alpha=0), "alpha must be a number strictly between 0 and 1"),
        (dict(smallest_useful=0.02, method="z"), "method"),
        (dict(smallest_useful=0.02, method="randomization"), "rng is required"),
        (dict(smallest_useful=0.02, method="randomization", rng=1, n_flips=9), "n_flips >= 19"),
        (dict(smallest_useful=1e-9), "more than 1,000,000 queries"),
    ],
)
def test_bad_arguments_say_what_to_do(kwargs, match):
    with pytest.raises(ValueError, match=match):
        queries_needed(PILOTS["seven"], **kwargs)


def test_a_pilot_too_small_or_without_spread_is_refused():
    with pytest.raises(ValueError, match="at least 2"):
        queries_needed([0.1], smallest_useful=0.02)
    with pytest.raises(ValueError, match="all equal"):
        queries_needed([0.1, 0.1, 0.1], smallest_useful=0.02)
    with pytest.raises(ValueError, match="non-numeric"):
        queries_needed([0.1, "x"], smallest_useful=0.02)
    assert MAX_QUERIES == 1_000_000


def test_plot_power_curve_draws_the_curve_the_target_and_the_answer():
    from matplotlib.figure import Figure

    ax = helpers.plot_power_curve([10, 20], [0.4, 0.9], needed=15, ax=Figure().subplots())
    assert ax.get_ylabel() == "Power" and ax.get_title()
    assert [line.get_label() for line in ax.get_lines()][::2] == ["power", "Q = 15"]
    with pytest.raises(
        ValueError, match="power must be 2 shares between 0 and 1 .*, one per number of q"
    ):
        helpers.plot_power_curve([10, 20], [0.4], ax=Figure().subplots())
    with pytest.raises(ValueError, match="between 0 and 1"):
        helpers.plot_power_curve([10], [1.4], ax=Figure().subplots())


def _chapter_7_pilot() -> dict:
    _, a, b = chapter_7_runs()
    return {q: b.scores[q] - a.scores[q] for q in a.scores}


def test_the_figures_docs_your_own_runs_states_for_chapter_7s_runs():
    plan = queries_needed(_chapter_7_pilot(), smallest_useful=0.02, power=0.8)
    doc = YOUR_OWN_RUNS.read_text()
    assert f"SD {plan.sd:.4f}" in doc and f"takes {plan.queries} queries" in doc


@pytest.mark.sweep
def test_the_simulated_figures_docs_your_own_runs_states_for_chapter_7s_runs():
    sim = queries_needed(_chapter_7_pilot(), smallest_useful=0.02, method="randomization", rng=1)
    doc = YOUR_OWN_RUNS.read_text()
    assert f"{sim.queries:,} by the simulated" in doc
    assert f"power {sim.power:.3f} ± {sim.mc_error:.3f}" in doc


def test_the_search_near_the_normal_answer_agrees_with_plain_bisection():
    # the 32 n tried at once from just below the normal approximation, against a bisection of
    # the t power one n at a time, over 200 random plans; some (a target power below alpha
    # puts the normal answer far off) fall outside those 32 n
    rng = np.random.default_rng(53)
    outside = 0
    for _ in range(200):
        sd, effect, target = (
            rng.uniform(0.05, 0.5),
            rng.uniform(0.003, 0.6),
            rng.uniform(0.01, 0.99),
        )
        alpha, alternative = rng.choice([0.01, 0.05, 0.2]), rng.choice(["two-sided", "greater"])
        args = (effect, sd, alpha, alternative)
        lo, hi = 1, 2
        while planning._t_power(hi, *args) < target:
            lo, hi = hi, 2 * hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if planning._t_power(mid, *args) >= target else (mid, hi)
        assert planning._t_search(effect, sd, target, alpha, alternative) == hi
        z = stats.norm.ppf(1 - alpha / (2 if alternative == "two-sided" else 1)) + stats.norm.ppf(
            target
        )
        outside += not 0 <= hi - max(2, math.floor((z * sd / effect) ** 2) - 2) < 32
    assert outside >= 2
