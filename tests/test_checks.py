"""helpers._checks: the shared input rules, one rule each, each against every kind of input once.

The public functions call these rules at entry; the table at the end (``ARGUMENTS_REFUSED``)
shows that each teaching function routes every argument through its rule and names the argument
(the toolkit's functions show it in their own files' ``test_<function>_iv``). Here each rule is
tried with every kind of input a user could plausibly pass by mistake. Each must either work
correctly or raise a ``ValueError`` whose message names the argument and says what to fix; never
a bare numpy or Python error, never a silently wrong answer.

* ``scores`` (behind every function taking scores, changes, values or weights):
  integer arrays, boolean arrays (0/1), generators (consumed once) and pandas Series (when pandas
  is installed) give exactly the floats; lists of strings, 2-D arrays, ragged lists, None, a
  mapping, a scalar, a single string, a set (no order, repeats dropped), a masked array with
  masked entries, complex numbers and an empty input are refused with a message.
* ``clusters``: one cluster label per query, every kind of labels (behind ``cluster_totals``,
  ``cluster_bootstrap`` and ``enumerate_cluster_resamples``).
* ``integer``, ``seed``, ``generator``, ``level``, ``boolean``, ``one_of``, ``labels``,
  ``weights``: the other rules. Pairing two systems' scores (``paired``) is tried in
  tests/test_data.py, through ``paired_differences``; the rule for runs (mappings
  ``{query_id: score}``) in tests/test_alignment.py.
"""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from plain import TWO_D, plain

import helpers as h
from helpers import _checks

OTHER = [0.5, 0.25, 0.75, 0.5]


def _generator(values):
    return (v for v in values)


# --- scores: inputs that must work, giving the same numbers as a list of floats -----------------

WORKING = {
    "integer list": lambda ints: list(ints),
    "int64 array": lambda ints: np.array(ints, dtype=np.int64),
    "int8 array": lambda ints: np.array(ints, dtype=np.int8),
    "uint8 array": lambda ints: np.array(ints, dtype=np.uint8),
    "float32 array": lambda ints: np.array(ints, dtype=np.float32),
    "tuple": lambda ints: tuple(ints),
    "generator": lambda ints: _generator([float(v) for v in ints]),
    "dict values": lambda ints: {f"q{i}": v for i, v in enumerate(ints)}.values(),
    "masked array, nothing masked": lambda ints: np.ma.array(np.array(ints, dtype=float)),
}


@pytest.mark.parametrize("kind", list(WORKING))
def test_numeric_inputs_of_any_type_give_the_float_result(kind):
    ints = [2, 0, 1, 3]
    out = _checks.scores(WORKING[kind](ints), "changes")
    assert out.dtype == np.float64 and out.ndim == 1
    assert out.tolist() == [2.0, 0.0, 1.0, 3.0]


def test_boolean_arrays_and_lists_are_zero_one():
    assert _checks.scores(np.array([True, False, True])).tolist() == [1.0, 0.0, 1.0]
    assert _checks.scores([True, False, True]).tolist() == [1.0, 0.0, 1.0]


def test_the_result_is_a_new_array():
    x = np.array([0.1, 0.2])
    out = _checks.scores(x)
    assert out is not x and not np.shares_memory(out, x)


def test_a_generator_is_consumed_once_and_completely():
    consumed = []

    def changes():
        for v in [0.1, 0.2, -0.3, 0.4]:
            consumed.append(v)
            yield v

    assert _checks.scores(changes()).tolist() == [0.1, 0.2, -0.3, 0.4]
    assert consumed == [0.1, 0.2, -0.3, 0.4]


def test_pandas_series_works_and_a_data_frame_is_refused():
    pd = pytest.importorskip("pandas")  # not a dependency of the series; checked where installed
    s = pd.Series([2, -1, 0, 3], index=["q1", "q2", "q3", "q4"])
    assert _checks.scores(s).tolist() == [2.0, -1.0, 0.0, 3.0]
    with pytest.raises(ValueError, match="changes must be one-dimensional"):
        _checks.scores(pd.DataFrame({"a": [2, -1], "b": [0, 3]}), "changes")
    with pytest.raises(ValueError, match="contain NaN or infinite values at position 1"):
        _checks.scores(pd.Series([1, None, 3], dtype="Int64"))


class _TableLike:
    """Stands in for a pandas DataFrame (pandas is not a dependency): iterating gives the column
    labels.
    """

    def __init__(self, columns: dict[int, list[float]]):
        self.columns = columns

    def __iter__(self):
        return iter(self.columns)

    def to_numpy(self):
        return np.column_stack(list(self.columns.values()))


def test_a_table_is_read_by_its_values_not_by_iterating_over_its_column_labels():
    # Iterating a DataFrame with columns 0 and 1 gives [0, 1]: it would be read as two scores.
    with pytest.raises(ValueError, match=r"one-dimensional .* got shape \(4, 2\)"):
        _checks.scores(_TableLike({0: [0.1, 0.2, 0.3, 0.4], 1: [0.2, 0.2, 0.2, 0.2]}))
    with pytest.raises(ValueError, match=r"got shape \(4, 1\)\. .*np\.ravel"):
        _checks.scores(_TableLike({0: [0.1, 0.2, 0.3, 0.4]}))


# --- scores: inputs that must be refused with a message that says what to fix --------------------

