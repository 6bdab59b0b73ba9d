"""A release series' figures (pages/series.py): releases on the x axis in the campaign's order,
one line per test through its value relative to the oldest release, a point marked ▲ / ▼ where
the release is better / worse than its predecessor beyond ±5 % and outside the noise."""

from __future__ import annotations

from typing import Any

from generator.figures.plain import Figure, figure

# A point's symbol by the verdict against its predecessor (the oldest release has none).
SYMBOLS = {"better": "triangle-up", "worse": "triangle-down"}
PLAIN_SYMBOL = "circle"
# Short enough to fit along the plot's height, a phone's included; the caption says the rest.
Y_TITLES = {
    "throughput": "QPS ÷ {base}, ↑ better",
    "instructions": "instr/op ÷ {base}, ↓ better",
}


def _mark(cell: dict[str, Any]) -> tuple[str, str]:
    """(symbol, hover note) of a point from its predecessor verdict."""
    if cell["ratio"] is None:
        return PLAIN_SYMBOL, ""
    note = f"{cell['ratio']:.2f} of its predecessor"
    if cell["verdict"] in SYMBOLS:
        return SYMBOLS[cell["verdict"]], f"{note}: {cell['verdict']}"
    return PLAIN_SYMBOL, note


def series_figures(series: dict[str, Any]) -> dict[str, Figure]:
    """{"series-throughput": ..., "series-instructions": ...} for the metrics the series has."""
    labels = [f"{r['version']} ({r['variant']})" for r in series["releases"]]
    figures = {}
    for key in ("throughput", "instructions"):
        if key not in series:
            continue
        traces = []
        for row in series[key]["rows"]:
            marks = [(PLAIN_SYMBOL, ""), *(_mark(cell) for cell in row["to_predecessor"])]
            traces.append(
                {
                    "type": "scatter",
                    "mode": "lines+markers",
                    "name": row["test"],
                    "x": labels,
                    "y": [cell["ratio"] for cell in row["to_base"]],
                    "marker": {"symbol": [symbol for symbol, _ in marks], "size": 10},
                    "hovertext": [note for _, note in marks],
                }
            )
        layout = {
            "xaxis": {"title": {"text": "release"}, "type": "category"},
            "yaxis": {"title": {"text": Y_TITLES[key].format(base=series["base"])}},
            "hovermode": "closest",
        }
        figures[f"series-{key}"] = figure(traces, layout)
    return figures
