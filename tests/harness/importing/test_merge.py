"""mybench import runs: two machines' results directories merged into one: both land, the
same again is a no-op, a conflicting id is refused naming both files and data/ is unchanged,
a run's stored provenance diff comes along, and nothing is half-merged."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import contract
from cli.main import main
from tests.harness.importing.test_sysbench_logs import tree
from tests.helpers import paths
from tests.helpers.profiled_runs import profiled
from tests.helpers.small_tmpfs import small_tmpfs

MEASURED = "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1"
DIFF = "diff --git a/harness/x.py b/harness/x.py\n--- a/harness/x.py\n+++ b/harness/x.py\n"


def machine(root: Path, hostname: str, stamp: str, diff: str | None = None) -> Path:
    """A results directory as another machine leaves it: the committed fixture run as that
    host measured it under its own campaign id, with its provenance diff when it has one."""
    document = json.loads((paths.FIXTURE_RUNS / "runs" / f"{MEASURED}.json").read_text())
    campaign_id = f"binlog-sync-policies-{stamp}"
    document["id"] = document["id"].replace(document["campaign"]["id"], campaign_id)
    document["campaign"]["id"] = campaign_id
    document["host"]["hostname"] = hostname
    if diff is not None:
        digest = hashlib.sha256(diff.encode()).hexdigest()
        document["harness"]["snapshot"] = {
            "taken_at": document["started_at"], "changed_files": ["harness/x.py"],
            "diff": {"path": f"provenance/{digest}.diff", "sha256": digest},
            "campaign_file": {"path": "c.toml", "sha256": hashlib.sha256(b"").hexdigest(), "text": ""},
            "tools": {"sysbench": "1.0.20"}, "files": {},
        }  # fmt: skip
        (root / "provenance").mkdir(parents=True)
        (root / "provenance" / f"{digest}.diff").write_text(diff)
    (root / "runs").mkdir(parents=True, exist_ok=True)
    (root / "runs" / f"{document['id']}.json").write_text(json.dumps(document, indent=1) + "\n")
    return root


def merge(data: Path, *directories: Path) -> tuple[int, str]:
    args = ["import", "runs", *map(str, directories), "--data", str(data)]
    result = CliRunner().invoke(main, args, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture
def two_machines(tmp_path: Path) -> tuple[Path, Path]:
    return (
        machine(tmp_path / "epyc", "epyc-box", "20261124-100000", diff=DIFF),
        machine(tmp_path / "xeon", "xeon-box", "20261124-110000"),
    )


def test_two_machines_results_land_and_again_is_a_no_op(tmp_path, two_machines):
    data = tmp_path / "data"
    code, output = merge(data, *two_machines)
    assert code == 0, output
    assert "2 run(s) written, 0 already there" in output
    landed = {p.name: p.read_bytes() for p in (data / "runs").iterdir()}
    brought = {p.name: p.read_bytes() for d in two_machines for p in (d / "runs").iterdir()}
    assert landed == brought  # byte for byte
    digest = hashlib.sha256(DIFF.encode()).hexdigest()
    assert (data / "provenance" / f"{digest}.diff").read_text() == DIFF
    before = tree(data)
    code, output = merge(data, *two_machines)
    assert code == 0 and "0 run(s) written, 2 already there" in output
    assert tree(data) == before


def test_equal_json_in_other_bytes_is_a_no_op(tmp_path, two_machines):
    data = tmp_path / "data"
    assert merge(data, two_machines[1])[0] == 0
    (run_file,) = (two_machines[1] / "runs").iterdir()
    run_file.write_text(json.dumps(json.loads(run_file.read_text())))  # reformatted
    code, output = merge(data, two_machines[1])
    assert code == 0 and "1 already there" in output


def test_a_conflicting_id_is_refused_naming_both_files_and_nothing_changes(tmp_path, two_machines):
    data = tmp_path / "data"
    assert merge(data, two_machines[0])[0] == 0
    before = tree(data)
    rival = machine(tmp_path / "rival", "rival-box", "20261124-100000")  # epyc's id, other host
    (rival_file,) = (rival / "runs").iterdir()
    code, output = merge(data, two_machines[1], rival)
    assert code == 2
    (line,) = output.strip().splitlines()
    assert line == (
        f"error: {rival_file}: run id {rival_file.stem} already in"
        f" {data / 'runs' / rival_file.name}, with other content"
    )
    assert tree(data) == before  # xeon's run, fine on its own, did not land either


def test_two_directories_with_one_id_and_different_content_are_refused(tmp_path, two_machines):
    rival = machine(tmp_path / "rival", "rival-box", "20261124-100000")
    code, output = merge(tmp_path / "data", two_machines[0], rival)
    assert code == 2
    (first,) = (two_machines[0] / "runs").iterdir()
    assert f"is also {first}'s, with other content" in output
    assert not (tmp_path / "data").exists()


def test_a_run_whose_diff_is_missing_is_refused(tmp_path, two_machines):
    shutil.rmtree(two_machines[0] / "provenance")
    data = tmp_path / "data"
    code, output = merge(data, *two_machines)
    assert code == 2 and "refers to provenance/" in output and "not readable" in output
    assert not data.exists()


def test_an_invalid_document_is_refused_with_its_file_and_path(tmp_path, two_machines):
    (run_file,) = (two_machines[1] / "runs").iterdir()
    document = json.loads(run_file.read_text())
    document["steps"][0]["tps"] = "fast"
    run_file.write_text(json.dumps(document))
    code, output = merge(tmp_path / "data", *two_machines)
    assert code == 2 and f"error: {run_file}: $.steps[0].tps" in output
    assert not (tmp_path / "data").exists()


def test_imported_runs_merge_like_measured_ones(tmp_path):
    """A sysbench import made on one machine merges into another's results."""
    logs = paths.FIXTURES / "sysbench" / "import"
    elsewhere = tmp_path / "elsewhere"
    args = ["import", "sysbench", str(logs / "oltp_read_only_1thr.txt"), "--campaign", "c",
            "--variant", "v", "--workload", "ro", "--product", "mariadb",
            "--server-version", "10.11.6", "--host", "h", "--data", str(elsewhere)]  # fmt: skip
    assert CliRunner().invoke(main, args).exit_code == 0
    code, output = merge(tmp_path / "data", elsewhere)
    assert code == 0 and "1 run(s) written" in output


