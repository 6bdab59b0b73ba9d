"""The committed site's campaign pages read as their table of contents: every TOC link lands
on an id of the page, each workload is one folded <details>, and the disclosure lists every run
of the campaign, linked, in one table instead of a line of run ids."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest


class _Page(HTMLParser):
    """Ids, TOC links, workload <details> (id, open) and the disclosure's run links."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.toc: list[str] = []
        self.workloads: list[tuple[str, bool]] = []
        self.run_table_links: list[str] = []
        self.h1 = 0
        self._in: list[str] = []  # the open elements that matter: nav.toc, table.run-table

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if "id" in attributes:
            self.ids.append(attributes["id"])
        classes = (attributes.get("class") or "").split()
        if tag == "h1":
            self.h1 += 1
        if tag == "nav" and "toc" in classes:
            self._in.append("toc")
        if tag == "table" and "run-table" in classes:
            self._in.append("run-table")
        if tag == "details" and "workload" in classes:
            self.workloads.append((attributes["id"], "open" in attributes))
        if tag == "a" and self._in:
            target = self.toc if self._in[-1] == "toc" else self.run_table_links
            target.append(attributes["href"])

    def handle_endtag(self, tag):
        if (tag, self._in[-1:]) in (("nav", ["toc"]), ("table", ["run-table"])):
            self._in.pop()


def _campaign_pages(public):
    return sorted(public.glob("campaigns/*/index.html"))


def _parsed(path) -> _Page:
    page = _Page()
    page.feed(path.read_text())
    return page


def test_every_campaign_page_has_a_toc_whose_links_land_on_the_page(built_site):
    _, public = built_site
    pages = _campaign_pages(public)
    assert pages
    for path in pages:
        page = _parsed(path)
        assert page.h1 == 1, path
        assert len(page.ids) == len(set(page.ids)), f"{path}: an id twice"
        assert page.toc, f"{path}: no table of contents"
        assert all(href.startswith("#") for href in page.toc), path
        missing = [href for href in page.toc if href[1:] not in page.ids]
        assert missing == [], f"{path}: TOC links to no id: {missing}"
        assert "#disclosure" in page.toc and "#config-diff" in page.toc


def test_each_workload_is_one_folded_section_listed_in_the_toc(built_site, committed_runs):
    _, public = built_site
    by_campaign: dict[str, set[str]] = {}
    for run_file in committed_runs:
        run = run_file.doc
        if run["workload"]["tool"] != "ibench":
            by_campaign.setdefault(run["campaign"]["id"], set()).add(run["workload"]["name"])
    for campaign, workloads in by_campaign.items():
        page = _parsed(public / "campaigns" / campaign / "index.html")
        ids = [workload_id for workload_id, _ in page.workloads]
        expected = [
            f"workload-{re.sub(r'[^a-z0-9_-]', '-', name.lower())}" for name in sorted(workloads)
        ]
        assert ids == expected, campaign
        assert [href for href in page.toc if href.startswith("#workload-")] == [
            f"#{i}" for i in ids
        ]
        opened = [is_open for _, is_open in page.workloads]
        if len(opened) <= 2:
            assert all(opened), campaign
        else:
            assert opened == [True] + [False] * (len(opened) - 1), campaign


@pytest.mark.parametrize(
    "campaign", ["binlog-sync-policies-20261123-133014", "dimitri-10-11-vs-11-4-20261123-135924"]
)
def test_the_disclosure_links_every_run_once_in_a_compact_table(
    built_site, committed_runs, campaign
):
    _, public = built_site
    html = (public / "campaigns" / campaign / "index.html").read_text()
    page = _parsed(public / "campaigns" / campaign / "index.html")
    run_ids = sorted(r.doc["id"] for r in committed_runs if r.doc["campaign"]["id"] == campaign)
    assert len(run_ids) == 24
    assert sorted(page.run_table_links) == sorted(f"/runs/{run_id}/" for run_id in run_ids)
    disclosure = html[html.index('<aside class="disclosure"') : html.index("</aside>")]
    # runs are named by their pass in the table, not spelled out as ids in the prose
    assert sum(disclosure.count(f">{run_id}<") for run_id in run_ids) == 0
    assert "The 24 runs, by workload, variant and pass" in disclosure
    assert all(f">pass {index}</th>" in disclosure for index in (1, 2, 3))
