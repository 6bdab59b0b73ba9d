"""The run page's two largest tables, as text: SHOW GLOBAL STATUS deltas per transaction and
the per-second TPS, by step.

A run page shows every counter that moved (often 60 or more) and every second of every thread
level; formatting those cells one helper call each took most of Hugo's time per page, so the
generator writes them ready to print (data/runtables/<run>.json).
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from generator.pages.numbers import MISSING, format_number


def status_per_event(run: RunDocument) -> dict[str, Any] | None:
    """{"threads": [...], "rows": [[counter, cell per step], ...]} over the steps that recorded
    status deltas (rows sorted by counter); None when none did."""
    # Insert Benchmark steps are named, not thread levels; its own report covers them.
    steps = [
        s for s in run["steps"] if s.get("server_status_delta") is not None and "threads" in s
    ]
    if not steps:
        return None
    names = sorted({name for step in steps for name in step["server_status_delta"]})
    rows = []
    for name in names:
        cells = []
        for step in steps:
            delta = step["server_status_delta"].get(name)
            events = step.get("events", 0)
            cells.append(
                format_number(delta / events) if delta is not None and events > 0 else MISSING
            )
        rows.append([name, *cells])
    return {"threads": [step["threads"] for step in steps], "rows": rows}


def per_second_tps(run: RunDocument) -> dict[str, Any] | None:
    """{"threads": [...], "rows": [[second, TPS per step or a dash], ...]}, a row per second of
    the longest step; None when no step has a thread level and a series."""
    steps = [s for s in run["steps"] if "threads" in s and "series" in s]
    if not steps:
        return None
    seconds = max(len(step["series"]["tps"]) for step in steps)
    rows = [
        [str(second + 1)]
        + [
            format_number(step["series"]["tps"][second])
            if second < len(step["series"]["tps"])
            else MISSING
            for step in steps
        ]
        for second in range(seconds)
    ]
    return {"threads": [step["threads"] for step in steps], "rows": rows}


def run_tables(run: RunDocument) -> dict[str, Any]:
    return {"counters": status_per_event(run), "series": per_second_tps(run)}
