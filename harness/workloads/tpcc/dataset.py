"""A TPC-C-like workload's data: loading the warehouses with its Lua and refusing a load whose
consistency check fails."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from harness.errors import UserError
from harness.model.tpcc_options import TpccOptions, dataset_label, table_names
from harness.servers.protocol import Server
from harness.workloads.sysbench.dataset import (
    DROP_EARLIER_LOAD,
    Loaded,
    SysbenchCalls,
    create_schema,
    measure_tables,
)
from harness.workloads.tpcc import commands, output


@dataclass(frozen=True)
class TpccLoader:
    options: TpccOptions

    def load(self, server: Server, calls: SysbenchCalls, note: Callable[[str], None]) -> Loaded:
        """As a sysbench load, and its check after the load also compares every table's rows
        with the population rules."""
        started = time.monotonic()
        create_schema(server)
        binary, target = calls.binary, calls.target
        calls(DROP_EARLIER_LOAD, commands.cleanup_argv(binary, target, self.options))
        note(f"loading {dataset_label(self.options)}")
        calls("load the tables", commands.prepare_argv(binary, target, self.options))
        server.check_alive()
        check_argv = commands.check_argv(binary, target, self.options, True)
        check = output.parse_check(
            calls("check consistency after the load", check_argv), tables=self.options.tables
        )
        if not check["passed"]:
            raise UserError(f"tpcc check after the load failed: {output.failed_summary(check)}")
        rows, data_bytes = measure_tables(server, table_names(self.options))
        return Loaded(rows, data_bytes, time.monotonic() - started, check)
