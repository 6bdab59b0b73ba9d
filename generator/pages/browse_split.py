"""The /browse/ index (pages/browse.py) as a reader downloads it: a filter index of every run
and the records in pages, newest first.

The filter index holds what the filters match, a few small numbers per run (positions in one
list of values per filter), so filters still work over the whole archive; the pages hold what a
row shows (name, date, campaign, host, status, headline). The page without JavaScript lists
page n at /browse/ (n = 1) or /browse/<n>/ (content/browse/_content.gotmpl); js/browse.js
fetches the filter index, then only the pages holding the rows it draws.
"""

from __future__ import annotations

from typing import Any

from generator.analysis.evidence import MEASURED

PAGE_RUNS = 100  # rows of one page: ~46 kB of HTML and ~20 kB of JSON
# The filters, in the order of a run's entry in the filter index; "option" is a list.
FILTERS = ("product", "version", "workload", "campaign", "host", "evidence", "option")
# A row's fields; "evidence" only an imported run's (analysis/evidence.py).
ROW_FIELDS = ("id", "name", "date", "campaign", "host", "status", "headline", "evidence")


def _filter_values(record: dict[str, Any]) -> dict[str, list[str]]:
    """The values a run offers to each filter (a version is named with its product)."""
    return {
        "product": [record["product"]],
        "version": [f"{record['product']} {record['version']}"],
        "workload": [record["workload"]],
        "campaign": [record["campaign"]],
        "host": [record["host"]],
        "evidence": [record.get("evidence", MEASURED)],
        "option": record["options"],
    }


def browse_filters(index: dict[str, Any]) -> dict[str, Any]:
    """{"campaigns", "hosts" (names, as in the index), "page_runs", "pages", "values": {filter:
    [value, ...]}, "runs": [[position of its value per filter (a list for "option")], ...]}, runs
    in the index's order (newest first), so run i is row i % page_runs of page i // page_runs + 1."""
    values: dict[str, dict[str, int]] = {name: {} for name in FILTERS}
    runs = []
    for record in index["runs"]:
        entry: list[Any] = []
        for name, offered in _filter_values(record).items():
            positions = [values[name].setdefault(value, len(values[name])) for value in offered]
            entry.append(positions if name == "option" else positions[0])
        runs.append(entry)
    return {
        "campaigns": index["campaigns"],
        "hosts": index["hosts"],
        "page_runs": PAGE_RUNS,
        "pages": page_count(index),
        "values": {name: list(found) for name, found in values.items()},
        "runs": runs,
    }


def page_count(index: dict[str, Any]) -> int:
    """How many pages list the index's runs (one, empty, for none)."""
    return max(1, -(-len(index["runs"]) // PAGE_RUNS))


def _page(index: dict[str, Any], number: int, rows: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "number": number,
        "pages": page_count(index),
        "campaigns": {row["campaign"]: index["campaigns"][row["campaign"]] for row in rows},
        "hosts": {row["host"]: index["hosts"][row["host"]] for row in rows},
        "runs": rows,
    }


def browse_pages(index: dict[str, Any]) -> list[dict[str, Any]]:
    """Page n (from 1) at position n - 1: {"number", "pages", "campaigns", "hosts" (the names of
    its rows'), "runs": [row, ...]}, each row the index record's ROW_FIELDS."""
    rows = [
        {field: record[field] for field in ROW_FIELDS if field in record}
        for record in index["runs"]
    ]
    return [
        _page(index, n + 1, rows[n * PAGE_RUNS : (n + 1) * PAGE_RUNS])
        for n in range(page_count(index))
    ]
