"""The driver of each workload kind, chosen once per workload from the campaign's `test`, and
the grouping of workloads that share data."""

from __future__ import annotations

from harness.model.campaign import Workload
from harness.workloads.ibench.driver import IbenchDriver
from harness.workloads.protocol import WorkloadDriver
from harness.workloads.sysbench.driver import SysbenchDriver
from harness.workloads.tpcc.driver import TpccDriver


def driver_for(workload: Workload) -> WorkloadDriver:
    if workload.ibench is not None:
        return IbenchDriver(workload)
    if workload.tpcc is not None:
        return TpccDriver(workload)
    return SysbenchDriver(workload)


def dataset_of(workload: Workload) -> str:
    """A readable identity of the data a workload runs on."""
    return driver_for(workload).dataset()


def group_by_dataset(workloads: list[Workload]) -> list[list[Workload]]:
    """Workloads sharing data, groups in order of first appearance, campaign order within."""
    groups: dict[str, list[Workload]] = {}
    for workload in workloads:
        groups.setdefault(dataset_of(workload), []).append(workload)
    return list(groups.values())
