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


def _text(value: object) -> str:
    """A recorded value as a banner prints it; a missing one (an older run) is "not recorded"."""
    return NOT_RECORDED if value is None else str(value)


def _server_build(run: RunDocument) -> str:
    # The server appends "-log" to its version while the binary log is on: same build.
    return _text(run["server"].get("version_string")).removesuffix("-log")


# label -> the run's value of that field, as a string.
DRIFT_FIELDS: tuple[tuple[str, Callable[[RunDocument], str]], ...] = (
    (HOST_FIELD, lambda run: host_of(run)["name"]),
    ("CPU model", lambda run: _text(run["host"].get("cpu_model"))),
    ("CPU threads", lambda run: _text(run["host"].get("cpu_threads"))),
    ("kernel", lambda run: _text(run["host"].get("kernel"))),
    ("CPU frequency governor", lambda run: _text(run["host"].get("cpu_governor"))),
    ("transparent huge pages", lambda run: _text(run["host"].get("transparent_hugepages"))),
    ("datadir device", lambda run: _text(run["host"].get("datadir_device"))),
    ("datadir filesystem", lambda run: _text(run["host"].get("datadir_filesystem"))),
    ("server build", _server_build),
    ("sysbench version", lambda run: _text(run["workload"].get("tool_version"))),
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
