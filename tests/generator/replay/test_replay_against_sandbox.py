"""A tiny real campaign, then its runs' replay.sh executed against a sandbox of their own: the
script loads, copies, starts and measures through one socket, and sysbench runs the same
steps as the run did."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

import contract
from generator.replay.script import replay_script
from harness.servers.sandbox import free_loopback_port
from tests.helpers.cli_runs import run_cli, write_campaign
from tests.helpers.paths import REPO

pytestmark = pytest.mark.server

TWO_VARIANTS = """
[variants.base]
[variants.small-log]
options = { innodb_log_buffer_size = "8M" }
"""


def test_replay_sh_reruns_the_runs_steps_on_a_copy_of_the_loaded_data(tmp_path: Path):
    campaign = write_campaign(tmp_path, variants=TWO_VARIANTS, threads="[1, 2]", seconds=1)
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    # the second variant started on a copy of the data the first one loaded
    run = next(r for r in runs if r["variant"] == "small-log" and r["workload"]["name"] == "rw")
    assert run["workload"]["data_origin"]["method"] == "restored"
    commands = [c["command"] for c in run["reproduce"]["commands"]]
    assert not any("/tmp/mybench-" in c or str(tmp_path) in c for c in commands)
    purposes = [c["purpose"] for c in run["reproduce"]["commands"]]
    assert purposes.index("shut the server down") < purposes.index(
        "copy the loaded datadir (every variant starts on its own copy)"
    )

    script = tmp_path / "replay.sh"
    script.write_text(replay_script(run))
    replay_dir = tmp_path / "replay"
    env = {
        **os.environ,
        "BASEDIR": "/usr",
        "REPO": str(REPO),
        "WORKDIR": str(replay_dir),
        "PORT": str(free_loopback_port()),
    }
    replayed = subprocess.run(
        ["bash", str(script)], env=env, capture_output=True, text=True, timeout=300, check=False
    )
    assert replayed.returncode == 0, replayed.stderr[-2000:]
    threads = [int(n) for n in re.findall(r"Number of threads: (\d+)", replayed.stdout)]
    measured = [step["threads"] for step in run["steps"]]
    assert threads == measured  # the measured runs, in order (the load prints no thread count)
    assert "Creating table 'sbtest2'" in replayed.stdout  # the load ran too
    assert replayed.stdout.count("transactions:") == len(measured)
    my_cnf = (replay_dir / "my.cnf").read_text()
    assert "innodb_log_buffer_size = 8M" in my_cnf and f"port = {env['PORT']}" in my_cnf
    assert (replay_dir / "datadir" / "sbtest").is_dir() and (replay_dir / "pristine").is_dir()
    assert not (replay_dir / "mysqld.pid").exists()  # the trap shut the server down

    again = subprocess.run(
        ["bash", str(script)], env=env, capture_output=True, text=True, check=False
    )
    assert again.returncode == 1 and f"{replay_dir} exists" in again.stderr
