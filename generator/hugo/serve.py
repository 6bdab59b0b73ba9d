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

Articles that need runs the data dirs lack are left out as `mybench build` leaves them out
(left_out.py), each named once on stderr when it goes and when it comes back; Hugo is
restarted when that set changes, as for a removed run (a page it rendered would stay).
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
from generator.hugo.build import Generated, generate
from generator.hugo.cache import Cache
from generator.hugo.cache_keys import code_version
from generator.hugo.command import hugo_command, hugo_env, without_feeds
from generator.hugo.errors import HugoError, InvalidData
from generator.hugo.left_out import LeftOut

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
        self.left_out: tuple[LeftOut, ...] = ()

    def __call__(self) -> Generated:
        cache = Cache(self.build_dir / site.CACHE_DIR, self.code)
        generated = generate(self.data_dirs, self.build_dir, cache)
        _report_left_out(self.left_out, generated.left_out)
        self.left_out = generated.left_out
        return generated

    def again(self) -> bool:
        """Regenerate, logging how long it took; bad data is reported, the site stays as it was
        (and False is returned)."""
        started = time.monotonic()
        try:
            runs, campaigns, _, _ = self()
        except (InvalidData, OSError) as error:  # OSError: a file removed while it was read
            print(f"not regenerated: {error}", file=sys.stderr)
            return False
        seconds = time.monotonic() - started
        print(
            f"regenerated {runs} runs, {campaigns} campaigns in {seconds:.2f} s", file=sys.stderr
        )
        return True


def _report_left_out(before: tuple[LeftOut, ...], now: tuple[LeftOut, ...]) -> None:
    """One line per article newly left out, and per article built again."""
    pages_before, pages_now = ({article.page for article in side} for side in (before, now))
    for article in now:
        if article.page not in pages_before:
            print(article, file=sys.stderr)
    for article in before:
        if article.page not in pages_now:
            print(f"{article.file}: built again: the runs it needs are here now", file=sys.stderr)


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
    overlay = generator().overlay
    port = port or _free_port()
    address = ("--bind", BIND, "--port", str(port))
    command = hugo_command("server", overlay, *address, "--renderToMemory", *without_feeds())
    hugo = _start(command)
    # Hugo names the address without a scheme (//localhost:<port>/): one a browser takes.
    print(f"preview at http://{BIND}:{port}/ (Ctrl-C stops)", file=sys.stderr)
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
            pages_before = {article.page for article in generator.left_out}
            if not generator.again():
                continue
            # A page Hugo rendered stays until it restarts (a removed run's, an article left
            # out now); an article built again comes back with that start too, rather than
            # through Hugo's own reload of a changed config.
            mounts_moved = {article.page for article in generator.left_out} != pages_before
            if removed or mounts_moved:
                why = "removed runs" if removed else "the articles left out changed"
                print(f"restarting hugo server: {why}", file=sys.stderr)
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
