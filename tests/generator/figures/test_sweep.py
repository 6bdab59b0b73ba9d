"""Figures and generated Hugo inputs, computed from the fixture runs (tests/fixtures/runs)."""

from __future__ import annotations

import re

import plotly.offline

from generator.analysis.trust import run_trust
from generator.analysis.verdict import FLAG_KINDS
from generator.figures.svg import figure_svg
from generator.figures.sweep import HOLLOW_LEGEND, campaign_figures, run_figures
from generator.hugo.build_tree import hugo_inputs
from generator.pages.campaign import summarize_campaigns
from tests.helpers.paths import REPO


def test_run_figures_plot_each_step(fixture_runs):
    for _, run in fixture_runs:
        if not run["steps"] or run["workload"]["tool"] == "ibench":  # test_generator_ibench.py
            continue
        threads = [step["threads"] for step in run["steps"]]
        figures = run_figures(run)
        tps = figures["tps"]
        assert tps["data"][0]["x"] == threads
        assert tps["data"][0]["y"] == [step["tps"] for step in run["steps"]]
        assert tps["layout"]["xaxis"]["tickvals"] == threads
        p95 = next(trace for trace in figures["latency"]["data"] if trace["name"] == "p95")
        assert p95["y"] == [step["latency_ms"]["p95"] for step in run["steps"]]
        series = figures["series"]["data"]
        assert [trace["y"] for trace in series] == [s["series"]["tps"] for s in run["steps"]]


def test_flagged_steps_are_hollow_on_the_tps_curve_with_their_kinds_on_hover(fixture_runs):
    marked = 0
    for _, run in fixture_runs:
        if not run["steps"] or run["workload"]["tool"] == "ibench":
            continue
        trust = run_trust(run)
        traces = run_figures(run, trust)["tps"]["data"]
        line = traces[0]
        flagged = [bool(entry["flags"]) for entry in trust]
        if any(flagged):
            assert line["marker"]["symbol"] == ["circle-open" if f else "circle" for f in flagged]
            for entry, note in zip(trust, line["hovertext"], strict=True):
                labels = [FLAG_KINDS[flag["kind"]][0] for flag in entry["flags"]]
                assert note == (f"flagged: {', '.join(dict.fromkeys(labels))}" if labels else "")
            assert traces[-1]["name"] == HOLLOW_LEGEND and traces[-1]["x"] == [None]
            marked += 1
        else:
            assert "marker" not in line and len(traces) == 1
    assert marked  # the fixture runs have flagged steps (measured on a shared 2-core VM)


def test_campaign_figures_have_a_line_per_variant(fixture_runs):
    for summary in summarize_campaigns([run for _, run in fixture_runs]):
        for workload in summary["workloads"]:
            figure = campaign_figures(workload)["tps"]
            names = [trace["name"] for trace in figure["data"]]
            assert names[: len(workload["variants"])] == workload["variants"]
            assert names[len(workload["variants"]) :] in ([], [HOLLOW_LEGEND])


def test_a_campaign_point_is_hollow_when_its_value_rests_on_flagged_passes():
    def cell(value: float, flagged: int, judged_on: str) -> dict:
        kinds = {"transient": flagged} if flagged else {}
        flags = {"passes": 3, "flagged": flagged, "kinds": kinds}
        return {
            "value": value,
            "low": value,
            "high": value,
            "flags": flags,
            "judged_on": judged_on,
        }

    table = {
        "label": "Transactions per second",
        "unit": "TPS",
        "variants": ["a"],
        "most_repeats": 3,
        "rows": [
            {"threads": 1, "cells": [cell(10.0, 0, "all")]},
            {"threads": 2, "cells": [cell(20.0, 1, "unflagged")]},
            {"threads": 4, "cells": [cell(30.0, 2, "all")]},
        ],
    }
    traces = campaign_figures({"metrics": {"tps": table}})["tps"]["data"]
    assert traces[0]["marker"]["symbol"] == ["circle", "circle", "circle-open"]
    assert traces[0]["hovertext"] == ["", "", "2 of 3 passes flagged: transient"]
    assert traces[1]["name"] == HOLLOW_LEGEND
    svg = figure_svg(campaign_figures({"metrics": {"tps": table}})["tps"])
    assert len(re.findall(r'<circle [^>]*fill="none"', svg)) == 1  # the hollow point


def test_figure_json_is_small_plain_and_deterministic(fixture_runs):
    first = hugo_inputs(fixture_runs)
    second = hugo_inputs(fixture_runs)
    assert first == second
    figures = {rel: content for rel, content in first.items() if rel.startswith("static/figures/")}
    assert figures
    for rel, content in figures.items():
        text = content.decode()
        # Plain lists, not base64 typed arrays; no 7 KB default template in every file.
        assert "bdata" not in text, rel
        assert "colorway" not in text, rel


def test_generated_downloads_are_the_run_files(fixture_runs):
    files = hugo_inputs(fixture_runs)
    for path, run in fixture_runs:
        assert files[f"static/runs/{run['id']}/run.json"] == path.read_bytes()
        assert files[f"static/runs/{run['id']}/my.cnf"].decode() == run["server"]["my_cnf"]


def test_vendored_plotly_js_matches_plotly_py():
    # The basic bundle, committed by tools/fetch-plotly.sh; its header names the version.
    vendored = (REPO / "site" / "assets" / "vendor" / "plotly-basic.min.js").read_bytes()
    header = re.search(rb"plotly\.js \(basic - minified\) v(\d+\.\d+\.\d+)", vendored[:200])
    assert header is not None
    assert header.group(1).decode() == plotly.offline.get_plotlyjs_version()