def test_a_disk_that_fills_midway_keeps_none_of_the_merge(tmp_path):
    """1.3 MB of runs onto 512 KB: the first runs land, the next cannot, and those are removed."""
    with small_tmpfs(tmp_path / "data", "512k") as results:
        command = [sys.executable, "-m", "cli", "import", "runs",
                   str(paths.FIXTURE_RUNS), "--data", str(results.path)]  # fmt: skip
        done = subprocess.run(
            [*results.prefix, *command], check=False, capture_output=True, text=True
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip() == (
            f"error: {results.path / 'runs'}: cannot write (No space left on device);"
            " nothing was kept"
        )
        assert tree(results.view) == {}


def test_a_results_directory_s_other_json_is_not_taken_for_runs(tmp_path, two_machines):
    """Another checkout's data/ holds its schema beside runs/; a folder of bare run files
    (a CI artifact) has no runs/ folder at all."""
    checkout_data = two_machines[0]
    (checkout_data / "schema").mkdir()
    shutil.copy(paths.DATA_DIR / "schema" / "run-v1.schema.json", checkout_data / "schema")
    bare = tmp_path / "artifact"
    bare.mkdir()
    for run_file in (two_machines[1] / "runs").iterdir():
        shutil.copy(run_file, bare)
    code, output = merge(tmp_path / "data", checkout_data, bare)
    assert code == 0 and "2 run(s) written" in output


def profiled_machine(root: Path) -> tuple[Path, Path]:
    """A results directory whose run has a server profile: (the directory, the profile file)."""
    machine(root, "epyc-box", "20261124-120000")
    (run_file,) = (root / "runs").iterdir()
    run = profiled(json.loads(run_file.read_text()), root)
    run_file.write_text(json.dumps(run, indent=1) + "\n")
    return root, root / run["profile"]["file"]


def test_a_run_brings_its_profile_file(tmp_path):
    source, profile = profiled_machine(tmp_path / "epyc")
    data = tmp_path / "data"
    code, output = merge(data, source)
    assert code == 0, output
    assert (data / "profiles" / profile.name).read_bytes() == profile.read_bytes()
    assert contract.validate_dir(data)[1] == []


@pytest.mark.parametrize(
    ("damage", "why"),
    [
        (lambda profile: profile.unlink(), "cannot read the run's profile"),
        (lambda profile: profile.write_text("{}\n"), "SHA-256 differs"),
    ],
)
def test_a_run_whose_profile_is_missing_or_another_is_refused(tmp_path, damage, why):
    source, profile = profiled_machine(tmp_path / "epyc")
    damage(profile)
    data = tmp_path / "data"
    code, output = merge(data, source)
    assert code == 2 and why in output and str(profile) in output
    assert not data.exists()
    assert any(why in problem.message for problem in contract.validate_dir(source)[1])
