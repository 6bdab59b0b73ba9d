"""The top waits of a step (generator/analysis/waits.py) from a status delta as MariaDB 10.11
reports one after a contended oltp_read_write step, and from sampled INNODB_METRICS."""

from __future__ import annotations

from generator.analysis.waits import top_waits

# SHOW GLOBAL STATUS counters that moved over a 10 s step of 8,000 transactions, wait-related
# ones and a few others as the harness records them; the gauges among them (pending fsyncs,
# the row lock time's average and maximum) are no waits.
STATUS_DELTA = {
    "Com_commit": 8000,
    "Questions": 160000,
    "Innodb_data_fsyncs": 2452,
    "Innodb_data_pending_fsyncs": 1,
    "Innodb_row_lock_waits": 40,
    "Innodb_row_lock_time": 600,  # ms
    "Innodb_row_lock_time_avg": 15,
    "Innodb_row_lock_time_max": 120,
    "Innodb_log_waits": 200,
    "Innodb_deadlocks": 2,
    "Table_locks_waited": 5,
    "Uptime": 10,
}


def step(**fields) -> dict:
    return {"threads": 32, "events": 8000, "duration_s": 10.0,
            "server_status_delta": STATUS_DELTA, **fields}  # fmt: skip


def test_failures_then_timed_waits_then_counts_and_no_gauges():
    waits = top_waits(step())
    assert [w.name for w in waits] == [
        "Innodb_deadlocks",  # a failure outranks everything
        "Innodb_row_lock_waits",  # the only one with a time
        "Innodb_log_waits",  # 20 per second
        "Table_locks_waited",  # 0.5 per second
    ]
    row_locks = waits[1]
    assert row_locks.per_s == 4.0 and row_locks.per_op == 40 / 8000
    assert row_locks.avg_ms == 15.0  # 600 ms over 40 waits
    assert waits[2].avg_ms is None and waits[2].per_s == 20.0
    assert all(w.source == "status" for w in waits)


def test_sampled_innodb_metrics_add_the_waits_status_lacks():
    monitor = {
        "interval_s": 1.0,
        "series": {
            "t": [1.0, 2.0, 3.0],
            "innodb_metrics.buffer_flush_sync_waits": [3.0, 0.0, 1.0],  # per second
            "innodb_metrics.lock_timeouts": [7.0, 8.0, 10.0],  # a running total, as read
            "innodb_metrics.lock_rec_lock_waits": [5.0, 5.0, 5.0],  # kind not recorded
        },
        "kinds": {
            "innodb_metrics.buffer_flush_sync_waits": "counter",
            "innodb_metrics.lock_timeouts": "value",
        },
    }
    waits = {w.name: w for w in top_waits(step(monitor=monitor))}
    assert waits["buffer_flush_sync_waits"].count == 4.0
    assert waits["lock_timeouts"].count == 3.0 and waits["lock_timeouts"].failure
    assert "lock_rec_lock_waits" not in waits  # a kind is never guessed
    assert waits["buffer_flush_sync_waits"].source == "innodb_metrics"


def test_a_step_where_nothing_waited_has_no_waits():
    quiet = step(server_status_delta={"Com_commit": 8000, "Innodb_data_pending_fsyncs": 1})
    assert top_waits(quiet) == []
    assert top_waits({"step": "l.x", "duration_s": 1.4}) == []