REFUSED = {  # kind: (a function making the input afresh, what the message must say)
    "list of strings": (
        lambda: ["0.1", "0.2", "-0.3", "0.4"],
        r"must be numbers; found non-numeric value\(s\) .*convert text to numbers first",
    ),
    "numbers mixed with text": (  # only the text is named: numpy turns 0.5 into '0.5' too
        lambda: [0.5, "x", 0.25, "y"],
        r"must be numbers; found non-numeric value\(s\) 'x', 'y'; convert text",
    ),
    "list with None": (
        lambda: [0.1, None, -0.3, 0.4],
        r"must be numbers; found non-numeric value\(s\) None",
    ),
    "2-D array": (
        lambda: np.array([[0.1, 0.2], [-0.3, 0.4]]),
        r"must be one-dimensional .*got shape \(2, 2\)\. .*paired_differences\(a, b\)",
    ),
    "column vector": (
        lambda: np.array([[0.1], [0.2], [-0.3], [0.4]]),
        r"got shape \(4, 1\)\. .*np\.ravel",
    ),
    "two systems stacked": (
        lambda: (OTHER, OTHER),
        r"got shape \(2, 4\)\. .*paired_differences\(a, b\)",
    ),
    "ragged list": (lambda: [[0.1, 0.2], [0.3]], r"must be a flat sequence of numbers"),
    "None": (lambda: None, r"must be a sequence of numbers; got NoneType"),
    "dict": (
        lambda: {"q1": 0.1, "q2": 0.2, "q3": -0.3, "q4": 0.4},
        r"is a mapping; pass its values",
    ),
    "float scalar": (lambda: 0.5, r"must be a sequence of numbers; got float"),
    "numpy scalar": (lambda: np.float64(0.5), r"must be a sequence of numbers; got float64"),
    "0-d array": (lambda: np.array(0.5), r"must be one-dimensional .*got shape \(\)"),
    "single string": (
        lambda: "0.1 0.2 -0.3 0.4",
        r"must be a sequence of numbers, not a single string",
    ),
    "set": (lambda: {0.1, 0.2, -0.3, 0.4}, r"is a set, which has no order"),
    "masked array": (
        lambda: np.ma.array([0.1, 0.2, -0.3, 0.4], mask=[0, 1, 0, 0]),
        r"masked array with 1 masked value\(s\).*compressed\(\).*filled",
    ),
    "complex array": (
        lambda: np.array([0.1, 0.2, -0.3, 0.4j]),
        r"must be real numbers; got an array of dtype complex128",
    ),
    "NaN": (
        lambda: [0.1, float("nan"), -0.3, 0.4],
        r"contain NaN or infinite values at position 1; remove or fix",
    ),
    "infinity": (lambda: [0.1, 0.2, -np.inf, 0.4], r"contain NaN or infinite values at position 2"),
    "empty list": (lambda: [], r"is empty: at least one query is needed"),
    "empty generator": (lambda: _generator([]), r"is empty"),
}


@pytest.mark.parametrize("kind", list(REFUSED))
def test_mistaken_scores_are_refused_with_a_message_naming_the_argument(kind):
    make, pattern = REFUSED[kind]
    with pytest.raises(ValueError) as err:
        _checks.scores(make(), "A's scores")
    message = str(err.value)
    assert message.startswith("A's scores "), message
    assert re.search(pattern, message), message
    assert "array([" not in message and "inhomogeneous" not in message, message


def test_non_finite_scores_are_named_by_query_id_when_labels_are_given():
    with pytest.raises(ValueError, match=r"changes contain NaN or infinite values at query 'q2'"):
        _checks.scores([0.1, float("nan")], "changes", labels=["q1", "q2"])


def test_scores_returns_a_new_array_every_time():
    given = np.array([0.1, 0.2])
    assert _checks.scores(given) is not given


# --- the other rules -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "x, minimum, match",
    [
        (0, 1, r"n_resamples must be a positive integer; got 0\."),
        (-1, 1, r"positive integer; got -1\."),
        (2.5, 1, r"positive integer; got 2\.5\."),
        ("100", 1, r"positive integer; got '100'\."),
        (True, 1, r"positive integer; got True\."),  # a bool is not a count
        (None, 1, r"positive integer; got None\."),
        (-1, 0, r"n_resamples must be a non-negative integer; got -1\."),
        (2, 3, r"n_resamples must be an integer >= 3; got 2\."),
        # scores passed where a count goes are named as values, not printed
        (np.array([0.6, 0.3, 0.7]), 1, r"positive integer; got a ndarray of values\."),
        ([0.6, 0.3, 0.7], 1, r"positive integer; got a list of values\."),
    ],
)
def test_integer_iv(x, minimum, match):
    with pytest.raises(ValueError, match=match):
        _checks.integer(x, "n_resamples", minimum=minimum)


def test_integer_accepts_numpy_integers_and_returns_an_int():
    out = _checks.integer(np.int64(3), "n")
    assert out == 3 and type(out) is int
    assert _checks.integer(0, "top", minimum=0) == 0


@pytest.mark.parametrize("x", [-1, 1.0, "7", None, True, np.random.default_rng(0)])
def test_seed_iv(x):
    with pytest.raises(ValueError, match=r"rng must be a non-negative int so that .*; got"):
        _checks.seed(x, "rng", " so that it repeats")


def test_seed_returns_an_int():
    assert type(_checks.seed(np.int32(7))) is int and _checks.seed(0) == 0


@pytest.mark.parametrize(
    "rng, match",
    [
        (None, r"rng is required: pass an int seed"),
        (-1, r"rng seed must be a non-negative integer; got -1"),
        (1.5, r"rng must be an int seed or a numpy\.random\.Generator; got float"),
        ("7", r"got str"),
        (True, r"got bool"),
        (np.random.RandomState(0), r"got RandomState"),
    ],
)
def test_generator_iv(rng, match):
    with pytest.raises(ValueError, match=match):
        _checks.generator(rng)


def test_generator_passes_a_generator_through_and_seeds_a_new_one():
    g = np.random.default_rng(1)
    assert _checks.generator(g) is g
    assert _checks.generator(7).random() == np.random.default_rng(7).random()


