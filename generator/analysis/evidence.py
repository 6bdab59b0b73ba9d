"""What a run's numbers rest on: measured here, imported from a sysbench log, or a published
summary (the document's `origin`, absent on a measured run), and what that rules out.

A measured run has per-second samples and repeats for intervals, steady-state and client tests.
An imported sysbench log has sysbench's own summary of each step (and per-second samples only
when the log had --report-interval lines): no counters, monitor or server variables. A summary
table has one published figure per cell and nothing about its noise. So a ratio involving a
summary cell, or a cell whose sides have neither repeats nor samples, gets no interval, and a
ratio without an interval is never coloured: the pages say "not available" and why, instead of
guessing.
"""

from __future__ import annotations

from collections.abc import Iterable

from contract import RunDocument
from contract.fields import origin_kind

MEASURED = "measured"
IMPORTED = "imported"  # origin.kind "sysbench-log"
SUMMARY = "summary"  # origin.kind "summary-table"
# Weakest first: a cell resting on several runs is as good as its weakest one.
ORDER = (SUMMARY, IMPORTED, MEASURED)
BADGES = {
    IMPORTED: "imported from a sysbench log",
    SUMMARY: "summary only: published figures",
}
NO_INTERVAL = {
    SUMMARY: "published figures carry no measure of their noise (no repeats, no per-second samples)",
    IMPORTED: "the imported log has neither repeats nor per-second samples to measure noise from",
}
NO_STEADY_STATE = {
    SUMMARY: "not available: published figures have no per-second samples",
    IMPORTED: "not available: the log has no per-second samples (no --report-interval)",
}


def evidence_of(run: RunDocument) -> str:
    """MEASURED, IMPORTED or SUMMARY."""
    kind = origin_kind(run)
    if kind is None:
        return MEASURED
    return SUMMARY if kind == "summary-table" else IMPORTED


def weakest(runs: Iterable[RunDocument]) -> str:
    """The weakest evidence of runs (MEASURED when there are none)."""
    return min((evidence_of(run) for run in runs), key=ORDER.index, default=MEASURED)


def interval_reason(*sides: str) -> str | None:
    """Why a ratio between cells of these evidences cannot have an interval, whatever their
    samples: None when both sides can (measured, or imported logs with samples or repeats)."""
    worst = min(sides, key=ORDER.index)
    return NO_INTERVAL[SUMMARY] if worst == SUMMARY else None
