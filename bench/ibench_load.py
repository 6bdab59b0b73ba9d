"""How fast the Python Insert Benchmark client loads (l.i0), and where the client, not the
server, becomes the limit.

A sandboxed MariaDB (Debian's; binary log off, 256M buffer pool, redo flushed once a second so
fsync latency does not hide the CPU costs), l.i0 at 1, 2 and 4 clients with 100 rows per
commit, then 10, 100 and 1000 rows per commit at 1 client. For each run: rows/s, the client's
CPU per row (psutil, measured by each worker process), the server's CPU per row (psutil on
mariadbd), the busiest client process in % of one core, and the host's CPU split into
client, server, everything else and idle (others > 0: the machine was shared). Asserts nothing.
Usage: .venv/bin/python bench/ibench_load.py [--rows 500000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from contextlib import contextmanager
from pathlib import Path

import psutil

from harness.model.ibench_params import IbenchParams
from harness.servers.sandbox import Binaries, Sandbox
from harness.workloads.ibench.steps import run_steps

MYCNF = """[mysqld]
skip_log_bin
innodb_buffer_pool_size = 256M
innodb_log_file_size = 256M
innodb_flush_log_at_trx_commit = 2
"""
CLIENT_BOUND_PCT = 85.0  # a worker process this busy is the bottleneck of its client
HOST_BUSY_IDLE_PCT = 10.0  # less host idle than this: CPU-saturated host


def _cpu_s(process: psutil.Process) -> float:
    times = process.cpu_times()
    return times.user + times.system


def measure(box: Sandbox, clients: int, batch: int, rows: int) -> dict:
    server = psutil.Process(box.pid)
    seen: dict[str, float] = {}

    @contextmanager
    def around(name: str):
        cpu0, host0 = _cpu_s(server), psutil.cpu_times()
        yield {}
        host1 = psutil.cpu_times()
        seen["server_cpu_s"] = _cpu_s(server) - cpu0
        total = sum(host1) - sum(host0)  # CPU seconds of all CPUs over the step
        seen["host_idle_pct"] = 100.0 * (host1.idle - host0.idle) / total if total else 0.0
        seen["host_cpu_s"] = total - (host1.idle - host0.idle)

    params = IbenchParams(clients=clients, rows_l0=rows // clients, batch_l0=batch)
    connect = {"unix_socket": str(box.socket_path), "user": "root"}
    [step] = run_steps(connect, params, ["l.i0"], around_step=around)
    inserts = step["inserts"]
    seconds = step["duration_s"]
    client_s = step["client_cpu"]["seconds"]
    others_s = seen["host_cpu_s"] - seen["server_cpu_s"] - client_s
    return {
        "clients": clients,
        "batch": batch,
        "rows": inserts,
        "seconds": step["duration_s"],
        "rows_per_s": step["inserts_per_s"],
        "client_us_per_row": step["client_cpu"]["us_per_op"],
        "server_us_per_row": seen["server_cpu_s"] * 1e6 / inserts,
        "busiest_pct": step["client_cpu"]["busiest_process_pct"],
        "host_idle_pct": seen["host_idle_pct"],
        "client_pct": 100 * client_s / seconds,  # % of one core, all worker processes
        "server_pct": 100 * seen["server_cpu_s"] / seconds,
        "others_pct": max(0.0, 100 * others_s / seconds),  # anything else on the host
    }


def limit(row: dict) -> str:
    """Where the time goes: a saturated client process, a saturated host (the client's CPU is
    taken from the server), or synchronous round trips (client and server take turns)."""
    client = row["client_us_per_row"]
    share = 100 * client / (client + row["server_us_per_row"])
    if row["busiest_pct"] >= CLIENT_BOUND_PCT:
        return "client: an inserter process saturates its core"
    if row["host_idle_pct"] < HOST_BUSY_IDLE_PCT:
        return f"host CPU saturated; the client takes {share:.0f} % of the CPU the rows cost"
    if row["clients"] == 1:
        return f"round trips: the client is {share:.0f} % of each batch's client+server time"
    return "server (commits, locks, I/O): the CPUs are not saturated"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=500_000, help="rows per run (all clients)")
    args = parser.parse_args()
    runs = [(1, 100), (2, 100), (4, 100), (1, 10), (1, 100), (1, 1000)]
    results = []
    with (
        tempfile.TemporaryDirectory(prefix="mybench-bench-") as scratch,
        Sandbox(Binaries.find(Path("/usr")), Path(scratch) / "server", MYCNF) as box,
    ):
        for clients, batch in runs:
            results.append(measure(box, clients, batch, args.rows))
    print(f"l.i0, {args.rows} rows per run, {os.cpu_count()} CPUs, Debian MariaDB sandbox")
    print("CPU in % of one core: client = all worker processes, others = the rest of the host")
    print(
        "clients batch   rows/s  client us/row  server us/row  busiest client %"
        "  client %  server %  others %  idle %"
    )
    for row in results:
        print(
            f"{row['clients']:>7} {row['batch']:>5} {row['rows_per_s']:>8.0f}"
            f" {row['client_us_per_row']:>14.1f} {row['server_us_per_row']:>14.1f}"
            f" {row['busiest_pct']:>17.0f} {row['client_pct']:>9.0f} {row['server_pct']:>9.0f}"
            f" {row['others_pct']:>9.0f} {row['host_idle_pct']:>7.0f}  {limit(row)}"
        )


if __name__ == "__main__":
    main()
