"""The exercises and quizzes of the series, as data (read by :mod:`helpers.exercises`).

Each exercise, keyed "chapter.number", gives:

- ``name``: the learner's answer variable; ``what``: the answer's form, for messages;
- ``expected``: the right answer as a flat list of numbers, compared within ``tol`` (one
  number, or one per entry); ``None`` in a list matches anything;
- for a function the learner writes, ``calls``: the arguments to call it with (lists of
  numbers arrive as numpy arrays); its outputs, flattened, are compared with ``expected``;
- ``summary``: compare the ``"moments"`` of an array (size, mean, standard deviation), or of
  a ``"distribution"`` given as (values, probabilities) (size, total, mean, variance);
- ``slips``: (the value a common slip gives, its message[, its own tolerance]);
- ``solution``: the code, run in the answer key after the chapter's cells above it
  (``make answers``; ``tests/test_answer_key.py`` checks it passes), and shown in the
  chapter in a closed ``<details>`` block (``tools/notebook_tools.py --solutions``).

The values were computed once from the series' data and the listed wrong methods
(``tests/test_exercises.py`` recomputes each slip the way a learner would make it).
A new exercise is one entry here, plus its prompt, answer and check cells in its chapter.
"""

# ruff: noqa: E501  (messages and solution lines read best unwrapped)
# fmt: off

import itertools

_HIT_CHANGES = [1.0] * 4 + [-1.0] * 12 + [0.0] * 104  # chapter 1's 120 changes (order does not matter here)
_ALL_27 = [list(t) for t in itertools.product(range(3), repeat=3)]  # every draw of three users
_HOLM = [[0.01, 0.04, 0.03, 0.005], [0.001, 0.02, 0.03], [0.2, 0.01, 0.02, 0.5], [0.03, 0.03], [0.004, 0.3, 0.011, 0.04, 0.015]]
_OBSERVED = "The observed signs (all +) are one of the equally likely assignments, and exactly as extreme as themselves: count them too, and divide by all 2**n assignments."
_TOO_FEW = "Your means look right, but there are too few of them: with so few resamples their centre and spread are rough. Run the loop 1,000 times, range(1000)."

#: The engine's own messages, for answers no exercise's slips explain ({name}, {what}: the
#: exercise's; the others: what was given).
_AGAIN = "run the answer cell, then run this one again."
MESSAGES = {
    "placeholder": "not answered yet: your answer is still ..., the placeholder. Replace the ... in the answer cell above with your answer, run that cell, then run this one again.",
    "undefined": "not answered yet: {name} is not defined here; " + _AGAIN,
    "empty body": "not answered yet: the body of {name} is still ..., the placeholder. Write it, ending with return and its value; " + _AGAIN,
    "holds ...": "not answered yet: your answer still holds a ..., the placeholder. Replace each ... in the answer cell above; " + _AGAIN,
    "holds None": "not answered yet: your answer holds None, what a function gives whose body is still ... (or that has no return, such as print). Write its body, ending with return and its value; " + _AGAIN,
    "empty": "expected {what}; your answer is empty: did the answer cell stop at an error before filling it? Fix that, then " + _AGAIN,
    "type": "expected {what}; got {type}.",
    "uncalled": "expected {what}; your answer holds functions, not their values: a call's () is missing, as in d[picks].mean for d[picks].mean().",
    "not callable": "expected {what}; got {type}; write a function and put its name (not a call) after {name} = .",
    "returned None": "expected {what}; {name} returned None: end its body with return and its value.",
    "raised": "expected {what}; calling {name} on the check's inputs raised {error}: {exc}.",
    "returned type": "expected {what}; {name} returned {type}; the prompt asks for {what}.",
    "unknown": "not quite: {given}. The exercise asks for {what}; go through each step again.",
    "unknown function": "your function gives {shown} on the check's inputs",
    "unknown value": "your answer, {shown}, is not the expected value",
    "unknown moments": "your answer (size, mean and standard deviation {shown}) is not the expected one",
    "unknown constant": "your answer ({shown}: a constant) is not the expected one",
    "unknown distribution": "your answer (number of values, total probability, mean and variance {shown}) is not the expected one",
}