@pytest.mark.parametrize("x", [0, 1, 1.5, 95, -0.1, float("nan"), float("inf"), "0.95", True, None])
def test_level_iv(x):
    with pytest.raises(
        ValueError, match=r"level must be a number strictly between 0 and 1 \(e\.g\. 0\.95\)"
    ):
        _checks.level(x)


def test_level_is_read_as_the_decimal_it_was_written_as():
    assert _checks.level(0.95) == Fraction(19, 20)
    assert _checks.level(np.float32(0.5)) == Fraction(1, 2)


@pytest.mark.parametrize(
    "x, match",
    [
        ("abc", r"slice labels must be a sequence with one label per query; got str"),
        (None, r"got NoneType"),
        ({"a", "b", "c"}, r"got set"),
        ({"q1": "a", "q2": "b", "q3": "c"}, r"got dict"),
        (["a", "b"], r"2 slice labels were given for 3 queries"),
    ],
)
def test_labels_iv(x, match):
    with pytest.raises(ValueError, match=match):
        _checks.labels(x, 3, "slice labels")


def test_labels_are_text_in_query_order():
    assert _checks.labels(np.array([3, 1, 3]), 3, "slice labels") == ["3", "1", "3"]
    assert _checks.labels(("a", "b"), 2, "query IDs") == ["a", "b"]


@pytest.mark.parametrize(
    "x, match",
    [
        ([[1.0], [2.0]], r"probabilities must be one-dimensional"),
        ([1.0, 2.0], r"one entry per value: 3 values but 2 probabilities"),
        ([1.0, -1.0, 2.0], r"non-negative; found 1 negative value\(s\), e\.g\. -1"),
        ([0.0, 0.0, 0.0], r"probabilities are all zero"),
        ([1.0, float("nan"), 1.0], r"probabilities contain NaN"),
    ],
)
def test_weights_iv(x, match):
    with pytest.raises(ValueError, match=match):
        _checks.weights(x, 3, "probabilities")


def test_weights_may_be_zero_but_not_all():
    assert _checks.weights([1, 0, 3], 3).tolist() == [1.0, 0.0, 3.0]
    assert _checks.weights((w for w in [1, 2, 3]), 3).tolist() == [1, 2, 3]


def test_name_some_names_up_to_five_in_order():
    assert _checks.name_some(["b", "a"]) == "'a', 'b'"
    assert _checks.name_some(range(8), 3) == "0, 1, 2 and 5 more"


# --- cluster labels ------------------------------------------------------------------------------

LABELS_REFUSED = {
    "None": (
        None,
        r"clusters must be a sequence with one cluster label .* per query, .*; got NoneType\.",
    ),
    "scalar": (3.0, r"clusters must be a sequence with one cluster .* query, .*; got float\."),
    "single string": ("aabc", r"not a single string, a mapping or a set"),
    "dict": (
        {"q1": "a", "q2": "a", "q3": "b", "q4": "c"},
        r"\(not a single string, a mapping or a set, which has no order\); got dict\.",
    ),
    "set": (
        {"a", "b", "c", "d"},
        r"\(not a single string, a mapping or a set, which has no order\); got set\.",
    ),
    "2-D array": (
        np.array([["a", "a"], ["b", "c"]]),
        r"clusters must be one-dimensional .*got shape \(2, 2\)",
    ),
    "wrong length": (["a", "b"], r"changes has 4 values but clusters has 2 labels"),
    "label None": (["a", None, "b", "c"], r"missing label \(None\) at position 1"),
    "label NaN": ([1.0, float("nan"), 2.0, 3.0], r"missing label \(nan\) at position 1"),
    "labels as lists": (
        [["a"], ["a"], ["b"], ["c"]],
        r"clusters must be one-dimensional .*got shape \(4, 1\)",
    ),
    "unhashable labels": (
        [{"u": 1}, {"u": 1}, {"u": 2}, {"u": 3}],
        r"cluster labels must be hashable .* got dict at position 0",
    ),
    "one cluster": (["u1"] * 4, r"all 4 queries belong to one cluster \('u1'\)"),
}

LABELS_WORKING = {  # kind: (a function making the labels afresh, the same grouping as strings)
    "list of strings": (lambda: ["a", "a", "b", "c"], ["x", "x", "y", "z"]),
    "integer array": (lambda: np.array([7, 7, 1, 2]), ["x", "x", "y", "z"]),
    "boolean array": (lambda: np.array([True, True, False, False]), ["x", "x", "y", "y"]),
    "generator": (lambda: (u for u in ["a", "a", "b", "c"]), ["x", "x", "y", "z"]),
    "tuple": (lambda: ("a", "a", "b", "c"), ["x", "x", "y", "z"]),
}


def test_clusters_are_numbered_by_first_appearance_and_refused_with_a_message():
    for make, same in LABELS_WORKING.values():
        assert _checks.clusters(make(), 4)[1].tolist() == _checks.clusters(same, 4)[1].tolist()
    labels, codes = _checks.clusters(["b", "a", "b", "c"], 4)
    assert (labels, codes.tolist()) == (["b", "a", "c"], [0, 1, 0, 2])
    for value, match in LABELS_REFUSED.values():
        with pytest.raises(ValueError, match=match):
            _checks.clusters(value, 4)


def test_one_of_names_the_argument_and_the_options():
    assert _checks.one_of("drop", "missing", ("error", "drop")) == "drop"
    for value in ["Drop", None, 1, ["drop"], np.array(["drop", "error"])]:
        with pytest.raises(ValueError, match=r"^missing must be one of 'error', 'drop'; got "):
            _checks.one_of(value, "missing", ("error", "drop"))


def test_boolean_takes_only_true_and_false():
    assert _checks.boolean(True, "check_topics") is True
    assert _checks.boolean(False, "check_topics") is False
    for value in [0, 1, "yes", None, np.True_]:
        with pytest.raises(ValueError, match=r"^check_topics must be True or False; got "):
            _checks.boolean(value, "check_topics")


