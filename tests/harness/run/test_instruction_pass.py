"""`[instructions]`: before the measured run, a start of the same build and my.cnf under valgrind's
callgrind counts the server's instructions over a fixed number of sysbench events at one thread
(harness/measure/instructions.py, harness/run/instruction_pass.py); the run document carries the
count of each repeat, the connection thread apart from the others, and how it was made."""

from __future__ import annotations

import pytest

from generator.analysis.instructions import per_event, repeat_spread
from harness.measure.instructions import CONNECTION_FUNCTION, read_part
from tests.helpers.cli_runs import SANDBOX, measured_runs

pytestmark = pytest.mark.server

EVENTS = 200
CAMPAIGN = (
    """
name = "counted"
title = "Instruction count tiny campaign"
"""
    + SANDBOX.format(basedir="/usr")
    + f"""
[variants.base]
[sweep]
threads = [1]
step_seconds = 1
[workloads.points]
test = "oltp_point_select"
tables = 1
table_size = 2000
[workloads.updates]
test = "oltp_update_non_index"
tables = 1
table_size = 2000
[profile]
enabled = false
[instructions]
events = {EVENTS}
warmup_events = 50
repeats = 2
workloads = ["points"]
"""
)


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    found = measured_runs(tmp_path_factory.mktemp("instructions"), "counted", CAMPAIGN)
    return {run["workload"]["name"]: run for run in found}


def test_the_counted_workload_carries_each_repeat_s_count(runs):
    counted = runs["points"]["instructions"]
    assert counted["tool"].startswith("valgrind-")
    assert (counted["threads"], counted["events"], counted["warmup_events"]) == (1, EVENTS, 50)
    assert len(counted["repeats"]) == 2
    for repeat in counted["repeats"]:
        assert repeat["statements"] == EVENTS  # a point select is one statement per event
        # a primary-key lookup costs tens of thousands of instructions, not millions
        assert 5_000 < repeat["connection"] / EVENTS < 500_000
        assert repeat["background"] >= 0


def test_a_read_only_count_repeats_within_one_percent(runs):
    """The reason to count instructions: on one start, the same statements cost the same."""
    assert repeat_spread(runs["points"]) < 0.01
    assert per_event(runs["points"], "connection") > 0


def test_the_count_says_how_the_counting_server_ran(runs):
    commands = runs["points"]["instructions"]["commands"]
    start = next(c["command"] for c in commands if c["purpose"] == "start the server")
    assert "--tool=callgrind" in start and "--instr-atstart=no" in start
    assert "--loose-innodb-use-native-aio=0" in start
    counted = [c for c in commands if c["purpose"].startswith("counted repeat")]
    assert len(counted) == 2 and all(f"--events={EVENTS}" in c["command"] for c in counted)


def test_a_workload_the_campaign_does_not_count_has_no_count(runs):
    assert "instructions" not in runs["updates"]


def test_a_dump_names_its_connection_thread_by_do_command(tmp_path):
    (tmp_path / "callgrind.out.7.2-01").write_text("totals: 10\nfn=(1) main\n")
    (tmp_path / "callgrind.out.7.2-03").write_text(
        f"totals: 900\nfn=(2) {CONNECTION_FUNCTION}THD*)\n"
    )
    (tmp_path / "callgrind.out.7.1-03").write_text("totals: 5\n")  # another dump
    threads = {t.thread: (t.instructions, t.connection) for t in read_part(tmp_path, 2)}
    assert threads == {1: (10, False), 3: (900, True)}
