"""The orchestrator: runs the steps in order, one set of worker processes per step, and turns
each step into one JSON-ready dict.

Ctrl-C (KeyboardInterrupt in this process) sets the stop event, waits a few seconds for the
workers to finish their statement, kills the server-side statements of any that do not (a
long ALTER), terminates what is left, and raises IbenchInterrupted carrying the steps already
completed; the interrupted step is dropped.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import threading
import time
from collections.abc import Callable, Iterable, MutableSequence
from contextlib import AbstractContextManager
from multiprocessing import queues, synchronize
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from typing import Any, Literal, cast

import psutil  # type: ignore[import-untyped]  # psutil ships no type hints
import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.measure.around_step import StepMeasures
from harness.model.ibench_params import (
    FLUSH,
    INDEX,
    LOAD,
    QUERY,
    WRITE,
    IbenchParams,
    StepPlan,
    plan,
)
from harness.workloads.ibench import flush as flush_mod
from harness.workloads.ibench import metrics, sql, workers
from harness.workloads.ibench.metrics import Role
from harness.workloads.ibench.worker_counters import Counters, merge

StartMethod = Literal["forkserver", "spawn", "fork"]
StartContext = ForkServerContext | SpawnContext | ForkContext
START_METHOD: StartMethod = "forkserver"  # fast starts, no inherited state; spawn works too
BARRIER_TIMEOUT_S = 120
GRACE_S = 5.0  # how long stopped workers get to finish their statement

StepHook = Callable[[str], AbstractContextManager[StepMeasures | None]]
# A step's kind and query mode as the run document's enums name them. StepPlan holds them as
# str (plan() gives only these values): the casts below go once the campaign model types them.
StepKind = Literal["load", "index", "write", "flush", "query"]
QueryMode = Literal["range", "point"]


class IbenchError(Exception):
    """A worker failed (its message and traceback are in the text) or the setup is wrong."""


class IbenchInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run: `steps` holds the completed steps; every worker has exited."""

    def __init__(self, steps: list[contract.IbenchStep]):
        super().__init__(f"interrupted after {len(steps)} completed ibench steps")
        self.steps = steps


def run_steps(
    connect_args: dict[str, Any],
    params: IbenchParams,
    steps: Iterable[str],
    on_step: Callable[[contract.IbenchStep], None] | None = None,
    around_step: StepHook | None = None,
    start_method: StartMethod = START_METHOD,
) -> list[contract.IbenchStep]:
    """Run `steps` (names from params.DEFAULT_STEPS or qr<N>/qp<N>) and return one dict per step.

    connect_args: keyword arguments of pymysql.connect (unix_socket or host/port, user,
      password ...), picklable, used by this process and by every worker; no database.
    on_step(step): called with each step's dict as soon as it is complete (the runner appends
      it to the run document, so an interrupted run keeps it).
    around_step(name): a context manager entered just before the workers are released and
      left once they stopped; the dict it yields (if any) is merged into the step's dict when
      it exits, so the runner's sampler can add "monitor", "os", "per_op" there.
    The first step must be l.i0 (it creates the database and the tables) unless they exist.
    """
    names = list(steps)
    plans = [plan(name, params) for name in names]  # unknown names fail before anything runs
    seed = params.seed if params.seed is not None else int(time.time())
    context = _context(start_method)
    if start_method == "forkserver":
        context.set_forkserver_preload(["harness.workloads.ibench.workers"])
    done: list[contract.IbenchStep] = []
    try:
        previous_rows: int | None = None
        previous_by_table: dict[str, int] = {}
        for position, step_plan in enumerate(plans):
            step = _one_step(
                context, connect_args, params, step_plan, seed + 1000 * position,
                around_step, previous_rows, previous_by_table,
            )  # fmt: skip
            previous_rows = step.get("rows", previous_rows)
            previous_by_table = step.get("rows_by_table", previous_by_table)
            done.append(step)
            if on_step:
                on_step(step)
    except KeyboardInterrupt as exc:
        raise IbenchInterrupted(done) from exc
    return done


def _context(start_method: StartMethod) -> StartContext:
    """The start method's context, typed as one that makes processes (get_context(str) is
    typed as the BaseContext, which has no Process)."""
    if start_method == "spawn":
        return multiprocessing.get_context("spawn")
    if start_method == "fork":
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver")


