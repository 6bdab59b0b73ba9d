"""Rebuild a one-run campaign from a run document: the measured my.cnf without the placement
block the harness adds to every start (harness/servers/mycnf.py), the same workload with its
options and data size, and the same sweep.

A run document records its steps, not its campaign's [sweep] table, so the sweep is read back
from what the run did: the thread levels from its steps, the step length from their measured
durations (sysbench runs --time seconds, give or take a few milliseconds), the warm-up from
its recorded warm-up command, the pause between thread levels from its recorded `sleep N`
(a run recorded before the pause was a command gets none for a plain test, its suite's own for
a suite test). A run the document cannot say enough about is refused with the field that is
missing.

The my.cnf of a document from elsewhere is confined (harness/servers/confined_options.py):
refused when it loads code or runs SQL, its file names cut to base names, which the sandbox
places in its own folder; the campaign's [reproduces] table lists what was rewritten."""

from __future__ import annotations

import dataclasses
import os
import re
import reprlib
import statistics
from dataclasses import dataclass

import tomli_w

import contract
from contract.fields import DocumentPath, MissingField, required_value
from contract.sweep_pause import PAUSE_PURPOSE
from harness.errors import UserError
from harness.model.ibench_params import IbenchParams
from harness.servers import confined_options
from harness.servers.mycnf import without_placement
from harness.workloads.sysbench.commands import ALWAYS

NAME_PREFIX = "repro-"
LABEL_MAX = 40  # campaign.schema.json's label length
WARMUP_PURPOSE = "warm up"  # how a sysbench run's recorded warm-up command starts its purpose
_TIME_OPTION = re.compile(r"--time=(?P<seconds>[0-9]{1,9})\b")
_SLEEP = re.compile(r"sleep (?P<seconds>[0-9]{1,9}(?:\.[0-9]{1,9})?)")
_FLOAT = re.compile(r"[0-9]{1,20}(?:\.[0-9]{1,20})?(?:e-?[0-9]{1,2})?")
SYSBENCH_DATA_OPTIONS = ("tables", "table-size")  # [workloads.<name>] keys, not options


@dataclass(frozen=True)
class Rebuilt:
    text: str  # the campaign file
    notes: list[str]  # what was derived or could not be carried over


def required(document: contract.RunDocument, path: DocumentPath) -> object:
    """The document's value at path (contract.fields.required_value), refused by name when it is
    missing or empty: the document is not schema-checked (original.py)."""
    try:
        return required_value(document, path)
    except MissingField as missing:
        raise UserError(
            f"{missing.path} is missing: the run cannot be rebuilt without it"
        ) from None


def _label(text: str) -> str:
    return re.sub(r"[^a-z0-9_-]+", "-", text.lower()).strip("-_")[:LABEL_MAX] or "run"


def refuse_unreproducible(document: contract.RunDocument) -> None:
    server = document.get("server", {})
    if server.get("kind") == "existing" or server.get("sandbox") is False:
        raise UserError(
            "server.kind is existing: the run was measured on a server mybench did not start,"
            " whose datadir and my.cnf it cannot re-provision"
        )
    if document.get("status") != "complete":
        raise UserError(
            f"status is {document.get('status')!r}: only a complete run's sweep can be rebuilt"
        )


