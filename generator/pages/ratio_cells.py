"""The campaign page file: the campaign summary with its table cells ready to print.

An archive's campaign files hold tens of thousands of table cells (a variant at a thread level,
a suite test or an Insert Benchmark step), and Hugo keeps every page file it parsed until the
build ends. A cell of generator/analysis/ratios.py stat_cell is a map of sixteen fields, its
interval a map of five more, and the cell partials formatted it with helpers/num.html once per
number. In the page file a cell keeps only the fields the templates and the article shortcodes
decide on or compute with (variant, state, verdict, and the numbers `value` prints in prose),
and its texts as one string: page_files.CellTexts' fields, formatted as the cell partials did,
joined by CELL_SEPARATOR in that order; layouts/_partials/helpers/cell-texts.html splits it into
a map of those names for the cell partials and the `value` shortcode. None of
the texts holds the separator: they are numbers, units, fixed phrases and marks.

Only the page file changes: the summary (generator/pages/campaign.py) stays plain data for the
campaign index, the overlay figures and the tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from contract.repeats import ENOUGH_PASSES
from generator.analysis.evidence import MEASURED
from generator.analysis.verdict import FLAG_KINDS
from generator.pages.numbers import MISSING, format_fixed, format_number
from generator.pages.packed_rows import CELL_SEPARATOR
from generator.pages.page_files import CELL_TEXTS, CellTexts

# A stat_cell's fields the page file leaves out: those only the texts use, and evidence, which
# no template reads of a cell (a table header shows each variant's).
FORMATTED = (
    "repeats",
    "spread",
    "interval",
    "marker",
    "evidence",
    "no_interval",
    "flags",
    "judged_on",
    "no_judgement",
)
FLAG_MARK = "\u2691"
MARKER_WORDS = {"better": "better", "worse": "worse", "noise": "within noise"}


def _title(cell: dict[str, Any], unit: str, repeat_range: str) -> str:
    """The ratio cell's tooltip: the value it divides, its repeats, its interval or why none,
    its flagged passes and what it was judged on, or why not."""
    if cell["state"] == "missing":
        return ""
    value = f"{format_number(cell['value'])} {unit}"
    parts = [value]
    if cell["state"] == "n/a":
        parts.append("no ratio: the base has no value or zero")
    elif cell["repeats"] > 1:
        parts = [f"median {value} over {cell['repeats']} repeats, range {repeat_range}"]
    if interval := cell["interval"]:
        parts.append(
            f"95 % interval of the ratio {interval['low']:.2f}\u2013{interval['high']:.2f}"
            f" from {interval['method']}"
        )
    if cell["no_interval"]:
        parts.append(f"no interval, not judged: {cell['no_interval']}")
    if flags := _flag_text(cell):
        parts.append(flags)
    if cell["judged_on"] == "unflagged":
        parts.append(f"judged on its {cell['repeats']} unflagged passes")
    if cell["no_judgement"]:
        parts.append(f"not judged: {cell['no_judgement']}")
    return "; ".join(parts)


def _flag_text(cell: dict[str, Any]) -> str:
    """flag_words of a measured cell; a cell resting on imported figures has no verdicts to
    count (analysis/evidence.py)."""
    return flag_words(cell["flags"]) if cell["evidence"] == MEASURED else ""


def flag_words(flags: dict[str, Any]) -> str:
    """ "2 of 3 passes flagged: transient, steal (1)"; "0 of 3 passes flagged"; "" for a cell
    without judged steps (imported, or not measured)."""
    if not flags["passes"]:
        return ""
    words = f"{flags['flagged']} of {flags['passes']} passes flagged"
    if not flags["flagged"]:
        return words
    kinds = [
        FLAG_KINDS[kind][0] + ("" if count == flags["flagged"] else f" ({count})")
        for kind, count in flags["kinds"].items()
    ]
    return f"{words}: {', '.join(kinds)}"


def _interval_text(interval: dict[str, Any], passes: int) -> str:
    """The interval as low-high; from repeats of fewer than ENOUGH_PASSES, followed by how many
    ("(2 passes)"): an interval that wide says how few passes there were, not that the variants
    are alike."""
    text = f"{interval['low']:.2f}\u2013{interval['high']:.2f}"
    if interval["method"] == "repeats" and passes < ENOUGH_PASSES:
        text += f" ({passes} passes)"
    return text


def shown_texts(cell: dict[str, Any], unit: str, repeated: bool) -> CellTexts:
    """The texts of a stat_cell whose value is in unit; repeated: the cell's table shows
    repeat counts and spreads."""
    repeat_range = (
        f"{format_number(cell['low'])}\u2013{format_number(cell['high'])}"
        if cell["repeats"] > 1
        else ""
    )
    interval, flags = cell["interval"], cell["flags"]
    repeats = ""
    if repeated:
        repeats = f"{cell['repeats']}\u00d7"
        if cell["spread"] is not None:
            repeats += f" \u00b7 {format_fixed(cell['spread'] * 100, 1)} %"
    return {
        "value": format_number(cell["value"]),
        "range": repeat_range,
        "ratio": MISSING if cell["ratio"] is None else f"{cell['ratio']:.2f}",
        "title": _title(cell, unit, repeat_range),
        "marker": cell["marker"],
        "marker_words": MARKER_WORDS.get(cell["verdict"], "") if cell["marker"] else "",
        "interval": _interval_text(interval, cell["repeats"]) if interval else "",
        "interval_method": interval["method"] if interval else "",
        "no_interval": cell["no_interval"] or "",
        "repeats": repeats,
        "flag_mark": f"{FLAG_MARK} {flags['flagged']}/{flags['passes']}"
        if flags["flagged"]
        else "",
        "flags": _flag_text(cell),
    }


def shown_cell(cell: dict[str, Any], unit: str, repeated: bool) -> dict[str, Any]:
    """cell as the page file holds it: its fields but FORMATTED's, and "shown", its texts."""
    texts = shown_texts(cell, unit, repeated)
    kept = {name: value for name, value in cell.items() if name not in FORMATTED}
    by_name = cast("Mapping[str, str]", texts)  # every CellTexts field is a str
    return {**kept, "shown": CELL_SEPARATOR.join(by_name[name] for name in CELL_TEXTS)}


