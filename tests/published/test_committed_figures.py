"""The figures of a sample of the committed runs (the first run of every campaign, and those
runs' campaign overlays) pass plotly.py's validation as they stand; the fixture runs' figures
are checked the same way in tests/generator/figures/test_plotly_schema.py."""

from __future__ import annotations

import json

import contract
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.site_contract import is_figure
from tests.helpers.plotly_schema import plotly_round_trip


def test_the_figures_of_the_first_run_of_every_campaign_are_valid(committed_runs):
    first = {}
    for run_file in committed_runs:  # sorted by id
        first.setdefault(run_file.doc["campaign"]["id"], run_file)
    files = hugo_inputs(list(first.values()))
    figures = {rel: json.loads(content) for rel, content in files.items() if is_figure(rel)}
    owners = {rel.split("/")[3] for rel in figures if rel.startswith("static/figures/runs/")}
    # a summary table's runs give figures only to their campaign's charts
    drawn = [r for r in first.values() if r.doc["steps"] and contract.recorded_steps(r.doc)]
    assert len(owners) == len(drawn)
    for rel, figure in figures.items():
        assert plotly_round_trip(figure) == figure, rel
