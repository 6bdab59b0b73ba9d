"""How much the harness itself costs around each measured step.

Starts a sandboxed MariaDB (Debian's, from /usr), then times the work the runner does before and
after every step (SHOW GLOBAL STATUS + /proc samples) and the parsing of a long sysbench output.
Prints figures; asserts nothing.  Usage: .venv/bin/python bench/harness_overhead.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from harness import monitor
from harness.sandbox import Binaries, Sandbox
from harness.sysbench_output import parse_run

REPEATS = 200
FIXTURE = (
    Path(__file__).parents[1] / "tests" / "fixtures" / "sysbench" / "oltp_read_write_2thr_2s.txt"
)
STEP_SECONDS = 300  # Dimitri's step length: the longest output the parser meets in practice


def timed_ms(action, repeats: int = REPEATS) -> list[float]:
    samples = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        samples.append((time.perf_counter() - started) * 1000)
    return samples


def long_output() -> str:
    """The recorded 2 s output with its interval lines repeated to cover a 300 s step."""
    lines = (FIXTURE.read_text()).splitlines()
    intervals = [line for line in lines if line.startswith("[ ")]
    first = lines.index(intervals[0])
    body = [
        intervals[i % len(intervals)].replace(f"[ {i % len(intervals) + 1}s ]", f"[ {i + 1}s ]")
        for i in range(STEP_SECONDS)
    ]
    return "\n".join(lines[:first] + body + lines[first + len(intervals) :])


def report(name: str, samples: list[float]) -> None:
    print(
        f"{name:<40} median {statistics.median(samples):7.3f} ms   p95 {sorted(samples)[int(len(samples) * 0.95)]:7.3f} ms"
    )


def main() -> None:
    binaries = Binaries.find(Path("/usr"))
    with (
        tempfile.TemporaryDirectory(prefix="mybench-bench-") as scratch,
        Sandbox(binaries, Path(scratch) / "server", "[mysqld]\n") as box,
    ):
        with box.connect() as conn:
            report("SHOW GLOBAL STATUS snapshot", timed_ms(lambda: monitor.server_status(conn)))
        report("new connection (unix socket)", timed_ms(lambda: box.connect().close()))
    report("/proc sample (cpu, ctxt, diskstats)", timed_ms(monitor.os_sample))
    text = long_output()
    report(f"parse a {STEP_SECONDS} s sysbench output", timed_ms(lambda: parse_run(text, 2), 50))


if __name__ == "__main__":
    main()
