"""The committed site on a phone (390 x 844), a tablet (768 x 1024) and a laptop (1366 x 768): one page
of every kind, and a campaign page of every report kind, never scrolls sideways, no chart is
wider than its column (its static drawing, then the Plotly chart drawn in its place), the first
chart fits the column on a phone, and a campaign page shows its first chart within the first
screen at 1366 x 768 (its disclosure folded under a one-line summary)."""

from __future__ import annotations

import pytest

from tests.helpers.headless import CHART_TIMEOUT_MS

pytestmark = pytest.mark.browser

VIEWPORTS = {"phone": (390, 844), "tablet": (768, 1024), "laptop": (1366, 768)}
# Campaigns of the other report kinds, by the id their campaign file gives them.
REPORT_KINDS = {
    "release series": "mariadb-release-series-",
    "TPC-C-like": "tpcc-sets-vs-warehouses-",
    "Insert Benchmark": "ibench-performance-schema-",
}

# What sticks out of the viewport, outermost elements only, where no scrolling ancestor holds
# it: a wide table inside its .table-scroll region or a long line inside a <pre> is fine.
STICKING_OUT = """() => {
    const held = (el) => {
        for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
            if (getComputedStyle(up).overflowX !== 'visible') return true;
        }
        return false;
    };
    const out = [];
    for (const el of document.body.querySelectorAll('*')) {
        const box = el.getBoundingClientRect();
        if (!box.width || box.right <= innerWidth + 1 || held(el)) continue;
        const parent = el.parentElement;
        if (parent !== document.body && parent.getBoundingClientRect().right > innerWidth + 1 && !held(parent)) continue;
        out.push(`${el.tagName.toLowerCase()}.${el.className} (${Math.round(box.right)} px): ${el.textContent.trim().slice(0, 60)}`);
    }
    return {width: document.documentElement.scrollWidth, out};
}"""

# Each chart box against its figure's column and the viewport, drawn or not.
CHART_BOXES = """() => [...document.querySelectorAll('figure.chart')].map((figure) => {
    const column = figure.parentElement.getBoundingClientRect();
    const box = figure.querySelector('.chart-plot').getBoundingClientRect();
    const svg = figure.querySelector('.main-svg');
    return {id: figure.id, column: column.right, box: box.right, width: box.width,
            drawn: svg ? svg.getBoundingClientRect().right : null, viewport: innerWidth};
})"""


@pytest.fixture(scope="module")
def report_kinds(committed_runs) -> dict[str, str]:
    """The newest committed campaign of each report kind, as a URL path."""
    ids = {run["campaign"]["id"] for _, run in committed_runs}
    kinds = {}
    for kind, prefix in REPORT_KINDS.items():
        matching = sorted(campaign for campaign in ids if campaign.startswith(prefix))
        assert matching, f"no committed campaign {prefix}*: pick another {kind} campaign"
        kinds[f"campaign ({kind})"] = f"/campaigns/{matching[-1]}/"
    return kinds


def _first_chart_drawn(page) -> None:
    charts = page.locator("[data-plotly-src]")
    if charts.count():
        charts.first.scroll_into_view_if_needed()
        charts.first.locator(".main-svg").first.wait_for(timeout=CHART_TIMEOUT_MS)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_no_page_is_wider_than_the_screen_and_no_chart_wider_than_its_column(
    viewport, site_url, browser, page_kinds, report_kinds
):
    width, height = VIEWPORTS[viewport]
    page = browser.new_page(viewport={"width": width, "height": height})
    problems: list[str] = []
    for kind, path in {**page_kinds, **report_kinds}.items():
        page.goto(site_url + path)
        _first_chart_drawn(page)
        found = page.evaluate(STICKING_OUT)
        if found["width"] > width:
            problems.append(f"{kind} {path}: {found['width']} px wide: {found['out'][:3]}")
        for chart in page.evaluate(CHART_BOXES):
            edge = min(chart["column"], chart["viewport"]) + 1
            if chart["box"] > edge or (chart["drawn"] is not None and chart["drawn"] > edge):
                problems.append(f"{kind} {path}: chart #{chart['id']} reaches {chart}")
    page.close()
    assert problems == []


def test_a_phone_draws_the_chart_at_the_column_s_width_with_its_legend_inside(
    site_url, browser, page_kinds
):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(site_url + page_kinds["article"])
    _first_chart_drawn(page)
    box = page.locator("[data-plotly-src]").first
    plot = box.locator(".main-svg").first.bounding_box()
    column = box.bounding_box()
    assert plot["width"] <= column["width"] + 1 <= 390
    # The legend lies within the drawing, under the plot area and its x axis title.
    legend = box.locator(".legend").first.bounding_box()
    area = box.locator(".nsewdrag").first.bounding_box()
    assert legend["y"] >= area["y"] + area["height"]
    assert legend["y"] + legend["height"] <= plot["y"] + plot["height"] + 1
    page.close()


def test_a_campaign_page_shows_its_first_chart_in_the_first_laptop_screen(
    site_url, browser, page_kinds
):
    page = browser.new_page(viewport={"width": 1366, "height": 768})
    page.goto(site_url + page_kinds["campaign"])
    disclosure = page.locator("aside.disclosure > details")
    assert disclosure.get_attribute("open") is None
    line = page.locator("aside.disclosure > details > summary").inner_text()
    assert "runs" in line and "the variants differ in" in line, line
    top = page.locator("figure.chart").first.bounding_box()["y"]
    assert top < 768, f"{page_kinds['campaign']}: first chart at {top} px"
    # A link to the disclosure opens it.
    page.goto(site_url + page_kinds["campaign"] + "#disclosure")
    assert disclosure.get_attribute("open") is not None
    page.close()
