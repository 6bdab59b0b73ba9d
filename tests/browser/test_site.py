"""Open the built site in headless Debian Chromium: every chart draws, nothing errors.

Needs /usr/bin/chromium (override with MYBENCH_CHROMIUM); the test fails when it is missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.headless import CHART_TIMEOUT_MS
from tests.helpers.site_build import PAGER_SIZE

pytestmark = pytest.mark.browser


def _page_paths(public: Path) -> list[tuple[str, str]]:
    """(page type, URL path) for one run, one with monitoring charts, one campaign and every
    article."""

    def first(section: str) -> str:
        pages = sorted(public.glob(f"{section}/*/index.html"))
        assert pages, f"no {section} page was built"
        return "/" + pages[0].parent.relative_to(public).as_posix() + "/"

    monitored = [
        page for page in sorted(public.glob("runs/*/index.html"))
        if 'id="monitoring"' in page.read_text()
    ]  # fmt: skip
    assert monitored, "no run page with per-second monitoring was built"
    monitored_path = "/" + monitored[0].parent.relative_to(public).as_posix() + "/"
    articles = sorted(public.glob("posts/*/index.html"))
    return [
        ("run", first("runs")),
        ("run-monitoring", monitored_path),
        ("campaign", first("campaigns")),
    ] + [("article", "/" + page.parent.relative_to(public).as_posix() + "/") for page in articles]


def test_pages_render_every_chart(built_site, site_url, browser, tmp_path_factory):
    _, public = built_site
    shots = tmp_path_factory.mktemp("screenshots")
    for kind, path in _page_paths(public):
        console_errors: list[str] = []
        page_errors: list[str] = []
        bad_responses: list[str] = []
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.on("console", lambda m, e=console_errors: m.type == "error" and e.append(m.text))
        page.on("pageerror", lambda err, e=page_errors: e.append(str(err)))
        page.on(
            "response",
            lambda r, e=bad_responses: r.status >= 400 and e.append(f"{r.status} {r.url}"),
        )
        page.goto(site_url + path, wait_until="load")
        placeholders = page.locator("[data-plotly-src]")
        if kind == "article":
            assert placeholders.count() > 0, f"{path}: an article without a chart"
        for index in range(placeholders.count()):
            chart = placeholders.nth(index)
            chart.scroll_into_view_if_needed()
            chart.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)
        assert page.locator(".js-plotly-plot").count() == placeholders.count(), path
        trace_counts = page.eval_on_selector_all(
            ".js-plotly-plot", "plots => plots.map(p => p.data.length)"
        )
        assert all(count > 0 for count in trace_counts), (path, trace_counts)
        assert not console_errors, (path, console_errors)
        assert not page_errors, (path, page_errors)
        assert not bad_responses, (path, bad_responses)
        if not (shots / f"{kind}.png").exists():
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=shots / f"{kind}.png", full_page=True)
        page.close()
    print(f"screenshots in {shots}")


def test_runs_filter_hides_rows_without_the_words(site_url, browser, committed_runs):
    page = browser.new_page()
    page.goto(site_url + "/runs/")
    shown = min(PAGER_SIZE, len(committed_runs))  # the filter works on the page's rows
    rows = page.locator("#all-runs tbody tr")
    assert rows.count() == shown
    page.fill("input[data-filter-target]", "no-such-word")
    assert page.locator("#all-runs tbody tr:visible").count() == 0
    page.fill("input[data-filter-target]", "")
    assert page.locator("#all-runs tbody tr:visible").count() == shown
    page.close()
