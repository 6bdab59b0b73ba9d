"""The run page's per-step tables as text: its summary of the steps, throughput, latency, host
counters and cost per operation (with the server's and the client's own CPU apart where the
step recorded them or its samples give them, analysis/cpu_split.py), a row of ready strings per
step.

Formatted in the template, each cell was a helper call (helpers/num.html), several hundred per
run page and most of its rendering time; as strings they are printed as they are. The numbers
follow the site's one format (numbers.py, an absent one an em dash); counts the template printed
as they are (threads, errors, reconnects) are plain integers, and empty when absent, as Hugo
prints a missing field.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, Step, sysbench_steps
from contract.fields import StepFigure, figures_under, step_figure
from generator.analysis.cpu_split import CpuFigure, cpu_split
from generator.pages.numbers import format_number
from generator.pages.run_tables import shown_steps

# Columns of each table after the thread level, by figure (a dotted path within the step).
SUMMARY_FIELDS: tuple[StepFigure, ...] = (
    "tps",
    "qps.total",
    "rows_per_s",
    "latency_ms.avg",
    "latency_ms.p95",
)
SUMMARY_FIELDS_AFTER: tuple[StepFigure, ...] = ("latency_ms.p99", "latency_ms.max")
THROUGHPUT_FIELDS: tuple[StepFigure, ...] = ("tps", *figures_under("qps"))
LATENCY_FIELDS = figures_under("latency_ms")  # min, avg, p95, p99, max
HOST_FIELDS = figures_under("os")
COST_FIELDS = figures_under("per_op")
# After a CPU figure derived from the per-second samples (cpu_split.CpuFigure.sampled); the
# table's caption says what it means.
SAMPLED_MARK = "\u2020"
# The step fields a run page shows only through these tables.
TABLED_STEP_FIELDS = ("qps", "latency_ms", "os", "per_op")


def _count(value: float | None) -> str:
    """A count as the template printed it: 12, or empty when absent."""
    if value is None:
        return ""
    return str(int(value)) if value == int(value) else str(value)


def _numbers(step: Step, figures: tuple[StepFigure, ...]) -> list[str]:
    return [format_number(step_figure(step, figure)) for figure in figures]


def summary_rows(steps: list[Step]) -> dict[str, Any]:
    """{"scan": whether a step has rows/s (its column shown), "rows": per step threads, TPS,
    QPS, [rows/s,] avg, p95, p99 and max ms, errors, reconnects, seconds}."""
    scan = any("rows_per_s" in step for step in steps)
    fields = SUMMARY_FIELDS if scan else tuple(f for f in SUMMARY_FIELDS if f != "rows_per_s")
    return {
        "scan": scan,
        "rows": [
            [
                _count(step.get("threads")),
                *_numbers(step, fields + SUMMARY_FIELDS_AFTER),
                _count(step.get("errors")),
                _count(step.get("reconnects")),
                format_number(step.get("duration_s")),
            ]
            for step in steps
        ],
    }


def _rows(steps: list[Step], fields: tuple[StepFigure, ...]) -> list[list[str]]:
    return [[_count(step.get("threads")), *_numbers(step, fields)] for step in steps]


def cpu_cell(figure: CpuFigure) -> str:
    """A server or client CPU figure, marked when derived from the per-second samples."""
    text = format_number(figure.us_per_op)
    return text + SAMPLED_MARK if figure.sampled and figure.us_per_op is not None else text


def cost_table(steps: list[Step]) -> dict[str, Any] | None:
    """{"op", "split": whether the server and client CPU columns are shown (some step has a
    figure), "sampled": whether a figure is marked, "rows": threads, cpu/o, [server, client,]
    cs/o, rKB/o, wKB/o, "note"} over the steps with per_op, at most MAX_TABLE_STEPS of them
    (evenly spaced: a sweep of thousands of levels printed whole went over the page's size
    limit once the CPU was split); None when none has it."""
    recorded = [step for step in steps if step.get("per_op") is not None]
    if not recorded:
        return None
    cost = shown_steps(recorded)
    splits = [cpu_split(step) for step in cost]
    split = any(s is not None and s.known for s in splits)
    rows = _rows(cost, COST_FIELDS)
    if split:
        for row, cpu in zip(rows, splits, strict=True):
            if cpu is not None:
                row[2:2] = [cpu_cell(cpu.server), cpu_cell(cpu.client)]
    return {
        "op": cost[0]["per_op"]["op"],
        "split": split,
        "sampled": any(s is not None and s.sampled for s in splits),
        "rows": rows,
        "note": ""
        if len(cost) == len(recorded)
        else f"{len(cost)} of {len(recorded):,} thread levels, evenly spaced",
    }


def step_tables(run: RunDocument) -> dict[str, Any]:
    """The summary's steps, and the throughput, latency, host and cost tables: each {"rows":
    [...], ...} (a row's first cell its thread level); host and cost over the steps that
    recorded them, cost with its operation's name ("op"), None when no step did."""
    steps = sysbench_steps(run)
    host = [step for step in steps if step.get("os") is not None]
    return {
        "summary": summary_rows(steps),
        "throughput": {"rows": _rows(steps, THROUGHPUT_FIELDS)},
        "latency": {"rows": _rows(steps, LATENCY_FIELDS)},
        "host": {"rows": _rows(host, HOST_FIELDS)} if host else None,
        "cost": cost_table(steps),
    }
