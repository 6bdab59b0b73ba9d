"""The committed site published under a sub-path (a GitHub Pages project site): every link of
every page, the articles' own Markdown links included, stays under the sub-path and lands on a
built file (and htmltest, the site's link check, agrees, anchors included); the feeds are valid
RSS whose links and image sources are absolute and land too, at a host without a sub-path as
well; a local build (base URL '/') has no feed; an article linking a page the site lacks, or a
feed item that would carry a relative link, fails the build; the Reproduce sections give
`mybench reproduce` with the run page's address."""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import feedparser
import pytest

import generator
from tests.conftest import SUBPATH_BASE_URL
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.site_build import build_with_article
from tests.site.test_quality import htmltest

pytestmark = pytest.mark.site

SUBPATH = "/repo/"
ROOT_RELATIVE = re.compile(r'(?:href|src|data-plotly-src)="(/[^"#?]*)')
ABSOLUTE = re.compile(r'(?:href|src)="(https?://[^"#?]*)')
FEEDS = ("index.xml", "posts/index.xml", "runs/index.xml", "campaigns/index.xml")
# A run of tests/fixtures/runs, for the small builds.
FIXTURE_RUN = "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p1"


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


def _at_sub_path(public: Path, root: Path) -> Path:
    """root holding public (hard-linked: it is large) at the sub-path, so that a root-relative
    link resolves as on the published site and one that leaves the sub-path names no file."""
    shutil.copytree(public, root / SUBPATH.strip("/"), copy_function=os.link)
    return root


def test_htmltest_finds_no_broken_link_under_the_sub_path(subpath_site, tmp_path):
    result = htmltest(_at_sub_path(subpath_site, tmp_path / "root"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "documents" in result.stdout  # it did look at the pages


def test_htmltest_under_the_sub_path_sees_a_link_that_leaves_it(tmp_path):
    # Canary: a link that ignores the sub-path lands on a page of the public dir's root.
    page = '<!doctype html><html lang="en"><head><title>t</title></head><body>{}</body></html>'
    public = tmp_path / "public"
    (public / "runs").mkdir(parents=True)
    (public / "runs" / "index.html").write_text(page.format(""))
    (public / "index.html").write_text(
        page.format(f'<a href="{SUBPATH}runs/">in</a> <a href="/runs/">out</a>')
    )
    result = htmltest(_at_sub_path(public, tmp_path / "root"))
    assert result.returncode != 0
    assert "--> /runs/" in result.stdout and f"--> {SUBPATH}runs/" not in result.stdout


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_a_run_page_gives_mybench_reproduce_with_its_address_or_else_its_id(
    subpath_site, built_site, committed_runs
):
    """The run page and an article's repro shortcode share one partial: the command takes the
    run page's address where the build has one, else the run id (found in data/)."""
    run_id = next(run["id"] for _, run in committed_runs if "origin" not in run)
    page = Path("runs") / run_id / "index.html"
    published = _text((subpath_site / page).read_text())
    assert re.findall(r"mybench reproduce (\S+)", published) == [
        f"{SUBPATH_BASE_URL}runs/{run_id}/"
    ]
    _, public = built_site
    local = _text((public / page).read_text())
    assert re.findall(r"mybench reproduce (\S+)", local) == [run_id]
    assert "The run: " not in local  # the link to itself is the article's


def test_a_feed_at_a_host_without_a_sub_path_is_absolute_and_valid(tmp_path):
    body = (
        "## A section\n\n"
        f'{{{{< chart run="{FIXTURE_RUN}" fig="tps" >}}}}\n\n'
        f"See [its page](/runs/{FIXTURE_RUN}/) and [the section](#a-section)."
    )
    public = build_with_article(tmp_path, body, [FIXTURE_RUNS], "https://example.org/")
    parsed = feedparser.parse((public / "index.xml").read_text())
    assert not parsed.bozo, parsed.get("bozo_exception")
    (entry,) = parsed.entries
    assert entry.link == "https://example.org/posts/probe/"
    links = re.findall(r'(?:href|src)="([^"]*)"', entry.description)
    assert f"https://example.org/runs/{FIXTURE_RUN}/" in links
    assert "https://example.org/posts/probe/#a-section" in links
    assert f"https://example.org/runs/{FIXTURE_RUN}/tps.svg" in links  # the chart's drawing
    assert all(link.startswith("https://example.org/") for link in links), links


def test_a_feed_item_with_a_relative_link_fails_the_build(tmp_path):
    body = "Text.\n\nSee [elsewhere](other/)."
    with pytest.raises(generator.HugoError) as raised:
        build_with_article(tmp_path, body, [FIXTURE_RUNS], "https://example.org/")
    message = str(raised.value)
    assert 'the item "Probe" (/posts/probe) would carry the relative link "other/"' in message
    assert not (tmp_path / "public").exists()
