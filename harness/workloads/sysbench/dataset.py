"""A sysbench workload's data: what identifies it, running sysbench for a run, and loading
the tables into a running server.

Workloads whose tables come out identical (same script family, table count, rows and table
options) share one dataset, so a campaign loads it once per server and reuses it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import contract
from harness.errors import UserError
from harness.model.campaign import Workload
from harness.servers import pinning
from harness.servers.protocol import Server
from harness.servers.sysbench_target import DATABASE, Target
from harness.workloads.sysbench import project_lua
from harness.workloads.sysbench.commands import (
    SysbenchFailed,
    cleanup_argv,
    execute,
    prepare_argv,
    render,
)

# sysbench oltp options that change the statements a run sends, not the tables prepare builds.
RUN_TIME_OPTIONS = {
    "range-size", "point-selects", "simple-ranges", "sum-ranges", "order-ranges",
    "distinct-ranges", "index-updates", "non-index-updates", "delete-inserts", "range-selects",
    "skip-trx", "db-ps-mode", "mysql-ignore-errors", "percentile", "rate", "events",
    "warmup-time", "reconnect", "db-debug", "verbosity", "random-points",
}  # fmt: skip
DROP_EARLIER_LOAD = "drop tables of an earlier load"  # a purpose a fresh datadir makes moot


def dataset_label(workload: Workload) -> str:
    """A readable identity of the tables a sysbench workload's prepare builds."""
    # the project's Lua builds the same tables as sysbench's oltp scripts, byte for byte
    oltp = workload.test.startswith("oltp_") or project_lua.is_project_test(workload.test)
    family = "oltp" if oltp else workload.test
    table_options = [
        f"--{name}={value}"
        for name, value in sorted(workload.options.items())
        if name not in RUN_TIME_OPTIONS
    ]
    return " ".join([f"sysbench {family} {workload.tables}x{workload.table_size}", *table_options])


@dataclass
class SysbenchCalls:
    """Runs sysbench commands for one run: records each for the reader and logs its output
    (also when it fails) to the run's log file."""

    binary: str
    client_cpus: tuple[int, ...]
    log_path: Path
    target: Target  # gives the argv that runs its secret; the recorded one has none
    commands: list[contract.ReproduceCommand] = field(default_factory=list)

    def __call__(self, purpose: str, argv: list[str]) -> str:
        argv = pinning.pinned(argv, self.client_cpus)
        command = render(argv)
        self.commands.append({"purpose": purpose, "command": command})
        output = ""  # stays empty when Ctrl-C stops sysbench before it returns
        try:
            output = execute(self.target.runnable(argv))
            return output
        except SysbenchFailed as exc:
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
    check: contract.TpccCheck | None = None  # tpcc: the consistency check of the fresh load


def create_schema(server: Server) -> None:
    with server.connect() as conn, conn.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE IF NOT EXISTS {DATABASE}")


@dataclass(frozen=True)
class SysbenchLoader:
    """Loads a sysbench workload's tables with sysbench prepare."""

    workload: Workload

    def load(
        self, server: Server, run_sysbench: SysbenchCalls, note: Callable[[str], None]
    ) -> Loaded:
        """Create the schema, drop the tables an earlier load left, build them, and check
        them: a short load would make every later number meaningless."""
        workload = self.workload
        started = time.monotonic()
        create_schema(server)
        target, binary = run_sysbench.target, run_sysbench.binary
        run_sysbench(DROP_EARLIER_LOAD, cleanup_argv(binary, workload, target))
        note(f"loading {dataset_label(workload)}")
        run_sysbench("load the tables", prepare_argv(binary, workload, target))
        server.check_alive()
        tables = [f"sbtest{index}" for index in range(1, workload.tables + 1)]
        rows, data_bytes = measure_tables(server, tables)
        expected = workload.tables * workload.table_size
        if workload.test != "oltp_insert" and rows != expected:
            raise UserError(
                f"workload {workload.label}: prepare left {rows} rows, expected {expected}"
            )
        return Loaded(rows, data_bytes, time.monotonic() - started)


def measure_tables(server: Server, tables: list[str]) -> tuple[int, int]:
    """Rows and bytes (data and indexes) of the loaded tables."""
    with server.connect(DATABASE) as conn, conn.cursor() as cursor:
        rows = 0
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {table}")
            rows += cursor.fetchone()[0]
            # information_schema sizes come from statistics a fresh load may not have yet
            # (MariaDB 11.4 reported a tenth of the real size without this).
            cursor.execute(f"ANALYZE TABLE {table}")
            cursor.fetchall()
        cursor.execute(
            "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables"
            " WHERE table_schema = %s",
            (DATABASE,),
        )
        return rows, int(cursor.fetchone()[0])
