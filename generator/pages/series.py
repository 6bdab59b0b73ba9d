"""A release series: a suite campaign whose variants are releases of one product, each on its
own server (at least three), read as Mark Callaghan reads MySQL 5.0 to 8.0. Per test, at one
client thread: the throughput and the instructions per operation of each release relative to the
oldest, and each release against its predecessor, judged by the same ±5 %-and-outside-the-noise
rule as every ratio (analysis/ratios.py stat_cell). The series figures draw the first; the
predecessor table and the marks on the figures' points say the second.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contract import RunDocument, Step
from generator.analysis.evidence import weakest
from generator.analysis.instructions import instruction_spread
from generator.analysis.ratios import NO_STEP, stat_cell, step_flags_of
from generator.analysis.repeats import spread_by_threads
from generator.analysis.trust import kept_series

SERIES_THREADS = 1  # Callaghan's low-concurrency reports; instructions are counted at one thread
MIN_RELEASES = 3


def releases(runs: list[RunDocument], variants: list[str]) -> list[dict[str, str]] | None:
    """The series' releases in the campaign's order, {"variant", "version", "origin",
    "distribution"} (origin and distribution: run document server.build); None when
    the variants are not one product's releases, one distinct version each."""
    first: dict[str, RunDocument] = {}
    for run in sorted(runs, key=lambda run: run["id"]):
        first.setdefault(run["variant"], run)
    servers = [first[variant]["server"] for variant in variants]
    versions = [server.get("version") for server in servers]
    products = {server.get("product") for server in servers}
    if len(variants) < MIN_RELEASES or len(products) != 1 or None in versions:
        return None
    if len(set(versions)) != len(versions):
        return None
    return [
        {
            "variant": variant,
            "version": str(server["version"]),
            "origin": server.get("build", {}).get("origin", ""),
            "distribution": server.get("build", {}).get("distribution", ""),
        }
        for variant, server in zip(variants, servers, strict=True)
    ]


def _throughput_stats(
    test: dict[str, Any], variant: str, value_of: Callable[[Step], float | None]
) -> dict[str, Any]:
    series = "tps" if test["unit"] == "rows/s" else "qps"
    by_level = spread_by_threads(
        test["runs"].get(variant, []),
        value_of,
        lambda run, step: kept_series(run, step, series),
        step_flags_of({}),
    )
    return by_level.get(SERIES_THREADS, NO_STEP)


def _row(
    test: dict[str, Any],
    unit: str,
    variants: list[str],
    stats: list[dict[str, Any]],
    higher: bool,
) -> dict[str, Any] | None:
    if not any(cell["repeats"] for cell in stats):
        return None
    # What each side rests on (analysis/evidence.py): imported figures are never coloured.
    evidence = [weakest(test["runs"].get(variant, [])) for variant in variants]

    def cell(i: int, against: int) -> dict[str, Any]:
        sides = (evidence[i], evidence[against])
        return stat_cell(variants[i], stats[i], stats[against], higher, sides)

    return {
        "test": test["test"],
        "workload": test["workload"],
        "unit": unit,
        "to_base": [cell(i, 0) for i in range(len(variants))],
        # Each release but the oldest against the one before it.
        "to_predecessor": [cell(i, i - 1) for i in range(1, len(variants))],
    }


def series_report(
    runs: list[RunDocument],
    tests: list[dict[str, Any]],
    variants: list[str],
    headline: Callable[[dict[str, Any]], Callable[[Step], float | None]],
) -> dict[str, Any] | None:
    """tests: suite.suite_tests(runs); headline(test): its throughput of a step (QPS, or rows/s
    for a scan). None when the campaign is no release series or has no 1-thread step."""
    found = releases(runs, variants)
    if found is None:
        return None
    metrics = {}
    for key, higher in (("throughput", True), ("instructions", False)):
        rows = []
        for test in tests:
            if key == "throughput":
                stats = [_throughput_stats(test, v, headline(test)) for v in variants]
                unit = test["unit"]
            else:
                stats = [
                    instruction_spread(test["runs"].get(v, []), "connection") for v in variants
                ]
                unit = "instructions"
            if (row := _row(test, unit, variants, stats, higher)) is not None:
                rows.append(row)
        if rows:
            metrics[key] = {"higher_is_better": higher, "rows": rows}
    if "throughput" not in metrics:
        return None
    return {"threads": SERIES_THREADS, "base": variants[0], "releases": found, **metrics}
