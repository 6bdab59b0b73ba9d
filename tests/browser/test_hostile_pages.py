"""Hostile free text in headless Chromium: no script runs (a dialog fails the test), the payload
shows as text, and prose with a right-to-left override cannot reorder the text after it."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import sync_playwright

from tests.helpers.headless import launch, served
from tests.helpers.hostile_runs import PAYLOAD, SOURCES, hostile_data
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.browser

CAMPAIGN = SOURCES[0].split(".", 1)[0]
PAGES = [f"/runs/{SOURCES[0]}/", f"/runs/{SOURCES[1]}/", f"/campaigns/{CAMPAIGN}/", "/hosts/"]
MIRRORING_PROSE = "\u202eBB 5.32"  # an override that does not end: would run into what follows


@pytest.fixture(scope="module")
def hostile_url(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile-browser")
    data = hostile_data(root)
    run_file = data / "runs" / f"{SOURCES[0]}.json"
    doc = json.loads(run_file.read_text())
    doc["campaign"]["description"] = MIRRORING_PROSE
    run_file.write_text(json.dumps(doc))
    with served(build_with_article(root, "A probe.", [data])) as url:
        yield url


@pytest.fixture(scope="module")
def page():
    with sync_playwright() as playwright:
        browser = launch(playwright)
        tab = browser.new_page()
        yield tab
        browser.close()


def _assert_no_script_runs(page, url: str) -> None:
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    response = page.goto(url, wait_until="load")
    assert response is not None and response.ok, url
    page.wait_for_timeout(500)  # an onerror/onload handler would fire by now
    assert dialogs == [], url
    for link in page.eval_on_selector_all("a[href]", "as => as.map(a => a.href)"):
        assert not link.lower().startswith("javascript:"), link


@pytest.mark.parametrize("path", PAGES)
def test_no_script_of_the_data_runs(hostile_url, page, path):
    _assert_no_script_runs(page, hostile_url + path)
    if path.startswith("/runs/"):
        assert PAYLOAD.split(">", 1)[0] + ">" in page.inner_text("main")


def test_no_script_on_the_host_pages(hostile_url, page):
    """Each host's term page (named after the host, so its path is the site's to choose)."""
    page.goto(hostile_url + "/hosts/")
    terms = page.eval_on_selector_all(
        "main a[href*='/hosts/']", "as => [...new Set(as.map(a => a.href))]"
    )
    terms = [url for url in terms if url.rstrip("/") != (hostile_url + "/hosts")]
    assert terms
    for url in terms:
        _assert_no_script_runs(page, url)


def test_prose_with_a_bidi_override_is_isolated(hostile_url, page):
    page.goto(f"{hostile_url}/campaigns/{CAMPAIGN}/")
    prose = page.locator("bdi", has_text="5.32")
    assert prose.count() == 1
    # The paragraph's own direction is untouched: the override stays inside the <bdi>.
    direction = prose.evaluate("b => getComputedStyle(b.parentElement).direction")
    assert direction == "ltr"
    assert prose.evaluate("b => getComputedStyle(b).unicodeBidi") == "isolate"
