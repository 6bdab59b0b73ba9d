"""Long lines thinned for drawing, so a chart stays light whatever the run's length (pure; no I/O).

A browser draws a few thousand points per line quickly; a day-long step sampled every second
(100,000 points per metric) or a sweep of thousands of thread levels hangs its renderer. So every
line of a figure keeps at most MAX_POINTS_PER_TRACE points, and a figure at most
MAX_POINTS_PER_FIGURE over all its lines, chosen by min/max bucketing (tsdownsample's
MinMaxDownsampler): the points are cut into equal buckets of consecutive samples and each bucket
keeps its lowest and its highest, in time order. A one-second stall or spike therefore survives,
and so does the shape, about one bucket per pixel column. Breaks in a line (None between two
steps) are kept while there are few enough of them to matter at that width.

Only the drawings are thinned (the Plotly figure and its static SVG): the figure's CSV and JSON
downloads and the run's run.json keep every point, and a thinned figure says so in its x axis
title. Annotations (a monitor chart's step labels) are thinned to MAX_ANNOTATIONS and an axis's
explicit ticks (a sweep's thread levels) to MAX_TICKS, evenly: Plotly lays out thousands of
tick labels for minutes.
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from tsdownsample import MinMaxDownsampler

MAX_POINTS_PER_TRACE = 2_000
MAX_POINTS_PER_FIGURE = 40_000
MIN_POINTS_PER_TRACE = 8  # four buckets: a line of thousands still shows its range
MAX_ANNOTATIONS = 60
MAX_TICKS = 30
# Per-point lists a trace may carry beside x and y, thinned with them (marker: nested).
_POINT_KEYS = ("customdata", "hovertext", "text")
_NESTED_POINT_KEYS = {"marker": ("symbol", "size", "color"), "error_y": ("array", "arrayminus")}


def _segments(y: list[Any]) -> list[list[int]]:
    """Index runs between None values (a break in the line)."""
    runs: list[list[int]] = [[]]
    for index, value in enumerate(y):
        if value is None:
            runs.append([])
        else:
            runs[-1].append(index)
    return [run for run in runs if run]


def _min_max(indices: list[int], y: list[Any], budget: int) -> list[int]:
    if len(indices) <= budget:
        return indices
    values = np.asarray([y[index] for index in indices], dtype=np.float64)
    downsampler = MinMaxDownsampler()  # type: ignore[no-untyped-call]  # the library has no hints
    kept = downsampler.downsample(values, n_out=budget - budget % 2)
    return [indices[position] for position in kept]


def kept_points(y: list[Any], budget: int) -> list[int | None]:
    """Indices of the points to draw in order, None where the line breaks; every index when the
    line fits the budget."""
    segments = _segments(y)
    total = sum(len(segment) for segment in segments)
    if total <= budget:
        return [index if y[index] is not None else None for index in range(len(y))]
    if len(segments) > budget // 4:  # breaks closer than a bucket: drawn as one line
        segments = [[index for segment in segments for index in segment]]
    kept: list[int | None] = []
    for segment in segments:
        share = max(2, budget * len(segment) // total)
        kept += [*_min_max(segment, y, share), None]
    return kept[:-1]


def _pick(values: list[Any], kept: list[int | None]) -> list[Any]:
    return [None if index is None else values[index] for index in kept]


def _thin_trace(trace: dict[str, Any], budget: int) -> bool:
    """Thin trace in place to at most budget points; False when it already fits."""
    y = trace.get("y")
    if trace.get("type", "scatter") != "scatter" or not isinstance(y, list) or len(y) <= budget:
        return False
    length = len(y)
    kept = kept_points(y, budget)
    if len(kept) == length:  # only breaks made it long
        return False
    for key in ("x", "y", *_POINT_KEYS):
        if isinstance(trace.get(key), list) and len(trace[key]) == length:
            trace[key] = _pick(trace[key], kept)
    for parent, keys in _NESTED_POINT_KEYS.items():
        nested = trace.get(parent)
        if not isinstance(nested, dict):
            continue
        for key in keys:
            if isinstance(nested.get(key), list) and len(nested[key]) == length:
                nested[key] = _pick(nested[key], kept)
    return True


def _trace_budget(traces: list[dict[str, Any]]) -> int:
    share = MAX_POINTS_PER_FIGURE // max(len(traces), 1)
    return max(MIN_POINTS_PER_TRACE, min(MAX_POINTS_PER_TRACE, share))


def _note(layout: dict[str, Any], budget: int) -> None:
    axis = layout.setdefault("xaxis", {})
    title = axis.get("title") or {}
    text = title.get("text", "") if isinstance(title, dict) else str(title)
    note = (
        f"drawn thinned to ≤ {budget:,} points per line, each bucket's min and max; "
        "every point in the CSV"
    )
    axis["title"] = {**(title if isinstance(title, dict) else {}), "text": f"{text} ({note})"}


def _every_nth(values: list[Any], most: int) -> list[Any]:
    """At most `most` of values, evenly spaced from the first."""
    return values[:: -(-len(values) // most)]


def _crowded_axes(layout: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        axis
        for name, axis in layout.items()
        if name[1:].startswith("axis") and len(axis.get("tickvals") or []) > MAX_TICKS
    ]


def thin_figure(figure: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of a figure (Plotly JSON as a dict) with its long lines and many annotations
    thinned, its x axis title saying so; None when the figure is light enough as it is."""
    traces = figure.get("data", [])
    budget = _trace_budget(traces)
    annotations = figure.get("layout", {}).get("annotations", [])
    long_lines = any(isinstance(t.get("y"), list) and len(t["y"]) > budget for t in traces)
    crowded = _crowded_axes(figure.get("layout", {}))
    if not long_lines and len(annotations) <= MAX_ANNOTATIONS and not crowded:
        return None
    thinned = copy.deepcopy(figure)
    layout = thinned.setdefault("layout", {})
    if len(annotations) > MAX_ANNOTATIONS:
        layout["annotations"] = _every_nth(annotations, MAX_ANNOTATIONS)
    for axis in _crowded_axes(layout):
        axis["tickvals"] = _every_nth(axis["tickvals"], MAX_TICKS)
        if isinstance(axis.get("ticktext"), list):
            axis["ticktext"] = _every_nth(axis["ticktext"], MAX_TICKS)
    changed = [
        _thin_trace(trace, budget) for trace in thinned["data"]
    ]  # every trace, no short cut
    if any(changed):
        _note(layout, budget)
    return thinned
