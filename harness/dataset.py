"""A workload's data: which workloads share it, and loading it into a running server.

Workloads whose tables come out identical (same script family, table count, rows and table
options) share one dataset, so a campaign loads it once per server and reuses it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pymysql

import contract
from harness import pinning, project_lua, sysbench
from harness.campaign import Workload
from harness.errors import UserError

# sysbench oltp options that change the statements a run sends, not the tables prepare builds.
RUN_TIME_OPTIONS = {
    "range-size", "point-selects", "simple-ranges", "sum-ranges", "order-ranges",
    "distinct-ranges", "index-updates", "non-index-updates", "delete-inserts", "range-selects",
    "skip-trx", "db-ps-mode", "mysql-ignore-errors", "percentile", "rate", "events",
    "warmup-time", "reconnect", "db-debug", "verbosity", "random-points",
}  # fmt: skip


class Server(Protocol):
    """What loading needs from a server, sandboxed or existing."""

    def connect(self, database: str | None = None) -> pymysql.connections.Connection: ...
    def check_alive(self) -> None: ...


def dataset_of(workload: Workload) -> str:
    """A readable identity of the tables a workload's prepare builds."""
    # the project's Lua builds the same tables as sysbench's oltp scripts, byte for byte
    oltp = workload.test.startswith("oltp_") or project_lua.is_project_test(workload.test)
    family = "oltp" if oltp else workload.test
    table_options = [
        f"--{name}={value}"
        for name, value in sorted(workload.options.items())
        if name not in RUN_TIME_OPTIONS
    ]
    return " ".join([f"sysbench {family} {workload.tables}x{workload.table_size}", *table_options])


def group_by_dataset(workloads: list[Workload]) -> list[list[Workload]]:
    """Workloads sharing data, groups in order of first appearance, campaign order within."""
    groups: dict[str, list[Workload]] = {}
    for workload in workloads:
        groups.setdefault(dataset_of(workload), []).append(workload)
    return list(groups.values())


@dataclass
class SysbenchCalls:
    """Runs sysbench commands for one run: records each for the reader and logs its output
    (also when it fails) to the run's log file."""

    binary: str
    client_cpus: tuple[int, ...]
    log_path: Path
    target: sysbench.Target  # gives the argv that runs its secret; the recorded one has none
    commands: list[dict[str, str]] = field(default_factory=list)

    def __call__(self, purpose: str, argv: list[str]) -> str:
        argv = pinning.pinned(argv, self.client_cpus)
        command = sysbench.render(argv)
        self.commands.append({"purpose": purpose, "command": command})
        output = ""  # stays empty when Ctrl-C stops sysbench before it returns
        try:
            output = sysbench.execute(self.target.runnable(argv))
            return output
        except sysbench.SysbenchFailed as exc:
            output = exc.output
            raise
        finally:
            with self.log_path.open("a") as log:
                log.write(f"### {contract.utc_timestamp()} {purpose}\n$ {command}\n{output}\n")


@dataclass(frozen=True)
class Loaded:
    rows: int
    data_bytes: int
    seconds: float


def load(
    server: Server,
    workload: Workload,
    run_sysbench: SysbenchCalls,
    note: Callable[[str], None],
) -> Loaded:
    """Create the schema, drop sysbench's tables left by an earlier load, build them, and check
    the row count: a short load would make every later number meaningless."""
    started = time.monotonic()
    with server.connect() as conn, conn.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE IF NOT EXISTS {sysbench.DATABASE}")
    target = run_sysbench.target
    binary = run_sysbench.binary
    run_sysbench("drop tables of an earlier load", sysbench.cleanup_argv(binary, workload, target))
    note(f"loading {dataset_of(workload)}")
    run_sysbench("load the tables", sysbench.prepare_argv(binary, workload, target))
    server.check_alive()
    rows, data_bytes = _measure(server, workload)
    expected = workload.tables * workload.table_size
    if workload.test != "oltp_insert" and rows != expected:
        raise UserError(
            f"workload {workload.label}: prepare left {rows} rows, expected {expected}"
        )
    return Loaded(rows, data_bytes, time.monotonic() - started)


def _measure(server: Server, workload: Workload) -> tuple[int, int]:
    with server.connect(sysbench.DATABASE) as conn, conn.cursor() as cursor:
        rows = 0
        for index in range(1, workload.tables + 1):
            cursor.execute(f"SELECT COUNT(*) FROM sbtest{index}")
            rows += cursor.fetchone()[0]
            # information_schema sizes come from statistics a fresh load may not have yet
            # (MariaDB 11.4 reported a tenth of the real size without this).
            cursor.execute(f"ANALYZE TABLE sbtest{index}")
            cursor.fetchall()
        cursor.execute(
            "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables"
            " WHERE table_schema = %s",
            (sysbench.DATABASE,),
        )
        return rows, int(cursor.fetchone()[0])
