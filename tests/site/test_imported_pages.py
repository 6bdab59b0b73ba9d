"""Imported and summary-only runs (tests/helpers/imported_runs.py) in a real Hugo build with
--panicOnWarning: the campaign's relative table holds the hand-computed ratios, summary cells
show no interval and no colour, run pages show the badge, the source and no empty section, and
the article shortcodes say "not available" instead of guessing. A table published in QPS reads
as QPS in every list and opens its compare view on QPS; a campaign without server variables
claims no configuration; a log at --percentile=99 keeps its seconds."""

from __future__ import annotations

import re

import pytest

from generator.hugo.load import load_runs
from tests.helpers import imported_runs as imported
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.repeated_runs import write_runs
from tests.helpers.site_build import build_with_posts

pytestmark = pytest.mark.site

SUMMARY = imported.SUMMARY_CAMPAIGN
MIXED = imported.MIXED_CAMPAIGN
LOG_RUN = f"{MIXED}.from-log.oltp-rw.log"
CELL = f'campaign="{SUMMARY}" workload="oltp-rw" variant="v11-4" threads="4" metric="tps"'
ARTICLE = f"""
Ratio {{{{< value {CELL} show="ratio" >}}}}; interval {{{{< value {CELL} show="interval" >}}}};
verdict {{{{< value {CELL} show="verdict" >}}}}.

{{{{< ratios campaign="{MIXED}" >}}}}

{{{{< chart campaign="{SUMMARY}" workload="oltp-rw" fig="tps" >}}}}

{{{{< compare campaign="{imported.QPS_CAMPAIGN}" >}}}}
"""
QPS_RUN = f"{imported.QPS_CAMPAIGN}.mysql-5-0.{imported.QPS_WORKLOAD}"
COMPARE_HREF = re.compile(r'href="(/compare/\?[^"]*)"')
RATIO_CELL = re.compile(r'<td class="(\w+)"[^>]*>([0-9.]+)(.*?)</td>|<td class="missing"')


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    root = tmp_path_factory.mktemp("imported")
    documents = imported.imported_fixtures([run for _, run in load_runs([FIXTURE_RUNS])])
    write_runs(documents, root / "data")

    def posts(folder):
        (folder / "probe").mkdir()
        (folder / "probe" / "index.md").write_text(
            f"---\ntitle: Probe\ndate: 2026-01-01\n---\n{ARTICLE}\n"
        )
        (folder / "qps").mkdir()  # an article naming its campaign in front matter
        (folder / "qps" / "index.md").write_text(
            f"---\ntitle: QPS\ndate: 2026-01-02\ncampaign: {imported.QPS_CAMPAIGN}\n---\nText.\n"
        )

    return build_with_posts(root, posts, [root / "data"])


def _compare_links(html: str) -> list[str]:
    return [link.replace("&amp;", "&") for link in COMPARE_HREF.findall(html)]


def _ratio_rows(html: str, table: int = 0) -> dict[int, list[tuple[str, str, str]]]:
    """threads -> (class, ratio, rest of the cell) per variant of the n-th ratio table; a
    missing cell is ("missing", "", "")."""
    body = html.split('<table class="num ratios">')[table + 1].split("</table>")[0]
    rows = {}
    for row in body.split("<tr><td>")[1:]:
        threads, cells = row.split("</td>", 1)
        rows[int(threads)] = [
            (found.group(1) or "missing", found.group(2) or "", found.group(3) or "")
            for found in RATIO_CELL.finditer(cells)
        ]
    return rows


def test_the_relative_table_holds_the_published_figures_ratios(public):
    html = (public / "campaigns" / SUMMARY / "index.html").read_text()
    rows = _ratio_rows(html)
    base = imported.SUMMARY_FIGURES["v10-6"]
    for threads in (1, 4, 16):
        expected = []
        for figures in imported.SUMMARY_FIGURES.values():
            tps = figures.get(threads, {}).get("tps")
            expected.append(f"{tps / base[threads]['tps']:.2f}" if tps is not None else "")
        assert [ratio for _, ratio, _ in rows[threads]] == expected, threads


def test_summary_cells_show_no_interval_and_no_colour(public):
    html = (public / "campaigns" / SUMMARY / "index.html").read_text()
    for table in (0, 1):  # TPS and p95
        for cells in _ratio_rows(html, table).values():
            for verdict, ratio, rest in cells[1:]:
                assert verdict not in ("better", "worse")
                if ratio:
                    assert 'class="interval"' not in rest
                    assert "interval n/a" in rest
    assert 'class="unjudged"' in html  # 840 / 700 = 1.20: beyond the band, not judged
    assert "summary only: published figures" in html
    assert imported.URL in html  # the note under the tables names the source


