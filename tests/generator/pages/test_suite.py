"""The suite report (generator/pages/suite.py) on hand-made suite campaigns with known numbers
(tests/helpers/suite_runs.py): grouping and order, values and ratios, ±5 % verdicts and markers,
missing and zero cells, repeats, efficiency and Dimitri's peaks."""

from __future__ import annotations

import pytest

from generator.analysis.ratios import VERDICT_MARKERS
from generator.pages.campaign import summarize_campaign
from generator.pages.suite import GROUPS, SCAN_UNIT, suite_report
from tests.helpers.suite_runs import VARIANTS, callaghan_campaign, suite_run, template_run

A, B = VARIANTS


@pytest.fixture(scope="module")
def template(fixture_runs) -> dict:
    return template_run([run for _, run in fixture_runs])


@pytest.fixture(scope="module")
def report(template) -> dict:
    return suite_report(callaghan_campaign(template))


def _rows(table: dict) -> dict[str, dict]:
    return {row["test"]: row for group in table["groups"] for row in group["rows"]}


def _cell(table: dict, test: str, variant: str) -> dict:
    row = _rows(table)[test]
    return row["cells"][table["variants"].index(variant)]


def test_campaigns_without_suite_runs_have_no_report(fixture_runs):
    assert suite_report([run for _, run in fixture_runs if "suite" not in run["workload"]]) is None


def test_groups_come_in_callaghan_s_order_and_tests_by_position(report):
    table = report["levels"][0]["throughput"]
    assert [group["group"] for group in table["groups"]] == list(GROUPS)
    assert [group["title"] for group in table["groups"]] == list(GROUPS.values())
    assert [[row["test"] for row in group["rows"]] for group in table["groups"]] == [
        ["point-query.pre", "point-query_range=100"],
        ["range-notcovered-si.pre", "scan_range=100"],
        ["read-only_range=10"],
        ["update-index_range=100", "insert_range=100"],
    ]
    assert _rows(table)["point-query.pre"]["workload"] == "point-query-pre"
    assert (report["variants"], report["base"], report["threads"]) == (list(VARIANTS), A, [1])


@pytest.mark.parametrize(
    ("test", "base", "value", "ratio", "verdict"),
    [
        ("point-query.pre", 1000, 1100, 1.10, "better"),
        ("range-notcovered-si.pre", 500, 475, 0.95, "same"),  # on the band's edge
        ("scan_range=100", 1_000_000, 1_050_000, 1.05, "same"),  # rows/s, not QPS
        ("update-index_range=100", 2000, 1860, 0.93, "worse"),
        ("insert_range=100", 300, 333.3, 1.11, "better"),  # 1.111 rounded to 2 decimals
    ],
)
def test_relative_values_are_rounded_ratios_with_verdict_and_marker(
    report, test, base, value, ratio, verdict
):
    table = report["levels"][0]["throughput"]
    cell = _cell(table, test, B)
    assert (_cell(table, test, A)["value"], cell["value"]) == (base, value)
    assert (cell["ratio"], cell["state"], cell["verdict"]) == (ratio, "ratio", verdict)
    assert cell["marker"] == VERDICT_MARKERS[verdict]
    assert _cell(table, test, A)["ratio"] == 1.0


def test_markers_do_not_rest_on_colour_alone():
    assert VERDICT_MARKERS == {
        "better": "\u25b2",
        "worse": "\u25bc",
        "same": "",
        "noise": "\u2248",
    }


def test_a_scan_reports_rows_per_second(report):
    rows = _rows(report["levels"][0]["throughput"])
    assert rows["scan_range=100"]["unit"] == SCAN_UNIT
    assert {row["unit"] for test, row in rows.items() if test != "scan_range=100"} == {"QPS"}


def test_a_missing_cell_is_missing_and_a_zero_base_is_n_a(report):
    table = report["levels"][0]["throughput"]
    missing = _cell(table, "point-query_range=100", B)
    assert (missing["value"], missing["ratio"], missing["state"]) == (None, None, "missing")
    assert (missing["verdict"], missing["marker"]) == ("same", "")
    zero_base = _cell(table, "read-only_range=10", B)
    assert (zero_base["value"], zero_base["ratio"], zero_base["state"]) == (300, None, "n/a")
    assert zero_base["verdict"] == "same"
    base = _cell(table, "read-only_range=10", A)
    assert (base["value"], base["ratio"], base["state"]) == (0, None, "n/a")


def test_efficiency_is_per_operation_and_lower_is_better(report):
    level = report["levels"][0]
    assert report["has_efficiency"] and report["ops"] == ["transaction"]
    by_metric = {table["metric"]: table for table in level["efficiency"]}
    assert list(by_metric) == ["cpu_us", "context_switches", "read_kb", "write_kb"]
    assert [table["short"] for table in level["efficiency"]] == ["cpu/o", "cs/o", "rKB/o", "wKB/o"]
    # Only point-query.pre recorded its costs: the other tests have no row.
    assert list(_rows(by_metric["cpu_us"])) == ["point-query.pre"]
    # One run each and no per-second samples of a cost: beyond ±5 %, but the noise is unknown.
    cpu = _cell(by_metric["cpu_us"], "point-query.pre", B)
    assert (cpu["value"], cpu["ratio"], cpu["verdict"], cpu["marker"]) == (40, 0.8, "noise", "≈")
    written = _cell(by_metric["write_kb"], "point-query.pre", B)
    assert (written["value"], written["ratio"], written["verdict"]) == (1, 2.0, "noise")
    assert cpu["interval"] is None
    read = _cell(by_metric["read_kb"], "point-query.pre", B)
    assert (read["value"], read["state"]) == (0, "n/a")  # nothing read by either: no ratio


