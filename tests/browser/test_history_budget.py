"""A history of 1,000 campaigns per series in headless Chromium: its page stays within the page
weight every page meets (tests/site/test_size_limits.py), each chart's figure within the figure
weight and unthinned (every campaign a point), the first chart paints within the usual
CHART_TIMEOUT, and the x axis buttons switch it to the commit and back to the date."""

from __future__ import annotations

import json
import re

import pytest

from generator.figures.downsample import MAX_POINTS_PER_TRACE
from tests.helpers.headless import CHART_TIMEOUT_MS, served
from tests.helpers.history_runs import recurring, template_run, write_data
from tests.helpers.site_build import build_with_article
from tests.site.test_size_limits import FIGURE_LIMIT, PAGE_LIMIT

pytestmark = pytest.mark.browser

CAMPAIGNS = 1000
PAGE = "/history/recurring/"


@pytest.fixture(scope="module")
def thousand_site(tmp_path_factory):
    """CAMPAIGNS campaigns of one pass each, six levels, dropping by 30 % half-way; the runs cut
    to 5 s steps so that the build's cost is the history's, not a thousand long run pages."""
    template = template_run()  # six thread levels
    for step in template["steps"]:
        step["series"] = {name: values[:5] for name, values in step["series"].items()}
        step["duration_s"] = 5.0
    half = CAMPAIGNS // 2
    runs = recurring(template, [1.0] * half + [0.7] * (CAMPAIGNS - half))
    root = tmp_path_factory.mktemp("thousand")
    return build_with_article(root, "A probe.", [write_data(runs, root / "data")])


@pytest.fixture(scope="module")
def thousand_url(thousand_site):
    with served(thousand_site) as url:
        yield url


def test_the_page_and_its_figures_stay_within_the_weights(thousand_site):
    page = thousand_site / PAGE.strip("/") / "index.html"
    assert page.stat().st_size < PAGE_LIMIT
    urls = re.findall(r'data-plotly-src="([^"]+)"', page.read_text())
    assert len(urls) == 2  # tps and p95
    for url in urls:
        path = thousand_site / url.lstrip("/")
        assert path.stat().st_size < FIGURE_LIMIT, path
        figure = json.loads(path.read_text())
        assert [len(trace["y"]) for trace in figure["data"]] == [CAMPAIGNS] * 6
        assert CAMPAIGNS <= MAX_POINTS_PER_TRACE  # drawn whole, never thinned


def test_the_first_chart_paints_every_campaign_and_switches_its_axis(thousand_url, browser):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(thousand_url + PAGE, wait_until="load")
    box = page.locator("[data-plotly-src]").first
    box.scroll_into_view_if_needed()
    box.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    plot = page.locator(".js-plotly-plot").first
    counts = plot.evaluate("p => p.data.map(t => (t.y || []).length)")
    assert counts == [CAMPAIGNS] * 6
    assert plot.evaluate("p => p._fullLayout.xaxis.type") == "date"
    plot.locator(".updatemenu-button", has_text="commit").click()
    page.wait_for_function(
        "p => p._fullLayout.xaxis.type === 'category'", arg=plot.element_handle()
    )
    plot.locator(".updatemenu-button", has_text="date").click()
    page.wait_for_function("p => p._fullLayout.xaxis.type === 'date'", arg=plot.element_handle())
    assert errors == []
    page.close()
