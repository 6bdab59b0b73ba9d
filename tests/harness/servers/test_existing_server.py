"""ExistingServer against a real MariaDB the tests start (a Sandbox) and then only connect to:
over TCP with a password from the environment or a client option file, as a benchmark user."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import psutil
import pymysql
import pytest

import contract
from harness.campaign.load import Workload, load_campaign
from harness.errors import ServerGoneError, UserError
from harness.measure import host as hostinfo
from harness.measure.sampler import StepSampler
from harness.servers.existing.option_files import option_file_options
from harness.servers.existing.option_values import same_value, sql_value
from harness.servers.existing.server import ExistingServer
from harness.servers.sandbox import Binaries, Sandbox, free_loopback_port
from harness.workloads.sysbench.commands import (
    DATABASE,
    cleanup_argv,
    execute,
    prepare_argv,
    render,
    sysbench_binary,
)
from tests.helpers.paths import REPO

pytestmark = pytest.mark.server

PASSWORD = "Zq9 pw#s3cret"  # a space and a '#': quoting in option files and argv both matter
PASSWORD_ENV = "MYBENCH_TEST_EXISTING_PW"
USER = "bench"
TINY = Workload("tiny", "oltp_point_select", tables=1, table_size=100, options={})


def _server_schema() -> dict:
    schema = json.loads((REPO / "data/schema/run-v1.schema.json").read_text())
    return schema["properties"]["server"]


def _root_sql(box: Sandbox, *statements: str, args: tuple = ()) -> list:
    with box.connect() as conn, conn.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement, args or None)
        return list(cursor.fetchall())


def _global(box: Sandbox, name: str) -> str:
    return str(_root_sql(box, f"SELECT @@GLOBAL.{name}")[0][0])


def _with_bench_user(box: Sandbox) -> Sandbox:
    for host in ("localhost", "127.0.0.1"):
        _root_sql(box, f"CREATE USER '{USER}'@'{host}' IDENTIFIED BY %s", args=(PASSWORD,))
        _root_sql(box, f"GRANT ALL PRIVILEGES ON *.* TO '{USER}'@'{host}'")
    return box


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory):
    """One real server for the tests that leave it as they found it."""
    workdir = tmp_path_factory.mktemp("existing") / "srv"
    with Sandbox(Binaries.find(Path("/usr")), workdir, "[mysqld]\nskip_log_bin\n") as sandbox:
        yield _with_bench_user(sandbox)


@pytest.fixture
def env_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)


def _server(box: Sandbox, tmp_path: Path, **fields: object) -> ExistingServer:
    defaults: dict[str, object] = {"host": "127.0.0.1", "port": box.port}
    if "option_file" not in fields:
        defaults["password_env"] = PASSWORD_ENV
    return ExistingServer("prod", tmp_path / "work", USER, **{**defaults, **fields})


def _assert_no_secret(*texts: object) -> None:
    for text in texts:
        assert PASSWORD not in (text if isinstance(text, str) else json.dumps(text))


def test_env_password_connects_describes_and_runs_sysbench_without_recording_it(
    box: Sandbox, tmp_path: Path, env_password: None
) -> None:
    with _server(box, tmp_path) as server:
        with server.connect() as conn, conn.cursor() as cursor:
            cursor.execute("SELECT CURRENT_USER()")
            assert cursor.fetchone()[0].startswith(f"{USER}@")
        # Local: found through @@pid_file and the process's working directory.
        assert server.pid == box.pid
        assert server.datadir == box.datadir
        assert server.alive() and server.cpus == ()
        server.check_alive()

        document = server.describe()
        jsonschema.validate(document, _server_schema())
        assert document["product"] == "mariadb" and document["kind"] == "existing"
        assert document["sandbox"] is False and document["version"].startswith("10.")
        assert "variant_applied" not in document  # nothing applied
        assert (
            document["my_cnf"].startswith("# no option applied")
            and "[mysqld]" in document["my_cnf"]
        )
        assert document["variables"]["port"] == str(box.port)
        assert document["binary"].endswith("mariadbd")
        _assert_no_secret(document)

        target = server.sysbench_target()
        assert PASSWORD not in repr(target)
        assert PASSWORD not in json.dumps(target.options())
        _root_sql(box, f"CREATE DATABASE IF NOT EXISTS {DATABASE}")
        prepare = prepare_argv(sysbench_binary(), TINY, target)
        rendered = render(prepare)
        assert f'--mysql-password="${PASSWORD_ENV}"' in rendered.split()
        assert f"--mysql-host=127.0.0.1 --mysql-port={box.port} --mysql-user={USER}" in rendered
        _assert_no_secret(rendered, prepare)
        # The real argv carries the password and works ...
        runnable = target.runnable(prepare)
        assert f"--mysql-password={PASSWORD}" in runnable
        execute(runnable)
        # ... and so does the recorded command, typed into a shell that has the variable.
        cleanup = render(cleanup_argv(sysbench_binary(), TINY, target))
        result = subprocess.run(["sh", "-c", cleanup], capture_output=True, text=True, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        _root_sql(box, f"DROP DATABASE {DATABASE}")

        host = hostinfo.collect_host(server.datadir)
        assert host["datadir_filesystem"]
        remote = hostinfo.collect_host(None)
        assert remote["datadir_filesystem"] is None and remote["datadir_device"] is None
    assert box.alive()  # leaving the block never stops a server the harness did not start


def test_option_file_password(box: Sandbox, tmp_path: Path) -> None:
    option_file = tmp_path / "client.cnf"
    option_file.write_text(
        "# the benchmark account\n"
        "[mysqld]\npassword = not-this-one\n"
        f'[client]\nuser = someone\npassword = "{PASSWORD}"  # quoted: keeps the space and #\n'
        "skip-ssl\n"
    )
    server = _server(box, tmp_path, option_file=option_file)
    with server:
        assert server.describe()["variables"]["port"] == str(box.port)
        _assert_no_secret(server.describe())
        target = server.sysbench_target()
        rendered = render(cleanup_argv("sysbench", TINY, target))
        assert f"'--mysql-password=<password from {option_file}>'" in rendered
        _assert_no_secret(rendered)
        assert f"--mysql-password={PASSWORD}" in target.runnable(
            cleanup_argv("sysbench", TINY, target)
        )
    # The [mybench] section wins over [client]; a bare key reads as None.
    parsed = option_file_options(
        "[client]\npassword=a\nuser\n[mybench]\npassword = 'b\\sc' # note\n", ("client", "mybench")
    )
    assert parsed == {"password": "b c", "user": None}

    bare = tmp_path / "bare.cnf"
    bare.write_text("[client]\nuser = bench\n")
    with pytest.raises(UserError, match=r"bare\.cnf has no password in its \[client\]"):
        _server(box, tmp_path, option_file=bare)
    with pytest.raises(UserError, match=r"option_file: cannot read .*missing\.cnf"):
        _server(box, tmp_path, option_file=tmp_path / "missing.cnf")


def test_dynamic_variant_is_set_and_restored(
    box: Sandbox, tmp_path: Path, env_password: None
) -> None:
    _root_sql(box, "SET GLOBAL innodb_max_dirty_pages_pct = 50")
    before = {
        name: _global(box, name)
        for name in ("innodb_flush_log_at_trx_commit", "sync_binlog",
                     "innodb_adaptive_hash_index", "innodb_max_dirty_pages_pct")
    }  # fmt: skip
    options = {
        "innodb_flush_log_at_trx_commit": 2,
        "sync-binlog": 7,  # dashes are accepted as in my.cnf
        "innodb_adaptive_hash_index": True,
        "innodb_max_dirty_pages_pct": False,  # back to its compiled default, 90
        "innodb_buffer_pool_size": "128M",  # a size: SET GLOBAL gets bytes
    }
    with _server(box, tmp_path) as server:
        server.check_variant("relaxed", options)
        with server.apply_variant("relaxed", options):
            assert _global(box, "innodb_flush_log_at_trx_commit") == "2"
            assert _global(box, "sync_binlog") == "7"
            assert _global(box, "innodb_adaptive_hash_index") == "1"
            assert float(_global(box, "innodb_max_dirty_pages_pct")) == 90
            document = server.describe()
            jsonschema.validate(document, _server_schema())
            assert document["variant_applied"] == "set_global"
            assert document["my_cnf"].startswith("# applied with SET GLOBAL")
            assert "innodb_flush_log_at_trx_commit = 2\n" in document["my_cnf"]
            assert document["my_cnf_options"]["sync_binlog"] == "7"
            commands = server.reproduce_commands()
            texts = [entry["command"] for entry in commands]
            assert (
                f"mariadb -h 127.0.0.1 -P {box.port} -u {USER} -p -e"
                ' "SET GLOBAL innodb_flush_log_at_trx_commit = 2"'
            ) in texts
            assert any("SET GLOBAL innodb_max_dirty_pages_pct = 50" in text for text in texts)
            _assert_no_secret(document, commands)
        assert {name: _global(box, name) for name in before} == before
        assert server.describe()["my_cnf"].startswith("# no option applied")

        # Restored after an error and after Ctrl-C too.
        for interruption in (RuntimeError("boom"), KeyboardInterrupt()):
            with (
                pytest.raises(type(interruption)),
                server.apply_variant("relaxed", {"sync_binlog": 3}),
            ):
                assert _global(box, "sync_binlog") == "3"
                raise interruption
            assert _global(box, "sync_binlog") == before["sync_binlog"]

        # A value the server refuses: one line naming the statement; nothing stays changed.
        with (
            pytest.raises(UserError) as refused,
            server.apply_variant("bad", {"sync_binlog": 5, "innodb_flush_method": "x"}),
        ):
            pass
        assert "not dynamic" in str(refused.value)
        with (
            pytest.raises(UserError, match=r"refused SET GLOBAL innodb_change_buffering = 'x'"),
            server.apply_variant("bad", {"sync_binlog": 5, "innodb_change_buffering": "x"}),
        ):
            pass
        assert _global(box, "sync_binlog") == before["sync_binlog"]
    _root_sql(box, "SET GLOBAL innodb_max_dirty_pages_pct = 90")


def test_refusals_are_one_line_and_secret_free(
    box: Sandbox, tmp_path: Path, env_password: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    with _server(box, tmp_path) as server:
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
        _server(box, tmp_path).start()
    message = str(denied.value)
    assert message.startswith(f"server prod (127.0.0.1:{box.port}): access denied for user")
    assert f"${PASSWORD_ENV}" in message and "wrong-Pa55" not in message and "\n" not in message

    port = free_loopback_port()
    gone = _server(box, tmp_path, port=port)
    with pytest.raises(UserError, match=rf"^server prod: cannot connect to 127\.0\.0\.1:{port}: "):
        gone.start()
    assert not gone.alive()
    with pytest.raises(ServerGoneError, match=rf"does not answer at 127\.0\.0\.1:{port}"):
        gone.check_alive()
    assert "\n" not in gone.exit_summary()

    monkeypatch.delenv(PASSWORD_ENV)
    with pytest.raises(UserError, match=rf"environment variable {PASSWORD_ENV} is not set"):
        _server(box, tmp_path)


def test_sampler_leaves_server_series_out_without_a_pid(box: Sandbox) -> None:
    with box.connect() as conn:
        sampler = StepSampler(conn, None)
        sampler.start()
        time.sleep(1.3)
        series = sampler.stop()
    assert series["questions_per_s"] and series["client_cpu_pct"]
    assert "server_cpu_pct" not in series and "server_rss_mb" not in series


def test_values_compare_as_the_server_shows_them() -> None:
    assert same_value("128M", "134217728") and same_value(True, "ON") and same_value(1, "ON")
    assert same_value("O_DIRECT", "O_DIRECT") and same_value("o_direct", "O_DIRECT")
    assert same_value("index_merge=off", "index_merge=off,mrr=on")
    assert not same_value("64M", "134217728") and not same_value(False, "ON")
    assert sql_value("1G") == "1073741824" and sql_value(False) == "DEFAULT"
    assert sql_value("it's") == "'it\\'s'"


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


RESTART_SCRIPT = """#!/bin/sh
# Restart the sandboxed server with the variant fragment appended to its my.cnf (mariadbd
# ignores --defaults-extra-file next to --defaults-file, so the two are concatenated).
set -e
mariadb-admin --socket={socket} -uroot shutdown
if [ -n "$IGNORE_FRAGMENT" ]; then
    cp {workdir}/my.cnf {workdir}/restarted.cnf
