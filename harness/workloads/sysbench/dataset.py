"""A workload's data: which workloads share it, and loading it into a running server.

Workloads whose tables come out identical (same script family, table count, rows and table
options) share one dataset, so a campaign loads it once per server and reuses it. The TPC-C-like
workload's data is its table sets, loaded by its own Lua and checked for consistency at once.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import pymysql

import contract
from harness.campaign.load import Workload
from harness.errors import UserError
from harness.servers import pinning
from harness.workloads.sysbench import commands as sysbench
from harness.workloads.sysbench import project_lua
from harness.workloads.tpcc import commands as tpcc_commands
from harness.workloads.tpcc import options as tpcc_options
from harness.workloads.tpcc import output as tpcc_output

# sysbench oltp options that change the statements a run sends, not the tables prepare builds.
RUN_TIME_OPTIONS = {
    "range-size", "point-selects", "simple-ranges", "sum-ranges", "order-ranges",
    "distinct-ranges", "index-updates", "non-index-updates", "delete-inserts", "range-selects",
    "skip-trx", "db-ps-mode", "mysql-ignore-errors", "percentile", "rate", "events",
    "warmup-time", "reconnect", "db-debug", "verbosity", "random-points",
}  # fmt: skip
DROP_EARLIER_LOAD = "drop tables of an earlier load"  # a purpose a fresh datadir makes moot


class Server(Protocol):
    """What loading needs from a server, sandboxed or existing."""

    def connect(self, database: str | None = None) -> pymysql.connections.Connection: ...
    def check_alive(self) -> None: ...


def dataset_of(workload: Workload) -> str:
    """A readable identity of the tables a workload's prepare builds."""
    if workload.tpcc is not None:
        return tpcc_options.dataset_label(workload.tpcc)
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
    check: dict | None = (
        None  # tpcc: the consistency check of the fresh load (tpcc_output.parse_check)
    )


def cleanup_argv(binary: str, workload: Workload, target: sysbench.Target) -> list[str]:
    if workload.tpcc is not None:
        return tpcc_commands.cleanup_argv(binary, target, workload.tpcc)
    return sysbench.cleanup_argv(binary, workload, target)


def load(
    server: Server,
    workload: Workload,
    run_sysbench: SysbenchCalls,
    note: Callable[[str], None],
) -> Loaded:
    """Create the schema, drop the tables an earlier load left, build them, and check them: a
    short (or, for tpcc, inconsistent) load would make every later number meaningless."""
    started = time.monotonic()
    with server.connect() as conn, conn.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE IF NOT EXISTS {sysbench.DATABASE}")
    target = run_sysbench.target
    binary = run_sysbench.binary
    run_sysbench(DROP_EARLIER_LOAD, cleanup_argv(binary, workload, target))
    note(f"loading {dataset_of(workload)}")
    if workload.tpcc is not None:
        return _load_tpcc(server, workload.tpcc, run_sysbench, started)
    run_sysbench("load the tables", sysbench.prepare_argv(binary, workload, target))
    server.check_alive()
    tables = [f"sbtest{index}" for index in range(1, workload.tables + 1)]
    rows, data_bytes = _measure(server, tables)
    expected = workload.tables * workload.table_size
    if workload.test != "oltp_insert" and rows != expected:
        raise UserError(
            f"workload {workload.label}: prepare left {rows} rows, expected {expected}"
        )
    return Loaded(rows, data_bytes, time.monotonic() - started)


def _load_tpcc(
    server: Server, options: tpcc_options.TpccOptions, run_sysbench: SysbenchCalls, started: float
) -> Loaded:
    """Its check after a load also compares every table's rows with the population rules."""
    binary, target = run_sysbench.binary, run_sysbench.target
    run_sysbench("load the tables", tpcc_commands.prepare_argv(binary, target, options))
    server.check_alive()
    output = run_sysbench(
        "check consistency after the load", tpcc_commands.check_argv(binary, target, options, True)
    )
    check = tpcc_output.parse_check(output, tables=options.tables)
    if not check["passed"]:
        raise UserError(f"tpcc check after the load failed: {tpcc_output.failed_summary(check)}")
    rows, data_bytes = _measure(server, tpcc_options.table_names(options))
    return Loaded(rows, data_bytes, time.monotonic() - started, check)


def _measure(server: Server, tables: list[str]) -> tuple[int, int]:
    with server.connect(sysbench.DATABASE) as conn, conn.cursor() as cursor:
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
            (sysbench.DATABASE,),
        )
        return rows, int(cursor.fetchone()[0])
