"""mybench import sysbench on recorded sysbench 1.0.20 outputs (tests/fixtures/sysbench/import):
documents that validate, the logs' own figures, the files' hashes, passes from repeated thread
levels, and one line naming file and line for what is not a usable log."""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import contract
from cli.main import main
from tests.helpers import paths
from tests.helpers.hostile_runs import HOSTILE_FILE_NAMES, hostile_import

LOGS = paths.FIXTURES / "sysbench" / "import"
SWEEP = ["oltp_read_only_1thr.txt", "oltp_read_only_2thr.txt", "oltp_read_only_4thr.txt"]
FACTS = ["--campaign", "old-ro", "--variant", "base", "--product", "mariadb",
         "--server-version", "10.11.6", "--host", "bench1"]  # fmt: skip
ENDED = 1_600_000_000  # the logs' modification time, set on the copies


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    """Copies of the recorded logs with a known modification time."""
    folder = tmp_path / "logs"
    shutil.copytree(LOGS, folder)
    for path in folder.iterdir():
        os.utime(path, (ENDED, ENDED))
    return folder


def tree(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def run_import(data: Path, *args: str | Path) -> tuple[int, str, list[dict]]:
    """Exit code, output, and the run documents data/ holds afterwards."""
    result = CliRunner().invoke(
        main, ["import", "sysbench", *map(str, args), "--data", str(data)], catch_exceptions=False
    )
    runs = [json.loads(p.read_text()) for p in sorted((data / "runs").glob("*.json"))]
    return result.exit_code, result.output, runs


def test_one_file_per_thread_level_is_one_run_with_the_logs_figures(logs, tmp_path):
    data = tmp_path / "data"
    code, output, runs = run_import(
        data, *(logs / name for name in SWEEP), *FACTS, "--test", "oltp_read_only"
    )
    assert code == 0, output
    assert contract.validate_dir(data)[1] == []
    (run,) = runs
    assert run["id"] == "old-ro-20200913-122640.base.oltp_read_only"  # name + the logs' date
    assert f"wrote {run['id']}" in output and "1 run(s) written" in output
    assert run["started_at"] == run["ended_at"] == "2020-09-13T12:26:40Z"
    assert [step["threads"] for step in run["steps"]] == [1, 2, 4]
    one, two, four = run["steps"]
    assert (one["tps"], one["qps"]["total"], one["events"], one["duration_s"]) == (
        405.33,
        6485.36,
        812,
        2.0028,
    )
    assert one["latency_ms"]["min"] == 0.86 and one["latency_ms"]["avg"] == 2.46
    assert four["latency_ms"]["max"] == 45.37 and two["tps"] == 1720.01
    assert one["series"]["t"] == [1.0, 2.0] and one["series"]["tps"] == [407.68, 403.12]
    assert one["series"]["p95_ms"] == [3.07, 3.30]
    assert one["latency_ms"]["p95"] <= one["latency_ms"]["p99"] <= one["latency_ms"]["max"]
    origin = run["origin"]
    assert origin["kind"] == "sysbench-log" and origin["command"].startswith(
        "mybench import sysbench"
    )
    assert [source["sha256"] for source in origin["sources"]] == [
        hashlib.sha256((LOGS / name).read_bytes()).hexdigest() for name in SWEEP
    ]
    assert all("lines" not in source for source in origin["sources"])
    assert run["workload"] == {
        "tool": "sysbench", "tool_version": "1.0.20", "name": "oltp_read_only",
        "script": "oltp_read_only", "options": {"report-interval": "1", "histogram": "on"},
    }  # fmt: skip
    assert run["host"] == {"hostname": "bench1"} and "reproduce" not in run
    assert run["server"] == {"product": "mariadb", "version": "10.11.6"}


def test_a_log_without_intervals_or_histogram_gives_the_printed_percentile_only(logs, tmp_path):
    code, output, (run,) = run_import(
        tmp_path / "d", logs / "oltp_read_only_2thr_plain.txt", *FACTS, "--workload", "ro"
    )
    assert code == 0, output
    (step,) = run["steps"]
    assert "series" not in step
    assert step["latency_ms"] == {"min": 0.75, "avg": 2.58, "max": 249.39, "p95": 5.99}
    assert step["tps"] == 771.84 and run["workload"]["options"] == {}


def test_percentile_99_keeps_the_per_second_series_with_its_p99(logs, tmp_path):
    """A real 15 s log at --percentile=99 --report-interval=1: its 15 seconds are the step's
    series, the latency named p99_ms as its lines report it, and the document validates."""
    data = tmp_path / "d"
    code, output, (run,) = run_import(
        data, logs / "oltp_read_only_2thr_p99_15s.txt", *FACTS, "--workload", "ro"
    )
    assert code == 0, output
    assert contract.validate_dir(data)[1] == []
    (step,) = run["steps"]
    assert step["latency_ms"] == {"min": 0.94, "avg": 5.59, "max": 43.7, "p99": 19.65}
    series = step["series"]
    assert series["t"] == [float(second) for second in range(1, 16)]
    assert set(series) == {"t", "tps", "qps", "p99_ms", "errors_per_s", "reconnects_per_s"}
    assert series["p99_ms"][:3] == [27.17, 16.71, 15.0] and series["p99_ms"][-1] == 21.89
    assert series["tps"][0] == 355.61
    assert run["workload"]["options"] == {"report-interval": "1"}


def test_percentile_0_gives_no_percentile_and_a_series_without_latency(logs, tmp_path):
    code, output, (run,) = run_import(
        tmp_path / "d", logs / "oltp_read_only_p0.txt", *FACTS, "--workload", "ro"
    )
    assert code == 0, output
    assert run["steps"][0]["latency_ms"] == {"min": 0.79, "avg": 1.36, "max": 40.61}
    assert "p0_ms" not in run["steps"][0]["series"]  # its lines print a latency of 0.00


def test_a_file_holding_two_runs_reads_both_and_the_echoed_command(logs, tmp_path):
    code, output, (run,) = run_import(tmp_path / "d", logs / "oltp_read_only_two_runs.txt", *FACTS)
    assert code == 0, output
    assert [(s["threads"], s["tps"]) for s in run["steps"]] == [(1, 622.87), (2, 541.5)]
    assert run["workload"]["script"] == run["workload"]["name"] == "oltp_read_only"
    assert run["workload"]["options"]["table-size"] == "2000"
    assert "mysql-socket" not in run["workload"]["options"]  # where, not what
    commands = run["origin"]["tool_command"].splitlines()
    assert [c.split("--threads=")[1][0] for c in commands] == ["1", "2"]


def test_a_password_on_an_echoed_command_is_recorded_redacted(logs, tmp_path):
    log = tmp_path / "with-password.txt"
    text = (logs / "oltp_read_only_two_runs.txt").read_text()
    log.write_text(
        text.replace(
            "--mysql-user=root",
            "--mysql-user=root --mysql-password=hunter2 --pgsql-password=hunter2",
        )
    )
    data = tmp_path / "d"
    code, output, (run,) = run_import(data, log, *FACTS)
    assert code == 0, output
    assert run["workload"]["options"]["pgsql-password"] == contract.REDACTED
    assert "hunter2" not in (data / "runs" / f"{run['id']}.json").read_text()


def test_a_thread_level_met_again_starts_another_pass(logs, tmp_path):
    files = [logs / "oltp_read_only_1thr.txt", logs / "oltp_read_only_two_runs.txt"]
    code, output, runs = run_import(tmp_path / "d", *files, *FACTS)
    assert code == 0, output
    first, second = runs
    assert first["id"].endswith(".p1") and second["id"].endswith(".p2")
    assert first["repeat"] == {"index": 1, "of": 2} and second["repeat"] == {"index": 2, "of": 2}
    assert [(s["threads"], s["tps"]) for s in first["steps"]] == [(1, 405.33), (2, 541.5)]
    assert [(s["threads"], s["tps"]) for s in second["steps"]] == [(1, 622.87)]
    # each pass read part of the two-run file: the lines say which
    two_runs = {"file": files[1].name, "sha256": hashlib.sha256(files[1].read_bytes()).hexdigest()}
    assert first["origin"]["sources"][1] == {**two_runs, "lines": [41, 77]}
    assert second["origin"]["sources"] == [{**two_runs, "lines": [2, 38]}]


def test_threads_from_the_user_when_the_log_lacks_them(logs, tmp_path):
    cut = tmp_path / "cut.txt"  # a log cut to its results, as some scripts keep them
    text = (logs / "oltp_read_only_2thr_plain.txt").read_text()
    cut.write_text(text[text.index("SQL statistics") :])
    code, output, _ = run_import(tmp_path / "d", cut, *FACTS, "--workload", "ro")
    assert code == 2 and f"{cut}:1: no 'Number of threads' line: give --threads" in output
    code, output, (run,) = run_import(
        tmp_path / "d", cut, *FACTS, "--workload", "ro", "--threads", "2"
    )
    assert code == 0, output
    assert run["steps"][0]["threads"] == 2 and run["workload"]["tool_version"] == "unknown"

    both = [cut, logs / "oltp_read_only_1thr.txt"]
    code, output, _ = run_import(
        tmp_path / "e", *both, *FACTS, "--workload", "ro", "--threads", "2", "--threads", "4"
    )
    assert code == 2 and "the command line: 1 thread count(s) left over" in output


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("hello\nworld\n", ":1: not sysbench output: no 'sysbench 1.0.x' header, no results"),
        ("sysbench 1.0.20 (using system LuaJIT)\n\nCreating table 'sbtest1'...\n", ":1: incomplete sysbench run output (sysbench output lacks: read"),
        ("sysbench 1.1.0 (using bundled LuaJIT)\nNumber of threads: 1\n", ":1: sysbench 1.1.0 output; only 1.0.x is read"),
    ],
)  # fmt: skip
def test_a_file_that_is_not_a_sysbench_run_is_refused_and_nothing_written(
    logs, tmp_path, content, expected
):
    data = tmp_path / "data"
    run_import(data, logs / "oltp_read_only_1thr.txt", *FACTS, "--workload", "other")
    before = tree(data)
    bad = tmp_path / "bad.txt"
    bad.write_text(content)
    code, output, _ = run_import(
        data, logs / "oltp_read_only_2thr.txt", bad, *FACTS, "--workload", "ro"
    )
    assert code == 2
    (line,) = output.strip().splitlines()
    assert line.startswith(f"error: {bad}{expected}")
    assert tree(data) == before