def _ratio_table(table: dict[str, Any]) -> dict[str, Any]:
    """A table of ratios.ratio_table: rows by thread level, one unit."""
    repeated = table["most_repeats"] > 1
    rows = [
        {**row, "cells": [shown_cell(cell, table["unit"], repeated) for cell in row["cells"]]}
        for row in table["rows"]
    ]
    return {**table, "rows": rows}


def _suite_table(table: dict[str, Any]) -> dict[str, Any]:
    """A table of suite.level_tables: rows by test under their groups, a unit per row."""
    repeated = table["most_repeats"] > 1
    groups = [
        {
            **group,
            "rows": [
                {
                    **row,
                    "cells": [shown_cell(cell, row["unit"], repeated) for cell in row["cells"]],
                }
                for row in group["rows"]
            ],
        }
        for group in table["groups"]
    ]
    return {**table, "groups": groups}


def _series(series: dict[str, Any]) -> dict[str, Any]:
    """A release series (pages/series.py), its cells as the page file holds them."""
    shown = dict(series)
    for key in ("throughput", "instructions"):
        if key not in series:
            continue
        rows = series[key]["rows"]
        repeated = max(cell["repeats"] for row in rows for cell in row["to_base"]) > 1
        shown[key] = {
            **series[key],
            "rows": [
                {
                    **row,
                    **{
                        side: [shown_cell(cell, row["unit"], repeated) for cell in row[side]]
                        for side in ("to_base", "to_predecessor")
                    },
                }
                for row in rows
            ],
        }
    return shown


def _ibench_workload(workload: dict[str, Any]) -> dict[str, Any]:
    """An Insert Benchmark workload of ibench.campaign_report: a unit per step (column); each
    cell shows its own repeats, the steps being too unlike for one rule per table."""
    rows = [
        {
            **row,
            "cells": [
                shown_cell(cell, unit, cell["repeats"] > 1)
                for cell, unit in zip(row["cells"], workload["units"], strict=True)
            ],
        }
        for row in workload["rows"]
    ]
    return {**workload, "rows": rows}


def _metrics(tables: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {metric: _ratio_table(table) for metric, table in tables.items()}


def campaign_page(summary: dict[str, Any]) -> dict[str, Any]:
    """The campaign page file: summary (left as it is) with every stat_cell as shown_cell."""
    suite, tpcc, ibench = summary["suite"], summary["tpcc"], summary["ibench"]
    return {
        **summary,
        "workloads": [
            {
                **workload,
                "metrics": _metrics(workload["metrics"]),
                "across_hosts": [
                    {**hosts, "metrics": _metrics(hosts["metrics"])}
                    for hosts in workload["across_hosts"]
                ],
            }
            for workload in summary["workloads"]
        ],
        "suite": suite
        and {
            **suite,
            "levels": [
                {
                    **level,
                    "throughput": _suite_table(level["throughput"]),
                    "efficiency": [_suite_table(table) for table in level["efficiency"]],
                }
                for level in suite["levels"]
            ],
            "series": suite["series"] and _series(suite["series"]),
        },
        "tpcc": tpcc and {**tpcc, "metrics": _metrics(tpcc["metrics"])},
        "ibench": ibench
        and {**ibench, "workloads": [_ibench_workload(w) for w in ibench["workloads"]]},
    }
