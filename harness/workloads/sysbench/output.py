"""Parse the text sysbench 1.0.20 prints for `run` with --report-interval=1 --histogram=on.

Pure functions over the captured stdout; tested on recorded real outputs in tests/fixtures/sysbench.
"""

from __future__ import annotations

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
    """Bucket value at which the cumulative count reaches pct %, as sysbench computes its own."""
    total = sum(count for _, count in histogram)
    if total == 0:
        return 0.0
    threshold = total * pct / 100.0
    running = 0
    for value, count in histogram:
        running += count
        if running >= threshold:
            return value
    return histogram[-1][0]


def parse_run(text: str, threads: int) -> RunReport:
    """Parse a complete run output; raises SysbenchOutputError naming what is missing."""
    series: dict[str, list[float]] = {
        key: [] for key in ("t", "tps", "qps", "p95_ms", "errors_per_s", "reconnects_per_s")
    }
    histogram: list[tuple[float, int]] = []
    counters: dict[str, tuple[float, float | None]] = {}
    latency: dict[str, float] = {}
    section = ""
    for line in text.splitlines():
        if match := _INTERVAL.match(line):
            series["t"].append(float(match["t"]))
            series["tps"].append(float(match["tps"]))
            series["qps"].append(float(match["qps"]))
            series["p95_ms"].append(float(match["lat"]))
            series["errors_per_s"].append(float(match["err"]))
            series["reconnects_per_s"].append(float(match["reconn"]))
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
            histogram.append((float(match["value"]), int(match["count"])))
        elif section in ("sql", "general") and (match := _COUNTER.match(line)):
            rate = float(match["rate"]) if match["rate"] else None
            counters[match["name"].strip()] = (float(match["value"]), rate)
        elif section == "latency" and (match := _LATENCY.match(line)):
            latency[match["name"]] = float(match["value"])

    required = ["read", "write", "other", "transactions", "queries", "ignored errors",
                "reconnects", "total time", "total number of events"]  # fmt: skip
    missing = [name for name in required if name not in counters]
    missing += [name for name in ("min", "avg", "max") if name not in latency]
    if missing:
        raise SysbenchOutputError(f"sysbench output lacks: {', '.join(missing)}")
    if not histogram:
        raise SysbenchOutputError("sysbench output has no latency histogram (--histogram=on)")

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
            "p95": percentile_from_histogram(histogram, 95),
            "p99": percentile_from_histogram(histogram, 99),
        },
        histogram=histogram,
        series=series,
    )


def printed_percentile(text: str) -> float | None:
    """The percentile line sysbench prints itself (default 95th); used to cross-check ours."""
    match = re.search(r"^\s+\d+th percentile:\s+([\d.]+)$", text, re.MULTILINE)
    return float(match[1]) if match else None
