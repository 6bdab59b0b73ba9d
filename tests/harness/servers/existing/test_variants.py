"""Applying a variant to a server the harness did not start, against a real MariaDB: SET GLOBAL
and restore for dynamic options, restart_command with a fragment for the others, and the
refusals before anything runs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import psutil
import pytest

from harness.errors import UserError
from harness.servers.sandbox import Binaries, Sandbox
from tests.helpers.existing_servers import (
    PASSWORD,
    RESTART_SCRIPT,
    USER,
    assert_no_secret,
    existing_server,
    global_value,
    root_sql,
    run_campaign,
    server_schema,
    stop_restarted,
    with_bench_user,
)

pytestmark = pytest.mark.server


def test_dynamic_variant_is_set_and_restored(
    box: Sandbox, tmp_path: Path, env_password: None
) -> None:
    root_sql(box, "SET GLOBAL innodb_max_dirty_pages_pct = 50")
    before = {
        name: global_value(box, name)
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
    with existing_server(box, tmp_path) as server:
        server.check_variant("relaxed", options)
        with server.apply_variant("relaxed", options):
            assert global_value(box, "innodb_flush_log_at_trx_commit") == "2"
            assert global_value(box, "sync_binlog") == "7"
            assert global_value(box, "innodb_adaptive_hash_index") == "1"
            assert float(global_value(box, "innodb_max_dirty_pages_pct")) == 90
            document = server.describe()
            jsonschema.validate(document, server_schema())
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
            assert_no_secret(document, commands)
        assert {name: global_value(box, name) for name in before} == before
        assert server.describe()["my_cnf"].startswith("# no option applied")

        # Restored after an error and after Ctrl-C too.
        for interruption in (RuntimeError("boom"), KeyboardInterrupt()):
            with (
                pytest.raises(type(interruption)),
                server.apply_variant("relaxed", {"sync_binlog": 3}),
            ):
                assert global_value(box, "sync_binlog") == "3"
                raise interruption
            assert global_value(box, "sync_binlog") == before["sync_binlog"]

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
        assert global_value(box, "sync_binlog") == before["sync_binlog"]
    root_sql(box, "SET GLOBAL innodb_max_dirty_pages_pct = 90")


def test_a_credential_set_and_restored_is_recorded_redacted(
    box: Sandbox, tmp_path: Path, env_password: None
) -> None:
    """wsrep_sst_auth is dynamic: its SET GLOBAL, the restore of the server's own value (read
    back with SELECT @@GLOBAL), the log and a refusal all go through the secret rule; a value
    the server shows masked cannot be restored, so the variant is refused before it starts."""
    planted = "sst:Planted-by-variant"
    root_sql(box, "SET GLOBAL wsrep_sst_auth = 'sst:Planted-by-server'")
    try:
        with existing_server(box, tmp_path) as server:
            with (
                pytest.raises(UserError) as masked,
                server.apply_variant("sst", {"wsrep_sst_auth": planted}),
            ):
                pass
            assert str(masked.value) == (
                f"variant sst: wsrep_sst_auth shows as ******** on {server.identity()}, so its"
                " value could not be put back after the run; set it by hand or with"
                " restart_command"
            )
            assert global_value(box, "wsrep_sst_auth") == "********"
            root_sql(box, "SET GLOBAL wsrep_sst_auth = ''")
            with server.apply_variant("sst", {"wsrep_sst_auth": planted}):
                document = server.describe()
                commands = server.reproduce_commands()
            assert document["my_cnf_options"] == {"wsrep_sst_auth": "<redacted>"}
            assert "wsrep_sst_auth = <redacted>\n" in document["my_cnf"]
            texts = [entry["command"] for entry in commands]
            assert [text.split(" -e ")[1] for text in texts] == [
                "\"SET GLOBAL wsrep_sst_auth = '<redacted>'\"",
                '"SET GLOBAL wsrep_sst_auth = NULL"',  # restored: the server's own, unset
            ]
            assert global_value(box, "wsrep_sst_auth") == "None"  # NULL: unset
            with (
                pytest.raises(UserError) as refused,
                server.apply_variant(
                    "bad", {"wsrep_sst_auth": planted, "innodb_change_buffering": "x"}
                ),
            ):
                pass
            log = (tmp_path / "work" / "variants.log").read_text()
            assert "SET GLOBAL wsrep_sst_auth = '<redacted>'" in log
            for text in (json.dumps(document), *texts, log, str(refused.value)):
                assert "Planted" not in text
    finally:
        root_sql(box, "SET GLOBAL wsrep_sst_auth = ''")


def test_restart_command_applies_a_non_dynamic_option(tmp_path: Path, env_password: None) -> None:
    log_buffer = "innodb_log_buffer_size"
    with Sandbox(Binaries.find(Path("/usr")), tmp_path / "srv", "[mysqld]\n") as box:
        original_pid = box.pid
        try:
            with_bench_user(box)
            default = global_value(box, log_buffer)
            script = tmp_path / "restart.sh"
            script.write_text(RESTART_SCRIPT.format(socket=box.socket_path, workdir=box.workdir))
            server = existing_server(
                box, tmp_path, restart_command=f"sh {script}", ready_timeout_s=60
            )
            with server:
                server.check_variant("big-log", {log_buffer: "32M"})

                failing = existing_server(
                    box, tmp_path, restart_command="echo no sudo here >&2; exit 3"
                )
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

                ignoring = existing_server(
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
                    assert global_value(box, log_buffer) == str(32 * 2**20)
                    document = server.describe()
                    jsonschema.validate(document, server_schema())
                    assert document["variant_applied"] == "restart_command"
                    assert f"{log_buffer} = 32M\n" in document["my_cnf"]
                    assert document["my_cnf_options"] == {log_buffer: "32M"}
                    assert server.pid is not None and server.pid != original_pid
                    assert psutil.Process(server.pid).name() == "mariadbd"
                    (command,) = server.reproduce_commands()
                    assert command["command"] == f"MYBENCH_VARIANT_CNF=my.cnf sh -c 'sh {script}'"
                    assert_no_secret(document, command)
                # Nothing is restored when the block ends ...
                assert global_value(box, log_buffer) == str(32 * 2**20)
                # ... the next variant restarts with its own (here empty) fragment instead.
                with server.apply_variant("base", {}):
                    assert global_value(box, log_buffer) == default
                    assert server.describe()["variant_applied"] == "restart_command"
                log = (tmp_path / "work" / "restart.log").read_text()
                assert "restarting with" in log and PASSWORD not in log
        finally:
            stop_restarted(box, original_pid)
    strays = [
        process.pid
        for process in psutil.process_iter(["cmdline"])
        if str(box.workdir) in " ".join(process.info["cmdline"] or [])
    ]
    assert not strays


def test_an_option_that_needs_a_restart_is_refused_before_anything_runs(
    box, tmp_path, env_password
):
    result = run_campaign(box, tmp_path, 'innodb_log_buffer_size = "32M"')
    assert result.returncode == 2
    (error,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert re.fullmatch(
        r"error: variant relaxed: innodb_log_buffer_size is not dynamic on server prod"
        r" \(MariaDB [\d.]+\); give \[servers.prod\] restart_command to apply it",
        error,
    )
    assert not (tmp_path / "data" / "runs").exists()