# --- every teaching function's arguments, each through its rule --------------------------------
# One table instead of a test_<function>_iv per function: each row gives a function one bad
# argument (the others good) and the start of the message it must get; the rule itself is tried
# with every kind of input above. (The toolkit's functions keep theirs in their own test files.)

D4 = [0.1, 0.2, -0.3, 0.4]
USERS = ["U1", "U1", "U2", "U3"]
LEVELS_REFUSED = [0, 1, 1.5, -0.1, float("nan"), "0.95", True]
COUNTS_REFUSED = [0, -1, 2.5, "100", True]
DRAWS_REFUSED = [0, -1, 257, 2.0, 28.0, "28", True]  # k = 0 used to draw means[-1]


def _ax():
    from matplotlib.figure import Figure

    return Figure().subplots()


def _explorer_image(**kwargs):
    """The explorer's first picture, as a stand-in that names what the explorer asked to draw
    (its changes, draw, level and query IDs): what the arguments' rules decide, without drawing
    (half a second a picture; tests/test_widgets.py draws the real ones)."""
    import helpers.widgets

    def stand_in(d, k, half_alpha, query_ids):
        return repr((d.tolist(), k, half_alpha, list(query_ids))).encode()

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(helpers.widgets, "_explorer_png", stand_in)
        return h.resample_explorer(**kwargs).children[3].value


def _decision_args():
    from matplotlib.figure import Figure

    return {
        "labels": ["gain", "latency", "tail"],
        "estimates": [0.014, 68.5, -0.064],
        "intervals": [(0.003, 0.026), (32.1, 86.4), (-0.095, -0.035)],
        "limits": [0.01, 25.0, -0.05],
        "better": ["above", "below", "above"],
        "xlabels": ["nDCG@10", "ms", "nDCG@10"],
        "limit_labels": ["useful", "at most +25 ms", "at least -0.05"],
        "fig": Figure(),
    }


#: name: (the function, its good arguments); made afresh for each call (a new Axes each time)
CALLS = {
    "paired_bootstrap": (h.paired_bootstrap, lambda: {"changes": D4, "n_resamples": 50, "rng": 0}),
    "resample": (
        h.resample,
        lambda: {"n": 3, "statistic": lambda i: i.mean(axis=1), "n_resamples": 5, "rng": 0},
    ),
    "unpaired_bootstrap": (
        h.unpaired_bootstrap,
        lambda: {"a": OTHER, "b": D4, "n_resamples": 50, "rng": 0},
    ),
    "paired_bootstrap_statistic": (
        h.paired_bootstrap_statistic,
        lambda: {"a": OTHER, "b": D4, "statistic": h.mean_difference, "n_resamples": 10, "rng": 0},
    ),
    "quantile_difference": (h.quantile_difference, lambda: {"q": 0.5}),
    "exact_means": (h.exact_means, lambda: {"changes": D4}),
    "collapse_to_multisets": (h.collapse_to_multisets, lambda: {"draws": np.array([[0, 1]])}),
    "exact_bootstrap_distribution": (h.exact_bootstrap_distribution, lambda: {"changes": D4}),
    "cluster_totals": (h.cluster_totals, lambda: {"changes": D4, "clusters": USERS}),
    "cluster_bootstrap": (
        h.cluster_bootstrap,
        lambda: {"changes": D4, "clusters": USERS, "n_resamples": 50, "rng": 5},
    ),
    "cluster_bootstrap, by user": (
        h.cluster_bootstrap,
        lambda: {
            "changes": D4,
            "clusters": USERS,
            "n_resamples": 50,
            "rng": 5,
            "weighting": "cluster",
        },
    ),
    "enumerate_cluster_resamples": (
        h.enumerate_cluster_resamples,
        lambda: {"changes": D4, "clusters": USERS},
    ),
    "percentile_interval": (
        h.percentile_interval,
        lambda: {"values": OTHER, "weights": [1.0, 1.0, 2.0, 1.0]},
    ),
    "endpoint_distribution": (
        h.endpoint_distribution,
        lambda: {"values": OTHER, "probabilities": [0.25] * 4, "n_resamples": 10},
    ),
    "exact_bootstrap_interval": (h.exact_bootstrap_interval, lambda: {"changes": D4}),
    "randomization_test": (h.randomization_test, lambda: {"changes": D4}),
    "randomization_test, Monte Carlo": (
        h.randomization_test,
        lambda: {"changes": D4, "n_resamples": 50, "rng": 0},
    ),
    "shifted_bootstrap_test": (
        h.shifted_bootstrap_test,
        lambda: {"changes": D4, "n_resamples": 50, "rng": 0},
    ),
    "holm": (h.holm, lambda: {"pvalues": [0.01, 0.04]}),
    "paired_differences": (h.paired_differences, lambda: {"a": OTHER, "b": D4}),
    "simulated_user_study": (h.simulated_user_study, lambda: {"rng": 1}),
    "make_record": (
        h.make_record,
        lambda: {"a": D4, "b": OTHER, "rng": 1, "n_resamples": 20, "query_ids": IDS4},
    ),
    "many_tests_study": (h.many_tests_study, lambda: {"ms": [1], "rng": 1}),
    "best_of_k_study": (h.best_of_k_study, lambda: {"ks": [1, 2], "rng": 1}),
    "describe_draw": (
        h.describe_draw,
        lambda: {"k": 28, "changes": h.FOUR_PAIR_CHANGES, "query_ids": IDS4},
    ),
    "resample_explorer": (_explorer_image, lambda: {"start": 15}),
    "plot_sorted_changes": (h.plot_sorted_changes, lambda: {"changes": D4, "ax": _ax()}),
    "plot_bootstrap_distribution": (
        h.plot_bootstrap_distribution,
        lambda: {"values": D4, "ax": _ax()},
    ),
    "plot_exact_distribution": (
        h.plot_exact_distribution,
        lambda: {"values": D4, "weights": [0.25] * 4, "ax": _ax()},
    ),
    "plot_sign_assignments": (
        h.plot_sign_assignments,
        lambda: {"means": [0.2, 0.1, -0.1, -0.2], "observed": 0.1, "ax": _ax()},
    ),
    "plot_error_rates": (
        h.plot_error_rates,
        lambda: {
            "counts": [1, 2, 5],
            "rates": {"best of k": [0.025, 0.05, 0.1]},
            "nominal": 0.025,
            "ax": _ax(),
        },
    ),
    "plot_intervals_vs_truth": (
        h.plot_intervals_vs_truth,
        lambda: {"intervals": [(0.0, 0.2), (0.05, 0.3)], "truth": 0.1, "ax": _ax()},
    ),
    "plot_coverage": (
        h.plot_coverage,
        lambda: {"sizes": [4, 30], "coverages": {"percentile": [0.7, 0.9]}, "ax": _ax()},
    ),
    "plot_picked_queries": (
        h.plot_picked_queries,
        lambda: {"changes": D4, "counts": [1, 1, 1, 1], "ax": _ax()},
    ),
    "plot_null_distribution": (
        h.plot_null_distribution,
        lambda: {"null": D4, "observed": 0.1, "ax": _ax()},
    ),
    "plot_bootstrap_beside_null": (
        h.plot_bootstrap_beside_null,
        lambda: {"bootstrap": D4, "null": D4, "observed": 0.1, "axes": _axes_pair()},
    ),
    "plot_sampling_vs_bootstrap": (
        h.plot_sampling_vs_bootstrap,
        lambda: {"sample_means": D4, "bootstrap_means": D4, "truth": 0.0, "observed": 0.1},
    ),
    "plot_decision": (h.plot_decision, _decision_args),
}
IDS4 = ["q1", "q2", "q3", "q4"]


