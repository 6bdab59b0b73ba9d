"""The cells a campaign page colours, read from the campaign's summary (pages/campaign.py): a
draft's tl;dr names these and no others.

The verdict of every cell is analysis/ratios.py's stat_cell, which applies analysis/stats.py's
rule; the page colours "better" and "worse" (layouts/_partials/campaign/ratio-cell.html), except
an Insert Benchmark step whose background target was not sustained, which it greys instead, and
a cell greyed for its passes' flags (verdict FLAGGED: generator/analysis/verdict.py's flags).
Nothing here judges a ratio again: it only finds the cells so judged and groups them.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from contract.repeats import ENOUGH_PASSES
from generator.analysis.ratios import FLAGGED

COLOURED = ("better", "worse")
# Beyond the band but not coloured: the interval holds 1, or there is none (ratios.stat_cell).
NOT_JUDGED = ("noise", "unjudged")


@dataclass(frozen=True)
class Difference:
    """One coloured cell: which table holds it, and its dotted path in the summary (as the fact
    shortcode reads it)."""

    # "sweep" (a workload's ratio tables), "hosts" (a fleet's), "tpcc", "suite" or "ibench"
    table: str
    subject: str  # the workload, TPC-C-like line, suite test or Insert Benchmark workload
    variant: str
    base: str  # the column the ratio divides by
    measure: str  # what the ratio divides: tps, p95, qps; a suite metric; an ibench unit
    level: str  # the thread count, or the Insert Benchmark step
    verdict: str
    ratio: float
    path: str


@dataclass(frozen=True)
class Finding:
    """The coloured cells of one subject, variant and measure with one verdict: one tl;dr line."""

    table: str
    subject: str
    variant: str
    base: str
    measure: str
    verdict: str
    cells: tuple[Difference, ...]

    @property
    def size(self) -> float:
        """How far the farthest of its ratios is from 1, either way."""
        # A ratio that rounds to 0.00 is the largest change of all.
        return max(abs(math.log(c.ratio)) if c.ratio > 0 else math.inf for c in self.cells)

    @property
    def levels(self) -> list[str]:
        return [cell.level for cell in self.cells]


def _rows(table: dict[str, Any], path: str) -> Iterator[tuple[dict[str, Any], str, str]]:
    """(cell, its path, threads) of every cell of a ratio table."""
    for r_index, row in enumerate(table["rows"]):
        for c_index, cell in enumerate(row["cells"]):
            yield cell, f"{path}.rows.{r_index}.cells.{c_index}", str(row["threads"])


def compared_cells(summary: dict[str, Any]) -> Iterator[tuple[Difference, dict[str, Any]]]:
    """Every ratio cell of the campaign page, table by table as the page shows them, with the
    cell as the summary holds it."""
    # (kind, workload name, metric, its table, the table's path in the summary)
    ratio_tables = [
        ("sweep", workload["name"], metric, table, f"workloads.{w_index}.metrics.{metric}")
        for w_index, workload in enumerate(summary["workloads"])
        for metric, table in workload["metrics"].items()
    ]
    ratio_tables += [
        ("hosts", workload["name"], metric, table, f"{path}.metrics.{metric}")
        for w_index, workload in enumerate(summary["workloads"])
        for h_index, hosts in enumerate(workload["across_hosts"])
        for path in [f"workloads.{w_index}.across_hosts.{h_index}"]
        for metric, table in hosts["metrics"].items()
    ]
    if tpcc := summary["tpcc"]:
        ratio_tables += [
            ("tpcc", "TPC-C-like", metric, table, f"tpcc.metrics.{metric}")
            for metric, table in tpcc["metrics"].items()
        ]
    for kind, name, metric, table, table_path in ratio_tables:
        for cell, path, threads in _rows(table, table_path):
            difference = Difference(
                kind,
                name,
                cell["variant"],
                table["base_of"][cell["variant"]],
                metric,
                threads,
                cell["verdict"],
                cell["ratio"],
                path,
            )
            yield difference, cell
    if suite := summary["suite"]:
        for l_index, level in enumerate(suite["levels"]):
            tables = [("throughput", level["throughput"])] + [
                (f"efficiency.{e_index}", table)
                for e_index, table in enumerate(level["efficiency"])
            ]
            for where, table in tables:
                for g_index, group in enumerate(table["groups"]):
                    for r_index, row in enumerate(group["rows"]):
                        path = f"suite.levels.{l_index}.{where}.groups.{g_index}.rows.{r_index}"
                        for c_index, cell in enumerate(row["cells"]):
                            yield (
                                Difference(
                                    "suite",
                                    row["test"],
                                    cell["variant"],
                                    table["base"],
                                    table["metric"],
                                    str(level["threads"]),
                                    cell["verdict"],
                                    cell["ratio"],
                                    f"{path}.cells.{c_index}",
                                ),
                                cell,
                            )
    if ibench := summary["ibench"]:
        for w_index, workload in enumerate(ibench["workloads"]):
            for r_index, row in enumerate(workload["rows"]):
                for step_index, cell in enumerate(row["cells"]):
                    path = f"ibench.workloads.{w_index}.rows.{r_index}.cells.{step_index}"
                    yield (
                        Difference(
                            "ibench",
                            workload["name"],
                            row["variant"],
                            workload["base"],
                            workload["units"][step_index],
                            workload["steps"][step_index],
                            cell["verdict"],
                            cell["ratio"],
                            path,
                        ),
                        cell,
                    )


def differences(summary: dict[str, Any]) -> list[Difference]:
    """Every coloured cell of the campaign page."""
    return [
        difference
        for difference, cell in compared_cells(summary)
        if difference.verdict in COLOURED and cell.get("sustained") is not False
    ]


def unjudged(summary: dict[str, Any]) -> bool:
    """Whether some ratio is beyond the band with no interval to judge it by (one pass of
    steps too short for per-second samples, or imported figures): not coloured, yet not shown
    to be noise either."""
    return any(
        difference.verdict in NOT_JUDGED and cell["interval"] is None
        for difference, cell in compared_cells(summary)
    )


def few_passes(summary: dict[str, Any]) -> bool:
    """Whether some ratio beyond the band reads "within noise" on an interval from repeats of
    fewer than contract.repeats.ENOUGH_PASSES: an interval that wide cannot show a difference,
    so "no difference" is not what such a column says."""
    return any(
        difference.verdict == "noise"
        and cell["interval"] is not None
        and cell["interval"]["method"] == "repeats"
        and cell["repeats"] < ENOUGH_PASSES
        for difference, cell in compared_cells(summary)
    )


def greyed(summary: dict[str, Any]) -> bool:
    """Whether some ratio is greyed for the flags of the passes it rests on (analysis/ratios.py
    FLAGGED: too few unflagged passes on a side): never coloured, whatever its value."""
    return any(difference.verdict == FLAGGED for difference, _ in compared_cells(summary))


def findings(summary: dict[str, Any]) -> list[Finding]:
    """The coloured cells grouped into tl;dr lines, the largest difference first."""
    groups: dict[tuple[str, str, str, str, str, str], list[Difference]] = {}
    for cell in differences(summary):
        key = (cell.table, cell.subject, cell.variant, cell.base, cell.measure, cell.verdict)
        groups.setdefault(key, []).append(cell)
    found = [Finding(*key, tuple(cells)) for key, cells in groups.items()]
    return sorted(found, key=lambda finding: -finding.size)


@dataclass(frozen=True)
class Quiet:
    """A column compared with its base in which the page colours no cell."""

    # "sweep" (with the suite tables: the campaign's variants), "hosts", "tpcc" or "ibench"
    table: str
    variant: str
    base: str


def quiet(summary: dict[str, Any], found: list[Finding]) -> list[Quiet]:
    """Every compared column without a coloured cell: the tl;dr says it differs nowhere."""
    loud = {(finding.table, finding.variant) for finding in found}
    loud |= {("sweep", variant) for table, variant in loud if table == "suite"}
    columns = []
    if summary["workloads"]:  # the thread sweeps and suite tables compare the variants
        columns += [
            ("sweep", variant, summary["base_of"][variant])
            for variant in summary["variants"]
            if variant not in summary["bases"]
        ]
    columns += [  # a fleet's hosts against the first, variant by variant
        ("hosts", variant, table["base"])
        for workload in summary["workloads"]
        for hosts in workload["across_hosts"]
        for table in hosts["metrics"].values()
        for variant in table["variants"][1:]
    ]
    if tpcc := summary["tpcc"]:
        columns += [("tpcc", line["name"], tpcc["base"]) for line in tpcc["lines"][1:]]
    if ibench := summary["ibench"]:
        columns += [
            ("ibench", row["variant"], workload["base"])
            for workload in ibench["workloads"]
            for row in workload["rows"][1:]
        ]
    # An Insert Benchmark variant has a row in each of its workloads' tables: named once.
    return list(dict.fromkeys(Quiet(*column) for column in columns if column[:2] not in loud))
