"""Instructions the server executes per transaction, counted by valgrind's callgrind: a cost
that the machine's speed does not move, where throughput on a shared VM moves 10-20 %.

The server runs under callgrind with instrumentation off (`--instr-atstart=no`), so starting
and loading cost only the simulator's slowdown. For each workload: an unmeasured warm-up of
`warmup_events` sysbench events at one client thread, then `repeats` times: zero the counters,
switch instrumentation on, run exactly `events` events, switch it off, dump. Callgrind keeps
one counter file per thread (`--separate-threads=yes`); a thread whose calls include
`do_command` served the client (the connection thread), every other thread is background work
(purge, page cleaner, timers), kept apart because its share depends on wall time, which the
simulator stretches, rather than on the statements alone.

The counts are of user-space instructions (callgrind sees no kernel), on a separate start of the
same build and my.cnf from the same loaded data as the measured runs. Hardware counters would
do the same natively; virtual machines rarely expose them (`perf stat -e instructions`: not
supported), and callgrind needs none.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from harness.errors import UserError
from harness.servers import mycnf

CONNECTION_FUNCTION = "do_command("  # the loop of a thread that reads client statements
# Under callgrind the server starts 20-50x slower: InnoDB's start alone takes tens of seconds.
READY_TIMEOUT_S = 900
CONTROL_TIMEOUT_S = 120  # a dump of a busy server's counters takes seconds, not minutes


def valgrind_binary() -> str:
    path = shutil.which("valgrind")
    if path is None or shutil.which("callgrind_control") is None:
        raise UserError(
            "valgrind not found on PATH (Debian package 'valgrind'), needed by [instructions]"
        )
    return path


def valgrind_version(binary: str) -> str:
    output = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    return output.stdout.strip()


def launch_prefix(binary: str, out_dir: Path) -> tuple[str, ...]:
    """What goes before the server's own command line: callgrind, counting nothing until told."""
    return (
        binary,
        "--tool=callgrind",
        "--separate-threads=yes",
        "--instr-atstart=no",
        f"--callgrind-out-file={out_dir}/callgrind.out.%p",
    )


def callgrind_server_args(tuned_mycnf: str) -> tuple[str, ...]:
    """Server options of the callgrind start only, each because the server would not start under
    valgrind 3.19 without it (seen on MariaDB 10.11.19 and 11.8.9):
    - innodb_use_native_aio=0: with io_uring (Debian's 10.11 and 11.8 builds use it) the start
      hangs after "Using io_uring"; InnoDB then does its page I/O from its own threads, which
      moves background instructions, not the connection thread's reads of cached pages;
    - innodb_buffer_pool_size_max = the buffer pool's size: recent releases reserve address
      space for the largest pool they could be resized to (8 TB by default), which valgrind
      cannot map. Only resizing the pool depends on it.
    Both `loose-`: a release without the option ignores it."""
    options = mycnf.server_options(tuned_mycnf)
    args = ["--loose-innodb-use-native-aio=0"]
    if "innodb_buffer_pool_size_max" not in options:
        size = options.get("innodb_buffer_pool_size", "128M")
        args.append(f"--loose-innodb-buffer-pool-size-max={size}")
    return tuple(args)


@dataclass(frozen=True)
class ThreadCount:
    thread: int
    instructions: int
    connection: bool


_FILE = re.compile(r"callgrind\.out\.(\d+)\.(\d+)-(\d+)$")
_TOTALS = re.compile(r"^totals:\s+(\d+)", re.MULTILINE)


def dumped_parts(out_dir: Path) -> set[int]:
    return {int(m[2]) for p in out_dir.iterdir() if (m := _FILE.search(p.name))}


def read_part(out_dir: Path, part: int) -> list[ThreadCount]:
    """Every thread's instruction count in one dump (callgrind numbers dumps 1, 2, ...)."""
    counts = []
    for path in sorted(out_dir.iterdir()):
        match = _FILE.search(path.name)
        if match is None or int(match[2]) != part:
            continue
        text = path.read_text(errors="replace")
        totals = _TOTALS.search(text)
        if totals is None:
            raise UserError(f"{path}: a callgrind dump without a totals line")
        counts.append(ThreadCount(int(match[3]), int(totals[1]), CONNECTION_FUNCTION in text))
    return counts


class Callgrind:
    """The control side of one server started under callgrind (pid: valgrind's process)."""

    def __init__(self, pid: int, out_dir: Path):
        self.pid = pid
        self.out_dir = out_dir

    def _control(self, flag: str, *args: str) -> None:
        command = ["callgrind_control", flag, *args, str(self.pid)]
        try:
            result = subprocess.run(
                command, capture_output=True, text=True, check=False, timeout=CONTROL_TIMEOUT_S
            )
        except subprocess.TimeoutExpired:  # vgdb waits for ever on a server that died
            raise UserError(
                f"{' '.join(command)}: no answer in {CONTROL_TIMEOUT_S} s (is the server gone?)"
            ) from None
        if result.returncode != 0 or "OK" not in result.stdout:
            said = (result.stdout + result.stderr).strip().splitlines()[-1:]
            raise UserError(f"callgrind_control {flag} {self.pid} failed: {' '.join(said)}")

    @contextmanager
    def counting(self) -> Iterator[dict[str, int]]:
        """Counts only what runs inside the block; the dict it yields gets the instructions of
        the connection thread(s) and of the others when the block ends."""
        before = dumped_parts(self.out_dir)
        self._control("--zero")
        self._control("--instr=on")
        counted: dict[str, int] = {}
        try:
            yield counted
        finally:
            self._control("--instr=off")
        self._control("--dump")
        new = sorted(dumped_parts(self.out_dir) - before)
        if not new:
            raise UserError(f"{self.out_dir}: callgrind wrote no dump")
        threads = read_part(self.out_dir, new[-1])
        served = [t.instructions for t in threads if t.connection]
        if not served:
            raise UserError(
                f"{self.out_dir}: no thread of dump {new[-1]} ran {CONNECTION_FUNCTION}..): cannot"
                " tell the connection thread"
            )
        counted["connection"] = sum(served)
        counted["background"] = sum(t.instructions for t in threads if not t.connection)
