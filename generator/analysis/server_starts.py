"""Which runs shared a server start, and in what order they ran on it, computed from the
documents.

The harness starts one server per variant, pass and dataset: the workloads that read the same
loaded data (the same `workload.data_origin`, restored from one pristine copy or prepared in
place on an existing server) run one after the other on that start, each inheriting what the one
before left (its buffer pool, its write debt). A workload that creates its own data (no
data_origin) runs on a server of its own. Runs of one start are ordered by `started_at`.

A pass measured again on its own (after a disturbed run was discarded) restores its own copy:
the runs of one start record the same restore, so its `restore_seconds` tells the two apart.
"""

from __future__ import annotations

from typing import Any

from contract import RunDocument
from contract.fields import pass_order


def start_key(run: RunDocument) -> tuple[Any, ...]:
    """What identifies the server start a run ran on; a run alone on its start gets its id."""
    origin = run["workload"].get("data_origin")
    if origin is None:
        return ("own", run["id"])
    dataset = origin.get("pristine_key") or origin["method"]
    restore = origin.get("restore_seconds")
    return (
        run["campaign"]["id"],
        run["variant"],
        pass_order(run),
        dataset,
        restore,
    )


def server_starts(runs: list[RunDocument]) -> dict[str, dict[str, Any]]:
    """By run id: "position" (1 for the first run on its start), "runs" (the ids of every run
    of that start, in the order they ran)."""
    starts: dict[tuple[Any, ...], list[RunDocument]] = {}
    for run in runs:
        starts.setdefault(start_key(run), []).append(run)
    shared: dict[str, dict[str, Any]] = {}
    for members in starts.values():
        ordered = [run["id"] for run in sorted(members, key=lambda run: run["started_at"])]
        for position, run_id in enumerate(ordered, start=1):
            shared[run_id] = {"position": position, "runs": ordered}
    return shared
