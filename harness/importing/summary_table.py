"""`mybench import table`: a CSV of published summary figures becomes run documents of origin
"summary-table", one per (campaign, host, variant, workload and its options), with one step per
thread level holding only the figures the table gave.

Columns (the guide's importing page has the full table):
- campaign, variant, workload, threads: required; threads may instead be given for every row
  (`--threads` with `--threads-source`, recorded in `origin.assumed`).
- metrics (METRICS): at least one; `<metric>_ratio` (RATIOS): the ratio the source printed
  beside a figure, kept with its decimals and checked by the site against the figures.
- workload options: an `options` column (`--range-size=100 --skip-trx=on`) and/or
  `option.<name>` columns. One workload name run with several option sets becomes one workload
  per set, named after the options that differ (`read-write-range-size-100`).
- `host`: the machine's label (and, as a slug, its hostname). A campaign whose rows name two
  hosts or more is a fleet: each variant is named `<host>.<variant>` (contract.host_variant_prefix)
  so the campaign page compares hosts at each variant, and every host's variants are ratios to
  that host's first variant.
- server_product, server_version, test, title, workload_note: optional per row (else the command
  line's options give them).

A figure is ASCII decimal digits (contract.figure: other digits, `1_000`, `1e-400`, `nan` are
refused, naming the line and column). A run's dates are the published date at midnight UTC, or
the CSV's modification time without one: importing the same table again makes the same
documents (landing.py then finds them already there), whenever it runs.
"""

from __future__ import annotations

import csv
import io
import re
import reprlib
import shlex
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

import contract
from contract import NotAFigure, figure, host_variant_prefix, whole_number
from harness.importing.documents import (
    CampaignSection,
    Provenance,
    ServerFacts,
    imported_document,
    source_entry,
    workload_section,
)
from harness.importing.landing import Arrival
from harness.importing.sources import Source, refused
from harness.run.document import campaign_id, run_id

SLUG = re.compile(r"[a-z0-9][a-z0-9._-]*")  # the run schema's $defs/slug
KEYS = ("campaign", "variant", "workload", "threads")
# Metric columns: a throughput is a summary step's field of the same name (qps: qps.total), a
# latency column one of its latency_ms.
LATENCIES: dict[str, Literal["avg", "p95", "p99", "max"]] = {
    "avg_ms": "avg",
    "p95_ms": "p95",
    "p99_ms": "p99",
    "max_ms": "max",
}
METRICS = ("tps", "qps", "rows_per_s", *LATENCIES)
# A printed ratio's column -> the throughput metric it is a ratio of.
RATIOS = {f"{metric}_ratio": metric for metric in ("tps", "qps", "rows_per_s")}
# Optional column -> the option that gives it for every row instead.
DESCRIPTIVE = {
    "server_product": "--product",
    "server_version": "--server-version",
    "host": "--host",
    "test": "--test",
    "title": "--title",
}
OPTIONS_COLUMN = "options"
OPTION_PREFIX = "option."
NOTE_COLUMN = "workload_note"
# Where a document's field came from, for a refusal that names the column the user wrote.
COLUMN_OF_FIELD = {
    "$.host": "host",
    "$.server.product": "server_product",
    "$.server.version": "server_version",
    "$.workload.script": "test",
    "$.workload.options": OPTIONS_COLUMN,
    "$.workload.note": NOTE_COLUMN,
    "$.workload.name": "workload",
    "$.campaign.title": "title",
    "$.variant": "variant",
}


@dataclass(frozen=True)
class ThreadsDefault:
    """--threads and --threads-source: the thread level of every row, and where it is stated."""

    threads: int
    source: str


@dataclass
class RunRows:
    """The rows of one (campaign, host, variant, workload, options)."""

    first_line: int
    last_line: int = 0
    steps: dict[int, contract.SummaryStep] = field(default_factory=dict)  # threads -> its step
    lines: dict[int, int] = field(default_factory=dict)  # threads -> its line
    ratios: dict[int, dict[str, tuple[float, int]]] = field(default_factory=dict)
    facts: dict[str, str] = field(default_factory=dict)


