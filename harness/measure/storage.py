"""Characterise the storage under a datadir with fio, once per host fingerprint and device.

A database's numbers rest on its disk as much as on its CPU: a durable commit
(innodb_flush_log_at_trx_commit=1, sync_binlog=1) waits for a write and an fdatasync, and a
page read that misses the buffer pool waits for a 16 KiB random read. Four short fio jobs
measure exactly those, in one fio process, one after the other (stonewall), on one test file in
a scratch directory on the datadir's filesystem:

- rand_read_16k_qd1 and _qd32: 16 KiB random reads, direct I/O (libaio), queue depth 1 and 32
  (fio lays the file out first, so the reads hit written blocks, not holes);
- seq_write: 1 MiB sequential writes, direct I/O, queue depth 1;
- sync_write_4k: 4 KiB sequential writes, each followed by fdatasync (the sync engine), whose
  latency percentiles are fio's `sync` ones: the floor of a durable commit.

A flush that takes under 10 microseconds at the median never reached stable media (no disk or
SSD makes a write durable that fast): a volatile write cache acknowledges it, so flushes are
not honoured and durable-commit figures from that machine overstate what a crash-safe one does.

The result is cached in the user's cache dir by host fingerprint and device (the machine and
the disk do not change between campaigns); --refresh measures again.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from functools import cache
from pathlib import Path
from typing import Any, cast

import jsonschema

import contract
from contract import FioResult, Storage
from harness.errors import UserError
from harness.measure import host

DEFAULT_FILE_MB = 256
DEFAULT_SECONDS = 3.0
LYING_FLUSH_US = 10.0  # a median fdatasync faster than this never reached stable media
SPARE_MB = 64  # left free beside the test file, so the test never fills a server's disk
TEST_FILE = "mybench-fio.dat"
MIB = 1024 * 1024

# Job name -> its fio options, in the order they run.
JOBS: dict[str, tuple[str, ...]] = {
    "rand_read_16k_qd1": ("--rw=randread", "--bs=16k", "--ioengine=libaio", "--iodepth=1"),
    "rand_read_16k_qd32": ("--rw=randread", "--bs=16k", "--ioengine=libaio", "--iodepth=32"),
    "seq_write": ("--rw=write", "--bs=1m", "--ioengine=libaio", "--iodepth=1"),
    "sync_write_4k": ("--rw=write", "--bs=4k", "--ioengine=sync", "--fdatasync=1"),
}
DIRECT_JOBS = {"rand_read_16k_qd1", "rand_read_16k_qd32", "seq_write"}


class StorageUnmeasured(UserError):
    """fio could not characterise the storage: one line naming the path and why."""


def cache_dir() -> Path:
    """$XDG_CACHE_HOME/mybench/storage, else ~/.cache/mybench/storage."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if os.path.isabs(base) else Path.home() / ".cache"
    return root / "mybench" / "storage"


def cache_file(fingerprint: str, device: str | None, directory: Path | None = None) -> Path:
    """<cache dir>/<fingerprint>-<device name>.json (/dev/nvme0n1p2 -> nvme0n1p2)."""
    name = Path(device).name if device and device.startswith("/dev/") else device or "none"
    safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)
    return (directory or cache_dir()) / f"{fingerprint}-{safe}.json"


def host_key(datadir: Path) -> tuple[str, str | None]:
    """(host fingerprint, datadir device) of datadir: what a measurement is cached by, and
    what a run document's host section names (host.collect_host)."""
    facts = host.collect_host(datadir)
    return str(facts["fingerprint"]), facts["datadir_device"]


def is_cached(datadir: Path) -> bool:
    """Whether the cache holds a measurement of datadir's host and device."""
    return cache_file(*host_key(datadir)).exists()


def characterise(
    datadir: Path,
    refresh: bool = False,
    file_mb: int = DEFAULT_FILE_MB,
    seconds: float = DEFAULT_SECONDS,
    fio: str = "fio",
    cache: Path | None = None,
) -> tuple[Storage, bool]:
    """The storage under datadir (which need not exist yet) and whether it came from the cache;
    measured and cached unless the cache holds it for this host and device (or refresh)."""
    fingerprint, device = host_key(datadir)
    path = cache_file(fingerprint, device, cache)
    if not refresh and (cached := _cached(path)) is not None:
        return cached, True
    storage = measure(datadir, device, file_mb, seconds, fio)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text(json.dumps(storage, indent=1) + "\n")
    partial.replace(path)  # a reader never sees half a file
    return storage, False


def _cached(path: Path) -> Storage | None:
    """The cached storage at path; None when there is none or it no longer fits the schema
    (written by an older harness, or damaged): it is measured again."""
    try:
        cached = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    return cast(Storage, cached) if _storage_validator().is_valid(cached) else None


@cache
def _storage_validator() -> jsonschema.Draft202012Validator:
    """The run schema's $defs/storage, alone."""
    schema = json.loads(contract.SCHEMA_PATH.read_text())
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/storage"})


def storage_problems(storage: object) -> list[str]:
    """Where storage breaks the run schema's $defs/storage (empty when it fits)."""
    return [error.message for error in _storage_validator().iter_errors(storage)]