def _axes_pair():
    from matplotlib.figure import Figure

    return Figure().subplots(2, 1)


def _scores(name, arg, label=None, *, empty=True):
    """Rows for a scores argument: 2-D, empty, NaN and text refused, the message naming it."""
    label = label or arg
    bad = [(TWO_D, "must be one-dimensional"), ([0.1, float("nan")], "contain NaN")]
    bad += [(["a", "b"], "must be numbers")] + ([([], "is empty")] if empty else [])
    return [(name, arg, value, "^" + re.escape(label) + " " + msg) for value, msg in bad]


def _many(name, arg, values, match):
    return [(name, arg, value, match) for value in values]


N_RESAMPLES = r"^n_resamples must be a positive integer"
RNG = [(None, r"rng is required"), (-1, r"rng seed must be a non-negative integer")]
RNG += [(v, r"^rng must be") for v in (1.5, "7", np.random.RandomState(0))]
ALTERNATIVES = ["two_sided", "both", None, "Greater"]
LABELS = [  # cluster labels refused, and the message (every kind: the clusters rule above)
    (["u1", None, "u2", "u3"], r"clusters has a missing label"),
    ([1.0, float("nan"), 2.0, 3.0], r"missing label"),
    ([["u1"], ["u1"], ["u2"], ["u3"]], r"one-dimensional"),
    ("u1u2", r"not a single string"),
    ([{"u": 1}] * 4, r"hashable"),
    (["u1", "u2"], r"changes has 4 values but clusters has 2 labels"),
    (["u1"] * 4, r"all 4 queries belong to one cluster"),
]

