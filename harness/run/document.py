"""The run document, built in one place: every run (measured, failed before it started, any
workload kind) starts here, and the workload's driver contributes its section up front."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import cast

import contract
from contract.replay_variables import in_variables
from harness.errors import UserError
from harness.model import suites
from harness.model.campaign import Campaign, Workload
from harness.run.provenance import relative_to_project
from harness.servers.protocol import Server
from harness.workloads.protocol import WorkloadSection


def campaign_id(name: str, started: datetime) -> str:
    """One execution of a campaign: <campaign name>-<UTC start stamp>."""
    return f"{name}-{started.astimezone(UTC).strftime('%Y%m%d-%H%M%S')}"


STAMP_FORMAT = "%Y%m%d-%H%M%S"


def fleet_campaign_id(name: str, stamp: str) -> str:
    """The campaign id every host of a fleet shares: <campaign name>-<the fleet's stamp>, the
    UTC time the fleet was dispatched as YYYYMMDD-HHMMSS (a campaign id's own stamp)."""
    try:
        started = datetime.strptime(stamp, STAMP_FORMAT).replace(tzinfo=UTC)
    except ValueError:
        raise UserError(f"--fleet {stamp}: not a UTC stamp YYYYMMDD-HHMMSS") from None
    return campaign_id(name, started)


def run_id(campaign: str, variant: str, workload: str, pass_index: int, passes: int) -> str:
    """<campaign id>.<variant>.<workload>[.p<pass>], the pass only when there are several."""
    base = f"{campaign}.{variant}.{workload}"
    return f"{base}.p{pass_index}" if passes > 1 else base


@dataclass(frozen=True)
class CampaignFacts:
    """What every run document of one campaign run says alike."""

    campaign: Campaign
    campaign_id: str
    variant_order: list[str]
    harness_command: str
    harness: contract.Harness  # the provenance snapshot (run/provenance.py), alike in every run


@dataclass(frozen=True)
class StartingData:
    """What a group's runs start from, and how a reader rebuilds it."""

    origin: contract.DataOrigin  # the run document's workload.data_origin
    rows: int
    data_bytes: int
    commands: list[contract.ReproduceCommand]
    load_check: contract.TpccCheck | None = None  # tpcc: the consistency check after the load


def new_document(
    facts: CampaignFacts,
    run_id: str,
    variant: str,
    workload: Workload,
    pass_index: int,
    driver_section: WorkloadSection,
) -> contract.RunDocument:
    """A run that has not started: status "failed" until the run says otherwise."""
    campaign = facts.campaign
    document: contract.RunFields = {
        "schema_version": contract.SCHEMA_VERSION,
        "id": run_id,
        "campaign": {
            "id": facts.campaign_id,
            "name": campaign.name,
            "title": campaign.title,
            "description": campaign.description,
            "file": relative_to_project(campaign.path),
            "variant_order": facts.variant_order,
        },
        "variant": variant,
        "status": "failed",
        "started_at": contract.utc_timestamp(),
        "ended_at": contract.utc_timestamp(),
        "harness": facts.harness,
        "workload": _workload_section(workload, driver_section),
        "steps": [],
        "reproduce": {"harness_command": facts.harness_command, "commands": []},
    }
    if campaign.repeats > 1:
        document["repeat"] = {"index": pass_index, "of": campaign.repeats}
    if campaign.reproduces is not None:
        # the campaign file's [reproduces] table, as campaign.schema.json checked it
        document["reproduces"] = cast(contract.Reproduces, dict(campaign.reproduces))
    # The run describes its host and server next (WorkloadRun.describe), before it is
    # published; one whose server could not be asked has none, and write_run refuses it.
    return cast(contract.RunDocument, document)


def _workload_section(workload: Workload, driver_section: WorkloadSection) -> contract.Workload:
    section: contract.Workload = {
        "tool": driver_section["tool"],
        "tool_version": driver_section["tool_version"],
        "name": workload.label,
        "script": driver_section["script"],
        "options": driver_section["options"],
        "client_cpu_affinity": driver_section["client_cpu_affinity"],
        "data_bytes": None,  # a driver whose steps grow the data updates it as they run
        "rows_after_prepare": None,
    }
    if workload.sweep.trim_seconds is not None:
        section["trim_seconds"] = workload.sweep.trim_seconds
    if "tpcc" in driver_section:  # the kind's own section
        section["tpcc"] = driver_section["tpcc"]
    if (test := workload.suite) is not None:
        section["suite"] = {
            # the campaign model holds them as str, each one of the schema's values
            "name": cast(contract.SuiteName, test.suite),
            "test": test.test,
            "group": cast(contract.SuiteGroup, test.group),
            "position": suites.position(test),
        }
    return section


def record_start(
    document: contract.RunDocument,
    server: Server,
    innodb_metrics: tuple[str, ...],
    data: StartingData | None,
    server_commands: list[contract.ReproduceCommand],
) -> None:
    """Record where the data came from (data: None when the workload creates its own) and how
    a reader builds the same start: the data (loaded, then copied, when server_commands start
    the server on a copy), the server, the sampled metrics enabled."""
    if data is not None:
        workload = document["workload"]
        workload["data_origin"] = data.origin
        workload["rows_after_prepare"] = data.rows
        workload["data_bytes"] = data.data_bytes
        if data.load_check is not None:
            workload["tpcc"]["check_after_load"] = data.load_check
    document["reproduce"]["commands"] += [
        *(data.commands if data is not None else []),
        *server_commands,
        *_enabling(server, innodb_metrics),
    ]


def _enabling(server: Server, innodb_metrics: tuple[str, ...]) -> list[contract.ReproduceCommand]:
    """The statements that enable the sampled InnoDB metrics, as the server's client runs them."""
    return [
        {
            "purpose": "enable a sampled InnoDB metric",
            "command": server.client_command(f"SET GLOBAL innodb_monitor_enable = '{pattern}'"),
        }
        for pattern in innodb_metrics
    ]


def commands_in_variables(
    commands: list[contract.ReproduceCommand], values: dict[str, str]
) -> list[contract.ReproduceCommand]:
    """Recorded commands with the server's paths (values: Server.replay_variables) replaced
    by the shell variables a reader's replay.sh defines."""
    return [
        {**command, "command": in_variables(command["command"], values)} for command in commands
    ]


def mark(document: contract.RunDocument, reason: str) -> None:
    """A run that did not complete: partial when it has steps, else failed, and why (a
    server's or tool's message may quote a credential: the secret rule applies)."""
    document["status"] = "partial" if document["steps"] else "failed"
    document["status_reason"] = contract.redact_text(reason)
