"""One run document: one workload on one server under one variant in one pass, measured by the
workload's driver. A fault keeps what was measured: the run is marked partial (or failed) with
the reason, and the caller publishes it. The server's profile of every completed step is
written into the results directory before the run document is (record_profile)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.errors import ServerGoneError, WrongPlan
from harness.measure.profile import RunProfiles
from harness.model.campaign import Profiling, Workload
from harness.run import document as run_document
from harness.run.document import CampaignFacts, StartingData
from harness.run.settle import settle
from harness.servers.protocol import Server
from harness.workloads.drivers import driver_for
from harness.workloads.ibench.steps import IbenchError
from harness.workloads.protocol import WorkloadDriver
from harness.workloads.sysbench.commands import SysbenchFailed
from harness.workloads.sysbench.dataset import SysbenchCalls

# after a failed call, how long a dying server may take to be reaped before "it is alive"
FAILURE_GRACE_S = 5.0


@dataclass
class Progress:
    """What the CLI shows; the runs only report events."""

    on_step: Callable[[str, int], None] = lambda description, seconds: None
    on_step_done: Callable[[str], None] = lambda summary: None
    on_note: Callable[[str], None] = lambda message: None


@dataclass
class RunSettings:
    """What every run of a campaign run shares."""

    facts: CampaignFacts
    sysbench: str  # the binary
    sysbench_version: str
    client_cpus: tuple[int, ...]
    innodb_metrics: tuple[str, ...]
    several_passes: bool
    progress: Progress
    publish: Callable[[contract.RunDocument], None]
    profiling: Profiling
    results_dir: Path  # the directory that holds runs/; profile files go into its profiles/
    note_once: Callable[[str], None]  # a note the campaign shows once, however many runs say it


@dataclass
class WorkloadRun:
    settings: RunSettings
    run_id: str
    server: Server
    variant: str
    workload: Workload
    pass_index: int
    pfs_waits: bool = False  # the campaign's waits pass (measure/waits.py): no measurement
    driver: WorkloadDriver = field(init=False)
    document: contract.RunDocument = field(init=False)
    calls: SysbenchCalls = field(init=False)
    profiles: RunProfiles = field(init=False)

    def __post_init__(self) -> None:
        self.driver = driver_for(self.workload)
        self.workload = self.driver.workload  # the Insert Benchmark fixes its seed here
        settings = self.settings
        self.calls = SysbenchCalls(
            settings.sysbench, settings.client_cpus, self.log_path, self.server.sysbench_target()
        )
        section = self.driver.section(settings.sysbench_version, settings.client_cpus)
        self.document = run_document.new_document(
            settings.facts, self.run_id, self.variant, self.workload, self.pass_index, section
        )
        if self.pfs_waits:  # one run per cell, after every pass: it is none of the passes
            self.document["purpose"] = "waits"
            self.document.pop("repeat", None)
        profiling = settings.profiling
        self.profiles = RunProfiles.for_run(
            profiling.enabled,
            profiling.frequency_hz,
            self.server.workdir,
            lambda message: self.note(f"{self.run_id}: {message}"),
        )

    # -- what a driver gets (workloads/protocol.py RunContext) --

    @property
    def sysbench(self) -> str:
        return self.settings.sysbench

    @property
    def innodb_metrics(self) -> tuple[str, ...]:
        return self.settings.innodb_metrics

    def where(self, step: str) -> str:
        where = f"{self.variant} / {self.workload.label} / {step}"
        return f"pass {self.pass_index} / {where}" if self.settings.several_passes else where

    def on_step(self, where: str, seconds: int) -> None:
        self.settings.progress.on_step(where, seconds)

    def on_step_done(self, summary: str) -> None:
        self.settings.progress.on_step_done(summary)

    def note(self, message: str) -> None:
        self.settings.progress.on_note(message)

    def settle(self, step: str) -> contract.Settle | None:
        """[sweep] settle: wait for the write debt to settle (run/settle.py) before the measured
        step named step; returns the step's settle record (None when the campaign does not ask)
        and adds the wait to the replay commands, in the order it ran."""
        sweep = self.workload.sweep
        if sweep.settle is None:
            return None
        where = self.where(f"{step} settle")
        self.note(f"{where}: write debt settling (at most {sweep.settle_timeout_s} s)")
        record, commands = settle(
            self.server.connect, sweep.settle_timeout_s, self.server.client_command
        )
        self.calls.commands += commands
        if record.get("timed_out"):
            self.note(f"{where}: timed out, measuring anyway: {record['after']}")
        return record

    # -- the run --

    @property
    def log_path(self) -> Path:
        """The run's log: every sysbench command and its full output, next to my.cnf and the
        server's error log in the sandbox work directory."""
        return self.server.workdir / f"{self.workload.label}.log"

    def describe(
        self,
        server_doc: contract.Server | None,
        host_doc: contract.Host,
        server_host: contract.ServerHost | None = None,
    ) -> None:
        """The server (None when it could not be asked), the host the run ran on, and the
        server's own machine when it is not that host for sure (an existing server over TCP)."""
        if server_doc is not None:
            self.document["server"] = server_doc
        self.document["host"] = host_doc
        if server_host is not None:
            self.document["server_host"] = server_host

    def start_from(
        self,
        data: StartingData | None,
        server_commands: list[contract.ReproduceCommand] | None = None,
    ) -> None:
        run_document.record_start(
            self.document, self.server, self.innodb_metrics, data, server_commands or []
        )

    def execute(self) -> bool:
        """Run the steps and what follows them; returns True when the server died."""
        document = self.document
        try:
            self.driver.measure(self)
            problem = self.driver.after_sweep(self)
            document["status"] = "complete"
            if problem is not None:
                self.mark(problem)
        except (
            ServerGoneError,
            WrongPlan,
            SysbenchFailed,
            pymysql.err.MySQLError,
            IbenchError,
        ) as exc:
            if not self.server.alive(grace=FAILURE_GRACE_S):
                self.mark(f"server exited during the run: {self.server.exit_summary()}")
                return True
            self.mark(str(exc))
        except KeyboardInterrupt:  # published at once, before the run's commands are added
            self.mark("interrupted by Ctrl-C")
            document["ended_at"] = contract.utc_timestamp()
            self.record_profile()
            self.settings.publish(document)
            raise
        finally:
            document["ended_at"] = contract.utc_timestamp()
            recorded = [*document["reproduce"]["commands"], *self.calls.commands]
            document["reproduce"]["commands"] = run_document.commands_in_variables(
                recorded, self.server.replay_variables()
            )
            self.calls.commands.clear()
            self.record_profile()
        return False

    def record_profile(self) -> None:
        """Write the profile file of the steps the document holds (a failed step's profile
        was dropped with it) and record it, or why there is none, in the document; once. A
        file that cannot be written costs the run its profile, never the run."""
        document = self.document
        if "profile" in document:
            return
        steps = self.measured_steps()
        profile_file, recorded = self.profiles.for_run_document(self.run_id, steps)
        if profile_file is not None and recorded is not None:
            try:
                name, sha256 = contract.write_profile(profile_file, self.settings.results_dir)
            except (OSError, ValueError) as exc:
                where = self.settings.results_dir / contract.profile_file_name(self.run_id)
                why = getattr(exc, "strerror", None) or exc
                recorded = {"skipped": f"{where}: the profile file was not written ({why})"}
                for step in steps:
                    step.pop("profile", None)
            else:
                recorded = {"file": name, "sha256": sha256, **recorded}
        if recorded is None:
            return
        if "skipped" in recorded:
            self.settings.note_once(f"not profiled: {recorded['skipped']}")
        document["profile"] = recorded

    def measured_steps(self) -> list[contract.Step] | list[contract.IbenchStep]:
        """The steps the document holds, of its workload's kind."""
        if contract.is_ibench(self.document):
            return contract.ibench_steps(self.document)
        return contract.sysbench_steps(self.document)

    def mark(self, reason: str) -> None:
        run_document.mark(self.document, reason)
        self.note(f"{self.document['id']}: {reason}")
