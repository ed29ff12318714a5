"""Saving and reloading a comparison record."""

import json

import numpy as np
import pytest

from helpers import hit_at_5_example, load_record, make_record, paired_bootstrap, percentile_interval, recompute_interval, save_record


@pytest.fixture
def record():
    a, b = hit_at_5_example()
    return make_record(a, b, seed=7, n_resamples=5000, metric="hit@5", notes="test")


def test_record_holds_the_interval_of_the_bootstrap(record):
    a, b = hit_at_5_example()
    expected = percentile_interval(paired_bootstrap(b - a, n_resamples=5000, rng=7))
    assert record.interval == tuple(expected)
    assert record.query_ids[:3] == ["q1", "q2", "q3"] and len(record.query_ids) == 120
    assert record.mean_difference == pytest.approx(-8 / 120)


def test_round_trip_keeps_every_field_and_recomputes_exactly(record, tmp_path):
    path = tmp_path / "r.json"
    save_record(record, path)
    back = load_record(path)
    assert back == record
    assert tuple(recompute_interval(back)) == record.interval
    raw = json.loads(path.read_text())
    assert raw["format"] == "did-search-improve/comparison" and raw["version"] == 1


def test_mapping_input_keeps_query_ids():
    rec = make_record({"b": 0.5, "a": 0.1}, {"a": 0.2, "b": 0.5}, seed=1, n_resamples=10)
    assert rec.query_ids == ["a", "b"] and rec.scores_a == [0.1, 0.5]


def test_make_record_checks_its_inputs():
    with pytest.raises(ValueError, match="seed"):
        make_record([0.1], [0.2], seed=None, n_resamples=10)
    with pytest.raises(ValueError, match="2 query IDs were given for 1 scores"):
        make_record([0.1], [0.2], seed=1, n_resamples=10, query_ids=["x", "y"])
    with pytest.raises(ValueError, match="unique"):
        make_record([0.1, 0.2], [0.2, 0.3], seed=1, n_resamples=10, query_ids=["x", "x"])


def _write(tmp_path, obj):
    p = tmp_path / "bad.json"
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return p


def test_load_refuses_broken_files_and_names_them(record, tmp_path):
    good = record.to_dict()
    p = _write(tmp_path, "{not json")
    with pytest.raises(ValueError, match=r"bad\.json: not valid JSON \(line 1"):
        load_record(p)
    with pytest.raises(ValueError, match="not a comparison record"):
        load_record(_write(tmp_path, [1, 2]))
    with pytest.raises(ValueError, match="missing seed"):
        load_record(_write(tmp_path, {k: v for k, v in good.items() if k != "seed"}))
    with pytest.raises(ValueError, match="version 99"):
        load_record(_write(tmp_path, {**good, "version": 99}))
    with pytest.raises(ValueError, match="unknown field"):
        load_record(_write(tmp_path, {**good, "colour": "red"}))
    with pytest.raises(ValueError, match="119 scores for A"):
        load_record(_write(tmp_path, {**good, "scores_a": good["scores_a"][:-1]}))


def test_json_floats_round_trip_exactly(tmp_path):
    a = np.random.default_rng(0).random(50)
    b = np.random.default_rng(1).random(50)
    rec = make_record(a, b, seed=3, n_resamples=100)
    save_record(rec, tmp_path / "x.json")
    back = load_record(tmp_path / "x.json")
    assert back.scores_a == a.tolist() and back.scores_b == b.tolist()
