"""Charts and lists in headless Chromium: a chart's static drawing shows before plotly.js arrives
and the Plotly chart replaces it in a box of the same height, the modebar offers no cloud or
select button and no tab stop, and /browse/ names repeated runs apart."""

from __future__ import annotations

import pytest

from tests.helpers.headless import CHART_TIMEOUT_MS, show_every_row

pytestmark = pytest.mark.browser

FORBIDDEN_TITLES = ("cloud", "chart studio", "select", "lasso", "plotly", "pan", "zoom in")


def _first_run_page(public) -> str:
    page = min(public.glob("runs/*/index.html"))
    return "/" + page.parent.relative_to(public).as_posix() + "/"


def _named_images(figure, label: str) -> int:
    """How many images the accessibility tree names with label inside figure."""
    return figure.aria_snapshot().count(f'img "{label}"')


def test_the_drawing_shows_at_once_and_the_chart_replaces_it_in_place(
    built_site, site_url, browser
):
    _, public = built_site
    article = min(public.glob("posts/*/index.html"))
    path = "/" + article.parent.relative_to(public).as_posix() + "/"
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    held = []  # plotly.js requests, answered only once the drawing has been checked
    page.route("**/plotly-basic*.js", lambda route: held.append(route))
    box = page.locator("[data-plotly-src]").first
    figure = page.locator("figure.chart").first
    with page.expect_request("**/plotly-basic*.js", timeout=CHART_TIMEOUT_MS):
        page.goto(site_url + path)
        box.scroll_into_view_if_needed()
    drawing = box.locator("img.chart-static")
    label = drawing.get_attribute("alt")
    assert label
    assert drawing.get_attribute("loading") == "eager"
    page.wait_for_function("document.querySelector('img.chart-static').complete")
    assert drawing.evaluate("img => img.naturalWidth") > 0
    shown = drawing.bounding_box()
    before = box.bounding_box()
    assert shown["width"] > 0 and shown["height"] > 0
    assert shown == before  # the drawing fills the box
    assert box.locator(".main-svg").count() == 0  # nothing drawn yet: plotly.js is held
    assert _named_images(figure, label) == 1

    for route in held:
        route.continue_()
    box.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
    drawing.wait_for(state="detached", timeout=CHART_TIMEOUT_MS)
    after = box.bounding_box()
    chart = box.locator(".main-svg").first.bounding_box()
    assert abs(after["height"] - before["height"]) <= 2
    assert abs(after["y"] - before["y"]) <= 2
    assert abs(chart["height"] - after["height"]) <= 2  # Plotly fills the box it was given
    # named on Plotly's drawing, not the box, which holds the modebar's buttons
    assert box.get_attribute("role") is None
    assert box.locator(".main-svg").first.get_attribute("aria-label") == label
    assert _named_images(figure, label) == 1
    page.close()


def test_a_chart_that_cannot_draw_keeps_its_drawing(built_site, site_url, browser):
    _, public = built_site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.route("**/plotly-basic*.js", lambda route: route.abort())
    page.goto(site_url + _first_run_page(public))
    box = page.locator("[data-plotly-src]").first
    box.scroll_into_view_if_needed()
    note = page.locator("figure.chart").first.locator(".chart-error")
    note.wait_for(timeout=CHART_TIMEOUT_MS)
    assert "Chart unavailable" in note.text_content()
    assert note.text_content().endswith("see the data table below.")
    page.wait_for_function("document.querySelector('img.chart-static').complete")
    assert box.locator("img.chart-static").evaluate("img => img.naturalWidth") > 0
    page.close()


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
    page.locator("#browse-filters").wait_for()  # the script has drawn its list
    show_every_row(page, len(committed_runs))
    rows = page.eval_on_selector_all(
        "#browse-results tbody tr",
        "rows => rows.map(r => [0, 1, 2].map(i => r.cells[i].textContent))",
    )
    assert len(rows) == len(committed_runs)
    repeated = sum(1 for _, run in committed_runs if run.get("repeat"))
    # (name, date, campaign) of the passes of repeated campaigns: each pass reads apart, also
    # from the passes of an earlier campaign of the same file (and title)
    passes = {tuple(row) for row in rows if ", repeat " in row[0]}
    assert repeated and len(passes) == repeated
    headlines = page.eval_on_selector_all(
        "#browse-results tbody tr td.n", "cells => cells.map(c => c.textContent)"
    )
    assert not any(cell.startswith("0 ") or cell == "0" for cell in headlines)
    page.close()
