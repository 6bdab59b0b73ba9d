"""The project's own sysbench 1.0.20 tests (lua/ beside this module): Mark Callaghan's
microbenchmarks that stock sysbench lacks, by test name, and the query plan each must get.

Every script takes the stock OLTP data options (tables, table_size, auto_inc, create_secondary,
mysql_storage_engine) plus random_points and range_size, offers prepare, run, cleanup and a
custom `explain` command, and loads lua/mybench_common.lua itself (from its own
directory), so sysbench needs no extra environment. `explain` prints one JSON object per EXPLAIN
row: statement, table_number, table, type, possible_keys, key, key_len, rows, Extra.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

LUA_DIR = Path(__file__).resolve().parent / "lua"
SBTEST = re.compile(r"sbtest[0-9]+")


@dataclass(frozen=True)
class Plan:
    """What EXPLAIN must show for a test's statement."""

    index: str | None  # "PRIMARY", "k" (index k_<table number>), or None for a full scan
    covered: bool | None = None  # Extra has "Using index" (True) / must not (False) / either
    access: str | None = None  # EXPLAIN type, when it matters


_PK, _SI = "PRIMARY", "k"
# InnoDB's primary key is the clustered index, so every read through it is covering; MariaDB
# 10.11 prints "Using index" for the covered PK tests and 11.4 does not, hence covered=None there.
PLANS: dict[str, Plan] = {
    "random_points": Plan(_PK),
    "hot_points": Plan(_PK),
    "points_covered_pk": Plan(_PK),
    "points_notcovered_pk": Plan(_PK, covered=False),
    "points_covered_si": Plan(_SI, covered=True),
    "points_notcovered_si": Plan(_SI, covered=False),
    "range_covered_pk": Plan(_PK, access="range"),
    "range_notcovered_pk": Plan(_PK, covered=False, access="range"),
    "range_covered_si": Plan(_SI, covered=True, access="range"),
    "range_notcovered_si": Plan(_SI, covered=False, access="range"),
    "scan": Plan(None, access="ALL"),
    "read_only_count": Plan(_PK, access="range"),
    "update_inlist": Plan(_PK),
}
TESTS: dict[str, Path] = {name: LUA_DIR / f"{name}.lua" for name in PLANS}


def is_project_test(name: str) -> bool:
    return name in TESTS


def script(name: str) -> Path:
    """The script sysbench runs for a project test (absolute path)."""
    try:
        return TESTS[name]
    except KeyError:
        known = ", ".join(TESTS)
        raise ValueError(f"unknown project Lua test {name!r} (known: {known})") from None


def sysbench_env() -> dict[str, str]:
    """Extra environment sysbench needs for these scripts: none, each script puts its own
    directory on package.path before it requires the shared module."""
    return {}


def explain_rows(explain_output: str) -> list[dict[str, object]]:
    """The JSON objects of an `explain` output; other lines (sysbench's banner) are skipped."""
    return [json.loads(line) for line in explain_output.splitlines() if line.startswith("{")]


def _row_problem(plan: Plan, row: dict[str, object]) -> str | None:
    expected_key = f"k_{row['table_number']}" if plan.index == _SI else plan.index
    extra = [part.strip() for part in str(row.get("Extra") or "").split(";")]
    wrong = []
    if row.get("key") != expected_key:
        wrong.append(f"key {expected_key or 'none (full scan)'}")
    if plan.access is not None and row.get("type") != plan.access:
        wrong.append(f"type {plan.access}")
    if plan.covered is not None and ("Using index" in extra) != plan.covered:
        wrong.append("Extra with 'Using index'" if plan.covered else "no 'Using index' in Extra")
    if not wrong:
        return None
    return (
        f"{row['statement']}: got type {row.get('type')}, key {row.get('key')}, "
        f"possible_keys {row.get('possible_keys')}, Extra {row.get('Extra')!r}; "
        f"expected {', '.join(wrong)}"
    )


def plan_problems(test_name: str, explain_output: str) -> list[str]:
    """One line per statement whose plan is not the intended one; empty when all are."""
    plan = PLANS[script(test_name).stem]
    # MariaDB turns an IN list of in_predicate_conversion_threshold (1000) values or more into
    # a join with a derived table of those values; only the sbtest rows carry the plan.
    rows = [row for row in explain_rows(explain_output) if SBTEST.fullmatch(str(row["table"]))]
    if not rows:
        return [f"{test_name}: no EXPLAIN rows in the explain output"]
    problems = (_row_problem(plan, row) for row in rows)
    return [f"{test_name}: {problem}" for problem in problems if problem is not None]
