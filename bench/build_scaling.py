"""Build-scaling benchmark: generator and Hugo timed separately on synthetic run documents.

    .venv/bin/python bench/build_scaling.py [--sizes 100 1000 10000] [--template RUN.json]

Each size gets its own temp dir of schema-valid runs (built beside data/runs as committed at
HEAD, whose article needs it) derived from one committed run: 11 thread
levels (1 to 1024) with per-second series, ids and variants varied, grouped into campaigns of
CAMPAIGN_VARIANTS x CAMPAIGN_WORKLOADS runs. The generator and Hugo each run as a child process,
so the peak RSS printed is that stage's own (from wait4). A cold build starts from an empty build
dir; the warm one regenerates into it unchanged, as `mybench serve` does after an edit. Nothing is
asserted: the figures describe this machine (note its core count and what else runs on it).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from committed_data import committed_data

from generator.hugo.command import hugo_command, hugo_env

REPO = Path(__file__).resolve().parents[1]
DEFAULT_TEMPLATE = (
    REPO / "data" / "runs" / "vm-binlog-sync-20261122-025343.binlog-off-again.point-select.json"
)
THREAD_LEVELS = [2**power for power in range(11)]  # 1 .. 1024, Dimitri's sweep
CAMPAIGN_VARIANTS = 4
CAMPAIGN_WORKLOADS = 5
# The committed runs come along: the shipped article embeds them.
GENERATE_SNIPPET = (
    "import sys; from pathlib import Path; from generator.hugo.build import generate; "
    "generate([Path(sys.argv[1]), Path(sys.argv[2])], Path(sys.argv[3]))"
)


def synthetic_step(template_step: dict, threads: int, scale: float) -> dict:
    """The template step moved to another thread level, its rates scaled."""
    step = copy.deepcopy(template_step)
    step["threads"] = threads
    step["tps"] = round(step["tps"] * scale, 2)
    step["series"]["tps"] = [round(value * scale, 2) for value in step["series"]["tps"]]
    step["events"] = int(step["events"] * scale)
    return step


def synthetic_runs(template: dict, count: int) -> list[dict]:
    """`count` runs: campaigns of variants x workloads, 11 steps each."""
    steps = template["steps"]
    runs = []
    for number in range(count):
        campaign_no, within = divmod(number, CAMPAIGN_VARIANTS * CAMPAIGN_WORKLOADS)
        variant_no, workload_no = divmod(within, CAMPAIGN_WORKLOADS)
        run = copy.deepcopy({key: value for key, value in template.items() if key != "steps"})
        campaign_id = f"synthetic-{campaign_no:05d}-20260101-000000"
        variant, workload = f"variant-{variant_no}", f"workload-{workload_no}"
        run["id"] = f"{campaign_id}.{variant}.{workload}"
        run["variant"] = variant
        run["campaign"].update(
            id=campaign_id,
            name=f"synthetic-{campaign_no:05d}",
            variant_order=[f"variant-{v}" for v in range(CAMPAIGN_VARIANTS)],
        )
        run["workload"]["name"] = workload
        scale = 1 + 0.03 * variant_no + 0.01 * workload_no
        run["steps"] = [
            synthetic_step(steps[level % len(steps)], threads, scale * (1 + level / 4))
            for level, threads in enumerate(THREAD_LEVELS)
        ]
        runs.append(run)
    return runs


def write_data(template_path: Path, count: int, into: Path) -> int:
    """Write the runs under into/runs; returns their total size in bytes."""
    runs_dir = into / "runs"
    runs_dir.mkdir(parents=True)
    total = 0
    for run in synthetic_runs(json.loads(template_path.read_text()), count):
        text = json.dumps(run, indent=1)
        (runs_dir / f"{run['id']}.json").write_text(text)
        total += len(text)
    return total


def timed_child(command: list[str], env: dict[str, str] | None = None) -> tuple[float, int]:
    """(wall seconds, peak RSS in MiB) of one child process; raises when it fails."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    output = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({child.returncode}):\n{output[-2000:]}")
    return time.perf_counter() - started, usage.ru_maxrss // 1024  # Linux reports KiB


def measure(template: Path, count: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        size = write_data(template, count, root / "data")
        committed = committed_data(root / "committed")
        build = root / "build"
        generate = [
            sys.executable,
            "-c",
            GENERATE_SNIPPET,
            str(committed),
            str(root / "data"),
            str(build),
        ]
        cold_s, cold_mb = timed_child(generate)
        warm_s, _ = timed_child(generate)
        overlay = build / "hugo.overlay.json"
        hugo = hugo_command(
            "build", overlay, "--destination", str(root / "public"), "--baseURL", "/"
        )
        hugo_s, hugo_mb = timed_child(hugo, hugo_env())
        pages = sum(1 for _ in (root / "public").rglob("index.html"))
        print(
            f"{count:>6} {size / 2**20:>8.0f} {pages:>7} {cold_s:>8.2f} {warm_s:>8.2f} "
            f"{cold_mb:>7} {hugo_s:>7.2f} {hugo_mb:>7} {cold_s + hugo_s:>7.2f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--template", type=Path, default=DEFAULT_TEMPLATE)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; template {args.template.name}")
    print(
        f"{'runs':>6} {'data MB':>8} {'pages':>7} {'gen s':>8} {'gen warm':>8} {'gen MiB':>7} "
        f"{'hugo s':>7} {'hugo MiB':>7} {'total s':>7}"
    )
    for count in args.sizes:
        measure(args.template, count)


if __name__ == "__main__":
    main()
