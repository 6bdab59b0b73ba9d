"""The files behind each generated figure, at stable URLs beside the page that owns it.

Every Plotly figure the generator writes to static/figures/<owner>/<name>.json gets
static/<owner>/<name>.csv (its data, for a reader to download) and .svg (a static drawing for
RSS readers and browsers without JavaScript, of the thinned figure a browser draws:
generator/figures/downsample.py). The data as JSON is one file per owner,
static/<owner>/figures.json, keyed by figure name: a monitored run has a dozen figures, and a
file each made a fifth of the files of an archive (each chart's JSON link leads to that file).
<owner> is runs/<run id> or campaigns/<campaign id>/<workload>, so a run's files sit next to its
page, run.json and my.cnf.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from generator.figures.svg import axis_title, figure_svg
from generator.hugo.site_contract import (
    figure_data_download,
    figure_download_stem,
    figure_name,
)


def _range_bounds(
    trace: dict[str, Any],
) -> tuple[list[float | None] | None, list[float | None] | None]:
    """Lowest and highest values from an asymmetric error bar, where the figure has one."""
    error = trace.get("error_y") or {}
    if error.get("type") != "data" or "array" not in error:
        return None, None
    y = trace["y"]
    highs = [v + e if v is not None else None for v, e in zip(y, error["array"], strict=True)]
    minus = error.get("arrayminus", error["array"])
    lows = [v - e if v is not None else None for v, e in zip(y, minus, strict=True)]
    return lows, highs


def figure_data(figure: dict[str, Any]) -> dict[str, Any]:
    """The data of a scatter figure: axis titles and one entry per trace (None marks a gap)."""
    layout = figure.get("layout", {})
    traces = []
    for trace in figure["data"]:
        entry = {"name": trace.get("name", ""), "x": trace["x"], "y": trace["y"]}
        lows, highs = _range_bounds(trace)
        if lows is not None:
            entry.update(low=lows, high=highs)
        traces.append(entry)
    return {
        "x_title": axis_title(layout.get("xaxis", {}), "x"),
        "y_title": axis_title(layout.get("yaxis", {}), "y"),
        "traces": traces,
    }


def figure_csv(data: dict[str, Any]) -> str:
    """One row per point: trace, x, y (and low, high when a trace has a range); gaps skipped."""
    ranged = any("low" in trace for trace in data["traces"])
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["trace", data["x_title"], data["y_title"], *(["low", "high"] if ranged else [])]
    )
    for trace in data["traces"]:
        for index, (x, y) in enumerate(zip(trace["x"], trace["y"], strict=True)):
            if x is None or y is None:
                continue
            bounds = [trace["low"][index], trace["high"][index]] if "low" in trace else ["", ""]
            writer.writerow([trace["name"], x, y, *(bounds if ranged else [])])
    return out.getvalue()


def figure_downloads(
    figures: dict[str, dict[str, Any]], drawn: dict[str, dict[str, Any]]
) -> dict[str, bytes]:
    """CSV (every point) and SVG (as drawn) for every figure, and the data JSON (every point) of
    each owner's figures. figures: path -> figure, as generated; drawn: path -> the figure as
    the browser draws it (downsample.thin_figure)."""
    downloads = {}
    owners: dict[str, dict[str, Any]] = {}
    for rel, figure in figures.items():
        data = figure_data(figure)
        stem = figure_download_stem(rel)
        downloads[f"{stem}.csv"] = figure_csv(data).encode()
        downloads[f"{stem}.svg"] = figure_svg(drawn[rel]).encode()
        owners.setdefault(figure_data_download(rel), {})[figure_name(rel)] = data
    for rel, data_by_name in owners.items():
        downloads[rel] = json.dumps(data_by_name, separators=(",", ":"), allow_nan=False).encode()
    return downloads
