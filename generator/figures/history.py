"""A recurring campaign's history charts (analysis/history.py), as plain figures: one per host,
workload, variant and metric, a line per level through its occasions, each point the median of
the occasion's passes with its 95 % interval as an error bar, hollow when a pass was flagged.
Change points are marked on their first occasion after (red worse, green better, grey known);
known changes are dotted vertical lines with their reason. Buttons above the plot put the
date, the harness commit or the server version on the x axis (categories: the occasions of one
commit or version stack)."""

from __future__ import annotations

from html import escape
from typing import Any

from generator.analysis.history import ChangePoint, History, Point
from generator.figures.plain import Figure, figure
from generator.figures.sweep import FIT_SYMBOL, FLAGGED_SYMBOL, HOLLOW_LEGEND
from generator.pages.numbers import format_number

# x axis choices: (button label, axis); _x gives a point's value on each
X_AXES: tuple[tuple[str, dict[str, Any]], ...] = (
    ("date", {"type": "date", "title": {"text": "campaign start (UTC)"}}),
    ("commit", {"type": "category", "title": {"text": "harness commit"}}),
    ("server version", {"type": "category", "title": {"text": "server version"}}),
)
CHANGE_COLOURS = {"worse": "#d62728", "better": "#2ca02c", "known": "#7f7f7f"}
CHANGE_LEGEND = "change point (red worse, green better, grey known)"
SHORT_COMMIT = 10
REASON_SHOWN = 60  # characters of a known change's reason written on the chart; all on hover


def _x(point: Point, axis: str) -> str:
    if axis == "date":
        return point.started_at.replace("T", " ").removesuffix("Z")
    if axis == "commit":
        return (point.commit or "unrecorded")[:SHORT_COMMIT]
    return point.server_version


def _plain(text: str) -> str:
    """text as Plotly shows it: its own markup (<b>, <a href>) is escaped, never interpreted."""
    return escape(text, quote=False)


def _point_note(point: Point) -> str:
    passes = f"{len(point.runs)} pass{'es' if len(point.runs) != 1 else ''}"
    note = f"{point.campaign_id} · {passes} · {point.server_version}"
    if point.low is not None and point.high is not None:
        note += f" · 95 % {format_number(point.low)} to {format_number(point.high)}"
    return note + (" · a pass flagged: left out of change points" if point.flagged else "")


def _level_line(history: History, threads: int | None) -> dict[str, Any]:
    points = history.points
    line: dict[str, Any] = {
        "type": "scatter",
        "name": history.key.level,
        "x": [_x(point, "date") for point in points],
        "y": [point.value for point in points],
        "mode": "lines+markers",
        "hovertext": [_point_note(point) for point in points],
        "marker": {
            "symbol": [FLAGGED_SYMBOL if point.flagged else FIT_SYMBOL for point in points],
            "size": 7,
        },
        "error_y": {
            "type": "data",
            "symmetric": False,
            "array": [point.high - point.value if point.high else 0 for point in points],
            "arrayminus": [point.value - point.low if point.low else 0 for point in points],
        },
    }
    if threads is not None:  # a point opens its passes' per-second series (js/drilldown.js)
        line["customdata"] = [[threads, *point.runs] for point in points]
    return line


def _change_note(change: ChangePoint) -> str:
    note = (
        f"{change.key.level}: {change.direction}, {format_number(change.ratio)}"
        f" (95 % {format_number(change.low)} to {format_number(change.high)})"
        f" from {change.first_after.campaign_id}"
    )
    return note + (f"; known: {change.known}" if change.known else "")


def _change_marks(changes: list[ChangePoint]) -> dict[str, Any]:
    return {
        "type": "scatter",
        "name": CHANGE_LEGEND,
        "x": [_x(change.first_after, "date") for change in changes],
        "y": [change.first_after.value for change in changes],
        "mode": "markers",
        "marker": {
            "symbol": "diamond-open",
            "size": 15,
            "line": {"width": 2},
            "color": [CHANGE_COLOURS["known" if c.known else c.direction] for c in changes],
        },
        "hovertext": [_plain(_change_note(change)) for change in changes],
        "hoverinfo": "text",
    }


def _known_marks(series: list[History], axis: str) -> tuple[list[dict[str, Any]], list[Any]]:
    """(shapes, annotations): a dotted line at each known change's first occasion, its reason
    written at the top (shortened; whole on hover)."""
    occasions = {point.campaign_id: point for history in series for point in history.points}
    shapes, notes = [], []
    seen = set()
    for known in (known for history in series for known in history.known):
        point = occasions.get(known["since"])
        if point is None or (known["since"], known["reason"]) in seen:
            continue
        seen.add((known["since"], known["reason"]))
        x = _x(point, axis)
        shapes.append(
            {"type": "line", "xref": "x", "yref": "paper", "x0": x, "x1": x, "y0": 0, "y1": 1,
             "line": {"dash": "dot", "width": 1, "color": CHANGE_COLOURS["known"]}}
        )  # fmt: skip
        reason = known["reason"]
        shown = reason if len(reason) <= REASON_SHOWN else reason[: REASON_SHOWN - 1] + "…"
        notes.append(
            {"x": x, "xref": "x", "y": 1, "yref": "paper", "yanchor": "bottom",
             "text": _plain(f"known: {shown}"), "hovertext": _plain(reason),
             "showarrow": False, "font": {"size": 11}}
        )  # fmt: skip
    return shapes, notes


def history_figure(series: list[History]) -> Figure:
    """The chart of one host, workload, variant and metric: series are its levels' histories
    (same key but the level)."""
    lines = [_level_line(history, history.threads) for history in series]
    changes = [change for history in series for change in history.changes]
    traces = [*lines, *([_change_marks(changes)] if changes else [])]
    if any(point.flagged for history in series for point in history.points):
        traces.append(
            {"type": "scatter", "name": HOLLOW_LEGEND, "x": [None], "y": [None],
             "mode": "markers", "hoverinfo": "skip",
             "marker": {"symbol": FLAGGED_SYMBOL, "size": 7, "color": "#7f7f7f"}}
        )  # fmt: skip
    buttons = []
    for label, spec in X_AXES:
        xs: list[list[Any]] = [[_x(point, label) for point in h.points] for h in series]
        if changes:
            xs.append([_x(change.first_after, label) for change in changes])
        if len(traces) > len(xs):
            xs.append([None])
        shapes, notes = _known_marks(series, label)
        buttons.append(
            {"label": label, "method": "update",
             "args": [{"x": xs}, {"xaxis": spec, "shapes": shapes, "annotations": notes}]}
        )  # fmt: skip
    history = series[0]
    shapes, notes = _known_marks(series, "date")
    layout = {
        "xaxis": X_AXES[0][1],
        "yaxis": {
            "title": {"text": f"{history.key.metric} ({history.unit})"},
            "rangemode": "tozero",
        },
        "hovermode": "closest",
        **({"shapes": shapes, "annotations": notes} if shapes else {}),
        "updatemenus": [
            {
                "type": "buttons",
                "direction": "right",
                "showactive": True,
                "active": 0,
                "x": 0,
                "xanchor": "left",
                "y": 1.12,
                "yanchor": "bottom",
                "buttons": buttons,
            }
        ],
    }
    return figure(traces, layout)
