"""A recurring campaign's history (generator/analysis/history.py): series joined across the
campaigns of one name, kept apart by host, and Apache Otava's change points judged like a cell:
one change where the level moves, none in noise, none on flagged steps."""

from __future__ import annotations

import copy
import random

import pytest

from generator.analysis import history

TEMPLATE = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"
NOISE = 0.03  # relative, one standard deviation: what a quiet host's passes spread by


@pytest.fixture(scope="module")
def template(fixture_runs) -> dict:
    [run] = [run_file.doc for run_file in fixture_runs if run_file.doc["id"] == TEMPLATE]
    return run


def occasion(template: dict, day: int, scale: float, host: str = "bench-1") -> dict:
    """The template run as the only pass of campaign `recurring` run on day `day`: every step
    steady at scale x its TPS (p95 divided by it), on host `host`."""
    run = copy.deepcopy(template)
    campaign_id = f"recurring-202611{day:02d}-120000"
    run["id"] = f"{campaign_id}.base.rw.p1"
    run["campaign"] = {**run["campaign"], "id": campaign_id, "name": "recurring"}
    run["variant"] = "base"
    run["started_at"] = f"2026-11-{day:02d}T12:00:00Z"
    run["host"] = {**run["host"], "hostname": host, "label": host, "fingerprint": host * 4}
    for step in run["steps"]:
        step["tps"] = round(step["tps"] * scale, 2)
        step["latency_ms"]["p95"] = round(step["latency_ms"]["p95"] / scale, 3)
        step["series"]["tps"] = [step["tps"]] * len(step["series"]["tps"])
        step.pop("monitor", None)  # no write-debt samples: the step is judged on its TPS alone
        step.setdefault("os", {})["cpu_steal_pct"] = 0.0
    return run


def six_days(template: dict, after_third: float, seed: int = 7) -> list[dict]:
    """Six campaigns a day apart, each within NOISE of its level; from the fourth on, the level
    is after_third times the first three's."""
    rng = random.Random(seed)
    return [
        occasion(template, day, (1 if day <= 3 else after_third) * (1 + rng.gauss(0, NOISE)))
        for day in range(1, 7)
    ]


def test_a_drop_from_the_fourth_campaign_is_one_change_point_per_series(template):
    found = history.histories(six_days(template, after_third=0.6))
    levels = {step["threads"] for step in template["steps"]}
    assert {h.key.metric for h in found} == {"tps", "p95"}
    assert {h.key.level for h in found} == {f"{threads} threads" for threads in levels}
    for series in found:
        assert [point.started_at[:10] for point in series.points] == [
            f"2026-11-0{day}" for day in range(1, 7)
        ]
        [change] = series.changes
        assert change.first_after.campaign_id == "recurring-20261104-120000"
        assert change.last_before.campaign_id == "recurring-20261103-120000"
        assert change.direction == "worse"  # less TPS, and a longer p95
        assert (change.before.points, change.after.points) == (3, 3)
        assert change.pvalue < history.MAX_PVALUE and change.low <= change.ratio <= change.high
        expected = 0.6 if series.key.metric == "tps" else 1 / 0.6
        assert change.ratio == pytest.approx(expected, rel=0.1)


def test_noise_alone_is_no_change_point(template):
    for seed in range(5):
        assert not any(h.changes for h in history.histories(six_days(template, 1.0, seed)))


def test_a_move_inside_the_band_is_no_change_point(template):
    runs = [occasion(template, day, 1.0 if day <= 3 else 0.97) for day in range(1, 7)]
    assert not any(h.changes for h in history.histories(runs))


def test_no_change_is_claimed_on_flagged_steps(template):
    runs = six_days(template, after_third=0.6)
    for run in runs[3:]:
        for step in run["steps"]:  # a climb from half to double: unsteady
            length = len(step["series"]["tps"])
            step["series"]["tps"] = [step["tps"] * (0.5 + 1.5 * i / length) for i in range(length)]
    found = history.histories(runs)
    assert found and not any(h.changes for h in found)
    assert all([p.flagged for p in h.points] == [False] * 3 + [True] * 3 for h in found)


def test_hosts_are_kept_apart_and_one_campaign_is_no_history(template):
    runs = six_days(template, after_third=0.6)
    for run in runs[3:]:  # the slower campaigns ran on another machine
        run["host"] = {**run["host"], "hostname": "bench-2", "label": "bench-2"}
        run["host"]["fingerprint"] = "bench-2" * 4
    found = history.histories(runs)
    assert {h.key.host.split(" ")[0] for h in found} == {"bench-1", "bench-2"}
    assert not any(h.changes for h in found)  # three points a host, each level flat
    assert history.histories(runs[:1]) == []
    assert history.histories(runs, campaign="other") == []


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
