"""Run a campaign: passes x servers x my.cnf variants x workloads x thread sweep, one run
document each.

Each dataset is loaded once per server and kept pristine; every variant restarts on a copy of it
(harness/pristine.py), so variants start from identical data and a pass costs no reload. Passes
are interleaved (every variant once, then again) so drift of the machine hits all variants alike,
and each pass starts one variant further on (A B C, B C A, C A B) so a variant's place in the
pass (first after the load, or after the heaviest writer) is not always the same.
Faults lose nothing already measured: a run whose server dies or that is interrupted is written
with its completed steps and status "partial"; Ctrl-C stops what was started and re-raises.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pymysql

import contract
from harness import PROJECT_ROOT, __version__
from harness.campaign import suites
from harness.campaign.load import Campaign, Server, Variant, Workload
from harness.errors import ServerGoneError, UserError, WrongPlan
from harness.measure import counters as monitor
from harness.measure import host as hostinfo
from harness.measure.step import measured_step
from harness.servers import compiled_defaults as defaults
from harness.servers import mycnf, products
from harness.servers.existing.server import ExistingServer
from harness.servers.pristine import PristineCopy, PristineStore, pristine_key
from harness.servers.sandbox import Binaries, Sandbox, option_notes, preflight
from harness.workloads.ibench import IbenchError
from harness.workloads.ibench import driver as ibench_run
from harness.workloads.sysbench import commands as sysbench
from harness.workloads.sysbench import dataset, postwrite, project_lua
from harness.workloads.sysbench.dataset import SysbenchCalls
from harness.workloads.sysbench.output import RunReport, parse_run
from harness.workloads.tpcc import commands as tpcc_commands
from harness.workloads.tpcc import output as tpcc_output

# after a failed call, how long a dying server may take to be reaped before "it is alive"
FAILURE_GRACE_S = 5.0


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


def unused_dir(path: Path) -> Path:
    """path, or path-2, path-3 ... when an earlier attempt (kept for its error log) is there."""
    candidate, attempt = path, 1
    while candidate.exists():
        attempt += 1
        candidate = path.with_name(f"{path.name}-{attempt}")
    return candidate


@dataclass(frozen=True)
class StartingData:
    """What a group's runs start from, and how a reader rebuilds it."""

    origin: dict  # the run document's workload.data_origin
    rows: int
    data_bytes: int
    commands: list[dict[str, str]]
    load_check: dict | None = None  # tpcc: the consistency check right after the load


