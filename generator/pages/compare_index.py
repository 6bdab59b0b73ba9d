"""The compare page's index: every run as a few numbers per thread level, every campaign cell
(campaign, variant, workload) as its passes merged the way its campaign page merges them, the
campaigns as lists of the runs their pages count, and the rules the page applies (ratio band,
config groups).

The page's JS fetches it once and computes ratios for whatever the reader picks, so the index
carries the thresholds instead of the JS restating them. Per-second series and server variables
stay in each run's run.json, fetched only for the runs on screen; what a ratio's interval needs
of them and of the repeats (generator/analysis/stats.py's sample_summaries, which the page
combines by pair_interval's rule) and the t quantiles are here, and so is each run's environment
(generator/analysis/drift.py's fields), shared by the runs that had it.

Flags (generator/analysis/verdict.py) ride along compactly: a step's kinds as a bit mask, bit i
for the i-th of index.flags.kinds (FLAG_KINDS order), 0 for a fit step. A run whose steps carry
any has "flags", a mask per step; a cell with a flagged pass has "flags", per thread level the
masks of its passes, and "unflagged", its steps, repeats and seconds merged over the unflagged
passes only: the page judges a ratio on those or greys it by analysis/ratios.py's rule, ported
to js/compare/flags.js.
"""

from __future__ import annotations

from functools import cache, partial
from typing import Any

from contract import RunDocument, Step, sysbench_steps
from contract.fields import pass_index
from generator.analysis import stats as _stats
from generator.analysis.config_diff import CONFIG_RULES
from generator.analysis.drift import DRIFT_FIELDS, field_values
from generator.analysis.evidence import MEASURED, NO_INTERVAL, SUMMARY, evidence_of, weakest
from generator.analysis.ratios import (
    METRICS,
    NO_STEP,
    QPS_METRIC,
    RATIO_DECIMALS,
    VERDICT_MARKERS,
    step_flags_of,
    variant_order,
)
from generator.analysis.repeats import counted_runs, group_by_cell, repeat_index, spread_by_threads
from generator.analysis.trust import kept_series, run_trust
from generator.analysis.verdict import FLAG_KINDS

# Metric name on the page -> its analysis.ratios.Metric.
COMPARE_METRICS = {"tps": METRICS["tps"], "qps": QPS_METRIC, "p95": METRICS["p95"]}
# Each step is one array: threads, then the metrics in this order.
STEP_FIELDS = ["threads", *COMPARE_METRICS]
# sysbench prints 2 decimals for TPS and 2-3 for latency in ms; the median of an even number
# of passes (two unflagged of three) one more
VALUE_DECIMALS = 4


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, VALUE_DECIMALS)


def _step_values(step: Step) -> list[float | None]:
    """threads, then each metric's value: null where an imported step lacks it."""
    values = [metric.value_of(step) for metric in COMPARE_METRICS.values()]
    return [step["threads"], *(_rounded(value) for value in values)]


def _step_seconds(run: RunDocument, step: Step) -> list[list[float] | None]:
    """Per metric, in COMPARE_METRICS order: the series_summary of its kept per-second samples."""
    return [
        _stats.series_summary(kept_series(run, step, metric.series))
        for metric in COMPARE_METRICS.values()
    ]


def flag_mask(flags: list[dict[str, Any]]) -> int:
    """A step's flag kinds as bits, bit i for the i-th kind of FLAG_KINDS."""
    kinds = {flag["kind"] for flag in flags}
    return sum(1 << bit for bit, kind in enumerate(FLAG_KINDS) if kind in kinds)


def _merged(
    by_metric: list[dict[int, dict[str, Any]]], threads: list[int], unflagged: bool, summary: bool
) -> dict[str, Any]:
    """steps, repeats and seconds of a cell's passes at each level, over its unflagged passes
    only when unflagged (a level without a flagged pass has no "unflagged": all of them)."""

    def found(by_threads: dict[int, dict[str, Any]], level: int) -> dict[str, Any]:
        stats = by_threads.get(level, NO_STEP)
        return stats.get("unflagged", stats) if unflagged else stats

    summaries = [
        [
            _stats.sample_summaries(
                found(by_threads, level)["values"], found(by_threads, level).get("seconds", [])
            )
            for by_threads in by_metric
        ]
        for level in threads
    ]
    if summary:  # published figures: their repeats measure no noise either
        summaries = [[{**side, "repeats": None} for side in step] for step in summaries]
    return {
        "steps": [
            [level, *(_rounded(found(by_threads, level)["median"]) for by_threads in by_metric)]
            for level in threads
        ],
        "repeats": [[side["repeats"] for side in step] for step in summaries],
        "seconds": [[side["seconds"] for side in step] for step in summaries],
    }


