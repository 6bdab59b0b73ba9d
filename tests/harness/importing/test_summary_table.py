"""mybench import table on a CSV of invented figures: one summary-only run per campaign,
variant and workload, a step per thread level with only the figures given; each bad input one
line with the file and line, and data/ unchanged."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import contract
from harness.cli import main
from tests.harness.importing.test_sysbench_logs import tree

# Invented figures, as a blog post's table would give them.
TABLE = """campaign,variant,workload,threads,qps,tps,p95_ms,server_version
blog-2020,mariadb-10-4,read-only,1,5000,312.5,3.1,10.4.12
blog-2020,mariadb-10-4,read-only,8,30000,1875,5.2,10.4.12
blog-2020,mariadb-10-5,read-only,1,5500,,3.0,10.5.4
blog-2020,mariadb-10-5,read-only,8,27000,1687.5,,10.5.4
blog-2020,mariadb-10-4,update-index,8,9000,,,10.4.12
"""
OPTIONS = ["--product", "mariadb", "--host", "blogbox", "--published", "2020-06-01",
           "--url", "https://example.org/2020/06/read-only", "--note", "figures read off the post"]  # fmt: skip


def run_table(data: Path, csv: Path, *options: str) -> tuple[int, str, dict[str, dict]]:
    result = CliRunner().invoke(
        main, ["import", "table", str(csv), *options, "--data", str(data)], catch_exceptions=False
    )
    runs = {p.stem: json.loads(p.read_text()) for p in sorted((data / "runs").glob("*.json"))}
    return result.exit_code, result.output, runs


def test_each_campaign_variant_and_workload_is_one_summary_run(tmp_path):
    csv = tmp_path / "table.csv"
    csv.write_text(TABLE)
    data = tmp_path / "data"
    code, output, runs = run_table(data, csv, *OPTIONS)
    assert code == 0, output
    assert contract.validate_dir(data)[1] == []
    assert sorted(runs) == [
        "blog-2020-20200601-000000.mariadb-10-4.read-only",
        "blog-2020-20200601-000000.mariadb-10-4.update-index",
        "blog-2020-20200601-000000.mariadb-10-5.read-only",
    ]
    assert "3 run(s) written" in output
    old = runs["blog-2020-20200601-000000.mariadb-10-4.read-only"]
    new = runs["blog-2020-20200601-000000.mariadb-10-5.read-only"]
    assert old["steps"] == [
        {"threads": 1, "qps": {"total": 5000.0}, "tps": 312.5, "latency_ms": {"p95": 3.1}},
        {"threads": 8, "qps": {"total": 30000.0}, "tps": 1875.0, "latency_ms": {"p95": 5.2}},
    ]
    assert new["steps"] == [  # empty cells: figures not given
        {"threads": 1, "qps": {"total": 5500.0}, "latency_ms": {"p95": 3.0}},
        {"threads": 8, "qps": {"total": 27000.0}, "tps": 1687.5},
    ]
    assert old["campaign"]["variant_order"] == ["mariadb-10-4", "mariadb-10-5"]
    assert (old["server"]["version"], new["server"]["version"]) == ("10.4.12", "10.5.4")
    assert old["started_at"] == old["ended_at"] == "2020-06-01T00:00:00Z"
    assert "my_cnf" not in old["server"] and "reproduce" not in old
    origin = old["origin"]
    assert origin["kind"] == "summary-table"
    assert origin["url"] == "https://example.org/2020/06/read-only"
    assert origin["published"] == "2020-06-01" and origin["note"] == "figures read off the post"
    digest = hashlib.sha256(TABLE.encode()).hexdigest()
    assert origin["sources"] == [{"file": csv.name, "sha256": digest, "lines": [2, 3]}]
    assert new["origin"]["sources"][0]["lines"] == [4, 5]


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ("campaign,variant,threads,qps\nc,v,1,3\n", ":1: missing column 'workload'"),
        ("campaign,variant,workload,threads,qpz\nc,v,w,1,3\n", ":1: unknown column 'qpz'"),
        ("campaign,variant,workload,threads\nc,v,w,1\n", ":1: no metric column"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3\nc,v,w,2,fast\n", ":3: qps 'fast': not a decimal number in ASCII digits"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3\nc,v,w,1,4\n", ":3: threads 1 again for c/v/w (line 2)"),
        ("campaign,variant,workload,threads,qps\nc,v,w,one,3\n", ":2: threads 'one' is not a whole number"),
        ("campaign,variant,workload,threads,qps\nc,,w,1,3\n", ":2: no variant"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,\n", ":2: no figure in this row"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,-3\n", ":2: qps '-3': not a decimal number in ASCII digits"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3,4\n", ":2: 5 columns expected"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3\n", ":2: no server_version for c/v/w: give a server_version column or --server-version"),
        ("campaign,variant,workload,threads,qps,server_version\nc,V 1,w,1,3,1.0\n", ":2: variant 'V 1': use a-z, 0-9"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_with_file_and_line_and_nothing_written(tmp_path, table, expected):
    data = tmp_path / "data"
    good = tmp_path / "good.csv"
    good.write_text(TABLE)
    assert run_table(data, good, *OPTIONS)[0] == 0
    before = tree(data)
    bad = tmp_path / "bad.csv"
    bad.write_text(table)
    code, output, _ = run_table(data, bad, "--product", "mariadb", "--host", "h")
    assert code == 2
    (line,) = output.strip().splitlines()
    assert line.startswith(f"error: {bad}{expected}")
    assert tree(data) == before
