"""helpers.runs.slice_table: the slice table of one's own runs, each row its own paired
bootstrap (chapter 7)."""

from __future__ import annotations

import numpy as np
import pytest

from helpers import paired_bootstrap, percentile_interval, slice_summary


def _example():
    rng = np.random.default_rng(3)
    labels = np.array(["head"] * 60 + ["torso"] * 50 + ["tail"] * 8)
    a = rng.uniform(0.2, 0.9, labels.size)
    shift = np.select([labels == "head", labels == "torso"], [0.04, 0.01], -0.05)
    b = np.clip(a + shift + rng.normal(0, 0.08, labels.size), 0, 1)
    return a, b, labels


def test_rows_are_the_per_slice_paired_bootstraps_in_table_order():
    a, b, labels = _example()
    s = slice_summary(a, b, labels, n_resamples=2000, rng=5)
    assert [r.slice for r in s.rows] == ["all queries", "head", "tail", "torso"]
    assert [r.n for r in s.rows] == [118, 60, 8, 50]
    # replay: one generator, overall first, then the slices in order
    gen = np.random.default_rng(5)
    for r, mask in zip(
        s.rows,
        [np.ones(118, bool), labels == "head", labels == "tail", labels == "torso"],
        strict=False,
    ):
        d = b[mask] - a[mask]
        assert r.change == pytest.approx(d.mean(), abs=1e-15)
        assert r.mean_a == pytest.approx(a[mask].mean()) and r.mean_b == pytest.approx(
            b[mask].mean()
        )
        assert r.interval == percentile_interval(paired_bootstrap(d, n_resamples=2000, rng=gen))
    assert s.overall is s.rows[0] and s.row("tail").n == 8
    with pytest.raises(KeyError, match="no slice 'nope'"):
        s.row("nope")


def test_a_small_slice_has_a_wide_interval_and_the_table_shows_it():
    a, b, labels = _example()
    s = slice_summary(a, b, labels, n_resamples=2000, rng=5, order=["head", "torso", "tail"])
    assert [r.slice for r in s.rows[1:]] == ["head", "torso", "tail"]
    assert s.row("tail").width > 2 * s.overall.width
    text = str(s)
    lines = text.splitlines()
    assert lines[0].split()[:3] == ["slice", "queries", "mean"]
    assert lines[2].startswith("all queries") and lines[-2].startswith("tail")
    # aligned: every row of the table has the interval column at the same position
    starts = {line.index("[") for line in lines[2:] if "[" in line}
    assert len(starts) == 1
    assert f"{s.row('tail').width:.3f}" in lines[-2]
    assert "B = 2,000" in lines[-1]
    assert repr(s) == text
    html = s._repr_html_()
    assert html.startswith("<table>") and html.count("<tr>") == 5 and "<b>all queries</b>" in html


def test_slices_below_min_queries_get_no_interval():
    a, b, labels = _example()
    s = slice_summary(a, b, labels, n_resamples=500, rng=1, min_queries=10)
    assert s.row("tail").interval is None and s.row("tail").width is None
    assert "(fewer than 10 queries)" in str(s)
    # a one-query slice would otherwise show a zero-width "interval"
    one = slice_summary(
        [0.1, 0.2, 0.3], [0.2, 0.2, 0.5], ["x", "x", "y"], n_resamples=100, rng=0, min_queries=1
    )
    assert one.row("y").width == 0.0


def test_same_seed_same_table():
    a, b, labels = _example()
    assert str(slice_summary(a, b, labels, n_resamples=300, rng=9)) == str(
        slice_summary(a, b, labels, n_resamples=300, rng=9)
    )


def test_slice_summary_iv():
    a, b, labels = _example()
    with pytest.raises(ValueError, match="117 slice labels were given for 118 queries"):
        slice_summary(a, b, labels[:-1], rng=0)
    with pytest.raises(ValueError, match="slice labels must be a sequence"):
        slice_summary(a, b, "head", rng=0)
    with pytest.raises(ValueError, match="A has 118 scores and B has 117"):
        slice_summary(a, b[:-1], labels, rng=0)
    with pytest.raises(ValueError, match="rng is required"):
        slice_summary(a, b, labels, rng=None)
    with pytest.raises(ValueError, match="min_queries"):
        slice_summary(a, b, labels, rng=0, min_queries=0)
    with pytest.raises(ValueError, match="level"):
        slice_summary(a, b, labels, rng=0, level=95)
    with pytest.raises(ValueError, match="n_resamples"):
        slice_summary(a, b, labels, rng=0, n_resamples=0)
    with pytest.raises(ValueError, match=r"missing \['tail'\]; not slices: \['long'\]"):
        slice_summary(a, b, labels, rng=0, order=["head", "torso", "long"])
    with pytest.raises(ValueError, match="some named twice"):
        slice_summary(a, b, labels, rng=0, order=["head", "torso", "tail", "tail"])
    with pytest.raises(ValueError, match="label of the overall row"):
        slice_summary([0.1, 0.2], [0.2, 0.3], ["all queries", "x"], rng=0)
