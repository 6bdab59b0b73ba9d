"""Per-second samples during a step, on a background thread: host CPU/IO, the server and client
processes, and the InnoDB counters that explain a curve (Dimitri's dim_STAT-style series).

Each tick costs one SHOW GLOBAL STATUS (about 3.5 ms, bench/harness_overhead.py) and a few
/proc reads, on a core sysbench and the server share, so the interval stays at one second.
"""

from __future__ import annotations

import contextlib
import resource
import threading
import time
from dataclasses import dataclass
from typing import Literal, NamedTuple, cast

import psutil  # type: ignore[import-untyped]  # psutil ships no type hints
import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract
from harness.measure import counters

PROFILER_NAME = "perf"  # the harness's profiler runs as its child during a step: not a client
INTERVAL_S = 1.0  # sysbench --report-interval=1 reports at the same pace
# Counters reported as per-second rates (name in the series -> status variable, scale).
RATES = {
    "questions_per_s": ("Questions", 1),
    "handler_commits_per_s": ("Handler_commit", 1),  # sysbench commits via the API, not COMMIT
    # rows the server wrote: the insert rate the server saw, beside the one a client counts
    "handler_writes_per_s": ("Handler_write", 1),
    "innodb_fsyncs_per_s": ("Innodb_data_fsyncs", 1),
    "redo_kb_per_s": ("Innodb_os_log_written", 1 / 1024),
    "row_lock_waits_per_s": ("Innodb_row_lock_waits", 1),
    "deadlocks_per_s": ("Innodb_deadlocks", 1),
}
# Gauges reported as they are; MariaDB exposes the last two as status, MySQL does not.
GAUGES = {
    "threads_running": ("Threads_running", 1),
    "dirty_pages": ("Innodb_buffer_pool_pages_dirty", 1),
    "history_list_length": ("Innodb_history_list_length", 1),
    "checkpoint_age_kb": ("Innodb_checkpoint_age", 1 / 1024),
}


def _process_cpu_s(process: psutil.Process) -> float:
    times = process.cpu_times()
    seconds: float = times.user + times.system
    return seconds


def _client_cpu_s(server_pid: int | None) -> dict[int, float]:
    """CPU seconds by pid of the client processes this harness started: every descendant but
    the server and the profiler (perf, measure/profile.py), so sysbench and the Insert
    Benchmark's worker processes (python) alike."""
    by_pid = {}
    for child in psutil.Process().children(recursive=True):
        try:
            if child.pid != server_pid and child.name() != PROFILER_NAME:
                by_pid[child.pid] = _process_cpu_s(child)
        except psutil.Error:
            continue  # it ended between the listing and the read
    return by_pid


@dataclass(frozen=True)
class ProcessCpu:
    """CPU seconds used so far by the server process and by the harness's client processes, to
    subtract one such sample from another over a whole step (cpu_between)."""

    server_s: float | None  # None: the server runs elsewhere
    reaped_clients_s: float  # every child this process has waited for, with their own children
    live_clients: dict[int, float]  # the descendants still running, but the server, by pid


def process_cpu(server_pid: int | None) -> ProcessCpu:
    """A client that starts and ends within a step (sysbench, the Insert Benchmark's workers) is
    gone when the step ends, so psutil no longer sees it; once waited for, its CPU is in this
    process's RUSAGE_CHILDREN, which counts it whole."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_s = None
    if server_pid is not None:
        # a server gone mid-step reads as unmeasured: the runner's liveness check says why
        with contextlib.suppress(psutil.Error):
            server_s = _process_cpu_s(psutil.Process(server_pid))
    return ProcessCpu(
        server_s=server_s,
        reaped_clients_s=children.ru_utime + children.ru_stime,
        live_clients=_client_cpu_s(server_pid),
    )


def cpu_between(before: ProcessCpu, after: ProcessCpu) -> tuple[float | None, float]:
    """(server, client) CPU seconds from one sample to the next. A client alive at the first
    sample and waited for by the second counts from that sample on: its total is in the reaped
    seconds, its CPU before the step is taken back out with the live ones'."""
    server = (
        None
        if before.server_s is None or after.server_s is None
        else after.server_s - before.server_s
    )
    client = (after.reaped_clients_s - before.reaped_clients_s) + (
        sum(after.live_clients.values()) - sum(before.live_clients.values())
    )
    return server, max(client, 0.0)


