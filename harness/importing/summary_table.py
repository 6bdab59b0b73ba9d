"""`mybench import table`: a CSV of published summary figures becomes run documents of origin
"summary-table", one per (campaign, variant, workload), with one step per thread level holding
only the figures the table gave.

Columns: campaign, variant, workload and threads are required; at least one metric column
(METRICS); optional columns name the server, host, test and campaign title per row (else the
command line's options give them). An empty cell is a figure not given; a figure is written in
ASCII decimal digits (contract.figure: other digits, `1_000`, `1e-400`, `nan` are refused,
naming the line and column). A run's dates are the published date at midnight UTC, or the
import's time without one.
"""

from __future__ import annotations

import csv
import io
import re
import reprlib
from dataclasses import dataclass, field
from datetime import UTC, datetime

from contract import NotAFigure, figure, whole_number
from harness.importing.documents import (
    TIMESTAMP,
    CampaignSection,
    Provenance,
    ServerFacts,
    imported_document,
    source_entry,
)
from harness.importing.landing import Arrival
from harness.importing.sources import Source, refused
from harness.run.document import campaign_id, run_id

SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*")  # the run schema's $defs/slug
KEYS = ("campaign", "variant", "workload", "threads")
# Metric column -> where its figure goes in a summary step.
METRICS = {
    "tps": ("tps",),
    "qps": ("qps", "total"),
    "rows_per_s": ("rows_per_s",),
    "avg_ms": ("latency_ms", "avg"),
    "p95_ms": ("latency_ms", "p95"),
    "p99_ms": ("latency_ms", "p99"),
    "max_ms": ("latency_ms", "max"),
}
# Optional column -> the option that gives it for every row instead.
DESCRIPTIVE = {
    "server_product": "--product",
    "server_version": "--server-version",
    "host": "--host",
    "test": "--test",
    "title": "--title",
}


@dataclass
class RunRows:
    """The rows of one (campaign, variant, workload)."""

    first_line: int
    last_line: int = 0
    steps: dict[int, dict] = field(default_factory=dict)  # threads -> summary step
    lines: dict[int, int] = field(default_factory=dict)  # threads -> its line
    facts: dict[str, str] = field(default_factory=dict)


def import_table(
    source: Source,
    defaults: dict[str, str | None],
    server_cnf: Source | None,
    provenance: Provenance,
) -> list[Arrival]:
    """The table's runs as documents; defaults are the options for the descriptive columns."""
    reader = csv.DictReader(io.StringIO(source.text, newline=""))
    columns = _check_columns(source, reader.fieldnames)
    groups: dict[tuple[str, str, str], RunRows] = {}
    for row in reader:
        line = reader.line_num
        if None in row or any(value is None for value in row.values()):
            raise refused(source.path, f"{len(reader.fieldnames or [])} columns expected", line)
        key = (
            _required(source, row, "campaign", line),
            _required(source, row, "variant", line),
            _required(source, row, "workload", line),
        )
        group = groups.setdefault(key, RunRows(line))
        threads = _threads(source, row["threads"], line)
        if threads in group.steps:
            raise refused(
                source.path,
                f"threads {threads} again for {'/'.join(key)} (line {group.lines[threads]})",
                line,
            )
        group.steps[threads] = _step(source, row, columns, threads, line)
        group.lines[threads] = line
        group.last_line = line
        for name in DESCRIPTIVE:
            if row.get(name) and name not in group.facts:
                group.facts[name] = row[name].strip()
    if not groups:
        raise refused(source.path, "no rows")
    when = _published(provenance)
    orders: dict[str, list[str]] = {}  # campaign -> its variants, in the table's order
    titles: dict[str, str] = {}  # campaign -> the first title the table gives it
    for (name, variant, _), group in groups.items():
        orders.setdefault(name, [])
        if variant not in orders[name]:
            orders[name].append(variant)
        if "title" in group.facts:
            titles.setdefault(name, group.facts["title"])
    several = len(groups) > 1
    arrivals = []
    for (name, variant, workload), group in groups.items():
        facts = {**{k: v for k, v in defaults.items() if v}, **group.facts}
        for column, option in DESCRIPTIVE.items():
            if column in ("test", "title"):
                continue
            if not facts.get(column):
                raise refused(
                    source.path,
                    f"no {column} for {name}/{variant}/{workload}: give a {column} column or {option}",
                    group.first_line,
                )
        campaign = CampaignSection(
            campaign_id(name, when),
            name,
            titles.get(name) or defaults.get("title") or name,
            source,
            orders[name],
        )
        workload_section = {
            "tool": "sysbench",
            "tool_version": "unknown",
            "name": workload,
            **({"script": facts["test"]} if facts.get("test") else {}),
            "options": {},
        }
        lines = (group.first_line, group.last_line) if several else None
        document = imported_document(
            provenance,
            campaign,
            run_id(campaign.id, variant, workload, 1, 1),
            variant,
            ServerFacts(
                facts["server_product"], facts["server_version"], facts["host"], server_cnf
            ),
            workload_section,
            [group.steps[threads] for threads in sorted(group.steps)],
            (when, when),
            provenance.origin([source_entry(source, lines)], None),
        )
        arrivals.append(Arrival(document, f"{source.path}:{group.first_line}"))
    return arrivals


def _check_columns(source: Source, names: list[str] | None) -> list[str]:
    if not names:
        raise refused(source.path, "empty: no header line", 1)
    known = {*KEYS, *METRICS, *DESCRIPTIVE}
    if unknown := [name for name in names if name not in known]:
        allowed = ", ".join(METRICS)
        raise refused(source.path, f"unknown column {unknown[0]!r} (metrics: {allowed})", 1)
    if missing := [name for name in KEYS if name not in names]:
        raise refused(source.path, f"missing column {missing[0]!r}", 1)
    metrics = [name for name in names if name in METRICS]
    if not metrics:
        raise refused(source.path, f"no metric column (one or more of {', '.join(METRICS)})", 1)
    return metrics


def _required(source: Source, row: dict[str, str], name: str, line: int) -> str:
    """A campaign, variant or workload name: it names pages and files, so a slug."""
    value = row[name].strip()
    if not value:
        raise refused(source.path, f"no {name}", line)
    if not SLUG.fullmatch(value):
        raise refused(source.path, f"{name} {value!r}: use a-z, 0-9, '.', '_' and '-' only", line)
    return value


def _threads(source: Source, text: str, line: int) -> int:
    threads = whole_number(text.strip()) or 0
    if threads < 1:
        raise refused(
            source.path,
            f"threads {reprlib.repr(text.strip())} is not a whole number of 1 or more",
            line,
        )
    return threads


def _step(
    source: Source, row: dict[str, str], metrics: list[str], threads: int, line: int
) -> dict:
    step: dict = {"threads": threads}
    for column in metrics:
        text = row[column].strip()
        if not text:
            continue  # not given
        try:
            value = figure(text)
        except NotAFigure as exc:
            raise refused(source.path, f"{column} {reprlib.repr(text)}: {exc}", line) from None
        *parents, leaf = METRICS[column]
        target = step
        for parent in parents:
            target = target.setdefault(parent, {})
        target[leaf] = value
    if len(step) == 1:
        raise refused(source.path, "no figure in this row", line)
    return step


def _published(provenance: Provenance) -> datetime:
    if provenance.published is None:
        return datetime.strptime(provenance.imported_at, TIMESTAMP).replace(tzinfo=UTC)
    return datetime.strptime(provenance.published, "%Y-%m-%d").replace(tzinfo=UTC)
