"""What `mybench reproduce` refuses, with the field that is missing, before anything runs."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.errors import UserError
from harness.reproduce.plan import prepare
from harness.reproduce.server_build import how_to_get
from tests.helpers.paths import REPO

FIXTURE = (
    REPO / "tests/fixtures/runs/runs/binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p2.json"
)


def original() -> dict:
    return json.loads(FIXTURE.read_text())


def refusal(tmp_path, document: dict) -> str:
    path = tmp_path / "run.json"
    path.write_text(json.dumps(document))
    with pytest.raises(UserError) as refused:
        prepare(str(path), [], tmp_path / "results", None, 1)
    assert not (tmp_path / "results").exists()  # nothing written before the refusal
    return str(refused.value)


def test_a_document_without_its_my_cnf_is_refused_naming_the_field(tmp_path):
    document = original()
    del document["server"]["my_cnf"]
    assert refusal(tmp_path, document).startswith("server.my_cnf is missing")


def test_a_run_on_an_existing_server_cannot_be_re_provisioned(tmp_path):
    document = original()
    document["server"]["kind"] = "existing"
    assert "server.kind is existing" in refusal(tmp_path, document)


def test_a_my_cnf_without_the_placement_block_is_not_ours(tmp_path):
    document = original()
    my_cnf = document["server"]["my_cnf"]
    document["server"]["my_cnf"] = my_cnf.split("# sandbox placement")[0]
    assert "server.my_cnf has no sandbox placement block" in refusal(tmp_path, document)


def test_a_run_without_steps_or_data_size_is_refused(tmp_path):
    document = original()
    no_size = copy.deepcopy(document)
    del no_size["workload"]["options"]["table-size"]
    assert refusal(tmp_path, no_size).startswith("workload.options.table-size is missing")
    document["steps"] = []
    assert refusal(tmp_path, document).startswith("steps is missing")


def test_a_server_version_not_on_this_machine_says_how_to_get_it(tmp_path):
    document = original()
    document["server"]["version"] = "10.6.21"
    document["server"]["basedir"] = str(tmp_path / "nowhere")
    message = refusal(tmp_path, document)
    assert message.startswith("server.version: MariaDB 10.6.21 is not on this machine")
    assert message.endswith("give its folder with --basedir")


def test_make_servers_is_named_for_the_version_it_fetches():
    assert "`mybench server fetch mariadb-11.4.5`" in how_to_get("mariadb", "11.4.5")
    assert "MySQL 8.0.39 binary tarball" in how_to_get("mysql", "8.0.39")


def test_a_basedir_of_another_version_is_refused(tmp_path):
    document = original()
    path = tmp_path / "run.json"
    path.write_text(json.dumps(document))
    with pytest.raises(UserError, match=r"^--basedir /nonexistent: holds no mariadbd"):
        prepare(str(path), [], tmp_path / "results", Path("/nonexistent"), 1)


def test_the_cli_prints_one_line_naming_the_run(tmp_path):
    argv = [sys.executable, "-m", "cli", "reproduce", "no-such-run",
            "--data", str(tmp_path), "--results", str(tmp_path / "results")]  # fmt: skip
    result = subprocess.run(argv, capture_output=True, text=True, check=False, cwd=REPO)
    assert result.returncode == 2
    looked = tmp_path / "runs"
    expected = f"error: no-such-run: no such run in {looked} (give a run id, a path to a run.json,"
    assert result.stderr.strip().splitlines() == [f"{expected} or its URL)"]