def test_a_summary_run_page_has_its_badge_source_and_no_empty_section(public):
    html = (public / "runs" / f"{SUMMARY}.v11-4.oltp-rw" / "index.html").read_text()
    assert 'class="evidence-badge evidence-summary">summary only: published figures' in html
    assert 'id="source"' in html and imported.SHA in html
    assert f'<a href="{imported.URL}">' in html and "2025-03-01" in html
    assert "mybench import table published.csv" in html
    ids = set(re.findall(r'<h2 id="([^"]+)"', html))
    assert ids == {"source", "summary", "throughput", "latency", "environment"}
    assert "Not recorded by the source, so not shown: per-second samples" in html
    assert "/my.cnf" not in html and "replay.sh" not in html


def test_a_log_run_page_shows_the_tool_command_and_its_charts(public):
    html = (public / "runs" / LOG_RUN / "index.html").read_text()
    assert "imported from a sysbench log" in html
    text = re.sub(r"<[^>]+>", "", html)  # the commands are highlighted
    assert "sysbench oltp_read_write --tables=4 --table-size=100000 run" in text
    assert "mybench import sysbench logs/from-log-1.txt" in text
    assert set(re.findall(r'<h2 id="([^"]+)"', html)) == {
        "source",
        "summary",
        "throughput",
        "latency",
        "environment",
    }
    assert "not available: the log has no per-second samples" in html


def test_a_measured_run_of_a_mixed_campaign_keeps_its_full_page(public):
    html = (public / "runs" / f"{MIXED}.measured.oltp-rw.p1" / "index.html").read_text()
    assert 'id="reproduce"' in html and 'id="series"' in html
    assert "evidence-badge" not in html


def test_the_mixed_campaign_judges_measured_cells_and_badges_imported_variants(public):
    html = (public / "campaigns" / MIXED / "index.html").read_text()
    header = html.split('<table class="num ratios">')[1].split("</thead>")[0]
    assert "from-log <span" in header.replace("\n", "")
    assert (
        "Not compared: from-log, published (imported without server variables), so measured"
        " has no configuration to be compared with." in html
    )
    assert "same configuration" not in html  # one configured variant: nothing to compare
    for cells in _ratio_rows(html).values():
        for verdict, ratio, rest in cells[1:]:
            if ratio:
                assert verdict not in ("better", "worse") and "interval n/a" in rest


def test_shortcodes_say_not_available_instead_of_guessing(public):
    html = (public / "posts" / "probe" / "index.html").read_text()
    assert "Ratio 1.20;" in html
    assert 'interval <abbr title="published figures carry no measure' in html
    assert "verdict not judged (imported figures, no interval)." in html
    assert "evidence-sources" in html  # the ratios shortcode's note
    assert f"figures/campaigns/{SUMMARY}/oltp-rw/tps.json" in html


def test_a_run_published_in_qps_says_it_lacks_tps_and_compares_on_qps(public):
    html = (public / "runs" / QPS_RUN / "index.html").read_text()
    assert "so not shown: TPS (the source gave QPS only); latency percentiles;" in html
    assert "so not shown: throughput" not in html
    (link,) = _compare_links(html)
    assert link == (
        f"/compare/?campaign={imported.QPS_CAMPAIGN}&workload={imported.QPS_WORKLOAD}&metric=qps"
    )


def test_compare_links_to_qps_runs_open_on_qps_and_others_on_the_default(public):
    campaign = (public / "campaigns" / imported.QPS_CAMPAIGN / "index.html").read_text()
    article = (public / "posts" / "qps" / "index.html").read_text()
    probe = (public / "posts" / "probe" / "index.html").read_text()
    for html in (campaign, article, probe):
        assert f"/compare/?campaign={imported.QPS_CAMPAIGN}&metric=qps" in _compare_links(html)
    mixed = (public / "campaigns" / MIXED / "index.html").read_text()
    assert f"/compare/?campaign={MIXED}" in _compare_links(mixed)  # TPS, the page's default


def test_every_list_gives_a_qps_only_run_its_qps(public):
    rows = 0
    for listing in ("runs/index.html", "browse/index.html", "index.html"):
        for row in (public / listing).read_text().split("<tr>"):
            if QPS_RUN in row:
                rows += 1
                assert "21,117" in row and "max QPS" in row, listing
                assert "TPS" not in re.sub(r"<[^>]+>", "", row), listing
    assert rows >= 2  # the run list and /browse/ at least
    run_lists = (public / "runs" / "index.html").read_text()
    assert not re.search(r"—\s*(<span[^>]*>)?\s*max TPS", run_lists)


def test_a_campaign_without_variables_claims_no_configuration(public):
    html = (public / "campaigns" / imported.QPS_CAMPAIGN / "index.html").read_text()
    assert "Not known: the runs were imported without server variables" in html
    assert "same configuration" not in html


def test_a_log_at_the_99th_percentile_keeps_its_seconds_named_p99(public):
    html = (public / "runs" / imported.PERCENTILE_RUN / "index.html").read_text()
    assert 'id="series"' in html
    assert "not available: the log has no per-second samples" not in html
    assert "per-second samples" not in html.split('class="not-recorded"')[1].split("</p>")[0]
    assert "The per-second latency is the p99" in html and "--percentile=99" in html
