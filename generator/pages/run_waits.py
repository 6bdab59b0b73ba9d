"""The run page's "What the server waited on" table, as ready strings: per step, its top waits
(analysis/waits.py) with their rate per second, per operation and, where the server keeps a
time, the average wait.

Like the other per-step tables (run_tables.py), at most MAX_TABLE_STEPS steps, evenly spaced.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, recorded_steps
from generator.analysis.operations import step_operation
from generator.analysis.waits import top_waits
from generator.pages.monitor import step_label
from generator.pages.numbers import format_number
from generator.pages.packed_rows import packed
from generator.pages.run_tables import shown_steps

TOP = 5  # waits shown per step, the rest being rarer by the ranking rule


def run_waits(run: RunDocument) -> dict[str, Any] | None:
    """{"rows": packed [step, counter, what it counts, per s, per op, avg ms], "ops": the
    operations per op is per, "quiet": steps where no wait counter moved, "note"}; None when
    no step recorded status counters."""
    steps = [s for s in recorded_steps(run) if s.get("server_status_delta") is not None]
    if not steps:
        return None
    shown = shown_steps(steps)
    rows: list[list[str]] = []
    quiet: list[str] = []
    for step in shown:
        label = step_label(step)
        waits = top_waits(step)
        if not waits:
            quiet.append(label)
        for wait in waits[:TOP]:
            rows.append(
                [
                    label,
                    wait.name,
                    wait.label,
                    format_number(wait.per_s),
                    format_number(wait.per_op),
                    format_number(wait.avg_ms),
                ]
            )
    ops = sorted({op for step in shown if (op := step_operation(step)) is not None})
    note = (
        "" if len(shown) == len(steps) else f"{len(shown)} of {len(steps):,} steps, evenly spaced"
    )
    return {"rows": packed(rows), "ops": ops, "quiet": quiet, "note": note}