def _one_step(
    context: StartContext, connect_args: dict[str, Any], params: IbenchParams,
    step_plan: StepPlan, step_seed: int, around_step: StepHook | None,
    previous_rows: int | None, previous_by_table: dict[str, int],
) -> contract.IbenchStep:  # fmt: skip
    """Connections of this process are opened per phase: a step may outlast wait_timeout."""
    with _connect(connect_args, None) as conn:
        if step_plan.name == "l.i0":
            _create_tables(conn, params)
            previous_rows, previous_by_table = 0, {}
        else:
            _check_tables(conn, params)
    hook = around_step(step_plan.name) if around_step else contextlib.nullcontext()
    if step_plan.kind == FLUSH:
        with _connect(connect_args, params.database) as conn:
            step = _flush_step(conn, params, hook, previous_rows)
    else:
        # Each step draws other rows (the reference starts a process per step).
        step = _worker_step(context, connect_args, params, step_plan, step_seed, hook)
        step["seed"] = step_seed
    with _connect(connect_args, params.database) as conn:
        _add_after_step(step, conn, params, previous_rows)
    if step_plan.kind == INDEX and "rows" in step and step["duration_s"]:
        # The reference reports l.x as rows indexed per second.
        step["indexed_rows_per_s"] = round(step["rows"] / step["duration_s"], 1)
    return {**step, "problems": problems(step, params, step_plan, previous_by_table)}


def _connect(connect_args: dict[str, Any], database: str | None) -> pymysql.Connection:
    return workers.connect(connect_args, database)


def _create_tables(conn: pymysql.connections.Connection, params: IbenchParams) -> None:
    with conn.cursor() as cursor:
        cursor.execute(f"CREATE DATABASE IF NOT EXISTS {params.database}")
        for table in params.table_names():
            cursor.execute(f"DROP TABLE IF EXISTS {params.database}.{table}")
            cursor.execute(f"USE {params.database}")
            cursor.execute(sql.create_table(table, params.engine))


def _check_tables(conn: pymysql.connections.Connection, params: IbenchParams) -> None:
    with conn.cursor() as cursor:
        cursor.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s",
            (params.database,),
        )
        present = {row[0] for row in cursor.fetchall()}
    missing = [table for table in params.table_names() if table not in present]
    if missing:
        raise IbenchError(f"ibench: {params.database}.{missing[0]} does not exist; run l.i0 first")


def _flush_step(
    conn: pymysql.connections.Connection,
    params: IbenchParams,
    hook: AbstractContextManager[StepMeasures | None],
    rows: int | None,
) -> contract.IbenchStepFigures:
    started_at = contract.utc_timestamp()
    with hook as extra:
        done, seconds = flush_mod.flush(
            conn, params.table_names(), rows or 0, params.flush_max_seconds
        )
    step: contract.IbenchStepFigures = {
        "step": FLUSH,
        "kind": "flush",
        "started_at": started_at,
        "duration_s": seconds,
        "flush": done,
    }
    return _with_measures(step, extra)


def _with_measures(
    step: contract.IbenchStepFigures, measures: StepMeasures | None
) -> contract.IbenchStepFigures:
    """The step with what the runner measured around it (around_step's fields), last."""
    return {**step, **(measures or {})}


def _specs(
    connect_args: dict[str, Any], params: IbenchParams, step_plan: StepPlan, seed: int
) -> list[workers.WorkerSpec]:
    roles = [workers.INSERTER]
    if step_plan.deletes:
        roles.append(workers.DELETER)
    if step_plan.kind == QUERY:
        roles.append(workers.QUERIER)
    specs: list[workers.WorkerSpec] = []
    for client in range(1, params.clients + 1):
        table = params.table_of(client)
        # l.x: one ALTER per table, by the table's first client.
        indexes = step_plan.kind == INDEX and (client == 1 or not params.only1t)
        for role in roles:
            slot = len(specs)
            spec = workers.WorkerSpec(
                role, client, slot, table, seed + client, connect_args, params, step_plan, indexes
            )
            specs.append(spec)
    return specs


