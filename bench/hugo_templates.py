"""Where Hugo's time goes: template metrics on a synthetic archive, and the floors under them.

    .venv/bin/python bench/hugo_templates.py [--runs 1000] [--top 25]

Builds `--runs` synthetic runs as bench/build_scaling.py does (beside the committed runs), runs the
generator once, then Hugo three ways, each a child process whose peak RSS is its own:

- the site with --templateMetrics --templateMetricsHints: the top templates by cumulative time
  (summed over Hugo's worker goroutines, so it exceeds the wall time on several cores), with
  Hugo's cache potential (how often a template's output repeated for the same input: a
  candidate for partialCached);
- the floor: an empty site of one page, Hugo's own start-up;
- the data floor: one page that only counts the run index's entries, with the site's data
  mounts: what loading the generator's data costs before any page renders (a run page's and a
  campaign's own files are assets, parsed only by the pages that show them).

Nothing is asserted: the figures describe this machine and what else ran on it (the load
average is printed before and after).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

from build_scaling import (
    DEFAULT_TEMPLATE,
    GENERATE_SNIPPET,
    synthetic_runs,
    timed_child,
    write_runs,
)
from committed_data import committed_data

from generator.hugo.command import hugo_binary, hugo_command, hugo_env

METRIC_ROW = re.compile(r"^\s*([\d.]+)\s+(µs|ms|s)\s+.*?\s(\S+)$")
UNIT_MS = {"µs": 0.001, "ms": 1.0, "s": 1000.0}
EMPTY_SITE = "baseURL = '/'\ndisableKinds = ['sitemap', 'rss', 'taxonomy', 'term', 'section']\n"
COUNT_RUNS = "{{ len hugo.Data.runindex }} runs\n"


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def top_templates(output: str, top: int) -> list[str]:
    """Hugo's metrics table, its rows sorted by cumulative duration, the first `top` of them."""
    table = output[output.index("Template Metrics:") :].splitlines()
    rows = [line for line in table if METRIC_ROW.match(line)]
    header = [line for line in table[1:6] if line.strip() and not METRIC_ROW.match(line)]

    def cumulative_ms(line: str) -> float:
        match = METRIC_ROW.match(line)
        return float(match.group(1)) * UNIT_MS[match.group(2)] if match else 0.0

    return header + sorted(rows, key=cumulative_ms, reverse=True)[:top]


def metrics_build(root: Path, top: int) -> None:
    overlay = (root / "build" / "hugo.overlay.json").resolve()
    command = hugo_command(
        "build",
        overlay,
        "--destination",
        str(root / "public"),
        "--baseURL",
        "/",
        "--templateMetrics",
        "--templateMetricsHints",
    )
    log = root / "hugo.log"
    hugo = timed_child(["sh", "-c", f'"$@" > {log}', "hugo", *command], hugo_env())
    print(f"site with metrics: {hugo.seconds:.2f} s, CPU {hugo.cpu:.2f} s, peak {hugo.mib} MiB")
    print("\n".join(top_templates(log.read_text(), top)))


def floor_build(root: Path, name: str, layout: str, data_overlay: Path | None) -> None:
    """One page rendered by `layout`, optionally with the archive's data mounts."""
    site = root / re.sub(r"\W+", "-", name)  # Hugo refuses some punctuation in a source path
    (site / "layouts").mkdir(parents=True)
    (site / "layouts" / "home.html").write_text(layout)
    (site / "hugo.toml").write_text(EMPTY_SITE)
    command = [str(hugo_binary()), "build", "--source", str(site), "--quiet"]
    if data_overlay is not None:
        mounts = json.loads(data_overlay.read_text())["module"]["mounts"]
        kept = [mount for mount in mounts if mount["target"].startswith("data")]
        kept.append({"source": str(site / "layouts"), "target": "layouts"})
        overlay = site / "overlay.json"
        overlay.write_text(json.dumps({"module": {"mounts": kept}}))
        command += ["--config", f"hugo.toml,{overlay}"]
    hugo = timed_child(command, hugo_env())
    print(f"{name}: {hugo.seconds:.2f} s, CPU {hugo.cpu:.2f} s, peak {hugo.mib} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    print(f"{os.cpu_count()} CPUs; load average {load_average()}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        template = json.loads(DEFAULT_TEMPLATE.read_text())
        write_runs(synthetic_runs(template, args.runs), root / "data")
        # A child, as in build_scaling.py: a forked Hugo would report this process's RSS.
        committed = committed_data(root / "committed")
        generate = [sys.executable, "-c", GENERATE_SNIPPET, str(committed), str(root / "data")]
        timed_child([*generate, str(root / "build")])
        metrics_build(root, args.top)
        overlay = root / "build" / "hugo.overlay.json"
        floor_build(root, "floor (empty site)", "floor\n", None)
        floor_build(root, "data floor (one page, the site's data)", COUNT_RUNS, overlay)
    print(f"load average {load_average()}")


if __name__ == "__main__":
    main()
