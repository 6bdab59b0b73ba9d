"""Parse the text sysbench 1.0.20 prints for `run`: as the harness runs it (--report-interval=1
--histogram=on: `parse_run`), or as someone else's script did (`parse_logged_run`, and
`log_header` for what the lines before the run say), for `mybench import`.

Pure functions over the captured stdout; tested on recorded real outputs in tests/fixtures/sysbench.
The per-second latency series is named by the percentile its interval lines report (latency_key):
p95_ms as the harness runs sysbench, p99_ms for a log written with --percentile=99, and none
with --percentile=0, whose lines report no latency.
Every figure is read by contract.figure (ASCII decimal digits, within the run schema's range): a
summary line holding anything else (`nan`, `1e-400`, `1_000`) is refused naming its line, and a
per-second line is left out of the series and listed in RunReport.dropped, so that the caller
can say which seconds the series lacks (its `t` skips them).
"""

from __future__ import annotations

import math
import re
import reprlib
from dataclasses import dataclass, field
from typing import TypedDict, cast

import contract
from contract import LARGEST_COUNT, NotAFigure, figure, whole_number

# The lines' shapes; their figures (\S+) are read by contract.figure.
_INTERVAL = re.compile(
    r"^\[ (?P<t>\S+)s \] thds: (?P<thds>\S+) tps: (?P<tps>\S+) qps: (?P<qps>\S+) "
    r"\(r/w/o: \S+\) lat \(ms,(?P<pct>\S+)%\): (?P<lat>\S+) "
    r"err/s: (?P<err>\S+) reconn/s: (?P<reconn>\S+)$"
)
_HISTOGRAM_ROW = re.compile(r"^\s+(?P<value>\S+) \|\**\s+(?P<count>\S+)$")
_COUNTER = re.compile(
    r"^\s+(?P<name>[a-z ]+):\s+(?P<value>\S+?)s?(?:\s+\((?P<rate>\S+) per sec\.\))?$"
)
_LATENCY = re.compile(r"^\s+(?P<name>min|avg|max|[0-9]+th percentile|sum):\s+(?P<value>\S+)$")
# Interval line group -> its series; "lat" is named by its percentile (latency_key).
_SERIES_OF = {"t": "t", "tps": "tps", "qps": "qps", "lat": "lat", "err": "errors_per_s",
              "reconn": "reconnects_per_s"}  # fmt: skip


MEASURED_PERCENTILE = 95  # sysbench's default --percentile, which the harness keeps


def latency_key(percentile: int) -> str:
    """The name of a per-second latency series at this percentile: "p95_ms", "p99_ms"."""
    return f"p{percentile}_ms"


class SysbenchOutputError(ValueError):
    """Output that cannot be read; line is the 1-based line of the text parsed, when one is at
    fault."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


class Percentiles(TypedDict, total=False):
    """The latency percentiles a run gives (ms): both from a histogram, else those printed."""

    p95: float
    p99: float


@dataclass(frozen=True)
class DroppedSecond:
    """A per-second line left out of the series: its 1-based line, its second as printed, and
    why."""

    line: int
    second: str
    why: str


def _figure(text: str, what: str, line: int, largest: float | None = None) -> float:
    """A summary figure, or the refusal naming its line."""
    try:
        return figure(text) if largest is None else figure(text, largest)
    except NotAFigure as exc:
        raise SysbenchOutputError(f"{what} {reprlib.repr(text)}: {exc}", line) from None


@dataclass
class RunReport:
    """What one `sysbench ... run` reported."""

    threads: int
    total_time_s: float
    events: int
    tps: float
    qps_total: float
    queries_read: int
    queries_write: int
    queries_other: int
    errors: int
    reconnects: int
    latency_ms: contract.Latency
    histogram: list[tuple[float, int]]
    series: dict[str, list[float]] = field(default_factory=dict)
    dropped: list[DroppedSecond] = field(default_factory=list)  # per-second lines not in series

    def step_fields(self) -> contract.Step:
        """What a run document's step takes from sysbench's own output (series only when
        the output had interval lines for it)."""
        fields: contract.Step = {
            "threads": self.threads,
            "duration_s": self.total_time_s,
            "tps": self.tps,
            "qps": self.qps(),
            "latency_ms": self.latency_ms,
            "events": self.events,
            "errors": self.errors,
            "reconnects": self.reconnects,
        }
        if self.series:
            # keyed as StepSeries, but for the latency's key, named by the percentile the
            # interval lines report (an imported log's p99_ms, which StepSeries cannot name)
            fields["series"] = cast(contract.StepSeries, self.series)
        return fields

    def qps(self) -> contract.Qps:
        """Per-second rates by class.

        sysbench prints only the total as a rate, over its own event time rather than "total
        time", so the classes are the total split by their query counts to stay consistent.
        """
        queries = self.queries_read + self.queries_write + self.queries_other
        share = self.qps_total / queries if queries else 0.0
        return {
            "total": self.qps_total,
            "read": round(self.queries_read * share, 2),
            "write": round(self.queries_write * share, 2),
            "other": round(self.queries_other * share, 2),
        }


def percentile_from_histogram(histogram: list[tuple[float, int]], pct: float) -> float:
    """Bucket value at which the cumulative count reaches pct % of the events, rounded to a
    whole event as sysbench rounds it for its own percentile line (floor(n x pct / 100 + 0.5)),
    so the two agree even when the share falls between two events."""
    total = sum(count for _, count in histogram)
    if total == 0:
        return 0.0
    threshold = math.floor(total * pct / 100.0 + 0.5)
    running = 0
    for value, count in histogram:
        running += count
        if running >= threshold:
            return value
    return histogram[-1][0]


@dataclass
class _Collected:
    """Every part of one run's output, whichever of them the options made sysbench print."""

    series: dict[str, list[float]]
    interval_percentiles: set[int]
    histogram: list[tuple[float, int]]
    counters: dict[str, tuple[float, float | None]]
    latency: dict[str, float]
    dropped: list[DroppedSecond]