class Tick(NamedTuple):
    """What one sample reads; a series point is the change from the tick before."""

    at: float
    os: counters.OsSample
    status: dict[str, float]
    cpu: ProcessCpu
    rss: int | None  # the server's resident memory; None: it runs elsewhere
    metrics: dict[str, tuple[float, bool]]  # INNODB_METRICS: name -> (count, is_counter)


class StepSampler:
    """Start before sysbench, stop after; stop() returns the series (same length each), and
    kinds then holds the kind of each sampled INNODB_METRICS series."""

    def __init__(
        self,
        connection: pymysql.connections.Connection,
        server_pid: int | None,
        innodb_metrics: tuple[str, ...] = (),
    ):
        self._connection = connection
        self._innodb_metrics = innodb_metrics
        # None: the server runs elsewhere (an existing remote server), so its CPU and RSS
        # series are left out rather than guessed.
        self._server = None if server_pid is None else psutil.Process(server_pid)
        self._series: dict[str, list[float]] = {}
        # Each sampled INNODB_METRICS series' kind (its TYPE column): "counter", recorded per
        # second, or "value", recorded as read; the run document keeps it so a reader never
        # has to guess from a metric's name which unit its series is in.
        self.kinds: dict[str, Literal["counter", "value"]] = {}
        self.cpu_seconds = 0.0  # the sampler thread's own CPU, for bench/monitor_overhead.py
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="step-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> dict[str, list[float]]:
        self._stop.set()
        self._thread.join()
        return self._series

    def _snapshot(self) -> Tick:
        status = counters.server_status(self._connection)
        return Tick(
            time.monotonic(),
            counters.os_sample(),
            status,
            process_cpu(None if self._server is None else self._server.pid),
            None if self._server is None else self._server.memory_info().rss,
            counters.innodb_metrics(self._connection, self._innodb_metrics),
        )

    def _append(self, name: str, value: float) -> None:
        self._series.setdefault(name, []).append(round(value, 2))

    def _loop(self) -> None:
        cpu_at_start = time.thread_time()
        try:
            started = previous = self._snapshot()
            while not self._stop.wait(INTERVAL_S):
                current = self._snapshot()
                self._record(started, previous, current)
                previous = current
        except (pymysql.err.MySQLError, psutil.Error):
            return  # the server went away; the runner notices and marks the run
        finally:
            self.cpu_seconds = time.thread_time() - cpu_at_start

    def _record(self, started: Tick, previous: Tick, current: Tick) -> None:
        at, os_now, status, cpu, rss, metrics = current
        seconds = max(at - previous[0], 1e-6)
        self._append("t", at - started[0])
        for name, value in counters.os_delta(previous[1], os_now).items():
            self._append(name, cast(float, value))  # OsCounters holds floats only
        server_cpu, client_cpu = cpu_between(previous[3], cpu)
        if server_cpu is not None:
            self._append("server_cpu_pct", 100 * server_cpu / seconds)
        self._append("client_cpu_pct", 100 * client_cpu / seconds)
        if rss is not None:
            self._append("server_rss_mb", rss / 2**20)
        for name, (variable, scale) in RATES.items():
            change = status.get(variable, 0.0) - previous[2].get(variable, 0.0)
            self._append(name, change * scale / seconds)
        for name, (variable, scale) in GAUGES.items():
            if variable in status:
                self._append(name, status[variable] * scale)
        for name, (count, is_counter) in metrics.items():
            # Counters become per-second rates like the status counters; values stay values.
            before = previous[5].get(name, (count, is_counter))[0]
            value = (count - before) / seconds if is_counter else count
            series = f"{contract.INNODB_METRICS_PREFIX}{name}"
            self._append(series, value)
            self.kinds[series] = "counter" if is_counter else "value"
