"""The per-second monitoring of a run as one time line per metric family (families and the
tables under each chart: generator/pages/monitor.py).

Steps are laid end to end on one time axis, each labelled with its thread count, the way
Dimitri Kravtchuk's dim_STAT graphs line server metrics up with the load levels.
"""

from __future__ import annotations

from datetime import datetime

from contract import RunDocument
from generator.figures.plain import Figure, figure
from generator.hugo.site_contract import monitor_figure
from generator.pages.monitor import families, monitored_steps, step_label


def _seconds(timestamp: str) -> float:
    return datetime.fromisoformat(timestamp).timestamp()


def monitor_figures(run: RunDocument) -> dict[str, Figure]:
    """monitor-<family> figures; empty when the run has no per-second samples."""
    steps = monitored_steps(run)
    if not steps:
        return {}
    origin = _seconds(steps[0]["started_at"])
    starts = [_seconds(step["started_at"]) - origin for step in steps]
    figures = {}
    for family, (_, unit, metrics) in families(steps).items():
        traces = []
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
        figures[monitor_figure(family)] = figure(
            traces,
            {
                "xaxis": {"title": {"text": "seconds since the first step"}},
                "yaxis": {"title": {"text": unit}, "rangemode": "tozero"},
                "annotations": [
                    {"x": start, "y": 1, "yref": "paper", "text": step_label(step),
                     "showarrow": False, "xanchor": "left", "yanchor": "bottom"}
                    for start, step in zip(starts, steps, strict=True)
                ],
            },
        )  # fmt: skip
    return figures
