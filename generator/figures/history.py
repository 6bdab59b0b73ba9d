"""A recurring campaign's history charts (analysis/history.py), as plain figures: one per host,
workload, variant and metric, a line per level through its campaigns, each point the median of
the campaign's passes with its 95 % interval as an error bar, hollow when the campaign is
flagged. Each change point is an arrow at its first campaign after, labelled with its ratio (red
worse, green better, grey known); each known change a dotted vertical line with its reason.
Buttons above the plot put the date, the harness commit or the server version on the x axis
(categories: the campaigns of one commit or version stack).

A chart of a thousand campaigns must stay a download a reader waits for, so each point carries
only its x, y, interval and what the point drill-down needs (js/drilldown.js: the thread count
and the runs, which also name the campaign on hover); the buttons carry one x array each when
every level has the same campaigns, and the marks are layout, redrawn by the buttons."""

from __future__ import annotations

from html import escape
from typing import Any

from generator.analysis.history import ChangePoint, History, Point
from generator.figures.plain import Figure, figure
from generator.figures.sweep import FIT_SYMBOL, FLAGGED_SYMBOL, hollow_legend
from generator.pages.numbers import format_number

# x axis choices: (button label, axis type, axis title); _x gives a point's value on each
X_AXES = (
    ("date", "date", "campaign start (UTC)"),
    ("commit", "category", "harness commit"),
    ("server version", "category", "server version"),
)
CHANGE_COLOURS = {"worse": "#d62728", "better": "#2ca02c", "known": "#7f7f7f"}
SHORT_COMMIT = 10
REASON_SHOWN = 60  # characters of a known change's reason written on the chart; all on hover
SIGNIFICANT = 4  # digits of a point's value and interval: finer than any campaign's noise
# Room above the plot for the buttons and the known changes' reasons.
MARGIN = {"t": 64, "r": 20, "b": 40, "l": 60}


def _x(point: Point, axis: str) -> str:
    if axis == "date":
        return point.started_at[:16].replace("T", " ")
    if axis == "commit":
        return (point.commit or "unrecorded")[:SHORT_COMMIT]
    return point.server_version


def _round(value: float) -> float:
    return float(f"{value:.{SIGNIFICANT}g}")


def _plain(text: str) -> str:
    """text as Plotly shows it: its own markup (<b>, <a href>) is escaped, never interpreted."""
    return escape(text, quote=False)


def _level_line(history: History) -> dict[str, Any]:
    points = history.points
    line: dict[str, Any] = {
        "type": "scatter",
        "name": history.key.level,
        "x": [_x(point, "date") for point in points],
        "y": [_round(point.value) for point in points],
        "mode": "lines+markers",
        "error_y": {
            "type": "data",
            "symmetric": False,
            "array": [_round(p.high - p.value) if p.high else 0 for p in points],
            "arrayminus": [_round(p.value - p.low) if p.low else 0 for p in points],
        },
    }
    if history.threads is not None:  # a point opens its passes' per-second series
        line["customdata"] = [[history.threads, *point.runs] for point in points]
        line["hovertemplate"] = "%{y}<br>%{customdata[1]}"
    else:
        line["hovertext"] = [point.campaign_id for point in points]
    if any(point.flagged for point in points):
        line["marker"] = {
            "symbol": [FLAGGED_SYMBOL if point.flagged else FIT_SYMBOL for point in points]
        }
    return line


def _change_note(change: ChangePoint) -> dict[str, Any]:
    """An arrow at the change's first campaign after, labelled with its ratio."""
    colour = CHANGE_COLOURS["known" if change.known else change.direction]
    why = f"; known: {change.known}" if change.known else ""
    return {
        "y": _round(change.first_after.value),
        "xref": "x",
        "yref": "y",
        "text": f"{change.key.level} {format_number(change.ratio)}",
        "hovertext": _plain(
            f"{change.key.level}: {change.direction}, {format_number(change.ratio)} (95 %"
            f" {format_number(change.low)} to {format_number(change.high)}) from"
            f" {change.first_after.campaign_id}{why}"
        ),
        "showarrow": True,
        "arrowcolor": colour,
        "font": {"color": colour, "size": 11},
    }


def _marks(series: list[History], axis: str) -> tuple[list[dict[str, Any]], list[Any]]:
    """(shapes, annotations) on this x axis: each change point's arrow, and a dotted line at
    each known change's first campaign with its reason written at the top (shortened; whole on
    hover)."""
    notes = [
        {**_change_note(change), "x": _x(change.first_after, axis)}
        for history in series
        for change in history.changes
    ]
    campaigns = {point.campaign_id: point for history in series for point in history.points}
    shapes = []
    known = dict.fromkeys((k["since"], k["reason"]) for history in series for k in history.known)
    for since, reason in known:
        if since not in campaigns:
            continue
        x = _x(campaigns[since], axis)
        shapes.append(
            {"type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1,
             "line": {"dash": "dot", "width": 1, "color": CHANGE_COLOURS["known"]}}
        )  # fmt: skip
        shown = reason if len(reason) <= REASON_SHOWN else reason[: REASON_SHOWN - 1] + "…"
        notes.append(
            {"x": x, "xref": "x", "y": 1, "yref": "paper", "yanchor": "bottom",
             "text": _plain(f"known: {shown}"), "hovertext": _plain(reason),
             "showarrow": False, "font": {"size": 11}}
        )  # fmt: skip
    return shapes, notes


def _button(series: list[History], label: str, kind: str, title: str) -> dict[str, Any]:
    xs = [[_x(point, label) for point in history.points] for history in series]
    shared = all(x == xs[0] for x in xs)  # then one array, which restyle gives every line
    shapes, notes = _marks(series, label)
    layout = {
        "xaxis.type": kind,
        "xaxis.title.text": title,
        "xaxis.autorange": True,
        "shapes": shapes,
        "annotations": notes,
    }
    lines = list(range(len(series)))
    return {
        "label": label,
        "method": "update",
        "args": [{"x": xs[:1] if shared else xs}, layout, lines],
    }


def _y_title(history: History) -> str:
    """ "TPS", "p95 (ms)", "inserts/s": the unit alone where it names the metric."""
    metric, unit = history.key.metric, history.unit
    return unit if unit.lower() == metric.lower() else f"{metric} ({unit})"


def history_figure(series: list[History]) -> Figure:
    """The chart of one host, workload, variant and metric: series are its levels' histories
    (same key but the level)."""
    traces = [_level_line(history) for history in series]
    if any(point.flagged for history in series for point in history.points):
        traces.append(hollow_legend())
    shapes, notes = _marks(series, "date")
    first = series[0]
    layout = {
        "xaxis": {"type": "date", "title": {"text": X_AXES[0][2]}},
        "yaxis": {"title": {"text": _y_title(first)}, "rangemode": "tozero"},
        "hovermode": "closest",
        "margin": MARGIN,
        **({"shapes": shapes} if shapes else {}),
        **({"annotations": notes} if notes else {}),
        "updatemenus": [
            {"type": "buttons", "direction": "right", "showactive": True, "active": 0,
             "x": 0, "xanchor": "left", "y": 1.02, "yanchor": "bottom", "pad": {"b": 18},
             "buttons": [_button(series, *axis) for axis in X_AXES]}
        ],
    }  # fmt: skip
    return figure(traces, layout)
