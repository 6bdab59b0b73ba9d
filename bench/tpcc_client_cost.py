"""What the TPC-C-like workload's client side costs: CPU seconds of the sysbench process per
1,000 transactions at 2 threads, and TPS, for --tpcc_mode=compat vs spec.

Starts a sandboxed MariaDB (Debian's, from /usr), loads 2 table sets x 2 warehouses (items per
the rule) with 2 loaders, then runs compat and spec steps interleaved (A/B/A/B) on the same
data. The sysbench CPU time comes from the kernel's rusage of the child (user + system).
Prints figures; asserts nothing.  Usage: .venv/bin/python bench/tpcc_client_cost.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from harness.model.tpcc_options import MODES, TpccOptions
from harness.servers.sandbox import Binaries, Sandbox
from harness.servers.sysbench_target import DATABASE
from harness.workloads.sysbench.commands import SysbenchFailed, execute, sysbench_binary
from harness.workloads.sysbench.output import parse_run
from harness.workloads.tpcc.commands import check_argv, prepare_argv, run_argv
from harness.workloads.tpcc.output import parse_check, parse_stats

PAIRS = 3
STEP_S = 10
THREADS = 2
OPTIONS = {mode: TpccOptions(scale=2, tables=2, mode=mode) for mode in MODES}
MYCNF = (
    "[mysqld]\nskip_log_bin\ninnodb_buffer_pool_size = 1G\n"
    "innodb_flush_log_at_trx_commit = 2\ninnodb_log_file_size = 512M\n"
)


def measured(argv: list[str]) -> tuple[str, float, float]:
    """Run argv to completion: (output, CPU seconds of the process, wall seconds)."""
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SysbenchFailed(argv, process.returncode, output)
    return output, usage.ru_utime + usage.ru_stime, time.monotonic() - started


def main() -> None:
    binary = sysbench_binary()
    with (
        tempfile.TemporaryDirectory(prefix="mybench-tpcc-") as scratch,
        Sandbox(Binaries.find(Path("/usr")), Path(scratch) / "server", MYCNF) as box,
    ):
        with box.connect() as conn, conn.cursor() as cursor:
            cursor.execute(f"CREATE DATABASE {DATABASE}")
        target = box.sysbench_target()
        load = prepare_argv(binary, target, OPTIONS["compat"], threads=2)
        _, load_cpu, load_wall = measured(load)
        print(f"load 2 sets x 2 warehouses, 2 loaders: {load_wall:.1f} s wall, "
              f"sysbench {load_cpu:.1f} CPU s")  # fmt: skip
        results: dict[str, list[tuple[float, float, float]]] = {mode: [] for mode in MODES}
        for _ in range(PAIRS):
            for mode in MODES:
                argv = run_argv(binary, target, OPTIONS[mode], THREADS, STEP_S)
                output, cpu, _ = measured(argv)
                report = parse_run(output, THREADS)
                stats = parse_stats(output, report.total_time_s, THREADS)
                deviation = stats["mix"]["max_deviation_pp"]
                results[mode].append((report.tps, cpu * 1000 / report.events, deviation))
        check = parse_check(execute(check_argv(binary, target, OPTIONS["spec"])))
        print(f"{PAIRS} pairs of {STEP_S} s steps at {THREADS} threads, compat/spec interleaved")
        for mode, rows in results.items():
            tps = [row[0] for row in rows]
            cost = [row[1] for row in rows]
            print(f"{mode:>6}: TPS {', '.join(f'{v:.0f}' for v in tps)} (median "
                  f"{statistics.median(tps):.0f}); sysbench CPU s per 1,000 trx "
                  f"{', '.join(f'{v:.3f}' for v in cost)} (median {statistics.median(cost):.3f}); "
                  f"max mix deviation {max(row[2] for row in rows):.2f} pp")  # fmt: skip
        print(f"check after the runs: {'all pass' if check['passed'] else check['failed']}")


if __name__ == "__main__":
    main()
