"""Repeats of one campaign cell (campaign, variant, workload): which runs count, and their
median and range per thread level.

A campaign with [sweep] repeats = N runs its whole matrix N times in interleaved passes and
records the pass in run.repeat.index; a run without `repeat` is the only pass.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable
from typing import Any

from contract import RunDocument, Step, sysbench_steps
from contract.fields import pass_index, pass_order
from generator.analysis.verdict import FLAG_KINDS, flag_counts


def repeat_index(run: RunDocument) -> int:
    return pass_order(run)


def cell_key(run: RunDocument) -> tuple[str, str, str]:
    return run["campaign"]["id"], run["variant"], run["workload"]["name"]


def group_by_cell(runs: Iterable[RunDocument]) -> dict[tuple[str, str, str], list[RunDocument]]:
    """Runs by cell_key, each list in pass order (a re-run of a pass after its first attempt)."""
    cells: dict[tuple[str, str, str], list[RunDocument]] = {}
    for run in sorted(runs, key=lambda run: (repeat_index(run), run["started_at"], run["id"])):
        cells.setdefault(cell_key(run), []).append(run)
    return cells


def counted_runs(cell: list[RunDocument]) -> list[RunDocument]:
    """The runs a cell's numbers rest on: per pass its latest complete run, in pass order.

    `run --resume` re-runs an unfinished pass under a new id (.r2), hence "latest". Partial and
    failed runs stay out of the medians; a cell without any complete run falls back to its
    latest run, so an interrupted single-pass campaign still shows the steps that finished.
    """
    complete: dict[int, RunDocument] = {}
    for run in sorted(cell, key=lambda run: (run["started_at"], run["id"])):
        if run["status"] == "complete":
            complete[repeat_index(run)] = run
    if complete:
        return [complete[index] for index in sorted(complete)]
    return [max(cell, key=lambda run: (run["started_at"], run["id"]))]


def pass_list(
    cell: list[RunDocument], trust: dict[str, list[dict[str, Any]]] | None = None
) -> list[dict[str, Any]]:
    """Every run of a cell for links: id, repeat index (None outside a repeated campaign),
    status and whether its numbers are counted; with trust (each run's analysis/trust.py
    run_trust by run id), "judged" and "flagged": how many of its steps have a verdict, and
    how many of those carry flags (analysis/verdict.py), "kinds" the labels of their kinds."""
    counted = {run["id"] for run in counted_runs(cell)}
    entries = []
    for run in cell:
        entry: dict[str, Any] = {
            "id": run["id"],
            "repeat": pass_index(run),
            "status": run["status"],
            "status_reason": run.get("status_reason", ""),
            "counted": run["id"] in counted,
        }
        if trust is not None and run["id"] in trust:
            flags = [step["flags"] for step in trust[run["id"]]]
            entry |= {
                "judged": len(flags),
                "flagged": sum(1 for found in flags if found),
                "kinds": [FLAG_KINDS[kind][0] for kind in flag_counts(flags)],
            }
        entries.append(entry)
    return entries


def spread_by_threads(
    runs: list[RunDocument],
    value_of: Callable[[Step], float | None],
    seconds_of: Callable[[RunDocument, Step], list[float]] | None = None,
    flags_of: Callable[[RunDocument, Step], list[dict[str, Any]]] | None = None,
) -> dict[int, dict[str, Any]]:
    """Per thread level: spread() of value_of(step) over the runs that reached it. A step where
    value_of is None (a counter the harness did not record) does not count. seconds_of(run,
    step), when given, adds "seconds": the per-second samples of those steps, pooled.
    flags_of(run, step), when given, adds "flags": each value's flags (analysis/verdict.py),
    in the order of "values", and, when some value has one, "unflagged": the same cell over
    the unflagged steps only (analysis/ratios.py decides which of the two a ratio rests on)."""
    found: dict[int, list[tuple[float, list[float], list[dict[str, Any]]]]] = {}
    for run in runs:
        for step in sysbench_steps(run):
            value = value_of(step)
            if value is not None:
                found.setdefault(step["threads"], []).append(
                    (
                        value,
                        seconds_of(run, step) if seconds_of else [],
                        flags_of(run, step) if flags_of else [],
                    )
                )
    cells = {}
    for threads, passes in found.items():
        cells[threads] = _merged(passes, seconds_of is not None)
        if flags_of is not None:
            cells[threads]["flags"] = [kinds for _, _, kinds in passes]
            if any(kinds for _, _, kinds in passes):
                fit = [one for one in passes if not one[2]]
                cells[threads]["unflagged"] = _merged(fit, seconds_of is not None)
    return cells


def _merged(
    passes: list[tuple[float, list[float], list[dict[str, Any]]]], seconds: bool
) -> dict[str, Any]:
    cell = spread([value for value, _, _ in passes])
    if seconds:
        cell["seconds"] = [second for _, samples, _ in passes for second in samples]
    return cell


def spread(found: list[float]) -> dict[str, Any]:
    """Median, low, high and count of one cell's values (none: NO_STEP's shape, all None)."""
    if not found:
        return {"median": None, "low": None, "high": None, "repeats": 0, "values": []}
    return {
        "median": statistics.median(found),
        "low": min(found),
        "high": max(found),
        "repeats": len(found),
        "values": list(found),
    }
