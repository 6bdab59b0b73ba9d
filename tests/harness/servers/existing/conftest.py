"""One real server for the package's tests, and the password in the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.servers.sandbox import Binaries, Sandbox
from tests.helpers.existing_servers import (
    PASSWORD,
    PASSWORD_ENV,
    with_bench_user,
)


@pytest.fixture(scope="package")
def box(tmp_path_factory: pytest.TempPathFactory):
    """One real server for the tests that leave it as they found it."""
    workdir = tmp_path_factory.mktemp("existing") / "srv"
    with Sandbox(Binaries.find(Path("/usr")), workdir, "[mysqld]\nskip_log_bin\n") as sandbox:
        yield with_bench_user(sandbox)


@pytest.fixture
def env_password(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(PASSWORD_ENV, PASSWORD)
