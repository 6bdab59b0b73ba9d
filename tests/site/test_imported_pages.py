"""Imported and summary-only runs (tests/helpers/imported_runs.py) in a real Hugo build with
--panicOnWarning: the campaign's relative table holds the hand-computed ratios, summary cells
show no interval and no colour, run pages show the badge, the source and no empty section, and
the article shortcodes say "not available" instead of guessing."""

from __future__ import annotations

import re

import pytest

from generator.hugo.load import load_runs
from tests.helpers import imported_runs as imported
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.repeated_runs import write_runs
from tests.helpers.site_build import build_with_article

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
"""
RATIO_CELL = re.compile(r'<td class="(\w+)"[^>]*>([0-9.]+)(.*?)</td>|<td class="missing"')


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    root = tmp_path_factory.mktemp("imported")
    documents = imported.imported_fixtures([run for _, run in load_runs([FIXTURE_RUNS])])
    write_runs(documents, root / "data")
    return build_with_article(root, ARTICLE, [root / "data"])


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
    assert "Not compared: from-log, published (imported without server variables)." in html
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
