"""The TPC-C-like report of a campaign: every (variant, workload) cell that ran the tpcc Lua
becomes one line, so one dataset of N warehouses and N datasets of one sit on the same chart
and in the same ratio table, the first line being the base.

Run pages read the run document's workload.tpcc and step.tpcc directly; this module only
builds what spans runs.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, WorkloadTpcc, whole_number
from generator.analysis.ratios import METRICS, ratio_table
from generator.analysis.repeats import counted_runs, group_by_cell, pass_list, spread_by_threads

REPORT_NAME = "tpcc-shapes"  # its figures live under figures/campaigns/<id>/<REPORT_NAME>/


def shape_label(shape: WorkloadTpcc) -> str:
    sets, scale = shape["table_sets"], shape["scale"]
    return (
        f"{sets} set{'s' if sets > 1 else ''} \N{MULTIPLICATION SIGN} {scale} warehouse{'s' if scale > 1 else ''}"
        f" ({shape['warehouses']} in all)"
    )


def _checks(runs: list[RunDocument]) -> dict[str, Any]:
    """Over the counted runs: did every check that ran pass, and which conditions failed."""
    failed, ran = set(), 0
    for run in runs:
        tpcc = run["workload"]["tpcc"]
        for check in (tpcc.get("check_after_load"), tpcc.get("check_after_run")):
            if check:
                ran += 1
                failed.update(check["failed"])
    return {"ran": ran, "passed": ran > 0 and not failed, "failed": sorted(failed, key=_order)}


def _order(condition: str) -> tuple[int, str]:
    number = whole_number(condition)
    return (number, "") if number is not None else (10**6, condition)


def tpcc_report(runs: list[RunDocument]) -> dict[str, Any] | None:
    """None when no run of the campaign is a tpcc run."""
    cells = group_by_cell(run for run in runs if "tpcc" in run["workload"])
    if not cells:
        return None
    several_variants = len({variant for _, variant, _ in cells}) > 1
    # Campaign order: the runner goes through workloads in file order within a variant.
    ordered = sorted(cells.items(), key=lambda item: min(r["started_at"] for r in item[1]))
    lines: list[dict[str, Any]] = []
    cells_out: list[dict[str, Any]] = []
    counted: dict[str, list[RunDocument]] = {}
    for (_, variant, workload), cell in ordered:
        runs_of_line = counted_runs(cell)
        shape = runs_of_line[0]["workload"]["tpcc"]
        name = f"{variant} · {workload}" if several_variants else workload
        counted[name] = runs_of_line
        tpmc = spread_by_threads(
            runs_of_line, lambda step: step.get("tpcc", {}).get("tpmc_like", {}).get("value")
        )
        lines.append(
            {
                "name": name,
                "variant": variant,
                "workload": workload,
                "shape": shape_label(shape),
                "mode": shape["mode"],
                "use_fk": shape["use_fk"],
                "trx_level": shape["trx_level"],
                "items_rule": shape["items_rule"],
                "checks": _checks(runs_of_line),
                "tpmc_like": [
                    {"threads": level, "median": round(stats["median"], 1)}
                    for level, stats in sorted(tpmc.items())
                ],
            }
        )
        # The shape of a workload summary's cells, for run links and the chart's drill-down.
        cells_out.append({"variant": name, "runs": pass_list(cell)})
    names = [line["name"] for line in lines]
    return {
        "name": REPORT_NAME,
        "line_kind": "dataset shape",
        "base": names[0],
        "lines": lines,
        "cells": cells_out,
        "all_checks_passed": all(line["checks"]["passed"] for line in lines),
        "metrics": {metric: ratio_table(counted, names, metric) for metric in METRICS},
    }
