"""A recurring campaign's history: every run of one campaign file (by its name) on one host, as
a series over time per workload, variant, level (thread count, or Insert Benchmark step) and
metric; the change points found in each series; and the known changes its owner explained.

A point is one occasion: one campaign of that name (a night's run of the file), its value the
median of the step's figure over the campaign's passes, with the 95 % interval of that median
(from the passes when there are two or more, else from the pass's kept per-second samples;
stats.value_interval); passes whose step the step verdict flags (analysis/verdict.py) are left
out of it when at least half of them are not, as a campaign cell leaves them out
(ratios.keeps_enough). Passes of one occasion share a server start, a datadir and an hour of
the host's life, so they are not independent samples of the occasion-to-occasion noise: the
occasion, not the pass, is what the detection counts. A series belongs to one host
(generator/analysis/hosts.py): runs on different machines never share one, so no change is
found across hosts. A series needs two campaigns of its name on its host.

Change points are Apache Otava's (the successor of Hunter, the method of Fleming et al. 2023):
`otava.analysis.compute_change_points` splits the series with e-divisive over sliding windows
and keeps a split only when Student's t-test between the two segments gives a p-value under
MAX_PVALUE and the means differ by more than the site's ±5 % band (stats.BAND). An occasion
with too few unflagged passes is shown but left out of the series the detection reads, so no
change is ever claimed on or between flagged steps. A change
point found is then judged like a campaign cell: the ratio of the medians after and before, with
its 95 % interval from the occasions of the two segments (stats.ratio_interval); it is reported
only when stats.verdict calls it better or worse. A change at an occasion a known change names
(contract.KnownChange: known-changes.toml) carries its reason.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable
from dataclasses import dataclass

from otava.analysis import compute_change_points  # type: ignore[import-untyped]

from contract import (
    AnyStep,
    KnownChange,
    RunDocument,
    ibench_steps,
    is_ibench,
    level_steps,
    threads_label,
)
from contract.fields import StepFigure, step_figure
from generator.analysis import stats
from generator.analysis.hosts import host_of
from generator.analysis.ratios import keeps_enough
from generator.analysis.trust import kept_series, run_trust

# Otava's significance: the largest p-value of the t-test between two segments that still
# splits them (its own default, 0.001: about one false split per thousand tests of pure noise).
MAX_PVALUE = 0.001
# Otava's sliding window (occasions): long enough to hold a month of nightly campaigns, short
# enough that an old level does not hide a new change (its default is 50).
WINDOW = 30


@dataclass(frozen=True)
class HistoryMetric:
    name: str
    unit: str
    figure: StepFigure
    series: str  # its per-second series (contract.fields.step_series)
    higher_is_better: bool


SYSBENCH_METRICS = (
    HistoryMetric("tps", "TPS", "tps", "tps", True),
    HistoryMetric("p95", "ms", "latency_ms.p95", "p95_ms", False),
)
IBENCH_METRICS = {
    "load": HistoryMetric("inserts/s", "inserts/s", "inserts_per_s", "inserts_per_s", True),
    "write": HistoryMetric("inserts/s", "inserts/s", "inserts_per_s", "inserts_per_s", True),
    "query": HistoryMetric("queries/s", "queries/s", "queries_per_s", "queries_per_s", True),
}


@dataclass(frozen=True)
class SeriesKey:
    campaign: str  # the campaign file's name
    host: str  # hosts.host_of(run)["name"]
    workload: str
    variant: str
    level: str  # "16 threads" (threads_label), or an Insert Benchmark step ("l.i1")
    metric: str


@dataclass(frozen=True)
class Point:
    """One occasion of a series: a campaign's passes at this level."""

    campaign_id: str
    started_at: str  # its first pass's start
    commit: str | None  # the harness commit its first pass recorded
    server_version: str
    value: float  # the median over its passes (its unflagged ones, when enough: _point)
    low: float | None  # the 95 % interval of that median; None when it has none
    high: float | None
    runs: tuple[str, ...]  # its passes' run ids, in time order
    flagged: bool  # fewer than half its passes are unflagged: shown, never part of a change


@dataclass(frozen=True)
class Side:
    """One segment of a series next to a change: its occasions' median and their count."""

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
    last_before: Point  # the last unflagged occasion before the change
    first_after: Point  # the first unflagged occasion after it: the one that shows the change
    known: str | None  # the reason of the known change naming first_after, if any


@dataclass(frozen=True)
class History:
    key: SeriesKey
    higher_is_better: bool
    unit: str
    points: list[Point]  # in time order
    changes: list[ChangePoint]
    known: list[KnownChange]  # the known changes that apply to this series
    threads: int | None  # the level's thread count; None for an Insert Benchmark step


@dataclass(frozen=True)
class _Pass:
    run: RunDocument
    value: float
    seconds: list[float]  # the kept per-second samples of the metric's series
    flagged: bool


