"""serve: generate, run `hugo server`, regenerate as soon as a data dir changes, stop on Ctrl-C.

A change is seen through inotify (watchfiles) within STEP_MS of the last write of a burst,
instead of by polling. The serving process keeps the code version between regenerations (the
running code cannot change under it); each regeneration is a warm build, which validates and
parses only a new or changed run and writes only the files whose bytes changed, and the watching
`hugo server` rebuilds from those.

Hugo renders to memory (on disk it would write into site/public, the published site). `hugo
server` never drops a page it rendered, even on a full rebuild, so when runs were removed it is
restarted on the same port: a removed run's page then answers 404, after a cold Hugo build (a
rare event: new and changed runs are the daily case). Each regeneration logs one line to
stderr with its seconds (`regenerated ... in N s`); Hugo logs its own rebuilds (`Total in N
ms`). While serving, bad data is reported and the last good site stays up.
"""

from __future__ import annotations

import contextlib
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from types import FrameType

from watchfiles import Change, watch

from generator.hugo import site_contract as site
from generator.hugo.build import generate
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import code_version
from generator.hugo.command import hugo_command, hugo_env, without_feeds
from generator.hugo.errors import HugoError, InvalidData

BIND = "127.0.0.1"
STEP_MS = 50  # a burst of writes (a campaign writing several runs) is one regeneration
HUGO_CHECK_MS = 500  # how often the watcher wakes to see whether Hugo is still running
HUGO_STOP_SECONDS = 10


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind((BIND, 0))
        return int(probe.getsockname()[1])


def _run_file_changed(_: Change, path: str) -> bool:
    # Writers stage a run under a hidden name and rename it in (contract.write_new_file).
    return not Path(path).name.startswith(".")


class _Generator:
    """generate() with what the serving process keeps between calls."""

    def __init__(self, data_dirs: list[Path], build_dir: Path) -> None:
        self.data_dirs, self.build_dir = data_dirs, build_dir
        self.code = code_version()

    def __call__(self) -> tuple[int, int, Path]:
        cache = Cache(self.build_dir / site.CACHE_DIR, self.code)
        return generate(self.data_dirs, self.build_dir, cache)

    def again(self) -> bool:
        """Regenerate, logging how long it took; bad data is reported, the site stays as it was
        (and False is returned)."""
        started = time.monotonic()
        try:
            runs, campaigns, _ = self()
        except (InvalidData, OSError) as error:  # OSError: a file removed while it was read
            print(f"not regenerated: {error}", file=sys.stderr)
            return False
        seconds = time.monotonic() - started
        print(
            f"regenerated {runs} runs, {campaigns} campaigns in {seconds:.2f} s", file=sys.stderr
        )
        return True


def _interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _start(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(command, env=hugo_env())


def _stop(hugo: subprocess.Popen[bytes]) -> None:
    if hugo.poll() is None:
        hugo.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            hugo.wait(timeout=HUGO_STOP_SECONDS)
        hugo.kill()  # does nothing once it has exited
        hugo.wait()


def serve(data_dirs: list[Path], build_dir: Path, port: int | None = None) -> None:
    """Preview the site with live reload until Ctrl-C (or SIGTERM); InvalidData if the data
    starts out bad."""
    generator = _Generator(data_dirs, Path(build_dir))
    _, _, overlay = generator()
    address = ("--bind", BIND, "--port", str(port or _free_port()))
    command = hugo_command("server", overlay, *address, "--renderToMemory", *without_feeds())
    hugo = _start(command)
    removed = False  # a run file went since Hugo last started: its page must go too
    # A service manager stops with SIGTERM: Hugo must not outlive serve then either.
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        for changes in watch(
            *(Path(data_dir) / "runs" for data_dir in data_dirs),
            watch_filter=_run_file_changed,
            step=STEP_MS,
            rust_timeout=HUGO_CHECK_MS,
            yield_on_timeout=True,
        ):
            if hugo.poll() is not None:
                break
            if not changes:
                continue
            removed |= any(change == Change.deleted for change, _ in changes)
            if generator.again() and removed:
                print(
                    "restarting hugo server: it keeps the pages of removed runs", file=sys.stderr
                )
                _stop(hugo)
                hugo = _start(command)
                removed = False
    except KeyboardInterrupt:
        pass
    else:
        # Hugo has already printed why (port taken, broken template) on the console.
        raise HugoError(f"hugo server stopped with exit status {hugo.returncode}")
    finally:
        signal.signal(signal.SIGTERM, previous)
        _stop(hugo)