else
    cat {workdir}/my.cnf "$MYBENCH_VARIANT_CNF" > {workdir}/restarted.cnf
fi
setsid nohup /usr/sbin/mariadbd --defaults-file={workdir}/restarted.cnf \\
    </dev/null >/dev/null 2>&1 &
echo "restarting with $MYBENCH_VARIANT_CNF"
"""


def _stop_restarted(box: Sandbox, original_pid: int) -> None:
    """The mariadbd the restart script started is no child of ours: stop it by its pid file."""
    try:
        pid = int((box.workdir / "mysqld.pid").read_text().split()[0])
        process = psutil.Process(pid)
    except (OSError, ValueError, IndexError, psutil.Error):
        return
    if pid == original_pid or process.name() != "mariadbd":
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=60)
    except psutil.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


def test_restart_command_applies_a_non_dynamic_option(tmp_path: Path, env_password: None) -> None:
    log_buffer = "innodb_log_buffer_size"
    with Sandbox(Binaries.find(Path("/usr")), tmp_path / "srv", "[mysqld]\n") as box:
        original_pid = box.pid
        try:
            _with_bench_user(box)
            default = _global(box, log_buffer)
            script = tmp_path / "restart.sh"
            script.write_text(RESTART_SCRIPT.format(socket=box.socket_path, workdir=box.workdir))
            server = _server(box, tmp_path, restart_command=f"sh {script}", ready_timeout_s=60)
            with server:
                server.check_variant("big-log", {log_buffer: "32M"})

                failing = _server(box, tmp_path, restart_command="echo no sudo here >&2; exit 3")
                with (
                    pytest.raises(UserError) as failed,
                    failing.apply_variant("big-log", {log_buffer: "32M"}),
                ):
                    pass
                assert re.match(
                    r"variant big-log: restart_command of server prod exited with 3:"
                    r" no sudo here \(see .*restart\.log\)$",
                    str(failed.value),
                )

                ignoring = _server(
                    box, tmp_path, restart_command=f"IGNORE_FRAGMENT=1 sh {script}",
                    ready_timeout_s=60,
                )  # fmt: skip
                with (
                    pytest.raises(UserError) as mismatch,
                    ignoring.apply_variant("big-log", {log_buffer: "32M"}),
                ):
                    pass
                assert str(mismatch.value) == (
                    f"variant big-log: after restart_command server prod"
                    f" (MariaDB {ignoring.version}) has {log_buffer} = '{default}', wanted '32M'"
                )

                with server.apply_variant("big-log", {log_buffer: "32M"}):
                    assert _global(box, log_buffer) == str(32 * 2**20)
                    document = server.describe()
                    jsonschema.validate(document, _server_schema())
                    assert document["variant_applied"] == "restart_command"
                    assert f"{log_buffer} = 32M\n" in document["my_cnf"]
                    assert document["my_cnf_options"] == {log_buffer: "32M"}
                    assert server.pid is not None and server.pid != original_pid
                    assert psutil.Process(server.pid).name() == "mariadbd"
                    (command,) = server.reproduce_commands()
                    assert command["command"] == f"MYBENCH_VARIANT_CNF=my.cnf sh -c 'sh {script}'"
                    _assert_no_secret(document, command)
                # Nothing is restored when the block ends ...
                assert _global(box, log_buffer) == str(32 * 2**20)
                # ... the next variant restarts with its own (here empty) fragment instead.
                with server.apply_variant("base", {}):
                    assert _global(box, log_buffer) == default
                    assert server.describe()["variant_applied"] == "restart_command"
                log = (tmp_path / "work" / "restart.log").read_text()
                assert "restarting with" in log and PASSWORD not in log
        finally:
            _stop_restarted(box, original_pid)
    strays = [
        process.pid
        for process in psutil.process_iter(["cmdline"])
        if str(box.workdir) in " ".join(process.info["cmdline"] or [])
    ]
    assert not strays


def test_pymysql_error_text_never_holds_the_password(box: Sandbox) -> None:
    """What the messages above rely on: the server's refusal does not echo the password."""
    with pytest.raises(pymysql.err.OperationalError) as refused:
        pymysql.connect(host="127.0.0.1", port=box.port, user=USER, password="Wr0ng-secret")
    assert "Wr0ng-secret" not in str(refused.value)


