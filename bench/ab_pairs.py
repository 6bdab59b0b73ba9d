"""Shared by the A/B benchmarks: a sandboxed server with point-select data, and the report."""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness.model.campaign import Workload
from harness.servers.sandbox import Binaries, Sandbox
from harness.workloads.sysbench.commands import execute, prepare_argv, run_argv, sysbench_binary

PAIRS = 6
STEP_S = 5
THREADS = 2
WORKLOAD = Workload("point-select", "oltp_point_select", tables=2, table_size=10_000, options={})


@contextmanager
def point_select_server() -> Iterator[tuple[Sandbox, list[str]]]:
    """Debian's MariaDB with the point-select tables loaded, and the step's sysbench argv."""
    binary = sysbench_binary()
    with (
        tempfile.TemporaryDirectory(prefix="mybench-bench-") as scratch,
        Sandbox(Binaries.find(Path("/usr")), Path(scratch) / "server", "[mysqld]\n") as box,
    ):
        with box.connect() as conn, conn.cursor() as cursor:
            cursor.execute("CREATE DATABASE sbtest")
        target = box.sysbench_target()
        execute(prepare_argv(binary, WORKLOAD, target))
        yield box, run_argv(binary, WORKLOAD, target, THREADS, STEP_S)


def report_pairs(names: tuple[str, str], first: list[float], second: list[float]) -> None:
    """TPS of each side and the ratio second/first per pair (pairs ran back to back)."""
    ratios = [b / a for a, b in zip(first, second, strict=True)]
    width = max(len(name) for name in names) + 5
    print(f"{len(ratios)} pairs of {STEP_S} s point-select steps at {THREADS} threads, A/B")
    for name, values in zip(names, (first, second), strict=True):
        print(f"{'TPS ' + name + ':':<{width}} " + ", ".join(f"{v:.0f}" for v in values))
    print(f"ratio {names[1]}/{names[0]}: median {statistics.median(ratios):.3f}"
          f" (min {min(ratios):.3f}, max {max(ratios):.3f})")  # fmt: skip
