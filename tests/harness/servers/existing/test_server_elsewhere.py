"""A campaign whose server is on another address than its client, as when the server is on a
second machine: a real MariaDB listening on 127.0.0.2 only, reached over TCP from the client,
which records its own machine as host and the server's machine, as the server describes it, as
server_host; the run page's Environment section shows both."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass
from html import unescape
from pathlib import Path

import pymysql
import pytest

import contract
from harness.model.campaign import OptionValue
from harness.servers.existing.server import ExistingServer
from harness.servers.sandbox import Binaries, Sandbox
from tests.helpers.existing_servers import PASSWORD, PASSWORD_ENV, USER, root_sql
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.server

SERVER_ADDRESS = "127.0.0.2"
CLIENT_LABEL = "client-box"
CAMPAIGN = """
name = "elsewhere"
title = "A server on another address than its client"
[servers.remote]
kind = "existing"
host = "{address}"
port = {port}
user = "{user}"
password_env = "{env}"
[variants.as-found]
[sweep]
threads = [1]
step_seconds = 1
[workloads.ps]
test = "oltp_point_select"
tables = 1
table_size = 100
"""


@dataclass
class SecondLoopbackSandbox(Sandbox):
    """A sandbox listening on SERVER_ADDRESS only, so no client reaches it on 127.0.0.1."""

    def _placement(self) -> dict[str, OptionValue]:
        return {**super()._placement(), "bind_address": SERVER_ADDRESS}


@pytest.fixture(scope="module")
def remote(tmp_path_factory: pytest.TempPathFactory):
    workdir = tmp_path_factory.mktemp("elsewhere") / "srv"
    binaries = Binaries.find(Path("/usr"))
    with SecondLoopbackSandbox(binaries, workdir, "[mysqld]\nskip_log_bin\n") as box:
        # Whatever source address the kernel gives the client's connections on loopback.
        account = (USER, "127.0.0.%")
        root_sql(box, "CREATE USER %s@%s IDENTIFIED BY %s", args=(*account, PASSWORD))
        root_sql(box, "GRANT ALL PRIVILEGES ON *.* TO %s@%s", args=account)
        yield box


def seen_from(box: Sandbox) -> str:
    """This machine's address as the server names a TCP connection from it (a name when it
    resolves the address, unless skip_name_resolve)."""
    account = {"host": SERVER_ADDRESS, "port": box.port, "user": USER, "password": PASSWORD}
    with pymysql.connect(**account) as conn, conn.cursor() as cursor:
        cursor.execute("SELECT USER()")
        return str(cursor.fetchone()[0]).rpartition("@")[2]


def test_the_server_is_not_on_the_clients_address(remote):
    with pytest.raises(pymysql.err.OperationalError):
        pymysql.connect(host="127.0.0.1", port=remote.port, user=USER, password=PASSWORD)
    pymysql.connect(host=SERVER_ADDRESS, port=remote.port, user=USER, password=PASSWORD).close()


def test_campaign_records_the_client_host_and_the_server_host(remote, tmp_path):
    campaign = tmp_path / "elsewhere.toml"
    campaign.write_text(
        CAMPAIGN.format(address=SERVER_ADDRESS, port=remote.port, user=USER, env=PASSWORD_ENV)
    )
    argv = [sys.executable, "-m", "cli", "run", str(campaign), "--host-label",
            CLIENT_LABEL, "--data", str(tmp_path / "data"), "--workdir", str(tmp_path / "work")]  # fmt: skip
    env = {**os.environ, PASSWORD_ENV: PASSWORD}
    result = subprocess.run(
        argv, capture_output=True, text=True, check=False, env=env, timeout=300
    )
    assert result.returncode == 0, result.stderr

    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    (run,) = runs
    assert run["status"] == "complete"
    # host: the client's machine, where the harness and sysbench ran
    assert run["host"]["label"] == CLIENT_LABEL
    assert run["host"]["cpu_threads"] == os.cpu_count()
    commands = [command["command"] for command in run["reproduce"]["commands"]]
    assert any(f"--mysql-host={SERVER_ADDRESS}" in c and c.endswith(" run") for c in commands)
    # server_host: the server's machine, as the server itself said
    server_host = run["server_host"]
    (version,) = root_sql(remote, "SELECT @@version, @@hostname, @@version_compile_os")
    assert server_host["address"] == f"{SERVER_ADDRESS}:{remote.port}"
    assert server_host["hostname"] == version[1] == socket.gethostname()
    assert server_host["same_machine"] is True  # both addresses are this machine's loopback
    assert server_host["client_address"] == seen_from(remote)
    assert server_host["variables"]["version"] == version[0] == run["server"]["version_string"]
    assert server_host["variables"]["version_compile_os"] == version[2]
    assert server_host["variables"]["datadir"].rstrip("/") == str(remote.datadir)
    assert PASSWORD not in json.dumps(run)

    public = build_with_article(tmp_path / "site", "", [tmp_path / "data"])
    page = unescape((public / "runs" / run["id"] / "index.html").read_text())
    environment = " ".join(page[page.index('id="environment"') :].split())
    assert "Server host (as the server describes it)" in environment
    for shown in (
        f'<th scope="row">address</th><td>{SERVER_ADDRESS}:{remote.port}</td>',
        f'<th scope="row">hostname</th><td>{socket.gethostname()}</td>',
        '<th scope="row">same_machine</th><td>yes: client and server share its CPUs</td>',
        f'<th scope="row">version_compile_os</th><td>{version[2]}</td>',
        f'<th scope="row">label</th><td>{CLIENT_LABEL}</td>',
    ):
        assert shown in environment


def test_a_server_reached_by_socket_has_no_server_host(remote, tmp_path, monkeypatch):
    # Reached by its unix socket, a server runs on the client's machine: host says it all.
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    root_sql(remote, f"CREATE USER IF NOT EXISTS '{USER}'@'localhost' IDENTIFIED BY %s",
             args=(PASSWORD,))  # fmt: skip
    local = ExistingServer(
        "local", tmp_path / "work", USER, socket=remote.socket_path, password_env=PASSWORD_ENV
    )
    with local:
        assert local.describe_host() is None
    over_tcp = ExistingServer(
        "tcp", tmp_path / "work2", USER, host=SERVER_ADDRESS, port=remote.port,
        password_env=PASSWORD_ENV,
    )  # fmt: skip
    with over_tcp:
        assert over_tcp.describe_host()["address"] == f"{SERVER_ADDRESS}:{remote.port}"
