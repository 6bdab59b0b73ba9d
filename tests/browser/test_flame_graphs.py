"""Flame graphs in a browser, on a build of profiled runs (tests/helpers/profiled_runs.py): the
embedded SVG loads and its own script runs (inferno's zoom and search), and the run page and a
differential page pass axe in both schemes (the committed site has no profile yet, so
test_a11y.py cannot reach these sections)."""

from __future__ import annotations

import shutil

import pytest

from tests.browser.test_a11y import _axe, _report
from tests.helpers.headless import served
from tests.helpers.profiled_runs import CAMPAIGN, VARIANT, profiled_data
from tests.helpers.site_build import build_with_posts

pytestmark = pytest.mark.browser

RUN = f"{CAMPAIGN}.{VARIANT}.oltp-rw.p1"
PAGES = (f"/runs/{RUN}/", f"/campaigns/{CAMPAIGN}/profiles/oltp-rw/{VARIANT}/4/")


@pytest.fixture(scope="module")
def flame_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("flame-browser")
    public = build_with_posts(root, lambda posts: None, [profiled_data(root / "data")])
    with served(public) as url:
        yield url
    shutil.rmtree(root, ignore_errors=True)


def test_the_embedded_flame_graph_runs_its_own_script(flame_url, browser):
    page = browser.new_page()
    page.goto(flame_url + PAGES[1])
    graph = page.locator("object.flame-graph")
    graph.scroll_into_view_if_needed()
    # inferno's init() fills in the details line and the search button once the SVG has loaded
    page.wait_for_function(
        """() => {
            const svg = document.querySelector('object.flame-graph').contentDocument;
            return svg && svg.getElementById('search') && typeof svg.defaultView.init === 'function'
                && svg.getElementById('details') !== null;
        }"""
    )
    box = graph.bounding_box()
    assert box and box["width"] > 600 and box["height"] > 100  # sized from the SVG, not 300x150


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_flame_graph_pages_pass_axe(flame_url, browser, scheme):
    context = browser.new_context(color_scheme=scheme, viewport={"width": 1100, "height": 900})
    page = context.new_page()
    found: list[str] = []
    for path in PAGES:
        page.goto(flame_url + path)
        found += _report(f"{scheme} {path}", _axe(page))
    context.close()
    assert not found, "\n".join(found)
