"""What the harness measures around any step, whatever drives the load: SHOW GLOBAL STATUS
before and after, the host's /proc counters before and after, and the per-second sampler.

    with measured_step(server, innodb_metrics) as step:
        ...  # the load runs
    step.fields  # server_status_delta, os, monitor
    step.per_op(operations, "insert")
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from harness.measure import counters
from harness.measure.sampler import INTERVAL_S, StepSampler
from harness.servers.protocol import Server


@dataclass
class MeasuredStep:
    # Filled when the block exits; the same dict object throughout, so a caller that handed it
    # on (harness.workloads.ibench merges it into the step) sees the values.
    fields: dict = field(default_factory=dict)
    os_before: counters.OsSample | None = None
    os_after: counters.OsSample | None = None

    def per_op(self, operations: int, op: str) -> dict[str, object]:
        """Mark Callaghan's cpu/o, cs/o, rKB/o, wKB/o over the step, per `op`."""
        return {**counters.per_operation(self.os_before, self.os_after, operations), "op": op}


@contextmanager
def measured_step(server: Server, innodb_metrics: tuple[str, ...]) -> Iterator[MeasuredStep]:
    step = MeasuredStep()
    with server.connect() as conn:
        status_before = counters.server_status(conn)
    with server.connect() as sampler_connection:
        sampler = StepSampler(sampler_connection, server.pid, innodb_metrics)
        sampler.start()
        step.os_before = counters.os_sample()
        try:
            yield step
        finally:
            step.os_after = counters.os_sample()
            samples = sampler.stop()
    server.check_alive()
    with server.connect() as conn:
        status_after = counters.server_status(conn)
    step.fields.update(
        server_status_delta=counters.status_delta(status_before, status_after),
        os=counters.os_delta(step.os_before, step.os_after),
    )
    if samples:  # a step shorter than one interval (l.x on tiny data) has no sample
        step.fields["monitor"] = {"interval_s": INTERVAL_S, "series": samples}
        if sampler.kinds:
            step.fields["monitor"]["kinds"] = sampler.kinds
