"""A suite campaign (runs with workload.suite: Dimitri Kravtchuk's sysbench set, Mark Callaghan's
microbenchmarks) as the tables of Callaghan's reports: a row per test, grouped point / range /
range with aggregation / writes and ordered as the suite runs them, a column per variant, each
value with its ratio to the base variant; per-operation costs the same way; for Dimitri's set,
the peak over thread levels.

Pure functions over validated runs. Cells are analysis.ratios.stat_cell's, so repeat medians, the ±5 %
verdicts and the missing / n/a rules are those of every other campaign table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple, cast

from contract import RunDocument, Step
from contract.fields import StepFigure, step_figure
from generator.analysis.cpu_split import cpu_split
from generator.analysis.evidence import weakest
from generator.analysis.instructions import Side, instruction_spread
from generator.analysis.ratios import (
    NO_STEP,
    most_repeats,
    stat_cell,
    step_flags_of,
    variant_order,
)
from generator.analysis.repeats import counted_runs, group_by_cell, spread_by_threads
from generator.analysis.trust import kept_series
from generator.pages.series import series_report

# Callaghan's report groups; the dict's order is the order of the report.
GROUPS = {
    "point": "Point queries",
    "range": "Range queries without aggregation",
    "range-aggregation": "Range queries with aggregation",
    "write": "Writes",
}
QPS_UNIT = "QPS"
# A full scan is one query reading a whole table: its rate is rows read, not queries.
SCAN_UNIT = "rows/s"
# Dimitri reports each test's best load level (his "Max-QPS" curves); Callaghan runs one level.
PEAK_SUITES = {"dimitri"}

StepValue = Callable[[Step], float | None]


class Metric(NamedTuple):
    key: str
    short: str  # the column name in Callaghan's tables
    label: str
    unit: str | None  # None: each test's own (QPS, or rows/s for a scan)
    higher_is_better: bool
    # test -> its value of a step; None for a value of the run (instructions)
    value_of: Callable[[dict[str, Any]], StepValue] | None


def _figure(figure: StepFigure) -> StepValue:
    """A step's figure; None where the step lacks it (an imported summary may give no QPS)."""
    return lambda step: step_figure(step, figure)


def headline_of(test: dict[str, Any]) -> StepValue:
    """A test's throughput of a step: QPS, or rows/s for a scan."""
    return _figure("rows_per_s" if test["unit"] == SCAN_UNIT else "qps.total")


def _per_op(figure: StepFigure) -> Callable[[dict[str, Any]], StepValue]:
    return lambda _test: _figure(figure)


def _own_cpu(side: str) -> Callable[[dict[str, Any]], StepValue]:
    """The server's ("server") or the clients' ("client") own CPU per operation, as recorded or
    derived from the per-second samples (analysis/cpu_split.py)."""

    def value(step: Step) -> float | None:
        split = cpu_split(step)
        return None if split is None else cast("float | None", getattr(split, side).us_per_op)

    return lambda _test: value


THROUGHPUT = Metric("throughput", "QPS", "Throughput", None, True, headline_of)
# Callaghan's hardware efficiency, host-wide cost per operation (step.per_op): lower is better.
EFFICIENCY = (
    Metric("cpu_us", "cpu/o", "CPU time per operation", "µs", False, _per_op("per_op.cpu_us")),
    Metric("server_cpu_us", "server cpu/o", "Server process CPU time per operation", "µs",
           False, _own_cpu("server")),
    Metric("client_cpu_us", "client cpu/o", "Client processes' CPU time per operation", "µs",
           False, _own_cpu("client")),
    Metric("context_switches", "cs/o", "Context switches per operation", "", False,
           _per_op("per_op.context_switches")),
    Metric("read_kb", "rKB/o", "KB read per operation", "KB", False, _per_op("per_op.read_kb")),
    Metric("write_kb", "wKB/o", "KB written per operation", "KB", False, _per_op("per_op.write_kb")),
)  # fmt: skip


