"""ExistingServer against a real MariaDB the tests start (a Sandbox) and then only connect to:
over TCP with a password from the environment, as a benchmark user; and a whole campaign on it."""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

import jsonschema
import pymysql
import pytest

import contract
from harness.campaign.load import load_campaign
from harness.errors import ServerGoneError, UserError
from harness.measure import host as hostinfo
from harness.measure.sampler import StepSampler
from harness.servers.sandbox import Sandbox, free_loopback_port
from harness.servers.sysbench_target import DATABASE
from harness.workloads.sysbench.commands import (
    cleanup_argv,
    execute,
    prepare_argv,
    render,
    sysbench_binary,
)
from tests.helpers.existing_servers import (
    PASSWORD,
    PASSWORD_ENV,
    TINY,
    USER,
    assert_no_secret,
    existing_server,
    global_value,
    root_sql,
    run_campaign,
    server_schema,
)

pytestmark = pytest.mark.server


def test_env_password_connects_describes_and_runs_sysbench_without_recording_it(
    box: Sandbox, tmp_path: Path, env_password: None
) -> None:
    with existing_server(box, tmp_path) as server:
        with server.connect() as conn, conn.cursor() as cursor:
            cursor.execute("SELECT CURRENT_USER()")
            assert cursor.fetchone()[0].startswith(f"{USER}@")
        # Local: found through @@pid_file and the process's working directory.
        assert server.pid == box.pid
        assert server.datadir == box.datadir
        assert server.alive() and server.cpus == ()
        server.check_alive()

        document = server.describe()
        jsonschema.validate(document, server_schema())
        assert document["product"] == "mariadb" and document["kind"] == "existing"
        assert document["sandbox"] is False and document["version"].startswith("10.")
        assert "variant_applied" not in document  # nothing applied
        assert (
            document["my_cnf"].startswith("# no option applied")
            and "[mysqld]" in document["my_cnf"]
        )
        assert document["variables"]["port"] == str(box.port)
        assert document["binary"].endswith("mariadbd")
        assert_no_secret(document)

        target = server.sysbench_target()
        assert PASSWORD not in repr(target)
        assert PASSWORD not in json.dumps(target.options())
        root_sql(box, f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
        prepare = prepare_argv(sysbench_binary(), TINY, target)
        rendered = render(prepare)
        assert f'--mysql-password="${PASSWORD_ENV}"' in rendered.split()
        assert f"--mysql-host=127.0.0.1 --mysql-port={box.port} --mysql-user={USER}" in rendered
        assert_no_secret(rendered, prepare)
        # The real argv carries the password and works ...
        runnable = target.runnable(prepare)
        assert f"--mysql-password={PASSWORD}" in runnable
        execute(runnable)
        # ... and so does the recorded command, typed into a shell that has the variable.
        cleanup = render(cleanup_argv(sysbench_binary(), TINY, target))
        result = subprocess.run(["sh", "-c", cleanup], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        root_sql(box, f"DROP DATABASE {DATABASE}")

        host = hostinfo.collect_host(server.datadir)
        assert host["datadir_filesystem"]
        remote = hostinfo.collect_host(None)
        assert remote["datadir_filesystem"] is None and remote["datadir_device"] is None
    assert box.alive()  # leaving the block never stops a server the harness did not start


def test_refusals_are_one_line_and_secret_free(
    box: Sandbox, tmp_path: Path, env_password: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with existing_server(box, tmp_path) as server:
        version = server.describe()["version"]
        with pytest.raises(UserError) as fixed:
            server.check_variant("big-log", {"innodb_log_buffer_size": "32M"})
        assert str(fixed.value) == (
            f"variant big-log: innodb_log_buffer_size is not dynamic on server prod"
            f" (MariaDB {version}); give [servers.prod] restart_command to apply it"
        )
        with pytest.raises(UserError) as unknown:
            server.check_variant("typo", {"sync_binlog": 1, "innodb_flush_log_at_trx_comit": 2})
        assert str(unknown.value) == (
            f"variant typo: innodb_flush_log_at_trx_comit is not a global variable of"
            f" server prod (MariaDB {version})"
        )
        with (
            pytest.raises(UserError, match="not dynamic"),
            server.apply_variant("big-log", {"innodb_log_buffer_size": "32M"}),
        ):
            pytest.fail("a refused variant must not run")
        # The probe used for MySQL (no READ_ONLY column there), checked on this server.
        with server.connect() as conn, conn.cursor() as cursor:
            assert server.variants._probe_dynamic(cursor, "v", "sync_binlog") is True
            assert server.variants._probe_dynamic(cursor, "v", "innodb_log_buffer_size") is False

    monkeypatch.setenv(PASSWORD_ENV, "wrong-Pa55")
    with pytest.raises(UserError) as denied:
        existing_server(box, tmp_path).start()
    message = str(denied.value)
    assert message.startswith(f"server prod (127.0.0.1:{box.port}): access denied for user")
    assert f"${PASSWORD_ENV}" in message and "wrong-Pa55" not in message and "\n" not in message

    port = free_loopback_port()
    gone = existing_server(box, tmp_path, port=port)
    with pytest.raises(UserError, match=rf"^server prod: cannot connect to 127\.0\.0\.1:{port}: "):
        gone.start()
    assert not gone.alive()
    with pytest.raises(ServerGoneError, match=rf"does not answer at 127\.0\.0\.1:{port}"):
        gone.check_alive()
    assert "\n" not in gone.exit_summary()

    monkeypatch.delenv(PASSWORD_ENV)
    with pytest.raises(UserError, match=rf"environment variable {PASSWORD_ENV} is not set"):
        existing_server(box, tmp_path)


def test_sampler_leaves_server_series_out_without_a_pid(box: Sandbox) -> None:
    with box.connect() as conn:
        sampler = StepSampler(conn, None)
        sampler.start()
        time.sleep(1.3)
        series = sampler.stop()
    assert series["questions_per_s"] and series["client_cpu_pct"]
    assert "server_cpu_pct" not in series and "server_rss_mb" not in series


def test_campaign_parses_existing_server_fields(tmp_path: Path) -> None:
    (tmp_path / "conf").mkdir()
    campaign = tmp_path / "c.toml"
    campaign.write_text(
        'name = "e"\ntitle = "e"\n'
        '[servers.prod]\nkind = "existing"\nhost = "db1"\nport = 3307\nuser = "bench"\n'
        'option_file = "conf/client.cnf"\nrestart_command = "sudo systemctl restart mariadb"\n'
        '[servers.local]\nkind = "existing"\nsocket = "/run/mysqld/mysqld.sock"\nuser = "b"\n'
        'password_env = "PW"\n'
        '[mycnf]\nbase = "[mysqld]"\n[variants.base]\n'
        "[sweep]\nthreads = [1]\nstep_seconds = 1\n"
        '[workloads.ps]\ntest = "oltp_point_select"\n'
    )
    prod, local = load_campaign(campaign).servers
    assert (prod.host, prod.port, prod.user, prod.socket) == ("db1", 3307, "bench", None)
    assert prod.option_file == tmp_path / "conf" / "client.cnf"
    assert prod.restart_command == "sudo systemctl restart mariadb"
    assert (local.socket, local.password_env, local.host) == (
        Path("/run/mysqld/mysqld.sock"),
        "PW",
        None,
    )


def test_pymysql_error_text_never_holds_the_password(box: Sandbox) -> None:
    """What the messages above rely on: the server's refusal does not echo the password."""
    with pytest.raises(pymysql.err.OperationalError) as refused:
        pymysql.connect(host="127.0.0.1", port=box.port, user=USER, password="Wr0ng-secret")
    assert "Wr0ng-secret" not in str(refused.value)


def test_campaign_on_an_existing_server_end_to_end(box, tmp_path, env_password):
    result = run_campaign(box, tmp_path, "innodb_flush_log_at_trx_commit = 2")
    assert result.returncode == 0, result.stderr
    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    by_variant = {run["variant"]: run for run in runs}
    assert sorted(by_variant) == ["durable", "relaxed"]
    for run in runs:
        assert run["status"] == "complete" and len(run["steps"]) == 2
        assert run["server"]["kind"] == "existing" and run["server"]["sandbox"] is False
        assert run["workload"]["data_origin"]["method"] == "prepared"
        assert run["workload"]["rows_after_prepare"] == 500
        commands = [c["command"] for c in run["reproduce"]["commands"]]
        assert any("--mysql-host=127.0.0.1" in c and c.endswith(" run") for c in commands)
        assert any(f'--mysql-password="${PASSWORD_ENV}"' in c for c in commands)
    relaxed = by_variant["relaxed"]["server"]
    assert relaxed["variant_applied"] == "set_global"
    assert relaxed["variables"]["innodb_flush_log_at_trx_commit"] == "2"
    assert by_variant["durable"]["server"]["variables"]["innodb_flush_log_at_trx_commit"] == "1"
    # left as found: the global is back, sysbench's tables are gone, no secret was written
    assert global_value(box, "innodb_flush_log_at_trx_commit") == "1"
    tables = root_sql(box, "SELECT COUNT(*) FROM information_schema.tables"
                       " WHERE table_schema = 'sbtest'")  # fmt: skip
    assert tables[0][0] == 0
    for path in [*tmp_path.rglob("*.json"), *tmp_path.rglob("*.log"), *tmp_path.rglob("*.cnf")]:
        assert PASSWORD.encode() not in path.read_bytes(), path
