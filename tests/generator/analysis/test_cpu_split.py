"""A step's server and client CPU per operation (generator/analysis/cpu_split.py): recorded
figures as they are, the Insert Benchmark workers' own CPU, and figures derived from the
per-second samples, marked, for runs recorded before per_op kept them."""

from __future__ import annotations

import pytest

from generator.analysis.cpu_split import CpuFigure, cpu_split


def sysbench_step(**per_op: float | None) -> dict:
    """A 10 s sysbench step of 8,000 transactions, with its per-second CPU samples."""
    return {
        "threads": 8,
        "events": 8000,
        "duration_s": 10.0,
        "per_op": {"op": "transaction", "cpu_us": 2300.0, "context_switches": 50.0,
                   "read_kb": 0.0, "write_kb": 4.4, **per_op},
        "monitor": {"interval_s": 1.0, "series": {
            "t": [1.0, 2.0, 3.0, 4.0],
            "server_cpu_pct": [140.0, 150.0, 160.0, 150.0],  # mean 150 %: 15 s of CPU
            "client_cpu_pct": [40.0, 40.0, 40.0, 40.0],  # 4 s
        }},
    }  # fmt: skip


def test_recorded_figures_are_taken_as_they_are():
    split = cpu_split(sysbench_step(server_cpu_us=1700.0, client_cpu_us=480.0))
    assert split is not None
    assert split.server == CpuFigure(1700.0) and split.client == CpuFigure(480.0)
    assert not split.sampled


def test_older_runs_derive_both_from_the_samples_and_say_so():
    split = cpu_split(sysbench_step())
    assert split is not None
    # mean % x seconds / 100 / operations: 150 x 10 / 100 = 15 s over 8,000 transactions
    assert split.server == CpuFigure(1875.0, sampled=True)
    assert split.client == CpuFigure(500.0, sampled=True)
    assert split.sampled


def test_a_server_elsewhere_stays_unknown_rather_than_derived():
    step = sysbench_step(server_cpu_us=None, client_cpu_us=480.0)
    split = cpu_split(step)
    assert split is not None and split.server == CpuFigure(None) and split.known


def test_no_samples_and_nothing_recorded_show_nothing():
    step = sysbench_step()
    del step["monitor"]
    split = cpu_split(step)
    assert split is not None and not split.known and not split.sampled
    assert cpu_split({"step": "flush", "duration_s": 2.5}) is None  # no per_op


@pytest.mark.parametrize(("op", "count_field"), [("query", "queries"), ("insert", "inserts")])
def test_an_ibench_client_is_its_workers_own_cpu(op: str, count_field: str):
    step = {
        "step": "qr100",
        "duration_s": 60.0,
        count_field: 300_000,
        "per_op": {"op": op, "cpu_us": 180.0, "context_switches": 2.0, "read_kb": 0.0,
                   "write_kb": 0.03},
        "client_cpu": {"op": op, "seconds": 30.0, "us_per_op": 100.0, "by_role": {},
                       "busiest_process_pct": 60.0},
        "monitor": {"interval_s": 1.0, "series": {"t": [1.0], "server_cpu_pct": [40.0],
                                                  "client_cpu_pct": [99.0]}},
    }  # fmt: skip
    split = cpu_split(step)
    assert split is not None
    assert split.client == CpuFigure(100.0)  # 30 s / 300,000, as client_cpu.us_per_op says
    assert split.server == CpuFigure(80.0, sampled=True)  # 40 % x 60 s / 300,000
