"""A TOML sidecar describing a whole campaign of sysbench logs (two server versions), its
paths relative to it, a my.cnf recorded redacted, options overriding it, and its shape checked
with a message naming the file and the key."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import contract
from tests.harness.importing.test_sysbench_logs import LOGS, run_import, tree

SIDECAR = """
campaign = "ro-10-11-vs-11-4"
title = "Read-only, 10.11 against 11.4 (2024 logs)"
server_product = "mariadb"
host = "bench1"
workload = "ro"
test = "oltp_read_only"
my_cnf = "my.cnf"

[[runs]]
variant = "mariadb-10-11"
server_version = "10.11.6"
files = ["old/oltp_read_only_1thr.txt", "old/oltp_read_only_2thr.txt"]

[[runs]]
variant = "mariadb-11-4"
server_version = "11.4.5"
files = ["new/oltp_read_only_two_runs.txt"]
"""
MY_CNF = "[mysqld]\ninnodb_buffer_pool_size = 1G\npassword = hunter2\n"


# A change to the good sidecar, and what the refusal says after the sidecar's path.
BAD_SIDECARS = [
    (("host = \"bench1\"", "host = 3"), "host: 3 is not of type 'string'"),
    (("variant = \"mariadb-11-4\"", "variant = \"Maria 11\""), "runs[1].variant: 'Maria 11' does not match"),
    (("workload = \"ro\"", "wrokload = \"ro\""), "top level: Unevaluated properties are not allowed ('wrokload' was unexpected)"),
    (("files = [\"new/oltp_read_only_two_runs.txt\"]", ""), "runs[1]: 'files' is a required property"),
    (("server_version = \"11.4.5\"", ""), "runs[1]: no server_version: give --server-version or server_version in the sidecar"),
    (("campaign = ", "# campaign = "), "no campaign: give --campaign or campaign"),
]  # fmt: skip


@pytest.fixture
def campaign_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "import"
    for sub, names in (("old", ["oltp_read_only_1thr.txt", "oltp_read_only_2thr.txt"]),
                       ("new", ["oltp_read_only_two_runs.txt"])):  # fmt: skip
        (folder / sub).mkdir(parents=True)
        for name in names:
            shutil.copy(LOGS / name, folder / sub / name)
    (folder / "sidecar.toml").write_text(SIDECAR)
    (folder / "my.cnf").write_text(MY_CNF)
    return folder


def test_one_sidecar_imports_a_campaign_of_two_variants(campaign_dir, tmp_path):
    data = tmp_path / "data"
    code, output, runs = run_import(data, "--sidecar", campaign_dir / "sidecar.toml")
    assert code == 0, output
    assert contract.validate_dir(data)[1] == []
    old, new = sorted(runs, key=lambda run: run["variant"])
    assert old["campaign"]["id"] == new["campaign"]["id"]
    assert old["campaign"]["variant_order"] == ["mariadb-10-11", "mariadb-11-4"]
    assert old["campaign"]["title"] == "Read-only, 10.11 against 11.4 (2024 logs)"
    assert old["campaign"]["file"] == "sidecar.toml"  # by name: the path is the importer's
    assert (old["server"]["version"], new["server"]["version"]) == ("10.11.6", "11.4.5")
    assert [s["threads"] for s in old["steps"]] == [1, 2] == [s["threads"] for s in new["steps"]]
    assert old["id"] == f"{old['campaign']['id']}.mariadb-10-11.ro"
    assert old["server"]["my_cnf"] == MY_CNF.replace("hunter2", contract.REDACTED)
    assert old["server"]["my_cnf_options"]["innodb_buffer_pool_size"] == "1G"
    assert "hunter2" not in (data / "runs" / f"{old['id']}.json").read_text()


def test_command_line_options_override_the_sidecar(campaign_dir, tmp_path):
    code, output, runs = run_import(
        tmp_path / "data", "--sidecar", campaign_dir / "sidecar.toml", "--host", "other-box"
    )
    assert code == 0, output
    assert {run["host"]["hostname"] for run in runs} == {"other-box"}


@pytest.mark.parametrize(("change", "expected"), BAD_SIDECARS)
def test_a_bad_sidecar_names_the_file_and_the_key(campaign_dir, tmp_path, change, expected):
    sidecar = campaign_dir / "sidecar.toml"
    sidecar.write_text(SIDECAR.replace(*change))
    data = tmp_path / "data"
    data.mkdir()
    code, output, _ = run_import(data, "--sidecar", sidecar)
    assert code == 2
    (line,) = output.strip().splitlines()
    assert line.startswith(f"error: {sidecar}") and expected in line
    assert tree(data) == {}
