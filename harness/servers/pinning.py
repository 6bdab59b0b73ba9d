"""CPU pinning with taskset, as Dimitri Kravtchuk pins the server to one socket: the command
line carries the pinning, so the recorded command reproduces it."""

from __future__ import annotations

import os


def pinned(argv: list[str], cpus: tuple[int, ...]) -> list[str]:
    if not cpus:
        return argv
    return ["taskset", "-c", ",".join(map(str, cpus)), *argv]


def applied_cpus(pid: int) -> list[int]:
    """What the kernel actually applied, read back rather than assumed."""
    return sorted(os.sched_getaffinity(pid))