def _sweep(document: contract.RunDocument, notes: list[str]) -> dict[str, object]:
    steps = required(document, "steps")
    assert isinstance(steps, list)
    durations = [step.get("duration_s") for step in steps]
    if any(duration is None for duration in durations):
        raise UserError("steps.duration_s is missing: the step length cannot be rebuilt")
    sweep: dict[str, object] = {
        "threads": [step["threads"] for step in steps],
        "step_seconds": max(1, round(statistics.median(durations))),
    }
    commands = document.get("reproduce", {}).get("commands", [])
    warmups = [c for c in commands if c.get("purpose", "").startswith(WARMUP_PURPOSE)]
    if warmups and (match := _TIME_OPTION.search(warmups[0].get("command", ""))):
        sweep["warmup_seconds"] = int(match["seconds"])
    pauses = [c for c in commands if c.get("purpose", "").endswith(PAUSE_PURPOSE)]
    if pauses and (match := _SLEEP.fullmatch(pauses[0].get("command", ""))):
        sweep["sleep_seconds"] = float(match["seconds"])
    if "trim_seconds" in document["workload"]:
        sweep["trim_seconds"] = document["workload"]["trim_seconds"]
    per_step = [step["settle"] for step in steps if "settle" in step]
    # the same wait for write debt; a run recorded before the harness settled before every
    # step waited before its first one only
    if (settled := next(iter(per_step), document.get("settle"))) is not None:
        sweep["settle"] = settled["rule"]
        sweep["settle_timeout_seconds"] = settled["timeout_s"]
        waited = "before each step" if per_step else "before the first step only"
        notes.append(
            f"write debt settles before each step (at most {settled['timeout_s']} s);"
            f" the run waited {waited}"
        )
    notes.append(
        f"sweep read back from the run: threads {sweep['threads']},"
        f" {sweep['step_seconds']} s steps, {sweep.get('warmup_seconds', 0)} s warm-up,"
        f" {sweep.get('sleep_seconds', 0):g} s pause between thread levels"
    )
    return sweep


def _sysbench_workload(workload: contract.Workload) -> dict[str, object]:
    options = dict(workload["options"])
    for name in ALWAYS:  # the harness passes these itself
        options.pop(name, None)
    tables = options.pop("tables", None)
    if tables is None:
        raise UserError("workload.options.tables is missing: the data size cannot be rebuilt")
    if workload["script"] == "tpcc":  # tables counts table sets; the Lua sizes the rest
        return {"test": "tpcc", "tables": _count("tables", tables), "options": options}
    table_size = options.pop("table-size", None)
    if table_size is None:
        raise UserError("workload.options.table-size is missing: the data size cannot be rebuilt")
    spec: dict[str, object] = {
        "tables": _count("tables", tables),
        "table_size": _count("table-size", table_size),
    }
    if (suite := workload.get("suite")) is not None:
        spec.update(preset=suite["name"], tests=[workload["name"]])
    else:
        spec["test"] = workload["script"]
    return {**spec, "options": options}


def _count(name: str, text: str) -> int:
    """A recorded option that is a count, in ASCII digits (contract/_numbers.py): anything else
    in a document from elsewhere is refused, not read as some other number."""
    count = contract.whole_number(str(text))
    if count is None:
        why = "not a whole number in ASCII digits"
        raise UserError(f"workload.options.{name} {reprlib.repr(text)}: {why}")
    return count


def _ibench_value(name: str, kind: str, text: str) -> object:
    if "bool" in kind:
        return text == "True"
    if "int" in kind:
        return _count(name, text)
    if "float" in kind:  # recorded as str(float): 1800.0, 0.5, 1e-05
        if not _FLOAT.fullmatch(text):
            raise UserError(f"workload.options.{name} {reprlib.repr(text)}: not a decimal number")
        whole = contract.whole_number(text)
        return float(text) if whole is None else whole
    return text


def _ibench_workload(workload: contract.Workload) -> dict[str, object]:
    """IbenchParams recorded as text (str(value)), back to their TOML types; the seed too, so
    the same rows are drawn."""
    recorded = dict(workload["options"])
    steps = recorded.pop("steps", None)
    if steps is None:
        raise UserError(
            "workload.options.steps is missing: the Insert Benchmark steps are unknown"
        )
    kinds = {field.name: str(field.type) for field in dataclasses.fields(IbenchParams)}
    unknown = sorted(set(recorded) - set(kinds))
    if unknown:
        raise UserError(f"workload.options.{unknown[0]}: not an Insert Benchmark option here")
    options = {name: _ibench_value(name, kinds[name], text) for name, text in recorded.items()}
    return {"test": "ibench", "steps": steps.split(","), "options": options}


def _pinned(cpus: object, what: str, notes: list[str]) -> dict[str, object]:
    """The run's CPU pinning, when every CPU it used exists here."""
    if not cpus:
        return {}
    assert isinstance(cpus, list)
    allowed = os.sched_getaffinity(0)
    if set(cpus) <= allowed:
        return {"cpus": cpus}
    notes.append(f"{what} not pinned: CPUs {cpus} are not all available here {sorted(allowed)}")
    return {}


