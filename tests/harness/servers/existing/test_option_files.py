"""A password read from a client option file ([client]/[mybench] sections), against a real
MariaDB the tests start and then only connect to."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.errors import UserError
from harness.servers.existing.option_files import option_file_options
from harness.servers.sandbox import Sandbox
from harness.workloads.sysbench.commands import (
    cleanup_argv,
    render,
)
from tests.helpers.existing_servers import (
    PASSWORD,
    TINY,
    assert_no_secret,
    existing_server,
)

pytestmark = pytest.mark.server


def test_option_file_password(box: Sandbox, tmp_path: Path) -> None:
    option_file = tmp_path / "client.cnf"
    option_file.write_text(
        "# the benchmark account\n"
        "[mysqld]\npassword = not-this-one\n"
        f'[client]\nuser = someone\npassword = "{PASSWORD}"  # quoted: keeps the space and #\n'
        "skip-ssl\n"
    )
    server = existing_server(box, tmp_path, option_file=option_file)
    with server:
        assert server.describe()["variables"]["port"] == str(box.port)
        assert_no_secret(server.describe())
        target = server.sysbench_target()
        rendered = render(cleanup_argv("sysbench", TINY, target))
        assert f"'--mysql-password=<password from {option_file}>'" in rendered
        assert_no_secret(rendered)
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
        existing_server(box, tmp_path, option_file=bare)
    with pytest.raises(UserError, match=r"option_file: cannot read .*missing\.cnf"):
        existing_server(box, tmp_path, option_file=tmp_path / "missing.cnf")