EXERCISES = {
    "0.1": {
        "name": "mean_change", "what": "the mean change, a number", "minutes": 3,
        "expected": [0.025], "tol": 5e-4,
        "slips": [
            ([-0.025], "That is A minus B: the change is d_q = m_B(q) - m_A(q), B minus A."),
            ([0.10], "That is the sum of the four changes; divide by Q = 4 for their mean."),
            ([0.1 / 3], "That divides the sum by 3: the mean divides by Q = 4, the number of changes.", 1e-3),
            ([0.0295], "Close, but rounded: give the mean itself, not a rounded value.", 0.0096),
            ([2.5], "That looks like a percentage (out of 100): give the mean change in the scores' own units, as a decimal.", 0.05),
        ],
        "solution": '''mean_change = d.mean()  # (+0.10 + 0.02 - 0.06 + 0.04) / 4
print(f"mean change: {helpers.signed(mean_change)}")''',
    },
    "1.1": {
        "name": "boot_means", "what": "a list of your 1,000 resampled mean changes",
        # compared by size, mean and standard deviation: any seed passes; the tolerances are about
        # 4 Monte Carlo standard errors at R = 1,000 (0.0010 for the mean, 0.0007 for the spread)
        "expected": [1000, -0.06666666666666667, 0.03277], "tol": [0, 0.0045, 0.003], "summary": "moments",
        "minutes": 11,
        "slips": [
            ([1000, None, 0.0], "All your means are equal: every pass drew the same positions, or each took every query once. Create rng once, before the loop, not inside it (a generator made afresh repeats its first draw), and draw with replacement: rng.integers(0, Q, size=Q), not replace=False or a permutation.", [0, 0, 1e-9]),
            ([120000, -0.06666666666666667, None], "boot_means holds 120,000 numbers: each pass appended its 120 drawn changes. Append each resample's mean, d[picks].mean().", [0, 0.01, 0]),
            ([1000, 0.06666666666666667, 0.03277], "Your means centre on +0.067, the wrong sign: that is A - B. The change is d = B - A; resample d as it is.", [0, 0.0045, 0.003]),
            ([1000, -0.06666666666666667, 0.1135], "Your means spread far too widely, as when each resample draws fewer than Q positions: draw Q = 120 positions per resample, rng.integers(0, Q, size=Q).", [0, 0.02, 0.02]),
            ([1000, -0.06666666666666667, 0.0577], "Your means spread too widely: that is what drawing A's and B's scores separately gives. Draw one set of positions per resample and take d at them, so each query's A and B travel together.", [0, 0.006, 0.006]),
            ([1000, -8.0, 3.93], "These are sums of the drawn changes: divide by Q for each resample's mean.", [0, 0.6, 0.4]),
            ([1000, 59.5, 3.16], "You averaged the query positions: take the changes at them, d[picks], and average those.", [0, 0.6, 0.4]),
            ([1, None, None], "boot_means holds one mean: append each resample's mean inside the loop, 1,000 times.", 0),
            ([1000, 0.725, 0.04], "Those are resampled means of one system's scores (A's near 0.758, B's near 0.692): resample the changes d = B - A, d[picks].mean().", [0, 0.045, 0.01]),
            ([120, None, None], "boot_means holds 120 values, one resample's changes: append the mean of each resample, 1,000 times.", 0),
            # 10 or 100 resamples: about 4 Monte Carlo standard errors at that size
            ([10, -0.06666666666666667, 0.03277], _TOO_FEW, [0, 0.04, 0.025]),
            ([100, -0.06666666666666667, 0.03277], _TOO_FEW, [0, 0.015, 0.012]),
            ([None, -0.06666666666666667, 0.03277], "Your means look right, but there are not 1,000 of them: the exercise asks for 1,000 resamples, range(1000).", [0, 0.0045, 0.003]),
        ],
        "solution": """# my guess: most within about 0.06 of -0.067
rng = np.random.default_rng(2024)  # any seed
boot_means = []
for _ in range(1000):
    picks = rng.integers(0, Q, size=Q)  # Q positions, with replacement
    boot_means.append(d[picks].mean())  # this resample's mean change
print(f"{len(boot_means):,} means: centre {np.mean(boot_means):+.3f}, "
      f"spread (standard deviation) {np.std(boot_means):.3f}")
# They pile up around the observed -0.067; most lie within two spreads (0.066) of it.""",
    },
    "1.2": {
        "name": "ends", "what": "the two ends (low, high) of the middle 95% of loop_means, by the example's rule",
        # loop_means is the example's own loop (seed 7): the rule gives s[125] = -16/120, s[4875] = -1/120
        "expected": [-0.13333333333333333, -0.008333333333333333], "tol": 5e-4,
        "minutes": 4,
        "slips": [
            ([-0.175, -0.13333333333333333], "Those are s[2] and s[97]: 2.5 and 97.5 are percents, not positions. The positions are int(0.025 * R) and min(R - 1, int(0.975 * R))."),
            ([-0.058333333333333334, -0.058333333333333334], "Those are the means at positions 125 and 4,875 before sorting: sort first, s = sorted(loop_means)."),
            ([-0.15833333333333333, -0.09166666666666666], "Those are s[25] and s[975], the positions for R = 1,000: here R is 5,000, so the low end is s[int(0.025 * 5000)] = s[125]."),
            ([-0.1875, -0.1438], "np.percentile takes percents: 2.5 and 97.5, not 0.025 and 0.975.", 1e-3),
            ([-0.008333333333333333, -0.13333333333333333], "The ends are swapped: give the low end first, (low, high)."),
            ([-0.125, -0.016666666666666666], "Those are the ends of the middle 90%, s[int(0.05 * R)] and s[int(0.95 * R)]: a 95% interval leaves out 2.5% on each side, so the positions are int(0.025 * R) and min(R - 1, int(0.975 * R))."),
        ],
        "solution": """# my guess: it just reaches zero
s = sorted(loop_means)
ends = (s[int(0.025 * R)], s[min(R - 1, int(0.975 * R))])  # positions 125 and 4,875
print(f"middle 95%: [{ends[0]:+.3f}, {ends[1]:+.3f}]")
# One grid step (1/120) below zero, on these draws: section 7 asks how solid that is.""",
    },
    "1.3": {
        "name": "width_ratio", "what": "the 480-query interval's width divided by interval's width, a number",
        # about 1/2 for any seed and rule (0.47 to 0.48 here): the width shrinks as 1/sqrt(Q)
        "expected": [0.5], "tol": 0.06,
        "slips": [
            ([1.0], "Your resamples still draw 120 positions (from the first 120 queries): draw len(d4) = 480 positions from all 480 queries, rng.integers(0, 480, size=(R, 480)).", 0.1),
            ([2.0], "That is the old width over the new one: divide the 480-query interval's width by interval's width.", 0.25),
        ],
        "solution": '''d4 = np.tile(d, 4)  # 480 queries, the same mix of changes
means4 = helpers.paired_bootstrap(d4, n_resamples=R, rng=1)
interval4 = helpers.percentile_interval(means4)
width_ratio = (interval4.high - interval4.low) / (interval.high - interval.low)
print(f"480 queries: [{interval4.low:+.3f}, {interval4.high:+.3f}]; "
      f"width ratio {width_ratio:.2f}")
# About half, not a quarter: the width shrinks like 1/sqrt(Q), and sqrt(4) = 2.''',
    },
    "1.4": {
        "name": "shuffled_width", "what": "the width of the 95% interval from the shuffled pairs, a number",
        "expected": [0.21666666666666665], "tol": 5e-4,
        "slips": [([0.125], "That is the width of the example's paired interval: bootstrap the differences of the shuffled pairs, b_shuffled - a.")],
        "solution": '''b_shuffled = np.random.default_rng(0).permutation(b)
shuffled_means = helpers.paired_bootstrap(b_shuffled - a, n_resamples=R, rng=7)
shuffled_interval = helpers.percentile_interval(shuffled_means)
shuffled_width = shuffled_interval.high - shuffled_interval.low
rows = [("real pairs", interval), ("shuffled pairs", shuffled_interval),
        ("unpaired", unpaired_interval)]
for name, iv in rows:
    print(f"{name:<15} [{iv.low:+.3f}, {iv.high:+.3f}]  width {iv.high - iv.low:.3f}")
# Shuffled pairs lose the shared difficulty: the interval is as wide as the unpaired one
# (with hit@5 both even land on the same grid points of 1/120 here).''',
    },
    "2.1": {
        "name": "all_means", "what": "the 256 resampled means, a list or array (checked by its size, mean and spread)",
        "summary": "moments", "minutes": 6,
        "expected": [256, 0.025, 0.028613807855648994], "tol": 1e-9,
        "slips": [
            ([35, 0.025, 0.03619392214170771], "Those are the 35 multisets (combinations_with_replacement), each counted once. Ordered draws with replacement come from itertools.product(range(4), repeat=4)."),
            ([24, 0.025, 0.0], "Those are the 24 orderings without replacement (permutations): each holds every query once, so every mean is +0.025. A resample draws with replacement: itertools.product(range(4), repeat=4)."),
            ([1, 0.025, 0.0], "That is one mean (the original sample's, or the one combination of four queries out of four); give all 256 means, one per draw."),
            ([64, 0.025, 0.03304037933599835], "Those are the 64 draws of three positions (repeat=3); a resample of four queries has four positions: repeat=4."),
            ([256, 0.1, 0.11445523142259598], "Those are the sums of the four picked changes; divide each sum by 4 for its mean."),
            ([256, 1.5, 0.5590169943749475], "You averaged the query positions (0 to 3): take the changes at them, d[list(draw)], and average those.", 1e-6),
            ([256, 0.000390625, 0.00044709074774451553], "Those are the sums divided by 256, the number of draws: each draw's mean divides its sum by 4, the queries it holds.", 1e-6),
            # a set keeps each distinct mean once: 24 values, or 50 with the sums' rounding noise
            ([24, 0.02541666666666667, 0.04115308480404463], "Those are the distinct means, each once (a set drops repeats): keep all 256 means, one per draw, repeats included.", 1e-6),
            ([50, 0.022100000000000005, 0.03495840385372307], "Those are the distinct means, each once (a set drops repeats): keep all 256 means, one per draw, repeats included.", 1e-6),
        ],
        "solution": """# my guess: +0.025, the observed mean, since every query is picked equally often
import itertools

all_means = []
for draw in itertools.product(range(4), repeat=4):  # (0, 0, 0, 0), (0, 0, 0, 1), ...
    all_means.append(sum(d[i] for i in draw) / 4)  # i is a query index, 0 for q1
print(f"{len(all_means)} means, averaging {helpers.signed(np.mean(all_means))}")""",
    },
    "2.2": {
        "name": "exact_interval", "what": "the exact 95% interval as (low, high), read from the 256 sorted means",
        "minutes": 3,
        "expected": [-0.035, 0.08], "tol": 5e-4,
        "slips": [
            ([0.04, 0.01], "Those are positions 6 and 249 of the means in draw order: sort them first."),
            ([0.08, -0.035], "Those are the right ends the wrong way round: give (low, high), the smaller first."),
            ([-0.02, 0.07], "That is a 90% interval: for 95%, positions int(0.025 * 256) and int(0.975 * 256) of the sorted means, counting from 0."),
            ([-0.058725, -0.04], "np.percentile takes percentages (2.5 and 97.5), not shares (0.025 and 0.975); or read positions int(0.025 * 256) and int(0.975 * 256) of the sorted means."),
            ([-0.06, 0.1], "That is the whole range, lowest mean to highest (min and max, or the rule read off the 24 distinct means). The 95% interval leaves 2.5% out at each end: sort all 256 means, repeats included, and read positions int(0.025 * 256) and min(255, int(0.975 * 256))."),
            ([-3.5, 8.0], "Those look like percentages (out of 100): give the ends as the means themselves, decimals in the scores' own units.", 0.05),
        ],
        "solution": """# my guess: it contains zero, since one of the four changes is a loss
s = sorted(means)  # or sorted(all_means): the same 256 numbers
exact_interval = (s[int(0.025 * 256)], s[min(255, int(0.975 * 256))])  # 6 and 249
low, high = exact_interval
print(f"exact 95% interval [{low:+.3f}, {high:+.3f}]")
# Positions 5 to 8 all hold -0.035 and 247 to 250 hold +0.080, so here a position off
# by one (counting from 1, or rounding 249.6 up) gives the same ends; with 5,000 random
# means it need not.""",
    },
    "2.3": {
        "name": "no_q3", "what": "how many of the 256 draws never pick q3, a whole number",
        "expected": [81], "tol": 1e-9,
        "slips": [
            ([175], "Those are the draws that include q3 at least once; count the rows in which no position is q3 (index 2)."),
            ([27], "That is 3^3: a draw has four positions, and each must avoid q3, so 3 x 3 x 3 x 3."),
            ([64], "That is 4^3, the draws whose first position is fixed; each of the four positions must avoid q3: 3^4."),
            ([0.31640625], "That is the share of the 256 draws; the question asks for the count.", 1e-3),
        ],
        "solution": '''# my guess: each position avoids q3 with chance 3/4, so (3/4)^4 of 256
no_q3 = int(np.sum(~(draws == 2).any(axis=1)))  # rows with no index 2 (q3)
print(f"{no_q3} of 256 draws leave out q3: {no_q3 / 256:.3f} = (3/4)^4")
# With Q queries a resample leaves out a given query with chance (1 - 1/Q)^Q, about 37%
# for large Q: chapter 1's one resample left out 46 of its 120 queries.''',
    },
    "2.4": {
        "name": "five_interval", "what": "the exact 95% interval (low, high) of the five changes, or the Interval itself",
        "expected": [-0.028, 0.068], "tol": 5e-4,
        "slips": [
            ([-0.035, 0.08], "That is the four-pair interval: add q5's change 0.0 to the changes first."),
            ([-0.03, 0.07], "Those are the 5^4 = 625 draws of four positions: a resample of five queries draws five, so 5^5 = 3,125 draws."),
        ],
        "solution": '''d5 = np.append(d, 0.0)  # q5: an unchanged query
means5 = d5[helpers.enumerate_resamples(5)].mean(axis=1)
five_interval = helpers.percentile_interval(means5)
low, high = five_interval
print(f"{means5.size:,} ordered resamples; exact interval [{low:+.3f}, {high:+.3f}]")
# Narrower: each mean now averages five changes, one of them 0, so the means sit closer.''',
    },
    "2.5": {
        "name": "bad_interval", "what": "the exact 95% interval (low, high), or the Interval itself",
        "expected": [-0.14, 0.08], "tol": 5e-4,
        "slips": [([-0.035, 0.08], "That is the interval of the original changes: set q3's change to -0.20 first.")],
        "solution": '''d_bad = np.array([0.10, 0.02, -0.20, 0.04])
bad_means = d_bad[helpers.enumerate_resamples(4)].mean(axis=1)
bad_interval = helpers.percentile_interval(bad_means)
low, high = bad_interval
print(f"mean change {d_bad.mean():+.3f}, exact interval [{low:+.3f}, {high:+.3f}]")
# The low end falls: resamples that draw q3 two or three times now have far lower means.
# The high end comes from resamples without q3 (mostly q1), so it does not move.''',
    },
    "3.1": {
        "name": "interval_90", "what": "the exact 90% interval as (low, high)",
        "minutes": 6,
        "expected": [-0.125, -0.016666666666666666], "tol": 5e-4,
        "slips": [
            ([-0.13333333333333333, 0.0], "That is the 95% interval; the question asks for 90% (level=0.90)."),
            ([-0.13333333333333333, -0.025], "Both ends are one grid step (1/120) too low: an off-by-one order statistic. The rule takes the smallest v with F(v) > 0.05 (and > 0.95), the first value past the level."),
        ],
        "solution": '''iv90 = helpers.percentile_interval(exact.values, 0.90, weights=exact.probabilities)
print(f"exact 90% interval: [{iv90.low:+.3f}, {iv90.high:+.3f}]")
for k in (-3, -2, -1):
    print(f"F({k}/120) = {exact.cdf(k / Q):.4f}")
# At 90% the threshold is 0.95. F(-3/120) is below it and F(-2/120) above, so the upper
# end is -2/120: the exact 90% interval excludes zero, by two grid steps.
interval_90 = (iv90.low, iv90.high)''',
    },
    "3.2": {
        "name": "smallest_R", "what": "a number of resamples R from the grid 100,000 ... 500,000",
        "expected": [400_000], "tol": 0.5,
        "slips": [
            ([300_000], "At R = 300,000 the probability is about 0.989, just short of 0.99; look one step further."),
            ([317_934], "That is the binomial approximation; the question asks for the smallest R on the grid that reaches 0.99 exactly."),
        ],
        "solution": '''smallest_R = None
for n in (100_000, 200_000, 300_000, 400_000, 500_000):
    e = helpers.endpoint_distribution(exact.values, exact.probabilities, n_resamples=n)
    p_zero = e.high[np.isclose(e.values, 0)].sum()
    print(f"R = {n:>7,}: P(upper end is 0) = {p_zero:.4f}")
    if smallest_R is None and p_zero >= 0.99:
        smallest_R = n
gap = 0.975 - F_below
R_approx = 2.33**2 * F_below * (1 - F_below) / gap**2
print(f"binomial approximation: R = 2.33^2 F (1 - F) / gap^2 = {R_approx:,.0f}")
print(f"smallest R on the grid: {smallest_R:,}")''',
    },
    "3.3": {
        "name": "my_exact", "what": "a function returning (values, probabilities), the exact bootstrap distribution of the mean",
        "calls": [([0.10, 0.02, -0.06, 0.04],), ([0.3, -0.1, 0.0, 0.0, 0.25],)], "summary": "distribution",
        "expected": [24, 1.0, 0.025, 0.00081875, 38, 1.0, 0.09, 0.00488], "tol": 1e-9,
        "slips": [
            ([24, 1.0, 0.025, 0.00131, 38, 1.0, 0.09, 0.008133333333333334], "The multisets are not equally likely: weight each by its number of orderings, Q! / (c_1! ... c_Q!), divided by Q**Q."),
            ([24, 256, 0.025, 0.00081875, 38, 3125, 0.09, 0.00488], "Those are numbers of ordered draws; divide them by Q**Q to get probabilities."),
        ],
        "solution": '''import itertools


def exact_mean_distribution(changes):
    changes = np.asarray(changes, dtype=float)
    n = len(changes)
    total = Counter()
    for m in itertools.combinations_with_replacement(range(n), n):
        counts = Counter(m).values()  # how often each position occurs
        ways = math.factorial(n) // math.prod(math.factorial(c) for c in counts)
        total[round(float(changes[list(m)].mean()), 12)] += ways
    values = np.array(sorted(total))
    return values, np.array([total[v] for v in values]) / n**n


values4, probs4 = exact_mean_distribution(helpers.FOUR_PAIR_CHANGES)
iv4 = helpers.percentile_interval(values4, weights=probs4)
print(f"{len(values4)} distinct means; exact 95% interval "
      f"[{iv4.low:+.3f}, {iv4.high:+.3f}]")
my_exact = exact_mean_distribution''',
    },
    "4.1": {
        "name": "resample_mean", "what": "the mean change of the resample U1, U3, U3, a number",
        "minutes": 5,
        "expected": [0.05], "tol": 5e-4,
        "slips": [
            ([0.046666666666666676], "That is the average of the three drawn users' means; the resample's mean change is over its query rows: the total change of the rows divided by their number."),
            ([0.05333333333333334], "U3 was drawn twice, so U3's query q4 comes twice: the resample has four rows, not three."),
            ([-0.006666666666666669], "That draws the queries at positions 0, 2, 2 (q1, q3, q3). A user resample draws users and brings all of each drawn user's queries: U1 brings q1 and q2, U3 brings q4."),
            ([0.025], "That is the original sample's mean change; take the mean over the resample's rows."),
        ],
        "solution": '''# my guess: four rows (U1 brings two queries, U3 one, twice); above +0.025, without U2
drawn = ["U1", "U3", "U3"]
rows = [q for u in drawn for q in range(len(d)) if users[q] == u]  # each one's queries
print(f"rows: {[ex['query_ids'][q] for q in rows]}")
resample_mean = d[rows].mean()
print(f"mean change of this resample: {resample_mean:+.4f}")
# (0.10 + 0.02 + 0.04 + 0.04) / 4 = +0.05: four rows from three users. A user drawn
# twice brings all of their queries twice: the number of rows varies from draw to draw.''',
    },
    "4.2": {
        "name": "misses_above_below", "what": "two counts (above, below), for example (40, 10)",
        "minutes": 6,
        "expected": [169, 188], "tol": 0.5,
        "slips": [
            ([188, 169], "The two counts are swapped: give the intervals wholly above the truth first (low end > TRUTH), then those wholly below it (high end < TRUTH)."),
            ([26, 33], "Those are the user-cluster intervals (user_iv); the question asks about the query-level ones, query_iv."),
            ([7, 6], "Those are the 40 studies of the figure; count over all 1,000 studies in query_iv."),
            ([812, 831], "Those count intervals that reach past the truth on one side, most of which contain it. An interval is wholly above the truth when its low end is above it: query_iv[:, 0] > TRUTH (and wholly below when query_iv[:, 1] < TRUTH)."),
        ],
        "solution": '''above = int(np.sum(query_iv[:, 0] > TRUTH))  # the whole interval lies above the truth
below = int(np.sum(query_iv[:, 1] < TRUTH))  # the whole interval lies below it
print(f"query-level intervals that miss: {above} above the truth, {below} below it "
      f"({above + below} of {N_STUDIES:,})")
user_above = int(np.sum(user_iv[:, 0] > TRUTH))
user_below = int(np.sum(user_iv[:, 1] < TRUTH))
print(f"user-cluster intervals that miss: {user_above} above, {user_below} below")
# The misses fall on both sides in about equal numbers: the query-level intervals are
# centred well but too narrow. Resampling users widens them; it does not shift them.
misses_above_below = (above, below)''',
    },
    "4.3": {
        "name": "my_user_means", "what": "a function user_means(d, users, idx) returning one query-weighted mean per row of idx",
        "calls": [([0.10, 0.02, -0.06, 0.04], ["U1", "U1", "U2", "U3"], _ALL_27), ([0.1, -0.2, 0.3, 0.0, 0.05, -0.1], ["u1", "u1", "u1", "u2", "u3", "u3"], _ALL_27)],
        "summary": "moments", "expected": [27, 0.0205925925925926, 0.029915427201303482, 27, 0.02072971781305114, 0.0271047848675352], "tol": 1e-12,
        "slips": [
            ([27, 0.013333333333333338, 0.030307070437746345, 27, 0.013888888888888888, 0.022337663114471887], 'That is the average of the drawn users\' means (weighting="cluster"); the question asks for the query-weighted mean: total change of the drawn queries over their number.'),
            ([27, 0.03333333333333334, 0.042513614377131095, 27, 0.04999999999999999, 0.06236095644623235], "You divided by the number of users drawn; divide by the number of query rows the drawn users bring."),
        ],
        "solution": '''def user_means(d, users, idx):
    t = helpers.cluster_totals(d, users)  # per-user total change and query count, once
    idx = np.asarray(idx)
    return t.sums[idx].sum(axis=1) / t.counts[idx].sum(axis=1)


all_27 = user_means(d, users, helpers.enumerate_resamples(3))
assert np.allclose(all_27, exact.query_weighted, rtol=0, atol=1e-12)  # section 2's
my_user_means = user_means''',
    },
    "4.4": {
        "name": "coverages_no_user_effect", "what": "the two coverages as (query-level, user-cluster)",
        "expected": [0.9566666666666667, 0.94], "tol": 1e-3,
        "slips": [
            ([0.94, 0.9566666666666667], "The order is swapped: give the query-level coverage first, then the user-cluster one."),
            ([0.643, 0.941], "Those are section 4's coverages, with user effects on: pass user_sd=0.0."),
        ],
        "solution": '''runs = coverage_run(300, np.random.default_rng(5), n_resamples=500, user_sd=0.0)
no_effect = report(*runs)
coverages_no_user_effect = (no_effect[0][0], no_effect[1][0])
# Without user effects the queries really are independent: the two intervals have about
# the same width and about the same coverage (with 300 studies the standard errors are
# about 0.013).
# Resampling users costs little when it is not needed, and saves you when it is.''',
    },
    "5.1": {
        "name": "p_four", "what": "the exact two-sided p-value of the four pairs, a number between 0 and 1",
        "expected": [0.625], "tol": 1e-9, "minutes": 6,
        "slips": [
            ([0.375], "Two slips give 6 of 16 here. A strict > leaves out the 4 assignments exactly as extreme as the observed one (the observed signs are one): compare abs(mean) >= abs(observed). Or you took 1 - p, the share of the 6 less extreme ones: the p-value counts those at least as extreme."),
            ([0.3125], "That is the one-sided p (mean >= observed); two-sided compares abs(mean) >= abs(observed)."),
            ([10], "That is a count of assignments; divide by 16 (= 2**4, all of them) for the p-value.", 1e-9),
            ([0.5625], _OBSERVED), ([0.6], _OBSERVED),
            ([11 / 17], "(count + 1) / (R + 1) is for Monte Carlo draws; when every assignment is listed, p = count / 2**n."),
            ([0.6275], "Close, but rounded: give the share itself, count / 16, not a rounded value.", 0.0076),
            ([62.5], "That looks like a percentage: give p as a share between 0 and 1.", 0.6),
        ],
        "solution": '''# my guess: more than half, since +2.5 points is small beside changes of 10 and 6 points
far = abs(four.mean())  # the observed mean, +2.5 points
extreme = 0
for signs in itertools.product((+1, -1), repeat=4):
    flipped = np.array(signs) * four  # one sign assignment, in points
    extreme += abs(flipped.mean()) >= far  # the equally extreme ones count: >=
p_four = extreme / 16
print(f"{extreme} of 16 assignments at least as extreme: p = {p_four:.4f}")
# The changes are whole points, so every sum is whole: equal means compare equal.
# More than half: label-swapping alone gives a change this large more often than not.''',
    },
    "5.2": {
        "name": "p_less", "what": "the one-sided p-value for 'B is worse' (alternative='less'), a number",
        "expected": [0.0384063720703125], "tol": 5e-4,
        "slips": [
            ([0.076812744140625], "That is the two-sided p-value; the question asks for the one-sided alternative='less'."),
            ([0.9893646240234375], "That is alternative='greater' (is B better?); the worry was that B is worse: alternative='less'."),
        ],
        "solution": '''p_less = helpers.randomization_test(d, alternative="less").pvalue
assert abs(res.pvalue / p_less - 2) < 1e-12  # two-sided = twice the one-sided
print(f"one-sided (B worse): p = {p_less:.4f}; two-sided: p = {res.pvalue:.4f}")
# The null distribution is symmetric, so the one-sided p is half the two-sided one.
# Choosing the side after seeing that B scored lower would quietly halve every p-value:
# the test would then reject a true null hypothesis twice as often as it claims.''',
    },
    "5.3": {
        "name": "more", "what": "two numbers: the mean change over the 1,120 queries, then the exact two-sided p-value",
        "expected": [-0.007142857142857143, 0.076812744140625], "tol": [5e-5, 5e-4],
        "slips": [
            ([-0.06666666666666667, None], "That is the mean over the 120 queries: average over all 1,120, the unchanged ones included."),
            ([0.076812744140625, -0.007142857142857143], "The order is swapped: give the mean change first, then the p-value."),
            ([None, 0.0384063720703125], "That is a one-sided p-value; the question asks for the two-sided one."),
        ],
        "solution": '''d_more = np.concatenate([d, np.zeros(1000)])  # 1,000 unchanged queries
res_more = helpers.randomization_test(d_more)
more = (res_more.statistic, res_more.pvalue)
print(f"Q = {len(d_more):,}: mean change {res_more.statistic:+.4f} "
      f"(was {res.statistic:+.4f}), p = {res_more.pvalue:.4f} (was {res.pvalue:.4f})")
# The mean change shrinks about ninefold, but p does not move: unchanged queries cannot
# flip, so the same 2**16 assignments decide it. A p-value measures how consistent the
# data are with "no difference", not how large or important the difference is.''',
    },
    "5.4": {
        "name": "R_needed", "what": "the number of random sign vectors R, a whole number",
        # any p read from the printed 0.0768 to the prompt's 0.077, with ceil, round or int:
        # 17,725 to 17,768 (17,729 from res.pvalue and ceil)
        "expected": [17746.5], "tol": 21.5,
        "slips": [
            ([11875], "You used p = 0.05; use the exact p-value of the 120 queries, about 0.077."),
            ([62500], "That is the worst case p = 0.5; the question asks for p near the exact 0.077."),
            ([36], "The standard error is sqrt(p(1 - p)/R), so R = p(1 - p) / SE**2: square the 0.002."),
        ],
        "solution": '''p = res.pvalue
R_needed = math.ceil(p * (1 - p) / 0.002**2)
mc = helpers.randomization_test(d, n_resamples=R_needed, rng=3)
se = math.sqrt(p * (1 - p) / R_needed)
print(f"R = {R_needed:,}: Monte Carlo p = {mc.pvalue:.4f}, exact p = {p:.4f}, "
      f"difference {mc.pvalue - p:+.4f} (standard error {se:.4f})")
# The standard error sqrt(p(1 - p)/R) falls like 1/sqrt(R): halving it takes four
# times as many draws. Reading p as the printed 0.0768 or as 0.077, or rounding R
# instead of ceil, gives 17,725 to 17,768: the check accepts all of them.''',
    },
    "6.1": {
        "name": "survives", "what": "one True/False per p-value, in the order given, for whether it survives Holm at 5%",
        "expected": [0, 1, 0, 1], "tol": 0, "minutes": 6,
        "slips": [
            ([0, 1, 0, 0], "That is Bonferroni: every p against 0.05/4. Holm relaxes the threshold as it goes: the j-th smallest p is compared with 0.05/(4 - j + 1), that is 0.05/4, 0.05/3, 0.05/2, 0.05/1."),
            ([0, 1, 1, 1], "Holm stops at the first sorted p-value that fails its threshold: every larger p-value is kept, even one that would pass its own threshold."),
            ([1, 1, 1, 1], "Each p was compared with 0.05 itself: that is no correction at all. Holm compares the j-th smallest with 0.05/(4 - j + 1)."),
            ([1, 1, 0, 0], "Those are in sorted order; give each answer in the place of its own p-value, in the order given."),
            ([1, 1, 0, 1], "Those are in sorted order, and Holm did not stop at the first failure: give each answer in the place of its own p-value, and once one sorted p-value fails, keep every larger one."),
            ([0.027, 0.004, 0.035, 0.015], "Those are the p-values themselves: give True or False for each, in the same order, for whether it survives Holm at 5%.", 1e-9),
            ([0.054, 0.016, 0.054, 0.045], "Those are Holm-adjusted p-values: give True or False for each instead, for whether it survives (an adjusted p at most 0.05 survives).", 1e-9),
        ],
        "solution": '''p = np.array([0.027, 0.004, 0.035, 0.015])
survives = np.zeros(4, dtype=bool)
for j, i in enumerate(np.argsort(p)):  # j = 0 for the smallest p
    threshold = 0.05 / (4 - j)  # 0.05/4, 0.05/3, 0.05/2, 0.05/1
    print(f"p = {p[i]:.3f} against 0.05/{4 - j} = {threshold:.4f}")
    if p[i] > threshold:
        break  # the first failure: it and every larger p-value are kept
    survives[i] = True
assert list(survives) == list(helpers.holm(p).rejected)
print(f"survive Holm: {p[survives].tolist()}; uncorrected, all four are below 0.05")
# 0.004 and 0.015 survive. 0.027 fails 0.05/2 = 0.025, and Holm stops there, so 0.035
# is kept as well, although it is below 0.05/1: once one test fails, no larger p can
# be rejected. Bonferroni (every p against 0.0125) would reject only 0.004.''',
    },
    "6.2": {
        "name": "verdicts", "what": "three numbers, +1, -1 or 0 each (shown, ruled out, neither): the useful gain, the latency guardrail, the tail guardrail",
        "expected": [0, -1, 0], "tol": 0, "minutes": 5,
        "slips": [
            ([1, -1, 0], "The primary was compared with zero. The plan asks for a useful gain: the whole interval above +0.01."),
            ([1, -1, -1], "Those are the point estimates against the limits. A verdict reads the interval: shown when all of it is on the good side, ruled out when all of it is on the bad side."),
            ([1, -1, 1], "Only the favourable end was read. A limit is shown to hold when the whole interval is on its good side: the lower end for a gain, the upper end for latency."),
            ([-1, -1, -1], "Not shown is not ruled out: an interval across its limit gives neither verdict (0). Ruled out needs the whole interval on the bad side."),
            ([0, 1, 0], "Latency is a guardrail where lower is better: it is shown to hold only if the whole interval lies below +25 ms, and broken if the whole interval lies above."),
            ([0, -1, -1], "The tail guardrail is not ruled out: its interval [-0.095, -0.035] reaches above -0.05, although its middle lies below. Ruled out needs the whole interval on the bad side; across the limit, the verdict is 0."),
        ],
        "solution": '''def verdict(low, high, limit, better):  # better: "above" or "below" the limit
    if better == "above":
        return 1 if low > limit else (-1 if high < limit else 0)
    return 1 if high < limit else (-1 if low > limit else 0)


verdicts = (
    verdict(*primary_iv, USEFUL, "above"),
    verdict(*latency_iv, LATENCY_MAX, "below"),
    verdict(*tail_iv, TAIL_MIN, "above"),
)
print(f"useful gain {verdicts[0]:+d}, latency guardrail {verdicts[1]:+d}, "
      f"tail {verdicts[2]:+d}")
# Read by eye, the same. A gain is shown (above zero), but not a useful one: the
# interval crosses +0.01. Latency is broken: the whole interval lies above +25 ms.
# The tail guardrail is neither shown nor broken: its interval crosses -0.05.
# B does not ship: the ship rule needs all three shown (+1). A wider tail interval
# around the same middle still crosses -0.05, so its verdict stays 0; and latency
# alone stops B: the decision does not rest on the tail's 14 queries.''',
    },
    "6.3": {
        "name": "claims", "what": "two whole numbers: the findings claimed when the primary p is 0.08, and when it is 0.01",
        "expected": [0, 3], "tol": 0.01,
        "slips": [
            ([2, 3], "That is the naive rule. Under gatekeeping the secondaries are tested only after the primary succeeds: with the primary at p = 0.08, nothing may be claimed."),
            ([0, 2], "That is Bonferroni on the secondaries (every p times 3); Holm multiplies the second smallest by 2 only."),
            ([0, 1], "Once the primary succeeds, the secondaries are tested too (with Holm); count the primary and each rejected secondary."),
        ],
        "solution": '''secondary = [0.001, 0.6, 0.02]
claims = []
for p_primary in (0.08, 0.01):
    confirmed = 0
    if p_primary <= 0.05:  # the gate: secondaries are tested only after the primary succeeds
        confirmed = 1 + int(helpers.holm(secondary).rejected.sum())
    claims.append(confirmed)
    print(f"primary p = {p_primary}: {confirmed} confirmed finding(s)")
claims = tuple(claims)
# (a) Nothing is confirmed. The head slice's p = 0.001 is reported as exploratory, labelled so,
# and confirmed on new queries before anyone acts on it. (b) Holm: 0.001 x 3 = 0.003 and 0.02 x 2 = 0.04
# pass, 0.6 does not: the primary, head and tail.''',
    },
    "6.4": {
        "name": "holm_reject", "what": "a function holm_reject(pvalues) returning one True/False per p-value (Holm at 0.05), in the given order",
        "calls": [(p,) for p in _HOLM], "tol": 0,
        "expected": [1, 0, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0, 1],
        "slips": [
            ([1, 0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0], "Your function applies Bonferroni (every p against 0.05/m). Holm compares the j-th smallest with 0.05/(m - j + 1)."),
            ([1, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1], "Holm stops at the first sorted p-value that fails its threshold: every larger p-value is kept too, even one that would pass its own threshold."),
        ],
        "solution": '''def holm_reject(pvalues):
    p = np.asarray(pvalues, dtype=float)
    m = len(p)
    reject = np.zeros(m, dtype=bool)
    for j, i in enumerate(np.argsort(p, kind="stable")):
        if p[i] > 0.05 / (m - j):
            break  # stop at the first failure
        reject[i] = True
    return reject


mine = np.array([holm_reject(p).any() for p in p_null[:, :4]])
assert np.array_equal(mine, holm_all_four)  # the same studies as section 6's one family
print(f"any rejection, my function: {mine.mean():.1%} of studies")''',
    },
    "6.5": {
        "name": "queries_for_plan", "what": "the number of judged queries, a whole number", "minutes": 5,
        # helpers.queries_needed(d, smallest_useful=0.02, power=0.9): the t method, exact
        "expected": [216], "tol": 0,
        "slips": [
            ([176], "That plans a one-sided test (alternative='greater'); the plan's test is two-sided, the default."),
            ([162], "That is power 0.8, the default: this plan asks for power=0.9."),
            ([1437], "That uses the spread of A's scores; the paired comparison's noise is the spread of the changes d = B - A."),
            ([1535], "That uses the spread of B's scores; the paired comparison's noise is the spread of the changes d = B - A."),
            ([2], "Power and alpha are swapped: power=0.9 is the chance of detecting the gain, alpha=0.05 the false-alarm rate."),
            ([11], "That asks for power 0.1 (the miss rate, 1 - 0.9); pass power=0.9."),
        ],
        "solution": '''plan = helpers.queries_needed(d, smallest_useful=0.02, power=0.9)  # alpha 0.05, two-sided
queries_for_plan = plan.queries
print(f"{queries_for_plan} queries (power {plan.power:.3f}; the pilot's SD {plan.sd:.4f})")
# Fewer than for +0.01: the queries needed shrink with the square of the change, so twice the
# change needs about a quarter of the queries (at power 0.8: 162 against 641).''',
    },
    "7.1": {
        "name": "drop_change", "what": "the mean change B - A over the 148 queries left after dropping q047 and q121, a number",
        # 6e-5 also accepts the same change from trec_eval's four-decimal files (missing='drop')
        "expected": [0.0011174979621162758], "tol": 6e-5, "minutes": 6,
        "slips": [
            ([-0.007793425623659396], "That is the change over all 150 queries; leave out q047 and q121, the two queries B retrieved nothing for (b.unretrieved), first."),
            ([-0.0011174979621162758], "That is A minus B: the change is B - A.", 8e-6),
            ([-0.0011343210976436818], "You left out q121 only; B retrieved nothing for q047 too (b.unretrieved lists both).", 8e-6),
            ([-0.0056014114201798065], "You left out q047 only; B retrieved nothing for q121 too (b.unretrieved lists both)."),
        ],
        "solution": '''ids = report.runs.query_ids
keep = [i for i, q in enumerate(ids) if q not in b.unretrieved]
drop_change = (report.runs.b[keep] - report.runs.a[keep]).mean()
print(f"mean change, all 150 queries: {helpers.signed(report.mean_change, 4)}")
print(f"without q047 and q121: {helpers.signed(drop_change, 4)}")
# Up: B scores 0 on both dropped queries and A does not, so both are losses for B,
# and leaving them out turns a small loss into a small gain. The report gives the
# 150-query change: for a user, no results is a failure. A comparison that drops
# queries says which, and why.''',
    },
    "7.2": {
        "name": "mean_change_c", "what": "a function mean_change_c(a, b, topics) returning a number",
        # B is missing a topic; a judged topic neither run retrieved; a topic only B retrieved
        "calls": [({"t1": 0.5, "t2": 0.25, "t3": 0.75}, {"t1": 0.75, "t3": 0.5}, ["t1", "t2", "t3"]),
                  ({"t1": 0.5, "t2": 0.25}, {"t1": 0.75, "t2": 0.5}, ["t1", "t2", "t3"]),
                  ({"t1": 0.5}, {"t1": 0.5, "t2": 1.0}, ["t1", "t2"])],
        "expected": [-1 / 12, 1 / 6, 0.5], "tol": 1e-9, "minutes": 5,
        "slips": [
            ([-1 / 12, 0.25, 0.5], "It averages over the queries the runs retrieved; a judged topic that neither run retrieved must count too, as 0. Loop over topics."),
            ([0.0, 0.25, 0.0], "It drops topics a run is missing, like missing='drop'; trec_eval -c scores them 0 instead."),
        ],
        "solution": '''def mean_change_c(a, b, topics):
    return sum(b.get(q, 0.0) - a.get(q, 0.0) for q in topics) / len(topics)


# B's scores as trec_eval -q writes them: only the queries B retrieved documents for
retrieved_b = {q: s for q, s in b.scores.items() if q not in b.unretrieved}
change = mean_change_c(a.scores, retrieved_b, qrels.topics)
print(f"mean change over the {len(qrels.topics)} judged topics: "
      f"{helpers.signed(change, 4)}")
# the same as the report's: evaluate already scores those topics 0''',
    },
    "7.3": {
        "name": "tail_interval", "what": "the tail slice's 95% interval, two numbers (low, high)",
        "expected": [-0.13175404889013753, 0.0004462161588799983], "tol": 5e-4,
        "slips": [
            ([-0.1197619696920458, -0.009692815201482307], "That is the 90% interval; the question asks for 95%."),
            ([-0.004116202780841794, 0.12825896039638782], "That is the head slice; the question asks about tail queries."),
            ([-0.04234537905058106, 0.027582718285724502], "That is the interval over all queries; the question asks about the tail slice."),
        ],
        "solution": '''types = [users.slices[q] for q in report.runs.query_ids]
slices = helpers.slice_summary(
    report.runs.a, report.runs.b, types,
    n_resamples=10_000, rng=2026, order=["head", "torso", "tail"],
)
for row in slices.rows:
    low, high = (helpers.signed(x, 3) for x in row.interval)
    change = helpers.signed(row.change, 3)
    print(f"{row.slice:<12} {row.n:>3} queries, change {change}, "
          f"95% interval [{low}, {high}]")
tail = slices.row("tail").interval
tail_interval = (tail.low, tail.high)
# B leans positive on head queries and negative on tail queries, and each slice's
# interval is wider than the overall one. An unplanned split is exploratory: report it
# with these intervals as a lead for a new, planned evaluation (chapter 6), not as a
# finding.''',
    },
    "7.4": {
        "name": "reading", "what": "three whole numbers (count, reason for expansion on P_5, reason for tuned on P_5): how many cells have an interval that excludes zero but no mark, and the number of each cell's reason (1 to 4)",
        "expected": [2, 3, 4], "tol": 0,
        "slips": [
            ([7, None, None], "That counts every cell whose interval excludes zero, or every cell without a mark. Count the cells that are both: c.interval.excludes(0) and not c.marked."),
            ([5, None, None], "That counts the marked cells, or the unmarked cells whose interval contains zero. Count the unmarked cells whose interval excludes zero."),
            ([2, 1, None], "No mark is not no change: both intervals lie wholly above zero. A cell without a mark shows only that the table does not claim a change there."),
            ([2, None, 1], "No mark is not no change: both intervals lie wholly above zero. A cell without a mark shows only that the table does not claim a change there."),
            ([2, 2, None], "The legend says every interval and p-value in this table is exact, with no random numbers. Ask what each one covers: one cell, or all 12 comparisons."),
            ([2, None, 2], "The legend says every interval and p-value in this table is exact, with no random numbers. Compare tuned's p-value on P_5 with 0.05."),
            ([2, 4, 3], "Swapped: expansion on P_5 has p 0.0074 on its own, below 0.05, and loses its mark only to the correction over 12; tuned on P_5 has p 0.0580 before any correction."),
            ([2, 4, None], "expansion on P_5 has p 0.0074 on its own, below 0.05: its test agrees with its interval. What takes its mark is the correction over all 12 comparisons."),
            ([2, None, 3], "tuned on P_5 has p 0.0580 before any correction, above 0.05: the correction is not what leaves it unmarked. Compare its p-value with its interval."),
        ],
        "solution": '''clear = [c for c in table.cells if c.interval.excludes(0) and not c.marked]
for c in clear:
    low, high = (helpers.signed(x, 4) for x in c.interval)
    print(f"{c.run} on {c.measure}: interval [{low}, {high}], p {c.pvalue:.4f}, "
          f"adjusted p {c.adjusted:.4f}")
reading = (len(clear), 3, 4)
# expansion on P_5 (3): p 0.0074 on its own, 0.0521 adjusted. Its interval is a 95%
# interval for that cell alone; a mark needs an adjusted p of at most 0.05, with all
# 12 comparisons counted.
# tuned on P_5 (4): p 0.0580 before any correction. The percentile interval and the
# randomization test are two methods, and near zero they can disagree.
# No mark is not no change: both intervals lie above zero; the table just does not
# claim these changes.''',
    },
}