# (campaign, host label, variant as written, workload as written, options as sorted pairs)
GroupKey = tuple[str, str, str, str, tuple[tuple[str, str], ...]]


def import_table(
    source: Source,
    defaults: dict[str, str | None],
    server_cnf: Source | None,
    provenance: Provenance,
    threads_default: ThreadsDefault | None = None,
) -> list[Arrival]:
    """The table's runs as documents; defaults are the options for the descriptive columns."""
    reader = csv.DictReader(io.StringIO(source.text, newline=""))
    columns = _check_columns(source, reader.fieldnames, threads_default)
    groups: dict[GroupKey, RunRows] = {}
    for row in reader:
        line = reader.line_num
        if None in row or any(value is None for value in row.values()):
            raise refused(source.path, f"{len(reader.fieldnames or [])} columns expected", line)
        host = (row.get("host") or "").strip() or defaults.get("host") or ""
        if not host:
            raise refused(source.path, "no host: give a host column or --host", line)
        key = (
            _required(source, row, "campaign", line),
            host,
            _required(source, row, "variant", line),
            _required(source, row, "workload", line),
            _options(source, row, line),
        )
        group = groups.setdefault(key, RunRows(line))
        threads = (
            _threads(source, row["threads"], line)
            if threads_default is None
            else threads_default.threads
        )
        if threads in group.steps:
            raise refused(
                source.path,
                f"threads {threads} again for {_described(key)} (line {group.lines[threads]})",
                line,
            )
        group.steps[threads] = _step(source, row, columns, threads, line)
        group.ratios[threads] = _printed(source, row, line)
        group.lines[threads] = line
        group.last_line = line
        for name in [*DESCRIPTIVE, NOTE_COLUMN]:
            if row.get(name) and name not in group.facts:
                group.facts[name] = row[name].strip()
    if not groups:
        raise refused(source.path, "no rows")
    return _documents(source, groups, defaults, server_cnf, provenance, threads_default)


def _documents(
    source: Source,
    groups: dict[GroupKey, RunRows],
    defaults: dict[str, str | None],
    server_cnf: Source | None,
    provenance: Provenance,
    threads_default: ThreadsDefault | None,
) -> list[Arrival]:
    when = _dated(source, provenance)
    names = _workload_names(groups)
    hosts: dict[str, list[str]] = {}  # campaign -> its hosts, in the table's order
    for campaign, host, *_ in groups:
        hosts.setdefault(campaign, [])
        if host not in hosts[campaign]:
            hosts[campaign].append(host)

    def variant_name(key: GroupKey) -> str:
        campaign, host, variant = key[:3]
        return host_variant_prefix(host) + variant if len(hosts[campaign]) > 1 else variant

    orders: dict[str, list[str]] = {}  # campaign -> its variants, host by host, in table order
    bases: dict[tuple[str, str], str] = {}  # (campaign, host) -> what its printed ratios divide by
    for campaign, its_hosts in hosts.items():
        orders[campaign] = []
        for host in its_hosts:
            named = [variant_name(key) for key in groups if key[:2] == (campaign, host)]
            bases[(campaign, host)] = named[0]
            orders[campaign] += [v for v in dict.fromkeys(named) if v not in orders[campaign]]
    titles: dict[str, str] = {}  # campaign -> the first title the table gives it
    for key, group in groups.items():
        if "title" in group.facts:
            titles.setdefault(key[0], group.facts["title"])
    several = len(groups) > 1
    arrivals = []
    for key, group in groups.items():
        name, host = key[:2]
        variant = variant_name(key)
        workload = names[key]
        facts = {**{k: v for k, v in defaults.items() if v}, **group.facts}
        for column in ("server_product", "server_version"):
            if not facts.get(column):
                raise refused(
                    source.path,
                    f"no {column} for {_described(key)}: give a {column} column or"
                    f" {DESCRIPTIVE[column]}",
                    group.first_line,
                )
        section = CampaignSection(
            campaign_id(name, when),
            name,
            titles.get(name) or defaults.get("title") or name,
            source,
            orders[name],
        )
        steps = []
        for threads in sorted(group.steps):
            step = group.steps[threads]
            if printed := group.ratios[threads]:
                step["printed_ratios"] = {
                    metric: {"value": value, "decimals": decimals, "base": bases[key[:2]]}
                    for metric, (value, decimals) in printed.items()
                }
            steps.append(step)
        origin = provenance.origin([source_entry(source, _lines(group, several))], None)
        if threads_default is not None:
            level = str(threads_default.threads)
            origin["assumed"] = {"threads": {"value": level, "source": threads_default.source}}
        document = imported_document(
            provenance,
            section,
            run_id(section.id, variant, workload, 1, 1),
            variant,
            ServerFacts(
                facts["server_product"], facts["server_version"], host, server_cnf, label=host
            ),
            workload_section(
                workload, "unknown", dict(key[4]), facts.get("test"), facts.get(NOTE_COLUMN)
            ),
            steps,
            (when, when),
            origin,
        )
        _check_document(source, document, group)
        arrivals.append(Arrival(document, f"{source.path}:{group.first_line}", checked=True))
    return arrivals


