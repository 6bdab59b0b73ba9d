"""Accessibility of the committed site: axe-core (vendored in tests/browser/vendor/, fetched by
`make axe`, never at test time) over one page of every page kind in the light and the dark
scheme once the charts have drawn, the heatmap at its deepest colour and under the site's own
theme toggle, one h1 per page, the skip link and the focus ring by keyboard, and /browse/
without JavaScript.

Zero serious or critical violations is the bar; no rule is disabled.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from generator.pages.browse import browse_index
from tests.helpers.headless import draw_charts, show_every_row
from tests.helpers.paths import REPO

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text()
BLOCKING = ("serious", "critical")
# The deepest heat colour js/compare/tables.js gives a heatmap cell (a percentage of the hue).
HEAT_MAX_MIX = int(
    re.search(
        r"const HEAT_MAX_MIX = (\d+);",
        (REPO / "site/assets/js/compare/tables.js").read_text(),
    ).group(1)
)
MIN_FOCUS_CONTRAST = 3.0
H1 = re.compile(r"<h1[\s>]")


def _axe(page, context: str = "document", rules: list[str] | None = None) -> list[dict]:
    """The serious and critical violations axe finds in context (a selector or the document)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE)
    options = {"resultTypes": ["violations"]}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    violations = page.evaluate(
        f"async (options) => (await axe.run({context}, options)).violations",
        options,
    )
    return [v for v in violations if v["impact"] in BLOCKING]