def measure(
    datadir: Path,
    device: str | None,
    file_mb: int = DEFAULT_FILE_MB,
    seconds: float = DEFAULT_SECONDS,
    fio: str = "fio",
) -> Storage:
    """Run the fio jobs in a scratch directory beside datadir (on its filesystem) and parse
    them; device: the block device under it (host.mount_of). Refuses with one line when fio is
    missing, the filesystem is too full for the test file, or fio fails."""
    existing = next(path for path in (datadir, *datadir.parents) if path.is_dir())
    binary = shutil.which(fio)
    if binary is None:
        raise StorageUnmeasured(
            f"{existing}: storage not characterised: {fio} not found (apt-get install fio)"
        )
    free_mb = shutil.disk_usage(existing).free // MIB
    if free_mb < file_mb + SPARE_MB:
        raise StorageUnmeasured(
            f"{existing}: storage not characterised: {free_mb} MiB free, fio's test file needs"
            f" {file_mb} MiB and {SPARE_MB} MiB to spare"
        )
    try:
        scratch = tempfile.TemporaryDirectory(prefix=".mybench-fio-", dir=existing)
    except OSError as exc:
        raise StorageUnmeasured(
            f"{existing}: storage not characterised: cannot write there: {exc.strerror}"
        ) from None
    with scratch:
        report = _run_fio(binary, Path(scratch.name), file_mb, seconds)
    jobs = {job["jobname"]: job for job in report["jobs"]}
    results = {name: _result(name, jobs[name]) for name in JOBS}
    sync_p50 = results["sync_write_4k"].get("p50_us")
    return {
        "tool": "fio",
        "version": str(report["fio version"]).removeprefix("fio-"),
        "measured_at": contract.utc_timestamp(),
        "device": device,
        "write_cache": host.write_cache(device),
        "file_mb": file_mb,
        "seconds_per_test": seconds,
        "sync_write_4k": results["sync_write_4k"],
        "rand_read_16k_qd1": results["rand_read_16k_qd1"],
        "rand_read_16k_qd32": results["rand_read_16k_qd32"],
        "seq_write": results["seq_write"],
        "flushes_honoured": None if sync_p50 is None else sync_p50 >= LYING_FLUSH_US,
    }


def fio_command(binary: str, scratch: Path, file_mb: int, seconds: float) -> list[str]:
    """One fio process running every job in turn on one test file in scratch."""
    command = [
        binary,
        "--output-format=json",
        f"--directory={scratch}",
        f"--filename={TEST_FILE}",
        f"--size={file_mb}m",
        f"--runtime={seconds}s",
        "--time_based",
    ]
    for index, (name, options) in enumerate(JOBS.items()):
        command += [f"--name={name}", *options]
        command += ["--direct=1"] if name in DIRECT_JOBS else []
        command += ["--stonewall"] if index else []
    return command


def _run_fio(binary: str, scratch: Path, file_mb: int, seconds: float) -> dict[str, Any]:
    command = fio_command(binary, scratch, file_mb, seconds)
    done = subprocess.run(command, check=False, capture_output=True, text=True)
    # fio may print notes before its JSON; the report starts at the first line that is "{"
    start = done.stdout.find("\n{") + 1 if not done.stdout.startswith("{") else 0
    try:
        report = json.loads(done.stdout[start:])
    except ValueError:
        report = None
    failed = [job["jobname"] for job in (report or {}).get("jobs", []) if job.get("error")]
    if done.returncode != 0 or report is None or failed:
        lines = [line.strip() for line in (done.stderr + done.stdout).splitlines()]
        cause = next((line for line in lines if line), f"exit status {done.returncode}")
        raise StorageUnmeasured(f"{scratch.parent}: storage not characterised: fio: {cause}")
    return cast(dict[str, Any], report)  # fio's JSON report


def _result(name: str, job: dict[str, Any]) -> FioResult:  # a job of fio's report
    """IOPS, MB/s (10^6 bytes) and latency percentiles of the job's one direction; for
    sync_write_4k the percentiles are the fdatasync's."""
    side = job["read"] if name.startswith("rand_read") else job["write"]
    latency = job["sync"]["lat_ns"] if name == "sync_write_4k" else side["clat_ns"]
    result: FioResult = {"iops": float(side["iops"]), "mb_per_s": side["bw_bytes"] / 1e6}
    percentiles = latency.get("percentile", {}) if latency.get("N", 1) else {}
    for key, share in (("p50_us", "50.000000"), ("p99_us", "99.000000")):
        if share in percentiles:
            result[key] = percentiles[share] / 1000  # type: ignore[literal-required]
    return result


def report_lines(storage: Storage) -> list[str]:
    """The figures as `mybench storage` and bench/storage.py print them."""
    sync, qd1 = storage["sync_write_4k"], storage["rand_read_16k_qd1"]
    qd32, sequential = storage["rand_read_16k_qd32"], storage["seq_write"]
    honoured = {True: "yes", False: "no (a write cache acknowledges them)", None: "unknown"}
    where = f"device {storage['device'] or 'unknown'}, write cache"
    where += f" {storage['write_cache'] or 'unknown'}, fio {storage['version']}"
    sync_line = f"fdatasync p50 {_us(sync, 'p50_us')} p99 {_us(sync, 'p99_us')}"
    read_line = f"p50 {_us(qd1, 'p50_us')} p99 {_us(qd1, 'p99_us')}"
    return [
        f"{where}, measured {storage['measured_at']}",
        f"  4 KiB write + fdatasync, QD1: {sync_line}, {sync['iops']:,.0f} IOPS",
        f"  16 KiB random reads, QD1:     {read_line}, {qd1['iops']:,.0f} IOPS",
        f"  16 KiB random reads, QD32:    {qd32['iops']:,.0f} IOPS",
        f"  1 MiB sequential writes:      {sequential['mb_per_s']:,.0f} MB/s",
        f"  flushes honoured: {honoured[storage.get('flushes_honoured')]}",
    ]


def _us(result: FioResult, key: str) -> str:
    value = result.get(key)
    return "unknown" if value is None else f"{value:,.0f} µs"
