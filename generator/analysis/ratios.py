"""Campaign comparisons as plain data: variant order, the rules of a ratio to the base variant,
ratio tables of repeat medians by thread level.

Pure functions over validated run documents; Hugo templates render what they return.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

from contract import RunDocument, Step
from generator.analysis import stats as _stats
from generator.analysis.evidence import (
    MEASURED,
    NO_INTERVAL,
    ORDER,
    interval_reason,
    weakest,
)
from generator.analysis.repeats import spread, spread_by_threads
from generator.analysis.trust import kept_series

# When a ratio is news (beyond ±5 % and outside the noise) is generator/analysis/stats.py's rule.
RATIO_DECIMALS = 2
SPREAD_DECIMALS = 3  # a spread is shown in % with one decimal
# What a cell reports for a thread level (or test) a variant did not reach.
NO_STEP = spread([])
# Printed beside a ratio so the verdict does not rest on colour alone; "noise": beyond the band
# but inside the interval, not coloured.
VERDICT_MARKERS = {"better": "\u25b2", "worse": "\u25bc", "same": "", "noise": "\u2248"}
# Beyond the band where imported evidence rules an interval out: not judged, not coloured.
UNJUDGED = "unjudged"


# A step's figures; None where an imported step lacks one (a summary table's cell, a log
# without percentiles): such a step does not count for that metric.
def _p95_ms(step: Step) -> float | None:
    return step.get("latency_ms", {}).get("p95")


def step_tps(step: Step) -> float | None:
    return step.get("tps")


def step_qps(step: Step) -> float | None:
    return step.get("qps", {}).get("total")


class Metric(NamedTuple):
    label: str
    unit: str
    value_of: Callable[[Step], float | None]  # a step's value, None when not recorded
    higher_is_better: bool
    series: str  # its per-second series in step.series (for the noise of a single repeat)


METRICS: dict[str, Metric] = {
    "tps": Metric("Transactions per second", "TPS", step_tps, True, "tps"),
    "p95": Metric("95th percentile latency", "ms", _p95_ms, False, "p95_ms"),
}
# Campaign pages show the two above; the compare page lets the reader pick QPS as well.
QPS_METRIC = Metric("Queries per second", "QPS", step_qps, True, "qps")


def shown_metrics(runs: list[RunDocument]) -> list[str]:
    """The metrics a campaign workload's ratio tables show: TPS and p95; for a published table
    in QPS (as Callaghan prints his: no run gives TPS, one gives QPS), QPS instead of TPS and p95
    only when a run gives it."""
    steps = [step for run in runs for step in cast(list[Step], run["steps"])]
    if any(step_tps(step) is not None for step in steps) or not any(
        step_qps(step) is not None for step in steps
    ):
        return list(METRICS)
    return ["qps", *(["p95"] if any(_p95_ms(step) is not None for step in steps) else [])]


def variant_order(runs: list[RunDocument]) -> list[str]:
    """Variants as the campaign file lists them, then any unlisted ones alphabetically. The
    hosts of a fleet share a campaign but each lists its own variants (<host>.<variant>): their
    lists follow one another, in run id order, so every host keeps the file's order."""
    present = {run["variant"] for run in runs}
    declared: list[str] = []
    for run in sorted(runs, key=lambda run: run["id"]):
        declared += [v for v in run["campaign"].get("variant_order", []) if v not in declared]
    ordered = [variant for variant in declared if variant in present]
    return ordered + sorted(present - set(ordered))


def latest_by_variant(runs: list[RunDocument]) -> dict[str, RunDocument]:
    """One run per variant, the latest one."""
    chosen: dict[str, RunDocument] = {}
    for run in sorted(runs, key=lambda run: (run["started_at"], run["id"])):
        chosen[run["variant"]] = run
    return chosen


def repeat_spread(stats: dict[str, Any]) -> float | None:
    """high / low - 1 over a cell's repeats; None when it rests on a single run."""
    if stats["repeats"] < 2 or stats["low"] <= 0:
        return None
    return float(round(stats["high"] / stats["low"] - 1, SPREAD_DECIMALS))


def ratio_state(value: float | None, ratio: float | None) -> str:
    """How a ratio cell reads: 'ratio', 'missing' (the variant has no value: "—") or 'n/a' (a
    value but no base to divide by, or a base of zero)."""
    if value is None:
        return "missing"
    return "n/a" if ratio is None else "ratio"


