"""The check the generator leaves to the tests: a generated figure (a plain dict,
generator/figures/plain.py) is one plotly.py accepts as it stands."""

from __future__ import annotations

import json
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio


def plotly_round_trip(figure: dict[str, Any]) -> dict[str, Any]:
    """The figure through plotly.py's validators (which raise on any property or value plotly.js
    would not know) and back to JSON, with the "none" template plotly.py expands written as the
    generator writes it."""
    checked = json.loads(go.Figure(figure).to_json())
    if checked["layout"].get("template") == pio.templates["none"].to_plotly_json():
        checked["layout"]["template"] = "none"
    return checked
