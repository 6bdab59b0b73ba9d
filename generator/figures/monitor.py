"""The per-second monitoring of a run as one time line per metric family (families and the
tables under each chart: generator/pages/monitor.py).

Steps are laid end to end on one time axis, each labelled with its thread count, the way
Dimitri Kravtchuk's dim_STAT graphs line server metrics up with the load levels.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import contract
from contract import RunDocument
from generator.figures.plain import Figure, figure
from generator.figures.style import seconds_axis
from generator.hugo.site_contract import monitor_figure
from generator.pages.monitor import families, monitored_steps, step_label


def _seconds(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp).timestamp()


def metric_words(metric: str) -> str:
    """A fixed series' name as words, its unit suffixes dropped (read_kb_per_s -> read,
    innodb_fsyncs_per_s -> InnoDB fsyncs); a sampled INNODB_METRICS counter keeps its own
    name, the one to look up."""
    if metric.startswith(contract.INNODB_METRICS_PREFIX):
        return metric.removeprefix(contract.INNODB_METRICS_PREFIX)
    for suffix in ("_per_s", "_pct", "_kb"):
        metric = metric.removesuffix(suffix)
    words = metric.split("_")
    return " ".join("InnoDB" if word == "innodb" else word for word in words)


def y_title(traces: list[dict[str, Any]], unit: str) -> str:
    """The family's unit, naming the metric when one line is drawn: Plotly shows no legend
    for a single trace, so "per second" alone would not say what is counted."""
    if len(traces) != 1:
        return unit
    words = metric_words(traces[0]["name"])
    if not unit or unit in words:
        return words
    if unit.endswith("per second"):
        return f"{words} per second"
    return f"{words} ({unit})"


def monitor_figures(run: RunDocument) -> dict[str, Figure]:
    """monitor-<family> figures; empty when the run has no per-second samples."""
    steps = monitored_steps(run)
    if not steps:
        return {}
    origin = _seconds(steps[0]["started_at"])
    starts = [_seconds(step["started_at"]) - origin for step in steps]
    figures = {}
    for family, (_, unit, metrics) in families(steps).items():
        traces: list[dict[str, Any]] = []
        for metric in metrics:
            x: list[float | None] = []
            y: list[float | None] = []
            for start, step in zip(starts, steps, strict=True):
                series = step["monitor"]["series"]
                if metric not in series:
                    continue
                x += [round(start + t, 1) for t in series["t"]] + [None]  # None breaks the line
                y += [*series[metric], None]
            if x:
                traces.append({"type": "scatter", "name": metric, "x": x, "y": y, "mode": "lines"})
        if not traces:
            continue
        last = max(x for trace in traces for x in trace["x"] if x is not None)
        figures[monitor_figure(family)] = figure(
            traces,
            {
                "xaxis": seconds_axis("seconds since the first step", last),
                "yaxis": {"title": {"text": y_title(traces, unit)}, "rangemode": "tozero"},
                "annotations": [
                    {"x": start, "y": 1, "yref": "paper", "text": step_label(step),
                     "showarrow": False, "xanchor": "left", "yanchor": "bottom"}
                    for start, step in zip(starts, steps, strict=True)
                ],
            },
        )  # fmt: skip
    return figures