def _levels(run: RunDocument) -> Iterable[tuple[str, int | None, HistoryMetric, _Pass]]:
    """(level, its thread count for a sysbench step, metric, pass) of every step of the run the
    history follows."""
    flagged_at = {
        str(entry.get("threads", entry.get("step"))): bool(entry["flags"])
        for entry in run_trust(run)
    }
    found: list[tuple[str, int | None, HistoryMetric, AnyStep]] = []
    if is_ibench(run):
        for ibench_step in ibench_steps(run):
            if (metric := IBENCH_METRICS.get(ibench_step["kind"])) is not None:
                found.append((ibench_step["step"], None, metric, ibench_step))
    else:
        for level in level_steps(run):
            count: int = level["threads"]
            found += [(threads_label(count), count, m, level) for m in SYSBENCH_METRICS]
    for label, threads, metric, step in found:
        value = step_figure(step, metric.figure)
        if value is None:
            continue
        seconds = kept_series(run, step, metric.series)  # type: ignore[arg-type]
        flagged = flagged_at.get(str(threads) if threads is not None else label, False)
        yield label, threads, metric, _Pass(run, value, seconds, flagged)


def _point(passes: list[_Pass]) -> Point:
    """The occasion of these passes, judged as a campaign cell is (ratios.keeps_enough): on its
    unflagged passes when at least half of them are, else flagged, from all of them."""
    unflagged = [one for one in passes if not one.flagged]
    fit = keeps_enough(len(passes), len(passes) - len(unflagged))
    counted = unflagged if fit else passes
    first = passes[0].run
    values = [one.value for one in counted]
    value = statistics.median(values)
    seconds = [second for one in counted for second in one.seconds]
    interval = stats.value_interval(stats.sample_summaries(values, seconds), value)
    return Point(
        first["campaign"]["id"],
        first["started_at"],
        first["harness"].get("git_commit"),
        first["server"]["version"],
        value,
        interval[0] if interval else None,
        interval[1] if interval else None,
        tuple(one.run["id"] for one in passes),
        not fit,
    )


@dataclass(frozen=True)
class _Series:
    metric: HistoryMetric
    threads: int | None
    points: list[Point]


def series_of(runs: Iterable[RunDocument]) -> dict[SeriesKey, _Series]:
    """Every series of the recurring campaigns among runs, occasions in time order."""
    ordered = sorted(runs, key=lambda run: (run["started_at"], run["id"]))
    occasions: dict[str, set[str]] = {}
    for run in ordered:
        occasions.setdefault(run["campaign"]["name"], set()).add(run["campaign"]["id"])
    passes: dict[SeriesKey, tuple[HistoryMetric, int | None, dict[str, list[_Pass]]]] = {}
    for run in ordered:
        name = run["campaign"]["name"]
        if len(occasions[name]) < 2:
            continue
        host = host_of(run)["name"]
        for level, threads, metric, one in _levels(run):
            key = SeriesKey(
                name, host, run["workload"]["name"], run["variant"], level, metric.name
            )
            by_occasion = passes.setdefault(key, (metric, threads, {}))[2]
            by_occasion.setdefault(run["campaign"]["id"], []).append(one)
    return {  # a host with one campaign of the name has no history there yet
        key: _Series(metric, threads, [_point(group) for group in by_occasion.values()])
        for key, (metric, threads, by_occasion) in passes.items()
        if len(by_occasion) >= 2
    }


def applies(known: KnownChange, key: SeriesKey) -> bool:
    """Whether the known change names this series (its campaign, and every narrowing it gives)."""
    if known["campaign"] != key.campaign:
        return False
    if "host" in known and known["host"] not in (key.host, key.host.split(" · ")[0]):
        return False
    fields = (
        ("workload", key.workload), ("variant", key.variant), ("level", key.level),
        ("metric", key.metric),
    )  # fmt: skip
    return all(known.get(field, value) == value for field, value in fields)


def change_points(
    key: SeriesKey,
    metric: HistoryMetric,
    points: list[Point],
    known: Iterable[KnownChange] = (),
) -> list[ChangePoint]:
    """The changes in one series (see the module's docstring), oldest first."""
    kept = [point for point in points if not point.flagged]
    values = [point.value for point in kept]
    if len(values) < 4:  # two occasions a side at least: a t-test needs a spread on each
        return []
    found, _ = compute_change_points(
        values, window_len=WINDOW, max_pvalue=MAX_PVALUE, min_magnitude=stats.BAND
    )
    reasons = {change["since"]: change["reason"] for change in known}
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
        first_after = kept[edges[position]]
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
                first_after,
                reasons.get(first_after.campaign_id),
            )
        )
    return changes


def histories(
    runs: Iterable[RunDocument],
    campaign: str | None = None,
    known: Iterable[KnownChange] = (),
) -> list[History]:
    """The history of every series of the recurring campaigns (or of the one named), sorted by
    campaign, host, workload, variant, level and metric as they first appear; known: the known
    changes of the results read (contract.load_known_changes)."""
    known = list(known)
    found = []
    for key, series in series_of(runs).items():
        if campaign is not None and key.campaign != campaign:
            continue
        own = [change for change in known if applies(change, key)]
        metric, points = series.metric, series.points
        changes = change_points(key, metric, points, own)
        found.append(
            History(
                key, metric.higher_is_better, metric.unit, points, changes, own, series.threads
            )
        )
    return found