@dataclass
class Progress:
    """What the CLI shows; the runner only reports events."""

    on_step: Callable[[str, int], None] = lambda description, seconds: None
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
    compiled_defaults: dict[Path, dict] = field(default_factory=dict)  # by binary (defaults.py)
    tuned: dict[str, str] = field(default_factory=dict)  # variant label -> my.cnf, no placement
    resume_id: str | None = None  # a campaign id whose complete runs are kept, not re-run
    completed: set[tuple[str, str, int]] = field(default_factory=set)  # variant, workload, pass
    used_ids: set[str] = field(default_factory=set)
    stores: dict[str, PristineStore] = field(default_factory=dict)  # server label -> copies

    def variant_labels(self) -> list[tuple[Server, Variant, str]]:
        several = len(self.campaign.servers) > 1
        return [
            (server, variant, f"{server.label}.{variant.label}" if several else variant.label)
            for server in self.campaign.servers
            for variant in self.campaign.variants
        ]

    @property
    def passes(self) -> range:
        return range(1, self.campaign.repeats + 1)

    def pending(self, label: str, pass_index: int) -> list[Workload]:
        return [
            w
            for w in self.campaign.workloads
            if (label, w.label, pass_index) not in self.completed
        ]

    def total_steps(self) -> int:
        return sum(
            workload.step_count
            for pass_index in self.passes
            for _, _, label in self.variant_labels()
            for workload in self.pending(label, pass_index)
        )

    def run_id(self, label: str, workload: str, pass_index: int) -> str:
        """<campaign id>.<variant>.<workload>[.p<pass>]; a re-run after a partial one gets .r2,
        .r3 ... because a run file is never replaced."""
        base = f"{self.campaign_id}.{label}.{workload}"
        if self.campaign.repeats > 1:
            base += f".p{pass_index}"
        candidate, attempt = base, 1
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
            (run["variant"], run["workload"]["name"], run.get("repeat", {}).get("index", 1))
            for run in ours
            if run["status"] == "complete"
        }
        self.used_ids = {run["id"] for run in ours}
        planned = len(self.variant_labels()) * len(self.campaign.workloads) * len(self.passes)
        return [
            f"resuming {campaign_id}: {len(self.completed)} of {planned} runs already complete"
        ]

    def publish(self, document: dict) -> None:
        """Write a run document; when the results directory cannot take it (a full disk, a
        read-only mount) or the document fails the schema (a harness bug), the measurements
        go to the temp directory instead of being lost."""
        runs_dir = self.data_dir / "runs"
        try:
            self.written.append(contract.write_run(document, runs_dir))
        except contract.RunExistsError as exc:
            raise UserError(str(exc)) from None
        except OSError as exc:
            cause = f"{runs_dir}: cannot write run {document['id']} ({exc.strerror or exc})"
            raise UserError(rescued(document, runs_dir, cause)) from None
        except ValueError as exc:  # write_run's schema check
            cause = f"run {document['id']} not written: {exc}"
            raise UserError(rescued(document, runs_dir, cause)) from None
        if document["status"] != "complete":
            self.incomplete.append(document["id"])

    def check(self) -> list[str]:
        """Everything that can be refused before a measurement starts: tools, binaries, each
        sandbox variant's my.cnf as parsed by its server binary, each existing server's
        credentials and variant options. Returns notes worth printing."""
        notes = []
        self.sysbench = sysbench.sysbench_binary()
        self.tool_version = sysbench.sysbench_version(self.sysbench)
        if self.tool_version != sysbench.SUPPORTED_VERSION:
            notes.append(
                f"sysbench {self.tool_version} found; its output is parsed as"
                f" {sysbench.SUPPORTED_VERSION}'s"
            )
        if self.resume_id:
            self.campaign_id = self.resume_id
            notes += self._plan_resume()
        else:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            self.campaign_id = f"{self.campaign.name}-{stamp}"
        campaign = self.campaign
        sandboxes = [s for s in campaign.servers if s.kind == "sandbox"]
        self.binaries = {s.label: Binaries.find(s.basedir) for s in sandboxes}
        for binaries in self.binaries.values():
            scratch = self.workdir / self.campaign_id
            self.compiled_defaults[binaries.server] = defaults.compiled_defaults(binaries, scratch)
        for server, variant, label in self.variant_labels():
            if server.kind == "existing":
                with self._existing(server, f"check-{label}") as box:
                    box.check_variant(label, variant.options)
                continue
            self.tuned[label] = mycnf.apply_variant(
                campaign.base_mycnf, variant.label, variant.options
            )
            preflight(self.binaries[server.label], self.tuned[label], label)
            notes += option_notes(self.binaries[server.label], self.tuned[label], label)
        if len(sandboxes) < len(campaign.servers):
            notes.append("[mycnf] base is not applied to existing servers, only variant options")
        set_anywhere = {
            name for text in self.tuned.values() for name in mycnf.server_options(text)
        }
        notes += products.default_differences(
            {label: binaries.product for label, binaries in self.binaries.items()}, set_anywhere
        )
        return notes

    def describe_server(self, box: Sandbox | ExistingServer) -> dict:
        """The run document's server, with the variables that differ from the build's compiled
        defaults when the harness could probe them (a server it starts itself)."""
        document = box.describe()
        if isinstance(box, Sandbox) and box.binaries.server in self.compiled_defaults:
            compiled = self.compiled_defaults[box.binaries.server]
            document["compiled_defaults"] = {
                "source": defaults.SOURCE,
                "differences": defaults.differences(document["variables"], compiled),
            }
        return document

    def _existing(self, server: Server, purpose: str) -> ExistingServer:
        workdir = unused_dir(self.workdir / self.campaign_id / purpose)
        workdir.mkdir(parents=True)
        return ExistingServer.from_campaign(server, workdir)

    def _enable_metrics(self, box: Sandbox | ExistingServer) -> None:
        patterns = self.campaign.innodb_metrics
        try:
            with box.connect() as conn:
                monitor.enable_innodb_metrics(conn, patterns)
        except pymysql.err.MySQLError as exc:
            where = f"{self.campaign.path}: [monitor.innodb_metrics]"
            raise UserError(f"{where}: the server refused them: {exc.args[-1]}") from None

    def _datadir_root(self, server: Server) -> Path:
        return (server.datadir_root or self.workdir) / self.campaign_id

    def _store(self, server: Server) -> PristineStore:
        if server.label not in self.stores:
            root = self._datadir_root(server) / f"pristine-{server.label}"
            self.stores[server.label] = PristineStore.at(root)
        return self.stores[server.label]

    def execute(self) -> list[Path]:
        """Run every planned (pass, variant, workload) that has work left; call check() first.
        Pristine copies are removed once everything is complete; after a fault they stay for
        --resume (and with --keep-datadir they always stay)."""
        planned = self.variant_labels()
        for pass_index in self.passes:
            start = (pass_index - 1) % len(planned)
            for server, variant, label in planned[start:] + planned[:start]:
                for group in dataset.group_by_dataset(self.pending(label, pass_index)):
                    if server.kind == "existing":
                        self._run_group_existing(server, variant, label, group, pass_index)
                    else:
                        self._run_group(server, label, group, pass_index)
        if not self.incomplete and not self.keep_datadir:
            for store in self.stores.values():
                store.remove()
        return self.written

    def _purpose(self, label: str, pass_index: int) -> str:
        return label if len(self.passes) == 1 else f"{label}/pass{pass_index}"

    def _sandbox(
        self,
        server: Server,
        label: str,
        purpose: str,
        seed: Path | None = None,
        datadir_at: Path | None = None,
    ) -> Sandbox:
        workdir = unused_dir(self.workdir / self.campaign_id / purpose)
        if datadir_at is None and server.datadir_root is not None:
            datadir_at = unused_dir(self._datadir_root(server) / purpose) / "datadir"
        return Sandbox(
            self.binaries[server.label],
            workdir,
            self.tuned[label],
            self.keep_datadir,
            cpus=server.cpus,
            datadir_at=datadir_at,
            seed=seed,
        )

    def _calls(self, box: Sandbox | ExistingServer, log_path: Path) -> SysbenchCalls:
        client_cpus = self.campaign.client_cpus
        return SysbenchCalls(self.sysbench, client_cpus, log_path, box.sysbench_target())

    def _run_group(
        self, server: Server, label: str, group: list[Workload], pass_index: int
    ) -> None:
        """One variant's workloads that share a dataset, on one server start."""
        if group[0].ibench is not None:  # no load: its l.i0 step creates the data
            return ibench_run.run_sandbox_group(self, server, label, group, pass_index)
        pristine = self._pristine(server, label, group, pass_index)
        if pristine is None:
            return  # the load failed; its runs are written as failed
        purpose = self._purpose(label, pass_index)
        with self._sandbox(server, label, purpose, pristine.datadir) as box:
            self._enable_metrics(box)
            data = StartingData(
                pristine.origin(box.restore_seconds or 0.0),
                pristine.rows,
                pristine.data_bytes,
                pristine.load_commands,
                pristine.load_check,
            )
            self._run_workloads(box, label, group, pass_index, data)

    def _run_group_existing(
        self, server: Server, variant: Variant, label: str, group: list[Workload], pass_index: int
    ) -> None:
        """On a server the harness did not start: apply the variant, load the data (no datadir
        to copy), run the group, drop the tables, put the variant's globals back."""
        box = self._existing(server, self._purpose(label, pass_index))
        with box, box.apply_variant(label, variant.options):
            self._enable_metrics(box)
            if group[0].ibench is not None:
                return ibench_run.run_existing_group(self, box, label, group, pass_index)
            calls = self._calls(box, box.workdir / "load.log")
            loaded = self._load(box, label, group, pass_index, calls)
            if loaded is None:
                return
            origin = {"method": "prepared", "load_seconds": round(loaded.seconds, 2)}
            commands = [*box.reproduce_commands(), create_schema_command(box), *calls.commands]
            data = StartingData(origin, loaded.rows, loaded.data_bytes, commands, loaded.check)
            self._run_workloads(box, label, group, pass_index, data)
            if box.alive():
                cleanup = dataset.cleanup_argv(self.sysbench, group[0], calls.target)
                calls("drop the tables", cleanup)

    def _run_workloads(
        self,
        box: Sandbox | ExistingServer,
        label: str,
        group: list[Workload],
        pass_index: int,
        data: StartingData,
    ) -> None:
        server_doc = self.describe_server(box)
        host_doc = hostinfo.collect_host(box.datadir)
        for workload in group:
            run = WorkloadRun(self, box, label, workload, pass_index)
            run.document.update(server=server_doc, host=host_doc)
            run.use_data(data)
            server_died = run.execute()
            self.publish(run.document)
            if server_died:
                return

    def _load(
        self,
        box: Sandbox | ExistingServer,
        label: str,
        group: list[Workload],
        pass_index: int,
        calls: SysbenchCalls,
    ) -> dataset.Loaded | None:
        """Load the group's data; a failed load is written as failed runs of the group."""
        try:
            return dataset.load(box, group[0], calls, self.progress.on_note)
        except (ServerGoneError, sysbench.SysbenchFailed, pymysql.err.MySQLError) as exc:
            reason = f"loading the data failed: {exc}"
            if not box.alive(grace=FAILURE_GRACE_S):
                reason = f"the server went away while loading: {box.exit_summary()}"
        except UserError as exc:  # a short load: the numbers would mean nothing
            reason = str(exc)
        self._record_failed(box, label, group, pass_index, reason)
        return None

    def _pristine(
        self, server: Server, label: str, group: list[Workload], pass_index: int
    ) -> PristineCopy | None:
        """The loaded datadir this variant's group starts from, loading it when no earlier
        variant with the same data options did."""
        product = self.binaries[server.label].product
        data_option_names = products.init_time_options(product) | products.data_shaping_options(
            product
        )
        data_options = {
            name: value
            for name, value in mycnf.server_options(self.tuned[label]).items()
            if name in data_option_names
        }
        key = pristine_key(server.label, data_options, dataset.dataset_of(group[0]))
        store = self._store(server)
        if (copy := store.get(key)) is not None:
            return copy
        loading = store.slot(key).with_suffix(".loading")
        purpose = f"load-{store.slot(key).name}"
        with self._sandbox(server, label, purpose, datadir_at=loading) as box:
            calls = self._calls(box, box.workdir / "load.log")
            loaded = self._load(box, label, group, pass_index, calls)
            if loaded is None:
                return None
            quiesce_for_copy(box)
            box.keep_datadir = True  # the stop below leaves the loaded datadir for the store
        commands = [
            *box.reproduce_commands(),
            create_schema_command(box),
            *(
                {
                    **call,
                    "purpose": f"{call['purpose']} (the harness loaded once, under variant"
                    f" {label}, and started each variant on a copy of that datadir)",
                }
                for call in calls.commands
                if call["purpose"] != dataset.DROP_EARLIER_LOAD
            ),
        ]
        return store.keep(
            key,
            loading,
            loaded_by=label,
            load_seconds=loaded.seconds,
            rows=loaded.rows,
            data_bytes=loaded.data_bytes,
            load_commands=commands,
            load_check=loaded.check,
        )

    def _record_failed(
        self,
        box: Sandbox | ExistingServer,
        label: str,
        group: list[Workload],
        pass_index: int,
        reason: str,
    ) -> None:
        server_doc = self.describe_server(box) if box.alive() else None
        host_doc = hostinfo.collect_host(box.datadir)
        for workload in group:
            run = WorkloadRun(self, box, label, workload, pass_index)
            run.document.update(host=host_doc)
            if server_doc is not None:
                run.document["server"] = server_doc
            run.mark(reason)
            self.publish(run.document)


