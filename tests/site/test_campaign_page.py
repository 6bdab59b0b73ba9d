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
        # Its links stay on the page, but for the compare view of the campaign's runs.
        outside = [href for href in page.toc if not href.startswith("#")]
        assert all(href.split("?")[0].endswith("/compare/") for href in outside), path
        missing = [href for href in page.toc if href.startswith("#") and href[1:] not in page.ids]
        assert missing == [], f"{path}: TOC links to no id: {missing}"
        assert "disclosure" in page.ids and "#config-diff" in page.toc


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
        expected = [  # Hugo's anchorize: punctuation other than - and _ goes
            f"workload-{re.sub(r'[^a-z0-9_-]', '', name.lower())}" for name in sorted(workloads)
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


class _RatioCells(HTMLParser):
    """Every ratio table's body cells: (class, title, text of its ⚑ mark or None, whether its
    column's variant rests on imported figures)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[str, str, str | None, bool]] = []
        self._imported: list[bool] = []  # per column of the current table's header
        self._where: str | None = None  # "th" in a header cell, "td" in a body cell
        self._column = 0
        self._mark: str | None = None
        self._in_table = self._in_mark = self._in_head = False

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "table" and "ratios" in classes:
            self._in_table, self._imported = True, []
        elif not self._in_table:
            return
        elif tag == "tr":
            self._column = 0
        elif tag == "thead":
            self._in_head = True
        elif tag == "th":
            self._where = "th"
            if self._in_head:
                self._imported.append(False)
        elif tag == "span" and "evidence-badge" in classes and self._where == "th":
            self._imported[-1] = True
        elif tag == "td":
            self._where, self._mark = "td", None
            self._cell = (attributes.get("class") or "", attributes.get("title") or "")
        elif tag == "span" and "flags" in classes and self._where == "td":
            self._in_mark, self._mark = True, ""

    def handle_data(self, data):
        if self._in_mark and self._mark is not None:
            self._mark += data

    def handle_endtag(self, tag):
        if not self._in_table:
            return
        if tag == "table":
            self._in_table = False
        elif tag == "span" and self._in_mark:
            self._in_mark = False  # the mark holds "⚑ k/n", then its sr-only kinds
        elif tag == "td":
            imported = (
                self._imported[self._column] if self._column < len(self._imported) else False
            )
            self.cells.append((*self._cell, self._mark, imported))
            self._column += 1
            self._where = None
        elif tag == "thead":
            self._in_head = False
        elif tag == "th":
            self._where = None
            if not self._in_head:  # a row header (a fleet's hosts table) is a column too
                self._column += 1


def test_every_ratio_cell_shows_how_many_of_its_passes_were_flagged(built_site):
    """Each measured ratio cell's title counts its flagged passes; a cell with some carries
    ⚑ k/n with the same count; a greyed cell is never coloured and says why."""
    _, public = built_site
    counted = greyed = marked = 0
    for path in _campaign_pages(public):
        parsed = _RatioCells()
        parsed.feed(path.read_text())
        for kind, title, mark, imported in parsed.cells:
            if kind in ("", "missing") or imported:  # "": the threads column
                continue
            if " instructions " in title:  # a callgrind count rests on no step to flag
                continue
            found = re.search(r"(\d+) of (\d+) passes flagged", title)
            assert found, f"{path}: a ratio cell without its flagged passes: {title!r}"
            flagged, passes = map(int, found.groups())
            if flagged:
                assert mark is not None and f"\u2691 {flagged}/{passes}" in mark, (path, title)
                marked += 1
            else:
                assert mark is None, (path, title)
            if kind == "flagged":
                assert "not judged: " in title and "fewer than half unflagged" in title
                greyed += 1
            counted += 1
    assert counted and marked and greyed
