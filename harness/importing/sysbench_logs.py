"""`mybench import sysbench`: sysbench 1.0.x logs become run documents of origin
"sysbench-log".

A group's logs (one file per thread level, or files holding several runs one after another)
give one step per thread level. A thread level met again starts another pass: the n-th run at
each thread level belongs to pass n, so logs of a repeated sweep become repeated runs
(`repeat`), which the site compares by their medians like measured passes. A run takes what
its log says (sysbench's version, its threads, the echoed command's test and options) and the
group's facts for the rest; its dates are its log files' modification times. A per-second
line whose figures are not figures (`nan`) is left out of the series, whose `t` then skips that
second, and the import says so, one line each (Arrival.notes).
"""

from __future__ import annotations

import shlex
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import contract
from harness.importing.documents import (
    CampaignSection,
    Provenance,
    ServerFacts,
    imported_document,
    source_entry,
    workload_section,
)
from harness.importing.landing import Arrival
from harness.importing.sidecar import LogGroup, LogPlan
from harness.importing.sources import Source, read_source, refused
from harness.run.document import campaign_id, run_id
from harness.workloads.sysbench.output import (
    LoggedRun,
    RunReport,
    SysbenchOutputError,
    parse_logged_run,
    split_log,
)

READABLE_VERSION = "1.0."
# Options that say where sysbench connected, not what it ran: left out of workload.options.
WHERE = {"db-driver", "mysql-host", "mysql-port", "mysql-socket", "mysql-user", "mysql-password"}
PER_STEP = {"threads"}
NO_THREADS = "no 'Number of threads' line: give --threads (or threads in the sidecar)"


@dataclass(frozen=True)
class ReadRun:
    """One run of a log, parsed."""

    source: Source
    logged: LoggedRun
    report: RunReport
    test: str | None
    options: dict[str, str]


def import_logs(plan: LogPlan, provenance: Provenance) -> list[Arrival]:
    """Every group's runs as documents, checked for what a log must hold; nothing written."""
    read = [_read_group(group) for group in plan.groups]
    started = min(run.source.modified() for runs in read for run in runs)
    variants = list(dict.fromkeys(group.facts["variant"] for group in plan.groups))
    campaign = CampaignSection(
        campaign_id(plan.campaign, started),
        plan.campaign,
        plan.title,
        read_source(plan.file),
        variants,
        plan.description,
    )
    arrivals = []
    for group, runs in zip(plan.groups, read, strict=True):
        arrivals += _group_documents(group, runs, campaign, provenance)
    return arrivals


def _read_group(group: LogGroup) -> list[ReadRun]:
    """Every run of the group's logs, in the order given; threads given by the user go, in
    order, to the runs whose log does not say its own."""
    threads_given = list(group.facts.get("threads", []))
    read = []
    for path in group.files:
        source = read_source(path)
        for logged in split_log(source.text):
            report = _parse(path, logged)
            if logged.threads is None:
                if not threads_given:
                    raise refused(path, NO_THREADS, logged.first_line)
                report.threads = logged.threads = threads_given.pop(0)
            test, options = _command_options(logged.command)
            options |= _logged_options(logged, report)
            read.append(ReadRun(source, logged, report, test, options))
    if threads_given:
        left = len(threads_given)
        raise refused(group.named_in, f"{left} thread count(s) left over: the logs say theirs")
    return read


def _parse(path: Path, logged: LoggedRun) -> RunReport:
    """One run's results, or the refusal that names the file and the run's first line."""
    version = logged.tool_version
    if version is not None and not version.startswith(READABLE_VERSION):
        raise refused(path, f"sysbench {version} output; only 1.0.x is read", logged.first_line)
    if version is None and "SQL statistics:" not in logged.text:
        raise refused(path, "not sysbench output: no 'sysbench 1.0.x' header, no results", 1)
    try:
        return parse_logged_run(logged.text, logged.threads or 0)
    except SysbenchOutputError as exc:
        if exc.line is not None:  # a figure that is not one
            raise refused(path, str(exc), logged.first_line + exc.line - 1) from None
        what = "incomplete sysbench run output" if version else "not sysbench run output"
        raise refused(path, f"{what} ({exc})", logged.first_line) from None