def _lines(group: RunRows, several: bool) -> tuple[int, int] | None:
    return (group.first_line, group.last_line) if several else None


def _described(key: GroupKey) -> str:
    """c/v/w on h, with the options when the row has some: c/v/w range-size=100 on h."""
    campaign, host, variant, workload, options = key
    words = [f"{campaign}/{variant}/{workload}", *(f"{k}={v}" for k, v in options)]
    return " ".join([*words, "on", host])


def _workload_names(groups: dict[GroupKey, RunRows]) -> dict[GroupKey, str]:
    """Each group's workload name: as written when the campaign runs it with one set of options,
    else followed by the options in which its sets differ (read-write-range-size-100)."""
    sets: dict[tuple[str, str], set[tuple[tuple[str, str], ...]]] = {}
    for campaign, _, _, workload, options in groups:
        sets.setdefault((campaign, workload), set()).add(options)
    names = {}
    for key in groups:
        campaign, _, _, workload, options = key
        variants = sets[(campaign, workload)]
        if len(variants) == 1:
            names[key] = workload
            continue
        shared = set(options).intersection(*variants)
        differing = {pair for other in variants for pair in other} - shared
        shown = [f"{name}-{value}" for name, value in options if (name, value) in differing]
        suffix = re.sub(r"[^a-z0-9._-]+", "-", "-".join(shown).lower()).strip("-")
        names[key] = f"{workload}-{suffix}" if suffix else workload
    return names


def _check_columns(
    source: Source, names: Sequence[str] | None, threads_default: ThreadsDefault | None
) -> list[str]:
    if not names:
        raise refused(source.path, "empty: no header line", 1)
    known = {*KEYS, *METRICS, *RATIOS, *DESCRIPTIVE, OPTIONS_COLUMN, NOTE_COLUMN}
    unknown = [n for n in names if n not in known and not _option_column(n)]
    if unknown:
        listed = ", ".join(repr(name) for name in unknown)
        allowed = ", ".join([*METRICS, *RATIOS])
        raise refused(
            source.path,
            f"unknown column{'s' * (len(unknown) > 1)} {listed} (metrics: {allowed};"
            f" options: {OPTIONS_COLUMN} or {OPTION_PREFIX}<name>)",
            1,
        )
    required = [key for key in KEYS if key != "threads" or threads_default is None]
    if missing := [name for name in required if name not in names]:
        listed = ", ".join(repr(name) for name in missing)
        hint = " (or --threads N with --threads-source)" if "threads" in missing else ""
        raise refused(source.path, f"missing column{'s' * (len(missing) > 1)} {listed}{hint}", 1)
    if threads_default is not None and "threads" in names:
        raise refused(source.path, "a threads column and --threads: give one of them", 1)
    metrics = [name for name in names if name in METRICS]
    if not metrics:
        raise refused(source.path, f"no metric column (one or more of {', '.join(METRICS)})", 1)
    if orphans := [
        ratio for ratio, metric in RATIOS.items() if ratio in names and metric not in names
    ]:
        raise refused(source.path, f"{orphans[0]} without a {RATIOS[orphans[0]]} column", 1)
    return metrics


