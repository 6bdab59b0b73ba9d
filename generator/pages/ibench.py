"""The Insert Benchmark report in Mark Callaghan's form, for run pages and campaign pages: one
row per step (inserts/s, deletes/s, queries/s, cpu/op with the server's and the clients' own
apart (analysis/cpu_split.py), rKB/op, wKB/op, max response time, database size), the achieved background rate of the q steps against its target, and what the
per-step charts (generator/figures/ibench.py) need beside them.

A q step whose background insert rate fell below 95 % of its target did not measure what it
claims to: its cells are marked `sustained: false` and the templates grey them. A step whose
per-second headline rate was judged (generator/analysis/trust.py) carries its verdict, flags
included (generator/analysis/verdict.py), in its row; a campaign cell is a ratio cell like any
other (analysis/ratios.py stat_cell): judged on its runs' unflagged steps when enough remain,
else greyed, its flagged passes counted by kind (`flags`), and it counts the runs whose step is
unsteady (`unsteady_runs`).
"""

from __future__ import annotations

from typing import Any, Literal, cast

from contract import IbenchStep, ResponseHistogram, RunDocument, ibench_steps, is_ibench
from contract.fields import step_series
from generator.analysis.cpu_split import cpu_split
from generator.analysis.ratios import stat_cell, variant_order
from generator.analysis.repeats import counted_runs, group_by_cell, pass_list, spread
from generator.analysis.server_rate import server_rows_per_s
from generator.analysis.trust import ibench_kept, ibench_step_trust
from generator.hugo.site_contract import step_slug

Role = Literal["insert", "delete", "query"]
ROLES: tuple[Role, ...] = ("insert", "delete", "query")
RATES = {"insert": "inserts_per_s", "delete": "deletes_per_s", "query": "queries_per_s"}
MB = 1024 * 1024
# Histogram bucket labels for the harness's upper bounds (harness/workloads/ibench/worker_counters.py).
BUCKET_LABELS = {256: "≤256 µs", 1000: "≤1 ms", 4000: "≤4 ms", 16000: "≤16 ms",
                 64000: "≤64 ms", 256000: "≤256 ms", 1000000: "≤1 s", 4000000: "≤4 s",
                 16000000: "≤16 s"}  # fmt: skip


def headline(step: IbenchStep) -> tuple[float | None, str]:
    """The step's throughput in Callaghan's summary and its unit: rows inserted per second in
    l.i0/l.i1/l.i2, rows indexed per second in l.x, queries per second in the q steps."""
    kind = step["kind"]
    if kind == "query":
        return step.get("queries_per_s"), "queries/s"
    if kind == "index":
        return step.get("indexed_rows_per_s"), "indexed rows/s"
    if kind in ("load", "write"):
        return step.get("inserts_per_s"), "inserts/s"
    return None, ""


def sustained(step: IbenchStep) -> bool | None:
    """None where the step has no background target (l.* steps)."""
    background = step.get("background")
    return None if background is None else background["target_sustained"]


def _histograms(step: IbenchStep) -> dict[str, ResponseHistogram]:
    """Response-time histograms by role, for code that walks whichever roles ran."""
    return cast("dict[str, ResponseHistogram]", step.get("response_time", {}))


def step_row(step: IbenchStep) -> dict[str, Any]:
    """One line of the step summary table."""
    per_op = step.get("per_op", {})
    worst_us = [histogram["max_us"] for histogram in _histograms(step).values()]
    size = step.get("db_file_bytes") or step.get("db_bytes")
    value, unit = headline(step)
    cpu = cpu_split(step)
    return {
        "step": step["step"],
        "kind": step["kind"],
        "seconds": step["duration_s"],
        "headline": value,
        "headline_unit": unit,
        "inserts_per_s": step.get("inserts_per_s"),
        "server_rows_per_s": server_rows_per_s(step),
        "deletes_per_s": step.get("deletes_per_s"),
        "queries_per_s": step.get("queries_per_s"),
        "per_op": per_op.get("op"),
        "cpu_us_per_op": per_op.get("cpu_us"),
        "read_kb_per_op": per_op.get("read_kb"),
        "write_kb_per_op": per_op.get("write_kb"),
        "server_cpu_us_per_op": cpu and cpu.server.us_per_op,
        "client_cpu_us_per_op": cpu and cpu.client.us_per_op,
        # the server's figure derived from the per-second samples (the template marks it)
        "server_cpu_sampled": bool(cpu and cpu.server.sampled),
        "max_response_ms": round(max(worst_us) / 1000, 3) if worst_us else None,
        "db_mb": round(size / MB, 1) if size else None,
        "rows": step.get("rows"),
        "sustained": sustained(step),
        "steady": ibench_step_trust(step),
        "problems": step["problems"],
    }


def background_row(step: IbenchStep) -> dict[str, Any]:
    """Target vs achieved background rate of one q step."""
    background = step["background"]
    return {
        "step": step["step"],
        "target": background["target_inserts_per_s"],
        "inserts": background["achieved_inserts_per_s"],
        "deletes": background["achieved_deletes_per_s"],
        "ratio": background["ratio"],
        "sustained": background["target_sustained"],
    }


def histogram_rows(step: IbenchStep) -> list[dict[str, Any]]:
    """Per role, the share of statements in each response-time bucket."""
    rows = []
    for role in ROLES:
        histogram = step.get("response_time", {}).get(role)
        if not histogram or not histogram["calls"]:
            continue
        rows.append(
            {
                "role": role,
                "calls": histogram["calls"],
                "avg_us": histogram["avg_us"],
                "max_us": histogram["max_us"],
                "counts": histogram["counts"],
            }
        )
    return rows


