"""helpers._checks: inputs a user could plausibly pass by mistake, against the one rule and every
helper.

Every kind of input is tried once against the rule (``as_scores``); every public
helper that takes scores or changes is then tried with one bad and one unusual
input, to show that it routes its argument through that rule and names it.

Each must either work correctly or raise a ``ValueError`` whose message names
the argument and says what to fix; never a bare numpy or Python error, never a
silently wrong answer.

* Work correctly: integer arrays, boolean arrays (0/1), generators (consumed
  once) and pandas Series (when pandas is installed) give exactly the result
  of the same numbers as a list of floats.
* Refused with a message: lists of strings, 2-D arrays, ragged lists, None,
  a dict where a sequence is expected, a scalar, a single string, a set (no
  order, repeats dropped) and a masked array with masked entries.

Run-level helpers (``align_runs``, ``compare_runs``), which take mappings
``{query_id: score}``, and cluster labels get their own tables below.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

import matplotlib
import numpy as np
import pytest

import helpers as h

matplotlib.use("Agg")
from matplotlib.axes import Axes  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

SIGNED = [2, -1, 0, 3]  #: valid integer data for most helpers
NON_NEGATIVE = [2, 0, 1, 3]  #: valid integer data for weights and probabilities
BOOLS = [True, False, True, True]
USERS = ["U1", "U1", "U2", "U3"]
QUERY_IDS = ["q1", "q2", "q3", "q4"]
OTHER = [0.5, 0.25, 0.75, 0.5]  #: the other system's scores, for helpers that take two
PLOT_KINDS = ("int64 array", "generator")


def _ax() -> Axes:
    return Figure().subplots()


@dataclass(frozen=True)
class Case:
    """A helper with one argument left open: ``call(x)``."""

    name: str
    call: Callable[[object], object]
    arg: str = "changes"  #: how the helper's messages name the argument
    valid: tuple = tuple(SIGNED)  #: integer data the argument accepts
    slow: bool = (
        False  #: renders a PNG (about 0.5 s): left out of the all-kinds matrix, checked on its own
    )
    kinds: tuple | None = (
        None  #: the working kinds to try (None: all); plots pass data straight to as_scores
    )


CASES = [
    Case("as_scores", lambda x: h.as_scores(x), "scores"),
    Case("paired_differences(a=x)", lambda x: h.paired_differences(x, OTHER), "A's scores"),
    Case("paired_differences(b=x)", lambda x: h.paired_differences(OTHER, x), "B's scores"),
    Case("paired_bootstrap", lambda x: h.paired_bootstrap(x, n_resamples=50, rng=0)),
    Case(
        "unpaired_bootstrap(a=x)",
        lambda x: h.unpaired_bootstrap(x, OTHER, n_resamples=50, rng=0),
        "A's scores",
    ),
    Case(
        "unpaired_bootstrap(b=x)",
        lambda x: h.unpaired_bootstrap(OTHER, x, n_resamples=50, rng=0),
        "B's scores",
    ),
    Case("exact_bootstrap_distribution", lambda x: h.exact_bootstrap_distribution(x)),
    Case("cluster_totals", lambda x: h.cluster_totals(x, USERS)),
    Case("cluster_bootstrap", lambda x: h.cluster_bootstrap(x, USERS, n_resamples=50, rng=0)),
    Case("enumerate_cluster_resamples", lambda x: h.enumerate_cluster_resamples(x, USERS)),
    Case("percentile_interval", lambda x: h.percentile_interval(x), "values"),
    Case(
        "percentile_interval(weights=x)",
        lambda x: h.percentile_interval(OTHER, weights=x),
        "weights",
        tuple(NON_NEGATIVE),
    ),
    Case(
        "endpoint_distribution(values=x)",
        lambda x: h.endpoint_distribution(x, [0.25] * 4, n_resamples=10),
        "values",
    ),
    Case(
        "endpoint_distribution(probabilities=x)",
        lambda x: h.endpoint_distribution(OTHER, x, n_resamples=10),
        "probabilities",
        tuple(NON_NEGATIVE),
    ),
    Case("randomization_test (exact)", lambda x: h.randomization_test(x)),
    Case(
        "randomization_test (Monte Carlo)", lambda x: h.randomization_test(x, n_resamples=50, rng=0)
    ),
    Case("shifted_bootstrap_test", lambda x: h.shifted_bootstrap_test(x, n_resamples=50, rng=0)),
    Case(
        "make_record(a=x)", lambda x: h.make_record(x, OTHER, rng=1, n_resamples=20), "A's scores"
    ),
    Case("describe_draw", lambda x: h.describe_draw(1, x, QUERY_IDS), "changes"),
    Case("exact_means", lambda x: h.exact_means(x), "changes"),
    Case("explorer_png", lambda x: h.explorer_png(x, 28), "changes", slow=True),
    Case("plot_sorted_changes", lambda x: h.plot_sorted_changes(x, ax=_ax()), kinds=PLOT_KINDS),
    Case(
        "plot_bootstrap_distribution",
        lambda x: h.plot_bootstrap_distribution(x, ax=_ax()),
        "values",
        kinds=PLOT_KINDS,
    ),
    Case(
        "plot_exact_distribution(values=x)",
        lambda x: h.plot_exact_distribution(x, [0.25] * 4, ax=_ax()),
        "values",
        kinds=PLOT_KINDS,
    ),
    Case(
        "plot_exact_distribution(weights=x)",
        lambda x: h.plot_exact_distribution(OTHER, x, ax=_ax()),
        "weights",
        tuple(NON_NEGATIVE),
        kinds=PLOT_KINDS,
    ),
]


def plain(obj: object) -> object:
    """Results as plain Python values, so that two results compare with ==."""
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, Axes):
        return [(p.get_x(), p.get_height()) for p in obj.patches]
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: plain(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (tuple, list)):
        return [plain(x) for x in obj]
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, (float, np.floating)):
        return float(obj)
    return obj


def by_name(case: Case) -> str:
    return case.name


FAST_CASES = [c for c in CASES if not c.slow]


# --- inputs that must work: the same result as the numbers as floats ---------------------------


def _generator(values):
    return (v for v in values)


WORKING = {
    "integer list": lambda ints: list(ints),
    "int64 array": lambda ints: np.array(ints, dtype=np.int64),
    "int8 array": lambda ints: np.array(ints, dtype=np.int8),
    "float32 array": lambda ints: np.array(ints, dtype=np.float32),
    "generator": lambda ints: _generator([float(v) for v in ints]),
    "masked array, nothing masked": lambda ints: np.ma.array(np.array(ints, dtype=float)),
}


@pytest.mark.parametrize(
    "case, kind",
    [
        pytest.param(case, kind, id=f"{case.name}-{kind}")
        for case in FAST_CASES
        for kind in WORKING
        if (case.kinds is None or kind in case.kinds)
        # every kind against the rule; each other helper with a generator (consumed once)
        and (case.name == "as_scores" or kind == "generator")
    ],
)
def test_numeric_inputs_of_any_type_give_the_float_result(case, kind):
    floats = [float(v) for v in case.valid]
    assert plain(case.call(WORKING[kind](case.valid))) == plain(case.call(floats))


@pytest.mark.parametrize("case", FAST_CASES, ids=by_name)
def test_boolean_arrays_are_zero_one(case):
    expected = plain(case.call([1.0 if b else 0.0 for b in BOOLS]))
    assert plain(case.call(np.array(BOOLS))) == expected
    assert plain(case.call(list(BOOLS))) == expected


def test_boolean_and_unsigned_scores_are_subtracted_as_numbers():
    # numpy refuses bool - bool and wraps uint8 - uint8 around; the helpers convert first
    assert h.paired_differences(
        np.array([True, False, True]), np.array([False, True, True])
    ).tolist() == [-1.0, 1.0, 0.0]
    assert h.paired_differences(
        np.array([5, 3], dtype=np.uint8), np.array([3, 5], dtype=np.uint8)
    ).tolist() == [-2.0, 2.0]


def test_the_explorer_figure_of_a_generator_is_the_figure_of_the_list():
    # explorer_png used to read a generator twice (the second time empty) and fail with a TypeError.
    # Agg draws deterministically, so the same data give the same PNG bytes.
    assert h.explorer_png((x for x in h.FOUR_PAIR_CHANGES), 15) == h.explorer_png(
        list(h.FOUR_PAIR_CHANGES), 15
    )


def test_a_generator_is_consumed_once_and_completely():
    consumed = []

    def changes():
        for v in [0.1, 0.2, -0.3, 0.4]:
            consumed.append(v)
            yield v

    assert (
        h.paired_bootstrap(changes(), n_resamples=100, rng=3).tolist()
        == h.paired_bootstrap([0.1, 0.2, -0.3, 0.4], n_resamples=100, rng=3).tolist()
    )
    assert consumed == [0.1, 0.2, -0.3, 0.4]
    # two generators, one per system
    a, b = (x for x in [0.5, 0.25]), (x for x in [0.75, 0.25])
    assert h.paired_differences(a, b).tolist() == [0.25, 0.0]


def test_pandas_series_works_and_a_data_frame_is_refused():
    pd = pytest.importorskip(
        "pandas"
    )  # not a dependency of the series; checked where it is installed
    for case in FAST_CASES:
        floats = [float(v) for v in case.valid]
        assert plain(case.call(pd.Series(case.valid, index=QUERY_IDS))) == plain(
            case.call(floats)
        ), case.name
        with pytest.raises(ValueError, match="one-dimensional"):
            case.call(pd.DataFrame({"a": case.valid, "b": case.valid}))
    a = pd.Series([0.5, 0.25], index=["q1", "q2"])
    b = pd.Series([0.25, 0.75], index=["q2", "q1"])
    with pytest.raises(ValueError, match="different indexes"):
        h.paired_differences(a, b)
    assert h.paired_differences(a, b.reindex(a.index)).tolist() == [0.25, 0.0]
    assert h.paired_differences(a.to_dict(), b.to_dict()).tolist() == [0.25, 0.0]
    with pytest.raises(ValueError, match="contain NaN or infinite values at position 1"):
        h.as_scores(pd.Series([1, None, 3], dtype="Int64"))
    with pytest.raises(ValueError, match=r"got Series\. .*s\.to_dict\(\)"):
        h.align_runs(a, b)
    assert h.align_runs(a.to_dict(), b.to_dict()).b.tolist() == [0.75, 0.25]
    np.testing.assert_array_equal(
        h.cluster_bootstrap([0.1, 0.2, 0.3], pd.Series(["a", "a", "b"]), n_resamples=20, rng=0),
        h.cluster_bootstrap([0.1, 0.2, 0.3], ["a", "a", "b"], n_resamples=20, rng=0),
    )


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


class _SeriesLike:
    """Stands in for a pandas Series: values labelled by an index of query IDs."""

    def __init__(self, values: list[float], index: list[str]):
        self.values, self.index = values, index

    def __iter__(self):
        return iter(self.values)

    def to_numpy(self):
        return np.asarray(self.values)


def test_two_indexed_score_series_are_paired_by_position_only_when_their_indexes_agree():
    a = _SeriesLike([0.5, 0.25], ["q1", "q2"])
    assert h.paired_differences(a, _SeriesLike([0.75, 0.25], ["q1", "q2"])).tolist() == [0.25, 0.0]
    assert h.paired_differences(a, [0.75, 0.25]).tolist() == [
        0.25,
        0.0,
    ]  # a plain list: by position, as documented
    # same queries, other order: by position this would give [-0.25, +0.5] without a word
    with pytest.raises(
        ValueError,
        match=r"different indexes .* paired_differences\(a\.to_dict\(\), b\.to_dict\(\)\)",
    ):
        h.paired_differences(a, _SeriesLike([0.25, 0.75], ["q2", "q1"]))


def test_a_table_is_read_by_its_values_not_by_iterating_over_its_column_labels():
    # Iterating a DataFrame with columns 0 and 1 gives [0, 1]: it would be read as two scores.
    with pytest.raises(ValueError, match=r"one-dimensional .* got shape \(4, 2\)"):
        h.as_scores(_TableLike({0: [0.1, 0.2, 0.3, 0.4], 1: [0.2, 0.2, 0.2, 0.2]}))
    with pytest.raises(ValueError, match=r"got shape \(4, 1\)\. .*np\.ravel"):
        h.paired_bootstrap(_TableLike({0: [0.1, 0.2, 0.3, 0.4]}), n_resamples=10, rng=0)


# --- inputs that must be refused with a message that says what to fix ---------------------------

REFUSED = {  # kind: (a function making the input afresh, what the message must say)
    "list of strings": (
        lambda: ["0.1", "0.2", "-0.3", "0.4"],
        r"must be numbers; found non-numeric value\(s\) .*convert text to numbers first",
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
    "empty generator": (lambda: _generator([]), r"is empty"),
}

# Valid by design: weights=None is the default, an unweighted interval.
VALID = {("percentile_interval(weights=x)", "None"): lambda: h.percentile_interval(OTHER)}

# Where a helper takes two systems' scores, a mapping on one side only gets its own message.
ONE_MAPPING = r"Pass both systems the same way"
OVERRIDES = {
    ("paired_differences(a=x)", "dict"): ONE_MAPPING,
    ("paired_differences(b=x)", "dict"): ONE_MAPPING,
    ("make_record(a=x)", "dict"): ONE_MAPPING,
}


def _refused_params():
    """Every kind of bad input against the one rule (as_scores, i.e. helpers._checks.scores);
    each other helper once, with a 2-D array, to show it routes its argument through that rule
    and names it, plus every (helper, kind) pair with a behaviour of its own (VALID, OVERRIDES)."""
    for case in CASES:
        kinds = list(REFUSED) if case.name == "as_scores" else ["2-D array"]
        kinds += [k for (name, k) in [*VALID, *OVERRIDES] if name == case.name and k not in kinds]
        for kind in kinds:
            yield pytest.param(case, kind, id=f"{case.name}-{kind}")


@pytest.mark.parametrize("case, kind", list(_refused_params()))
def test_mistaken_inputs_are_refused_with_a_message_naming_the_argument(case, kind):
    make, pattern = REFUSED[kind]
    value = make()
    if (case.name, kind) in VALID:
        assert case.call(value) == VALID[case.name, kind]()
        return
    override = OVERRIDES.get((case.name, kind))
    with pytest.raises(ValueError) as err:
        case.call(value)
    message = str(err.value)
    if override:
        assert re.search(override, message), message
    else:
        assert message.startswith(case.arg + " "), message
        assert re.search(pattern, message), message
    assert "array([" not in message and "inhomogeneous" not in message, message


# --- two arrays where one is expected ---------------------------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda a, b: h.paired_bootstrap(a, b, rng=1),
        lambda a, b: h.randomization_test(a, b),
        lambda a, b: h.shifted_bootstrap_test(a, b, rng=1),
        lambda a, b: h.cluster_bootstrap(a, USERS, b, rng=1),
        lambda a, b: h.unpaired_bootstrap(a, a, b, rng=1),
    ],
    ids=[
        "paired_bootstrap",
        "randomization_test",
        "shifted_bootstrap_test",
        "cluster_bootstrap",
        "unpaired_bootstrap",
    ],
)
def test_the_second_system_cannot_land_where_n_resamples_goes(call):
    """n_resamples is keyword-only: f(a, b) is refused by Python before any arithmetic."""
    a, b = np.array(OTHER), np.array([0.6, 0.3, 0.7, 0.5])
    with pytest.raises(TypeError, match="positional argument"):
        call(a, b)


@pytest.mark.parametrize("b", [np.array([0.6, 0.3, 0.7, 0.5]), [0.6, 0.3, 0.7, 0.5]])
def test_scores_passed_as_n_resamples_are_named_as_values(b):
    with pytest.raises(
        ValueError,
        match=r"n_resamples must be a positive integer; got a (ndarray|list) of values\.",
    ):
        h.paired_bootstrap(OTHER, n_resamples=b, rng=1)


# --- cluster labels -------------------------------------------------------------------------------

D4 = [0.1, 0.2, -0.3, 0.4]

LABELS_WORKING = {  # kind: a function making the labels afresh
    "list of strings": lambda: ["a", "a", "b", "c"],
    "integer array": lambda: np.array([7, 7, 1, 2]),
    "boolean array": lambda: np.array([True, True, False, False]),
    "generator": lambda: _generator(["a", "a", "b", "c"]),
    "tuple": lambda: ("a", "a", "b", "c"),
}


@pytest.mark.parametrize("kind", list(LABELS_WORKING))
def test_cluster_labels_of_any_hashable_kind_work(kind):
    # clusters are numbered by first appearance, so equal groupings give the identical result
    pattern = {"boolean array": ["x", "x", "y", "y"]}.get(kind, ["x", "x", "y", "z"])
    for weighting in ("query", "cluster"):
        expected = h.cluster_bootstrap(D4, pattern, n_resamples=100, rng=5, weighting=weighting)
        np.testing.assert_array_equal(
            h.cluster_bootstrap(
                D4, LABELS_WORKING[kind](), n_resamples=100, rng=5, weighting=weighting
            ),
            expected,
        )


LABELS_REFUSED = {
    "None": (
        None,
        r"clusters must be a sequence with one cluster label .* per query; got NoneType",
    ),
    "scalar": (3.0, r"clusters must be a sequence with one cluster label .* per query; got float"),
    "single string": ("aabc", r"not a single string, a mapping or a set"),
    "dict": (
        {"q1": "a", "q2": "a", "q3": "b", "q4": "c"},
        r"got a dict \(not a single string, a mapping or a set",
    ),
    "set": (
        {"a", "b", "c", "d"},
        r"got a set \(not a single string, a mapping or a set, which has no order\)",
    ),
    "2-D array": (
        np.array([["a", "a"], ["b", "c"]]),
        r"clusters must be one-dimensional .*got shape \(2, 2\)",
    ),
    "wrong length": (["a", "b"], r"changes has 4 values but clusters has 2 labels"),
    "label None": (["a", None, "b", "c"], r"missing label \(None\) at position 1"),
    "labels as lists": (
        [["a"], ["a"], ["b"], ["c"]],
        r"clusters must be one-dimensional .*got shape \(4, 1\)",
    ),
    "unhashable labels": (
        [{"u": 1}, {"u": 1}, {"u": 2}, {"u": 3}],
        r"cluster labels must be hashable .* got dict at position 0",
    ),
}


@pytest.mark.parametrize("kind", list(LABELS_REFUSED))
@pytest.mark.parametrize(
    "call",
    [
        lambda c: h.cluster_totals(D4, c),
        lambda c: h.cluster_bootstrap(D4, c, n_resamples=10, rng=0),
        lambda c: h.enumerate_cluster_resamples(D4, c),
    ],
    ids=["cluster_totals", "cluster_bootstrap", "enumerate_cluster_resamples"],
)
def test_mistaken_cluster_labels_are_refused(call, kind):
    value, pattern = LABELS_REFUSED[kind]
    with pytest.raises(ValueError, match=pattern):
        call(value)


# --- runs: mappings {query_id: score} -------------------------------------------------------------

RUN_B = {"q1": 0.6, "q2": 0.3, "q3": 0.7}
NOT_A_RUN = (
    r"run A must be a mapping \{query_id: score\} or a RunScores "
    r".*got TYPE\..*dict\(pairs\).*paired_differences\(a, b\)"
)

RUNS_REFUSED = {
    "list of scores": ([0.5, 0.25, 0.75], NOT_A_RUN.replace("TYPE", "list")),
    "2-D array": (
        np.array([[0.5, 0.25], [0.75, 0.5]]),
        NOT_A_RUN.replace("TYPE", "ndarray"),
    ),  # dict() would read it as {0.5: 0.25, 0.75: 0.5}
    "list of (id, score) pairs": (
        [("q1", 0.5), ("q2", 0.25), ("q3", 0.75)],
        NOT_A_RUN.replace("TYPE", "list"),
    ),
    "generator": (
        (v for v in [0.5, 0.25, 0.75]),
        NOT_A_RUN.replace("TYPE", "generator"),
    ),  # refused before being read
    "None": (None, NOT_A_RUN.replace("TYPE", "NoneType")),
    "scalar": (0.5, NOT_A_RUN.replace("TYPE", "float")),
    "string": ("q1 0.5", NOT_A_RUN.replace("TYPE", "str")),
    "text scores": (
        {"q1": "0.5", "q2": "0.25", "q3": "0.75"},
        r"A's scores must be numbers; found non-numeric value\(s\) .*convert text to numbers",
    ),
    "a missing score (None)": (
        {"q1": 0.5, "q2": None, "q3": 0.75},
        r"A's scores must be numbers; found non-numeric value\(s\) None",
    ),
    "a NaN score": (
        {"q1": 0.5, "q2": float("nan"), "q3": 0.75},
        r"A's scores contain NaN or infinite values at query 'q2'",
    ),
    "list-valued scores": (
        {"q1": [0.5], "q2": [0.25], "q3": [0.75]},
        r"A's scores must be one-dimensional",
    ),
    "integer query IDs": (
        {1: 0.5, 2: 0.25, 3: 0.75},
        r"differ only in type \(e\.g\. 1 in A and '1' in B\)",
    ),
}


@pytest.mark.parametrize("kind", list(RUNS_REFUSED))
@pytest.mark.parametrize(
    "call",
    [lambda a, b: h.align_runs(a, b), lambda a, b: h.compare_runs(a, b, n_resamples=50, rng=1)],
    ids=["align_runs", "compare_runs"],
)
def test_mistaken_runs_are_refused(call, kind):
    value, pattern = RUNS_REFUSED[kind]
    b = {"1": 0.6, "2": 0.3, "3": 0.7} if kind == "integer query IDs" else RUN_B
    with pytest.raises(ValueError, match=pattern):
        call(value, b)


@pytest.mark.parametrize(
    "a",
    [
        {"q1": 1, "q2": 0, "q3": 1},
        {"q1": True, "q2": False, "q3": True},
        {"q1": np.int64(1), "q2": np.int8(0), "q3": np.uint8(1)},
    ],
    ids=["int scores", "bool scores", "numpy integer scores"],
)
def test_integer_and_boolean_run_scores_are_numbers(a):
    runs = h.align_runs(a, RUN_B)
    assert runs.a.dtype == np.float64 and runs.a.tolist() == [1.0, 0.0, 1.0]
    report = h.compare_runs(a, RUN_B, n_resamples=50, rng=1, min_queries=3)
    assert report.mean_change == pytest.approx((0.6 + 0.3 + 0.7 - 2) / 3)


def test_query_ids_of_mixed_types_are_sorted_by_their_text():
    runs = h.align_runs({1: 0.5, "q2": 0.25}, {"q2": 0.5, 1: 0.75})
    assert runs.query_ids == [1, "q2"] and runs.b.tolist() == [0.75, 0.5]


def test_clusters_for_compare_runs_must_be_a_mapping():
    with pytest.raises(
        ValueError, match=r"clusters must map each query ID to its user, e\.g\. .*got list"
    ):
        h.compare_runs(
            {"q1": 0.5, "q2": 0.6, "q3": 0.2},
            RUN_B,
            clusters=["U1", "U1", "U2"],
            n_resamples=50,
            rng=1,
            min_queries=3,
        )


# --- the explorer's draw number and query IDs
# ------------------------------------------------------


@pytest.mark.parametrize("k", [0, -1, 257, 28.0, True])
def test_explorer_png_refuses_a_draw_number_out_of_range(k):
    # k = 0 used to draw means[-1], the last draw, without a word
    with pytest.raises(ValueError, match=r"k must be a draw number from 1 to 256"):
        h.explorer_png(h.FOUR_PAIR_CHANGES, k)


def test_describe_draw_takes_query_ids_from_any_iterable_but_not_a_string():
    expected = h.describe_draw(28)
    assert h.describe_draw(28, h.FOUR_PAIR_CHANGES, (q for q in QUERY_IDS)) == expected
    with pytest.raises(ValueError, match="not a single string"):
        h.describe_draw(1, [0.1, 0.2], "ab")


# --- old names keep working for one release ----------------------------------------------------


@pytest.mark.parametrize(
    "name, kwargs",
    [
        ("paired_bootstrap", {"n_resamples": 20, "rng": 1}),
        ("cluster_bootstrap", {"clusters": USERS, "n_resamples": 20, "rng": 1}),
        ("randomization_test", {}),
        ("shifted_bootstrap_test", {"n_resamples": 20, "rng": 1}),
        ("exact_bootstrap_distribution", {}),
        ("exact_bootstrap_interval", {}),
    ],
)
def test_the_old_keyword_diffs_still_works_with_a_deprecation_warning(name, kwargs):
    fn = getattr(h, name)
    with pytest.warns(
        DeprecationWarning, match=r"\(diffs=\.\.\.\) is deprecated; call it changes="
    ):
        old = fn(diffs=D4, **kwargs)
    assert repr(old) == repr(fn(changes=D4, **kwargs))


def test_the_old_keyword_and_the_new_one_together_are_refused():
    with pytest.raises(TypeError, match="got both diffs= and changes="):
        h.paired_bootstrap(changes=D4, diffs=D4, n_resamples=20, rng=1)


def test_the_examples_moved_from_helpers_data_still_load_with_a_deprecation_warning():
    import helpers.data

    with pytest.warns(
        DeprecationWarning, match=r"helpers\.data\.FOUR_PAIR_CHANGES moved to helpers\.examples"
    ):
        assert helpers.data.FOUR_PAIR_CHANGES == h.FOUR_PAIR_CHANGES
