"""No secret reaches the results or the site, against real servers: a campaign whose base my.cnf
and variant set report_password (a real MariaDB option that takes a value, and needs a restart)
on a sandbox and on an existing server whose restart_command carries a password; then the site
is built and searched, whole, for every planted secret."""

from __future__ import annotations

import json
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

import contract
from harness.servers.sandbox import Binaries, Sandbox
from tests.helpers.existing_servers import (
    PASSWORD,
    PASSWORD_ENV,
    RESTART_SCRIPT,
    USER,
    stop_restarted,
    with_bench_user,
)
from tests.helpers.site_build import build_with_article

pytestmark = pytest.mark.server

IN_BASE = "Base-planted-4f1c"  # report_password in the sandbox's base my.cnf
IN_VARIANT = "Variant-planted-9d2e"  # report_password in a variant, on both servers
IN_RESTART = "Restart-planted-7b3a"  # on the restart_command's command line
SECRETS = (PASSWORD, IN_BASE, IN_VARIANT, IN_RESTART)

CAMPAIGN = """
name = "secrets"
title = "Credentials in options and commands"

[servers.sbx]
kind = "sandbox"
basedir = "/usr"

[servers.prod]
kind = "existing"
host = "127.0.0.1"
port = {port}
user = "{user}"
password_env = "{env}"
restart_command = "sh {script} --password={in_restart}"

[mycnf]
base = '''
[mysqld]
skip_log_bin
report_password = {in_base}
'''

[variants.plain]
[variants.reporting]
options = {{ report_password = "{in_variant}" }}

[sweep]
threads = [1]
step_seconds = 1

[workloads.ps]
test = "oltp_point_select"
tables = 1
table_size = 500
"""


def _grep(secrets: tuple[str, ...], *paths: Path) -> str:
    """`grep -r` for any of the secrets: the files that hold one ("" when none does)."""
    patterns = [arg for secret in secrets for arg in ("-e", secret)]
    found = subprocess.run(
        ["grep", "-r", "-l", "-F", *patterns, *map(str, paths)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert found.returncode in (0, 1), found.stderr
    return found.stdout


def test_planted_secrets_reach_neither_results_nor_site(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
    with Sandbox(Binaries.find(Path("/usr")), tmp_path / "srv", "[mysqld]\nskip_log_bin\n") as box:
        original_pid = box.pid
        try:
            with_bench_user(box)
            script = tmp_path / "restart.sh"
            script.write_text(RESTART_SCRIPT.format(socket=box.socket_path, workdir=box.workdir))
            campaign = tmp_path / "secrets.toml"
            campaign.write_text(
                CAMPAIGN.format(port=box.port, user=USER, env=PASSWORD_ENV, script=script,
                                in_restart=IN_RESTART, in_base=IN_BASE, in_variant=IN_VARIANT)
            )  # fmt: skip
            argv = [sys.executable, "-m", "cli", "run", str(campaign),
                    "--data", str(tmp_path / "data"), "--workdir", str(tmp_path / "work")]  # fmt: skip
            result = subprocess.run(argv, capture_output=True, text=True, check=False, timeout=600)
        finally:
            stop_restarted(box, original_pid)
    assert result.returncode == 0, result.stderr
    assert _grep(SECRETS, tmp_path / "data") == ""
    assert not any(secret in result.stdout + result.stderr for secret in SECRETS)
    work_logs = [str(path) for path in (tmp_path / "work").rglob("*.log")]
    assert work_logs and _grep(SECRETS, *work_logs) == ""

    runs, problems = contract.validate_dir(tmp_path / "data")
    assert problems == []
    by_variant = {run["variant"]: run for run in runs}
    assert sorted(by_variant) == ["prod.plain", "prod.reporting", "sbx.plain", "sbx.reporting"]
    assert all(run["status"] == "complete" for run in runs)
    restarted = by_variant["prod.reporting"]
    assert restarted["server"]["variant_applied"] == "restart_command"
    # the option was applied and is recorded, its value redacted everywhere it shows
    assert "report_password = <redacted>" in restarted["server"]["my_cnf"]
    assert restarted["server"]["my_cnf_options"]["report_password"] == contract.REDACTED
    assert restarted["server"]["variables"]["report_password"] == contract.REDACTED
    commands = [command["command"] for command in restarted["reproduce"]["commands"]]
    assert f"sh -c 'sh {script} --password=<redacted>'" in "\n".join(commands)
    sandboxed = by_variant["sbx.reporting"]["server"]
    assert "report_password = <redacted>" in sandboxed["my_cnf"]
    assert sandboxed["my_cnf_options"]["report_password"] == contract.REDACTED
    snapshot_text = restarted["harness"]["snapshot"]["campaign_file"]["text"]
    assert 'report_password = "<redacted>"' in snapshot_text
    assert "--password=<redacted>" in snapshot_text

    campaign_id = runs[0]["campaign"]["id"]
    body = "\n\n".join(
        [
            f'{{{{< configdiff campaign="{campaign_id}" >}}}}',
            f'{{{{< mycnf run="{restarted["id"]}" >}}}}',
            f'{{{{< repro run="{restarted["id"]}" >}}}}',
            f'{{{{< mycnf run="{by_variant["sbx.reporting"]["id"]}" >}}}}',
        ]
    )
    site = tmp_path / "site"
    public = build_with_article(site, body, [tmp_path / "data"])
    assert (public / "runs" / restarted["id"] / "replay.sh").is_file()
    assert _grep(SECRETS, site) == ""
    # a plain setting shows its value, not "<redacted>"
    secure_auth = restarted["server"]["variables"]["secure_auth"]
    assert secure_auth in {"ON", "OFF"}
    page = unescape((public / "runs" / restarted["id"] / "index.html").read_text())
    assert f'<th scope="row">secure_auth</th><td>{secure_auth}' in page
    assert "redacted by an earlier harness" not in page
    run_json = json.loads((public / "runs" / restarted["id"] / "run.json").read_text())
    assert run_json["server"]["variables"]["secure_auth"] == secure_auth
