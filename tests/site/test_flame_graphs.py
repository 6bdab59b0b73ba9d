"""Flame graphs on a real Hugo build of profiled runs (tests/helpers/profiled_runs.py): a run
page embeds each step's graph, the SVG beside it; a run whose profile was skipped says why, an
older run shows nothing; the campaign page links each cell's differential page, which embeds its
graph and lists the function that grew first; the guide explains them."""

from __future__ import annotations

import re
import shutil
from xml.etree import ElementTree

import pytest

from tests.helpers.page_text import page_words
from tests.helpers.profiled_runs import (
    BASE,
    BINLOG_FSYNC_FRAME,
    CAMPAIGN,
    COMMITTED,
    VARIANT,
    profiled_data,
)
from tests.helpers.site_build import build_with_posts
from tests.site.test_quality import html_problems, htmltest

SKIPPED = f"{CAMPAIGN}.{BASE}.oltp-rw.p3"
PROFILED = f"{CAMPAIGN}.{VARIANT}.oltp-rw.p2"
OLDER = "callaghan-10-11-vs-11-4-20261122-045700.mariadb-10-11.base.point-query-r100"


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    root = tmp_path_factory.mktemp("flame")
    data = profiled_data(root / "data", skipped_run=SKIPPED)
    shutil.copy(COMMITTED / f"{OLDER}.json", data / "runs")
    return build_with_posts(root, lambda posts: None, [data])


def _page(public, *parts: str) -> str:
    return public.joinpath(*parts, "index.html").read_text()


def test_a_run_page_embeds_each_steps_flame_graph_with_a_fallback(public):
    html = _page(public, "runs", PROFILED)
    objects = re.findall(
        r'<object class="flame-graph" type="image/svg\+xml" data="([^"]+)"'
        r' aria-label="([^"]+)">',
        html,
    )
    assert [url for url, _ in objects] == [
        f"/runs/{PROFILED}/flame-{threads}.svg" for threads in (1, 2, 4, 8, 16, 32)
    ]
    assert objects[0][1] == "Flame graph of the server's CPU samples, 1 thread"
    svg = public / objects[2][0].lstrip("/")
    root = ElementTree.parse(svg).getroot()
    assert f"{PROFILED} · 4 threads" in ["".join(t.itertext()) for t in root.iter()]
    section = page_words(html.split('id="profiles"', 1)[1].split("<h2", 1)[0])
    assert "internal functions show as [mariadbd]" in section
    assert "The flame graph cannot be shown here: open it" in section
    assert "row_search_mvcc 42.0 42.0" in section


def test_a_skipped_profile_says_why_and_an_older_run_shows_nothing(public):
    skipped = page_words(_page(public, "runs", SKIPPED))
    assert "No profile of the server: perf is not installed on this host." in skipped
    assert "Where the server's time went" not in _page(public, "runs", OLDER)


def test_the_campaign_links_each_cells_differential_page(public):
    html = _page(public, "campaigns", CAMPAIGN)
    links = re.findall(r'<a href="(/campaigns/[^"]+/profiles/[^"]+)">([^<]+)</a>', html)
    assert links[0] == (
        f"/campaigns/{CAMPAIGN}/profiles/oltp-rw/{VARIANT}/1/",
        f"{VARIANT} at 1 thread",
    )
    assert len(links) == 6
    page = _page(public, "campaigns", CAMPAIGN, "profiles", "oltp-rw", VARIANT, "8")
    (svg,) = re.findall(r'<object class="flame-graph" type="image/svg\+xml" data="([^"]+)"', page)
    ElementTree.parse(public / svg.lstrip("/"))
    rows = re.findall(r"<tr><td><code>([^<]+)</code></td>", page)
    assert rows[0] == BINLOG_FSYNC_FRAME
    assert "sync-1's 2,400 samples against binlog-off's 1,600" in page_words(page)


def test_the_differential_pages_stay_out_of_the_campaign_lists(public):
    assert "/profiles/" not in (public / "campaigns" / "index.html").read_text()
    assert "/profiles/" not in (public / "index.html").read_text()


def test_the_guide_explains_flame_graphs(public):
    text = page_words(_page(public, "guide", "flame-graphs"))
    assert "Red grew, blue shrank." in text and "[mariadbd]" in text


def test_the_profile_pages_parse_and_link_nothing_broken(public):
    """The committed site has no profile yet: test_quality.py's checks, on these pages."""
    pages = [
        public / "runs" / PROFILED / "index.html",
        public / "runs" / SKIPPED / "index.html",
        public / "campaigns" / CAMPAIGN / "index.html",
        *sorted((public / "campaigns" / CAMPAIGN / "profiles").rglob("index.html")),
    ]
    assert {page: html_problems(page.read_text()) for page in pages} == {
        page: [] for page in pages
    }
    result = htmltest(public)
    assert result.returncode == 0, result.stdout + result.stderr
