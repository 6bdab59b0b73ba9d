"""The pause between the write steps and the query steps (the reference's cleanup): ANALYZE
every table, then let InnoDB write its dirty pages back with the dirty-page targets at 1 % and
idle flushing at 100 %, then put the settings back.

The reference sleeps 60 s + 1 s per million rows (at most 1200 s); here, as in the harness's
post-write step for sysbench, the wait ends earlier once the buffer pool holds no more dirty
pages than a 1 % target allows. flush_max_seconds caps it (tests use a few seconds).
"""

from __future__ import annotations

import time

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.measure.counters import status_number
from harness.workloads.sysbench.postwrite import FLUSH_SETTINGS, reference_wait_s

POLL_S = 0.5


def flush(
    conn: pymysql.connections.Connection, tables: list[str], rows: int, max_seconds: float | None
) -> tuple[contract.Flush, float]:
    """Run the pause on `conn` (its database the benchmark's); returns what was done and how
    long it took (seconds)."""
    began = time.monotonic()
    done: list[str] = []
    wait_s = reference_wait_s(rows) if max_seconds is None else max_seconds
    with conn.cursor() as cursor:

        def run(statement: str) -> None:
            cursor.execute(statement)
            cursor.fetchall()
            done.append(statement)

        for table in tables:
            run(f"ANALYZE TABLE {table}")
        cursor.execute("SHOW GLOBAL VARIABLES")
        current = {name.lower(): value for name, value in cursor.fetchall()}
        changed = {name: current[name] for name in FLUSH_SETTINGS if name in current}
        dirty_after = None
        try:
            for name in changed:
                run(f"SET GLOBAL {name} = {FLUSH_SETTINGS[name]}")
            allowed = (status_number(cursor, "Innodb_buffer_pool_pages_total") or 0) // 100 + 8
            deadline = began + wait_s
            while True:
                dirty_after = status_number(cursor, "Innodb_buffer_pool_pages_dirty") or 0
                if dirty_after <= allowed or time.monotonic() >= deadline:
                    break
                time.sleep(POLL_S)
        finally:
            for name, value in changed.items():  # all numbers
                run(f"SET GLOBAL {name} = {value}")
    flushed: contract.Flush = {
        "statements": done,
        "wait_limit_s": wait_s,
        "dirty_pages_after": dirty_after,
    }
    return flushed, round(time.monotonic() - began, 3)
