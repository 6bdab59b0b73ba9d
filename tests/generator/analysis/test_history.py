"""A recurring campaign's history (generator/analysis/history.py): series joined across the
campaigns of one name, one point per campaign, kept apart by host, and Apache Otava's change
points judged like a cell: one change where the level moves, none in noise, none on flagged
steps; a known change carries its reason."""

from __future__ import annotations

import copy
import statistics

import pytest

from contract import threads_label
from generator.analysis import history
from tests.helpers.history_runs import occasion, recurring, template_run

DROP = [1.0] * 3 + [0.6] * 3  # six campaigns, the last three at 60 % of the first three


@pytest.fixture(scope="module")
def template() -> dict:
    return template_run()


def test_a_drop_from_the_fourth_campaign_is_one_change_point_per_series(template):
    runs = recurring(template, DROP)
    found = history.histories(runs)
    levels = {step["threads"] for step in template["steps"]}
    assert {h.key.metric for h in found} == {"tps", "p95"}
    assert {h.key.level for h in found} == {threads_label(threads) for threads in levels}
    ids = list(dict.fromkeys(run["campaign"]["id"] for run in runs))
    for series in found:
        assert [point.campaign_id for point in series.points] == ids
        [change] = series.changes
        assert change.first_after.campaign_id == ids[3]
        assert change.last_before.campaign_id == ids[2]
        assert change.direction == "worse"  # less TPS, and a longer p95
        assert (change.before.points, change.after.points) == (3, 3)
        assert change.pvalue < history.MAX_PVALUE and change.low <= change.ratio <= change.high
        expected = 0.6 if series.key.metric == "tps" else 1 / 0.6
        assert change.ratio == pytest.approx(expected, rel=0.1)
        assert change.known is None


def test_noise_alone_is_no_change_point(template):
    for seed in range(5):
        assert not any(h.changes for h in history.histories(recurring(template, [1.0] * 6, seed)))


def test_a_move_inside_the_band_is_no_change_point(template):
    runs = [run for day in range(6) for run in occasion(template, day, 1 if day < 3 else 0.97)]
    assert not any(h.changes for h in history.histories(runs))


def test_a_campaign_is_one_point_the_median_of_its_passes_with_an_interval(template):
    runs = [
        run
        for day in range(2)
        for index, scale in enumerate((0.9, 1.0, 1.2))
        for run in occasion(template, day, scale, passes=3)[index : index + 1]
    ]
    [series] = [h for h in history.histories(runs) if h.key.metric == "tps"][:1]
    first = series.points[0]
    steps = [step for step in template["steps"] if step["threads"] == series.threads]
    tps = [round(steps[0]["tps"] * scale, 2) for scale in (0.9, 1.0, 1.2)]
    assert len(series.points) == 2 and first.value == statistics.median(tps)
    assert first.runs == tuple(run["id"] for run in runs[:3])
    assert first.low is not None and first.high is not None
    assert first.low < first.value < first.high


def test_flagged_passes_are_left_out_of_a_campaign_while_at_least_half_remain(template):
    runs = [run for day in range(2) for run in occasion(template, day, 1.0, passes=3)]

    def climb(run: dict) -> None:  # a climb from half to double: unsteady
        for step in run["steps"]:
            length = len(step["series"]["tps"])
            step["series"]["tps"] = [step["tps"] * (0.5 + 1.5 * i / length) for i in range(length)]
            step["tps"] *= 10

    climb(runs[0])  # one of three: left out
    for run in runs[3:5]:  # two of three: the campaign is flagged
        climb(run)
    [series] = [h for h in history.histories(runs) if h.key.metric == "tps"][:1]
    first, second = series.points
    assert not first.flagged and second.flagged
    step = next(s for s in template["steps"] if s["threads"] == series.threads)
    assert first.value == pytest.approx(step["tps"])  # the two unflagged passes


def test_no_change_is_claimed_on_flagged_campaigns(template):
    runs = recurring(template, DROP)
    for run in runs[3:]:
        for step in run["steps"]:  # a climb from half to double: unsteady
            length = len(step["series"]["tps"])
            step["series"]["tps"] = [step["tps"] * (0.5 + 1.5 * i / length) for i in range(length)]
    found = history.histories(runs)
    assert found and not any(h.changes for h in found)
    assert all([p.flagged for p in h.points] == [False] * 3 + [True] * 3 for h in found)


def test_hosts_are_kept_apart_and_one_campaign_is_no_history(template):
    runs = recurring(template, DROP)
    for run in runs[3:]:  # the slower campaigns ran on another machine
        run["host"] = {**run["host"], "hostname": "bench-2", "label": "bench-2"}
        run["host"]["fingerprint"] = "b2" * 32
    found = history.histories(runs)
    assert {h.key.host.split(" ")[0] for h in found} == {"bench-1", "bench-2"}
    assert not any(h.changes for h in found)  # three points a host, each level flat
    assert history.histories(runs[:1]) == []
    assert history.histories(runs, campaign="other") == []


def test_a_known_change_names_its_series_and_gives_the_change_its_reason(template):
    runs = recurring(template, DROP)
    since = runs[3]["campaign"]["id"]
    known = [
        {"campaign": "recurring", "since": since, "reason": "sync_binlog = 1", "metric": "tps"},
        {"campaign": "other", "since": since, "reason": "not this campaign"},
    ]
    found = history.histories(runs, known=known)
    for series in found:
        [change] = series.changes
        if series.key.metric == "tps":
            assert change.known == "sync_binlog = 1" and series.known == known[:1]
        else:
            assert change.known is None and series.known == []


def test_a_known_change_narrowed_to_a_host_matches_its_label():
    key = history.SeriesKey("recurring", "bench-1 · 62656e", "rw", "base", "1 thread", "tps")
    known = {"campaign": "recurring", "since": "x", "reason": "r"}
    assert history.applies({**known, "host": "bench-1"}, key)
    assert history.applies({**known, "host": "bench-1 · 62656e"}, key)
    assert not history.applies({**known, "host": "bench-2"}, key)
    assert not history.applies({**known, "level": "2 threads"}, key)


def test_an_insert_benchmark_history_follows_each_step_by_its_headline(fixture_runs):
    [run] = [
        run_file.doc
        for run_file in fixture_runs
        if run_file.doc["id"] == "ibench-performance-schema-20261123-143014.ps-off.ibench.p1"
    ]
    again = copy.deepcopy(run)
    again["id"] = run["id"].replace("20261123-143014", "20261124-143014")
    again["campaign"] = {**run["campaign"], "id": "ibench-performance-schema-20261124-143014"}
    again["started_at"] = "2026-11-24T14:30:14Z"
    found = {h.key.level: h for h in history.histories([run, again])}
    kinds = {step["step"]: step["kind"] for step in run["steps"]}
    assert set(found) == {name for name, kind in kinds.items() if kind in history.IBENCH_METRICS}
    for name, series in found.items():
        metric = history.IBENCH_METRICS[kinds[name]]
        assert series.key.metric == metric.name and len(series.points) == 2
        [step] = [step for step in run["steps"] if step["step"] == name]
        assert series.points[0].value == step[metric.figure]
