"""Environment drift: where runs that a page compares were measured under different
conditions (machine, kernel, storage, server build, client tool), so a difference between
them may come from the environment rather than from the configuration under test."""

from __future__ import annotations

from typing import Any

from contract import RunDocument

# label -> path in the run document; a missing value (an older run) counts as "not recorded".
DRIFT_FIELDS = (
    ("CPU model", ("host", "cpu_model")),
    ("CPU threads", ("host", "cpu_threads")),
    ("kernel", ("host", "kernel")),
    ("CPU frequency governor", ("host", "cpu_governor")),
    ("transparent huge pages", ("host", "transparent_hugepages")),
    ("datadir device", ("host", "datadir_device")),
    ("datadir filesystem", ("host", "datadir_filesystem")),
    ("server build", ("server", "version_string")),
    ("sysbench version", ("workload", "tool_version")),
)
NOT_RECORDED = "not recorded"


def _value(run: RunDocument, path: tuple[str, ...]) -> str:
    value: object = run
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if value is None:
        return NOT_RECORDED
    # The server appends "-log" to its version while the binary log is on: same build.
    return str(value).removesuffix("-log") if path == ("server", "version_string") else str(value)


def field_values(run: RunDocument) -> list[str]:
    """The run's value of each DRIFT_FIELDS field, in that order."""
    return [_value(run, path) for _, path in DRIFT_FIELDS]


def environment_drift(runs: list[RunDocument]) -> list[dict[str, Any]]:
    """One entry per field on which the runs disagree: its label and, per distinct value, the
    runs that had it (ids sorted), values in order of first appearance."""
    drift = []
    for label, path in DRIFT_FIELDS:
        by_value: dict[str, list[str]] = {}
        for run in runs:
            by_value.setdefault(_value(run, path), []).append(run["id"])
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
