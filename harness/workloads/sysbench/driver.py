"""sysbench workloads (stock oltp_* tests and the project's Lua tests): a thread sweep, one
sysbench `run` per thread level, measured around each step; Callaghan's post-write step after
the write tests of his suite."""

from __future__ import annotations

import time
from typing import TypedDict

import contract
from contract.sweep_pause import PAUSE_PURPOSE, pause_command
from harness.errors import WrongPlan
from harness.measure.around_step import measured_step
from harness.model.campaign import Workload
from harness.servers.products.statements import binlog_reset_statement
from harness.servers.protocol import Server
from harness.servers.sysbench_target import Target
from harness.workloads.protocol import DataLoader, RunContext, WorkloadSection
from harness.workloads.sysbench import commands, dataset, postwrite, project_lua
from harness.workloads.sysbench.dataset import SysbenchCalls
from harness.workloads.sysbench.output import RunReport, parse_run


class StepExtras(TypedDict, total=False):
    """The fields a kind of sysbench workload adds to each step beside sysbench's totals."""

    tpcc: contract.TpccStep


class SysbenchDriver:
    def __init__(self, workload: Workload) -> None:
        self.workload = workload
        self.loader: DataLoader | None = dataset.SysbenchLoader(workload)

    def recorded_options(self) -> dict[str, str]:
        """Every option the tool was given, as the run document records them."""
        return commands.workload_options(self.workload)

    def section(self, sysbench_version: str, client_cpus: tuple[int, ...]) -> WorkloadSection:
        return {
            "tool": "sysbench",
            "tool_version": sysbench_version,
            "script": self.workload.test,
            "options": self.recorded_options(),
            "client_cpu_affinity": list(client_cpus) or None,
        }

    def dataset(self) -> str:
        return dataset.dataset_label(self.workload)

    def cleanup_argv(self, binary: str, target: Target) -> list[str]:
        return commands.cleanup_argv(binary, self.workload, target)

    def drop_tables(self, server: Server, calls: SysbenchCalls) -> None:
        calls("drop the tables", self.cleanup_argv(calls.binary, calls.target))

    def run_argv(self, binary: str, target: Target, threads: int, seconds: int) -> list[str]:
        return commands.run_argv(binary, self.workload, target, threads, seconds)

    def measure(self, run: RunContext) -> None:
        """Check the query plan, warm up, then one measured step per thread level, each after
        the write debt settled when the campaign asks."""
        sweep, workload = self.workload.sweep, self.workload
        target = run.server.sysbench_target()
        if project_lua.is_project_test(workload.test):
            self._check_plans(run)
        if sweep.warmup_seconds:
            argv = self.run_argv(run.sysbench, target, sweep.threads[0], sweep.warmup_seconds)
            run.calls("warm up (not measured)", argv)
        for index, threads in enumerate(sweep.threads):
            if index and sweep.sleep_seconds:
                time.sleep(sweep.sleep_seconds)
                # recorded like a command, so that a replay keeps the pause
                run.calls.commands.append(
                    {"purpose": PAUSE_PURPOSE, "command": pause_command(sweep.sleep_seconds)}
                )
            run.server.check_alive()
            # after the sleep: the debt of the warm-up, the workload before this one on the
            # server start or the thread level before is not this step's to pay
            settled = run.settle(f"{threads} thr")
            where = run.where(f"{threads} thr")
            run.on_step(where, sweep.step_seconds)
            argv = self.run_argv(run.sysbench, target, threads, sweep.step_seconds)
            purpose = f"measure at {threads} thread{'s' if threads > 1 else ''}"
            step = self.measure_step(run, purpose, argv, threads)
            if settled is not None:
                step["settle"] = settled
            contract.sysbench_steps(run.document).append(step)
            run.on_step_done(
                f"{where}: {step['tps']:.0f} tps,"
                f" p95 {step['latency_ms']['p95']:.2f} ms, {step['errors']} errors"
            )

    def _check_plans(self, run: RunContext) -> None:
        """A covered/not-covered, PK/secondary test means nothing on another plan."""
        target = run.server.sysbench_target()
        argv = commands.command(run.sysbench, self.workload, target, "explain", {})
        output = run.calls("check the query plan (EXPLAIN)", argv)
        problems = project_lua.plan_problems(self.workload.test, output)
        if problems:
            raise WrongPlan(f"EXPLAIN: {problems[0]}")

    def measure_step(
        self, run: RunContext, purpose: str, argv: list[str], threads: int
    ) -> contract.Step:
        started_at = contract.utc_timestamp()
        key = str(threads)  # contract.step_key of the step once recorded: its thread level
        with measured_step(
            run.server, run.innodb_metrics, run.profiles, key, run.pfs_waits
        ) as measured:
            output = run.calls(purpose, argv)
            report = parse_run(output, threads)
        step = report.step_fields()
        step["started_at"] = started_at
        if (rows_per_s := self.rows_per_s(report.events, report.total_time_s)) is not None:
            step["rows_per_s"] = rows_per_s
        step = {**step, **self.step_extras(run, output, report), **measured.fields}
        step["per_op"] = measured.per_op(report.events, "transaction")
        return step

    def rows_per_s(self, events: int, seconds: float) -> float | None:
        """A full scan's headline metric: each event reads one whole table."""
        if self.workload.test != "scan" or not seconds:
            return None
        return round(events * self.workload.table_size / seconds, 1)

    def step_extras(self, run: RunContext, output: str, report: RunReport) -> StepExtras:
        """Fields of a step beside sysbench's totals; a plain sysbench test has none."""
        return {}

    def after_sweep(self, run: RunContext) -> str | None:
        """Callaghan's post-write step, when the suite asks for it after this test."""
        suite = self.workload.suite
        if suite is not None and suite.post_write:
            run.note(f"{run.document['variant']} / {self.workload.label}: post-write")
            run.calls.commands += postwrite.post_write(  # after the sweep's, as they ran
                run.server.connect,
                binlog_reset_statement(run.server.release),
                self.workload.tables,
                self.workload.tables * self.workload.table_size,
                run.server.client_command,
            )
        return None