def suite_tests(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """One entry per test (a campaign workload) in report order: group, then suite position.

    Each holds the suite's names for it, its throughput unit and, per variant, the runs its
    numbers rest on (analysis.repeats.counted_runs: the latest complete run of each repeat pass).
    """
    tests: dict[str, dict[str, Any]] = {}
    for (_, variant, workload), cell in group_by_cell(runs).items():
        counted = counted_runs(cell)
        suite = counted[0]["workload"]["suite"]
        test = tests.setdefault(
            workload,
            {
                "workload": workload,
                "suite": suite["name"],
                "test": suite["test"],
                "group": suite["group"],
                "position": suite["position"],
                "runs": {},
            },
        )
        test["runs"][variant] = counted
    for test in tests.values():
        steps = [step for runs in test["runs"].values() for run in runs for step in run["steps"]]
        test["unit"] = SCAN_UNIT if any("rows_per_s" in step for step in steps) else QPS_UNIT
    group_order = list(GROUPS)
    return sorted(
        tests.values(),
        key=lambda test: (group_order.index(test["group"]), test["position"], test["test"]),
    )


def _row(test: dict[str, Any], unit: str, cells: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "test": test["test"],
        "workload": test["workload"],
        "position": test["position"],
        "unit": unit,
        "cells": cells,
    }


def _grouped(tests_and_rows: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[dict[str, Any]]:
    """Rows under their group's title; the tests come in report order, so groups are runs."""
    groups: list[dict[str, Any]] = []
    for test, row in tests_and_rows:
        if not groups or groups[-1]["group"] != test["group"]:
            groups.append({"group": test["group"], "title": GROUPS[test["group"]], "rows": []})
        groups[-1]["rows"].append(row)
    return groups


def _seconds_of(
    metric: Metric, test: dict[str, Any]
) -> Callable[[RunDocument, Step], list[float]] | None:
    """Per-second samples of the throughput (the noise of a single repeat); a scan's rows/s
    moves with its TPS, whose series is recorded. The per-operation costs have none."""
    if metric is not THROUGHPUT:
        return None
    series = "tps" if test["unit"] == SCAN_UNIT else "qps"
    return lambda run, step: kept_series(run, step, series)


def level_tables(
    tests: list[dict[str, Any]], variants: list[str], metric: Metric
) -> dict[int, dict[str, Any]]:
    """The metric at every thread level some test reached, {threads: table}; empty when no step
    has the metric. A test absent at a level has no row there; a variant absent from a test has
    a missing cell, and a base of zero or missing gives every other cell 'n/a'."""
    flags_of = step_flags_of({})
    stats = {
        test["workload"]: {
            variant: spread_by_threads(
                test["runs"].get(variant, []),
                cast("Callable[[dict[str, Any]], StepValue]", metric.value_of)(test),
                _seconds_of(metric, test),
                flags_of,
            )
            for variant in variants
        }
        for test in tests
    }
    return _tables(tests, variants, metric, stats)


def _tables(
    tests: list[dict[str, Any]],
    variants: list[str],
    metric: Metric,
    stats: dict[str, dict[str, dict[int, dict[str, Any]]]],
) -> dict[int, dict[str, Any]]:
    """level_tables' tables from the cells' stats, {workload: {variant: {threads: stats}}}."""
    levels = sorted(
        {level for by_variant in stats.values() for by_level in by_variant.values()
         for level in by_level}
    )  # fmt: skip
    tables = {}
    for level in levels:
        tests_and_rows = []
        for test in tests:
            at_level = {
                variant: by_level.get(level, NO_STEP)
                for variant, by_level in stats[test["workload"]].items()
            }
            if not any(cell["repeats"] for cell in at_level.values()):
                continue
            base = at_level[variants[0]]
            evidence = {v: weakest(test["runs"].get(v, [])) for v in variants}
            cells = [
                stat_cell(
                    variant,
                    at_level[variant],
                    base,
                    metric.higher_is_better,
                    (evidence[variant], evidence[variants[0]]),
                )
                for variant in variants
            ]
            tests_and_rows.append((test, _row(test, metric.unit or test["unit"], cells)))
        rows = [row for _, row in tests_and_rows]
        tables[level] = {
            "metric": metric.key,
            "short": metric.short,
            "label": metric.label,
            "unit": metric.unit,
            "higher_is_better": metric.higher_is_better,
            "threads": level,
            "base": variants[0],
            "variants": variants,
            "most_repeats": most_repeats(rows),
            "groups": _grouped(tests_and_rows),
        }
    return tables


# Instructions the server ran per operation, counted by callgrind at one thread (campaign
# [instructions], analysis/instructions.py): the connection thread's, and the other threads'.
INSTRUCTIONS: tuple[tuple[Side, Metric], ...] = (
    ("connection", Metric("instructions_connection", "instr/o",
                          "Instructions per operation, connection thread", "instructions", False, None)),
    ("background", Metric("instructions_background", "bg instr/o",
                          "Instructions per operation, other server threads", "instructions", False, None)),
)  # fmt: skip


def instruction_tables(tests: list[dict[str, Any]], variants: list[str]) -> list[dict[str, Any]]:
    """The 1-thread tables of instructions per operation, one value per counted run (the median
    of its repeats); none when no run was counted."""
    tables = []
    for side, metric in INSTRUCTIONS:
        stats = {
            test["workload"]: {
                variant: {1: instruction_spread(test["runs"].get(variant, []), side)}
                for variant in variants
            }
            for test in tests
        }
        tables += [
            table for table in _tables(tests, variants, metric, stats).values() if table["groups"]
        ]
    return tables


def _peak(by_level: dict[int, dict[str, Any]]) -> tuple[int | None, float | None]:
    """(threads, median) of the highest median; the fewest threads on a tie."""
    if not by_level:
        return None, None
    best = max(sorted(by_level), key=lambda level: by_level[level]["median"])
    return best, by_level[best]["median"]


def peak_table(tests: list[dict[str, Any]], variants: list[str]) -> dict[str, Any]:
    """Per test and variant: the highest throughput (QPS, rows/s for a scan) and the highest TPS
    over the thread levels, on repeat medians, each with the thread count that reached it."""
    tests_and_rows = []
    for test in tests:
        cells = []
        for variant in variants:
            runs = test["runs"].get(variant, [])
            threads, value = _peak(spread_by_threads(runs, headline_of(test)))
            tps_threads, tps = _peak(spread_by_threads(runs, _figure("tps")))
            cells.append(
                {
                    "variant": variant,
                    "value": value,
                    "threads": threads,
                    "tps": tps,
                    "tps_threads": tps_threads,
                }
            )
        tests_and_rows.append((test, _row(test, test["unit"], cells)))
    return {"base": variants[0], "variants": variants, "groups": _grouped(tests_and_rows)}


def suite_report(runs: list[RunDocument]) -> dict[str, Any] | None:
    """The suite tables of one campaign's runs; None when none of them belongs to a suite.

    levels[]: per thread level, the throughput table and the efficiency tables (cpu/o, cs/o,
    rKB/o, wKB/o; none when the steps lack per_op). Every table's cells carry both the value
    and its ratio to the base, so templates choose the absolute or the relative view.
    """
    suite_runs = [run for run in runs if "suite" in run["workload"]]
    if not suite_runs:
        return None
    variants = variant_order(suite_runs)
    tests = suite_tests(suite_runs)
    throughput = level_tables(tests, variants, THROUGHPUT)
    efficiency = [level_tables(tests, variants, metric) for metric in EFFICIENCY]
    counted = instruction_tables(tests, variants)
    levels = [
        {
            "threads": level,
            "throughput": table,
            "efficiency": [by_level[level] for by_level in efficiency if level in by_level]
            + (counted if level == 1 else []),
        }
        for level, table in throughput.items()
    ]
    names = sorted({test["suite"] for test in tests})
    counted_steps = [
        step
        for test in tests
        for runs_of_variant in test["runs"].values()
        for run in runs_of_variant
        for step in run["steps"]
    ]
    return {
        "names": names,
        "base": variants[0],
        "variants": variants,
        "threads": list(throughput),
        "most_repeats": max((table["most_repeats"] for table in throughput.values()), default=0),
        "has_efficiency": any(level["efficiency"] for level in levels),
        "has_instructions": bool(counted),
        # What "o" is in cpu/o: a sysbench event (transaction); one query in single-statement tests.
        "ops": sorted({step["per_op"]["op"] for step in counted_steps if "per_op" in step}),
        # whether a server or client cpu/o was derived from the per-second samples
        "cpu_sampled": any(
            split.sampled for step in counted_steps if (split := cpu_split(step)) is not None
        ),
        "levels": levels,
        "peak": peak_table(tests, variants) if PEAK_SUITES & set(names) else None,
        "series": series_report(suite_runs, tests, variants, headline_of),
    }
