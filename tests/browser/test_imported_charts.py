"""A summary-only campaign (tests/helpers/imported_runs.py) in headless Chromium: its charts draw
from the published figures, each imported variant named with its evidence in the legend, and
/browse/ offers the evidence filter."""

from __future__ import annotations

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
        arg=len(imported.SUMMARY_FIGURES) + 1,  # the mixed campaign's published variant too
    )
    assert all("summary only" in text for text in rows.all_text_contents())
    page.close()