def _report(where: str, violations: list[dict]) -> list[str]:
    return [
        f"{where}: {v['id']} ({v['impact']}) at {' '.join(node['target'])}: {v['help']}"
        for v in violations
        for node in v["nodes"]
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_page_kind_passes_axe(scheme, site_url, browser, page_kinds):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    found: list[str] = []
    for kind, path in page_kinds.items():
        page.goto(site_url + path)
        draw_charts(page, kind)
        found += _report(f"{scheme} {kind} {path}", _axe(page))
    # Still on the compare page: every coloured heatmap cell at the deepest colour it can take,
    # then the same under the other theme picked with the site's toggle.
    coloured = page.evaluate(
        """(heat) => {
            const cells = document.querySelectorAll('#compare-heatmap-table td.better, #compare-heatmap-table td.worse');
            cells.forEach((td) => td.style.setProperty('--heat', `${heat}%`));
            return cells.length;
        }""",
        HEAT_MAX_MIX,
    )
    assert coloured, f"{page_kinds['compare']}: no coloured heatmap cell to check"
    table = "'#compare-heatmap-table'"
    found += _report(f"{scheme} heatmap", _axe(page, table, ["color-contrast"]))
    toggle = page.locator("#theme-toggle")
    other = "light" if scheme == "dark" else "dark"
    while toggle.text_content() != f"Theme: {other}":
        toggle.click()
    found += _report(f"{scheme} toggled to {other}", _axe(page, rules=["color-contrast"]))
    context.close()
    assert not found, "\n".join(found)


def test_every_built_page_has_exactly_one_h1(built_site):
    _, public = built_site
    counts = {
        page.relative_to(public).as_posix(): len(H1.findall(page.read_text()))
        for page in public.rglob("*.html")
    }
    assert len(counts) > 100
    assert {page: n for page, n in counts.items() if n != 1} == {}


def test_browse_names_each_run_as_its_page_title(built_site, committed_runs):
    _, public = built_site
    titles = {
        path.parent.name: re.search(r"<h1>(.*?)</h1>", path.read_text()).group(1)
        for path in public.glob("runs/*/index.html")
    }
    index = browse_index([run for _, run in committed_runs])
    assert {run["id"]: run["name"] for run in index["runs"]} == titles


def _luminance(rgb: str) -> float:
    channels = [int(c) / 255 for c in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# Records every element focus lands on, with its outline, while the test presses Tab.
RECORD_FOCUS = """() => {
    window.focusedByTab = [];
    document.addEventListener('focusin', (event) => {
        const el = event.target;
        const style = getComputedStyle(el);
        window.focusedByTab.push({
            tag: el.tagName, cls: String(el.className), text: el.textContent.slice(0, 40),
            region: el.classList.contains('table-scroll') ? el.getAttribute('aria-label') : null,
            outline: [style.outlineStyle, parseFloat(style.outlineWidth), style.outlineColor],
        });
    });
}"""
# Tab stops of the page: what Tab may reach, counted to know how often to press it.
TAB_STOPS = """() => [...document.querySelectorAll('a[href], button, summary, select, input, [tabindex]')]
    .filter((el) => el.tabIndex >= 0 && el.checkVisibility()).length"""
# Every shown element that scrolls a table sideways at this width: each must be a Tab stop (one
# in a closed <details> is reached once the reader opens it).
SCROLLING_TABLES = """() => [...document.querySelectorAll('main *')]
    .filter((el) => el.querySelector('table') && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX)
                    && el.scrollWidth > el.clientWidth && el.checkVisibility())
    .map((el) => el.getAttribute('aria-label'))"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_keyboard_reaches_the_skip_link_first_and_every_scrolling_table(
    scheme, site_url, browser, page_kinds
):
    # Narrow enough for the wide tables to scroll.
    context = browser.new_context(color_scheme=scheme, viewport={"width": 560, "height": 800})
    page = context.new_page()
    for kind in ("run", "guide"):
        page.goto(site_url + page_kinds[kind])
        background = page.evaluate("getComputedStyle(document.body).backgroundColor")
        scrolling = page.evaluate(SCROLLING_TABLES)
        assert scrolling, f"{kind}: no table scrolls at this width"
        page.evaluate(RECORD_FOCUS)
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "content", "skip link missed main"
        for _ in range(page.evaluate(TAB_STOPS)):
            page.keyboard.press("Tab")
        focused = page.evaluate("window.focusedByTab")
        first = focused[0]
        assert (first["cls"], first["text"]) == ("skip-link", "Skip to content")
        assert focused[1]["tag"] == "MAIN"
        unringed = [
            one
            for one in focused[2:]
            if one["outline"][0] == "none"
            or one["outline"][1] < 2
            or _contrast(one["outline"][2], background) < MIN_FOCUS_CONTRAST
        ]
        assert not unringed, f"{scheme} {kind}: focus without a visible ring: {unringed[:5]}"
        reached = {one["region"] for one in focused if one["region"]}
        assert set(scrolling) <= reached, f"{kind}: scrolling tables not reached by Tab"
    context.close()


def test_browse_without_javascript_lists_every_run_and_no_dead_control(
    site_url, browser, committed_runs
):
    index = browse_index([run for _, run in committed_runs])
    expected = [[f"/runs/{run['id']}/", run["name"]] for run in index["runs"]]
    listed = "#browse-results tbody tr td:first-child a"
    links = "links => links.map(a => [a.getAttribute('href'), a.textContent])"

    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    # Page by page, following the pager's "next" links: every run once, in the index's order,
    # and each page marks itself as the current one.
    pager = "nav[aria-label='Pages of runs']"
    path, shown, visited = "/browse/", [], []
    while path:
        assert path not in visited, f"the pager's next links loop back to {path}"
        page.goto(site_url + path)
        assert page.locator(f"{pager} a[aria-current='page']").get_attribute("href") == path
        visited.append(path)
        shown += page.eval_on_selector_all(listed, links)
        following = page.locator(f"{pager} a[rel='next']")
        path = following.get_attribute("href") if following.count() else ""
    assert len(visited) > 1 and visited[1] == "/browse/2/"
    assert shown == expected
    page.goto(site_url + "/browse/")
    assert page.locator("#browse-filters").is_hidden()
    assert (
        page.locator("main select, main button").evaluate_all(
            "controls => controls.filter((c) => c.checkVisibility()).length"
        )
        == 0
    )
    text = page.inner_text("main")
    assert "Loading" not in text and f"{len(expected)} runs." in text
    assert "every run is listed below" in text
    context.close()

    # With JavaScript the filters appear and the unfiltered list is the same, drawn a few hundred
    # rows at a time ("Show more").
    page = browser.new_page()
    page.goto(site_url + "/browse/")
    page.locator("#browse-filters").wait_for()
    show_every_row(page, len(expected))
    assert page.eval_on_selector_all(listed, links) == expected
    assert "Loading" not in page.inner_text("main")
    page.close()
