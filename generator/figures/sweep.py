"""Plotly figures for run and campaign pages, as plain figure dicts (figures/plain.py; pure, no
I/O): each carries only data, axis titles and the thread ticks, a few hundred bytes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import cycle
from typing import Any

from contract import RunDocument, sysbench_steps
from generator.analysis.evidence import MEASURED
from generator.figures.plain import Figure, figure
from generator.hugo.site_contract import campaign_figure_id


def _threads_axis(threads: list[int]) -> dict[str, Any]:
    # A log2 axis spaces 1, 2, 4 ... 1024 evenly; explicit ticks stop Plotly's "2, 5" minor labels.
    return {
        "title": {"text": "threads"},
        "type": "log",
        "tickvals": threads,
        "ticktext": [str(level) for level in threads],
    }


def _figure(traces: list[dict[str, Any]], x_axis: dict[str, Any], y_title: str) -> Figure:
    return figure(
        traces, {"xaxis": x_axis, "yaxis": {"title": {"text": y_title}, "rangemode": "tozero"}}
    )


def _threads_label(threads: int) -> str:
    return f"{threads} thread" if threads == 1 else f"{threads} threads"


def _line(
    name: str,
    x: Sequence[object],
    y: Sequence[object],
    error_y: dict[str, Any] | None = None,
    run_ids: list[str] | None = None,
    group: str | None = None,
) -> dict[str, Any]:
    """A line through (x threads, y); with run_ids, each point names its step for the drill-down
    (js/drilldown.js reads customdata as [threads, run id ...]); lines of one group share a hue
    (figures/style.py)."""
    line: dict[str, Any] = {
        "type": "scatter",
        "name": name,
        "x": list(x),
        "y": list(y),
        "mode": "lines+markers",
    }
    if error_y:
        line["error_y"] = error_y
    if run_ids:
        line["customdata"] = [[level, *run_ids] for level in x]
    if group:
        line["legendgroup"] = group
    return line


def _repeat_range(cells: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Error bars from each median down to the lowest and up to the highest repeat."""
    return {
        "type": "data",
        "symmetric": False,
        "array": [cell["high"] - cell["value"] for cell in cells],
        "arrayminus": [cell["value"] - cell["low"] for cell in cells],
    }


def _trust_marks(line: dict[str, Any], trust: list[dict[str, Any]]) -> dict[str, Any]:
    """Unstable steps (generator/analysis/stats.py) drawn as crosses with the reason on hover, so a
    chart does not present a drifting step as a clean point."""
    unstable = [entry["steady"] is False for entry in trust]
    if any(unstable):
        line["marker"] = {"symbol": ["x" if flag else "circle" for flag in unstable], "size": 9}
        line["hovertext"] = ["unstable step (drift or CV)" if flag else "" for flag in unstable]
    return line


def _given(steps: Sequence[Mapping[str, Any]], *path: str) -> tuple[list[int], list[float]]:
    """Thread levels and values of the steps that hold the figure at `path` ("tps", or
    "latency_ms", "p95"): an imported run's steps hold only what its source gave."""
    threads, values = [], []
    for step in steps:
        value: Any = step
        for key in path:
            value = value.get(key) if isinstance(value, Mapping) else None
        if value is not None:
            threads.append(step["threads"])
            values.append(value)
    return threads, values


MAX_SECOND_TICKS = 12


def _seconds_axis(last_second: float) -> dict[str, Any]:
    """Ticks on whole seconds, 1, 2 or 5 times a power of ten apart, at most MAX_SECOND_TICKS:
    a tick every second drew labels over one another on a 60 s step, and on a series of
    thousands of seconds kept the browser busy for minutes laying them out."""
    step, factors = 1, cycle((2, 2.5, 2))  # 1, 2, 5, 10, 20, 50 ...
    while last_second / step > MAX_SECOND_TICKS:
        step = round(step * next(factors))
    return {"title": {"text": "seconds into the step"}, "tick0": 0, "dtick": step}


def run_figures(run: RunDocument, trust: list[dict[str, Any]] | None = None) -> dict[str, Figure]:
    """tps and latency vs threads, and the per-second TPS of every step; trust (the run's
    generator/analysis/trust.py entries) marks unstable steps on the TPS curve. A figure (or a
    latency line) without any value, as an imported run may be, is left out."""
    steps: Sequence[Mapping[str, Any]] = sysbench_steps(run)
    threads = [step["threads"] for step in steps]
    figures = {}
    tps = _line("TPS", *_given(steps, "tps"), run_ids=[run["id"]])
    if tps["x"]:
        figures["tps"] = _figure(
            [_trust_marks(tps, trust) if trust else tps],
            _threads_axis(threads),
            "transactions per second",
        )
    latency = [
        _line(percentile, *points, run_ids=[run["id"]], group="latency")
        for percentile in ("p95", "p99")
        if (points := _given(steps, "latency_ms", percentile))[0]
    ]
    if latency:
        figures["latency"] = _figure(latency, _threads_axis(threads), "latency (ms)")
    series = [step for step in steps if "series" in step]
    if series:
        figures["series"] = _figure(
            [
                _line(_threads_label(step["threads"]), step["series"]["t"], step["series"]["tps"])
                for step in series
            ],
            _seconds_axis(max(max(step["series"]["t"], default=1) for step in series)),
            "transactions per second",
        )
    return figures


def campaign_figures(workload_summary: dict[str, Any]) -> dict[str, Figure]:
    """One overlay per metric of a campaign workload, a line per variant through the medians of
    its repeats, with bars spanning their range when there are several. A point opens the
    per-second series of the runs its median rests on (when the summary lists its cells' runs)."""
    cells = workload_summary.get("cells", [])
    counted = {
        cell["variant"]: [run["id"] for run in cell["runs"] if run["counted"]] for cell in cells
    }
    # The legend's badge of a variant resting on imported figures (analysis/evidence.py).
    names = {
        cell["variant"]: f"{cell['variant']} ({cell['evidence']})"
        for cell in cells
        if cell.get("evidence", MEASURED) != MEASURED
    }
    figures = {}
    for metric, table in workload_summary["metrics"].items():
        threads = [row["threads"] for row in table["rows"]]
        traces = []
        for index, variant in enumerate(table["variants"]):
            cells = [row["cells"][index] for row in table["rows"]]
            reached = [
                (level, cell)
                for level, cell in zip(threads, cells, strict=True)
                if cell["value"] is not None
            ]
            if not reached:
                continue
            x, shown = zip(*reached, strict=True)
            error_y = _repeat_range(shown) if table["most_repeats"] > 1 else None
            values = [cell["value"] for cell in shown]
            name = names.get(variant, variant)
            traces.append(_line(name, x, values, error_y, run_ids=counted.get(variant)))
        overlay = _figure(traces, _threads_axis(threads), f"{table['label']} ({table['unit']})")
        # A click must land on one variant's point, not on every line at that thread count.
        overlay["layout"]["hovermode"] = "closest"
        figures[campaign_figure_id(metric)] = overlay
    return figures