def _worker_step(
    context: StartContext,
    connect_args: dict[str, Any],
    params: IbenchParams,
    step_plan: StepPlan,
    seed: int,
    hook: AbstractContextManager[StepMeasures | None],
) -> contract.IbenchStepFigures:
    specs = _specs(connect_args, params, step_plan, seed)
    barrier = context.Barrier(len(specs) + 1)
    stop = context.Event()
    results: queues.Queue[workers.Message] = context.Queue()
    # the workers' server thread ids ("q": signed 64-bit), for a KILL of a stuck statement
    thread_ids: MutableSequence[int] = context.Array("q", len(specs), lock=False)
    deletes: dict[int, queues.Queue[workers.DeleteRequest]] = {
        c: context.Queue(maxsize=params.queue_depth) for c in range(1, params.clients + 1)
    }
    processes: list[BaseProcess] = [
        context.Process(
            target=workers.main,
            args=(spec, barrier, stop, deletes[spec.client], results, thread_ids),
            name=f"ibench-{step_plan.name}-{spec.role}-{spec.client}",
            daemon=True,
        )
        for spec in specs
    ]
    messages: dict[int, workers.Message] = {}
    try:
        for process in processes:
            process.start()
        started_at = contract.utc_timestamp()
        _wait_ready(specs, processes, results)
        with hook as extra:
            try:
                barrier.wait(timeout=BARRIER_TIMEOUT_S)
            except threading.BrokenBarrierError:
                _drain(results, messages, wait_s=2.0)
                raise IbenchError(_failure(specs, messages, processes)) from None
            t0 = time.monotonic()
            cpu_series = _collect(specs, processes, results, messages, stop, t0)
        for process in processes:
            process.join(timeout=GRACE_S)
    finally:
        _stop_workers(processes, stop, barrier, results, messages, thread_ids, connect_args)
    return _step_dict(params, step_plan, specs, messages, t0, started_at, cpu_series, extra)


def _wait_ready(
    specs: list[workers.WorkerSpec],
    processes: list[BaseProcess],
    results: queues.Queue[workers.Message],
) -> None:
    """Every worker connected and built its generator; a failure or an exit ends the wait."""
    ready: set[int] = set()
    deadline = time.monotonic() + BARRIER_TIMEOUT_S
    while len(ready) < len(specs):
        try:
            message = results.get(timeout=0.2)
        except queue.Empty:
            message = None
        if message is not None:
            _accept(message, specs, {})
            ready.add(message["slot"])
            continue
        gone = [(spec, p.exitcode) for spec, p in zip(specs, processes, strict=True)
                if spec.slot not in ready and p.exitcode is not None]  # fmt: skip
        if gone:
            spec, code = gone[0]
            raise IbenchError(
                f"ibench {spec.role} worker of client {spec.client} exited with code {code}"
                " before it was ready"
            )
        if time.monotonic() > deadline:
            raise IbenchError(f"ibench workers not ready after {BARRIER_TIMEOUT_S} s")


def _collect(
    specs: list[workers.WorkerSpec],
    processes: list[BaseProcess],
    results: queues.Queue[workers.Message],
    messages: dict[int, workers.Message],
    stop: synchronize.Event,
    t0: float,
) -> list[float]:
    """Wait for every worker's message; stop the queriers once the writers are done. Samples
    the workers' CPU every second (% of one core, summed)."""
    writers = {spec.slot for spec in specs if spec.role != workers.QUERIER}
    watched: dict[int, psutil.Process] = {}
    for process in processes:
        assert process.pid is not None  # _worker_step started every one
        with contextlib.suppress(psutil.Error):
            watched[process.pid] = psutil.Process(process.pid)
    last_cpu: dict[int, float] = {}
    _cpu_delta(watched, last_cpu)
    series: list[float] = []
    next_tick = t0 + 1.0
    while len(messages) < len(specs):
        try:
            message = results.get(timeout=max(0.01, min(0.5, next_tick - time.monotonic())))
            _accept(message, specs, messages)
        except queue.Empty:
            pass
        if writers <= messages.keys() and not stop.is_set():
            stop.set()
        now = time.monotonic()
        if now >= next_tick:
            used = _cpu_delta(watched, last_cpu)
            series.append(100.0 * used / (now - next_tick + 1.0))
            next_tick += 1.0
        for spec, process in zip(specs, processes, strict=True):
            if spec.slot not in messages and process.exitcode is not None:
                _drain(results, messages, wait_s=1.0, specs=specs)
                if spec.slot not in messages:
                    raise IbenchError(
                        f"ibench {spec.role} worker of client {spec.client} exited with code"
                        f" {process.exitcode} and sent nothing"
                    )
    return series


def _cpu_delta(watched: dict[int, psutil.Process], last: dict[int, float]) -> float:
    """CPU seconds the workers used since the last call (an exited worker adds nothing)."""
    total = 0.0
    for pid, process in watched.items():
        with contextlib.suppress(psutil.Error):
            times = process.cpu_times()
            now = times.user + times.system
            total += max(0.0, now - last.get(pid, now))
            last[pid] = now
    return total


def _accept(
    message: workers.Message,
    specs: list[workers.WorkerSpec],
    messages: dict[int, workers.Message],
) -> None:
    if message.get("error"):
        spec = specs[message["slot"]]
        raise IbenchError(
            f"ibench {spec.role} worker of client {spec.client}: {message['error'].strip()}"
        )
    messages[message["slot"]] = message


