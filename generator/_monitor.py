"""The per-second monitoring of a run (step.monitor) as one time line per metric family.

Steps are laid end to end on one time axis, each labelled with its thread count, the way
Dimitri Kravtchuk's dim_STAT graphs line server metrics up with the load levels.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import plotly.graph_objects as go

import contract
from contract import IbenchStep, RunDocument, Step

# family -> (title, y-axis unit, metrics in the order they are drawn)
FAMILIES: dict[str, tuple[str, str, list[str]]] = {
    "cpu": (
        "CPU: host shares, and the server and sysbench processes (100 % = one core)",
        "%",
        ["cpu_user_pct", "cpu_system_pct", "cpu_iowait_pct", "cpu_steal_pct",
         "server_cpu_pct", "client_cpu_pct"],
    ),
    "io": ("Disk and redo log", "KB/s", ["read_kb_per_s", "write_kb_per_s", "redo_kb_per_s"]),
    "server": (
        "Server rates",
        "per second",
        ["questions_per_s", "handler_commits_per_s", "innodb_fsyncs_per_s",
         "row_lock_waits_per_s", "deadlocks_per_s"],
    ),
    "innodb": (
        "InnoDB state",
        "pages, entries, KB",
        ["dirty_pages", "history_list_length", "checkpoint_age_kb", "threads_running"],
    ),
}  # fmt: skip


SAMPLED_METRICS_FAMILY = ("Sampled INNODB_METRICS (counters per second, values as they are)", "")


def _families(steps: list[Step | IbenchStep]) -> dict[str, tuple[str, str, list[str]]]:
    """The fixed families, plus one for whatever INNODB_METRICS the campaign chose to sample."""
    sampled = {
        name
        for step in steps
        for name in step["monitor"]["series"]
        if name.startswith(contract.INNODB_METRICS_PREFIX)
    }
    families = dict(FAMILIES)
    if sampled:
        families["innodb-metrics"] = (*SAMPLED_METRICS_FAMILY, sorted(sampled))
    return families


def family_rules() -> dict[str, Any]:
    """The families as data, for the per-step drill-down the page's JS draws from run.json."""
    return {
        "families": [
            [name, title, unit, metrics] for name, (title, unit, metrics) in FAMILIES.items()
        ],
        "sampled": [*SAMPLED_METRICS_FAMILY, contract.INNODB_METRICS_PREFIX],
    }


def _seconds(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp).timestamp()


def step_label(step: Step | IbenchStep) -> str:
    """A thread level (sysbench) or an Insert Benchmark step's name."""
    return f"{step['threads']} thr" if "threads" in step else step["step"]


def monitored_steps(run: RunDocument) -> list[Step | IbenchStep]:
    return [step for step in run["steps"] if step.get("monitor") and step.get("started_at")]


def monitor_figures(run: RunDocument) -> dict[str, go.Figure]:
    """monitor-<family> figures; empty when the run has no per-second samples."""
    steps = monitored_steps(run)
    if not steps:
        return {}
    origin = _seconds(steps[0]["started_at"])
    starts = [_seconds(step["started_at"]) - origin for step in steps]
    figures = {}
    for family, (_, unit, metrics) in _families(steps).items():
        traces = []
        for metric in metrics:
            x: list[float | None] = []
            y: list[float | None] = []
            for start, step in zip(starts, steps, strict=True):
                series = step["monitor"]["series"]
                if metric not in series:
                    continue
                x += [round(start + t, 1) for t in series["t"]] + [None]  # None breaks the line
                y += [*series[metric], None]
            if x:
                traces.append(go.Scatter(name=metric, x=x, y=y, mode="lines"))
        if not traces:
            continue
        figures[f"monitor-{family}"] = go.Figure(
            data=traces,
            layout={
                "template": "none",
                "xaxis": {"title": {"text": "seconds since the first step"}},
                "yaxis": {"title": {"text": unit}, "rangemode": "tozero"},
                "annotations": [
                    {"x": start, "y": 1, "yref": "paper", "text": step_label(step),
                     "showarrow": False, "xanchor": "left", "yanchor": "bottom"}
                    for start, step in zip(starts, steps, strict=True)
                ],
            },
        )  # fmt: skip
    return figures


def step_averages(run: RunDocument) -> dict[str, Any]:
    """Per family, the mean of each metric over each step: the data table under each chart."""
    steps = monitored_steps(run)
    tables = {}
    for family, (title, unit, metrics) in _families(steps).items():
        present = [m for m in metrics if any(m in s["monitor"]["series"] for s in steps)]
        if not present:
            continue
        rows = []
        for step in steps:
            series = step["monitor"]["series"]
            values = [
                round(sum(series[m]) / len(series[m]), 2) if series.get(m) else None
                for m in present
            ]
            rows.append({"step": step_label(step), "values": values})
        tables[f"monitor-{family}"] = {
            "title": title,
            "unit": unit,
            "metrics": present,
            "rows": rows,
        }
    return tables
