"""Flame graphs in a browser, on a build of profiled runs (tests/helpers/profiled_runs.py): the
embedded SVG loads and its own script runs (inferno's zoom and search); the run page, a
differential page and the compare view's profile section pass axe in both schemes (the committed
site has no profile yet, so test_a11y.py cannot reach them); the compare view's share changes
are the generator's (js/compare/profiles.js against analysis/profiles.py)."""

from __future__ import annotations

import shutil

import pytest

from generator.analysis.profiles import merged, share_changes
from generator.pages.profiles import share_file
from tests.browser.test_a11y import _axe, _report
from tests.helpers.headless import served
from tests.helpers.paths import REPO
from tests.helpers.profiled_runs import (
    BINLOG_FSYNC,
    BINLOG_FSYNC_FRAME,
    CAMPAIGN,
    READ,
    REDO_WRITE,
    VARIANT,
    profiled_data,
)
from tests.helpers.site_build import build_with_posts

pytestmark = pytest.mark.browser

RUN = f"{CAMPAIGN}.{VARIANT}.oltp-rw.p1"
COMPARE = f"/compare/?campaign={CAMPAIGN}"
PAGES = (f"/runs/{RUN}/", f"/campaigns/{CAMPAIGN}/profiles/oltp-rw/{VARIANT}/4/", COMPARE)


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
        if path == COMPARE:
            page.locator("#compare-profiles table").first.wait_for()
        found += _report(f"{scheme} {path}", _axe(page))
    context.close()
    assert not found, "\n".join(found)


def test_the_compare_view_lists_the_function_that_grew_against_the_base(flame_url, browser):
    page = browser.new_page()
    page.goto(flame_url + COMPARE)
    table = page.locator("#compare-profiles table").first
    table.wait_for()
    assert page.locator("#compare-profile-threads").input_value() == "32"
    cells = table.locator("tbody tr").first.locator("td").all_text_contents()
    assert cells == [BINLOG_FSYNC_FRAME, "0.0", "40.0", "+40.0", "0.0", "0.0"]
    links = page.locator("#compare-profiles .profile-links a")
    assert links.first.get_attribute("href").endswith("/flame-32.svg")
    page.select_option("#compare-profile-threads", "4")
    page.wait_for_function(
        "() => document.querySelector('#compare-profiles .profile-links a').href.endsWith('/flame-4.svg')"
    )


def _interned(stacks: dict) -> dict:
    frames = sorted({frame for stack in stacks for frame in stack})
    rows = [[[frames.index(f) for f in stack], count] for stack, count in stacks.items()]
    return {"frames": frames, "steps": {"8": {"stacks": rows}}}


def test_the_share_changes_in_js_are_the_generator_s(browser):
    """Passes of unequal length merged by their samples, a function on one side only, and moves
    both ways: the JS ranks the same functions by the same changes."""
    base_passes = [{READ: 60, REDO_WRITE: 40}, {READ: 150, REDO_WRITE: 30, BINLOG_FSYNC: 20}]
    variant_passes = [{READ: 30, BINLOG_FSYNC: 50, REDO_WRITE: 20}, {READ: 90, BINLOG_FSYNC: 60}]
    expected = [
        [change.function, round(change.total_change_pp, 1)]
        for change in share_changes(merged(base_passes), merged(variant_passes))
    ]
    files = [
        share_file(
            {"id": "r", "steps": [{"threads": 8, "profile": {"kept_samples": 1}}]},
            _interned(stacks),
        )["steps"]["8"]
        for stacks in (*base_passes, *variant_passes)
    ]
    with served(REPO / "site" / "assets" / "js") as url:
        page = browser.new_page()
        page.goto(url + "/")
        shown = page.evaluate(
            """async (files) => {
                 const m = await import('/compare/profiles.js');
                 const changes = m.shareChanges(m.mergedShares(files.slice(0, 2)), m.mergedShares(files.slice(2)));
                 return changes.map((row) => [row.function, Number(row.change.toFixed(1))]);
               }""",
            files,
        )
        page.close()
    assert shown == expected
    assert expected[0][0] in {BINLOG_FSYNC_FRAME, "fdatasync", "my_sync"} and expected[0][1] > 0
    assert any(change < 0 for _, change in expected)