def _cell_entry(cell: list[RunDocument], trust: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """A campaign cell's counted passes merged as its campaign page merges them
    (repeats.spread_by_threads, read as analysis/ratios.py reads it): per thread level the
    median of each metric, how many passes reached it, and per metric the two sides of
    stats.sample_summaries: "repeats" (of the passes' values) and "seconds" (of their pooled
    kept seconds); with a flagged pass, "flags" and "unflagged" (module docstring)."""
    runs = counted_runs(cell)
    flags_of = step_flags_of(trust)
    by_metric = [
        spread_by_threads(
            runs, metric.value_of, partial(kept_series, name=metric.series), flags_of
        )
        for metric in COMPARE_METRICS.values()
    ]
    # A measured step has every metric; an imported one may lack some (NO_STEP: null).
    threads = sorted(set.union(*(set(by_threads) for by_threads in by_metric)))
    # The passes at a level: those of the metric most of them have.
    widest = [
        max(
            (by_threads.get(level, NO_STEP) for by_threads in by_metric),
            key=lambda s: s["repeats"],
        )
        for level in threads
    ]
    evidence = weakest(runs)
    first = runs[0]
    entry: dict[str, Any] = {
        "campaign": first["campaign"]["id"],
        "variant": first["variant"],
        "workload": first["workload"]["name"],
        "runs": [run["id"] for run in runs],
        **_merged(by_metric, threads, False, evidence == SUMMARY),
        "passes": [stats["repeats"] for stats in widest],
    }
    masks = [[flag_mask(flags) for flags in stats.get("flags", [])] for stats in widest]
    if any(any(level) for level in masks):
        entry["flags"] = masks
        entry["unflagged"] = _merged(by_metric, threads, True, evidence == SUMMARY)
    if evidence != MEASURED:  # measured cells' entries stay as they were
        entry["evidence"] = evidence
    return entry


@cache
def _t_table() -> tuple[float, ...]:
    """stats.t_table once per process: ~80 ms of scipy, and every campaign's index holds it."""
    return tuple(_stats.t_table())


def _campaign_runs(runs: list[RunDocument]) -> dict[str, list[RunDocument]]:
    by_campaign: dict[str, list[RunDocument]] = {}
    for run in runs:
        by_campaign.setdefault(run["campaign"]["id"], []).append(run)
    return by_campaign


def _run_entry(
    run: RunDocument, environment: int, trust: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    repeat = pass_index(run)
    entry: dict[str, Any] = {
        "id": run["id"],
        "campaign": run["campaign"]["id"],
        "variant": run["variant"],
        "label": run["variant"] if repeat is None else f"{run['variant']} #{repeat}",
        "pass": repeat,
        "workload": run["workload"]["name"],
        "server": f"{run['server']['product']} {run['server']['version']}",
        "status": run["status"],
        "steps": [_step_values(step) for step in sysbench_steps(run)],
        "seconds": [_step_seconds(run, step) for step in sysbench_steps(run)],
        "environment": environment,
    }
    flags_of = step_flags_of(trust)
    masks = [flag_mask(flags_of(run, step)) for step in sysbench_steps(run)]
    if any(masks):
        entry["flags"] = masks
    if "origin" in run:  # measured runs' entries stay as they were
        entry["evidence"] = evidence_of(run)
    if "file" in run.get("profile", {}):  # js/compare/profiles.js fetches its shares
        entry["profiled"] = True
    return entry


def _environments(runs: list[RunDocument]) -> tuple[list[list[str]], list[int]]:
    """The distinct environments (field_values) of the runs, and each run's position in them."""
    distinct: list[list[str]] = []
    positions = []
    for run in runs:
        values = field_values(run)
        if values not in distinct:
            distinct.append(values)
        positions.append(distinct.index(values))
    return distinct, positions


def compare_index(runs: list[RunDocument]) -> dict[str, Any]:
    """The index as plain data; runs in campaign, variant (campaign file order), workload,
    pass order, so the first run of a selection is its campaign's base variant; cells of two
    runs or more (a cell of one is its run)."""
    campaigns, ordered, cells = [], [], []
    trust: dict[str, list[dict[str, Any]]] = {run["id"]: run_trust(run) for run in runs}
    for campaign_id, mine in sorted(_campaign_runs(runs).items()):
        variants = variant_order(mine)

        def position(run: RunDocument, variants: list[str] = variants) -> tuple[int, str, int]:
            return (variants.index(run["variant"]), run["workload"]["name"], repeat_index(run))

        mine = sorted(mine, key=lambda run: (*position(run), run["started_at"], run["id"]))
        ordered += mine
        merged = [_cell_entry(cell, trust) for cell in group_by_cell(mine).values()]
        cells += [cell for cell in merged if len(cell["runs"]) > 1]  # one run: its own entry
        counted = {run_id for cell in merged for run_id in cell["runs"]}
        campaigns.append(
            {
                "id": campaign_id,
                "title": mine[0]["campaign"]["title"],
                "base": variants[0],
                "runs": [run["id"] for run in mine if run["id"] in counted],
            }
        )
    environments, positions = _environments(ordered)
    return {
        "ratio": {
            "noise": _stats.BAND,
            "decimals": RATIO_DECIMALS,
            "markers": VERDICT_MARKERS,
            "no_interval": NO_INTERVAL,
            "interval": {
                "confidence": _stats.CONFIDENCE,
                "decimals": _stats.INTERVAL_DECIMALS,
                "t": list(_t_table()),
            },
        },
        "metrics": {
            name: {"label": label, "unit": unit, "higher_is_better": higher}
            for name, (label, unit, _, higher, _) in COMPARE_METRICS.items()
        },
        "flags": {
            "kinds": list(FLAG_KINDS),
            "labels": [label for label, _ in FLAG_KINDS.values()],
        },
        "step_fields": STEP_FIELDS,
        "seconds_fields": list(COMPARE_METRICS),
        "drift": {"fields": [label for label, _ in DRIFT_FIELDS], "environments": environments},
        "config": CONFIG_RULES,
        "campaigns": campaigns,
        "runs": [
            _run_entry(run, position, trust)
            for run, position in zip(ordered, positions, strict=True)
        ],
        "cells": cells,
    }
