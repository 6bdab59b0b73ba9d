"""Table rows as the run page file holds them: one string per row, its cells joined by
CELL_SEPARATOR, which the templates split (`split . "\t"`) as they print the row.

Hugo keeps every page file it parsed until the build ends, so what a page file costs in Hugo's
memory, once per run, is what an archive of ten thousand runs has to fit: a row held as one
string costs a few times less than a list of one string per cell (each an interface, a string
header and its bytes). No cell holds the separator: they are numbers, counter and metric names,
step labels.
"""

from __future__ import annotations

from typing import Any

CELL_SEPARATOR = "\t"


def packed(rows: list[list[str]]) -> list[str]:
    """Each row as one string."""
    return [CELL_SEPARATOR.join(row) for row in rows]


def packed_table(table: dict[str, Any] | None) -> dict[str, Any] | None:
    """table with its "rows" packed (its other fields as they are); None for None."""
    return None if table is None else {**table, "rows": packed(table["rows"])}
