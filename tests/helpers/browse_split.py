"""The /browse/ index reassembled from its filter index and pages (pages/browse_split.py), as
js/browse.js reads them: the tests compare it with the single index."""

from __future__ import annotations

from typing import Any

from generator.analysis.evidence import MEASURED
from generator.pages.browse_split import FILTERS


def reassembled_browse(filters: dict[str, Any], pages: list[dict[str, Any]]) -> dict[str, Any]:
    """{"campaigns", "hosts", "runs"} as pages/browse.py's browse_index: each row of the files
    (the newest file first) with the filter values of the same position."""
    newest_first = sorted(pages, key=lambda page: page["number"], reverse=True)
    rows = [row for page in newest_first for row in page["runs"]]
    assert len(rows) == len(filters["runs"])
    runs = []
    for row, entry in zip(rows, filters["runs"], strict=True):
        offered = dict(zip(FILTERS, entry, strict=True))
        value = {name: filters["values"][name][offered[name]] for name in FILTERS[:-1]}
        product = value["product"]
        record = {
            "id": row["id"],
            "date": row["date"],
            "name": row["name"],
            "product": product,
            "version": value["version"].removeprefix(f"{product} "),
            "workload": value["workload"],
            "campaign": value["campaign"],
            "host": value["host"],
            "status": row["status"],
            "options": [filters["values"]["option"][at] for at in offered["option"]],
            "headline": row["headline"],
        }
        if value["evidence"] != MEASURED:  # an imported run's record names it
            record["evidence"] = value["evidence"]
        runs.append(record)
    assert all(row["campaign"] == run["campaign"] for row, run in zip(rows, runs, strict=True))
    return {"campaigns": filters["campaigns"], "hosts": filters["hosts"], "runs": runs}
