"""Hostile free text in headless Chromium: no script runs (a dialog fails the test), the payload
shows as text, and prose with a right-to-left override cannot reorder the text after it. The
data includes a real import of logs whose file names hold markup, from a folder of the
importer's that no page may name."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import sync_playwright

from tests.helpers.headless import launch, served
from tests.helpers.hostile_runs import (
    HOSTILE_FILE_NAMES,
    HOSTILE_IMPORT,
    PAYLOAD,
    SOURCES,
    hostile_data,
    hostile_import,
)
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.browser

CAMPAIGN = SOURCES[0].split(".", 1)[0]
PAGES = [f"/runs/{SOURCES[0]}/", f"/runs/{SOURCES[1]}/", f"/campaigns/{CAMPAIGN}/", "/hosts/"]
MIRRORING_PROSE = "\u202eBB 5.32"  # an override that does not end: would run into what follows
# The import's campaign (named, and dated by the logs' modification time) and its two passes.
IMPORTED = f"{HOSTILE_IMPORT}-20200913-122640"
IMPORTED_RUNS = [f"{IMPORTED}.base.oltp_read_only.p{index}" for index in (1, 2)]
IMPORTER = ("home", "alice")  # where the importer keeps the logs, under the test's folder


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile-browser")
    data = hostile_data(root)
    run_file = data / "runs" / f"{SOURCES[0]}.json"
    doc = json.loads(run_file.read_text())
    doc["campaign"]["description"] = MIRRORING_PROSE
    run_file.write_text(json.dumps(doc))
    hostile_import(data, root.joinpath(*IMPORTER))
    return build_with_article(root, "A probe.", [data])


@pytest.fixture(scope="module")
def hostile_url(hostile_site):
    with served(hostile_site) as url:
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


@pytest.mark.parametrize(
    ("path", "names"),
    [
        (f"/campaigns/{IMPORTED}/", HOSTILE_FILE_NAMES),
        (f"/runs/{IMPORTED_RUNS[0]}/", HOSTILE_FILE_NAMES[:3]),
        (f"/runs/{IMPORTED_RUNS[1]}/", HOSTILE_FILE_NAMES[3:]),
    ],
)
def test_imported_file_names_show_as_text(hostile_url, page, path, names):
    _assert_no_script_runs(page, hostile_url + path)
    shown = page.inner_text("main")
    for name in names:
        assert name in shown, (path, name)


def test_no_page_names_the_importers_folder(hostile_site):
    """Every file the site publishes (pages, run.json, figures, indexes), as bytes."""
    folder = "/".join(IMPORTER).encode()
    published = [path for path in hostile_site.rglob("*") if path.is_file()]
    assert any(IMPORTED_RUNS[0] in str(path) for path in published)
    for path in published:
        assert folder not in path.read_bytes(), path


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
