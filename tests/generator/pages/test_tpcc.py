"""The campaign's TPC-C-like report (generator/pages/tpcc.py) on hand-made runs: every number it
should produce is set here."""

from __future__ import annotations

from generator.pages.tpcc import tpcc_report

CAMPAIGN = "tpcc-probe-20260101-000000"


def _check(failed: list[str]) -> dict:
    return {"passed": not failed, "failed": failed, "skipped": [], "conditions": {}}


def _run(workload: str, sets: int, scale: int, tps: dict[int, float], **extra) -> dict:
    """One tpcc run; tpmC-like is ten times the TPS so medians are easy to check."""
    repeat = extra.get("repeat", 1)
    return {
        "id": f"{CAMPAIGN}.base.{workload}.p{repeat}",
        "campaign": {"id": CAMPAIGN},
        "variant": extra.get("variant", "base"),
        "status": "complete",
        "started_at": f"2026-01-01T00:0{repeat}:{extra.get('second', 0):02d}Z",
        "repeat": {"index": repeat, "of": 2},
        "workload": {
            "tool": "sysbench",
            "name": workload,
            "tpcc": {
                "table_sets": sets,
                "scale": scale,
                "warehouses": sets * scale,
                "mode": "compat",
                "use_fk": True,
                "trx_level": "RR",
                "items_rule": True,
                "check_after_load": _check([]),
                "check_after_run": _check(extra.get("failed", [])),
            },
        },
        "steps": [
            {
                "threads": threads,
                "tps": value,
                "latency_ms": {"p95": 10.0},
                "tpcc": {"tpmc_like": {"value": value * 10}},
            }
            for threads, value in tps.items()
        ],
    }


def test_one_line_per_shape_with_ratios_and_checks():
    runs = [
        _run("one-set", 1, 4, {1: 100, 2: 180}, repeat=1),
        _run("four-sets", 4, 1, {1: 90, 2: 200}, repeat=1, second=30),
        _run("one-set", 1, 4, {1: 110, 2: 200}, repeat=2),
        _run("four-sets", 4, 1, {1: 80, 2: 220}, repeat=2, second=30, failed=["3", "10"]),
        {"campaign": {"id": CAMPAIGN}, "variant": "base", "workload": {"name": "oltp"}},
    ]
    report = tpcc_report(runs)
    assert [line["name"] for line in report["lines"]] == ["one-set", "four-sets"]
    assert report["base"] == "one-set" and not report["all_checks_passed"]
    one, four = report["lines"]
    assert one["shape"] == "1 set \N{MULTIPLICATION SIGN} 4 warehouses (4 in all)"
    assert four["shape"] == "4 sets \N{MULTIPLICATION SIGN} 1 warehouse (4 in all)"
    assert one["checks"] == {"ran": 4, "passed": True, "failed": []}
    assert four["checks"] == {"ran": 4, "passed": False, "failed": ["3", "10"]}
    assert four["tpmc_like"] == [{"threads": 1, "median": 850.0}, {"threads": 2, "median": 2100.0}]
    rows = report["metrics"]["tps"]["rows"]
    # medians: one-set 105 / 190, four-sets 85 / 210
    assert [cell["ratio"] for cell in rows[0]["cells"]] == [1.0, 0.81]
    assert [cell["ratio"] for cell in rows[1]["cells"]] == [1.0, 1.11]
    # +11 % at 2 threads, but two repeats that disagree by 10 %: within the noise
    assert [cell["verdict"] for cell in rows[1]["cells"]] == ["same", "noise"]
    assert rows[1]["cells"][1]["interval"]["method"] == "repeats"
    assert [cell["variant"] for cell in report["cells"]] == ["one-set", "four-sets"]


def test_lines_name_their_variant_when_several_and_no_tpcc_means_no_report():
    runs = [
        _run("w", 1, 1, {1: 10}, variant="a"),
        _run("w", 1, 1, {1: 10}, variant="b", second=5),
    ]
    assert [line["name"] for line in tpcc_report(runs)["lines"]] == ["a · w", "b · w"]
    assert tpcc_report([{"campaign": {"id": CAMPAIGN}, "workload": {"name": "x"}}]) is None
