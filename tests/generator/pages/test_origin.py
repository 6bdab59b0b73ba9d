"""What the pages hold of imported runs (tests/helpers/imported_runs.py): the run page's origin
facts and files, the figures drawn from the figures given, the campaign's sources, and the
compare and /browse/ indexes, with measured runs' entries as they were."""

from __future__ import annotations

import pytest

from generator.analysis.evidence import BADGES, IMPORTED, NO_INTERVAL, SUMMARY
from generator.analysis.trust import run_trust
from generator.figures.sweep import run_figures
from generator.hugo import site_contract as site
from generator.hugo.build_tree import files_of_run
from generator.pages.browse import browse_index
from generator.pages.browse_split import browse_filters, browse_pages
from generator.pages.campaign import summarize_campaign
from generator.pages.compare_index import compare_index
from generator.pages.numbers import MISSING
from generator.pages.origin import origin_facts
from generator.pages.run_label import run_headline
from generator.pages.run_page import run_index_entry, run_page
from tests.helpers import imported_runs as imported


@pytest.fixture(scope="module")
def documents(fixture_runs) -> list[dict]:
    return imported.imported_fixtures([run for _, run in fixture_runs])


@pytest.fixture(scope="module")
def by_id(documents) -> dict[str, dict]:
    return {run["id"]: run for run in documents}


LOG = "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.log"
SUMMARY_RUN = f"{imported.SUMMARY_CAMPAIGN}.v11-4.oltp-rw"


def test_a_measured_run_has_no_origin_facts(fixture_runs):
    _, run = fixture_runs[0]
    assert origin_facts(run) is None
    assert "evidence" not in run_index_entry(run)["params"]


def test_a_log_run_names_its_source_and_what_it_did_not_record(by_id):
    facts = origin_facts(by_id[LOG])
    assert facts["badge"] == BADGES[IMPORTED] and facts["evidence"] == IMPORTED
    assert facts["tool_command"].startswith("sysbench oltp_read_write")
    # recorded as logs/sync-1-<threads>.txt: a page names the file alone
    assert [source["file"] for source in facts["sources"]] == [
        f"sync-1-{threads}.txt" for threads in (1, 2, 4, 8, 16, 32)
    ]
    assert facts["recorded"] == {
        "tps": True,
        "latency": True,
        "series": False,
        "my_cnf": False,
        "variables": False,
        "hardware": False,
    }
    assert facts["not_recorded"][0].startswith("per-second samples")
    assert "the my.cnf" in facts["not_recorded"]
    assert facts["steady_state"].startswith("not available")
    # the first step's p95 and p99 were not in the log: a dash, never a zero
    first = facts["steps"]["rows"][0]
    columns = facts["steps"]["columns"]
    assert first[columns.index("p95 ms")] == MISSING == first[columns.index("p99 ms")]
    assert facts["steps"]["missing"]


def test_a_summary_run_shows_only_the_columns_its_source_gave(by_id):
    facts = origin_facts(by_id[SUMMARY_RUN])
    assert facts["badge"] == BADGES[SUMMARY] and facts["summary_only"]
    assert facts["url"] == imported.URL and facts["published"] == "2025-03-01"
    assert facts["steps"] == {
        "columns": ["threads", "TPS", "QPS", "p95 ms"],
        "rows": [["1", "201", MISSING, "10.2"], ["4", "840", "16,800", "11"]],
        "missing": True,
    }
    assert "latency percentiles" not in facts["not_recorded"]


def test_an_imported_run_has_no_my_cnf_or_replay_files_and_only_the_figures_it_has(by_id):
    log = by_id[LOG]
    files = files_of_run(log, [log], None)
    assert site.run_static(LOG, site.MY_CNF) not in files
    assert site.run_static(LOG, site.REPLAY_SH) not in files
    assert set(run_figures(log, run_trust(log))) == {"tps", "latency"}
    page = run_page(log, [log], [], None)
    assert page["facts"]["origin"]["evidence"] == IMPORTED
    assert run_index_entry(log)["params"]["evidence"] == IMPORTED


def test_run_figures_draw_the_figures_given_and_skip_the_rest(by_id):
    figures = run_figures(by_id[SUMMARY_RUN])
    assert set(figures) == {"tps", "latency"}
    (tps,) = figures["tps"]["data"]
    assert (tps["x"], tps["y"]) == ([1, 4], [201.0, 840.0])
    (p95,) = figures["latency"]["data"]  # no p99 published: no p99 line
    assert (p95["name"], p95["x"], p95["y"]) == ("p95", [1, 4], [10.2, 11.0])
    log = run_figures(by_id[LOG])
    p95, p99 = log["latency"]["data"]
    assert p95["x"][0] == 2 and p99["x"][0] == 2  # the step without percentiles is left out


