"""What the per-second sampler costs: the same point-select step with and without it.

A sandboxed MariaDB (Debian's), 2 tables x 10,000 rows, 2 threads, 5 s steps, interleaved
A/B/A/B so drift hits both sides alike. Prints the TPS ratio (sampled / unsampled; the goal is
>= 0.98) and the sampler thread's own CPU. Asserts nothing.
Usage: .venv/bin/python bench/monitor_overhead.py
"""

from __future__ import annotations

import statistics

from ab_pairs import PAIRS, STEP_S, THREADS, point_select_server, report_pairs

from harness.measure.sampler import StepSampler
from harness.workloads.sysbench.commands import execute
from harness.workloads.sysbench.output import parse_run


def main() -> None:
    plain, sampled, sampler_cpu = [], [], []
    with point_select_server() as (box, argv):
        for _ in range(PAIRS):
            plain.append(parse_run(execute(argv), THREADS).tps)
            with box.connect() as conn:
                sampler = StepSampler(conn, box.pid)
                sampler.start()
                sampled.append(parse_run(execute(argv), THREADS).tps)
                sampler.stop()
            sampler_cpu.append(100 * sampler.cpu_seconds / STEP_S)
    report_pairs(("without sampler", "with sampler"), plain, sampled)
    print(f"sampler thread CPU: median {statistics.median(sampler_cpu):.2f} % of one core")


if __name__ == "__main__":
    main()
