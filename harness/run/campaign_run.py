"""Run a campaign: passes x servers x my.cnf variants x workloads x thread sweep, one run
document each.

Each dataset is loaded once per server and kept pristine; every variant restarts on a copy of it
(harness/servers/pristine.py), so variants start from identical data and a pass costs no
reload. Passes are interleaved (every variant once, then again) so drift of the machine hits all variants alike,
and each pass starts one variant further on (A B C, B C A, C A B) so a variant's place in the
pass (first after the load, or after the heaviest writer) is not always the same.
Faults lose nothing already measured and never cost the rest silently (run/cells.py keeps
what became of every planned cell):
- a run whose server dies or that is interrupted is written with its completed steps and status
  "partial"; the workloads after it on that server start are named as not run;
- a server that does not start costs only that start's cells, named with its error-log line:
  the campaign moves on to the next start;
- a run that cannot be written (a full disk) stops the campaign, since every later run would
  be lost too; Ctrl-C stops what was started and re-raises. Either way the cells left are named.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from contract import host_variant_prefix, replay_variables
from harness.errors import ServerGoneError, ServerStartError, UserError
from harness.measure import counters, host, storage, waits
from harness.measure.instructions import valgrind_binary
from harness.model.campaign import Campaign, Server, Variant, Workload
from harness.run import instruction_pass
from harness.run.cells import Cell, CellLedger
from harness.run.document import (
    CampaignFacts,
    StartingData,
    campaign_id,
    commands_in_variables,
    fleet_campaign_id,
    run_id,
)
from harness.run.provenance import refuse_dirty, same_code, store_diff, take_snapshot
from harness.run.publish import RunNotWritten, publish
from harness.run.workload_run import FAILURE_GRACE_S, Progress, RunSettings, WorkloadRun
from harness.servers import compiled_defaults, confined_options, mycnf, unprivileged
from harness.servers.compiled_defaults import BuildDefaults
from harness.servers.existing.server import ExistingServer
from harness.servers.pristine import PristineCopy, PristineStore, pristine_key
from harness.servers.products import option_mapping
from harness.servers.products.data_options import data_shaping_options, init_time_options
from harness.servers.products.differing_defaults import default_differences
from harness.servers.products.statements import binlog_reset_statement
from harness.servers.protocol import Server as RunningServer
from harness.servers.sandbox import Binaries, Sandbox, option_notes, preflight
from harness.servers.sysbench_target import DATABASE
from harness.workloads.drivers import dataset_of, driver_for, group_by_dataset
from harness.workloads.protocol import DataLoader
from harness.workloads.sysbench.commands import (
    SUPPORTED_VERSION,
    SysbenchFailed,
    sysbench_binary,
    sysbench_version,
)
from harness.workloads.sysbench.dataset import DROP_EARLIER_LOAD, Loaded, SysbenchCalls

WAITS_RUN_SUFFIX = ".waits"  # <campaign id>.<variant>.<workload>.waits: a cell's waits pass


def unused_dir(path: Path) -> Path:
    """path, or path-2, path-3 ... when an earlier attempt (kept for its error log) is there."""
    candidate, attempt = path, 1
    while candidate.exists():
        attempt += 1
        candidate = path.with_name(f"{path.name}-{attempt}")
    return candidate


@dataclass
class CampaignRun:
    campaign: Campaign
    data_dir: Path
    workdir: Path
    harness_command: str
    keep_datadir: bool = False
    allow_dirty: bool = False  # write into the project's data/ from uncommitted code
    progress: Progress = field(default_factory=Progress)
    campaign_id: str = ""
    written: list[Path] = field(default_factory=list)
    cells: CellLedger = field(default_factory=lambda: CellLedger([], several_passes=False))
    # Set by check():
    sysbench: str = ""
    tool_version: str = ""
    valgrind: str = ""  # set by check() when the campaign counts [instructions]
    harness: contract.Harness | None = None  # the provenance snapshot every run carries
    recorded_harness: contract.Harness | None = None  # --resume: the campaign's first snapshot
    binaries: dict[str, Binaries] = field(default_factory=dict)
    # by binary (servers/compiled_defaults.py)
    compiled_defaults: dict[Path, BuildDefaults] = field(default_factory=dict)
    tuned: dict[str, str] = field(default_factory=dict)  # variant label -> my.cnf, no placement
    # variant label -> what tuned changed for its release (products/option_mapping.py)
    mapped: dict[str, list[contract.MappedOption]] = field(default_factory=dict)
    resume_id: str | None = None  # a campaign id whose complete runs are kept, not re-run
    # A fleet's shared stamp: every host's runs join one campaign, variants named per host.
    fleet_stamp: str | None = None
    completed: set[tuple[str, str, int]] = field(default_factory=set)  # variant, workload, pass
    used_ids: set[str] = field(default_factory=set)
    stores: dict[str, PristineStore] = field(default_factory=dict)  # server label -> copies
    noted: set[str] = field(default_factory=set)  # notes shown once (why runs are unprofiled)
    # fio's figures by (host fingerprint, datadir device), taken at the campaign's start
    storage: dict[tuple[str, str | None], contract.Storage] = field(default_factory=dict)
    # True while the waits pass runs ([profile] waits_pass): its servers start with
    # measure/waits.py's options and its runs are waits runs, outside the cells' ledger.
    in_waits_pass: bool = False
    waits_done: set[tuple[str, str]] = field(default_factory=set)  # --resume: variant, workload

    def variant_labels(self) -> list[tuple[Server, Variant, str]]:
        """Each server variant and its label: <server>.<variant> with several servers, after
        <host>. in a fleet, whose hosts share one campaign (and would share run ids)."""
        several = len(self.campaign.servers) > 1
        host = ""
        if self.fleet_stamp is not None and self.campaign.host_label:
            host = host_variant_prefix(self.campaign.host_label)
        return [
            (
                server,
                variant,
                host + (f"{server.label}.{variant.label}" if several else variant.label),
            )
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
        measured = sum(
            workload.step_count
            for pass_index in self.passes
            for _, _, label in self.variant_labels()
            for workload in self.pending(label, pass_index)
        )
        return measured + sum(w.step_count for w in self.waits_pending())

    def waits_pending(self) -> list[Workload]:
        """The waits pass's runs left ([profile] waits_pass), on the servers the harness starts."""
        if not self.campaign.profile.waits_pass:
            return []
        return [
            workload
            for server, _, label in self.variant_labels()
            if server.kind == "sandbox"
            for workload in self.campaign.workloads
            if (label, workload.label) not in self.waits_done
        ]

    def run_id(self, label: str, workload: str, pass_index: int) -> str:
        """<campaign id>.<variant>.<workload>[.p<pass>]; a re-run after a partial one gets .r2,
        .r3 ... because a run file is never replaced (nor a profile file a run left behind)."""
        base = run_id(self.campaign_id, label, workload, pass_index, self.campaign.repeats)
        if self.in_waits_pass:
            base = f"{run_id(self.campaign_id, label, workload, 1, 1)}{WAITS_RUN_SUFFIX}"
        candidate, attempt = base, 1
        while (
            candidate in self.used_ids
            or (self.data_dir / "runs" / f"{candidate}.json").exists()
            or (self.data_dir / contract.profile_file_name(candidate)).exists()
        ):
            attempt += 1
            candidate = f"{base}.r{attempt}"
        self.used_ids.add(candidate)
        return candidate

    def _plan_resume(self) -> list[str]:
        resumed = self.resume_id or ""
        if not resumed.startswith(f"{self.campaign.name}-"):
            raise UserError(f"--resume {resumed}: not a campaign id of {self.campaign.name!r}")
        runs, problems = contract.validate_dir(self.data_dir)
        if problems:
            raise UserError(f"--resume needs valid results first: {problems[0]}")
        ours = [run for run in runs if run["campaign"]["id"] == resumed]
        if not ours:
            raise UserError(f"--resume {resumed}: no runs of it in {self.data_dir / 'runs'}")
        self.completed = {
            (run["variant"], run["workload"]["name"], run.get("repeat", {}).get("index", 1))
            for run in ours
            if run["status"] == "complete" and run.get("purpose") != "waits"
        }
        self.waits_done = {
            (run["variant"], run["workload"]["name"])
            for run in ours
            if run["status"] == "complete" and run.get("purpose") == "waits"
        }
        self.used_ids = {run["id"] for run in ours}
        with_snapshot = [run["harness"] for run in ours if "snapshot" in run["harness"]]
        self.recorded_harness = with_snapshot[0].copy() if with_snapshot else None
        planned = len(self.variant_labels()) * len(self.campaign.workloads) * len(self.passes)
        return [f"resuming {resumed}: {len(self.completed)} of {planned} runs already complete"]

    def publish(self, document: contract.RunDocument) -> None:
        try:
            path = publish(document, self.data_dir / "runs")
        except RunNotWritten as exc:
            self.cells.not_written(document, str(exc))
            raise
        self.written.append(path)
        if document.get("purpose") != "waits":
            self.cells.written(document)

    def check(self) -> list[str]:
        """Everything that can be refused before a measurement starts: tools, binaries, each
        sandbox variant's my.cnf as parsed by its server binary, each existing server's
        credentials and variant options. Returns notes worth printing."""
        notes = []
        self.sysbench = sysbench_binary()
        self.tool_version = sysbench_version(self.sysbench)
        if self.campaign.instructions is not None:
            self.valgrind = valgrind_binary()
        if self.tool_version != SUPPORTED_VERSION:
            notes.append(
                f"sysbench {self.tool_version} found; its output is parsed as"
                f" {SUPPORTED_VERSION}'s"
            )
        if self.fleet_stamp is not None and not self.campaign.host_label:
            raise UserError(
                f"--fleet {self.fleet_stamp}: the hosts of a fleet are told apart by their"
                " label: give --host-label or the campaign file's [host] label"
            )
        if self.resume_id:
            self.campaign_id = self.resume_id
            notes += self._plan_resume()
        elif self.fleet_stamp is not None:
            self.campaign_id = fleet_campaign_id(self.campaign.name, self.fleet_stamp)
        else:
            self.campaign_id = campaign_id(self.campaign.name, datetime.now(UTC))
        notes += self._snapshot()
        campaign = self.campaign
        sandboxes = [s for s in campaign.servers if s.kind == "sandbox"]
        self.binaries = {s.label: Binaries.find(s.basedir) for s in sandboxes}
        for binaries in self.binaries.values():
            scratch = self.workdir / self.campaign_id
            self.compiled_defaults[binaries.server] = compiled_defaults.compiled_defaults(
                binaries, scratch
            )
        for server, variant, label in self.variant_labels():
            if server.kind == "existing":
                with self._existing(server, f"check-{label}") as box:
                    box.check_variant(label, variant.options)
                continue
            self.tuned[label], self.mapped[label] = option_mapping.map_options(
                self.binaries[server.label].product,
                mycnf.apply_variant(campaign.base_mycnf, variant.label, variant.options),
            )
            for mapped in self.mapped[label]:
                notes.append(
                    f"{label}: {mapped['option']} = {mapped['value']}: {mapped['reason']}"
                )
            if self.confined:  # before --help, which loads what plugin_load names
                confined_options.refuse_code(self.tuned[label], f"variant {label}")
            preflight(self.binaries[server.label], self.tuned[label], label, self.confined)
            notes += option_notes(self.binaries[server.label], self.tuned[label], label)
        if len(sandboxes) < len(campaign.servers) and campaign.base_mycnf.strip():
            notes.append("[mycnf] base is not applied to existing servers, only variant options")
        set_anywhere = {
            name for text in self.tuned.values() for name in mycnf.server_options(text)
        }
        notes += default_differences(
            {label: binaries.product for label, binaries in self.binaries.items()}, set_anywhere
        )
        return notes

    def _snapshot(self) -> list[str]:
        """Take the campaign's provenance snapshot (a resumed campaign keeps the one it started
        with, provided the code is still the same), refuse uncommitted code bound for the
        project's data/, store the diff. Before any server starts."""
        current, diff = take_snapshot(self.campaign.path, self.tool_version)
        if not self.allow_dirty:
            refuse_dirty(current, self.data_dir)
        notes = []
        if self.recorded_harness is not None:
            if differences := same_code(self.recorded_harness, current):
                raise UserError(
                    f"--resume {self.campaign_id}: the code is not the code the campaign"
                    f" started with ({'; '.join(differences)}); start a new campaign"
                )
            self.harness = self.recorded_harness
        else:
            if self.resume_id:
                notes.append(
                    f"resuming {self.campaign_id}: its runs recorded no provenance snapshot;"
                    " the resumed runs record one taken now"
                )
            self.harness = current
        store_diff(self.harness, diff, self.data_dir)
        return notes

    def describe_server(self, box: RunningServer) -> contract.Server:
        """The run document's server, with the variables that differ from the build's compiled
        defaults when the harness could probe them (a server it starts itself)."""
        document = box.describe()
        if isinstance(box, Sandbox) and box.binaries.server in self.compiled_defaults:
            compiled = self.compiled_defaults[box.binaries.server]
            document["compiled_defaults"] = {
                "source": compiled_defaults.SOURCE,
                "differences": compiled_defaults.differences(document["variables"], compiled),
            }
        return document

    def describe_hosts(
        self, box: RunningServer
    ) -> tuple[contract.Host, contract.ServerHost | None]:
        """The run document's host (the client's machine, where the harness runs) and its
        server_host (the machine of an existing server reached over TCP, else None)."""
        client = host.collect_host(box.datadir, self.campaign.host_label)
        key = (str(client["fingerprint"]), client["datadir_device"])
        if key in self.storage:
            client["storage"] = self.storage[key]
        return client, box.describe_host() if isinstance(box, ExistingServer) else None

    def _existing(self, server: Server, purpose: str) -> ExistingServer:
        workdir = unused_dir(self.workdir / self.campaign_id / purpose)
        workdir.mkdir(parents=True)
        return ExistingServer.from_campaign(server, workdir)

    def _enable_metrics(self, box: RunningServer) -> None:
        patterns = self.campaign.innodb_metrics
        try:
            with box.connect() as conn:
                counters.enable_innodb_metrics(conn, patterns)
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

    def _order(self) -> list[tuple[int, Server, Variant, str]]:
        """(pass, server, variant, label) in the order they run."""
        planned = self.variant_labels()
        order = []
        for pass_index in self.passes:
            start = (pass_index - 1) % len(planned)
            order += [(pass_index, *each) for each in planned[start:] + planned[:start]]
        return order

    def execute(self) -> list[Path]:
        """Run every planned (pass, variant, workload) that has work left; call check() first.
        Pristine copies are removed once everything is complete; after a fault they stay for
        --resume (and with --keep-datadir they always stay)."""
        order = self._order()
        planned = [
            cell
            for pass_index, _, _, label in order
            for cell in cells_of(label, self.pending(label, pass_index), pass_index)
        ]
        self.cells = CellLedger(planned, several_passes=len(self.passes) > 1)
        self._characterise_storage()
        try:
            for pass_index, server, variant, label in order:
                for group in group_by_dataset(self.pending(label, pass_index)):
                    with self._start_fault(label, group, pass_index):
                        if server.kind == "existing":
                            self._run_group_existing(server, variant, label, group, pass_index)
                        else:
                            self._run_group(server, label, group, pass_index)
            if self.campaign.profile.waits_pass:
                self._waits_pass()
        except KeyboardInterrupt:
            self.cells.stop("interrupted by Ctrl-C")
            raise
        except RunNotWritten:
            self.cells.stop("the campaign stopped after a run could not be written")
            raise
        except Exception as exc:  # a UserError, or a harness bug its traceback will show
            self.cells.stop(f"the campaign stopped: {exc}")
            raise
        if not self.cells.missing() and not self.keep_datadir:
            for store in self.stores.values():
                store.remove()
        return self.written

    def _waits_pass(self) -> None:
        """[profile] waits_pass: after every measured pass, one run of each (variant, workload)
        on a server started with performance_schema timing its waits, from the same pristine
        copy. Only a server the harness starts can be given those options."""
        self.in_waits_pass = True
        try:
            for server, _, label in self.variant_labels():
                if server.kind == "existing":
                    self.note_once(
                        f"{self.campaign.path}: [profile] waits_pass needs a server the harness"
                        f" starts; server {server.label!r} is an existing one: no waits pass"
                    )
                    continue
                left = [
                    w for w in self.campaign.workloads if (label, w.label) not in self.waits_done
                ]
                for group in group_by_dataset(left):
                    with self._start_fault(label, group, 1):
                        self._run_group(server, label, group, 1)
        finally:
            self.in_waits_pass = False

    def _characterise_storage(self) -> None:
        """fio's figures for the storage under each sandbox's datadir, before any server
        starts: from the cache when this host and device were measured before, else measured
        now (harness/measure/storage.py). A refusal costs the runs only host.storage, said once."""
        roots = {self._datadir_root(s) for s in self.campaign.servers if s.kind == "sandbox"}
        for root in sorted(roots):
            key = storage.host_key(root)
            if key in self.storage:
                continue
            if not storage.is_cached(root):
                self.progress.on_note(f"measuring the storage under {root} with fio (once a host)")
            try:
                self.storage[key], _ = storage.characterise(root)
            except storage.StorageUnmeasured as exc:
                self.progress.on_note(str(exc))

    @contextmanager
    def _start_fault(
        self, label: str, workloads: list[Workload], pass_index: int
    ) -> Iterator[None]:
        """A server that does not start costs only the cells of that start: they are named
        with the line of its error log that says why, and the campaign goes on."""
        try:
            yield
        except ServerStartError as exc:
            cause = "; ".join([str(exc), *exc.log_lines[:1]])
            self.progress.on_note(f"{label}: the server did not start: {cause}")
            self.cells.not_run(
                cells_of(label, workloads, pass_index), f"the server did not start: {cause}"
            )

    def _purpose(self, label: str, pass_index: int) -> str:
        if self.in_waits_pass:
            return f"{label}/waits"
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
            waits.waits_mycnf(self.tuned[label]) if self.in_waits_pass else self.tuned[label],
            self.keep_datadir,
            cpus=server.cpus,
            datadir_at=datadir_at,
            seed=seed,
            confined=self.confined,
            run_as=unprivileged.ACCOUNT if self.campaign.reproduces is not None else None,
            mapped_options=self.mapped.get(label, []),
        )

    @property
    def confined(self) -> bool:
        """A reproduction of a document from elsewhere: its my.cnf is a stranger's."""
        return bool((self.campaign.reproduces or {}).get("confined"))

    def _settings(self) -> RunSettings:
        assert self.harness is not None, "check() takes the provenance snapshot first"
        facts = CampaignFacts(
            self.campaign,
            self.campaign_id,
            [label for _, _, label in self.variant_labels()],
            self.harness_command,
            self.harness,
        )
        return RunSettings(
            facts,
            self.sysbench,
            self.tool_version,
            self.campaign.client_cpus,
            self.campaign.innodb_metrics,
            len(self.passes) > 1,
            self.progress,
            self.publish,
            self.campaign.profile,
            self.data_dir,
            self.note_once,
        )

    def note_once(self, message: str) -> None:
        if message not in self.noted:
            self.noted.add(message)
            self.progress.on_note(message)

    def _workload_run(
        self, box: RunningServer, label: str, workload: Workload, pass_index: int
    ) -> WorkloadRun:
        run_id = self.run_id(label, workload.label, pass_index)
        return WorkloadRun(
            self._settings(), run_id, box, label, workload, pass_index, self.in_waits_pass
        )

    def _calls(self, box: RunningServer, log_path: Path) -> SysbenchCalls:
        client_cpus = self.campaign.client_cpus
        return SysbenchCalls(self.sysbench, client_cpus, log_path, box.sysbench_target())

    def _run_group(
        self, server: Server, label: str, group: list[Workload], pass_index: int
    ) -> None:
        """One variant's workloads that share a dataset, on one server start."""
        loader = driver_for(group[0]).loader
        if loader is None:
            return self._run_each_fresh(server, label, group, pass_index)
        pristine = self._pristine(server, label, group, pass_index, loader)
        if pristine is None:
            return  # the load failed; its runs are written as failed
        purpose = self._purpose(label, pass_index)
        counts = self._count_instructions(server, label, group, purpose, pristine.datadir)
        with self._sandbox(server, label, purpose, pristine.datadir) as box:
            self._enable_metrics(box)
            data = StartingData(
                pristine.origin(box.restore_seconds or 0.0),
                pristine.rows,
                pristine.data_bytes,
                pristine.load_commands,
                pristine.load_check,
            )
            self._run_workloads(
                box, label, group, pass_index, data, box.reproduce_commands(), counts
            )

    def _count_instructions(
        self, server: Server, label: str, group: list[Workload], purpose: str, seed: Path
    ) -> dict[str, contract.Instructions]:
        """[instructions]: the group's counts, on a callgrind start of its own (the waits pass
        counts nothing: its server is not the measured configuration)."""
        plan = self.campaign.instructions
        if plan is None or self.in_waits_pass:
            return {}
        workloads = instruction_pass.counted_workloads(plan, group)
        if not workloads:
            return {}
        box = self._sandbox(server, label, f"{purpose}/instructions", seed)
        return instruction_pass.count_group(
            box,
            self.valgrind,
            self.sysbench,
            self.campaign.client_cpus,
            plan,
            workloads,
            self.progress.on_note,
        )

    def _run_each_fresh(
        self, server: Server, label: str, group: list[Workload], pass_index: int
    ) -> None:
        """Workloads that create their own data: each on a fresh server of the variant, so
        one whose server died or did not start costs no other."""
        for workload in group:
            purpose = f"{self._purpose(label, pass_index)}/{workload.label}"
            with (
                self._start_fault(label, [workload], pass_index),
                self._sandbox(server, label, purpose) as box,
            ):
                self._enable_metrics(box)
                self._run_one(box, label, workload, pass_index, box.reproduce_commands())

    def _run_one(
        self,
        box: RunningServer,
        label: str,
        workload: Workload,
        pass_index: int,
        server_commands: list[contract.ReproduceCommand],
    ) -> str | None:
        """A workload that creates its own data, as one run document; its run id when the
        server died during it, else None."""
        run = self._workload_run(box, label, workload, pass_index)
        run.describe(self.describe_server(box), *self.describe_hosts(box))
        run.start_from(None, server_commands)
        server_died = run.execute()
        self.publish(run.document)
        return run.run_id if server_died else None

    def _run_group_existing(
        self, server: Server, variant: Variant, label: str, group: list[Workload], pass_index: int
    ) -> None:
        """On a server the harness did not start: apply the variant, load the data (no datadir
        to copy), run the group, drop the tables, put the variant's globals back."""
        box = self._existing(server, self._purpose(label, pass_index))
        with box, box.apply_variant(label, variant.options):
            self._enable_metrics(box)
            calls = self._calls(box, box.workdir / "load.log")
            driver = driver_for(group[0])
            if driver.loader is None:
                for index, workload in enumerate(group):
                    if died_during := self._run_one(box, label, workload, pass_index, []):
                        self._server_died(label, group[index + 1 :], pass_index, died_during)
                        return
                    driver_for(workload).drop_tables(box, calls)
                return
            loaded = self._load(box, label, group, pass_index, calls, driver.loader)
            if loaded is None:
                return
            origin: contract.DataOrigin = {
                "method": "prepared",
                "load_seconds": round(loaded.seconds, 2),
            }
            commands = [*box.reproduce_commands(), create_schema_command(box), *calls.commands]
            data = StartingData(origin, loaded.rows, loaded.data_bytes, commands, loaded.check)
            self._run_workloads(box, label, group, pass_index, data, [])
            if box.alive():
                driver.drop_tables(box, calls)

    def _run_workloads(
        self,
        box: RunningServer,
        label: str,
        group: list[Workload],
        pass_index: int,
        data: StartingData,
        server_commands: list[contract.ReproduceCommand],
        instructions: dict[str, contract.Instructions] | None = None,
    ) -> None:
        """The group's runs on one server start; server_commands: how a reader starts it on a
        copy of the loaded data (none when the data was loaded in place); instructions: each
        workload's [instructions] count, by label."""
        server_doc = self.describe_server(box)
        hosts = self.describe_hosts(box)
        counts = instructions or {}
        for index, workload in enumerate(group):
            run = self._workload_run(box, label, workload, pass_index)
            run.describe(server_doc, *hosts)
            if workload.label in counts:
                run.document["instructions"] = counts[workload.label]
            run.start_from(data, server_commands)
            server_died = run.execute()
            self.publish(run.document)
            if server_died:
                self._server_died(label, group[index + 1 :], pass_index, run.run_id)
                return

    def _server_died(self, label: str, rest: list[Workload], pass_index: int, during: str) -> None:
        """The workloads a dead server's start still had to run."""
        self.cells.not_run(cells_of(label, rest, pass_index), f"the server died during {during}")

    def _load(
        self,
        box: RunningServer,
        label: str,
        group: list[Workload],
        pass_index: int,
        calls: SysbenchCalls,
        loader: DataLoader,
    ) -> Loaded | None:
        """Load the group's data; a failed load is written as failed runs of the group."""
        try:
            return loader.load(box, calls, self.progress.on_note)
        except (ServerGoneError, SysbenchFailed, pymysql.err.MySQLError) as exc:
            reason = f"loading the data failed: {exc}"
            if not box.alive(grace=FAILURE_GRACE_S):
                reason = f"the server went away while loading: {box.exit_summary()}"
        except UserError as exc:  # a short load: the numbers would mean nothing
            reason = str(exc)
        self._record_failed(box, label, group, pass_index, reason)
        return None

    def _pristine(
        self,
        server: Server,
        label: str,
        group: list[Workload],
        pass_index: int,
        loader: DataLoader,
    ) -> PristineCopy | None:
        """The loaded datadir this variant's group starts from, loading it when no earlier
        variant with the same data options did."""
        product = self.binaries[server.label].product
        data_option_names = init_time_options(product) | data_shaping_options(product)
        data_options = {
            name: value
            for name, value in mycnf.server_options(self.tuned[label]).items()
            if name in data_option_names
        }
        key = pristine_key(server.label, data_options, dataset_of(group[0]))
        store = self._store(server)
        if (copy := store.get(key)) is not None:
            return copy
        loading = store.slot(key).with_suffix(".loading")
        purpose = f"load-{store.slot(key).name}"
        with self._sandbox(server, label, purpose, datadir_at=loading) as box:
            calls = self._calls(box, box.workdir / "load.log")
            loaded = self._load(box, label, group, pass_index, calls, loader)
            if loaded is None:
                return None
            quiesced = quiesce_for_copy(box)
            box.keep_datadir = True  # the stop below leaves the loaded datadir for the store
        recorded = [
            *box.reproduce_commands(),
            create_schema_command(box),
            *loaded_once(calls.commands, label),
            *client_commands(box, quiesced),
            *box.stop_commands(),
        ]
        # The copies start from the store's slot, which the loading datadir is renamed to.
        commands = commands_in_variables(recorded, box.replay_variables(replay_variables.PRISTINE))
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
        box: RunningServer,
        label: str,
        group: list[Workload],
        pass_index: int,
        reason: str,
    ) -> None:
        server_doc = self.describe_server(box) if box.alive() else None
        hosts = self.describe_hosts(box)
        for workload in group:
            run = self._workload_run(box, label, workload, pass_index)
            run.describe(server_doc, *hosts)
            run.mark(reason)
            self.publish(run.document)