# The multiple-choice checks: the prompt ({names} filled in by helpers.quiz), the options in
# the order shown, the right one's index and one explanation per option.
QUIZZES = {
"0.q1": {
"prompt": 'For one query, m_A(q) = 0.40 and m_B(q) = 0.35. What is d_q, and which system did better on that query?',
"options": ['d_q = +0.05; B did better.', 'd_q = -0.05; A did better.', 'd_q = -0.05; B did better, because lower is better.', 'It cannot be said without the other queries.'],
"answer": 1,
"explanations": ["d_q is B's score minus A's: 0.35 - 0.40 = -0.05.", 'd_q = m_B(q) - m_A(q) = 0.35 - 0.40 = -0.05: negative means A scored higher on this query.', 'For measures such as nDCG and hit@5, higher scores are better.', "A per-query change needs only that query's two scores."],
},
"1.q1": {
"prompt": "What share of the 5,000 means lies between the example's two ends, ends included?",
"options": ['Exactly 95%: the interval is named after it.', 'More than 95%: many means equal an end, and the ends count as inside.', 'Less than 95%: the ends themselves are left out.', 'About 50%: the interval is centred on the observed change.'],
"answer": 1,
"explanations": ['95% is what the rule aims at; with ties on the ends the share inside is more.', 'Every mean is a multiple of 1/120, so many resamples share each end\'s value, and all of them count as inside: the next cell counts them.', 'The rule reads the ends off the sorted means, so the ends are means too, and they count as inside.', 'The interval holds the middle 95% of the means, not half of them.'],
},
"1.q2": {
"prompt": "The example's loop gave [-0.133, -0.008]; other seeds give that or [-0.133, +0.000]. What do these intervals let you say?",
"options": ['B is worse than A with 95% probability, since the interval is 95%.', "B is as good as A, because some seeds' intervals include zero.", 'Report a seed whose interval excludes zero: every seed is valid.', 'B may be worse by up to 0.133, or as good; zero is a seed away.'],
"answer": 3,
"explanations": ['A 95% interval is not a probability that B is worse: the 95% is how often the procedure covers the true change over repeated samples of queries.', 'Including zero fails to establish a difference; it does not show there is none: the same intervals include losses of up to 0.133.', 'Choosing the seed after seeing the result is selection: the reported interval would overstate the evidence.', 'The interval is a range of changes compatible with the data; its upper end sits within Monte Carlo error of zero: other seeds reach it.'],
},
"1.q3": {
"prompt": 'Why compare two search systems with paired per-query differences?',
"options": ['Difficulty shared by both systems cancels, leaving less noise.', 'It doubles the data: each query gives two scores instead of one.', 'It makes the comparison faster, as only differences are stored.', 'It removes the need for relevance judgements on shared queries.'],
"answer": 0,
"explanations": ['A hard query drags both scores down; the difference removes what they share, so smaller real differences become detectable.', 'Pairing keeps Q queries; it does not create new ones. Each query contributes one difference.', 'Pairing is about the analysis, not speed: both systems are still scored on every query.', 'Each query still needs judged results to score both systems.'],
},
"2.q1": {
"prompt": 'All 256 resamples were enumerated, so there is no Monte Carlo error. Why is the 95% interval still not trustworthy?',
"options": ['256 resamples are too few; 10,000 random ones would make it trustworthy.', 'The order of the draws was ignored, though order changes the mean.', 'Four queries say little about all queries; enumeration cannot fix that.', 'nDCG changes cannot be averaged, so the mean change is not defined.'],
"answer": 2,
"explanations": ['There are only 256 distinct ordered resamples; 10,000 random ones would just repeat them, with added Monte Carlo error.', 'Order does not affect a mean: the draws q1, q1, q3, q4 and q3, q4, q1, q1 have the same mean.', 'The bootstrap treats the four observed queries as the whole population; enumeration removes the error of random resampling, not the uncertainty of having judged only four.', 'They can: the mean change is the difference of the mean nDCGs, as in chapter 1.'],
},
"3.q1": {
"prompt": 'Ten judged queries give a 95% percentile interval of [+0.004, +0.051] for the mean change. What may you claim?',
"options": ['B is better than A with probability 95%, as the interval excludes zero.', 'Less than it seems: at ten queries it covers under 95%; judge more.', 'The true mean change certainly lies between +0.004 and +0.051.', 'Nothing about a gain can be said until the interval reaches zero.'],
"answer": 1,
"explanations": ['An interval is not a probability that B is better; and at ten queries it is not even a reliable 95% interval.', 'At n = 10 the percentile interval covered 0.850 of the time in section 5, so the evidence is weaker than it looks. Compute the t interval too.', 'No interval makes that certain; and at small n the percentile interval misses more often than it claims (section 5).', 'An interval that excludes zero is evidence of a change; the problem here is that this one is too narrow for ten queries.'],
},
"3.q2": {
"prompt": 'Two 5,000-resample paired bootstraps of the same 120 queries give upper ends -0.008 and 0.000. What settles which one is right?',
"options": ['Keep the seed of the original analysis, since it came first.', 'Average the two upper ends; an average of two seeds is more stable.', "Switch to BCa, which corrects the percentile interval's bias.", 'Compute the exact distribution and read the same rule off it.'],
"answer": 3,
"explanations": ["A seed is not evidence: the first analysis's seed is as random as any other.", 'An average of two grid points is not a value of the distribution, and more seeds would give other averages.', 'BCa is a different rule, not a cure for Monte Carlo error: its ends move with the seed too (section 6).', 'The disagreement is Monte Carlo error; the exact distribution (sections 2 and 3) has none, and a very large R approaches it.'],
},
"4.q1": {
"prompt": 'A team reports the average of the user means instead of the mean over queries. What did that choice change?',
"options": ['What is estimated: each user counts once, not each query.', 'How the data must be resampled: users, not single queries.', 'Nothing: the two averages are equal whenever users are independent.', "It removes the dependence between one user's several queries."],
"answer": 0,
"explanations": ['It changes what is being estimated: the experience of the average user rather than of the average search.', 'The resampling unit follows from how the data were sampled (users, each with a block of queries), not from which average is reported.', 'They differ whenever users send different numbers of queries and B helps them differently: +0.0250 and +0.0133 here.', 'The dependence is in the data; a different average does not remove it. Resampling whole users accounts for it.'],
},
"4.q2": {
"prompt": 'A study has 2,000 judged queries from 40 users, about 50 each, and B helps some users much more than others. What should the bootstrap resample to give an honest interval for the mean change?',
"options": ['Queries: 2,000 of them give a precise answer.', "A's and B's scores separately.", 'Users, each with all of their queries.', 'It does not matter with 2,000 queries.'],
"answer": 2,
"explanations": ["The 2,000 queries are not 2,000 independent draws: each user's 50 share that user's effect, so the interval would be far too narrow.", 'That breaks the pairing of chapter 1, and still treats queries as independent.', 'A repeat of the study would bring 40 new users, so the 40 users are the independent units; their queries travel together.', 'Size does not remove the dependence: with 40 users the evidence is closer to 40 units than to 2,000.'],
},
"5.q1": {
"prompt": 'The exact randomization test on the 120 queries gives p of about 0.077. Which statement is right?',
"options": ['Under interchangeable A and B, 7.7% of sign assignments are at least this extreme.', 'There is a 7.7% probability that A and B are in fact interchangeable on these queries.', 'B is 7.7% worse than A, averaged over the 120 judged queries of the example.', 'Since p is above 0.05, the test has shown that A and B perform equally well.'],
"answer": 0,
"explanations": ['That is the definition: a probability computed under the null hypothesis, of data at least as extreme as observed.', 'The calculation assumes the null hypothesis is true; it cannot also give the probability that it is true.', 'A p-value is not an effect size. The mean change is -0.067; its uncertainty is what the interval describes.', 'Not rejecting is not proving: 16 discordant queries cannot rule out a real difference of this size.'],
},
"6.q1": {
"prompt": "You tried 20 rankers on the same 200 test queries. The best one's 95% paired bootstrap interval is [+0.004, +0.031]. What can you conclude?",
"options": ['B is better than A with 95% confidence, since its interval excludes zero.', 'The interval is too wide: rerun the bootstrap with more resamples.', 'Apply Holm to this one interval, and the selection effect goes away.', 'Little: it won partly by luck; test it once on held-out queries.'],
"answer": 3,
"explanations": ['That would hold for one configuration chosen in advance. The best of 20 has the luckiest noise, and its interval misses the truth far more often than 5%.', 'More resamples reduce Monte Carlo error, not the selection effect: the queries are the same and so is their luck.', 'Holm adjusts a family of p-values that were all reported. Here 19 comparisons were dropped silently; the remedy is held-out queries (or adjusting for all 20 tests).', 'Choosing and measuring on the same queries inflates both the estimate and the false-positive rate; fresh queries give an honest estimate.'],
},
"7.q1": {
"prompt": "The 95% interval for B - A is [{low}, {high}] and p = {p}. What may you write?",  # filled in by the chapter
"options": ['B is no better than A: the interval contains zero.', 'There is a 95% probability that the true change lies in this interval.', "No change was detected; losses or gains up to its ends fit the data.", 'B is worse than A, since the mean change is negative.'],
"answer": 2,
"explanations": ['Failing to detect a change is not showing there is none: the interval also contains gains.', 'A 95% interval comes from a procedure that covers the true change in 95% of studies; it is not a probability about this one.', "Report the interval's ends and how wide it is; more queries would narrow it.", 'The sign of a mean change whose interval contains zero is not established.'],
},
"7.q2": {
"prompt": "Run B returned no results for two queries, so trec_eval without -c left them out of B's file. What should the comparison do?",
"options": ['Score them 0 for B, as trec_eval -c does, and say so.', 'Drop the two queries, since they have no score for B.', "Give them B's average score over the other queries.", "Compare the two runs' 'all' summary rows from trec_eval."],
"answer": 0,
"explanations": ['Returning nothing is a real failure for the user; scoring it 0 counts it, and the policy is recorded.', "Dropping hides B's failures and flatters B; if you do drop, the report must say so.", 'That invents a score B never earned.', 'The summary rows average over different query sets, so they are not paired.'],
},
}
# fmt: on
