"""Load a campaign TOML file into the campaign model (harness/model/campaign.py); reject typos
and wrong types with one line."""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from contract import PageNameError, page_segment
from harness.errors import UserError
from harness.model.campaign import (
    Campaign,
    InstructionCounts,
    OptionValue,
    Profiling,
    Server,
    Sweep,
    Variant,
    Workload,
)
from harness.model.ibench_params import DEFAULT_STEPS, IbenchParams, IbenchSpec
from harness.model.suites import DEFAULTS, preset_tests
from harness.model.tpcc_options import TpccOptions, is_tpcc
from harness.servers.fetch import SERVERS_DIR, installed
from harness.servers.fetch.catalog import release
from harness.servers.mycnf import option_key

_SCHEMA_PATH = Path(__file__).with_name("campaign.schema.json")
# A table of the campaign file: its keys and value types are what campaign.schema.json allows,
# checked before any is read.
Table = dict[str, Any]

# sysbench's defaults are tiny (1 table x 10,000 rows); these are the project's, chosen so a
# 2-core VM builds the data in seconds while staying larger than a few pages per table.
DEFAULT_TABLES = 8
DEFAULT_TABLE_SIZE = 100_000
# A campaign's `test = "ibench"`: the Insert Benchmark (harness/workloads/ibench).
IBENCH_TEST = "ibench"
# Options the harness always sets itself (harness/workloads/sysbench/commands.py, and where
# sysbench connects: harness/servers/sysbench_target.py); a campaign may not.
RESERVED_SYSBENCH_OPTIONS = {
    "threads", "time", "report-interval", "histogram", "rand-type", "tables", "table-size",
    "db-driver", "mysql-socket", "mysql-host", "mysql-port", "mysql-user", "mysql-password",
    "mysql-db",
}  # fmt: skip


@cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(json.loads(_SCHEMA_PATH.read_text()))


def with_host_label(campaign: Campaign, label: str) -> Campaign:
    """The campaign as run on the machine named label (`mybench run --host-label`), so one
    campaign file serves every host of a fleet; label obeys the file's [host] label rules."""
    rules = _validator().schema["properties"]["host"]["properties"]["label"]
    if problem := jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(rules).iter_errors(label)
    ):
        raise UserError(f"--host-label: {problem.message}")
    return replace(campaign, host_label=label)


def _where(error: jsonschema.ValidationError) -> str:
    parts = [str(p) for p in error.absolute_path]
    return "[" + ".".join(parts) + "]" if parts else "top level"


def _sysbench_value(value: OptionValue) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


def _usable_cpus(path: Path, where: str, cpus: list[int]) -> tuple[int, ...]:
    """CPUs this process may run on; pinning to any other would fail only at start."""
    allowed = os.sched_getaffinity(0)
    missing = sorted(set(cpus) - allowed)
    if missing:
        raise UserError(
            f"{path}: [{where}]: CPU {missing[0]} is not available here {sorted(allowed)}"
        )
    return tuple(sorted(cpus))


def _basedir(path: Path, label: str, spec: Table) -> Path:
    """A sandbox's basedir: a fetched release's, or the one given (relative to the campaign
    file's folder, like base_file), or Debian's packages under /usr."""
    if "release" not in spec:
        given: str = spec.get("basedir", "/usr")
        return (path.parent / given).resolve()
    release(spec["release"])  # a name the catalog knows
    fetched = installed(SERVERS_DIR / spec["release"])
    if fetched is None:
        raise UserError(
            f"{path}: servers.{label}.release: {spec['release']} is not in {SERVERS_DIR}"
            f" (mybench server fetch {spec['release']})"
        )
    return fetched.basedir


def _variant(path: Path, label: str, spec: Table) -> Variant:
    """buffer_pool is the first-class spelling of innodb_buffer_pool_size (in-memory vs
    IO-bound); giving both would leave the reader guessing which one counted."""
    options = dict(spec.get("options", {}))
    if "buffer_pool" in spec:
        if any(option_key(name) == "innodb_buffer_pool_size" for name in options):
            raise UserError(
                f"{path}: [variants.{label}]: buffer_pool and options.innodb_buffer_pool_size"
                " both set; keep one"
            )
        options["innodb_buffer_pool_size"] = spec["buffer_pool"]
    return Variant(label, spec.get("description", ""), options)