def bucket_labels(step: IbenchStep) -> list[str]:
    """≤256 µs ... ≤16 s, then >16 s: the last count is what took longer than the last bound."""
    for histogram in _histograms(step).values():
        labels = [BUCKET_LABELS.get(b, f"≤{b} µs") for b in histogram["buckets_us"]]
        return [*labels, ">" + labels[-1][1:]]
    return []


def run_report(run: RunDocument) -> dict[str, Any]:
    """What the run page's Insert Benchmark section shows (data/ibench/<run>.json)."""
    measured = [step for step in ibench_steps(run) if step["kind"] != "flush"]
    return {
        "rows": [step_row(step) for step in ibench_steps(run)],
        "background": [background_row(step) for step in measured if "background" in step],
        "steps": [
            {
                "step": step["step"],
                "slug": step_slug(step["step"]),
                "rate_percentiles": step.get("rate_percentiles", {}),
                "buckets": bucket_labels(step),
                "histograms": histogram_rows(step),
            }
            for step in measured
            if step_series(step, "t")
        ],
    }


def _step_names(runs: list[RunDocument]) -> list[str]:
    """Measured steps in run order, as they first appear across the runs."""
    names: list[str] = []
    for run in runs:
        names += [
            s["step"] for s in ibench_steps(run) if s["kind"] != "flush" and s["step"] not in names
        ]
    return names


def _spread_of(found: list[IbenchStep]) -> dict[str, Any]:
    stats = spread([value for value, _ in map(headline, found) if value is not None])
    samples = [sample for step in found for sample in ibench_kept(step)]
    if samples:
        stats["seconds"] = samples
    return stats


def _flags(step: IbenchStep) -> list[dict[str, Any]]:
    """The step's verdict flags (analysis/verdict.py); none for a step not judged."""
    trust = ibench_step_trust(step)
    return trust["flags"] if trust else []


def headline_stats(found: list[IbenchStep]) -> dict[str, Any]:
    """spread() of the steps' headline values, with their kept per-second samples pooled (the
    noise of a comparison without repeats, generator/analysis/stats.py), each step's flags and,
    when some step has one, the same over the unflagged steps: analysis/ratios.py judges a cell
    on its unflagged passes, or greys it, by the rule it applies to every ratio cell."""
    stats = _spread_of(found)
    stats["flags"] = [_flags(step) for step in found]
    if any(stats["flags"]):
        stats["unflagged"] = _spread_of(
            [step for step, flags in zip(found, stats["flags"], strict=True) if not flags]
        )
    return stats


def _cell(variant: str, found: list[IbenchStep], base: dict[str, Any] | None) -> dict[str, Any]:
    """A variant's cell for one step: its median over the counted runs and the ratio to the
    base (stat_cell; base: the base variant's headline_stats, None for the base itself),
    marked unsustained where any of those runs missed the background target, with the count
    of those runs whose step failed the steady-state test."""
    stats = headline_stats(found)
    cell = stat_cell(variant, stats, base, True)
    flags = [sustained(step) for step in found]
    cell["sustained"] = None if not flags or None in flags else all(flags)
    cell["unsteady_runs"] = sum(1 for flags in stats["flags"] if "unsteady" in _kinds(flags))
    if found and "background" in found[0]:
        cell["target"] = found[0]["background"]["target_inserts_per_s"]
        cell["achieved"] = spread(
            [step["background"]["achieved_inserts_per_s"] for step in found]
        )["median"]
    return cell


def _kinds(flags: list[dict[str, Any]]) -> set[str]:
    return {flag["kind"] for flag in flags}


def campaign_report(runs: list[RunDocument]) -> dict[str, Any] | None:
    """Callaghan's summary of the campaign's ibench workloads: per workload one row per variant
    and one cell per step (median of the counted runs, ratio to the base variant by
    generator/analysis/ratios.py's rule, unsustained flag, background target and achieved rate), and
    each variant's step table. None when the campaign ran no ibench workload."""
    ours = [run for run in runs if is_ibench(run)]
    if not ours:
        return None
    order = variant_order(ours)
    cells = group_by_cell(ours)
    workloads = []
    for name in sorted({run["workload"]["name"] for run in ours}):
        by_variant = {v: cell for (_, v, w), cell in cells.items() if w == name}
        variants = [v for v in order if v in by_variant]
        counted = {v: counted_runs(by_variant[v]) for v in variants}
        steps = _step_names([run for v in variants for run in counted[v]])
        found = {
            (v, step): [s for run in counted[v] for s in ibench_steps(run) if s["step"] == step]
            for v in variants
            for step in steps
        }
        base = {step: headline_stats(found[(variants[0], step)]) for step in steps}
        rows = [
            {
                "variant": v,
                "cells": [
                    _cell(v, found[(v, step)], None if v == variants[0] else base[step])
                    for step in steps
                ],
            }
            for v in variants
        ]
        units = [next((headline(s)[1] for v in variants for s in found[(v, step)]), "")
                 for step in steps]  # fmt: skip
        workloads.append(
            {
                "name": name,
                "base": variants[0],
                "steps": steps,
                "units": units,
                "rows": rows,
                "background_steps": [
                    s for s in steps if any("background" in x for x in found[(variants[0], s)])
                ],
                "runs": {v: pass_list(by_variant[v]) for v in variants},
                "step_tables": {
                    v: [step_row(s) for s in ibench_steps(counted[v][-1])] for v in variants
                },
            }
        )
    return {"workloads": workloads}
