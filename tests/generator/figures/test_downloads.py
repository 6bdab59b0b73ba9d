"""The files behind each figure (CSV, data JSON, SVG), the browse index, the run tables and
the fast schema validator: pure functions on hand-made figures and on the fixture runs."""

from __future__ import annotations

import copy
import csv
import io
import json
import xml.etree.ElementTree as ET

import pytest

from generator.figures.downloads import figure_csv, figure_data, figure_downloads
from generator.figures.svg import figure_svg, nice_ticks
from generator.hugo.build_tree import hugo_inputs
from generator.pages.browse import variant_options
from generator.pages.numbers import format_number
from generator.pages.run_tables import per_second_tps, status_per_event

SVG = "{http://www.w3.org/2000/svg}"
RANGED = {
    "data": [
        {"type": "scatter", "name": "a <b>", "x": [1, 2, 4], "y": [10.0, 20.0, 15.0],
         "mode": "lines+markers",
         "error_y": {"type": "data", "symmetric": False, "array": [1, 2, 3],
                     "arrayminus": [0.5, 1, 1.5]}},
        {"type": "scatter", "name": "gappy", "x": [1, 2, None, 8, 9], "y": [5, 6, None, 7, 8],
         "mode": "lines"},
    ],
    "layout": {"xaxis": {"title": {"text": "threads"}, "type": "log", "tickvals": [1, 2, 4],
                         "ticktext": ["1", "2", "4"]},
               "yaxis": {"title": {"text": "TPS"}}},
}  # fmt: skip


@pytest.fixture(scope="module")
def generated(fixture_runs) -> dict[str, bytes]:
    return hugo_inputs(fixture_runs)


def test_every_figure_gets_its_downloads(generated):
    for rel in (r for r in generated if r.startswith("static/figures/")):
        stem = "static/" + rel.removeprefix("static/figures/").removesuffix(".json")
        for kind in ("csv", "svg"):
            assert f"{stem}.{kind}" in generated, stem
        owner, name = stem.rsplit("/", 1)
        data = json.loads(generated[f"{owner}/figures.json"])[name]
        drawn = figure_data(json.loads(generated[rel]))
        assert "thinned" not in drawn["x_title"]  # the fixture runs' figures are drawn whole
        assert data == drawn, rel


def test_one_data_json_per_owner_holds_every_point_of_its_figures():
    figures = {
        "static/figures/runs/r/tps.json": RANGED,
        "static/figures/runs/r/latency.json": RANGED,
    }
    downloads = figure_downloads(figures, figures)
    assert json.loads(downloads["static/runs/r/figures.json"]) == {
        "tps": figure_data(RANGED), "latency": figure_data(RANGED)
    }  # fmt: skip


def test_data_and_csv_carry_ranges_and_skip_gaps():
    data = figure_data(RANGED)
    assert data["x_title"] == "threads" and data["y_title"] == "TPS"
    assert data["traces"][0]["low"] == [9.5, 19.0, 13.5]
    assert data["traces"][0]["high"] == [11.0, 22.0, 18.0]
    rows = list(csv.reader(io.StringIO(figure_csv(data))))
    assert rows[0] == ["trace", "threads", "TPS", "low", "high"]
    assert rows[1] == ["a <b>", "1", "10.0", "9.5", "11.0"]
    assert ["gappy", "8", "7", "", ""] in rows
    assert len(rows) == 1 + 3 + 4  # the None point of "gappy" is left out
    figures = {"static/figures/runs/r/tps.json": RANGED}
    assert set(figure_downloads(figures, figures)) == {
        "static/runs/r/tps.csv", "static/runs/r/figures.json", "static/runs/r/tps.svg"
    }  # fmt: skip


def test_svg_draws_lines_split_at_gaps_with_the_figure_s_ticks():
    svg = ET.fromstring(figure_svg(RANGED))
    assert svg.find(f"{SVG}title").text == "TPS vs threads"
    assert len(svg.findall(f"{SVG}polyline")) == 1 + 2  # "gappy" breaks at its None
    assert len(svg.findall(f"{SVG}circle")) == 3  # markers only where the mode asks
    texts = [text.text for text in svg.iter(f"{SVG}text")]
    assert {"1", "2", "4", "a <b>", "gappy", "threads", "TPS"} <= set(texts)


def test_svg_places_text_x_values_as_categories():
    figure = {"data": [{"type": "scatter", "x": ["l.i0", "l.x", "q100"], "y": [3, 1, 2]}]}
    svg = ET.fromstring(figure_svg(figure))
    assert {"l.i0", "l.x", "q100"} <= {text.text for text in svg.iter(f"{SVG}text")}
    (line,) = svg.findall(f"{SVG}polyline")
    assert len(line.get("points").split()) == 3


