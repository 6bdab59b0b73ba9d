"""A campaign's waits pass on the site (`[profile] waits_pass`, harness/measure/waits.py).

A waits run's server timed every wait with performance_schema, which costs throughput, so the
run is never one of its cell's passes: the build sets it aside where it groups runs
(hugo/build_tree.py derivations), and nothing that compares throughput (ratios, compare views,
headlines, trust counts, articles' figures) sees it. It keeps a page of its own, titled as a
waits pass and without a headline figure, which shows what it cost against the cell's measured
passes and the top waits of each step; every measured run page of the cell links to it.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, recorded_steps, sysbench_steps
from generator.analysis.repeats import counted_runs, spread_by_threads
from generator.pages.monitor import step_label
from generator.pages.numbers import format_number
from generator.pages.packed_rows import packed

WAITS_PURPOSE = "waits"
TITLE_SUFFIX = " (performance_schema waits pass, not a measurement)"


def is_waits_pass(run: RunDocument) -> bool:
    return run.get("purpose") == WAITS_PURPOSE


def waits_section(run: RunDocument, other_side: list[RunDocument]) -> dict[str, Any] | None:
    """The run page's "pfs_waits": for a waits run (other_side: its cell's measured runs) what
    it cost and its waits; for a measured run (other_side: its cell's waits runs) the links to
    them, or None when the cell had no waits pass."""
    if is_waits_pass(run):
        return {"pass": True, "cost": cost_rows(run, other_side), "rows": wait_rows(run)}
    if not other_side:
        return None
    return {"pass": False, "runs": sorted(other["id"] for other in other_side)}


def cost_rows(run: RunDocument, measured: list[RunDocument]) -> dict[str, Any]:
    """Per sysbench step: the waits run's TPS and QPS, the median of the cell's counted passes at
    the same thread level, and the difference in %; "passes": how many passes the medians rest
    on. A thread level no measured pass reached has dashes."""
    counted = counted_runs(measured) if measured else []
    tps = spread_by_threads(counted, lambda step: step["tps"])
    qps = spread_by_threads(counted, lambda step: step["qps"]["total"])
    rows = []
    for step in sysbench_steps(run):
        threads = step["threads"]
        rows.append(
            [
                step_label(step),
                *_against(step["tps"], tps.get(threads, {}).get("median")),
                *_against(step["qps"]["total"], qps.get(threads, {}).get("median")),
            ]
        )
    return {"rows": packed(rows), "passes": len(counted)}


def _against(value: float, median: float | None) -> list[str]:
    if not median:
        return [format_number(value), format_number(None), format_number(None)]
    change = (value - median) / median * 100
    return [format_number(value), format_number(median), f"{change:+.1f} %"]


def wait_rows(run: RunDocument) -> list[str]:
    """Packed rows [step, event, count, total ms, average µs], each step's events longest
    first as the run recorded them."""
    rows = []
    for step in recorded_steps(run):
        for event in step.get("waits", {}).get("events", []):
            rows.append(
                [
                    step_label(step),
                    event["event"],
                    f"{event['count']:,}",
                    format_number(event["total_ms"]),
                    format_number(event["avg_us"]),
                ]
            )
    return packed(rows)


def waits_index_entry(entry: dict[str, Any]) -> dict[str, Any]:
    """A waits run's run index entry (run_page.run_index_entry's): titled as a waits pass and
    without a headline, so no list of runs shows its throughput as a result."""
    params = {name: value for name, value in entry["params"].items() if name != "headline"}
    return {
        **entry,
        "title": entry["title"] + TITLE_SUFFIX,
        "params": {**params, "purpose": WAITS_PURPOSE},
    }
