"""A step's CPU per operation split into the server process's own and the client processes'
own, beside the host-wide cpu/o (per_op.cpu_us).

Where sysbench or the Insert Benchmark's workers share the cores with the server, the host's
cpu/o counts both: a change in what the client costs reads as a change in the server. Each
figure comes from the best source the step has, in this order:

1. recorded: per_op.server_cpu_us and per_op.client_cpu_us, the processes' CPU measured over
   the whole step (null when the server ran on another machine: then nothing is derived);
2. for the client of an Insert Benchmark step, its workers' own CPU over the step
   (client_cpu.seconds, what the newer per_op.client_cpu_us takes) per operation;
3. derived from the per-second samples (monitor series server_cpu_pct and client_cpu_pct):
   mean % x step seconds / 100 / operations. The samples cover the step's whole seconds only,
   and the harness that took them saw a client only while it ran (a sysbench that had exited by
   the last sample was not counted): such a figure is marked `sampled`, and the pages say so;
4. nothing, rather than a guess.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from contract import PerOp, RecordedStep
from contract.fields import monitor_series
from generator.analysis.operations import operation_count

SERVER_SERIES = "server_cpu_pct"
CLIENT_SERIES = "client_cpu_pct"


@dataclass(frozen=True)
class CpuFigure:
    us_per_op: float | None  # None: neither recorded nor derivable
    sampled: bool = False  # derived from the per-second samples (source 3)


@dataclass(frozen=True)
class CpuSplit:
    server: CpuFigure
    client: CpuFigure

    @property
    def sampled(self) -> bool:
        return self.server.sampled or self.client.sampled

    @property
    def known(self) -> bool:
        return self.server.us_per_op is not None or self.client.us_per_op is not None


def _from_samples(step: RecordedStep, series_name: str) -> CpuFigure:
    series = monitor_series(step, series_name)
    operations = operation_count(step)
    seconds = step.get("duration_s")
    if not series or operations is None or not seconds:
        return CpuFigure(None)
    cpu_s = statistics.fmean(series) * seconds / 100
    return CpuFigure(round(cpu_s * 1e6 / operations, 2), sampled=True)


def _client(step: RecordedStep, per_op: PerOp) -> CpuFigure:
    if "client_cpu_us" in per_op:
        return CpuFigure(per_op["client_cpu_us"])
    workers_s = step["client_cpu"]["seconds"] if "client_cpu" in step else None
    operations = operation_count(step)
    if workers_s is not None and operations is not None:
        return CpuFigure(round(workers_s * 1e6 / operations, 2))
    return _from_samples(step, CLIENT_SERIES)


def cpu_split(step: RecordedStep) -> CpuSplit | None:
    """The step's server and client CPU per operation; None for a step without per_op."""
    per_op = step.get("per_op")
    if per_op is None:
        return None
    server = (
        CpuFigure(per_op["server_cpu_us"])
        if "server_cpu_us" in per_op
        else _from_samples(step, SERVER_SERIES)
    )
    return CpuSplit(server, _client(step, per_op))
