"""The Insert Benchmark through the real runner (`mybench run`) on a sandboxed MariaDB: a valid
run document with every step and the harness's measurements, and Ctrl-C mid-step."""

from __future__ import annotations

import subprocess

import pytest

import contract
from harness.model.ibench_params import DEFAULT_STEPS
from tests.helpers.cli_runs import SANDBOX, interrupt_after, mybench_run, servers_under

pytestmark = pytest.mark.server

CAMPAIGN = (
    """
name = "tiny-ibench"
title = "Tiny Insert Benchmark"
"""
    + SANDBOX
    + """[variants.ps-off]
options = {{ performance_schema = false }}
[workloads.ib]
test = "ibench"
{steps}
options = {{ clients = 2, rows_l0 = 2000, rows_l12 = 1000, query_seconds = {seconds}, flush_max_seconds = 1 }}
"""
)


def write_campaign(tmp_path, steps: str = "", seconds: float = 2):
    path = tmp_path / "ibench.toml"
    path.write_text(CAMPAIGN.format(basedir="/usr", steps=steps, seconds=seconds))
    return path


def test_every_step_lands_in_a_valid_run_document(tmp_path):
    data, workdir = tmp_path / "data", tmp_path / "work"
    result = subprocess.run(
        mybench_run(tmp_path, write_campaign(tmp_path)),
        capture_output=True, text=True, check=False, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "ps-off / ib / qr100:" in result.stderr  # the progress line of a q step

    runs, problems = contract.validate_dir(data)
    assert problems == []
    (run,) = runs
    assert run["status"] == "complete"
    assert run["workload"]["tool"] == "ibench"
    assert run["workload"]["options"]["clients"] == "2"
    steps = {step["step"]: step for step in run["steps"]}
    assert list(steps) == list(DEFAULT_STEPS)
    assert steps["l.i0"]["rows"] == 2 * 2000 and steps["l.i0"]["per_op"]["op"] == "insert"
    assert steps["l.x"]["per_op"]["op"] == "indexed_row"
    assert steps["qr100"]["per_op"]["op"] == "query" and steps["qr100"]["queries"] > 0
    assert "per_op" not in steps["flush"]
    for step in run["steps"]:
        assert step["server_status_delta"] and step["os"]
        if step["duration_s"] > 2:  # the sampler's first sample comes after a second
            assert step["monitor"]["series"]["t"]
            # the rows the server wrote, second by second, within the step's own count
            written = step["monitor"]["series"]["handler_writes_per_s"]
            assert sum(written) <= step["server_status_delta"].get("Handler_write", 0)
        assert step["db_bytes"] > 0
    # The worker processes count as client CPU in the sampler's series, like sysbench.
    assert max(steps["qr100"]["monitor"]["series"]["client_cpu_pct"]) > 0
    # per_op's client CPU is the workers' own (client_cpu, its seconds rounded to the ms),
    # beside the server process's own
    query_cost = steps["qr100"]["per_op"]
    workers_us = steps["qr100"]["client_cpu"]["us_per_op"]
    assert query_cost["client_cpu_us"] == pytest.approx(workers_us, rel=1e-3)
    assert query_cost["server_cpu_us"] > 0
    commands = [c["command"] for c in run["reproduce"]["commands"]]
    assert any("-m harness.workloads.ibench" in c and "--clients 2" in c for c in commands)
    assert any("mariadbd" in c for c in commands)
    assert servers_under(workdir) == []


def test_ctrl_c_mid_step_keeps_the_completed_steps(tmp_path):
    # Long enough query steps that the interrupt lands inside one.
    steps = 'steps = ["l.i0", "l.x", "qr100", "qp100", "qr500"]'
    campaign = write_campaign(tmp_path, steps=steps, seconds=30)
    run, _ = interrupt_after(tmp_path, campaign, "ps-off / ib / l.x:")
    assert [step["step"] for step in run["steps"]][:2] == ["l.i0", "l.x"]
    assert len(run["steps"]) < 5
