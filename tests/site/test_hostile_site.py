"""Hostile input through a real Hugo build: markup in free text comes out escaped, a failed
build leaves the published site as it was, and Hugo's failures name their cause."""

from __future__ import annotations

import hashlib
from xml.etree import ElementTree

import pytest

import generator
from generator.hugo import site_contract as site
from generator.hugo.command import run_build
from tests.helpers.hostile_runs import FREE_TEXT, SOURCES, hostile_data
from tests.helpers.site_build import build_with_article, content_with_posts

pytestmark = pytest.mark.site

RAW_MARKUP = ["<script>alert(", "<img src=x", 'href="javascript:', "<svg onload"]


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    # At a base URL with a host, so that the feeds are built.
    return build_with_article(root, "A probe.", [hostile_data(root)], "https://example.org/")


def _tree_hash(public) -> str:
    digest = hashlib.sha256()
    for path in sorted(public.rglob("*")):
        digest.update(path.relative_to(public).as_posix().encode())
        if path.is_file():
            digest.update(path.read_bytes())
    return digest.hexdigest()


def test_markup_in_every_free_text_field_is_published_escaped(hostile_site):
    pages = [p for p in hostile_site.rglob("*") if p.suffix in (".html", ".xml")]
    for page in pages:
        text = page.read_text()
        for markup in RAW_MARKUP:
            assert markup not in text, (page, markup)
    run_page = (hostile_site / "runs" / SOURCES[0] / "index.html").read_text()
    assert "&lt;script&gt;alert(" in run_page  # the fields are shown, as text
    shown = [keys for keys in FREE_TEXT if f" {'.'.join(keys)}" in run_page]
    assert len(shown) >= len(FREE_TEXT) // 2, shown


def test_a_failed_build_leaves_the_published_site_identical(tmp_path):
    data = hostile_data(tmp_path)
    public = build_with_article(tmp_path, "Before.", [data])
    before = _tree_hash(public)
    with pytest.raises(generator.HugoError) as raised:
        build_with_article(tmp_path, '{{< value campaign="no-such" >}}', [data])
    assert "probe/index.md" in str(raised.value)
    assert _tree_hash(public) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".public")] == []
    build_with_article(tmp_path, "After.", [data])  # a good build still replaces it whole
    assert _tree_hash(public) != before
    assert "After." in (public / "posts" / "probe" / "index.html").read_text()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".public")] == []


def test_hugo_names_the_run_page_file_it_cannot_read(tmp_path):
    # Hugo reads no run document, only what the generator wrote: a run's page file damaged
    # after the generator ran (or edited by hand) fails the build, the message names the file,
    # and the published site stays as it was.
    data = hostile_data(tmp_path)
    public = build_with_article(tmp_path, "Before.", [data])
    before = _tree_hash(public)
    page_file = site.run_page_file(SOURCES[1])
    broken = tmp_path / "build" / page_file
    broken.write_text(broken.read_text().replace('"tps":', '"tps":NaN,"x":', 1))
    with pytest.raises(generator.HugoError) as raised:
        run_build(tmp_path / "overlay.json", public, "/")
    assert page_file.removeprefix(site.ASSETS + "/") in str(raised.value)
    assert _tree_hash(public) == before


def test_a_missing_campaign_names_the_run_directory_read(tmp_path):
    """A build leaves out an article that names a campaign its data lacks (left_out.py), but a
    page elsewhere that does so fails the build, Hugo's message naming the directory read."""
    data = hostile_data(tmp_path)
    content = content_with_posts(tmp_path, lambda posts: None)
    probe = '---\ntitle: Probe\n---\n{{< trust campaign="no-such-campaign" >}}\n'
    (content / "guide" / "probe.md").write_text(probe)
    with pytest.raises(generator.HugoError) as raised:
        generator.build_site([data], tmp_path / "build", tmp_path / "public", content=content)
    assert f"among the runs in {(data / 'runs').resolve()} (" in str(raised.value)
    assert not (tmp_path / "public").exists()


def test_a_feed_item_is_html_that_shows_the_title_as_text(hostile_site):
    """A feed reader decodes an item's description once and renders it as HTML: a page without
    content (a campaign's) sends its title, which is data, HTML-escaped inside that."""
    feed = ElementTree.parse(hostile_site / "campaigns" / "index.xml")
    descriptions = [item.findtext("description") or "" for item in feed.iter("item")]
    assert any("&lt;script&gt;alert(" in html for html in descriptions)
    for html in descriptions:
        for markup in RAW_MARKUP:
            assert markup not in html, (html, markup)
