"""Which runs shared a server start: the workloads of one variant and pass on one restored copy
share it, in the order they ran; a pass measured again later restored its own copy."""

from __future__ import annotations

from generator.analysis.server_starts import server_starts


def _run(run_id: str, started_at: str, restore_seconds: float) -> dict:
    return {
        "id": run_id,
        "campaign": {"id": "c"},
        "variant": "base",
        "repeat": {"index": 1, "of": 1},
        "started_at": started_at,
        "workload": {
            "data_origin": {
                "method": "restored",
                "pristine_key": "sysbench oltp 4x1000",
                "restore_seconds": restore_seconds,
            }
        },
    }


def test_the_workloads_of_one_restore_share_a_start_in_the_order_they_ran():
    second = _run("c.base.b.p1", "2026-01-01T00:10:00Z", 0.5)
    first = _run("c.base.a.p1", "2026-01-01T00:00:00Z", 0.5)
    starts = server_starts([second, first])
    assert starts["c.base.b.p1"] == {"position": 2, "runs": ["c.base.a.p1", "c.base.b.p1"]}


def test_a_pass_measured_again_on_its_own_has_a_start_of_its_own():
    kept = _run("c.base.b.p1", "2026-01-01T00:10:00Z", 0.5)
    again = _run("c.base.a.p1", "2026-01-01T02:00:00Z", 0.7)
    starts = server_starts([kept, again])
    assert starts["c.base.a.p1"] == {"position": 1, "runs": ["c.base.a.p1"]}
    assert starts["c.base.b.p1"] == {"position": 1, "runs": ["c.base.b.p1"]}
