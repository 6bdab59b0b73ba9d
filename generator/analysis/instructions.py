"""Instructions per operation from a run's callgrind count (run document `instructions`,
harness/measure/instructions.py): the median over the count's repeats of instructions ÷ events,
for the connection thread or the server's other threads, and how far the repeats spread."""

from __future__ import annotations

import statistics
from typing import Any, Literal

from contract import RunDocument
from generator.analysis.repeats import spread

Side = Literal["connection", "background"]


def _counts(run: RunDocument, side: Side) -> list[int]:
    return [repeat[side] for repeat in run.get("instructions", {}).get("repeats", [])]


def per_event(run: RunDocument, side: Side) -> float | None:
    """None when the run has no count."""
    counts = _counts(run, side)
    if not counts:
        return None
    return float(statistics.median(counts)) / run["instructions"]["events"]


def repeat_spread(run: RunDocument, side: Side = "connection") -> float | None:
    """high ÷ low - 1 of the count's repeats on one server start; None without two."""
    counts = _counts(run, side)
    if len(counts) < 2 or min(counts) <= 0:
        return None
    return max(counts) / min(counts) - 1


def instruction_spread(runs: list[RunDocument], side: Side) -> dict[str, Any]:
    """repeats.spread of the counted runs' instructions per event (one value per run)."""
    return spread([value for run in runs if (value := per_event(run, side)) is not None])
