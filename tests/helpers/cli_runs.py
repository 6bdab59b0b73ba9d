"""Run the `mybench` CLI on tiny campaigns against a sandboxed server, as a user would: write
the campaign file, run or start it, watch its output, interrupt it, find what it left running."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import contract

# The sandbox and my.cnf every tiny campaign here uses (a str.format template: {basedir}).
SANDBOX = """
[servers.debian]
kind = "sandbox"
basedir = "{basedir}"
[mycnf]
base = '''
[mysqld]
innodb_buffer_pool_size = 64M
innodb_log_file_size = 48M
skip_log_bin
'''
"""
CAMPAIGN = (
    """
name = "tiny"
title = "Tiny integration campaign"
"""
    + SANDBOX
    + """{variants}
[sweep]
threads = {threads}
step_seconds = {seconds}
sleep_seconds = 0
[workloads.rw]
test = "oltp_read_write"
tables = 2
table_size = 2000
[workloads.upd]
test = "oltp_update_non_index"
tables = 2
table_size = 2000
"""
)
BINLOG_VARIANT = """
[variants.binlog]
options = { log_bin = "binlog", sync_binlog = 1, server_id = 1, skip_log_bin = false }
"""


def write_campaign(
    tmp_path: Path,
    variants: str = BINLOG_VARIANT,
    threads: str = "[1, 2]",
    seconds: int = 2,
    basedir: str = "/usr",
    host_label: str | None = None,
) -> Path:
    path = tmp_path / "tiny.toml"
    text = CAMPAIGN.format(variants=variants, threads=threads, seconds=seconds, basedir=basedir)
    if host_label is not None:
        text += f"[host]\nlabel = {json.dumps(host_label)}\n"
    path.write_text(text)
    return path


def mybench_run(tmp_path: Path, campaign: Path) -> list[str]:
    """`mybench run` with results in tmp_path/data and sandboxes in tmp_path/work."""
    return [sys.executable, "-m", "cli", "run", str(campaign),
            "--data", str(tmp_path / "data"), "--workdir", str(tmp_path / "work")]  # fmt: skip


def run_cli(
    tmp_path: Path, campaign: Path, env: dict | None = None
) -> subprocess.CompletedProcess:
    argv = mybench_run(tmp_path, campaign)
    return subprocess.run(argv, capture_output=True, text=True, check=False, env=env, timeout=300)


def measured_runs(tmp_path: Path, name: str, campaign_text: str) -> list[dict]:
    """Write campaign_text as tmp_path/<name>.toml, run it, and return its valid run documents
    (the run must succeed and every document validate)."""
    path = tmp_path / f"{name}.toml"
    path.write_text(campaign_text)
    result = run_cli(tmp_path, path)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    return runs


def start_cli(tmp_path: Path, campaign: Path, **popen: object) -> subprocess.Popen:
    argv = mybench_run(tmp_path, campaign)
    return subprocess.Popen(
        argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, **popen
    )


def servers_under(workdir: Path) -> list[str]:
    found = subprocess.run(
        ["pgrep", "-af", "mariadbd"], check=False, capture_output=True, text=True
    ).stdout
    return [line for line in found.splitlines() if str(workdir) in line]


def interrupt_after(tmp_path: Path, campaign: Path, needle: str) -> tuple[dict, str]:
    """Ctrl-C `mybench run` once its stderr shows needle: it exits 2, keeps one valid partial
    run in tmp_path/data and leaves no server running; (that run, the rest of stderr)."""
    # Its own process group, signalled as a terminal's Ctrl-C signals the foreground group.
    process = start_cli(tmp_path, campaign, start_new_session=True)
    wait_for_line(process, needle)
    os.killpg(process.pid, signal.SIGINT)
    _, rest = process.communicate(timeout=120)
    assert process.returncode == 2, rest
    assert "interrupted" in rest
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    (run,) = runs
    assert (run["status"], run["status_reason"]) == ("partial", "interrupted by Ctrl-C")
    assert servers_under(tmp_path / "work") == []
    return run, rest


def wait_for_line(process: subprocess.Popen, needle: str, timeout: float = 120) -> list[str]:
    """Read stderr lines until one contains needle; the run keeps going meanwhile."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line)
        if needle in line:
            return seen
    pytest.fail(f"never saw {needle!r}; stderr so far: {''.join(seen)}")
