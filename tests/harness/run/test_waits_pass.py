"""`[profile] waits_pass = true`: after the measured pass, each (variant, workload) gets one more
run on a server whose my.cnf adds performance_schema with every wait instrument timed; that run
says it is a waits pass and its steps record the top waits, the measured run has neither."""

from __future__ import annotations

import pytest

from harness.run.campaign_run import WAITS_RUN_SUFFIX
from tests.helpers.cli_runs import SANDBOX, measured_runs

pytestmark = pytest.mark.server

CAMPAIGN = (
    """
name = "pfs"
title = "Waits pass tiny campaign"
"""
    + SANDBOX.format(basedir="/usr")
    + """
[variants.base]
[sweep]
threads = [2]
step_seconds = 2
repeats = 1
[workloads.upd]
test = "oltp_update_non_index"
tables = 2
table_size = 2000
[profile]
enabled = false
waits_pass = true
"""
)


@pytest.fixture(scope="module")
def campaign_runs(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, dict]:
    """(the measured run, the waits run) of one tiny campaign with a waits pass."""
    runs = measured_runs(tmp_path_factory.mktemp("waits-pass"), "pfs", CAMPAIGN)
    (waits_run,) = [run for run in runs if run.get("purpose") == "waits"]
    (measured,) = [run for run in runs if run is not waits_run]
    return measured, waits_run


def test_the_waits_run_is_named_after_its_cell(campaign_runs):
    measured, waits_run = campaign_runs
    assert waits_run["id"] == measured["id"] + WAITS_RUN_SUFFIX
    assert waits_run["status"] == "complete"
    assert (waits_run["variant"], waits_run["workload"]["name"]) == ("base", "upd")


def test_only_the_waits_run_has_performance_schema_on(campaign_runs):
    measured, waits_run = campaign_runs
    options = waits_run["server"]["my_cnf_options"]
    assert options["performance_schema"] == "ON"
    assert options["performance_schema_instrument"] == "wait/%=ON"
    assert waits_run["server"]["variables"]["performance_schema"] == "ON"
    assert "performance_schema_instrument = 'wait/%=ON'" in waits_run["server"]["my_cnf"]
    assert "performance_schema" not in measured["server"]["my_cnf"]
    assert "performance_schema" not in measured["server"]["my_cnf_options"]
    assert measured["server"]["variables"]["performance_schema"] == "OFF"
    assert "purpose" not in measured


def test_the_waits_run_records_the_top_waits_of_each_step(campaign_runs):
    measured, waits_run = campaign_runs
    assert all("waits" not in step for step in measured["steps"])
    (step,) = waits_run["steps"]
    waits = step["waits"]
    assert waits["source"] == "performance_schema"
    events = waits["events"]
    assert 0 < len(events) <= 20
    totals = [event["total_ms"] for event in events]
    assert totals == sorted(totals, reverse=True)
    names = [event["event"] for event in events]
    assert any(name.startswith(("wait/io/file/", "wait/synch/")) for name in names)
    assert "idle" not in names
    for event in events:
        assert event["count"] > 0
        # total_ms is rounded to the microsecond and avg_us to the nanosecond: over a few
        # events, the total's rounding alone moves the quotient by up to 0.5 us / count.
        assert event["avg_us"] == pytest.approx(
            event["total_ms"] * 1000 / event["count"], abs=0.5 / event["count"] + 0.0005
        )