def quiesce_for_copy(box: Sandbox) -> list[tuple[str, str]]:
    """Make the datadir a clean starting point: no binary log of the load, and a slow
    shutdown so purge and change-buffer merges are done before anyone copies it. Returns the
    (purpose, statement) pairs it ran, for the reader."""
    statements = []
    with box.connect() as conn, conn.cursor() as cursor:
        cursor.execute("SELECT @@log_bin")
        if cursor.fetchone()[0]:
            statements.append(
                ("drop the binary log of the load", binlog_reset_statement(box.release))
            )
        statements.append(
            (
                "ask for a slow shutdown (purge done before the copy)",
                "SET GLOBAL innodb_fast_shutdown = 0",
            )
        )
        for _, sql in statements:
            cursor.execute(sql)
    return statements


def loaded_once(
    calls: list[contract.ReproduceCommand], label: str
) -> list[contract.ReproduceCommand]:
    """The load's commands as a reader replays them, each saying it ran once for all variants
    (the drop of an earlier load left out: a fresh datadir has none)."""
    return [
        {
            **call,
            "purpose": f"{call['purpose']} (the harness loaded once, under variant"
            f" {label}, and started each variant on a copy of that datadir)",
        }
        for call in calls
        if call["purpose"] != DROP_EARLIER_LOAD
    ]


def client_commands(
    box: RunningServer, statements: list[tuple[str, str]]
) -> list[contract.ReproduceCommand]:
    """(purpose, statement) pairs as the server's client runs them."""
    return [
        {"purpose": purpose, "command": box.client_command(sql)} for purpose, sql in statements
    ]


def create_schema_command(box: RunningServer) -> contract.ReproduceCommand:
    sql = f"CREATE DATABASE IF NOT EXISTS {DATABASE}"
    return {"purpose": "create the schema", "command": box.client_command(sql)}


def cells_of(label: str, workloads: list[Workload], pass_index: int) -> list[Cell]:
    return [Cell(label, workload.label, pass_index) for workload in workloads]
