"""Pairing and validation of per-query scores (helpers.data)."""

import numpy as np
import pytest

from helpers import _checks, paired_differences


def test_sequences_are_paired_by_position():
    assert paired_differences([0.5, 0.25], [0.75, 0.25]).tolist() == [0.25, 0.0]


def test_mappings_are_paired_by_query_id_in_sorted_order():
    a = {"q3": 0.3, "q1": 0.1, "q2": 0.2}
    b = {"q2": 0.5, "q3": 0.3, "q1": 0.0}
    ids, _, _ = _checks.paired(a, b)
    assert ids == ["q1", "q2", "q3"]
    np.testing.assert_array_equal(paired_differences(a, b), [-0.1, 0.3, 0.0])


def test_result_is_float_array():
    out = paired_differences([1, 0, 1], [True, True, False])
    assert out.dtype == np.float64 and out.tolist() == [0.0, 1.0, -1.0]


def test_missing_query_ids_are_named_on_each_side_up_to_five():
    a = {f"q{i}": 1.0 for i in range(10)}
    b = {f"q{i}": 1.0 for i in range(3)} | {"x1": 0.0}
    with pytest.raises(ValueError) as err:
        paired_differences(a, b)
    msg = str(err.value)
    assert "7 only in A ('q3', 'q4', 'q5', 'q6', 'q7' and 2 more)" in msg
    assert "1 only in B ('x1')" in msg


OTHER = [0.5, 0.25, 0.75, 0.5]


def test_paired_differences_of_generators_booleans_and_unsigned_integers():
    # two generators, one per system, each consumed once
    a, b = (x for x in [0.5, 0.25]), (x for x in [0.75, 0.25])
    assert paired_differences(a, b).tolist() == [0.25, 0.0]
    assert paired_differences(np.array([True, False, True, True]), OTHER).tolist() == (
        paired_differences([1.0, 0.0, 1.0, 1.0], OTHER).tolist()
    )
    # numpy refuses bool - bool and wraps uint8 - uint8 around; the rule converts first
    assert paired_differences(
        np.array([True, False, True]), np.array([False, True, True])
    ).tolist() == [-1.0, 1.0, 0.0]
    assert paired_differences(
        np.array([5, 3], dtype=np.uint8), np.array([3, 5], dtype=np.uint8)
    ).tolist() == [-2.0, 2.0]


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
    assert paired_differences(a, _SeriesLike([0.75, 0.25], ["q1", "q2"])).tolist() == [0.25, 0.0]
    # a plain list: by position, as documented
    assert paired_differences(a, [0.75, 0.25]).tolist() == [0.25, 0.0]
    # same queries, other order: by position this would give [-0.25, +0.5] without a word
    with pytest.raises(
        ValueError,
        match=r"different indexes .* paired_differences\(a\.to_dict\(\), b\.to_dict\(\)\)",
    ):
        paired_differences(a, _SeriesLike([0.25, 0.75], ["q2", "q1"]))


def test_pandas_series_are_paired_only_when_their_indexes_agree():
    pd = pytest.importorskip("pandas")  # not a dependency of the series; checked where installed
    a = pd.Series([0.5, 0.25], index=["q1", "q2"])
    b = pd.Series([0.25, 0.75], index=["q2", "q1"])
    with pytest.raises(ValueError, match="different indexes"):
        paired_differences(a, b)
    assert paired_differences(a, b.reindex(a.index)).tolist() == [0.25, 0.0]
    assert paired_differences(a.to_dict(), b.to_dict()).tolist() == [0.25, 0.0]
    with pytest.raises(ValueError, match="A's scores must be one-dimensional"):
        paired_differences(pd.DataFrame({"x": [0.5, 0.2], "y": [0.1, 0.3]}), [0.1, 0.2])
