"""A static SVG drawing of a generated line figure, without a browser (pure; no I/O).

Feed readers and browsers without JavaScript get this instead of the Plotly chart. It draws what
the generator's figures hold: scatter traces as lines and markers (None breaks a line), error
bars, grouped bars, a log, linear or category x axis with the figure's tick labels, one y axis
from zero per panel (yaxis, yaxis2 by their domains), the legend and text annotations. Traces
take their hue and dash by figures/style.py's rules, as the Plotly charts do; text and grid
follow the reader's light or dark scheme through a media query.

Browsers with JavaScript show the drawing at once too, until plotly.js has drawn the chart in
the same box (_partials/chart.html, js/charts.js). So every drawing has one size, DRAWING_SIZE
(the box's aspect ratio, written for the templates as hugo.Data.drawing), and a longer legend
takes its rows from the plot, as Plotly's legend does; 900 units wide, so its text is about
Plotly's 13 px where an article is widest.
"""

from __future__ import annotations

import itertools
import math
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from generator.figures.style import log_ticks, tick_label, trace_styles

WIDTH, HEIGHT = 900, 400
DRAWING_SIZE = {"width": WIDTH, "height": HEIGHT}
LEFT, RIGHT, TOP, AXIS_BOTTOM = 70, 20, 24, 46
MIN_PLOT_HEIGHT = 150  # below this a very long legend makes the drawing taller instead
LEGEND_ROW, LEGEND_ITEM = 18, 150  # a legend entry's height and width
TICK_TARGET = 5  # about this many labelled ticks per axis
# Plotly's dash names as SVG stroke-dasharray values (solid draws none).
DASH_ARRAYS = {"dash": "6,4", "dot": "2,3", "dashdot": "6,3,2,3", "longdash": "10,4",
               "longdashdot": "10,3,2,3"}  # fmt: skip
STYLE = (
    "text{font:12px system-ui,sans-serif;fill:#1a1a1a}.bg{fill:#fff}.grid{stroke:#e6e6e6}"
    "@media (prefers-color-scheme:dark){text{fill:#ddd}.bg{fill:#161616}.grid{stroke:#333}}"
)


def nice_ticks(low: float, high: float) -> list[float]:
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) covering low..high."""
    raw = (high - low) / TICK_TARGET or abs(high) or 1.0
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 2.5, 5, 10) if m * magnitude >= raw)
    first, last = math.floor(low / step), math.ceil(high / step)
    return [round(index * step, 10) for index in range(first, last + 1)]


class _Axis:
    """Maps data values to pixels between start and end (end < start for y)."""

    def __init__(
        self, values: list[float], spec: dict[str, Any], start: float, end: float, zero: bool
    ):
        self.log = spec.get("type") == "log"
        if spec.get("tickvals"):
            labels = spec.get("ticktext") or [tick_label(v) for v in spec["tickvals"]]
            self.ticks = list(zip(spec["tickvals"], labels, strict=True))
            low, high = min(values + spec["tickvals"]), max(values + spec["tickvals"])
        else:
            low, high = (min([0.0, *values]) if zero else min(values)), max(values)
            if self.log:
                self.ticks = [(v, tick_label(v)) for v in log_ticks(low, high)]
            else:
                self.ticks = [(v, tick_label(v)) for v in nice_ticks(low, high)]
            low = min(low, self.ticks[0][0]) if not self.log else low
            high = max(high, self.ticks[-1][0]) if not self.log else high
        if spec.get("range") and not self.log:  # a time axis ends at the data, as in Plotly
            low, high = spec["range"]
        self.low, self.high = self._scale(low), self._scale(high)
        if self.log:  # a little room so the end markers are not cut in half
            pad = (self.high - self.low) * 0.04 or 0.5
            self.low, self.high = self.low - pad, self.high + pad
        self.start, self.end = start, end
        # Called for every point drawn: the span and width once, the same arithmetic per point.
        self._span, self._width = (self.high - self.low) or 1.0, end - start

    def _scale(self, value: float) -> float:
        return math.log10(value) if self.log else value

    def __call__(self, value: float) -> float:
        scaled = math.log10(value) if self.log else value
        return self.start + (scaled - self.low) / self._span * self._width


_NUMBER = (int, float)  # a tuple: isinstance with `int | float` builds the union at every call


def _points(trace: dict[str, Any]) -> list[tuple[float, float, int]]:
    return [
        (x, y, index)
        for index, (x, y) in enumerate(zip(trace["x"], trace["y"], strict=True))
        if isinstance(x, _NUMBER) and isinstance(y, _NUMBER)
    ]


def _segments(trace: dict[str, Any]) -> list[list[tuple[float, float]]]:
    """Runs of consecutive points; a None in x or y ends one."""
    segments: list[list[tuple[float, float]]] = [[]]
    for x, y in zip(trace["x"], trace["y"], strict=True):
        if x is None or y is None:
            segments.append([])
        else:
            segments[-1].append((x, y))
    return [segment for segment in segments if segment]


def _error_bounds(trace: dict[str, Any]) -> list[tuple[float, float, float]]:
    error = trace.get("error_y") or {}
    if error.get("type") != "data" or "array" not in error:
        return []
    minus = error.get("arrayminus", error["array"])
    return [(x, y - minus[index], y + error["array"][index]) for x, y, index in _points(trace)]


def _as_categories(
    traces: list[dict[str, Any]], x_spec: dict[str, Any]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Text x values (step names) placed 0, 1, 2 ... in order of appearance, labelled."""
    names = list(dict.fromkeys(x for t in traces for x in t["x"] if isinstance(x, str)))
    if not names:
        return traces, x_spec
    position = {name: index for index, name in enumerate(names)}
    placed = [{**t, "x": [position.get(x) for x in t["x"]]} for t in traces]
    return placed, {
        **x_spec,
        "type": "linear",
        "tickvals": list(position.values()),
        "ticktext": names,
    }


