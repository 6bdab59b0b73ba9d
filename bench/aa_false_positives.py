"""How often the trust rules colour a difference that is not there.

Reads one campaign whose variants include an A/A pair (the same my.cnf twice) and prints, for
every variant against the base, how many ratio cells (TPS and p95 latency, every workload and
thread level) each rule colours:
  band        the old rule: beyond ±5 %;
  repeats     generator/analysis/stats.py with the intervals of all passes (what campaign pages show);
  per-second  the same rule on each pass alone, intervals from the kept per-second samples
              (what a single-pass campaign shows).
For the A/A pair every coloured cell is a false positive.

    .venv/bin/python bench/aa_false_positives.py trust-aa-binlog-20261123-093830 \
        --aa binlog-off-again
"""

from __future__ import annotations

import argparse
from pathlib import Path

import contract
from generator.analysis.ratios import METRICS, ratio_table
from generator.analysis.repeats import counted_runs, group_by_cell, repeat_index

REPO = Path(__file__).resolve().parents[1]
COLOURED = ("better", "worse")


def _cells(counted: dict[str, list[dict]], variants: list[str], variant: str) -> list[dict]:
    column = variants.index(variant)
    return [
        row["cells"][column]
        for metric in METRICS
        for row in ratio_table(counted, variants, metric)["rows"]
        if row["cells"][column]["ratio"] is not None
    ]


def _band(cell: dict) -> bool:
    return abs(cell["ratio"] - 1) > 0.05


def count(runs: list[dict], base: str, variant: str) -> dict[str, tuple[int, int]]:
    """rule -> (coloured cells, cells)."""
    totals = {"band": [0, 0], "repeats": [0, 0], "per-second": [0, 0]}
    for workload in sorted({run["workload"]["name"] for run in runs}):
        cells = {v: c for (_, v, w), c in group_by_cell(runs).items() if w == workload}
        counted = {v: counted_runs(cells[v]) for v in (base, variant)}
        for cell in _cells(counted, [base, variant], variant):
            totals["band"][0] += _band(cell)
            totals["repeats"][0] += cell["verdict"] in COLOURED
            totals["band"][1] += 1
            totals["repeats"][1] += 1
        for index in sorted({repeat_index(run) for run in counted[base]}):
            one_pass = {v: [r for r in counted[v] if repeat_index(r) == index] for v in counted}
            for cell in _cells(one_pass, [base, variant], variant):
                totals["per-second"][0] += cell["verdict"] in COLOURED
                totals["per-second"][1] += 1
    return {rule: (coloured, cells) for rule, (coloured, cells) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("campaign_id")
    parser.add_argument("--aa", required=True, help="the variant with the base's my.cnf")
    args = parser.parse_args()
    runs, problems = contract.validate_dir(REPO / "data")
    if problems:
        raise SystemExit(f"invalid data: {problems[0]}")
    mine = [run for run in runs if run["campaign"]["id"] == args.campaign_id]
    if not mine:
        raise SystemExit(f"no runs of campaign {args.campaign_id}")
    order = mine[0]["campaign"]["variant_order"]
    base = order[0]
    for variant in order[1:]:
        kind = "A/A: coloured = false positive" if variant == args.aa else "real change"
        print(f"{variant} vs {base} ({kind})")
        for rule, (coloured, cells) in count(mine, base, variant).items():
            print(
                f"  {rule:<11} {coloured:>3} of {cells:>3} cells coloured ({coloured / cells:.0%})"
            )


if __name__ == "__main__":
    main()
