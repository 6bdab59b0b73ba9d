"""Recurring campaigns through a real Hugo build: a history page per campaign name with a chart
per host, workload, variant and metric (a line per level, the change marked), and /changes/
listing every change point newest first, the known ones apart with their reason."""

from __future__ import annotations

import json
import re

import pytest

import contract
from tests.helpers.history_runs import recurring, template_run, write_data
from tests.helpers.page_text import page_words
from tests.helpers.plotly_schema import plotly_round_trip
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.site

DROP = [1.0] * 3 + [0.6] * 3
KNOWN = """
[[known]]
campaign = "recurring"
since = "{since}"
host = "bench-2"
reason = "sync_binlog = 1 from this night on <b>bold</b>"
"""


@pytest.fixture(scope="module")
def recurring_runs() -> list[dict]:
    template = template_run()
    template["steps"] = template["steps"][:2]  # two levels are enough
    bench_1 = recurring(template, DROP, host="bench-1")
    return bench_1 + recurring(template, DROP, first_day=len(DROP), host="bench-2")


@pytest.fixture(scope="module")
def history_site(tmp_path_factory, recurring_runs):
    root = tmp_path_factory.mktemp("history")
    data = write_data(recurring_runs, root / "data")
    since = recurring_runs[len(DROP) + 3]["campaign"]["id"]  # bench-2's fourth
    (data / contract.KNOWN_CHANGES_FILE).write_text(KNOWN.format(since=since))
    return build_with_article(root, "A probe.", [data])


def _figures(history_site) -> list[dict]:
    page = (history_site / "history" / "recurring" / "index.html").read_text()
    return [
        json.loads((history_site / url.lstrip("/")).read_text())
        for url in re.findall(r'data-plotly-src="([^"]+)"', page)
    ]


def test_the_history_page_has_a_chart_per_host_workload_variant_and_metric(history_site):
    figures = _figures(history_site)
    assert len(figures) == 4  # two hosts, tps and p95
    for figure in figures:
        assert plotly_round_trip(figure) == figure
        lines = figure["data"]
        assert [len(trace["y"]) for trace in lines] == [6, 6]  # a point per campaign, per level
        arrows = [note for note in figure["layout"]["annotations"] if note["showarrow"]]
        assert len(arrows) == 2 and {note["x"] for note in arrows} == {lines[0]["x"][3]}
        buttons = figure["layout"]["updatemenus"][0]["buttons"]
        assert [button["label"] for button in buttons] == ["date", "commit", "server version"]
        assert buttons[0]["args"][0]["x"] == [lines[0]["x"]]  # the levels share their campaigns


def test_a_known_change_is_drawn_with_its_reason_escaped(history_site):
    notes = [
        note
        for figure in _figures(history_site)
        for note in figure["layout"]["annotations"]
        if not note["showarrow"]
    ]
    assert len(notes) == 2  # the bench-2 charts only
    assert all(note["text"].startswith("known: sync_binlog = 1") for note in notes)
    assert all("&lt;b&gt;" in note["text"] and "<b>" not in note["text"] for note in notes)


def test_changes_lists_unexplained_then_known(history_site, recurring_runs):
    text = page_words(history_site / "changes" / "index.html")
    unexplained, known = text.split("Unexplained", 1)[1].split("Known", 1)
    on_1, on_2 = (recurring_runs[day]["campaign"]["id"] for day in (3, len(DROP) + 3))
    assert unexplained.count(on_1) == 4 and "bench-1" in unexplained  # 2 levels x 2 metrics
    assert "bench-2" not in unexplained and on_2 not in unexplained
    assert known.count(on_2) == 4 and "sync_binlog = 1 from this night on <b>bold</b>" in known


def test_every_change_links_its_first_run_and_a_comparison_of_either_side(
    history_site, recurring_runs
):
    page = (history_site / "changes" / "index.html").read_text()
    first_run, last_before = recurring_runs[3]["id"], recurring_runs[2]["id"]
    assert f'href="/runs/{first_run}/"' in page
    compares = re.findall(
        r'href="/compare/\?runs=([^&"]+)&amp;workload=oltp-rw&amp;metric=(\w+)"', page
    )
    assert {metric for _, metric in compares} == {"tps", "p95"}
    assert [last_before, first_run] in [runs.split(",") for runs, _ in compares]
    history = re.findall(r'href="/history/recurring/#(history-[^"]+)"', page)
    charts = (history_site / "history" / "recurring" / "index.html").read_text()
    assert history and all(f'id="{anchor}"' in charts for anchor in history)


def test_the_history_section_lists_the_recurring_campaign(history_site):
    page = (history_site / "history" / "index.html").read_text()
    assert page.count('href="/history/recurring/"') == 1
