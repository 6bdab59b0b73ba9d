"""The run page's per-step tables as ready strings (generator/pages/step_tables.py)."""

from __future__ import annotations

import copy

from generator.analysis.cpu_split import cpu_split
from generator.pages.numbers import MISSING, format_number
from generator.pages.run_tables import MAX_TABLE_STEPS
from generator.pages.step_tables import HOST_FIELDS, SAMPLED_MARK, cpu_cell, step_tables


def _sysbench_run(fixture_runs) -> dict:
    return next(
        run_file.doc
        for run_file in fixture_runs
        if run_file.doc["workload"]["tool"] == "sysbench"
        and run_file.doc["steps"]
        and {"os", "per_op"} <= set(run_file.doc["steps"][0])
    )


def test_each_row_is_a_step_s_numbers_in_the_site_format(fixture_runs):
    run = _sysbench_run(fixture_runs)
    tables = step_tables(run)
    steps = run["steps"]
    assert len(tables["summary"]["rows"]) == len(tables["throughput"]["rows"]) == len(steps)
    for step, summary, throughput, latency, host, cost in zip(
        steps,
        tables["summary"]["rows"],
        tables["throughput"]["rows"],
        tables["latency"]["rows"],
        tables["host"]["rows"],
        tables["cost"]["rows"],
        strict=True,
    ):
        threads = str(step["threads"])
        lat = step["latency_ms"]
        assert summary == [
            threads,
            format_number(step["tps"]),
            format_number(step["qps"]["total"]),
            *(format_number(lat.get(name)) for name in ("avg", "p95", "p99", "max")),
            str(step["errors"]),
            str(step["reconnects"]),
            format_number(step["duration_s"]),
        ]
        qps = step["qps"]
        assert throughput == [threads, format_number(step["tps"])] + [
            format_number(qps[name]) for name in ("total", "read", "write", "other")
        ]
        assert latency[0] == threads and latency[1] == format_number(lat["min"])
        assert host == [threads] + [
            format_number(step["os"].get(path.removeprefix("os."))) for path in HOST_FIELDS
        ]
        assert host[5] == format_number(step["os"]["cpu_idle_pct"])
        split = cpu_split(step)
        assert split is not None
        assert cost == [threads, format_number(step["per_op"]["cpu_us"])] + [
            cpu_cell(split.server),
            cpu_cell(split.client),
        ] + [
            format_number(step["per_op"][name])
            for name in ("context_switches", "read_kb", "write_kb")
        ]
    assert tables["cost"]["op"] == steps[0]["per_op"]["op"]
    assert tables["cost"]["split"] is True
    assert tables["summary"]["scan"] is False


def test_absent_figures_are_dashes_and_absent_counts_empty(fixture_runs):
    run = copy.deepcopy(_sysbench_run(fixture_runs))
    for step in run["steps"]:
        del step["os"], step["per_op"], step["latency_ms"]["p95"], step["errors"]
    run["steps"][0]["rows_per_s"] = 1234.5
    tables = step_tables(run)
    assert tables["host"] is None and tables["cost"] is None
    summary = tables["summary"]
    assert summary["scan"] is True  # the rows/s column, after QPS
    first, second = summary["rows"][:2]
    assert first[3] == format_number(1234.5) and second[3] == MISSING
    assert first[5] == MISSING  # p95
    assert first[8] == ""  # errors, printed as Hugo prints a missing field
    assert tables["latency"]["rows"][0][3] == MISSING


def test_server_and_client_cpu_recorded_or_derived_and_marked(fixture_runs):
    run = copy.deepcopy(_sysbench_run(fixture_runs))
    first, second = run["steps"][:2]
    first["per_op"] |= {"server_cpu_us": 1700.0, "client_cpu_us": 480.0}
    assert "server_cpu_us" not in second["per_op"]  # a run recorded before per_op kept them
    assert second["monitor"]["series"]["server_cpu_pct"]
    cost = step_tables(run)["cost"]
    assert cost["split"] is True and cost["sampled"] is True
    assert cost["rows"][0][2:4] == [format_number(1700.0), format_number(480.0)]
    assert cost["rows"][1][2].endswith(SAMPLED_MARK)


def test_no_cpu_columns_where_no_step_has_a_figure(fixture_runs):
    run = copy.deepcopy(_sysbench_run(fixture_runs))
    for step in run["steps"]:
        step.pop("monitor", None)
    cost = step_tables(run)["cost"]
    assert cost["split"] is False and cost["sampled"] is False
    assert len(cost["rows"][0]) == 5  # threads, cpu/o, cs/o, rKB/o, wKB/o


def test_a_long_sweep_s_cost_table_shows_evenly_spaced_levels(fixture_runs):
    run = copy.deepcopy(_sysbench_run(fixture_runs))
    first = run["steps"][0]
    run["steps"] = [{**first, "threads": level} for level in range(1, 201)]
    cost = step_tables(run)["cost"]
    assert len(cost["rows"]) == MAX_TABLE_STEPS
    assert cost["rows"][0][0] == "1" and cost["rows"][-1][0] == "200"
    assert cost["note"] == f"{MAX_TABLE_STEPS} of 200 thread levels, evenly spaced"
    assert step_tables(_sysbench_run(fixture_runs))["cost"]["note"] == ""
