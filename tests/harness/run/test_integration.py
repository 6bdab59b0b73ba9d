"""The harness against a real sandboxed MariaDB and the real sysbench: tiny data, 2 s steps."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
from html import unescape
from pathlib import Path

import pytest

import contract
from harness.measure.host import machine_key
from harness.model import suites
from harness.servers import sandbox
from harness.workloads.sysbench import project_lua
from tests.helpers.paths import REPO
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.server

from tests.helpers.cli_runs import (
    interrupt_after,
    mybench_run,
    run_cli,
    servers_under,
    start_cli,
    wait_for_line,
    write_campaign,
)


def test_campaign_writes_valid_runs_and_leaves_no_server(tmp_path):
    data, workdir = tmp_path / "data", tmp_path / "work"
    result = run_cli(tmp_path, write_campaign(tmp_path, host_label="tiny box"))
    assert result.returncode == 0, result.stderr

    runs, problems = contract.validate_dir(data)
    assert problems == []
    assert sorted(run["workload"]["name"] for run in runs) == ["rw", "upd"]
    machine_id = Path("/etc/machine-id").read_text().strip()
    assert machine_id and machine_key() is not None
    for published in (data / "runs").glob("*.json"):
        assert machine_id not in published.read_text()  # only its keyed hash is in the fingerprint
    for run in runs:
        assert run["status"] == "complete"
        assert run["server"]["product"] == "mariadb"
        assert run["host"]["datadir_mount_options"]
        assert run["host"]["label"] == "tiny box"
        assert run["host"]["fingerprint"] == contract.host_fingerprint(run["host"], machine_key())
        assert run["server"]["variables"]["log_bin"] == "ON"
        assert run["server"]["variables"]["sync_binlog"] == "1"
        assert "sync_binlog = 1" in run["server"]["my_cnf"]
        assert run["server"]["my_cnf_options"]["log_bin"] == "binlog"
        assert run["workload"]["rows_after_prepare"] == 4000
        assert [step["threads"] for step in run["steps"]] == [1, 2]
        for step in run["steps"]:
            assert step["tps"] > 0 and step["events"] > 0
            assert 1 <= len(step["series"]["tps"]) <= 3
            assert step["latency_ms"]["p95"] <= step["latency_ms"]["p99"]
            # the server really did the work the client reports
            assert step["server_status_delta"]["Com_update"] >= step["events"]
            assert step["per_op"]["cpu_us"] > 0 and step["per_op"]["op"] == "transaction"
            samples = step["monitor"]["series"]
            assert len(samples["t"]) >= 1  # a 2 s step holds one or two one-second samples
            assert max(samples["server_cpu_pct"]) > 0 and max(samples["questions_per_s"]) > 0
            assert "checkpoint_age_kb" in samples and "history_list_length" in samples
        commands = [c["command"] for c in run["reproduce"]["commands"]]
        sysbench_commands = [c for c in commands if c.startswith("sysbench")]
        assert all("--rand-type=uniform" in c for c in sysbench_commands)
        assert any(c.endswith(" prepare") for c in sysbench_commands)
        assert sum(c.endswith(" run") for c in sysbench_commands) == 2
        assert not any("password" in command for command in commands)
        # both workloads share one dataset: loaded once, the variant started on a copy
        origin = run["workload"]["data_origin"]
        assert origin["method"] == "restored" and origin["loaded_by"] == "binlog"
        assert origin["load_seconds"] > 0 and origin["restore_seconds"] >= 0
        assert "sysbench oltp 2x2000" in origin["pristine_key"]
    assert len({run["workload"]["data_origin"]["pristine_key"] for run in runs}) == 1

    assert servers_under(workdir) == []
    campaign_dir = workdir / runs[0]["campaign"]["id"]
    sandbox_dir = campaign_dir / "binlog"
    assert not (sandbox_dir / "datadir").exists()
    assert not list(campaign_dir.glob("pristine-*"))  # removed once every run is complete
    log = (sandbox_dir / "rw.log").read_text()  # one log per run: every command and its output
    assert log.count("$ sysbench oltp_read_write") == 2  # the 2 steps; the load has its own log
    assert log.count("SQL statistics:") == 2 and "Latency histogram" in log
    (load_log,) = campaign_dir.glob("load-*/load.log")
    assert load_log.read_text().count(" prepare\n") == 1


def test_rejected_option_quotes_the_server_and_runs_nothing(tmp_path):
    variants = "[variants.bad]\noptions = { innodb_bogus_knob = 1 }\n"
    data, workdir = tmp_path / "data", tmp_path / "work"
    result = run_cli(tmp_path, write_campaign(tmp_path, variants))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "error: variant bad: /usr/sbin/mariadbd rejects its my.cnf"
    assert any("unknown variable 'innodb_bogus_knob=1'" in line for line in lines[1:])
    assert not data.exists() and servers_under(workdir) == []


def test_bad_value_is_rejected_before_start(tmp_path):
    variants = '[variants.bad]\noptions = { innodb_buffer_pool_size = "lots" }\n'
    result = run_cli(tmp_path, write_campaign(tmp_path, variants))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert lines[0] == "error: variant bad: /usr/sbin/mariadbd rejects its my.cnf"
    assert "Unknown suffix 'l' used for variable 'innodb-buffer-pool-size'" in lines[1]
    assert not (tmp_path / "work").exists()  # refused before any datadir was made


def test_missing_sysbench_names_the_package(tmp_path):
    env = {**os.environ, "PATH": str(tmp_path)}
    result = run_cli(tmp_path, write_campaign(tmp_path), env=env)
    assert result.returncode == 2
    assert result.stderr.strip() == "error: sysbench not found on PATH (Debian package 'sysbench')"


def test_missing_server_binary_names_the_basedir(tmp_path):
    result = run_cli(tmp_path, write_campaign(tmp_path, basedir=str(tmp_path)))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"error: {tmp_path}: no mariadbd or mysqld in sbin/, bin/ or libexec/"
    )


def test_ctrl_c_keeps_completed_steps_and_resume_finishes_the_rest(tmp_path):
    data, workdir = tmp_path / "data", tmp_path / "work"
    # Enough steps after the one awaited that a slow, loaded machine still interrupts mid-run.
    campaign = write_campaign(tmp_path, threads="[1, 2, 4, 8]", seconds=3)
    run, rest = interrupt_after(tmp_path, campaign, "binlog / rw / 2 thr:")
    assert [step["threads"] for step in run["steps"]][:2] == [1, 2]
    campaign_id = run["campaign"]["id"]
    assert f"--resume {campaign_id}" in rest

    resumed = subprocess.run(
        [*mybench_run(tmp_path, campaign), "--resume", campaign_id],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming" in resumed.stderr and "0 of 2 runs already complete" in resumed.stderr
    assert "loading" not in resumed.stderr  # the pristine copy of the first attempt is reused
    runs, problems = contract.validate_dir(data)
    assert problems == []
    status_by_id = {run["id"]: run["status"] for run in runs}
    assert status_by_id == {
        f"{campaign_id}.binlog.rw": "partial",  # never replaced
        f"{campaign_id}.binlog.rw.r2": "complete",
        f"{campaign_id}.binlog.upd": "complete",
    }
    # the resumed runs name the snapshot the campaign started with, not one taken later
    assert all(other["harness"] == run["harness"] for other in runs)

    again = subprocess.run(
        [*mybench_run(tmp_path, campaign), "--resume", campaign_id],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert again.returncode == 0 and "2 of 2 runs already complete" in again.stderr
    assert len(contract.validate_dir(data)[0]) == 3
    assert servers_under(workdir) == []


def test_server_death_marks_the_run_partial_and_keeps_steps(tmp_path):
    data, workdir = tmp_path / "data", tmp_path / "work"
    campaign = write_campaign(tmp_path, threads="[1, 2, 4, 8]", seconds=3)
    process = start_cli(tmp_path, campaign)
    wait_for_line(process, "binlog / rw / 1 thr:")
    (server,) = servers_under(workdir)
    os.kill(int(server.split()[0]), signal.SIGKILL)
    _, rest = process.communicate(timeout=120)
    assert process.returncode == 2, rest
    assert "did not complete" in rest

    runs, problems = contract.validate_dir(data)
    assert problems == []
    (run,) = runs  # the second workload never started: its server was gone
    assert run["status"] == "partial"
    assert run["status_reason"] == "server exited during the run: mariadbd killed by signal 9"
    assert run["steps"][0]["threads"] == 1
    assert servers_under(workdir) == []


def test_taken_port_is_reported_by_the_server_and_another_is_tried(tmp_path, monkeypatch):
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        first_pick = iter([taken])
        real_pick = sandbox.free_loopback_port
        monkeypatch.setattr(
            sandbox, "free_loopback_port", lambda: next(first_pick, None) or real_pick()
        )
        binaries = sandbox.Binaries.find(Path("/usr"))
        with sandbox.Sandbox(binaries, tmp_path / "box", "[mysqld]\n") as box:
            assert box.port != taken
            with box.connect() as conn, conn.cursor() as cursor:
                cursor.execute("SELECT @@port")
                assert cursor.fetchone()[0] == box.port
        assert "Address already in use" in box.error_log.read_text()
    assert servers_under(tmp_path) == []


MARIADB_11_4 = REPO / ".servers" / "mariadb-11.4.5"  # make servers


def test_two_server_versions_in_one_campaign(tmp_path):
    assert (MARIADB_11_4 / "bin" / "mariadbd").exists(), "run `make servers` first"
    campaign = tmp_path / "versions.toml"
    campaign.write_text(f"""