EXISTING_CAMPAIGN = """
name = "on-existing"
title = "A campaign on a server the harness did not start"
[servers.prod]
kind = "existing"
host = "127.0.0.1"
port = {port}
user = "bench"
password_env = "{env}"
[mycnf]
base = ""
[variants.durable]
[variants.relaxed]
options = {{ {option} }}
[sweep]
threads = [1, 2]
step_seconds = 1
[workloads.ps]
test = "oltp_point_select"
tables = 1
table_size = 500
"""


def _run_campaign(box: Sandbox, tmp_path: Path, option: str) -> subprocess.CompletedProcess:
    campaign = tmp_path / "existing.toml"
    campaign.write_text(EXISTING_CAMPAIGN.format(port=box.port, env=PASSWORD_ENV, option=option))
    argv = [sys.executable, "-m", "harness.cli", "run", str(campaign),
            "--data", str(tmp_path / "data"), "--workdir", str(tmp_path / "work")]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)


def test_campaign_on_an_existing_server_end_to_end(box, tmp_path, env_password):
    result = _run_campaign(box, tmp_path, "innodb_flush_log_at_trx_commit = 2")
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
    assert _global(box, "innodb_flush_log_at_trx_commit") == "1"
    tables = _root_sql(box, "SELECT COUNT(*) FROM information_schema.tables"
                       " WHERE table_schema = 'sbtest'")  # fmt: skip
    assert tables[0][0] == 0
    for path in [*tmp_path.rglob("*.json"), *tmp_path.rglob("*.log"), *tmp_path.rglob("*.cnf")]:
        assert PASSWORD.encode() not in path.read_bytes(), path


def test_an_option_that_needs_a_restart_is_refused_before_anything_runs(
    box, tmp_path, env_password
):
    result = _run_campaign(box, tmp_path, 'innodb_log_buffer_size = "32M"')
    assert result.returncode == 2
    (error,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert re.fullmatch(
        r"error: variant relaxed: innodb_log_buffer_size is not dynamic on server prod"
        r" \(MariaDB [\d.]+\); give \[servers.prod\] restart_command to apply it",
        error,
    )
    assert not (tmp_path / "data" / "runs").exists()