def _panels(
    traces: list[dict[str, Any]], layout: dict[str, Any], plot_height: float
) -> list[tuple[str, dict[str, Any], float, float]]:
    """(axis key, axis spec, top px, bottom px) per y axis the traces use, from its domain."""
    panels = []
    for key in dict.fromkeys(t.get("yaxis", "y") for t in traces):
        spec = layout.get("yaxis" + key.removeprefix("y"), {})
        low, high = spec.get("domain", [0, 1])
        panels.append((key, spec, TOP + (1 - high) * plot_height, TOP + (1 - low) * plot_height))
    return panels


def _bar_step(traces: list[dict[str, Any]]) -> float:
    """The x distance a group of bars may fill: the closest two bar positions, else 1."""
    xs = sorted({x for t in traces if t.get("type") == "bar" for x, _, _ in _points(t)})
    return min((b - a for a, b in itertools.pairwise(xs)), default=1.0) or 1.0


def _marks(
    trace: dict[str, Any],
    style: tuple[str, str],
    x_axis: _Axis,
    y_axis: _Axis,
    bar: tuple[int, int, float],
) -> list[str]:
    """A trace's lines, error bars and markers, or its bars (style: (colour, dash); bar: (slot,
    slots, step))."""
    colour, dash = style
    if trace.get("type") == "bar":
        slot, slots, step = bar
        width = abs(x_axis(step) - x_axis(0)) * 0.8 / slots
        zero = y_axis(0)
        return [
            f'<rect x="{x_axis(x) - width * slots / 2 + slot * width:.1f}" '
            f'y="{min(y_axis(y), zero):.1f}" width="{width:.1f}" '
            f'height="{abs(zero - y_axis(y)):.1f}" fill="{colour}"/>'
            for x, y, _ in _points(trace)
        ]
    marks = []
    dashes = f' stroke-dasharray="{DASH_ARRAYS[dash]}"' if dash in DASH_ARRAYS else ""
    for segment in _segments(trace):
        points = " ".join(f"{x_axis(x):.1f},{y_axis(y):.1f}" for x, y in segment)
        marks.append(
            f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"{dashes}/>'
        )
    for x, low, high in _error_bounds(trace):
        marks.append(
            f'<line x1="{x_axis(x):.1f}" x2="{x_axis(x):.1f}" y1="{y_axis(low):.1f}" '
            f'y2="{y_axis(high):.1f}" stroke="{colour}"/>'
        )
    if "markers" in trace.get("mode", "lines"):
        # a flagged point (figures/sweep.py) is hollow, as Plotly draws "circle-open"
        symbols = trace.get("marker", {}).get("symbol")
        hollow = f'fill="none" stroke="{colour}" stroke-width="1.5"'
        marks += [
            f'<circle cx="{x_axis(x):.1f}" cy="{y_axis(y):.1f}" r="3" '
            + (hollow if isinstance(symbols, list) and symbols[i] == "circle-open" else
               f'fill="{colour}"')
            + "/>"
            for x, y, i in _points(trace)
        ]  # fmt: skip
    return marks


