"""The run document contract: real runs pass, broken ones fail with file + JSON path."""

import copy
import json
import subprocess
import sys

import pytest

import contract
from tests.helpers.paths import REPO

DATA = REPO / "data"
REAL_RUNS = sorted((DATA / "runs").glob("*.json"))


def mybench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args], capture_output=True, text=True, check=False
    )


@pytest.fixture
def real_run() -> dict:
    assert REAL_RUNS, "data/runs holds no run documents"
    return json.loads(REAL_RUNS[0].read_text())


def test_committed_runs_are_valid():
    runs, problems = contract.validate_dir(DATA)
    assert problems == []
    assert len(runs) == len(REAL_RUNS) > 0


@pytest.mark.parametrize(
    ("breakage", "path", "message"),
    [
        (
            lambda d: d["steps"][0].__setitem__("tps", -1.0),
            "$.steps[0].tps",
            "less than the minimum",
        ),
        (
            lambda d: d["steps"][1]["latency_ms"].pop("p99"),
            "$.steps[1].latency_ms",
            "'p99' is a required",
        ),
        (lambda d: d.__setitem__("status", "done"), "$.status", "is not one of"),
        (
            lambda d: d["steps"][0].__setitem__("settle", {"rule": "checkpoint", "timeout_s": 60}),
            "$.steps[0].settle",
            "'before' is a required",
        ),
        (
            lambda d: d["steps"][1].__setitem__(
                "settle",
                {
                    "rule": "checkpoint",
                    "timeout_s": 0,
                    "before": {"checkpoint_age_kb": None, "dirty_pages": None},
                },
            ),
            "$.steps[1].settle.timeout_s",
            "less than the minimum",
        ),
        (
            lambda d: d["server"].__setitem__("password", "x"),
            "$.server",
            "'password' was unexpected",
        ),
        (lambda d: d.__setitem__("schema_version", 2), "$.schema_version", "1 was expected"),
        (
            lambda d: d["steps"][0]["series"]["tps"].append(1.0),
            "$.steps[0].series",
            "different lengths",
        ),
        (
            lambda d: d["steps"][0]["monitor"].__setitem__(
                "kinds", {"innodb_metrics.trx_rw_commits": "gauge"}
            ),
            "$.steps[0].monitor.kinds.innodb_metrics.trx_rw_commits",
            "is not one of",
        ),
        (
            lambda d: d["steps"][0]["monitor"].__setitem__(
                "kinds", {"innodb_metrics.trx_rw_commits": "counter"}
            ),
            "$.steps[0].monitor.kinds",
            "kind of 'innodb_metrics.trx_rw_commits', which has no series",
        ),
    ],
)
def test_broken_document_names_file_and_path(real_run, tmp_path, breakage, path, message):
    broken = copy.deepcopy(real_run)
    breakage(broken)
    file = tmp_path / "runs" / f"{broken['id']}.json"
    file.parent.mkdir()
    file.write_text(json.dumps(broken))
    _, problems = contract.validate_dir(tmp_path)
    assert any(
        p.file == str(file) and p.path == path and message in p.message for p in problems
    ), problems


def test_file_name_must_match_id(real_run, tmp_path):
    (tmp_path / "runs").mkdir()
    (tmp_path / "runs" / "renamed.json").write_text(json.dumps(real_run))
    _, problems = contract.validate_dir(tmp_path)
    assert [p.path for p in problems] == ["$.id"]


def test_validate_command_prints_one_line_per_problem(real_run, tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "truncated.json").write_text('{"schema_version": 1,')
    good = copy.deepcopy(real_run)
    (runs / f"{good['id']}.json").write_text(json.dumps(good))
    result = mybench("validate", str(tmp_path))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [
        f"{runs / 'truncated.json'}: $: not JSON: Expecting property name enclosed in double quotes at line 1 column 22"
    ]
    (runs / "truncated.json").unlink()
    result = mybench("validate", str(tmp_path))
    assert result.returncode == 0 and "1 run file(s)" in result.stdout


def test_write_is_atomic_and_never_overwrites(real_run, tmp_path):
    path = contract.write_run(real_run, tmp_path / "runs")
    assert json.loads(path.read_text()) == real_run
    assert oct(path.stat().st_mode & 0o077) != "0o0"  # readable by others, like any result file
    changed = copy.deepcopy(real_run)
    changed["status"] = "partial"
    changed["status_reason"] = "second writer"
    with pytest.raises(contract.RunExistsError, match="already exists"):
        contract.write_run(changed, tmp_path / "runs")
    assert json.loads(path.read_text()) == real_run
    assert [p.name for p in (tmp_path / "runs").iterdir()] == [path.name]  # no temp file left


def test_invalid_document_is_not_written(real_run, tmp_path):
    broken = copy.deepcopy(real_run)
    del broken["server"]["my_cnf"]
    with pytest.raises(ValueError, match=r"\$.server: 'my_cnf' is a required property"):
        contract.write_run(broken, tmp_path / "runs")
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_a_map_of_union_typed_values_is_checked(real_run, tmp_path):
    """compiled_defaults.differences maps names to a string or null, a union type (a campaign
    once crashed writing its first run here)."""
    name = f"{real_run['id']}.json"
    real_run["server"]["compiled_defaults"] = {"source": "probe", "differences": {"a": None}}
    assert contract.validate_document(real_run, name) == []
    real_run["server"]["compiled_defaults"]["differences"]["b"] = 3
    (problem,) = contract.validate_document(real_run, name)
    assert problem.path == "$.server.compiled_defaults.differences.b"
    assert "not of type" in problem.message
