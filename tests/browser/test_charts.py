"""Charts and lists in headless Chromium: the modebar offers no cloud or select button and no
tab stop, and /browse/ names repeated runs apart."""

from __future__ import annotations

import pytest

from tests.helpers.headless import CHART_TIMEOUT_MS

pytestmark = pytest.mark.browser

FORBIDDEN_TITLES = ("cloud", "chart studio", "select", "lasso", "plotly", "pan", "zoom in")


def _first_run_page(public) -> str:
    page = min(public.glob("runs/*/index.html"))
    return "/" + page.parent.relative_to(public).as_posix() + "/"


def test_modebar_has_no_cloud_or_select_button_and_no_tab_stop(built_site, site_url, browser):
    _, public = built_site
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(site_url + _first_run_page(public), wait_until="load")
    chart = page.locator("[data-plotly-src]").first
    chart.scroll_into_view_if_needed()
    chart.locator(".modebar").wait_for(state="attached", timeout=CHART_TIMEOUT_MS)
    titles = page.eval_on_selector_all(
        ".modebar-btn", "buttons => buttons.map(b => b.getAttribute('data-title'))"
    )
    assert titles, "the drawn chart has no modebar"
    assert len(titles) == len(page.locator(".js-plotly-plot").all()) * 2  # download + reset
    for title in titles:
        assert not any(word in title.lower() for word in FORBIDDEN_TITLES), title
    page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)")
    stops = page.eval_on_selector_all("a, button, [tabindex]", "els => els.length")
    for _ in range(stops + 5):
        page.keyboard.press("Tab")
        inside = page.evaluate("!!document.activeElement?.closest('.modebar')")
        assert not inside, "a Tab stopped in a chart's modebar"
    page.close()


def test_browse_names_repeated_runs_apart(site_url, browser, committed_runs):
    page = browser.new_page()
    page.goto(site_url + "/browse/", wait_until="load")
    page.locator("#browse-results tbody tr").first.wait_for()
    rows = page.eval_on_selector_all(
        "#browse-results tbody tr",
        "rows => rows.map(r => [r.cells[0].textContent, r.cells[2].textContent])",
    )
    assert len(rows) == len(committed_runs)
    repeated = sum(1 for _, run in committed_runs if run.get("repeat"))
    # (name, campaign) of the passes of repeated campaigns: each pass reads apart
    passes = {(name, campaign) for name, campaign in rows if ", repeat " in name}
    assert repeated and len(passes) == repeated
    headlines = page.eval_on_selector_all(
        "#browse-results tbody tr td.n", "cells => cells.map(c => c.textContent)"
    )
    assert not any(cell.startswith("0 ") or cell == "0" for cell in headlines)
    page.close()
