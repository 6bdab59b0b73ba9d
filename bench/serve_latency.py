"""Serve latency: seconds from a run file's rename to `mybench serve` serving the change.

    .venv/bin/python bench/serve_latency.py [--runs 1000] [--repeats 3] [--template RUN.json]

Builds `--runs` synthetic runs (bench/build_scaling.py's, beside data/runs as committed at HEAD)
in a temp dir, starts the real `mybench serve` on them (a child process on a free port, with its
own build dir), waits until the site answers, then per repeat:

- adds: a held-back run of the last campaign is written beside the runs dir and renamed into
  it; done when /runs/<id>/ answers 200 with the run's title;
- changes: that run's my.cnf gains a comment line; done when its page shows the line;
- removes: that run's file is deleted; done when its page answers 404.

Each line gives the seconds from the rename (or unlink) to the page being served, when serve's
own log said the generator had finished and how long it took (`regenerated ... in N s`), and
Hugo's build time in that window (`Total in`, `Rebuilt in` or, after a restart, `Built in N ms`,
summed); then the median of each over the repeats. Nothing is asserted: the figures describe
this machine (the core count and load average are printed first). Ctrl-C or an error stops serve
(and so its Hugo).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from build_scaling import DEFAULT_TEMPLATE, REPO, synthetic_runs, write_runs
from committed_data import committed_data

STARTUP_SECONDS = 600  # a cold generator and Hugo build of the archive
CHANGE_SECONDS = 60  # one change, served (else reported as never)
POLL_SECONDS = 0.05
_GENERATED = re.compile(r"regenerated .* in ([\d.]+) ?s")
_HUGO_TOTAL = re.compile(r"(?:Total|Rebuilt|Built) in (\d+) ms")  # partial, full, restarted
PRODUCTS = {"mariadb": "MariaDB", "mysql": "MySQL", "percona": "Percona Server"}


class Log:
    """serve's output (its own lines and Hugo's), each line with the monotonic time it arrived."""

    def __init__(self, stream) -> None:
        self.lines: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._reader.start()

    def _read(self, stream) -> None:
        for line in stream:
            with self._lock:
                self.lines.append((time.monotonic(), line.rstrip("\n")))

    def between(self, start: float, end: float) -> list[tuple[float, str]]:
        with self._lock:
            return [(at, line) for at, line in self.lines if start <= at <= end]

    def note(self, text: str) -> None:
        """A line of this script's own among serve's, in the --log file."""
        with self._lock:
            self.lines.append((time.monotonic(), f"=== {text}"))

    def timed(self, origin: float) -> str:
        """Every line so far, prefixed with its seconds since origin."""
        with self._lock:
            return "".join(f"{at - origin:9.3f} {line}\n" for at, line in self.lines)

    def tail(self, count: int = 20) -> str:
        with self._lock:
            return "\n".join(line for _, line in self.lines[-count:])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serving(data_dirs: list[Path], build_dir: Path, port: int) -> Iterator[Log]:
    """`mybench serve` running on data_dirs until the block ends (Ctrl-C, as a user stops it)."""
    command = [
        str(Path(sys.executable).with_name("mybench")),
        "serve",
        *(f"--data={data_dir}" for data_dir in data_dirs),
        f"--out={build_dir}",
        f"--port={port}",
    ]
    # Its own session: a Ctrl-C at the terminal reaches only this script, which stops serve.
    child = subprocess.Popen(
        command,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    log = Log(child.stdout)
    try:
        yield log
    finally:
        child.send_signal(signal.SIGINT)
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as error:
        return error.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def wait_for(url: str, served: Callable[[int, str], bool], seconds: float) -> float:
    """Poll url until served(status, body); returns the monotonic time it was, nan if never."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        status, body = fetch(url)
        if served(status, body):
            return time.monotonic()
        time.sleep(POLL_SECONDS)
    return float("nan")


def run_title(run: dict) -> str:
    """The run page's <h1> (content/runs/_content.gotmpl)."""
    product = PRODUCTS.get(run["server"]["product"], run["server"]["product"])
    version = run["server"]["version"]
    title = f"{run['workload']['name']} on {product} {version}, {run['variant']}"
    repeat = run.get("repeat")
    return f"{title}, repeat {repeat['index']} of {repeat['of']}" if repeat else title


def write_atomically(run: dict, runs_dir: Path) -> float:
    """Write run beside runs_dir's files and rename it in; returns the time of the rename."""
    target = runs_dir / f"{run['id']}.json"
    partial = runs_dir / f".{run['id']}.json.partial"
    partial.write_text(json.dumps(run, indent=1))
    partial.rename(target)
    return time.monotonic()


