"""Per-second charts: one rule picks a time axis's ticks (figures/style.py seconds_axis), the
Plotly JSON carries them and the static SVG draws the same ones; and a chart drawn with one
line, which Plotly shows without a legend, names its metric in the y title."""

from __future__ import annotations

import copy
import itertools
import json
import re
from typing import Any

import pytest

from contract import ibench_steps, is_ibench, sysbench_steps
from generator.figures.ibench import ibench_figures
from generator.figures.monitor import metric_words, monitor_figures
from generator.figures.style import SECOND_STEPS, second_ticks, tick_label
from generator.figures.svg import LEFT, RIGHT, WIDTH, figure_svg
from generator.figures.sweep import run_figures
from generator.hugo.build_tree import hugo_inputs
from generator.hugo.site_contract import is_figure
from generator.pages.monitor import monitored_steps

# Between 4 s and about a year: short steps, long steps, monitoring of whole campaigns.
SPANS = [4, 7, 7.9, 8, 9.1, 10, 16, 23.9, 24, 30, 59, 60, 61.5, 63, 90, 120, 299, 300, 960, 1000]
SPANS += [3599, 3600, 5000, 7200, 57600, 86400, 10**6, 3 * 10**7]


@pytest.mark.parametrize("last", SPANS)
def test_a_time_axis_has_5_to_8_whole_second_ticks_from_0_up_to_the_data(last):
    ticks = second_ticks(last)
    assert 5 <= len(ticks) <= 8
    assert all(isinstance(tick, int) for tick in ticks)
    assert ticks[0] == 0 and ticks[-1] <= last
    gaps = {b - a for a, b in itertools.pairwise(ticks)}
    assert len(gaps) == 1  # evenly spaced
    (gap,) = gaps
    assert gap in SECOND_STEPS or gap % 3600 == 0  # nice: clock steps, then whole hours


@pytest.mark.parametrize("last", [0.5, 1, 2, 3, 3.9])
def test_a_span_under_4_seconds_ticks_every_whole_second_never_a_fraction(last):
    assert second_ticks(last) == list(range(int(last) + 1))


def test_a_60_second_step_ticks_every_10_seconds_and_ends_at_its_last_second(fixture_runs):
    run = _sixty_second_run(fixture_runs)
    axis = run_figures(run)["series"]["layout"]["xaxis"]
    assert axis["tickvals"] == [0, 10, 20, 30, 40, 50, 60]
    assert axis["range"] == [0, 60]
    assert "dtick" not in axis and "autorange" not in axis


def _sixty_second_run(fixture_runs) -> dict[str, Any]:
    """A fixture sysbench run whose steps each hold seconds 1..60."""
    run = copy.deepcopy(
        next(r for _, r in fixture_runs if any("series" in s for s in sysbench_steps(r)))
    )
    for step in sysbench_steps(run):
        step["series"] = {"t": list(range(1, 61)), "tps": [100.0] * 60}
    return run


def _time_figures(fixture_runs) -> list[tuple[dict[str, Any], float]]:
    """Every per-second figure of the fixture runs (step series, monitoring, Insert Benchmark
    steps) and the last second it draws."""
    found = []
    for _, run in fixture_runs:
        figures: dict[str, dict[str, Any]] = dict(monitor_figures(run))
        if is_ibench(run):
            figures |= {k: f for k, f in ibench_figures(run).items() if "hist" not in k}
        elif "series" in run_figures(run):
            figures["series"] = run_figures(run)["series"]
        for figure in figures.values():
            xs = [x for t in figure["data"] for x in t["x"] if isinstance(x, int | float)]
            found.append((figure, max(xs)))
    return found


def test_every_per_second_figure_ticks_and_ends_by_the_one_rule(fixture_runs):
    figures = _time_figures(fixture_runs)
    titles = {figure["layout"]["xaxis"]["title"]["text"] for figure, _ in figures}
    assert {"seconds into the step", "seconds since the first step", "seconds into l.i0"} <= titles
    for figure, last in figures:
        axis = figure["layout"]["xaxis"]
        assert axis["tickvals"] == second_ticks(last)
        assert axis["range"] == [0, last]


def _svg_x_ticks(svg: str) -> list[tuple[float, str]]:
    """(x pixel, label) of the SVG's x tick labels: the centred texts on the highest line."""
    texts = re.findall(r'<text x="([\d.]+)" y="(\d+)" text-anchor="middle">([^<]*)</text>', svg)
    row = min(int(y) for _, y, _ in texts)
    return [(float(x), label) for x, y, label in texts if int(y) == row]


