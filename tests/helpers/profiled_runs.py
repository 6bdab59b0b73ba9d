"""Copies of the committed binlog campaign's runs with server profiles, for tests of what the
generator and the site make of them: no committed run was profiled yet.

The stacks are synthetic but shaped like perf's of mariadbd under oltp-rw: every sample starts
at the process and the connection thread; a read descends into the row search, a commit into the
redo log's write and, where the binary log is synced (the sync-1 variant), into
MYSQL_BIN_LOG's fdatasync. The sync-1 variant spends SYNC_SHARE_PCT of its samples there, the
base binlog-off none: the function a differential page must list first is BINLOG_FSYNC_FRAME.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import contract
from tests.helpers.paths import REPO

CAMPAIGN = "binlog-sync-policies-20261123-133014"
BASE, VARIANT = "binlog-off", "sync-1"
COMMITTED = REPO / "tests" / "fixtures" / "runs" / "runs"
PROFILER = {
    "tool": "perf",
    "version": "6.1.76",
    "event": "cpu-clock",
    "frequency_hz": 99,
    "call_graph": "fp",
}
SYMBOLS = {"binary": "mariadbd", "symbol_table": "dynamic", "dynamic_symbols": 12000}

THREAD = ("mariadbd", "start_thread", "handle_one_connection", "do_command", "dispatch_command")
READ = (*THREAD, "mysql_execute_command", "handler::ha_index_read_map", "row_search_mvcc")
COMMIT = (*THREAD, "trans_commit", "ha_commit_trans")
REDO_WRITE = (*COMMIT, "log_write_up_to", "[mariadbd]", "pwrite64")
BINLOG_FSYNC = (*COMMIT, "MYSQL_BIN_LOG::sync_binlog_file", "my_sync", "fdatasync")
BINLOG_FSYNC_FRAME = "MYSQL_BIN_LOG::sync_binlog_file"
SYNC_SHARE_PCT = 40


def stacks_of(variant: str, threads: int) -> dict[contract.Stack, int]:
    """One step's stacks: the base's reads and redo writes; sync-1's binary log syncs on top,
    SYNC_SHARE_PCT of its samples. More threads, more samples."""
    samples = 100 * threads
    found = {READ: samples * 70 // 100, REDO_WRITE: samples * 30 // 100}
    if variant == VARIANT:
        found = {stack: count * (100 - SYNC_SHARE_PCT) // 100 for stack, count in found.items()}
        found[BINLOG_FSYNC] = samples * SYNC_SHARE_PCT // 100
    return found


def _step_summary(stacks: dict[contract.Stack, int]) -> dict[str, Any]:
    kept = sum(stacks.values())
    unresolved = sum(count for stack, count in stacks.items() if "[mariadbd]" in stack)
    frames = sum(len(stack) * count for stack, count in stacks.items())
    return {
        "samples": kept,
        "kept_samples": kept,
        "unresolved_frames_pct": round(100 * unresolved / frames, 2),
        "median_depth": 10,
    }


def profiled(run: dict[str, Any], data_dir: Path) -> dict[str, Any]:
    """run with a profile of every step, its profile file written under data_dir."""
    steps = {
        str(step["threads"]): stacks_of(run["variant"], step["threads"]) for step in run["steps"]
    }
    for step in run["steps"]:
        step["profile"] = _step_summary(steps[str(step["threads"])])
    name, digest = contract.write_profile(contract.interned(run["id"], PROFILER, steps), data_dir)
    run["profile"] = {"file": name, "sha256": digest, "profiler": PROFILER, "symbols": SYMBOLS}
    return run


def profiled_data(data_dir: Path, skipped_run: str | None = None) -> Path:
    """A data dir holding the binlog campaign's runs, each profiled, but skipped_run (an id)
    whose profile says why it was skipped; returns data_dir."""
    runs_dir = data_dir / "runs"
    runs_dir.mkdir(parents=True)
    for path in sorted(COMMITTED.glob(f"{CAMPAIGN}.*.json")):
        run = json.loads(path.read_text())
        if run["id"] == skipped_run:
            run["profile"] = {"skipped": "perf is not installed on this host"}
        else:
            run = profiled(run, data_dir)
        (runs_dir / path.name).write_text(json.dumps(run, indent=1))
    return data_dir


def run_path(data_dir: Path, run_id: str) -> Path:
    return data_dir / "runs" / f"{run_id}.json"


def copy_data(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target
