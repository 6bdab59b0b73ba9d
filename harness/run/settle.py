"""Let write debt settle before every measured step (`[sweep] settle = "checkpoint"`), so a
step does not pay for the writes of the load, the warm-up, the workload before it on the same
server start or the thread level before it, and every variant starts each step from the same
state. Mark Callaghan's Insert Benchmark waits after its write steps for the same reason.

The wait sets innodb_max_dirty_pages_pct to 0 (InnoDB then flushes every dirty page, and the
checkpoint follows the flushed pages), waits until the checkpoint age is at most SETTLED_SHARE
of the redo log capacity (innodb_log_file_size x innodb_log_files_in_group) and the dirty pages
at most DIRTY_SETTLED_SHARE of the buffer pool's pages, or until the timeout, then puts the
setting back. Both shares and the capacity are contract/write_debt_limits.py's, which the
generator judges a write step's start by: a step the harness settled starts where that
judgement calls it settled. A timeout is
no failure: the run goes on, and its document says the wait timed out and where the debt stood.
After a read-only step the debt is already under both limits: the first reading ends the wait.

The wait polls one SELECT over information_schema.GLOBAL_STATUS once a second (settled_query);
the replay commands hold the same query in a shell loop, so a reader's replay waits the same
way. A server without Innodb_checkpoint_age (MySQL) cannot be judged: the run records why it
did not wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Final, cast

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from contract.settle_wait import wait_command
from contract.write_debt_limits import DIRTY_SETTLED_SHARE, SETTLED_SHARE, redo_capacity_bytes
from harness.measure.counters import status_number

RULE: Final = "checkpoint"
FLUSH_VARIABLE = "innodb_max_dirty_pages_pct"
AGE_STATUS = "INNODB_CHECKPOINT_AGE"
DIRTY_STATUS = "INNODB_BUFFER_POOL_PAGES_DIRTY"
POLL_S = 1.0


def _one(cursor: pymysql.cursors.Cursor, sql: str) -> int:
    cursor.execute(sql)
    return int(cursor.fetchone()[0])


def _variable(cursor: pymysql.cursors.Cursor, name: str) -> str | None:
    cursor.execute("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_VARIABLES"
                   " WHERE VARIABLE_NAME = %s", (name.upper(),))  # fmt: skip
    row = cursor.fetchone()
    return None if row is None else str(row[0])


def _debt(cursor: pymysql.cursors.Cursor) -> contract.WriteDebt:
    age = status_number(cursor, AGE_STATUS)
    return {
        "checkpoint_age_kb": None if age is None else age // 1024,
        "dirty_pages": status_number(cursor, DIRTY_STATUS),
    }


def settled_query(age_limit_bytes: int, dirty_limit: int) -> str:
    """One SELECT that reads 1 when the debt is under both limits, else 0."""
    value = (
        "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '{}')"
    )
    return (
        f"SELECT {value.format(AGE_STATUS)} <= {age_limit_bytes}"
        f" AND {value.format(DIRTY_STATUS)} <= {dirty_limit}"
    )


def settle(
    connect: Callable[[], pymysql.connections.Connection],
    timeout_s: int,
    client_command: Callable[[str], str],
) -> tuple[contract.Settle, list[contract.ReproduceCommand]]:
    """Wait for the write debt to settle; returns the settle record of the step that follows
    and the statements run, as purpose/command pairs."""
    done: list[contract.ReproduceCommand] = []
    with connect() as conn, conn.cursor() as cursor:

        def run(purpose: str, sql: str) -> None:
            cursor.execute(sql)
            done.append(
                {"purpose": f"settle write debt: {purpose}", "command": client_command(sql)}
            )

        before = _debt(cursor)
        record: contract.Settle = {"rule": RULE, "timeout_s": timeout_s, "before": before}
        sizes = ("innodb_log_file_size", "innodb_log_files_in_group")
        capacity = redo_capacity_bytes({name: _variable(cursor, name) for name in sizes}) or 0
        pool_pages = status_number(cursor, "Innodb_buffer_pool_pages_total") or 0
        if before["checkpoint_age_kb"] is None or capacity == 0:
            record["note"] = "the server reports no Innodb_checkpoint_age: not waited"
            return record, done
        age_limit = int(SETTLED_SHARE * capacity)
        dirty_limit = int(DIRTY_SETTLED_SHARE * pool_pages)
        record["thresholds"] = {"checkpoint_age_kb": age_limit // 1024, "dirty_pages": dirty_limit}
        # an InnoDB variable, there on a server that reports a checkpoint age
        original = cast(str, _variable(cursor, FLUSH_VARIABLE))
        record["max_dirty_pages_pct"] = original
        started = time.monotonic()
        settled = False
        try:
            run(
                f"flush every dirty page ({FLUSH_VARIABLE} = 0)",
                f"SET GLOBAL {FLUSH_VARIABLE} = 0",
            )
            check = settled_query(age_limit, dirty_limit)
            deadline = started + timeout_s
            while not (settled := _one(cursor, check) == 1) and time.monotonic() < deadline:
                time.sleep(POLL_S)
            limits = f"checkpoint age <= {age_limit // 1024} KB and dirty pages <= {dirty_limit}"
            done.append({
                "purpose": f"settle write debt: wait (at most {timeout_s} s) for {limits}",
                "command": wait_command(client_command(check), timeout_s, limits),
            })  # fmt: skip
        finally:
            run(f"restore {FLUSH_VARIABLE}", f"SET GLOBAL {FLUSH_VARIABLE} = {original}")
        record["after"] = _debt(cursor)
        record["waited_s"] = round(time.monotonic() - started, 1)
        record["timed_out"] = not settled
    return record, done
