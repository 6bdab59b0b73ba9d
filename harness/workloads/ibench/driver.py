"""The Insert Benchmark (this package) as a campaign workload: `test = "ibench"`.

Its l.i0 step creates the data, so there is no load and no pristine copy: on a sandbox each
ibench workload gets a server of its own started on an empty datadir; on an existing server the
variant is applied by the campaign run and the tables are dropped afterwards. Around every step
the harness measures what it measures around a sysbench step (harness/measure/around_step.py);
each step is added to the run document as soon as it completes, so Ctrl-C or a dead server
leaves a partial run with the completed steps (the workload run does the marking).
"""

from __future__ import annotations

import dataclasses
import shlex
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness import __version__
from harness.measure.around_step import MeasuredStep, Operation, StepMeasures, measured_step
from harness.model.campaign import Workload
from harness.model.ibench_params import FLUSH, INDEX, QUERY, IbenchParams, IbenchSpec
from harness.servers.protocol import Server
from harness.workloads.ibench.steps import run_steps
from harness.workloads.protocol import DataLoader, RunContext, WorkloadSection
from harness.workloads.sysbench.dataset import SysbenchCalls, dataset_label


def operations(step: contract.IbenchStep) -> tuple[Operation, int]:
    """What a step's host counters are divided by, and how many there were (Callaghan: per
    insert in the l steps, per query in the q steps; l.x by the rows it indexed)."""
    if step["kind"] == INDEX:
        return "indexed_row", step.get("rows", 0)
    if step["kind"] == QUERY:
        return "query", step.get("queries", 0)
    return "insert", step.get("inserts", 0)


class IbenchDriver:
    loader: DataLoader | None = None  # the l.i0 step creates the data

    def __init__(self, workload: Workload) -> None:
        self.workload = _seeded(workload)
        assert self.workload.ibench is not None  # drivers.py picks this driver for "ibench"
        self.spec: IbenchSpec = self.workload.ibench

    def section(self, sysbench_version: str, client_cpus: tuple[int, ...]) -> WorkloadSection:
        options = {
            name: str(value)
            for name, value in self.spec.params.to_json().items()
            if value is not None
        }
        return {
            "tool": "ibench",
            "tool_version": f"harness.ibench {__version__} (PyMySQL {pymysql.__version__})",
            "script": "harness.ibench",  # the name run documents have always recorded
            "options": {**options, "steps": ",".join(self.spec.steps)},
            "client_cpu_affinity": None,  # the workers are not pinned (no [client] cpus)
        }

    def dataset(self) -> str:
        return dataset_label(self.workload)

    def drop_tables(self, server: Server, calls: SysbenchCalls) -> None:
        """As the sysbench path drops sbtest*."""
        params = self.spec.params
        tables = ", ".join(f"{params.database}.{name}" for name in params.table_names())
        with server.connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {tables}")

    def measure(self, run: RunContext) -> None:
        """Run the steps into run.document["steps"], each added as soon as it completes."""
        run.document["reproduce"]["commands"].append(
            {
                "purpose": "run the Insert Benchmark steps (from the project root)",
                "command": ibench_command(run.server, self.spec.params, self.spec.steps),
            }
        )
        hooks = _StepHooks(run, self.spec.params.query_seconds)
        run_steps(
            run.server.connect_args(),
            self.spec.params,
            self.spec.steps,
            on_step=hooks.completed,
            around_step=hooks.around,
        )

    def after_sweep(self, run: RunContext) -> str | None:
        return None


def _seeded(workload: Workload) -> Workload:
    """Fix the seed before the run, so the document records it and the command replays it."""
    spec = workload.ibench
    if spec is None or spec.params.seed is not None:
        return workload
    params = dataclasses.replace(spec.params, seed=int(time.time()))
    return dataclasses.replace(workload, ibench=dataclasses.replace(spec, params=params))


def ibench_command(server: Server, params: IbenchParams, steps: tuple[str, ...]) -> str:
    """python -m harness.workloads.ibench with this run's connection and every non-default
    parameter (the password of an existing server is left out)."""
    args = server.connect_args()
    if "unix_socket" in args:
        argv = ["--socket", str(args["unix_socket"])]
    else:
        argv = ["--host", str(args["host"]), "--port", str(args["port"])]
    argv += ["--user", str(args["user"])]
    defaults = IbenchParams()
    for field in dataclasses.fields(IbenchParams):
        value = getattr(params, field.name)
        if value == getattr(defaults, field.name):
            continue
        flag = "--" + field.name.replace("_", "-")
        if isinstance(value, bool):
            argv.append(flag if value else f"--no-{flag[2:]}")
        else:
            argv += [flag, str(value)]
    argv += ["--steps", ",".join(steps)]
    return shlex.join([".venv/bin/python", "-m", "harness.workloads.ibench", *argv])


@dataclasses.dataclass
class _StepHooks:
    run: RunContext
    query_seconds: float
    current: MeasuredStep | None = None

    @contextmanager
    def around(self, name: str) -> Iterator[StepMeasures]:
        run = self.run
        seconds = self.query_seconds if name.startswith("q") else 0
        run.on_step(run.where(name), int(seconds))
        key = name  # contract.step_key of the step once recorded: an ibench step's name
        with measured_step(
            run.server, run.innodb_metrics, run.profiles, key, run.pfs_waits
        ) as step:
            self.current = step
            yield step.fields

    def completed(self, step: contract.IbenchStep) -> None:
        if step["kind"] != FLUSH and self.current is not None:
            op, count = operations(step)
            # the workers' own CPU (client_cpu), so per_op and client_cpu agree
            client_s = step["client_cpu"]["seconds"]
            step["per_op"] = self.current.per_op(count, op, client_s)
        contract.ibench_steps(self.run.document).append(step)
        # The data size that decides in-memory vs IO-bound: the largest the database grew.
        workload = self.run.document["workload"]
        workload["data_bytes"] = max(workload["data_bytes"] or 0, step.get("db_bytes", 0))
        self.run.on_step_done(f"{self.run.where(step['step'])}: {summary(step)}")


def summary(step: contract.IbenchStep) -> str:
    """The progress line of a completed step."""
    if step["kind"] == FLUSH:
        return f"{step['duration_s']:.0f} s"
    if step["kind"] == QUERY:
        background = step["background"]
        text = (
            f"{step['queries_per_s']:.0f} queries/s, background"
            f" {background['achieved_inserts_per_s']:.0f} of"
            f" {background['target_inserts_per_s']} inserts/s"
        )
    elif step["kind"] == INDEX:
        text = f"{step.get('indexed_rows_per_s', 0):.0f} rows indexed/s"
    else:
        text = f"{step['inserts_per_s']:.0f} inserts/s, {step['deletes_per_s']:.0f} deletes/s"
    problems = step["problems"]
    return text + (f"; {len(problems)} problem(s): {problems[0]}" if problems else "")