def _server(path: Path, label: str, spec: Table) -> Server:
    """A [servers.<label>] table. A relative datadir is read from the campaign file's folder,
    like basedir, and so is a kind = "existing" server's option_file."""
    return Server(
        label,
        spec["kind"],
        _basedir(path, label, spec),
        _usable_cpus(path, f"servers.{label}.cpus", spec.get("cpus", [])),
        (path.parent / spec["datadir"]).resolve() if "datadir" in spec else None,
        host=spec.get("host"),
        port=spec.get("port", Server.port),
        socket=Path(spec["socket"]) if "socket" in spec else None,
        user=spec.get("user"),
        password_env=spec.get("password_env"),
        option_file=(path.parent / spec["option_file"]).resolve()
        if "option_file" in spec
        else None,
        restart_command=spec.get("restart_command"),
    )


def _options(path: Path, label: str, spec: Table) -> dict[str, str]:
    options = {
        name.replace("_", "-"): _sysbench_value(v) for name, v in spec.get("options", {}).items()
    }
    reserved = sorted(set(options) & RESERVED_SYSBENCH_OPTIONS)
    if reserved:
        raise UserError(
            f"{path}: [workloads.{label}.options]: {', '.join(reserved)} is set by the "
            "harness (use tables/table_size/[sweep] instead)"
        )
    return options


def _workloads(path: Path, label: str, spec: Table, sweep: Table) -> list[Workload]:
    """One workload, or a preset's tests in their run order; [sweep] and the workload's own
    keys override the preset's reference values."""
    if spec.get("test") == IBENCH_TEST:
        return [_ibench_workload(path, label, spec)]
    if "steps" in spec:
        raise UserError(f'{path}: [workloads.{label}.steps]: only for test = "{IBENCH_TEST}"')
    options = _options(path, label, spec)
    if "test" in spec:
        if "threads" not in sweep or "step_seconds" not in sweep:
            raise UserError(
                f"{path}: [sweep]: threads and step_seconds are needed for workload {label}"
                " (only presets bring their own)"
            )
        run_sweep = _sweep(sweep, sweep["threads"], sweep["step_seconds"], 0)
        if is_tpcc(spec["test"]):
            return [_tpcc_workload(path, label, spec, options, run_sweep)]
        tables = spec.get("tables", DEFAULT_TABLES)
        table_size = spec.get("table_size", DEFAULT_TABLE_SIZE)
        return [Workload(label, spec["test"], tables, table_size, options, run_sweep)]
    try:
        tests = preset_tests(spec["preset"])
    except UserError as exc:
        raise UserError(f"{path}: [workloads.{label}.preset]: {exc}") from None
    if "tests" in spec:
        known = {test.label: test for test in tests}
        unknown = sorted(set(spec["tests"]) - set(known))
        if unknown:
            raise UserError(
                f"{path}: [workloads.{label}.tests]: {unknown[0]} is not a test of"
                f" {spec['preset']} ({', '.join(known)})"
            )
        tests = [test for test in tests if test.label in spec["tests"]]
    defaults = DEFAULTS[tests[0].suite]
    return [
        Workload(
            label=test.label,
            test=test.script,
            tables=spec.get("tables", defaults.tables),
            table_size=spec.get("table_size", defaults.table_size),
            options={**test.options, **options},
            sweep=_sweep(sweep, list(defaults.threads), test.seconds, defaults.sleep_seconds),
            suite=test,
        )
        for test in tests
    ]


def _tpcc_workload(
    path: Path, label: str, spec: Table, options: dict[str, str], sweep: Sweep
) -> Workload:
    """tables counts independent table sets (datasets run in parallel); scale and the rest are
    the Lua's own options. table_size means nothing here: the population rules size the tables."""
    if "table_size" in spec:
        raise UserError(
            f"{path}: [workloads.{label}.table_size]: not a tpcc option (use options.scale,"
            " warehouses per table set)"
        )
    try:
        tpcc = TpccOptions.from_options({**options, "tables": spec.get("tables", 1)})
    except ValueError as exc:
        raise UserError(f"{path}: [workloads.{label}.options]: {exc}") from None
    return Workload(label, spec["test"], tpcc.tables, 0, options, sweep, tpcc=tpcc)


