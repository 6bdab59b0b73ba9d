"""The worker processes: one per role per client (inserter, deleter, querier).

Each connects (outside the measured time), sends a "ready" message, waits at the start
barrier, then works until its plan is done or the stop event is set. It then sends one message
on the results queue: its counters, its own CPU time over the measured period (the process CPU
clock) and when it ended. The inserter also makes the statements: it builds the rows, commits
one multi-row INSERT per batch in autocommit and hands the matching DELETE of the oldest rows to
its deleter through a bounded queue, so deletes lag inserts by at most `queue_depth` batches.
It makes each batch while the server inserts the one before (overlap.py), so the server does not
wait for the rows to be made; an insert's response time runs from its send to its reply, and
includes the making of the next batch only where that took longer than the insert.
SIGINT is ignored here: the parent owns Ctrl-C and stops the workers through the stop event.
"""

from __future__ import annotations

import queue
import signal
import threading
import time
import traceback
from collections.abc import Callable, MutableSequence
from dataclasses import dataclass
from functools import partial
from multiprocessing import queues, synchronize
from typing import Any, Required, TypedDict

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

from harness.model.ibench_params import IbenchParams, StepPlan
from harness.workloads.ibench import rows, sql
from harness.workloads.ibench.metrics import Role
from harness.workloads.ibench.overlap import overlapped
from harness.workloads.ibench.ratelimit import RateLimiter
from harness.workloads.ibench.worker_counters import Counters, CountersJson

INSERTER: Role = "insert"
DELETER: Role = "delete"
QUERIER: Role = "query"
RETRY_CODES = {1205, 1213}  # lock wait timeout, deadlock: the statement is run again
POINT_RESYNC = 100  # point queries re-read min/max(transactionid) this often
QUEUE_POLL_S = 0.2


@dataclass(frozen=True)
class WorkerSpec:
    role: Role
    client: int  # 1-based
    slot: int  # index into the parent's process list and thread-id array
    table: str
    seed: int
    connect_args: dict[str, Any]
    params: IbenchParams
    plan: StepPlan
    create_indexes: bool = False  # l.x: this client's table gets the secondary indexes


class Outcome(TypedDict, total=False):
    """What a worker's work says beside its counters."""

    index_seconds: float  # l.x: how long its ALTER took
    stopped: bool  # it saw the stop event before its work was done


class Message(Outcome, total=False):
    """What a worker puts on the results queue: that it is ready, then how its work went."""

    slot: Required[int]
    ready: bool
    role: Role
    client: int
    aborted: bool  # the start barrier broke: it never worked
    counters: CountersJson
    cpu_s: float
    started: float
    ended: float
    error: str  # what it raised, with the traceback


# A delete request: the oldest transactionid and how many rows from there; None ends them.
DeleteRequest = tuple[int, int] | None
# A role's work: counts into Counters from the start (monotonic) until it is done.
Work = Callable[[Counters, float], Outcome | None]


class _Stopped(Exception):
    pass


def connect(connect_args: dict[str, Any], database: str | None) -> pymysql.Connection:
    return pymysql.connect(**{**connect_args, "database": database, "autocommit": True})


