"""Runs at the size the schema allows, through a real Hugo build: every page stays under a stated
size, every chart under a bounded number of points, and a long option value stays out of the
shared indexes and feeds (the run page and run.json keep it whole)."""

from __future__ import annotations

import json

import pytest

from generator.figures.downsample import MAX_POINTS_PER_FIGURE, MAX_POINTS_PER_TRACE
from generator.pages.browse import shortened
from tests.helpers.long_runs import LONG_VALUE, long_series_run, many_steps_run

pytestmark = pytest.mark.site

PAGE_LIMIT = 2_000_000  # bytes of HTML, for a run of 2,000 thread levels or a day-long step
FIGURE_LIMIT = 1_000_000  # bytes of a chart's figure JSON, what the browser fetches to draw it


def test_every_page_stays_under_the_limit(long_site):
    pages = list(long_site.rglob("*.html"))
    for run in (many_steps_run(), long_series_run()):
        assert (long_site / "runs" / run["id"] / "index.html") in pages
    sizes = {page: page.stat().st_size for page in pages}
    assert max(sizes.values()) < PAGE_LIMIT, max(sizes, key=sizes.__getitem__)


def test_every_chart_is_bounded_and_says_when_it_is_thinned(long_site):
    figures = list((long_site / "figures").rglob("*.json"))
    assert figures
    thinned = []
    for path in figures:
        assert path.stat().st_size < FIGURE_LIMIT, path
        figure = json.loads(path.read_text())
        points = [sum(y is not None for y in trace.get("y", [])) for trace in figure["data"]]
        assert max(points, default=0) <= MAX_POINTS_PER_TRACE, path
        assert sum(points) <= MAX_POINTS_PER_FIGURE, path
        if "thinned" in json.dumps(figure.get("layout", {}).get("xaxis", {})):
            thinned.append(path.relative_to(long_site).as_posix())
    long_run = long_series_run()["id"]
    assert f"figures/runs/{long_run}/series.json" in thinned
    assert f"figures/runs/{long_run}/monitor-cpu.json" in thinned


def test_the_downloads_keep_every_point(long_site):
    run = long_series_run()
    csv = (long_site / "runs" / run["id"] / "series.csv").read_text()
    assert csv.count("\n") == 1 + sum(len(step["series"]["t"]) for step in run["steps"])
    assert json.loads((long_site / "runs" / run["id"] / "run.json").read_text()) == run


def test_a_long_option_value_stays_out_of_indexes_and_feeds(long_site):
    marker = LONG_VALUE[:100]
    shared = [long_site / "browse" / "index.html", long_site / "index.html"]
    shared += list(long_site.rglob("*.xml"))
    shared += [p for p in long_site.rglob("*.json") if "/runs/" not in p.as_posix()]
    for path in shared:
        assert marker not in path.read_text(errors="replace"), path
    [browse] = (long_site / "browse").glob("filters.*.json")
    assert "optimizer_switch=" + shortened(LONG_VALUE + "1") in browse.read_text()
    run = many_steps_run()
    assert LONG_VALUE + "1" in (long_site / "runs" / run["id"] / "run.json").read_text()
