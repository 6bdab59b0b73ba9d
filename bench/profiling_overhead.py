"""What profiling the server costs: the same measured step with perf attached and without.

A sandboxed MariaDB (Debian's), 2 tables x 10,000 rows, 2 threads; for each of
oltp_point_select (CPU-bound reads) and oltp_update_non_index (commits), N pairs of steps run
through the harness's own measured_step, once with the run's profiles on (perf at 99 Hz) and
once off, the order alternating pair by pair so drift and warm-up hit both sides alike. Prints
every pair's TPS and the relative cost (1 - on/off) as a mean with its 95 % interval (Student's
t over the pairs). Asserts nothing: figures from a busy machine are noise.
Usage: .venv/bin/python bench/profiling_overhead.py [--pairs 6] [--seconds 5] [--hz 99]
"""

from __future__ import annotations

import argparse
import statistics

from ab_pairs import PAIRS, STEP_S, THREADS, WORKLOAD, point_select_server
from scipy import stats

import contract
from harness.measure.around_step import measured_step
from harness.measure.profile import RunProfiles
from harness.model.campaign import DEFAULT_FREQUENCY_HZ, Workload
from harness.servers.sandbox import Sandbox
from harness.workloads.sysbench.commands import execute, run_argv, sysbench_binary
from harness.workloads.sysbench.output import parse_run

UPDATES = Workload("update", "oltp_update_non_index", WORKLOAD.tables, WORKLOAD.table_size, {})


def step_tps(box: Sandbox, argv: list[str], profiles: RunProfiles) -> float:
    """One measured step as a campaign runs it; its profile, if any, is dropped."""
    key = contract.step_key({"threads": THREADS})
    with measured_step(box, (), profiles, key):
        output = execute(argv)
    profiles.folded.clear()
    return parse_run(output, THREADS).tps


def relative_cost(off: list[float], on: list[float]) -> tuple[float, float, float]:
    """Mean of 1 - on/off over the pairs, and its 95 % interval."""
    costs = [1 - b / a for a, b in zip(off, on, strict=True)]
    mean = statistics.fmean(costs)
    if len(costs) < 2:
        return mean, mean, mean
    half = stats.t.ppf(0.975, len(costs) - 1) * statistics.stdev(costs) / len(costs) ** 0.5
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=PAIRS)
    parser.add_argument("--seconds", type=int, default=STEP_S)
    parser.add_argument("--hz", type=int, default=DEFAULT_FREQUENCY_HZ)
    args = parser.parse_args()
    with point_select_server() as (box, _):
        profiled = RunProfiles.for_run(True, args.hz, box.workdir, print)
        unprofiled = RunProfiles.for_run(False, args.hz, box.workdir, print)
        target = box.sysbench_target()
        print(f"{args.pairs} pairs of {args.seconds} s steps at {THREADS} threads, perf at"
              f" {args.hz} Hz, order alternating (off first in odd pairs)")  # fmt: skip
        for workload in (WORKLOAD, UPDATES):
            argv = run_argv(sysbench_binary(), workload, target, THREADS, args.seconds)
            off, on = [], []
            for pair in range(args.pairs):
                sides = [(off, unprofiled), (on, profiled)]
                for tps, profiles in sides if pair % 2 == 0 else sides[::-1]:
                    tps.append(step_tps(box, argv, profiles))
                print(f"  {workload.test} pair {pair + 1}: off {off[-1]:.0f} tps,"
                      f" on {on[-1]:.0f} tps")  # fmt: skip
            if profiled.skipped:
                print(f"  not profiled: {profiled.skipped}")
            mean, low, high = relative_cost(off, on)
            print(f"{workload.test}: profiling costs {100 * mean:+.1f} % of TPS"
                  f" (95 % interval {100 * low:+.1f} to {100 * high:+.1f} %)")  # fmt: skip


if __name__ == "__main__":
    main()
