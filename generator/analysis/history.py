"""A recurring campaign's history: every run of one campaign file (by its name) on one host, as
a series over time per workload, variant, level (thread count, or Insert Benchmark step) and
metric; and the change points found in each series.

A point is one pass: the step's figure in one run, dated by the run's start. A series belongs
to one host (generator/analysis/hosts.py): runs on different machines never share one, so no
change is found across hosts. Only campaign names with runs from at least two campaigns (two
occasions) have a history.

Change points are Apache Otava's (the successor of Hunter, the method of Fleming et al. 2023):
`otava.analysis.compute_change_points` splits the series with e-divisive over sliding windows
and keeps a split only when Student's t-test between the two segments gives a p-value under
MAX_PVALUE and the means differ by more than the site's ±5 % band (stats.BAND). A point whose
step the step verdict flags (analysis/verdict.py) is shown but left out of the series the
detection reads, so no change is ever claimed on or between flagged steps. A change point found
is then judged like a campaign cell: the ratio of the medians after and before, with its 95 %
interval from the points of the two segments (stats.ratio_interval); it is reported only when
stats.verdict calls it better or worse.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from otava.analysis import compute_change_points  # type: ignore[import-untyped]

from contract import RunDocument, ibench_steps, is_ibench, level_steps
from contract.fields import StepFigure, step_figure
from generator.analysis import stats
from generator.analysis.hosts import host_of
from generator.analysis.trust import run_trust

# Otava's significance: the largest p-value of the t-test between two segments that still
# splits them (its own default, 0.001: about one false split per thousand tests of pure noise).
MAX_PVALUE = 0.001
# Otava's sliding window (points): long enough to hold several occasions of a campaign's passes,
# short enough that an old level does not hide a new change (its default is 50).
WINDOW = 30


@dataclass(frozen=True)
class HistoryMetric:
    name: str
    unit: str
    figure: StepFigure
    higher_is_better: bool


SYSBENCH_METRICS = (
    HistoryMetric("tps", "TPS", "tps", True),
    HistoryMetric("p95", "ms", "latency_ms.p95", False),
)
IBENCH_METRICS = {
    "load": HistoryMetric("inserts/s", "inserts/s", "inserts_per_s", True),
    "write": HistoryMetric("inserts/s", "inserts/s", "inserts_per_s", True),
    "query": HistoryMetric("queries/s", "queries/s", "queries_per_s", True),
}


@dataclass(frozen=True)
class SeriesKey:
    campaign: str  # the campaign file's name
    host: str  # hosts.host_of(run)["name"]
    workload: str
    variant: str
    level: str  # "16 threads", or an Insert Benchmark step ("l.i1")
    metric: str


@dataclass(frozen=True)
class Point:
    run_id: str
    campaign_id: str
    started_at: str
    commit: str | None
    server_version: str
    value: float
    flagged: bool  # its step carries a verdict flag: shown, never part of a change


@dataclass(frozen=True)
class Side:
    """One segment of a series next to a change: its points' median and their count."""

    median: float
    points: int


@dataclass(frozen=True)
class ChangePoint:
    key: SeriesKey
    before: Side
    after: Side
    ratio: float  # after / before, medians
    low: float  # its 95 % interval
    high: float
    pvalue: float  # Otava's t-test between the segments
    direction: str  # stats.verdict's "better" or "worse"
    last_before: Point  # the last unflagged point before the change
    first_after: Point  # the first unflagged point after it: the run that shows the change


@dataclass(frozen=True)
class History:
    key: SeriesKey
    higher_is_better: bool
    unit: str
    points: list[Point]  # in time order (run start, then run id)
    changes: list[ChangePoint]


def _levels(run: RunDocument) -> Iterable[tuple[str, HistoryMetric, float | None, bool]]:
    """(level, metric, value, flagged) of every step of the run the history follows."""
    flagged_at = {
        str(entry.get("threads", entry.get("step"))): bool(entry["flags"])
        for entry in run_trust(run)
    }
    if is_ibench(run):
        for step in ibench_steps(run):
            metric = IBENCH_METRICS.get(step["kind"])
            if metric is not None:
                value = step_figure(step, metric.figure)
                yield step["step"], metric, value, flagged_at.get(step["step"], False)
        return
    for level in level_steps(run):
        threads = level["threads"]
        for metric in SYSBENCH_METRICS:
            value = step_figure(level, metric.figure)
            yield f"{threads} threads", metric, value, flagged_at.get(str(threads), False)


def _point(run: RunDocument, value: float, flagged: bool) -> Point:
    return Point(
        run["id"],
        run["campaign"]["id"],
        run["started_at"],
        run["harness"].get("git_commit"),
        run["server"]["version"],
        value,
        flagged,
    )


def series_of(runs: Iterable[RunDocument]) -> dict[SeriesKey, tuple[HistoryMetric, list[Point]]]:
    """Every series of the recurring campaigns among runs, points in time order."""
    ordered = sorted(runs, key=lambda run: (run["started_at"], run["id"]))
    occasions: dict[str, set[str]] = {}
    for run in ordered:
        occasions.setdefault(run["campaign"]["name"], set()).add(run["campaign"]["id"])
    found: dict[SeriesKey, tuple[HistoryMetric, list[Point]]] = {}
    for run in ordered:
        name = run["campaign"]["name"]
        if len(occasions[name]) < 2:
            continue
        host = host_of(run)["name"]
        for level, metric, value, flagged in _levels(run):
            if value is None:
                continue
            key = SeriesKey(
                name, host, run["workload"]["name"], run["variant"], level, metric.name
            )
            found.setdefault(key, (metric, []))[1].append(_point(run, value, flagged))
    return found


def change_points(key: SeriesKey, metric: HistoryMetric, points: list[Point]) -> list[ChangePoint]:
    """The changes in one series (see the module's docstring), oldest first."""
    kept = [point for point in points if not point.flagged]
    values = [point.value for point in kept]
    if len(values) < 4:  # two points a side at least: a t-test needs a spread on each
        return []
    found, _ = compute_change_points(
        values, window_len=WINDOW, max_pvalue=MAX_PVALUE, min_magnitude=stats.BAND
    )
    edges = [0, *(int(found_point.index) for found_point in found), len(values)]
    changes = []
    for position, found_point in enumerate(found, start=1):
        before = values[edges[position - 1] : edges[position]]
        after = values[edges[position] : edges[position + 1]]
        if len(before) < 2 or len(after) < 2:
            continue
        ratio = statistics.median(after) / statistics.median(before)
        interval = stats.ratio_interval(before, after, ratio, per_second=False)
        verdict = stats.verdict(ratio, interval, metric.higher_is_better)
        if interval is None or verdict not in ("better", "worse"):
            continue
        changes.append(
            ChangePoint(
                key,
                Side(statistics.median(before), len(before)),
                Side(statistics.median(after), len(after)),
                round(ratio, 4),
                interval["low"],
                interval["high"],
                float(found_point.stats.pvalue),
                verdict,
                kept[edges[position] - 1],
                kept[edges[position]],
            )
        )
    return changes


def histories(runs: Iterable[RunDocument], campaign: str | None = None) -> list[History]:
    """The history of every series of the recurring campaigns (or of the one named), sorted by
    campaign, host, workload, variant, level and metric as they first appear."""
    found = []
    for key, (metric, points) in series_of(runs).items():
        if campaign is not None and key.campaign != campaign:
            continue
        changes = change_points(key, metric, points)
        found.append(History(key, metric.higher_is_better, metric.unit, points, changes))
    return found