def _second(match: re.Match[str], number: int, collected: _Collected) -> None:
    """A per-second line into the series, or into dropped when a figure of it is not one."""
    values = {}
    for group, key in _SERIES_OF.items():
        try:
            values[key] = figure(match[group])
        except NotAFigure as exc:
            why = f"{group} {reprlib.repr(match[group])}: {exc}"
            collected.dropped.append(DroppedSecond(number, match["t"], why))
            return
    if (pct := whole_number(match["pct"])) is None or pct > 100:  # sysbench takes 0 to 100
        why = f"percentile {match['pct']!r}: not a whole number from 0 to 100 in ASCII digits"
        collected.dropped.append(DroppedSecond(number, match["t"], why))
        return
    for key, value in values.items():
        collected.series[key].append(value)
    collected.interval_percentiles.add(pct)


def _collect(text: str) -> _Collected:
    collected = _Collected(
        series={key: [] for key in _SERIES_OF.values()}, interval_percentiles=set(), histogram=[],
        counters={}, latency={}, dropped=[],
    )  # fmt: skip
    section = ""
    for number, line in enumerate(text.splitlines(), start=1):
        if match := _INTERVAL.match(line):
            _second(match, number, collected)
            continue
        if line.startswith("Latency histogram"):
            section = "histogram"
        elif line.startswith("SQL statistics"):
            section = "sql"
        elif line.startswith("General statistics"):
            section = "general"
        elif line.startswith("Latency (ms)"):
            section = "latency"
        elif line.startswith("Threads fairness"):
            section = "fairness"
        elif section == "histogram" and (match := _HISTOGRAM_ROW.match(line)):
            value = _figure(match["value"], "histogram value", number)
            count = _figure(match["count"], "histogram count", number, LARGEST_COUNT)
            collected.histogram.append((value, int(count)))
        elif section in ("sql", "general") and (match := _COUNTER.match(line)):
            name = match["name"].strip()
            rate = _figure(match["rate"], f"{name} rate", number) if match["rate"] else None
            value = _figure(match["value"], name, number, LARGEST_COUNT)
            collected.counters[name] = (value, rate)
        elif section == "latency" and (match := _LATENCY.match(line)):
            collected.latency[match["name"]] = _figure(match["value"], match["name"], number)
    required = ["read", "write", "other", "transactions", "queries", "ignored errors",
                "reconnects", "total time", "total number of events"]  # fmt: skip
    missing = [name for name in required if name not in collected.counters]
    missing += [name for name in ("min", "avg", "max") if name not in collected.latency]
    if missing:
        raise SysbenchOutputError(f"sysbench output lacks: {', '.join(missing)}")
    return collected


def _report(
    collected: _Collected, threads: int, percentiles: Percentiles, series: dict[str, list[float]]
) -> RunReport:
    counters, latency = collected.counters, collected.latency
    return RunReport(
        threads=threads,
        total_time_s=counters["total time"][0],
        events=int(counters["total number of events"][0]),
        tps=counters["transactions"][1] or 0.0,
        qps_total=counters["queries"][1] or 0.0,
        queries_read=int(counters["read"][0]),
        queries_write=int(counters["write"][0]),
        queries_other=int(counters["other"][0]),
        errors=int(counters["ignored errors"][0]),
        reconnects=int(counters["reconnects"][0]),
        latency_ms={
            "min": latency["min"],
            "avg": latency["avg"],
            "max": latency["max"],
            **percentiles,
        },
        histogram=collected.histogram,
        series=series,
        dropped=collected.dropped,
    )


