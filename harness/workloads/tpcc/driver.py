"""The TPC-C-like workload: a sysbench thread sweep over the project's Lua, with per-type
statistics in each step, a consistency check right after the load (a failed one refuses the
data) and one after the sweep (a failed one marks the run)."""

from __future__ import annotations

from typing import cast

import contract
from harness.model.campaign import Workload
from harness.model.tpcc_options import TpccOptions, dataset_label
from harness.servers.sysbench_target import Target
from harness.workloads.protocol import RunContext, WorkloadSection
from harness.workloads.sysbench.commands import ALWAYS
from harness.workloads.sysbench.driver import StepExtras, SysbenchDriver
from harness.workloads.sysbench.output import RunReport
from harness.workloads.tpcc import commands, output
from harness.workloads.tpcc.dataset import TpccLoader


class TpccDriver(SysbenchDriver):
    def __init__(self, workload: Workload) -> None:
        super().__init__(workload)
        assert workload.tpcc is not None  # drivers.py picks this driver for test = "tpcc"
        self.options: TpccOptions = workload.tpcc
        self.loader = TpccLoader(self.options)

    def recorded_options(self) -> dict[str, str]:
        return {**ALWAYS, **self.options.sysbench_options()}

    def section(self, sysbench_version: str, client_cpus: tuple[int, ...]) -> WorkloadSection:
        # the campaign model gives workload.tpcc untyped (dict[str, Any]), with its keys
        tpcc = cast(contract.WorkloadTpcc, self.options.describe())
        return {**super().section(sysbench_version, client_cpus), "tpcc": tpcc}

    def dataset(self) -> str:
        return dataset_label(self.options)

    def cleanup_argv(self, binary: str, target: Target) -> list[str]:
        return commands.cleanup_argv(binary, target, self.options)

    def run_argv(self, binary: str, target: Target, threads: int, seconds: int) -> list[str]:
        return commands.run_argv(binary, target, self.options, threads, seconds)

    def step_extras(self, run: RunContext, text: str, report: RunReport) -> StepExtras:
        """Per-type statistics beside sysbench's totals, and where the two disagree."""
        stats = output.parse_stats(text, report.total_time_s, report.threads)
        stats["totals_problems"] = output.totals_problems(stats, report.events, report.errors)
        for problem in stats["totals_problems"]:
            run.note(f"{run.document['id']}: {problem}")
        return {"tpcc": stats}

    def after_sweep(self, run: RunContext) -> str | None:
        """A failed TPC-C condition means the run's numbers came from a broken database: the
        run keeps its steps but is marked, with the conditions named."""
        argv = commands.check_argv(run.sysbench, run.server.sysbench_target(), self.options)
        text = run.calls("check consistency after the run", argv)
        check = output.parse_check(text, tables=self.options.tables)
        run.document["workload"]["tpcc"]["check_after_run"] = check
        if not check["passed"]:
            return f"tpcc check after the run failed: {output.failed_summary(check)}"
        return None
