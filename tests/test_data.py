"""Pairing and validation of per-query scores."""

import numpy as np
import pytest

from helpers import (
    as_scores,
    paired_differences,
    paired_scores,
)


def test_sequences_are_paired_by_position():
    assert paired_differences([0.5, 0.25], [0.75, 0.25]).tolist() == [0.25, 0.0]


def test_mappings_are_paired_by_query_id_in_sorted_order():
    a = {"q3": 0.3, "q1": 0.1, "q2": 0.2}
    b = {"q2": 0.5, "q3": 0.3, "q1": 0.0}
    ids, a_arr, b_arr = paired_scores(a, b)
    assert ids == ["q1", "q2", "q3"]
    np.testing.assert_array_equal(paired_differences(a, b), [-0.1, 0.3, 0.0])


def test_result_is_float_array():
    out = paired_differences([1, 0, 1], [True, True, False])
    assert out.dtype == np.float64 and out.tolist() == [0.0, 1.0, -1.0]


def test_different_lengths_are_refused():
    with pytest.raises(ValueError, match="A has 3 scores and B has 2"):
        paired_differences([1, 2, 3], [1, 2])


def test_missing_query_ids_are_named_on_each_side_up_to_five():
    a = {f"q{i}": 1.0 for i in range(10)}
    b = {f"q{i}": 1.0 for i in range(3)} | {"x1": 0.0}
    with pytest.raises(ValueError) as err:
        paired_differences(a, b)
    msg = str(err.value)
    assert "7 only in A ('q3', 'q4', 'q5', 'q6', 'q7' and 2 more)" in msg
    assert "1 only in B ('x1')" in msg


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), -float("inf")])
def test_nan_and_infinite_scores_are_refused(bad):
    with pytest.raises(ValueError, match="NaN or infinite values at position 1"):
        paired_differences([0.1, bad], [0.2, 0.3])


def test_nan_in_a_mapping_names_the_query():
    with pytest.raises(ValueError, match="B's scores contain NaN or infinite values at query 'q2'"):
        paired_differences({"q1": 1.0, "q2": 1.0}, {"q1": 1.0, "q2": float("nan")})


@pytest.mark.parametrize("a, b", [([], []), ({}, {})])
def test_empty_input_is_refused(a, b):
    with pytest.raises(ValueError, match="empty"):
        paired_differences(a, b)


@pytest.mark.parametrize("bad", [["0.5", "0.7"], [0.5, None], "0.5", [[0.1, 0.2]], [0.1, "x"]])
def test_non_numeric_or_misshapen_scores_are_refused(bad):
    with pytest.raises(ValueError):
        paired_differences(bad, [0.1, 0.2])


def test_mixing_a_mapping_and_a_sequence_is_refused():
    with pytest.raises(ValueError, match="one of each"):
        paired_differences({"q1": 1.0}, [1.0])


def test_generators_and_numpy_arrays_work():
    assert as_scores(x / 2 for x in range(3)).tolist() == [0.0, 0.5, 1.0]
    assert as_scores(np.array([1, 2], dtype=np.int32)).tolist() == [1.0, 2.0]
