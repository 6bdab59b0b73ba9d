"""Environment drift: where runs that a page compares were measured under different
conditions (machine, kernel, storage, server build, client tool), so a difference between
them may come from the environment rather than from the configuration under test.

The machine comes first, as the host of generator/analysis/hosts.py: runs from two hosts were
measured on different machines, whatever their hostnames, and the banners lead with that."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from contract import RunDocument
from generator.analysis.hosts import host_of

# The first field: runs from different hosts are different machines, which the banners say first.
HOST_FIELD = "host"
NOT_RECORDED = "not recorded"


def _recorded(*path: str) -> Callable[[RunDocument], str]:
    """The value at path in the run document; a missing one (an older run) is "not recorded"."""

    def value(run: RunDocument) -> str:
        found: object = run
        for key in path:
            found = found.get(key) if isinstance(found, dict) else None
        return NOT_RECORDED if found is None else str(found)

    return value


def _server_build(run: RunDocument) -> str:
    # The server appends "-log" to its version while the binary log is on: same build.
    return _recorded("server", "version_string")(run).removesuffix("-log")


# label -> the run's value of that field, as a string.
DRIFT_FIELDS: tuple[tuple[str, Callable[[RunDocument], str]], ...] = (
    (HOST_FIELD, lambda run: host_of(run)["name"]),
    ("CPU model", _recorded("host", "cpu_model")),
    ("CPU threads", _recorded("host", "cpu_threads")),
    ("kernel", _recorded("host", "kernel")),
    ("CPU frequency governor", _recorded("host", "cpu_governor")),
    ("transparent huge pages", _recorded("host", "transparent_hugepages")),
    ("datadir device", _recorded("host", "datadir_device")),
    ("datadir filesystem", _recorded("host", "datadir_filesystem")),
    ("server build", _server_build),
    ("sysbench version", _recorded("workload", "tool_version")),
)


def field_values(run: RunDocument) -> list[str]:
    """The run's value of each DRIFT_FIELDS field, in that order."""
    return [value(run) for _, value in DRIFT_FIELDS]


def environment_drift(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """One entry per field on which the runs disagree: its label and, per distinct value, the
    runs that had it (ids sorted), values in order of first appearance."""
    drift = []
    for label, value_of in DRIFT_FIELDS:
        by_value: dict[str, list[str]] = {}
        for run in runs:
            by_value.setdefault(value_of(run), []).append(run["id"])
        if len(by_value) > 1:
            drift.append(
                {
                    "what": label,
                    "values": [
                        {"value": value, "runs": sorted(ids)} for value, ids in by_value.items()
                    ],
                }
            )
    return drift
