"""Which machine a run came from: the host fingerprint, shared by the harness (which records it)
and the generator (which derives it for documents written before it was recorded).

The fingerprint is a SHA-256 over the facts that stay with a machine:

- the CPU: model, sockets, cores, threads;
- the RAM, rounded to whole GiB: the kernel's MemTotal moves by a few MB between boots of the
  same machine (the memory the firmware and the kernel keep varies), and whole GiB absorbs that;
- the storage under the datadir: filesystem type, device and the device's model, because for a
  database the disk is part of the machine being measured;
- the machine: a hash of /etc/machine-id keyed for mybench (`machine_key`, computed by the
  harness; the raw id is never recorded), or, where no machine id could be read (and in every
  document written before the fingerprint existed), the hostname in its place.

Left out on purpose: the kernel, the OS release, the CPU governor, transparent huge pages and
the mount options. They are software settings that change on the same machine (a kernel
upgrade leaves the hardware as it was), so two runs that differ only there come from one host
in a different environment, which the generator's drift banner reports field by field. A host
that moves to another CPU, RAM size or disk becomes a new host.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

GIB = 1024**3
# The host fields the fingerprint reads, besides the machine key (or hostname) and the RAM.
FINGERPRINT_FIELDS = (
    "cpu_model",
    "cpu_sockets",
    "cpu_cores",
    "cpu_threads",
    "datadir_filesystem",
    "datadir_device",
    "datadir_device_model",
)


def ram_gib(ram_bytes: int) -> int:
    """RAM as the fingerprint and host names count it: whole GiB, rounded to the nearest."""
    return round(ram_bytes / GIB)


def host_fingerprint(host: Mapping[str, object], machine_key: str | None) -> str:
    """64 hex digits from the facts of a run document's host section (missing ones count as
    null) and machine_key (None: not known, the hostname stands in)."""
    facts = {name: host.get(name) for name in FINGERPRINT_FIELDS}
    ram = host.get("ram_bytes")
    facts["ram_gib"] = ram_gib(ram) if isinstance(ram, int) else None
    facts["machine"] = (
        f"machine-id:{machine_key}" if machine_key else f"hostname:{host.get('hostname')}"
    )
    canonical = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()
