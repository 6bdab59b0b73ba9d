"""How much the harness itself costs around each measured step.

Starts a sandboxed MariaDB (Debian's, from /usr) and
1. runs the same point-select step PAIRS times through the harness's own step code (status
   snapshots, the per-second sampler, the logged sysbench call) and PAIRS times as the bare
   sysbench command a user would type, interleaved A/B/A/B, and prints the TPS ratio (goal: the
   harness's step reaches >= 0.98 of the hand-run one);
2. times the pieces: SHOW GLOBAL STATUS, a new connection, a /proc sample, parsing a long output.
Prints figures; asserts nothing.  Usage: .venv/bin/python bench/harness_overhead.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

from ab_pairs import PAIRS, THREADS, WORKLOAD, point_select_server, report_pairs

from harness.campaign.load import load_campaign
from harness.measure import counters
from harness.run.campaign_run import CampaignRun
from harness.servers.sandbox import Binaries, Sandbox
from harness.workloads.sysbench.commands import execute, sysbench_version
from harness.workloads.sysbench.output import parse_run

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


def harness_vs_hand() -> None:
    """The runner's step (SysbenchDriver.measure_step, exactly as a campaign calls it) against the same
    sysbench argv run bare, on one server and one dataset."""
    with point_select_server() as (box, argv):
        owner = CampaignRun(
            load_campaign(Path(__file__).parents[1] / "campaigns" / "demo.toml"),
            data_dir=box.workdir / "data",
            workdir=box.workdir,
            harness_command="bench",
            allow_dirty=True,  # the run document stays in the bench's scratch folder
        )
        owner.sysbench, owner.campaign_id = argv[0], "bench"
        owner.tool_version = sysbench_version(owner.sysbench)
        owner._snapshot()  # the provenance every run document records
        run = owner._workload_run(box, "bench", WORKLOAD, 1)
        by_hand, by_harness = [], []
        for _ in range(PAIRS):
            by_hand.append(parse_run(execute(argv), THREADS).tps)
            by_harness.append(run.driver.measure_step(run, "measure", argv, THREADS)["tps"])
    report_pairs(("by hand", "by the harness"), by_hand, by_harness)


def main() -> None:
    harness_vs_hand()
    binaries = Binaries.find(Path("/usr"))
    with (
        tempfile.TemporaryDirectory(prefix="mybench-bench-") as scratch,
        Sandbox(binaries, Path(scratch) / "server", "[mysqld]\n") as box,
    ):
        with box.connect() as conn:
            report("SHOW GLOBAL STATUS snapshot", timed_ms(lambda: counters.server_status(conn)))
        report("new connection (unix socket)", timed_ms(lambda: box.connect().close()))
    report("/proc sample (cpu, ctxt, diskstats)", timed_ms(counters.os_sample))
    text = long_output()
    report(f"parse a {STEP_SECONDS} s sysbench output", timed_ms(lambda: parse_run(text, 2), 50))


if __name__ == "__main__":
    main()
