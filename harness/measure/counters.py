"""Counters sampled before and after each step: SHOW GLOBAL STATUS and the host's /proc."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

import contract

SECTOR_BYTES = 512  # /proc/diskstats counts 512-byte sectors whatever the device's block size
CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")
BUSY_FIELDS = ("user", "nice", "system", "irq", "softirq")
CLOCK_TICKS_PER_S = os.sysconf("SC_CLK_TCK")


def server_status(connection: pymysql.connections.Connection) -> dict[str, float]:
    with connection.cursor() as cursor:
        cursor.execute("SHOW GLOBAL STATUS")
        rows = cursor.fetchall()
    numeric = {}
    for name, value in rows:
        try:
            numeric[name] = float(value)
        except (TypeError, ValueError):
            continue
    return numeric


def status_number(cursor: pymysql.cursors.Cursor, name: str) -> int | None:
    """One whole-number status variable on cursor's server; None when the server has no such
    variable (MySQL lacks Innodb_checkpoint_age, for one)."""
    cursor.execute("SHOW GLOBAL STATUS LIKE %s", (name,))
    row = cursor.fetchone()
    return contract.whole_number(str(row[1])) if row else None


def status_delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    """Counters that moved over the step. Gauges (Threads_running ...) are kept as differences
    too; the reader of a delta knows which names are counters."""
    delta = {}
    for name, value in after.items():
        change = value - before.get(name, 0.0)
        if change:
            delta[name] = int(change) if change.is_integer() else round(change, 3)
    return delta


@dataclass(frozen=True)
class OsSample:
    at: float
    cpu: dict[str, int]
    context_switches: int
    sectors_read: int
    sectors_written: int


def _disk_names() -> set[str]:
    """Whole block devices (not partitions), so I/O is not counted twice."""
    return {entry.name for entry in Path("/sys/block").iterdir()}


def os_sample() -> OsSample:
    cpu: dict[str, int] = {}
    switches = 0
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("cpu "):
            cpu = dict(zip(CPU_FIELDS, map(int, line.split()[1:9]), strict=False))
        elif line.startswith("ctxt "):
            switches = int(line.split()[1])
    disks = _disk_names()
    read = written = 0
    for line in Path("/proc/diskstats").read_text().splitlines():
        fields = line.split()
        if fields[2] in disks and not fields[2].startswith(("loop", "ram", "zram")):
            read += int(fields[5])
            written += int(fields[9])
    return OsSample(time.monotonic(), cpu, switches, read, written)


def os_delta(before: OsSample, after: OsSample) -> contract.OsCounters:
    seconds = max(after.at - before.at, 1e-6)
    ticks = {name: after.cpu.get(name, 0) - before.cpu.get(name, 0) for name in CPU_FIELDS}
    total_ticks = max(sum(ticks.values()), 1)

    def pct(*names: str) -> float:
        return round(100.0 * sum(ticks[n] for n in names) / total_ticks, 2)

    return {
        "cpu_user_pct": pct("user", "nice"),
        "cpu_system_pct": pct("system", "irq", "softirq"),
        "cpu_iowait_pct": pct("iowait"),
        "cpu_idle_pct": pct("idle"),
        "cpu_steal_pct": pct("steal"),
        "context_switches_per_s": round(
            (after.context_switches - before.context_switches) / seconds, 1
        ),
        "read_kb_per_s": round(
            (after.sectors_read - before.sectors_read) * SECTOR_BYTES / 1024 / seconds, 1
        ),
        "write_kb_per_s": round(
            (after.sectors_written - before.sectors_written) * SECTOR_BYTES / 1024 / seconds, 1
        ),
    }


def per_operation(
    before: OsSample,
    after: OsSample,
    operations: int,
    server_cpu_s: float | None = None,
    client_cpu_s: float | None = None,
) -> contract.PerOp:
    """Mark Callaghan's efficiency columns (cpu/o, cs/o, rKB/o, wKB/o) over one step.

    Host-wide counters, like his vmstat/iostat: with sysbench on the same host the client's
    share is included, which is what the reader of a small-server result needs to know. Beside
    them, the server process's and the client processes' own CPU over the step (None: not
    measured, or the server runs elsewhere), so a cost per operation can be read net of the
    client that shares the cores.
    """
    operations = max(operations, 1)

    def us_per_op(seconds: float | None) -> float | None:
        return None if seconds is None else round(seconds * 1e6 / operations, 2)

    busy_s = (
        sum(after.cpu.get(n, 0) - before.cpu.get(n, 0) for n in BUSY_FIELDS) / CLOCK_TICKS_PER_S
    )
    read_kb = (after.sectors_read - before.sectors_read) * SECTOR_BYTES / 1024
    write_kb = (after.sectors_written - before.sectors_written) * SECTOR_BYTES / 1024
    return {
        "op": "transaction",
        "cpu_us": round(busy_s * 1e6 / operations, 2),
        "context_switches": round(
            (after.context_switches - before.context_switches) / operations, 3
        ),
        "read_kb": round(read_kb / operations, 4),
        "write_kb": round(write_kb / operations, 4),
        "server_cpu_us": us_per_op(server_cpu_s),
        "client_cpu_us": us_per_op(client_cpu_s),
    }


def enable_innodb_metrics(
    connection: pymysql.connections.Connection, patterns: tuple[str, ...]
) -> None:
    """Switch on the INNODB_METRICS counters a campaign samples (most are off by default);
    a name the server does not know raises its own error (1231)."""
    with connection.cursor() as cursor:
        for pattern in patterns:
            cursor.execute("SET GLOBAL innodb_monitor_enable = %s", (pattern,))


def innodb_metrics(
    connection: pymysql.connections.Connection, patterns: tuple[str, ...]
) -> dict[str, tuple[float, bool]]:
    """name -> (count, is_counter) for the metrics matching patterns. Selecting by name keeps
    the query the same on MySQL (STATUS column) and MariaDB (ENABLED column)."""
    if not patterns:
        return {}
    where = " OR ".join(["NAME LIKE %s"] * len(patterns))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT NAME, COUNT, TYPE FROM information_schema.INNODB_METRICS WHERE {where}",
            patterns,
        )
        rows = cursor.fetchall()
    return {
        name: (float(count), kind in ("counter", "status_counter")) for name, count, kind in rows
    }
