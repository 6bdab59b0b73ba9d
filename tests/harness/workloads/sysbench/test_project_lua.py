"""The project's own sysbench tests (harness/workloads/sysbench/lua/) run for real: a sandboxed MariaDB, the Debian
sysbench 1.0.20, 1 table x 5,000 rows, 1 s runs. Plus plan_problems on recorded EXPLAIN rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.model.campaign import Workload
from harness.servers.sandbox import Binaries, Sandbox
from harness.servers.sysbench_target import DATABASE
from harness.workloads.sysbench import project_lua
from harness.workloads.sysbench.commands import (
    command,
    execute,
    prepare_argv,
    run_argv,
    sysbench_binary,
)
from harness.workloads.sysbench.output import parse_run

ROWS = 5000
POINTS = 10  # the scripts' default --random-points


def _workload(
    test: str, database: str = DATABASE, tables: int = 1, rows: int = ROWS, **options: str
) -> Workload:
    """A workload running a project test; `mysql-db` picks the schema (argv's last word wins)."""
    script = str(project_lua.script(test)) if project_lua.is_project_test(test) else test
    return Workload(test, script, tables, rows, {"mysql-db": database, **options})


class Bench:
    def __init__(self, box: Sandbox):
        self.box = box
        self.binary = sysbench_binary()
        self.target = box.sysbench_target()

    def sql(self, statement: str, database: str | None = DATABASE) -> list[tuple]:
        with self.box.connect(database) as conn, conn.cursor() as cursor:
            cursor.execute(statement)
            return list(cursor.fetchall())

    def status(self, name: str) -> int:
        return int(self.sql(f"SHOW GLOBAL STATUS LIKE '{name}'")[0][1])

    def do(self, workload: Workload, action: str, extra: dict[str, str] | None = None) -> str:
        argv = command(self.binary, workload, self.target, action, extra or {})
        return execute(argv)

    def prepare(self, workload: Workload) -> str:
        return execute(prepare_argv(self.binary, workload, self.target))

    def run(self, workload: Workload, threads: int = 2, seconds: int = 1) -> str:
        argv = run_argv(self.binary, workload, self.target, threads, seconds)
        return execute(argv)


@pytest.fixture(scope="module")
def bench(tmp_path_factory: pytest.TempPathFactory):
    """One server; schema sbtest holds 1 x 5,000 rows loaded by our own prepare."""
    workdir = tmp_path_factory.mktemp("project-lua") / "srv"
    mycnf = "[mysqld]\nskip_log_bin\ninnodb_buffer_pool_size = 64M\n"
    with Sandbox(Binaries.find(Path("/usr")), workdir, mycnf) as box:
        bench = Bench(box)
        bench.sql(f"CREATE DATABASE IF NOT EXISTS {DATABASE}", None)
        bench.prepare(_workload("random_points"))
        yield bench


# --- without a server -------------------------------------------------------------------------


def test_registry_matches_the_lua_files():
    on_disk = {path.stem for path in project_lua.LUA_DIR.glob("*.lua")} - {
        "mybench_common",
        "json_text",
    }
    assert set(project_lua.TESTS) == on_disk
    assert all(path.is_absolute() and path.is_file() for path in project_lua.TESTS.values())
    assert project_lua.sysbench_env() == {}
    with pytest.raises(ValueError, match="unknown project Lua test"):
        project_lua.script("oltp_point_select")


def _row(statement: str, **fields: object) -> str:
    base = {"statement": statement, "table_number": 2, "table": "sbtest2", "type": "range",
            "possible_keys": "PRIMARY", "key": "PRIMARY", "key_len": "4", "rows": "10",
            "Extra": "Using where"}  # fmt: skip
    return json.dumps({**base, **fields})


def test_plan_problems_on_recorded_rows():
    banner = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n\n"
    covered_si = _row("SELECT k FROM sbtest2 WHERE k IN (1)", key="k_2", Extra="Using index")
    assert project_lua.plan_problems("points_covered_si", banner + covered_si) == []
    # ICP's "Using index condition" is not a covering read.
    icp = _row("SELECT k, c FROM sbtest2 WHERE k IN (1)", key="k_2", Extra="Using index condition")
    assert project_lua.plan_problems("points_notcovered_si", icp) == []
    assert project_lua.plan_problems("points_covered_si", icp)
    # k_1 is the index of table 1, not of table 2.
    assert project_lua.plan_problems("points_covered_si", covered_si.replace("k_2", "k_1"))
    full = _row("SELECT k FROM sbtest2 WHERE k IN (1)", type="ALL", key=None, Extra="Using where")
    [problem] = project_lua.plan_problems("range_covered_si", full)
    assert problem.startswith("range_covered_si: SELECT k FROM sbtest2") and "key k_2" in problem
    scan = _row("SELECT * FROM sbtest2 WHERE LENGTH(c) < 0", type="ALL", key=None)
    assert project_lua.plan_problems("scan", scan) == []
    assert project_lua.plan_problems("scan", "") == ["scan: no EXPLAIN rows in the explain output"]


def test_plans_as_mariadb_11_4_and_large_in_lists_print_them():
    # 11.4 no longer says "Using index" for a read of the clustered primary key
    pk = _row("SELECT id FROM sbtest2 WHERE id BETWEEN 1 AND 101", Extra="Using where")
    assert project_lua.plan_problems("range_covered_pk", pk) == []
    assert project_lua.plan_problems("range_notcovered_pk", pk) == []
    # an IN list of 1000 values becomes a join with a derived table of the values
    values = _row("SELECT c FROM sbtest2 WHERE id IN (...)", table="<derived3>", type="ALL",
                  key=None, possible_keys="distinct_key", Extra="")  # fmt: skip
    lookup = _row("SELECT c FROM sbtest2 WHERE id IN (...)", type="eq_ref", Extra="")
    assert project_lua.plan_problems("random_points", f"{values}\n{lookup}") == []
    scan = _row("SELECT c FROM sbtest2 WHERE id IN (...)", type="ALL", key=None, Extra="")
    assert project_lua.plan_problems("random_points", f"{values}\n{scan}")


# --- against the server -----------------------------------------------------------------------


def test_prepare_loads_rows_and_the_k_index(bench: Bench):
    summary = "SELECT COUNT(*), MIN(id), MAX(id), MIN(k) >= 1, MAX(k) <= 5000 FROM sbtest1"
    assert bench.sql(summary)[0] == (ROWS, 1, ROWS, 1, 1)
    indexes = {row[2] for row in bench.sql("SHOW INDEX FROM sbtest1")}
    assert indexes == {"PRIMARY", "k_1"}
    c, pad = bench.sql("SELECT c, pad FROM sbtest1 WHERE id = 1")[0]
    assert len(c) == 119 and c.count("-") == 9 and c.replace("-", "").isdigit()
    assert len(pad) == 59 and pad.count("-") == 4 and pad.replace("-", "").isdigit()


@pytest.mark.parametrize("test", sorted(project_lua.TESTS))
def test_runs_and_gets_the_intended_plan(bench: Bench, test: str):
    report = parse_run(bench.run(_workload(test)), 2)
    assert report.qps_total > 0 and report.errors == 0 and report.reconnects == 0
    assert report.tps == report.qps_total  # one statement per event, no BEGIN/COMMIT
    explain = bench.do(_workload(test), "explain")
    assert project_lua.explain_rows(explain), explain
    assert project_lua.plan_problems(test, explain) == []


def test_scan_reads_the_whole_table_per_event(bench: Bench):
    # Handler_read_rnd_next: one per row of a table scan (plus one at its end)
    before = bench.status("Handler_read_rnd_next")
    report = parse_run(bench.run(_workload("scan"), threads=1), 1)
    read = bench.status("Handler_read_rnd_next") - before
    assert report.events > 0
    assert read == pytest.approx(report.events * ROWS, rel=0.01)


def test_hot_points_reads_the_same_rows_every_event(bench: Bench):
    bench.sql("SET GLOBAL log_output = 'TABLE'")
    bench.sql("TRUNCATE mysql.general_log")
    bench.sql("SET GLOBAL general_log = ON")
    try:
        bench.do(_workload("hot_points"), "run", {"threads": "2", "events": "40", "time": "0"})
    finally:
        bench.sql("SET GLOBAL general_log = OFF")
    executed = bench.sql(
        "SELECT argument FROM mysql.general_log WHERE command_type = 'Execute'", "mysql"
    )
    assert len(executed) == 40
    hot = ", ".join(str(ROWS // 2 + i) for i in range(1, POINTS + 1))
    assert {str(row[0]) for row in executed} == {f"SELECT c FROM sbtest1 WHERE id IN ({hot})"}


def test_update_inlist_changes_rows(bench: Bench):
    checksum = bench.sql("CHECKSUM TABLE sbtest1")[0][1]
    before = bench.status("Handler_update")
    report = parse_run(bench.run(_workload("update_inlist"), threads=1), 1)
    updated = bench.status("Handler_update") - before
    assert report.queries_write == report.events > 0
    # ids drawn with replacement: a repeat within one IN list updates its row once
    assert report.events * POINTS * 0.95 <= updated <= report.events * POINTS
    assert bench.sql("CHECKSUM TABLE sbtest1")[0][1] != checksum
    assert bench.sql("SELECT COUNT(*) FROM sbtest1")[0][0] == ROWS


def test_db_ps_mode_disable_sends_text_queries(bench: Bench):
    def executes_and_selects(workload: Workload) -> tuple[int, int]:
        before = bench.status("Com_stmt_execute"), bench.status("Com_select")
        bench.run(workload, threads=1)
        return bench.status("Com_stmt_execute") - before[0], bench.status("Com_select") - before[1]

    text_protocol = _workload("random_points", **{"db-ps-mode": "disable"})
    executes, selects = executes_and_selects(text_protocol)
    assert executes == 0 and selects > 0
    executes, _ = executes_and_selects(_workload("random_points"))  # auto: server-side PS
    assert executes > 0


def test_stock_prepare_data_is_interchangeable(bench: Bench):
    bench.sql("CREATE DATABASE stock", None)
    try:
        bench.prepare(_workload("oltp_read_only", "stock"))
        ours = bench.sql("SHOW CREATE TABLE sbtest1")[0][1]
        stock = bench.sql("SHOW CREATE TABLE sbtest1", "stock")[0][1]
        assert stock == ours
        for test in ("points_covered_si", "range_notcovered_pk"):
            report = parse_run(bench.run(_workload(test, "stock")), 2)
            assert report.qps_total > 0 and report.errors == 0
            explain = bench.do(_workload(test, "stock"), "explain")
            assert project_lua.plan_problems(test, explain) == []
        bench.do(_workload("scan", "stock"), "cleanup")
        assert bench.sql("SHOW TABLES", "stock") == []
    finally:
        bench.sql("DROP DATABASE stock", None)


def test_plan_check_reports_a_missing_index(bench: Bench):
    bench.sql("CREATE DATABASE noindex", None)
    try:
        bench.prepare(_workload("points_covered_si", "noindex"))
        bench.sql("DROP INDEX k_1 ON sbtest1", "noindex")
        explain = bench.do(_workload("points_covered_si", "noindex"), "explain")
        [problem] = project_lua.plan_problems("points_covered_si", explain)
        assert "expected key k_1" in problem
        assert project_lua.plan_problems("points_covered_pk", explain)  # k IN (...) is not PK
    finally:
        bench.sql("DROP DATABASE noindex", None)


def test_several_tables_load_in_parallel_and_each_has_its_index(bench: Bench):
    bench.sql("CREATE DATABASE several", None)
    try:
        several = {"database": "several", "tables": 3, "rows": 500}
        prepared = bench.prepare(_workload("scan", **several))  # 3 threads, one table each
        assert prepared.count("Creating a secondary index") == 3
        counts = [bench.sql(f"SELECT COUNT(*) FROM sbtest{n}", "several")[0][0] for n in (1, 2, 3)]
        assert counts == [500, 500, 500]
        explain = bench.do(_workload("points_covered_si", **several), "explain")
        assert [row["key"] for row in project_lua.explain_rows(explain)] == ["k_1", "k_2", "k_3"]
        assert project_lua.plan_problems("points_covered_si", explain) == []
    finally:
        bench.sql("DROP DATABASE several", None)
