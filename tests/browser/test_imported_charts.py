"""A summary-only campaign (tests/helpers/imported_runs.py) in headless Chromium: its charts draw
from the published figures, each imported variant named with its evidence in the legend, and
/browse/ offers the evidence filter. A table published in QPS opens its compare view on QPS,
from its campaign page's link or with no metric named, and a log written at --percentile=99
drills down into a p99 series."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import sync_playwright

from generator.hugo.load import load_runs
from tests.helpers import imported_runs as imported
from tests.helpers.headless import CHART_TIMEOUT_MS, launch, served
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.repeated_runs import write_runs
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def imported_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("imported-browser")
    documents = imported.imported_fixtures([run for _, run in load_runs([FIXTURE_RUNS])])
    write_runs(documents, root / "data")
    public = build_with_article(root, "No shortcode here.", [root / "data"])
    with served(public) as url, sync_playwright() as playwright:
        browser = launch(playwright)
        yield url, browser
        browser.close()


def test_a_summary_only_campaigns_chart_draws(imported_site):
    url, browser = imported_site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/campaigns/{imported.SUMMARY_CAMPAIGN}/")
    chart = page.locator(f"#fig-campaigns-{imported.SUMMARY_CAMPAIGN}-oltp-rw-tps")
    chart.scroll_into_view_if_needed()
    chart.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    # one line per variant through the published figures, its legend naming the evidence
    assert chart.locator(".scatterlayer .trace").count() == len(imported.SUMMARY_FIGURES)
    legend = chart.locator(".legendtext").all_text_contents()
    assert legend == [f"{variant} (summary)" for variant in imported.SUMMARY_FIGURES]
    points = chart.locator(".scatterlayer .trace").first.locator(".point")
    assert points.count() == len(imported.SUMMARY_FIGURES["v10-6"])
    page.close()


def test_browse_filters_runs_by_evidence(imported_site):
    url, browser = imported_site
    page = browser.new_page()
    page.goto(f"{url}/browse/")
    page.locator("#browse-filters").wait_for()
    page.select_option("select[name=evidence]", "summary")
    rows = page.locator("#browse-results tbody tr")
    page.wait_for_function(
        "n => document.querySelectorAll('#browse-results tbody tr').length === n",
        # the mixed campaign's published variant and the table published in QPS too
        arg=len(imported.SUMMARY_FIGURES) + 1 + len(imported.QPS_FIGURES),
    )
    assert all("summary only" in text for text in rows.all_text_contents())
    page.close()


def _drawn_throughput(page) -> list[list[float]]:
    """The compare page's throughput chart, once drawn: each line's values."""
    page.locator("#compare-throughput .main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    return page.eval_on_selector("#compare-throughput", "el => el.data.map((t) => t.y)")


def test_the_compare_link_of_a_campaign_published_in_qps_draws_its_qps(imported_site):
    url, browser = imported_site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/campaigns/{imported.QPS_CAMPAIGN}/")
    page.click("nav.toc a:text-is('Compare these runs')")
    assert _drawn_throughput(page) == [[qps] for _, qps in imported.QPS_FIGURES.values()]
    assert page.input_value("#compare-metric") == "qps"
    page.close()


def test_a_compare_view_naming_no_metric_opens_on_one_its_runs_give(imported_site):
    url, browser = imported_site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/compare/?campaign={imported.QPS_CAMPAIGN}")
    assert _drawn_throughput(page) == [[qps] for _, qps in imported.QPS_FIGURES.values()]
    assert parse_qs(urlparse(page.url).query)["metric"] == ["qps"]
    page.close()


def test_a_log_at_the_99th_percentile_drills_down_into_its_p99_seconds(imported_site):
    url, browser = imported_site
    run = imported.percentile_log_run()
    (step,) = run["steps"]
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(f"{url}/runs/{imported.PERCENTILE_RUN}/")
    chart = page.locator(f"#fig-runs-{imported.PERCENTILE_RUN.replace('.', '-')}-tps")
    chart.scroll_into_view_if_needed()
    marker = chart.locator(".scatterlayer .trace .points path").first
    marker.wait_for(timeout=CHART_TIMEOUT_MS)
    box = marker.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    panel = page.locator(".drilldown")
    page.wait_for_function(
        "() => document.querySelectorAll('.drilldown .js-plotly-plot').length === 2"
    )
    assert panel.locator("h4").all_text_contents() == ["TPS per second", "p99 latency per second"]
    plots = page.eval_on_selector_all(".drilldown .js-plotly-plot", "ps => ps.map(p => p.data[0])")
    assert plots[1]["name"] == "p99" and plots[1]["y"] == step["series"]["p99_ms"]
    assert len(plots[1]["y"]) == 15
    header = panel.locator("table thead th").all_text_contents()
    assert header == ["second", "TPS", "QPS", "p99 (ms)"]
    page.close()