def test_nice_ticks_are_round_and_cover_the_range():
    assert nice_ticks(0, 47355) == [0, 10000, 20000, 30000, 40000, 50000]
    assert nice_ticks(0, 0.33) == [0, 0.1, 0.2, 0.3, 0.4]
    assert nice_ticks(0, 0) == [0]


def test_variant_options_are_those_that_differ_within_a_campaign(fixture_runs):
    runs = [doc for _, doc in fixture_runs]
    options = variant_options(runs)
    sync1 = next(r for r in runs if r["id"].endswith(".sync-1.oltp-rw.p1"))
    off = next(r for r in runs if r["id"].endswith(".binlog-off.oltp-rw.p1"))
    assert "sync_binlog=1" in options[sync1["id"]]
    assert not any(o.startswith("sync_binlog=") for o in options[off["id"]])
    shared = sync1["server"]["my_cnf_options"]["innodb_buffer_pool_size"]
    assert f"innodb_buffer_pool_size={shared}" not in options[sync1["id"]]


def test_status_counters_per_transaction_are_printed_like_table_numbers(fixture_runs):
    # a tie rounds away from zero, as Hugo's lang.FormatNumber does (tests/site/test_number_format.py)
    assert [format_number(v) for v in (1234.5, 3.0, 0.456, None)] == ["1,235", "3", "0.46", "—"]
    run = next(
        doc for _, doc in fixture_runs if doc["steps"] and "server_status_delta" in doc["steps"][0]
    )
    table = status_per_event(run)
    assert table["threads"] == [step["threads"] for step in run["steps"]]
    names = [row[0] for row in table["rows"]]
    assert names == sorted(names) and "Questions" in names
    questions = next(row for row in table["rows"] if row[0] == "Questions")
    first = run["steps"][0]
    assert questions[1] == format_number(
        first["server_status_delta"]["Questions"] / first["events"]
    )


def test_per_second_tps_has_a_row_per_second_of_the_longest_step(fixture_runs):
    run = next(doc for _, doc in fixture_runs if len(doc["steps"]) > 1)
    table = per_second_tps(run)
    longest = max(len(step["series"]["tps"]) for step in run["steps"])
    assert len(table["rows"]) == longest
    assert table["rows"][0] == ["1", *(format_number(s["series"]["tps"][0]) for s in run["steps"])]


def test_per_second_tps_of_steps_that_kept_no_whole_second_has_no_rows(fixture_runs):
    """A 1 s step can keep no complete second after the warm-up cut: its series is empty."""
    run = copy.deepcopy(next(doc for _, doc in fixture_runs if len(doc["steps"]) > 1))
    for step in run["steps"]:
        step["series"]["tps"] = []
    table = per_second_tps(run)
    assert table["rows"] == [] and table["threads"] == [s["threads"] for s in run["steps"]]


def test_svg_draws_grouped_bars_and_a_second_panel():
    bars = {
        "data": [
            {"type": "bar", "name": "insert", "x": ["≤1 ms", "≤4 ms"], "y": [70, 30]},
            {"type": "bar", "name": "query", "x": ["≤1 ms", "≤4 ms"], "y": [20, 80]},
        ],
        "layout": {"barmode": "group"},
    }
    svg = ET.fromstring(figure_svg(bars))
    rects = [r for r in svg.findall(f"{SVG}rect") if r.get("fill") not in (None, "")]
    assert len([r for r in rects if float(r.get("height", 0)) > 4]) == 4  # bars, not swatches
    panels = {
        "data": [
            {"type": "scatter", "name": "rate", "x": [1, 2], "y": [100, 200]},
            {"type": "scatter", "name": "max ms", "x": [1, 2], "y": [5, 9], "yaxis": "y2"},
        ],
        "layout": {
            "yaxis": {"domain": [0.4, 1], "title": {"text": "per second"}},
            "yaxis2": {"domain": [0, 0.3], "title": {"text": "max ms"}},
        },
    }
    svg = ET.fromstring(figure_svg(panels))
    texts = {text.text for text in svg.iter(f"{SVG}text")}
    assert {"per second", "max ms"} <= texts
    top, low = (line.get("points") for line in svg.findall(f"{SVG}polyline"))
    assert max(float(p.split(",")[1]) for p in top.split()) < min(
        float(p.split(",")[1]) for p in low.split()
    )  # the second panel sits below the first


def test_a_figure_with_nothing_to_draw_on_a_log_axis_still_has_its_drawing():
    """A summary-only campaign gives no latency figure points: its drawing has axes, no marks."""
    empty = {"data": [{"type": "scatter", "x": [], "y": []}], "layout": {"xaxis": {"type": "log"}}}
    drawing = ET.fromstring(figure_svg(empty))
    assert drawing.tag.endswith("svg") and not drawing.findall(".//{*}polyline")