def summaries(stats: dict[str, Any]) -> dict[str, list[float] | None]:
    """A cell's stats (repeats.spread, with "seconds" when recorded) as stats.sample_summaries."""
    return _stats.sample_summaries(stats["values"], stats.get("seconds") or [])


def ratio_interval(
    stats: dict[str, Any], base: dict[str, Any], ratio: float
) -> dict[str, Any] | None:
    """The 95 % interval of a cell's ratio (generator/analysis/stats.py's pair_interval) around
    its unrounded value: from the repeats when both sides have two or more, else from the kept
    per-second samples when both have enough."""
    return _stats.pair_interval(summaries(base), summaries(stats), ratio)


def stat_cell(
    variant: str,
    stats: dict[str, Any],
    base: dict[str, Any] | None,
    higher_is_better: bool,
    evidence: tuple[str, str] = (MEASURED, MEASURED),
) -> dict[str, Any]:
    """One variant's cell: the median of its counted runs with their range and spread (stats
    from repeats.spread / spread_by_threads, or NO_STEP), the ratio of that median to the
    base's (base: the base variant's stats; None or stats itself for the base's own cell), its
    interval and the verdict by generator/analysis/stats.py's rule. evidence: what the cell's
    and the base's runs rest on (analysis/evidence.py); an imported side without an interval
    names why in "no_interval" and is UNJUDGED beyond the band, never coloured."""
    value = stats["median"]
    is_base = base is None or base is stats
    base_median = stats["median"] if base is None or is_base else base["median"]
    ratio = interval = no_interval = None
    if value is not None and base_median:
        ratio = round(value / base_median, RATIO_DECIMALS)
        if base is not None and not is_base:
            no_interval = interval_reason(*evidence)
            if no_interval is None:
                interval = ratio_interval(stats, base, value / base_median)
            if interval is None:
                no_interval = NO_INTERVAL.get(min(evidence, key=ORDER.index))
    verdict = "same" if is_base else _stats.verdict(ratio, interval, higher_is_better)
    if no_interval and verdict == "noise":
        verdict = UNJUDGED
    spread = repeat_spread(stats)
    return {
        "variant": variant,
        "value": value,
        "low": stats["low"],
        "high": stats["high"],
        "repeats": stats["repeats"],
        "spread": spread,
        "ratio": ratio,
        "interval": interval,
        "state": ratio_state(value, ratio),
        "verdict": verdict,
        "marker": VERDICT_MARKERS.get(verdict, ""),
        "evidence": evidence[0],
        "no_interval": no_interval,
    }


def ratio_table(
    counted: dict[str, list[RunDocument]], variants: list[str], metric: str
) -> dict[str, Any]:
    """Rows by thread level; each cell holds a variant's median over its counted runs (see
    repeats.counted_runs), their range and spread, and the ratio of medians to variants[0]."""
    label, unit, value_of, higher_is_better, series = {**METRICS, "qps": QPS_METRIC}[metric]

    def seconds_of(run: RunDocument, step: Step) -> list[float]:
        return kept_series(run, step, series)

    stats = {
        variant: spread_by_threads(counted[variant], value_of, seconds_of) for variant in variants
    }
    evidence = {variant: weakest(counted[variant]) for variant in variants}
    threads = sorted({level for by_threads in stats.values() for level in by_threads})
    rows = []
    for level in threads:
        base = stats[variants[0]].get(level, NO_STEP)
        cells = [
            stat_cell(
                variant,
                stats[variant].get(level, NO_STEP),
                base,
                higher_is_better,
                (evidence[variant], evidence[variants[0]]),
            )
            for variant in variants
        ]
        rows.append({"threads": level, "cells": cells})
    return {
        "metric": metric,
        "label": label,
        "unit": unit,
        "higher_is_better": higher_is_better,
        "base": variants[0],
        "variants": variants,
        "most_repeats": most_repeats(rows),
        "evidence": evidence,
        "rows": rows,
    }


def most_repeats(rows: list[dict[str, Any]]) -> int:
    """The largest repeat count of any cell: above 1, tables show ranges and spreads."""
    return max((cell["repeats"] for row in rows for cell in row["cells"]), default=0)
