"""What the per-second sampler costs: the same point-select step with and without it.

A sandboxed MariaDB (Debian's), 2 tables x 10,000 rows, 2 threads, steps of STEP_S seconds,
interleaved A/B/A/B over PAIRS pairs so drift hits both sides alike. Prints the TPS ratio
(sampled / unsampled; the goal is >= 0.98) and the sampler thread's own CPU. Asserts nothing.
Usage: .venv/bin/python bench/monitor_overhead.py
"""

from __future__ import annotations

import statistics
import tempfile
from pathlib import Path

from harness import sysbench
from harness.campaign import Workload
from harness.sampler import StepSampler
from harness.sandbox import Binaries, Sandbox
from harness.sysbench_output import parse_run

PAIRS = 5
STEP_S = 5
THREADS = 2
WORKLOAD = Workload("point-select", "oltp_point_select", tables=2, table_size=10_000, options={})


def main() -> None:
    binary = sysbench.sysbench_binary()
    with (
        tempfile.TemporaryDirectory(prefix="mybench-bench-") as scratch,
        Sandbox(Binaries.find(Path("/usr")), Path(scratch) / "server", "[mysqld]\n") as box,
    ):
        with box.connect() as conn, conn.cursor() as cursor:
            cursor.execute("CREATE DATABASE sbtest")
        target = box.sysbench_target()
        sysbench.execute(sysbench.prepare_argv(binary, WORKLOAD, target))
        argv = sysbench.run_argv(binary, WORKLOAD, target, THREADS, STEP_S)
        plain, sampled, sampler_cpu = [], [], []
        for _ in range(PAIRS):
            plain.append(parse_run(sysbench.execute(argv), THREADS).tps)
            with box.connect() as conn:
                sampler = StepSampler(conn, box.pid)
                sampler.start()
                sampled.append(parse_run(sysbench.execute(argv), THREADS).tps)
                sampler.stop()
            sampler_cpu.append(100 * sampler.cpu_seconds / STEP_S)
    ratios = [b / a for a, b in zip(plain, sampled, strict=True)]
    print(f"{PAIRS} pairs of {STEP_S} s point-select steps at {THREADS} threads")
    print("TPS without sampler: " + ", ".join(f"{v:.0f}" for v in plain))
    print("TPS with sampler:    " + ", ".join(f"{v:.0f}" for v in sampled))
    print(f"ratio with/without: median {statistics.median(ratios):.3f}"
          f" (min {min(ratios):.3f}, max {max(ratios):.3f})")  # fmt: skip
    print(f"sampler thread CPU: median {statistics.median(sampler_cpu):.2f} % of one core")


if __name__ == "__main__":
    main()
