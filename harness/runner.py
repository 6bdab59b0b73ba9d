"""Run a campaign: servers x my.cnf variants x workloads x thread sweep, one run document each.

Faults lose nothing already measured: a run whose server dies or that is interrupted is written
with its completed steps and status "partial"; Ctrl-C stops what was started and re-raises.
"""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pymysql

import contract
from harness import __version__, hostinfo, monitor, mycnf, pinning, sysbench
from harness.campaign import Campaign, Server, Variant, Workload
from harness.errors import ServerGoneError, UserError
from harness.sampler import INTERVAL_S as sampler_interval_s
from harness.sampler import StepSampler
from harness.sandbox import Binaries, Sandbox, preflight
from harness.sysbench_output import parse_run

PROJECT_ROOT = Path(__file__).resolve().parents[1]
# Variables that can hold a credential (report_password, wsrep_sst_auth, ...): recorded as
# "<redacted>" when set, so a run document can be published as it is.
SECRET_VARIABLE = re.compile(r"(password|_auth)$")
REDACTED = "<redacted>"


def redact_secrets(variables: dict[str, str]) -> dict[str, str]:
    return {
        name: REDACTED if value and SECRET_VARIABLE.search(name) else value
        for name, value in variables.items()
    }


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _git(*args: str) -> str | None:
    try:
        result = subprocess.run(
            check=False, args=["git", *args], cwd=PROJECT_ROOT, capture_output=True, text=True
        )
    except FileNotFoundError:  # a results machine need not have git; the run then says null
        return None
    return result.stdout.strip() if result.returncode == 0 else None


def harness_identity() -> dict[str, object]:
    commit = _git("rev-parse", "HEAD")
    dirty = _git("status", "--porcelain", "--untracked-files=no")
    return {"version": __version__, "git_commit": commit, "git_dirty": bool(dirty)}


def relative_to_project(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(PROJECT_ROOT))
    except ValueError:
        return str(path)


def server_product(version_string: str, version_comment: str) -> str:
    if "mariadb" in version_string.lower():
        return "mariadb"
    return "percona" if "percona" in version_comment.lower() else "mysql"


def describe_server(sandbox: Sandbox) -> dict[str, object]:
    with sandbox.connect() as conn, conn.cursor() as cursor:
        cursor.execute("SHOW GLOBAL VARIABLES")
        rows = cursor.fetchall()
    variables = redact_secrets({name: "" if value is None else str(value) for name, value in rows})
    version_string = variables.get("version", "")
    comment = variables.get("version_comment", "")
    return {
        "product": server_product(version_string, comment),
        "version": version_string.split("-", 1)[0],
        "version_string": version_string,
        "version_comment": comment,
        "basedir": str(sandbox.binaries.basedir),
        "binary": str(sandbox.binaries.server),
        "sandbox": True,
        "my_cnf": sandbox.my_cnf_text,
        "my_cnf_options": mycnf.server_options(sandbox.tuned_mycnf),
        "cpu_affinity": pinning.applied_cpus(sandbox.pid),
        "variables": variables,
    }


def unused_dir(path: Path) -> Path:
    """path, or path-2, path-3 ... when an earlier attempt (kept for its error log) is there."""
    candidate, attempt = path, 1
    while candidate.exists():
        attempt += 1
        candidate = path.with_name(f"{path.name}-{attempt}")
    return candidate


@dataclass
class Progress:
    """What the CLI shows; the runner only reports events."""

    on_step: Callable[[str], None] = lambda description: None
    on_step_done: Callable[[str], None] = lambda summary: None
    on_note: Callable[[str], None] = lambda message: None