def _ibench_workload(path: Path, label: str, spec: Table) -> Workload:
    """options are IbenchParams fields, steps the step list; its l.i0 step creates the data,
    so tables, table_size and [sweep] mean nothing here."""
    where = f"{path}: [workloads.{label}"
    for key in ("tables", "table_size"):
        if key in spec:
            raise UserError(
                f"{where}.{key}]: not an ibench key (options.clients, options.rows_l0 ... size it)"
            )
    try:
        params = IbenchParams.from_options(spec.get("options", {}))
    except ValueError as exc:
        raise UserError(f"{where}.options]: {exc}") from None
    try:
        ibench = IbenchSpec(params, tuple(spec.get("steps", DEFAULT_STEPS)))
    except ValueError as exc:
        raise UserError(f"{where}.steps]: {exc}") from None
    return Workload(label, IBENCH_TEST, params.tables, 0, {}, ibench=ibench)


def _sweep(given: Table, threads: list[int], step_seconds: int, sleep_seconds: float) -> Sweep:
    return Sweep(
        threads=list(given.get("threads", threads)),
        step_seconds=given.get("step_seconds", step_seconds),
        sleep_seconds=given.get("sleep_seconds", sleep_seconds),
        warmup_seconds=given.get("warmup_seconds", 0),
        trim_seconds=given.get("trim_seconds"),
        settle=given.get("settle"),
        settle_timeout_s=given.get("settle_timeout_seconds", Sweep.settle_timeout_s),
    )


def load_campaign(path: Path) -> Campaign:
    """Parse and check a campaign file; raises UserError('<file>: <where>: <cause>')."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserError(f"{path}: campaign file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{path}: not valid TOML: {exc}") from None
    errors = sorted(_validator().iter_errors(raw), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise UserError(f"{path}: {_where(first)}: {first.message}")

    mycnf = raw.get("mycnf", {"base": ""})  # optional when every server is an existing one
    if "base_file" in mycnf:
        base_path = path.parent / mycnf["base_file"]
        try:
            base_mycnf = base_path.read_text(encoding="utf-8")
        except OSError as exc:
            raise UserError(f"{path}: [mycnf.base_file]: cannot read {base_path}: {exc}") from None
    else:
        base_mycnf = mycnf["base"]

    sweep = raw.get("sweep", {})
    workloads: list[Workload] = []
    for label, spec in raw["workloads"].items():
        for workload in _workloads(path, label, spec, sweep):
            if any(w.label == workload.label for w in workloads):
                raise UserError(f"{path}: [workloads.{label}]: {workload.label} appears twice")
            try:  # a workload's name is a taxonomy term: it names /workloads/<name>/
                page_segment(workload.label)
            except PageNameError as refused:
                raise UserError(
                    f"{path}: [workloads.{label}]: cannot name a page: {refused}"
                ) from None
            workloads.append(workload)

    return Campaign(
        path=path,
        name=raw["name"],
        title=raw["title"],
        description=raw.get("description", "").strip(),
        servers=[_server(path, label, spec) for label, spec in raw["servers"].items()],
        base_mycnf=base_mycnf,
        variants=[_variant(path, label, spec) for label, spec in raw["variants"].items()],
        workloads=workloads,
        repeats=sweep.get("repeats", 1),
        client_cpus=_usable_cpus(path, "client.cpus", raw.get("client", {}).get("cpus", [])),
        innodb_metrics=tuple(raw.get("monitor", {}).get("innodb_metrics", [])),
        reproduces=raw.get("reproduces"),
        host_label=raw.get("host", {}).get("label"),
        profile=Profiling(**raw.get("profile", {})),
        instructions=_instruction_counts(path, raw, workloads),
    )


def _instruction_counts(
    path: Path, raw: Table, workloads: list[Workload]
) -> InstructionCounts | None:
    if "instructions" not in raw:
        return None
    spec = dict(raw["instructions"])
    named = tuple(spec.pop("workloads", ()))
    sysbench = {w.label for w in workloads if w.tpcc is None and w.ibench is None}
    if unknown := [label for label in named if label not in sysbench]:
        known = ", ".join(sorted(sysbench)) or "none"
        raise UserError(
            f"{path}: [instructions] workloads: {', '.join(unknown)} is no sysbench workload"
            f" of this campaign (known: {known})"
        )
    return InstructionCounts(**spec, workloads=named)
