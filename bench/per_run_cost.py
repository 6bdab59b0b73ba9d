"""What the generator spends and writes per run: hugo_inputs profiled on synthetic runs.

    .venv/bin/python bench/per_run_cost.py [--runs 1000] [--top 25]

The runs are bench/build_scaling.py's (11 thread levels of per-second series, campaigns of
variants x workloads), loaded through the contract as a build loads them; loading is not
profiled. Prints hugo_inputs' wall time, the functions with the most cumulative time per run
(cProfile on CPU time, so each is inflated by the profiler by about the same factor), and the files and
bytes written per run, by kind. hugo_inputs runs on one core: its CPU time is the figure to
compare when other work shares the machine. Nothing is asserted: the figures describe this machine.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import tempfile
import time
from collections import Counter
from pathlib import Path, PurePosixPath

from build_scaling import DEFAULT_TEMPLATE, synthetic_runs, write_runs

from generator.hugo.build_tree import hugo_inputs
from generator.hugo.load import load_runs


def _kind(rel: str) -> str:
    """A file's kind: its top folders and extension, the run and figure names left out."""
    path = PurePosixPath(rel)
    parts = path.parts
    if parts[0] == "static":
        return f"{'/'.join(parts[:2])}/*{path.suffix}"
    return f"{'/'.join(parts[:2])}{'/*' if len(parts) > 2 else ''}"


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000, help="synthetic runs to generate")
    parser.add_argument("--top", type=int, default=25, help="functions to list")
    return parser.parse_args()


def main() -> None:
    args = _arguments()
    with tempfile.TemporaryDirectory() as scratch:  # hugo_inputs reads the run files
        template = json.loads(DEFAULT_TEMPLATE.read_text())
        write_runs(synthetic_runs(template, args.runs), Path(scratch))
        run_files = load_runs([Path(scratch)])
        started, cpu_started = time.perf_counter(), time.process_time()
        files = hugo_inputs(run_files)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        profile = cProfile.Profile(time.process_time)  # CPU time: others share the machine
        profile.runcall(hugo_inputs, run_files)
    print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}; {args.runs} runs")
    print(
        f"hugo_inputs: {seconds:.2f} s wall, {cpu:.2f} s CPU ({1000 * cpu / args.runs:.1f} ms per "
        "run; CPU time, not wall, is what to compare on a shared machine)"
    )
    stats = pstats.Stats(profile)
    rows = sorted(stats.stats.items(), key=lambda item: -item[1][3])  # type: ignore[attr-defined]
    print(f"\n{'cum ms/run':>10} {'own ms/run':>10}  function (under cProfile)")
    for (file, line, name), (_, _, own, cumulative, _) in rows[: args.top]:
        where = f"{Path(file).name}:{line}" if line else file
        print(
            f"{1000 * cumulative / args.runs:>10.2f} {1000 * own / args.runs:>10.2f}  {name} {where}"
        )
    counts: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    for rel, content in files.items():
        counts[_kind(rel)] += 1
        sizes[_kind(rel)] += len(content)
    print(f"\n{'files/run':>9} {'KiB/run':>8}  kind")
    for kind in sorted(counts, key=lambda k: -sizes[k]):
        print(f"{counts[kind] / args.runs:>9.2f} {sizes[kind] / args.runs / 1024:>8.1f}  {kind}")
    total = sum(sizes.values())
    print(f"{len(files) / args.runs:>9.2f} {total / args.runs / 1024:>8.1f}  all")


if __name__ == "__main__":
    main()
