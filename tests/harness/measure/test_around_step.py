"""A real sysbench step measured as the harness measures one (measured_step): its cost per
transaction shows the server's and sysbench's own CPU apart, each within the host's."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.measure.around_step import measured_step
from harness.model.campaign import Workload
from harness.servers.sandbox import Binaries, Sandbox
from harness.servers.sysbench_target import DATABASE
from harness.workloads.sysbench.commands import (
    execute,
    prepare_argv,
    run_argv,
    sysbench_binary,
)
from harness.workloads.sysbench.output import parse_run

THREADS = 2
# The host's CPU is counted in clock ticks (10 ms) and the processes' in their own clocks:
# a few ticks of slack on the sum.
TICK_SLACK_S = 0.05


@pytest.fixture(scope="module")
def step_per_op(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, int]:
    """One 2 s oltp_read_only step on 1 x 5,000 rows: (its per_op, its transactions)."""
    workdir = tmp_path_factory.mktemp("around-step") / "srv"
    mycnf = "[mysqld]\nskip_log_bin\ninnodb_buffer_pool_size = 64M\n"
    workload = Workload("oltp_read_only", "oltp_read_only", 1, 5000, {"mysql-db": DATABASE})
    with Sandbox(Binaries.find(Path("/usr")), workdir, mycnf) as box:
        with box.connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {DATABASE}")
        binary, target = sysbench_binary(), box.sysbench_target()
        execute(prepare_argv(binary, workload, target))
        with measured_step(box, ()) as measured:
            report = parse_run(execute(run_argv(binary, workload, target, THREADS, 2)), THREADS)
        return measured.per_op(report.events, "transaction"), report.events


def test_server_and_client_cpu_are_measured_apart(step_per_op):
    per_op, _ = step_per_op
    assert per_op["server_cpu_us"] > 0
    assert per_op["client_cpu_us"] > 0  # sysbench, started and ended within the step


def test_server_and_client_fit_in_the_host_cpu(step_per_op):
    per_op, transactions = step_per_op
    slack_us = TICK_SLACK_S * 1e6 / transactions
    assert per_op["server_cpu_us"] + per_op["client_cpu_us"] <= per_op["cpu_us"] + slack_us
