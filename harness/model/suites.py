"""The reference posts' workload sets, by name: Dimitri Kravtchuk's sysbench set and Mark
Callaghan's microbenchmarks in their fixed run order (the guide's workloads page lists both).

A campaign names a preset (`preset = "callaghan"`, `preset = "dimitri.oltp_rw"`) and may
override data size and sweep; everything else is as the references run it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.errors import UserError

GROUPS = ("point", "range", "range-aggregation", "write")


@dataclass(frozen=True)
class SuiteTest:
    suite: str
    test: str  # the author's name, as in his posts
    group: str  # one of GROUPS
    script: str  # stock sysbench test, or a project Lua test (harness/workloads/sysbench/project_lua.py)
    options: dict[str, str] = field(default_factory=dict)
    seconds: int = 300  # the reference's step length
    run_table_size: int | None = None  # ids drawn from [1, n] at run time only (update-one)
    post_write: bool = False  # after it: ANALYZE, flush dirty pages (Callaghan's "postwrite")

    @property
    def label(self) -> str:
        """A workload label (slug): random-points_range=100 -> random-points-r100."""
        return re.sub(r"[^a-z0-9]+", "-", self.test.replace("_range=", "-r").lower()).strip("-")


@dataclass(frozen=True)
class SuiteDefaults:
    tables: int
    table_size: int
    threads: tuple[int, ...]
    sleep_seconds: float


DEFAULTS = {
    # 8 x 10M rows in memory, 1 -> 1024 users, 300 s per level; sleep between levels is 15 s in
    # his HOWTO loop and 60 s in the brief: 60 as the default.
    "dimitri": SuiteDefaults(8, 10_000_000, (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024), 60),
    # Recent posts: 1 table x 50M rows, 1 thread; read tests 630 s, write tests 930 s.
    "callaghan": SuiteDefaults(1, 50_000_000, (1,), 0),
}

_RO = "oltp_read_only"
_NO_TRX = {"skip-trx": "on"}
_ONLY_DISTINCT = {
    "point-selects": "0", "simple-ranges": "0", "sum-ranges": "0", "order-ranges": "0",
    "distinct-ranges": "1", "range-size": "10",
}  # fmt: skip

DIMITRI = [
    SuiteTest("dimitri", "RO Point-Selects", "point", "oltp_point_select", _NO_TRX),
    SuiteTest("dimitri", "OLTP_RO", "range-aggregation", _RO, _NO_TRX),
    SuiteTest(
        "dimitri", "RO Distinct-Ranges", "range-aggregation", _RO, {**_ONLY_DISTINCT, **_NO_TRX}
    ),
    SuiteTest("dimitri", "OLTP_RW", "write", "oltp_read_write", {"skip-trx": "off"}),
    SuiteTest("dimitri", "Update-NoKey", "write", "oltp_update_non_index"),
    SuiteTest("dimitri", "Update-Index", "write", "oltp_update_index"),
]
DIMITRI_NAMES = {
    "dimitri.point_selects": "RO Point-Selects",
    "dimitri.oltp_ro": "OLTP_RO",
    "dimitri.distinct_ranges": "RO Distinct-Ranges",
    "dimitri.oltp_rw": "OLTP_RW",
    "dimitri.update_nokey": "Update-NoKey",
    "dimitri.update_index": "Update-Index",
}

READ_S, WRITE_S = 630, 930


def _read(test: str, group: str, script: str, range_size: int, **options: str) -> SuiteTest:
    opts = {"range-size": str(range_size), "skip-trx": "on", **options}
    return SuiteTest("callaghan", f"{test}_range={range_size}", group, script, opts, READ_S)


def _points(test: str, script: str, points: int) -> SuiteTest:
    opts = {"random-points": str(points), "range-size": str(points)}
    return SuiteTest("callaghan", f"{test}_range={points}", "point", script, opts, READ_S)


def _only_range(kind: str) -> SuiteTest:
    """read-only with one range type at 1 and the others at 0 (point selects stay 10)."""
    zeros = {f"{other}-ranges": "0" for other in ("simple", "sum", "order", "distinct")}
    options = {**zeros, f"{kind}-ranges": "1", "skip-trx": "off"}
    return _read(f"read-only-{kind}", "range-aggregation", _RO, 1000, **options)


def _write(
    test: str,
    script: str,
    range_size: int = 100,
    run_table_size: int | None = None,
    post_write: bool = False,
) -> SuiteTest:
    opts = {"range-size": str(range_size)}
    name = f"{test}_range={range_size}"
    return SuiteTest("callaghan", name, "write", script, opts, WRITE_S, run_table_size, post_write)


# all_small.sh's order: a few reads before any write (".pre"), the writes, the post-write
# step, the reads again, delete and insert last because they change the table's size.
CALLAGHAN = [
    _read("point-query.pre", "point", "oltp_point_select", 100),
    _read("range-notcovered-si.pre", "range", "range_notcovered_si", 100),
    _write("update-inlist", "update_inlist"),
    _write("update-index", "oltp_update_index"),
    _write("update-nonindex", "oltp_update_non_index"),
    _write("update-one", "oltp_update_non_index", run_table_size=1),
    _write("write-only", "oltp_write_only", 10000),
    _write("read-write", "oltp_read_write", 10),
    _write("read-write", "oltp_read_write", 100, post_write=True),
    _read("scan", "range", "scan", 100),
    _read("read-only", "range-aggregation", _RO, 10, **{"skip-trx": "off"}),
    _read("read-only", "range-aggregation", _RO, 100, **{"skip-trx": "off"}),
    _read("read-only", "range-aggregation", _RO, 10000, **{"skip-trx": "off"}),
    _only_range("simple"),
    _only_range("sum"),
    _only_range("order"),
    _only_range("distinct"),
    _read("read-only-count", "range-aggregation", "read_only_count", 1000),
    _read("point-query", "point", "oltp_point_select", 100),
    _points("random-points", "random_points", 10),
    _points("random-points", "random_points", 100),
    _points("random-points", "random_points", 1000),
    _points("hot-points", "hot_points", 100),
    _points("points-covered-pk", "points_covered_pk", 100),
    _points("points-notcovered-pk", "points_notcovered_pk", 100),
    _read("range-covered-pk", "range", "range_covered_pk", 100),
    _read("range-notcovered-pk", "range", "range_notcovered_pk", 100),
    _points("points-covered-si", "points_covered_si", 100),
    _points("points-notcovered-si", "points_notcovered_si", 100),
    _read("range-covered-si", "range", "range_covered_si", 100),
    _read("range-notcovered-si", "range", "range_notcovered_si", 100),
    _write("delete", "oltp_delete"),
    _write("insert", "oltp_insert"),
]
# Not reproducible with sysbench 1.0.20: update-zipf (no zipfian distribution). The ".warm"
# runs of the reference are the harness's unmeasured warm-up ([sweep] warmup_seconds).

PRESETS = {"dimitri": DIMITRI, "callaghan": CALLAGHAN} | {
    name: [test for test in DIMITRI if test.test == title] for name, title in DIMITRI_NAMES.items()
}


def preset_tests(name: str) -> list[SuiteTest]:
    try:
        return PRESETS[name]
    except KeyError:
        known = ", ".join(sorted(PRESETS))
        raise UserError(f"unknown preset {name!r} (known: {known})") from None


def position(test: SuiteTest) -> int:
    """1-based place in its suite's run order."""
    return (DIMITRI if test.suite == "dimitri" else CALLAGHAN).index(test) + 1
