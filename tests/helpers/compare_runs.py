"""Two hand-made runs of one campaign for the compare page tests, built from a committed run
with per-second monitoring: every number and variable a test checks is set here.

Ratios of "tuned" to "base" (TPS; p95 latency, where lower is better):
  threads  base TPS  tuned TPS  ratio             base p95  tuned p95  ratio
  1        1000      1040       1.04 same         1.0       0.5        0.50 better
  2        2000      1500       0.75 worse        2.0       2.2        1.10 worse
  4        4000      4500       1.12 better (*)   4.0       4.0        1.00 same
  8        5000      5550       1.11 noise (**)   8.0       8.8        1.10 noise (**)
  16       6000      -          missing           16.0      -          missing
(*) 1.125 exactly: Python's round() makes it 1.12 (ties to even), toFixed would say 1.13.
(**) every step lasts LONG_STEP_S seconds (enough for a per-second interval) and every
per-second series is its step's value times 1 ± SWING, alternating: the runs' log means differ
by exactly the ratio; at 8 threads both swing instead by 15 % in a slow wave (a period of
SLOW_PERIOD_S), steady by the steady-state test, but so correlated that 36 kept seconds a side
hold about 7 effective samples, too few to rule out a change of 10 %.
Every step is fit to judge (generator/analysis/verdict.py): the probe writes no redo (no write
debt to judge) and records no VM steal.

The same pair again under DRIFT_CAMPAIGN, tuned measured on another kernel.
"""

from __future__ import annotations

import copy
import math

from tests.helpers.long_steps import lengthen

CAMPAIGN = "compare-probe-20260101-000000"
WORKLOAD = "point-select"
BASE, TUNED = "base", "tuned"
THREADS = (1, 2, 4, 8, 16)
TPS = {BASE: (1000, 2000, 4000, 5000, 6000), TUNED: (1040, 1500, 4500, 5550)}
P95 = {BASE: (1.0, 2.0, 4.0, 8.0, 16.0), TUNED: (0.5, 2.2, 4.0, 8.8)}
QPS_PER_TPS = 10
SWING = {1: 0.01, 2: 0.01, 4: 0.01, 8: 0.15, 16: 0.01}
SLOW_PERIOD_S = 16
SLOW = 8  # the thread level whose series swing slowly
TPS_RATIOS = ["1.04", "0.75 ▼ (worse)", "1.12 ▲ (better)", "1.11 ≈ (within noise)", "—"]
TPS_VERDICTS = ["same", "worse", "better", "noise", "missing"]
P95_RATIOS = ["0.50 ▲ (better)", "1.10 ▼ (worse)", "1.00", "1.10 ≈ (within noise)", "—"]
DRIFT_CAMPAIGN = "compare-drift-20260101-000000"
DRIFT_KERNEL = "6.1.0-probe-drift"

# The effective differences, by group, with each tuned/base cell's source.
DIFF_ROWS = {
    "InnoDB": ["innodb_buffer_pool_size", "innodb_probe_only_in_tuned"],
    "Binary log and replication": ["log_bin"],
    "Other": ["loose_probe_unknown_option"],
}
INSTANCE_ROWS = ["datadir", "port"]


def template_run(runs: list[dict]) -> dict:
    """A committed complete run with five or more steps, each with monitoring samples."""
    found = [
        run
        for run in runs
        if run["status"] == "complete"
        and len(run["steps"]) >= len(THREADS)
        and all(step.get("monitor") for step in run["steps"])
    ]
    assert found, "no committed run with monitoring over five thread levels"
    return min(found, key=lambda run: run["id"])


def run_id(variant: str, campaign: str = CAMPAIGN) -> str:
    return f"{campaign}.{variant}.{WORKLOAD}"


def _swinging(value: float, seconds: int, threads: int) -> list[float]:
    swing = SWING[threads]
    if threads == SLOW:
        return [
            value * (1 + swing * math.sin(2 * math.pi * second / SLOW_PERIOD_S))
            for second in range(seconds)
        ]
    return [value * (1 + swing * (-1) ** second) for second in range(seconds)]


