"""Saving and reloading a comparison record.

Version 2 of the comparison record: clusters, exclusions and the evaluation configuration.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from helpers import (
    cluster_bootstrap,
    hit_at_5_example,
    load_record,
    make_record,
    paired_bootstrap,
    percentile_interval,
    recompute_interval,
    save_record,
)
from helpers.records import METHOD, METHOD_CLUSTER


@pytest.fixture
def record():
    a, b = hit_at_5_example()
    return make_record(a, b, rng=7, n_resamples=5000, metric="hit@5", notes="test")


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
    rec = make_record({"b": 0.5, "a": 0.1}, {"a": 0.2, "b": 0.5}, rng=1, n_resamples=10)
    assert rec.query_ids == ["a", "b"] and rec.scores_a == [0.1, 0.5]


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
    rec = make_record(a, b, rng=3, n_resamples=100)
    save_record(rec, tmp_path / "x.json")
    back = load_record(tmp_path / "x.json")
    assert back.scores_a == a.tolist() and back.scores_b == b.tolist()


def _data(n=40, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.uniform(0.2, 0.9, n)
    b = np.clip(a + rng.normal(0.02, 0.1, n), 0, 1)
    ids = [f"q{i:03d}" for i in range(1, n + 1)]
    users = [f"U{u}" for u in rng.integers(1, 12, n)]
    return a, b, ids, users


CONFIG = {
    "metric": "ndcg_cut_10",
    "cutoff": 10,
    "qrels": "judgements-2024-06 v3",
    "runs": {"A": "prod-2024-06-01", "B": "cand-rerank-7"},
    "seeds": {"query sample": 20240601, "B training": 3},
    "tool": "trec_eval 9.0.8 -q -m ndcg_cut.10",
    "judged depth": None,
    "flags": [True, False],
}


@pytest.fixture
def full_record():
    a, b, ids, users = _data()
    return make_record(
        a,
        b,
        rng=11,
        n_resamples=3000,
        query_ids=ids,
        clusters=users,
        exclusions={"q041": "no relevant documents in the qrels", "q042": "duplicate of q007"},
        config=CONFIG,
        metric="nDCG@10",
        system_a="prod",
        system_b="candidate",
        notes="full",
    )


def test_full_round_trip_every_field_survives_and_recomputes_exactly(full_record, tmp_path):
    path = tmp_path / "full.json"
    save_record(full_record, path)
    raw = json.loads(path.read_text())
    assert raw["version"] == 2
    assert list(raw)[:2] == ["format", "version"]
    back = load_record(path)
    assert back == full_record
    for name in full_record.__dataclass_fields__:
        assert getattr(back, name) == getattr(full_record, name), name
    assert back.clusters[:3] == full_record.clusters[:3] and len(back.clusters) == 40
    assert back.exclusions == {
        "q041": "no relevant documents in the qrels",
        "q042": "duplicate of q007",
    }
    assert back.config == CONFIG and back.config["runs"]["B"] == "cand-rerank-7"
    assert tuple(recompute_interval(back)) == full_record.interval
    # with clusters recorded, the interval resamples whole users (query-weighted), as chapter 4
    # teaches
    a, b, _, users = _data()
    assert full_record.interval == tuple(
        percentile_interval(cluster_bootstrap(b - a, users, n_resamples=3000, rng=11))
    )
    assert full_record.method == METHOD_CLUSTER


def test_the_config_is_copied_not_shared():
    a, b, ids, _ = _data()
    cfg = {"runs": {"A": "x"}}
    rec = make_record(a, b, rng=1, n_resamples=10, config=cfg)
    cfg["runs"]["A"] = "changed later"
    assert rec.config == {"runs": {"A": "x"}}


def test_clusters_may_be_given_by_query_id():
    a = {"q2": 0.5, "q1": 0.25}
    b = {"q1": 0.5, "q2": 0.5}
    rec = make_record(a, b, rng=1, n_resamples=50, clusters={"q1": "U1", "q2": "U9"})
    assert rec.query_ids == ["q1", "q2"] and rec.clusters == ["U1", "U9"]


def test_a_record_without_new_fields_is_still_version_1(tmp_path):
    a, b, ids, _ = _data()
    rec = make_record(a, b, rng=2, n_resamples=100, query_ids=ids)
    assert rec.version == 1
    raw = rec.to_dict()
    assert raw["version"] == 1 and not {"clusters", "exclusions", "config"} & set(raw)


def test_version_1_files_written_by_the_old_code_still_load(tmp_path):
    a, b, ids, _ = _data()
    # exactly the fields chapter 1's format wrote
    v1 = {
        "format": "did-search-improve/comparison",
        "version": 1,
        "query_ids": ids,
        "scores_a": a.tolist(),
        "scores_b": b.tolist(),
        "seed": 7,
        "n_resamples": 500,
        "level": 0.95,
        "interval": [-0.01, 0.05],
        "metric": "",
        "system_a": "A",
        "system_b": "B",
        "convention": "c",
        "method": METHOD,
        "notes": "",
        "extra": {},
    }
    p = tmp_path / "v1.json"
    p.write_text(json.dumps(v1))
    rec = load_record(p)
    assert rec.clusters is None and rec.exclusions == {} and rec.config == {}
    assert tuple(recompute_interval(rec)) == tuple(
        percentile_interval(paired_bootstrap(b - a, n_resamples=500, rng=7))
    )


def test_load_refuses_inconsistent_version_2_files(full_record, tmp_path):
    good = full_record.to_dict()
    with pytest.raises(
        ValueError,
        match=r"bad\.json: unknown field\(s\) clusters.*version-2 fields in a version-1 record",
    ):
        load_record(_write(tmp_path, {**good, "version": 1, "exclusions": {}, "config": {}}))
    with pytest.raises(ValueError, match="clusters must be a list with one entry per query"):
        load_record(_write(tmp_path, {**good, "clusters": good["clusters"][:-1]}))
    # the weighted estimate was removed: a record that still has weights is not read without them
    for version, weights in [(2, [1.0] * 40), (2, None), (1, None)]:
        raw = {**good, "version": version, "weights": weights}
        if version == 1:
            raw = {k: v for k, v in raw.items() if k not in ("clusters", "exclusions", "config")}
        with pytest.raises(ValueError, match=r"bad\.json: unknown field\(s\) weights\.$"):
            load_record(_write(tmp_path, raw))
    with pytest.raises(ValueError, match="needs a reason"):
        load_record(_write(tmp_path, {**good, "exclusions": {"q041": ""}}))
    with pytest.raises(ValueError, match="'q001' is both compared and excluded"):
        load_record(_write(tmp_path, {**good, "exclusions": {"q001": "oops"}}))
    with pytest.raises(ValueError, match="config must be a mapping"):
        load_record(_write(tmp_path, {**good, "config": ["metric"]}))
    with pytest.raises(ValueError, match=r"versions 1, 2"):
        load_record(_write(tmp_path, {**good, "version": 3}))


# --- input validation: make_record routes each argument through its rule and names it ---------

A4, B4, IDS4 = [0.1, 0.2, -0.3, 0.4], [0.5, 0.25, 0.75, 0.5], ["q1", "q2", "q3", "q4"]


def test_make_record_has_no_weighted_estimate():
    with pytest.raises(TypeError, match=r"weights"):
        make_record(A4, B4, rng=1, n_resamples=20, weights=[1.0, 2.0, 1.0, 1.0])


def test_make_record_clusters_by_query_id_must_name_every_query():
    with pytest.raises(ValueError, match=r"clusters has no entry for query ID\(s\) 'q2'\.$"):
        make_record(
            {"q1": 0.1, "q2": 0.2},
            {"q1": 0.2, "q2": 0.1},
            rng=1,
            n_resamples=10,
            clusters={"q1": "U1"},
        )
