"""Campaign comparisons as plain data: variant order, the rules of a ratio to the base variant,
ratio tables of repeat medians by thread level.

Pure functions over validated run documents; Hugo templates render what they return.
"""

from __future__ import annotations

from collections.abc import Callable

from generator._repeats import spread_by_threads

# Mark Callaghan's convention: a ratio within ±5 % of the base is noise, beyond it is news.
RATIO_NOISE = 0.05
RATIO_DECIMALS = 2
SPREAD_DECIMALS = 3  # a spread is shown in % with one decimal
# What a cell reports for a thread level (or test) a variant did not reach.
NO_STEP = {"median": None, "low": None, "high": None, "repeats": 0}
# Printed beside a coloured ratio so the verdict does not rest on colour alone.
VERDICT_MARKERS = {"better": "\u25b2", "worse": "\u25bc", "same": ""}


def _p95_ms(step: dict) -> float:
    return step["latency_ms"]["p95"]


def step_tps(step: dict) -> float:
    return step["tps"]


def step_qps(step: dict) -> float:
    return step["qps"]["total"]


# name -> (label, unit, value of a step, whether a larger value is an improvement)
METRICS: dict[str, tuple[str, str, Callable[[dict], float], bool]] = {
    "tps": ("Transactions per second", "TPS", step_tps, True),
    "latency": ("95th percentile latency", "ms", _p95_ms, False),
}
# Campaign pages show the two above; the compare page lets the reader pick QPS as well.
QPS_METRIC = ("Queries per second", "QPS", step_qps, True)


def variant_order(runs: list[dict]) -> list[str]:
    """Variants as the campaign file lists them, then any unlisted ones alphabetically."""
    present = {run["variant"] for run in runs}
    declared: list[str] = []
    for run in sorted(runs, key=lambda run: run["id"]):
        declared = run["campaign"].get("variant_order", [])
        if declared:
            break
    ordered = [variant for variant in declared if variant in present]
    return ordered + sorted(present - set(ordered))


def latest_by_variant(runs: list[dict]) -> dict[str, dict]:
    """One run per variant, the latest one."""
    chosen: dict[str, dict] = {}
    for run in sorted(runs, key=lambda run: (run["started_at"], run["id"])):
        chosen[run["variant"]] = run
    return chosen


def ratio_verdict(ratio: float | None, higher_is_better: bool) -> str:
    """'better', 'worse' or 'same' for a rounded ratio vs the base."""
    if ratio is None or 1 - RATIO_NOISE <= ratio <= 1 + RATIO_NOISE:
        return "same"
    return "better" if (ratio > 1) == higher_is_better else "worse"


def repeat_spread(stats: dict) -> float | None:
    """high / low - 1 over a cell's repeats; None when it rests on a single run."""
    if stats["repeats"] < 2 or stats["low"] <= 0:
        return None
    return round(stats["high"] / stats["low"] - 1, SPREAD_DECIMALS)


def ratio_state(value: float | None, ratio: float | None) -> str:
    """How a ratio cell reads: 'ratio', 'missing' (the variant has no value: "—") or 'n/a' (a
    value but no base to divide by, or a base of zero)."""
    if value is None:
        return "missing"
    return "n/a" if ratio is None else "ratio"


def stat_cell(
    variant: str, stats: dict, base_median: float | None, higher_is_better: bool
) -> dict:
    """One variant's cell: the median of its counted runs with their range and spread (stats
    from _repeats.spread_by_threads, or NO_STEP), and the ratio of that median to the base's."""
    value = stats["median"]
    ratio = None
    if value is not None and base_median:
        ratio = round(value / base_median, RATIO_DECIMALS)
    verdict = ratio_verdict(ratio, higher_is_better)
    spread = repeat_spread(stats)
    return {
        "variant": variant,
        "value": value,
        "low": stats["low"],
        "high": stats["high"],
        "repeats": stats["repeats"],
        "spread": spread,
        # Repeats that disagree by more than the noise band make the ratio noise too.
        "noisy": spread is not None and spread > RATIO_NOISE,
        "ratio": ratio,
        "state": ratio_state(value, ratio),
        "verdict": verdict,
        "marker": VERDICT_MARKERS[verdict],
    }


def ratio_table(counted: dict[str, list[dict]], variants: list[str], metric: str) -> dict:
    """Rows by thread level; each cell holds a variant's median over its counted runs (see
    _repeats.counted_runs), their range and spread, and the ratio of medians to variants[0]."""
    label, unit, value_of, higher_is_better = METRICS[metric]
    stats = {variant: spread_by_threads(counted[variant], value_of) for variant in variants}
    threads = sorted({level for by_threads in stats.values() for level in by_threads})
    rows = []
    for level in threads:
        base_median = stats[variants[0]].get(level, NO_STEP)["median"]
        cells = [
            stat_cell(variant, stats[variant].get(level, NO_STEP), base_median, higher_is_better)
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
        "rows": rows,
    }


def most_repeats(rows: list[dict]) -> int:
    """The largest repeat count of any cell: above 1, tables show ranges and spreads."""
    return max((cell["repeats"] for row in rows for cell in row["cells"]), default=0)
