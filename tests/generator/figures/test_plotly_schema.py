"""Every figure the generator makes for the fixture runs passes plotly.py's validation as it
stands: the generator builds plain dicts unvalidated (generator/figures/plain.py), so this is
where an unknown property or a malformed value would show."""

from __future__ import annotations

import json

from generator.hugo.build_tree import hugo_inputs
from generator.hugo.site_contract import is_figure
from tests.helpers.plotly_schema import plotly_round_trip


def test_every_generated_figure_is_one_plotly_py_accepts_unchanged(fixture_runs):
    figures = {
        rel: json.loads(c) for rel, c in hugo_inputs(fixture_runs).items() if is_figure(rel)
    }
    kinds = {rel.rsplit("/", 1)[1].split("-")[0] for rel in figures}
    assert {"tps.json", "latency.json", "series.json", "monitor", "ibench"} <= kinds
    for rel, figure in figures.items():
        assert plotly_round_trip(figure) == figure, rel