def _named_series(collected: _Collected) -> dict[str, list[float]]:
    """The per-second series with the latency named by the one percentile the interval lines
    report (left out at 0, which reports none); empty without interval lines, or when they
    report several percentiles, which no single sysbench run prints."""
    if not collected.series["t"] or len(collected.interval_percentiles) != 1:
        return {}
    (percentile,) = collected.interval_percentiles
    series = {key: values for key, values in collected.series.items() if key != "lat"}
    if percentile:
        series[latency_key(percentile)] = collected.series["lat"]
    return series


def _percentiles(histogram: list[tuple[float, int]]) -> Percentiles:
    return {
        "p95": percentile_from_histogram(histogram, 95),
        "p99": percentile_from_histogram(histogram, 99),
    }


def parse_run(text: str, threads: int) -> RunReport:
    """Parse a complete run output as the harness runs sysbench (--report-interval=1
    --histogram=on); raises SysbenchOutputError naming what is missing."""
    collected = _collect(text)
    histogram = collected.histogram
    if not histogram:
        raise SysbenchOutputError("sysbench output has no latency histogram (--histogram=on)")
    # a step that ends before sysbench's first report still has its (empty) series
    series = _named_series(collected) or {
        **{key: [] for key in _SERIES_OF.values() if key != "lat"},
        latency_key(MEASURED_PERCENTILE): [],
    }
    return _report(collected, threads, _percentiles(histogram), series)


def parse_logged_run(text: str, threads: int) -> RunReport:
    """Parse one run of a log written with whatever options its author chose (for imports):
    p95 and p99 from the histogram when there is one, else from the summary's own percentile
    line when it is the 95th or 99th (--percentile; 0 prints none); the per-second series
    whenever the log has interval lines, its latency named by their percentile."""
    collected = _collect(text)
    if collected.histogram:
        percentiles = _percentiles(collected.histogram)
    else:
        printed = {
            int(name.removesuffix("th percentile")): value
            for name, value in collected.latency.items()
            if name.endswith("th percentile")
        }
        percentiles = Percentiles()
        if 95 in printed:
            percentiles["p95"] = printed[95]
        if 99 in printed:
            percentiles["p99"] = printed[99]
    return _report(collected, threads, percentiles, _named_series(collected))


def printed_percentile(text: str) -> float | None:
    """The percentile line sysbench prints itself (default 95th); used to cross-check ours."""
    match = re.search(r"^\s+[0-9]+th percentile:\s+([0-9.]+)$", text, re.MULTILINE)
    return float(match[1]) if match else None


_HEADER = re.compile(r"^sysbench (?P<version>[0-9]\S*) \(")
_THREADS = re.compile(r"^Number of threads: (?P<threads>[0-9]{1,9})$")
_REPORT_INTERVAL = re.compile(r"^Report intermediate results every (?P<seconds>[0-9]{1,9}) second")
# A sysbench command line echoed into the log by the script that ran it (`set -x`, echo ...).
_COMMAND = re.compile(r"^(?:\++\s*)?(?:\S*/)?sysbench\s+(?P<args>.*?)\s+run\s*$")


@dataclass
class LoggedRun:
    """One `sysbench ... run` of a log file: its lines (1-based, inclusive) and what the lines
    before its results say."""

    first_line: int
    last_line: int
    text: str
    tool_version: str | None = None
    threads: int | None = None
    report_interval: str | None = None
    command: str | None = None  # the echoed command line, when the log holds one


def split_log(text: str) -> list[LoggedRun]:
    """The runs of a log holding one or several outputs one after another, each starting at
    its "sysbench 1.0.x (...)" header, or at the command line echoed just before it. A log
    without any header (cut to the results) is one run."""
    lines = text.splitlines()
    starts: list[tuple[int, str | None]] = []  # (index, echoed command)
    command: tuple[int, str] | None = None
    for index, line in enumerate(lines):
        if match := _COMMAND.match(line):
            command = (index, line.lstrip("+ ").strip())
        elif _HEADER.match(line):
            starts.append((command[0], command[1]) if command else (index, None))
            command = None
    if not starts:
        starts = [(0, None)]
    runs = []
    for number, (start, echoed) in enumerate(starts):
        end = starts[number + 1][0] if number + 1 < len(starts) else len(lines)
        while end > start + 1 and (not lines[end - 1].strip() or lines[end - 1][0] == "+"):
            end -= 1  # blank lines and the shell's trace of the next command
        run = LoggedRun(start + 1, end, "\n".join(lines[start:end]) + "\n", command=echoed)
        for line in lines[start:end]:
            if match := _HEADER.match(line):
                run.tool_version = match["version"]
            elif match := _THREADS.match(line):
                run.threads = int(match["threads"])
            elif match := _REPORT_INTERVAL.match(line):
                run.report_interval = match["seconds"]
        runs.append(run)
    return runs
