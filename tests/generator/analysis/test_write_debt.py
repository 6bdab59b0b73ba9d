"""The write-debt rules (generator/analysis/write_debt.py) on crafted series and on the fixture
documents."""

from __future__ import annotations

import copy

from generator.analysis import write_debt
from generator.analysis.trust import run_trust
from generator.pages.campaign import summarize_campaign

MB = 1024.0  # the series are in KB
LOG = str(256 * 1024 * 1024)


def run(
    ages_mb: list[float],
    redo_kb_per_s: float = 4096.0,
    dirty: list[float] | None = None,
    log_file_size: str | None = LOG,
) -> dict:
    n = len(ages_mb)
    variables = {"innodb_buffer_pool_size": str(512 * 1024 * 1024), "innodb_page_size": "16384"}
    if log_file_size is not None:
        variables["innodb_log_file_size"] = log_file_size
    step = {
        "threads": 4,
        "duration_s": float(n + 1),
        "tps": 100.0,
        "series": {"t": list(range(1, n + 2)), "tps": [100.0] * (n + 1)},
        "monitor": {"series": {
            "checkpoint_age_kb": [age * MB for age in ages_mb],
            "redo_kb_per_s": [redo_kb_per_s] * n,
            "dirty_pages": dirty if dirty is not None else [10000.0] * n,
        }},
    }  # fmt: skip
    return {
        "id": "r",
        "variant": "v",
        "workload": {"tool": "sysbench", "client_cpu_affinity": [1]},
        "host": {"cpu_threads": 2},
        "server": {"variables": variables},
        "steps": [step],
    }


def verdict(document: dict) -> dict | None:
    (trust,) = run_trust(document)
    return trust["write_debt"]


def test_a_climbing_checkpoint_age_is_write_debt_with_its_figures():
    debt = verdict(run([10 + 3 * second for second in range(10)]))  # 10 -> 37 MB of 256
    assert debt is not None and debt["steady"] is False
    assert debt["reasons"] == ["checkpoint age climbs"]
    assert debt["checkpoint_mb"] == [10, 37] and debt["capacity_mb"] == 256
    assert debt["async_mb"] == round(256 * write_debt.ASYNC_SHARE)


def test_a_flat_checkpoint_age_well_under_the_flush_point_is_steady():
    debt = verdict(run([40, 42, 39, 41, 40, 43, 40, 41, 42, 40]))
    assert debt is not None and debt["steady"] is True and debt["reasons"] == []


def test_reaching_the_async_flush_point_is_write_debt_even_when_it_falls_back():
    debt = verdict(run([175, 181, 150, 90, 40, 12, 14, 16, 18, 20]))  # a flush storm mid-step
    assert debt is not None and debt["steady"] is False
    assert debt["reasons"] == ["checkpoint age near the async flush point"]
    assert debt["peak_mb"] == 181


def test_climbing_dirty_pages_are_write_debt():
    dirty = [1000.0 + 400 * second for second in range(10)]  # +3,600 of 32,768 pages: 11 %
    debt = verdict(run([40] * 10, dirty=dirty))
    assert debt is not None and debt["reasons"] == ["dirty pages climb"]


def test_a_read_only_step_is_never_judged():
    assert verdict(run([10 + 20 * second for second in range(10)], redo_kb_per_s=0.0)) is None
    assert verdict(run([180.0] * 10, redo_kb_per_s=10.0)) is None  # old debt, no writes now


def test_unknown_capacity_is_said_and_judged_on_the_trend():
    climbing = verdict(run([10 + 3 * second for second in range(10)], log_file_size=None))
    assert climbing is not None and climbing["capacity_mb"] is None
    assert climbing["reasons"] == ["checkpoint age climbs"]
    flat = verdict(run([40, 42, 39, 41, 40, 43, 40, 41, 42, 40], log_file_size=None))
    assert flat is not None and flat["steady"] is True and flat["capacity_mb"] is None


def test_the_fixture_write_runs_are_judged_and_the_read_only_ones_not(fixture_runs):
    by_id = {run_file.doc["id"]: run_file.doc for run_file in fixture_runs}
    write = by_id["binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"]
    judged = [entry["write_debt"] for entry in run_trust(write)]
    assert all(debt is not None and debt["capacity_mb"] == 256 for debt in judged)
    # 14 -> 27 MB at 1 thread (5 %), 10 and 11 MB of 256 at 16 and 32 threads (under 5 %)
    assert [debt["steady"] for debt in judged] == [False, False, False, False, True, True]
    assert judged[0]["checkpoint_mb"] == [14, 27] and judged[0]["dirty_pages"] == [4084, 5871]
    read = by_id["callaghan-10-11-vs-11-4-20261122-045700.mariadb-10-11.base.point-query-r100"]
    assert [entry["write_debt"] for entry in run_trust(read)] == [None]


def _start_at(document: dict, start_mb: float) -> dict:
    shifted = copy.deepcopy(document)
    ages = shifted["steps"][0]["monitor"]["series"]["checkpoint_age_kb"]
    ages[:] = [start_mb * MB + age - ages[0] for age in ages]
    return shifted


def test_the_campaign_flags_runs_that_start_from_different_checkpoint_ages(fixture_runs):
    """The committed 10.11 vs 11.4 Update-NoKey shape: one variant starts every pass near the
    async point (about 180 MB of 256), the other near empty."""
    runs = [
        run_file.doc
        for run_file in fixture_runs
        if run_file.doc["campaign"]["id"] == "binlog-sync-policies-20261123-133014"
    ]
    (workload,) = summarize_campaign(runs)["workloads"]
    assert workload["write_debt"]["flagged"] is False  # as recorded: 14 to 18 MB
    shaped = [_start_at(r, 180 if r["variant"] == "sync-1" else 10) for r in runs]
    (workload,) = summarize_campaign(shaped)["workloads"]
    flag = workload["write_debt"]
    assert flag["flagged"] is True and flag["spread_share"] == round(170 / 256, 3)
    starts = {(s["variant"], s["pass"]): s["start_mb"] for s in flag["starts"]}
    assert starts[("sync-1", 2)] == 180 and starts[("binlog-off", 3)] == 10


def test_a_read_only_workload_is_never_flagged(fixture_runs):
    runs = [
        run_file.doc
        for run_file in fixture_runs
        if run_file.doc["workload"]["name"] == "point-query-r100"
    ]
    assert write_debt.start_spread(runs) is None