ARGUMENTS_REFUSED = [
    *_scores("paired_bootstrap", "changes"),
    ("paired_bootstrap", "changes", 0.3, r"^changes must be a sequence of numbers; got float"),
    *_many("paired_bootstrap", "n_resamples", COUNTS_REFUSED, N_RESAMPLES),
    ("paired_bootstrap", "n_resamples", np.array(OTHER), r"integer; got a ndarray of values\."),
    ("paired_bootstrap", "n_resamples", OTHER, r"positive integer; got a list of values\."),
    *[("paired_bootstrap", "rng", v, m) for v, m in RNG],
    *_many("resample", "n", [0, 2.0, True], r"^n must be a positive integer"),
    ("resample", "statistic", lambda idx: idx.mean(), r"one value per resample"),
    ("resample", "n_resamples", 0, N_RESAMPLES),
    ("resample", "draws", 0, r"^draws must be a positive integer"),
    ("resample", "rng", None, r"rng is required"),
    *_scores("unpaired_bootstrap", "a", "A's scores"),
    *_scores("unpaired_bootstrap", "b", "B's scores"),
    ("unpaired_bootstrap", "b", [0.1, 0.2], r"A has 4 scores and B has 2"),
    ("unpaired_bootstrap", "a", dict(zip(IDS4, OTHER, strict=True)), r"Pass both systems the"),
    ("unpaired_bootstrap", "n_resamples", 0, N_RESAMPLES),
    ("unpaired_bootstrap", "rng", "7", r"^rng must be"),
    ("paired_bootstrap_statistic", "b", [1, 2], r"A has 4 scores and B has 2"),
    ("paired_bootstrap_statistic", "b", [1, 2, 3, float("nan")], r"B's scores contain NaN"),
    ("paired_bootstrap_statistic", "a", [], r"A's scores is empty"),
    ("paired_bootstrap_statistic", "statistic", "mean", r"statistic must be a function"),
    ("paired_bootstrap_statistic", "statistic", lambda x, y: x - y, r"one value per resample"),
    ("paired_bootstrap_statistic", "rng", None, r"rng is required"),
    ("paired_bootstrap_statistic", "n_resamples", 0, N_RESAMPLES),
    *_many(
        "quantile_difference",
        "q",
        [-0.1, 1.5, float("nan"), True, "0.95", None],
        "q must be a quantile level between 0 and 1",
    ),
    *_scores("exact_means", "changes"),
    *_many(
        "collapse_to_multisets",
        "draws",
        [[0.5, 1.0], [[0.0, 1.0]], np.zeros((0, 2), dtype=int), np.zeros((1, 2, 2), int)],
        r"^draws must be a non-empty 2-D integer array",
    ),
    (
        "collapse_to_multisets",
        "draws",
        np.array([[0, -1], [1, 1]]),
        r"^draws must be indices from 0 to n - 1 = 1; got -1 to 1",
    ),
    *_many("collapse_to_multisets", "n", [2.5, True, "4"], r"^n must be a positive integer"),
    ("collapse_to_multisets", "n", 1, r"^draws must be indices from 0 to n - 1 = 0; got 0 to 1"),
    *_scores("exact_bootstrap_distribution", "changes"),
    *_scores("cluster_totals", "changes"),
    *[("cluster_totals", "clusters", v, m) for v, m in LABELS],
    *_scores("cluster_bootstrap", "changes"),
    *[("cluster_bootstrap", "clusters", v, m) for v, m in LABELS],
    *_many("cluster_bootstrap", "n_resamples", [0, True], N_RESAMPLES),
    *[("cluster_bootstrap", "rng", v, m) for v, m in RNG],
    *_many(
        "cluster_bootstrap",
        "weighting",
        ["user", "Query", None, "queries"],
        r"^weighting must be one of 'query', 'cluster'",
    ),
    *_scores("cluster_bootstrap, by user", "changes"),
    *_many("cluster_bootstrap, by user", "n_resamples", [0, True], N_RESAMPLES),
    ("cluster_bootstrap, by user", "rng", None, r"rng is required"),
    *_scores("enumerate_cluster_resamples", "changes"),
    *[("enumerate_cluster_resamples", "clusters", v, m) for v, m in LABELS],
    *_scores("percentile_interval", "values"),
    *_many("percentile_interval", "level", LEVELS_REFUSED, r"^level must be"),
    *_scores("percentile_interval", "weights"),
    ("percentile_interval", "weights", [1.0, 2.0], r"one entry per value: 4 values but 2 weights"),
    ("percentile_interval", "weights", [1.0, -1.0, 1.0, 1.0], r"weights must be non-negative"),
    ("percentile_interval", "weights", [0.0] * 4, r"weights are all zero"),
    *_scores("endpoint_distribution", "values"),
    *_scores("endpoint_distribution", "probabilities"),
    ("endpoint_distribution", "probabilities", [0.5], r"one entry per value: 4 values but 1 prob"),
    ("endpoint_distribution", "probabilities", [-0.5, 1.5, 0, 0], r"probabilities must be non-neg"),
    *_many("endpoint_distribution", "n_resamples", [0, 2.5, True], N_RESAMPLES),
    ("endpoint_distribution", "level", 1.5, r"^level must be"),
    *_scores("exact_bootstrap_interval", "changes"),
    ("exact_bootstrap_interval", "changes", np.random.default_rng(4).normal(0, 0.1, 40), "on no g"),
    *_many("exact_bootstrap_interval", "level", LEVELS_REFUSED, r"^level must be"),
    *[
        (name, arg, value, match)
        for name in ("randomization_test", "randomization_test, Monte Carlo")
        for arg, value, match in [
            *[(a, v, m) for _, a, v, m in _scores(name, "changes")],
            ("changes", 0.3, r"^changes must be a sequence of numbers; got float"),
            *[("alternative", v, r"alternative must be") for v in ALTERNATIVES],
        ]
    ],
    *_many("randomization_test, Monte Carlo", "n_resamples", COUNTS_REFUSED, N_RESAMPLES),
    *[("randomization_test, Monte Carlo", "rng", v, m) for v, m in RNG],
    *_scores("shifted_bootstrap_test", "changes"),
    ("shifted_bootstrap_test", "changes", 0.3, r"^changes must be a sequence of numbers; got fl"),
    *_many("shifted_bootstrap_test", "alternative", ALTERNATIVES, r"alternative must be"),
    *_many("shifted_bootstrap_test", "n_resamples", COUNTS_REFUSED, N_RESAMPLES),
    *[("shifted_bootstrap_test", "rng", v, m) for v, m in RNG],
    *_scores("holm", "pvalues", "p-values"),
    ("holm", "pvalues", [0.1, 1.2], "between 0 and 1; got 1.2 at position 1"),
    ("holm", "pvalues", [-0.01], "between 0 and 1"),
    *_many("holm", "alpha", LEVELS_REFUSED, r"^alpha must be a number strictly between 0 and 1"),
    *[
        ("paired_differences", "a", a, m) if b is None else ("paired_differences", "b", b, m)
        for a, b, m in [
            (TWO_D, None, r"^A's scores must be one-dimensional"),
            (None, np.array([[0.1], [0.2], [0.3], [0.4]]), r"^B's scores must be one-dimensional"),
            (["0.5", "0.7", "1", "1"], None, r"^A's scores must be numbers"),
            ([0.5, None, 1, 1], None, r"^A's scores must be numbers; found .* None"),
            ("0.5", None, r"^A's scores must be a sequence of numbers, not a single string"),
            ([0.1, float("nan"), 1, 1], None, r"^A's scores contain NaN or infinite values at"),
            (None, [0.2, float("inf"), 1, 1], r"^B's scores contain NaN or infinite values at"),
            ([1, 2, 3], None, r"A has 3 scores and B has 4"),
            (dict(zip(IDS4, D4, strict=True)), None, r"Pass both systems the same way"),
            (None, dict(zip(IDS4, D4, strict=True)), r"got one of each"),
        ]
    ],
    ("paired_differences", "a, b", ({"q1": 1.0}, {"q1": float("nan")}), r"B's .* at query 'q1'"),
    ("paired_differences", "a, b", ([], []), r"A's scores is empty"),
    ("paired_differences", "a, b", ({}, {}), r"Both systems' score mappings are empty"),
    ("simulated_user_study", "rng", None, "rng"),
    *_many("simulated_user_study", "n_users", [0, 2.5], "n_users"),
    ("simulated_user_study", "user_sd", -1.0, "user_sd"),
    ("simulated_user_study", "user_sd", True, "user_sd must be a finite number >= 0"),
    ("simulated_user_study", "query_sd", float("nan"), "query_sd"),
    ("simulated_user_study", "truth", "0.02", "truth"),
    ("simulated_user_study", "truth", float("inf"), "truth must be a finite number; got inf"),
    *_scores("make_record", "a", "A's scores"),
    *_scores("make_record", "b", "B's scores"),
    ("make_record", "a", dict(zip(IDS4, D4, strict=True)), r"Pass both systems the same way"),
    ("make_record", "rng", None, r"rng must be a non-negative int seed so that the record can be"),
    ("make_record", "rng", np.random.default_rng(1), r"rng must be a non-negative int seed"),
    ("make_record", "rng", -1, r"rng must be a non-negative int seed"),
    *_many("make_record", "n_resamples", [0, True], N_RESAMPLES),
    ("make_record", "level", 1.5, r"^level must be"),
    ("make_record", "query_ids", ["x", "y"], r"2 query IDs were given for 4 scores"),
    ("make_record", "query_ids", ["x", "x", "y", "z"], r"query IDs must be unique"),
    ("make_record", "clusters", ["U1", "U1", "U2"], r"3 clusters were given for 4 queries"),
    ("make_record", "clusters", "U1", r"clusters must be a sequence"),
    ("make_record", "exclusions", {"q099": "  "}, r"excluded query 'q099' needs a reason"),
    ("make_record", "exclusions", ["q099"], r"exclusions must be a mapping"),
    ("make_record", "exclusions", {"q3": "too long"}, r"'q3' is both compared and excluded"),
    ("make_record", "config", {"when": object()}, r"plain JSON values"),
    ("make_record", "config", {"x": float("nan")}, r"plain JSON values"),
    ("make_record", "config", {"runs": ("A", "B")}, r"use lists instead of tuples"),
    ("make_record", "config", "nDCG@10", r"config must be a mapping"),
    ("many_tests_study", "ms", [], "ms is empty"),
    ("many_tests_study", "alpha", 5, "alpha must be"),
    ("many_tests_study", "rng", None, "rng must be"),
    ("best_of_k_study", "ks", [], "ks is empty"),
    ("best_of_k_study", "ks", [0, 2], "each k must be"),
    *_scores("describe_draw", "changes"),
    *_many("describe_draw", "k", DRAWS_REFUSED, r"k must be a draw number from 1 to 256"),
    ("describe_draw", "query_ids", "abcd", r"query_ids must be .* not a single string"),
    ("describe_draw", "query_ids", ["a", "b", "c"], r"3 query IDs for 4 changes"),
    *_scores("resample_explorer", "changes"),
    *_many("resample_explorer", "start", [*DRAWS_REFUSED, 300], r"k must be a draw number from"),
    ("resample_explorer", "level", 1.5, r"^level must be"),
    *_scores("plot_sorted_changes", "changes"),
    *_scores("plot_bootstrap_distribution", "values"),
    *_scores("plot_exact_distribution", "values"),
    *_scores("plot_exact_distribution", "weights"),
    ("plot_exact_distribution", "weights", [0.5, 0.5], r"4 values but 2 weights"),
    *_scores("plot_sign_assignments", "means"),
    *_many(
        "plot_sign_assignments",
        "observed",
        [True, "0.1", float("nan"), float("inf"), None],
        r"^observed must be a finite number",
    ),
    *_scores("plot_error_rates", "counts"),
    *_many(
        "plot_error_rates",
        "rates",
        [[0.1, 0.2, 0.3], {}, {k: [0.1] * 3 for k in "abcd"}],
        r"^rates must be a dict of 1 to 3",
    ),
    (
        "plot_error_rates",
        "rates",
        {"x": [0.1, 0.2]},
        r"rates\['x'\] must be 3 shares .* one per count; got 2",
    ),
    ("plot_error_rates", "rates", {"x": [0.1, float("nan"), 0.2]}, r"rates\['x'\] contain NaN"),
    (
        "plot_error_rates",
        "rates",
        {"x": [2.5, 5.0, 10.0]},
        r"rates\['x'\] must be 3 shares between 0 and 1 \(not percents\)",
    ),
    *_many(
        "plot_error_rates",
        "nominal",
        [5, 0.0, 1.0, "0.05", None],
        r"^nominal must be a rate between 0 and 1",
    ),
    *_many(
        "plot_intervals_vs_truth",
        "intervals",
        [[0.0, 0.2], np.empty((0, 2))],
        r"^intervals must be rows of \(low, high\)",
    ),
    (
        "plot_intervals_vs_truth",
        "intervals",
        [(0.3, 0.2)],
        r"^intervals must be \(low, high\) pairs w",
    ),
    ("plot_intervals_vs_truth", "intervals", [(0.0, float("nan"))], r"^intervals contain NaN"),
    *_many(
        "plot_intervals_vs_truth",
        "truth",
        [float("inf"), "0.1", True, None],
        r"^truth must be a finite number",
    ),
    *_scores("plot_coverage", "sizes"),
    ("plot_coverage", "sizes", [0, 30], r"^sizes must be positive"),
    ("plot_coverage", "coverages", {}, r"^coverages is empty"),
    *_many(
        "plot_coverage",
        "coverages",
        [{"percentile": [0.7]}, {"percentile": [0.7, 1.5]}],
        r"coverages\['percentile'\] must be 2 shares between 0",
    ),
    ("plot_coverage", "n_samples", 0, r"^n_samples must be a positive integer"),
    ("plot_coverage", "coverages", {"p": [0.7, float("nan")]}, r"^coverages\['p'\] contain NaN"),
    *_scores("plot_picked_queries", "changes"),
    ("plot_picked_queries", "counts", [1, 1, 2], r"4 changes but 3 counts"),
    *_many(
        "plot_picked_queries",
        "counts",
        [[1, -1, 2, 2], [0.5, 1, 1, 1.5], [0, 0, 0, 0]],
        r"counts must be whole numbers",
    ),
    ("plot_picked_queries", "query_ids", ["a", "b", "c"], r"3 query IDs for 4 changes"),
    *_scores("plot_null_distribution", "null"),
    ("plot_null_distribution", "observed", float("nan"), r"^observed must be a finite number"),
    *_scores("plot_bootstrap_beside_null", "bootstrap"),
    *_scores("plot_bootstrap_beside_null", "null"),
    ("plot_bootstrap_beside_null", "observed", float("inf"), r"^observed must be a finite number"),
    *_scores("plot_sampling_vs_bootstrap", "sample_means"),
    *_scores("plot_sampling_vs_bootstrap", "bootstrap_means"),
    ("plot_sampling_vs_bootstrap", "truth", float("inf"), r"^truth must be a finite number"),
    ("plot_sampling_vs_bootstrap", "observed", None, r"^observed must be a finite number"),
    ("plot_decision", "limits", [0.01, 25.0], "same, non-zero length"),
    (
        "plot_decision",
        "intervals",
        [(0.1, 0.2, 0.3), (1, 2), (3, 4)],
        r"^intervals must be rows of",
    ),
    ("plot_decision", "intervals", [(0.2, 0.1), (1, 2), (3, 4)], "low <= high"),
    ("plot_decision", "better", ["up", "below", "above"], "'above' or 'below'"),
    ("plot_decision", "estimates", [float("nan"), 1.0, 2.0], "estimates contain NaN"),
]


