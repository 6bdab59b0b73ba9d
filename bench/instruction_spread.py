"""How much two measures of the same cell move between repeats: throughput (the median QPS of
the 1-thread step) and instructions per transaction (campaign [instructions], counted by
callgrind).

Reads one campaign and prints, for every (variant, workload) cell with several passes:
  qps spread       highest ÷ lowest - 1 of the step's QPS over the passes;
  instr spread     the same of the connection thread's instructions per transaction, each
                   pass's count on its own server start;
  within a start   the largest spread between the counted repeats on one start;
and the medians of each column over the cells. A count the machine's speed cannot move should
spread well under 1 % where throughput spreads 10-20 %.

    .venv/bin/python bench/instruction_spread.py mariadb-release-series-20261128-150000
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

import contract
from generator.analysis.instructions import per_event, repeat_spread
from generator.analysis.repeats import counted_runs, group_by_cell

REPO = Path(__file__).resolve().parents[1]
THREADS = 1


def _spread(values: list[float]) -> float | None:
    return max(values) / min(values) - 1 if len(values) > 1 and min(values) > 0 else None


def _qps(run: dict) -> float | None:
    return next(
        (s["qps"]["total"] for s in contract.sysbench_steps(run) if s["threads"] == THREADS),
        None,
    )


def _pct(value: float | None) -> str:
    return "     -" if value is None else f"{value * 100:5.2f}%"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("campaign", help="campaign id")
    parser.add_argument("--data", type=Path, default=REPO / "data")
    args = parser.parse_args()
    runs, problems = contract.validate_dir(args.data)
    if problems:
        raise SystemExit(f"{args.data}: {len(problems)} invalid run files")
    of_campaign = [run for run in runs if run["campaign"]["id"] == args.campaign]
    if not of_campaign:
        raise SystemExit(f"{args.data}: no runs of campaign {args.campaign}")
    print(f"{'variant':<24} {'workload':<24} passes  qps spread  instr spread  within a start")
    columns: dict[str, list[float]] = {"qps": [], "instr": [], "within": []}
    for (_, variant, workload), cell in sorted(group_by_cell(of_campaign).items()):
        counted = counted_runs(cell)
        qps = _spread([v for run in counted if (v := _qps(run)) is not None])
        counts = [v for run in counted if (v := per_event(run, "connection")) is not None]
        instr = _spread(counts)
        within = max((s for run in counted if (s := repeat_spread(run)) is not None), default=None)
        for key, value in (("qps", qps), ("instr", instr), ("within", within)):
            if value is not None:
                columns[key].append(value)
        print(
            f"{variant:<24} {workload:<24} {len(counted):>6}  {_pct(qps):>10}  {_pct(instr):>12}"
            f"  {_pct(within):>14}"
        )
    medians = {k: statistics.median(v) if v else None for k, v in columns.items()}
    print(
        f"{'median over the cells':<49} {_pct(medians['qps']):>11}  {_pct(medians['instr']):>12}"
        f"  {_pct(medians['within']):>14}"
    )


if __name__ == "__main__":
    main()
