"""Faults in the middle of a campaign, on a real sandboxed MariaDB with tiny data and 1 s steps:
a killed server, a results disk that fills, a variant whose server does not start. Each names
every cell that did not complete, and says how to finish the campaign."""

from __future__ import annotations

import json
import os
import shutil
import signal
import stat
import subprocess

import pytest

import contract
from tests.helpers import cli_runs
from tests.helpers.cli_runs import mybench_run, servers_under, wait_for_line, write_campaign
from tests.helpers.paths import FIXTURE_RUNS
from tests.helpers.small_tmpfs import fill, small_tmpfs

pytestmark = pytest.mark.server

TWO_VARIANTS = "[variants.base]\n" + cli_runs.BINLOG_VARIANT


def statuses(data) -> dict[str, str]:
    runs, problems = contract.validate_dir(data)
    assert problems == []
    return {run["id"]: run["status"] for run in runs}


def test_a_killed_server_names_the_runs_it_cost_and_resume_completes_them(tmp_path):
    data, workdir = tmp_path / "data", tmp_path / "work"
    campaign = write_campaign(tmp_path, TWO_VARIANTS, threads="[1, 2, 4]", seconds=1)
    process = cli_runs.start_cli(tmp_path, campaign)
    wait_for_line(process, "base / rw / 1 thr:")
    (server,) = servers_under(workdir)
    os.kill(int(server.split()[0]), signal.SIGKILL)
    _, rest = process.communicate(timeout=180)
    assert process.returncode == 2, rest

    (campaign_id,) = {run_id.split(".")[0] for run_id in statuses(data)}
    assert statuses(data) == {  # the next variant still ran, on its own start
        f"{campaign_id}.base.rw": "partial",
        f"{campaign_id}.binlog.rw": "complete",
        f"{campaign_id}.binlog.upd": "complete",
    }
    lines = rest.strip().splitlines()
    missing = lines.index("2 of 4 planned run(s) did not complete:")
    assert lines[missing + 1 : missing + 3] == [
        (
            f"  base / rw: partial ({campaign_id}.base.rw): server exited during the run:"
            " mariadbd killed by signal 9"
        ),
        f"  base / upd: not run: the server died during {campaign_id}.base.rw",
    ]
    resume = f"mybench run {campaign} --data {data} --resume {campaign_id}"
    assert lines[-1].startswith("error: 2 of 4 planned run(s) did not complete")
    assert lines[-1].endswith(f"; finish with: {resume}")
    assert servers_under(workdir) == []

    resumed = subprocess.run(
        [*mybench_run(tmp_path, campaign), "--resume", campaign_id],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert "2 of 4 runs already complete" in resumed.stderr
    assert "did not complete" not in resumed.stderr
    assert statuses(data) == {
        f"{campaign_id}.base.rw": "partial",  # never replaced
        f"{campaign_id}.base.rw.r2": "complete",
        f"{campaign_id}.base.upd": "complete",
        f"{campaign_id}.binlog.rw": "complete",
        f"{campaign_id}.binlog.upd": "complete",
    }
    assert servers_under(workdir) == []


def test_a_full_results_disk_stops_the_campaign_and_keeps_what_it_measured(tmp_path):
    rescue_dir = tmp_path / "t"  # the temp directory the harness rescues runs into
    rescue_dir.mkdir()
    campaign = write_campaign(tmp_path, TWO_VARIANTS, threads="[1, 2, 4]", seconds=1)
    (earlier_source, *_) = sorted((FIXTURE_RUNS / "runs").glob("*.json"))
    env = {**os.environ, "TMPDIR": str(rescue_dir)}
    with small_tmpfs(tmp_path / "data", "2m") as results:
        runs = results.view / "runs"
        runs.mkdir()
        earlier = runs / earlier_source.name
        shutil.copyfile(earlier_source, earlier)
        process = subprocess.Popen(
            [*results.prefix, *mybench_run(tmp_path, campaign)],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env,
        )  # fmt: skip
        wait_for_line(process, "base / upd / 1 thr:")  # base / rw is written by now
        (first,) = runs.glob("*.base.rw.json")
        campaign_id = json.loads(first.read_text())["campaign"]["id"]
        taken = rescue_dir / f"{campaign_id}.base.upd.json"
        taken.write_text("a file of someone else's\n")
        fill(results.view)
        _, rest = process.communicate(timeout=180)
        assert process.returncode == 2, rest

        written = tmp_path / "data" / "runs" / f"{campaign_id}.base.rw.json"
        rescued = rescue_dir / f"{campaign_id}.base.upd-2.json"
        resume = f"mybench run {campaign} --data {tmp_path / 'data'} --resume {campaign_id}"
        lines = rest.strip().splitlines()
        assert lines[-1] == (
            f"error: {written.parent}: cannot write run {campaign_id}.base.upd (No space left"
            f" on device); saved to {rescued}, move it into {written.parent} before resuming;"
            f" finish with: {resume}"
        )
        assert f"wrote {written}" in lines
        missing = lines.index("3 of 4 planned run(s) did not complete:")
        assert lines[missing + 1].startswith("  base / upd: measured but not written: ")
        assert lines[missing + 2 : missing + 4] == [
            f"  binlog / {workload}: not run: the campaign stopped after a run could not be"
            " written"
            for workload in ("rw", "upd")
        ]
        assert taken.read_text() == "a file of someone else's\n"  # never written over
        document = json.loads(rescued.read_text())
        assert (document["id"], document["status"]) == (f"{campaign_id}.base.upd", "complete")
        assert earlier.read_bytes() == earlier_source.read_bytes()
        assert sorted(path.name for path in runs.iterdir()) == sorted(
            [earlier.name, first.name]  # no half-written file left behind
        )
        assert servers_under(tmp_path / "work") == []

        # Room again: the rescued run moved in as the message says, --resume runs the rest.
        (results.view / "filler").unlink()
        shutil.move(rescued, runs / f"{campaign_id}.base.upd.json")
        resumed = subprocess.run(
            [*results.prefix, *mybench_run(tmp_path, campaign), "--resume", campaign_id],
            capture_output=True, text=True, check=False, timeout=300, env=env,
        )  # fmt: skip
        assert resumed.returncode == 0, resumed.stderr
        assert "2 of 4 runs already complete" in resumed.stderr
        assert sorted(path.name for path in runs.iterdir()) == sorted(
            [earlier.name, *(f"{campaign_id}.{cell}.json" for cell in
                             ("base.rw", "base.upd", "binlog.rw", "binlog.upd"))]
        )  # fmt: skip


UNSTARTABLE_MIDDLE_VARIANT = """
[variants.base]
[variants.lostdisk]
description = "the binary log on a disk that is not mounted"
options = { log_bin = "/nonexistent/binlog-disk/binlog", server_id = 1, skip_log_bin = false }
[variants.relaxed]
options = { innodb_flush_log_at_trx_commit = 2, port = 3307 }
"""


def test_a_variant_whose_server_does_not_start_costs_only_its_own_runs(tmp_path):
    data = tmp_path / "data"
    campaign = write_campaign(tmp_path, UNSTARTABLE_MIDDLE_VARIANT, threads="[1]", seconds=1)
    result = cli_runs.run_cli(tmp_path, campaign)
    assert result.returncode == 2, result.stderr

    (campaign_id,) = {run_id.split(".")[0] for run_id in statuses(data)}
    assert statuses(data) == {
        f"{campaign_id}.{variant}.{workload}": "complete"
        for variant in ("base", "relaxed")
        for workload in ("rw", "upd")
    }
    runs, _ = contract.validate_dir(data)
    for run in runs:  # the harness gives each server its own port, and says so
        server = run["server"]
        if run["variant"] == "relaxed":
            assert server["my_cnf_options"]["port"] == "3307"
            assert server["harness_overrides"] == {"port": server["variables"]["port"]}
            assert server["variables"]["port"] != "3307"
        else:
            assert server["harness_overrides"] == {}
    lines = result.stderr.strip().splitlines()
    missing = lines.index("2 of 6 planned run(s) did not complete:")
    for line, workload in zip(lines[missing + 1 : missing + 3], ("rw", "upd"), strict=True):
        assert line.startswith(f"  lostdisk / {workload}: not run: the server did not start: ")
        assert "mariadbd exited at start" in line
        assert "[ERROR] mariadbd: File '/nonexistent/binlog-disk/binlog.index' not found" in line
    assert lines[-1].endswith(
        f"finish with: mybench run {campaign} --data {data} --resume {campaign_id}"
    )
    assert servers_under(tmp_path / "work") == []


def test_a_run_refused_for_a_credential_after_measuring_is_kept_private_and_redacted(tmp_path):
    """The campaign's description is copied into every run as written: one that quotes a
    password is refused when the first run is written, after it was measured."""
    planted = ("Planted-in-a-subshell", "Planted-after-a-space")
    data, rescue_dir = tmp_path / "data", tmp_path / "t"
    rescue_dir.mkdir()
    campaign = write_campaign(tmp_path, "[variants.base]\n", threads="[1]", seconds=1)
    described = f'description = "echo $(mysql -p{planted[0]}); restart.sh --password {planted[1]}"'
    text = campaign.read_text().replace('title = "', f'{described}\ntitle = "', 1)
    campaign.write_text(text)
    result = cli_runs.run_cli(tmp_path, campaign, env={**os.environ, "TMPDIR": str(rescue_dir)})
    assert result.returncode == 2, result.stderr

    runs = data / "runs"
    (kept,) = (runs / ".refused").iterdir()
    document = json.loads(kept.read_text())
    campaign_id = document["campaign"]["id"]
    assert kept.name == f"{campaign_id}.base.rw.json"
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: run {campaign_id}.base.rw not written: ")
    assert "$.campaign.description: holds an unredacted credential" in last
    assert (
        f"; kept with credentials redacted in {kept} (mode 0600), it validates as kept: move it"
        f" into {runs} before resuming;"
    ) in last
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert stat.S_IMODE(kept.parent.stat().st_mode) & 0o077 == 0
    assert document["campaign"]["description"] == (
        "echo $(mysql -p<redacted>); restart.sh --password <redacted>"
    )
    assert (document["status"], len(document["steps"])) == ("complete", 1)  # measured
    for path in [*data.rglob("*"), *rescue_dir.rglob("*")]:
        if path.is_file():
            assert not any(secret.encode() in path.read_bytes() for secret in planted), path
    assert not any(secret in result.stderr for secret in planted)
    assert contract.validate_dir(data) == ([], [])  # nothing a result reader would take
    kept.rename(runs / kept.name)  # as the message says: it is a valid run
    assert [run["id"] for run in contract.validate_dir(data)[0]] == [document["id"]]
    assert servers_under(tmp_path / "work") == []