def test_an_import_onto_an_id_already_there_is_refused_like_a_merge_collision(logs, tmp_path):
    data = tmp_path / "data"
    args = [logs / "oltp_read_only_1thr.txt", *FACTS, "--workload", "ro"]
    assert run_import(data, *args)[0] == 0
    before = tree(data)
    code, output, _ = run_import(data, *args, "--tool-command", "sysbench oltp_read_only run")
    assert code == 2
    (run_file,) = (data / "runs").iterdir()
    assert f"already in {run_file}, with other content" in output
    assert tree(data) == before


def test_a_bad_option_value_is_named_by_its_option(logs, tmp_path):
    args = [logs / "oltp_read_only_1thr.txt", *FACTS, "--workload", "Read Only"]
    code, output, _ = run_import(tmp_path / "data", *args)
    assert code == 2
    assert output.startswith("error: the command line: --workload: 'Read Only' does not match")
    assert not (tmp_path / "data").exists()


@pytest.fixture(scope="module")
def named_import(tmp_path_factory) -> tuple[Path, Path]:
    """The data dir of hostile_import and the importer's folder it read from."""
    root = tmp_path_factory.mktemp("named-import")
    hostile_import(root / "data", root / "home" / "alice")
    return root / "data", root / "home" / "alice"


def test_files_are_recorded_by_name_whatever_they_hold(named_import):
    """The logs' names hold markup and the importer's folders are its own: the documents name
    each file alone (sources, campaign file, the command's files and options), so no page built
    from them can show where the importer keeps anything."""
    data, importer = named_import
    assert contract.validate_dir(data)[1] == []
    files = sorted((data / "runs").glob("*.json"))
    first, second = (json.loads(path.read_text()) for path in files)
    assert [source["file"] for source in first["origin"]["sources"]] == HOSTILE_FILE_NAMES[:3]
    assert [source["file"] for source in second["origin"]["sources"]] == HOSTILE_FILE_NAMES[3:]
    assert first["campaign"]["file"] == HOSTILE_FILE_NAMES[0]
    assert shlex.split(first["origin"]["command"])[3:9] == HOSTILE_FILE_NAMES
    assert "--my-cnf my.cnf" in first["origin"]["command"]
    for path in files:
        assert str(importer.parent) not in path.read_text()


def _problems_with(named_import, edit) -> list[contract.Problem]:
    """The validation problems of the import's first run once edit has changed its origin."""
    path = min((named_import[0] / "runs").glob("*.json"))
    doc = json.loads(path.read_text())
    edit(doc["origin"])
    return contract.validate_document(doc, str(path))


@pytest.mark.parametrize(
    "recorded",
    [
        "/home/alice/logs/a.log",
        "~/logs/a.log",
        "\\\\share\\logs\\a.log",
        "../alice/a.log",
        "logs/../../alice/a.log",
        "logs\\..\\a.log",
    ],
)
def test_a_document_naming_an_importers_path_is_refused(named_import, recorded):
    (problem,) = _problems_with(
        named_import, lambda origin: origin["sources"][0].update(file=recorded)
    )
    assert problem.path == "$.origin.sources[0].file", problem


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)//https://x",
        "data:text/html,<script>",
        " https://x",
    ],
)
def test_a_published_at_link_is_http_or_nothing(named_import, url):
    """origin.url becomes a link on the run and campaign pages: only an http(s) address."""
    (problem,) = _problems_with(named_import, lambda origin: origin.update(url=url))
    assert problem.path == "$.origin.url", problem