class Latency(NamedTuple):
    served: float  # seconds from the file's change to the page
    generated: float  # seconds from the change to serve's "regenerated" line (nan: none)
    generator: float  # the generator's own seconds, as serve logged them (nan: not logged)
    hugo: float  # Hugo's rebuild seconds in that window


def latency(log: Log, changed: float, served: float) -> Latency:
    """served: nan when the page never showed the change (the window is then the whole wait)."""
    lines = log.between(changed, changed + CHANGE_SECONDS if math.isnan(served) else served)
    generated = [(at, _GENERATED.search(line)) for at, line in lines if "regenerated" in line]
    hugo_ms = [int(match.group(1)) for _, line in lines if (match := _HUGO_TOTAL.search(line))]
    nan = float("nan")
    return Latency(
        served - changed,
        generated[-1][0] - changed if generated else nan,
        float(match.group(1)) if generated and (match := generated[-1][1]) else nan,
        sum(hugo_ms) / 1000 if hugo_ms else nan,
    )


def one_round(base: str, run: dict, runs_dir: Path, number: int, log: Log) -> dict[str, Latency]:
    """Add, change and remove one run; the latency of each."""
    url = f"{base}/runs/{run['id']}/"
    title = f"<h1>{run_title(run)}</h1>"
    found: dict[str, Latency] = {}
    changed = write_atomically(run, runs_dir)
    served = wait_for(url, lambda status, body: status == 200 and title in body, CHANGE_SECONDS)
    found["add"] = latency(log, changed, served)
    log.note(f"added {run['id']}: served after {served - changed:.2f}s")
    marker = f"# serve-latency edit {number}"
    edited = {
        **run,
        "server": {**run["server"], "my_cnf": run["server"]["my_cnf"] + marker + "\n"},
    }
    changed = write_atomically(edited, runs_dir)
    served = wait_for(url, lambda status, body: status == 200 and marker in body, CHANGE_SECONDS)
    found["change"] = latency(log, changed, served)
    log.note(f"changed it: served after {served - changed:.2f}s")
    (runs_dir / f"{run['id']}.json").unlink()
    changed = time.monotonic()
    served = wait_for(url, lambda status, _: status == 404, CHANGE_SECONDS)
    found["remove"] = latency(log, changed, served)
    log.note(f"removed it: served after {served - changed:.2f}s")
    return found


def median(values: list[float]) -> float:
    logged = [value for value in values if not math.isnan(value)]
    return statistics.median(logged) if logged else float("nan")


def seconds(value: float) -> str:
    return "    -" if math.isnan(value) else f"{value:5.2f}"  # nan: not logged, or never served


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--template", type=Path, default=DEFAULT_TEMPLATE)
    parser.add_argument("--log", type=Path, help="write serve's output here, each line timed")
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; template {args.template.name}")
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    runs = synthetic_runs(json.loads(args.template.read_text()), args.runs)
    held, kept = runs[-args.repeats :], runs[: -args.repeats]
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        write_runs(kept, root / "data")
        data_dirs = [committed_data(root / "committed"), root / "data"]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        with serving(data_dirs, root / "build", port) as log:
            if math.isnan(wait_for(f"{base}/", lambda status, _: status == 200, STARTUP_SECONDS)):
                raise SystemExit(f"serve did not answer within {STARTUP_SECONDS}s:\n{log.tail()}")
            print(f"serving {len(kept)} synthetic runs after {time.monotonic() - started:.1f}s")
            print(f"{'change':>7} {'served s':>9} {'gen done s':>10} {'gen s':>6} {'hugo s':>7}")
            rounds = []
            for number, run in enumerate(held):
                found = one_round(base, run, root / "data" / "runs", number, log)
                for kind, measured in found.items():
                    print(
                        f"{kind:>7} {seconds(measured.served):>9} "
                        f"{seconds(measured.generated):>10} {seconds(measured.generator):>6} "
                        f"{seconds(measured.hugo):>7}",
                        flush=True,
                    )
                rounds.append(found)
            if args.log:
                args.log.write_text(log.timed(started))
    print(f"median ('-': not logged, or for 'served' not served within {CHANGE_SECONDS}s)")
    for kind in rounds[0]:
        columns = [median([found[kind][index] for found in rounds]) for index in range(4)]
        widths = (9, 10, 6, 7)
        print(
            f"{kind:>7} "
            + " ".join(f"{seconds(v):>{w}}" for v, w in zip(columns, widths, strict=True))
        )


if __name__ == "__main__":
    main()
