"""mybench import table on a CSV of invented figures: one summary-only run per campaign,
variant and workload, a step per thread level with only the figures given; each bad input one
line with the file and line, and data/ unchanged."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import contract
from cli.main import main
from tests.harness.importing.test_sysbench_logs import tree
from tests.helpers.imported_runs import TWO_HOST_OPTIONS, TWO_HOSTS

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
        ("variant,qps\nv,3\n", ":1: missing columns 'campaign', 'workload', 'threads' (or --threads N with --threads-source)"),
        ("campaign,variant,workload,threads,qps,qpz,tpz\nc,v,w,1,3,4,5\n", ":1: unknown columns 'qpz', 'tpz'"),
        ("campaign,variant,workload,threads,tps,qps_ratio\nc,v,w,1,3,1.0\n", ":1: qps_ratio without a qps column"),
        ("campaign,variant,workload,threads,qps,tps,qps_ratio\nc,v,w,1,,5,1.0\n", ":2: qps_ratio without a qps figure to check it by"),
        ("campaign,variant,workload,threads,qps,options\nc,v,w,1,3,--range-size\n", ":2: options '--range-size': write --name=value"),
        ("campaign,variant,workload,threads,qps,options,option.range-size\nc,v,w,1,3,--range-size=1,2\n", ":2: option.range-size and options disagree"),
        ("campaign,variant,workload,threads,qps,host,server_version\nc,v,w,1,3,Rack #3,1.0\n", ":2: host: 'Rack #3' does not match"),
        ("campaign,variant,workload,threads,qpz\nc,v,w,1,3\n", ":1: unknown column 'qpz'"),
        ("campaign,variant,workload,threads\nc,v,w,1\n", ":1: no metric column"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3\nc,v,w,2,fast\n", ":3: qps 'fast': not a decimal number in ASCII digits"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3\nc,v,w,1,4\n", ":3: threads 1 again for c/v/w on h (line 2)"),
        ("campaign,variant,workload,threads,qps\nc,v,w,one,3\n", ":2: threads 'one' is not a whole number"),
        ("campaign,variant,workload,threads,qps\nc,,w,1,3\n", ":2: no variant"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,\n", ":2: no figure in this row"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,-3\n", ":2: qps '-3': not a decimal number in ASCII digits"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3,4\n", ":2: 5 columns expected"),
        ("campaign,variant,workload,threads,qps\nc,v,w,1,3\n", ":2: no server_version for c/v/w on h: give a server_version column or --server-version"),
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


def test_a_two_host_table_with_options_and_printed_ratios_imports_as_published(tmp_path):
    csv = tmp_path / "post.csv"
    csv.write_text(TWO_HOSTS)
    code, output, runs = run_table(tmp_path / "data", csv, *TWO_HOST_OPTIONS)
    assert code == 0, output
    assert contract.validate_dir(tmp_path / "data")[1] == []
    prefix = "post-2017-20171109-000000."
    assert sorted(runs) == [
        prefix + "box-a.v1.point-query.pre",
        prefix + "box-a.v1.read-write-range-size-100",
        prefix + "box-a.v1.read-write-range-size-10000",
        prefix + "box-a.v2.point-query.pre",
        prefix + "box-a.v2.read-write-range-size-100",
        prefix + "box-a.v2.read-write-range-size-10000",
        prefix + "box-b.v1.read-write-range-size-100",
        prefix + "box-b.v2.read-write-range-size-100",
    ]
    wide = runs[prefix + "box-a.v2.read-write-range-size-10000"]
    assert wide["workload"]["options"] == {"range-size": "10000"}
    assert wide["host"] == {"hostname": "Box-A", "label": "Box A"}
    assert wide["campaign"]["variant_order"] == ["box-a.v1", "box-a.v2", "box-b.v1", "box-b.v2"]
    assert wide["origin"]["assumed"] == {"threads": {"value": "1", "source": "the post: 1 client"}}
    assert wide["steps"] == [
        {
            "threads": 1,
            "qps": {"total": 210.0},
            "printed_ratios": {"qps": {"value": 1.05, "decimals": 2, "base": "box-a.v1"}},
        }
    ]
    other_host = runs[prefix + "box-b.v2.read-write-range-size-100"]
    assert other_host["steps"][0]["printed_ratios"]["qps"]["base"] == "box-b.v1"
    assert (
        runs[prefix + "box-a.v1.point-query.pre"]["workload"]["note"] == "Run before the writes."
    )
    assert "note" not in wide["workload"]


def test_the_same_table_imported_again_is_a_no_op_and_a_changed_one_is_refused(tmp_path):
    """Identity comes from the source: the import's own time is not part of it."""
    csv = tmp_path / "post.csv"
    csv.write_text(TWO_HOSTS)
    data = tmp_path / "data"
    assert run_table(data, csv, *TWO_HOST_OPTIONS)[0] == 0
    for path in (data / "runs").glob("*.json"):  # as if imported at another time, by another tree
        document = json.loads(path.read_text())
        document["origin"]["imported_at"] = "2020-01-01T00:00:00Z"
        document["harness"]["git_commit"] = "0" * 40
        path.write_text(json.dumps(document))
    before = tree(data)
    code, output, _ = run_table(data, csv, *TWO_HOST_OPTIONS)
    assert code == 0, output
    assert "0 run(s) written, 8 already there" in output
    assert tree(data) == before
    old_digest = hashlib.sha256(TWO_HOSTS.encode()).hexdigest()
    csv.write_text(TWO_HOSTS.replace("1000,1.00", "1001,1.00"))
    new_digest = hashlib.sha256(csv.read_bytes()).hexdigest()
    code, output, _ = run_table(data, csv, *TWO_HOST_OPTIONS)
    assert code == 2
    assert f"imported from post.csv (sha256 {old_digest[:12]}…), now {new_digest[:12]}…" in output
    assert "the source changed since" in output
    assert tree(data) == before


def test_a_table_without_a_published_date_is_dated_by_its_file_and_imports_again_as_a_no_op(
    tmp_path,
):
    csv = tmp_path / "post.csv"
    csv.write_text(TWO_HOSTS)
    os.utime(csv, (1510185600, 1510185600))  # 2017-11-09 00:00:00 UTC
    options = [o for o in TWO_HOST_OPTIONS if o not in ("--published", "2017-11-09")]
    data = tmp_path / "data"
    code, output, runs = run_table(data, csv, *options)
    assert code == 0, output
    assert {run["campaign"]["id"] for run in runs.values()} == {"post-2017-20171109-000000"}
    assert "0 run(s) written, 8 already there" in run_table(data, csv, *options)[1]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (["--threads", "1"], "--threads and --threads-source go together"),
        (["--threads-source", "the post"], "--threads and --threads-source go together"),
    ],
)
def test_threads_for_every_row_need_their_source(tmp_path, options, expected):
    csv = tmp_path / "post.csv"
    csv.write_text(TWO_HOSTS)
    code, output, _ = run_table(tmp_path / "data", csv, "--product", "mysql", *options)
    assert code == 2
    assert output.startswith(f"error: {expected}")


def test_a_threads_column_and_threads_for_every_row_are_refused_together(tmp_path):
    csv = tmp_path / "t.csv"
    csv.write_text(TABLE)
    code, output, _ = run_table(tmp_path / "data", csv, *OPTIONS, *TWO_HOST_OPTIONS[4:])
    assert code == 2
    assert output.startswith(f"error: {csv}:1: a threads column and --threads: give one of them")
