"""serve: generate, run `hugo server`, regenerate when a data dir changes, stop on Ctrl-C."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

from generator.hugo.build import generate
from generator.hugo.command import hugo_command, hugo_env
from generator.hugo.errors import HugoError, InvalidData

POLL_SECONDS = 1.0
BIND = "127.0.0.1"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((BIND, 0))
        return int(probe.getsockname()[1])


def _snapshot(data_dirs: list[Path]) -> dict[Path, tuple[int, int]]:
    """(mtime, size) of every run file, to notice additions, edits and removals."""
    snapshot = {}
    for data_dir in data_dirs:
        for path in sorted((Path(data_dir) / "runs").glob("*")):
            stat = path.stat()
            snapshot[path] = (stat.st_mtime_ns, stat.st_size)
    return snapshot


def _regenerate(data_dirs: list[Path], build_dir: Path) -> None:
    # While serving, bad data is reported and the last good site stays up.
    try:
        runs, campaigns, _ = generate(data_dirs, build_dir)
    except InvalidData as error:
        print(f"not regenerated: {error}", file=sys.stderr)
    else:
        print(f"regenerated {runs} runs, {campaigns} campaigns", file=sys.stderr)


def serve(data_dirs: list[Path], build_dir: Path, port: int | None = None) -> None:
    """Preview the site with live reload until Ctrl-C; InvalidData if the data starts out bad."""
    _, _, overlay = generate(data_dirs, build_dir)
    command = hugo_command("server", overlay, "--bind", BIND, "--port", str(port or _free_port()))
    hugo = subprocess.Popen(command, env=hugo_env())
    seen = _snapshot(data_dirs)
    try:
        while hugo.poll() is None:
            time.sleep(POLL_SECONDS)
            current = _snapshot(data_dirs)
            if current != seen:
                seen = current
                _regenerate(data_dirs, build_dir)
    except KeyboardInterrupt:
        pass
    else:
        # Hugo has already printed why (port taken, broken template) on the console.
        raise HugoError(f"hugo server stopped with exit status {hugo.returncode}")
    finally:
        if hugo.poll() is None:
            hugo.terminate()
            try:
                hugo.wait(timeout=10)
            except subprocess.TimeoutExpired:
                hugo.kill()
                hugo.wait()
