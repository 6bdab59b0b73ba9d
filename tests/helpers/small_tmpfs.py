"""A tiny tmpfs for tests of a full disk, on any machine where a test may run.

As root it is mounted where asked. Without the right to mount, it is mounted in a private
mount namespace (`unshare --user --map-root-user --mount`) that a sleeping process keeps open:
commands that must see it run through `prefix` (nsenter into that namespace), and the test
reads and writes it through `view` (/proc/<pid>/root of the holder). Neither way skips.
"""

from __future__ import annotations

import errno
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class Tmpfs:
    path: Path  # where the commands under test see it
    view: Path  # where this test process reads and writes it
    prefix: tuple[str, ...] = ()  # put before a command that must see it


@contextmanager
def small_tmpfs(mount_point: Path, size: str) -> Iterator[Tmpfs]:
    mount_point.mkdir(parents=True, exist_ok=True)
    mount = ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount_point)]
    if subprocess.run(mount, capture_output=True, check=False).returncode == 0:
        try:
            yield Tmpfs(mount_point, mount_point)
        finally:
            subprocess.run(["umount", "--lazy", str(mount_point)], check=True)
        return
    with _private_namespace(mount) as holder:
        nsenter = ("nsenter", f"--target={holder}", "--user", "--mount", "--preserve-credentials")
        yield Tmpfs(mount_point, Path(f"/proc/{holder}/root{mount_point}"), nsenter)


@contextmanager
def _private_namespace(mount: list[str]) -> Iterator[int]:
    """A process in its own user and mount namespaces with the tmpfs mounted: its pid."""
    script = f"{' '.join(mount)} && echo mounted && exec sleep 3600"
    holder = subprocess.Popen(
        ["unshare", "--user", "--map-root-user", "--mount", "sh", "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if holder.stdout.readline().strip() != "mounted":
            pytest.fail(f"cannot mount a tmpfs, even with unshare: {holder.stderr.read()}")
        yield holder.pid
    finally:
        holder.kill()
        holder.wait()


def fill(directory: Path) -> None:
    """Write into directory until its filesystem has no byte left."""
    fd = os.open(directory / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while True:
            os.write(fd, bytes(65536))  # a short write at the end, then ENOSPC
    except OSError as exc:
        assert exc.errno == errno.ENOSPC, exc
    finally:
        os.close(fd)
