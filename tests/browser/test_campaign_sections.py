"""Folded workload sections of a campaign page in headless Chromium: a TOC link, an address
ending in #workload-…, and an older link to a workload's heading all open their section, and a
chart in a section the reader opens later draws."""

from __future__ import annotations

import pytest

from tests.helpers.headless import CHART_TIMEOUT_MS

pytestmark = pytest.mark.browser

# The suite campaign: 33 workloads, so all but the first start folded.
CAMPAIGN = "/campaigns/callaghan-10-11-vs-11-4-20261122-045700/"
VIEWPORT = {"width": 1280, "height": 900}


def _is_open(page, section: str) -> bool:
    return page.evaluate("id => document.getElementById(id).open", section)


def _chart_drawn(page, section: str) -> None:
    page.locator(
        f"#{section} [data-plotly-src] .js-plotly-plot, #{section} .js-plotly-plot"
    ).first.wait_for(state="attached", timeout=CHART_TIMEOUT_MS)


def test_a_toc_link_opens_its_folded_section_and_its_chart_draws(site_url, browser):
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(site_url + CAMPAIGN, wait_until="load")
    assert _is_open(page, "workload-delete-r100")
    assert not _is_open(page, "workload-read-write-r10")
    page.click('nav.toc a[href="#workload-read-write-r10"]')
    page.wait_for_function("document.getElementById('workload-read-write-r10').open")
    top = page.evaluate(
        "document.getElementById('workload-read-write-r10').getBoundingClientRect().top"
    )
    assert 0 <= top < VIEWPORT["height"] / 2  # scrolled to it
    _chart_drawn(page, "workload-read-write-r10")
    # folded again by the reader, the same link opens it again (no hashchange this time)
    page.click("#workload-read-write-r10 > summary")
    assert not _is_open(page, "workload-read-write-r10")
    page.evaluate("window.scrollTo(0, 0)")
    page.click('nav.toc a[href="#workload-read-write-r10"]')
    page.wait_for_function("document.getElementById('workload-read-write-r10').open")
    page.close()


@pytest.mark.parametrize(
    ("fragment", "section"),
    [("workload-scan-r100", "workload-scan-r100"), ("insert-r100", "workload-insert-r100")],
)
def test_an_address_into_a_folded_section_opens_it(site_url, browser, fragment, section):
    """#workload-… as an article links it, and the heading id links made before the folding."""
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(f"{site_url}{CAMPAIGN}#{fragment}", wait_until="load")
    page.wait_for_function("id => document.getElementById(id).open", arg=section)
    assert not _is_open(page, "workload-hot-points-r100")  # only the target opened
    _chart_drawn(page, section)
    page.close()


def test_a_chart_in_a_section_opened_later_draws(site_url, browser):
    page = browser.new_page(viewport=VIEWPORT)
    page.goto(site_url + CAMPAIGN, wait_until="load")
    section = "workload-update-one-r100"
    page.locator(f"#{section} > summary").scroll_into_view_if_needed()
    page.wait_for_timeout(500)  # the lazy loader has seen the folded chart and drawn nothing
    assert page.locator(f"#{section} .js-plotly-plot").count() == 0
    page.click(f"#{section} > summary")
    assert _is_open(page, section)
    _chart_drawn(page, section)
    page.close()
