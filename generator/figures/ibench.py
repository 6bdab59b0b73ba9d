"""The Insert Benchmark's per-step charts of a run page (the tables beside them are
generator/pages/ibench.py's): per-second rates over the slowest statement of each second, and
the response-time histogram per role.
"""

from __future__ import annotations

from typing import Any, cast

from contract import RunDocument, ibench_steps
from generator.figures.plain import Figure, figure
from generator.hugo.site_contract import ibench_figure, ibench_histogram_figure
from generator.pages.ibench import RATES, ROLES, bucket_labels, histogram_rows


def ibench_figures(run: RunDocument) -> dict[str, Figure]:
    """Per measured step: per-second rates over the max response time of each second
    (ibench-<step>; a role's rate and its worst time share a hue), and the response-time
    histogram per role (ibench-hist-<step>)."""
    figures = {}
    for step in ibench_steps(run):
        # By name: the rate and max-latency series of each role.
        series = cast("dict[str, list[float]]", step.get("series", {}))
        if step["kind"] == "flush" or not series.get("t"):
            continue
        traces: list[dict[str, Any]] = []
        for role in ROLES:
            if any(series[RATES[role]]):
                traces.append({"type": "scatter", "name": RATES[role].replace("_per_s", "/s"),
                               "x": series["t"], "y": series[RATES[role]], "mode": "lines",
                               "legendgroup": role})  # fmt: skip
        for role in ROLES:
            if any(series[f"max_{role}_us"]):
                worst_ms = [round(us / 1000, 3) for us in series[f"max_{role}_us"]]
                traces.append({"type": "scatter", "name": f"max {role} ms", "x": series["t"],
                               "y": worst_ms, "mode": "lines", "yaxis": "y2",
                               "legendgroup": role, "line": {"dash": "dot"}})  # fmt: skip
        figures[ibench_figure(step["step"])] = figure(
            traces,
            {
                # Ticks and title under the lower panel: both panels share this x axis.
                "xaxis": {"title": {"text": f"seconds into {step['step']}"}, "anchor": "y2"},
                "yaxis": {"title": {"text": "per second"}, "rangemode": "tozero",
                          "domain": [0.4, 1]},
                "yaxis2": {"title": {"text": "max ms"}, "rangemode": "tozero",
                           "domain": [0, 0.3], "anchor": "x"},
            },
        )  # fmt: skip
        labels = bucket_labels(step)
        bars = [
            {"type": "bar", "name": row["role"], "x": labels,
             "y": [round(100 * c / row["calls"], 2) for c in row["counts"]]}
            for row in histogram_rows(step)
        ]  # fmt: skip
        if bars:
            figures[ibench_histogram_figure(step["step"])] = figure(
                bars,
                {
                    "barmode": "group",
                    "xaxis": {"title": {"text": "response time"}},
                    "yaxis": {"title": {"text": "% of statements"}, "rangemode": "tozero"},
                },
            )
    return figures