def main(
    spec: WorkerSpec,
    barrier: synchronize.Barrier,
    stop: synchronize.Event,
    deletes: queues.Queue[DeleteRequest],
    results: queues.Queue[Message],
    thread_ids: MutableSequence[int],
) -> None:
    """Process entry point (spawn/forkserver: everything arrives pickled)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    message: Message = {"slot": spec.slot, "role": spec.role, "client": spec.client}
    try:
        with connect(spec.connect_args, spec.params.database) as conn:
            thread_ids[spec.slot] = conn.thread_id()
            work = _ROLES[spec.role](spec, conn, stop, deletes)
            results.put({"slot": spec.slot, "ready": True})
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                message["aborted"] = True
                results.put(message)
                return
            # The process's own CPU clock (nanoseconds): /proc's 10 ms ticks read 0 for a
            # worker whose step lasts a few tens of milliseconds.
            t0, cpu0 = time.monotonic(), time.process_time()
            counters = Counters()
            try:
                extra = work(counters, t0) or {}
            except _Stopped:
                extra = {"stopped": True}
            message = {
                **message,
                "counters": counters.to_json(),
                "cpu_s": time.process_time() - cpu0,
                "started": t0,
                "ended": time.monotonic(),
                **extra,
            }
    except BaseException as exc:  # noqa: BLE001 - reported to the parent, which raises
        barrier.abort()
        message["error"] = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=4)}"
    results.put(message)


def _execute(
    cursor: pymysql.cursors.Cursor, statement: str, counters: Counters, stop: synchronize.Event
) -> None:
    """Run one statement, again after a deadlock or lock wait timeout (counted as a retry)."""
    while True:
        try:
            cursor.execute(statement)
            return
        except pymysql.err.OperationalError as exc:
            if not _retryable(exc, stop):
                raise
            counters.retries += 1


def _retryable(error: pymysql.err.OperationalError, stop: synchronize.Event) -> bool:
    return error.args[0] in RETRY_CODES and not stop.is_set()


def _min_id(cursor: pymysql.cursors.Cursor, table: str) -> int:
    cursor.execute(sql.min_max(table))
    low, _ = cursor.fetchone()
    return 0 if low is None else int(low)


@dataclass(frozen=True)
class Batch:
    """One multi-row INSERT, ready to send, and the dateandtime its rows carry."""

    count: int
    stamp: str
    statement: bytes

    def restamped(self) -> Batch:
        """The same rows dated now: a batch made before a rate-limit sleep is sent after it.
        The stamp cannot occur elsewhere in the statement (no data character is '-' or ':')."""
        fresh = rows.stamp()
        if fresh == self.stamp:
            return self
        return Batch(
            self.count, fresh, self.statement.replace(self.stamp.encode(), fresh.encode())
        )


def _inserter(
    spec: WorkerSpec,
    conn: pymysql.connections.Connection,
    stop: synchronize.Event,
    deletes: queues.Queue[DeleteRequest],
) -> Work:
    params, plan = spec.params, spec.plan
    generator = rows.RowGenerator(
        spec.seed, params.data_length_min, params.data_length_max, params.data_random_pct
    )
    cursor = conn.cursor()
    min_id = _min_id(cursor, spec.table) if plan.deletes else 0

    def make(count: int) -> Batch | None:
        if count <= 0:
            return None
        stamp = rows.stamp()
        statement = sql.insert(spec.table, generator.values(count, stamp))
        return Batch(count, stamp, statement.encode("ascii"))

    retry = partial(_retryable, stop=stop)

    def work(counters: Counters, t0: float) -> Outcome:
        nonlocal min_id
        limiter = RateLimiter(plan.rate_per_client, plan.rows_per_commit, sleep=stop.wait)
        limiter.restart()
        deadline = t0 + plan.seconds if plan.seconds else None
        remaining, rounds = plan.rows_per_client, 0
        batch = make(min(limiter.batch, remaining))
        while batch is not None and not stop.is_set():
            if deadline is not None and time.monotonic() >= deadline:
                break
            remaining -= batch.count
            next_count = min(limiter.batch, remaining)
            began = time.monotonic()
            # the next batch is made while the server inserts this one (overlap.py)
            upcoming, again = overlapped(conn, batch.statement, partial(make, next_count), retry)
            ended = time.monotonic()
            counters.retries += again
            counters.record(began - t0, batch.count, (ended - began) * 1e6)
            if plan.deletes:
                rounds += 1
                if rounds % params.resync_get_min == 0:
                    min_id = _min_id(cursor, spec.table)
                _put(deletes, (min_id, batch.count), stop)
                min_id += batch.count
            if limiter.after_batch() and upcoming is not None:
                upcoming = upcoming.restamped()
            batch = upcoming
        extra: Outcome = {}
        if spec.create_indexes and not stop.is_set():
            began = time.monotonic()
            cursor.execute(sql.add_indexes(spec.table))
            extra["index_seconds"] = time.monotonic() - began
        if plan.deletes:
            if stop.is_set():
                deletes.cancel_join_thread()  # never block exit on a queue nobody reads
            else:
                _put(deletes, None, stop)
        return extra

    return work


def _put(
    deletes: queues.Queue[DeleteRequest], item: DeleteRequest, stop: synchronize.Event
) -> None:
    while True:
        try:
            deletes.put(item, timeout=QUEUE_POLL_S)
            return
        except queue.Full:
            if stop.is_set():
                deletes.cancel_join_thread()
                raise _Stopped() from None


def _deleter(
    spec: WorkerSpec,
    conn: pymysql.connections.Connection,
    stop: synchronize.Event,
    deletes: queues.Queue[DeleteRequest],
) -> Work:
    cursor = conn.cursor()

    def work(counters: Counters, t0: float) -> None:
        while True:
            try:
                item = deletes.get(timeout=QUEUE_POLL_S)
            except queue.Empty:
                if stop.is_set():
                    raise _Stopped() from None
                continue
            if item is None:
                return
            if stop.is_set():
                raise _Stopped()
            min_id, count = item
            began = time.monotonic()
            _execute(cursor, sql.delete_oldest(spec.table, min_id, count), counters, stop)
            ended = time.monotonic()
            counters.record(began - t0, cursor.rowcount, (ended - began) * 1e6)

    return work


def _querier(
    spec: WorkerSpec,
    conn: pymysql.connections.Connection,
    stop: synchronize.Event,
    deletes: queues.Queue[DeleteRequest],
) -> Work:
    params, plan = spec.params, spec.plan
    generator = rows.RowGenerator(spec.seed + 1_000_003, buffer_bytes=3)  # only its rng is used
    rng = generator.rng
    cursor = conn.cursor()
    point = plan.query_mode == "point"
    limit = params.rows_per_query

    def work(counters: Counters, t0: float) -> None:
        low = high = 0
        done = 0
        while not stop.is_set():
            if point:
                if done % POINT_RESYNC == 0:
                    cursor.execute(sql.min_max(spec.table))
                    low, high = (int(v or 0) for v in cursor.fetchone())
                statement = sql.point_query(spec.table, rng, low, high, limit)
            else:
                statement = sql.range_query(spec.table, rng, limit, params.force_index)
            began = time.monotonic()
            _execute(cursor, statement, counters, stop)
            fetched = len(cursor.fetchall())
            ended = time.monotonic()
            counters.record(began - t0, 1, (ended - began) * 1e6, fetched)
            done += 1

    return work


_ROLES: dict[Role, Callable[..., Work]] = {
    INSERTER: _inserter,
    DELETER: _deleter,
    QUERIER: _querier,
}