def _in_campaign(run: dict, campaign: str, variant: str) -> None:
    name = campaign.rsplit("-", 2)[0]
    run.update(id=run_id(variant, campaign), variant=variant, status="complete")
    run["campaign"] = {
        "id": campaign,
        "name": name,
        "title": name.replace("-", " ").capitalize(),
        "file": f"campaigns/{name}.toml",
        "variant_order": [BASE, TUNED],
    }


def _run(template: dict, variant: str) -> dict:
    run = copy.deepcopy(template)
    run.pop("repeat", None)
    _in_campaign(run, CAMPAIGN, variant)
    run["workload"]["name"] = WORKLOAD
    run["workload"].pop("suite", None)
    steps = []
    for index, (tps, p95) in enumerate(zip(TPS[variant], P95[variant], strict=False)):
        step = copy.deepcopy(template["steps"][index])
        lengthen(step)
        step.update(threads=THREADS[index], tps=tps)
        step["qps"] = {
            "total": tps * QPS_PER_TPS,
            "read": tps * QPS_PER_TPS,
            "write": 0,
            "other": 0,
        }
        step["latency_ms"]["p95"] = p95
        seconds, threads = len(step["series"]["t"]), THREADS[index]
        step["series"].update(
            tps=_swinging(tps, seconds, threads),
            qps=_swinging(tps * QPS_PER_TPS, seconds, threads),
            p95_ms=_swinging(p95, seconds, threads),
        )
        monitored = step["monitor"]["series"]
        monitored["redo_kb_per_s"] = [0] * len(monitored["redo_kb_per_s"])
        step.setdefault("os", {})["cpu_steal_pct"] = 0.0
        steps.append(step)
    run["steps"] = steps
    return run


def compare_runs(runs: list[dict]) -> list[dict]:
    """[base, tuned]: same server variables and my.cnf but for the rows DIFF_ROWS and
    INSTANCE_ROWS name (and sync_binlog, set in tuned's my.cnf to its default: no difference)."""
    template = template_run(runs)
    base, tuned = _run(template, BASE), _run(template, TUNED)
    options = dict(template["server"].get("my_cnf_options", {}))
    for name in ("log_bin", "skip_log_bin", "sync_binlog", "innodb_buffer_pool_size"):
        options.pop(name, None)
    base["server"]["my_cnf_options"] = {**options, "skip_log_bin": "ON"}
    tuned["server"]["my_cnf_options"] = {
        **options,
        "log_bin": "binlog",
        "sync_binlog": "0",
        "innodb_buffer_pool_size": "1G",
        "loose_probe_unknown_option": "1",
    }
    variables = dict(template["server"]["variables"])
    variables.pop("innodb_probe_only_in_tuned", None)
    base["server"]["variables"] = {
        **variables,
        "log_bin": "OFF",
        "sync_binlog": "0",
        "innodb_buffer_pool_size": "134217728",
        "datadir": "/srv/probe/base/",
        "port": "3306",
    }
    tuned["server"]["variables"] = {
        **base["server"]["variables"],
        "log_bin": "ON",
        "innodb_buffer_pool_size": "1073741824",
        "innodb_probe_only_in_tuned": "ON",
        "datadir": "/srv/probe/tuned/",
        "port": "3307",
    }
    return [base, tuned]


def drifted_runs(probe: list[dict]) -> list[dict]:
    """The probe pair (compare_runs) again under DRIFT_CAMPAIGN, tuned on DRIFT_KERNEL."""
    drifted = []
    for run in copy.deepcopy(probe):
        _in_campaign(run, DRIFT_CAMPAIGN, run["variant"])
        drifted.append(run)
    drifted[1]["host"]["kernel"] = DRIFT_KERNEL
    return drifted
