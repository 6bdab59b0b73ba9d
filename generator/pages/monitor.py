"""The per-second monitoring of a run (step.monitor) grouped into metric families: the families
themselves (also shipped to the page's drill-down) and the per-step means under each chart.
The charts are generator/figures/monitor.py's.
"""

from __future__ import annotations

from typing import Any

import contract
from contract import IbenchStep, RunDocument, Step
from generator.hugo.site_contract import monitor_figure
from generator.pages.run_tables import shown_steps

# family -> (title, y-axis unit, metrics in the order they are drawn). One unit per family, and
# no metric on an axis that another one's magnitude would flatten (questions/s run in the
# thousands where fsyncs/s stay in the tens).
FAMILIES: dict[str, tuple[str, str, list[str]]] = {
    "cpu": (
        "CPU: host shares, and the server and sysbench processes (100 % = one core)",
        "%",
        ["cpu_user_pct", "cpu_system_pct", "cpu_iowait_pct", "cpu_steal_pct",
         "server_cpu_pct", "client_cpu_pct"],
    ),
    "io": ("Disk and redo log", "KB/s", ["read_kb_per_s", "write_kb_per_s", "redo_kb_per_s"]),
    "statements": (
        "Statements and commits", "per second", ["questions_per_s", "handler_commits_per_s"]
    ),
    "fsyncs": ("InnoDB fsyncs", "fsyncs per second", ["innodb_fsyncs_per_s"]),
    "locks": (
        "Row lock waits and deadlocks", "per second", ["row_lock_waits_per_s", "deadlocks_per_s"]
    ),
    "dirty-pages": ("Dirty pages in the buffer pool", "pages", ["dirty_pages"]),
    "history": ("History list length", "undo log entries", ["history_list_length"]),
    "checkpoint": ("Checkpoint age", "KB", ["checkpoint_age_kb"]),
    "threads": ("Threads running", "threads", ["threads_running"]),
}  # fmt: skip


# The INNODB_METRICS a campaign samples, one family per kind the harness recorded
# (step.monitor.kinds: kind -> family, title, unit), so each chart has one unit.
SAMPLED_BY_KIND: dict[str, tuple[str, str, str]] = {
    "counter": ("innodb-metrics-counters", "Sampled INNODB_METRICS counters", "per second"),
    "value": ("innodb-metrics-values", "Sampled INNODB_METRICS values", "value as read"),
}
# Runs recorded before the harness kept the kinds: one chart, said to be mixed. A metric's
# kind is never guessed from its name. The family keeps the figure id those runs always had.
MIXED_SAMPLED_FAMILY = (
    "innodb-metrics",
    (
        "Sampled INNODB_METRICS, counters (per second) and values (as read) on one axis: this "
        "run did not record which metric is which kind"
    ),
    "",
)


def families(steps: list[Step | IbenchStep]) -> dict[str, tuple[str, str, list[str]]]:
    """The fixed families, plus those of whatever INNODB_METRICS the campaign chose to sample:
    one per recorded kind, and a mixed one for series whose kind was not recorded."""
    sampled: set[str] = set()
    kinds: dict[str, str] = {}
    for step in steps:
        monitor = step["monitor"]
        sampled |= {
            name for name in monitor["series"] if name.startswith(contract.INNODB_METRICS_PREFIX)
        }
        kinds.update(monitor.get("kinds", {}))
    families = dict(FAMILIES)
    # (family, title, unit, kind); kind None: the series whose kind was not recorded
    groups: list[tuple[str, str, str, str | None]] = [
        (*family, kind) for kind, family in SAMPLED_BY_KIND.items()
    ]
    groups.append((*MIXED_SAMPLED_FAMILY, None))
    for family, title, unit, kind in groups:
        metrics = sorted(name for name in sampled if kinds.get(name) == kind)
        if metrics:
            families[family] = (title, unit, metrics)
    return families


def family_rules() -> dict[str, Any]:
    """The families as data, for the per-step drill-down the page's JS draws from run.json:
    the fixed ones, and how to group the sampled INNODB_METRICS by their recorded kind."""
    return {
        "families": [
            [name, title, unit, metrics] for name, (title, unit, metrics) in FAMILIES.items()
        ],
        "sampled": {
            "prefix": contract.INNODB_METRICS_PREFIX,
            "kinds": {kind: [title, unit] for kind, (_, title, unit) in SAMPLED_BY_KIND.items()},
            "mixed": list(MIXED_SAMPLED_FAMILY[1:]),
        },
    }


def step_label(step: Step | IbenchStep) -> str:
    """A thread level (sysbench) or an Insert Benchmark step's name."""
    return f"{step['threads']} thr" if "threads" in step else step["step"]


def monitored_steps(run: RunDocument) -> list[Step | IbenchStep]:
    return [
        step
        for step in contract.recorded_steps(run)
        if step.get("monitor") and step.get("started_at")
    ]


def step_averages(run: RunDocument) -> dict[str, Any]:
    """Per family, the mean of each metric over each step: the data table under each chart
    (at most run_tables.MAX_TABLE_STEPS steps, evenly spaced, and a note when it leaves some out)."""
    steps = monitored_steps(run)
    shown = shown_steps(steps)
    note = (
        "" if len(shown) == len(steps) else f"{len(shown)} of {len(steps):,} steps, evenly spaced"
    )
    tables = {}
    for family, (title, unit, metrics) in families(steps).items():
        present = [m for m in metrics if any(m in s["monitor"]["series"] for s in steps)]
        if not present:
            continue
        rows = []
        for step in shown:
            series = step["monitor"]["series"]
            values = [
                round(sum(series[m]) / len(series[m]), 2) if series.get(m) else None
                for m in present
            ]
            rows.append({"step": step_label(step), "values": values})
        tables[monitor_figure(family)] = {
            "title": title,
            "unit": unit,
            "metrics": present,
            "rows": rows,
            "note": note,
        }
    return tables