def _command_options(command: str | None) -> tuple[str | None, dict[str, str]]:
    """The test and the --name=value options of an echoed sysbench command line."""
    if command is None:
        return None, {}
    try:
        words = shlex.split(command)[1:-1]  # sysbench ... run
    except ValueError:
        return None, {}
    test = next((word for word in words if not word.startswith("--")), None)
    options = {}
    for word in words:
        if word.startswith("--"):
            name, _, value = word[2:].partition("=")
            if name not in WHERE | PER_STEP:
                options[name] = value or "on"
    return test, contract.redact_options(options)


def _logged_options(logged: LoggedRun, report: RunReport) -> dict[str, str]:
    """What the log itself shows of its options."""
    options = {}
    if logged.report_interval is not None:
        options["report-interval"] = logged.report_interval
    if report.histogram:
        options["histogram"] = "on"
    return options


def _group_documents(
    group: LogGroup, runs: list[ReadRun], campaign: CampaignSection, provenance: Provenance
) -> list[Arrival]:
    passes: dict[int, list[ReadRun]] = {}
    seen: Counter[int] = Counter()
    for run in runs:
        seen[run.report.threads] += 1
        passes.setdefault(seen[run.report.threads], []).append(run)
    echoed_tests = sorted({run.test for run in runs if run.test})
    if len(echoed_tests) > 1 and group.fact("test") is None:
        tests = ", ".join(echoed_tests)
        raise refused(group.named_in, f"the logs ran several tests ({tests}): one workload each")
    test = group.fact("test") or (echoed_tests[0] if echoed_tests else None)
    workload_name = group.fact("workload") or (
        Path(test).name.removesuffix(".lua") if test else None
    )
    if workload_name is None:
        raise refused(
            group.named_in,
            "no workload: give --workload or --test (the log does not echo its command)",
        )
    my_cnf = group.facts.get("my_cnf")
    server = ServerFacts(
        group.facts["server_product"],
        group.fact("server_version") or "",
        group.facts["host"],
        read_source(my_cnf) if my_cnf is not None else None,
    )
    variant = group.facts["variant"]
    arrivals = []
    for index, members in passes.items():
        workload = workload_section(
            workload_name,
            next((r.logged.tool_version for r in members if r.logged.tool_version), "unknown"),
            _shared(run.options for run in members),
            test,
        )
        echoed = list(dict.fromkeys(r.logged.command for r in members if r.logged.command))
        tool_command = group.fact("tool_command") or ("\n".join(echoed) or None)
        document = imported_document(
            provenance,
            campaign,
            run_id(campaign.id, variant, workload_name, index, len(passes)),
            variant,
            server,
            workload,
            [run.report.step_fields() for run in sorted(members, key=lambda r: r.report.threads)],
            _span(members),
            provenance.origin(_sources(members, runs), tool_command),
            (index, len(passes)),
        )
        came_from = f"{members[0].source.path}:{members[0].logged.first_line}"
        arrivals.append(Arrival(document, came_from, notes=_dropped_seconds(members)))
    return arrivals


def _dropped_seconds(members: list[ReadRun]) -> tuple[str, ...]:
    """One line per per-second line left out of a series: file, line, second and why."""
    return tuple(
        f"{run.source.path}:{run.logged.first_line + dropped.line - 1}: second {dropped.second}s"
        f" left out of the series of the {run.report.threads}-thread step ({dropped.why})"
        for run in members
        for dropped in run.report.dropped
    )


def _shared(options_of_runs: Iterable[dict[str, str]]) -> dict[str, str]:
    """The options every run of a pass agrees on."""
    shared: dict[str, str] | None = None
    for options in options_of_runs:
        shared = (
            dict(options)
            if shared is None
            else {k: v for k, v in shared.items() if options.get(k) == v}
        )
    return shared or {}


def _span(members: list[ReadRun]) -> tuple[datetime, datetime]:
    dates = [run.source.modified() for run in members]
    return min(dates), max(dates)


def _sources(members: list[ReadRun], everything: list[ReadRun]) -> list[contract.OriginSource]:
    """One entry per file, with the lines read when the file holds runs of other passes."""
    entries = []
    for source in dict.fromkeys(run.source for run in members):
        ours = [run.logged for run in members if run.source is source]
        in_file = sum(1 for run in everything if run.source is source)
        lines = (min(r.first_line for r in ours), max(r.last_line for r in ours))
        entries.append(source_entry(source, lines if in_file > len(ours) else None))
    return entries
