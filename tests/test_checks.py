"""helpers._checks: the shared input rules, one rule each, each against every kind of input once.

The public functions call these rules at entry; each function's own test file shows, in its
``test_<function>_iv``, that it routes every argument through its rule and names the argument.
Here each rule is tried with every kind of input a user could plausibly pass by mistake. Each must
either work correctly or raise a ``ValueError`` whose message names the argument and says what to
fix; never a bare numpy or Python error, never a silently wrong answer.

* ``scores`` (behind every function taking scores, changes, values or weights):
  integer arrays, boolean arrays (0/1), generators (consumed once) and pandas Series (when pandas
  is installed) give exactly the floats; lists of strings, 2-D arrays, ragged lists, None, a
  mapping, a scalar, a single string, a set (no order, repeats dropped), a masked array with
  masked entries, complex numbers and an empty input are refused with a message.
* ``clusters``: one cluster label per query, every kind of labels (behind ``cluster_totals``,
  ``cluster_bootstrap``, ``enumerate_cluster_resamples`` and ``randomization_test``).
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
