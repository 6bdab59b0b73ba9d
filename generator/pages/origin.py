"""What a run page says about a run this harness did not measure (its facts' "origin"): the
badge, the Source section (kind, files and their SHA-256, URL, published date, note, the import
command and the tool's), the steps as the source gave them, and one line naming what the source
did not record, so the page leaves those sections out instead of showing them empty.

A source that gave throughput only as QPS or rows/s (a published table in QPS) is said to lack
TPS, not throughput, and its compare link opens on a metric it has (compare_metric). A log
written at another --percentile than sysbench's default has its per-second latency named by it
(series_latency: "p99"), as the drill-down charts label it.

None for a measured run: its page is unchanged.
"""

from __future__ import annotations

import re
from pathlib import PureWindowsPath
from typing import Any

from contract import PrintedRatio, RunDocument, level_steps, sysbench_steps
from contract.fields import StepFigure, printed_ratios, step_figure
from generator.analysis.evidence import BADGES, NO_STEADY_STATE, SUMMARY, evidence_of
from generator.analysis.ratios import shown_metrics
from generator.pages.numbers import MISSING, format_fixed, format_number

KINDS = {
    "sysbench-log": "sysbench output, read by mybench import sysbench",
    "summary-table": "a table of published figures, read by mybench import table",
}
# Throughput a source may give instead of TPS: (name, figure).
OTHER_THROUGHPUT: tuple[tuple[str, StepFigure], ...] = (
    ("QPS", "qps.total"),
    ("rows/s", "rows_per_s"),
)
# A per-second latency series, named by its percentile (harness/workloads/sysbench/output.py).
LATENCY_SERIES = re.compile(r"p([0-9]+)_ms")
# The latency figures whose presence gives a run page its latency chart.
LATENCY_PERCENTILES: tuple[StepFigure, ...] = ("latency_ms.p95", "latency_ms.p99")
# How a printed ratio's metric is named in the step table's header.
PRINTED_LABELS = {"tps": "TPS", "qps": "QPS", "rows_per_s": "rows/s"}
# Step columns an imported run may hold: (header, path in the step).
STEP_COLUMNS: tuple[tuple[str, StepFigure], ...] = (
    ("TPS", "tps"),
    ("QPS", "qps.total"),
    ("rows/s", "rows_per_s"),
    ("avg ms", "latency_ms.avg"),
    ("p95 ms", "latency_ms.p95"),
    ("p99 ms", "latency_ms.p99"),
    ("max ms", "latency_ms.max"),
    ("errors", "errors"),
    ("reconnects", "reconnects"),
    ("seconds", "duration_s"),
)


def file_name(recorded: str) -> str:
    """The name alone of a file an import read: a document written before imports recorded
    names only, or edited by hand, may hold the importer's path, which no page shows.
    PureWindowsPath splits at both separators and drops a drive."""
    return PureWindowsPath(recorded).name or recorded


def step_table(run: RunDocument) -> dict[str, Any]:
    """{"columns": [header ...], "rows": [[threads, figure or "—" ...]], "missing": whether a
    cell is "—"}: only the columns some step holds; "—" where the source gave no figure."""
    steps = level_steps(run)
    shown = [
        (h, figure)
        for h, figure in STEP_COLUMNS
        if any(step_figure(s, figure) is not None for s in steps)
    ]
    printed = sorted({metric for step in steps for metric in printed_ratios(step)})
    rows = [
        [
            str(step["threads"]),
            *(format_number(step_figure(step, figure)) for _, figure in shown),
            *(_printed_ratio(printed_ratios(step).get(metric)) for metric in printed),
        ]
        for step in steps
    ]
    return {
        "columns": [
            "threads",
            *(header for header, _ in shown),
            *(f"{PRINTED_LABELS[metric]} ratio as printed" for metric in printed),
        ],
        "rows": rows,
        "missing": any(MISSING in row for row in rows),
    }


def _printed_ratio(printed: PrintedRatio | None) -> str:
    """A ratio as the source printed it, and what it divides by: "0.80 (to v1)"."""
    if printed is None:
        return MISSING
    return f"{format_fixed(printed['value'], printed['decimals'])} (to {printed['base']})"


