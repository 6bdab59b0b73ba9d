"""What the server waited on during a step, from the counters it keeps whatever is enabled: the
SHOW GLOBAL STATUS counters that moved (step.server_status_delta) and, where the campaign
sampled them, INNODB_METRICS wait counters (monitor series under contract.INNODB_METRICS_PREFIX).
These are counts, and for some a total time; they are not performance_schema wait events, which
cost CPU to collect and are off in most runs.

The names are MariaDB's and MySQL's, checked on MariaDB 10.11 and 11.4 (SHOW GLOBAL STATUS,
information_schema.INNODB_METRICS). Gauges are left out, since the delta of a value read at two
instants counts nothing: Innodb_data_pending_fsyncs, _reads and _writes,
Innodb_row_lock_current_waits, Innodb_row_lock_time_avg and _max,
Rpl_semi_sync_master_wait_sessions. INNODB_METRICS that repeat a status counter
(lock_row_lock_waits, lock_row_lock_time, log_waits, buffer_pool_wait_free, lock_deadlocks) are
read from the status delta, which every step has.

The order of a step's waits (top_waits), most important first:
1. failures, by count per second: waits that ended in an error (a deadlock rolls a transaction
   back, a lock wait timeout fails a statement);
2. waits with a time, by time waited per second (thread-seconds spent waiting each second);
3. waits with a count only, by count per second.
A time says what a wait cost and a count does not, so a counted wait never outranks a timed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import contract
from contract import Monitor, RecordedStep
from generator.analysis.operations import operation_count

Source = Literal["status", "innodb_metrics"]


@dataclass(frozen=True)
class WaitCounter:
    name: str  # as the server names it
    label: str  # what one count is
    time_name: str | None = None  # the counter of the total time those waits took
    ms_per_time_unit: float = 1.0
    failure: bool = False


STATUS_WAITS = (
    WaitCounter("Innodb_deadlocks", "deadlocks (a transaction rolled back)", failure=True),
    WaitCounter("Innodb_row_lock_waits", "row lock waits", "Innodb_row_lock_time"),
    WaitCounter("Innodb_log_waits", "waits for room in the redo log buffer"),
    WaitCounter("Innodb_buffer_pool_wait_free", "waits for a free buffer pool page"),
    WaitCounter("Table_locks_waited", "table lock waits"),
    WaitCounter("Tc_log_page_waits", "waits for a page of the transaction coordinator log"),
    WaitCounter(
        "Rpl_semi_sync_master_tx_waits",
        "commits waiting for a semi-sync replica",
        "Rpl_semi_sync_master_tx_wait_time",
        ms_per_time_unit=0.001,  # microseconds
    ),
    WaitCounter(
        "Rpl_semi_sync_master_net_waits",
        "waits for a semi-sync replica's reply",
        "Rpl_semi_sync_master_net_wait_time",
        ms_per_time_unit=0.001,
    ),
)
METRIC_WAITS = (
    WaitCounter("lock_timeouts", "lock wait timeouts (a statement failed)", failure=True),
    WaitCounter("lock_rec_lock_waits", "record lock waits"),
    WaitCounter("lock_table_lock_waits", "InnoDB table lock waits"),
    WaitCounter("buffer_flush_sync_waits", "waits for a synchronous flush"),
)


@dataclass(frozen=True)
class Wait:
    name: str
    label: str
    source: Source
    count: float
    per_s: float
    per_op: float | None  # None: the step names no operation count
    avg_ms: float | None  # None: the server keeps no time for these waits
    failure: bool

    @property
    def ms_per_s(self) -> float | None:
        return None if self.avg_ms is None else self.avg_ms * self.per_s

    def rank(self) -> tuple[int, float]:
        """The sort key of the rule in the module's docstring (ascending)."""
        if self.failure:
            return 0, -self.per_s
        if self.ms_per_s is not None:
            return 1, -self.ms_per_s
        return 2, -self.per_s


def _metric_total(monitor: Monitor | None, name: str) -> float | None:
    """A sampled INNODB_METRICS counter's total over the step: its per-second rates times the
    interval; for a running total recorded as a value (MariaDB's lock_timeouts), its last sample
    less its first. None when not sampled, or sampled without its kind (never guessed)."""
    if monitor is None:
        return None
    key = f"{contract.INNODB_METRICS_PREFIX}{name}"
    series = monitor["series"].get(key)
    kind = monitor.get("kinds", {}).get(key)
    if not series or kind is None:
        return None
    if kind == "counter":
        return float(sum(series)) * float(monitor["interval_s"])
    return float(series[-1] - series[0])


def _wait(
    counter: WaitCounter,
    source: Source,
    count: float,
    time: float | None,
    seconds: float,
    operations: int | None,
) -> Wait:
    avg_ms = None
    if counter.time_name is not None:
        avg_ms = (time or 0.0) * counter.ms_per_time_unit / count
    return Wait(
        name=counter.name,
        label=counter.label,
        source=source,
        count=count,
        per_s=count / seconds,
        per_op=None if operations is None else count / operations,
        avg_ms=avg_ms,
        failure=counter.failure,
    )


def top_waits(step: RecordedStep) -> list[Wait]:
    """The step's waits that moved, most important first (the module's rule); empty for a step
    with none, or without status counters or a duration."""
    delta = step.get("server_status_delta") or {}
    seconds = step.get("duration_s")
    if not seconds:
        return []
    operations = operation_count(step)
    waits = [
        _wait(
            counter,
            "status",
            delta[counter.name],
            delta.get(counter.time_name) if counter.time_name else None,
            seconds,
            operations,
        )
        for counter in STATUS_WAITS
        if delta.get(counter.name, 0) > 0
    ]
    monitor = step.get("monitor")
    for counter in METRIC_WAITS:
        total = _metric_total(monitor, counter.name)
        if total is not None and total > 0:
            waits.append(_wait(counter, "innodb_metrics", total, None, seconds, operations))
    return sorted(waits, key=Wait.rank)