def _row_id(row):
    name, arg, value, _ = row
    plain_value = isinstance(value, (str, int, float, list, tuple, dict, type(None)))
    shown = repr(value) if plain_value else type(value).__name__
    shown = re.sub(r" at 0x[0-9a-fA-F]+", "", shown)  # no addresses: xdist compares the ids
    shown = f"array{value.shape}" if isinstance(value, np.ndarray) else shown
    return f"{name}-{arg}={shown[:30]}"


@pytest.mark.parametrize(
    "name, arg, value, match", ARGUMENTS_REFUSED, ids=map(_row_id, ARGUMENTS_REFUSED)
)
def test_every_argument_goes_through_its_rule(name, arg, value, match):
    fn, good = CALLS[name]  # "a, b": a value for each
    given = dict(zip(arg.split(", "), value, strict=True)) if ", " in arg else {arg: value}
    with pytest.raises(ValueError, match=match):
        fn(**good() | given)


#: (function, argument, numbers): any sequence of these numbers gives the list's result
ACCEPTED = [
    *[
        (name, "changes", [2.0, -1.0, 0.0, 3.0])
        for name in (
            "paired_bootstrap",
            "exact_means",
            "exact_bootstrap_distribution",
            "cluster_totals",
            "cluster_bootstrap",
            "cluster_bootstrap, by user",
            "enumerate_cluster_resamples",
            "randomization_test",
            "randomization_test, Monte Carlo",
            "shifted_bootstrap_test",
            "describe_draw",
            "resample_explorer",
            "plot_sorted_changes",
        )
    ],
    *[
        (name, arg, [2.0, -1.0, 0.0, 3.0])
        for name in ("unpaired_bootstrap", "make_record")
        for arg in ("a", "b")
    ],  # fmt: skip
    ("percentile_interval", "values", [2.0, -1.0, 0.0, 3.0]),
    ("percentile_interval", "weights", [2.0, 0.0, 1.0, 3.0]),
    ("endpoint_distribution", "values", [2.0, -1.0, 0.0, 3.0]),
    ("endpoint_distribution", "probabilities", [2.0, 0.0, 1.0, 3.0]),
    ("plot_bootstrap_distribution", "values", [2.0, -1.0, 0.0, 3.0]),
    ("plot_exact_distribution", "values", [2.0, -1.0, 0.0, 3.0]),
    ("plot_exact_distribution", "weights", [2.0, 0.0, 1.0, 3.0]),
    ("cluster_bootstrap", "clusters", ["a", "a", "b", "c"]),
    ("describe_draw", "query_ids", IDS4),
]


@pytest.mark.parametrize("name, arg, values", ACCEPTED, ids=[f"{n}-{a}" for n, a, _ in ACCEPTED])
def test_every_sequence_of_the_same_values_gives_the_same_result(name, arg, values):
    fn, good = CALLS[name]
    same = plain(fn(**good() | {arg: list(values)}))
    assert plain(fn(**good() | {arg: (x for x in values)})) == same
    if isinstance(values[0], float):
        assert plain(fn(**good() | {arg: np.array(values, dtype=np.int64)})) == same
        ones = [1.0, 0.0, 1.0, 1.0]
        booleans = np.array(ones, dtype=bool)
        assert plain(fn(**good() | {arg: booleans})) == plain(fn(**good() | {arg: ones}))


def test_rng_and_n_resamples_are_keyword_only():
    import inspect

    checked = 0
    for fn, _ in CALLS.values():
        params = inspect.signature(fn).parameters
        if "n_resamples" in params:  # a function that resamples (the studies take rng first)
            checked += 1
            for name in {"rng", "n_resamples"} & set(params):
                assert params[name].kind is inspect.Parameter.KEYWORD_ONLY, (fn.__name__, name)
    assert checked >= 10
