"""The interface between a campaign run and what drives the load.

One driver per workload kind (workloads/drivers.py picks it from the campaign's `test`). A
driver says what the run document's workload section holds, how the data is loaded (or that
the workload creates its own), how the steps are measured, and what follows the sweep.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NotRequired, Protocol, TypedDict

import contract
from harness.measure.profile import RunProfiles
from harness.model.campaign import Workload
from harness.servers.protocol import Server
from harness.workloads.sysbench.dataset import Loaded, SysbenchCalls


class WorkloadSection(TypedDict):
    """The run document's workload fields a driver gives (run/document.py adds the rest)."""

    tool: Literal["sysbench", "ibench"]
    tool_version: str
    script: str
    options: dict[str, str]
    client_cpu_affinity: list[int] | None
    tpcc: NotRequired[contract.WorkloadTpcc]


class RunContext(Protocol):
    """What a driver gets from the run it measures (run/workload_run.py provides it)."""

    server: Server
    workload: Workload
    document: contract.RunDocument  # a driver appends steps to document["steps"]
    calls: SysbenchCalls  # runs sysbench and records each command
    profiles: RunProfiles  # the server's CPU profile of each step (measure/profile.py)
    pfs_waits: bool  # a waits pass: performance_schema waits around each step (measure/waits.py)

    @property
    def sysbench(self) -> str:
        """The sysbench binary."""
        ...

    @property
    def innodb_metrics(self) -> tuple[str, ...]:
        """The InnoDB metrics sampled around each step."""
        ...

    def where(self, step: str) -> str: ...
    def on_step(self, where: str, seconds: int) -> None: ...
    def on_step_done(self, summary: str) -> None: ...
    def note(self, message: str) -> None: ...
    def settle(self, step: str) -> contract.Settle | None:
        """Before each measured step (step: its name): let write debt settle when the campaign
        asks; the step's settle record, or None."""
        ...


class DataLoader(Protocol):
    """Builds a workload's data in a running server before its runs (each driver whose
    workload does not create its own data has one)."""

    def load(
        self, server: Server, calls: SysbenchCalls, note: Callable[[str], None]
    ) -> Loaded: ...


class WorkloadDriver(Protocol):
    workload: Workload
    # None: its first step creates the data (no load, no pristine copy, a fresh server each)
    loader: DataLoader | None

    def section(self, sysbench_version: str, client_cpus: tuple[int, ...]) -> WorkloadSection:
        """The run document's workload fields that depend on the kind: tool, tool_version,
        script, options, client_cpu_affinity, and any section of its own."""
        ...

    def dataset(self) -> str:
        """A readable identity of the data: workloads with the same one share a load."""
        ...

    def drop_tables(self, server: Server, calls: SysbenchCalls) -> None:
        """On a server the harness did not start, after the runs: leave no tables behind."""
        ...

    def measure(self, run: RunContext) -> None:
        """Run the measured steps into run.document["steps"]."""
        ...

    def after_sweep(self, run: RunContext) -> str | None:
        """What follows the steps; returns why the run must be marked, or None."""
        ...