def rescued(document: dict, runs_dir: Path, cause: str) -> str:
    """Save a run that could not be published to the temp directory; returns the message."""
    rescue = Path(tempfile.gettempdir()) / f"{document['id']}.json"
    try:
        rescue.write_text(json.dumps(document, indent=1) + "\n")
    except OSError:
        return f"{cause}; it could not be saved elsewhere either"
    return f"{cause}; saved to {rescue}, move it into {runs_dir} later"


def quiesce_for_copy(box: Sandbox) -> None:
    """Make the datadir a clean starting point: no binary log of the load, and a slow
    shutdown so purge and change-buffer merges are done before anyone copies it."""
    with box.connect() as conn, conn.cursor() as cursor:
        cursor.execute("SELECT @@log_bin")
        if cursor.fetchone()[0]:
            cursor.execute(products.binlog_reset_statement(box.release))
        cursor.execute("SET GLOBAL innodb_fast_shutdown = 0")


def create_schema_command(box: Sandbox | ExistingServer) -> dict[str, str]:
    sql = f"CREATE DATABASE IF NOT EXISTS {sysbench.DATABASE}"
    return {"purpose": "create the schema", "command": box.client_command(sql)}


@dataclass
class WorkloadRun:
    owner: CampaignRun
    server: Sandbox | ExistingServer
    variant: str
    workload: Workload
    pass_index: int
    document: dict = field(init=False)

    def __post_init__(self) -> None:
        campaign = self.owner.campaign
        self.calls = self.owner._calls(self.server, self.log_path)
        self.document = {
            "schema_version": contract.SCHEMA_VERSION,
            "id": self.owner.run_id(self.variant, self.workload.label, self.pass_index),
            "campaign": {
                "id": self.owner.campaign_id,
                "name": campaign.name,
                "title": campaign.title,
                "description": campaign.description,
                "file": relative_to_project(campaign.path),
                "variant_order": [label for _, _, label in self.owner.variant_labels()],
            },
            "variant": self.variant,
            "status": "failed",
            "started_at": contract.utc_timestamp(),
            "ended_at": contract.utc_timestamp(),
            "harness": harness_identity(),
            "workload": {
                "tool": "sysbench",
                "tool_version": self.owner.tool_version,
                "name": self.workload.label,
                "script": self.workload.test,
                "options": _recorded_options(self.workload),
                "client_cpu_affinity": list(campaign.client_cpus) or None,
                "data_bytes": None,
                "rows_after_prepare": None,
            },
            "steps": [],
            "reproduce": {"harness_command": self.owner.harness_command, "commands": []},
        }
        if self.workload.sweep.trim_seconds is not None:
            self.document["workload"]["trim_seconds"] = self.workload.sweep.trim_seconds
        if campaign.repeats > 1:
            self.document["repeat"] = {"index": self.pass_index, "of": campaign.repeats}
        if self.workload.tpcc is not None:
            self.document["workload"]["tpcc"] = self.workload.tpcc.describe()
        if (test := self.workload.suite) is not None:
            self.document["workload"]["suite"] = {
                "name": test.suite,
                "test": test.test,
                "group": test.group,
                "position": suites.position(test),
            }

    def use_data(self, data: StartingData) -> None:
        """Record where the data came from and how a reader builds the same."""
        workload = self.document["workload"]
        workload.update(
            data_origin=data.origin, rows_after_prepare=data.rows, data_bytes=data.data_bytes
        )
        if data.load_check is not None:
            workload["tpcc"]["check_after_load"] = data.load_check
        self.document["reproduce"]["commands"] += [
            *data.commands,
            *(
                {
                    "purpose": "enable a sampled InnoDB metric",
                    "command": self.server.client_command(
                        f"SET GLOBAL innodb_monitor_enable = '{pattern}'"
                    ),
                }
                for pattern in self.owner.campaign.innodb_metrics
            ),
        ]

    @property
    def log_path(self) -> Path:
        """The run's log: every sysbench command and its full output, next to my.cnf and the
        server's error log in the sandbox work directory."""
        return self.server.workdir / f"{self.workload.label}.log"

    def execute(self) -> bool:
        """Run the sweep; returns True when the server died."""
        document = self.document
        try:
            if self.workload.ibench is not None:
                ibench_run.measure(self)
            else:
                self._sweep()
            if self.workload.suite is not None and self.workload.suite.post_write:
                self._post_write()
            document["status"] = "complete"
            if self.workload.tpcc is not None:
                self._check_consistency()
        except (
            ServerGoneError,
            WrongPlan,
            sysbench.SysbenchFailed,
            pymysql.err.MySQLError,
            IbenchError,
        ) as exc:
            if not self.server.alive(grace=FAILURE_GRACE_S):
                self.mark(f"server exited during the run: {self.server.exit_summary()}")
                return True
            self.mark(str(exc))
        except KeyboardInterrupt:
            self.mark("interrupted by Ctrl-C")
            document["ended_at"] = contract.utc_timestamp()
            self.owner.publish(document)
            raise
        finally:
            document["ended_at"] = contract.utc_timestamp()
            document["reproduce"]["commands"] += self.calls.commands
            self.calls.commands.clear()
        return False

    def mark(self, reason: str) -> None:
        self.document["status"] = "partial" if self.document["steps"] else "failed"
        self.document["status_reason"] = reason
        self.owner.progress.on_note(f"{self.document['id']}: {reason}")

    def _check_plans(self, target: sysbench.Target) -> None:
        """A covered/not-covered, PK/secondary test means nothing on another plan."""
        argv = sysbench.command(self.owner.sysbench, self.workload, target, "explain", {})
        output = self.calls("check the query plan (EXPLAIN)", argv)
        problems = project_lua.plan_problems(self.workload.test, output)
        if problems:
            raise WrongPlan(f"EXPLAIN: {problems[0]}")

    def _check_consistency(self) -> None:
        """A failed TPC-C condition means the run's numbers came from a broken database: the
        run keeps its steps but is marked, with the conditions named."""
        options = self.workload.tpcc
        argv = tpcc_commands.check_argv(
            self.owner.sysbench, self.server.sysbench_target(), options
        )
        output = self.calls("check consistency after the run", argv)
        check = tpcc_output.parse_check(output, tables=options.tables)
        self.document["workload"]["tpcc"]["check_after_run"] = check
        if not check["passed"]:
            self.mark(f"tpcc check after the run failed: {tpcc_output.failed_summary(check)}")

    def _run_argv(self, threads: int, seconds: int) -> list[str]:
        target = self.server.sysbench_target()
        if self.workload.tpcc is not None:
            return tpcc_commands.run_argv(
                self.owner.sysbench, target, self.workload.tpcc, threads, seconds
            )
        return sysbench.run_argv(self.owner.sysbench, self.workload, target, threads, seconds)

    def _post_write(self) -> None:
        self.owner.progress.on_note(f"{self.variant} / {self.workload.label}: post-write")
        self.calls.commands += postwrite.post_write(  # after the sweep's, as they ran
            self.server.connect,
            products.binlog_reset_statement(self.server.release),
            self.workload.tables,
            self.workload.tables * self.workload.table_size,
            self.server.client_command,
        )

    def _sweep(self) -> None:
        sweep, workload = self.workload.sweep, self.workload
        if project_lua.is_project_test(workload.test):
            self._check_plans(self.server.sysbench_target())
        if sweep.warmup_seconds:
            argv = self._run_argv(sweep.threads[0], sweep.warmup_seconds)
            self.calls("warm up (not measured)", argv)
        for index, threads in enumerate(sweep.threads):
            if index and sweep.sleep_seconds:
                time.sleep(sweep.sleep_seconds)
            self.server.check_alive()
            where = f"{self.variant} / {workload.label} / {threads} thr"
            if len(self.owner.passes) > 1:
                where = f"pass {self.pass_index} / {where}"
            self.owner.progress.on_step(where, sweep.step_seconds)
            argv = self._run_argv(threads, sweep.step_seconds)
            purpose = f"measure at {threads} thread{'s' if threads > 1 else ''}"
            step = self._measure(purpose, argv, threads)
            self.document["steps"].append(step)
            self.owner.progress.on_step_done(
                f"{where}: {step['tps']:.0f} tps,"
                f" p95 {step['latency_ms']['p95']:.2f} ms, {step['errors']} errors"
            )

    def _measure(self, purpose: str, argv: list[str], threads: int) -> dict:
        started_at = contract.utc_timestamp()
        with measured_step(self.server, self.owner.campaign.innodb_metrics) as measured:
            output = self.calls(purpose, argv)
            report = parse_run(output, threads)
        return {
            "threads": threads,
            "duration_s": report.total_time_s,
            "started_at": started_at,
            "tps": report.tps,
            **self._rows_per_s(report.events, report.total_time_s),
            **self._tpcc_stats(output, report),
            "qps": report.qps(),
            "latency_ms": report.latency_ms,
            "events": report.events,
            "errors": report.errors,
            "reconnects": report.reconnects,
            "series": report.series,
            **measured.fields,
            "per_op": measured.per_op(report.events, "transaction"),
        }

    def _rows_per_s(self, events: int, seconds: float) -> dict[str, float]:
        """A full scan's headline metric: each event reads one whole table."""
        if self.workload.test != "scan" or not seconds:
            return {}
        return {"rows_per_s": round(events * self.workload.table_size / seconds, 1)}

    def _tpcc_stats(self, output: str, report: RunReport) -> dict[str, dict]:
        """Per-type statistics beside sysbench's totals, and where the two disagree."""
        if self.workload.tpcc is None:
            return {}
        stats = tpcc_output.parse_stats(output, report.total_time_s, report.threads)
        stats["totals_problems"] = tpcc_output.totals_problems(stats, report.events, report.errors)
        for problem in stats["totals_problems"]:
            self.owner.progress.on_note(f"{self.document['id']}: {problem}")
        return {"tpcc": stats}


def _recorded_options(workload: Workload) -> dict[str, str]:
    """Every option the tool was given, as the run document records them."""
    if workload.tpcc is not None:
        return {**sysbench.ALWAYS, **workload.tpcc.sysbench_options()}
    return sysbench.workload_options(workload)
