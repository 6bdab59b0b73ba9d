"""The write-debt rules (generator/analysis/write_debt.py) on crafted series and on the fixture
documents: a write step inherits debt when it starts above the settled checkpoint age, and is
transient when its debt is still growing or reaches its ceiling in the second half of the kept
window; each is a flag of the step's verdict (generator/analysis/verdict.py).

The crafted step runs 21 s: the warm-up cut keeps the last 19 samples of each series, and the
step's first sample less the redo of that second (4 MB) is where it started."""

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


def kinds(document: dict) -> list[str]:
    """The kinds of the step's flags (its TPS is flat and no client or steal is recorded: only
    write debt can flag it)."""
    (trust,) = run_trust(document)
    return [flag["kind"] for flag in trust["flags"]]


SAW_TOOTH = [60, 57, 61, 59, 60, 58, 61, 60, 59, 57, 60, 61, 59, 60, 58, 60]


def test_a_debt_that_reaches_its_ceiling_early_and_holds_is_fit():
    document = run([2, 20, 40, 58, *SAW_TOOTH])  # 20 -> 60 MB of 256 in 2 s, then flat
    debt = verdict(document)
    assert debt is not None and debt["steady"] is True and debt["reasons"] == []
    assert (debt["inherited"], debt["transient"], debt["ceiling_s"]) == (False, False, 2)
    assert debt["start_mb"] == 0 and debt["settled_mb"] == round(256 * write_debt.SETTLED_SHARE)
    assert debt["checkpoint_mb"] == [20, 60] and debt["kept_s"] == 19
    assert debt["capacity_mb"] == 256 and debt["async_mb"] == round(256 * write_debt.ASYNC_SHARE)
    assert debt["end_share_of_async"] == round(60 / (256 * write_debt.ASYNC_SHARE), 2)
    assert kinds(document) == []


def test_a_debt_still_climbing_at_the_end_is_transient():
    document = run([2 + 3 * second for second in range(20)])  # 5 -> 59 MB, no ceiling
    debt = verdict(document)
    assert debt is not None and debt["reasons"] == ["debt still growing"]
    assert (debt["inherited"], debt["transient"], debt["ceiling_s"]) == (False, True, None)
    assert debt["start_mb"] == 0 and debt["peak_mb"] == 59
    assert kinds(document) == ["transient"]


def test_checkpoint_cycles_of_a_small_log_are_its_equilibrium():
    # 64 MB log: the age climbs to the async point, a flush drops it, and it climbs again; the
    # window ends in the next climb, as the 1-thread OLTP_RW steps of a 64 MB log do on the VM
    ages = [2, 20, 40, 46, 8, 7, 7, 7, 7, 7, 8, 12, 18, 24, 30, 36, 40, 44, 46, 47]
    document = run(ages, log_file_size=str(64 * 1024 * 1024))
    debt = verdict(document)
    assert debt is not None and debt["reasons"] == [] and debt["ceiling_s"] == 2
    assert kinds(document) == []
    # the same climb without the flush before it is still growing
    climbing = run(
        [2, 20, 40, 46, *[46.5] * 8, 47, 48, 49, 50, 51, 52], log_file_size=str(64 * 1024 * 1024)
    )
    assert kinds(climbing) == ["transient"]


def test_a_ceiling_reached_in_the_second_half_of_the_window_is_transient():
    document = run([5] * 12 + [60] * 8)  # the debt jumps to its ceiling 11 s into 19
    debt = verdict(document)
    assert debt is not None and debt["reasons"] == ["debt reached its ceiling late"]
    assert (debt["transient"], debt["ceiling_s"], debt["kept_s"]) == (True, 11, 19)
    assert kinds(document) == ["transient"]


def test_a_step_that_starts_above_the_settled_age_inherits_debt():
    document = run([180 + (second % 3) for second in range(20)])  # 180 MB from the start
    debt = verdict(document)
    assert debt is not None and debt["reasons"] == ["started above the settled checkpoint age"]
    assert (debt["inherited"], debt["transient"], debt["start_mb"]) == (True, False, 176)
    assert kinds(document) == ["inherited"]
    # the harness's settle record before the step, when there is one, is where it started
    document["steps"][0]["settle"] = {"after": {"checkpoint_age_kb": 5 * MB}}
    settled = verdict(document)
    assert settled is not None and (settled["inherited"], settled["start_mb"]) == (False, 5)
    assert settled["settle"] == {"after": {"checkpoint_age_kb": 5 * MB}}


def test_climbing_dirty_pages_are_a_transient_debt():
    dirty = [1000.0 + 400 * second for second in range(20)]  # +7,200 of 32,768 pages, rising
    document = run([10] * 20, dirty=dirty)
    debt = verdict(document)
    assert debt is not None and debt["reasons"] == ["debt still growing"]
    assert debt["dirty_pages"] == [1400.0, 8600.0]
    assert kinds(document) == ["transient"]


def test_a_read_only_step_is_never_judged():
    assert verdict(run([10 + 20 * second for second in range(20)], redo_kb_per_s=0.0)) is None
    assert verdict(run([180.0] * 20, redo_kb_per_s=10.0)) is None  # old debt, no writes now
    assert kinds(run([180.0] * 20, redo_kb_per_s=10.0)) == []


def test_unknown_capacity_is_said_and_judged_on_the_trend():
    climbing = verdict(run([2 + 3 * second for second in range(20)], log_file_size=None))
    assert climbing is not None and climbing["capacity_mb"] is None
    assert climbing["settled_mb"] is None and climbing["async_mb"] is None
    assert climbing["reasons"] == ["debt still growing"]  # never "inherited": no threshold
    flat = verdict(run([40, 42, 39, 41, 40, 43, 40, 41, 42, 40] * 2, log_file_size=None))
    assert flat is not None and flat["steady"] is True and flat["capacity_mb"] is None


def test_the_fixture_write_runs_are_judged_and_the_read_only_ones_not(fixture_runs):
    by_id = {run_file.doc["id"]: run_file.doc for run_file in fixture_runs}
    write = by_id["binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"]
    judged = [entry["write_debt"] for entry in run_trust(write)]
    assert all(debt is not None and debt["capacity_mb"] == 256 for debt in judged)
    # 10 s steps, one after the other with no settle between them: each starts where the one
    # before it ended (12, 28, 47 ... 97 MB), and none reaches a ceiling in 9 kept seconds
    assert [debt["start_mb"] for debt in judged] == [12, 28, 47, 67, 84, 97]
    assert [debt["inherited"] for debt in judged] == [False] + [True] * 5
    assert all(debt["transient"] and debt["ceiling_s"] is None for debt in judged)
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
