"""What a reader needs to know before trusting a campaign's numbers, as data an article shows
with the `trust` shortcode instead of stating it in its own words: the flagged steps by kind and
the cells they touch (generator/analysis/verdict.py), which workloads shared a server start
(generator/analysis/server_starts.py), where each variant's build came from
(generator/analysis/build_origin.py) and the hosts.

Only the runs a cell's numbers rest on are counted (analysis/repeats.counted_runs): a run
replaced by a re-run of its pass changes no figure an article quotes. A prose sentence such as
"none carried write debt" goes stale the day a rule changes; this summary is recomputed from the
documents on every build.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from generator.analysis.build_origin import build_of
from generator.analysis.hosts import hosts_of
from generator.analysis.ratios import variant_order
from generator.analysis.repeats import counted_runs, group_by_cell, repeat_index
from generator.analysis.server_starts import server_starts
from generator.analysis.verdict import FLAG_KINDS, flag_counts


def _at(entry: dict[str, Any]) -> str:
    """Where in a run a step is: "16 threads", "1 thread", or an Insert Benchmark step name."""
    if "step" in entry:
        return str(entry["step"])
    threads = entry["threads"]
    return f"{threads} thread{'' if threads == 1 else 's'}"


def _flagged_cells(
    runs: list[RunDocument], trust: dict[str, list[dict[str, Any]]], kind: str
) -> list[dict[str, Any]]:
    """The cells (workload, variant, thread level or step) with a step of this kind, each with
    the passes whose step carries it; by workload, variant, then the step's place in its run."""
    variants = variant_order(runs)
    cells: dict[tuple[str, int, int, str], list[int]] = {}
    for run in runs:
        for position, entry in enumerate(trust[run["id"]]):
            if any(flag["kind"] == kind for flag in entry["flags"]):
                where = (run["workload"]["name"], variants.index(run["variant"]), position)
                cells.setdefault((*where, _at(entry)), []).append(repeat_index(run))
    return [
        {"workload": workload, "variant": variants[variant], "at": at, "passes": sorted(passes)}
        for (workload, variant, _, at), passes in sorted(cells.items())
    ]


def _shared_starts(runs: list[RunDocument]) -> dict[str, Any]:
    """The sequences of workloads that ran one after another on one server start, each with
    how many starts ran it; and how many runs had a start of their own."""
    sequences: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
    by_id = {run["id"]: run for run in runs}
    alone = 0
    for start in server_starts(runs).values():
        if len(start["runs"]) == 1:
            alone += 1
            continue
        workloads = tuple(by_id[run_id]["workload"]["name"] for run_id in start["runs"])
        sequences.setdefault(workloads, set()).add(tuple(start["runs"]))
    return {
        "shared": [
            {"workloads": list(workloads), "starts": len(starts)}
            for workloads, starts in sequences.items()
        ],
        "alone": alone,
    }


def _builds(runs: list[RunDocument], variants: list[str]) -> list[dict[str, Any]]:
    """Each distinct build description with the variants that ran it, in variant order."""
    builds: dict[str, dict[str, Any]] = {}
    for variant in variants:
        for run in runs:
            if run["variant"] != variant:
                continue
            build = build_of(run)
            entry = builds.setdefault(
                build["description"], {"variants": [], "derived": build["derived"]}
            )
            if variant not in entry["variants"]:
                entry["variants"].append(variant)
    return [{"description": text, **entry} for text, entry in builds.items()]


def trust_summary(
    runs: list[RunDocument], trust: dict[str, list[dict[str, Any]]]
) -> dict[str, Any]:
    """The summary for one campaign's runs; trust: each run's step trust by run id
    (generator/analysis/trust.py)."""
    counted = [run for cell in group_by_cell(runs).values() for run in counted_runs(cell)]
    counted.sort(key=lambda run: (run["workload"]["name"], run["variant"], repeat_index(run)))
    measured = [run for run in counted if "origin" not in run]
    imported = [run for run in counted if "origin" in run]
    steps = [entry for run in counted for entry in trust[run["id"]]]
    counts = flag_counts([entry["flags"] for entry in steps])
    return {
        "runs": len(counted),
        "repeated": any("repeat" in run for run in counted),  # whether passes are worth naming
        "imported_runs": len(imported),
        "unjudged_runs": sum(1 for run in counted if not trust[run["id"]]),
        "steps": len(steps),
        "fit_steps": sum(1 for entry in steps if not entry["flags"]),
        "flags": [
            {
                "kind": kind,
                "label": FLAG_KINDS[kind][0],
                "legend": FLAG_KINDS[kind][1],
                "steps": count,
                "cells": _flagged_cells(counted, trust, kind),
            }
            for kind, count in counts.items()
        ],
        "starts": _shared_starts(measured),
        "builds": _builds(measured, variant_order(measured)) if measured else [],
        "hosts": [host["name"] for host in hosts_of(counted)],
    }
