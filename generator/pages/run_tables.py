"""The run page's two largest tables, as text: SHOW GLOBAL STATUS deltas per transaction and
the per-second TPS, by step.

A run page shows every counter that moved (often 60 or more) and every second of every thread
level; formatting those cells one helper call each took most of Hugo's time per page, so the
generator writes them ready to print (data/runtables/<run>.json).

Both grow with the run: a sweep of thousands of thread levels, a step of a day. So the tables
show at most MAX_TABLE_STEPS thread levels (evenly spaced, the first and last among them) and at
most MAX_TABLE_ROWS rows of seconds (each then the mean of as many seconds as it takes), with a
note saying so; run.json and the charts' CSV hold every value.
"""

from __future__ import annotations

import math
from typing import Any, TypeVar

from contract import RunDocument, recorded_steps
from generator.pages.numbers import MISSING, format_number

MAX_TABLE_STEPS = 64
MAX_TABLE_ROWS = 300
_Step = TypeVar("_Step")


def shown_steps(steps: list[_Step]) -> list[_Step]:
    """steps, or MAX_TABLE_STEPS of them evenly spaced (first and last included)."""
    if len(steps) <= MAX_TABLE_STEPS:
        return steps
    last = len(steps) - 1
    positions = sorted({round(i * last / (MAX_TABLE_STEPS - 1)) for i in range(MAX_TABLE_STEPS)})
    return [steps[position] for position in positions]


def _steps_note(shown: int, total: int) -> str:
    return "" if shown == total else f"{shown} of {total:,} thread levels, evenly spaced"


def status_per_event(run: RunDocument) -> dict[str, Any] | None:
    """{"threads": [...], "rows": [[counter, cell per step], ...]} over the steps that recorded
    status deltas (rows sorted by counter); None when none did."""
    # Insert Benchmark steps are named, not thread levels; its own report covers them.
    steps = [
        s
        for s in recorded_steps(run)
        if s.get("server_status_delta") is not None and "threads" in s
    ]
    if not steps:
        return None
    total, steps = len(steps), shown_steps(steps)
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
    return {
        "threads": [step["threads"] for step in steps],
        "rows": rows,
        "note": _steps_note(len(steps), total),
    }


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def per_second_tps(run: RunDocument) -> dict[str, Any] | None:
    """{"threads": [...], "rows": [[second, TPS per step or a dash], ...], "note"}, a row per
    second of the longest step (per span of seconds, their mean TPS, beyond MAX_TABLE_ROWS);
    None when no step has a thread level and a series."""
    steps = [s for s in recorded_steps(run) if "threads" in s and "series" in s]
    if not steps:
        return None
    total, steps = len(steps), shown_steps(steps)
    seconds = max(len(step["series"]["tps"]) for step in steps)
    span = max(1, math.ceil(seconds / MAX_TABLE_ROWS))  # a step may keep no whole second
    rows = [
        [str(start + 1) if span == 1 else f"{start + 1}\u2013{min(start + span, seconds)}"]
        + [
            format_number(_mean(step["series"]["tps"][start : start + span]))
            if start < len(step["series"]["tps"])
            else MISSING
            for step in steps
        ]
        for start in range(0, seconds, span)
    ]
    notes = [_steps_note(len(steps), total)]
    if span > 1:
        notes.append(f"each row the mean TPS of {span:,} seconds")
    return {
        "threads": [step["threads"] for step in steps],
        "rows": rows,
        "note": "; ".join(note for note in notes if note),
    }


def run_tables(run: RunDocument) -> dict[str, Any]:
    return {"counters": status_per_event(run), "series": per_second_tps(run)}
