"""Callaghan's "postwrite" step between the write tests and the read tests that follow them:
refresh index statistics and write dirty pages back, so the reads after writes measure a
fragmented table rather than a flush storm, and compare across versions.

His script sets the dirty-page targets to 1 % (and idle flushing to 100 % where it exists),
sleeps 60 s + 1 s per million rows (at most 1200 s), then puts the settings back. Here the wait
ends earlier once the buffer pool holds no more dirty pages than those targets allow.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.measure.counters import status_number

# Variable -> value while flushing; a server lacking one (idle flushing is MySQL's) skips it.
FLUSH_SETTINGS = {
    "innodb_max_dirty_pages_pct_lwm": "1",
    "innodb_max_dirty_pages_pct": "1",
    "innodb_idle_flush_pct": "100",
}
POLL_S = 1.0


def reference_wait_s(rows: int) -> float:
    return min(60 + rows / 1_000_000, 1200)


def post_write(
    connect: Callable[[], pymysql.connections.Connection],
    binlog_reset: str,
    tables: int,
    rows: int,
    client_command: Callable[[str], str],
) -> list[contract.ReproduceCommand]:
    """Run the step on the server (binlog_reset: the product's statement that drops the binary
    log); returns what was done as purpose/command pairs."""
    done: list[contract.ReproduceCommand] = []

    def run(cursor: pymysql.cursors.Cursor, purpose: str, sql: str) -> None:
        cursor.execute(sql)
        cursor.fetchall()
        done.append({"purpose": purpose, "command": client_command(sql)})

    with connect() as conn, conn.cursor() as cursor:
        for index in range(1, tables + 1):
            run(cursor, "post-write: refresh statistics", f"ANALYZE TABLE sbtest.sbtest{index}")
        cursor.execute("SHOW GLOBAL VARIABLES")
        current = {name.lower(): value for name, value in cursor.fetchall()}
        changed = {name: current[name] for name in FLUSH_SETTINGS if name in current}
        try:
            for name in changed:
                run(cursor, "post-write: flush dirty pages",
                    f"SET GLOBAL {name} = {FLUSH_SETTINGS[name]}")  # fmt: skip
            pool_pages = status_number(cursor, "Innodb_buffer_pool_pages_total") or 0
            allowed = pool_pages // 100 + 8  # what a 1 % target leaves dirty, with slack
            deadline = time.monotonic() + reference_wait_s(rows)
            while (status_number(cursor, "Innodb_buffer_pool_pages_dirty") or 0) > allowed:
                if time.monotonic() > deadline:
                    break
                time.sleep(POLL_S)
        finally:
            for name, value in changed.items():  # all three are numbers
                run(cursor, "post-write: restore", f"SET GLOBAL {name} = {value}")
        cursor.execute("SELECT @@log_bin")
        if cursor.fetchone()[0]:
            run(cursor, "post-write: drop the binary log", binlog_reset)
    return done