def figure_svg(figure: dict[str, Any]) -> str:
    """The figure as a standalone SVG document."""
    layout = figure.get("layout", {})
    drawn = [t for t in figure["data"] if t.get("type", "scatter") in ("scatter", "bar")]
    drawn, x_spec = _as_categories(drawn, layout.get("xaxis", {}))
    traces = [t for t in drawn if _points(t)]
    bars = [t for t in traces if t.get("type") == "bar"]
    styles = trace_styles(traces)
    step = _bar_step(traces)
    # A figure with nothing to draw (a summary-only campaign has no latency) still gets axes.
    xs = [x for t in traces for x, _, _ in _points(t)] or (
        [1.0, 10.0] if x_spec.get("type") == "log" else [0.0, 1.0]
    )
    xs += [x + side * step / 2 for t in bars for x, _, _ in _points(t) for side in (-1, 1)]
    legend_rows = math.ceil(len(traces) / ((WIDTH - LEFT) // LEGEND_ITEM)) if traces else 0
    below_plot = AXIS_BOTTOM + legend_rows * LEGEND_ROW
    height = max(HEIGHT, TOP + MIN_PLOT_HEIGHT + below_plot)
    bottom = height - below_plot
    x_axis = _Axis(xs, x_spec, LEFT, WIDTH - RIGHT, zero=False)
    panels = _panels(traces, layout, bottom - TOP) or [("y", layout.get("yaxis", {}), TOP, bottom)]
    title = f"{axis_title(panels[0][1], 'y')} vs {axis_title(x_spec, 'x')}"
    opening = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" '
        f'width="{WIDTH}" height="{height}" role="img" aria-label={quoteattr(title)}>'
    )
    parts = [
        opening,
        f"<title>{escape(title)}</title><style>{STYLE}</style>",
        f'<rect class="bg" width="{WIDTH}" height="{height}"/>',
    ]
    for value, label in x_axis.ticks:
        x = x_axis(value)
        parts.append(f'<line class="grid" x1="{x:.1f}" x2="{x:.1f}" y1="{TOP}" y2="{bottom}"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{bottom + 16}" text-anchor="middle">{escape(label)}</text>'
        )
    parts.append(
        f'<text x="{(LEFT + WIDTH - RIGHT) / 2}" y="{bottom + 36}" text-anchor="middle">'
        f"{escape(axis_title(x_spec, ''))}</text>"
    )
    for annotation in layout.get("annotations", []):
        if isinstance(annotation.get("x"), int | float):
            parts.append(
                f'<text x="{x_axis(annotation["x"]) + 2:.1f}" y="{TOP - 6}" font-size="10">'
                f"{escape(str(annotation.get('text', '')))}</text>"
            )
    for key, spec, panel_top, panel_bottom in panels:
        on_panel = [t for t in traces if t.get("yaxis", "y") == key]
        ys = [y for t in on_panel for _, y, _ in _points(t)] + [
            bound for t in on_panel for _, low, high in _error_bounds(t) for bound in (low, high)
        ]
        y_axis = _Axis(ys or [0.0, 1.0], spec, panel_bottom, panel_top, zero=True)
        for value, label in y_axis.ticks:
            y = y_axis(value)
            parts.append(
                f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
                f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>'
            )
        parts.append(
            f'<text transform="translate(16 {(panel_top + panel_bottom) / 2}) rotate(-90)" '
            f'text-anchor="middle">{escape(axis_title(spec, ""))}</text>'
        )
        for trace in on_panel:
            index = traces.index(trace)
            slot = bars.index(trace) if trace in bars else 0
            parts += _marks(trace, styles[index], x_axis, y_axis, (slot, max(len(bars), 1), step))
    per_row = (WIDTH - LEFT) // LEGEND_ITEM
    for index, trace in enumerate(traces):
        row, column = divmod(index, per_row)
        lx, ly = LEFT + column * LEGEND_ITEM, bottom + AXIS_BOTTOM + row * LEGEND_ROW + 6
        parts.append(
            f'<rect x="{lx}" y="{ly - 9}" width="14" height="4" '
            f'fill="{styles[index][0]}"/>'
            f'<text x="{lx + 20}" y="{ly - 3}">{escape(str(trace.get("name", "")))}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def axis_title(axis: dict[str, Any], fallback: str) -> str:
    return (axis.get("title") or {}).get("text") or fallback
