"""What the harness measures around any step, whatever drives the load: SHOW GLOBAL STATUS
before and after, the host's /proc counters before and after, the per-second sampler, and the
server's CPU profile (measure/profile.py) when the run profiles, and performance_schema's
waits (measure/waits.py) in a campaign's waits pass.

    with measured_step(server, innodb_metrics, run.profiles, contract.step_key(...)) as step:
        ...  # the load runs
    step.fields  # server_status_delta, os, monitor, profile
    step.per_op(operations, "insert")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Literal, TypedDict

import contract
from harness.measure import counters, waits
from harness.measure.profile import RunProfiles
from harness.measure.sampler import INTERVAL_S, ProcessCpu, StepSampler, cpu_between, process_cpu
from harness.servers.protocol import Server


class StepMeasures(TypedDict, total=False):
    """What measured_step records on a step, under the keys a Step and an IbenchStep share."""

    server_status_delta: dict[str, float]
    os: contract.OsCounters
    waits: contract.PfsWaits
    monitor: contract.Monitor
    profile: contract.StepProfile


# What a per_op figure counts (contract.PerOp's op).
Operation = Literal["transaction", "query", "insert", "indexed_row"]


@dataclass
class MeasuredStep:
    # Filled when the block exits; the same dict object throughout, so a caller that handed it
    # on (harness.workloads.ibench merges it into the step) sees the values.
    fields: StepMeasures = field(default_factory=StepMeasures)
    os_before: counters.OsSample | None = None
    os_after: counters.OsSample | None = None
    cpu_before: ProcessCpu | None = None
    cpu_after: ProcessCpu | None = None

    def per_op(
        self, operations: int, op: Operation, client_cpu_s: float | None = None
    ) -> contract.PerOp:
        """Mark Callaghan's cpu/o, cs/o, rKB/o, wKB/o over the step, per `op`, and the server's
        and the clients' own CPU per `op`. client_cpu_s: the clients' CPU as a driver measured
        it itself (the Insert Benchmark's workers), in place of this process's children."""
        os_before, os_after = self.os_before, self.os_after
        cpu_before, cpu_after = self.cpu_before, self.cpu_after
        # measured_step has set all four once its block has exited
        assert os_before is not None and os_after is not None
        assert cpu_before is not None and cpu_after is not None
        server_s, children_s = cpu_between(cpu_before, cpu_after)
        client_s = children_s if client_cpu_s is None else client_cpu_s
        costs = counters.per_operation(os_before, os_after, operations, server_s, client_s)
        return {**costs, "op": op}


@contextmanager
def measured_step(
    server: Server,
    innodb_metrics: tuple[str, ...],
    profiles: RunProfiles | None = None,
    key: str = "",
    pfs_waits: bool = False,
) -> Iterator[MeasuredStep]:
    """key: the step's contract.step_key, under which profiles keeps its stacks. perf attaches
    first and stops first, so neither its start nor its folding falls inside the step's
    counters; a step that fails loses its profile. pfs_waits: the server times its waits (a
    waits pass), read around the step."""
    step = MeasuredStep()
    recording = profiles.start(server.pid) if profiles is not None else None
    try:
        with server.connect() as conn:
            waits_before = waits.snapshot(conn) if pfs_waits else {}
            status_before = counters.server_status(conn)
        with server.connect() as sampler_connection:
            sampler = StepSampler(sampler_connection, server.pid, innodb_metrics)
            sampler.start()
            step.os_before = counters.os_sample()
            step.cpu_before = process_cpu(server.pid)
            try:
                yield step
            finally:
                step.os_after = counters.os_sample()
                step.cpu_after = process_cpu(server.pid)
                samples = sampler.stop()
                if recording is not None:
                    recording.stop()
        server.check_alive()
        with server.connect() as conn:
            status_after = counters.server_status(conn)
            waits_after = waits.snapshot(conn) if pfs_waits else {}
    except BaseException:
        if recording is not None:
            recording.discard()
        raise
    step.fields["server_status_delta"] = counters.status_delta(status_before, status_after)
    step.fields["os"] = counters.os_delta(step.os_before, step.os_after)
    if pfs_waits:
        step.fields["waits"] = waits.step_waits(waits_before, waits_after)
    if samples:  # a step shorter than one interval (l.x on tiny data) has no sample
        step.fields["monitor"] = {"interval_s": INTERVAL_S, "series": samples}
        if sampler.kinds:
            step.fields["monitor"]["kinds"] = sampler.kinds
    if recording is not None and profiles is not None:
        summary = profiles.keep(key, recording)
        if summary is not None:
            step.fields["profile"] = summary
