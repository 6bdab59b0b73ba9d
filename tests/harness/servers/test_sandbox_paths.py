"""A sandbox given a relative workdir (`mybench run --workdir scratch/x`): the server reads its
my.cnf's paths from inside its datadir, so the sandbox makes them absolute, and the error log
the harness reads is the one the server writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.servers.sandbox import Binaries, Sandbox

pytestmark = pytest.mark.server


def test_a_relative_workdir_names_the_same_files_for_server_and_harness(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    binaries = Binaries.find(Path("/usr"))
    with Sandbox(binaries, Path("relative"), "[mysqld]\nskip_log_bin\n") as box:
        assert box.workdir == tmp_path / "relative"
        assert box.describe()["variables"]["log_error"] == str(tmp_path / "relative" / "error.log")
        assert box.error_log.is_file()
