"""The committed site published under a sub-path (a GitHub Pages project site): every link of
every page, the articles' own Markdown links included, stays under the sub-path and lands on a
built file; the feeds are valid RSS whose links and image sources are absolute and land too; a
local build (base URL '/') has no feed; an article linking a page the site lacks fails."""

from __future__ import annotations

import re
from pathlib import Path

import feedparser
import pytest

import generator
from tests.conftest import SUBPATH_BASE_URL
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

SUBPATH = "/repo/"
ROOT_RELATIVE = re.compile(r'(?:href|src|data-plotly-src)="(/[^"#?]*)')
ABSOLUTE = re.compile(r'(?:href|src)="(https?://[^"#?]*)')
FEEDS = ("index.xml", "posts/index.xml", "runs/index.xml", "campaigns/index.xml")


def _lands(public: Path, url_path: str) -> bool:
    """Whether a URL path under the sub-path names a built file or directory page."""
    if not url_path.startswith(SUBPATH):
        return False
    path = public / url_path.removeprefix(SUBPATH)
    return path.is_file() or (path / "index.html").is_file()


def test_every_link_stays_under_the_sub_path_and_lands(subpath_site):
    broken = [
        f"{page.relative_to(subpath_site)} -> {target}"
        for page in subpath_site.rglob("*.html")
        for target in ROOT_RELATIVE.findall(page.read_text())
        if not _lands(subpath_site, target)
    ]
    assert broken == []


def test_the_articles_markdown_links_reach_their_campaigns(subpath_site):
    article = (subpath_site / "posts" / "binlog-sync-policies" / "index.html").read_text()
    linked = re.findall(r'href="/repo/campaigns/([^/"]+)/#disclosure"', article)
    assert linked and all(
        (subpath_site / "campaigns" / c / "index.html").is_file() for c in linked
    )


@pytest.mark.parametrize("feed", FEEDS)
def test_each_feed_is_valid_with_absolute_links_that_land(subpath_site, feed):
    parsed = feedparser.parse((subpath_site / feed).read_text())
    assert not parsed.bozo, parsed.get("bozo_exception")
    assert parsed.entries
    links = [entry.link for entry in parsed.entries]
    for entry in parsed.entries:
        body = entry.description
        assert not re.search(r'(?:src|href)="(?!https?://)', body), entry.link
        links += ABSOLUTE.findall(body)
    origin = SUBPATH_BASE_URL.removesuffix(SUBPATH)
    ours = [link.removeprefix(origin) for link in links if link.startswith(SUBPATH_BASE_URL)]
    assert len(ours) == len(links)  # every link of the site's own
    assert [link for link in ours if not _lands(subpath_site, link)] == []


def test_the_home_feed_carries_every_article_with_its_drawings(subpath_site):
    parsed = feedparser.parse((subpath_site / "index.xml").read_text())
    articles = sorted(subpath_site.glob("posts/*/index.html"))
    assert {entry.link for entry in parsed.entries} == {
        SUBPATH_BASE_URL + page.parent.relative_to(subpath_site).as_posix() + "/"
        for page in articles
    }
    drawings = re.findall(r'<img [^>]*src="([^"]+\.svg)"', parsed.entries[0].description)
    assert drawings and all(d.startswith(SUBPATH_BASE_URL) for d in drawings)


def test_a_local_build_carries_no_feed(built_site):
    _, public = built_site
    assert not list(public.rglob("index.xml"))
    assert "application/rss+xml" not in (public / "index.html").read_text()


def test_an_article_linking_a_page_the_site_lacks_fails_at_the_link(tmp_path):
    body = "Text.\n\nSee [the campaign](/campaigns/no-such-campaign/#disclosure)."
    with pytest.raises(generator.HugoError) as raised:
        build_with_article(tmp_path, body, [FIXTURE_RUNS])
    message = str(raised.value)
    assert "no page at /campaigns/no-such-campaign/ among the runs in" in message
    assert "probe/index.md" in message


def test_an_articles_reproduce_section_links_its_run_and_gives_the_reproduce_command(
    subpath_site,
):
    article = (subpath_site / "posts" / "binlog-sync-policies" / "index.html").read_text()
    text = re.sub(r"<[^>]+>", "", article)
    (url,) = set(re.findall(r"mybench reproduce (\S+)", text))
    assert url.startswith(SUBPATH_BASE_URL + "runs/")
    run_page = url.removeprefix(SUBPATH_BASE_URL.removesuffix(SUBPATH))
    assert _lands(subpath_site, run_page)
    assert f'<p>The run: <a href="{run_page}">' in article