def _drain(
    results: queues.Queue[workers.Message],
    messages: dict[int, workers.Message],
    wait_s: float,
    specs: list[workers.WorkerSpec] | None = None,
) -> None:
    """Read what is queued; with specs, errors raise (without, they are kept to report)."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            message = results.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return
        if specs is not None:
            _accept(message, specs, messages)
        else:
            messages[message["slot"]] = message


def _failure(
    specs: list[workers.WorkerSpec],
    messages: dict[int, workers.Message],
    processes: list[BaseProcess],
) -> str:
    errors = [
        f"{specs[slot].role} worker of client {specs[slot].client}: {m['error'].strip()}"
        for slot, m in sorted(messages.items())
        if m.get("error")
    ]
    if errors:
        return "ibench workers failed before the start: " + " | ".join(errors)
    codes = [p.exitcode for p in processes]
    return f"ibench workers did not reach the start barrier (exit codes {codes})"


def _stop_workers(
    processes: list[BaseProcess],
    stop: synchronize.Event,
    barrier: synchronize.Barrier,
    results: queues.Queue[workers.Message],
    messages: dict[int, workers.Message],
    thread_ids: MutableSequence[int],
    connect_args: dict[str, Any],
) -> None:
    """Leave no worker behind: stop event, grace period, KILL their statements, terminate."""
    stop.set()
    barrier.abort()
    deadline = time.monotonic() + GRACE_S
    while any(p.is_alive() for p in processes) and time.monotonic() < deadline:
        _drain(results, messages, wait_s=0.1)  # a worker exits only once its message is out
    stuck = [(i, p) for i, p in enumerate(processes) if p.is_alive()]
    if stuck:
        with (
            contextlib.suppress(pymysql.err.MySQLError),
            _connect(connect_args, None) as conn,
            conn.cursor() as cursor,
        ):
            for index, _ in stuck:
                if thread_ids[index]:
                    with contextlib.suppress(pymysql.err.MySQLError):
                        cursor.execute(f"KILL {int(thread_ids[index])}")
        for _, process in stuck:
            process.terminate()
        for _, process in stuck:
            process.join(timeout=GRACE_S)
            if process.is_alive():
                process.kill()
                process.join()
    for process in processes:
        if process.pid is not None:
            process.join()
    results.close()
    results.join_thread()


def _step_dict(
    params: IbenchParams,
    step_plan: StepPlan,
    specs: list[workers.WorkerSpec],
    messages: dict[int, workers.Message],
    t0: float,
    started_at: str,
    cpu_series: list[float],
    extra: StepMeasures | None,
) -> contract.IbenchStepFigures:
    by_role: dict[Role, list[Counters]] = {}
    cpu_by_role: dict[Role, float] = {}
    ended = t0
    busiest = 0.0
    index_seconds = 0.0
    stopped = False
    for spec in specs:
        message = messages[spec.slot]
        by_role.setdefault(spec.role, []).append(Counters.from_json(message["counters"]))
        cpu_by_role[spec.role] = cpu_by_role.get(spec.role, 0.0) + message["cpu_s"]
        ended = max(ended, message["ended"])
        span = message["ended"] - message["started"]
        if span > 0:
            busiest = max(busiest, 100.0 * message["cpu_s"] / span)
        index_seconds = max(index_seconds, message.get("index_seconds", 0.0))
        stopped = stopped or bool(message.get("stopped"))
    if stopped:  # a worker saw the stop event without Ctrl-C here: not a complete step
        raise IbenchError(f"ibench step {step_plan.name}: workers were stopped early")
    duration = ended - t0
    counters = {role: merge(parts) for role, parts in by_role.items()}
    op = workers.QUERIER if step_plan.kind == QUERY else workers.INSERTER
    figures = metrics.summarize(counters, duration, params.clients, cpu_series)
    step: contract.IbenchStepFigures = {
        "step": step_plan.name,
        "kind": cast(StepKind, step_plan.kind),
        "started_at": started_at,
        "duration_s": round(duration, 3),
        "clients": params.clients,
        "tables": params.tables,
        "rows_per_commit": step_plan.rows_per_commit,
        "target_inserts_per_s_per_client": step_plan.rate_per_client,
        "inserts": figures["inserts"],
        "inserts_per_s": figures["inserts_per_s"],
        "inserts_per_s_per_client": figures["inserts_per_s_per_client"],
        "deletes": figures["deletes"],
        "deletes_per_s": figures["deletes_per_s"],
        "deletes_per_s_per_client": figures["deletes_per_s_per_client"],
        "queries": figures["queries"],
        "queries_per_s": figures["queries_per_s"],
        "queries_per_s_per_client": figures["queries_per_s_per_client"],
        "series": figures["series"],
        "rate_percentiles": figures["rate_percentiles"],
        "response_time": figures["response_time"],
        "retries": figures["retries"],
        "client_cpu": metrics.client_cpu(cpu_by_role, counters, op, busiest),
    }
    if step_plan.kind == INDEX:
        step["index_seconds"] = round(index_seconds, 3)
    if step_plan.kind == QUERY:
        step["query_mode"] = cast(QueryMode, step_plan.query_mode)
        queries = counters[workers.QUERIER]
        step["fetched_per_query"] = {
            "expected": params.rows_per_query,
            "actual": round(queries.fetched / queries.total, 3) if queries.total else 0.0,
        }
        step["background"] = metrics.background(
            step_plan.rate_per_client or 0,
            params.clients,
            counters[workers.INSERTER].total,
            counters[workers.DELETER].total if workers.DELETER in counters else 0,
            duration,
        )
    return _with_measures(step, extra)


def _add_after_step(
    step: contract.IbenchStepFigures,
    conn: pymysql.connections.Connection,
    params: IbenchParams,
    previous_rows: int | None,
) -> None:
    """Rows, database size and indexes once the step is over."""
    with conn.cursor() as cursor:
        if params.count_rows:
            by_table = {}
            for table in params.table_names():
                cursor.execute(f"SELECT COUNT(*) FROM {table}")
                by_table[table] = int(cursor.fetchone()[0])
            step["rows"] = sum(by_table.values())
            step["rows_by_table"] = by_table
            if previous_rows is not None:
                step["rows_before"] = previous_rows
        cursor.execute(sql.schema_bytes(), (params.database,))
        step["db_bytes"] = int(cursor.fetchone()[0])
        step["db_file_bytes"] = _file_bytes(cursor, params.database)
        cursor.execute(sql.index_names(), (params.database,))
        indexes: dict[str, list[str]] = {}
        for table, index in cursor.fetchall():
            indexes.setdefault(table, []).append(index)
        step["indexes"] = {table: sorted(names) for table, names in sorted(indexes.items())}


def _file_bytes(cursor: pymysql.cursors.Cursor, database: str) -> int | None:
    """Size of the tables' .ibd files, None where the server has no such view."""
    for view in sql.TABLESPACE_VIEWS:
        try:
            cursor.execute(sql.tablespace_bytes(view), (database,))
        except pymysql.err.MySQLError:
            continue
        return int(cursor.fetchone()[0])
    return None


