"""The run document of an imported run, built in one place for every kind of source: identity
and placement as a measured run gets them (harness/run/document.py), the importing tree's
version, and `origin`, which says where the figures came from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, TypedDict, cast

import contract
from harness import __version__
from harness.importing.sources import Source
from harness.run.provenance import TreeState
from harness.servers import mycnf
from harness.servers.serverinfo import ProductName

TIMESTAMP = "%Y-%m-%dT%H:%M:%SZ"


class _Described(TypedDict, total=False):
    description: str  # a campaign's, between its title and its file


@dataclass(frozen=True)
class CampaignSection:
    """What every run of one imported campaign says alike."""

    id: str
    name: str
    title: str
    file: Source  # the sidecar or table that named it, else the first log
    variant_order: list[str]
    description: str | None = None

    def section(self) -> contract.Campaign:
        described: _Described = {"description": self.description} if self.description else {}
        return {
            "id": self.id,
            "name": self.name,
            "title": self.title,
            **described,
            "file": self.file.path.name,
            "variant_order": self.variant_order,
        }


def importing_harness() -> contract.Harness:
    """The harness section: the version and commit of the tree that imported (it measured
    nothing, so there is no snapshot)."""
    return {"version": __version__, "git_commit": TreeState.read().commit}


@dataclass(frozen=True)
class Provenance:
    """The import itself: its kind, the command that ran it and the source's own details."""

    kind: Literal["sysbench-log", "summary-table"]
    command: str
    imported_at: str = field(default_factory=contract.utc_timestamp)
    url: str | None = None
    published: str | None = None
    note: str | None = None
    harness: contract.Harness = field(default_factory=importing_harness)

    def origin(
        self, sources: list[contract.OriginSource], tool_command: str | None
    ) -> contract.Origin:
        origin: contract.Origin = {
            "kind": self.kind,
            "imported_at": self.imported_at,
            "command": contract.redact_text(self.command),
            "sources": sources,
        }
        if self.url:
            origin["url"] = self.url
        if self.published:
            origin["published"] = self.published
        if self.note:
            origin["note"] = self.note
        if tool_command and (redacted := contract.redact_text(tool_command)):
            origin["tool_command"] = redacted
        return origin


def source_entry(source: Source, lines: tuple[int, int] | None = None) -> contract.OriginSource:
    """origin.sources[]: the file's name (never the importer's path: it is published), its
    hash, and the lines read when the file holds more than this run."""
    entry: contract.OriginSource = {"file": source.path.name, "sha256": source.sha256}
    if lines is not None:
        entry["lines"] = list(lines)
    return entry


def workload_section(
    name: str,
    tool_version: str,
    options: dict[str, str],
    script: str | None = None,
    note: str | None = None,
) -> contract.Workload:
    """An imported run's workload: sysbench's, with the script and note its source gives."""
    workload: contract.Workload = {
        "tool": "sysbench",
        "tool_version": tool_version,
        "name": name,
        "script": script or "",
        "note": note or "",
        "options": options,
    }
    # Left out when not given, so the keys that are stay in the order written above.
    if not script:
        del workload["script"]
    if not note:
        del workload["note"]
    return workload


@dataclass(frozen=True)
class ServerFacts:
    product: str
    version: str
    host: str  # the hostname, or the label a table's host column gives
    my_cnf: Source | None = None
    label: str | None = None  # the host's name on the site, when the source names it

    def host_section(self) -> contract.Host:
        """host: a label as given, and as its hostname the label made a hostname ("i5 NUC" ->
        "i5-NUC"), which names the host's page."""
        if self.label is None:
            return {"hostname": self.host}
        hostname = re.sub(r"[^A-Za-z0-9._-]+", "-", self.label).strip("-._") or "host"
        return {"hostname": hostname, "label": self.label}

    def server(self) -> contract.Server:
        # As the source names it: the run schema refuses a product it does not know.
        product = cast(ProductName, self.product)
        server: contract.Server = {"product": product, "version": self.version}
        if self.my_cnf is not None:
            text = contract.redact_text(self.my_cnf.text)
            server["my_cnf"] = text
            server["my_cnf_options"] = contract.redact_options(mycnf.server_options(text))
        return server


def imported_document(
    provenance: Provenance,
    campaign: CampaignSection,
    run_id: str,
    variant: str,
    server: ServerFacts,
    workload: contract.Workload,
    steps: list[contract.Step] | list[contract.SummaryStep],
    span: tuple[datetime, datetime],
    origin: contract.Origin,
    repeat: tuple[int, int] = (1, 1),
) -> contract.RunDocument:
    """A complete imported run; span is (started_at, ended_at), repeat (pass, passes)."""
    document: contract.RunDocument = {
        "schema_version": contract.SCHEMA_VERSION,
        "id": run_id,
        "campaign": campaign.section(),
        "variant": variant,
        "repeat": {"index": repeat[0], "of": repeat[1]},
        "origin": origin,
        "status": "complete",
        "started_at": span[0].strftime(TIMESTAMP),
        "ended_at": span[1].strftime(TIMESTAMP),
        "harness": provenance.harness,
        "host": server.host_section(),
        "server": server.server(),
        "workload": workload,
        "steps": steps,
    }
    if repeat[1] <= 1:  # a run of one pass says nothing of passes
        del document["repeat"]
    return document
