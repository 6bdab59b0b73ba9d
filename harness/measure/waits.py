"""performance_schema's wait events over a step, for a campaign's waits pass (`[profile]
waits_pass`).

Timing every wait costs the server throughput, so a measured run never has it: the waits pass
is one extra run per (variant, workload) on a server started with the options below added to
the cell's my.cnf, and its document says it is no measurement (`"purpose": "waits"`). Around
each step the global summary by event name is read before and after; the step records the
events that waited longest over it.
"""

from __future__ import annotations

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.model.campaign import OptionValue
from harness.servers import mycnf

# Added to the cell's my.cnf: performance_schema on, every wait instrument enabled and timed.
# The summary table needs only the global_instrumentation consumer, on by default.
WAITS_OPTIONS: dict[str, OptionValue] = {
    "performance_schema": "ON",
    "performance_schema_instrument": "'wait/%=ON'",
}
WAITS_PASS_LABEL = "waits pass: performance_schema wait instrumentation"
TOP_EVENTS = 20
PICOSECONDS_PER_MS = 10**9
PICOSECONDS_PER_US = 10**6

# 'idle' (a session waiting for its client) is in the table too; it is no server wait.
SUMMARY_SQL = (
    "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT"
    " FROM performance_schema.events_waits_summary_global_by_event_name"
    " WHERE EVENT_NAME LIKE 'wait/%'"
)

Snapshot = dict[str, tuple[int, int]]  # event name -> (count, total picoseconds)


def waits_mycnf(tuned: str) -> str:
    """The cell's my.cnf with the wait instrumentation on, under a comment saying why."""
    return mycnf.apply_variant(tuned, WAITS_PASS_LABEL, WAITS_OPTIONS)


def snapshot(connection: pymysql.connections.Connection) -> Snapshot:
    with connection.cursor() as cursor:
        cursor.execute(SUMMARY_SQL)
        rows = cursor.fetchall()
    return {str(name): (int(count), int(picoseconds)) for name, count, picoseconds in rows}


def step_waits(before: Snapshot, after: Snapshot) -> contract.PfsWaits:
    """The run document's steps[].waits: the TOP_EVENTS events with the most wait time between
    the two snapshots (an event that did not wait is left out)."""
    moved = []
    for name, (count, picoseconds) in after.items():
        count_before, picoseconds_before = before.get(name, (0, 0))
        count, picoseconds = count - count_before, picoseconds - picoseconds_before
        if count > 0 and picoseconds > 0:
            moved.append((picoseconds, count, name))
    moved.sort(key=lambda event: (-event[0], event[2]))
    return {
        "source": "performance_schema",
        "events": [
            {
                "event": name,
                "count": count,
                "total_ms": round(picoseconds / PICOSECONDS_PER_MS, 3),
                "avg_us": round(picoseconds / count / PICOSECONDS_PER_US, 3),
            }
            for picoseconds, count, name in moved[:TOP_EVENTS]
        ],
    }
