"""Campaign comparisons as plain data: variant order, ratio tables of repeat medians vs a base,
config diff.

Pure functions over validated run documents; Hugo templates render what they return.
"""

from __future__ import annotations

from collections.abc import Callable

from generator._memory import memory_fit
from generator._repeats import counted_runs, group_by_cell, pass_list, spread_by_threads

# Mark Callaghan's convention: a ratio within ±5 % of the base is noise, beyond it is news.
RATIO_NOISE = 0.05
RATIO_DECIMALS = 2
SPREAD_DECIMALS = 3  # a spread is shown in % with one decimal
# What ratio_table reports for a thread level a variant did not reach.
_NO_STEP = {"median": None, "low": None, "high": None, "repeats": 0}


def _p95_ms(step: dict) -> float:
    return step["latency_ms"]["p95"]


def _tps(step: dict) -> float:
    return step["tps"]


# name -> (label, unit, value of a step, whether a larger value is an improvement)
METRICS: dict[str, tuple[str, str, Callable[[dict], float], bool]] = {
    "tps": ("Transactions per second", "TPS", _tps, True),
    "latency": ("95th percentile latency", "ms", _p95_ms, False),
}


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


def ratio_table(counted: dict[str, list[dict]], variants: list[str], metric: str) -> dict:
    """Rows by thread level; each cell holds a variant's median over its counted runs (see
    _repeats.counted_runs), their range and spread, and the ratio of medians to variants[0]."""
    label, unit, value_of, higher_is_better = METRICS[metric]
    stats = {variant: spread_by_threads(counted[variant], value_of) for variant in variants}
    threads = sorted({level for by_threads in stats.values() for level in by_threads})
    rows = []
    for level in threads:
        base_value = stats[variants[0]].get(level, _NO_STEP)["median"]
        cells = []
        for variant in variants:
            cell = stats[variant].get(level, _NO_STEP)
            value = cell["median"]
            ratio = None
            if value is not None and base_value:
                ratio = round(value / base_value, RATIO_DECIMALS)
            spread = repeat_spread(cell)
            cells.append(
                {
                    "variant": variant,
                    "value": value,
                    "low": cell["low"],
                    "high": cell["high"],
                    "repeats": cell["repeats"],
                    "spread": spread,
                    # Repeats that disagree by more than the noise band make the ratio noise too.
                    "noisy": spread is not None and spread > RATIO_NOISE,
                    "ratio": ratio,
                    "verdict": ratio_verdict(ratio, higher_is_better),
                }
            )
        rows.append({"threads": level, "cells": cells})
    return {
        "metric": metric,
        "label": label,
        "unit": unit,
        "higher_is_better": higher_is_better,
        "base": variants[0],
        "variants": variants,
        "most_repeats": max((cell["repeats"] for row in rows for cell in row["cells"]), default=0),
        "rows": rows,
    }


def config_diff(runs_by_variant: dict[str, dict], variants: list[str]) -> dict:
    """my.cnf options whose value differs between variants; None where a variant does not set it."""
    options_by_variant = {
        variant: runs_by_variant[variant]["server"].get("my_cnf_options", {})
        for variant in variants
    }
    names = sorted({name for options in options_by_variant.values() for name in options})
    rows = []
    for name in names:
        values = [options_by_variant[variant].get(name) for variant in variants]
        if len(set(values)) > 1:
            rows.append({"option": name, "values": values})
    return {"variants": variants, "rows": rows}


def summarize_campaign(runs: list[dict]) -> dict:
    """Everything a campaign page shows, for the runs sharing one campaign.id."""
    first = min(runs, key=lambda run: run["started_at"])
    variants = variant_order(runs)
    cells = group_by_cell(runs)
    workloads = []
    for workload in sorted({run["workload"]["name"] for run in runs}):
        by_variant = {
            variant: cell for (_, variant, name), cell in cells.items() if name == workload
        }
        present = [variant for variant in variants if variant in by_variant]
        counted = {variant: counted_runs(by_variant[variant]) for variant in present}
        workloads.append(
            {
                "name": workload,
                "variants": present,
                "cells": [
                    {
                        "variant": variant,
                        # Repeats share their data set, so any counted run stands for the cell.
                        "memory": memory_fit(counted[variant][0]),
                        "runs": pass_list(by_variant[variant]),
                    }
                    for variant in present
                ],
                "metrics": {metric: ratio_table(counted, present, metric) for metric in METRICS},
            }
        )
    # The config diff compares variants, so any workload's run of a variant stands for it.
    one_run_per_variant = latest_by_variant(runs)
    return {
        "id": first["campaign"]["id"],
        "name": first["campaign"]["name"],
        "title": first["campaign"]["title"],
        "description": first["campaign"].get("description", ""),
        "file": first["campaign"]["file"],
        "started_at": first["started_at"],
        "ended_at": max(run["ended_at"] for run in runs),
        "variants": variants,
        "base": variants[0],
        "run_ids": sorted(run["id"] for run in runs),
        "workloads": workloads,
        "config_diff": config_diff(one_run_per_variant, variants),
    }


def summarize_campaigns(runs: list[dict]) -> list[dict]:
    """One summary per campaign.id, in id order."""
    by_campaign: dict[str, list[dict]] = {}
    for run in runs:
        by_campaign.setdefault(run["campaign"]["id"], []).append(run)
    return [summarize_campaign(by_campaign[cid]) for cid in sorted(by_campaign)]