name = "versions"
title = "Two versions"
[servers.m1011]
kind = "sandbox"
[servers.m114]
kind = "sandbox"
basedir = "{MARIADB_11_4}"
[mycnf]
base = "[mysqld]\\ninnodb_buffer_pool_size = 64M\\n"
[variants.base]
[sweep]
threads = [1]
step_seconds = 2
[workloads.ps]
test = "oltp_point_select"
tables = 1
table_size = 2000
""")
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    by_variant = {run["variant"]: run for run in runs}
    assert sorted(by_variant) == ["m1011.base", "m114.base"]
    assert by_variant["m1011.base"]["server"]["version"].startswith("10.11.")
    assert by_variant["m114.base"]["server"]["version"] == "11.4.5"
    assert by_variant["m114.base"]["server"]["basedir"] == str(MARIADB_11_4)
    assert by_variant["m114.base"]["campaign"]["variant_order"] == ["m1011.base", "m114.base"]
    assert all(run["steps"][0]["tps"] > 0 for run in runs)
    assert servers_under(tmp_path) == []

    debian = by_variant["m1011.base"]["server"]["build"]
    package = subprocess.run(
        ["dpkg-query", "-W", "-f", "${Version}", "mariadb-server-core"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    assert (debian["origin"], debian["package"]) == ("package", "mariadb-server-core")
    assert debian["package_version"] == package and "Debian" in debian["distribution"]
    assert debian["reported"]["version_ssl_library"].startswith("OpenSSL")
    tarball = by_variant["m114.base"]["server"]["build"]
    assert tarball["origin"] == "tarball" and tarball["basedir"] == str(MARIADB_11_4)
    assert tarball["reported"]["version_ssl_library"].startswith("WolfSSL")
    for build in (debian, tarball):
        assert build["reported"]["version_compile_machine"] == "x86_64"

    body = f'{{{{< ratios campaign="{runs[0]["campaign"]["id"]}" >}}}}'
    public = build_with_article(tmp_path / "site", body, [tmp_path / "data"])
    statement = (
        f"{by_variant['m1011.base']['server']['version']} is a"
        f" {debian['distribution']} package (mariadb-server-core {package}) built with"
        f" {debian['reported']['version_ssl_library']}; 11.4.5 is MariaDB's generic"
        f" binaries (.servers/{MARIADB_11_4.name}) built with"
        f" {tarball['reported']['version_ssl_library']}:"
    )
    for page in ("posts/probe/index.html", f"campaigns/{runs[0]['campaign']['id']}/index.html"):
        html = " ".join(unescape((public / page).read_text()).split())
        assert statement in html, page
        assert "part of the difference may be the build, not the version." in html
        assert "Derived from what older runs recorded" not in html


def test_resume_of_an_unknown_campaign_is_refused(tmp_path):
    campaign = write_campaign(tmp_path)
    wrong = subprocess.run(
        [*mybench_run(tmp_path, campaign), "--resume", "other-20260101-000000"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert wrong.returncode == 2
    assert wrong.stderr.strip() == (
        "error: --resume other-20260101-000000: not a campaign id of 'tiny'"
    )
    (tmp_path / "data" / "runs").mkdir(parents=True)
    missing = subprocess.run(
        [*mybench_run(tmp_path, campaign), "--resume", "tiny-20260101-000000"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert missing.returncode == 2
    assert "no runs of it in" in missing.stderr


def test_server_and_client_pinned_to_separate_cpus(tmp_path):
    campaign = write_campaign(tmp_path, threads="[1]", seconds=2)
    text = campaign.read_text().replace('basedir = "/usr"', 'basedir = "/usr"\ncpus = [0]')
    campaign.write_text(text + "\n[client]\ncpus = [1]\n")
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == [] and runs
    for run in runs:
        assert run["server"]["cpu_affinity"] == [0]  # read back from the kernel
        assert run["workload"]["client_cpu_affinity"] == [1]
        commands = [c["command"] for c in run["reproduce"]["commands"]]
        assert any(c.startswith('taskset -c 0 "$BASEDIR"/sbin/mariadbd') for c in commands)
        assert all(c.startswith("taskset -c 1 sysbench") for c in commands if "sysbench" in c)


def test_pinning_to_a_cpu_this_machine_lacks_is_refused(tmp_path):
    campaign = write_campaign(tmp_path)
    campaign.write_text(campaign.read_text() + "\n[client]\ncpus = [4095]\n")
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 2
    assert "[client.cpus]: CPU 4095 is not available here" in result.stderr


def test_sampled_innodb_metrics_and_a_name_the_server_refuses(tmp_path):
    campaign = write_campaign(tmp_path, threads="[1]", seconds=3)
    base = campaign.read_text()
    wanted = '\n[monitor]\ninnodb_metrics = ["trx_rw_commits", "log_lsn_checkpoint_age"]\n'
    campaign.write_text(base + wanted)
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    upd = next(run for run in runs if run["workload"]["name"] == "upd")
    series = upd["steps"][0]["monitor"]["series"]
    assert max(series["innodb_metrics.trx_rw_commits"]) > 0  # a counter, as a rate
    assert "innodb_metrics.log_lsn_checkpoint_age" in series  # a value, as it is
    assert upd["steps"][0]["monitor"]["kinds"] == {
        "innodb_metrics.trx_rw_commits": "counter",
        "innodb_metrics.log_lsn_checkpoint_age": "value",
    }
    commands = [c["command"] for c in upd["reproduce"]["commands"]]
    assert any("innodb_monitor_enable = 'trx_rw_commits'" in c for c in commands)

    campaign.write_text(base + '\n[monitor]\ninnodb_metrics = ["no_such_metric"]\n')
    refused = run_cli(tmp_path / "again", campaign)
    assert refused.returncode == 2
    assert (
        "[monitor.innodb_metrics]: the server refused them: Variable 'innodb_monitor_enable'"
        in (refused.stderr)
    )
    assert servers_under(tmp_path) == []


PASSES_CAMPAIGN_VARIANTS = """
[variants.base]
[variants.relaxed]
options = { innodb_flush_log_at_trx_commit = 2 }
[variants.page8k]
options = { innodb_page_size = "8k" }
"""


def test_init_time_option_gets_its_own_data_and_passes_interleave(tmp_path):
    campaign = write_campaign(
        tmp_path, variants=PASSES_CAMPAIGN_VARIANTS, threads="[1]", seconds=1
    )
    text = campaign.read_text().replace("sleep_seconds = 0", "sleep_seconds = 0\nrepeats = 2")
    storage = tmp_path / "storage"  # the storage under test: datadirs live here, not in work/
    text = text.replace('kind = "sandbox"', f'kind = "sandbox"\ndatadir = "{storage}"')
    campaign.write_text(text)
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("loading sysbench oltp 2x2000") == 2  # 16k pages, then 8k

    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    assert len(runs) == 3 * 2 * 2  # variants x workloads x passes
    by_variant: dict[str, set[str]] = {}
    for run in runs:
        origin = run["workload"]["data_origin"]
        by_variant.setdefault(run["variant"], set()).add(origin["pristine_key"])
        assert origin["loaded_by"] == ("page8k" if run["variant"] == "page8k" else "base")
        assert run["host"]["datadir_device"] is not None
    assert by_variant["base"] == by_variant["relaxed"] != by_variant["page8k"]
    assert all(len(keys) == 1 for keys in by_variant.values())  # both passes, one copy
    page_sizes = {run["variant"]: run["server"]["variables"]["innodb_page_size"] for run in runs}
    assert page_sizes == {"base": "16384", "relaxed": "16384", "page8k": "8192"}

    # interleaved: every run of pass 1 started before any run of pass 2, which starts one
    # variant further on
    ordered = sorted(runs, key=lambda run: (run["started_at"], run["id"]))
    assert [run["repeat"]["index"] for run in ordered] == [1] * 6 + [2] * 6
    variants_in_order = [run["variant"] for run in ordered[::2]]  # two workloads per variant
    assert variants_in_order == ["base", "relaxed", "page8k", "relaxed", "page8k", "base"]
    assert all(run["repeat"]["of"] == 2 and run["id"].endswith(f".p{run['repeat']['index']}")
               for run in runs)  # fmt: skip
    assert list(storage.rglob("ibdata1")) == []  # datadirs and pristine copies removed


@pytest.fixture
def full_filesystem(tmp_path):
    """A 4 MiB tmpfs: too small for any datadir. Needs the right to mount (root here)."""
    mount_point = tmp_path / "full"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount_point)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {mounted.stderr.strip()}")
    yield mount_point
    subprocess.run(["umount", str(mount_point)], check=False)


def test_datadir_on_a_full_filesystem_is_one_clear_line(tmp_path, full_filesystem):
    data = tmp_path / "data"
    (data / "runs").mkdir(parents=True)
    earlier = data / "runs" / "earlier.json"
    earlier.write_text('{"kept": true}\n')
    campaign = write_campaign(tmp_path)
    text = campaign.read_text()
    campaign.write_text(
        text.replace('kind = "sandbox"', f'kind = "sandbox"\ndatadir = "{full_filesystem}"')
    )
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 2
    first = result.stderr.strip().splitlines()
    (error,) = [line for line in first if line.startswith("error:")]
    assert str(full_filesystem) in error and "the filesystem is full" in error
    assert earlier.read_text() == '{"kept": true}\n'
    assert [path.name for path in (data / "runs").iterdir()] == ["earlier.json"]
    assert servers_under(tmp_path / "work") == []


SUITES_CAMPAIGN = """
name = "suites"
title = "Both reference suites on tiny data"
[servers.debian]
kind = "sandbox"
[mycnf]
base = '''
[mysqld]
innodb_buffer_pool_size = 64M
innodb_log_file_size = 48M
log_bin = binlog
server_id = 1
'''
[variants.base]
[sweep]
threads = [1]
step_seconds = 1
sleep_seconds = 0
[workloads.micro]
preset = "callaghan"
tables = 1
table_size = 5000
[workloads.dimitri]
preset = "dimitri"
tables = 1
table_size = 5000
"""


def test_every_preset_test_runs_in_the_references_order(tmp_path):
    campaign = tmp_path / "suites.toml"
    campaign.write_text(SUITES_CAMPAIGN)
    result = run_cli(tmp_path, campaign)
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    assert all(run["status"] == "complete" for run in runs)
    ordered = sorted(runs, key=lambda run: (run["started_at"], run["id"]))
    assert [run["workload"]["suite"]["test"] for run in ordered] == [
        test.test for test in [*suites.CALLAGHAN, *suites.DIMITRI]
    ]
    assert [run["workload"]["suite"]["position"] for run in ordered] == [
        *range(1, len(suites.CALLAGHAN) + 1), *range(1, len(suites.DIMITRI) + 1)
    ]  # fmt: skip
    # one load for both suites: every test ran on the same data, in one server start
    assert len({run["workload"]["data_origin"]["pristine_key"] for run in runs}) == 1
    assert all(run["workload"]["rows_after_prepare"] == 5000 for run in runs)
    by_test = {run["workload"]["suite"]["test"]: run for run in runs}

    def commands(test: str) -> list[str]:
        return [c["command"] for c in by_test[test]["reproduce"]["commands"]]

    assert any(
        c.endswith(" run") and "--table-size=1 " in c for c in commands("update-one_range=100")
    )
    purposes = [c["purpose"] for c in by_test["read-write_range=100"]["reproduce"]["commands"]]
    assert "post-write: refresh statistics" in purposes
    assert "post-write: drop the binary log" in purposes
    measured = [i for i, purpose in enumerate(purposes) if purpose.startswith("measure at")]
    post_write = [i for i, purpose in enumerate(purposes) if purpose.startswith("post-write")]
    assert max(measured) < min(post_write)  # listed in the order they ran
    # each project Lua test had its query plan checked before it was measured
    for test in suites.CALLAGHAN:
        if project_lua.is_project_test(test.script):
            script = f"sysbench harness/workloads/sysbench/lua/{test.script}.lua"
            assert any(
                c.startswith(script) and c.endswith(" explain") for c in commands(test.test)
            )
    scan = by_test["scan_range=100"]["steps"][0]
    assert scan["rows_per_s"] == pytest.approx(scan["events"] * 5000 / scan["duration_s"], 0.01)
