"""Numbers at the edge of the schema's range through a real `mybench build` (real Hugo): what
validation accepts builds (figures of 1e-6 and 1e12, server variables holding superscript,
other scripts' or 5,000 digits, a log imported with seconds left out), and what it refuses
(a subnormal, a 5,000-digit or underflowing number) stops the build with one line naming the
file and JSON path, never a traceback."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.hostile_numbers import ARABIC_FIVE, FULL_WIDTH_TWELVE
from tests.helpers.paths import DATA_DIR, FIXTURE_RUNS, FIXTURES
from tests.helpers.site_build import seed_cache

pytestmark = pytest.mark.site

SOURCES = [
    "binlog-sync-policies-20261123-133014.binlog-off.oltp-rw.p1",
    "binlog-sync-policies-20261123-133014.sync-1.oltp-rw.p1",
]
CAMPAIGN = "number-bounds"  # the fixture runs' campaign renamed: data/ holds the originals
# Server variables the generator reads as numbers (the buffer pool against the data size, the
# redo log's capacity): each holds text that is not ASCII digits, or too many of them.
VARIABLES = [
    {"innodb_buffer_pool_size": "5\u00b2", "innodb_log_file_size": "9" * 5000},
    {"innodb_buffer_pool_size": ARABIC_FIVE * 9, "innodb_log_file_size": FULL_WIDTH_TWELVE},
]

FIRST_TPS = re.compile(r"^(\[ 1s \] .*? tps: )\S+", re.MULTILINE)  # a log's first second's tps


def mybench(*args: str | Path) -> subprocess.CompletedProcess:
    argv = [sys.executable, "-m", "cli", *map(str, args)]
    return subprocess.run(argv, capture_output=True, text=True, check=False, timeout=600)


def _renamed(run_id: str) -> dict:
    text = (FIXTURE_RUNS / "runs" / f"{run_id}.json").read_text()
    return json.loads(text.replace("binlog-sync-policies", CAMPAIGN))


def _every_figure(value: object, figure: float) -> object:
    """value with every non-integer number set to figure."""
    if isinstance(value, dict):
        return {key: _every_figure(item, figure) for key, item in value.items()}
    if isinstance(value, list):
        return [_every_figure(item, figure) for item in value]
    return figure if isinstance(value, float) else value


def _edge_data(root: Path) -> subprocess.CompletedProcess:
    """root/data: one run whose every figure is 1e-6, the smallest but 0, one whose every figure
    is 1e12, the largest, both with VARIABLES; and a log imported with its first second's tps
    nan (the import is returned)."""
    runs_dir = root / "data" / "runs"
    runs_dir.mkdir(parents=True)
    for run_id, figure, variables in zip(SOURCES, (1e-6, 1e12), VARIABLES, strict=True):
        doc = _renamed(run_id)
        for step in doc["steps"]:
            for key in ("tps", "qps", "latency_ms", "os", "per_op", "monitor"):
                if key in step:
                    step[key] = _every_figure(step[key], figure)
            for key in ("tps", "qps", "p95_ms"):
                step["series"][key] = _every_figure(step["series"][key], figure)
        doc["server"]["variables"] |= variables
        (runs_dir / f"{doc['id']}.json").write_text(json.dumps(doc))
    log = root / "nan-second.log"
    recorded = (FIXTURES / "sysbench" / "import" / "oltp_read_only_2thr.txt").read_text()
    log.write_text(FIRST_TPS.sub(r"\1nan", recorded, count=1))
    os.utime(log, (1_600_000_000, 1_600_000_000))
    imported = mybench("import", "sysbench", log, "--campaign", "nan-second", "--variant", "base",
                       "--workload", "ro", "--product", "mariadb", "--server-version", "10.11.6",
                       "--host", "bench1", "--data", root / "data")  # fmt: skip
    assert imported.returncode == 0, imported.stderr
    return imported


@pytest.fixture(scope="module")
def edge_site(tmp_path_factory, committed_cache) -> tuple[subprocess.CompletedProcess, ...]:
    """The import and the build, and where it published."""
    root = tmp_path_factory.mktemp("edge-numbers")
    imported = _edge_data(root)
    seed_cache(root / "build", committed_cache)
    built = mybench("build", "--data", DATA_DIR, "--data", root / "data", "--out", root / "build",
                    "--destination", root / "public", "--base-url", "/")  # fmt: skip
    return imported, built, root / "public"


def test_figures_at_the_bounds_and_variables_that_are_not_numbers_build(edge_site):
    _, built, public = edge_site
    assert built.returncode == 0, built.stderr[-3000:]
    assert "Traceback" not in built.stderr
    smallest = _renamed(SOURCES[0])["id"]
    page = (public / "runs" / smallest / "index.html").read_text()
    assert "0.000001" in page  # the smallest figure shows, at 6 decimals
    largest = _renamed(SOURCES[1])["id"]
    assert "1,000,000,000,000" in (public / "runs" / largest / "index.html").read_text()
    for run_id in (smallest, largest):  # the charts were drawn
        assert (public / "runs" / run_id / "series.csv").is_file()


def test_a_log_with_seconds_left_out_says_so_and_builds_with_the_seconds_it_has(edge_site):
    imported, built, public = edge_site
    (note,) = [line for line in imported.stdout.splitlines() if "left out" in line]
    assert note.endswith(
        ".log:13: second 1s left out of the series of the 2-thread step (tps 'nan': not a decimal"
        " number in ASCII digits (such as 12 or 0.5))"
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (run_dir,) = [p for p in (public / "runs").iterdir() if p.name.startswith("nan-second-")]
    document = json.loads((run_dir / "run.json").read_text())
    assert document["steps"][0]["series"]["t"] == [2.0]


# (what is written in place of a figure, the JSON path refused, the start of the why)
REFUSED = [
    ('"tps": 5e-324', "$.steps[0].tps", "5e-324 is nearer to 0 than 10⁻⁶ and not 0"),
    ('"tps": 2.5e-310', "$.steps[0].tps", "2.5e-310 is nearer to 0 than 10⁻⁶ and not 0"),
    ('"tps": 1e-400', "$.steps[0].tps", "1e-400 is nearer to 0 than a double holds"),
    ('"tps": -0.1e-399', "$.steps[0].tps", "-0.1e-399 is nearer to 0 than a double holds"),
    (f'"tps": {"9" * 5000}', "$.steps[0].tps", "a number of 5,000 characters, over the limit"),
    (f'"tps": {"1" * 4301}.5', "$.steps[0].tps", "a number of 4,303 characters, over the limit"),
]


@pytest.mark.parametrize(("written", "path", "why"), REFUSED)
def test_numbers_the_site_cannot_draw_stop_the_build_with_file_and_path(
    tmp_path, written, path, why
):
    runs_dir = tmp_path / "data" / "runs"
    runs_dir.mkdir(parents=True)
    doc = _renamed(SOURCES[0])
    run_file = runs_dir / f"{doc['id']}.json"
    tps = doc["steps"][0]["tps"]
    run_file.write_text(json.dumps(doc).replace(f'"tps": {tps}', written, 1))
    built = mybench("build", "--data", tmp_path / "data", "--out", tmp_path / "build",
                    "--destination", tmp_path / "public")  # fmt: skip
    assert built.returncode == 2 and "Traceback" not in built.stderr
    error, problem = built.stderr.strip().splitlines()
    assert error == "error: 1 problem(s) in the results; nothing was published"
    assert problem.strip().startswith(f"{run_file}: {path}: {why}")
    assert not (tmp_path / "public").exists()
