"""List pages at archive scale, built into a real site: /runs/ and a host's term page show a
page's worth of runs (site/hugo.toml's pagerSize) with a pager nav, every run is reachable by
following the pager, and a list that fits on one page has no pager (layouts/_partials/list/pager.html)."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import PAGER_SIZE, build_with_article

pytestmark = pytest.mark.site

SOURCE_CAMPAIGN = "binlog-sync-policies-20261123-133014"


class _ListPage(HTMLParser):
    """The run links of a list page's table and its pager nav: the nav's label, its links (text,
    href, rel, aria-current)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.run_links: list[str] = []
        self.nav_labels: list[str] = []
        self.pager: list[dict] = []
        self._in_table = self._in_nav = False
        self._link: dict | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attributes = dict(attrs)
        if tag == "table" and "run-list" in (attributes.get("class") or ""):
            self._in_table = True
        elif tag == "nav" and attributes.get("class") == "pager":
            self._in_nav = True
            self.nav_labels.append(attributes.get("aria-label") or "")
        elif tag == "a" and self._in_table:
            self.run_links.append(attributes["href"])
        elif tag == "a" and self._in_nav:
            self._link = {**attributes, "text": ""}

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self._in_table = False
        elif tag == "nav":
            self._in_nav = False
        elif tag == "a" and self._link is not None:
            self._link["text"] = " ".join(self._link["text"].split())
            self.pager.append(self._link)
            self._link = None

    def handle_data(self, data: str) -> None:
        if self._link is not None:
            self._link["text"] += data


def _page(public: Path, url: str) -> _ListPage:
    return _ListPage((public / url.strip("/") / "index.html").read_text())


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> tuple[Path, list[dict]]:
    """The binlog fixture campaign copied under new campaign ids until its runs fill more than
    one list page."""
    tmp_path = tmp_path_factory.mktemp("pagination")
    sources = [
        json.loads(path.read_text())
        for path in sorted((FIXTURE_RUNS / "runs").glob(f"{SOURCE_CAMPAIGN}.*.json"))
    ]
    copies = PAGER_SIZE // len(sources) + 1
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    runs = []
    for copy_no in range(copies):
        campaign = f"paged-{copy_no:02d}-20261123-133014"
        for source in sources:
            run = json.loads(json.dumps(source))
            run["id"] = source["id"].replace(SOURCE_CAMPAIGN, campaign)
            run["campaign"]["id"] = campaign
            (runs_dir / f"{run['id']}.json").write_text(json.dumps(run))
            runs.append(run)
    assert len(runs) > PAGER_SIZE
    return build_with_article(tmp_path, "No figures.", [tmp_path / "data"]), runs


def _walk(public: Path, first: str) -> list[_ListPage]:
    """The pages of a list, first to last, by following each page's rel=next link."""
    pages, url = [], first
    while url:
        page = _page(public, url)
        pages.append(page)
        url = next((link["href"] for link in page.pager if link.get("rel") == "next"), "")
        assert len(pages) <= PAGER_SIZE, "the pager's next links loop"
    return pages


@pytest.mark.parametrize("kind", ["runs", "host"])
def test_every_run_is_reachable_a_page_at_a_time(archive, kind):
    public, runs = archive
    first = "/runs/"
    if kind == "host":  # the fixture campaign ran on one machine: its term lists every run
        (term,) = (public / "hosts").glob("*/index.html")
        first = "/" + term.parent.relative_to(public).as_posix() + "/"
    pages = _walk(public, first)
    assert len(pages) == -(-len(runs) // PAGER_SIZE)
    assert all(len(page.run_links) <= PAGER_SIZE for page in pages)
    listed = [link for page in pages for link in page.run_links]
    assert sorted(listed) == sorted(f"/runs/{run['id']}/" for run in runs)
    for page in pages:
        assert (public / page.run_links[0].strip("/") / "index.html").is_file()


def test_the_pager_is_a_labelled_nav_marking_the_current_page(archive):
    public, runs = archive
    pages = _walk(public, "/runs/")
    for number, page in enumerate(pages, start=1):
        assert page.nav_labels == ["Pages of this list"]
        current = [link for link in page.pager if link.get("aria-current") == "page"]
        assert [link["text"] for link in current] == [f"Page {number}"]
        rels = [link.get("rel") for link in page.pager]
        assert ("prev" in rels) == (number > 1)
        assert ("next" in rels) == (number < len(pages))
    text = (public / "runs" / "index.html").read_text()
    assert f"Page 1 of {len(pages)} ({len(runs)} in all)." in text


def test_a_list_that_fits_on_one_page_has_no_pager(archive):
    public, runs = archive
    campaigns = (public / "campaigns" / "index.html").read_text()
    assert len({run["campaign"]["id"] for run in runs}) <= PAGER_SIZE
    assert 'class="pager"' not in campaigns
    assert not (public / "campaigns" / "page" / "2").exists()
