"""Parse the text sysbench 1.0.20 prints for `run`: as the harness runs it (--report-interval=1
--histogram=on: `parse_run`), or as someone else's script did (`parse_logged_run`, and
`log_header` for what the lines before the run say), for `mybench import`.

Pure functions over the captured stdout; tested on recorded real outputs in tests/fixtures/sysbench.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

_INTERVAL = re.compile(
    r"^\[ (?P<t>\d+(?:\.\d+)?)s \] thds: (?P<thds>\d+) tps: (?P<tps>[\d.]+) qps: (?P<qps>[\d.]+) "
    r"\(r/w/o: [\d.]+/[\d.]+/[\d.]+\) lat \(ms,(?P<pct>\d+)%\): (?P<lat>[\d.]+) "
    r"err/s: (?P<err>[\d.]+) reconn/s: (?P<reconn>[\d.]+)$"
)
_HISTOGRAM_ROW = re.compile(r"^\s+(?P<value>[\d.]+) \|\**\s+(?P<count>\d+)$")
_COUNTER = re.compile(
    r"^\s+(?P<name>[a-z ]+):\s+(?P<value>[\d.]+)(?:s|\s+\((?P<rate>[\d.]+) per sec\.\))?$"
)
_LATENCY = re.compile(r"^\s+(?P<name>min|avg|max|\d+th percentile|sum):\s+(?P<value>[\d.]+)$")


SERIES_KEYS = ("t", "tps", "qps", "p95_ms", "errors_per_s", "reconnects_per_s")


class SysbenchOutputError(ValueError):
    pass


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
    latency_ms: dict[str, float]
    histogram: list[tuple[float, int]]
    series: dict[str, list[float]] = field(default_factory=dict)

    def step_fields(self) -> dict:
        """What a run document's step takes from sysbench's own output (series only when
        the output had interval lines for it)."""
        fields = {
            "threads": self.threads,
            "duration_s": self.total_time_s,
            "tps": self.tps,
            "qps": self.qps(),
            "latency_ms": self.latency_ms,
            "events": self.events,
            "errors": self.errors,
            "reconnects": self.reconnects,
        }
        return {**fields, "series": self.series} if self.series else fields

    def qps(self) -> dict[str, float]:
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


def _collect(text: str) -> _Collected:
    collected = _Collected(
        series={key: [] for key in SERIES_KEYS}, interval_percentiles=set(), histogram=[],
        counters={}, latency={},
    )  # fmt: skip
    series, section = collected.series, ""
    for line in text.splitlines():
        if match := _INTERVAL.match(line):
            series["t"].append(float(match["t"]))
            series["tps"].append(float(match["tps"]))
            series["qps"].append(float(match["qps"]))
            series["p95_ms"].append(float(match["lat"]))
            series["errors_per_s"].append(float(match["err"]))
            series["reconnects_per_s"].append(float(match["reconn"]))
            collected.interval_percentiles.add(int(match["pct"]))
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
            collected.histogram.append((float(match["value"]), int(match["count"])))
        elif section in ("sql", "general") and (match := _COUNTER.match(line)):
            rate = float(match["rate"]) if match["rate"] else None
            collected.counters[match["name"].strip()] = (float(match["value"]), rate)
        elif section == "latency" and (match := _LATENCY.match(line)):
            collected.latency[match["name"]] = float(match["value"])
    required = ["read", "write", "other", "transactions", "queries", "ignored errors",
                "reconnects", "total time", "total number of events"]  # fmt: skip
    missing = [name for name in required if name not in collected.counters]
    missing += [name for name in ("min", "avg", "max") if name not in collected.latency]
    if missing:
        raise SysbenchOutputError(f"sysbench output lacks: {', '.join(missing)}")
    return collected


def _report(
    collected: _Collected, threads: int, percentiles: dict[str, float], series: dict
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
    )


def _percentiles(histogram: list[tuple[float, int]]) -> dict[str, float]:
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
    return _report(collected, threads, _percentiles(histogram), collected.series)


def parse_logged_run(text: str, threads: int) -> RunReport:
    """Parse one run of a log written with whatever options its author chose (for imports):
    p95 and p99 from the histogram when there is one, else from the summary's own percentile
    line when it is the 95th or 99th (--percentile; 0 prints none); the per-second series only
    when the interval lines report the 95th percentile, the series' p95_ms (else none)."""
    collected = _collect(text)
    if collected.histogram:
        percentiles = _percentiles(collected.histogram)
    else:
        printed = {
            int(name.removesuffix("th percentile")): value
            for name, value in collected.latency.items()
            if name.endswith("th percentile")
        }
        percentiles = {f"p{pct}": printed[pct] for pct in (95, 99) if pct in printed}
    keep_series = bool(collected.series["t"]) and collected.interval_percentiles == {95}
    return _report(collected, threads, percentiles, collected.series if keep_series else {})


def printed_percentile(text: str) -> float | None:
    """The percentile line sysbench prints itself (default 95th); used to cross-check ours."""
    match = re.search(r"^\s+\d+th percentile:\s+([\d.]+)$", text, re.MULTILINE)
    return float(match[1]) if match else None


_HEADER = re.compile(r"^sysbench (?P<version>\d[^\s]*) \(")
_THREADS = re.compile(r"^Number of threads: (?P<threads>\d+)$")
_REPORT_INTERVAL = re.compile(r"^Report intermediate results every (?P<seconds>\d+) second")
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
