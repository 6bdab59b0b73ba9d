"""`mybench run` profiles the server during every measured step and publishes the profile file
before the run document: a complete run, a run interrupted mid-sweep (the completed steps keep
their profiles) and a machine without perf (the run says why and completes)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import contract
from tests.helpers.cli_runs import SANDBOX, interrupt_after, run_cli

pytestmark = pytest.mark.server

CAMPAIGN = (
    """
name = "prof"
title = "Profiled tiny campaign"
"""
    + SANDBOX
    + """
[variants.base]
[sweep]
threads = {threads}
step_seconds = {seconds}
[workloads.upd]
test = "oltp_update_non_index"
tables = 2
table_size = 2000
"""
)


SECOND_WORKLOAD = """
[workloads.ps]
test = "oltp_point_select"
tables = 2
table_size = 2000
"""


def write(tmp_path: Path, threads: str = "[1, 2]", seconds: int = 2, more: str = "") -> Path:
    path = tmp_path / "prof.toml"
    path.write_text(CAMPAIGN.format(basedir="/usr", threads=threads, seconds=seconds) + more)
    return path


def published_profile(data: Path, run: dict) -> contract.ProfileFile:
    profile, problems = contract.load_profile(data, run)
    assert problems == [] and profile is not None
    return profile


def test_a_run_publishes_the_profile_of_every_step(tmp_path):
    result = run_cli(tmp_path, write(tmp_path))
    assert result.returncode == 0, result.stderr
    data = tmp_path / "data"
    (run,), problems = contract.validate_dir(data)
    assert problems == []
    recorded = run["profile"]
    assert recorded["file"] == f"profiles/{run['id']}.json"
    assert recorded["profiler"]["tool"] == "perf" and recorded["symbols"]["binary"] == "mariadbd"
    profile = published_profile(data, run)
    assert sorted(profile["steps"]) == ["1", "2"]
    for step in run["steps"]:
        summary = step["profile"]
        assert 0 < summary["kept_samples"] <= summary["samples"]
        stacks = contract.folded(profile, contract.step_key(step))
        assert sum(stacks.values()) == summary["kept_samples"]
        assert any("mysql_update" in stack for stack in stacks)  # the step's own statements
    assert not list((tmp_path / "work").rglob("perf.data*"))
    assert "not profiled" not in result.stderr


def test_ctrl_c_keeps_the_profiles_of_the_completed_steps(tmp_path):
    campaign = write(tmp_path, threads="[1, 2, 4, 8]", seconds=3)
    run, _ = interrupt_after(tmp_path, campaign, "base / upd / 2 thr:")
    completed = [str(step["threads"]) for step in run["steps"]]
    assert completed[:2] == ["1", "2"] and len(completed) < 4
    profile = published_profile(tmp_path / "data", run)
    assert sorted(profile["steps"]) == sorted(completed)


def test_without_perf_the_run_says_why_once_and_completes(tmp_path):
    no_perf = tmp_path / "bin"
    no_perf.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        for tool in Path(directory).glob("*") if Path(directory).is_dir() else ():
            if tool.name != "perf" and not (no_perf / tool.name).exists():
                (no_perf / tool.name).symlink_to(tool)
    campaign = write(tmp_path, threads="[1]", more=SECOND_WORKLOAD)
    result = run_cli(tmp_path, campaign, env={**os.environ, "PATH": str(no_perf)})
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == [] and len(runs) == 2
    reason = "perf not found on PATH (Debian: apt-get install linux-perf)"
    for run in runs:
        assert run["status"] == "complete" and run["profile"] == {"skipped": reason}
        assert all("profile" not in step for step in run["steps"])
    assert result.stderr.count(f"not profiled: {reason}") == 1
    assert not (tmp_path / "data" / "profiles").exists()
