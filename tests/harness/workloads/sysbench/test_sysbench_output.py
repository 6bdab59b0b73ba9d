"""The sysbench 1.0.20 output parser, on outputs recorded from the real binary."""

import pytest

from harness.workloads.sysbench.output import (
    SysbenchOutputError,
    parse_logged_run,
    parse_run,
    percentile_from_histogram,
    printed_percentile,
    split_log,
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


# --- logs written by other scripts (mybench import) --------------------------------------------

IMPORT_LOGS = FIXTURES / "import"


@pytest.mark.parametrize(
    "name", ["oltp_read_only_1thr.txt", "oltp_read_only_2thr.txt", "oltp_read_only_4thr.txt"]
)
def test_histogram_p95_rounds_the_share_to_an_event_as_sysbench_does(name):
    """At 1 thread 95 % of 812 events is 771.4: sysbench rounds it to 771, whose bucket is 3.13
    (the first bucket past 771.4 would be 3.187)."""
    text = (IMPORT_LOGS / name).read_text()
    assert round(parse_logged_run(text, 1).latency_ms["p95"], 2) == printed_percentile(text)


def test_split_log_finds_each_run_and_its_echoed_command():
    first, second = split_log((IMPORT_LOGS / "oltp_read_only_two_runs.txt").read_text())
    assert (first.first_line, first.last_line, second.first_line) == (2, 38, 41)
    assert (first.threads, second.threads) == (1, 2)
    assert first.tool_version == second.tool_version == "1.0.20"
    assert first.report_interval is None
    assert first.command is not None and first.command.startswith("sysbench oltp_read_only ")
    assert "--threads=2" in (second.command or "")
    assert parse_logged_run(second.text, 2).tps == 541.5


def test_a_log_with_one_run_is_one_run_with_its_header():
    (run,) = split_log((IMPORT_LOGS / "oltp_read_only_4thr.txt").read_text())
    assert (run.threads, run.report_interval, run.command) == (4, "1", None)


def test_logged_run_matches_parse_run_when_run_as_the_harness_runs_it():
    text = (FIXTURES / "oltp_read_write_2thr_2s.txt").read_text()
    assert parse_logged_run(text, 2) == parse_run(text, 2)


def test_logged_run_without_histogram_takes_the_printed_percentile():
    text = (IMPORT_LOGS / "oltp_read_only_2thr_plain.txt").read_text()
    report = parse_logged_run(text, 2)
    assert report.latency_ms == {"min": 0.75, "avg": 2.58, "max": 249.39, "p95": 5.99}
    assert report.series == {} and "series" not in report.step_fields()


def test_logged_run_names_its_latency_series_by_the_percentile_of_its_lines():
    report = parse_logged_run((IMPORT_LOGS / "oltp_read_only_2thr_p99.txt").read_text(), 2)
    assert report.latency_ms["p99"] == 6.91 and "p95" not in report.latency_ms
    assert report.series["p99_ms"] == [6.55, 6.91] and "p95_ms" not in report.series
    assert report.series["tps"] == [963.92, 841.53]


def test_logged_run_at_percentile_0_keeps_its_series_without_latency():
    report = parse_logged_run((IMPORT_LOGS / "oltp_read_only_p0.txt").read_text(), 1)
    assert set(report.series) == {"t", "tps", "qps", "errors_per_s", "reconnects_per_s"}
    assert report.series["tps"] == [734.08]


def test_an_interval_line_beyond_the_100th_percentile_is_left_out():
    text = (IMPORT_LOGS / "oltp_read_only_2thr_p99.txt").read_text()
    report = parse_logged_run(text.replace("lat (ms,99%): 6.55", "lat (ms,999%): 6.55"), 2)
    assert report.series["t"] == [2.0] and report.series["p99_ms"] == [6.91]
    (dropped,) = report.dropped
    assert dropped.second == "1" and "percentile '999': not a whole number from 0 to 100" in (
        dropped.why
    )