def test_without_per_op_there_is_no_efficiency(template):
    runs = [
        suite_run(template, variant, "point-query.pre", "point", 1, {1: {"qps": 100}})
        for variant in VARIANTS
    ]
    report = suite_report(runs)
    assert not report["has_efficiency"] and report["ops"] == []
    assert report["levels"][0]["efficiency"] == []


def test_repeats_give_medians_ranges_and_cells_within_noise(template):
    passes = {A: (1000, 1030, 990), B: (1100, 1210, 1080)}  # spreads 4.0 % and 12.0 %
    runs = [
        suite_run(template, variant, "point-query.pre", "point", 1, {1: {"qps": qps}},
                  repeat=(index + 1, 3))
        for variant, values in passes.items()
        for index, qps in enumerate(values)
    ]  # fmt: skip
    report = suite_report(runs)
    table = report["levels"][0]["throughput"]
    cell = _cell(table, "point-query.pre", B)
    assert report["most_repeats"] == table["most_repeats"] == 3
    assert (cell["value"], cell["low"], cell["high"], cell["repeats"]) == (1100, 1080, 1210, 3)
    # +10 %, but B's repeats spread 12 %: the interval from three repeats each holds 1
    assert cell["ratio"] == 1.10 and cell["verdict"] == "noise" and cell["marker"] == "≈"
    assert cell["interval"]["method"] == "repeats"
    assert cell["interval"]["low"] < 1 < cell["interval"]["high"]


@pytest.fixture(scope="module")
def dimitri(template) -> dict:
    """OLTP_RW at 1, 2, 4 threads (b.base never reached 4) and Point-Selects at 1 thread only."""
    oltp_rw = {
        A: {1: {"qps": 100, "tps": 5}, 2: {"qps": 190, "tps": 9.5}, 4: {"qps": 180, "tps": 9.6}},
        B: {1: {"qps": 110, "tps": 5.5}, 2: {"qps": 200, "tps": 10}},
    }
    runs = [
        suite_run(template, variant, "OLTP_RW", "write", 4, steps, suite="dimitri")
        for variant, steps in oltp_rw.items()
    ]
    runs += [
        suite_run(template, variant, "RO Point-Selects", "point", 1, {1: {"qps": qps}},
                  suite="dimitri")
        for variant, qps in ((A, 1000), (B, 1000))
    ]  # fmt: skip
    return suite_report(runs)


def test_several_thread_levels_give_one_table_each(dimitri):
    assert dimitri["threads"] == [1, 2, 4]
    tables = {level["threads"]: level["throughput"] for level in dimitri["levels"]}
    assert list(_rows(tables[1])) == ["RO Point-Selects", "OLTP_RW"]
    assert list(_rows(tables[2])) == ["OLTP_RW"]  # Point-Selects did not run at 2 threads
    assert _cell(tables[2], "OLTP_RW", B)["ratio"] == 1.05
    assert _cell(tables[4], "OLTP_RW", B)["state"] == "missing"


def test_dimitri_peaks_are_the_best_level_with_its_thread_count(dimitri):
    peak = dimitri["peak"]
    assert [group["group"] for group in peak["groups"]] == ["point", "write"]
    base, other = _rows(peak)["OLTP_RW"]["cells"]
    assert (base["value"], base["threads"], base["tps"], base["tps_threads"]) == (190, 2, 9.6, 4)
    # A tie goes to the fewest threads that reached it.
    points = _rows(peak)["RO Point-Selects"]["cells"][1]
    assert (points["value"], points["threads"]) == (1000, 1)
    assert (other["value"], other["threads"], other["tps"], other["tps_threads"]) == (
        200,
        2,
        10,
        2,
    )


def test_callaghan_reports_have_no_peak(report):
    assert report["names"] == ["callaghan"] and report["peak"] is None


def test_the_campaign_summary_carries_the_report_and_the_usual_workloads(template):
    runs = callaghan_campaign(template)
    summary = summarize_campaign(runs)
    assert summary["suite"] == suite_report(runs)
    # Each test is still a workload of the campaign, with its curves and ratio tables.
    assert len(summary["workloads"]) == 7
    insert = next(w for w in summary["workloads"] if w["name"] == "insert-r100")
    assert insert["metrics"]["tps"]["rows"][0]["cells"][1]["ratio"] == 1.11
    cost_free = suite_report([run for run in runs if "point-query-pre" not in run["id"]])
    assert not cost_free["has_efficiency"]