def test_the_svg_draws_the_plotly_ticks_and_ends_at_the_last_second(fixture_runs):
    sixty = run_figures(_sixty_second_run(fixture_runs))["series"]
    ticks = _svg_x_ticks(figure_svg(sixty))
    assert ticks[0] == (LEFT, "0") and ticks[-1] == (WIDTH - RIGHT, "60")  # no padding
    for figure, last in [(sixty, 60), *_time_figures(fixture_runs)]:
        axis = figure["layout"]["xaxis"]
        drawn = _svg_x_ticks(figure_svg(figure))
        assert [label for _, label in drawn] == axis["ticktext"]
        assert axis["ticktext"] == [tick_label(tick) for tick in axis["tickvals"]]
        # each where Plotly puts it on the range 0..last, 0 at the left edge, last at the right
        at = [LEFT + tick / last * (WIDTH - RIGHT - LEFT) for tick in axis["tickvals"]]
        assert [x for x, _ in drawn] == pytest.approx(at, abs=0.06)


# What a y title says when it names no metric: fine beside a legend, not on its own.
BARE_UNITS = {"per second", "max ms", "% of statements", "latency (ms)", "%", "KB/s", "KB", ""}


def _drawn(figure: dict[str, Any], axis: str) -> list[dict[str, Any]]:
    return [t for t in figure["data"] if t.get("yaxis", "y") == axis and t.get("x") != [None]]


def test_every_built_single_line_chart_names_its_metric(fixture_runs):
    single = 0
    for rel, content in hugo_inputs(fixture_runs).items():
        if not is_figure(rel):
            continue
        figure = json.loads(content)
        for axis in ("y", "y2"):
            if len(_drawn(figure, axis)) == 1:
                single += 1
                title = figure["layout"][f"{axis[0]}axis{axis[1:]}"]["title"]["text"]
                assert title not in BARE_UNITS, rel
    assert single


def test_a_latency_chart_with_one_percentile_names_it(fixture_runs):
    run = _sixty_second_run(fixture_runs)
    for step in sysbench_steps(run):
        step["latency_ms"].pop("p99", None)
    assert run_figures(run)["latency"]["layout"]["yaxis"]["title"]["text"] == "p95 latency (ms)"


def test_a_monitoring_chart_with_one_line_names_it_with_the_unit(fixture_runs):
    run = copy.deepcopy(next(r for _, r in fixture_runs if monitored_steps(r)))
    for step in monitored_steps(run):
        series = step["monitor"]["series"]
        series.pop("handler_commits_per_s", None)
        series.pop("deadlocks_per_s", None)
    figures = monitor_figures(run)
    y_titles = {k: f["layout"]["yaxis"]["title"]["text"] for k, f in figures.items()}
    assert y_titles["monitor-statements"] == "questions per second"
    assert y_titles["monitor-locks"] == "row lock waits per second"
    assert y_titles["monitor-checkpoint"] == "checkpoint age (KB)"
    assert y_titles["monitor-fsyncs"] == "InnoDB fsyncs per second"
    assert y_titles["monitor-cpu"] == "%"  # several lines: the legend names them
    for figure in figures.values():
        if len(figure["data"]) == 1:
            assert (
                metric_words(figure["data"][0]["name"])
                in figure["layout"]["yaxis"]["title"]["text"]
            )


def test_an_insert_benchmark_step_with_one_role_names_its_rate_and_worst_time(fixture_runs):
    run = next(r for _, r in fixture_runs if is_ibench(r) and ibench_steps(r))
    loads = [s["step"] for s in ibench_steps(run) if s["kind"] in ("load", "index")]
    figures = ibench_figures(run)
    for name in loads:
        slug = name.replace(".", "-")
        if f"ibench-{slug}" not in figures:
            continue
        layout = figures[f"ibench-{slug}"]["layout"]
        assert layout["yaxis"]["title"]["text"] == "inserts per second"
        assert layout["yaxis2"]["title"]["text"] == "max insert response time (ms)"
        hist = figures[f"ibench-hist-{slug}"]["layout"]
        assert hist["yaxis"]["title"]["text"] == "% of insert statements"
        return
    pytest.fail("no Insert Benchmark load step drawn in the fixtures")
