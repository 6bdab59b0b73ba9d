"""The Insert Benchmark (harness/ibench) as a campaign workload: `test = "ibench"`.

Its l.i0 step creates the data, so there is no load and no pristine copy: on a sandbox each
ibench workload gets a server of its own started on an empty datadir; on an existing server the
variant is applied by the runner and the tables are dropped afterwards. Around every step the
harness measures what it measures around a sysbench step (harness/measured.py); each step is
added to the run document as soon as it completes, so Ctrl-C or a dead server leaves a partial
run with the completed steps (WorkloadRun.execute does the marking).
"""

from __future__ import annotations

import dataclasses
import shlex
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import pymysql

from harness import __version__
from harness.campaign.load import Server, Workload
from harness.measure import host as hostinfo
from harness.measure.step import MeasuredStep, measured_step
from harness.servers.existing.server import ExistingServer
from harness.servers.sandbox import Sandbox
from harness.workloads.ibench import IbenchParams, run_steps
from harness.workloads.ibench.params import FLUSH, INDEX, QUERY

if TYPE_CHECKING:
    from harness.run.campaign_run import CampaignRun, WorkloadRun

# What a step's host counters are divided by (Callaghan: per insert in the l steps, per query in
# the q steps; l.x by the rows it indexed).
PER_OP = {INDEX: ("indexed_row", "rows"), QUERY: ("query", "queries")}
PER_INSERT = ("insert", "inserts")


def run_sandbox_group(
    owner: CampaignRun, server: Server, label: str, group: list[Workload], pass_index: int
) -> None:
    """Each workload on a fresh server of the variant; stops after one whose server died."""
    for workload in group:
        purpose = f"{owner._purpose(label, pass_index)}/{workload.label}"
        with owner._sandbox(server, label, purpose) as box:
            owner._enable_metrics(box)
            if _run(owner, box, label, workload, pass_index):
                return


def run_existing_group(
    owner: CampaignRun, box: ExistingServer, label: str, group: list[Workload], pass_index: int
) -> None:
    """On a server the harness did not start (variant applied by the caller): each workload,
    then its tables dropped, as the sysbench path drops sbtest*."""
    for workload in group:
        if _run(owner, box, label, workload, pass_index):
            return
        params = workload.ibench.params
        tables = ", ".join(f"{params.database}.{name}" for name in params.table_names())
        with box.connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {tables}")


def _run(
    owner: CampaignRun,
    box: Sandbox | ExistingServer,
    label: str,
    workload: Workload,
    pass_index: int,
) -> bool:
    """One run document; True when the server died."""
    from harness.run.campaign_run import WorkloadRun  # runner dispatches here: import at call time

    workload = _seeded(workload)
    run = WorkloadRun(owner, box, label, workload, pass_index)
    run.document.update(server=owner.describe_server(box), host=hostinfo.collect_host(box.datadir))
    _describe(run)
    server_died = run.execute()
    owner.publish(run.document)
    return server_died


def _seeded(workload: Workload) -> Workload:
    """Fix the seed before the run, so the document records it and the command replays it."""
    spec = workload.ibench
    if spec.params.seed is not None:
        return workload
    params = dataclasses.replace(spec.params, seed=int(time.time()))
    return dataclasses.replace(workload, ibench=dataclasses.replace(spec, params=params))


def _describe(run: WorkloadRun) -> None:
    spec = run.workload.ibench
    options = {
        name: str(value) for name, value in spec.params.to_json().items() if value is not None
    }
    run.document["workload"].update(
        tool="ibench",
        tool_version=f"harness.ibench {__version__} (PyMySQL {pymysql.__version__})",
        script="harness.ibench",  # the name run documents have always recorded
        options={**options, "steps": ",".join(spec.steps)},
        client_cpu_affinity=None,  # the workers are not pinned (no [client] cpus for ibench)
    )
    commands = run.document["reproduce"]["commands"]
    if isinstance(run.server, Sandbox):
        commands += run.server.reproduce_commands()
    commands += [
        {
            "purpose": "enable a sampled InnoDB metric",
            "command": run.server.client_command(f"SET GLOBAL innodb_monitor_enable = '{name}'"),
        }
        for name in run.owner.campaign.innodb_metrics
    ]
    commands.append(
        {
            "purpose": "run the Insert Benchmark steps (from the project root)",
            "command": ibench_command(run.server, spec.params, spec.steps),
        }
    )


def ibench_command(
    server: Sandbox | ExistingServer, params: IbenchParams, steps: tuple[str, ...]
) -> str:
    """python -m harness.workloads.ibench with this run's connection and every non-default parameter
    (the password of an existing server is left out)."""
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


def measure(run: WorkloadRun) -> None:
    """Run the steps into run.document["steps"] (WorkloadRun.execute calls this, not _sweep)."""
    spec = run.workload.ibench
    hooks = _StepHooks(run)
    run_steps(
        run.server.connect_args(),
        spec.params,
        spec.steps,
        on_step=hooks.completed,
        around_step=hooks.around,
    )


@dataclasses.dataclass
class _StepHooks:
    run: WorkloadRun
    current: MeasuredStep | None = None

    def _where(self, name: str) -> str:
        run = self.run
        where = f"{run.variant} / {run.workload.label} / {name}"
        return f"pass {run.pass_index} / {where}" if len(run.owner.passes) > 1 else where

    @contextmanager
    def around(self, name: str) -> Iterator[dict]:
        run = self.run
        seconds = run.workload.ibench.params.query_seconds if name.startswith("q") else 0
        run.owner.progress.on_step(self._where(name), int(seconds))
        with measured_step(run.server, run.owner.campaign.innodb_metrics) as step:
            self.current = step
            yield step.fields

    def completed(self, step: dict) -> None:
        if step["kind"] != FLUSH and self.current is not None:
            op, count_key = PER_OP.get(step["kind"], PER_INSERT)
            step["per_op"] = self.current.per_op(step.get(count_key, 0), op)
        self.run.document["steps"].append(step)
        # The data size that decides in-memory vs IO-bound: the largest the database grew.
        workload = self.run.document["workload"]
        workload["data_bytes"] = max(workload["data_bytes"] or 0, step.get("db_bytes", 0))
        self.run.owner.progress.on_step_done(f"{self._where(step['step'])}: {summary(step)}")


def summary(step: dict) -> str:
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
