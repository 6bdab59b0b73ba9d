"""Build-scaling benchmark: generator and Hugo timed separately on synthetic run documents.

    .venv/bin/python bench/build_scaling.py [--sizes 100 1000 10000] [--template RUN.json]

Each size gets its own temp dir of schema-valid runs (built beside data/runs as committed at
HEAD, whose article needs it) derived from one committed run: 11 thread
levels (1 to 1024) with per-second series, ids and variants varied, grouped into campaigns of
CAMPAIGN_VARIANTS x CAMPAIGN_WORKLOADS runs. The generator and Hugo each run as a child process,
so the peak RSS printed is that stage's own (from wait4: the largest of the generator and its
forked workers, not their sum). Per size:

- cold: the generator into an empty build dir (no cache), then Hugo;
- warm: the generator again on unchanged data, as `mybench serve` does after an edit;
- +1: the last run added to its campaign's other 19, then the generator and Hugo again: the
  daily "rebuild after a new run", end to end (cold and warm build the other count - 1 runs);
- the sizes of the two indexes every compare or browse view downloads whole (the compare
  catalogue and the browse filter index; campaign files and pages of rows come on demand).

Nothing is asserted: the figures describe this machine (the core count and load average are
printed first; note what else runs on it).
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
from typing import NamedTuple

from committed_data import committed_data

from generator.hugo.command import hugo_command, hugo_env
from generator.hugo.site_contract import BROWSE_FILTERS, COMPARE_CATALOGUE

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


class Stage(NamedTuple):
    seconds: float  # wall clock
    cpu: float  # user + system seconds of the child and its workers: less noisy on a shared VM
    mib: int  # peak RSS


def timed_child(command: list[str], env: dict[str, str] | None = None) -> Stage:
    """One child process's cost; raises when it fails."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    output = child.stdout.read() if child.stdout else ""
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"{command[0]} failed ({child.returncode}):\n{output[-2000:]}")
    cpu = usage.ru_utime + usage.ru_stime
    return Stage(time.perf_counter() - started, cpu, usage.ru_maxrss // 1024)  # Linux: KiB


def write_runs(runs: list[dict], into: Path) -> int:
    """Write runs under into/runs; returns their total size in bytes."""
    runs_dir = into / "runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    total = 0
    for run in runs:
        text = json.dumps(run, indent=1)
        (runs_dir / f"{run['id']}.json").write_text(text)
        total += len(text)
    return total


def measure(template: Path, count: int) -> None:
    """One row: cold, warm and one-run-added builds of `count` runs (plus the committed ones)."""
    runs = synthetic_runs(json.loads(template.read_text()), count)
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        size = write_runs(runs[:-1], root / "data")
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
        hugo = hugo_command(
            "build", build / "hugo.overlay.json", "--destination", str(root / "public"),
            "--baseURL", "/",
        )  # fmt: skip
        cold = timed_child(generate)
        warm = timed_child(generate)
        hugo_cold = timed_child(hugo, hugo_env())
        pages = sum(1 for _ in (root / "public").rglob("index.html"))
        indexes = [
            (build / path).stat().st_size / 2**10 for path in (COMPARE_CATALOGUE, BROWSE_FILTERS)
        ]
        write_runs(runs[-1:], root / "data")  # the campaign's last run arrives
        added = timed_child(generate)
        hugo_added = timed_child(hugo, hugo_env())
        stages = " ".join(
            f"{stage.seconds:>7.2f} {stage.cpu:>6.1f} {stage.mib:>6}"
            for stage in (cold, warm, hugo_cold, added, hugo_added)
        )
        print(
            f"{count:>6} {size / 2**20:>7.0f} {pages:>6} {stages} "
            f"{cold.seconds + hugo_cold.seconds:>7.2f} {added.seconds + hugo_added.seconds:>7.2f} "
            f"{indexes[0]:>8.0f} {indexes[1]:>8.0f}",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--template", type=Path, default=DEFAULT_TEMPLATE)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; template {args.template.name}")
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}")
    stage_titles = " ".join(
        f"{name + ' s':>7} {'cpu s':>6} {'MiB':>6}"
        for name in ("gen", "warm", "hugo", "+1 gen", "+1 hugo")
    )
    print(
        f"{'runs':>6} {'data MB':>7} {'pages':>6} {stage_titles} {'cold s':>7} {'+1 s':>7} "
        f"{'cmp KiB':>8} {'brw KiB':>8}"
    )
    for count in args.sizes:
        measure(args.template, count)


if __name__ == "__main__":
    main()
