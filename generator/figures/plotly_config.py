"""The one Plotly config every chart of the site is drawn with (js/plot.js reads it from the
page, where _partials/scripts.html writes it from hugo.Data.plotly).

The site must work offline and send nothing anywhere: no Plotly logo link, no "Share chart" /
"Edit in Chart Studio" buttons (they upload the figure to a public cloud service), and no
plotlyServerURL to upload to. The charts are lines and bars against threads or seconds, so
box/lasso select, spikelines and the zoom/pan toggles mean nothing; the modebar keeps two
buttons, the SVG download and the reset of a drag-zoom (dragging still zooms, a double click
also resets). js/plot.js takes its buttons out of the tab order: every link under the chart
(CSV, JSON, SVG) offers the same by keyboard.
"""

from __future__ import annotations

from typing import Any

# The keys a config may never enable (tests/site scans every built page and script for them).
CLOUD_KEYS = ("showSendToCloud", "showEditInChartStudio", "showLink", "sendData", "linkText")

PLOTLY_CONFIG: dict[str, Any] = {
    "responsive": True,
    "displaylogo": False,
    "showSendToCloud": False,
    "showEditInChartStudio": False,
    "showLink": False,
    "plotlyServerURL": "",
    "modeBarButtons": [["toImage", "resetScale2d"]],
    "toImageButtonOptions": {"format": "svg"},
}