def _server_pin(document: contract.RunDocument) -> list[int] | None:
    """server.cpu_affinity is read back after every start: a pin only when narrower than the
    CPUs the host let the harness use."""
    cpus = document["server"].get("cpu_affinity")
    host = document.get("host", {})
    everything = host.get("cpu_affinity") or list(range(host.get("cpu_threads", 0)))
    return cpus if cpus and set(cpus) < set(everything) else None


def _without_redacted(mycnf: str, notes: list[str]) -> str:
    """The my.cnf without the credentials the harness recorded redacted: the reproduction would
    otherwise set them to the literal placeholder. None changes what is measured."""
    kept = []
    for line in mycnf.splitlines():
        if contract.REDACTED in line:
            name = line.split("=", 1)[0].strip()
            notes.append(
                f"server.my_cnf: {name} was recorded redacted and is left out; add it to the"
                " campaign file by hand if this server needs it"
            )
        else:
            kept.append(line)
    return "\n".join(kept) + "\n"


def _confined(measured: str, notes: list[str]) -> tuple[str, dict[str, object]]:
    """A stranger's my.cnf, confined, and what the [reproduces] table says of it."""
    text, rewrites = confined_options.confine(measured, "server.my_cnf")
    for rewrite in rewrites:
        notes.append(
            f"server.my_cnf: {rewrite.option} = {rewrite.value} names a file outside the"
            f" sandbox; the reproduction uses {rewrite.placed} in its own files/ folder"
        )
    rewritten = [dataclasses.asdict(rewrite) for rewrite in rewrites]
    return text, {"confined": True, **({"rewritten": rewritten} if rewritten else {})}


def rebuild_campaign(
    document: contract.RunDocument,
    source: str,
    basedir: str,
    repeats: int = 1,
    confined: bool = False,
) -> Rebuilt:
    """The campaign file that runs the document's run again here, on the server at basedir;
    confined: the document is a stranger's."""
    refuse_unreproducible(document)
    run_id = str(required(document, "id"))
    recorded = str(required(document, "server.my_cnf"))
    measured = without_placement(recorded)
    if measured is None:
        raise UserError(
            "server.my_cnf has no sandbox placement block: not a my.cnf mybench started a"
            " server with (an imported run?)"
        )
    required(document, "workload")
    workload = document["workload"]
    notes: list[str] = []
    measured = _without_redacted(measured, notes)
    reproduces: dict[str, object] = {"run_id": run_id, "source": source}
    if confined:
        measured, confinement = _confined(measured, notes)
        reproduces.update(confinement)
    variant = str(required(document, "variant"))
    server_label, _, variant_label = variant.rpartition(".")  # <server>.<variant> with several
    server = document["server"]
    server_label = _label(server_label or f"{server['product']}-{server['version']}")
    campaign: dict[str, object] = {
        "name": _label(NAME_PREFIX + str(required(document, "campaign.name"))),
        "title": f"Reproduction of {run_id}",
        "description": (
            f"Rebuilt by mybench reproduce from run {run_id} ({source}): its measured my.cnf,"
            " workload, data size and sweep, on this machine."
        ),
        "reproduces": reproduces,
        "servers": {
            server_label: {
                "kind": "sandbox",
                "basedir": basedir,
                **_pinned(_server_pin(document), "server", notes),
            }
        },
        "mycnf": {"base": measured},
        "variants": {_label(variant_label): {"description": f"the my.cnf run {run_id} measured"}},
    }
    if required(document, "workload.tool") == "ibench":
        spec = _ibench_workload(workload)
        campaign["sweep"] = {"repeats": repeats}
    else:
        spec = _sysbench_workload(workload)
        campaign["sweep"] = {**_sweep(document, notes), "repeats": repeats}
        campaign["client"] = _pinned(workload.get("client_cpu_affinity"), "sysbench", notes)
    if not campaign.get("client"):
        campaign.pop("client", None)
    campaign["workloads"] = {_label(str(workload["name"])): spec}
    return Rebuilt(tomli_w.dumps(campaign, multiline_strings=True), notes)
