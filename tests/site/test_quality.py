"""The built site as a reader gets it: no broken internal link (htmltest, pinned in
tools/go.mod), HTML that parses without errors and with unique ids (html5lib), articles whose
tables and charts each carry a title of their own, the data and drawing behind every figure,
the browse index and the taxonomies (the feeds: test_subpath.py).

A missing Go toolchain fails these tests rather than skipping them (`make test` provides it).
"""

from __future__ import annotations

import csv
import io
import json
import re
import subprocess
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import html5lib
import pytest

from generator.pages.browse import browse_index
from generator.pages.browse_split import PAGE_RUNS
from tests.helpers.browse_split import reassembled_browse
from tests.helpers.page_pool import map_pages
from tests.helpers.paths import REPO, TOOLS_DIR
from tests.helpers.tools import GO_TOOL_TIMEOUT_S, required_tool

pytestmark = pytest.mark.site

FIGURE_SRC = re.compile(r'data-plotly-src="/figures/([^"]+)\.json"')
TAXONOMIES = ("engines", "versions", "workloads", "hosts")


def htmltest(public: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [required_tool("go"), "tool", "htmltest", "-c", "htmltest.yml", str(public)],
        cwd=TOOLS_DIR,
        capture_output=True,
        text=True,
        timeout=GO_TOOL_TIMEOUT_S,
        check=False,
    )


def test_htmltest_finds_no_broken_link(built_site):
    _, public = built_site
    result = htmltest(public)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "documents" in result.stdout  # it did look at the pages


def test_htmltest_reports_a_broken_link(tmp_path):
    # Canary: if htmltest stopped checking internal links, the test above would pass on anything.
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="en"><head><title>t</title></head>'
        '<body><a href="/runs/no-such-run/">gone</a></body></html>'
    )
    result = htmltest(tmp_path)
    assert result.returncode != 0
    assert "no-such-run" in result.stdout


def html_problems(html: str) -> list[str]:
    """Parse errors by the HTML standard's parsing rules, and ids used twice (read from the
    parsed tree: one parse per page)."""
    parser = html5lib.HTMLParser(strict=False)
    tree = parser.parse(html)
    problems = [f"line {line}: {code} {data or ''}" for (line, _), code, data in parser.errors]
    ids = Counter(node.get("id") for node in tree.iter() if node.get("id") is not None)
    problems += [f"id {name!r} used twice" for name in sorted(n for n, k in ids.items() if k > 1)]
    return problems


def _page_problems(page: Path) -> list[str]:
    return html_problems(page.read_text())


def test_pages_parse_without_errors_and_ids_are_unique(built_site):
    _, public = built_site
    pages = sorted(public.rglob("*.html"))
    assert pages
    problems = {
        page.relative_to(public).as_posix(): found
        for page, found in map_pages(_page_problems, pages).items()
        if found
    }
    assert not problems


def test_the_html_check_sees_misnested_markup_and_twin_ids():
    broken = '<!doctype html><html lang="en"><title>t</title><p id="a"><div id="a"></span></div>'
    problems = html_problems(broken)
    assert any("unexpected-end-tag" in problem for problem in problems), problems
    assert "id 'a' used twice" in problems


# What titles a table or a chart: a table's caption, a chart's figcaption, and the heading over
# each ratio table (campaign/ratios.html).
TITLE_TAGS = ("caption", "figcaption", "h4")


def repeated_titles(html: str) -> list[str]:
    """Table and chart titles a page carries more than once: a reader (or a screen reader's
    table list) cannot tell those tables apart without the prose around them."""
    tree = html5lib.parse(html, namespaceHTMLElements=False)
    titles = Counter(
        " ".join("".join(node.itertext()).split()) for tag in TITLE_TAGS for node in tree.iter(tag)
    )
    return sorted(title for title, times in titles.items() if times > 1)


def test_no_two_tables_or_charts_of_an_article_share_a_title(built_site):
    _, public = built_site
    articles = sorted(p.parent.name for p in (REPO / "content" / "posts").glob("*/index.md"))
    assert articles
    repeated = {
        name: found
        for name in articles
        if (found := repeated_titles((public / "posts" / name / "index.html").read_text()))
    }
    assert not repeated


def test_the_title_check_sees_twin_captions_and_headings():
    page = (
        "<table><caption>Relative QPS</caption></table><table><caption>Relative QPS</caption>"
        "</table><h4>TPS relative to base</h4><h4>TPS relative to <b>base</b></h4>"
        "<h4>TPS relative to base, update-one</h4>"
    )
    assert repeated_titles(page) == ["Relative QPS", "TPS relative to base"]


def _figure_stems(public: Path) -> set[str]:
    return {
        stem
        for page in public.rglob("index.html")
        for stem in FIGURE_SRC.findall(page.read_text())
    }


