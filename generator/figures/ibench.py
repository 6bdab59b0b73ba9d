"""The Insert Benchmark's per-step charts of a run page (the tables beside them are
generator/pages/ibench.py's): per-second rates over the slowest statement of each second, and
the response-time histogram per role.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument, ibench_steps
from contract.fields import step_series
from generator.figures.plain import Figure, figure
from generator.figures.style import seconds_axis
from generator.hugo.site_contract import ibench_figure, ibench_histogram_figure
from generator.pages.ibench import RATES, ROLES, bucket_labels, histogram_rows

# A panel's title naming its one line: a single trace gets no legend to name it.
PANEL_TITLES = {"y": "{rate} per second", "y2": "max {role} response time (ms)"}


def _panel_title(traces: list[dict[str, Any]], axis: str, shared: str) -> str:
    """shared over several lines of a panel, its line's metric over one."""
    roles = [trace["legendgroup"] for trace in traces if trace.get("yaxis", "y") == axis]
    if len(roles) != 1:
        return shared
    return PANEL_TITLES[axis].format(role=roles[0], rate=RATES[roles[0]].removesuffix("_per_s"))


def _share_title(bars: list[dict[str, Any]]) -> str:
    """The histogram's y title, naming the role when it is the only one drawn."""
    return f"% of {bars[0]['name']} statements" if len(bars) == 1 else "% of statements"


def ibench_figures(run: RunDocument) -> dict[str, Figure]:
    """Per measured step: per-second rates over the max response time of each second
    (ibench-<step>; a role's rate and its worst time share a hue), and the response-time
    histogram per role (ibench-hist-<step>)."""
    figures = {}
    for step in ibench_steps(run):
        seconds = step_series(step, "t")
        if step["kind"] == "flush" or not seconds:
            continue
        traces: list[dict[str, Any]] = []
        # By name: the rate and max-latency series of each role.
        for role in ROLES:
            if any(rates := step_series(step, RATES[role])):
                traces.append({"type": "scatter", "name": RATES[role].replace("_per_s", "/s"),
                               "x": seconds, "y": rates, "mode": "lines",
                               "legendgroup": role})  # fmt: skip
        for role in ROLES:
            if any(worst_us := step_series(step, f"max_{role}_us")):
                worst_ms = [round(us / 1000, 3) for us in worst_us]
                traces.append({"type": "scatter", "name": f"max {role} ms", "x": seconds,
                               "y": worst_ms, "mode": "lines", "yaxis": "y2",
                               "legendgroup": role, "line": {"dash": "dot"}})  # fmt: skip
        # Ticks and title under the lower panel: both panels share this x axis.
        x_axis = seconds_axis(f"seconds into {step['step']}", max(seconds))
        figures[ibench_figure(step["step"])] = figure(
            traces,
            {
                "xaxis": {**x_axis, "anchor": "y2"},
                "yaxis": {"title": {"text": _panel_title(traces, "y", "per second")},
                          "rangemode": "tozero", "domain": [0.4, 1]},
                "yaxis2": {"title": {"text": _panel_title(traces, "y2", "max ms")},
                           "rangemode": "tozero", "domain": [0, 0.3], "anchor": "x"},
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
                    "yaxis": {"title": {"text": _share_title(bars)}, "rangemode": "tozero"},
                },
            )
    return figures