def _option_column(name: str) -> str | None:
    """The sysbench option an `option.<name>` column gives, else None."""
    option = name.removeprefix(OPTION_PREFIX)
    return option if name.startswith(OPTION_PREFIX) and option else None


def _options(source: Source, row: dict[str, str], line: int) -> tuple[tuple[str, str], ...]:
    """The row's workload options, from its options column and option.<name> columns, by
    sysbench name without dashes, sorted: they are part of what identifies the run."""
    options: dict[str, str] = {}
    try:
        words = shlex.split(row.get(OPTIONS_COLUMN) or "")
    except ValueError as exc:
        raise refused(source.path, f"{OPTIONS_COLUMN}: {exc}", line) from None
    for word in words:
        name, equals, value = word.removeprefix("--").partition("=")
        if not equals or not name or not value:
            raise refused(
                source.path, f"{OPTIONS_COLUMN} {reprlib.repr(word)}: write --name=value", line
            )
        options[name] = value
    for column, text in row.items():
        if (option := _option_column(column)) and text.strip():
            if option in options and options[option] != text.strip():
                raise refused(source.path, f"{column} and {OPTIONS_COLUMN} disagree", line)
            options[option] = text.strip()
    return tuple(sorted(options.items()))


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


def _figure(source: Source, column: str, text: str, line: int) -> float:
    try:
        return figure(text)
    except NotAFigure as exc:
        raise refused(source.path, f"{column} {reprlib.repr(text)}: {exc}", line) from None


def _step(
    source: Source, row: dict[str, str], metrics: list[str], threads: int, line: int
) -> contract.SummaryStep:
    step: contract.SummaryStep = {"threads": threads}
    for column in metrics:
        text = row[column].strip()
        if not text:
            continue  # not given
        _put(step, column, _figure(source, column, text, line))
    if len(step) == 1:
        raise refused(source.path, "no figure in this row", line)
    return step


def _put(step: contract.SummaryStep, column: str, figure: float) -> None:
    """A metric column's figure in its place; latency_ms comes where its first column is."""
    match column:
        case "tps":
            step["tps"] = figure
        case "qps":
            step["qps"] = {"total": figure}
        case "rows_per_s":
            step["rows_per_s"] = figure
        case _:
            step.setdefault("latency_ms", {})[LATENCIES[column]] = figure


def _printed(source: Source, row: dict[str, str], line: int) -> dict[str, tuple[float, int]]:
    """The ratios the row prints, by metric: (value, decimals as printed)."""
    printed = {}
    for column, metric in RATIOS.items():
        text = (row.get(column) or "").strip()
        if not text:
            continue
        if not row[metric].strip():
            raise refused(source.path, f"{column} without a {metric} figure to check it by", line)
        decimals = len(text.partition(".")[2])
        printed[metric] = (_figure(source, column, text, line), decimals)
    return printed


def _check_document(source: Source, document: contract.RunDocument, group: RunRows) -> None:
    """The document against the run schema, a problem named by the column it came from."""
    problems = contract.validate_document(document)
    if not problems:
        return
    problem = problems[0]
    where = max(
        (prefix for prefix in COLUMN_OF_FIELD if problem.path.startswith(prefix)),
        key=len,
        default=None,
    )
    column = COLUMN_OF_FIELD[where] if where else problem.path
    raise refused(source.path, f"{column}: {problem.message}", group.first_line)


def _dated(source: Source, provenance: Provenance) -> datetime:
    """The runs' date: the published date at midnight UTC, else the table's modification time."""
    if provenance.published is None:
        return source.modified()
    return datetime.strptime(provenance.published, "%Y-%m-%d").replace(tzinfo=UTC)
