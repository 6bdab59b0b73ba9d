"""A benchmark user with a password on a Sandbox, reached as an ExistingServer: what the tests
of harness/servers/existing/ share."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import psutil

from harness.model.campaign import Workload
from harness.servers.existing.server import ExistingServer
from harness.servers.sandbox import Sandbox
from tests.helpers.paths import REPO

PASSWORD = "Zq9 pw#s3cret"  # a space and a '#': quoting in option files and argv both matter
PASSWORD_ENV = "MYBENCH_TEST_EXISTING_PW"
USER = "bench"
TINY = Workload("tiny", "oltp_point_select", tables=1, table_size=100, options={})


def server_schema() -> dict:
    schema = json.loads((REPO / "data/schema/run-v1.schema.json").read_text())
    return schema["properties"]["server"]


def root_sql(box: Sandbox, *statements: str, args: tuple = ()) -> list:
    with box.connect() as conn, conn.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement, args or None)
        return list(cursor.fetchall())


def global_value(box: Sandbox, name: str) -> str:
    return str(root_sql(box, f"SELECT @@GLOBAL.{name}")[0][0])


def with_bench_user(box: Sandbox) -> Sandbox:
    for host in ("localhost", "127.0.0.1"):
        root_sql(box, f"CREATE USER '{USER}'@'{host}' IDENTIFIED BY %s", args=(PASSWORD,))
        root_sql(box, f"GRANT ALL PRIVILEGES ON *.* TO '{USER}'@'{host}'")
    return box


def existing_server(box: Sandbox, tmp_path: Path, **fields: object) -> ExistingServer:
    defaults: dict[str, object] = {"host": "127.0.0.1", "port": box.port}
    if "option_file" not in fields:
        defaults["password_env"] = PASSWORD_ENV
    return ExistingServer("prod", tmp_path / "work", USER, **{**defaults, **fields})


def assert_no_secret(*texts: object) -> None:
    for text in texts:
        assert PASSWORD not in (text if isinstance(text, str) else json.dumps(text))


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


def run_campaign(box: Sandbox, tmp_path: Path, option: str) -> subprocess.CompletedProcess:
    campaign = tmp_path / "existing.toml"
    campaign.write_text(EXISTING_CAMPAIGN.format(port=box.port, env=PASSWORD_ENV, option=option))
    argv = [sys.executable, "-m", "cli", "run", str(campaign),
            "--data", str(tmp_path / "data"), "--workdir", str(tmp_path / "work")]  # fmt: skip
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=300)


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


def stop_restarted(box: Sandbox, original_pid: int) -> None:
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
