"""Long lines thinned for drawing: bounded points, the extremes and breaks kept, every point still
in the downloads."""

import csv
import io
import json

from generator.figures.downloads import figure_downloads
from generator.figures.downsample import (
    MAX_ANNOTATIONS,
    MAX_POINTS_PER_FIGURE,
    MAX_POINTS_PER_TRACE,
    MAX_TICKS,
    thin_figure,
)
from generator.figures.monitor import monitor_figures
from generator.figures.sweep import run_figures
from generator.hugo.site_contract import figure_data_download, figure_download_stem, run_figure
from tests.helpers.long_runs import (
    LONG_SERIES,
    MANY_STEPS,
    STALL_SECOND,
    long_series_run,
    many_steps_run,
)


def _points(figure: dict) -> list[int]:
    return [sum(y is not None for y in trace["y"]) for trace in figure["data"]]


def _as_dict(figure) -> dict:
    return json.loads(json.dumps(figure))  # as the build writes it


def test_a_short_figure_is_left_alone():
    figure = {"data": [{"type": "scatter", "x": [1, 2, 3], "y": [4, 5, 6]}], "layout": {}}
    assert thin_figure(figure) is None


def test_a_day_long_series_keeps_its_shape_stall_and_peaks():
    run = long_series_run()
    figure = _as_dict(run_figures(run)["series"])
    thinned = thin_figure(figure)
    assert thinned is not None
    long_trace, short_trace = thinned["data"][1], thinned["data"][0]
    assert max(_points(thinned)) <= MAX_POINTS_PER_TRACE
    assert short_trace["y"] == figure["data"][0]["y"]  # 30 points: nothing to thin
    full = figure["data"][1]["y"]
    assert min(long_trace["y"]) == 0.0 == full[STALL_SECOND]  # the one-second stall survives
    assert max(long_trace["y"]) == max(full)
    assert long_trace["x"][long_trace["y"].index(0.0)] == STALL_SECOND + 1  # at its own second
    assert long_trace["x"] == sorted(long_trace["x"])  # still in time order
    assert "thinned" in thinned["layout"]["xaxis"]["title"]["text"]


def test_a_monitor_chart_keeps_the_break_between_steps():
    run = long_series_run()
    figure = _as_dict(monitor_figures(run)["monitor-cpu"])
    thinned = thin_figure(figure)
    assert thinned is not None
    for trace in thinned["data"]:
        assert sum(y is not None for y in trace["y"]) <= MAX_POINTS_PER_TRACE
        assert trace["y"].count(None) == 1  # the gap between the two steps
    assert sum(_points(thinned)) <= MAX_POINTS_PER_FIGURE


def test_thousands_of_steps_share_the_figure_budget():
    run = many_steps_run()
    figures = {name: _as_dict(figure) for name, figure in run_figures(run).items()}
    series = thin_figure(figures["series"])
    assert series is not None and len(series["data"]) == MANY_STEPS
    assert sum(_points(series)) <= MAX_POINTS_PER_FIGURE
    monitor = thin_figure(_as_dict(monitor_figures(run)["monitor-cpu"]))
    assert monitor is not None
    assert len(monitor["layout"]["annotations"]) <= MAX_ANNOTATIONS
    assert sum(_points(monitor)) <= MAX_POINTS_PER_FIGURE
    # A sweep of 2,000 levels fits one line's budget, but not 2,000 tick labels.
    tps = thin_figure(figures["tps"])
    assert tps is not None and len(tps["data"][0]["x"]) == MANY_STEPS
    ticks = tps["layout"]["xaxis"]
    assert len(ticks["tickvals"]) == len(ticks["ticktext"]) <= MAX_TICKS
    assert ticks["tickvals"][0] == 1


def test_downloads_keep_every_point_and_the_drawing_is_thinned():
    run = long_series_run()
    rel = run_figure(run["id"], "series")
    figure = run_figures(run)["series"]
    thinned = thin_figure(figure)
    assert thinned is not None
    downloads = figure_downloads({rel: figure}, {rel: thinned})
    stem = figure_download_stem(rel)
    rows = list(csv.reader(io.StringIO(downloads[f"{stem}.csv"].decode())))
    assert len(rows) == 1 + 30 + LONG_SERIES
    data = json.loads(downloads[figure_data_download(rel)])["series"]
    assert len(data["traces"][1]["y"]) == LONG_SERIES
    drawn = downloads[f"{stem}.svg"].decode()
    assert len(drawn) < 200_000 and "thinned" in drawn
    assert max(_points(thinned)) <= MAX_POINTS_PER_TRACE
