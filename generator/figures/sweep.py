"""Plotly figures for run and campaign pages, as plain figure dicts (figures/plain.py; pure, no
I/O): each carries only data, axis titles and the thread ticks, a few hundred bytes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contract import RunDocument, Step, SummaryStep, level_steps, sysbench_steps, threads_label
from contract.fields import StepFigure, step_figure
from generator.analysis.evidence import MEASURED
from generator.analysis.verdict import FLAG_KINDS
from generator.figures.plain import Figure, figure
from generator.figures.style import seconds_axis
from generator.hugo.site_contract import campaign_figure_id

# The run page's latency lines: (name, figure).
LATENCY_LINES: tuple[tuple[str, StepFigure], ...] = (
    ("p95", "latency_ms.p95"),
    ("p99", "latency_ms.p99"),
)


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


# A step (or a campaign point) resting on flagged steps (analysis/verdict.py) is drawn hollow,
# the kinds named on hover, and a legend entry says what hollow means.
FLAGGED_SYMBOL, FIT_SYMBOL = "circle-open", "circle"
HOLLOW_LEGEND = "hollow: flagged, unfit to judge"


def _flag_marks(line: dict[str, Any], notes: list[str]) -> dict[str, Any]:
    """Each point of line drawn hollow where its note (what flagged it) is not empty."""
    if any(notes):
        line["marker"] = {
            "symbol": [FLAGGED_SYMBOL if note else FIT_SYMBOL for note in notes],
            "size": 9,
        }
        line["hovertext"] = notes
    return line


def hollow_legend() -> dict[str, Any]:
    """A legend-only trace naming what a hollow marker means."""
    return {
        "type": "scatter",
        "name": HOLLOW_LEGEND,
        "x": [None],
        "y": [None],
        "mode": "markers",
        "marker": {"symbol": FLAGGED_SYMBOL, "size": 9, "color": "#7f7f7f"},
        "hoverinfo": "skip",
    }


def _with_legend(traces: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """traces, and the hollow legend entry when one of them has a hollow point."""
    hollow = any(FLAGGED_SYMBOL in trace.get("marker", {}).get("symbol", []) for trace in traces)
    return [*traces, hollow_legend()] if hollow else traces


def _kinds(flags: list[dict[str, Any]]) -> str:
    return ", ".join(FLAG_KINDS[kind][0] for kind in dict.fromkeys(f["kind"] for f in flags))


def _step_note(entry: dict[str, Any]) -> str:
    """What flagged a run's step (its trust entry), "" when fit."""
    return f"flagged: {_kinds(entry['flags'])}" if entry["flags"] else ""


def _cell_note(cell: dict[str, Any]) -> str:
    """What flagged a campaign point: "" unless its value rests on flagged passes (not judged
    on its unflagged ones: analysis/ratios.py)."""
    flags = cell.get("flags")
    if not flags or not flags["flagged"] or cell["judged_on"] != "all":
        return ""
    kinds = ", ".join(FLAG_KINDS[kind][0] for kind in flags["kinds"])
    return f"{flags['flagged']} of {flags['passes']} passes flagged: {kinds}"


def _given(steps: list[Step | SummaryStep], figure: StepFigure) -> tuple[list[int], list[float]]:
    """Thread levels and values of the steps that hold `figure`: an imported run's steps hold
    only what its source gave."""
    threads, values = [], []
    for step in steps:
        if (value := step_figure(step, figure)) is not None:
            threads.append(step["threads"])
            values.append(value)
    return threads, values


def run_figures(run: RunDocument, trust: list[dict[str, Any]] | None = None) -> dict[str, Figure]:
    """tps and latency vs threads, and the per-second TPS of every step; trust (the run's
    generator/analysis/trust.py entries) draws flagged steps hollow on the TPS curve. A figure
    (or a latency line) without any value, as an imported run may be, is left out."""
    steps = level_steps(run)
    threads = [step["threads"] for step in steps]
    figures = {}
    tps = _line("TPS", *_given(steps, "tps"), run_ids=[run["id"]])
    if tps["x"]:
        if trust:
            tps = _flag_marks(tps, [_step_note(entry) for entry in trust])
        figures["tps"] = _figure(
            _with_legend([tps]),
            _threads_axis(threads),
            "transactions per second",
        )
    latency = [
        _line(percentile, *points, run_ids=[run["id"]], group="latency")
        for percentile, figure in LATENCY_LINES
        if (points := _given(steps, figure))[0]
    ]
    if latency:
        # One line has no legend to say which percentile it is.
        named = f"{latency[0]['name']} latency (ms)" if len(latency) == 1 else "latency (ms)"
        figures["latency"] = _figure(latency, _threads_axis(threads), named)
    series = [step for step in sysbench_steps(run) if "series" in step]
    if series:
        figures["series"] = _figure(
            [
                _line(threads_label(step["threads"]), step["series"]["t"], step["series"]["tps"])
                for step in series
            ],
            seconds_axis(
                "seconds into the step",
                max(max(step["series"]["t"], default=1) for step in series),
            ),
            "transactions per second",
        )
    return figures


def campaign_figures(workload_summary: dict[str, Any]) -> dict[str, Figure]:
    """One overlay per metric of a campaign workload, a line per variant through the medians of
    its repeats, with bars spanning their range when there are several; a point whose value
    rests on flagged passes is hollow. A point opens the
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
            line = _line(name, x, values, error_y, run_ids=counted.get(variant))
            traces.append(_flag_marks(line, [_cell_note(cell) for cell in shown]))
        overlay = _figure(
            _with_legend(traces), _threads_axis(threads), f"{table['label']} ({table['unit']})"
        )
        # A click must land on one variant's point, not on every line at that thread count.
        overlay["layout"]["hovermode"] = "closest"
        figures[campaign_figure_id(metric)] = overlay
    return figures