@dataclass
class CampaignRun:
    campaign: Campaign
    data_dir: Path
    workdir: Path
    harness_command: str
    keep_datadir: bool = False
    progress: Progress = field(default_factory=Progress)
    campaign_id: str = ""
    written: list[Path] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)  # ids of partial or failed runs
    # Set by check():
    sysbench: str = ""
    tool_version: str = ""
    binaries: dict[str, Binaries] = field(default_factory=dict)
    tuned: dict[str, str] = field(default_factory=dict)  # variant label -> my.cnf, no placement
    resume_id: str | None = None  # a campaign id whose complete runs are kept, not re-run
    completed: set[tuple[str, str]] = field(default_factory=set)  # (variant label, workload)
    used_ids: set[str] = field(default_factory=set)

    def variant_labels(self) -> list[tuple[Server, Variant, str]]:
        several = len(self.campaign.servers) > 1
        return [
            (server, variant, f"{server.label}.{variant.label}" if several else variant.label)
            for server in self.campaign.servers
            for variant in self.campaign.variants
        ]

    def pending(self, label: str) -> list[Workload]:
        return [w for w in self.campaign.workloads if (label, w.label) not in self.completed]

    def total_steps(self) -> int:
        workloads = sum(len(self.pending(label)) for _, _, label in self.variant_labels())
        return workloads * len(self.campaign.sweep.threads)

    def run_id(self, label: str, workload: str) -> str:
        """<campaign id>.<variant>.<workload>; a re-run after a partial one gets .r2, .r3 ...
        because a run file is never replaced."""
        base = candidate = f"{self.campaign_id}.{label}.{workload}"
        attempt = 1
        while (
            candidate in self.used_ids or (self.data_dir / "runs" / f"{candidate}.json").exists()
        ):
            attempt += 1
            candidate = f"{base}.r{attempt}"
        self.used_ids.add(candidate)
        return candidate

    def _plan_resume(self) -> list[str]:
        campaign_id = self.resume_id or ""
        if not campaign_id.startswith(f"{self.campaign.name}-"):
            raise UserError(f"--resume {campaign_id}: not a campaign id of {self.campaign.name!r}")
        runs, problems = contract.validate_dir(self.data_dir)
        if problems:
            raise UserError(f"--resume needs valid results first: {problems[0]}")
        ours = [run for run in runs if run["campaign"]["id"] == campaign_id]
        if not ours:
            raise UserError(f"--resume {campaign_id}: no runs of it in {self.data_dir / 'runs'}")
        self.completed = {
            (run["variant"], run["workload"]["name"])
            for run in ours
            if run["status"] == "complete"
        }
        self.used_ids = {run["id"] for run in ours}
        planned = len(self.variant_labels()) * len(self.campaign.workloads)
        return [
            f"resuming {campaign_id}: {len(self.completed)} of {planned} runs already complete"
        ]

    def publish(self, document: dict) -> None:
        """Write a run document; when the results directory cannot take it (a full disk, a
        read-only mount) the measurements go to the temp directory instead of being lost."""
        runs_dir = self.data_dir / "runs"
        try:
            self.written.append(contract.write_run(document, runs_dir))
        except contract.RunExistsError as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:
            rescue = Path(tempfile.gettempdir()) / f"{document['id']}.json"
            cause = f"{runs_dir}: cannot write run {document['id']} ({exc.strerror or exc})"
            try:
                rescue.write_text(json.dumps(document, indent=1) + "\n")
            except OSError:
                raise UserError(f"{cause}; it could not be saved elsewhere either") from None
            raise UserError(f"{cause}; saved to {rescue}, move it into {runs_dir} later") from None

    def check(self) -> list[str]:
        """Everything that can be refused before a server starts: tools, binaries, and each
        variant's my.cnf as parsed by its server binary. Returns notes worth printing."""
        notes = []
        self.sysbench = sysbench.sysbench_binary()
        self.tool_version = sysbench.sysbench_version(self.sysbench)
        if self.tool_version != sysbench.SUPPORTED_VERSION:
            notes.append(
                f"sysbench {self.tool_version} found; its output is parsed as"
                f" {sysbench.SUPPORTED_VERSION}'s"
            )
        campaign = self.campaign
        self.binaries = {s.label: Binaries.find(s.basedir) for s in campaign.servers}
        self.tuned = {
            label: mycnf.apply_variant(campaign.base_mycnf, variant.label, variant.options)
            for _, variant, label in self.variant_labels()
        }
        for server, _, label in self.variant_labels():
            preflight(self.binaries[server.label], self.tuned[label], label)
        if self.resume_id:
            self.campaign_id = self.resume_id
            notes += self._plan_resume()
        else:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            self.campaign_id = f"{self.campaign.name}-{stamp}"
        return notes

    def _enable_metrics(self, box: Sandbox) -> None:
        patterns = self.campaign.innodb_metrics
        try:
            with box.connect() as conn:
                monitor.enable_innodb_metrics(conn, patterns)
        except pymysql.err.MySQLError as exc:
            where = f"{self.campaign.path}: [monitor.innodb_metrics]"
            raise UserError(f"{where}: the server refused them: {exc.args[-1]}") from None

    def execute(self) -> list[Path]:
        """Run every planned variant that has work left; call check() first."""
        planned = self.variant_labels()
        order = [label for _, _, label in planned]
        for server, _, label in planned:
            workloads = self.pending(label)
            if not workloads:
                continue
            workdir = unused_dir(self.workdir / self.campaign_id / label)
            binaries = self.binaries[server.label]
            tuned = self.tuned[label]
            with Sandbox(binaries, workdir, tuned, self.keep_datadir, cpus=server.cpus) as box:
                self._enable_metrics(box)
                server_doc = describe_server(box)
                host_doc = hostinfo.collect_host(box.datadir)
                for workload in workloads:
                    run = WorkloadRun(self, box, label, order, workload)
                    run.document["server"] = server_doc
                    run.document["host"] = host_doc
                    server_died = run.execute()
                    self.publish(run.document)
                    if run.document["status"] != "complete":
                        self.incomplete.append(run.document["id"])
                    if server_died:
                        break
        return self.written