def recorded(run: RunDocument) -> dict[str, bool]:
    """Which of the run page's sections have data: the sweep charts, per-second samples,
    my.cnf, server variables and host hardware."""
    steps = level_steps(run)
    return {
        "tps": any("tps" in step for step in steps),
        "latency": any(
            step_figure(step, figure) is not None
            for step in steps
            for figure in LATENCY_PERCENTILES
        ),
        "series": any("series" in step for step in steps),
        "my_cnf": "my_cnf" in run["server"],
        "variables": bool(run["server"].get("variables")),
        "hardware": "cpu_model" in run["host"],
    }


def _throughput(run: RunDocument) -> str:
    """How the missing TPS reads: "throughput", or "TPS (the source gave QPS only)" when the
    steps hold throughput of another kind."""
    steps = level_steps(run)
    given = [
        name
        for name, figure in OTHER_THROUGHPUT
        if any(step_figure(s, figure) is not None for s in steps)
    ]
    return f"TPS (the source gave {' and '.join(given)} only)" if given else "throughput"


def series_latency(run: RunDocument) -> str | None:
    """The percentile of the steps' per-second latency ("p99"), None when it is sysbench's
    default p95 or there is none."""
    for step in sysbench_steps(run):
        for name in step.get("series", {}):
            if (found := LATENCY_SERIES.fullmatch(name)) and name != "p95_ms":
                return f"p{found[1]}"
    return None


def not_recorded(run: RunDocument, has: dict[str, bool]) -> list[str]:
    """What the source did not record, in the order the run page would show it."""
    absent = [
        (_throughput(run), not has["tps"]),
        ("latency percentiles", not has["latency"]),
        ("per-second samples (so no steady-state or warm-up verdicts)", not has["series"]),
        ("server counters and monitoring", True),
        ("the my.cnf", not has["my_cnf"]),
        ("server variables", not has["variables"]),
        ("the host's hardware", not has["hardware"]),
        ("replay commands (it was not run by this harness)", True),
    ]
    return [what for what, missing in absent if missing]


def origin_facts(run: RunDocument) -> dict[str, Any] | None:
    """The run page's origin facts; None for a measured run."""
    origin = run.get("origin")
    if origin is None:
        return None
    evidence = evidence_of(run)
    has = recorded(run)
    return {
        "evidence": evidence,
        "badge": BADGES[evidence],
        "kind": KINDS[origin["kind"]],
        "imported_at": origin["imported_at"],
        "command": origin["command"],
        "tool_command": origin.get("tool_command"),
        "sources": [{**source, "file": file_name(source["file"])} for source in origin["sources"]],
        "url": origin.get("url"),
        "published": origin.get("published"),
        "note": origin.get("note"),
        # Values set for every row at import, with where the source states them.
        "assumed": [
            f"{name} {given['value']} ({given['source']})"
            for name, given in origin.get("assumed", {}).items()
        ],
        "recorded": has,
        "not_recorded": not_recorded(run, has),
        "steady_state": None if has["series"] else NO_STEADY_STATE[evidence],
        "steps": step_table(run),
        "summary_only": evidence == SUMMARY,
        "series_latency": series_latency(run),
        "compare_metric": compare_metric([run]),
    }


def compare_metric(runs: list[RunDocument]) -> str | None:
    """The metric a compare link opens on when it is not the page's default TPS: "qps" for runs
    whose sources gave QPS and no TPS (analysis/ratios.py shown_metrics), else None."""
    first = shown_metrics(runs)[0]
    return first if first != "tps" else None


def cell_sources(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """Where a campaign cell's imported runs came from, for the note under its tables: per
    imported run its id, badge, URL, published date and source files; none for measured runs."""
    return [
        {
            "id": run["id"],
            "badge": BADGES[evidence_of(run)],
            "url": origin.get("url"),
            "published": origin.get("published"),
            "files": [file_name(source["file"]) for source in origin["sources"]],
        }
        for run in runs
        if (origin := run.get("origin")) is not None
    ]


def workload_given(runs: list[RunDocument]) -> dict[str, Any]:
    """What imported runs of one campaign workload say of it beyond its name: "options" (the
    sysbench options they all share, as `--name=value`) and "note" (the source's words), each
    only when given. A measured workload's options are on its run pages and in its commands."""
    imported = [run for run in runs if "origin" in run]
    if not imported:
        return {}
    shared = set.intersection(*(set(run["workload"]["options"].items()) for run in imported))
    given: dict[str, Any] = {}
    if shared:
        given["options"] = [f"--{name}={value}" for name, value in sorted(shared)]
    if note := next(
        (run["workload"]["note"] for run in imported if "note" in run["workload"]), None
    ):
        given["note"] = note
    return given