def test_a_campaign_names_its_imported_sources_and_badges_them_in_legends(documents):
    runs = [run for run in documents if run["campaign"]["id"] == imported.MIXED_CAMPAIGN]
    summary = summarize_campaign(runs)
    (workload,) = summary["workloads"]
    cells = {cell["variant"]: cell for cell in workload["cells"]}
    assert cells["measured"]["sources"] == [] and cells["measured"]["evidence"] == "measured"
    (published,) = cells["published"]["sources"]
    assert published["url"] == imported.URL and published["files"] == ["published.csv"]
    assert summary["config_not_recorded"] == ["from-log", "published"]
    assert summary["config_diff"]["labels"] == ["measured"]
    assert summary["builds"] is None  # imported runs record no build to compare
    assert summary["disclosure"]["unjudged_runs"] == 2


def test_the_compare_index_carries_nulls_and_evidence_for_imported_runs_only(
    documents, fixture_runs
):
    index = compare_index(documents)
    entries = {entry["id"]: entry for entry in index["runs"]}
    assert index["ratio"]["no_interval"] == NO_INTERVAL
    summary = entries[SUMMARY_RUN]
    assert summary["evidence"] == SUMMARY
    assert summary["steps"] == [[1, 201.0, None, 10.2], [4, 840.0, 16800.0, 11.0]]
    assert entries[LOG]["steps"][0][3] is None  # no p95 at 1 thread
    measured = [entry for entry in index["runs"] if entry["variant"] == "measured"]
    assert measured and all("evidence" not in entry for entry in measured)
    cells = {cell["variant"]: cell for cell in index["cells"]}
    assert "evidence" not in cells["measured"]
    plain = compare_index([run for _, run in fixture_runs if run["workload"]["tool"] != "ibench"])
    assert all("evidence" not in entry for entry in plain["runs"])


def test_browse_filters_by_evidence_and_badges_imported_rows(documents):
    index = browse_index(documents)
    filters = browse_filters(index)
    assert set(filters["values"]["evidence"]) == {"measured", "imported", "summary"}
    (page,) = browse_pages(index)
    rows = {row["id"]: row for row in page["runs"]}
    assert rows[SUMMARY_RUN]["evidence"] == SUMMARY
    assert "evidence" not in rows[f"{imported.MIXED_CAMPAIGN}.measured.oltp-rw.p1"]


QPS_RUN = f"{imported.QPS_CAMPAIGN}.mysql-5-0.{imported.QPS_WORKLOAD}"


def test_a_run_published_in_qps_lacks_tps_not_throughput_and_leads_with_qps(by_id):
    run = by_id[QPS_RUN]
    facts = origin_facts(run)
    assert facts["not_recorded"][0] == "TPS (the source gave QPS only)"
    assert "throughput" not in facts["not_recorded"]
    assert facts["steps"]["columns"] == ["threads", "QPS"]
    assert facts["compare_metric"] == "qps"
    assert run_headline(run) == {"value": 21117.0, "label": "max QPS"}
    assert run_index_entry(run)["params"]["headline"]["label"] == "max QPS"


def test_lists_give_a_qps_only_run_its_qps_and_a_measured_run_its_tps(documents):
    (page,) = browse_pages(browse_index(documents))
    rows = {row["id"]: row for row in page["runs"]}
    assert rows[QPS_RUN]["headline"] == {"value": 21117.0, "label": "max QPS"}
    measured = rows[f"{imported.MIXED_CAMPAIGN}.measured.oltp-rw.p1"]["headline"]
    assert measured["label"] == "max TPS" and measured["value"] > 0
    assert origin_facts(documents[0])["compare_metric"] is None  # a log with TPS


def test_a_campaign_without_variables_compares_no_configuration(documents):
    runs = [run for run in documents if run["campaign"]["id"] == imported.QPS_CAMPAIGN]
    summary = summarize_campaign(runs)
    assert summary["config_diff"]["labels"] == []
    assert summary["config_not_recorded"] == list(imported.QPS_FIGURES)
    (workload,) = summary["workloads"]
    assert list(workload["metrics"]) == ["qps"]


def test_a_log_at_the_99th_percentile_keeps_its_seconds_named_p99(by_id):
    run = by_id[imported.PERCENTILE_RUN]
    facts = origin_facts(run)
    assert facts["recorded"]["series"] and facts["steady_state"] is None
    assert not any(what.startswith("per-second samples") for what in facts["not_recorded"])
    assert facts["series_latency"] == "p99"
    assert set(run_figures(run)) == {"tps", "latency", "series"}
    (judged,) = run_trust(run)
    assert judged["seconds"] == 13  # its 15 seconds less the warm-up cut: judged, not skipped
    # the compare index's p95 has neither a value nor seconds: the log gave p99 only
    (entry,) = [e for e in compare_index([run])["runs"] if e["id"] == imported.PERCENTILE_RUN]
    assert entry["steps"] == [[2, 357.46, 5719.35, None]]
    assert origin_facts(by_id[LOG])["series_latency"] is None