@dataclass
class WorkloadRun:
    owner: CampaignRun
    sandbox: Sandbox
    variant: str
    variant_order: list[str]
    workload: Workload
    document: dict = field(init=False)

    def __post_init__(self) -> None:
        campaign = self.owner.campaign
        self.target = sysbench.Target(self.sandbox.socket_path)
        self.binary = self.owner.sysbench
        self.document = {
            "schema_version": contract.SCHEMA_VERSION,
            "id": self.owner.run_id(self.variant, self.workload.label),
            "campaign": {
                "id": self.owner.campaign_id,
                "name": campaign.name,
                "title": campaign.title,
                "description": campaign.description,
                "file": relative_to_project(campaign.path),
                "variant_order": self.variant_order,
            },
            "variant": self.variant,
            "status": "failed",
            "started_at": utc_now(),
            "ended_at": utc_now(),
            "harness": harness_identity(),
            "workload": {
                "tool": "sysbench",
                "tool_version": self.owner.tool_version,
                "name": self.workload.label,
                "script": self.workload.test,
                "options": sysbench.workload_options(self.workload),
                "client_cpu_affinity": list(campaign.client_cpus) or None,
                "data_bytes": None,
                "rows_after_prepare": None,
            },
            "steps": [],
            "reproduce": {"harness_command": self.owner.harness_command, "commands": []},
        }
        binaries = self.sandbox.binaries
        self.document["reproduce"]["commands"] += [
            {
                "purpose": "initialise a datadir (my.cnf is this run's file)",
                "command": f"{binaries.install_db} --defaults-file=my.cnf"
                " --auth-root-authentication-method=normal --skip-test-db",
            },
            {
                "purpose": "start the server",
                "command": shlex.join(
                    pinning.pinned(
                        [str(binaries.server), "--defaults-file=my.cnf"], self.sandbox.cpus
                    )
                )
                + " &",
            },
            *(
                {
                    "purpose": "enable a sampled InnoDB metric",
                    "command": f"mariadb --socket={self.sandbox.socket_path} -u root"
                    f" -e \"SET GLOBAL innodb_monitor_enable = '{pattern}'\"",
                }
                for pattern in campaign.innodb_metrics
            ),
            {
                "purpose": "create the schema",
                "command": f"mariadb --socket={self.sandbox.socket_path} -u root"
                f" -e 'CREATE DATABASE {sysbench.DATABASE}'",
            },
        ]

    def _client(self, argv: list[str]) -> list[str]:
        return pinning.pinned(argv, self.owner.campaign.client_cpus)

    @property
    def log_path(self) -> Path:
        """The run's log: every sysbench command and its full output, next to my.cnf and the
        server's error log in the sandbox work directory."""
        return self.sandbox.workdir / f"{self.workload.label}.log"

    def _sysbench(self, purpose: str, argv: list[str]) -> str:
        """Record the command for the reader, run it, and log its output even when it fails."""
        command = sysbench.render(argv)
        self.document["reproduce"]["commands"].append({"purpose": purpose, "command": command})
        output = ""  # stays empty when Ctrl-C stops sysbench before it returns
        try:
            output = sysbench.execute(argv)
            return output
        except sysbench.SysbenchFailed as exc:
            output = exc.output
            raise
        finally:
            with self.log_path.open("a") as log:
                log.write(f"### {utc_now()} {purpose}\n$ {command}\n{output}\n")

    def execute(self) -> bool:
        """Run prepare, the sweep and cleanup; returns True when the server died."""
        document = self.document
        try:
            self._prepare()
            self._sweep()
            self._cleanup()
            document["status"] = "complete"
        except (ServerGoneError, sysbench.SysbenchFailed, pymysql.err.MySQLError) as exc:
            if not self.sandbox.alive():
                self._mark(f"server exited during the run: {self.sandbox.exit_summary()}")
                return True
            self._mark(str(exc))
        except KeyboardInterrupt:
            self._mark("interrupted by Ctrl-C")
            document["ended_at"] = utc_now()
            self.owner.publish(document)
            raise
        finally:
            document["ended_at"] = utc_now()
        return False

    def _mark(self, reason: str) -> None:
        self.document["status"] = "partial" if self.document["steps"] else "failed"
        self.document["status_reason"] = reason
        self.owner.progress.on_note(f"{self.document['id']}: {reason}")

    def _prepare(self) -> None:
        workload = self.workload
        with self.sandbox.connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"DROP DATABASE IF EXISTS {sysbench.DATABASE}")
            cursor.execute(f"CREATE DATABASE {sysbench.DATABASE}")
        argv = self._client(sysbench.prepare_argv(self.binary, workload, self.target))
        self.owner.progress.on_note(f"{self.variant} / {workload.label}: prepare")
        self._sysbench("load the tables", argv)
        self.sandbox.check_alive()
        rows, data_bytes = self._measure_data()
        expected = workload.tables * workload.table_size
        if workload.test != "oltp_insert" and rows != expected:
            raise UserError(
                f"workload {workload.label}: prepare left {rows} rows, expected {expected}"
            )
        self.document["workload"]["rows_after_prepare"] = rows
        self.document["workload"]["data_bytes"] = data_bytes

    def _measure_data(self) -> tuple[int, int]:
        with self.sandbox.connect(sysbench.DATABASE) as conn, conn.cursor() as cursor:
            rows = 0
            for index in range(1, self.workload.tables + 1):
                cursor.execute(f"SELECT COUNT(*) FROM sbtest{index}")
                rows += cursor.fetchone()[0]
            cursor.execute(
                "SELECT COALESCE(SUM(data_length + index_length), 0) FROM information_schema.tables"
                " WHERE table_schema = %s",
                (sysbench.DATABASE,),
            )
            return rows, int(cursor.fetchone()[0])

    def _sweep(self) -> None:
        sweep = self.owner.campaign.sweep
        if sweep.warmup_seconds:
            argv = self._client(
                sysbench.run_argv(
                    self.binary, self.workload, self.target, sweep.threads[0], sweep.warmup_seconds
                )
            )
            self._sysbench("warm up (not measured)", argv)
        for index, threads in enumerate(sweep.threads):
            if index and sweep.sleep_seconds:
                time.sleep(sweep.sleep_seconds)
            self.sandbox.check_alive()
            self.owner.progress.on_step(f"{self.variant} / {self.workload.label} / {threads} thr")
            argv = self._client(
                sysbench.run_argv(
                    self.binary, self.workload, self.target, threads, sweep.step_seconds
                )
            )
            purpose = f"measure at {threads} thread{'s' if threads > 1 else ''}"
            step = self._measure(purpose, argv, threads)
            self.document["steps"].append(step)
            self.owner.progress.on_step_done(
                f"{self.variant} / {self.workload.label} / {threads} thr: {step['tps']:.0f} tps,"
                f" p95 {step['latency_ms']['p95']:.2f} ms, {step['errors']} errors"
            )

    def _measure(self, purpose: str, argv: list[str], threads: int) -> dict:
        started_at = utc_now()
        with self.sandbox.connect() as conn:
            status_before = monitor.server_status(conn)
        with self.sandbox.connect() as sampler_connection:
            sampler = StepSampler(
                sampler_connection, self.sandbox.pid, self.owner.campaign.innodb_metrics
            )
            sampler.start()
            os_before = monitor.os_sample()
            try:
                report = parse_run(self._sysbench(purpose, argv), threads)
            finally:
                os_after = monitor.os_sample()
                samples = sampler.stop()
        self.sandbox.check_alive()
        with self.sandbox.connect() as conn:
            status_after = monitor.server_status(conn)
        return {
            "threads": threads,
            "duration_s": report.total_time_s,
            "started_at": started_at,
            "tps": report.tps,
            "qps": report.qps(),
            "latency_ms": report.latency_ms,
            "events": report.events,
            "errors": report.errors,
            "reconnects": report.reconnects,
            "series": report.series,
            "server_status_delta": monitor.status_delta(status_before, status_after),
            "os": monitor.os_delta(os_before, os_after),
            "per_op": monitor.per_operation(os_before, os_after, report.events),
            "monitor": {"interval_s": sampler_interval_s, "series": samples},
        }

    def _cleanup(self) -> None:
        argv = self._client(sysbench.cleanup_argv(self.binary, self.workload, self.target))
        self._sysbench("drop the tables", argv)
