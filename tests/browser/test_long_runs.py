"""The pages of runs at the schema's size limits in headless Chromium: every chart paints (within
the usual CHART_TIMEOUT), drawing the thinned figures, and the thinned ones say so."""

from __future__ import annotations

import pytest

from generator.figures.downsample import MAX_POINTS_PER_FIGURE
from tests.helpers.headless import CHART_TIMEOUT_MS, served
from tests.helpers.long_runs import long_series_run, many_steps_run

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def long_url(long_site):
    with served(long_site) as url:
        yield url


@pytest.mark.parametrize("run", [long_series_run(), many_steps_run()], ids=["long", "many"])
def test_every_chart_of_a_long_run_paints(long_url, browser, run):
    errors: list[str] = []
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.goto(f"{long_url}/runs/{run['id']}/", wait_until="load")
    placeholders = page.locator("[data-plotly-src]")
    assert placeholders.count() > 0
    for index in range(placeholders.count()):
        chart = placeholders.nth(index)
        chart.scroll_into_view_if_needed()
        chart.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    points = page.eval_on_selector_all(
        ".js-plotly-plot",
        "plots => plots.map(p => p.data.reduce((n, t) => n + (t.y || []).length, 0))",
    )
    assert len(points) == placeholders.count()
    assert max(points) <= MAX_POINTS_PER_FIGURE + 4096  # + the breaks between steps
    series = page.locator("#fig-runs-" + run["id"].replace(".", "-") + "-series")
    assert "thinned" in series.inner_text()
    assert errors == []
    page.close()
