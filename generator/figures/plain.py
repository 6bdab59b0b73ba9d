"""Figures as the plain JSON plotly.js draws: {"data": [trace ...], "layout": {...}}.

The generator builds no plotly.py objects: building and validating a `go.Figure` was most of
the cost of a run's figures, paid on every build for figures whose shape never changes. The
tests validate every figure the generator makes against plotly's schema instead
(tests/generator/figures/test_plotly_schema.py). Each figure carries only data, axis titles and
ticks; the look (fonts, colours, grid) is js/plot.js's, and `"template": "none"` tells plotly.py,
should a reader load a figure there, not to add its default template (the browser drops it).
"""

from __future__ import annotations

from typing import Any

Figure = dict[str, Any]


def figure(traces: list[dict[str, Any]], layout: dict[str, Any]) -> Figure:
    return {"data": traces, "layout": {"template": "none", **layout}}