def test_every_figure_links_its_data_and_drawing(built_site):
    _, public = built_site
    stems = _figure_stems(public)
    assert any(stem.startswith("campaigns/") for stem in stems)
    owners: dict[str, dict] = {}  # a page's figures.json, read once for all its figures
    for stem in stems:
        figure = json.loads((public / "figures" / f"{stem}.json").read_text())
        owner, name = stem.rsplit("/", 1)
        if owner not in owners:
            owners[owner] = json.loads((public / owner / "figures.json").read_text())
        data = owners[owner][name]
        assert [t["y"] for t in data["traces"]] == [t["y"] for t in figure["data"]], stem
        rows = list(csv.reader(io.StringIO((public / f"{stem}.csv").read_text())))
        points = sum(
            1
            for t in figure["data"]
            for x, y in zip(t["x"], t["y"], strict=True)
            if None not in (x, y)
        )
        assert len(rows) == 1 + points, stem
        svg = ET.parse(public / f"{stem}.svg").getroot()
        assert svg.find("{http://www.w3.org/2000/svg}title") is not None, stem


def test_a_run_s_downloads_hold_its_steps(built_site, committed_runs):
    _, public = built_site
    run = next(
        doc for _, doc in committed_runs if len(doc["steps"]) > 1 and "tps" in doc["steps"][0]
    )
    base = public / "runs" / run["id"]
    page = (base / "index.html").read_text()
    for kind in ("csv", "svg"):
        assert f'href="/runs/{run["id"]}/tps.{kind}"' in page
    assert f'href="/runs/{run["id"]}/figures.json"' in page
    assert f'id="fig-runs-{run["id"].replace(".", "-")}-tps"' in page
    rows = list(csv.DictReader(io.StringIO((base / "latency.csv").read_text())))
    assert [(row["trace"], int(row["threads"]), float(row["latency (ms)"])) for row in rows] == [
        (name, step["threads"], step["latency_ms"][name])
        for name in ("p95", "p99")
        for step in run["steps"]
    ]
    data = json.loads((base / "figures.json").read_text())["tps"]
    assert data["x_title"] == "threads"
    assert data["traces"][0]["x"] == [step["threads"] for step in run["steps"]]
    assert data["traces"][0]["y"] == [step["tps"] for step in run["steps"]]


def test_the_browse_index_lists_every_run_with_its_varied_options(built_site, committed_runs):
    _, public = built_site
    runs = [doc for _, doc in committed_runs]
    (published,) = public.glob("browse/filters.*.json")
    pages = [json.loads(path.read_text()) for path in public.glob("browse/pages/*.json")]
    index = browse_index(runs)
    assert reassembled_browse(json.loads(published.read_text()), pages) == index
    assert {record["id"] for record in index["runs"]} == {run["id"] for run in runs}
    sync1 = next(r for r in index["runs"] if r["id"].endswith(".binlog-sync1.point-select"))
    assert "sync_binlog=1" in sync1["options"]
    assert not any(option.startswith("innodb_buffer_pool_size=") for option in sync1["options"])
    html = (public / "browse" / "index.html").read_text()
    for name in ("product", "version", "workload", "campaign", "host", "option"):
        assert f'<select name="{name}">' in html
    assert "js/browse." in html


def test_browse_pages_without_javascript_list_every_run_once(built_site, committed_runs):
    _, public = built_site
    index = browse_index([doc for _, doc in committed_runs])
    first = (public / "browse" / "index.html").read_text()
    # the pager may elide middle pages (1 2 3 … 5): the last one it links is the count
    count = max(int(n) for n in re.findall(r'<a href="/browse/(\d+)/"', first))
    assert count == -(-len(index["runs"]) // PAGE_RUNS) > 1
    listed = []
    for path in ["browse/index.html", *(f"browse/{n}/index.html" for n in range(2, count + 1))]:
        html = (public / path).read_text()
        assert html.count("<h1>") == 1 and 'aria-label="Pages of runs"' in html
        body = html.split('id="browse-results"')[1].split("</tbody>")[0]
        listed += re.findall(r'<tr><td><a href="/runs/([^/"]+)/">', body)
    assert listed == [record["id"] for record in index["runs"]]
    assert not (public / "browse" / f"{count + 1}").exists()


def test_taxonomies_list_their_terms(built_site, committed_runs):
    _, public = built_site
    for taxonomy in TAXONOMIES:
        terms = sorted((public / taxonomy).glob("*/index.html"))
        assert terms, taxonomy
        listing = (public / taxonomy / "index.html").read_text()
        for term in terms:
            assert f'href="/{taxonomy}/{term.parent.name}/"' in listing
    workloads = {doc["workload"]["name"] for _, doc in committed_runs}
    assert workloads <= {term.name for term in (public / "workloads").iterdir() if term.is_dir()}
