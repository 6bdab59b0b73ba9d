"""The run document of an imported run, built in one place for every kind of source: identity
and placement as a measured run gets them (harness/run/document.py), the importing tree's
version, and `origin`, which says where the figures came from."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime

import contract
from harness import __version__
from harness.importing.sources import Source
from harness.run.provenance import TreeState
from harness.servers import mycnf

TIMESTAMP = "%Y-%m-%dT%H:%M:%SZ"


@dataclass(frozen=True)
class CampaignSection:
    """What every run of one imported campaign says alike."""

    id: str
    name: str
    title: str
    file: Source  # the sidecar or table that named it, else the first log
    variant_order: list[str]
    description: str | None = None

    def section(self) -> dict:
        section = {"id": self.id, "name": self.name, "title": self.title}
        if self.description:
            section["description"] = self.description
        section["file"] = self.file.path.name
        return {**section, "variant_order": self.variant_order}


def importing_harness() -> dict:
    """The harness section: the version and commit of the tree that imported (it measured
    nothing, so there is no snapshot)."""
    return {"version": __version__, "git_commit": TreeState.read().commit}


@dataclass(frozen=True)
class Provenance:
    """The import itself: its kind, the command that ran it and the source's own details."""

    kind: str  # sysbench-log or summary-table
    command: str
    imported_at: str = field(default_factory=contract.utc_timestamp)
    url: str | None = None
    published: str | None = None
    note: str | None = None
    harness: dict = field(default_factory=importing_harness)

    def origin(self, sources: list[dict], tool_command: str | None) -> dict:
        origin = {
            "kind": self.kind,
            "imported_at": self.imported_at,
            "command": contract.redact_text(self.command),
            "sources": sources,
        }
        given = {"url": self.url, "published": self.published, "note": self.note}
        given["tool_command"] = contract.redact_text(tool_command) if tool_command else None
        return {**origin, **{key: value for key, value in given.items() if value}}


def source_entry(source: Source, lines: tuple[int, int] | None = None) -> dict:
    """origin.sources[]: the file's name (never the importer's path: it is published), its
    hash, and the lines read when the file holds more than this run."""
    entry: dict = {"file": source.path.name, "sha256": source.sha256}
    return {**entry, "lines": list(lines)} if lines is not None else entry


@dataclass(frozen=True)
class ServerFacts:
    product: str
    version: str
    host: str  # the hostname, or the label a table's host column gives
    my_cnf: Source | None = None
    label: str | None = None  # the host's name on the site, when the source names it

    def host_section(self) -> dict:
        """host: a label as given, and as its hostname the label made a hostname ("i5 NUC" ->
        "i5-NUC"), which names the host's page."""
        if self.label is None:
            return {"hostname": self.host}
        hostname = re.sub(r"[^A-Za-z0-9._-]+", "-", self.label).strip("-._") or "host"
        return {"hostname": hostname, "label": self.label}

    def server(self) -> dict:
        server: dict = {"product": self.product, "version": self.version}
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
    workload: dict,
    steps: list[dict],
    span: tuple[datetime, datetime],
    origin: dict,
    repeat: tuple[int, int] = (1, 1),
) -> dict:
    """A complete imported run; span is (started_at, ended_at), repeat (pass, passes)."""
    document = {
        "schema_version": contract.SCHEMA_VERSION,
        "id": run_id,
        "campaign": campaign.section(),
        "variant": variant,
    }
    if repeat[1] > 1:
        document["repeat"] = {"index": repeat[0], "of": repeat[1]}
    return {
        **document,
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