def problems(
    step: contract.IbenchStepFigures,
    params: IbenchParams,
    step_plan: StepPlan,
    before: dict[str, int],
) -> list[str]:
    """The reference's validation, as sentences (empty: the step is as it should be): row
    counts, the indexes after l.x, rows fetched per query, the background rate, retries."""
    found = []
    by_table = step.get("rows_by_table")
    per_table = params.clients if params.only1t else 1  # clients writing one table
    if by_table is not None and step_plan.kind in (LOAD, INDEX):
        added = step_plan.rows_per_client * per_table
        for table, count in by_table.items():
            expected = before.get(table, 0) + added
            if count != expected:
                found.append(f"{table} holds {count} rows, expected {expected}")
    if by_table is not None and before and step_plan.kind in (WRITE, QUERY, FLUSH):
        tolerance: int | None = params.queue_depth * max(1, step_plan.rows_per_commit) * per_table
        if not step_plan.deletes and step_plan.kind != FLUSH:
            tolerance = None  # inserts without deletes: the table grows
        for table, count in by_table.items():
            if tolerance is not None and abs(count - before.get(table, 0)) > tolerance:
                found.append(
                    f"{table} holds {count} rows, {before.get(table, 0)} before"
                    f" (tolerance {tolerance})"
                )
    if step_plan.kind == INDEX:
        for table in params.table_names():
            missing = set(sql.INDEXES) - set(step.get("indexes", {}).get(table, []))
            if missing:
                found.append(f"{table} lacks the indexes {sorted(missing)}")
    fetched = step.get("fetched_per_query")
    if fetched and fetched["actual"] < 0.95 * fetched["expected"]:
        found.append(f"{fetched['actual']} rows fetched per query, {fetched['expected']} expected")
    background = step.get("background")
    if background and not background["target_sustained"]:
        found.append(
            f"background target not sustained: {background['achieved_inserts_per_s']} of"
            f" {background['target_inserts_per_s']} inserts/s"
        )
    retries = {role: count for role, count in step.get("retries", {}).items() if count}
    if retries:
        found.append(f"retries (deadlocks, lock wait timeouts): {retries}")
    return found
