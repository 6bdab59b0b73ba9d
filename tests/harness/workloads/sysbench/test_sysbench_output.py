"""The sysbench 1.0.20 output parser, on outputs recorded from the real binary."""

import pytest

from harness.workloads.sysbench.output import (
    SysbenchOutputError,
    parse_run,
    percentile_from_histogram,
    printed_percentile,
)
from tests.helpers import paths

FIXTURES = paths.FIXTURES / "sysbench"
RUN_OUTPUTS = ["oltp_read_write_2thr_2s.txt", "oltp_point_select_4thr_2s.txt"]


def test_read_write_final_report():
    report = parse_run((FIXTURES / "oltp_read_write_2thr_2s.txt").read_text(), threads=2)
    assert report.tps == 1076.46
    assert report.qps_total == 21529.27
    assert (report.queries_read, report.queries_write, report.queries_other) == (30240, 8640, 4320)
    assert report.events == 2160
    assert report.total_time_s == 2.005
    assert report.errors == 0 and report.reconnects == 0
    assert report.latency_ms["min"] == 0.77
    assert report.latency_ms["avg"] == 1.85
    assert report.latency_ms["max"] == 6.49


def test_read_write_interval_series():
    report = parse_run((FIXTURES / "oltp_read_write_2thr_2s.txt").read_text(), threads=2)
    assert report.series["t"] == [1.0, 2.0]
    assert report.series["tps"] == [1127.57, 1028.58]
    assert report.series["qps"] == [22583.31, 20567.66]
    assert report.series["p95_ms"] == [2.61, 2.76]
    assert report.series["errors_per_s"] == [0.0, 0.0]


@pytest.mark.parametrize("name", RUN_OUTPUTS)
def test_histogram_p95_matches_sysbench_own(name):
    text = (FIXTURES / name).read_text()
    report = parse_run(text, threads=1)
    assert round(report.latency_ms["p95"], 2) == printed_percentile(text)
    assert report.latency_ms["min"] <= report.latency_ms["p95"] <= report.latency_ms["p99"]
    assert report.latency_ms["p99"] <= report.latency_ms["max"]


@pytest.mark.parametrize("name", RUN_OUTPUTS)
def test_query_classes_add_up_to_total_rate(name):
    report = parse_run((FIXTURES / name).read_text(), threads=1)
    qps = report.qps()
    assert qps["read"] + qps["write"] + qps["other"] == pytest.approx(qps["total"], abs=0.05)


def test_point_select_is_all_reads():
    report = parse_run((FIXTURES / "oltp_point_select_4thr_2s.txt").read_text(), threads=4)
    assert report.qps()["write"] == 0 and report.qps()["other"] == 0
    assert report.tps == report.qps_total  # one query per event, no BEGIN/COMMIT


def test_percentile_is_first_bucket_reaching_the_share():
    histogram = [(1.0, 50), (2.0, 45), (3.0, 4), (9.0, 1)]
    assert percentile_from_histogram(histogram, 50) == 1.0
    assert percentile_from_histogram(histogram, 95) == 2.0
    assert percentile_from_histogram(histogram, 99) == 3.0
    assert percentile_from_histogram([], 95) == 0.0


def test_truncated_output_names_what_is_missing():
    text = (FIXTURES / "oltp_read_write_2thr_2s.txt").read_text()
    cut = text[: text.index("General statistics")]
    with pytest.raises(SysbenchOutputError, match="total time"):
        parse_run(cut, threads=2)


def test_output_without_histogram_is_rejected():
    text = (FIXTURES / "oltp_read_write_2thr_2s.txt").read_text()
    no_histogram = "\n".join(line for line in text.splitlines() if " |" not in line)
    with pytest.raises(SysbenchOutputError, match="histogram"):
        parse_run(no_histogram, threads=2)
