"""Our Insert Benchmark load step (l.i0) against Mark Callaghan's iibench.py, measured at the
server: which client lets the server write faster.

One sandboxed MariaDB (Debian's; binary log off, 256M buffer pool, redo flushed once a second),
one client, no secondary index, 100 rows per commit, data 10 to 20 characters half random: the
same load both ways. Each pair runs the two clients one after the other on a fresh database, the
order alternating from pair to pair (interleaved), and a thread of this process polls the
server's Handler_write every 20 ms meanwhile, with the CPU time of the client's processes. A
client's rate is the rows the server wrote between the first and the last poll that saw writes,
over the time between them, so neither a client's own count nor its start-up enters it; its
CPU per row is its processes' CPU over the same window. Prints each run, the median of each
side, the ratio of the medians (ours / iibench.py) and how many pairs each side won. Runs of a
million rows (about 7 s) vary less from one to the next than shorter ones. Asserts nothing.

iibench.py is not ours and is not in this repository: fetch it yourself from the public
repository mdcallag/mytools (bench/ibench/iibench.py) into a scratch folder. It needs MySQLdb,
i.e. the mysqlclient package, which builds against Debian's libmariadb-dev: make it a
virtualenv of its own and pass its interpreter with --iibench-python. Usage:

    git clone https://github.com/mdcallag/mytools /tmp/mytools
    sudo apt-get install libmariadb-dev pkg-config build-essential python3-dev
    python3 -m venv /tmp/iibench-venv && /tmp/iibench-venv/bin/pip install mysqlclient
    .venv/bin/python bench/ibench_vs_iibench.py --iibench /tmp/mytools/bench/ibench/iibench.py \
        --iibench-python /tmp/iibench-venv/bin/python [--rows 1000000] [--pairs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psutil
import pymysql  # type: ignore[import-untyped]  # PyMySQL ships no type hints

from harness.run.settle import settle
from harness.servers.sandbox import Binaries, Sandbox

MYCNF = """[mysqld]
skip_log_bin
innodb_buffer_pool_size = 256M
innodb_log_file_size = 256M
innodb_flush_log_at_trx_commit = 2
"""
DATABASE = "ib"
TABLE = "pi1"  # the name our l.i0 gives the first client's table; iibench.py is told the same
BATCH, LENGTH_MIN, LENGTH_MAX, RANDOM_PCT = 100, 10, 20, 50
POLL_S = 0.02
SETTLE_S = 120
ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Sample:
    at: float  # monotonic seconds
    written: int  # Handler_write
    client_cpu_s: float  # user + system of the client's processes alive at this poll


@dataclass(frozen=True)
class Result:
    client: str
    rows: int
    seconds: float
    rows_per_s: float
    client_us_per_row: float


class ClientCpu:
    """CPU seconds of a client process and all its descendants, each process counted at its
    last reading (a worker that exited keeps what it used)."""

    def __init__(self, root: psutil.Process):
        self._root = root
        self._processes: dict[int, psutil.Process] = {}
        self._last: dict[int, float] = {}

    def seconds(self) -> float:
        try:
            for process in [self._root, *self._root.children(recursive=True)]:
                self._processes.setdefault(process.pid, process)
        except psutil.NoSuchProcess:
            pass
        for pid, process in self._processes.items():
            try:
                times = process.cpu_times()
            except psutil.NoSuchProcess:
                continue
            self._last[pid] = times.user + times.system
        return sum(self._last.values())


def _poll(socket: Path, client: psutil.Process, done: threading.Event) -> list[Sample]:
    samples: list[Sample] = []
    cpu = ClientCpu(client)
    with pymysql.connect(unix_socket=str(socket), user="root") as conn, conn.cursor() as cursor:
        while not done.is_set():
            cursor.execute("SHOW GLOBAL STATUS LIKE 'Handler_write'")
            written = int(cursor.fetchone()[1])
            samples.append(Sample(time.monotonic(), written, cpu.seconds()))
            done.wait(POLL_S)
    return samples


def writing_window(samples: list[Sample]) -> tuple[Sample, Sample]:
    """The poll just before the first write was seen and the first poll after the last."""
    changed = [i for i in range(1, len(samples)) if samples[i].written > samples[i - 1].written]
    if len(changed) < 2:
        raise SystemExit("the client wrote for less than two polls: use more --rows")
    return samples[changed[0] - 1], samples[changed[-1]]


def run_client(name: str, command: list[str], socket: Path) -> Result:
    with pymysql.connect(unix_socket=str(socket), user="root") as conn, conn.cursor() as cursor:
        cursor.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
        cursor.execute(f"CREATE DATABASE {DATABASE}")
    # the run before left dirty pages and redo behind: both sides start from a flushed server
    settle(lambda: pymysql.connect(unix_socket=str(socket), user="root"), SETTLE_S, str)
    done = threading.Event()
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    samples: list[Sample] = []
    poller = threading.Thread(
        target=lambda: samples.extend(_poll(socket, psutil.Process(process.pid), done))
    )
    poller.start()
    code = process.wait()
    done.set()
    poller.join()
    if code != 0:
        raise SystemExit(f"{name} exited with {code}: {' '.join(command)}")
    first, last = writing_window(samples)
    rows = last.written - first.written
    seconds = last.at - first.at
    cpu = last.client_cpu_s - first.client_cpu_s
    return Result(name, rows, seconds, rows / seconds, cpu * 1e6 / rows)


def commands(args: argparse.Namespace, socket: Path) -> dict[str, list[str]]:
    ours = [
        sys.executable, "-m", "harness.workloads.ibench", "--socket", str(socket),
        "--steps", "l.i0", "--clients", "1", "--rows-l0", str(args.rows),
        "--batch-l0", str(BATCH), "--data-length-min", str(LENGTH_MIN),
        "--data-length-max", str(LENGTH_MAX), "--data-random-pct", str(RANDOM_PCT),
        "--database", DATABASE, "--no-count-rows",
    ]  # fmt: skip
    theirs = [
        str(args.iibench_python), str(args.iibench), "--dbms=mysql", "--setup",
        f"--db_socket={socket}", "--db_user=root", f"--db_name={DATABASE}",
        f"--table_name={TABLE}", f"--max_rows={args.rows}", f"--rows_per_commit={BATCH}",
        "--num_secondary_indexes=0", f"--data_length_min={LENGTH_MIN}",
        f"--data_length_max={LENGTH_MAX}", f"--data_random_pct={RANDOM_PCT}",
    ]  # fmt: skip
    return {"ours": ours, "iibench.py": theirs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iibench", type=Path, required=True, help="path to iibench.py")
    parser.add_argument(
        "--iibench-python", type=Path, default=Path(sys.executable),
        help="an interpreter with MySQLdb (mysqlclient); default: this one",
    )  # fmt: skip
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows per run")
    parser.add_argument("--pairs", type=int, default=7, help="interleaved pairs")
    parser.add_argument("--basedir", type=Path, default=Path("/usr"), help="MariaDB basedir")
    args = parser.parse_args()
    if not args.iibench.is_file():
        raise SystemExit(f"no iibench.py at {args.iibench} (--iibench)")
    probe = [str(args.iibench_python), "-c", "import MySQLdb"]
    if subprocess.run(probe, capture_output=True, check=False).returncode != 0:
        raise SystemExit(
            f"{args.iibench_python} cannot import MySQLdb (--iibench-python):"
            " pip install mysqlclient into it"
        )
    results: list[Result] = []
    with (
        tempfile.TemporaryDirectory(prefix="mybench-bench-") as scratch,
        Sandbox(Binaries.find(args.basedir), Path(scratch) / "server", MYCNF) as box,
    ):
        runs = commands(args, box.socket_path)
        names = list(runs)
        for pair in range(args.pairs):
            for name in names if pair % 2 == 0 else reversed(names):
                result = run_client(name, runs[name], box.socket_path)
                results.append(result)
                print(
                    f"pair {pair + 1} {name:<11} {result.rows:>8} rows in {result.seconds:6.2f} s"
                    f" {result.rows_per_s:>9.0f} rows/s {result.client_us_per_row:6.2f} client"
                    " us/row",
                    flush=True,
                )
    print(f"{args.rows} rows per run, {args.pairs} interleaved pairs, {os.cpu_count()} CPUs")
    medians = {}
    for name in names:
        mine = [r for r in results if r.client == name]
        medians[name] = statistics.median(r.rows_per_s for r in mine)
        cpu = statistics.median(r.client_us_per_row for r in mine)
        print(
            f"{name:<11} median {medians[name]:>9.0f} rows/s at the server, {cpu:.2f} client us/row"
        )
    ours, theirs = (
        [r.rows_per_s for r in results if r.client == name] for name in ("ours", "iibench.py")
    )
    won = sum(mine > other for mine, other in zip(ours, theirs, strict=True))
    print(
        f"ratio ours / iibench.py: {medians['ours'] / medians['iibench.py']:.2f}x;"
        f" ours faster in {won} of {args.pairs} pairs"
    )


if __name__ == "__main__":
    main()
