"""helpers.slices: the list of largest regressions, chapter 6's table and the rows of a report on
one's own runs."""

from __future__ import annotations

import pytest

from helpers import largest_regressions


def test_largest_regressions_by_id():
    # changes 0, -0.5, -0.25, -0.25, +0.25 (exact in binary): worst first, ties by query ID
    a = [0.5, 0.75, 0.5, 0.25, 0.25]
    b = [0.5, 0.25, 0.25, 0.0, 0.5]
    ids = ["q1", "q2", "q4", "q3", "q5"]
    worst = largest_regressions(a, b, ids, k=2, slices=["h", "h", "t", "t", "h"])
    assert worst == [("q2", 0.75, 0.25, -0.5, "h"), ("q3", 0.25, 0.0, -0.25, "t")]
    assert worst[0].change == -0.5 and worst[1].slice == "t"
    # only losses are listed (no tie at zero): asking for more gives the three that got worse
    assert [w.query_id for w in largest_regressions(a, b, ids, k=10)] == ["q2", "q3", "q4"]
    assert largest_regressions(a, b, ids, k=10)[0].slice is None
    assert largest_regressions([0.1], [0.2], ["q1"]) == []


def test_largest_regressions_iv():
    with pytest.raises(ValueError, match="2 query IDs were given for 3 queries"):
        largest_regressions([1, 2, 3], [1, 2, 3], ["a", "b"])
    with pytest.raises(ValueError, match="unique"):
        largest_regressions([1, 2], [1, 2], ["a", "a"])
    with pytest.raises(ValueError, match="k must be a positive integer"):
        largest_regressions([1, 2], [1, 2], ["a", "b"], k=0)
    with pytest.raises(ValueError, match="1 slice labels were given for 2 queries"):
        largest_regressions([1, 2], [1, 2], ["a", "b"], slices=["x"])
    with pytest.raises(ValueError, match="NaN"):
        largest_regressions([1, float("nan")], [1, 2], ["a", "b"])
