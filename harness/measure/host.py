"""Describe the machine a run happened on, from /proc, /sys and os; each collect_* reads one
thing. collect_host adds the host fingerprint (contract/_host_fingerprint.py says which facts it
covers and why) and the campaign's [host] label."""

from __future__ import annotations

import hashlib
import hmac
import os
import platform
import re
from pathlib import Path
from typing import TypedDict

import contract

# The machine id is secret-ish (systemd: "should be considered confidential"): only an HMAC keyed
# by it over this application id is used, as systemd's app-specific ids do, so the published
# fingerprint cannot be matched against the raw id or another tool's hash of it.
_FINGERPRINT_APP_ID = b"mybench host fingerprint"
_MACHINE_ID_FILES = ("/etc/machine-id", "/var/lib/dbus/machine-id")


# What each collect_* reads, under the keys of contract.Host it fills.
class OsFacts(TypedDict):
    hostname: str
    kernel: str
    os: str


class CpuFacts(TypedDict):
    cpu_model: str
    cpu_sockets: int
    cpu_cores: int
    cpu_threads: int
    virtualization: str | None
    cpu_affinity: list[int]


class MemoryFacts(TypedDict):
    ram_bytes: int


class TuningFacts(TypedDict):
    cpu_governor: str | None
    transparent_hugepages: str | None


def collect_cpu() -> CpuFacts:
    text = Path("/proc/cpuinfo").read_text()
    models = [
        line.split(":", 1)[1].strip()
        for line in text.splitlines()
        if line.startswith("model name")
    ]
    sockets = {
        line.split(":", 1)[1].strip()
        for line in text.splitlines()
        if line.startswith("physical id")
    }
    cores = {
        (block.get("physical id"), block.get("core id"))
        for block in _cpuinfo_blocks(text)
        if "core id" in block
    }
    flags = next((line for line in text.splitlines() if line.startswith("flags")), "")
    return {
        "cpu_model": models[0] if models else platform.processor() or "unknown",
        "cpu_sockets": max(len(sockets), 1),
        "cpu_cores": max(len(cores), 1),
        "cpu_threads": os.cpu_count() or 1,
        "virtualization": "hypervisor" if " hypervisor" in flags else None,
        "cpu_affinity": sorted(os.sched_getaffinity(0)),
    }


def _cpuinfo_blocks(text: str) -> list[dict[str, str]]:
    blocks = []
    for chunk in text.strip().split("\n\n"):
        fields = {}
        for line in chunk.splitlines():
            if ":" in line:
                key, value = line.split(":", 1)
                fields[key.strip()] = value.strip()
        blocks.append(fields)
    return blocks


def collect_memory() -> MemoryFacts:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return {"ram_bytes": int(line.split()[1]) * 1024}
    return {"ram_bytes": 1}


def collect_os() -> OsFacts:
    pretty = platform.system()
    os_release = Path("/etc/os-release")
    if os_release.exists():
        for line in os_release.read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                pretty = line.split("=", 1)[1].strip('"')
    return {"hostname": platform.node(), "kernel": platform.release(), "os": pretty}


def _read_first_line(path: str) -> str | None:
    try:
        return Path(path).read_text().splitlines()[0].strip()
    except (OSError, IndexError):
        return None  # a VM without cpufreq, a container without /sys/kernel/mm


def collect_tuning() -> TuningFacts:
    """Kernel settings that move database numbers: the CPU governor and transparent hugepages."""
    thp = _read_first_line("/sys/kernel/mm/transparent_hugepage/enabled")
    if thp and "[" in thp:
        thp = thp[thp.index("[") + 1 : thp.index("]")]  # "always [madvise] never" -> "madvise"
    return {
        "cpu_governor": _read_first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"),
        "transparent_hugepages": thp,
    }


def machine_key(files: tuple[str, ...] = _MACHINE_ID_FILES) -> str | None:
    """The machine id, hashed for mybench; None when no file holds one (a minimal container)."""
    for path in files:
        machine_id = _read_first_line(path)
        if machine_id and re.fullmatch(r"[0-9a-f]{32}", machine_id):
            digest = hmac.new(machine_id.encode(), _FINGERPRINT_APP_ID, hashlib.sha256)
            return digest.hexdigest()
    return None


def _disk_file(device: str | None, relative: str) -> str | None:
    """The first line of a sysfs file of the disk holding device (/dev/nvme0n1p2 -> its disk's),
    such as device/model; None for a pseudo filesystem or a disk without that file."""
    if not device or not device.startswith("/dev/"):
        return None
    block = (Path("/sys/class/block") / Path(device).resolve().name).resolve()
    for disk in (block, block.parent):  # a partition's disk is its parent in sysfs
        value = _read_first_line(str(disk / relative))
        if value:
            return value
    return None


def device_model(device: str | None) -> str | None:
    """The model sysfs gives the disk holding device; None for a pseudo filesystem or a disk
    without one (virtio)."""
    return _disk_file(device, "device/model")


def write_cache(device: str | None) -> str | None:
    """The kernel's write_cache setting of the disk holding device ("write back" or "write
    through"); None where sysfs has none (a pseudo filesystem, an overlay)."""
    return _disk_file(device, "queue/write_cache")


def mount_of(path: Path) -> tuple[str | None, str | None, str | None]:
    """(filesystem type, device, mount options) of the mount holding path: longest mount point."""
    best: tuple[str, str | None, str | None, str | None] = ("", None, None, None)
    resolved = str(path.resolve())
    for line in Path("/proc/self/mounts").read_text().splitlines():
        device, mount_point, fstype, options, *_ = line.split()
        mount_point = mount_point.replace("\\040", " ")
        inside = resolved == mount_point or resolved.startswith(mount_point.rstrip("/") + "/")
        if inside and len(mount_point) >= len(best[0]):
            best = (mount_point, fstype, device, options)
    return best[1], best[2], best[3]


def collect_host(datadir: Path | None, label: str | None = None) -> contract.Host:
    """datadir None: the server's files are not on this machine (a remote existing server), so
    the datadir fields are null rather than describing some other filesystem. label: the
    campaign's [host] label, recorded when given."""
    fstype, device, options = mount_of(datadir) if datadir is not None else (None, None, None)
    system, cpu, memory, tuning = collect_os(), collect_cpu(), collect_memory(), collect_tuning()
    # Key by key: mypy's strict check refuses ** items that leave out Host's optional keys.
    host: contract.Host = {
        "hostname": system["hostname"],
        "kernel": system["kernel"],
        "os": system["os"],
        "cpu_model": cpu["cpu_model"],
        "cpu_sockets": cpu["cpu_sockets"],
        "cpu_cores": cpu["cpu_cores"],
        "cpu_threads": cpu["cpu_threads"],
        "virtualization": cpu["virtualization"],
        "cpu_affinity": cpu["cpu_affinity"],
        "ram_bytes": memory["ram_bytes"],
        "cpu_governor": tuning["cpu_governor"],
        "transparent_hugepages": tuning["transparent_hugepages"],
        "datadir_filesystem": fstype,
        "datadir_device": device,
        "datadir_mount_options": options,
        "datadir_device_model": device_model(device),
    }
    host["fingerprint"] = contract.host_fingerprint(host, machine_key())
    if label is not None:
        host["label"] = label
    return host
